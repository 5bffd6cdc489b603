"""Strings of the "Learned positions" page: a real learned position table, and the Transformer paper's
comparison of learned and sinusoidal positions (lesson 003)."""
PREFIX = "learn."  # every key of STRINGS starts with it (tests/app/test_page_stems.py)
STRINGS = {
    "learn.nav": {"en": "Learned positions", "zh": "可学习的位置编码"},
    "learn.title": {
        "en": "Learned positions: a trained position table (all-MiniLM-L6-v2)",
        "zh": "可学习的位置编码：一张训练好的位置表（all-MiniLM-L6-v2）",
    },
    "learn.paper_header": {
        "en": "Learned or sinusoidal? What the Transformer paper found",
        "zh": "可学习还是正弦？Transformer 原论文的发现",
    },
    "learn.paper": {
        "en": (
            "Vaswani et al. (2017, *Attention Is All You Need*, §3.5 and Table 3 row E) also tried a learned "
            "position table and found the two versions gave nearly identical results. They chose the sinusoidal "
            "one because it *may* let the model extrapolate to sequences longer than those seen in training: a "
            "hope, not a result. The Context extension page shows why the formula alone does not make a model work "
            "past its trained length. Later models went the other way: BERT (Devlin et al., 2019; 512 positions) "
            "and GPT-2 (Radford et al., 2019; 1,024 positions) learn their position tables, and most recent open "
            "models use RoPE."
        ),
        "zh": (
            "Vaswani 等人（2017，*Attention Is All You Need*，第 3.5 节和表 3 第 E 行）也试过可学习位置表，"
            "发现两种方案的效果几乎一样。他们选择正弦版，是因为它*有可能*让模型外推到比训练时更长的序列："
            "这是一种期望，并不是实验结论。“上下文扩展”页说明了为什么单靠公式并不能让模型在训练长度之外"
            "正常工作。后来的模型走了另一条路：BERT（Devlin 等，2019；512 个位置）和 GPT-2（Radford 等，"
            "2019；1,024 个位置）都使用可学习位置表，而近年的主流开源模型大多使用 RoPE。"
        ),
    },
    "learn.lead": {
        "en": 'The curve shows how alike neighbouring rows of a learned position table are: about 0.85 almost everywhere, with drops at 0 → 1, near 127 and at the end.',
        "zh": '曲线显示可学习位置表中相邻两行有多像：几乎处处约为 0.85，只在 0 → 1、127 附近和末尾下跌。',
    },
    "learn.intro": {
        "en": (
            "BERT-style models add a **learned** vector for each position: a table of {L} rows × {D} columns, "
            "trained like the token table. Lesson 000 says such a table starts as independent random rows and only "
            "becomes smooth if training makes it so. Here is what training made of it, next to a sinusoidal table "
            "of the same size, which is smooth by construction."
        ),
        "zh": (
            "BERT 这类模型给每个位置加一个**可学习**的向量：一张 {L} 行 × {D} 列的表，和词嵌入表一样靠训练得到。"
            "第 000 课说过，这张表初始化时每一行都是独立的随机向量，只有训练才可能让它变得平滑。下面是训练后的样子，"
            "旁边是同样大小、天生平滑的正弦位置表。"
        ),
    },
    "learn.window": {"en": "positions shown in the matrix", "zh": "矩阵中显示的位置范围"},
    "learn.metric_typical": {"en": "typical step cos (median)", "zh": "相邻相似度中位数"},
    "learn.metric_first": {"en": "first step 0 → 1", "zh": "第一步 0 → 1"},
    "learn.metric_last": {"en": "last step {a} → {b}", "zh": "最后一步 {a} → {b}"},
    "learn.metric_sinusoidal": {"en": "sinusoidal, every step", "zh": "正弦表，每一步都是"},
    "learn.learned": {"en": "learned (MiniLM)", "zh": "可学习（MiniLM）"},
    "learn.sinusoidal": {"en": "sinusoidal (same size)", "zh": "正弦（同样大小）"},
    "learn.matrix_title": {
        "en": "cos(position i, position j) for positions {a} to {b}",
        "zh": "位置 {a} 到 {b} 之间两两的 cos(位置 i, 位置 j)",
    },
    "learn.matrix_note": {
        "en": "every cell shown; the bright diagonal band is 'nearby positions look alike'",
        "zh": "每个格子都显示；对角线附近的亮带表示“相近的位置彼此相似”",
    },
    "learn.pca_title": {
        "en": "The learned position rows {a} to {b} in their two main directions (PCA)",
        "zh": "可学习位置表第 {a} 到 {b} 行在两个主方向上的投影（PCA）",
    },
    "learn.pca_note": {
        "en": "colour = position; the first 12 positions of the range are joined in order",
        "zh": "颜色表示位置；范围内的前 12 个位置按顺序连起来",
    },
    "learn.turn": {
        "en": (
            "Follow the numbered points: from one position to the next, the table turns by about **{deg:.0f}°** "
            "around the centre of this picture, a full circle every **{period:.1f}** positions. That is what "
            "one sin/cos pair of a sinusoidal encoding does (it turns by its frequency ω per position): training "
            "found such a rotation on its own."
        ),
        "zh": (
            "沿着编号的点看：从一个位置到下一个位置，表在这张图里绕中心转了大约 **{deg:.0f}°**，每 **{period:.1f}** "
            "个位置转满一圈。这就是正弦编码中一对 sin/cos 维度的行为（每个位置转过它的频率 ω）：训练自己找到了这样的旋转。"
        ),
    },
    "learn.no_turn": {
        "en": (
            "Follow the numbered points: they do not go round the centre steadily here (about **{deg:.0f}°** per "
            "step, and the two axes are not a circle). A random walk gives such a picture too, so these rows show no "
            "sin/cos-like rotation. Widen the range (rows 128 and beyond) to see the rotation this table does have."
        ),
        "zh": (
            "沿着编号的点看：这里它们并没有稳定地绕中心转（每步大约 **{deg:.0f}°**，两个坐标轴也构不成一个圆）。"
            "随机游走也会画出这样的图，所以这些行看不出类似 sin/cos 的旋转。把范围放宽（第 128 行以后），"
            "就能看到这张表确实存在的旋转。"
        ),
    },
    "learn.offset_title": {
        "en": "Similarity against distance: mean cos(position p, position p+k)",
        "zh": "相似度随距离的变化：cos(位置 p, 位置 p+k) 的平均值",
    },
    "learn.offset_axis": {"en": "distance k (log scale)", "zh": "距离 k（对数坐标）"},
    "learn.offset_note": {
        "en": (
            "the sinusoidal curve depends only on k; the learned one averages many different pairs, and its bumps "
            "about every {period:.1f} positions are the rotation seen in the PCA picture"
        ),
        "zh": "正弦曲线只取决于 k；可学习表的曲线是许多位置对的平均，它大约每 {period:.1f} 个位置出现的起伏就是 PCA 图里看到的旋转",
    },
    "learn.notice": {
        "en": (
            "Inside, the learned table came out smooth: neighbouring positions have cosine about 0.85, and the Similarity "
            "matrix tab shows a bright band along the diagonal, a pattern nobody built in. It breaks at the ends. Position 0 "
            "always holds [CLS], so its row is long and unlike its neighbour. The last positions appear only in the "
            "longest inputs and are the least trained. Around position 127 the table jumps (a likely cause: above). The "
            "sinusoidal table has none of this: every step is the same rotation."
        ),
        "zh": (
            "在中间部分，可学习位置表训练后变得平滑：相邻位置的余弦约为 0.85，“相似度矩阵”标签页里沿对角线出现一条亮带，这并不是"
            "谁设计进去的。到了两端就不平滑了。位置 0 永远放着 [CLS]，它那一行特别长，也和邻居不像。最后几个位置只"
            "在最长的输入里出现，训练得最少。在位置 127 附近也有一次跳变（可能的原因见上文）。正弦表没有这些问题："
            "每一步都是同一个旋转。"
        ),
    },
    # tabs: labels are also the ?learn_tab= values, so keep them short and unique
    "learn.tab_steps": {"en": "Neighbours", "zh": "相邻位置"},
    "learn.tab_matrix": {"en": "Similarity matrix", "zh": "相似度矩阵"},
    "learn.tab_rotation": {"en": "Rotation (PCA)", "zh": "旋转（PCA）"},
    "learn.tab_distance": {"en": "Distance", "zh": "距离"},
    "learn.rows": {"en": "positions shown in the PCA", "zh": "PCA 中显示的位置范围"},
    "learn.jump": {
        "en": (
            "**The jump at position {p1}:** cos({p0}, {p1}) = {a:.4f} and cos({p1}, {p2}) = {b:.4f}, against "
            "{typical:.4f} for a typical step. The larger drop is into row {p1}, not out of it: row {p1} is unlike "
            "both its neighbours. It is also longer than them ({norm:.2f} against a median row length of "
            "{median:.2f}), the way row 0 stands out. This model's own sentence fine-tuning capped its inputs at "
            "{cap} tokens (its model card). An input cut at the cap ends with [SEP] at position {p1}, so row {p1} "
            "learned one token's slot, as row 0 learned [CLS]'s. That is a likely reason, not a documented one. "
            "Rows past {p1} never took part in that fine-tuning, so {p1} → {p2} is rough too; BERT-style "
            "pretraining also runs most of its steps at {cap} tokens."
        ),
        "zh": (
            "**位置 {p1} 处的跳变：** cos({p0}, {p1}) = {a:.4f}，cos({p1}, {p2}) = {b:.4f}，而典型的一步是 "
            "{typical:.4f}。更大的落差在进入第 {p1} 行的那一步，而不是离开它的那一步：第 {p1} 行和两边的邻居都不像。"
            "它也比邻居长（模长 {norm:.2f}，各行模长的中位数是 {median:.2f}），就像第 0 行那样突出。"
            "这个模型自己的句向量微调把输入截断在 {cap} 个 token（见它的模型卡）。被截断的输入在位置 {p1} 上总是 [SEP]，"
            "所以第 {p1} 行学的是一个固定 token 的位置，就像第 0 行学的是 [CLS] 的位置。这是可能的原因，并没有文献记载。"
            "第 {p1} 行之后的行没有参与那次微调，所以 {p1} → {p2} 也不平滑；BERT 类预训练的大部分步数也只用 {cap} 个 token。"
        ),
    },
}
