"""Strings of the "Input layer" page."""
PREFIX = "inl."  # every key of STRINGS starts with it (tests/app/test_page_stems.py)
STRINGS = {
    "inl.nav": {"en": "Input layer: token + position", "zh": "输入层：token + 位置"},
    "inl.title": {"en": "The input layer: (B, T) ids → (B, T, D)", "zh": "输入层：(B, T) 的 id → (B, T, D)"},
    "inl.lead": {
        "en": "The tables follow lesson 000's input layer: B sequences of T ids become one (B, T, D) input, the token rows plus the position rows. Move L below T to see the position modules refuse.",
        "zh": '下面的表按第 000 课的输入层走一遍：B 条各 T 个 id 的序列变成一个 (B, T, D) 的输入，即 token 行加位置行。把 L 调到 T 以下，看位置模块怎么拒绝。',
    },
    "inl.intro": {
        "en": (
            "Lesson 000's shape contract. A batch of B sequences of T token ids goes in. Each id picks a row of the "
            "token table (V, D), and positions 0 … T−1 pick rows of a position table (L, D); the two are **summed**. "
            "The (T, D) position vectors get a leading axis, (1, T, D), and PyTorch broadcasts them over the batch: "
            "every sequence gets the same position vectors. Lesson 000 adds that RoPE and ALiBi keep the same "
            "(B, T, D) contract and act at the attention projection instead. That holds for RoPE, which rotates "
            "the projected queries and keys. ALiBi changes no vector at all: it adds a bias to the attention "
            "scores. Below, the lesson's own modules run on a random batch."
        ),
        "zh": (
            "第 000 课的形状契约。输入是 B 条序列、每条 T 个 token id；每个 id 从词嵌入表 (V, D) 里取一行，"
            "位置 0 … T−1 从位置表 (L, D) 里取行，两者**相加**。(T, D) 的位置向量先加一个前导维度变成 "
            "(1, T, D)，再由 PyTorch 沿批维度广播：批里每条序列拿到的位置向量都一样。第 000 课还说，RoPE 和 ALiBi "
            "遵守同样的 (B, T, D) 形状契约，只是在注意力投影阶段施加。这对 RoPE 成立：它旋转投影后的 query 和 key。"
            "ALiBi 则不改变任何向量，而是给注意力分数加上偏置。下面用本课自己的"
            "模块在一个随机批上运行。"
        ),
    },
    "inl.batch": {"en": "batch size B", "zh": "批大小 B"},
    "inl.length": {"en": "sequence length T", "zh": "序列长度 T"},
    "inl.max_length": {"en": "max_context_length L", "zh": "最大上下文长度 L"},
    "inl.d_pos": {"en": "position width if concatenated", "zh": "拼接时位置向量的维度"},
    "inl.trace_header": {"en": "Every shape on the way", "zh": "一路上的每个形状"},
    "inl.tab_shapes": {"en": "Shapes", "zh": "形状"},
    "inl.tab_sum": {"en": "Sum or concatenate", "zh": "求和还是拼接"},
    "inl.col_step": {"en": "step", "zh": "步骤"},
    "inl.col_shape": {"en": "shape", "zh": "形状"},
    "inl.step_ids": {"en": "token ids", "zh": "token id"},
    "inl.step_token_vectors": {"en": "token table lookup W[ids]", "zh": "查词嵌入表 W[ids]"},
    "inl.step_positions": {"en": "position vectors for 0 … T−1", "zh": "位置 0 … T−1 的位置向量"},
    "inl.step_broadcast": {"en": "unsqueeze(0): broadcast over B", "zh": "unsqueeze(0)：沿 B 维广播"},
    "inl.step_sum": {"en": "token + position: the input of block 1", "zh": "token + 位置：第一个 Transformer 块的输入"},
    "inl.sum_header": {"en": "Sum, not concatenation", "zh": "求和，而不是拼接"},
    "inl.sum_text": {
        "en": (
            "Concatenating [token ; position] would also keep both signals, but the width becomes D + D_pos, and "
            "every matrix of every later layer grows with it (one attention block's four width × width projections "
            "grow with its square). Summing keeps the width D through the whole network, and each feature can "
            "decide whether token meaning or position dominates it (lesson 000). It needs the two widths to be "
            "equal."
        ),
        "zh": (
            "拼接 [token ; 位置] 同样能保留两种信号，但宽度变成 D + D_pos，之后每一层的每个矩阵都随之变大"
            "（一个注意力块的四个 宽度 × 宽度 投影矩阵按宽度的平方增长）。求和让整条网络始终保持宽度 D，"
            "每个特征维度可以自己决定让 token 含义还是位置信号占主导（第 000 课）。求和要求两者维度相同。"
        ),
    },
    "inl.col_way": {"en": "combine", "zh": "组合方式"},
    "inl.col_output": {"en": "output shape", "zh": "输出形状"},
    "inl.col_token_table": {"en": "token table", "zh": "词嵌入表参数"},
    "inl.col_position_table": {"en": "learned position table", "zh": "可学习位置表参数"},
    "inl.col_width": {"en": "width of every later layer", "zh": "之后每一层的宽度"},
    "inl.col_attention": {"en": "one attention block (4 × width²)", "zh": "一个注意力块（4 × 宽度²）"},
    "inl.way_sum": {"en": "sum (lesson 000)", "zh": "求和（第 000 课）"},
    "inl.way_concat": {"en": "concatenate", "zh": "拼接"},
    "inl.table_caption": {
        "en": "V = 256 (byte-level ids). Sinusoidal positions store no table: their column would be 0.",
        "zh": "V = 256（字节级 id）。正弦位置编码不存表：这一列对它是 0。",
    },
    "inl.past_header": {"en": "Past max_context_length", "zh": "超出最大上下文长度"},
    "inl.past_text": {
        "en": (
            "Both of the lesson's position modules hold L rows. The learned table has nothing past row L − 1. The "
            "sinusoidal module precomputes L rows and refuses longer inputs too, although its formula is "
            "defined at any position. Set T above L to see both refuse; the messages are the modules' own."
        ),
        "zh": (
            "本课的两种位置模块都只有 L 行：可学习表在第 L − 1 行之后什么都没有；正弦模块预先算好 L 行，"
            "虽然公式对任何位置都有定义，但同样拒绝更长的输入。把 T 调到大于 L，就能看到两者都拒绝；"
            "下面是模块自己的报错信息。"
        ),
    },
    "inl.refused": {"en": "{module} refuses: {message}", "zh": "{module} 拒绝：{message}"},
    "inl.fits": {"en": "T = {T} ≤ L = {L}: both modules answer.", "zh": "T = {T} ≤ L = {L}：两种模块都能正常返回。"},
    "inl.notice": {
        "en": ("Change B: only the shapes that carry the batch change, in their first number, and the position "
               "vectors stay (1, T, D). Raise the concatenated position width: the width and the attention block "
               "grow, while the sum stays at D."),
        "zh": "改变 B：只有带批次的形状会变，而且只变第一个数，位置向量始终是 (1, T, D)。调大拼接时的位置维度：宽度和注意力块的参数都跟着增长，而求和始终保持 D。",
    },
    "inl.cmp_sinusoidal_refuses": {
        "en": (
            "Sinusoidal, as lesson 000 builds it: the formula is defined at position {last}, but the module "
            "precomputes L rows and refuses too. SinusoidalPositionalEmbedding says: “{error}” The table below "
            "shows the formula itself, not that module."
        ),
        "zh": (
            "按第 000 课的写法实现的正弦编码：公式在位置 {last} 上有定义，但模块只预先算好 L 行，同样拒绝。"
            "SinusoidalPositionalEmbedding 报错：“{error}” 下表展示的是公式本身，而不是这个模块。"
        ),
    },
}
