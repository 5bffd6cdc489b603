"""Core error messages in the reader's language.

The core raises plain English ValueErrors ("d_model (7) must be even for RoPE"): it works in a notebook and its
tests read the messages. A page shows them through :func:`localized`. English readers see the message as raised.
For other languages each known kind of message is a pattern below, paired with a catalog key ("err.<kind>") whose
text takes the pattern's named groups; parameter names and values stay as they are (identifiers and numbers).
A message no pattern knows is shown in English under a translated lead-in ("err.untranslated"), never dropped.
A new kind of error is one line here plus one catalog entry in locales/err.py; tests/app/test_errors.py runs the
core's real messages through every pattern.
"""
from __future__ import annotations

import re

from embedviz.app.i18n import DEFAULT_LANGUAGE, catalog, current_language
from embedviz.app.markup import Markup, escape
from embedviz.errors import InputError

_NV = r"^(?P<name>[^\s(]+(?: [^\s(]+)?) \((?P<value>.*)\) "  # "d_model (7) ", "target context (9) "
_HUGE = r"^(?P<name>[^\s(]+(?: [^\s(]+)?) \(an integer of about (?P<digits>[\d,]+) digits\) "  # a 400-digit number

# (pattern, catalog key): the first that matches the whole message wins
PATTERNS: tuple[tuple[re.Pattern, str], ...] = tuple(
    (re.compile(pattern), key)
    for pattern, key in (
        # before the generic "name (value) ..." kinds, which would also match them
        (_HUGE + r"must be <= (?P<limit>\S+)$", "err.huge_at_most"),
        (_HUGE + r"must be a finite number$", "err.huge_finite"),
        (_NV + r"must be an integer, got (?P<kind>\S+)$", "err.integer"),
        (_NV + r"must be an integer in (?P<low>\S+)\.\.(?P<high>\S+)$", "err.integer_range"),
        (_NV + r"must be in (?P<low>\S+)\.\.(?P<high>\S+)$", "err.range"),
        (_NV + r"must be >= (?P<limit>\S+): with one pair, theta does not change its frequency$", "err.one_pair"),
        (_NV + r"must be >= (?P<limit>\S+)$", "err.at_least"),
        (_NV + r"must be <= (?P<limit>\S+)$", "err.at_most"),
        (_NV + r"must be > (?P<limit>\S+)$", "err.above"),
        (_NV + r"must be a number$", "err.number"),
        (_NV + r"must be finite$", "err.finite"),
        (_NV + r"must be even for (?P<what>.+)$", "err.even"),
        (_NV + r"must be one of (?P<allowed>.+)$", "err.one_of"),
        (_NV + r"is unknown; known rope types: (?P<known>.+)$", "err.rope_type_unknown"),
        (_NV + r"is a family whose RoPE this page cannot read yet$", "err.family_unread"),
        (_NV + r"must be a whole number$", "err.whole_number"),
        (_NV + r"is outside what this page can show \((?P<low>\S+) to (?P<high>\S+)\)$", "err.page_range"),
        (r"^(?P<name>\S+) contains non-finite values \(NaN or inf\)$", "err.non_finite"),
        (r"^the text has (?P<n>\d+) token\(s\); at least 2 are needed to change their order$", "err.too_few_tokens"),
        (r"^the text has (?P<n>\d+) tokens; at most (?P<limit>\d+) are shown$", "err.too_many_tokens"),
        (r"^the shuffled sentence \((?P<shuffled>.*)\) must use exactly the tokens of the original "
         r"\((?P<original>.*)\), only in another order$", "err.shuffle_tokens"),
        (r"^word \((?P<word>.*)\) is not in the vocabulary of (?P<model>\S+): the tokenizer turns it into "
         r"(?P<pieces>.*) \(unknown\); try another word$", "err.word_unknown"),
        (r"^word \((?P<word>.*)\) is not a single token in (?P<model>\S+): it splits into (?P<n>\d+) word pieces "
         r"(?P<pieces>.*); pick one piece or a more common word$", "err.word_pieces"),
        (r"^text is empty: type at least one character$", "err.empty_text"),
        (r"^ids is empty: type at least one character$", "err.empty_ids"),
        (r"^config has no '(?P<key>[^']+)'$", "err.config_missing"),
        (r"^config has no 'rope_theta' \(neither top-level nor in rope_parameters\)$", "err.config_no_theta"),
        (r"^config\.json is empty: paste a model's config\.json \(a JSON object \{ \.\.\. \}\)$", "err.config_empty"),
        (r"^config\.json is not valid JSON: (?P<detail>.*) at line (?P<line>\d+), column (?P<column>\d+)$",
         "err.config_json"),
        (r"^groups\[(?P<g>\d+)\] \((?P<value>.*)\) must hold at least 2 distinct characters$", "err.group_small"),
        (r"^character (?P<ch>.*) is in groups\[(?P<a>\d+)\] and groups\[(?P<b>\d+)\]; groups must not share "
         r"characters$", "err.group_shared"),
        (r"^text \((?P<n>\d+) (?P<kind>\S+) tokens\) must be at least context \+ 1 = (?P<need>\d+) tokens long$",
         "err.text_short"),
        (r"^text must hold at least 2 distinct (?P<kind>\S+) tokens, it has (?P<n>\d+)$", "err.text_distinct"),
        (r"^rows \((?P<rows>.*)\) must be at least 2 rows inside (?P<span>\S+)$", "err.rows_window"),
        (r"^Cannot embed a sequence of length T \((?P<T>\d+)\): max_context_length is only (?P<limit>\d+)$",
         "err.too_long"),
        (r"^token id \((?P<value>.*)\) is outside \[0, vocab_size\) = \[0, (?P<limit>\d+)\)$", "err.token_id"),
        (_NV + r"must be a non-empty string$", "err.non_empty"),
        (r"^(?P<name>\S+) \((?P<n>[\d,]+) characters\) must be at most (?P<limit>[\d,]+) characters$", "err.chars"),
        (r"^next-token prediction needs at least 2 tokens, got (?P<n>\d+): type a longer text$", "err.next_token"),
        # a pasted config.json (RoPE pages)
        (r"^config\.json has (?P<n>[\d,]+) characters; a config has a few thousand \(limit (?P<limit>[\d,]+)\)$",
         "err.config_long"),
        (r"^config\.json must hold a JSON object \{ \.\.\. \}, got a JSON (?P<kind>\w+)$", "err.config_not_object"),
        (r"^config\.json nests objects or arrays too deeply to read \(a config has a few levels\)$", "err.config_deep"),
        (r"^config\.json holds a number of more than 4,300 digits; a config's numbers have a few$", "err.config_digits"),
        (r"^config has neither 'head_dim' nor both 'hidden_size' and 'num_attention_heads'$", "err.config_no_head"),
        (_NV + r"must be divisible by (?P<other>\S+) \((?P<other_value>[^)]*)\)$", "err.divisible"),
        (r"^factor \((?P<value>[^)]*)\) must be a number >= 1 for rope_type '(?P<rope_type>[^']+)'$", "err.scaling_factor"),
        (r"^scaling for rope_type '(?P<rope_type>[^']+)' is missing required key\(s\): (?P<keys>.+)$",
         "err.scaling_missing"),
        (r"^(?P<name>\S+) \((?P<value>[^)]*)\) must be > 0 for rope_type '(?P<rope_type>[^']+)'$", "err.scaling_positive"),
        (r"^(?P<name>\S+) \((?P<value>[^)]*)\) must be a finite number for rope_type '(?P<rope_type>[^']+)'$",
         "err.scaling_finite"),
        # an uploaded embedding table (Real model page)
        (r"^filename \((?P<value>.*)\) must end in \.safetensors or \.npy \(pickle and \.pt are refused\)$",
         "err.file_suffix"),
        (r"^file size \((?P<n>[\d,]+) bytes\) must be at most (?P<limit>[\d,]+) bytes$", "err.file_size"),
        (r"^file (?P<file>.*) is empty$", "err.file_empty"),
        (r"^file (?P<file>.*) holds no tensors$", "err.file_no_tensors"),
        (r"^embedding table in (?P<file>.*) has shape (?P<shape>\[.*\]); it must be 2-D \(V, D\)$", "err.table_2d"),
        (r"^embedding table in (?P<file>.*) has (?P<V>[\d,]+) row\(s\); it must have at least 2 \(V >= 2\)$",
         "err.table_rows"),
        (r"^embedding table in (?P<file>.*) has (?P<bad>[\d,]+) non-finite values \(NaN or inf\); all must be finite$",
         "err.table_non_finite"),
        (r"^embedding table in (?P<file>.*) has (?P<D>-?[\d,]+) columns; it must have at least 1 \(D >= 1\)$",
         "err.table_columns"),
        (r"^embedding table in (?P<file>.*) has (?P<V>[\d,]+) x (?P<D>[\d,]+) = (?P<n>[\d,]+) values; at most "
         r"(?P<limit>[\d,]+) allowed$", "err.table_too_big"),
        (r"^embedding table in (?P<file>.*) has dtype (?P<dtype>\S+); it must hold real numbers$", "err.table_dtype"),
        (r"^tensor dtype \((?P<dtype>[^)]*)\) must be numeric: one of (?P<allowed>.+)$", "err.tensor_dtype"),
        (r"^file (?P<file>.*) is not a valid \.npy file \(bad header\)$", "err.npy_header"),
        (r"^file (?P<file>.*) is not a valid \.npy file \(data truncated or corrupt\)$", "err.npy_corrupt"),
        (r"^file (?P<file>.*) holds Python objects \(dtype (?P<dtype>.*)\), which would need pickle; only plain "
         r"numeric arrays are accepted$", "err.npy_objects"),
        (r"^file (?P<file>.*) is not a valid safetensors file: (?P<detail>.*)$", "err.safetensors_invalid"),
        (r"^file (?P<file>.*) holds several tensors and none is clearly the embedding table: (?P<listed>.*)\. "
         r"Save just the \(V, D\) table, or name it e\.g\. 'embeddings\.word_embeddings\.weight'$",
         "err.several_tensors"),
        # a pasted config.json's rope_scaling / rope_parameters
        (r"^rope_scaling / rope_parameters must be a dict, got (?P<got>.*)$", "err.scaling_not_dict"),
        (r"^rope_scaling / rope_parameters '(?P<key>[^']+)' must be a single value, got a JSON object$",
         "err.scaling_nested"),
        (r"^factor \((?P<factor>[^)]*)\) stretches original_max_position_embeddings \((?P<original>[^)]*)\) past "
         r"any context \((?P<limit>[\d,]+) tokens\)$", "err.factor_past"),
        (r"^layer_type \((?P<value>.*)\) is not in rope_parameters; it has: (?P<types>.*)$", "err.layer_type"),
        (r"^rope_parameters is per layer type \((?P<types>.*)\): pass layer_type= to pick one$", "err.per_layer"),
        # partial RoPE and the methods' own checks (rope.py, rope_scaling.py)
        (r"^partial_rotary_factor \((?P<value>[^)]*)\) must be in \(0, 1\]$", "err.partial_factor"),
        (r"^partial_rotary_factor \((?P<value>[^)]*)\) must be in \(0, 1\] for rope_type '(?P<rope_type>[^']+)'$",
         "err.partial_factor_type"),
        (r"^rotary dimension int\(head_dim \* partial_rotary_factor\) = int\((?P<head_dim>\S+) \* (?P<factor>[^)]+)\) "
         r"= (?P<dim>-?\d+) must be even and >= 2$", "err.rotary_dim"),
        (r"^beta_fast \((?P<fast>[^)]*)\) must be >= beta_slow \((?P<slow>[^)]*)\) for rope_type 'yarn': beta_fast "
         r"counts the turns of the fast pairs that are kept$", "err.beta_order"),
        (r"^truncate \((?P<value>.*)\) must be True or False for rope_type 'yarn'$", "err.truncate"),
        (r"^(?P<name>beta_fast|beta_slow) \((?P<value>[^)]*)\) is too large: no pair turns that often in "
         r"(?P<n>[\d,]+) tokens \(the number of turns that marks a fast pair\)$", "err.beta_large"),
        (r"^high_freq_factor \((?P<high>[^)]*)\) must be greater than low_freq_factor \((?P<low>[^)]*)\) for "
         r"rope_type 'llama3'$", "err.llama3_order"),
        (r"^(?P<key>short_factor|long_factor) has (?P<n>\d+) entries, the rotary dimension \((?P<dim>\d+)\) needs "
         r"(?P<half>\d+) \(one per pair\)$", "err.pair_factors_count"),
        (r"^(?P<key>short_factor|long_factor) must be a list of d/2 = (?P<half>\d+) numbers, got (?P<got>\S+)$",
         "err.pair_factors_list"),
        (r"^(?P<key>short_factor|long_factor) must be a flat list of (?P<half>\d+) numbers, got nested lists$",
         "err.pair_factors_flat"),
        (r"^(?P<key>short_factor|long_factor) entries must all be > 0, got min (?P<min>\S+)$",
         "err.pair_factors_positive"),
        # a config's layers (rope_layers.py)
        (r"^(?P<key>\S+) must be a list of 0 / 1 \(one per layer, 1 = RoPE\), got (?P<got>.*)$", "err.layer_flags"),
        (r"^(?P<key>\S+) has (?P<n>\d+) entries, num_hidden_layers \((?P<layers>\d+)\) needs one per layer$",
         "err.layer_flags_count"),
        (r"^config has no 'num_hidden_layers' \(nor a 'layer_types' list\): the layers cannot be counted$",
         "err.no_layer_count"),
        (r"^layer_types must be a list of strings, got (?P<got>.*)$", "err.layer_types_list"),
        (r"^layer_types has (?P<n>\d+) entries, num_hidden_layers \((?P<layers>\d+)\) needs one each$",
         "err.layer_types_count"),
        (r"^per_layer_config must be a dict of layer index -> overrides, got (?P<got>.*)$", "err.per_layer_config"),
        (r"^per_layer_config key (?P<key>.+) must be a layer index below num_hidden_layers \((?P<layers>\d+)\) with "
         r"a dict of overrides$", "err.per_layer_key"),
        (r"^rope_parameters is per layer type but the config has no 'layer_types' list \(nor "
         r"'sliding_window_pattern'\): which layer uses which cannot be known$", "err.per_layer_no_types"),
        (r"^layer_types names (?P<missing>.+), but rope_parameters has no entry for it; it has: (?P<has>.*)$",
         "err.per_layer_missing"),
        (r"^mrope_section must be a list of section sizes like \[16, 24, 24\], got (?P<got>.*)$", "err.mrope_list"),
        (r"^mrope_section (?P<sizes>\[.*\]) sums to (?P<total>\d+), head_dim/2 = (?P<pairs>\d+) pairs need that "
         r"sum$", "err.mrope_sum"),
        # the base bound (rope_theory.py) and the context-extension page
        (r"^context_length \((?P<value>[^)]*)\) must be <= (?P<limit>\S+) for the base scan$", "err.scan_length"),
        (r"^no base up to max_base \((?P<max_base>[^)]*)\) keeps B\(m\) >= 0 up to (?P<length>[\d,]+)$",
         "err.no_base"),
        (r"^rope_parameters has only 'proportional' layer types: the context-extension methods \(linear, dynamic, "
         r"yarn, longrope, llama3\) do not apply to them$", "err.proportional_only"),
        (r"^rope_type 'proportional' is a layout of the pairs, not a context extension: the methods here are "
         r"linear, dynamic, yarn, longrope, llama3$", "err.proportional_layout"),
        (r"^(?P<file>.+) has (?P<n>[\d,]+) bytes; a config\.json is a few KB \(limit (?P<limit>\S+) MB\)$",
         "err.config_upload_size"),
        (r"^(?P<file>.+) is not UTF-8 text \((?P<reason>.+) at byte (?P<byte>\d+)\)$", "err.not_utf8"),
        (r"^the link's config\.json \(ctx_cfgz\) is cut or damaged: paste the config again$", "err.link_damaged"),
        # the token lessons (raw_ids.py, training.py) and the word map (Real model page)
        (r"^char \((?P<char>.*)\) is (?P<n>\d+) bytes in UTF-8, so it has (?P=n) ids; pick an ASCII one$",
         "err.char_bytes"),
        (r"^other_id \((?P<value>[^)]*)\) must differ from token_id$", "err.other_id"),
        (r"^groups \(empty\) must hold at least 1 group$", "err.groups_empty"),
        (r"^groups hold (?P<n>[\d,]+) distinct characters in total; at most (?P<limit>[\d,]+) allowed$",
         "err.groups_total"),
        (r"^word list \((?P<n>[\d,]+) words\) must have at most (?P<limit>[\d,]+) words$", "err.word_list_long"),
        (r"^word list \((?P<n>[\d,]+) usable words\) must name at least 2 single-token words$",
         "err.word_list_short"),
        # a tour's URL (tours.py)
        (r"^step \((?P<value>[^)]*)\) must be between 1 and (?P<n>\d+) for tour (?P<tour>\S+)$", "err.tour_step"),
    )
)


def localized(error: ValueError | str, lang: str | None = None) -> Markup:
    """``error`` (a core ValueError, or its text) in ``lang`` (default: the reader's language), as markdown that
    shows the message's values (the offending word, a config's string, a file name) as text."""
    lang = lang or current_language()
    if lang == DEFAULT_LANGUAGE:
        return escape(str(error))
    if isinstance(error, InputError):
        return _text(f"err.{error.code}", lang, **error.fields())
    message = str(error)
    for pattern, key in PATTERNS:
        match = pattern.match(message)
        if match:
            return _text(key, lang, **match.groupdict())
    return _text("err.untranslated", lang, message=message)


def _text(key: str, lang: str, /, **values: str) -> Markup:
    entry = catalog()[key]
    return Markup((entry.get(lang) or entry[DEFAULT_LANGUAGE]).format(**{k: escape(v) for k, v in values.items()}))
