"""Strings of the "Compare encodings" page."""
PREFIX = "cmp."  # every key of STRINGS starts with it (tests/app/test_page_stems.py)
STRINGS = {
    "cmp.nav": {"en": "Compare encodings", "zh": "位置编码对比"},
    "cmp.title": {"en": "Compare positional encodings", "zh": "位置编码方案对比"},
    "cmp.lead": {
        "en": "Five position schemes side by side, at one d_model and context length L. In the first table, only the learned table costs parameters: L × D.",
        "zh": "五种位置方案并排对比，用同一个 d_model 和上下文长度 L。第一张表里，只有可学习位置表需要参数：L × D。",
    },
    "cmp.intro": {
        "en": (
            "Five ways to tell a transformer where each token stands, at the same d_model and context length. "
            "**Sinusoidal** and **learned** add a vector to each token's embedding. **RoPE** rotates queries and "
            "keys inside attention. **ALiBi** subtracts a distance penalty from the attention scores. **None** is "
            "the baseline with no position signal at all."
        ),
        "zh": (
            "在相同的 d_model 和上下文长度下，对比告诉 Transformer 各 token 位置的五种方法。**正弦编码**和"
            "**可学习位置表**把一个向量加到词嵌入上；**RoPE** 在注意力内部旋转查询（query）和键（key）。"
            "**ALiBi** 从注意力分数里减去与距离成正比的惩罚；**无位置编码**是不给位置信号的基线。"
        ),
    },
    "cmp.scheme_sinusoidal": {"en": "sinusoidal", "zh": "正弦"},
    "cmp.scheme_learned": {"en": "learned", "zh": "可学习"},
    "cmp.scheme_rope": {"en": "RoPE", "zh": "RoPE"},
    "cmp.scheme_alibi": {"en": "ALiBi", "zh": "ALiBi"},
    "cmp.scheme_none": {"en": "none", "zh": "无位置编码"},
    "cmp.d_model": {"en": "d_model", "zh": "d_model（向量维度）"},
    "cmp.length": {"en": "context length L", "zh": "上下文长度 L"},
    "cmp.heads": {"en": "attention heads (ALiBi)", "zh": "注意力头数（ALiBi）"},
    "cmp.k": {"en": "k positions past the end", "zh": "超出末尾 k 个位置"},
    "cmp.tab_params": {"en": "Parameters", "zh": "参数量"},
    "cmp.tab_adjacent": {"en": "Neighbouring positions", "zh": "相邻位置"},
    "cmp.tab_matrix": {"en": "All positions", "zh": "所有位置两两对比"},
    "cmp.tab_past": {"en": "Past the maximum length", "zh": "超出最大长度"},
    "cmp.tab_alibi": {"en": "ALiBi", "zh": "ALiBi"},
    "cmp.tab_props": {"en": "Five properties", "zh": "五条性质"},
    "cmp.col_scheme": {"en": "scheme", "zh": "方案"},
    "cmp.col_params": {"en": "position parameters", "zh": "位置参数量"},
    "cmp.col_why": {"en": "why", "zh": "原因"},
    "cmp.params_sinusoidal": {"en": "a formula: nothing to store", "zh": "由公式算出，无需存储"},
    "cmp.params_learned": {"en": "a table: L × D = {L} × {D}", "zh": "一张表：L × D = {L} × {D}"},
    "cmp.params_rope": {"en": "rotation angles from a formula", "zh": "旋转角度由公式算出"},
    "cmp.params_alibi": {"en": "fixed slopes, one per head", "zh": "每个头一个固定斜率"},
    "cmp.params_none": {"en": "nothing at all", "zh": "什么都没有"},
    "cmp.adjacent_intro": {
        "en": (
            "How alike are the position vectors of p and p + 1? Sinusoidal gives the same value at every p: each "
            "pair turns by ω_i per step, wherever it starts. A freshly initialised learned table is random noise "
            "around 0 (training may smooth it later). RoPE adds no vector, so we rotate the all-ones vector: q = k "
            "aligned in every pair, as in lesson 003's decay demo. Its similarities are RoPE's relative scores. "
            "They coincide with the sinusoidal curve because both are sums of cos(ω_i). No encoding puts "
            "nothing into the vectors: p and p + 1 look identical (cos = 1 everywhere). ALiBi has no line here on "
            "purpose: it adds no vector either, yet it does tell positions apart, through a penalty on the attention "
            "scores (its own tab), which a plot of vectors cannot show."
        ),
        "zh": (
            "位置 p 和 p + 1 的位置向量有多像？正弦编码在每个 p 上都一样：每个维度对每走一步转 ω_i，与起点无关。刚初始化"
            "的可学习位置表只是 0 附近的随机噪声（训练之后才可能变得平滑）。RoPE 不添加向量，所以这里旋转全 1 向量："
            "q、k 在每个维度对上同向，和第 003 课的衰减实验一样。它的相似度就是 RoPE 的相对位置分数。"
            "它和正弦曲线完全重合，因为两者都是 cos(ω_i) 之和。无位置编码不往向量里放任何东西：p 和 p + 1 看起来完全相同（处处 cos "
            "= 1）。这里特意没有画 ALiBi：它同样不添加向量，却能区分位置，靠的是加在注意力分数上的惩罚（见 ALiBi 标签页），"
            "这种向量图显示不出来。"
        ),
    },
    "cmp.adjacent_title": {
        "en": "cos(position p, position p + 1), d_model {D}",
        "zh": "cos(位置 p, 位置 p + 1)，d_model {D}",
    },
    "cmp.adjacent_y": {"en": "cosine similarity", "zh": "余弦相似度"},
    "cmp.matrix_intro": {
        "en": ("Sinusoidal and RoPE: high near the diagonal and, with enough pairs, falling with distance (at "
               "d_model 2 or 4 it swings back up), the same along every diagonal (only the gap counts). Learned at "
               "initialisation: no structure off the diagonal. No encoding: every position is the same vector. "
               "ALiBi has no panel: it adds no vector, its distance lives in the scores (ALiBi tab)."),
        "zh": ("正弦和 RoPE：对角线附近高，维度对足够多时随距离下降（d_model 为 2 或 4 时会来回起伏）"
               "，每条对角线上数值相同（只有间隔起作用）。刚初始化的可学习位置表：对角线之外没有任何结构。无位置编码：每个"
               "位置都是同一个向量。ALiBi 没有对应的面板：它不添加向量，距离信息在分数里（见 ALiBi 标签页）"
               "。"),
    },
    "cmp.matrix_title": {
        "en": "Cosine similarity of position vectors, d_model {D}, L = {L}",
        "zh": "位置向量的余弦相似度，d_model {D}，L = {L}",
    },
    "cmp.panel_rope": {"en": "RoPE q·k", "zh": "RoPE q·k"},
    "cmp.matrix_hover": {"en": "p = %{y}, p′ = %{x}<br>cos = %{z:.3f}", "zh": "p = %{y}，p′ = %{x}<br>cos = %{z:.3f}"},
    "cmp.past_intro": {
        "en": (
            "Ask every scheme for a sequence of L + k = {T} tokens, i.e. up to position {last}, while the context "
            "length is L = {L} (positions 0 … {lastrow})."
        ),
        "zh": "让每种方案处理 L + k = {T} 个 token，即一直到位置 {last}，而上下文长度只有 L = {L}（位置 0 … {lastrow}）。",
    },
    "cmp.past_learned": {
        "en": "Learned: the table has no row {last}. LearnedPositionalEmbedding says: “{error}”",
        "zh": "可学习：位置表里没有第 {last} 行。LearnedPositionalEmbedding 报错：“{error}”",
    },
    "cmp.col_result": {"en": "at position {last}", "zh": "在位置 {last}"},
    "cmp.past_learned_cell": {"en": "no row: the lookup raises an error", "zh": "没有这一行：查表报错"},
    "cmp.past_sinusoidal": {
        "en": "the formula continues: PE = [{values}, …]; cos with the previous position {far} (at p = 0: {near})",
        "zh": "公式照样能算：PE = [{values}, …]；与前一个位置的 cos 为 {far}（在 p = 0 处：{near}）",
    },
    "cmp.past_rope": {
        "en": "relative: score({last}, {prev}) = {far}, the same as score(1, 0) = {near}",
        "zh": "相对位置：score({last}, {prev}) = {far}，与 score(1, 0) = {near} 相同",
    },
    "cmp.past_alibi": {
        "en": "relative: head 1's bias({last}, {prev}) = {far}, the same as bias(1, 0) = {near}",
        "zh": "相对位置：第 1 个头的偏置({last}, {prev}) = {far}，与偏置(1, 0) = {near} 相同",
    },
    "cmp.past_none": {
        "en": "nothing to run out of, but also nothing that tells positions apart",
        "zh": "没有长度上限，但也没有任何东西能区分位置",
    },
    "cmp.past_caption": {
        "en": (
            "Defined is not the same as good: a model trained on L positions has never seen the angles or "
            "distances beyond L, which is why context-extension methods exist."
        ),
        "zh": "能算出来不等于效果好：只在 L 个位置上训练过的模型从没见过超出 L 的角度或距离，这正是上下文扩展方法存在的原因。",
    },
    "cmp.alibi_intro": {
        "en": (
            "ALiBi (Press et al. 2021, BLOOM, MPT) adds no vectors. Head h subtracts slope_h × (i − j) from the "
            "score of query i and key j. The slopes form a geometric sequence (8 heads: 1/2, 1/4, …, 1/256), so "
            "steep heads only look nearby and shallow heads look far."
        ),
        "zh": (
            "ALiBi（Press 等 2021，BLOOM、MPT 采用）不添加任何向量。第 h 个头从 query i 与 key "
            "j 的分数中减去 slope_h × (i − j)。斜率构成等比数列（8 个头时为 1/2、1/4……1/256），所以斜"
            "率大的头只看近处，斜率小的头能看得更远。"
        ),
    },
    "cmp.bias_title": {
        "en": "ALiBi bias −slope × (i − j) of {n} of {H} heads, L = {L}",
        "zh": "ALiBi 偏置 −斜率 × (i − j)：{H} 个头中的 {n} 个，L = {L}",
    },
    "cmp.bias_note": {
        "en": "colour stops at −8: a key with that penalty gets e⁻⁸ ≈ 0.03% of its weight; blank: future keys, hidden by a "
              "decoder's causal mask (see Why position)",
        "zh": "颜色在 −8 处截止：受此惩罚的 key 只剩 e⁻⁸ ≈ 0.03% 的权重；空白：未来的 key，被解码器的因果掩码遮住"
              "（见“为什么需要位置”页）",
    },
    "cmp.bias_panel": {"en": "head {h}: {slope}", "zh": "第 {h} 个头：{slope}"},
    "cmp.bias_hover": {"en": "query %{y}, key %{x}<br>bias = %{z:.3f}", "zh": "query %{y}，key %{x}<br>偏置 = %{z:.3f}"},
    "cmp.slopes_title": {"en": "Slopes of the {H} heads", "zh": "{H} 个头的斜率"},
    "cmp.slopes_note": {
        "en": "log scale: a power-of-two head count gives an even staircase (a geometric sequence)",
        "zh": "对数坐标：头数为 2 的幂时呈均匀台阶（等比数列）",
    },
    "cmp.head": {"en": "head", "zh": "注意力头"},
    "cmp.slope": {"en": "slope (log)", "zh": "斜率（对数坐标）"},
    "cmp.props_intro": {
        "en": (
            "Lesson 003's checklist:\n"
            "- **unique**: no two positions collide;\n"
            "- **bounded**: values do not grow with the position;\n"
            "- **relative**: distance is expressible;\n"
            "- **extrapolates**: a model trained on L positions still works past L, using the longer context;\n"
            "- **deterministic**: the same position always gives the same encoding.\n\n"
            "Three marks: ✓ yes, ◐ runs past L but does not extrapolate in that sense, ✗ no. One criterion for "
            "every row: what a model trained on L positions makes of a longer input."
        ),
        "zh": (
            "第 003 课的标准：\n"
            "- **唯一性**：不同位置不撞车；\n"
            "- **有界性**：数值不随位置膨胀；\n"
            "- **相对性**：能表达相对距离；\n"
            "- **可外推**：在 L 个位置上训练的模型超过 L 仍然好用，并且用得上更长的上下文；\n"
            "- **确定性**：同一位置永远得到同一编码。\n\n"
            "三种标记：✓ 满足；◐ 超过 L 也能运行，但不满足上面这种意义上的外推；✗ 不满足。每一行用同一个标准："
            "在 L 个位置上训练的模型，面对更长的输入表现如何。"
        ),
    },
    "cmp.prop_unique": {"en": "unique", "zh": "唯一性"},
    "cmp.prop_bounded": {"en": "bounded", "zh": "有界性"},
    "cmp.prop_relative": {"en": "relative", "zh": "相对性"},
    "cmp.prop_extrapolates": {"en": "extrapolates", "zh": "可外推"},
    "cmp.prop_deterministic": {"en": "deterministic", "zh": "确定性"},
    "cmp.why_sinusoidal_unique": {
        "en": "many frequencies together give each position its own fingerprint",
        "zh": "多个频率组合起来，每个位置都有独一无二的指纹",
    },
    "cmp.why_sinusoidal_bounded": {"en": "every value is a sin or cos in [−1, 1]", "zh": "每个值都是 [−1, 1] 内的正弦或余弦"},
    "cmp.why_sinusoidal_relative": {
        "en": "PE(p + k) is a fixed rotation of PE(p); the model must learn to use it",
        "zh": "PE(p + k) 是 PE(p) 的固定旋转，但要靠模型自己学会利用",
    },
    "cmp.why_sinusoidal_extrapolates": {
        "en": "the formula gives any position, but models trained on L degrade past L (Press et al. 2021 measured it)",
        "zh": "公式能算出任意位置，但在 L 上训练的模型超过 L 就会变差（Press 等 2021 做过测量）",
    },
    "cmp.why_sinusoidal_deterministic": {"en": "a formula, no randomness", "zh": "纯公式，没有随机性"},
    "cmp.why_learned_unique": {"en": "each position has its own trained row", "zh": "每个位置都有自己训练出的一行"},
    "cmp.why_learned_bounded": {"en": "a finite table of small numbers", "zh": "一张由小数值组成的有限表"},
    "cmp.why_learned_relative": {
        "en": "rows are independent parameters: any notion of distance must be learned",
        "zh": "各行是相互独立的参数：距离的概念只能靠学习得到",
    },
    "cmp.why_learned_extrapolates": {"en": "no row exists past L: the lookup fails", "zh": "L 之后没有对应的行：查表失败"},
    "cmp.why_learned_deterministic": {"en": "after training, a fixed lookup", "zh": "训练完成后是固定的查表"},
    "cmp.why_rope_unique": {"en": "each position is its own set of rotation angles", "zh": "每个位置对应一组独特的旋转角度"},
    "cmp.why_rope_bounded": {"en": "a rotation keeps the length of q and k", "zh": "旋转不改变 q 和 k 的长度"},
    "cmp.why_rope_relative": {"en": "q·k depends only on m − n, built into the score", "zh": "q·k 只取决于 m − n，直接体现在分数里"},
    "cmp.why_rope_extrapolates": {
        "en": "any position has an angle, but past the trained length quality drops: hence PI, NTK, YaRN",
        "zh": "任何位置都有角度，但超过训练长度后效果下降：所以才有 PI、NTK、YaRN",
    },
    "cmp.why_rope_deterministic": {"en": "angles come from a formula", "zh": "角度由公式算出"},
    "cmp.why_alibi_unique": {"en": "no vector per position: only distances are encoded", "zh": "没有逐位置的向量：只编码了距离"},
    "cmp.why_alibi_bounded": {
        "en": "the penalty grows with distance without limit (on purpose)",
        "zh": "惩罚随距离无限增大（有意为之）",
    },
    "cmp.why_alibi_relative": {"en": "the bias depends only on i − j", "zh": "偏置只取决于 i − j"},
    "cmp.why_alibi_extrapolates": {
        "en": ("the same slopes run at any length and the loss stays flat past L (“train short, test long”); yet "
               "Press et al. find it may not use the tokens beyond L"),
        "zh": "同样的斜率适用于任意长度，超过 L 后损失也不上升（“短训练，长测试”）；但 Press 等发现它可能并没有用上 L 之外的 token",
    },
    "cmp.why_alibi_deterministic": {"en": "fixed slopes, no parameters", "zh": "固定斜率，没有参数"},
    "cmp.why_none_unique": {
        "en": "every position looks the same: without a causal mask “dog bites man” = “man bites dog” (a decoder's "
              "mask still leaks order: see Why position)",
        "zh": "所有位置看起来都一样：不加因果掩码时“狗咬人”等于“人咬狗”（解码器的掩码仍会泄露顺序，见“为什么需要位置”页）",
    },
    "cmp.why_none_bounded": {"en": "trivially: nothing is added", "zh": "显然成立：什么都没加"},
    "cmp.why_none_relative": {"en": "no distance information at all", "zh": "完全没有距离信息"},
    "cmp.why_none_extrapolates": {
        "en": "defined at any length, since nothing is added; that alone does not make a model trained on L work past L",
        "zh": "任意长度都有定义，因为什么都没加；但这本身并不能让在 L 上训练的模型超过 L 仍然好用",
    },
    "cmp.why_none_deterministic": {"en": "trivially: there is nothing random", "zh": "显然成立：没有任何随机性"},
    "cmp.props_caption": {
        "en": (
            "Lesson 003 sums up: learned loses on extrapolation, and ALiBi trades flexibility over long-range "
            "dependencies for extrapolation. Sinusoidal and RoPE, it says, meet all five: sinusoidal hides distance "
            "inside a sum, RoPE puts it straight into q·k, which is why RoPE became the default. On extrapolation "
            "the lesson contradicts itself. Its own section on long contexts explains that RoPE models fail past "
            "their trained length and need PI, NTK or YaRN. Hence ◐ for both. ALiBi gets ◐ too. Its loss holds "
            "past L: in Press et al.'s tests it is best near twice L and still good at 10,000 tokens. Yet their own "
            "analysis says it may not be using the context beyond L."
        ),
        "zh": "第 003 课的总结是：可学习位置表输在可外推；ALiBi 用长程灵活性换来了外推。它说正弦编码和 RoPE 五条都满足："
              "正弦把相对位置藏在加法里，RoPE 把它直接放进 q·k，这就是 RoPE 成为主流的原因。在可外推这一条上，这一课自相矛盾。"
              "它讲长上下文的那一节恰恰说明 RoPE 模型超过训练长度就会失效，需要 PI、NTK 或 YaRN。所以两者都标 ◐。"
              "ALiBi 也标 ◐。超过 L 后它的损失不上升：Press 等的实验里它在约 2 倍 L 时最好，到 10,000 个 token 仍然不错。"
              "但他们自己的分析指出，它可能并没有用上 L 之外的上下文。",
    },
    "cmp.notice": {
        "en": (
            "Slide L up: only the learned table's parameter count moves (L × D), and only the learned table has no "
            "row past L. Lesson 000's sinusoidal module also refuses longer inputs, but only because it precomputes "
            "L rows; the formula itself goes on. Sinusoidal and RoPE have the same similarity pattern, but RoPE "
            "applies it to q·k instead of adding it to the token."
        ),
        "zh": "把 L 调大：只有可学习位置表的参数量在变（L × D），也只有它在超出 L 时没有对应的行。第 000 课的正弦模块"
              "也拒绝更长的输入，但那只是因为它预先算好了 L 行，公式本身可以继续算下去。正弦和 RoPE 的相似度图案相同，"
              "但 RoPE 把它作用在 q·k 上，而不是加到 token 向量上。",
    },
}
