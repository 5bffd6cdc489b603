"""Errors a reader's input can cause: a stable code, its parameters, and one English template per code.

``raise InputError("even", name="d_model", value=7, about="RoPE")`` reads "d_model (7) must be even for RoPE" in a
notebook, a log or a test, and is still a ValueError for callers that catch one. ``about`` is the one optional
param of every code: the setting a rule belongs to (:data:`ABOUT`), so one condition keeps one code whether a
config's rope_type or nothing is named with it. A page does not parse that sentence:
it looks up ``"err." + code`` in its catalog and fills the reader's language with :meth:`InputError.fields`, each
value rendered as the English renders it (``{value!r}``, ``{n:,}``), so a number reads the same in both languages.
The English text lives here once; a new kind of error is one line in :data:`TEMPLATES` plus its translation.
Each message names the parameter, the value it got and what is allowed.
"""
from __future__ import annotations

import string

_FORMATTER = string.Formatter()

# what ``about=`` adds to any message: the setting the refused rule belongs to ("for rope_type 'yarn'")
ABOUT = " for {about}"

TEMPLATES: dict[str, str] = {
    # the generic checks (_validate.py and its callers)
    "integer": "{name} ({value!r}) must be an integer, got {kind}",
    "huge_at_most": "{name} (an integer of about {digits:,} digits) must be <= {limit:,}",
    "huge_finite": "{name} (an integer of about {digits:,} digits) must be a finite number",
    "at_least": "{name} ({value}) must be >= {limit}",
    "at_most": "{name} ({value}) must be <= {limit}",
    "above": "{name} ({value:g}) must be > {limit:g}",
    "number": "{name} ({value!r}) must be a number",
    "finite": "{name} ({value}) must be finite",
    "even": "{name} ({value}) must be even",
    "multiple": "{name} ({value}) must be a multiple of {k}",
    "interval": "{name} ({value:g}) must be in ({low:g}, {high:g}]",
    "positive_entries": "{name} entries must all be > 0, got min {min:g}",
    "string": "{name} must be a string, got {kind}",
    "string_list": "{name} must be a list or tuple of strings, e.g. ('abc', 'ABC'), got {kind}",
    "missing": "{name} has no {keys}",
    "numeric_array": "{name} must hold numbers, got dtype {dtype}",
    "non_finite": "{name} contains non-finite values (NaN or inf)",
    "one_of": "{name} ({value!r}) must be one of {allowed}",
    "bundled_model": "{name} ({value!r}) must be one of the bundled models: {allowed}",
    "whole_number": "{name} ({value!r}) must be a whole number",
    "boolean": "{name} ({value!r}) must be True or False",
    "non_empty": "{name} ({value!r}) must be a non-empty string",
    "chars": "{name} ({n} characters) must be at most {limit} characters",
    "one_pair": "{name} ({value}) must be >= {limit}: with one pair, theta does not change its frequency",
    "page_range": "{name} ({value:g}) is outside what this page can show ({low:g} to {high:g})",
    # texts and token ids
    "empty_text": "text is empty: type at least one character",
    "empty_ids": "ids is empty: type at least one character",
    "too_long": "Cannot embed context_length ({context_length}) positions: max_context_length is only {limit}",
    "token_id": "token id ({value}) is outside [0, vocab_size) = [0, {limit})",
    "next_token": "next-token prediction needs at least 2 tokens, got {n}: type a longer text",
    "too_few_tokens": "the text has {n} token(s); at least 2 are needed to change their order",
    "too_many_tokens": "the text has {n} tokens; at most {limit} are shown",
    "shuffle_tokens": "the shuffled sentence ({shuffled}) must use exactly the tokens of the original ({original}), "
                      "only in another order",
    "char_bytes": "char ({char!r}) is {n} bytes in UTF-8, so it has {n} ids; pick an ASCII one",
    "other_id": "other_id ({value}) must differ from token_id",
    # glassllm's model reading a text (language_model/)
    "glass_chars": "text holds {n} character(s) glassllm's English tokenizer cannot read: {chars}. It reads English "
                   "letters, digits, spaces, new lines and ! & ' ( ) * , - . : ; ? [ ] _ {{ }} — ‘ ’ “ ” (curly "
                   "double quotes, not straight ones)",
    "window_short": "text has {n:,} tokens; a window of {length:,} positions needs {need:,} (about {chars:,} "
                    "characters of this text)",
    # a bundled model's words (models/pretrained.py) and the word map
    "word_unknown": "word ({word!r}) is not in the vocabulary of {model}: the tokenizer turns it into {pieces} "
                    "(unknown); try another word",
    "word_pieces": "word ({word!r}) is not a single token in {model}: it splits into {n} word pieces {pieces}; pick "
                   "one piece or a more common word",
    "word_list_long": "word list ({n} words) must have at most {limit} words",
    "word_list_short": "word list ({n} usable words) must name at least 2 single-token words",
    "rows_window": "rows ({start}..{end}) must be at least 2 rows inside 0..{last}",
    # the training experiments (training/experiment.py)
    "groups_empty": "groups (empty) must hold at least 1 group",
    "group_small": "groups[{g}] ({value!r}) must hold at least 2 distinct characters",
    "group_shared": "character {ch!r} is in groups[{a}] and groups[{b}]; groups must not share characters",
    "groups_total": "groups hold {n} distinct characters in total; at most {limit} allowed",
    "text_short": "text ({n} {kind} tokens) must be at least context + 1 = {need} tokens long",
    "text_distinct": "text must hold at least 2 distinct {kind} tokens, it has {n}",
    "text_vocab": "text has {n} distinct {kind} tokens; at most {limit} allowed",
    # a pasted config.json (rope/config.py)
    "config_long": "config.json has {n:,} characters; a config has a few thousand (limit {limit:,})",
    "config_empty": "config.json is empty: paste a model's config.json (a JSON object {{ ... }})",
    "config_json": "config.json is not valid JSON: {detail} at line {line}, column {column}",
    "config_deep": "config.json nests objects or arrays too deeply to read (a config has a few levels)",
    "config_digits": "config.json holds a number of more than 4,300 digits; a config's numbers have a few",
    "config_not_object": "config.json must hold a JSON object {{ ... }}, got a JSON {kind}",
    "config_no_theta": "config has no 'rope_theta' (neither top-level nor in rope_parameters)",
    "config_no_head": "config has neither 'head_dim' nor both 'hidden_size' and 'num_attention_heads'",
    "divisible": "{name} ({value}) must be divisible by {other} ({other_value})",
    "scaling_not_dict": "rope_scaling / rope_parameters must be a dict, got {got!r}",
    "scaling_nested": "rope_scaling / rope_parameters '{key}' must be a single value, got a JSON object",
    "factor_past": "factor ({factor:g}) stretches original_max_position_embeddings ({original:,}) past any context "
                   "({limit:,} tokens)",
    "layer_type": "layer_type ({value!r}) is not in rope_parameters; it has: {types}",
    "per_layer": "rope_parameters is per layer type ({types}): pass layer_type= to pick one",
    # the scaling methods (rope/scaling.py) and partial RoPE (rope.py)
    "rope_type_unknown": "{name} ({value!r}) is unknown; known rope types: {known}",
    "rotary_dim": "rotary dimension int(head_dim * partial_rotary_factor) = int({head_dim} * {factor:g}) = {dim} "
                  "must be even and >= 2",
    "beta_order": "beta_fast ({fast:g}) must be >= beta_slow ({slow:g}) for rope_type 'yarn': beta_fast counts the "
                  "turns of the fast pairs that are kept",
    "beta_large": "{name} ({value:g}) is too large: no pair turns that often in {n:,} tokens (the number of turns "
                  "that marks a fast pair)",
    "llama3_order": "high_freq_factor ({high:g}) must be greater than low_freq_factor ({low:g}) for rope_type "
                    "'llama3'",
    "pair_factors_list": "{key} must be a list of d/2 = {half} numbers, got {got}",
    "pair_factors_count": "{key} has {n} entries, the rotary dimension ({dim}) needs {half} (one per pair)",
    "pair_factors_flat": "{key} must be a flat list of {half} numbers, got nested lists",
    # a config's layers (rope/layers.py)
    "layer_flags": "{key} must be a list of 0 / 1 (one per layer, 1 = RoPE), got {got}",
    "layer_flags_count": "{key} has {n} entries, num_hidden_layers ({layers}) needs one per layer",
    "no_layer_count": "config has no 'num_hidden_layers' (nor a 'layer_types' list): the layers cannot be counted",
    "layer_types_list": "layer_types must be a list of strings, got {got}",
    "layer_types_count": "layer_types has {n} entries, num_hidden_layers ({layers}) needs one each",
    "per_layer_config": "per_layer_config must be a dict of layer index -> overrides, got {got}",
    "per_layer_key": "per_layer_config key {key!r} must be a layer index below num_hidden_layers ({layers}) with a "
                     "dict of overrides",
    "family_unread": "{name} ({value}) is a family whose RoPE this page cannot read yet",
    "per_layer_no_types": "rope_parameters is per layer type but the config has no 'layer_types' list (nor "
                          "'sliding_window_pattern'): which layer uses which cannot be known",
    "per_layer_missing": "layer_types names {missing}, but rope_parameters has no entry for it; it has: {has}",
    "mrope_list": "mrope_section must be a list of section sizes like [16, 24, 24], got {got!r}",
    "mrope_sum": "mrope_section {sizes} sums to {total}, head_dim/2 = {pairs} pairs need that sum",
    # the base bound (rope/theory.py) and the context-extension page
    "scan_length": "context_length ({value:,}) must be <= {limit:,} for the base scan",
    "no_base": "no base up to max_base ({max_base:g}) keeps B(m) >= 0 up to {length:,}",
    "proportional_only": "rope_parameters has only 'proportional' layer types: the context-extension methods "
                         "(linear, dynamic, yarn, longrope, llama3) do not apply to them",
    "proportional_layout": "rope_type 'proportional' is a layout of the pairs, not a context extension: the methods "
                           "here are linear, dynamic, yarn, longrope, llama3",
    "config_upload_size": "{file} has {n:,} bytes; a config.json is a few KB (limit {limit} MB)",
    "not_utf8": "{file} is not UTF-8 text ({reason} at byte {byte})",
    "link_damaged": "the link's config.json (ctx_cfgz) is cut or damaged: paste the config again",
    # an uploaded embedding table (models/tensor_files.py)
    "file_suffix": "filename ({value!r}) must end in .safetensors or .npy (pickle and .pt are refused)",
    "file_size": "file size ({n:,} bytes) must be at most {limit:,} bytes",
    "file_empty": "file {file!r} is empty",
    "file_no_tensors": "file {file!r} holds no tensors",
    "npy_header": "file {file!r} is not a valid .npy file (bad header)",
    "npy_corrupt": "file {file!r} is not a valid .npy file (data truncated or corrupt)",
    "npy_objects": "file {file!r} holds Python objects (dtype {dtype}), which would need pickle; only plain numeric "
                   "arrays are accepted",
    "safetensors_invalid": "file {file!r} is not a valid safetensors file: {detail}",
    "several_tensors": "file {file!r} holds several tensors and none is clearly the embedding table: {listed}. Save "
                       "just the (V, D) table, or name it e.g. 'embeddings.word_embeddings.weight'",
    "tensor_dtype": "tensor dtype ({dtype}) must be numeric: one of {allowed}",
    "table_2d": "embedding table in {file!r} has shape {shape}; it must be 2-D (V, D)",
    "table_rows": "embedding table in {file!r} has {V} row(s); it must have at least 2 (V >= 2)",
    "table_columns": "embedding table in {file!r} has {D} columns; it must have at least 1 (D >= 1)",
    "table_too_big": "embedding table in {file!r} has {V:,} x {D:,} = {n:,} values; at most {limit:,} allowed",
    "table_dtype": "embedding table in {file!r} has dtype {dtype}; it must hold real numbers",
    "table_non_finite": "embedding table in {file!r} has {bad:,} non-finite values (NaN or inf); all must be finite",
    # a tour's URL (lessons/tours.py)
    "tour_step": "step ({value}) must be between 1 and {n} for tour {tour}",
    # what a widget, a link or a typed text can still ask past a page's limits
    "lone_surrogate": "text contains U+{codepoint:04X} at index {index}, a lone surrogate with no UTF-8 bytes",
    "one_char": "char ({char!r}) must be exactly one character",
    "pair_range": "pair ({value}) must lie in [0, head_dim/2) = [0, {limit})",
    "rows_cap": "rows ({n}) must be at most {limit} at once for D = {D:,}",
    "logits_cap": "batch_size * targets_per_row * classes ({size} * {targets} * {classes} = {n}) must be at most "
                  "{limit} logits per step",
    "snapshot_cap": "snapshot_every ({value}) keeps {count} snapshots of a ({rows}, {D}) table for steps={steps}; at "
                    "most {limit} fit, use snapshot_every >= {least}",
    "mrope_interleaved": "an interleaved mrope_section needs 3 sizes (time, height, width), got {sizes}",
    "row_number": "word ({word!r}) must be a row number 0..{last}: {model} has no tokenizer",
    "shape_cap": "batch x length x d_model ({n:,}) must be <= {limit:,} for this demo",
    "slow_pairs": "slow_pairs ({value}) must be in [1, head_dim/2 - 1] = [1, {limit}] for head_dim {head_dim}: pair 0 "
                  "turns at w = 1 whatever theta is",
    "zero_vector": "vector must be a finite vector with non-zero length (cosine needs a direction)",
    "upload_gone": "source ({value!r}) is not 'learned' or 'sinusoidal', nor an upload this session still holds: "
                   "upload the table again",
    # a local model directory (pretrained.load_model_dir, models/tensor_files.py)
    "model_dir": "path ({path!r}) must be an existing model directory",
    "model_dir_file": "model directory {dir!r} has no {file}",
    "model_config_json": "config.json in {dir!r} is not valid JSON: {detail}",
    "model_config_object": "config.json in {dir!r} must hold a JSON object",
    "model_no_table": "no token embedding table in {dir!r}: expected a 2-D tensor named like {expected} ...; found "
                      "{listed}",
    "model_tokenizer": "tokenizer.json in {dir!r} cannot be read: {detail}",
    "weight_map": "{file} in {dir!r} has no valid weight_map",
    "shards_missing": "model directory {dir!r} is missing shard(s) {missing}",
    "no_safetensors": "model directory {dir!r} has no model.safetensors",
    "pickle_weights": "model directory {dir!r} has no model.safetensors (found {found}: pickle-based weights are not "
                      "read; convert them to safetensors)",
    "safetensors_unreadable": "{file} is not a readable safetensors file: {detail}",
}


