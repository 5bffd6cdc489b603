"""Strings of the "Context extension" page."""
PREFIX = "ctx."  # every key of STRINGS starts with it (tests/app/test_page_stems.py)
STRINGS = {
    "ctx.nav": {"en": "Context extension", "zh": "上下文扩展"},
    "ctx.title": {
        "en": "Context extension: stretching RoPE past its training length",
        "zh": "上下文扩展：把 RoPE 拉伸到训练长度之外",
    },
    "ctx.lead": {
        "en": "Each pair's wavelength before (grey) and after scaling: linear interpolation, the default, stretches every pair by the same factor.",
        "zh": '下图：各维度对缩放前（灰色）后的波长；默认的线性插值把每对拉长同样倍数。',
    },
    "ctx.intro": {
        "en": (
            "A model trained on sequences of 4,096 tokens has only ever seen pair *i* of its queries and keys turned "
            "through angles up to 4,096·ωᵢ. The fast pairs went round their circle hundreds of times, so every angle "
            "is familiar. The slow pairs never finished a single turn: a longer input shows them angles they have "
            "never seen, the attention scores go wrong and the output degrades. Lesson 003 calls this the "
            "*extrapolation* problem. Context-extension methods change the frequencies ωᵢ so that a long context "
            "lands on familiar angles again. This is how Qwen3 goes from 32K to 128K tokens with YaRN, and how the "
            "YaRN paper took LLaMA to 128K."
        ),
        "zh": (
            "一个在 4,096 个 token 的序列上训练的模型，它的查询（query）和键（key）的第 *i* 个维度对最多只转过 4,096·ωᵢ 的角度。"
            "快的维度对早已转了成百上千圈，每个角度都见过。慢的维度对连一圈都没转完，输入一旦更长，它们就会遇到从没见过的角度，"
            "注意力分数随之错乱，生成质量明显下降。这就是第 003 课讲的*外推*问题。上下文扩展方法改变各维度对的频率 ωᵢ，"
            "让长上下文重新落回模型熟悉的角度范围。Qwen3 就是这样用 YaRN 从 32K 扩到 128K 的，YaRN 论文也用它把 LLaMA "
            "扩到了 128K。"
        ),
    },
    # source
    "ctx.source": {"en": "Model preset or config.json", "zh": "模型预设或 config.json"},
    "ctx.source_help": {
        "en": "A preset fills in every setting below; config.json reads a model's own configuration (paste or upload).",
        "zh": "选预设会自动填好下面的所有设置；选 config.json 则读取模型自己的配置文件（粘贴或上传）。",
    },
    "ctx.paste": {"en": "config.json (paste here)", "zh": "config.json（粘贴到这里）"},
    "ctx.paste_help": {
        "en": "Any Hugging Face config.json with rope_theta and rope_scaling / rope_parameters. It starts with "
              "Phi-3-mini-128k's, a well-known model that uses LongRoPE. Press Ctrl+Enter to apply.",
        "zh": "任何带 rope_theta 和 rope_scaling / rope_parameters 的 Hugging Face config.json 都行。默认填的是 "
              "Phi-3-mini-128k 的配置，它是使用 LongRoPE 的知名模型。按 Ctrl+Enter 生效。",
    },
    "ctx.link_no_config": {
        "en": "This config is too long to travel in a link (compressed, over {limit} characters): a shared link "
              "opens the page with the bundled example instead. Send the file with the link.",
        "zh": "这个配置太长，无法放进链接（压缩后超过 {limit} 个字符）：分享的链接打开时会显示内置示例。"
              "请把文件与链接一起发送。",
    },
    "ctx.upload": {"en": "…or upload a config.json", "zh": "……或上传一个 config.json"},
    "ctx.source_caption": {
        "en": "{name}: head_dim {head_dim}, rope_theta {theta}, pre-training context {original} tokens; {method} × {factor} "
              "to {target} tokens.",
        "zh": "{name}：head_dim {head_dim}，rope_theta {theta}，预训练上下文 {original} 个 token；{method} × {factor} "
              "扩到 {target}。",
    },
    "ctx.suggested": {
        "en": "This model's config scales no RoPE, so the settings are a suggestion: YaRN to {target} tokens.",
        "zh": "这个模型的配置没有对 RoPE 做缩放，下面的设置只是一个建议：用 YaRN 扩到 {target} 个 token。",
    },
    "ctx.partial": {
        "en": "Only {dims} of the {head_dim} dimensions of a head rotate (partial_rotary_factor {p}).",
        "zh": "每个注意力头的 {head_dim} 个维度里只有 {dims} 个参与旋转（partial_rotary_factor {p}）。",
    },
    # settings
    "ctx.method": {"en": "Method (rope_type)", "zh": "方法（rope_type）"},
    "ctx.no_longrope": {
        "en": "LongRoPE needs a config's per-pair factors: choose config.json above.",
        "zh": "LongRoPE 需要配置里每个维度对的系数：在上面选 config.json。",
    },
    "ctx.factor": {"en": "factor s", "zh": "缩放倍数 s"},
    "ctx.factor_help": {
        "en": "How many times longer the new context is: target ≈ s × trained length.",
        "zh": "新上下文是原来的几倍：目标长度 ≈ s × 训练长度。",
    },
    "ctx.original": {"en": "trained length (tokens)", "zh": "训练长度（token 数）"},
    "ctx.original_help": {
        "en": "original_max_position_embeddings: the pre-training context rope_scaling extends (a later "
              "long-context stage may have gone further: Llama 3.1's reached 131,072).",
        "zh": "original_max_position_embeddings：rope_scaling 据以扩展的预训练上下文（之后的长上下文阶段可能更长："
              "Llama 3.1 的达到了 131,072）。",
    },
    "ctx.target": {"en": "target length (tokens)", "zh": "目标长度（token 数）"},
    "ctx.target_help": {
        "en": "The context you want to reach (max_position_embeddings of the extended model).",
        "zh": "想要达到的上下文长度（扩展后模型的 max_position_embeddings）。",
    },
    "ctx.head_dim": {"en": "head_dim", "zh": "head_dim"},
    "ctx.theta": {"en": "rope_theta", "zh": "rope_theta"},
    # a method's name where the page shows it (the options, chart titles, legends): its rope_type in English, a
    # Chinese name with the rope_type beside it in Chinese
    "ctx.name_linear": {"en": "linear", "zh": "位置插值（linear）"},
    "ctx.name_dynamic": {"en": "dynamic", "zh": "动态 NTK（dynamic）"},
    "ctx.name_yarn": {"en": "yarn", "zh": "YaRN（yarn）"},
    "ctx.name_llama3": {"en": "llama3", "zh": "Llama 3 缩放（llama3）"},
    "ctx.name_longrope": {"en": "longrope", "zh": "LongRoPE（longrope）"},
    "ctx.params_header": {"en": "Parameters of {method}", "zh": "{method} 的参数"},
    "ctx.p_beta_fast": {"en": "beta_fast", "zh": "beta_fast"},
    "ctx.p_beta_fast_help": {
        "en": "Pairs that turn more than beta_fast times within the trained length are kept (default 32).",
        "zh": "在训练长度内转了超过 beta_fast 圈的维度对保持不变（默认 32）。",
    },
    "ctx.p_beta_slow": {"en": "beta_slow", "zh": "beta_slow"},
    "ctx.p_beta_slow_help": {
        "en": "Pairs that turn fewer than beta_slow times are interpolated by the full factor (default 1).",
        "zh": "转不到 beta_slow 圈的维度对按完整倍数插值（默认 1）。",
    },
    "ctx.p_mscale": {"en": "mscale (0 = not set)", "zh": "mscale（0 = 不设置）"},
    "ctx.p_mscale_help": {
        "en": "DeepSeek-style temperature: used only together with mscale_all_dim.",
        "zh": "DeepSeek 风格的温度系数：只有和 mscale_all_dim 一起设置时才生效。",
    },
    "ctx.p_mscale_all_dim": {"en": "mscale_all_dim (0 = not set)", "zh": "mscale_all_dim（0 = 不设置）"},
    "ctx.p_mscale_all_dim_help": {
        "en": "With mscale: attention_factor = (0.1·mscale·ln s + 1) / (0.1·mscale_all_dim·ln s + 1).",
        "zh": "与 mscale 一起：attention_factor = (0.1·mscale·ln s + 1) / (0.1·mscale_all_dim·ln s + 1)。",
    },
    "ctx.p_attention_factor": {"en": "attention_factor (0 = formula)", "zh": "attention_factor（0 = 用公式）"},
    "ctx.p_attention_factor_help": {
        "en": "A fixed value instead of the method's formula.",
        "zh": "直接给定一个值，代替方法自带的公式。",
    },
    "ctx.p_truncate": {"en": "round the ramp ends", "zh": "斜坡端点取整"},
    "ctx.p_truncate_help": {
        "en": "truncate: floor/ceil the pair indices where the ramp starts and ends (the paper's and transformers' "
              "default; gpt-oss turns it off).",
        "zh": "truncate：把斜坡起止的维度对下标向下/向上取整（论文和 transformers 的默认做法；gpt-oss 关掉了它）。",
    },
    "ctx.p_low_freq_factor": {"en": "low_freq_factor", "zh": "low_freq_factor"},
    "ctx.p_low_freq_factor_help": {
        "en": "Wavelengths longer than trained length / low_freq_factor are interpolated (default 1).",
        "zh": "波长超过 训练长度 / low_freq_factor 的维度对做插值（默认 1）。",
    },
    "ctx.p_high_freq_factor": {"en": "high_freq_factor", "zh": "high_freq_factor"},
    "ctx.p_high_freq_factor_help": {
        "en": "Wavelengths shorter than trained length / high_freq_factor are kept (default 4).",
        "zh": "波长短于 训练长度 / high_freq_factor 的维度对保持不变（默认 4）。",
    },
    "ctx.ratio": {"en": "current sequence length (× trained length)", "zh": "当前序列长度（训练长度的倍数）"},
    "ctx.ratio_caption": {
        "en": "The model is now reading {context_length} tokens: {method} recomputes its frequencies for this length.",
        "zh": "模型当前在读 {context_length} 个 token：{method} 会按这个长度重新计算频率。",
    },
    "ctx.changed": {"en": "Changed from {source}: {changes}.", "zh": "相对 {source} 的改动：{changes}。"},
    "ctx.change_item": {"en": "{name} (was {was})", "zh": "{name}（原为 {was}）"},
    "ctx.reset": {"en": "Reset", "zh": "恢复"},
    "ctx.beyond": {
        "en": "The target ({target}) is longer than trained length × factor = {covered}: the slowest pairs "
              "still reach {times}× the largest angle training showed them. A model trained further on long documents "
              "does see those angles: Llama 3.1's factor 8 covers 64K, and its last pre-training stage reached 128K.",
        "zh": "目标长度（{target}）超过了训练长度 × 倍数 = {covered}：最慢的维度对仍会转到训练时最大角度的 {times} 倍。"
              "之后再在长文档上继续训练的模型会见到这些角度：Llama 3.1 的倍数 8 只覆盖 64K，而它预训练的最后阶段达到了 128K。",
    },
    "ctx.not_longer": {
        "en": "The target is not longer than the trained length: there is nothing to extend.",
        "zh": "目标长度没有超过训练长度：不需要扩展。",
    },
    # the sections, one per tab
    "ctx.tab_pairs": {"en": "Which pairs it stretches", "zh": "拉伸了哪些维度对"},
    "ctx.tab_method": {"en": "The method and its formula", "zh": "方法与公式"},
    "ctx.tab_ratio": {"en": "Stretch per pair", "zh": "每对的拉伸倍数"},
    "ctx.tab_turns": {"en": "Turns within a context", "zh": "上下文内的圈数"},
    "ctx.tab_decay": {"en": "Long-range decay", "zh": "远程衰减"},
    "ctx.tab_calc": {"en": "Calculator: rope_theta", "zh": "计算器：rope_theta"},
    # the selected method
    "ctx.m_linear_title": {"en": "Position interpolation (linear)", "zh": "位置插值（linear）"},
    "ctx.m_linear": {
        "en": "**Position interpolation** (Chen et al. 2023; kaiokendev found it at the same time) squeezes the long "
              "context back into the trained window. Position *m* is treated as *m/s*, the same as dividing "
              "every frequency by *s*. Up to *s* times the trained length no pair meets a new angle. But the fast "
              "pairs that tell neighbours apart are slowed down too, so nearby tokens look more alike. A short "
              "fine-tune (a little more training on long texts) repairs most of it.",
        "zh": "**位置插值**（Chen 等 2023；kaiokendev 几乎同时独立提出）把长上下文等比压缩回训练窗口：位置 *m* 当作 *m/s* "
              "来用，等价于把每个频率都除以 *s*。在训练长度的 *s* 倍以内，没有任何维度对会遇到新角度。但负责区分相邻 token "
              "的快的维度对也被放慢了，相邻 token 变得更难区分，需要少量微调（在长文本上再训练一会儿）来弥补。",
    },
    "ctx.m_dynamic_title": {"en": "Dynamic NTK scaling", "zh": "动态 NTK 缩放"},
    "ctx.m_dynamic": {
        "en": ("**NTK-aware scaling** (bloc97, a Reddit post in 2023, after the Neural Tangent Kernel theory) does "
               "not touch positions: it raises the base θ, which barely changes the fast pairs and slows the slow "
               "ones most. The exponent d/(d−2) makes the slowest pair slow down by exactly the factor s. "
               "**Dynamic** NTK (emozilla) recomputes the base for the current length L, with s·L/L_train − (s − 1) "
               "in place of s. So texts within the trained length are untouched, and the slowest pair slows more as "
               "L grows. Move the sequence-length slider under this section to watch the base grow."),
        "zh": ("**NTK-aware 缩放**（bloc97 2023 年在 Reddit 上发的帖子，名字来自神经正"
               "切核理论）不动位置，而是调大底数 θ：快的维度对几乎不变，越慢的维度对被拉伸得越多。指数 d/(d−2) 保证"
               "最慢的那一对恰好放慢 s 倍。**动态** NTK（emozilla）按当前序列长度 L 重新计算底数，"
               "用 s·L/L_train − (s − 1) 代替 s：训练长度以内的文本完全不受影响，L 越长，最慢"
               "的那一对放慢得越多。拖动本节下方的序列长度滑块，看底数怎么变大。"),
    },
    "ctx.m_yarn_title": {"en": "YaRN", "zh": "YaRN"},
    "ctx.m_yarn": {
        "en": ("**YaRN** (*Yet another RoPE extensioN*, Peng et al. 2023) treats pairs by how often they turned "
               "during training. Pairs that turned more than β_fast times (32 by default) are kept: they have seen "
               "every angle. Pairs that turned fewer than β_slow times (1 by default) are interpolated by the full "
               "factor. Pairs in between are blended along a ramp. transformers rounds the ramp's ends to whole "
               "pairs and keeps them inside the head, so at an extreme θ or β the split differs (the kept / "
               "blended / interpolated counts say how). YaRN also multiplies cos and sin, so q and k each, by "
               "attention_factor, by default 0.1 ln s + 1 (the paper's √(1/t)). The attention logits q·k (the "
               "scores before the softmax) then grow by its **square**, 1/t: for Qwen3's s = 4, 1.1386² = 1.2965. "
               "That keeps attention from spreading too thin over the longer context. Qwen3 reaches 128K this way "
               "(factor 4 over 32K), and the YaRN paper extended LLaMA 2 to 128K (factor 32 over 4K)."),
        "zh": ("**YaRN**（*Yet another RoPE extensioN*，Peng 等 2023）按维度对在训练中转过的圈数区别对待。"
               "转了超过 β_fast 圈（默认 32）的维度对保持不变：所有角度都见过。转不到 β_slow 圈（默认 1）的按完整倍数插值。"
               "介于两者之间的沿一段斜坡平滑过渡。transformers 把斜坡两端取整到整对、并限制在头内，"
               "所以 θ 或 β 取极端值时划分会不同（看保持 / 过渡 / 插值的计数）。"
               "YaRN 还把 cos 和 sin（也就是 q 和 k 各自）乘上 attention_factor，默认为 0.1 ln s + 1（论文中的 √(1/t)）。"
               "注意力分数 q·k（softmax 之前的分数）因此放大为它的**平方**，即 1/t：Qwen3 的 s = 4 时，1.1386² = 1.2965。"
               "这样注意力不会在更长的上下文里被摊得太薄。Qwen3 就是这样扩到 128K 的（在 32K 上乘 4），"
               "YaRN 论文也把 LLaMA 2 扩到了 128K（在 4K 上乘 32）。"),
    },
    "ctx.m_longrope_title": {"en": "LongRoPE", "zh": "LongRoPE"},
    "ctx.m_longrope": {
        "en": "**LongRoPE** (Ding et al. 2024, used by Phi-3) gives every pair its own stretch, found by an "
              "evolutionary search instead of a formula: short_factor up to the trained length, long_factor beyond "
              "it. Its attention factor is √(1 + ln s / ln L_train). Move the sequence-length slider under this section across "
              "the trained length to see the model switch tables.",
        "zh": "**LongRoPE**（Ding 等 2024，Phi-3 在用）给每个维度对单独一个拉伸倍数，不靠公式，而是用进化搜索找出来的："
              "训练长度以内用 short_factor，超过后用 long_factor。它的注意力系数是 √(1 + ln s / ln L_train)。把本节下方的序列长度"
              "滑块拖过训练长度，就能看到模型换表。",
    },
    "ctx.m_llama3_title": {"en": "Llama 3 rope scaling", "zh": "Llama 3 的 RoPE 缩放"},
    "ctx.m_llama3": {
        "en": "**Meta's llama3 scaling** (Llama 3.1) has YaRN's three groups, and both draw their lines by wavelength. "
              "Pairs whose wavelength is shorter than L_train / high_freq_factor (2,048 tokens for Llama 3.1) are kept; "
              "those longer than L_train / low_freq_factor (8,192) are divided by the factor. It differs from YaRN three ways. "
              "At Llama 3.1's factors it keeps pairs that turn more than 4 times in training, where YaRN's default "
              "asks for 32. Its blend is linear in those turns, YaRN's in the pair index. And it has no attention "
              "temperature.",
        "zh": "**Meta 的 llama3 缩放**（Llama 3.1）和 YaRN 一样分三组，两者都按波长划线：波长短于 L_train / high_freq_factor "
              "（Llama 3.1 是 2,048 个 token）的维度对保持不变，长于 L_train / low_freq_factor（8,192）的除以倍数。"
              "区别在于：按 Llama 3.1 的参数，训练中转过 4 圈以上就保留，YaRN 默认要 32 圈；中间的过渡按这个圈数线性变化，"
              "YaRN 按维度对的序号；而且它不加注意力温度系数。",
    },
    "ctx.all_methods": {"en": "All methods in one line each", "zh": "各方法一句话总结"},
    "ctx.about": {
        "en": (
            "- **PI** (Chen et al. 2023): divide every frequency by s. Simple, but blurs neighbouring tokens.\n"
            "- **NTK-aware** (bloc97, 2023): raise θ to θ·s^(d/(d−2)); fast pairs stay, slow pairs stretch.\n"
            "- **Dynamic NTK** (emozilla): the NTK base recomputed for the current length; nothing changes within "
            "the trained length.\n"
            "- **YaRN** (Peng et al. 2023): keep fast pairs, interpolate slow ones, ramp in between, plus an "
            "attention temperature. Qwen3: 32K → 128K.\n"
            "- **Llama 3** (Meta 2024): the same three groups, a lower keep threshold, a blend over turns rather "
            "than pair index; no temperature.\n"
            "- **LongRoPE** (Ding et al. 2024, Phi-3): a searched factor per pair, one table for short inputs and "
            "one for long ones."
        ),
        "zh": (
            "- **PI 位置插值**（Chen 等 2023）：所有频率除以 s。简单，但相邻 token 变得难以区分。\n"
            "- **NTK-aware**（bloc97，2023）：把 θ 调大到 θ·s^(d/(d−2))；快的维度对不动，慢的维度对被拉伸。\n"
            "- **动态 NTK**（emozilla）：按当前长度重新计算 NTK 底数；训练长度以内什么都不变。\n"
            "- **YaRN**（Peng 等 2023）：快的维度对保持、慢的维度对插值、中间斜坡过渡，再加注意力温度系数。Qwen3：32K → 128K。\n"
            "- **Llama 3**（Meta 2024）：同样分三组，保留门槛更低，过渡按圈数而不是维度对序号；没有温度系数。\n"
            "- **LongRoPE**（Ding 等 2024，Phi-3）：每个维度对一个搜索出来的倍数，短输入和长输入各用一张表。"
        ),
    },
    # metrics
    "ctx.unseen_without": {"en": "pairs meeting unseen angles, no scaling", "zh": "不缩放时遇到新角度的维度对"},
    "ctx.unseen_with": {"en": "… with {method}", "zh": "……用 {method} 时"},
    "ctx.unseen_help": {
        "en": "Pairs that turned less than once in training and would now reach a larger angle than training "
              "showed them, at {length} tokens.",
        "zh": "训练中转不到一圈、而在 {length} 个 token 时会转到比训练时更大角度的维度对。",
    },
    "ctx.overshoot": {
        "en": "The worst pair reaches {unscaled}× its largest trained angle unscaled, {scaled}× with {method}.",
        "zh": "最糟的一对：不缩放时达训练最大角度的 {unscaled} 倍，用 {method} 时 {scaled} 倍。",
    },
    "ctx.attention": {"en": "attention factor", "zh": "注意力系数 attention_factor"},
    "ctx.attention_help": {
        "en": "cos and sin are multiplied by it, so the attention logits grow by its square.",
        "zh": "cos 和 sin 都乘上它，所以注意力分数放大为它的平方倍。",
    },
    "ctx.logit_scale": {
        "en": "q and k are each multiplied by {af}, so every attention logit q·k is multiplied by {af}² = {logit}.",
        "zh": "q 和 k 各乘 {af}，所以每个注意力分数 q·k 都乘上 {af}² = {logit}。",
    },
    "ctx.logit_scale_partial": {  # partial rotary: transformers scales cos and sin, which touch the rotated dims only
        "en": ("The rotated {dims} of the {head_dim} dimensions of q and k are each multiplied by {af}. So their part "
               "of every attention logit q·k is multiplied by {af}² = {logit}; the part of the other dimensions is not."),
        "zh": "q 和 k 的 {head_dim} 维中旋转的 {dims} 维各乘 {af}，所以注意力分数 q·k 中这部分乘上 {af}² = {logit}；其余维度那部分不变。",
    },
    "ctx.mla_logits": {  # DeepSeek-V2/V3: the attention multiplies its softmax scale by mscale(s, mscale_all_dim)²
        "en": ("This config is DeepSeek's (MLA, multi-head latent attention): besides attention_factor, its attention multiplies the softmax scale "
               "by (0.1·mscale_all_dim·ln s + 1)² = {logit} at the config's factor {factor}, so its logits grow by "
               "that."),
        "zh": ("这是 DeepSeek 的配置（MLA，多头潜在注意力）：除了 attention_factor，它的注意力还把 softmax 缩放系数乘上 "
               "(0.1·mscale_all_dim·ln s + 1)²，在配置的倍数 {factor} 下为 {logit}，注意力分数也就放大这么多。"),
    },
    "ctx.attention_none": {
        "en": "{method} leaves attention alone: attention_factor = 1.",
        "zh": "{method} 不改变注意力：attention_factor = 1。",
    },
    "ctx.base": {"en": "effective base θ′", "zh": "等效底数 θ′"},
    "ctx.kinds": {"en": "kept / blended / interpolated", "zh": "保持 / 过渡 / 插值"},
    # figures
    "ctx.kept": {"en": "kept", "zh": "保持不变"},
    "ctx.blended": {"en": "blended", "zh": "过渡"},
    "ctx.interpolated": {"en": "interpolated (÷ s)", "zh": "插值（÷ s）"},
    "ctx.pair_axis": {"en": "pair i (fast → slow)", "zh": "维度对 i（快 → 慢）"},
    "ctx.trained_line": {"en": "trained {length}", "zh": "训练长度 {length}"},
    "ctx.target_line": {"en": "target {length}", "zh": "目标长度 {length}"},
    "ctx.wave_title": {
        "en": "Wavelength of each pair before (grey) and after {method}",
        "zh": "每个维度对在 {method} 前（灰线）后的波长",
    },
    "ctx.wave_axis": {"en": "wavelength 2π/ω (tokens per turn)", "zh": "波长 2π/ω（转一圈的 token 数）"},
    "ctx.wave_before": {"en": "plain RoPE", "zh": "原始 RoPE"},
    "ctx.wave_hover": {"en": "pair %{x}: %{y:,.0f} tokens per turn", "zh": "第 %{x} 对：每圈 %{y:,.0f} 个 token"},
    "ctx.wave_note": {
        "en": "pairs below the trained line had turned at least once in training: their angles are all familiar",
        "zh": "低于训练长度线的维度对在训练中至少转过一圈：它们的所有角度模型都见过",
    },
    "ctx.ratio_title": {
        "en": "New frequency ÷ old frequency per pair ({method}, s = {factor})",
        "zh": "每个维度对的新频率 ÷ 旧频率（{method}，s = {factor}）",
    },
    "ctx.ratio_axis": {"en": "ω′ / ω", "zh": "ω′ / ω"},
    "ctx.ratio_line": {"en": "1/s", "zh": "1/s"},
    "ctx.ratio_hover": {"en": "pair %{x}: ω′/ω = %{y:.4f}", "zh": "第 %{x} 对：ω′/ω = %{y:.4f}"},
    "ctx.ratio_note": {
        "en": "1 = untouched, 1/s = slowed by the full factor",
        "zh": "1 = 不变，1/s = 按完整倍数放慢",
    },
    "ctx.turns_title": {
        "en": "Full turns of each pair within a context",
        "zh": "每个维度对在一段上下文内转过的圈数",
    },
    "ctx.turns_axis": {"en": "full turns (log)", "zh": "圈数（对数）"},
    "ctx.turns_trained": {"en": "plain, {length} tokens (training)", "zh": "原始，{length} 个 token（训练）"},
    "ctx.turns_unscaled": {"en": "plain, {length} tokens (no scaling)", "zh": "原始，{length} 个 token（不缩放）"},
    "ctx.turns_scaled": {"en": "{method}, {length} tokens", "zh": "{method}，{length} 个 token"},
    "ctx.one_turn": {"en": "one full turn", "zh": "正好一圈"},
    "ctx.turns_note": {
        "en": "below one turn, a scaled point above the training curve is an angle the model never saw",
        "zh": "一圈以下，缩放后的点若高于训练曲线，就是模型没见过的角度",
    },
    "ctx.decay_title": {
        "en": "Long-range decay out to {length} tokens, before and after",
        "zh": "缩放前后的远程衰减，一直到 {length} 个 token",
    },
    "ctx.decay_axis_x": {"en": "distance m − n (tokens, log)", "zh": "相对距离 m − n（token，对数）"},
    "ctx.decay_axis_y": {"en": "mean cos(d·ωᵢ)", "zh": "平均 cos(d·ωᵢ)"},
    "ctx.decay_before": {"en": "plain RoPE", "zh": "原始 RoPE"},
    "ctx.decay_after": {"en": "{method}", "zh": "{method}"},
    "ctx.decay_note": {
        "en": "lesson 003's curve (q, k aligned in every pair); stretching moves the decay to longer distances",
        "zh": "第 003 课的曲线（q、k 在每个维度对上同向）；拉伸把衰减推向更远的距离",
    },
    # calculator
    "ctx.calc_header": {"en": "Calculator: which rope_theta for a context?", "zh": "计算器：多长的上下文需要多大的 rope_theta？"},
    "ctx.calc_intro": {
        "en": "The other way to reach a long context is to pre-train with a large base θ. The slowest pairs turn "
              "L·θ^(−(d−2k)/d)/(2π) times in L tokens. Ask the *k* slowest pairs to stay below one full turn, so "
              "that no angle repeats and they tell far-apart positions apart. That gives a lower bound on θ for the "
              "target length above. Here d is the number of dimensions that rotate ({d}: the whole head_dim, or its "
              "rotated part under a partial rotation).",
        "zh": "另一条通往长上下文的路，是预训练时就用大的底数 θ。最慢的维度对在 L 个 token 内转 L·θ^(−(d−2k)/d)/(2π) 圈。"
              "要求最慢的 *k* 对都转不满一圈，这样角度不重复，才能区分相隔很远的位置。由此得到上面目标长度下 θ 的下限。"
              "这里 d 是旋转的维度数（{d}：整个 head_dim，部分旋转时是其中旋转的部分）。",
    },
    "ctx.calc_k": {"en": "k: slowest pairs kept below one full turn", "zh": "k：最慢的几对要保持在一圈以内"},
    "ctx.calc_theta": {"en": "rope_theta ≥ (k = {k})", "zh": "rope_theta ≥（k = {k}）"},
    "ctx.calc_one": {"en": "rope_theta ≥ (slowest pair only)", "zh": "rope_theta ≥（只看最慢的一对）"},
    "ctx.calc_clamped": {
        "en": "d = {head_dim} has only {pairs} pairs, so k is {k}.",
        "zh": "d = {head_dim} 只有 {pairs} 个维度对，所以 k 取 {k}。",
    },
    "ctx.col_model": {"en": "model", "zh": "模型"},
    "ctx.col_trained": {"en": "pre-training length", "zh": "预训练长度"},
    "ctx.col_theta": {"en": "rope_theta chosen", "zh": "实际的 rope_theta"},
    "ctx.col_one": {"en": "one-turn bound (k = 1)", "zh": "一圈下限（k = 1）"},
    "ctx.col_k": {"en": "bound for k = {k}", "zh": "k = {k} 的下限"},
    "ctx.col_slow": {"en": "pairs below one turn", "zh": "转不满一圈的维度对"},
    "ctx.calc_honest": {
        "en": "Real models choose far larger bases than the one-turn bound: Llama 3's pre-training context was 8K with "
              "θ = 500,000 (the bound is about 1,500), Qwen3 uses 1,000,000 for 32K. A full turn is not the only "
              "criterion. Meta picked 500,000 because Xiong et al. (2023) found it works up to 32K tokens. Later work "
              "derives a lower bound from how well attention can still single out a similar token far away (Men et "
              "al. 2024, *Base of RoPE Bounds Context Length*). Treat this calculator as the minimum, not the recipe.",
        "zh": "真实模型选的底数比一圈下限大得多：Llama 3 的预训练上下文是 8K，用的是 θ = 500,000（下限只有约 1,500），"
              "Qwen3 在 32K 上用 1,000,000。转满一圈并不是唯一的标准。Meta 选 500,000，是因为 Xiong 等（2023）"
              "发现它在 32K 以内都有效；后来的研究从注意力能否在远处准确找出相似 token 出发推导 θ 的下限"
              "（Men 等 2024，*Base of RoPE Bounds Context Length*）。所以这个计算器给的是最低要求，不是配方。",
    },
    "ctx.notice": {
        "en": ("Position interpolation slows every pair by the full factor, the fast ones on the left too: no angle is "
               "new, but in every pair the angle between neighbouring positions shrinks s times. Without scaling, the "
               "pairs above the trained line are the ones that meet angles the model has never seen."),
        "zh": ("位置插值把每个维度对都按完整倍数放慢，左侧的快的维度对也不例外：没有新角度，但每个维度对里相邻位置之间的角度"
               "都缩小为原来的 1/s。不缩放的话，遇到新角度的正是训练长度线以上的那些维度对。"),
    },
    "ctx.real_model": {
        "en": "See these methods on a real model past its trained length (lesson 003 at 4×)",
        "zh": "在一个越过训练长度的真实模型上看这些方法（第 003 课，4 倍）",
    },
    "ctx.notice_more": {
        "en": ("With their default parameters, YaRN and Llama 3 keep the fast pairs instead: they already went round "
               "many times in training. They stretch the slow pairs, above the trained line, by the full factor. When "
               "the target is s times the trained length, those pairs then turn within it as often as in training. "
               "Dynamic NTK slows them by its own amount, which grows with the length; LongRoPE uses its per-pair "
               "factors. The blended pairs between them are partly stretched too (YaRN on Qwen3 × 4: 16 of 64 "
               "pairs), although they had turned at least once in training."),
        "zh": ("在默认参数下，YaRN 和 Llama 3 则不动快的维度对：它们在训练中已经转过很多圈。慢的维度对，"
               "也就是波长高于训练长度线的那些，按完整倍数拉伸；当目标长度正好是训练长度的 s 倍时，拉伸之后它们在目标长度内"
               "转的圈数和训练时一致。动态 NTK 按它自己的倍数放慢，长度越长放慢越多；LongRoPE 按它逐对的倍数。两者之间"
               "的过渡维度对也被部分拉伸（YaRN 用在 Qwen3 × 4 上：64 对里有 16 对），尽管它们在训练中至少转过一圈。"),
    },
    # the words inside the methods' formulas (rope_scaling.FORMULA_WORDS; high / low: llama3's two factors)
    "ctx.fw_else": {"en": "else", "zh": "其余"},
    "ctx.fw_not rotated": {"en": "not rotated", "zh": "不旋转"},
    "ctx.fw_given": {"en": "given", "zh": "已给定"},
    "ctx.fw_high": {"en": "high", "zh": "高频系数"},
    "ctx.fw_low": {"en": "low", "zh": "低频系数"},
}
