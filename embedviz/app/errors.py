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

_NV = r"^(?P<name>[^\s(]+(?: [^\s(]+)?) \((?P<value>.*)\) "  # "d_model (7) ", "target context (9) "

# (pattern, catalog key): the first that matches the whole message wins
PATTERNS: tuple[tuple[re.Pattern, str], ...] = tuple(
    (re.compile(pattern), key)
    for pattern, key in (
        (_NV + r"must be an integer, got (?P<kind>\S+)$", "err.integer"),
        (_NV + r"must be an integer in (?P<low>\S+)\.\.(?P<high>\S+)$", "err.integer_range"),
        (_NV + r"must be in (?P<low>\S+)\.\.(?P<high>\S+)$", "err.range"),
        (_NV + r"must be >= (?P<limit>\S+)$", "err.at_least"),
        (_NV + r"must be <= (?P<limit>\S+)$", "err.at_most"),
        (_NV + r"must be > (?P<limit>\S+)$", "err.above"),
        (_NV + r"must be a number$", "err.number"),
        (_NV + r"must be finite$", "err.finite"),
        (_NV + r"must be even for (?P<what>.+)$", "err.even"),
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
        (r"^ids is empty: type at least one character$", "err.empty_text"),
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
    )
)


def localized(message: str, lang: str | None = None) -> str:
    """``message`` (a core ValueError's text) in ``lang`` (default: the reader's language)."""
    lang = lang or current_language()
    if lang == DEFAULT_LANGUAGE:
        return message
    for pattern, key in PATTERNS:
        match = pattern.match(message)
        if match:
            return _text(key, lang, **match.groupdict())
    return _text("err.untranslated", lang, message=message)


def _text(key: str, lang: str, /, **values: str) -> str:
    entry = catalog()[key]
    return (entry.get(lang) or entry[DEFAULT_LANGUAGE]).format(**values)