class InputError(ValueError):
    """A reader's input refused: ``code`` (a key of :data:`TEMPLATES`) and the ``params`` its template names.

    ``str(error)`` is the English sentence. An unknown code, or a parameter the template names but the raise site
    forgot, fails at the raise site (KeyError) rather than showing a half-filled message.
    """

    def __init__(self, code: str, /, **params):
        self.code, self.params = code, params
        about = ABOUT.format(about=params["about"]) if params.get("about") else ""
        super().__init__(TEMPLATES[code].format(**params) + about)

    def fields(self) -> dict[str, str]:
        """Each placeholder of the template as the English message renders it (conversion and format spec
        applied), for a translation that names the same placeholders: ``{"name": "d_model", "value": "7"}``."""
        out: dict[str, str] = {}
        for _, name, spec, conversion in _FORMATTER.parse(TEMPLATES[self.code]):
            if name and name not in out:
                value = _FORMATTER.convert_field(self.params[name], conversion)
                out[name] = _FORMATTER.format_field(value, spec)
        if self.params.get("about"):
            out["about"] = str(self.params["about"])
        return out

    def __reduce__(self):
        # st.cache_data pickles what a cached call returns or stores; the default would call InputError(message)
        return _rebuild, (self.code, self.params)


def _rebuild(code: str, params: dict) -> InputError:
    return InputError(code, **params)
