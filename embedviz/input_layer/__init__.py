"""The input layer: token lookup plus position vectors, summed, (B, T) ids -> (B, T, D) vectors."""

from embedviz._exports import lazy

# its public functions by module (embedviz/_exports.py: each loaded when first asked for)
__all__, __getattr__, __dir__ = lazy(__name__, {
    "composition": ("width_and_params", "shape_trace", "refusal_messages"),
    "embeddings": ("embed_text",),
    "lookup": ("init_std", "init_table", "unique_in_order", "one_hot", "compare_lookups", "distance_comparison",
               "gradient_step", "second_step_rows", "second_step_summary", "table_scale", "row_norm_stats"),
})
