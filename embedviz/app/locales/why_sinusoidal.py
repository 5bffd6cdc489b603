"""Strings of the "Why sine and cosine" page."""
PREFIX = "why_sinusoidal."  # every key of STRINGS starts with it (tests/app/test_page_stems.py)
STRINGS = {
    "why_sinusoidal.nav": {"en": "Why sine and cosine", "zh": "为什么用正弦和余弦"},
    "why_sinusoidal.title": {"en": "Why sine and cosine?", "zh": "为什么偏偏是正弦和余弦？"},
    "why_sinusoidal.lead": {
        "en": 'Three simple ways to encode a position each fail in their own way; the first chart shows the raw index, whose value grows without bound. The tabs show the others and the sinusoidal answer.',
        "zh": '三种简单的位置编码各有各的毛病；第一张图是原始下标，它的值无限增长。其余标签页是另外两种，以及正弦编码的解法。',
    },
    "why_sinusoidal.intro": {
        "en": (
            "Lesson 003 works backwards from the obvious ideas. Three simple ways to write a position into a vector "
            "each have a flaw; the sinusoidal encoding keeps what is good in the third (a binary counter) and "
            "removes its jumps. Change the length, the position and the width D and watch each flaw."
        ),
        "zh": (
            "第 003 课从最直接的想法倒推。把位置写进向量，最容易想到三个办法，但每个都有毛病；正弦编码保留了"
            "第三个办法（二进制计数器）的优点，去掉了它的硬跳变。调节序列长度、位置和维度 D，"
            "逐一看清每个毛病。"
        ),
    },
    # tabs: labels are also the ?why_sinusoidal_tab= values, so keep them short and unique
    "why_sinusoidal.tab_raw": {"en": "1. Raw index", "zh": "1. 位置编号"},
    "why_sinusoidal.tab_norm": {"en": "2. Index / length", "zh": "2. 编号归一化"},
    "why_sinusoidal.tab_binary": {"en": "3. Binary", "zh": "3. 二进制"},
    "why_sinusoidal.tab_smooth": {"en": "The fix: sine and cosine", "zh": "解决办法：正弦和余弦"},
    "why_sinusoidal.tab_table": {"en": "Side by side", "zh": "并排对比"},
    "why_sinusoidal.length": {"en": "sequence length L", "zh": "序列长度 L"},
    "why_sinusoidal.other_length": {"en": "another length L₂", "zh": "另一个长度 L₂"},
    "why_sinusoidal.position": {"en": "position p", "zh": "位置 p"},
    "why_sinusoidal.clipped": {
        "en": "Position {asked} does not exist in a sequence of {L} tokens; showing the last one, {p}.",
        "zh": "长度为 {L} 的序列里没有位置 {asked}；这里显示最后一个位置 {p}。",
    },
    "why_sinusoidal.raw_header": {"en": "1. The raw index: x = p", "zh": "1. 直接用位置编号：x = p"},
    "why_sinusoidal.raw_text": {
        "en": (
            "Put the integer itself into the vector. Nothing bounds it: the largest value is L − 1 and grows with "
            "every longer text, while token vectors start with entries of a few hundredths (standard deviation "
            "0.02, lesson 000). Position values hundreds to hundreds of thousands of times larger drown the token's meaning and make "
            "training unstable."
        ),
        "zh": (
            "把整数本身塞进向量。它没有上界：最大值是 L − 1，文本越长越大；而 token 向量初始化时每个分量只有"
            "百分之几（标准差 0.02，第 000 课）。大出几百到几十万倍的位置数值会淹没 token 的语义，训练也不稳定。"
        ),
    },
    "why_sinusoidal.raw_max": {"en": "largest value (L − 1)", "zh": "最大值（L − 1）"},
    "why_sinusoidal.raw_ratio": {"en": "times a token-vector entry (0.02)", "zh": "是 token 向量分量（0.02）的多少倍"},
    "why_sinusoidal.raw_title": {"en": "Raw index at length {L}: the value keeps growing", "zh": "长度 {L} 时的位置编号：数值一直增大"},
    "why_sinusoidal.value": {"en": "value", "zh": "取值"},
    "why_sinusoidal.series_raw": {"en": "x = p", "zh": "x = p"},
    "why_sinusoidal.norm_header": {"en": "2. Index / length: x = p / L", "zh": "2. 编号归一化：x = p / L"},
    "why_sinusoidal.norm_text": {
        "en": (
            "Divide by the length: every value now lies in [0, 1). But the same value names a different position "
            "in sequences of different lengths (lesson 003: 0.5 is word 5 of 10 and word 500 of 1,000). And one "
            "step between neighbours shrinks as the text grows. The model cannot tell what a value means without "
            "knowing L."
        ),
        "zh": (
            "除以序列长度：所有取值都落在 [0, 1) 之间。但同一个值在不同长度的序列里表示不同的位置（第 003 课："
            "0.5 在 10 个词的句子里是第 5 个词，在 1000 个词的句子里是第 500 个词）。相邻位置之间的差距也随"
            "文本变长而变小。不知道 L，模型就读不懂一个值的含义。"
        ),
    },
    "why_sinusoidal.norm_value": {"en": "p / L at position {p} (L = {L})", "zh": "位置 {p} 的 p / L（L = {L}）"},
    "why_sinusoidal.norm_other": {"en": "where the same value falls when L₂ = {L2}", "zh": "L₂ = {L2} 时同一个值落在的位置"},
    "why_sinusoidal.norm_step": {"en": "step between neighbours (1 / L)", "zh": "相邻位置的差（1 / L）"},
    "why_sinusoidal.norm_title": {"en": "p / L for two lengths: one value, two positions", "zh": "两个长度下的 p / L：同一个值，两个位置"},
    "why_sinusoidal.series_norm": {"en": "p / {L}", "zh": "p / {L}"},
    "why_sinusoidal.bin_header": {"en": "3. Binary: one bit per dimension", "zh": "3. 二进制编码：每一位占一个维度"},
    "why_sinusoidal.bin_text": {
        "en": ("Write p in binary, one bit per dimension. Bounded (0 or 1), unique (up to 2^D positions) and "
               "independent of the length: the first two flaws are gone. But every bit jumps between 0 and 1, and "
               "the distance between neighbours is uneven: from 7 to 8 four bits flip at once (D ≥ 4), from 8 to 9 "
               "only one. Bit b flips with period 2, 4, 8, 16, … (doubling); the smooth counter on the right keeps "
               "those periods and replaces each square wave with a cosine."),
        "zh": ("把 p 写成二进制，每一位占一个维度。有界（0 或 1）、唯一（最多 2^D 个位置）、与序列长度无关："
               "前两个毛病都解决了。但每一位都在 0 和 1 之间硬跳变，相邻位置的距离也忽大忽小：从 7 到 8 有四"
               "位同时翻转（D ≥ 4 时），从 8 到 9 只翻转一位。第 b 位的翻转周期是 2、4、8、16……（"
               "逐位翻倍）；右图的平滑计数器保留这些周期，只把每个方波换成余弦波。"),
    },
    "why_sinusoidal.code": {
        "en": "p = {p} in {D} bits (highest bit first): **{code}**",
        "zh": "p = {p} 的 {D} 位二进制（高位在前）：**{code}**",
    },
    "why_sinusoidal.collide": {
        "en": "With D = {D} bits only {n} positions are distinct: position {a} and position {b} get the same code.",
        "zh": "D = {D} 位只能区分 {n} 个位置：位置 {a} 和位置 {b} 的编码完全相同。",
    },
    "why_sinusoidal.counter_title": {
        "en": "The first {n} positions: binary bits and a smooth counter with the same periods",
        "zh": "前 {n} 个位置：二进制各位，以及周期相同的平滑计数器",
    },
    "why_sinusoidal.counter_binary": {"en": "binary: bit b of p", "zh": "二进制：p 的第 b 位"},
    "why_sinusoidal.counter_smooth": {"en": "smooth: (1 − cos(π p / 2^b)) / 2", "zh": "平滑：(1 − cos(π p / 2^b)) / 2"},
    "why_sinusoidal.counter_note": {
        "en": "periods {periods} positions, from the top row down",
        "zh": "从上到下各行的周期：{periods} 个位置",
    },
    "why_sinusoidal.bit": {"en": "bit b", "zh": "第 b 位"},
    "why_sinusoidal.steps_title": {
        "en": "Distance from position p to p + 1 (D = {D})",
        "zh": "位置 p 到 p + 1 的距离（D = {D}）",
    },
    "why_sinusoidal.steps_note": {
        "en": "binary jumps by √(number of flipped bits); sinusoidal moves the same amount at every step",
        "zh": "二进制每一步移动 √(翻转的位数)，忽大忽小；正弦编码每一步移动的距离都相同",
    },
    "why_sinusoidal.steps_y": {"en": "distance to the next position", "zh": "到下一个位置的距离"},
    "why_sinusoidal.sin_text": {
        "en": (
            "**The sinusoidal encoding is the continuous version of the binary counter.** Its dimension pairs, "
            "like the bits, turn from fast to slow, with wavelengths growing geometrically (2π · 10000^(2i/D) "
            "instead of 2^(b+1)); each pair is a smooth sine and cosine instead of a square wave. So it is "
            "bounded, unique, independent of the length and smooth: every step moves the same distance."
        ),
        "zh": (
            "**正弦编码就是二进制计数器的连续版。** 它的维度对和二进制各位一样由快到慢地转动，波长按几何级数"
            "拉长（2π · 10000^(2i/D)，而不是 2^(b+1)）；每一对是平滑的正弦和余弦，而不是方波。所以它有界、"
            "唯一、与序列长度无关，而且平滑：每走一步移动的距离都相同。"
        ),
    },
    "why_sinusoidal.table_header": {"en": "The four schemes side by side", "zh": "四种方案并排对比"},
    "why_sinusoidal.col_scheme": {"en": "scheme", "zh": "方案"},
    "why_sinusoidal.col_max": {"en": "largest |value|", "zh": "最大 |取值|"},
    "why_sinusoidal.col_step_min": {"en": "smallest step", "zh": "最小步长"},
    "why_sinusoidal.col_step_max": {"en": "largest step", "zh": "最大步长"},
    "why_sinusoidal.col_distinct": {"en": "positions with their own code (of {L})", "zh": "编码独一无二的位置数（共 {L} 个）"},
    "why_sinusoidal.scheme_raw": {"en": "raw index p", "zh": "位置编号 p"},
    "why_sinusoidal.scheme_normalized": {"en": "index / length p / L", "zh": "编号归一化 p / L"},
    "why_sinusoidal.scheme_binary": {"en": "binary (D bits)", "zh": "二进制（D 位）"},
    "why_sinusoidal.scheme_sinusoidal": {"en": "sinusoidal (D dimensions)", "zh": "正弦编码（D 维）"},
    "why_sinusoidal.history_pointer": {
        "en": (
            "Learned or sinusoidal? The Transformer paper tried both; what it found, and a real learned table, are on "
            "the **Learned positions** page."
        ),
        "zh": "可学习还是正弦？Transformer 原论文两种都试过；论文的结论以及一张真实的可学习位置表，见“可学习的位置编码”页。",
    },
    "why_sinusoidal.notice": {
        "en": ("Set L to 4,096: the raw index reaches 4,095, about 200,000 times a token-vector entry. Set L₂ to 10 "
               "and L to 1,000: the value 0.5 is position 5 in one and position 500 in the other. In the distance "
               "plot (D = 8, L ≥ 33), the binary line jumps at 7 → 8, 15 → 16, 31 → 32 while the sinusoidal line "
               "stays flat."),
        "zh": ("把 L 调到 4,096：位置编号最大到 4,095，约是 token 向量分量的 20 万倍。把 L₂"
               " 设为 10、L 设为 1,000：同一个值 0.5 在一个序列里是位置 5，在另一个里是位置 500。"
               "距离图里（D = 8、L ≥ 33），二进制曲线在 7 → 8、15 → 16、31 → 32 处跳高，"
               "正弦曲线始终是一条水平线。"),
    },
}
