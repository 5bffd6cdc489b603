"""Real models: their parameter counts and presets, their tables read safely from files, what the rows mean."""
