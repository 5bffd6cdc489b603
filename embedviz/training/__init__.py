"""The small next-token experiment that trains an embedding table: the run, its model and loop, its result."""
