"""A real RoPE language model run by the core: glassllm's English model, with its RoPE taken from embedviz.rope.

Its own package, above ``rope/`` and ``models/``: ``rope/`` already reads ``models/`` (the presets), so a model whose
rotation comes from ``rope/`` could not sit in ``models/`` without an import cycle, and a forward pass with what it
measures (loss by position, attention by distance) is one concept of its own, not a table.

- ``glass``: the weights and tokenizer read from the installed glassllm package, and the forward pass
- ``extension``: the context-extension methods applied to it, and its loss at each position past its length
- ``heads``: its attention weights, by head and by distance
- ``copying``: whether it copies a passage it has just read (it does not)
"""

from embedviz._exports import lazy

# its public functions by module (embedviz/_exports.py: each loaded when first asked for)
__all__, __getattr__, __dir__ = lazy(__name__, {
    "copying": ("copy_check",),
    "extension": ("rope_parameters", "checked_factor", "max_length", "window_plan", "windows_of", "plan_for",
                  "position_losses", "run_methods", "curve", "bucket_means", "buckets", "separable", "loss_rise"),
    "glass": ("load", "default_text", "encode", "ids_of", "with_trained_length", "frequencies", "forward", "logits",
              "next_token_losses", "checked_length"),
    "heads": ("attention_weights", "distance_profile", "synthetic_decay", "rank_correlation", "head_kinds"),
})
