"""Strings of the "Sinusoidal" page."""
PREFIX = "sin."  # every key of STRINGS starts with it (tests/app/test_page_stems.py)
STRINGS = {
    "sin.nav": {"en": "Sinusoidal", "zh": "正弦位置编码"},
    "sin.title": {"en": "Sinusoidal positional encoding", "zh": "正弦位置编码"},
    "sin.lead": {
        "en": "The figure shows the encoding, one column per position and one row per dimension: the top rows (the first dimensions) change from column to column, the bottom ones barely move.",
        "zh": "下图是编码本身，每个位置一列、每个维度一行：上面几行（前面的维度）逐列变化，下面的几乎不动。",
    },
    "sin.intro": {
        "en": (
            "The original Transformer (2017) gives every position a fixed vector, the same width as the token "
            "embeddings, and adds it to them. Even dimensions hold a sine, odd dimensions a cosine, and each "
            "(sin, cos) pair turns at its own frequency. Like the hands of a clock: the fast pairs tell neighbours "
            "apart, the slow ones tell where in a long text you are. No parameters are learned. The fast pairs are "
            "the first ones (low dimensions), the slow ones the last: lesson 000 says low dimensions are coarse and "
            "high ones fine, the other way round (see the heatmap)."
        ),
        "zh": (
            "2017 年的 Transformer 原论文给每个位置生成一个固定的向量，维度和词嵌入相同，直接加到词嵌入上。"
            "偶数维度填正弦，奇数维度填余弦，每个 (sin, cos) 维度对以各自的频率转动。就像钟表的指针："
            "快的维度对分辨相邻位置，慢的维度对定位在长文本中的大致位置。它不需要学习任何参数。快的是前面的维度对（低维），"
            "慢的是后面的（高维）：第 000 课说低维编码粗粒度、高维编码细粒度，恰好说反了（看下面的热力图）。"
        ),
    },
    "sin.formula_caption": {
        "en": "i is the pair index, D = d_model; with an odd D the last dimension is a sine.",
        "zh": "i 是维度对的编号，D = d_model；D 为奇数时最后一个维度是正弦。",
    },
    "sin.positions": {"en": "number of positions", "zh": "位置个数"},
    "sin.base": {"en": "base (10,000 in the paper)", "zh": "底数 base（论文中为 10,000）"},
    "sin.tab_encoding": {"en": "The encoding", "zh": "编码本身"},
    "sin.tab_lesson": {"en": "Frequencies and distance", "zh": "频率与距离"},
    "sin.tab_similarity": {"en": "Similarity of positions", "zh": "位置之间的相似度"},
    "sin.tab_rotation": {"en": "Rotation: PE(p + k) from PE(p)", "zh": "旋转：由 PE(p) 得到 PE(p + k)"},
    "sin.encoding_more": {
        "en": (
            "The other tabs: each pair's frequency and wavelength, the distance between two positions against their "
            "gap (lesson 003's tables), how alike two positions are, and PE(p + k) as a rotation of PE(p)."
        ),
        "zh": (
            "其他标签页：每个维度对的频率和波长、两个位置的距离随间隔的变化（第 003 课的两张表）、"
            "两个位置有多相似，以及 PE(p + k) 如何由 PE(p) 旋转得到。"
        ),
    },
    "sin.heatmap_title": {
        "en": "The encoding: {L} positions × {D} dimensions",
        "zh": "位置编码：{L} 个位置 × {D} 个维度",
    },
    "sin.heatmap_note": {
        "en": ("fine stripes in the low dimensions (fast), almost flat in the high ones (slow) while L stays below "
               "their wavelength; every column is unique"),
        "zh": "低维区域条纹细密（转得快），高维区域在 L 短于其波长时几乎不变（转得慢）；每一列都独一无二",
    },
    "sin.every_pair": {"en": "showing one dimension pair in every {step}", "zh": "每隔 {step} 个维度对显示一对"},
    "sin.freq_header": {"en": "Frequency and wavelength of each dimension pair", "zh": "每个维度对的频率和波长"},
    "sin.freq_text": {
        "en": "The frequency falls geometrically; the wavelength 2π/ω is how many positions one full turn takes.",
        "zh": "频率按几何级数下降；波长 2π/ω 是转完一整圈需要经过的位置数。",
    },
    "sin.col_pair": {"en": "pair i", "zh": "维度对 i"},
    "sin.col_dims": {"en": "dimensions", "zh": "维度"},
    "sin.col_omega": {"en": "frequency ω", "zh": "频率 ω"},
    "sin.col_wavelength": {"en": "wavelength 2π/ω (positions)", "zh": "波长 2π/ω（位置数）"},
    "sin.freq_truncated": {
        "en": "showing the first {head} and the last {tail} of {n} pairs",
        "zh": "共 {n} 个维度对，显示前 {head} 个和后 {tail} 个",
    },
    "sin.distance_header": {"en": "Distance depends only on the gap", "zh": "距离只和间隔有关"},
    "sin.distance_text": {
        "en": (
            "Each pair adds 2(1 − cos ωk) to the squared distance between PE(s) and PE(s + k): the gap k is in it, "
            "the start s is not. The distance rises, then wobbles below a ceiling: it is bounded, however far apart."
        ),
        "zh": (
            "每个维度对对 PE(s) 与 PE(s + k) 距离平方的贡献是 2(1 − cos ωk)：只含间隔 k，不含起点 s。"
            "距离先上升，之后在一个上限以下起伏：无论隔多远，它都有上界。"
        ),
    },
    "sin.distance_title": {
        "en": "Distance between PE(s) and PE(s + k) against the gap k",
        "zh": "PE(s) 与 PE(s + k) 的距离随间隔 k 的变化",
    },
    "sin.distance_note": {
        "en": "the curves from different starts lie exactly on top of each other",
        "zh": "不同起点算出的曲线完全重合",
    },
    "sin.from_start": {"en": "from position {s}", "zh": "起点 {s}"},
    "sin.typical": {"en": "√D = {v}: the level it settles around", "zh": "√D = {v}：距离最终围绕的水平"},
    "sin.typical_note": {
        "en": "√D is the level the distance hovers around once the gap passes the slowest wavelength ({w} positions) "
              "and every pair has turned; at short gaps it is lower.",
        "zh": "间隔超过最慢的波长（{w} 个位置）、每个维度对都转过一圈之后，距离才围绕 √D 上下波动；间隔较短时低于它。",
    },
    "sin.bound": {"en": "bound √(2D) = {v}", "zh": "上界 √(2D) = {v}"},
    "sin.gap": {"en": "gap k (positions)", "zh": "间隔 k（位置数）"},
    "sin.distance": {"en": "distance ‖PE(s+k) − PE(s)‖", "zh": "距离 ‖PE(s+k) − PE(s)‖"},
    "sin.table_caption": {
        "en": "Lesson 003's numbers: with d_model 8 and base 10,000 this table reproduces them.",
        "zh": "第 003 课的数字：d_model 取 8、base 取 10,000 时，这张表与之完全一致。",
    },
    "sin.col_gap": {"en": "gap k", "zh": "间隔 k"},
    "sin.col_from": {"en": "from {s}", "zh": "起点 {s}"},
    "sin.similarity_header": {"en": "How alike are two positions?", "zh": "两个位置有多相似？"},
    "sin.similarity_title": {
        "en": "Cosine similarity between the encodings of two positions",
        "zh": "两个位置的编码之间的余弦相似度",
    },
    "sin.similarity_note": {
        "en": "a bright band along the diagonal: nearby positions look alike, and it only depends on the distance",
        "zh": "对角线附近一条亮带：相近的位置彼此相似，而且只取决于两者的距离",
    },
    "sin.rotation_header": {"en": "PE(p + k) is a rotation of PE(p)", "zh": "PE(p + k) 是 PE(p) 旋转得到的"},
    "sin.rotation_text": {
        "en": (
            "By the angle-addition formulas each (sin, cos) pair of position p + k is the pair of position p rotated "
            "by the angle k·ωᵢ. (Lesson 004 calls them the sum-to-product formulas, 和差化积; the identity used here "
            "is angle addition, 和角公式.) The matrix R(k) depends on k only, never on p: a fixed linear map that attention "
            "could learn to mean \"k tokens further on\". RoPE turns this idea into the whole method."
        ),
        "zh": (
            "由和角公式，位置 p + k 的每个 (sin, cos) 维度对，就是位置 p 的维度对旋转 k·ωᵢ 角度。"
            "（第 004 课称之为和差化积公式；这里用到的其实是和角公式。）"
            "矩阵 R(k) 只和 k 有关、与 p 无关：这是一个固定的线性变换，模型有机会学出「往后数 k 个 token」的含义。"
            "RoPE 正是把这个思路发展成了整个方法。"
        ),
    },
    "sin.p": {"en": "position p", "zh": "位置 p"},
    "sin.k": {"en": "offset k", "zh": "偏移 k"},
    "sin.sign_note": {  # one note, shown on both the Sinusoidal and the RoPE page
        "en": (
            "Sign convention (the Sinusoidal and RoPE pages). The sinusoidal table writes each pair as (sin, cos), "
            "so its R(k) reads [[cos, sin], [−sin, cos]]. RoPE writes a pair (a, b) in the order (cos, sin), so its "
            "R(m) reads [[cos, −sin], [sin, cos]]. Both advance the pair's angle by +k·ωᵢ: only the order of the two "
            "coordinates differs, not the rotation."
        ),
        "zh": (
            "正负号约定（正弦编码页与 RoPE 页通用）。正弦编码表把每个维度对写成 (sin, cos)，所以它的 R(k) 是 "
            "[[cos, sin], [−sin, cos]]。RoPE 把维度对 (a, b) 按 (cos, sin) 的顺序写，所以它的 R(m) 是 "
            "[[cos, −sin], [sin, cos]]。两者都让这个维度对的角度增加 +k·ωᵢ：不同的只是两个坐标的先后顺序，而不是旋转本身。"
        ),
    },
    "sin.rotation_title": {
        "en": "PE(p + k) from the formula and as R(k)·PE(p)",
        "zh": "由公式直接算出的 PE(p + k) 与 R(k)·PE(p)",
    },
    "sin.rotation_note": {
        "en": "every marker sits on the line: the two ways agree",
        "zh": "每个标记都落在曲线上：两种算法结果一致",
    },
    "sin.series_start": {"en": "PE(p)", "zh": "PE(p)"},
    "sin.series_direct": {"en": "PE(p + k), formula", "zh": "PE(p + k)，公式直接计算"},
    "sin.series_rotated": {"en": "R(k)·PE(p)", "zh": "R(k)·PE(p)"},
    "sin.rotation_error": {"en": "max |PE(p + k) − R(k)·PE(p)|", "zh": "最大误差 |PE(p + k) − R(k)·PE(p)|"},
    "sin.value": {"en": "value", "zh": "数值"},
    "sin.notice": {
        "en": ("Increase the base and the slow pairs get slower (pair 0 always turns 1 radian per position): the "
               "heatmap's flat region grows, the similarity band widens. Whatever you choose, the distance curves "
               "from different starts coincide and the markers sit on the line."),
        "zh": "把 base 调大，慢速维度对转得更慢（第 0 对始终每个位置转 1 弧度）：热力图中平坦的区域变大，相似度的亮带变宽。无论怎么调，不同起点的距离曲线始终重合，旋转的标记始终落在曲线上。",
    },
}
