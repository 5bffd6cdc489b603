"""Strings of the "Why position" page."""
PREFIX = "why."  # every key of STRINGS starts with it (tests/app/test_page_stems.py)
STRINGS = {
    "why.nav": {"en": "Why position", "zh": "为什么需要位置"},
    "why.title": {"en": "Why a transformer needs positions", "zh": "为什么 Transformer 需要位置信息"},
    "why.lead": {
        "en": "The heatmap shows, token by token, how much attention's outputs change when the sentence is shuffled and the outputs put back in order. Without positions every row is 0 up to rounding; add positions and it is not.",
        "zh": '热力图逐个 token 显示：把句子打乱、再把输出按原顺序放回后，注意力的输出变了多少。没有位置信息时每一行都是 0（只差舍入误差）；加上位置信息就不是了。',
    },
    "why.intro": {
        "en": (
            "Attention puts all token vectors together and scores every pair with a dot product. It sees a **set** of "
            "vectors, not a sequence: shuffle the tokens and the outputs are shuffled the same way, value for value. "
            "This is called **permutation equivariance**. It holds for attention without a mask, as in an encoder "
            "(BERT) and in lesson 003's experiment. Type a sentence, shuffle it, and compare."
        ),
        "zh": (
            "注意力把所有 token 向量放在一起，两两做点积打分。它看到的是向量的**集合**，而不是序列："
            "把 token 打乱，输出也只是跟着按同样的方式重排，每个值都不变。这个性质叫**置换等变**。"
            "它对不加掩码的注意力成立，比如编码器（BERT）和第 003 课的实验。输入一句话，打乱它，对比一下。"
        ),
    },
    "why.formula_caption": {
        "en": "P is any permutation matrix: shuffling the input rows only shuffles the output rows (no mask).",
        "zh": "P 是任意置换矩阵：打乱输入的行，只会同样地打乱输出的行（不加掩码时）。",
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
    "why.seed": {"en": "Random seed (word vectors, Wq/Wk/Wv, shuffle)", "zh": "随机种子（token 向量、Wq/Wk/Wv、打乱顺序）"},
    "why.positions": {"en": "Add positions to the token vectors", "zh": "给 token 向量加上位置"},
    "why.pos_none": {"en": "none", "zh": "不加"},
    "why.pos_sinusoidal": {"en": "sinusoidal", "zh": "正弦"},
    "why.pos_learned": {"en": "learned (random)", "zh": "可学习（随机初始化）"},
    "why.sentences": {
        "en": "**Original:** {original} → **shuffled:** {shuffled}",
        "zh": "**原句：** {original} → **打乱后：** {shuffled}",
    },
    "why.metric_plain": {"en": "max difference without positions", "zh": "不加位置时的最大差异"},
    "why.metric_plain_causal": {
        "en": "max difference without positions, causal mask",
        "zh": "不加位置、有因果掩码时的最大差异",
    },
    "why.causal": {"en": "Causal mask (a decoder: each token sees itself and the tokens before it)",
                   "zh": "因果掩码（解码器：每个 token 只能看到自己和它前面的 token）"},
    "why.causal_help": {
        "en": "GPT, Llama and Qwen mask the future: token i attends to tokens 0 … i only.",
        "zh": "GPT、Llama、Qwen 都会遮住未来：第 i 个 token 只关注第 0 … i 个 token。",
    },
    "why.metric_with": {"en": "max difference with {kind} positions", "zh": "加上{kind}位置后的最大差异"},
    "why.metric_help": {
        "en": "max |attention(x) − attention(x[perm]) put back in the original order|; 1e-15 is floating-point rounding.",
        "zh": "max |attention(x) − 把 attention(x[perm]) 排回原顺序后的结果|；1e-15 只是浮点舍入误差。",
    },
    "why.figure_title": {"en": "Attention outputs for the sentence and for its shuffle", "zh": "原句与打乱后句子的注意力输出"},
    "why.figure_note": {
        "en": "each row is one token's output vector; without positions or mask the rows are the same, only in "
              "another order",
        "zh": "每一行是一个 token 的输出向量；不加位置也不加掩码时，这些行完全相同，只是顺序不同",
    },
    "why.panel_before": {"en": "original order", "zh": "原顺序"},
    "why.panel_after": {"en": "shuffled order", "zh": "打乱后的顺序"},
    "why.diff_title": {
        "en": "Per-token difference once the shuffled outputs are put back in the original order",
        "zh": "把打乱后的输出排回原顺序后，每个 token 的差异",
    },
    "why.diff_scale": {  # the difference heatmap's colour scale (Reds from 0), said in words instead of a colour bar
        "en": "colour: white 0, deeper red = larger |Δ|",
        "zh": "颜色：白为 0，红色越深 |Δ| 越大",
    },
    "why.diff_note_none": {
        "en": "all white: each token's output did not change at all, it only moved",
        "zh": "一片空白：每个 token 的输出完全没变，只是换了位置",
    },
    "why.diff_note_pos": {
        "en": ("a position vector stays with its slot, so a token that moved now carries a different one: its "
               "output usually changes; a token that stayed usually changes too, because the vectors it attends to "
               "did"),
        "zh": "位置向量跟着槽位走，换了位置的 token 加上的是另一个位置向量，所以输出通常会变；没动的 token 通常也会变，因为它所关注的那些向量变了",
    },
    "why.diff_note_causal": {
        "en": "with the mask a token sees only its own slot and the slots before it: shuffling changes what each one sees",
        "zh": "有掩码时，每个 token 只能看到自己的槽位和它之前的槽位：打乱顺序就改变了每个 token 看到的内容",
    },
    "why.tab_outputs": {"en": "Outputs in both orders", "zh": "两种顺序的输出"},
    "why.tab_difference": {"en": "Difference per token", "zh": "每个 token 的差异"},
    "why.tab_words": {"en": "Dog bites man (狗咬人), and the causal mask", "zh": "狗咬人与因果掩码"},
    "why.dog_header": {"en": "狗咬人 vs 人咬狗 (dog bites man vs man bites dog)", "zh": "狗咬人与人咬狗"},
    "why.dog": {
        "en": (
            "狗咬人 (\"dog bites man\") and 人咬狗 (\"man bites dog\") use the same three characters. After "
            "tokenization they are the same set of tokens, so they look up the same set of vectors. Without "
            "position information attention gives each character exactly the same output in both sentences: "
            "to an encoder without positions they are the same sentence, although they mean opposite things. English "
            "is no different. "
            "So the model has to be told the order: that is the job of a **positional encoding**. Sinusoidal and "
            "learned positions are added to the vectors before the first block; RoPE and ALiBi act inside "
            "attention. Switch on sinusoidal or learned positions under this section: the same shuffle now changes the outputs. "
            "A causal mask carries some order too, without any encoding: see below."
        ),
        "zh": (
            "「狗咬人」和「人咬狗」用的是同样的三个字，分词后 token 集合一样，查出来的向量集合也一样。"
            "没有位置信息时，（不加掩码的）注意力在两句话里给每个字算出的输出完全相同：在这样的模型看来两句话完全等价，"
            "可它们的意思恰好相反。英文也是一样。所以必须把顺序告诉模型，这就是**位置编码**要做的事。"
            "正弦和可学习位置在第一个块之前加到向量上；RoPE 和 ALiBi 则在注意力内部起作用。"
            "在本节下方打开正弦或可学习位置，同样的打乱方式就会改变输出了。因果掩码不用任何编码也带来一部分顺序信息：见下文。"
        ),
    },
    "why.causal_header": {"en": "With a causal mask, order shows even without positions",
                          "zh": "有因果掩码时，不加位置也能看出顺序"},
    "why.causal_md": {
        "en": ("Lesson 003's claim holds for attention without a mask. A decoder (GPT, Llama, Qwen) masks the "
               "future: token i attends only to tokens 0 … i. The mask belongs to the slot, not to the token. So "
               "after a shuffle every token sees a different prefix, and its output changes: switch the mask on "
               "under this section. In lesson 003's own script (4 tokens, d_model 8, seed 0) the difference is 6.43 instead of "
               "1e-15; here it depends on the sentence. The first token sees only itself, the last sees "
               "everything. A decoder can count how many tokens it sees, which is why decoder-only models learn "
               "position even without any positional encoding (Haviv et al. 2022). Positional encodings still help, "
               "and an encoder such as BERT, with no mask, cannot do without them. The blank triangle in the ALiBi "
               "figure on the Compare page is this mask."),
        "zh": ("第 003 课的结论对不加掩码的注意力成立。解码器（GPT、Llama、Qwen）会遮住未来：第 i 个"
               " token 只关注第 0 … i 个 token。掩码属于槽位而不属于 token。所以打乱顺序后每个"
               " token 看到的前缀都不同，输出也就变了：在本节下方打开掩码试试。在第 003 课自己的脚本里（4 个 "
               "token、d_model 8、种子 0），差异是 6.43 而不是 1e-15；这里的数值取决于句子。"
               "第一个 token 只看到它自己，最后一个看到全部。解码器可以数出自己看到了多少个 token，所以"
               "仅解码器（decoder-only）模型即使不加任何位置编码也能学到位置（Haviv 等 2022）。位置编码仍然有用，而像 BER"
               "T 这样不加掩码的编码器离不开它。位置编码对比页 ALiBi 图里空白的三角形就是这个掩码。"),
    },
    "why.notice": {
        "en": ("Without positions and without the mask the difference is about 1e-15, pure rounding, whatever the "
               "sentence or the shuffle. Add positions, or the causal mask, and for a shuffle that moves distinct "
               "tokens it usually jumps to the size of the values themselves."),
        "zh": "不加位置也不加掩码时，无论句子和打乱方式如何，差异都在 1e-15 左右，纯属舍入误差。加上位置或因果掩码后，只要打乱移动了不同的 token，差异通常会跳到和数值本身相当的量级。",
    },
}
