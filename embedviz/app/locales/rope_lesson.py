"""Strings of the lesson-003 blocks on the "RoPE" page: sinusoidal vs RoPE, Qwen3's 40,960."""
PREFIX = "ropel."  # every key of STRINGS starts with it (tests/app/test_page_stems.py)
STRINGS = {
    "ropel.vs_header": {"en": "Sinusoidal and RoPE side by side (lesson 003)", "zh": "正弦编码与 RoPE 对比（第 003 课）"},
    "ropel.col_aspect": {"en": "aspect", "zh": "对比项"},
    "ropel.col_sin": {"en": "sinusoidal (absolute)", "zh": "正弦绝对位置编码"},
    "ropel.col_rope": {"en": "RoPE", "zh": "RoPE"},
    "ropel.row_target": {"en": "acts on", "zh": "作用对象"},
    "ropel.sin_target": {"en": "added to the token embeddings, once, at the input", "zh": "在输入处加到词嵌入上，只加一次"},
    "ropel.rope_target": {"en": "rotates queries and keys, in every attention layer", "zh": "在每一层注意力里旋转 query 和 key"},
    "ropel.row_kind": {"en": "position type", "zh": "位置类型"},
    "ropel.sin_kind": {"en": "absolute: each position has its own vector", "zh": "绝对位置：每个位置有自己的向量"},
    "ropel.rope_kind": {"en": "relative inside the score: q·k depends only on m − n", "zh": "在内积中体现相对位置：q·k 只取决于 m − n"},
    "ropel.row_params": {"en": "learned parameters", "zh": "可学习参数"},
    "ropel.sin_params": {"en": "none", "zh": "无"},
    "ropel.rope_params": {"en": "none", "zh": "无"},
    "ropel.row_mixing": {"en": "meaning and position", "zh": "语义与位置"},
    "ropel.sin_mixing": {"en": "mixed in the same vector", "zh": "混在同一个向量里"},
    "ropel.rope_mixing": {
        "en": "the embeddings carry no position; it enters only through the q, k rotation",
        "zh": "嵌入向量不带位置，位置只通过 q、k 的旋转进入",
    },
    "ropel.row_users": {"en": "typical users", "zh": "典型使用者"},
    "ropel.sin_users": {"en": "the original Transformer (2017)", "zh": "2017 年的原始 Transformer"},
    "ropel.rope_users": {"en": "Qwen, Llama, DeepSeek, Gemma, …", "zh": "Qwen、Llama、DeepSeek、Gemma 等"},
    "ropel.qwen_header": {"en": "Why Qwen3's max_position_embeddings is 40,960", "zh": "为什么 Qwen3 的 max_position_embeddings 是 40,960"},
    "ropel.qwen_text": {
        "en": (
            "Qwen3-0.6B's config says max_position_embeddings = **{max}**, but that is the largest position the "
            "config allows, not the length it was trained on. Its native context is **{native}** tokens (32K); "
            "{max} = {native} + **{headroom}** leaves headroom (lesson 003: “a little headroom over the official 32K native context”). "
            "Qwen3's model cards put it as reserving {native} tokens for the output and {headroom} for a typical "
            "prompt. Going further takes a scaling method: the model "
            "card's YaRN × {factor} over {native} reaches **{reach}** tokens (the Context extension page). "
            "rope_theta is {theta}, raised from the 10,000 of earlier models."
        ),
        "zh": (
            "Qwen3-0.6B 的配置里 max_position_embeddings = **{max}**，但这是配置允许的最大位置编号，并不是训练"
            "长度。它的原生上下文是 **{native}** 个 token（32K）；{max} = {native} + **{headroom}**，留出了余量"
            "（第 003 课：“比官方标称的 32K 原生上下文略留了余量”）。Qwen3 的模型卡的说法是：为输出预留 {native} "
            "个 token，为一般的提示预留 {headroom} 个。"
            "要走得更远就需要缩放方法：模型卡给出的 YaRN × {factor}，从 {native} 扩到 **{reach}** 个 token"
            "（见“上下文扩展”页）。rope_theta 是 {theta}，比早期模型常用的 10,000 大得多。"
        ),
    },
    "ropel.m_max": {"en": "max_position_embeddings", "zh": "max_position_embeddings"},
    "ropel.m_native": {"en": "native context", "zh": "原生上下文"},
    "ropel.m_headroom": {"en": "headroom", "zh": "余量"},
    "ropel.m_reach": {"en": "with YaRN × {factor}", "zh": "使用 YaRN × {factor}"},
}
