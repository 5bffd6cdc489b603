"""Strings of the "Dot product and cosine" page."""
PREFIX = "dot."  # every key of STRINGS starts with it (tests/app/test_page_stems.py)
STRINGS = {
    "dot.nav": {"en": "Dot product and cosine", "zh": "点积与余弦相似度"},
    "dot.title": {"en": "Dot product and cosine similarity", "zh": "点积与余弦相似度"},
    "dot.lead": {
        "en": "Two arrows u and v, their dot product and their cosine. Turn v towards a right angle: both fall to 0.",
        "zh": "两个箭头 u 和 v，以及它们的点积和余弦。把 v 转到和 u 垂直：两者都降到 0。",
    },
    "dot.intro": {
        "en": (
            "The next pages measure how alike two vectors are. Lesson 002 defines the two measures used everywhere "
            "in a transformer: the **length** of a vector and the **dot product** of two. The cosine is the dot "
            "product with the lengths divided out. Two arrows in a plane show it; the same algebra holds in 384 or "
            "768 dimensions."
        ),
        "zh": (
            "后面的页面都要衡量两个向量有多相似。第 002 课定义了 Transformer 里处处用到的两个量：向量的"
            "**模长**和两个向量的**点积**。余弦相似度就是除掉两个模长之后的点积。下面用平面上的两个箭头演示；"
            "同样的代数在 384 维或 768 维里一样成立。"
        ),
    },
    "dot.len_u": {"en": "length of u", "zh": "u 的长度"},
    "dot.len_v": {"en": "length of v", "zh": "v 的长度"},
    "dot.ang_u": {"en": "direction of u (degrees)", "zh": "u 的方向（度）"},
    "dot.ang_v": {"en": "direction of v (degrees)", "zh": "v 的方向（度）"},
    "dot.m_dot": {"en": "u · v", "zh": "u · v"},
    "dot.m_product": {"en": "|u| |v| cos θ", "zh": "|u| |v| cos θ"},
    "dot.m_cos": {"en": "cosine similarity", "zh": "余弦相似度"},
    "dot.m_angle": {"en": "angle θ", "zh": "夹角 θ"},
    "dot.fig_title": {"en": "Two vectors: u = ({ux}, {uy}), v = ({vx}, {vy})", "zh": "两个向量：u = ({ux}, {uy})，v = ({vx}, {vy})"},
    "dot.fig_note": {
        "en": "same direction: large positive dot · right angle: 0 · opposite: large negative",
        "zh": "方向相同：点积为大的正数 · 互相垂直：0 · 方向相反：大的负数",
    },
    "dot.rules": {
        "en": (
            "Pointing the same way gives a large positive dot product, opposite ways a large negative one, a right "
            "angle exactly 0. The dot product also grows with the lengths (double |v| and it doubles); the cosine "
            "does not change, so it compares directions only, in [−1, 1]. Attention scores are dot products of "
            "queries and keys; the similarity tables on the next pages are cosines."
        ),
        "zh": (
            "方向相同时点积是大的正数，方向相反时是大的负数，互相垂直时正好为 0。点积还会随长度变大"
            "（把 |v| 加倍，点积也加倍）；余弦相似度不变，所以它只比较方向，取值在 [−1, 1]。注意力分数就是 "
            "查询（query）和键（key）的点积；后面页面里的相似度表都是余弦相似度。"
        ),
    },
    "dot.tab_arrows": {"en": "Two arrows", "zh": "两个箭头"},
    "dot.tab_predict": {"en": "Predict the similarity", "zh": "预测相似度"},
    "dot.predict_text": {
        "en": (
            "Lesson 002's activity. For each pair of words, guess how close their vectors are in a trained model "
            "(the bundled all-MiniLM-L6-v2, 30,522 tokens × 384 dimensions), then reveal the cosines."
        ),
        "zh": (
            "第 002 课的课堂活动。先猜一猜每对词在训练好的模型里向量有多接近（内置的 all-MiniLM-L6-v2，"
            "30,522 个 token × 384 维），然后揭晓余弦相似度。"
        ),
    },
    "dot.band_close": {"en": "close (≥ 0.4)", "zh": "很接近（≥ 0.4）"},
    "dot.band_related": {"en": "related (0.15 – 0.4)", "zh": "有些相关（0.15 – 0.4）"},
    "dot.band_unrelated": {"en": "unrelated (−0.15 – 0.15)", "zh": "无关（−0.15 – 0.15）"},
    "dot.band_opposite": {"en": "opposite (< −0.15)", "zh": "相反（< −0.15）"},
    "dot.reveal": {"en": "Reveal the answers", "zh": "揭晓答案"},
    "dot.col_pair": {"en": "pair", "zh": "词对"},
    "dot.col_guess": {"en": "your guess", "zh": "你的猜测"},
    "dot.col_cos": {"en": "cosine in the model", "zh": "模型里的余弦相似度"},
    "dot.col_band": {"en": "band", "zh": "区间"},
    "dot.col_right": {"en": "right?", "zh": "猜对了吗"},
    "dot.score": {"en": "right guesses", "zh": "猜对的个数"},
    "dot.hidden": {
        "en": "Make your guesses, then switch on “Reveal the answers”.",
        "zh": "先做出猜测，再打开“揭晓答案”。",
    },
    "dot.notice": {
        "en": (
            "Turn v until θ = 90°: the dot product is 0 whatever the lengths. In the activity, good/bad is usually "
            "the surprise: antonyms appear in the same contexts, so their vectors are close, not opposite."
        ),
        "zh": (
            "把 v 转到 θ = 90°：无论长度多少，点积都是 0。猜词活动里最出人意料的通常是 good/bad："
            "反义词出现在相同的上下文里，所以它们的向量是接近的，而不是相反的。"
        ),
    },
}
