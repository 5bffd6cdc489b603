STRINGS = {
    "home.nav": {"en": "Home", "zh": "首页"},
    "home.title": {"en": "embedviz: from token ids to vectors", "zh": "embedviz：从 token id 到向量"},
    "home.intro": {
        "en": (
            "A transformer never sees text. A tokenizer turns text into integer **ids**; the first layer looks each id "
            "up as a row of a table (the **token embedding**), and a second signal says **where** each token stands "
            "(a **positional encoding**: added to the vectors, or rotating queries and keys inside attention). "
            "This app lets you change every number involved and watch what happens."
        ),
        "zh": (
            "Transformer 从不直接看到文字。分词器把文字变成整数 **id**；第一层把每个 id 当作一张表里的一行查出来"
            "（**词嵌入**），再用第二种信号告诉模型每个 token **在哪里**（**位置编码**：加到向量上，或在注意力里"
            "旋转 query 和 key）。在这里你可以改动其中的每一个数字，看看会发生什么。"
        ),
    },
    "home.journey": {
        "en": (
            "1. **Token embeddings**: ids → rows of a (V, D) table; parameter costs of real models; "
            "a small embedding trained live.\n"
            "2. **Why position**: attention alone cannot tell word order.\n"
            "3. **Sinusoidal**, **RoPE**, **ALiBi**, learned tables: how each encodes position, compared side by side.\n"
            "4. **Context extension**: how Llama-3 and Qwen3 stretch RoPE to 128K tokens.\n"
            "5. **Real model**: a pretrained model's embeddings, explored offline."
        ),
        "zh": (
            "1. **词嵌入**：id → (V, D) 表中的行；真实模型的参数开销；现场训练一个小嵌入。\n"
            "2. **为什么需要位置**：仅靠注意力分不出词序。\n"
            "3. **正弦**、**RoPE**、**ALiBi**、可学习位置表：各自如何编码位置，并排对比。\n"
            "4. **上下文扩展**：Llama-3 和 Qwen3 如何把 RoPE 拉长到 128K。\n"
            "5. **真实模型**：离线探索一个预训练模型的嵌入。"
        ),
    },
    "home.try": {"en": "Type some text", "zh": "输入一段文字"},
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
