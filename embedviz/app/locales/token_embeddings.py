"""Strings of the "Token embeddings" page."""
PREFIX = "tok."  # every key of STRINGS starts with it (tests/app/test_page_stems.py)
STRINGS = {
    "tok.nav": {"en": "Token embeddings", "zh": "词嵌入"},
    "tok.title": {"en": "Token embeddings: an id picks a row", "zh": "词嵌入：一个 id 取出一行"},
    "tok.lead": {
        "en": "The figure shows the rows your text's ids pick from a (V, D) table, one id per UTF-8 byte. Look at a repeated letter: it picks the same row twice.",
        "zh": '下图显示你的文字的 id 从 (V, D) 表里取出的行，每个 UTF-8 字节一个 id。看重复的字母：它两次取出同一行。',
    },
    "tok.intro": {
        "en": (
            "A tokenizer turns text into integer ids; here every UTF-8 byte is one id (a vocabulary of V = 256). "
            "The first layer of a transformer keeps a **(V, D) table** with one learnable row per id and simply "
            "**reads out the rows** of the ids it is given. No arithmetic, no activation: a lookup. "
            "Type any text, Chinese too, and follow the ids into the table."
        ),
        "zh": (
            "分词器把文字变成整数 id；这里每个 UTF-8 字节就是一个 id（词表大小 V = 256）。"
            "Transformer 的第一层保存一张 **(V, D) 的表**，每个 id 对应一行可学习的向量，"
            "它做的事情只有一件：**按 id 把对应的行取出来**。没有运算，没有激活函数，就是查表。"
            "输入任意文字（中文也可以），跟着这些 id 走进这张表。"
        ),
    },
    "tok.text": {"en": "Text (byte-level ids)", "zh": "文本（按字节切分为 id）"},
    "tok.seed": {"en": "seed", "zh": "随机种子"},
    "tok.init": {"en": "Initial std σ of the table", "zh": "嵌入表初始化的标准差 σ"},
    "tok.ids": {"en": "{n} ids: [{ids}]", "zh": "共 {n} 个 id：[{ids}]"},
    "tok.tab_lookup": {"en": "Lookup", "zh": "查表"},
    "tok.tab_init": {"en": "Initialisation", "zh": "初始化"},
    "tok.tab_onehot": {"en": "One-hot vs dense", "zh": "one-hot 与稠密向量"},
    "tok.tab_grad": {"en": "Which rows learn", "zh": "哪些行会被更新"},
    "tok.tab_params": {"en": "Parameter cost", "zh": "参数开销"},
    # lookup
    "tok.lookup_md": {
        "en": (
            "Each id selects one row of the table **W**. Stacking the selected rows gives a (T, D) block, one "
            "row per token. The same block comes out of a matrix product with one-hot rows, and out of PyTorch's "
            "`nn.Embedding`: three ways to write the same lookup."
        ),
        "zh": (
            "每个 id 选中表 **W** 的一行，把选中的行叠起来，就得到一个 (T, D) 的矩阵块，每个 token 一行。"
            "用独热（one-hot）行向量去乘 W，或者直接调用 PyTorch 的 `nn.Embedding`，得到的都是同一个块："
            "同一次查表的三种写法。"
        ),
    },
    "tok.lookup_title": {
        "en": "The ids pick {T} rows of the table: a ({T}, {D}) block",
        "zh": "这些 id 从表中取出 {T} 行：一个 ({T}, {D}) 的块",
    },
    "tok.table_title": {"en": "W (256 × {D}), picked rows boxed", "zh": "W（256 × {D}），取出的行带框"},
    "tok.block_title": {"en": "W[ids]: ({T}, {D})", "zh": "W[ids]：({T}, {D})"},
    "tok.token_id": {"en": "token id", "zh": "token id"},
    "tok.way_index": {"en": "W[ids]: shape", "zh": "W[ids] 的形状"},
    "tok.way_one_hot": {"en": "one_hot(ids) @ W: max |difference|", "zh": "one_hot(ids) @ W：最大 |差值|"},
    "tok.way_nn": {"en": "nn.Embedding: max |difference|", "zh": "nn.Embedding：最大 |差值|"},
    "tok.max_diff_help": {
        "en": "Largest absolute difference from W[ids] over all T × D numbers.",
        "zh": "与 W[ids] 相比，全部 T × D 个数中最大的绝对差值。",
    },
    "tok.notice_lookup": {
        "en": (
            "The differences are exactly 0, not merely small: multiplying by a one-hot row adds one row of W to "
            "zeros, so it can only copy. A repeated token (the two 'l's of 'Hello') gets the very same row twice. "
            "A common Chinese character spans three rows, one per UTF-8 byte; a rare one from the CJK extensions, "
            "such as 𠮷, takes four."
        ),
        "zh": (
            "差值恰好是 0，而不只是很小：one-hot 行向量乘 W，只是把 W 的一行加到一堆 0 上，只能原样复制。"
            "重复出现的 token（'Hello' 里的两个 'l'）取到的是完全相同的一行。常用汉字占三行，对应它的三个 UTF-8 字节；"
            "CJK 扩展区的生僻字（例如 𠮷）占四行。"
        ),
    },
    "tok.init_header": {"en": "How big are the rows at the start?", "zh": "初始时每一行有多大？"},
    "tok.init_md": {
        "en": (
            "Before training every entry is a small random number. Lesson 000 uses a Gaussian with std **0.02** "
            "(as GPT-2 does); lesson 002 scales it by **1/√d_model**; `nn.Embedding` on its own (and lesson 001's "
            "`torch.randn`) uses std **1**. What changes is the length of a row: about σ·√D."
        ),
        "zh": (
            "训练开始前，每个元素都是一个很小的随机数。第 000 课用标准差 **0.02** 的高斯分布（GPT-2 也是这样）；"
            "第 002 课按 **1/√d_model** 缩放；`nn.Embedding` 自己的默认值（以及第 001 课里的 `torch.randn`）"
            "是标准差 **1**。真正不同的是每一行的模长：大约 σ·√D。"
        ),
    },
    "tok.metric_init_std": {"en": "σ of the chosen scheme", "zh": "所选方案的 σ"},
    "tok.metric_std": {"en": "measured std of the table", "zh": "实测整张表的标准差"},
    "tok.metric_norm": {"en": "mean row length ‖W_i‖", "zh": "平均模长 ‖W_i‖"},
    "tok.init_title": {"en": "Mean length of a row against d_model", "zh": "平均模长随 d_model 的变化"},
    "tok.init_y": {"en": "mean ‖W_i‖ (log scale)", "zh": "平均模长 ‖W_i‖（对数刻度）"},
    "tok.init_note": {
        "en": "measured on fresh 256-row tables; the dotted line is the current d_model",
        "zh": "在新初始化的 256 行表上实测；虚线是当前的 d_model",
    },
    # one-hot vs dense
    "tok.onehot_md": {
        "en": (
            "Why not feed the model one-hot vectors, 256 long with a single 1? Lesson 001 gives two reasons. Real "
            "vocabularies are 30,000 to 100,000 long (the lesson's range; some are larger, Qwen3-0.6B has "
            "151,936). And every pair of different one-hot vectors is exactly as far apart as every other pair, so "
            "the geometry cannot say that two tokens are alike. Below: the distances between the distinct tokens "
            "of your text."
        ),
        "zh": (
            "为什么不直接把 256 维、只有一个 1 的 one-hot 向量交给模型？第 001 课给了两个理由。真实词表有 3 万到 10 万个"
            " token（这是课里的范围；也有更大的，Qwen3-0.6B 有 151,936 个）。而且任意两个不同的 one-hot 向量之间的距离"
            "都完全一样，几何上无法表达“这两个 token 相近”。"
            "下面是你输入文本中各个不同 token 之间的距离。"
        ),
    },
    "tok.dist_title": {
        "en": "All-pairs distances between the {n} distinct tokens",
        "zh": "{n} 个不同 token 两两之间的距离",
    },
    "tok.dist_onehot": {"en": "one-hot vectors (256 dims)", "zh": "one-hot 向量（256 维）"},
    "tok.dist_dense": {"en": "rows of W ({D} dims)", "zh": "W 的行（{D} 维）"},
    "tok.dist_single": {
        "en": "Only one distinct token: type at least two different characters to compare distances.",
        "zh": "只有一个不同的 token：请至少输入两个不同的字符来比较距离。",
    },
    "tok.metric_onehot_range": {"en": "one-hot: min … max distance", "zh": "one-hot：最小 … 最大距离"},
    "tok.metric_dense_range": {"en": "dense: min … max distance", "zh": "稠密向量：最小 … 最大距离"},
    "tok.notice_onehot": {
        "en": (
            "Every off-diagonal one-hot cell is 1.41 (√2), whatever the tokens. The dense distances differ from pair "
            "to pair: at initialisation that is just chance, but it is room that training can use to put related "
            "tokens close together (see the Trained embedding page). Lesson 001's run.py says the cosine of two "
            "random rows is close to 0. That holds on average only: at its d_model 8 one pair spreads by about "
            "±0.35 (1/√8), and the spread shrinks as D grows."
        ),
        "zh": (
            "one-hot 矩阵里所有非对角线格子都是 1.41（√2），与是哪个 token 无关。稠密向量的距离则因对而异："
            "初始化时这只是随机的，但它给了训练空间，可以把相关的 token 放得更近（见“训练后的嵌入”页）。"
            "第 001 课的 run.py 说两个随机行的余弦接近 0。这只在平均意义上成立：在它的 d_model 8 下，"
            "单独一对的余弦会有约 ±0.35（1/√8）的波动，D 越大波动越小。"
        ),
    },
    # gradient
    "tok.grad_md": {
        "en": (
            "One step of next-token prediction on your text: each token's row is looked up and must predict the "
            "next byte through an output matrix H. The last byte is only a target, never looked up. Which rows of "
            "W does the backward pass reach?"
        ),
        "zh": (
            "在你的文本上做一步下一个 token 预测：查出每个 token 的行，通过输出矩阵 H 预测下一个字节。"
            "最后一个字节只作为目标，不会被查表。反向传播会到达 W 的哪些行？"
        ),
    },
    "tok.tied": {"en": "Tie the output head to the table (H = W)", "zh": "输出层与嵌入表共享权重（H = W）"},
    "tok.tied_help": {
        "en": "GPT-2 and Qwen3-0.6B reuse the token table as the output projection; ANDREA and LLaMA do not.",
        "zh": "GPT-2 和 Qwen3-0.6B 把词嵌入表复用为输出投影；ANDREA 和 LLaMA 不共享。",
    },
    "tok.grad_title": {
        "en": "{n} of {V} rows receive a gradient from one backward step",
        "zh": "一次反向传播后，{V} 行中有 {n} 行收到梯度",
    },
    "tok.grad_y": {"en": "‖∂L/∂W_v‖ (log scale)", "zh": "‖∂L/∂W_v‖（对数刻度）"},
    "tok.grad_strip": {"en": "≠ 0", "zh": "≠ 0"},
    "tok.grad_used": {"en": "looked up", "zh": "被查表的行"},
    "tok.grad_target": {"en": "only a target", "zh": "只作为目标"},
    "tok.grad_other": {"en": "not in the text", "zh": "未出现在文本中"},
    "tok.metric_rows": {"en": "rows with a non-zero gradient", "zh": "梯度非零的行数"},
    "tok.metric_moved": {"en": "rows changed by one SGD step", "zh": "一步 SGD 后改变的行数"},
    "tok.metric_loss": {"en": "loss", "zh": "损失"},
    "tok.loss_help": {
        "en": ("Cross-entropy, the mean of −ln(probability given to the right next byte), in nats (natural-log "
               "units); a model that guesses uniformly over 256 bytes scores ln 256 ≈ 5.55."),
        "zh": ("交叉熵：对正确的下一个字节所给概率取 −ln 后的平均，单位是 nat（以自然对数计）；"
               "在 256 个字节上均匀瞎猜的模型得分为 ln 256 ≈ 5.55。"),
    },
    "tok.grad_saturated": {
        "en": (
            "{n} rows got an exactly-zero gradient even though the head is tied. With this large initial scale "
            "the softmax is saturated: one score is so far above the others that it takes nearly all the "
            "probability. The other rows' probabilities underflow: they are smaller than the smallest positive "
            "float32 number and round to 0. A small initial scale avoids that."
        ),
        "zh": (
            "虽然输出层共享了权重，仍有 {n} 行的梯度恰好为 0。初始尺度这么大时 softmax 已饱和："
            "某个分数远高于其他分数，几乎拿走了全部概率。其余行的概率发生下溢：它们小于 float32 能表示的最小数，被舍入为 0。"
            "初始尺度小一些就不会这样。"
        ),
    },
    "tok.notice_grad_untied": {
        "en": (
            "Only the rows that were looked up get a gradient ({used}); every other row is exactly 0, so one step "
            "changes nothing else. A token that never appears in a batch does not learn from it. That holds for this "
            "plain SGD step. With weight decay every row shrinks from the first step, gradient or not; Adam's "
            "momentum moves a row outside the batch only once an earlier step gave it a gradient."
        ),
        "zh": (
            "只有被查表的行收到梯度（{used}）；其余每一行的梯度都恰好为 0，这一步不会改变它们。"
            "一个 token 如果没有出现在批里，就不会从这个批学到任何东西。这对这里的普通 SGD 一步成立。有权重衰减时，"
            "每一行从第一步起都会缩小，不管有没有梯度；Adam 的动量只有在之前某一步给过某行梯度后，才会在批之外移动它。"
        ),
    },
    "tok.second_md": {
        "en": "A second step, on the text “{other}”, after the step above (untied, learning rate 0.01): its gradient "
              "reaches only the rows of “{other}”, yet which of the {V} rows move depends on the optimiser.",
        "zh": "在上面这一步之后，再用文本“{other}”走第二步（不共享权重，学习率 0.01）：这一步的梯度只到达“{other}”"
              "的行，但 {V} 行中哪些会移动取决于优化器。",
    },
    "tok.second_opt": {"en": "optimiser", "zh": "优化器"},
    "tok.second_moved": {"en": "rows that move in step 2", "zh": "第二步中移动的行"},
    "tok.second_outside": {"en": "of them outside step 2's batch", "zh": "其中不在第二步批里的行"},
    "tok.opt_sgd": {"en": "SGD", "zh": "SGD（随机梯度下降）"},
    "tok.opt_adam": {"en": "Adam (momentum)", "zh": "Adam（动量）"},
    "tok.opt_adamw": {"en": "AdamW (weight decay 0.01)", "zh": "AdamW（权重衰减 0.01）"},
    "tok.notice_grad_tied": {
        "en": (
            "Tied, the table is also the output layer. The softmax gives every one of the 256 tokens a "
            "probability, so every row is pushed a little (grey bars), and the rows of the text much more."
        ),
        "zh": (
            "共享权重后，这张表同时也是输出层：softmax 给 256 个 token 每个都分配了概率，"
            "所以每一行都会被推动一点（灰色柱），文本里出现的行被推动得多得多。"
        ),
    },
    # parameters
    # the labels under the parameter formula's terms (LaTeX \text{...}: plain words, no markup)
    "tok.latex_token": {"en": "token", "zh": "词嵌入表"},
    "tok.latex_learned": {"en": "learned positions", "zh": "可学习位置表"},
    "tok.latex_head": {"en": "untied head", "zh": "不共享的输出层"},
    "tok.latex_untied": {"en": "untied", "zh": "不共享"},
    "tok.latex_tied": {"en": "tied", "zh": "共享"},
    "tok.params_md": {
        "en": (
            "A token table costs V × D parameters, a learned position table L × D; sinusoidal, RoPE and ALiBi "
            "store nothing. An untied output head is another V × D. Pick a model or type your own numbers."
        ),
        "zh": (
            "词嵌入表的参数量是 V × D，可学习位置表是 L × D；正弦、RoPE 和 ALiBi 不存储任何表。"
            "不共享权重的输出层还要再加 V × D。选择一个模型，或者输入你自己的数字。"
        ),
    },
    "tok.preset": {"en": "Model preset", "zh": "模型预设"},
    "tok.custom": {"en": "custom", "zh": "自定义"},
    "tok.vocab": {"en": "vocab_size V", "zh": "词表大小 V"},
    "tok.pd_model": {"en": "d_model D", "zh": "d_model D"},
    "tok.max_pos": {"en": "max positions L", "zh": "最大位置数 L"},
    "tok.positional": {"en": "positional scheme", "zh": "位置编码方式"},
    "tok.pos_none": {"en": "none", "zh": "无"},
    "tok.pos_learned": {"en": "learned table", "zh": "可学习位置表"},
    "tok.pos_sinusoidal": {"en": "sinusoidal", "zh": "正弦"},
    "tok.pos_rope": {"en": "RoPE", "zh": "RoPE"},
    "tok.pos_alibi": {"en": "ALiBi", "zh": "ALiBi"},
    "tok.ptied": {"en": "tied output head", "zh": "输出层共享权重"},
    "tok.metric_token": {"en": "token table V·D", "zh": "词嵌入表 V·D"},
    "tok.metric_pos": {"en": "position table", "zh": "位置表"},
    "tok.metric_total": {"en": "embedding tables", "zh": "嵌入表合计"},
    "tok.metric_head": {"en": "untied output head", "zh": "不共享的输出层"},
    "tok.memory": {
        "en": (
            "Memory of the embedding tables: **{fp32}** in fp32, **{bf16}** in bf16 "
            "(with the output head: {fp32_head} / {bf16_head})."
        ),
        "zh": "嵌入表占用内存：fp32 下 **{fp32}**，bf16 下 **{bf16}**（加上输出层：{fp32_head} / {bf16_head}）。",
    },
    "tok.share": {
        "en": "In {name}, the embedding tables are **{share}** of its {total} parameters.",
        "zh": "在 {name} 中，嵌入表占全部 {total} 个参数的 **{share}**。",
    },
    "tok.share_unknown": {
        "en": "Custom numbers: the model's total parameter count is unknown, so no share is shown.",
        "zh": "自定义数字：不知道模型的总参数量，因此不显示占比。",
    },
    "tok.params_title": {"en": "Parameters per table", "zh": "每张表的参数量"},
    "tok.params_y": {"en": "parameters", "zh": "参数量"},
    "tok.bar_token": {"en": "token table", "zh": "词嵌入表"},
    "tok.bar_pos": {"en": "position table", "zh": "位置表"},
    "tok.bar_head": {"en": "untied output head", "zh": "不共享的输出层"},
    "tok.shares_title": {
        "en": "Share of each model's parameters in its embedding tables",
        "zh": "各模型中嵌入表占总参数量的比例",
    },
    "tok.shares_y": {"en": "% of all parameters", "zh": "占总参数的百分比"},
    "tok.shares_note": {
        "en": "token table + learned position table; an untied output head is not counted",
        "zh": "词嵌入表 + 可学习位置表；不共享的输出层不计入",
    },
    "tok.notice_params": {
        "en": (
            "ANDREA-120M: its token table alone, 8,449 × 768 = 6,488,832, is 5.4% of the model (lesson 002). "
            "With 1,024 × 768 = 786,432 learned positions the tables hold 7,275,264, about 6%. Small models with big vocabularies pay the most: Qwen3-0.6B's 151,936 × 1,024 table is about a "
            "quarter of the whole model, while in the 7B models it is a few per cent."
        ),
        "zh": (
            "ANDREA-120M：单是词嵌入表 8,449 × 768 = 6,488,832 就占模型的 5.4%（第 002 课）。"
            "加上 1,024 × 768 = 786,432 个可学习位置参数，两张表共 7,275,264，约占 6%。"
            "词表大而模型小的代价最高：Qwen3-0.6B 的 151,936 × 1,024 嵌入表约占整个模型的四分之一，"
            "而在 7B 模型中只占几个百分点。"
        ),
    },
}
