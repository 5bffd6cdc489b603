"""Strings of the "Why position" page (prefix "why.")."""
STRINGS = {
    "why.nav": {"en": "Why position", "zh": "为什么需要位置"},
    "why.title": {"en": "Why a transformer needs positions", "zh": "为什么 Transformer 需要位置信息"},
    "why.intro": {
        "en": (
            "Attention puts all token vectors together and scores every pair with a dot product. It sees a **set** of "
            "vectors, not a sequence: shuffle the tokens and the outputs are shuffled the same way, value for value. "
            "This is called **permutation equivariance**. Type a sentence, shuffle it, and compare."
        ),
        "zh": (
            "注意力把所有 token 向量放在一起，两两做点积打分。它看到的是向量的**集合**，而不是序列："
            "把 token 打乱，输出也只是跟着按同样的方式重排，每个值都不变。这个性质叫**置换等变**。"
            "输入一句话，打乱它，对比一下。"
        ),
    },
    "why.formula_caption": {
        "en": "P is any permutation matrix: shuffling the input rows only shuffles the output rows.",
        "zh": "P 是任意置换矩阵：打乱输入的行，只会同样地打乱输出的行。",
    },
    "why.text": {"en": "Sentence", "zh": "句子"},
    "why.text_help": {
        "en": "Words are split at spaces; Chinese characters count as one token each (try 狗咬人).",
        "zh": "按空格切分单词；中文每个字算一个 token（试试「狗咬人」）。",
    },
    "why.split": {"en": "Tokens are", "zh": "token 的单位"},
    "why.split_words": {"en": "words", "zh": "词"},
    "why.split_chars": {"en": "characters", "zh": "字符"},
    "why.shuffle": {"en": "Shuffle", "zh": "打乱方式"},
    "why.shuffle_reverse": {"en": "reverse", "zh": "倒序"},
    "why.shuffle_random": {"en": "random", "zh": "随机"},
    "why.shuffle_typed": {"en": "type it", "zh": "手动输入"},
    "why.order": {"en": "Shuffled sentence (the same tokens in another order)", "zh": "打乱后的句子（同样的 token，换个顺序）"},
    "why.seed": {"en": "Random seed (word vectors, Wq/Wk/Wv, shuffle)", "zh": "随机种子（词向量、Wq/Wk/Wv、打乱顺序）"},
    "why.positions": {"en": "Add positions to the token vectors", "zh": "给 token 向量加上位置"},
    "why.pos_none": {"en": "none", "zh": "不加"},
    "why.pos_sinusoidal": {"en": "sinusoidal", "zh": "正弦"},
    "why.pos_learned": {"en": "learned (random)", "zh": "可学习（随机初始化）"},
    "why.sentences": {
        "en": "**Original:** {original} → **shuffled:** {shuffled}",
        "zh": "**原句：** {original} → **打乱后：** {shuffled}",
    },
    "why.metric_plain": {"en": "max difference without positions", "zh": "不加位置时的最大差异"},
    "why.metric_with": {"en": "max difference with {kind} positions", "zh": "加上{kind}位置后的最大差异"},
    "why.metric_help": {
        "en": "max |attention(x) − attention(x[perm]) put back in the original order|; 1e-15 is floating-point rounding.",
        "zh": "max |attention(x) − 把 attention(x[perm]) 排回原顺序后的结果|；1e-15 只是浮点舍入误差。",
    },
    "why.figure_title": {"en": "Attention outputs for the sentence and for its shuffle", "zh": "原句与打乱后句子的注意力输出"},
    "why.figure_note": {
        "en": "each row is one token's output vector; without positions the rows are the same, only in another order",
        "zh": "每一行是一个 token 的输出向量；不加位置时，这些行完全相同，只是顺序不同",
    },
    "why.panel_before": {"en": "original order", "zh": "原顺序"},
    "why.panel_after": {"en": "shuffled order", "zh": "打乱后的顺序"},
    "why.diff_title": {
        "en": "Per-token difference once the shuffled outputs are put back in the original order",
        "zh": "把打乱后的输出排回原顺序后，每个 token 的差异",
    },
    "why.diff_note_none": {
        "en": "all white: each token's output did not change at all, it only moved",
        "zh": "一片空白：每个 token 的输出完全没变，只是换了位置",
    },
    "why.diff_note_pos": {
        "en": "a position vector stays with its slot, so a token that moved now carries a different one: its output changes",
        "zh": "位置向量跟着槽位走，换了位置的 token 加上的是另一个位置向量，所以输出变了",
    },
    "why.dog_header": {"en": "狗咬人 vs 人咬狗 (dog bites man vs man bites dog)", "zh": "狗咬人 vs 人咬狗"},
    "why.dog": {
        "en": (
            "狗咬人 (\"dog bites man\") and 人咬狗 (\"man bites dog\") use the same three characters. After "
            "tokenization they are the same set of tokens, so they look up the same set of vectors. Without "
            "position information attention gives each character exactly the same output in both sentences: "
            "to the model they are the same sentence, although they mean opposite things. English is no different. "
            "So before the vectors enter the transformer, order has to be injected: that is the job of a "
            "**positional encoding**. Switch on sinusoidal or learned positions above: the same shuffle now "
            "changes the outputs."
        ),
        "zh": (
            "「狗咬人」和「人咬狗」用的是同样的三个字，分词后 token 集合一样，查出来的向量集合也一样。"
            "没有位置信息时，注意力在两句话里给每个字算出的输出完全相同：在模型看来这两句话完全等价，"
            "可它们的意思恰好相反。英文也是一样。所以必须在向量进入 Transformer 之前把顺序信息注入进去，"
            "这就是**位置编码**要做的事。在上面打开正弦或可学习位置，同样的打乱方式就会改变输出了。"
        ),
    },
    "why.notice": {
        "en": (
            "Without positions the difference is about 1e-15, pure rounding, whatever the sentence or the shuffle. "
            "Add positions and it jumps to the size of the values themselves."
        ),
        "zh": "不加位置时，无论句子和打乱方式如何，差异都在 1e-15 左右，纯属舍入误差。加上位置后，差异立刻跳到和数值本身相当的量级。",
    },
}
