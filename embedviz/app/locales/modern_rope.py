"""Strings of the "RoPE in today's models" page."""
PREFIX = "mod."  # every key of STRINGS starts with it (tests/app/test_page_stems.py)
STRINGS = {
    "mod.nav": {"en": "RoPE in today's models", "zh": "当今模型里的 RoPE"},
    "mod.title": {"en": "RoPE as today's models ship it", "zh": "当今模型实际使用的 RoPE"},
    # the first words: what the layer strip shows and what to look for; NoPE is named here, before any other use
    "mod.lead": {
        "en": ("The strip below shows which RoPE each layer of the chosen model uses. Look for the layers that "
               "differ: another theta, fewer turning dimensions, or no position encoding at all (NoPE)."),
        "zh": ("下面的色条显示所选模型每一层用哪种 RoPE。留意与众不同的层：theta 不同、旋转的维度更少，"
               "或者完全没有位置编码（NoPE）。"),
    },
    "mod.intro": {
        "en": ("Current models rarely use one RoPE everywhere. Gemma 3 and Gemma 4 give their local "
               "(sliding-window) and global layers different theta; Gemma 2 alternates the same two kinds of layers "
               "with one theta. Gemma 4 also rotates only part of the dimensions in its global layers. Llama 4 "
               "leaves every fourth layer without any position encoding (NoPE). Qwen2.5-VL splits the pairs between "
               "time, height and width, and DeepSeek rotates only 64 dimensions of each head.\n\n"
               "Pick a published config or paste your own: every number on this page is read the way Hugging Face "
               "transformers reads it."),
        "zh": ("如今的模型很少在所有层都用同一种 RoPE。Gemma 3 和 Gemma 4 的局部层（滑动窗口）和全局层用不同的 theta；"
               "Gemma 2 同样交替使用这两种层，但只有一个 theta。Gemma 4 的全局层还只旋转一部分维度。Llama 4 每四层就有"
               "一层完全不用位置编码（NoPE）。Qwen2.5-VL 把维度对分给时间、高度和宽度，DeepSeek 每个头只旋转 64 维。\n\n"
               "选择一个已发布的配置或粘贴你自己的 config.json：本页每个数字都按 Hugging Face transformers 的方式读取。"),
    },
    "mod.source": {"en": "Model", "zh": "模型"},
    # the published presets (embedviz.rope.layers.PUBLISHED), by config file
    "mod.preset_gemma-3-12b-it": {"en": "Gemma 3 12B (5 local : 1 global)", "zh": "Gemma 3 12B（5 层局部 : 1 层全局）"},
    "mod.preset_gemma-4-e2b.v5": {"en": "Gemma 4 E2B (proportional global layers)",
                                  "zh": "Gemma 4 E2B（全局层为比例式 RoPE）"},
    "mod.preset_llama-4-scout-17b-16e": {"en": "Llama 4 Scout (NoPE every 4th layer)",
                                         "zh": "Llama 4 Scout（每 4 层一层 NoPE）"},
    "mod.preset_qwen2.5-vl-7b": {"en": "Qwen2.5-VL 7B (M-RoPE)", "zh": "Qwen2.5-VL 7B（M-RoPE）"},
    "mod.preset_deepseek-v3": {"en": "DeepSeek-V3 (MLA, RoPE on 64 dims)", "zh": "DeepSeek-V3（MLA，64 维上做 RoPE）"},
    "mod.preset_phi-2": {"en": "Phi-2 (partial 0.4)", "zh": "Phi-2（部分旋转 0.4）"},
    "mod.preset_gpt-neox-20b": {"en": "GPT-NeoX-20B (partial 0.25)", "zh": "GPT-NeoX-20B（部分旋转 0.25）"},
    "mod.preset_llama-3.1-8b": {"en": "Llama 3.1 8B (one RoPE)", "zh": "Llama 3.1 8B（全部层同一种 RoPE）"},
    "mod.source_help": {"en": "Published config.json files (their RoPE fields), or paste one.",
                        "zh": "已发布的 config.json（只含 RoPE 相关字段），或粘贴一个。"},
    "mod.paste": {"en": "config.json", "zh": "config.json"},
    # the tabs, one section each
    "mod.tab_layers": {"en": "Layers", "zh": "各层设置"},
    "mod.tab_decay": {"en": "Long-range decay", "zh": "远程衰减"},
    "mod.tab_head": {"en": "Rotated dimensions", "zh": "旋转的维度"},
    "mod.tab_mrope": {"en": "M-RoPE (images, video)", "zh": "M-RoPE（图像、视频）"},
    "mod.tab_vision": {"en": "2-D RoPE (image patches)", "zh": "二维 RoPE（图像块）"},
    "mod.vision_layout": {"en": "vision encoder", "zh": "视觉编码器"},
    "mod.vision_qwen2_vl": {"en": "Qwen2-VL / Qwen2.5-VL (one ladder for rows and columns)",
                            "zh": "Qwen2-VL / Qwen2.5-VL（行与列用同一组频率）"},
    "mod.vision_pixtral": {"en": "Pixtral / Mistral 3 (even steps rows, odd steps columns)",
                           "zh": "Pixtral / Mistral 3（偶数级给行，奇数级给列）"},
    "mod.vision_grid": {"en": "patches per side", "zh": "每边的图块数"},
    "mod.vision_row": {"en": "patch row", "zh": "图块所在行"},
    "mod.vision_col": {"en": "patch column", "zh": "图块所在列"},
    "mod.vision_title": {"en": "How alike patch ({row}, {col})'s rotation is to every patch's ({grid} × {grid})",
                         "zh": "图块（{row}, {col}）的旋转与每个图块的相似度（{grid} × {grid}）"},
    "mod.vision_x": {"en": "column", "zh": "列"},
    "mod.vision_y": {"en": "row", "zh": "行"},
    "mod.vision_patch": {"en": "the chosen patch", "zh": "所选图块"},
    "mod.vision_text": {
        "en": ("Each cell is the mean over pairs of cos(angle difference): q·k for one vector placed at both "
               "patches. Of the head's {head_dim} dims (theta {theta}), {quarter} pairs turn with the row and "
               "{quarter} with the column. So the map depends on the offset only: a cross of high values along the "
               "patch's row and column. The M-RoPE tab shows the same split in a text model, with a time band too."),
        "zh": ("每格是各维度对 cos(角度差) 的平均：同一个向量放在两个图块上时的 q·k。头的 {head_dim} 维（theta "
               "{theta}）中，{quarter} 对随行旋转，{quarter} 对随列旋转，所以图只取决于偏移：沿所选图块的行和列"
               "出现一个高值的十字。M-RoPE 标签页展示文本模型中同样的划分，另加时间带。"),
    },
    "mod.tab_theory": {"en": "Wavelengths and the theory of theta", "zh": "波长与 theta 的理论"},
    "mod.no_mrope": {
        "en": ("This model gives every pair the same position id, as text does. {name} splits its pairs between time, "
               "height and width: choose it above to see the bands."),
        "zh": "这个模型的所有维度对都用同一个位置编号，和文本一样。{name} 把维度对分给时间、高度和宽度：在上方选择它即可看到分组。",
    },
    # layer strip
    "mod.layer_count": {"en": "{n} layers", "zh": "{n} 层"},
    "mod.layer_count_one": {"en": "1 layer", "zh": "1 层"},
    "mod.strip_title": {"en": "Which RoPE each layer uses ({layers} layers)", "zh": "每一层使用哪种 RoPE（共 {layers} 层）"},
    "mod.strip_x": {"en": "layer", "zh": "层"},
    "mod.setting_label": {"en": "{name}: {rope_type}, theta {theta}, {rotary}/{head_dim} dims turn ({layers})",
                          "zh": "{name}：{rope_type}，theta {theta}，{head_dim} 维中 {rotary} 维旋转（{layers}）"},
    "mod.nope_label": {"en": "{name}: no position encoding ({layers})",
                       "zh": "{name}：没有位置编码（{layers}）"},
    "mod.no_attention_label": {"en": "{name}: no attention scores to rotate, so no RoPE ({layers})",
                               "zh": "{name}：没有要旋转的注意力分数，因此没有 RoPE（{layers}）"},
    "mod.no_rope": {  # no layer turns a pair, and some layers have no attention at all (conv, linear attention)
        "en": ("No layer of this model uses RoPE: its attention layers, if any, are NoPE, and its other layers have "
               "no attention scores to rotate. There are no wavelengths, decay, head layout or bounds to draw."),
        "zh": "这个模型没有任何一层使用 RoPE：它的注意力层（如果有）都是 NoPE，其他层没有要旋转的注意力分数。所以没有波长、衰减、头内布局或上下界可画。",
    },
    "mod.nope_text": {
        "en": ("A NoPE layer adds nothing about position to its queries and keys: apart from the temperature below, "
               "its attention scores are the same wherever the tokens sit. It still knows order through the causal "
               "mask (a token sees itself and the tokens before it) and through what the RoPE layers below it (if any) wrote into "
               "the hidden states."),
        "zh": ("NoPE 层不给查询（query）和键（key）加任何位置信息：除了下面的温度之外，无论 token 在哪里，"
               "它的注意力分数都一样。它仍能知道顺序：靠因果掩码（每个 token 只看得到自己和它前面的 token），以及它"
               "下面的 RoPE 层（如果有的话）写进隐藏状态的信息。"),
    },
    "mod.temp_text": {
        "en": ("Llama 4 also multiplies the NoPE layers' queries by a temperature that grows with the position, "
               "1 + {attn_scale} * ln(1 + floor((m + 1) / {floor_scale})), so attention stays sharp over very long "
               "inputs."),
        "zh": ("Llama 4 还把 NoPE 层的 query 乘上一个随位置增大的温度 1 + {attn_scale} · ln(1 + floor((m + 1) / "
               "{floor_scale}))，让超长输入上的注意力保持集中。"),
    },
    "mod.all_nope": {
        "en": ("Every layer of this model is NoPE: no pair of dimensions turns, so there are no wavelengths, decay, "
               "head layout or bounds to draw. Such a model knows the order of its tokens only through the causal "
               "mask (a token sees itself and the tokens before it)."),
        "zh": ("这个模型的每一层都是 NoPE：没有任何一对维度在旋转，所以没有波长、衰减、头内布局或上下界可画。这样的模型只能靠"
               "因果掩码（每个 token 只看得到自己和它前面的 token）知道 token 的顺序。"),
    },
    "mod.all_nope_temp": {  # every layer NoPE, with Llama 4's query temperature: a second source of position
        "en": ("Every layer of this model is NoPE: no pair of dimensions turns, so there are no wavelengths, decay, "
               "head layout or bounds to draw. Such a model knows the order of its tokens through the causal mask "
               "(a token sees itself and the tokens before it) and through Llama 4's query temperature, which grows with the "
               "position."),
        "zh": ("这个模型的每一层都是 NoPE：没有任何一对维度在旋转，所以没有波长、衰减、头内布局或上下界可画。这样的模型靠"
               "因果掩码（每个 token 只看得到自己和它前面的 token）和随位置增大的 Llama 4 query 温度知道 token 的顺序。"),
    },
    "mod.temp_title": {"en": "NoPE layers: query temperature by position", "zh": "NoPE 层：query 温度随位置的变化"},
    "mod.temp_x": {"en": "position m", "zh": "位置 m"},
    "mod.temp_y": {"en": "temperature", "zh": "温度"},
    "mod.temp_name": {"en": "temperature", "zh": "温度"},
    # curves
    "mod.wave_title": {"en": "Wavelength of every turning pair, one curve per setting",
                       "zh": "每个旋转维度对的波长（每种设置一条曲线）"},
    "mod.wave_x": {"en": "pair i", "zh": "维度对 i"},
    "mod.wave_y": {"en": "positions per full turn", "zh": "转一整圈所需的位置数"},
    "mod.scan_line": {"en": "L = {length} (the base bound below)", "zh": "L = {length}（下方底数下界所用）"},
    "mod.train_line": {"en": "length {length} (the critical dimension's)", "zh": "长度 {length}（临界维度所用）"},
    "mod.critical_note": {"en": "critical dimension {critical} of {head_dim} before any scaling (Liu et al. 2023)",
                          "zh": "缩放之前的临界维度 {critical} / {head_dim}（Liu 等，2023）"},
    "mod.decay_title": {"en": "Long-range decay of each setting", "zh": "每种设置的远程衰减"},
    "mod.decay_x": {"en": "distance", "zh": "距离"},
    "mod.decay_y": {"en": "mean cos(distance · ωᵢ)", "zh": "平均 cos(距离 · ωᵢ)"},
    # partial rotation
    "mod.head_title": {"en": "Which dimensions of the head turn", "zh": "头的哪些维度会旋转"},
    "mod.head_x": {"en": "dimension", "zh": "维度"},
    "mod.rotated": {"en": "rotated", "zh": "旋转"},
    "mod.unrotated": {"en": "passes through (no position)", "zh": "原样通过（不带位置）"},
    "mod.partial_text": {
        "en": ("Partial rotation (GPT-NeoX 0.25, Phi-2 0.4, GLM 0.5, DeepSeek's 64 of 192) turns only part of each "
               "head: the first dimensions, or in DeepSeek the last 64. The rest reach the dot product unchanged, "
               "so part of every score ignores position. Proportional RoPE (Gemma 4 global layers) keeps all pairs "
               "but gives the last ones frequency 0: they never turn. A pair that never turns adds cos 0 = 1 to "
               "Σᵢ cos(m·ωᵢ) at every distance m. So when at least half the pairs never turn, the sum can never "
               "drop below 0, whatever the base. The theory tab's base bound uses this. For a partial rotation it "
               "counts only the rotated dimensions; for a proportional RoPE it says when the still pairs alone keep "
               "the sum at 0 or above."),
        "zh": ("部分旋转（GPT-NeoX 0.25、Phi-2 0.4、GLM 0.5、DeepSeek 192 维中的 64 维）只旋转每个头的一部分维度："
               "前面的维度，DeepSeek 则是最后 64 维。其余维度原样进入点积，所以每个分数都有一部分与位置无关。"
               "比例式 RoPE（Gemma 4 全局层）保留所有维度对，但把后面的维度对频率设为 0：它们从不旋转。"
               "从不旋转的维度对在每个距离 m 上都给 Σᵢ cos(m·ωᵢ) 加上 cos 0 = 1。"
               "所以只要至少一半的维度对不旋转，这个和无论底数多大都不会小于 0。"
               "理论标签页里的底数下界用到了这一点：对部分旋转只统计旋转的维度；对比例式 RoPE，"
               "它会说明何时单靠不转的维度对就能让这个和不小于 0。"),
    },
    "mod.mla": {"en": ("MLA (multi-head latent attention): RoPE turns qk_rope_head_dim = {rope} dims of a {qk} dim query/key; the softmax scale is "
                       "{qk}^-0.5 · {mscale:.4f}² = {scale:.5f} (YaRN's mscale_all_dim)."),
                "zh": ("MLA（多头潜在注意力）：RoPE 只旋转 {qk} 维 query/key 中 qk_rope_head_dim = {rope} 维；softmax 缩放为 "
                       "{qk}^-0.5 · {mscale:.4f}² = {scale:.5f}（YaRN 的 mscale_all_dim）。")},
    # M-RoPE
    "mod.mrope_title": {"en": "M-RoPE: which pairs follow time, height and width", "zh": "M-RoPE：哪些维度对跟随时间、高度、宽度"},
    "mod.axis_t": {"en": "time", "zh": "时间"},
    "mod.axis_h": {"en": "height", "zh": "高度"},
    "mod.axis_w": {"en": "width", "zh": "宽度"},
    "mod.mrope_text": {
        "en": ("Each pair takes its angle from one of three position ids. For text all three are equal, so M-RoPE is "
               "plain RoPE; for an image the height and width pairs turn with the row and column of the patch."),
        "zh": "每个维度对从三个位置编号之一取角度。文本的三个编号相同，所以 M-RoPE 就是普通 RoPE；图像的高度、宽度维度对随图块的行和列旋转。",
    },
    # theory
    "mod.theory": {"en": "The theory that sizes theta", "zh": "决定 theta 大小的理论"},
    "mod.theory_setting": {
        "en": ("This model has {n} RoPE settings; the numbers below are for its first, {name} (theta {theta}). The "
               "layers tab lists the others."),
        "zh": "这个模型有 {n} 种 RoPE 设置；下面的数字属于第一种，{name}（theta {theta}）。其余设置见层标签页。",
    },
    "mod.scan_length": {"en": "context length for the base bound", "zh": "计算底数下界的上下文长度"},
    "mod.critical": {
        "en": ("**Critical dimension** (Liu et al. 2023, *Scaling Laws of RoPE-based Extrapolation*): with d = "
               "{head_dim} in θ^(−2i/d), theta {theta} and {length}, the first {critical} dimensions turn at least "
               "once within it. The other {rest} never finish a turn and, unscaled, meet new angles beyond {train}."),
        "zh": ("**临界维度**（Liu 等 2023，*Scaling Laws of RoPE-based Extr"
               "apolation*）：θ^(−2i/d) 中 d = {head_dim}、theta {theta}"
               "、{length} 时，前 {critical} 维在此长度内至少转满一圈；其余 {rest} 维"
               "一圈都没转完，不缩放时超过 {train} 就会遇到新角度。"),
    },
    "mod.critical_all": {  # every turning pair turns within the length (a small theta or a long context)
        "en": ("**Critical dimension** (Liu et al. 2023, *Scaling Laws of RoPE-based Extrapolation*): with d = "
               "{head_dim} in θ^(−2i/d), theta {theta} and {length}, all {turning} rotated dimensions turn at least "
               "once within it. So beyond {train} no pair meets an angle it has not seen."),
        "zh": ("**临界维度**（Liu 等 2023，*Scaling Laws of RoPE-based Extr"
               "apolation*）：θ^(−2i/d) 中 d = {head_dim}、theta {theta}"
               "、{length} 时，全部 {turning} 个旋转维度在此长度内都至少转满一圈，所以超过 {train} 后没有哪一对会遇到没见过的角度。"),
    },
    "mod.critical_reach": {  # a sliding / chunked layer: its window bounds every offset it meets
        "en": ("**Critical dimension** (Liu et al. 2023, *Scaling Laws of RoPE-based Extrapolation*): with d = "
               "{head_dim} in θ^(−2i/d), theta {theta} and {length}, only {critical} of {turning} rotated dimensions "
               "turn once within it. The other {rest} never finish a turn. These layers never meet an offset of "
               "{train} or more, at any context length."),
        "zh": ("**临界维度**（Liu 等 2023，*Scaling Laws of RoPE-based Extr"
               "apolation*）：θ^(−2i/d) 中 d = {head_dim}、theta {theta}、{length} 时，"
               "{turning} 个旋转维度中只有 {critical} 个在其内转满一圈；其余 {rest} 个一圈都转不完。"
               "无论上下文多长，这些层都不会遇到 {train} 或更大的距离。"),
    },
    "mod.critical_all_reach": {
        "en": ("**Critical dimension** (Liu et al. 2023, *Scaling Laws of RoPE-based Extrapolation*): with d = "
               "{head_dim} in θ^(−2i/d), theta {theta} and {length}, all {turning} rotated dimensions turn at least "
               "once within it. These layers never meet an offset of {train} or more, at any context length."),
        "zh": ("**临界维度**（Liu 等 2023，*Scaling Laws of RoPE-based Extr"
               "apolation*）：θ^(−2i/d) 中 d = {head_dim}、theta {theta}、{length} 时，"
               "全部 {turning} 个旋转维度都在其内至少转满一圈。无论上下文多长，这些层都不会遇到 {train} 或更大的距离。"),
    },
    # original_max_position_embeddings: where pre-training started; a later stage may have gone further with the
    # rope_scaling (Llama 3.1: 131,072), which the numbers here, before any scaling, leave out
    "mod.len_trained": {"en": "pre-training context {n} (original_max_position_embeddings)",
                        "zh": "预训练上下文 {n}（original_max_position_embeddings）"},
    "mod.len_max": {"en": "max_position_embeddings {n} (a limit the config sets, not a trained length)",
                    "zh": "max_position_embeddings {n}（配置设定的上限，并非训练长度）"},
    "mod.len_sliding": {"en": "a sliding window of {n} tokens (the farthest these layers look)",
                        "zh": "{n} 个 token 的滑动窗口（这些层只关注窗口内）"},
    "mod.len_chunked": {"en": "chunks of {n} tokens (these layers attend within their chunk only)",
                        "zh": "{n} 个 token 的分块（这些层只在自己的块内关注）"},
    "mod.reach_full": {"en": "reaches the whole context", "zh": "可及整个上下文"},
    "mod.reach_sliding": {"en": "sliding window {span}", "zh": "滑动窗口 {span}"},
    "mod.reach_chunked": {"en": "chunk {span}", "zh": "分块 {span}"},
    "mod.reach_sinks": {"en": " + attention sinks", "zh": " + 注意力汇聚点（attention sink）"},
    "mod.critical_still": {  # proportional RoPE: theta^(-2i/d) over the whole head, the pairs past the rotated ones at 0
        "en": ("{still} of the d dimensions do not turn at all: proportional RoPE gives the last {still_pairs} of "
               "its {pairs} pairs frequency 0."),
        "zh": "d 个维度中有 {still} 个根本不转：比例式 RoPE 把 {pairs} 个维度对中最后 {still_pairs} 对的频率设为 0。",
    },
    "mod.base_bound_stopped": {
        "en": "**Base lower bound** (Men et al., NeurIPS 2024): the scan for L = {length} and d = {head_dim} needs "
              "more than the {budget:g} s of CPU one request may use on this server. Every base below {below} fails. "
              "Pick a shorter length to see the bound.",
        "zh": "**底数下界**（Men 等，NeurIPS 2024）：L = {length}、d = {head_dim} 的扫描超过了本服务器单次请求可用的 "
              "{budget:g} 秒 CPU；低于 {below} 的底数都不满足条件。请选较短的长度查看下界。",
    },
    "mod.base_bound": {
        "en": ("**Base lower bound** (Men et al., NeurIPS 2024, *Base of RoPE Bounds Context Length*): a similar key "
               "should out-score a random one at every distance, which needs Σᵢ cos(m·θ^(-2i/d)) ≥ 0 for all m < L. "
               "For L = {length} and d = {head_dim} ({which}) the smallest such base is about **{bound}**. It comes "
               "from a scan from small bases up in 0.1% steps, since the condition is not monotone in the base. The one-turn rule of the Context "
               "extension page gives {one_turn}; this model uses {theta}."),
        "zh": ("**底数下界**（Men 等，NeurIPS 2024，*Base of RoPE Bounds Context Length*）：相似的 key 在任何距离上都应比随机 key "
               "得分更高，这要求对所有 m < L 有 Σᵢ cos(m·θ^(-2i/d)) ≥ 0。L = {length}、d = {head_dim}（{which}）时满足条件的最小底数约为 "
               "**{bound}**（从小到大以 0.1% 步长扫描：该条件对底数不单调）。上下文扩展页面的“转一圈”规则给出 {one_turn}；"
               "这个模型用的是 {theta}。"),
    },
    "mod.d_rotated": {"en": "the rotated dimensions", "zh": "旋转的维度"},
    "mod.d_whole_head": {"en": "the whole head, every pair counted as turning", "zh": "整个头，每个维度对都按旋转计"},
    "mod.base_bound_any": {  # proportional RoPE with at least as many still pairs as turning ones
        "en": ("**Base lower bound** (Men et al., NeurIPS 2024, *Base of RoPE Bounds Context Length*): a similar key "
               "should out-score a random one at every distance, which needs Σᵢ cos(m·ωᵢ) ≥ 0 for all m < L. Here "
               "{still} of the {pairs} pairs never turn and add 1 each at every m. That is at least as much as the "
               "{turning} turning pairs can take away, so the sum stays ≥ 0 for any base and any L. This model uses {theta}."),
        "zh": ("**底数下界**（Men 等，NeurIPS 2024，*Base of RoPE Bounds Context Length*）：相似的 key 在任何距离上都应比随机 key "
               "得分更高，这要求对所有 m < L 有 Σᵢ cos(m·ωᵢ) ≥ 0。这里 {pairs} 个维度对中有 {still} 对从不旋转，在每个 m 上各加 1，"
               "至少抵得过 {turning} 个旋转维度对能减去的量：对任何底数和任何 L，这个和都不小于 0。这个模型用的是 {theta}。"),
    },
    "mod.base_bound_prop": {  # proportional RoPE with fewer still pairs than turning ones: the full-head bound
        "en": ("This bound treats all {pairs} pairs as turning, but this proportional RoPE turns only {turning} of "
               "them. A pair that does not turn adds 1 to the sum, and a turning pair adds a cosine, which is never "
               "more than 1. So the real sum is never smaller, and the smallest base that works for this model is at "
               "most the bound shown."),
        "zh": ("这个下界把全部 {pairs} 个维度对都当作旋转的，但这个比例式 RoPE 只旋转其中 {turning} 对。"
               "不转的维度对给和加 1，旋转的维度对加的是一个余弦，永远不超过 1。所以真实的和只会更大，"
               "这个模型实际需要的最小底数不超过上面给出的下界。"),
    },
    "mod.pi_title": {"en": "Position Interpolation: bound on the attention score (per unit max|hⱼ|)",
                     "zh": "位置插值：注意力分数的上界（以 max|hⱼ| 为单位）"},
    "mod.pi_x": {"en": "relative position s", "zh": "相对位置 s"},
    "mod.pi_y": {"en": "upper bound", "zh": "上界"},
    "mod.pi_interp": {"en": "interpolating (Theorem 2.1)", "zh": "插值（定理 2.1）"},
    "mod.pi_extrap": {"en": "extrapolating (Eq. 8)", "zh": "外推（式 8）"},
    "mod.pi_text": {
        "en": ("**Why interpolating is safer** (Chen et al. 2023, *Extending Context Window of Large Language Models "
               "via Positional Interpolation*). Between two trained offsets the score stays within d/(32 ln θ) = "
               "{interp:.3f} of a straight line. An unseen offset is only bounded by 2·Σₖ|Aₖ₊₁(s)|, at least "
               "{ratio} times more here."),
        "zh": ("**为什么插值比外推安全**（Chen 等 2023，*Extending Context Window of Large Language Models via Positional "
               "Interpolation*）。在两个训练过的偏移之间，分数与直线的偏差不超过 d/(32 ln θ) = {interp:.3f}。没见过的偏移只能用 "
               "2·Σₖ|Aₖ₊₁(s)| 来界定，这里至少大 {ratio} 倍。"),
    },
    # theta barely above 1: ln θ is tiny, so the interpolation bound d/(32 ln θ) is looser than the other one
    "mod.pi_text_loose": {
        "en": ("**Interpolating and extrapolating** (Chen et al. 2023, *Extending Context Window of Large Language "
               "Models via Positional Interpolation*). Between two trained offsets the score stays within "
               "d/(32 ln θ) = {interp:.4g} of a straight line. An unseen offset is bounded by 2·Σₖ|Aₖ₊₁(s)|, here "
               "only {ratio:.2g} times that. With θ this close to 1, ln θ is tiny and this guarantee does not favour "
               "interpolating; at a usual θ such as 10,000 (d = 128) the second bound is hundreds of times the first "
               "or more."),
        "zh": ("**插值与外推**（Chen 等 2023，*Extending Context Window of Large Language Models via Positional "
               "Interpolation*）：在两个训练过的偏移之间，分数与直线的偏差不超过 d/(32 ln θ) = {interp:.4g}；没见过的偏移"
               "用 2·Σₖ|Aₖ₊₁(s)| 来界定，这里只是前者的 {ratio:.2g} 倍。θ 这么接近 1 时 ln θ 很小，这个保证并不偏向插值；"
               "在常见的 θ 下（例如 d = 128 时 θ = 10,000），后一个上界是前一个的数百倍甚至更多。"),
    },
}
