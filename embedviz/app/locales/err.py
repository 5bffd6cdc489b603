"""Core error messages for readers of other languages (prefix "err."), used by embedviz/app/errors.py.

English readers see the core's own message, so each "en" here only documents the message it stands for.
"""
STRINGS = {
    "err.integer": {"en": "{name} ({value}) must be an integer, got {kind}", "zh": "{name}（{value}）必须是整数，而不是 {kind}"},
    "err.integer_range": {"en": "{name} ({value}) must be an integer in {low}..{high}",
                          "zh": "{name}（{value}）必须是 {low}..{high} 之间的整数"},
    "err.range": {"en": "{name} ({value}) must be in {low}..{high}", "zh": "{name}（{value}）必须在 {low}..{high} 之间"},
    "err.at_least": {"en": "{name} ({value}) must be >= {limit}", "zh": "{name}（{value}）必须 ≥ {limit}"},
    "err.one_pair": {"en": "{name} ({value}) must be >= {limit}: with one pair, theta does not change its frequency",
                     "zh": "{name}（{value}）必须 ≥ {limit}：只有一个维度对时，theta 不改变它的频率"},
    "err.at_most": {"en": "{name} ({value}) must be <= {limit}", "zh": "{name}（{value}）必须 ≤ {limit}"},
    "err.above": {"en": "{name} ({value}) must be > {limit}", "zh": "{name}（{value}）必须 > {limit}"},
    "err.huge_at_most": {"en": "{name} (an integer of about {digits} digits) must be <= {limit}",
                         "zh": "{name}（约 {digits} 位的整数）必须 ≤ {limit}"},
    "err.huge_finite": {"en": "{name} (an integer of about {digits} digits) must be a finite number",
                        "zh": "{name}（约 {digits} 位的整数）太大，必须是有限的数"},
    "err.one_of": {"en": "{name} ({value}) must be one of {allowed}", "zh": "{name}（{value}）必须是以下之一：{allowed}"},
    "err.family_unread": {"en": "{name} ({value}) is a family whose RoPE this page cannot read yet",
                          "zh": "{name}（{value}）这一模型族的 RoPE 由其建模代码另行计算，本页暂时无法读取"},
    "err.rope_type_unknown": {"en": "{name} ({value}) is unknown; known rope types: {known}",
                              "zh": "{name}（{value}）未知；已知的 rope_type 有：{known}"},
    "err.whole_number": {"en": "{name} ({value}) must be a whole number", "zh": "{name}（{value}）必须是整数"},
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
    "err.empty_text": {"en": "text is empty: type at least one character", "zh": "文本为空：请至少输入一个字符"},
    "err.empty_ids": {"en": "ids is empty: type at least one character", "zh": "没有任何 id：请至少输入一个字符"},
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
    # the rest of what a pasted config.json, a link or a lesson's input can meet (these reached a Chinese reader in
    # English under the "only in English" lead-in)
    "err.partial_factor": {"en": "partial_rotary_factor ({value}) must be in (0, 1]",
                           "zh": "partial_rotary_factor（{value}）必须在 (0, 1] 之内"},
    "err.partial_factor_type": {
        "en": "partial_rotary_factor ({value}) must be in (0, 1] for rope_type '{rope_type}'",
        "zh": "rope_type '{rope_type}' 的 partial_rotary_factor（{value}）必须在 (0, 1] 之内",
    },
    "err.rotary_dim": {
        "en": "rotary dimension int(head_dim * partial_rotary_factor) = int({head_dim} * {factor}) = {dim} must be "
              "even and >= 2",
        "zh": "旋转维度 int(head_dim * partial_rotary_factor) = int({head_dim} * {factor}) = {dim}，它必须是 ≥ 2 的偶数",
    },
    "err.beta_order": {
        "en": "beta_fast ({fast}) must be >= beta_slow ({slow}) for rope_type 'yarn': beta_fast counts the turns of "
              "the fast pairs that are kept",
        "zh": "rope_type 'yarn' 的 beta_fast（{fast}）必须 ≥ beta_slow（{slow}）：beta_fast 是快速维度对的圈数，"
              "转得比它多的维度对保持不变",
    },
    "err.truncate": {"en": "truncate ({value}) must be True or False for rope_type 'yarn'",
                     "zh": "rope_type 'yarn' 的 truncate（{value}）必须是 `True` 或 `False`"},
    "err.beta_large": {
        "en": "{name} ({value}) is too large: no pair turns that often in {n} tokens (the number of turns that marks "
              "a fast pair)",
        "zh": "{name}（{value}）太大了：在 {n} 个 token 内没有哪个维度对能转这么多圈（它是划分快速维度对的圈数）",
    },
    "err.llama3_order": {
        "en": "high_freq_factor ({high}) must be greater than low_freq_factor ({low}) for rope_type 'llama3'",
        "zh": "rope_type 'llama3' 的 high_freq_factor（{high}）必须大于 low_freq_factor（{low}）",
    },
    "err.pair_factors_count": {
        "en": "{key} has {n} entries, the rotary dimension ({dim}) needs {half} (one per pair)",
        "zh": "{key} 有 {n} 项，而旋转维度（{dim}）需要 {half} 项（每个维度对一项）",
    },
    "err.pair_factors_list": {"en": "{key} must be a list of d/2 = {half} numbers, got {got}",
                              "zh": "{key} 必须是由 d/2 = {half} 个数组成的列表，而这里是 `{got}`"},
    "err.pair_factors_flat": {"en": "{key} must be a flat list of {half} numbers, got nested lists",
                              "zh": "{key} 必须是由 {half} 个数组成的一层列表，不能嵌套列表"},
    "err.pair_factors_positive": {"en": "{key} entries must all be > 0, got min {min}",
                                  "zh": "{key} 的每一项都必须 > 0，而最小的一项是 {min}"},
    "err.layer_flags": {
        "en": "{key} must be a list of 0 / 1 (one per layer, 1 = RoPE), got {got}",
        "zh": "{key} 必须是由 0 / 1 组成的列表（每层一个，1 表示使用 RoPE），而这里是 {got}",
    },
    "err.layer_flags_count": {
        "en": "{key} has {n} entries, num_hidden_layers ({layers}) needs one per layer",
        "zh": "{key} 有 {n} 项，而 num_hidden_layers（{layers}）要求每层一项",
    },
    "err.no_layer_count": {
        "en": "config has no 'num_hidden_layers' (nor a 'layer_types' list): the layers cannot be counted",
        "zh": "config.json 里没有 'num_hidden_layers'（也没有 'layer_types' 列表）：无法知道模型有多少层",
    },
    "err.layer_types_list": {"en": "layer_types must be a list of strings, got {got}",
                             "zh": "layer_types 必须是由字符串组成的列表，而这里是 {got}"},
    "err.layer_types_count": {
        "en": "layer_types has {n} entries, num_hidden_layers ({layers}) needs one each",
        "zh": "layer_types 有 {n} 项，而 num_hidden_layers（{layers}）要求每层一项",
    },
    "err.per_layer_config": {
        "en": "per_layer_config must be a dict of layer index -> overrides, got {got}",
        "zh": "per_layer_config 必须是一个 JSON 对象（层序号 -> 要覆盖的设置），而这里是 {got}",
    },
    "err.per_layer_key": {
        "en": "per_layer_config key {key} must be a layer index below num_hidden_layers ({layers}) with a dict of "
              "overrides",
        "zh": "per_layer_config 的键 {key} 必须是小于 num_hidden_layers（{layers}）的层序号，"
              "并对应一个写明要覆盖哪些设置的 JSON 对象",
    },
    "err.per_layer_no_types": {
        "en": "rope_parameters is per layer type but the config has no 'layer_types' list (nor "
              "'sliding_window_pattern'): which layer uses which cannot be known",
        "zh": "rope_parameters 按层类型分开给出，但 config.json 里没有 'layer_types' 列表（也没有 "
              "'sliding_window_pattern'）：无法知道哪一层用哪一种设置",
    },
    "err.per_layer_missing": {
        "en": "layer_types names {missing}, but rope_parameters has no entry for it; it has: {has}",
        "zh": "layer_types 里有 {missing}，但 rope_parameters 里没有它的设置；rope_parameters 里有：{has}",
    },
    "err.mrope_list": {
        "en": "mrope_section must be a list of section sizes like [16, 24, 24], got {got}",
        "zh": "mrope_section 必须是由各段大小组成的列表，例如 [16, 24, 24]，而这里是 {got}",
    },
    "err.mrope_sum": {
        "en": "mrope_section {sizes} sums to {total}, head_dim/2 = {pairs} pairs need that sum",
        "zh": "mrope_section {sizes} 的总和是 {total}，而 head_dim/2 = {pairs} 个维度对要求总和正好是 {pairs}",
    },
    "err.scan_length": {"en": "context_length ({value}) must be <= {limit} for the base scan",
                        "zh": "扫描底数下界时，context_length（{value}）必须 ≤ {limit}"},
    "err.no_base": {
        "en": "no base up to max_base ({max_base}) keeps B(m) >= 0 up to {length}",
        "zh": "在 max_base（{max_base}）以内，没有哪个底数能让 B(m) 在长度 {length} 以内始终 ≥ 0",
    },
    "err.proportional_only": {
        "en": "rope_parameters has only 'proportional' layer types: the context-extension methods (linear, dynamic, "
              "yarn, longrope, llama3) do not apply to them",
        "zh": "rope_parameters 里只有 'proportional' 类型的层：上下文扩展方法（linear、dynamic、yarn、longrope、llama3）"
              "不适用于它们",
    },
    "err.proportional_layout": {
        "en": "rope_type 'proportional' is a layout of the pairs, not a context extension: the methods here are "
              "linear, dynamic, yarn, longrope, llama3",
        "zh": "rope_type 'proportional' 是维度对的一种排布方式，不是上下文扩展方法：这里的方法是 "
              "linear、dynamic、yarn、longrope、llama3",
    },
    "err.config_upload_size": {
        "en": "{file} has {n} bytes; a config.json is a few KB (limit {limit} MB)",
        "zh": "{file} 有 {n} 字节；一个 config.json 通常只有几 KB（上限 {limit} MB）",
    },
    "err.not_utf8": {"en": "{file} is not UTF-8 text ({reason} at byte {byte})",
                     "zh": "{file} 不是 UTF-8 文本（字节偏移 {byte} 处：{reason}）"},
    "err.link_damaged": {
        "en": "the link's config.json (ctx_cfgz) is cut or damaged: paste the config again",
        "zh": "链接里的 config.json（ctx_cfgz）被截断或损坏了：请重新粘贴配置",
    },
    "err.char_bytes": {
        "en": "char ({char}) is {n} bytes in UTF-8, so it has {n} ids; pick an ASCII one",
        "zh": "字符 {char} 在 UTF-8 里占 {n} 个字节，所以有 {n} 个 id；请选一个 ASCII 字符",
    },
    "err.other_id": {"en": "other_id ({value}) must differ from token_id",
                     "zh": "other_id（{value}）不能与 token_id 相同"},
    "err.groups_empty": {"en": "groups (empty) must hold at least 1 group", "zh": "分组是空的：至少要有 1 组"},
    "err.groups_total": {
        "en": "groups hold {n} distinct characters in total; at most {limit} allowed",
        "zh": "各组一共有 {n} 个不同的字符；最多允许 {limit} 个",
    },
    "err.word_list_long": {"en": "word list ({n} words) must have at most {limit} words",
                           "zh": "词列表有 {n} 个词，最多只能有 {limit} 个"},
    "err.word_list_short": {
        "en": "word list ({n} usable words) must name at least 2 single-token words",
        "zh": "词列表里只有 {n} 个可用的词；至少需要 2 个只占一个 token 的词",
    },
    "err.tour_step": {"en": "step ({value}) must be between 1 and {n} for tour {tour}",
                      "zh": "导览 {tour} 的步骤（{value}）必须在 1 到 {n} 之间"},
}
