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
    "err.non_empty": {"en": "{name} ({value}) must be a non-empty string", "zh": "{name}（{value}）不能为空"},
    "err.chars": {
        "en": "{name} ({n} characters) must be at most {limit} characters",
        "zh": "{name} 有 {n} 个字符，最多只能有 {limit} 个",
    },
    "err.next_token": {
        "en": "next-token prediction needs at least 2 tokens, got {n}: type a longer text",
        "zh": "预测下一个 token 至少需要 2 个 token，现在只有 {n} 个：请输入更长的文字",
    },
    "err.config_long": {
        "en": "config.json has {n} characters; a config has a few thousand (limit {limit})",
        "zh": "config.json 有 {n} 个字符；一个配置通常只有几千个（上限 {limit}）",
    },
    "err.config_not_object": {
        "en": "config.json must hold a JSON object {{ ... }}, got a JSON {kind}",
        "zh": "config.json 必须是一个 JSON 对象 {{ ... }}，这里却是 JSON `{kind}`",
    },
    "err.config_deep": {
        "en": "config.json nests objects or arrays too deeply to read (a config has a few levels)",
        "zh": "config.json 的对象或数组嵌套太深，无法读取（一个配置通常只有几层）",
    },
    "err.config_digits": {
        "en": "config.json holds a number of more than 4,300 digits; a config's numbers have a few",
        "zh": "config.json 里有一个超过 4,300 位的数；配置里的数通常只有几位",
    },
    "err.config_no_head": {
        "en": "config has neither 'head_dim' nor both 'hidden_size' and 'num_attention_heads'",
        "zh": "config.json 里既没有 'head_dim'，也没有同时给出 'hidden_size' 和 'num_attention_heads'",
    },
    "err.divisible": {
        "en": "{name} ({value}) must be divisible by {other} ({other_value})",
        "zh": "{name}（{value}）必须能被 {other}（{other_value}）整除",
    },
    "err.scaling_factor": {
        "en": "factor ({value}) must be a number >= 1 for rope_type '{rope_type}'",
        "zh": "rope_type '{rope_type}' 的 factor（{value}）必须是 ≥ 1 的数",
    },
    "err.scaling_missing": {
        "en": "scaling for rope_type '{rope_type}' is missing required key(s): {keys}",
        "zh": "rope_type '{rope_type}' 的缩放设置缺少必需的键：{keys}",
    },
    "err.scaling_positive": {
        "en": "{name} ({value}) must be > 0 for rope_type '{rope_type}'",
        "zh": "rope_type '{rope_type}' 的 {name}（{value}）必须 > 0",
    },
    "err.scaling_finite": {
        "en": "{name} ({value}) must be a finite number for rope_type '{rope_type}'",
        "zh": "rope_type '{rope_type}' 的 {name}（{value}）必须是有限的数",
    },
    "err.file_suffix": {
        "en": "filename ({value}) must end in .safetensors or .npy (pickle and .pt are refused)",
        "zh": "文件名（{value}）必须以 .safetensors 或 .npy 结尾（不接受 pickle 和 .pt）",
    },
    "err.file_size": {
        "en": "file size ({n} bytes) must be at most {limit} bytes",
        "zh": "文件大小为 {n} 字节，最多只能有 {limit} 字节",
    },
    "err.file_empty": {"en": "file {file} is empty", "zh": "文件 {file} 是空的"},
    "err.file_no_tensors": {"en": "file {file} holds no tensors", "zh": "文件 {file} 里没有任何张量"},
    "err.table_2d": {
        "en": "embedding table in {file} has shape {shape}; it must be 2-D (V, D)",
        "zh": "{file} 里的嵌入表形状是 {shape}；它必须是二维的 (V, D)",
    },
    "err.table_rows": {
        "en": "embedding table in {file} has {V} row(s); it must have at least 2 (V >= 2)",
        "zh": "{file} 里的嵌入表只有 {V} 行；至少需要 2 行（V ≥ 2）",
    },
    "err.table_non_finite": {
        "en": "embedding table in {file} has {bad} non-finite values (NaN or inf); all must be finite",
        "zh": "{file} 里的嵌入表有 {bad} 个非有限值（NaN 或 inf）；所有值都必须是有限的数",
    },
    "err.untranslated": {"en": "{message}", "zh": "（以下说明只有英文）{message}"},
    # the rest of what an upload or a pasted config.json can meet (session 4: these reached a Chinese reader in English)
    "err.table_columns": {
        "en": "embedding table in {file} has {D} columns; it must have at least 1 (D >= 1)",
        "zh": "{file} 里的嵌入表有 {D} 列；至少要有 1 列（D >= 1）",
    },
    "err.table_too_big": {
        "en": "embedding table in {file} has {V} x {D} = {n} values; at most {limit} allowed",
        "zh": "{file} 里的嵌入表有 {V} x {D} = {n} 个数；最多允许 {limit} 个",
    },
    "err.table_dtype": {
        "en": "embedding table in {file} has dtype {dtype}; it must hold real numbers",
        "zh": "{file} 里的嵌入表的数据类型是 {dtype}；它必须是实数",
    },
    "err.tensor_dtype": {
        "en": "tensor dtype ({dtype}) must be numeric: one of {allowed}",
        "zh": "张量的数据类型（{dtype}）必须是数值类型，可选：{allowed}",
    },
    "err.npy_header": {"en": "file {file} is not a valid .npy file (bad header)",
                       "zh": "文件 {file} 不是有效的 .npy 文件（文件头损坏）"},
    "err.npy_corrupt": {"en": "file {file} is not a valid .npy file (data truncated or corrupt)",
                        "zh": "文件 {file} 不是有效的 .npy 文件（数据被截断或损坏）"},
    "err.npy_objects": {
        "en": "file {file} holds Python objects (dtype {dtype}), which would need pickle; only plain numeric arrays "
              "are accepted",
        "zh": "文件 {file} 里存的是 Python 对象（数据类型 {dtype}），读取它需要 pickle；这里只接受普通的数值数组",
    },
    "err.safetensors_invalid": {"en": "file {file} is not a valid safetensors file: {detail}",
                                "zh": "文件 {file} 不是有效的 safetensors 文件：{detail}"},
    "err.several_tensors": {
        "en": "file {file} holds several tensors and none is clearly the embedding table: {listed}. Save just the "
              "(V, D) table, or name it e.g. 'embeddings.word_embeddings.weight'",
        "zh": "文件 {file} 里有多个张量，看不出哪个是嵌入表：{listed}。请只保存那张 (V, D) 的表，"
              "或者把它命名为例如 'embeddings.word_embeddings.weight'",
    },
    "err.scaling_not_dict": {"en": "rope_scaling / rope_parameters must be a dict, got {got}",
                             "zh": "rope_scaling / rope_parameters 必须是一个 JSON 对象 {{ ... }}，而这里是 {got}"},
    "err.scaling_nested": {
        "en": "rope_scaling / rope_parameters '{key}' must be a single value, got a JSON object",
        "zh": "rope_scaling / rope_parameters 里的 '{key}' 必须是单个值，而这里是一个 JSON 对象",
    },
    "err.factor_past": {
        "en": "factor ({factor}) stretches original_max_position_embeddings ({original}) past any context "
              "({limit} tokens)",
        "zh": "factor（{factor}）把 original_max_position_embeddings（{original}）拉长到超出了能显示的任何上下文"
              "（{limit} 个 token）",
    },
    "err.layer_type": {"en": "layer_type ({value}) is not in rope_parameters; it has: {types}",
                       "zh": "rope_parameters 里没有 layer_type（{value}）；它有：{types}"},
    "err.per_layer": {
        "en": "rope_parameters is per layer type ({types}): pass layer_type= to pick one",
        "zh": "rope_parameters 按层类型分开给出（{types}）：请选一种层类型（layer_type=）",
    },
}
