"""Real models: their parameter counts and presets, their tables read safely from files, what the rows mean."""

from embedviz._exports import lazy

# its public functions by module (embedviz/_exports.py: each loaded when first asked for)
__all__, __getattr__, __dir__ = lazy(__name__, {
    "e5_file": ("read_e5_file", "dequantize_q4_0"),
    "params": ("embedding_parameter_count", "memory_bytes", "preset_embedding_params", "preset_share"),
    "pretrained": ("bundled_model_dir", "bundled_models", "bundled_model_installed", "load_bundled_model",
                   "load_bundled_positions", "load_model_dir", "load_embedding_file"),
    "tensor_files": ("read_upload", "tensor_shapes", "pick_table", "read_tensor"),
    "word_vectors": ("nearest_neighbours", "analogy", "pair_similarity", "similarity_matrix", "project_2d"),
})
