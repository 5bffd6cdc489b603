"""Where a token stands: why attention needs positions, the naive codes, sinusoidal, ALiBi, and table analysis."""

from embedviz._exports import lazy

# its public functions by module (embedviz/_exports.py: each loaded when first asked for)
__all__, __getattr__, __dir__ = lazy(__name__, {
    "alibi": ("alibi_slopes", "alibi_bias", "bias_at", "relative_bias"),
    "analysis": ("smoothness", "notable_steps", "offset_similarity", "turn_period", "turn_degrees", "plane_turn",
                 "is_rotation"),
    "attention": ("softmax", "random_projections", "text003_setup", "logit_scale", "self_attention",
                  "permutation_demo", "split_tokens", "token_vectors", "reverse_permutation", "random_permutation",
                  "permutation_between", "learned_position_table", "position_table", "word_order_demo"),
    "budget": ("qwen3_position_budget",),
    "sinusoidal": ("frequencies", "wavelengths", "pair_dims", "sinusoidal_rows", "sinusoidal_table", "distance_vs_gap",
                   "distance_levels", "rotation_matrix", "rotate_encoding", "rotation_check"),
    "why_sinusoidal": ("raw_index", "normalized_index", "normalized_value", "position_with_value", "on_axis",
                       "binary_code", "smooth_counter", "bit_periods", "adjacent_steps", "compare_schemes"),
})
