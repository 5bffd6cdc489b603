"""The small next-token experiment that trains an embedding table: the run, its model and loop, its result."""

from embedviz._exports import lazy

# its public functions by module (embedviz/_exports.py: each loaded when first asked for)
__all__, __getattr__, __dir__ = lazy(__name__, {
    "experiment": ("train_group_experiment", "train_on_text"),
    "loop": ("fit",),
    "result": ("group_similarity", "snapshot_curves", "cross_group_peak", "cross_group_zero", "snapshot_projections",
               "projection_limit", "text_pairs", "loss_floor", "class_ordered_similarity"),
})
