"""Strings of the "Real model" page (all-MiniLM-L6-v2), and the row-step table Learned positions shares with it."""
PREFIX = "real."  # every key of STRINGS starts with it (tests/app/test_page_stems.py)
STRINGS = {
    "real.nav": {"en": "Real model", "zh": "真实模型"},
    "real.title": {
        "en": "A real model's embeddings: all-MiniLM-L6-v2, offline",
        "zh": "真实模型的嵌入：离线查看 all-MiniLM-L6-v2",
    },
    "real.lead": {
        "en": "The table puts lesson 003's cosine similarities from Qwen3-0.6B beside the same question asked live of the bundled model: is cat closer to dog than to car?",
        "zh": '下表把第 003 课在 Qwen3-0.6B 上算出的余弦相似度，和在内置模型上实时问的同一个问题放在一起：cat 离 dog 比离 car 更近吗？',
    },
    "real.intro": {
        "en": (
            "The lessons look inside Qwen3-0.6B with Hugging Face transformers. This page does the same offline with "
            "a small pretrained model that ships with the app: **all-MiniLM-L6-v2**, a 6-layer BERT trained for "
            "sentence embeddings. Only two of its tensors are read. The **token table** has one row per WordPiece "
            "token: WordPiece, BERT's tokenizer, keeps whole common words and cuts rarer ones into pieces, a "
            "piece that continues a word written with ## (un, ##bel, ...). The **learned position table** has one "
            "row per position, as in BERT and GPT-2; RoPE models such as Qwen have no such table. Nothing is downloaded and none of the model's code runs: a word's vector is "
            "just its row."
        ),
        "zh": (
            "这几课用 Hugging Face transformers 查看了 Qwen3-0.6B 的内部。本页离线做同样的事，用的是随应用一起安装的"
            "小型预训练模型 **all-MiniLM-L6-v2**（一个 6 层的 BERT，训练目标是句子向量）。我们只读取其中两个张量。"
            "**词嵌入表**每个 WordPiece token 一行：WordPiece 是 BERT 的分词器，保留完整的常见词，把较少见的词切成几块，"
            "接在词中间的块写成 ##（un、##bel……）。**可学习位置表**每个位置一行，BERT 和 GPT-2 都是这样；"
            "Qwen 这类使用 RoPE 的模型没有这张表。不下载任何东西，也不运行模型代码：一个词的向量就是表里的一行。"
        ),
    },
    "real.metric_vocab": {"en": "vocab_size (rows)", "zh": "vocab_size（行数）"},
    "real.metric_positions": {"en": "learned positions", "zh": "可学习位置数"},
    "real.metric_params": {"en": "token table parameters", "zh": "词嵌入表参数量"},
    "real.lesson_header": {
        "en": (
            "**The lesson's example, and the same question here.** Lesson 003 compares 猫/狗 (cat/dog) with 猫/汽车 "
            "(cat/car) in Qwen3-0.6B. This model's vocabulary is lowercase English WordPiece, where 猫 is `[UNK]` "
            "(unknown), so the Chinese pairs cannot be looked up. The lesson's numbers in the table come from Qwen3 as the "
            "lesson printed them; the English pairs ask the same question of this model, live:"
        ),
        "zh": (
            "**第 003 课的例子，以及在这里问同一个问题。** 第 003 课在 Qwen3-0.6B 上比较了 猫/狗 和 猫/汽车。本模型的词表是"
            "小写英文 WordPiece，“猫”在这里只是 `[UNK]`（未知词），查不到中文词对。表中第 003 课的数字来自 Qwen3"
            "（照录该课打印的结果）；英文词对则在本模型上实时计算，问的是同一个问题："
        ),
    },
    "real.lesson_source": {"en": "lesson (lesson 003)", "zh": "第 003 课"},
    "real.here_source": {"en": "here, measured now", "zh": "本页，实时计算"},
    "real.lesson_caption": {
        "en": (
            "Same ordering in both models: here cat–dog {cat_dog:.4f} > cat–car {cat_car:.4f}. But car is a weak "
            "stand-in for an unrelated word in this model: it is cat's {rank}th nearest token of {V}. Pairs the data "
            "supports as unrelated score near 0: cat–airplane {cat_airplane:.4f}, cat–tuesday {cat_tuesday:.4f}. The "
            "absolute values differ between the models (other training data, vocabulary and width); what carries "
            "meaning is which pair is closer."
        ),
        "zh": (
            "两个模型给出的大小关系一致：这里 cat–dog {cat_dog:.4f} > cat–car {cat_car:.4f}。不过在本模型里 car 并不"
            "适合充当“无关词”：它是 cat 在 {V} 个 token 中第 {rank} 近的 token。数据支持的无关词对得分接近 0："
            "cat–airplane {cat_airplane:.4f}，cat–tuesday {cat_tuesday:.4f}。两个模型的绝对数值不同（训练数据、"
            "词表和维度都不一样），有意义的是哪一对更接近。"
        ),
    },
    "real.col_source": {"en": "source", "zh": "来源"},
    "real.col_model": {"en": "model", "zh": "模型"},
    "real.col_table": {"en": "token table (V × D)", "zh": "词嵌入表 (V × D)"},
    "real.col_pair": {"en": "pair", "zh": "词对"},
    "real.col_cos": {"en": "cos", "zh": "cos"},
    "real.col_step": {"en": "step", "zh": "步"},
    "real.col_vs_typical": {"en": "minus typical", "zh": "减去典型值"},
    "real.col_norm_from": {"en": "length of row p", "zh": "第 p 行的模长"},
    "real.col_norm_to": {"en": "length of row p+1", "zh": "第 p+1 行的模长"},
    # tabs: labels are also the ?real_tab= values, so keep them short and unique
    "real.tab_pairs": {"en": "Word pairs", "zh": "词对"},
    "real.tab_subwords": {"en": "Subwords", "zh": "子词"},
    "real.tab_analogy": {"en": "Analogy", "zh": "类比"},
    "real.tab_neighbours": {"en": "Neighbours", "zh": "近邻"},
    "real.tab_map": {"en": "Word map", "zh": "词图"},
    "real.tab_upload": {"en": "Your table", "zh": "上传你的表"},
    # word pairs
    "real.pairs_input": {"en": "Word pairs, one per line", "zh": "词对，每行一对"},
    "real.pairs_help": {
        "en": "Two words per line, separated by a comma or a space, e.g. 'cat, dog'. Each word must be one token.",
        "zh": "每行两个词，用逗号或空格隔开，例如 'cat, dog'。每个词都必须是单个 token。",
    },
    "real.pair_format": {
        "en": "Line {line} holds {n} word(s); write exactly two, e.g. 'cat, dog'. The other lines are shown.",
        "zh": "第 {line} 行有 {n} 个词；每行只写两个，例如 'cat, dog'。其余各行照常显示。",
    },
    "real.pair_skipped": {
        "en": "Line {line} skipped: {message}. The other lines are shown.",
        "zh": "已跳过第 {line} 行：{message}。其余各行照常显示。",
    },
    "real.pairs_none": {
        "en": "No pair to show yet: type two single-token words per line, e.g. 'cat, dog'.",
        "zh": "还没有可以显示的词对：每行输入两个单 token 的词，例如 'cat, dog'。",
    },
    "real.pairs_title": {"en": "Cosine similarity of the two words' token rows", "zh": "两个词的 token 行向量的余弦相似度"},
    "real.pairs_note": {
        "en": "rows of the raw token table, before any transformer block",
        "zh": "取自原始词嵌入表的行，还没有经过任何 Transformer 块",
    },
    "real.pairs_notice": {
        "en": ("With the default pairs, related words are only moderately similar (around 0.4 to 0.6) and unrelated "
               "ones lower; inflections such as cat, cats score about 0.8. Try 'cat, kitten' or 'big, large'. These "
               "are input vectors: the layers above refine meaning by context."),
        "zh": ("默认的词对里，相关的词也只是中等程度相似（大约 0.4 到 0.6），无关的词更低；cat、cats 这"
               "样的词形变化约为 0.8。试试 'cat, kitten' 或 'big, large'。这些都是输入向"
               "量：上面的各层还会根据上下文细化词义。"),
    },
    # analogy
    "real.analogy_intro": {
        "en": (
            "Row arithmetic: take the vector of **a**, subtract **b**, add **c**, and list the tokens whose rows point "
            "most nearly the same way. As in Mikolov et al. 2013, a, b and c themselves are left out."
        ),
        "zh": (
            "行向量的算术：取 **a** 的向量，减去 **b**，加上 **c**，再列出方向最接近的 token"
            "（a、b、c 本身不参与排名，与 Mikolov 等人 2013 年的做法相同）。"
        ),
    },
    "real.k": {"en": "how many (k)", "zh": "显示几个（k）"},
    "real.analogy_title": {"en": "Tokens nearest to {a} − {b} + {c}", "zh": "最接近 {a} − {b} + {c} 的 token"},
    "real.analogy_notice": {
        "en": (
            "With the defaults, queen comes first: the step from man to woman, applied to king, lands nearest queen. "
            "The runners-up (kings, monarch, queens) show the vector still carries 'royal'. Try paris − france + "
            "england."
        ),
        "zh": (
            "默认输入下排第一的是 queen：把从 man 到 woman 的那一步加到 king 上，落点离 queen 最近。后面的 kings、"
            "monarch、queens 说明这个向量依然带着“王室”的含义。试试 paris − france + england。"
        ),
    },
    # neighbours
    "real.word": {"en": "word", "zh": "词"},
    "real.neighbours_title": {"en": "The {k} nearest tokens to '{word}'", "zh": "与 '{word}' 最接近的 {k} 个 token"},
    "real.neighbours_notice": {
        "en": ("For cat at k = 10, the nearest rows are inflections (cats), near-synonyms (kitten) and words that "
               "appear in the same places (dog, pets). A WordPiece fragment such as ##cat can sneak in because it "
               "shares the spelling."),
        "zh": ("以 cat、k = 10 为例，最近的行是词形变化（cats）、近义词（kitten）以及常出现在相同位"
               "置的词（dog、pets）。像 ##cat 这样的 WordPiece 片段因为拼写相同也可能混进来。"),
    },
    # word map
    "real.map_input": {"en": "Words to place on the map", "zh": "要放到图上的词"},
    "real.map_help": {
        "en": "Words separated by commas. Start a line with 'group:' to colour its words, e.g. 'animals: cat, dog'.",
        "zh": "用逗号分隔各个词。行首写 '组名:' 可以给这一行的词上色，例如 'animals: cat, dog'。",
    },
    "real.map_skipped": {"en": "'{word}' is left out: {message}", "zh": "'{word}' 未画出：{message}"},
    "real.map_title": {
        "en": "The words' token rows, projected onto their two main directions (PCA)",
        "zh": "这些词的 token 行向量投影到两个主方向上（PCA）",
    },
    "real.map_note": {
        "en": "384 dimensions flattened to 2: distances are only roughly kept",
        "zh": "把 384 维压到 2 维：距离只能大致保留",
    },
    "real.map_notice": {
        "en": ("Nobody told the model which words are royals or numbers, yet with the default list each group "
               "gathers in its own corner: the table learned it from which words occur in similar contexts. Animals "
               "and vehicles overlap here because PCA keeps only the two directions along which *this list* spreads "
               "most; delete the royals and numbers lines and the first direction separates animals from vehicles."),
        "zh": ("没有人告诉模型哪些词是王室、哪些是数字，但在默认词表下每一组都聚到了自己的角落：这是表从“哪些词出现在相"
               "似的上下文里”学到的。动物和交通工具在这里重叠，是因为 PCA 只保留*这份词表*分散得最开的两个方向；"
               "删掉 royals 和 numbers 两行，第一个方向就会把动物和交通工具分开。"),
    },
    "real.positions_moved": {
        "en": (
            "The learned position table ({L} rows × {D}) has its own page: **Learned positions**, in the Positions "
            "section of the menu."
        ),
        "zh": "可学习位置表（{L} 行 × {D}）有单独的一页：菜单“位置编码”部分的“可学习的位置编码”。",
    },
    # steps between neighbouring rows: the Learned positions page and an uploaded table share these
    "real.steps_title": {"en": "How alike are neighbouring rows: cos(row t, row t+1)", "zh": "相邻两行有多像：cos(第 t 行, 第 t+1 行)"},
    "real.step_axis": {"en": "{axis} t", "zh": "{axis} t"},
    "real.steps_note": {
        "en": "typical step {typical:.4f}; circles: steps below it by more than {spreads:g} robust standard deviations "
              "and by more than {drop:g}",
        "zh": "典型值 {typical:.4f}；圆圈：比典型值低 {spreads:g} 个稳健标准差以上、且低 {drop:g} 以上的步",
    },
    "real.rough": {"en": "rough steps", "zh": "不平滑的步"},
    "real.rough_header": {
        "en": "**Where it is not smooth:** {steps}. The first and last steps are always listed; the median row length is {norm:.3f}.",
        "zh": "**不平滑的地方：** {steps}。第一步和最后一步总会列出；各行模长的中位数是 {norm:.3f}。",
    },
    # upload
    "real.upload_intro": {
        "en": (
            "Bring your own table: a `.safetensors` or `.npy` file holding one 2-D (V, D) array (a model's token or "
            "position table, or anything else). At most {mb} MB and {values:,} values. The file is only read as "
            "numbers: pickled objects and `.pt` files are refused, and the table stays in your session."
        ),
        "zh": (
            "上传你自己的表：一个 `.safetensors` 或 `.npy` 文件，里面是一个二维 (V, D) 数组（模型的词嵌入表、位置表，"
            "或者别的任何表）。文件最大 {mb} MB，最多 {values:,} 个数。文件只会被当作数字读取：pickle 对象和 `.pt` "
            "文件一律拒绝，表格只保存在你自己的会话里。"
        ),
    },
    "real.upload_label": {"en": "Embedding table (.safetensors or .npy)", "zh": "嵌入表（.safetensors 或 .npy）"},
    "real.upload_hint": {
        "en": (
            "For example, in Python: numpy.save('positions.npy', model.embeddings.position_embeddings.weight."
            "detach().numpy())."
        ),
        "zh": (
            "例如在 Python 里：numpy.save('positions.npy', model.embeddings.position_embeddings.weight."
            "detach().numpy())。"
        ),
    },
    "real.upload_ok": {
        "en": "Read {name}: {V:,} rows × {D:,} columns.",
        "zh": "已读取 {name}：{V:,} 行 × {D:,} 列。",
    },
    "real.upload_tensor": {
        "en": "The table is the tensor {tensor}.",
        "zh": "读取的是其中的张量 {tensor}。",
    },
    "real.upload_rows": {"en": "rows to analyse (the first n, up to {limit:,})", "zh": "分析的行数（前 n 行，最多 {limit:,}）"},
    "real.row": {"en": "row", "zh": "行"},
    "real.upload_matrix_title": {"en": "cos(row i, row j) for the first {n} rows", "zh": "前 {n} 行两两的 cos(第 i 行, 第 j 行)"},
    "real.pca_rows_title": {"en": "The first {n} rows in their two main directions (PCA)", "zh": "前 {n} 行在两个主方向上的投影（PCA）"},
    "real.pca_rows_note": {
        "en": "colour = row number; the first 12 rows are joined in order",
        "zh": "颜色表示行号；前 12 行按顺序连起来",
    },
    "real.upload_notice": {
        "en": (
            "For a position table, a bright diagonal band and a steady step curve mean smooth positions; for a token "
            "table the row order is just the vocabulary's, so expect no pattern along the diagonal."
        ),
        "zh": (
            "如果是位置表，对角线上的亮带和平稳的相邻曲线说明位置是平滑变化的；如果是词嵌入表，行的顺序只是词表的顺序，"
            "沿对角线不会有什么规律。"
        ),
    },
}
