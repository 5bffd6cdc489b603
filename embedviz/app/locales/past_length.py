"""Strings of "A real model past its length": GlassLM (the glassllm package's English model, trained on 128 tokens)
read past its trained length with each context-extension method (lesson 003)."""
PREFIX = "past."  # every key of STRINGS starts with it (tests/app/test_page_stems.py)
STRINGS = {
    "past.nav": {"en": "A real model past its length", "zh": "真实模型越过训练长度"},
    "past.title": {"en": "A real model past its trained length", "zh": "真实模型越过训练长度"},
    "past.lead": {
        "en": "GlassLM, a 4-layer RoPE model trained on 128-token windows, reads a text past that length. Each line "
              "is its next-token loss by position (lower is better; band: how sure that mean is); right of the dashed "
              "line are positions it never trained on.",
        "zh": "GlassLM 是一个 4 层的 RoPE 模型，训练时只用过 128 个 token 的窗口，这里让它读更长的文本。每条线是它在各位置上的"
              "下一个 token 损失（越低越好，阴影表示这个均值有多可靠）；虚线右边是它训练时从没见过的位置。",
    },
    "past.intro": {
        "en": "The model: GlassLM from the `glassllm` package (MIT, installed with embedviz, read offline). It has 4 "
              "layers, d_model 128, 4 query heads of 32 dimensions sharing 2 key/value heads, RMSNorm, SwiGLU, tied "
              "embeddings and 852,608 parameters. Its author trained it on public-domain Lewis Carroll (validation "
              "loss 4.19 nats). Its RoPE pairs adjacent dimensions (2i, 2i + 1), as GPT-J does. embedviz runs it with "
              "its own RoPE code, so each method of the Context extension page applies to it exactly as Hugging Face "
              "transformers applies it (the tests compare the two). Nothing is fine-tuned after scaling: the papers "
              "fine-tune a little, which does better than what you see here.",
        "zh": "模型：`glassllm` 包里的 GlassLM（MIT 许可，随 embedviz 安装，离线读取）。它有 4 层，d_model 128，4 个 32 维的 "
              "query 头共用 2 个 K/V 头，RMSNorm、SwiGLU、输入输出共享词嵌入表，共 852,608 个参数。作者用公有领域的刘易斯·卡罗尔"
              "作品训练了它（验证集损失 4.19 nat）。它的 RoPE 把相邻的两个维度 (2i, 2i + 1) 配成一对，和 GPT-J 一样。embedviz 用自己的 "
              "RoPE 代码运行它，所以“上下文扩展”页的每种方法都和 Hugging Face 的 transformers 库用法完全一致（测试里两者逐一对照）。"
              "缩放之后没有做任何微调：论文里会再微调一点，效果比这里看到的更好。",
    },
    "past.about": {"en": "About the model", "zh": "关于这个模型"},
    "past.english": {
        "en": "The model reads English only: its tokenizer is an English BPE of 1,024 pieces, learned from Lewis Carroll.",
        "zh": "这个模型只读英文：它的分词器是从刘易斯·卡罗尔的作品里学出的 1,024 个英文 BPE 子词，读不了中文，所以这里的文本"
              "都是英文。",
    },
    # the shared controls
    "past.source": {"en": "Text", "zh": "文本"},
    "past.src_default": {"en": "the default text", "zh": "默认文本"},
    "past.src_own": {"en": "your own text", "zh": "你自己的文本"},
    "past.length": {"en": "Length (positions; trained: 128)", "zh": "长度（位置数；训练长度 128）"},
    "past.length_help": {
        "en": "How many positions each window has: 1× to 8× the 128 the model trained on.",
        "zh": "每个窗口有多少个位置：模型训练长度 128 的 1 到 8 倍。",
    },
    "past.factor": {"en": "Scaling factor s", "zh": "缩放倍数 s"},
    "past.factor_help": {
        "en": "How far each method stretches the trained 128 positions (the lesson's settings: s = length / 128). "
              "No scaling ignores it.",
        "zh": "每种方法把训练时的 128 个位置拉伸多少倍（课里的设置是 s = 长度 / 128）。“不缩放”不用它。",
    },
    "past.text": {"en": "Your text (English, up to 4,000 characters)", "zh": "你的文本（英文，最多 4,000 个字符）"},
    "past.text_help": {
        "en": "English letters, digits, spaces, new lines and common punctuation; double quotes as curly “ ”, the "
              "way the model's training text has them.",
        "zh": "英文字母、数字、空格、换行和常用标点；双引号请用弯引号 “ ”，和模型的训练文本一样。",
    },
    "past.default_caption": {
        "en": "The default text: two short stories written for embedviz, “The Clockmaker’s Winter” and “The "
              "Lighthouse Keeper’s Cat” ({chars} characters, {tokens} tokens). The model never saw them: it was "
              "trained on Lewis Carroll.",
        "zh": "默认文本：两篇专为 embedviz 写的英文短篇故事，“The Clockmaker’s Winter”和“The Lighthouse Keeper’s Cat”"
              "（{chars} 个字符，{tokens} 个 token）。模型从没见过它们：它是用刘易斯·卡罗尔的作品训练的。",
    },
    "past.own_caption": {
        "en": "Your text: {chars} characters, {tokens} tokens.",
        "zh": "你的文本：{chars} 个字符，{tokens} 个 token。",
    },
    # the methods
    "past.methods": {"en": "Methods (at most 5)", "zh": "方法（最多 5 个）"},
    "past.m_none": {"en": "no scaling", "zh": "不缩放"},
    "past.m_linear": {"en": "PI (linear)", "zh": "位置插值（linear）"},
    "past.m_theta": {"en": "larger θ (NTK-aware, fixed)", "zh": "更大的 θ（固定的 NTK-aware）"},
    "past.m_dynamic": {"en": "dynamic NTK (dynamic)", "zh": "动态 NTK（dynamic）"},
    "past.m_ntk_by_parts": {"en": "NTK-by-parts (YaRN, no temperature)", "zh": "NTK-by-parts（不带温度的 YaRN）"},
    "past.m_yarn": {"en": "YaRN (yarn)", "zh": "YaRN（yarn）"},
    "past.m_llama3": {"en": "Llama 3 (llama3)", "zh": "Llama 3 缩放（llama3）"},
    "past.no_methods": {"en": "Pick at least one method.", "zh": "请至少选一个方法。"},
    "past.left": {
        "en": "{n} more method(s) wait ({methods}): this run's CPU budget ({budget} s) went to the others.",
        "zh": "还有 {n} 个方法没有计算（{methods}）：这次运行的 CPU 预算（{budget} 秒）用在了其他方法上。",
    },
    "past.more": {"en": "Compute them", "zh": "计算它们"},
    # the tabs
    "past.tab_loss": {"en": "Past the trained length", "zh": "越过训练长度"},
    "past.tab_attention": {"en": "Attention in a real model", "zh": "真实模型的注意力"},
    "past.tab_copy": {"en": "Can it look back further?", "zh": "它能往回看得更远吗？"},
    # part 1: loss by position
    "past.chart_title": {
        "en": "Next-token loss by position: {length} positions, {ratio}× the trained {trained}",
        "zh": "各位置的下一个 token 损失：{length} 个位置，训练长度 {trained} 的 {ratio} 倍",
    },
    "past.chart_note": {
        "en": "{windows} windows of the text, {bin} positions per point; band: ± one standard error of the mean "
              "({n} windows without overlap)",
        "zh": "文本的 {windows} 个窗口，每个点 {bin} 个位置；阴影：均值的 ± 一个标准误（{n} 个互不重叠的窗口）",
    },
    "past.position_axis": {"en": "position in the window", "zh": "窗口中的位置"},
    "past.loss_axis": {"en": "loss (nats)", "zh": "损失（nat）"},
    "past.ppl": {"en": "perplexity", "zh": "困惑度"},
    "past.trained_line": {"en": "trained length {trained}", "zh": "训练长度 {trained}"},
    "past.hover": {"en": "position %{x:.0f}<br>loss %{y:.3f}", "zh": "位置 %{x:.0f}<br>损失 %{y:.3f}"},
    "past.verdict": {
        "en": "No scaling: {inside} nats inside the trained length, {past} past it ({rise}). Lowest past position "
              "{trained}: {best}, {best_past}.",
        "zh": "不缩放：训练长度以内 {inside} nat，越过之后 {past}（{rise}）。越过位置 {trained} 后损失最低的是{best}："
              "{best_past}。",
    },
    "past.verdict_best": {
        "en": "Lowest past position {trained}: {best}, {best_past} nats.",
        "zh": "越过位置 {trained} 后损失最低的是{best}：{best_past} nat。",
    },
    "past.verdict_inside": {
        "en": "Every window lies inside the trained length: pick a longer length to see the model past it.",
        "zh": "所有窗口都在训练长度之内：选一个更长的长度，才能看到模型越过它之后的样子。",
    },
    "past.noise": {
        "en": "{windows} windows of {length} positions, {independent} of them without overlap. Past position "
              "{trained}, these differ from no scaling by more than the windows' noise in every bucket (two standard errors of "
              "the paired difference): {apart}; not in every bucket: {within}.",
        "zh": "{windows} 个 {length} 个位置的窗口，其中 {independent} 个互不重叠。越过位置 {trained} 后，与不缩放的差别"
              "在每个区段都超出窗口噪声（成对差值的两个标准误）的方法：{apart}；其余的：{within}。",
    },
    "past.nothing": {"en": "none", "zh": "无"},
    "past.too_short": {
        "en": "This text holds {tokens} tokens: at {length} positions that is {independent} window's worth without "
              "overlap, too few to tell two methods apart. Use the default text or a shorter length.",
        "zh": "这段文本有 {tokens} 个 token：在 {length} 个位置下，互不重叠的只有 {independent} 个窗口，不足以区分两种方法。"
              "请用默认文本，或选更短的长度。",
    },
    "past.overlap": {
        "en": "The windows overlap (the text has {tokens} tokens): the band and the noise test count only the "
              "{independent} that do not.",
        "zh": "这些窗口互相重叠（文本有 {tokens} 个 token）：阴影和噪声检验只计入互不重叠的 {independent} 个。",
    },
    "past.table_title": {"en": "Mean loss per {bucket} positions", "zh": "每 {bucket} 个位置的平均损失"},
    "past.col_method": {"en": "method", "zh": "方法"},
    "past.col_rise": {"en": "past − inside", "zh": "越过后 − 以内"},
    "past.col_start": {"en": "first position", "zh": "起始位置"},
    "past.col_stop": {"en": "last position", "zh": "结束位置"},
    "past.col_loss": {"en": "mean loss (nats)", "zh": "平均损失（nat）"},
    "past.col_std": {"en": "std across windows", "zh": "窗口间标准差"},
    "past.col_ppl": {"en": "perplexity", "zh": "困惑度"},
    "past.details": {
        "en": "**What each method does here** (the Context extension page draws their pairs): *PI* divides every "
              "frequency by s, so 512 positions turn no further than 128 did. The cost: neighbours crowd together "
              "(its short-range loss rises). *Larger θ* raises the base to θ·s^(d/(d−2)) once and for all "
              "(NTK-aware scaling's first form, no rope_type of its own in transformers). *Dynamic NTK* raises the "
              "base only when the input is longer than 128, by how much longer. Here that is the whole window's "
              "length, as transformers does in one forward pass (a model generating token by token changes its base "
              "as it goes). *NTK-by-parts* keeps the fast pairs, divides the slow ones by s and ramps between; *YaRN* adds "
              "a temperature, multiplying q and k by 0.1 ln s + 1 (1.139 at s = 4). *Llama 3* ramps over wavelengths "
              "instead (low_freq_factor 1, high_freq_factor 4, as Llama 3.1's config). LongRoPE is not offered: its "
              "per-pair factors are searched for one model on that model's data, and none exist for GlassLM.\n\n"
              "**Noise.** A 512-token window moves a bucket's mean loss by 0.1-0.3 nats, as much as the methods "
              "differ, so each method reads the same windows and a difference counts only beyond their noise.",
        "zh": "**这里每种方法做了什么**（“上下文扩展”页画出了它们各自的维度对）：*位置插值*把每个频率都除以 s，"
              "让 512 个位置转过的角度不超过训练时的 128 个。代价是相邻位置挤在一起（近处的损失会上升）。*更大的 θ* 一次性把底数提高到 "
              "θ·s^(d/(d−2))（NTK-aware 缩放最早的形式，transformers 里没有对应的 rope_type）。*动态 NTK* 只在输入超过 128 时才"
              "提高底数，超出越多提得越高：这里按整个窗口的长度计算，和 transformers 一次前向传播的做法一致（逐个 token 生成的"
              "模型会边生成边改底数）。*NTK-by-parts* 保留快的维度对，把慢的除以 s，中间平滑过渡；*YaRN* 再加一个温度系数，把 "
              "q 和 k 都乘以 0.1 ln s + 1（s = 4 时为 1.139）。*Llama 3 缩放*按波长过渡（low_freq_factor 1、high_freq_factor 4，"
              "与 Llama 3.1 的配置相同）。这里不提供 LongRoPE：它的每个维度对的倍数是针对某个模型、用那个模型的数据搜索出来的，"
              "GlassLM 没有这样的一组数。\n\n**噪声。** 一个 512 个 token 的窗口能让一个区段的平均损失变化 0.1-0.3 nat，和方法之间的"
              "差别一样大，所以每种方法读的是同一批窗口，只有超出窗口噪声的差别才算数。",
    },
    # part 2: attention
    "past.att_method": {"en": "Method", "zh": "方法"},
    "past.layer": {"en": "Layer", "zh": "层"},
    "past.head": {"en": "Head", "zh": "头"},
    "past.att_title": {
        "en": "Layer {layer}, head {head}: attention over {length} positions, {method}",
        "zh": "第 {layer} 层第 {head} 个头：{length} 个位置上的注意力，{method}",
    },
    "past.att_note": {
        "en": "the text's first window; row m: how query m spreads its attention over keys 0..m",
        "zh": "文本的第一个窗口；第 m 行：query m 怎样把注意力分给 key 0..m",
    },
    "past.att_x": {"en": "key position", "zh": "key 的位置"},
    "past.att_y": {"en": "query position", "zh": "query 的位置"},
    "past.att_bar": {"en": "weight", "zh": "权重"},
    "past.att_hover": {"en": "query %{y}<br>key %{x}<br>weight %{z:.3f}", "zh": "query %{y}<br>key %{x}<br>权重 %{z:.3f}"},
    "past.kinds": {
        "en": "What the 16 heads do, measured on this window. At the trained {trained} tokens with plain RoPE: "
              "{trained_counts}. Here ({length} tokens, {method}): {counts}.",
        "zh": "16 个头各自在做什么（在这个窗口上测得）。训练长度 {trained} 个 token、普通 RoPE 时：{trained_counts}。这里"
              "（{length} 个 token，{method}）：{counts}。",
    },
    "past.kind_count": {"en": "{n} {kind}", "zh": "{kind} {n} 个"},
    "past.kind_previous": {"en": "previous-token", "zh": "看前一个 token 的"},
    "past.kind_sink": {"en": "first-token", "zh": "看第一个 token 的"},
    "past.kind_local": {"en": "local", "zh": "局部的"},
    "past.kind_far": {"en": "far-looking", "zh": "看远处的"},
    "past.kind_mixed": {"en": "mixed", "zh": "混合的"},
    "past.kinds_help": {
        "en": "previous-token: at least 40% of its weight on the token just before; first-token: 40% on the window's "
              "first token; local: 70% within the 32 tokens before the query; far-looking: 50% further back; mixed: "
              "the rest. Measured on queries 64 and later.",
        "zh": "看前一个 token 的：至少 40% 的权重在紧挨着的前一个 token 上；看第一个 token 的：40% 在窗口的第一个 token 上；"
              "局部的：70% 在 query 之前的 32 个 token 以内；看远处的：50% 在更远处；混合的：其余。只统计第 64 个及以后的 query。",
    },
    "past.profiles_title": {
        "en": "Mean attention weight by distance, every head, beside RoPE's decay curve ({length} positions, {method})",
        "zh": "每个头在各距离上的平均注意力权重，旁边是 RoPE 的远程衰减曲线（{length} 个位置，{method}）",
    },
    "past.profiles_left": {"en": "16 heads (colour: head, dash: layer)", "zh": "16 个头（颜色：头，线型：层）"},
    "past.profiles_right": {"en": "RoPE alone, q = k: mean cos(d·ω_i)", "zh": "只有 RoPE、q = k 时：平均 cos(d·ω_i)"},
    "past.profiles_x": {"en": "distance d (positions back)", "zh": "距离 d（往回数的位置数）"},
    "past.profiles_y": {"en": "mean weight", "zh": "平均权重"},
    "past.decay_y": {"en": "score of aligned q, k", "zh": "q、k 对齐时的分数"},
    "past.decay_name": {"en": "RoPE's decay, head_dim 32", "zh": "RoPE 远程衰减，head_dim 32"},
    "past.head_name": {"en": "L{layer}·H{head}", "zh": "L{layer}·H{head}"},
    "past.profiles_hover": {"en": "d = %{x}<br>%{y:.4f}", "zh": "d = %{x}<br>%{y:.4f}"},
    "past.honest": {
        "en": "**Where the heads follow the curve, and where not.** The curve is what RoPE alone gives a query and a "
              "key equal in every pair: a score that falls slowly with distance (still {decay32} at d = 32). "
              "Trained heads choose what to look at. At the trained length, the {local} local heads do fall with "
              "distance, but far faster than the curve: most of their weight sits within a few tokens. The "
              "{far} far-looking heads (mostly layer 0's) spread their weight over the whole window, which the curve "
              "does not predict at all, and {previous} put their weight on the token just before. Past the trained "
              "length without scaling, the local heads lose their focus. At {length} tokens, {far_here} of 16 heads "
              "put most of their weight more than 32 tokens back: lesson 003's “the attention scores go wrong”, seen.",
        "zh": "**哪些头跟着这条曲线走，哪些不跟。** 这条曲线是只有 RoPE、且 query 和 key 在每个维度对上都相同时的分数：它随"
              "距离慢慢下降（d = 32 时还有 {decay32}）。训练好的头会自己选择看哪里。在训练长度下，{local} 个局部头的权重确实随"
              "距离下降，但比曲线快得多：大部分权重落在前面几个 token 上。{far} 个看远处的头（大多在第 0 层）把权重分散到整个窗口，"
              "这条曲线完全预测不到；还有 {previous} 个头把权重放在紧挨着的前一个 token 上。不缩放地越过训练长度后，局部头就失去了"
              "焦点：在 {length} 个 token 时，16 个头里有 {far_here} 个把大部分权重放在 32 个 token 以外。这就是第 003 课说的"
              "“注意力分数会乱掉”。",
    },
    "past.col_head": {"en": "head", "zh": "头"},
    "past.col_kind_trained": {"en": "at {trained}: kind", "zh": "在 {trained} 时：类型"},
    "past.col_far_trained": {"en": "at {trained}: share > 32 back", "zh": "在 {trained} 时：32 以外的占比"},
    "past.col_kind_here": {"en": "here: kind", "zh": "这里：类型"},
    "past.col_far_here": {"en": "here: share > 32 back", "zh": "这里：32 以外的占比"},
    "past.col_previous": {"en": "here: on the previous token", "zh": "这里：前一个 token 上的权重"},
    "past.col_follows": {"en": "here: rank correlation with the curve", "zh": "这里：与曲线的秩相关"},
    # part 3: the copy check
    "past.copy_title": {
        "en": "A passage repeated three times inside the trained length: loss on each copy",
        "zh": "一段文字在训练长度之内连续重复三遍：每一遍上的损失",
    },
    "past.copy_labels": {"en": "copy 1|copy 2|copy 3", "zh": "第 1 遍|第 2 遍|第 3 遍"},
    "past.copy_hover": {"en": "%{x}<br>loss %{y:.3f}", "zh": "%{x}<br>损失 %{y:.3f}"},
    "past.copy_no": {
        "en": "GlassLM does not copy: the second and third copies of {passages} passages of {passage} tokens are "
              "predicted no better than the first ({first} → {second}, {third} nats). A model that copies (one with "
              "induction heads) drops by several nats there. So this page has no retrieval test past the trained "
              "length (is a passage repeated d tokens later read better?). With this model it would only measure "
              "that it cannot copy, at any length and with any method.",
        "zh": "GlassLM 不会照抄：{passages} 段、每段 {passage} 个 token 的文字，第二遍和第三遍并不比第一遍预测得更好（{first} → "
              "{second}、{third} nat）。会照抄的模型（有归纳头的模型）在这里会低好几个 nat。所以本页不做越过训练长度的检索测试"
              "（隔 d 个 token 重复的段落能不能读得更好？）：对这个模型，无论多长、用哪种方法，它测到的都只是“它不会照抄”。",
    },
    "past.copy_yes": {
        "en": "GlassLM copies: the later copies of {passages} passages of {passage} tokens are predicted better than "
              "the first ({first} → {second}, {third} nats).",
        "zh": "GlassLM 会照抄：{passages} 段、每段 {passage} 个 token 的文字，后面几遍比第一遍预测得更好（{first} → {second}、"
              "{third} nat）。",
    },
}
