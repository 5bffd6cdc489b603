"""Strings of the "Trained embedding" page."""
PREFIX = "train."  # every key of STRINGS starts with it (tests/app/test_page_stems.py)
STRINGS = {
    "train.nav": {"en": "Trained embedding", "zh": "训练后的嵌入"},
    "train.title": {"en": "Trained embedding: tokens that share contexts move together", "zh": "训练后的嵌入：上下文相同的 token 会聚到一起"},
    "train.lead": {
        "en": "Lesson 001's experiment, trained live: the table compares this run's cosine similarities with the numbers the lesson quotes. Look for same-group pairs rising and cross-group pairs staying near 0.",
        "zh": '现场重做第 001 课的实验：下表把这次训练的余弦相似度和课里的数字放在一起。看同组词对是否上升、跨组词对是否停在 0 附近。',
    },
    "train.intro": {
        "en": (
            "Lesson 001's experiment, trained live. Sequences are drawn from one group of characters at a time "
            "(lowercase a–j, or uppercase A–J), so tokens of different groups never meet. A tiny model (an "
            "embedding table and an output layer, nothing else) learns to predict the next character. The "
            "only thing that can shape the table is **which tokens come next**: do tokens of a group end up "
            "with similar vectors? Lesson 001 does not state d_model, the optimiser or the learning rate: the "
            "settings on this page (d_model 16, Adam, learning rate 0.01 by default) are those of this reproduction."
        ),
        "zh": (
            "现场重做第 001 课的实验。每条序列只从一组字符里采样（小写 a–j 或大写 A–J），"
            "不同组的 token 永远不会出现在同一条序列中。一个极小的模型（只有嵌入表和输出层）学习预测下一个字符。"
            "能塑造这张表的只有 **接下来出现什么 token**：同一组的 token 最后会不会得到相似的向量？"
            "第 001 课没有给出 d_model、优化器和学习率：本页的设置（默认 d_model 16、Adam、学习率 0.01）是这次复现自己选的。"
        ),
    },
    "train.steps": {"en": "training steps", "zh": "训练步数"},
    "train.lr": {"en": "learning rate (Adam)", "zh": "学习率（Adam）"},
    "train.seed": {"en": "seed", "zh": "随机种子"},
    "train.groups": {"en": "Groups (separated by spaces)", "zh": "分组（用空格分隔）"},
    "train.groups_help": {
        "en": "Each group is a run of characters; a sequence only ever uses the characters of one group.",
        "zh": "每一组是一串字符；一条序列只会用到同一组里的字符。",
    },
    "train.softmax": {"en": "Output layer predicts", "zh": "输出层预测的类别"},
    "train.softmax_vocab": {"en": "256 classes, as in lesson 001", "zh": "256 个类别（与第 001 课相同）"},
    "train.softmax_groups": {"en": "only the group tokens", "zh": "只有组内的 token"},
    "train.tab_groups": {"en": "Two groups", "zh": "两组字符"},
    "train.tab_text": {"en": "Your own text", "zh": "你自己的文本"},
    "train.training": {"en": "training step {step} of {steps}", "zh": "训练中：第 {step} / {steps} 步"},
    "train.trained": {"en": "trained {steps} steps in {seconds:.1f} s", "zh": "已训练 {steps} 步，用时 {seconds:.1f} 秒"},
    "train.stopped": {
        "en": "Stopped after {done:,} of {steps:,} steps: one run may use {budget:g} s of the server's CPU when it "
              "starts from a link or the Train button, and this one needs more. The figures show step {done:,}.",
        "zh": "训练在第 {done:,} 步（共 {steps:,} 步）停下：由链接或“训练”按钮触发的一次训练最多占用服务器 {budget:g} 秒 CPU，"
              "这次需要更多。下面的图显示的是第 {done:,} 步的结果。",
    },
    "train.press_stopped": {
        "en": "Stopped after {done:,} of {steps:,} steps: one run may use at most {budget:g} s of the server's CPU, "
              "and every step of these settings needs more. Fewer steps, a smaller d_model or a text with fewer "
              "distinct characters train to the end. The figures show step {done:,}.",
        "zh": "训练在第 {done:,} 步（共 {steps:,} 步）停下：一次训练最多占用服务器 {budget:g} 秒 CPU，训练这组设置的全部步数需要更多。"
              "减少步数、减小 d_model 或使用不同字符更少的文本，就能训练到最后。下面的图显示的是第 {done:,} 步的结果。",
    },
    "train.train": {"en": "Train", "zh": "训练"},
    "train.train_help": {
        "en": "Moving a setting changes nothing until you press Train: then the model is trained once with all of "
              "them (a run trained before, by anyone, is shown at once).",
        "zh": "移动设置不会立刻生效，按下“训练”后才用全部设置训练一次（任何人训练过的同一组设置会立即显示）。",
    },
    "train.view_sim": {"en": "Similarity before / after", "zh": "训练前后的相似度"},
    "train.view_time": {"en": "Over training", "zh": "训练过程"},
    "train.view_loss": {"en": "Loss", "zh": "损失"},
    "train.view_map": {"en": "2-D map", "zh": "二维投影"},
    "train.finish": {"en": "Train all {steps:,} steps", "zh": "训练全部 {steps:,} 步"},
    "train.numbers": {"en": "The numbers lesson 001 quotes", "zh": "第 001 课给出的数字"},
    "train.quantity": {"en": "cosine similarity", "zh": "余弦相似度"},
    "train.pair_row": {"en": "sim('{a}', '{b}')", "zh": "sim('{a}', '{b}')"},
    "train.same_row": {"en": "mean over same-group pairs", "zh": "同组词对的平均值"},
    "train.cross_row": {"en": "mean over cross-group pairs", "zh": "跨组词对的平均值"},
    "train.text_col": {"en": "lesson 001 says", "zh": "第 001 课的数字"},
    "train.negative": {
        "en": (
            "The cross-group similarity went **negative** ({cross:.2f}), not to about 0 as lesson 001 says. Why: the "
            "gradient pulls a token's vector towards the output row of the token that came next and pushes it away "
            "from the rows that hold probability. {why}"
        ),
        "zh": (
            "跨组相似度变成了 **负数**（{cross:.2f}），而不是第 001 课说的接近 0。原因：梯度把一个 token 的向量拉向"
            "下一个 token 的输出行，同时推离那些占着概率的输出行。{why}"
        ),
    },
    "train.why_groups": {
        "en": ("With only the group tokens in the softmax, the probability a token of one group must give up sits "
               "on the other groups' rows. So \"towards my group\" is \"away from the others\", and the groups are "
               "pushed to opposite sides. Switch the output layer to 256 classes to see lesson 001's setting."),
        "zh": ("当 softmax 只包含组内 token 时，一组的 token 要让出的概率都在其他组的输出行上：“"
               "靠近本组”就等于“远离其他组”，于是各组被推向相反的方向。把输出层切换到 256 个类别，就是第 001"
               " 课的设置。"),
    },
    "train.why_vocab": {
        "en": ("The output layer scores {classes} classes, and {unseen} of them never occur in the data. In the first "
               "steps training pushes both groups' vectors away from those same {unseen} classes. Both groups move "
               "the same way, so they grow more alike. At the same time each group is pushed away from the other. "
               "Which effect wins, and when, depends on the settings: this run's blue curve peaks at step "
               "{peak_step} ({peak:+.2f}) and {zero}. Later the never-seen classes have almost no probability left "
               "to take away. What is left sits on the other group's rows, so the groups drift apart."),
        "zh": ("输出层要给 {classes} 个类别打分，其中 {unseen} 个在数据里从不出现。最初几步，训练把两组的向量都推离这同样的 "
               "{unseen} 个类别。两组朝同一个方向移动，所以变得更像。同时每一组也被推离另一组。"
               "哪种作用占上风、在什么时候，取决于设置：这次训练的蓝色曲线在第 {peak_step} 步最高（{peak:+.2f}），{zero}。"
               "后来那些从不出现的类别已经没有多少概率可让，剩下的概率都在另一组的输出行上，两组便逐渐分开。"),
    },
    "train.near_zero": {
        "en": ("Cross-group similarity ends near 0 ({cross:+.2f}), as in lesson 001, but the blue curve does not rest "
               "there. In this run it peaks at step {peak_step} ({peak:+.2f}), {zero} and is {cross:+.2f} at step "
               "{steps}. Early on both groups are pushed away from the same {unseen} never-seen classes, which pulls "
               "them together; once those have no probability left, each group is pushed away from the other."),
        "zh": ("跨组相似度最后接近 0（{cross:+.2f}），与第 001 课一致，但蓝色曲线并不停在 0。这次训练中它在第 "
               "{peak_step} 步最高（{peak:+.2f}），{zero}，第 {steps} 步为 {cross:+.2f}。起初两组都被推离同样的 "
               "{unseen} 个从不出现的类别，这让它们靠近；这些类别的概率耗尽后，每一组都被推离另一组。"),
    },
    "train.zero_at": {"en": "crosses 0 near step {step}", "zh": "在第 {step} 步附近穿过 0"},
    "train.zero_above": {"en": "has not come back down through 0", "zh": "之后还没有降到 0 以下"},
    "train.zero_below": {"en": "never rises above 0", "zh": "始终没有超过 0"},
    "train.near_zero_groups": {
        "en": ("Cross-group similarity is near 0 ({cross:.2f}), as lesson 001 reports, but not for lesson 001's "
               "reason. With only the group tokens in the softmax, there are no never-seen classes to pull the "
               "groups together. Each group is pushed away from the others from the start (the blue curve is "
               "highest at step {peak_step}, {peak:+.2f}). More steps make it negative; switch the output layer to 256 classes "
               "to see lesson 001's setting."),
        "zh": ("跨组相似度接近 0（{cross:.2f}），与第 001 课报告的一致，但原因不同。softmax 只包含组内 token 时，没有从不出现的"
               "类别把两组拉近。每一组从一开始就被推离其他组（蓝色曲线在第 {peak_step} 步最高，{peak:+.2f}）。步数更多就会变成"
               "负数；把输出层切换到 256 个类别，就是第 001 课的设置。"),
    },
    "train.positive": {
        "en": (
            "Cross-group similarity went up ({cross:.2f}): the shared push away from the never-seen classes still "
            "dominates. That happens early in training, or when a very large learning rate makes training unstable "
            "(check the loss curve)."
        ),
        "zh": (
            "跨组相似度上升了（{cross:.2f}）：推离那些从不出现的类别的共同推力仍占主导。"
            "这会出现在训练早期，或者学习率过大导致训练不稳定时（请看损失曲线）。"
        ),
    },
    "train.pair_spread": {
        "en": (
            "A single pair such as sim('a','A') scatters around the group mean from seed to seed (each row keeps "
            "part of its random start); the group means are the steadier numbers. Same-group similarity is not 1 "
            "after {steps} steps for the same reason: only the shared group direction has grown."
        ),
        "zh": (
            "像 sim('a','A') 这样的单个词对，会随随机种子在组平均值附近波动（每一行都保留着一部分随机初始值）；"
            "组平均值更稳定。出于同样的原因，训练 {steps} 步后同组相似度也达不到 1：增长的只是组共同的方向。"
        ),
    },
    "train.loss_title": {"en": "Next-token loss during training", "zh": "训练过程中的下一个 token 预测损失"},
    "train.loss_y": {"en": "cross-entropy (nats)", "zh": "交叉熵（nat）"},
    "train.step": {"en": "step", "zh": "步数"},
    "train.loss_series": {"en": "loss", "zh": "损失"},
    "train.loss_mean": {"en": "{name} (mean of {window})", "zh": "{name}（{window} 步平均）"},
    "train.class_lowercase": {"en": "lowercase", "zh": "小写字母"},
    "train.class_uppercase": {"en": "uppercase", "zh": "大写字母"},
    "train.class_other_letter": {"en": "other letter", "zh": "其他文字"},
    "train.class_digit": {"en": "digit", "zh": "数字"},
    "train.class_punctuation": {"en": "punctuation", "zh": "标点"},
    "train.class_whitespace": {"en": "whitespace", "zh": "空白"},
    "train.class_utf_8_byte": {"en": "UTF-8 byte", "zh": "UTF-8 字节"},
    "train.class_other": {"en": "other", "zh": "其他"},
    "train.floor": {"en": "best possible: {floor:.2f}", "zh": "理论最优：{floor:.2f}"},
    "train.loss_note": {
        "en": ("the next character is uniform within its group, so on average no model can go below the dashed line "
               "(a single step's loss can dip under it)"),
        "zh": "下一个字符在组内是均匀分布的，平均而言任何模型都无法低于虚线（单步的损失可能略低于它）",
    },
    "train.sim_title": {"en": "Cosine similarity of every pair of token vectors", "zh": "每对 token 向量的余弦相似度"},
    "train.before": {"en": "before training", "zh": "训练前"},
    "train.after": {"en": "after {steps} steps", "zh": "训练 {steps} 步后"},
    "train.sim_note": {"en": "tokens ordered by group; lines separate the groups", "zh": "token 按组排列；线条分隔各组"},
    "train.curve_title": {"en": "Mean similarity within and across groups during training", "zh": "训练过程中组内与组间的平均相似度"},
    "train.curve_same": {"en": "same group", "zh": "同组"},
    "train.curve_cross": {"en": "different groups", "zh": "不同组"},
    "train.curve_y": {"en": "mean cosine", "zh": "平均余弦"},
    "train.ref_ab": {"en": "lesson 001: sim(a,b) 0.56", "zh": "第 001 课：sim(a,b) 0.56"},
    "train.ref_aA": {"en": "lesson 001: sim(a,A) 0.04", "zh": "第 001 课：sim(a,A) 0.04"},
    "train.snapshot": {"en": "snapshot at step", "zh": "快照所在步数"},
    "train.pca_title": {"en": "Token vectors at step {step}, projected to 2-D", "zh": "第 {step} 步时的 token 向量（投影到二维）"},
    "train.pca_note": {
        "en": "axes: the two main directions of the trained vectors (PCA), the same for every snapshot",
        "zh": "坐标轴：训练后向量的两个主方向（PCA），所有快照共用",
    },
    "train.notice": {
        "en": ("Before training the matrix is noise. After training the diagonal blocks (one per group) light up: "
               "tokens that are followed by the same things get similar vectors, although no label ever said which "
               "group a token is in. In the \"Over training\" view, drag the snapshot slider to watch the groups "
               "separate."),
        "zh": ("训练前，相似度矩阵只是噪声。训练后对角块（每组一块）亮了起来：后面跟着相同 token 的 token "
               "得到了相似的向量，尽管从来没有标签告诉模型哪个 token 属于哪一组。在“训练过程”视图里拖动快照滑块"
               "，看各组如何分开。"),
    },
    # your own text
    "train.text_md": {
        "en": (
            "The same tiny model on any text you paste, one token per character. The model sees the last "
            "*context* characters (averaged) and predicts the next one. Tokens are coloured by character class "
            "only to read the picture; training does not know the classes."
        ),
        "zh": (
            "把同样的小模型用在你粘贴的任意文本上，每个字符是一个 token。模型看最近 *context* 个字符（取平均），"
            "预测下一个字符。按字符类别着色只是为了方便看图，训练过程并不知道这些类别。"
        ),
    },
    "train.text": {"en": "Text to train on", "zh": "用于训练的文本"},
    "train.text_default": {
        "en": (
            "the cat sat on the mat. the dog sat on the log. a cat and a dog ran to the mat. "
            "One Two Three Four Five. 1 2 3 4 5 6 7 8 9 10."
        ),
        "zh": "猫坐在垫子上。狗坐在木头上。猫和狗跑到垫子上。一二三四五六七八九十。今天天气很好，明天天气也很好。",
    },
    "train.context": {"en": "context (characters the model sees)", "zh": "上下文长度（模型看到的字符数）"},
    "train.text_sim_title": {"en": "Cosine similarity after training ({n} tokens)", "zh": "训练后的余弦相似度（{n} 个 token）"},
    "train.text_pca_title": {"en": "Token vectors after training, projected to 2-D", "zh": "训练后的 token 向量（投影到二维）"},
    "train.text_notice": {
        "en": (
            "Characters that are followed by similar characters land near each other: often digits with digits, "
            "vowels with vowels, or punctuation with spaces. A short text gives a noisy picture; paste more."
        ),
        "zh": "后面跟着相似字符的字符会靠在一起：常见的是数字和数字、元音和元音、标点和空格。文本太短时图会很乱，可以多粘贴一些。",
    },
}
