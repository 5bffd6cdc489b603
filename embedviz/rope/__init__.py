"""Rotary position embedding: the rotation, configs, scaling (context extension), layers, theory and vision."""

from embedviz._exports import lazy

# its public functions by module (embedviz/_exports.py: each loaded when first asked for)
__all__, __getattr__, __dir__ = lazy(__name__, {
    "config": ("parse_config_json", "config_text_part", "scaling_of", "from_config"),
    "context_extension": ("extension_settings", "build_scaling", "context_length_for", "beyond_factor",
                          "classify_pairs", "extension_view"),
    "layer_curves": ("setting_curves", "temperature_curve"),
    "layers": ("num_layers_of", "layer_types_of", "rope_layer_flags", "layer_plan", "nope_attention_scale",
               "mrope_sections", "mrope_of", "mla_softmax_scale", "published_config", "rotated_dimensions",
               "exponent_dim"),
    "pairing": ("compare_pairings",),
    "reach": ("layer_reach", "context_of"),
    "rotary": ("inverse_frequencies", "wavelengths", "rotation_angles", "rotary_dim", "rotate", "half_to_interleaved",
               "decay_curve", "decay_of_frequencies", "random_score_stats", "rotate_2d", "score_2d", "pair_demo",
               "rotation_cos", "pair_of_dimension", "pair_dimensions", "dimension_cos", "turns_within",
               "scores_vs_offset"),
    "scaling": ("per_pair_factors", "resolve_rope_type", "yarn_betas", "formula", "attention_factor_latex", "compute",
                "dynamic_base"),
    "theory": ("critical_dimension", "score_sum", "first_negative", "base_lower_bound", "interpolation_bound",
               "extrapolation_bound", "extrapolation_to_interpolation", "base_bound", "base_bound_summary",
               "training_theory", "theory_summary"),
    "theta_calculator": ("theta_for_context", "slow_pair_count", "theta_for_context_latex"),
    "vision": ("axial_frequencies", "patch_angles", "patch_similarity"),
})
