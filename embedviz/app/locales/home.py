"""Strings of the Home page: the five lessons, and the journey from text to the first block's input."""
PREFIX = "home."  # every key of STRINGS starts with it (tests/app/test_page_stems.py)
STRINGS = {
    "home.nav": {"en": "Home", "zh": "首页"},
    "home.title": {"en": "embedviz: from token ids to vectors", "zh": "embedviz：从 token id 到向量"},
    "home.figure_lead": {
        "en": "Below, what the first layer makes of your text: each token's table row plus its position's vector.",
        "zh": "下图是第一层对你的文字做的事：每个 token 在表里的那一行，加上它所在位置的向量。",
    },
    "home.intro": {
        "en": (
            "A transformer never sees text. A tokenizer turns text into integer **ids**, and the first layer looks "
            "each id up as a row of a table: the **token embedding**. A second signal, the **positional encoding**, "
            "says **where** each token stands. It is either added to the vectors, or it acts inside attention. "
            "There each token makes a **query** (what it looks for) and a **key** (what it offers); a query's dot "
            "product with a key is their **score**, how strongly one token attends to the other. RoPE rotates "
            "queries and keys by their position; ALiBi lowers the scores of far-apart tokens. "
            "This app lets you change every number involved and watch what happens."
        ),
        "zh": (
            "Transformer 从不直接看到文字。分词器把文字变成整数 **id**，第一层把每个 id 当作一张表里的一行查出来：**词嵌入**。"
            "第二种信号，**位置编码**，告诉模型每个 token **在哪里**。它要么加到向量上，要么在注意力内部起作用。"
            "在注意力里，每个 token 生成一个**查询（query）**（它要找什么）和一个**键（key）**（它能提供什么）；"
            "query 与 key 的点积就是它们的**分数**，表示一个 token 有多关注另一个。RoPE 按位置旋转 query 和 key；"
            "ALiBi 压低相距很远的 token 之间的分数。在这里你可以改动其中的每一个数字，看看会发生什么。"
        ),
    },
    "home.journey": {
        "en": (
            "1. **Token embeddings**: ids → rows of a (V, D) table and their parameter cost; dot product and "
            "cosine; a small embedding trained live; then a pretrained model's table (**Real model**).\n"
            "2. **Why position**: attention cannot tell word order unless a **causal mask** (a decoder's rule: each "
            "token sees itself and the tokens before it, never later ones) or a positional encoding tells it.\n"
            "3. **Why sine and cosine**, **Sinusoidal**, **Learned positions**, the input layer, **RoPE**: how each "
            "encodes position; then all of them and **ALiBi** compared side by side.\n"
            "4. **Context extension**: from position interpolation to YaRN and Llama 3, how RoPE is stretched past "
            "its trained length; then **RoPE in today's models**."
        ),
        "zh": (
            "1. **词嵌入**：id → (V, D) 表中的行及其参数开销；点积与余弦相似度；现场训练一个小嵌入；"
            "再看一个预训练模型的表（**真实模型**）。\n"
            "2. **为什么需要位置**：注意力分不出词序，除非有**因果掩码**（解码器的规则：每个 token 只看得到自己和它前面的 token，"
            "看不到后面的）或位置编码告诉它。\n"
            "3. **为什么用正弦和余弦**、**正弦位置编码**、**可学习的位置编码**、输入层、**RoPE**：各自如何编码位置；"
            "再把它们和 **ALiBi** 并排对比。\n"
            "4. **上下文扩展**：从位置插值到 YaRN 和 Llama 3，RoPE 如何拉长到训练长度以外；最后看**当今模型里的 RoPE**。"
        ),
    },
    "home.lessons_header": {"en": "The five lessons", "zh": "五节课"},
    "home.lessons": {
        "en": (
            "The pages follow five lessons (in Chinese) and quote them as \"lesson 000\" … \"lesson 004\"; where a "
            "lesson is wrong or loose, the page says what is true and notes the difference.\n\n"
            "- **Lesson 000**, token embedding and positional embedding: ids become vectors through two lookup "
            "tables, and the choice of position table decides what the model can learn.\n"
            "- **Lesson 001**, embedding: numbers to vectors: a lookup table, one-hot against dense vectors, and "
            "the two-group training experiment (Trained embedding).\n"
            "- **Lesson 002**, an embedding is a lookup table, not a function: ANDREA-120M's parameter counts, "
            "initial scales, which rows a backward step reaches.\n"
            "- **Lesson 003**, embeddings and positional encodings for LLM inference: Qwen3-0.6B's tables, why "
            "attention needs positions, sinusoidal, RoPE and its decay, the five properties, context extension.\n"
            "- **Lesson 004**, word embedding and positional encoding: one-hot, the cost of a "
            "100,000 × 4,096 table, the sinusoidal formula."
        ),
        "zh": (
            "各页内容依据五节课（中文），并以“第 000 课”……“第 004 课”称呼它们；课里说错或说得不严谨的地方，"
            "页面会给出正确的说法，并注明与课里说法的差别。\n\n"
            "- **第 000 课**《Token Embedding 与 Positional Embedding》：id 经过两张查找表变成向量，位置表怎么选决定了"
            "模型能学到什么。\n"
            "- **第 001 课**《Embedding：数字变向量》：查找表、独热（one-hot）与稠密向量，以及两组字符的训练实验（训练后的嵌入）。\n"
            "- **第 002 课**《嵌入是查找表，而非函数》：ANDREA-120M 的参数量、初始化尺度、一次反向传播会更新哪些行。\n"
            "- **第 003 课**《学习大模型推理的嵌入与位置编码》：Qwen3-0.6B 的表、注意力为什么需要位置、正弦编码、RoPE "
            "及其远程衰减、五条性质、上下文扩展。\n"
            "- **第 004 课**《词嵌入（Word Embedding）和位置编码（Positional Encoding）》：one-hot、100,000 × 4,096 嵌入表的开销、正弦公式。"
        ),
    },
    "home.lead": {
        "en": "Start with a lesson: a tour walks its pages and asks you to predict first.",
        "zh": "从一节课开始：每个导览带你一步步走过相关页面，先预测，再看答案。",
    },
    "home.start_tour": {"en": "Start", "zh": "开始"},
    "home.lesson.000": {"en": "ids become vectors through two lookup tables",
                        "zh": "id 经过两张查找表变成向量"},
    "home.lesson.001": {"en": "one-hot against dense vectors; an embedding trained live",
                        "zh": "one-hot 与稠密向量；现场训练一个嵌入"},
    "home.lesson.002": {"en": "ANDREA-120M's tables, initial scales, which rows a step updates",
                        "zh": "ANDREA-120M 的表、初始化尺度、一步更新哪些行"},
    "home.lesson.003": {"en": "why attention needs positions; sinusoidal, RoPE, context extension",
                        "zh": "注意力为什么需要位置；正弦编码、RoPE、上下文扩展"},
    "home.lesson.004": {"en": "the cost of a 100,000 × 4,096 table; the sinusoidal formula",
                        "zh": "100,000 × 4,096 表的开销；正弦公式"},
    "home.more": {"en": "What the app covers, page by page", "zh": "本应用各页内容"},
    "home.try": {"en": "Type some text and watch the three panels", "zh": "输入一段文字，看三幅图怎么变"},
    "home.ids": {"en": "Byte-level ids ({n} tokens): {ids}", "zh": "字节级 id（{n} 个 token）：{ids}"},
    "home.figure_title": {
        "en": "The input to the first transformer block: token vector + position vector",
        "zh": "第一个 Transformer 块的输入：token 向量 + 位置向量",
    },
    "home.panel_tokens": {"en": "token vectors W[ids]", "zh": "token 向量 W[ids]"},
    "home.panel_positions": {"en": "+ sinusoidal positions", "zh": "+ 正弦位置编码"},
    "home.panel_sum": {"en": "= input (T, D)", "zh": "= 输入 (T, D)"},
    "home.notice": {
        "en": (
            "The same byte (the two 'l's of 'Hello') gets the same token vector, but a different position vector, "
            "so the sums differ: that is how the model can tell them apart."
        ),
        "zh": "同一个字节（'Hello' 里的两个 'l'）查到相同的 token 向量，但位置向量不同，所以两者之和不同：模型正是靠这一点区分它们。",
    },
}
