"""Lesson tours (embedviz/lessons/tours.py): the panel, each step's text and what to look at, the questions."""
PREFIX = "tour."  # every key of STRINGS starts with it (tests/app/test_page_stems.py)
STRINGS = {
    # the panel and the sidebar
    "tour.pick": {"en": "Lesson tour", "zh": "按课导览"},
    "tour.none": {"en": "(no tour)", "zh": "（不使用导览）"},
    "tour.controls": {"en": "Tour, presenter view, images", "zh": "导览、演示模式与图片"},
    "tour.where": {"en": "{title} · step {k} of {n}", "zh": "{title} · 第 {k} 步，共 {n} 步"},
    "tour.look": {"en": "Look at:", "zh": "看这里："},
    "tour.back": {"en": "← Back", "zh": "← 上一步"},
    "tour.next": {"en": "Next →", "zh": "下一步 →"},
    "tour.leave": {"en": "Leave tour", "zh": "退出导览"},
    "tour.done": {"en": "That was the last step: lesson {lesson} is done.", "zh": "这是最后一步：第 {lesson} 课的导览结束了。"},
    "tour.done_all": {"en": "That was the last step of the last lesson: all five tours are done.",
                      "zh": "这是最后一课的最后一步：五个导览都走完了。"},
    "tour.next_lesson": {"en": "Next lesson: {title} →", "zh": "下一课：{title} →"},
    "tour.link": {
        "en": "Link to this step: add `?tour={lesson}&step={k}` to the app's address.",
        "zh": "本步链接：在应用网址后加上 `?tour={lesson}&step={k}`。",
    },
    "tour.differs": {
        "en": "You changed {n} setting(s): the view differs from this step's settings.",
        "zh": "你改动了 {n} 项设置：当前视图与本步的设置不同。",
    },
    "tour.restore": {"en": "Restore", "zh": "恢复"},
    "tour.elsewhere": {
        "en": "This step's figure is on another page.",
        "zh": "本步的图在另一个页面上。",
    },
    "tour.go": {"en": "Go there", "zh": "前往"},
    "tour.predict_first": {
        "en": "Predict first: pick an answer and the figure appears.",
        "zh": "先预测：选一个答案，图就会出现。",
    },
    "tour.reveal": {"en": "Show without answering", "zh": "不作答直接看"},
    "tour.right": {"en": "Right. {why}", "zh": "答对了。{why}"},
    "tour.wrong": {"en": "Not this time: the answer is “{answer}”. {why}", "zh": "这次没猜中：答案是“{answer}”。{why}"},
    "tour.present": {"en": "Presenter view", "zh": "演示模式"},
    "tour.present_help": {
        "en": "For a projector: larger text and figure labels, full-width charts, the sidebar folded away. "
              "In a link: ?present=true.",
        "zh": "用于投影：更大的文字和图标签、全宽图表、侧边栏收起。链接里写 `?present=true`。",
    },
    # a verdict's two parts, the question's numbers and the step's finding: sentences in Chinese meet without a space
    "tour.why_found": {"en": "{why} {found}", "zh": "{why}{found}"},
    "tour.image": {"en": "Chart toolbar saves", "zh": "图表工具栏保存为"},
    "tour.image_png": {"en": "PNG 2×", "zh": "PNG 2×"},
    "tour.image_svg": {"en": "SVG", "zh": "SVG"},
    "tour.image_help": {
        "en": "What the camera button above each chart downloads: a PNG at twice the screen size for slides, "
              "or an SVG to edit. Drawn in your browser, nothing is sent anywhere.",
        "zh": "每张图上方相机按钮下载的格式：适合幻灯片的两倍尺寸 PNG，或可编辑的 SVG。都在浏览器里生成，不会发送到任何地方。",
    },
    # take-away tables (CSV column names)
    "tour.csv_quantity": {"en": "quantity", "zh": "项目"},
    "tour.csv_parameters": {"en": "parameters", "zh": "参数量"},
    "tour.csv_after": {"en": "wavelength with {method}", "zh": "使用 {method} 后的波长"},
    "tour.csv_kind": {"en": "what happens to the pair", "zh": "该维度对的处理方式"},
    # lesson 000: token and positional embeddings (build)
    "tour.000.title": {"en": "Lesson 000: token and positional embeddings", "zh": "第 000 课：《Token Embedding 与 Positional Embedding》"},
    "tour.000.lookup": {
        "en": "The model first meets a token id as a row lookup: a (V, D) table, one row per vocabulary id. "
              "(B, T) ids become (B, T, D) vectors; the table starts as a small Gaussian, std about 0.02.",
        "zh": "模型第一次接触 token id，就是在 (V, D) 的表上按行查找：每个词表 id 一行。"
              "(B, T) 的 id 变成 (B, T, D) 的向量；表的初值是小高斯分布，标准差约 0.02。",
    },
    "tour.000.lookup.look": {
        "en": "the rows picked out of the table for 'Hello', and the three ways of looking them up agreeing exactly.",
        "zh": "从表中为 'Hello' 取出的那几行，以及三种查表方式结果完全一致。",
    },
    "tour.000.rows": {
        "en": "Training changes the table by backpropagation. Take one backward step on 'Hello', with an output head "
              "of its own (not tied to the table).",
        "zh": "训练通过反向传播修改嵌入表。对 'Hello' 做一次反向传播，输出头单独一套权重（不与嵌入表共享）。",
    },
    "tour.000.rows.found": {
        "en": ("Backpropagation only adds gradient to the rows of this batch's input tokens; any other row gets "
               "zero (the last token is only a target)."),
        "zh": "反向传播只把梯度累积到本批输入 token 的行；其他行梯度为 0（最后一个 token 只是预测目标）。",
    },
    "tour.000.rows.look": {
        "en": "the bars: which of the 256 rows got a gradient after one backward step on 'Hello'.",
        "zh": "柱状图：对 'Hello' 做一次反向传播后，256 行中哪些行有梯度。",
    },
    "tour.000.tied": {
        "en": "With weight tying the same matrix is also the output projection: the logits are the last hidden "
              "state times the table's transpose.",
        "zh": "共享权重时，嵌入表同时也是输出投影：输出分数（logits）等于最后的隐藏状态乘以嵌入表的转置。",
    },
    "tour.000.tied.found": {
        "en": "The logits use every row, so every backward pass reaches every row from the output side.",
        "zh": "计算输出分数要用到每一行，所以每次反向传播都会从输出侧触碰到每一行。",
    },
    "tour.000.tied.look": {
        "en": "the bars again, now with the head tied: compare the count with the last step.",
        "zh": "再看柱状图，这次输出头共享权重：和上一步比较有梯度的行数。",
    },
    "tour.000.learned": {
        "en": "A learned positional embedding is a second table, (max_context_length, D): L × D more parameters, "
              "and no row for a position past L. The sinusoidal one costs 0 parameters.",
        "zh": "可学习位置表是第二张表，形状 (max_context_length, D)：多出 L × D 个参数，"
              "位置超过 L 就没有对应的行。正弦编码的额外参数是 0。",
    },
    "tour.000.learned.look": {
        "en": "the parameter counts: L × D for the learned table, 0 for sinusoidal. The next tab, “Neighbouring "
              "positions”, shows the cosine of neighbours: smooth for sinusoidal, random for a freshly initialised "
              "learned table.",
        "zh": "参数量：可学习位置表是 L × D，正弦编码是 0。下一个标签页“相邻位置”给出相邻位置的余弦相似度："
              "正弦编码连续平滑，刚初始化的可学习位置表近似随机。",
    },
    "tour.000.formula": {
        "en": "The sinusoidal embedding is a function of the position: angle = p / 10000^(2i/D), sin on even "
              "dimensions, cos on odd ones.",
        "zh": "正弦位置编码是位置的函数：angle = p / 10000^(2i/D)，偶数维取 sin，奇数维取 cos。",
    },
    "tour.000.formula.look": {
        "en": "the table of frequencies and wavelengths (the first tab draws the same encoding as a heatmap). "
              "The lesson says the low dimensions encode coarse position.",
        "zh": "频率和波长表（第一个标签页把同一个编码画成热力图）。课里说低维编码粗粒度的位置。",
    },
    "tour.000.formula.found": {
        "en": "The wavelengths grow geometrically across the pairs, from the first to the last.",
        "zh": "各维度对的波长从第一对到最后一对按几何级数增长。",
    },
    "tour.000.rotation": {
        "en": "Because sin and cos come in pairs, PE(p + k) is a fixed linear function (a rotation per pair) of PE(p), "
              "so attention can learn offsets such as “look back 5 tokens”.",
        "zh": "由于 sin 和 cos 成对出现，PE(p + k) 是 PE(p) 的一个固定线性函数（每对维度一次旋转），"
              "所以注意力能够学到“往回看 5 个 token”这样的相对位移。",
    },
    "tour.000.rotation.look": {
        "en": "the rotation check: PE(5 + 5) from the formula (circles) and by rotating PE(5) (crosses), on the "
              "same points; their difference is under the chart.",
        "zh": "旋转验证：按公式算的 PE(5 + 5)（圆圈）与旋转 PE(5) 得到的结果（叉号）落在同一点上；两者的差在图下方。",
    },
    "tour.000.sum": {
        "en": "The input pipeline: look up token vectors, add the position vectors (summed, not concatenated, so "
              "the width stays D), and hand (B, T, D) to the first block.",
        "zh": "输入管线：查 token 向量，加上位置向量（求和而不是拼接，宽度始终是 D），把 (B, T, D) 交给第一个 Transformer 块。",
    },
    "tour.000.sum.look": {
        "en": "the three panels: token vectors + position vectors = the block's input.",
        "zh": "三个面板：token 向量 + 位置向量 = Transformer 块的输入。",
    },
    "tour.000.refuse": {
        "en": "The lesson's two position modules both hold L rows. The learned table has no row past L − 1; "
              "the lesson's sinusoidal module precomputes L rows and refuses longer inputs too, although its "
              "formula is defined at any position.",
        "zh": "本课的两种位置模块都只有 L 行：可学习表在第 L − 1 行之后没有行；本课的正弦模块预先算好 L 行，"
              "虽然公式对任何位置都有定义，也同样拒绝更长的输入。",
    },
    "tour.000.refuse.look": {
        "en": "T = 32 against L = 16: both modules refuse, each with its own message. Set T back to 16 or less "
              "and both answer.",
        "zh": "T = 32、L = 16：两种模块都拒绝，各自给出报错信息。把 T 调回 16 或更小，两者就都能正常返回。",
    },
    "tour.000.broadcast": {
        "en": "Adding the position vectors: positions 0 … T − 1 give a (T, D) block; unsqueeze(0) makes it "
              "(1, T, D). PyTorch broadcasts it over the batch, so every sequence gets the same position "
              "vectors and the sum is (B, T, D).",
        "zh": "加上位置向量：位置 0 … T − 1 得到一个 (T, D) 的块；unsqueeze(0) 把它变成 (1, T, D)，"
              "PyTorch 再沿批维度广播，所以每条序列拿到的位置向量都一样，求和结果是 (B, T, D)。",
    },
    "tour.000.broadcast.look": {
        "en": "the shape table: ids (2, 5), token vectors (2, 5, 8), positions (5, 8) then (1, 5, 8), the sum "
              "(2, 5, 8). Move B: only the first number of the batch shapes changes.",
        "zh": "形状表：id 是 (2, 5)，token 向量 (2, 5, 8)，位置向量 (5, 8) 再变成 (1, 5, 8)，求和 (2, 5, 8)。"
              "改变 B：只有与批有关的形状的第一个数会变。",
    },
    "tour.000.concat": {
        "en": "The lesson sums token and position vectors instead of concatenating them: the sum keeps the width "
              "D through the whole network.",
        "zh": "本课把 token 向量和位置向量相加，而不是拼接：求和让整条网络保持宽度 D。",
    },
    "tour.000.concat.found": {
        "en": "Concatenation widens every later layer, not only the first one.",
        "zh": "拼接会让之后每一层都变宽，不只是第一层。",
    },
    "tour.000.concat.look": {
        "en": "the sum-vs-concatenation table: output width and one attention block's parameters for each way.",
        "zh": "求和与拼接对比表：两种方式的输出宽度，以及一个注意力块的参数量。",
    },
    "tour.000.d32": {
        "en": "The lesson's exercise: change D from 64 to 32 and watch the band of wavelengths change.",
        "zh": "课后练习：把 D 从 64 改成 32，看波长带怎么变。",
    },
    "tour.000.d32.look": {
        "en": ("the wavelength column: pair 0 still repeats every 6.3 positions, and the slowest pair now every "
               "35,333 (47,117 at D = 64; 2π·10,000 is the ceiling for any D). 16 pairs span that range instead of "
               "32, so each step between pairs is larger."),
        "zh": ("波长那一列：第 0 对仍每 6.3 个位置重复一次，最慢的一对每 35,333 个位置重复一次（D = "
               "64 时是 47,117；任何 D 的上限都是 2π·10,000）。现在只用 16 对而不是 32 对覆盖这个范围，"
               "相邻两对之间跨度更大。"),
    },
    # lesson 001: embedding, numbers to vectors
    "tour.001.title": {"en": "Lesson 001: embedding, numbers to vectors", "zh": "第 001 课：嵌入，把数字变成向量"},
    "tour.001.lookup": {
        "en": "An embedding is a lookup table: output = weight[token_ids]. 'Hello' is ids [72, 101, 108, 108, 111], "
              "so the output has shape [5, d_model].",
        "zh": "嵌入就是查找表：output = weight[token_ids]。'Hello' 的 id 是 [72, 101, 108, 108, 111]，"
              "所以输出形状是 [5, d_model]。",
    },
    "tour.001.lookup.look": {
        "en": "the five rows taken from the 256-row table, and the ids under the text box.",
        "zh": "从 256 行的表中取出的五行，以及输入框下方的 id。",
    },
    "tour.001.onehot": {
        "en": "Why not one-hot? A one-hot vector has V dimensions, all 0 but a single 1 at the token's id.",
        "zh": "为什么不用 one-hot？one-hot 向量有 V 维，只有 token 的 id 那一维是 1，其余都是 0。",
    },
    "tour.001.onehot.found": {
        "en": "So one-hot cannot express that two tokens are alike; dense vectors can.",
        "zh": "所以 one-hot 无法表达两个 token 相似；稠密向量可以。",
    },
    "tour.001.onehot.look": {
        "en": "the two distance matrices: one-hot on the left, dense vectors on the right.",
        "zh": "两个距离矩阵：左边是 one-hot，右边是稠密向量。",
    },
    "tour.001.randn": {
        "en": "The lesson's Embedding starts from torch.randn (std 1): before training, sim('A', 'B') is just noise.",
        "zh": "课里的嵌入表用 torch.randn 初始化（标准差 1）：训练前 sim('A', 'B') 只是随机值。",
    },
    "tour.001.randn.look": {
        "en": "the row lengths: about √d_model with std 1, far larger than with 0.02.",
        "zh": "行向量的长度：标准差为 1 时约为 √d_model，比 0.02 时大得多。",
    },
    "tour.001.groups": {
        "en": "train.py: two groups a–j and A–J, sequences sampled inside one group, 500 steps of next-token "
              "prediction. Tokens of different groups never share a sequence.",
        "zh": "train.py：小写组 a–j 与大写组 A–J，序列只在组内采样，做 500 步下一个 token 预测。"
              "两组的 token 从不出现在同一序列里。",
    },
    "tour.001.groups.look": {
        "en": ("the table's row sim('a', 'b'), before training and after 500 steps (the two similarity matrices "
               "are further down)."),
        "zh": "表中 sim('a', 'b') 那一行：训练前与 500 步之后（两个相似度矩阵在更下面）。",
    },
    "tour.001.groups.found": {
        "en": "The blocks along the diagonal: the tokens of one group pull together.",
        "zh": "对角线上的两个方块：同一组的 token 互相靠拢。",
    },
    "tour.001.cross": {
        "en": "The lesson says the cross-group pair sim('a', 'A') ends near 0.04 (“unrelated”). What does this run say?",
        "zh": "课里说跨组的 sim('a', 'A') 最后约为 0.04（“向量无关”）。这次训练的结果如何？",
    },
    "tour.001.cross.look": {
        "en": ("the row sim('a', 'A') of the table, beside what lesson 001 says (the cross-group curve over the "
               "steps is further down)."),
        "zh": ("表中 sim('a', 'A') 那一行，以及旁边第 001 课的数字（跨组相似度随步数变化的曲线在"
               "更下面）。"),
    },
    "tour.001.longer": {
        "en": "Train twice as long: the same-group similarity keeps rising. The cross-group one does not rest at "
              "zero; it keeps falling, because training keeps pushing each group away from the other group's "
              "outputs.",
        "zh": "训练时间加倍：组内相似度继续上升。跨组相似度不会停在 0，而是继续下降，因为训练一直把每一组推离另一组的输出。",
    },
    "tour.001.longer.look": {
        "en": ("the table after 1,000 steps: the same-group mean keeps rising, the cross-group mean keeps "
               "falling (the curves and the PCA picture are further down)."),
        "zh": "1,000 步之后的表：组内平均相似度继续上升，跨组平均继续下降（曲线和 PCA 图在更下面）。",
    },
    "tour.001.analogy": {
        "en": "Real models learn the same way at scale, and their geometry carries meaning: king − man + woman ≈ queen.",
        "zh": "真实模型按同样的机制在大规模数据上学习，向量的几何结构带有语义：king − man + woman ≈ queen。",
    },
    "tour.001.analogy.look": {
        "en": "the nearest words to king − man + woman in the bundled model's table.",
        "zh": "内置模型的词表中，与 king − man + woman 最接近的词。",
    },
    # lesson 002: embeddings are a lookup table, not a function (ANDREA-120M)
    "tour.002.title": {"en": "Lesson 002: a lookup table, not a function", "zh": "第 002 课：嵌入是查找表，而非函数"},
    "tour.002.lookup": {
        "en": "Token id i selects row i of a (V, d_model) table: direct array access, no arithmetic. ANDREA-120M "
              "uses d_model = 768; such a table, the lesson says, is usually initialised from a normal distribution "
              "scaled by 1/√d_model.",
        "zh": "Token ID i 选择 (V, d_model) 表的第 i 行：直接数组访问，没有运算。ANDREA-120M 的 d_model = 768；"
              "课里说，这样的表通常按 1/√d_model 缩放的正态分布初始化。",
    },
    "tour.002.lookup.look": {
        "en": "the std and the mean row length at d_model 768 in this “Initialisation” tab (the picked rows are in "
              "the “Lookup” tab).",
        "zh": "这个“初始化”标签页里 d_model 768 时的标准差和平均模长（取出的行在“查表”标签页里）。",
    },
    "tour.002.andrea": {
        "en": "ANDREA-120M's token table: a vocabulary of 8,449 and d_model = 768, beside a learned position table "
              "of 1,024 rows.",
        "zh": "ANDREA-120M 的词嵌入表：词表 8,449、d_model = 768，另有一张 1,024 行的可学习位置表。",
    },
    "tour.002.andrea.found": {
        "en": "8,449 × 768 = 6,488,832 parameters, plus 1,024 × 768 = 786,432 for learned positions: 7,275,264 in "
              "all.",
        "zh": "8,449 × 768 = 6,488,832 个参数，加上可学习位置表 1,024 × 768 = 786,432，共 7,275,264。",
    },
    "tour.002.andrea.look": {
        "en": ("the parameters per table: the token table, the learned positions, an untied output head (each "
               "preset's embedding share is charted further down)."),
        "zh": "每张表的参数量：词嵌入表、可学习位置表、不共享的输出头（各预设模型的嵌入参数占比在更下面的图里）。",
    },
    "tour.002.dot": {
        "en": "Before any similarity: the length |u| = √(u₀² + u₁² + …) and the dot product u · v = u₀v₀ + u₁v₁ + … "
              "= |u| |v| cos θ. Same direction: large and positive; opposite: large and negative; a right angle: 0. "
              "Dot product = unnormalised similarity; the cosine divides the lengths out.",
        "zh": "先定义两个量：模长 |u| = √(u₀² + u₁² + …)，点积 u · v = u₀v₀ + u₁v₁ + … = |u| |v| cos θ。"
              "方向相同时点积是大的正数，方向相反时是大的负数，互相垂直时为 0。点积 = 未归一化的相似度；"
              "余弦相似度把两个模长除掉了。",
    },
    "tour.002.dot.look": {
        "en": "v at a right angle to u: u · v = 0 whatever the lengths. Turn v towards u, then away past 90°, and "
              "watch the sign.",
        "zh": "v 与 u 垂直：无论长度多少，u · v = 0。把 v 转向 u，再转过 90° 以外，看点积的正负号怎么变。",
    },
    "tour.002.predict": {
        "en": "Lesson 002's activity, predict the similarity: after training, cat and dog get close vectors "
              "(both predict pet contexts).",
        "zh": "第 002 课的课堂活动“预测相似度”：训练之后，cat 和 dog 的向量很接近（两者都预测与宠物相关的上下文）。",
    },
    "tour.002.predict.look": {
        "en": "the cosines of all six pairs in the bundled model, beside the page's guesses: set your own to play "
              "the whole activity (good–bad is the usual surprise).",
        "zh": "内置模型里六对词的余弦相似度，旁边是页面上的猜测：换成你自己的猜测，完整地玩一遍"
              "（通常最出人意料的是 good–bad）。",
    },
    "tour.002.predict.found": {
        "en": "Cat and Tuesday predict different contexts.",
        "zh": "cat 和 Tuesday 预测的上下文不同。",
    },
    "tour.002.order": {
        "en": "A token embedding says what the word is, not where it is. Reverse the words of “the cat sat on a "
              "mat”, and give both orders, without positions, to attention without a causal mask.",
        "zh": "词嵌入告诉模型这是什么词，却不告诉它在哪。把“the cat sat on a mat”的词序倒过来，"
              "两种词序都不加位置信息，交给不加因果掩码的注意力。",
    },
    "tour.002.order.found": {
        "en": "Both orders look the same: each output moves with its word.",
        "zh": "两种词序看起来一样：每个输出跟着自己的词移动。",
    },
    "tour.002.order.look": {
        "en": "the max difference after matching each word with its shuffled self.",
        "zh": "把每个词与打乱后的自己对齐之后的最大差异。",
    },
    "tour.002.learned": {
        "en": "ANDREA chooses learned positions (like GPT-2): a (T, d_model) table, T = 1,024, 786,432 parameters; "
              "simple, and fine for a fixed context.",
        "zh": "ANDREA 选择可学习位置表（与 GPT-2 相同）：(T, d_model) 的表，T = 1,024，786,432 个参数；"
              "简单，适合固定上下文。",
    },
    "tour.002.learned.look": {
        "en": ("the table at position 1,024: the learned table has no row, while sinusoidal, RoPE and ALiBi "
               "still answer; under it, both of lesson 000's modules refuse. The “Parameters” tab holds the "
               "1,024 × 768 count."),
        "zh": ("位置 1,024 处的表：可学习位置表没有这一行，正弦、RoPE 和 ALiBi 仍能给出结果；表下"
               "面，第 000 课的两个模块都报错。“参数量”标签页里是 1,024 × 768 的参数量。"),
    },
    "tour.002.tied": {
        "en": "Tied or untied: GPT-2 ties the token table to the output projection and saves V × d_model "
              "parameters; ANDREA keeps them separate.",
        "zh": "共享权重还是不共享：GPT-2 让词嵌入表与输出投影共享权重，省下 V × d_model 个参数；ANDREA 分开训练两者。",
    },
    "tour.002.tied.look": {
        "en": "the bars: GPT-2's untied output head holds 0 parameters, because its head is the token table.",
        "zh": "柱状图：GPT-2 不共享的输出头参数为 0，因为它的输出头就是词嵌入表。",
    },
    "tour.002.sum": {
        "en": "At each position t: x_t = token_embedding[token_id_t] + position_embedding[t], two vectors added "
              "element by element, then into the first transformer block.",
        "zh": "在每个位置 t：x_t = token_embedding[token_id_t] + position_embedding[t]，两个向量逐元素相加，"
              "然后进入第一个 Transformer 块。",
    },
    "tour.002.sum.look": {
        "en": "the three panels: tokens + positions = input.",
        "zh": "三个面板：token + 位置 = 输入。",
    },
    # lesson 003: embeddings and positional encodings for inference
    "tour.003.title": {"en": "Lesson 003: embeddings and position for inference", "zh": "第 003 课：推理中的嵌入与位置编码"},
    "tour.003.qwen": {
        "en": "Qwen3-0.6B's embedding matrix has shape 151,936 × 1,024: vocab_size × hidden_size, one row per token.",
        "zh": "Qwen3-0.6B 的嵌入矩阵形状是 151,936 × 1,024：vocab_size × hidden_size，每个 token 一行。",
    },
    "tour.003.qwen.look": {
        "en": ("the bars: 155,582,464 parameters in the token table, none in a position table (RoPE stores "
               "none) and none in a separate output head (Qwen3-0.6B ties it)."),
        "zh": ("柱状图：词嵌入表 155,582,464 个参数，位置表为 0（RoPE 不存参数），单独的输出头也"
               "为 0（Qwen3-0.6B 共享权重）。"),
    },
    "tour.003.pairs": {
        "en": "The learned rows carry meaning: 猫 vs 狗 0.4233 > 猫 vs 汽车 0.1562 in Qwen3. The app bundles a "
              "multilingual model, multilingual-e5-small; the same ordering holds there.",
        "zh": "学出来的行带有语义：Qwen3 中 猫–狗 0.4233 > 猫–汽车 0.1562。应用内置一个多语言模型"
              " multilingual-e5-small，那里的大小关系同样成立。",
    },
    "tour.003.pairs.look": {
        "en": "猫–狗 against 猫–汽车, then the same pairs in English.",
        "zh": "猫–狗 与 猫–汽车 的对比，再看同样的词对在英文里。",
    },
    "tour.003.permute": {
        "en": "Attention without a causal mask, and without positions: shuffle the tokens of “the cat sat on the "
              "mat”, then match each output with its token.",
        "zh": "不加因果掩码、也没有位置信息的注意力：打乱“the cat sat on the mat”的 token，再把每个输出与它的 token 对齐。",
    },
    "tour.003.permute.found": {
        "en": "Each output just moves with its token (the lesson measures 1.78e-15).",
        "zh": "每个输出只是跟着自己的 token 移动（课里测得 1.78e-15）。",
    },
    "tour.003.permute.look": {
        "en": "the max difference and the difference heatmap.",
        "zh": "最大差异和差异热力图。",
    },
    "tour.003.naive": {
        "en": "Why sine and cosine? The obvious codes each fail: the raw index p is unbounded, p / L gives 0.5 to "
              "word 5 of 10 and to word 500 of 1,000, and binary bits jump. Sinusoidal is a smooth binary counter.",
        "zh": "为什么用正弦和余弦？最直接的编码各有毛病：位置编号 p 没有上界；p / L 让 10 个词里的第 5 个和 1000 个词里"
              "的第 500 个都等于 0.5；二进制每一位都硬跳变。正弦编码是一个平滑的二进制计数器。",
    },
    "tour.003.naive.look": {
        "en": "the two lengths' p / L lines, and in the other tabs the bits jumping at 7 → 8 while sine and cosine "
              "move the same distance at every step.",
        "zh": "两个长度下的 p / L 直线；再看其他标签页：二进制在 7 → 8 处跳变，而正弦和余弦每一步移动的距离都相同。",
    },
    "tour.003.d8": {
        "en": "The 8-dimensional sinusoidal encoding: frequencies 1, 0.1, 0.01, 0.001 and wavelengths 6.3, 63, 628, "
              "6283 positions, like the hands of a clock. The distance between two encodings depends only on the "
              "gap: 0.9641, 1.2962, 2.2097 for gaps 1, 5, 100, from start 0 or 100; it rises, wobbles, and stays "
              "bounded.",
        "zh": "8 维的正弦位置编码：频率 1、0.1、0.01、0.001，波长 6.3、63、628、6283 个位置，就像钟表的指针。"
              "两个编码之间的距离只取决于间隔：间隔 1、5、100 时为 0.9641、1.2962、2.2097，"
              "起点是 0 还是 100 都一样；距离先升后起伏，并且有界。",
    },
    "tour.003.d8.look": {
        "en": ("the frequency table: the first pair turns every 6.3 positions, the last every 6,283. Under it, "
               "the distance curves from several starts lie on top of each other, beside the lesson's table."),
        "zh": ("频率表：第一对每 6.3 个位置转一圈，最后一对每 6,283 个位置才转一圈。表下面，不同起点的距"
               "离曲线彼此重合，旁边是课里的数字表。"),
    },
    "tour.003.heatmap": {
        "en": "The lesson's heatmap: 64 dimensions, 100 positions. Low dimensions oscillate fast, high ones are "
              "nearly constant (the first tab draws it).",
        "zh": "课里的热力图：64 维、100 个位置。低维高频振荡，高维几乎不变（第一个标签页画的就是它）。",
    },
    "tour.003.heatmap.look": {
        "en": "the position-similarity matrix: row 5, at columns 6 and 50.",
        "zh": "位置相似度矩阵：第 5 行的第 6 列和第 50 列。",
    },
    "tour.003.heatmap.found": {
        "en": "The bright band along the diagonal: neighbouring positions look alike.",
        "zh": "沿对角线的亮带：相邻位置的编码彼此相似。",
    },
    "tour.003.pair": {
        "en": "RoPE turns pair i of the query at position m by m·ω_i, and the same pair of the key at "
              "position n by n·ω_i. The 2-D demo: q = (1, 0), k = (0.8, 0.6).",
        "zh": "RoPE 把位置 m 的 query 的第 i 个维度对转 m·ω_i，把位置 n 的 key 的同一维度对转 n·ω_i。"
              "二维示例：q = (1, 0)，k = (0.8, 0.6)。",
    },
    "tour.003.pair.look": {
        "en": "the three scores beside the arrows: score(5, 3), score(50, 48), score(5, 0).",
        "zh": "箭头旁的三个分数：score(5, 3)、score(50, 48)、score(5, 0)。",
    },
    "tour.003.decay": {
        "en": "Long-range decay: with D = 128 and base 10,000 the mean cos(d·ω_i) falls from 1.000 at d = 0 to "
              "0.278 at d = 400.",
        "zh": "远程衰减：D = 128、底数 10,000 时，平均 cos(d·ω_i) 从 d = 0 的 1.000 降到 d = 400 的 0.278。",
    },
    "tour.003.decay.look": {
        "en": ("the decay curves for several rope_theta: the thick line, the chosen 10,000, falls fastest (the "
               "lesson's table is further down)."),
        "zh": ("不同 rope_theta 下的衰减曲线：粗线是选中的 10,000，下降最快（课里的数字表在更下面"
               "）。"),
    },
    "tour.003.learned": {
        "en": "The other road: a learned position table, as in BERT and GPT-2. The Transformer paper tried it and "
              "found nearly the same quality; it kept sinusoidal in the hope of longer inputs. A real learned table "
              "(the bundled MiniLM's) came out smooth between neighbours, except at a few rows: 0 → 1, a jump near 127, and its "
              "last rows, which only the longest inputs reach.",
        "zh": "另一条路：可学习位置表，BERT 和 GPT-2 都这样做。Transformer 原论文试过它，效果几乎一样；"
              "论文保留正弦版，是希望它能处理更长的输入。一张真实的可学习位置表（内置的 MiniLM 的）训练后相邻行大多很相似，"
              "只有几处例外：0 → 1、127 附近的一次跳变，以及只有最长的输入才会用到的最后几行。",
    },
    "tour.003.learned.look": {
        "en": "the neighbour-similarity curve: flat near 0.85, with drops at 0 → 1, around 127 and at the end.",
        "zh": "相邻相似度曲线：大致平稳在 0.85 附近，在 0 → 1、127 附近和末尾下跌。",
    },
    "tour.003.properties": {
        "en": "Five properties of a good encoding: unique, bounded, relative, extrapolates, deterministic. Learned "
              "tables fail to extrapolate; ALiBi adds a linear distance penalty.",
        "zh": "好的位置编码的五条标准：唯一、有界、相对、可外推、确定。可学习位置表输在可外推；ALiBi 加线性距离惩罚。",
    },
    "tour.003.properties.look": {
        "en": "the property table: ◐ marks “defined at any position, but not generalising past the trained length”, "
              "where the lesson ticks sinusoidal and RoPE. ALiBi's per-head slopes are in the “ALiBi” tab.",
        "zh": "性质对照表：◐ 表示“任意位置都能算出，但超过训练长度不能泛化”，第 003 课在这里给正弦和 RoPE 打了勾。"
              "ALiBi 各个头的斜率在“ALiBi”标签页里。",
    },
    "tour.003.theta": {
        "en": "Qwen3-0.6B: max_position_embeddings 40,960 and rope_theta 1,000,000 (earlier models 10,000). A larger "
              "theta slows the late, low-frequency pairs most (the lesson says the high-frequency ones: the other "
              "way round).",
        "zh": "Qwen3-0.6B：max_position_embeddings 40,960，rope_theta 1,000,000（早期模型是 10,000）。"
              "更大的 theta 主要减慢靠后的低频维度对（课里说的是高频维度，恰好说反了）。",
    },
    "tour.003.theta.look": {
        "en": "the wavelengths against the context: the pairs that never complete a turn.",
        "zh": "波长与上下文长度的对比：那些一圈都转不完的维度对。",
    },
    "tour.003.extend": {
        "en": "Extending the context: position interpolation, NTK-aware scaling, YaRN. Qwen3 goes from 32K to 128K "
              "with YaRN × 4.",
        "zh": "扩展上下文：位置插值（PI）、NTK-aware、YaRN。Qwen3 用 YaRN × 4 从 32K 扩展到 128K。",
    },
    "tour.003.extend.look": {
        "en": ("the colours of the wavelength chart, named in its legend: the pairs YaRN keeps, blends and "
               "interpolates, against the trained and the target length."),
        "zh": ("波长图上的颜色（图例在图下方）：YaRN 保持不变、过渡和插值的维度对，以及训练长度和目标长度两条线"
               "。"),
    },
    "tour.003.past": {
        "en": "GlassLM, a small RoPE model trained on 128 tokens, reads 512 here: without scaling, and with the "
              "lesson's three methods.",
        "zh": "GlassLM 是一个只用 128 个 token 训练的小型 RoPE 模型，这里读 512 个：不缩放，以及用课里的三种方法。",
    },
    "tour.003.past.found": {
        "en": "Unscaled, as the lesson says: past the trained length “quality drops clearly”.",
        "zh": "不缩放时正如课里所说：超出训练长度后“生成质量明显下降”。",
    },
    "tour.003.past.look": {
        "en": "the black line (no scaling) right of the dashed line, against PI, NTK and YaRN.",
        "zh": "虚线右边的黑线（不缩放），和 PI、NTK、YaRN 比一比。",
    },
    # lesson 004: word embedding and positional encoding
    "tour.004.title": {"en": "Lesson 004: word embedding and positional encoding", "zh": "第 004 课：词嵌入与位置编码"},
    "tour.004.size": {
        "en": "A vocabulary of V = 100,000 and an embedding matrix W_E of 100,000 × 4,096: learned, randomly "
              "initialised, then adjusted by backpropagation.",
        "zh": "词表大小 V = 100,000，嵌入矩阵 W_E 为 100,000 × 4,096：随机初始化，再由反向传播调整。",
    },
    "tour.004.size.look": {
        "en": ("the token table's bar (its memory is under the controls); untied, the output head is as large "
               "again."),
        "zh": "词嵌入表那一条柱（内存在控件下方）；不共享时，输出头同样大。",
    },
    "tour.004.onehot": {
        "en": "OneHot(爱) · W_E simply cuts one row out of W_E: the product and the lookup give the same numbers. "
              "(Here the vocabulary is 256 bytes, so 爱 is three byte rows.)",
        "zh": "OneHot(爱) · W_E 就是把 W_E 的一行“抠”出来：矩阵乘法和查表结果相同。"
              "（这里的词表是 256 个字节，所以“爱”是三个字节行。）",
    },
    "tour.004.onehot.look": {
        "en": "the 12 rows the ids pick out of W, three byte rows per character; under the figure, the max "
              "difference between one_hot(ids) @ W and W[ids]: zero.",
        "zh": "ids 从 W 中取出的 12 行，每个字三个字节行；图下方是 one_hot(ids) @ W 与 W[ids] 的最大差异：0。",
    },
    "tour.004.learned": {
        "en": "No rule is written into the embedding: gradient descent on co-occurrence pulls similar tokens together.",
        "zh": "词嵌入没有任何预设规则：基于共现的梯度下降把相似的 token 推到一起。",
    },
    "tour.004.learned.look": {
        "en": ("the table, before and after training: the same-group mean rises, the cross-group mean stays "
               "near 0 (the two blocks of the similarity matrix are further down)."),
        "zh": "训练前后的数字表：组内平均相似度上升，跨组平均仍接近 0（相似度矩阵的两个方块在更下面）。",
    },
    "tour.004.order": {
        "en": "Attention without a mask, and without positions: give it 我爱学习, then 学习爱我, and match the outputs "
              "word by word.",
        "zh": "不加掩码、也没有位置信息的注意力：先输入“我爱学习”，再输入“学习爱我”，逐词对齐比较输出。",
    },
    "tour.004.order.found": {
        "en": "Attention without a mask is a set operation: both orders give the same results.",
        "zh": "不加掩码的注意力是一种“集合”运算：两种顺序的计算结果完全一致。",
    },
    "tour.004.order.look": {
        "en": "the outputs before and after reordering, matched word by word.",
        "zh": "调换顺序前后的输出，逐词对齐比较。",
    },
    "tour.004.formula": {
        "en": "PE(pos, 2i) = sin(pos / 10000^(2i/d_model)), PE(pos, 2i+1) = cos(same), with d_model = 4,096. "
              "i is the pair index, 0 … 2,047 (the lesson writes 0 … 4,095).",
        "zh": "PE(pos, 2i) = sin(pos / 10000^(2i/d_model))，PE(pos, 2i+1) = cos(同一角度)，d_model = 4,096。"
              "i 是维度对的序号，取 0 … 2,047（课里写作 0 … 4,095）。",
    },
    "tour.004.formula.look": {
        "en": "the heatmap (every few pairs are shown, and the figure says which); the next tab lists the "
              "frequency table's ends.",
        "zh": "热力图（每隔几对显示一对，图中有说明）；下一个标签页列出频率表的首尾。",
    },
    "tour.004.linear": {
        "en": "The key motive: PE(pos + k) is a linear combination of PE(pos), so the model can sense the distance k "
              "with a linear map.",
        "zh": "最核心的动机：PE(pos + k) 可以表示为 PE(pos) 的线性组合，模型用线性变换就能感知距离 k。",
    },
    "tour.004.linear.look": {
        "en": "the rotation check: PE(3 + 4) from the formula (circles) and by rotating PE(3) (crosses), on the "
              "same points; the error between them is under the chart.",
        "zh": "旋转验证：按公式算的 PE(3 + 4)（圆圈）与旋转 PE(3) 得到的结果（叉号）落在同一点上；两者的误差在图下方。",
    },
    "tour.004.sum": {
        "en": "X_input = X_embedding + PE_pos: look up, compute the formula, add, and send to the first layer's "
              "QKV projection.",
        "zh": "X_input = X_embedding + PE_pos：查表、按公式算位置编码、两者相加，送入第一层的 QKV 投影。",
    },
    "tour.004.sum.look": {
        "en": "the three panels for 我爱学习 (12 bytes, so 12 rows).",
        "zh": "“我爱学习”的三个面板（12 个字节，所以 12 行）。",
    },
    "tour.004.rope": {
        "en": "LLaMA and other modern models use RoPE instead: they rotate Q and K after the projection rather than "
              "adding a vector at the input.",
        "zh": "LLaMA 等现代模型改用 RoPE：不在输入端相加，而是在计算出 Q、K 之后对它们做旋转。",
    },
    "tour.004.rope.look": {
        "en": "the rotation angle of every pair at every position: the first pairs turn fast, the last barely move "
              "(the next tab shows that the score depends only on m − n).",
        "zh": "每个维度对在每个位置的旋转角度：前面的维度对转得快，后面的几乎不动（下一个标签页展示分数只取决于 m − n）。",
    },
    # the questions: prompt, options, why (numbers computed at the step's settings)
    "tour.q.gradient_rows": {
        "en": "Predict: after one backward step on 'Hello', which rows of the 256-row table get a gradient?",
        "zh": "预测：对 'Hello' 做一次反向传播后，256 行的表中哪些行有梯度？",
    },
    "tour.q.gradient_rows.used": {"en": "only rows of the tokens used", "zh": "只有用到的 token 的行"},
    "tour.q.gradient_rows.all": {"en": "all 256 rows", "zh": "全部 256 行"},
    "tour.q.gradient_rows.why": {
        "en": "{n} of {V} rows got a gradient at these settings.",
        "zh": "在这组设置下，{V} 行中有 {n} 行得到了梯度。",
    },
    "tour.q.fastest_pair": {
        "en": "Predict: which pair of dimensions changes fastest as the position grows?",
        "zh": "预测：位置增加时，哪一对维度变化最快？",
    },
    "tour.q.fastest_pair.first": {"en": "the first pair (i = 0)", "zh": "第一对（i = 0）"},
    "tour.q.fastest_pair.middle": {"en": "a pair in the middle", "zh": "中间的某一对"},
    "tour.q.fastest_pair.last": {"en": "the last pair", "zh": "最后一对"},
    "tour.q.fastest_pair.why": {
        "en": "The first pair repeats every {first} positions, the last every {last}: the low dimensions are the fine ones.",
        "zh": "第一对每 {first} 个位置重复一次，最后一对每 {last} 个位置才重复：低维才是细粒度的。",
    },
    "tour.q.one_hot": {
        "en": "Predict: are the one-hot vectors of H, e, l, o all the same distance apart?",
        "zh": "预测：H、e、l、o 的 one-hot 向量两两之间的距离都相等吗？",
    },
    "tour.q.one_hot.equal": {"en": "yes, all equal", "zh": "是，全都相等"},
    "tour.q.one_hot.different": {"en": "no, some are closer", "zh": "不，有的更近"},
    "tour.q.one_hot.why": {
        "en": "Every one-hot distance lies between {lo} and {hi}: √2 for every pair.",
        "zh": "所有 one-hot 距离都在 {lo} 到 {hi} 之间：每一对都是 √2。",
    },
    "tour.q.sim_ab": {
        "en": "Predict: after training, does sim('a', 'b') go up or down?",
        "zh": "预测：训练后 sim('a', 'b') 上升还是下降？",
    },
    "tour.q.sim_ab.up": {"en": "up", "zh": "上升"},
    "tour.q.sim_ab.same": {"en": "about the same (moves less than 0.1)", "zh": "基本不变（变化小于 0.1）"},
    "tour.q.sim_ab.down": {"en": "down", "zh": "下降"},
    "tour.q.sim_ab.why": {
        "en": "sim('a', 'b') goes from {before} to {after} in {steps} steps.",
        "zh": "{steps} 步内 sim('a', 'b') 从 {before} 变为 {after}。",
    },
    "tour.q.sim_aA": {
        "en": "Predict: after training, does sim('a', 'A') go up or down?",
        "zh": "预测：训练后 sim('a', 'A') 上升还是下降？",
    },
    "tour.q.sim_aA.up": {"en": "up", "zh": "上升"},
    "tour.q.sim_aA.same": {"en": "about the same (moves less than 0.1)", "zh": "基本不变（变化小于 0.1）"},
    "tour.q.sim_aA.down": {"en": "down", "zh": "下降"},
    "tour.q.sim_aA.why": {
        "en": "sim('a', 'A') goes from {before} to {after} in {steps} steps.",
        "zh": "{steps} 步内 sim('a', 'A') 从 {before} 变为 {after}。",
    },
    "tour.q.share": {
        "en": "Predict: what share of ANDREA-120M's parameters sits in its embedding tables?",
        "zh": "预测：ANDREA-120M 的参数中，嵌入表占多大比例？",
    },
    "tour.q.share.under10": {"en": "under 10%", "zh": "不到 10%"},
    "tour.q.share.10to30": {"en": "10% to 30%", "zh": "10% 到 30%"},
    "tour.q.share.over30": {"en": "over 30%", "zh": "超过 30%"},
    "tour.q.share.why": {
        "en": ("The token and position tables hold {share} of the model; the rest is the transformer blocks (and an "
               "untied output head, where the model has one)."),
        "zh": "词嵌入表和位置表占整个模型的 {share}；其余是 Transformer 块（以及不共享的输出层，如果模型有的话）。",
    },
    "tour.q.pair_band": {
        "en": "Predict: in a trained model's token table, how similar are the vectors of cat and tuesday?",
        "zh": "预测：在训练好的模型的词嵌入表里，cat 和 tuesday 的向量有多相似？",
    },
    "tour.q.pair_band.close": {"en": "close (cosine ≥ 0.4)", "zh": "很接近（余弦 ≥ 0.4）"},
    "tour.q.pair_band.related": {"en": "somewhat related (0.15 to 0.4)", "zh": "有些相关（0.15 到 0.4）"},
    "tour.q.pair_band.unrelated": {"en": "unrelated, about 0 (−0.15 to 0.15)", "zh": "无关，接近 0（−0.15 到 0.15）"},
    "tour.q.pair_band.opposite": {"en": "opposite (below −0.15)", "zh": "相反（低于 −0.15）"},
    "tour.q.pair_band.why": {
        "en": "cos({a}, {b}) = {cos} in the bundled model: nearly orthogonal, as lesson 002 says. Unrelated words "
              "point in unrelated directions, at about a right angle, not in opposite ones.",
        "zh": "内置模型里 cos({a}, {b}) = {cos}：几乎正交，与第 002 课所说一致。无关的词指向互不相关的方向，"
              "大约成直角，而不是方向相反。",
    },
    "tour.q.shuffle": {
        "en": "Predict: without positions, after reordering the words, do the outputs (matched word by word) change?",
        "zh": "预测：没有位置信息时，调换词序后，逐词对齐的输出会改变吗？",
    },
    "tour.q.shuffle.same": {"en": "no, only rounding differs", "zh": "不会，只有舍入误差"},
    "tour.q.shuffle.different": {"en": "yes, clearly", "zh": "会，差别明显"},
    "tour.q.shuffle.why": {
        "en": "The largest difference is {diff}: floating-point rounding, so attention alone, without a causal mask, cannot see the order.",
        "zh": "最大差异是 {diff}：只是浮点舍入误差，所以不加因果掩码时，单靠注意力看不出顺序。",
    },
    "tour.q.near_far": {
        "en": "Predict: which is larger, cos(PE5, PE6) or cos(PE5, PE50)?",
        "zh": "预测：cos(PE5, PE6) 和 cos(PE5, PE50) 哪个更大？",
    },
    "tour.q.near_far.near": {"en": "cos(PE5, PE6)", "zh": "cos(PE5, PE6)"},
    "tour.q.near_far.far": {"en": "cos(PE5, PE50)", "zh": "cos(PE5, PE50)"},
    "tour.q.near_far.why": {
        "en": "cos(PE5, PE6) = {near}, cos(PE5, PE50) = {far} at these settings: near positions look alike.",
        "zh": "在这组设置下 cos(PE5, PE6) = {near}，cos(PE5, PE50) = {far}：相近的位置编码更相似。",
    },
    "tour.q.shifted": {
        "en": "Predict: compare RoPE's score(5, 3) with score(50, 48).",
        "zh": "预测：比较 RoPE 的 score(5, 3) 与 score(50, 48)。",
    },
    "tour.q.shifted.first": {"en": "score(5, 3) is larger", "zh": "score(5, 3) 更大"},
    "tour.q.shifted.equal": {"en": "they are equal", "zh": "两者相等"},
    "tour.q.shifted.second": {"en": "score(50, 48) is larger", "zh": "score(50, 48) 更大"},
    "tour.q.shifted.why": {
        "en": "score({m}, {n}) = {a} and score({m2}, {n2}) = {b}: the same offset gives the same score.",
        "zh": "score({m}, {n}) = {a}，score({m2}, {n2}) = {b}：相对距离相同，分数就相同。",
    },
    "tour.q.loss_past": {
        "en": "Predict: at 4× the trained length, unscaled, does the loss past position 128 rise, stay or fall?",
        "zh": "预测：在训练长度的 4 倍、不缩放时，越过位置 128 之后的损失是上升、不变还是下降？",
    },
    "tour.q.loss_past.rise": {"en": "it rises", "zh": "上升"},
    "tour.q.loss_past.stay": {"en": "it stays about the same", "zh": "基本不变"},
    "tour.q.loss_past.fall": {"en": "it falls", "zh": "下降"},
    "tour.q.loss_past.why": {
        "en": "{windows} windows of {length}: {inside} nats inside the trained 128, {past} past them ({rise}).",
        "zh": "{windows} 个 {length} 位置的窗口：训练长度 128 以内 {inside} nat，越过之后 {past}（{rise}）。",
    },
    "tour.q.concat": {
        "en": "Predict: concatenate 64-dimensional position vectors onto 64-dimensional token vectors. How much "
              "larger do one attention block's four projections (width × width each) get than with the sum?",
        "zh": "预测：把 64 维的位置向量拼接到 64 维的 token 向量上。与求和相比，一个注意力块的四个投影矩阵"
              "（每个 宽度 × 宽度）会变大多少？",
    },
    "tour.q.concat.same": {"en": "about the same", "zh": "差不多一样"},
    "tour.q.concat.twice": {"en": "twice as large", "zh": "两倍"},
    "tour.q.concat.four": {"en": "four times as large", "zh": "四倍"},
    "tour.q.concat.more": {"en": "more than five times", "zh": "五倍以上"},
    "tour.q.concat.why": {
        "en": "The width doubles to {width}, and each width × width matrix grows with its square: {concat} "
              "parameters instead of {sum}, {ratio} times as many.",
        "zh": "宽度翻倍到 {width}，每个 宽度 × 宽度 矩阵按宽度的平方增长：参数从 {sum} 变成 {concat}，是原来的 {ratio} 倍。",
    },
    "tour.q.table_size": {
        "en": "Predict: how many numbers are in a 100,000 × 4,096 embedding matrix?",
        "zh": "预测：100,000 × 4,096 的嵌入矩阵里有多少个数？",
    },
    "tour.q.table_size.millions": {"en": "a few million", "zh": "几百万"},
    "tour.q.table_size.hundreds_of_millions": {"en": "hundreds of millions", "zh": "几亿"},
    "tour.q.table_size.billions": {"en": "billions", "zh": "几十亿"},
    "tour.q.table_size.why": {
        "en": "{count} parameters: the lesson's “more than 400 million floats”.",
        "zh": "{count} 个参数：正是课里说的“4 亿多个浮点数”。",
    },
}
