"""Core error messages for readers of other languages (prefix "err."), used by embedviz/app/errors.py.

English readers see the core's own message, so each "en" here only documents the message it stands for.
"""
STRINGS = {
    "err.integer": {"en": "{name} ({value}) must be an integer, got {kind}", "zh": "{name}（{value}）必须是整数，而不是 {kind}"},
    "err.integer_range": {"en": "{name} ({value}) must be an integer in {low}..{high}",
                          "zh": "{name}（{value}）必须是 {low}..{high} 之间的整数"},
    "err.range": {"en": "{name} ({value}) must be in {low}..{high}", "zh": "{name}（{value}）必须在 {low}..{high} 之间"},
    "err.at_least": {"en": "{name} ({value}) must be >= {limit}", "zh": "{name}（{value}）必须 ≥ {limit}"},
    "err.at_most": {"en": "{name} ({value}) must be <= {limit}", "zh": "{name}（{value}）必须 ≤ {limit}"},
    "err.above": {"en": "{name} ({value}) must be > {limit}", "zh": "{name}（{value}）必须 > {limit}"},
    "err.number": {"en": "{name} ({value}) must be a number", "zh": "{name}（{value}）必须是数字"},
    "err.finite": {"en": "{name} ({value}) must be finite", "zh": "{name}（{value}）必须是有限的数"},
    "err.even": {"en": "{name} ({value}) must be even for {what}", "zh": "{name}（{value}）必须是偶数（{what} 的要求）"},
    "err.page_range": {
        "en": "{name} ({value}) is outside what this page can show ({low} to {high})",
        "zh": "{name}（{value}）超出了本页能显示的范围（{low} 到 {high}）",
    },
    "err.non_finite": {"en": "{name} contains non-finite values (NaN or inf)", "zh": "{name} 含有非有限值（NaN 或 inf）"},
    "err.too_few_tokens": {
        "en": "the text has {n} token(s); at least 2 are needed to change their order",
        "zh": "这段文字只有 {n} 个 token；至少需要 2 个才能调换顺序",
    },
    "err.too_many_tokens": {
        "en": "the text has {n} tokens; at most {limit} are shown",
        "zh": "这段文字有 {n} 个 token；最多只能显示 {limit} 个",
    },
    "err.shuffle_tokens": {
        "en": "the shuffled sentence ({shuffled}) must use exactly the tokens of the original ({original}), only in "
              "another order",
        "zh": "打乱后的句子（{shuffled}）必须恰好使用原句（{original}）的那些 token，只是顺序不同",
    },
    "err.word_unknown": {
        "en": "word ({word}) is not in the vocabulary of {model}: the tokenizer turns it into {pieces} (unknown); "
              "try another word",
        "zh": "词 {word} 不在 {model} 的词表里：分词器把它变成 {pieces}（未知词）；请换一个词",
    },
    "err.word_pieces": {
        "en": "word ({word}) is not a single token in {model}: it splits into {n} word pieces {pieces}; pick one "
              "piece or a more common word",
        "zh": "词 {word} 在 {model} 里不是单个 token：它被切成 {n} 个 WordPiece 片段 {pieces}；请选其中一个片段或更常见的词",
    },
    "err.empty_text": {"en": "ids is empty: type at least one character", "zh": "没有任何 id：请至少输入一个字符"},
    "err.config_missing": {"en": "config has no '{key}'", "zh": "config.json 里没有 '{key}'"},
    "err.config_no_theta": {
        "en": "config has no 'rope_theta' (neither top-level nor in rope_parameters)",
        "zh": "config.json 里没有 'rope_theta'（顶层和 rope_parameters 里都没有）",
    },
    "err.config_empty": {
        "en": "config.json is empty: paste a model's config.json (a JSON object {{ ... }})",
        "zh": "config.json 是空的：请粘贴一个模型的 config.json（一个 JSON 对象 {{ ... }}）",
    },
    "err.config_json": {
        "en": "config.json is not valid JSON: {detail} at line {line}, column {column}",
        "zh": "config.json 不是合法的 JSON：第 {line} 行第 {column} 列（{detail}）",
    },
    "err.group_small": {
        "en": "groups[{g}] ({value}) must hold at least 2 distinct characters",
        "zh": "第 {g} 组（{value}）至少要有 2 个不同的字符",
    },
    "err.group_shared": {
        "en": "character {ch} is in groups[{a}] and groups[{b}]; groups must not share characters",
        "zh": "字符 {ch} 同时出现在第 {a} 组和第 {b} 组；各组不能有相同的字符",
    },
    "err.text_short": {
        "en": "text ({n} {kind} tokens) must be at least context + 1 = {need} tokens long",
        "zh": "文本只有 {n} 个 token（{kind}），至少需要 上下文长度 + 1 = {need} 个",
    },
    "err.text_distinct": {
        "en": "text must hold at least 2 distinct {kind} tokens, it has {n}",
        "zh": "文本至少要有 2 个不同的 token（{kind}），现在只有 {n} 个",
    },
    "err.rows_window": {
        "en": "rows ({rows}) must be at least 2 rows inside {span}",
        "zh": "所选的行（{rows}）必须是 {span} 之内至少 2 行",
    },
    "err.too_long": {
        "en": "Cannot embed a sequence of length T ({T}): max_context_length is only {limit}",
        "zh": "无法嵌入长度 T 为 {T} 的序列：max_context_length 只有 {limit}",
    },
    "err.token_id": {
        "en": "token id ({value}) is outside [0, vocab_size) = [0, {limit})",
        "zh": "token id（{value}）超出了 [0, vocab_size) = [0, {limit})",
    },
    "err.untranslated": {"en": "{message}", "zh": "（以下说明只有英文）{message}"},
}
