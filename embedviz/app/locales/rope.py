"""Strings of the "RoPE" page."""
PREFIX = "rope."  # every key of STRINGS starts with it (tests/app/test_page_stems.py)
STRINGS = {
    "rope.nav": {"en": "RoPE", "zh": "RoPE 旋转位置编码"},
    "rope.title": {"en": "RoPE: rotating queries and keys", "zh": "RoPE：按位置旋转 query 和 key"},
    "rope.lead": {
        "en": 'The first figure shows how far RoPE turns each pair of dimensions of a query or key at position m: the first pairs turn fast, the last ones barely move.',
        "zh": '第一张图显示 RoPE 在位置 m 把查询（query）或键（key）的每个维度对转了多少：前面的维度对转得快，最后的几乎不动。',
    },
    "rope.intro": {
        "en": (
            "RoPE (Su et al. 2021, used by Llama, Qwen, Mistral, DeepSeek) adds nothing to the embeddings. Inside "
            "every attention layer it splits each query and key into pairs of dimensions and turns pair *i* of the "
            "token at position *m* by the angle *m·ω_i*. Fast pairs turn a lot per token, slow pairs barely move, "
            "like the hands of a clock. A dot product of two rotated vectors only sees the **difference** of their "
            "angles, so the attention score of a query at *m* and a key at *n* depends only on the offset *m − n*."
        ),
        "zh": (
            "RoPE（苏剑林等 2021，Llama、Qwen、Mistral、DeepSeek 都在用）不往嵌入向量上加任何东西。它在"
            "每一层注意力里把 query 和 key 按维度两两配对，位置为 *m* 的 token，其第 *i* 对转过 "
            "*m·ω_i* 的角度。快的维度对每个 token 都转一大截，慢的几乎不动，就像钟表上的秒针和时针。两个旋转后的向量做内积"
            "，只看得到它们角度的**差**，所以位置 *m* 的 query 和位置 *n* 的 key 的注意力分数只取决于相对距离 "
            "*m − n*。"
        ),
    },
    "rope.formula_caption": {
        "en": (
            "(a, b) is pair i: dimensions (i, i + d/2) in the half-split layout, (2i, 2i + 1) in the interleaved "
            "one."
        ),
        "zh": "(a, b) 是第 i 个维度对：前后半配对时是第 i 和第 i + d/2 维，相邻配对时是第 2i 和第 2i + 1 维。",
    },
    "rope.preset": {"en": "Model preset", "zh": "模型预设"},
    "rope.custom": {"en": "custom", "zh": "自定义"},
    "rope.preset_caption": {
        "en": "{name}: head_dim {head_dim}, rope_theta {theta}, max_position_embeddings {max_context_length} "
              "(pre-training context {trained} tokens).",
        "zh": "{name}：head_dim {head_dim}，rope_theta {theta}，max_position_embeddings {max_context_length}"
              "（预训练上下文 {trained} 个 token）。",
    },
    "rope.preset_scaling": {
        "en": (
            "It also sets rope_scaling ({scaling}); this page shows plain RoPE, the context-extension page the "
            "scaled one."
        ),
        "zh": "它还设置了 rope_scaling（{scaling}）；本页展示未缩放的 RoPE，缩放后的效果见上下文扩展页。",
    },
    "rope.head_dim": {"en": "head_dim", "zh": "head_dim（每头维度）"},
    "rope.head_dim_help": {
        "en": (
            "Dimensions per attention head. RoPE rotates pairs of dimensions, so head_dim must be even. Most real "
            "models use 64 or 128 (Phi-3-mini 96; Gemma 3 12B 256, while Gemma 2 and Gemma 3 at 27B use 128)."
        ),
        "zh": ("每个注意力头的维度数。RoPE 按维度对旋转，所以 head_dim 必须是偶数。真实模型多用 64 或 128"
               "（Phi-3-mini 是 96；Gemma 3 12B 是 256，而 27B 的 Gemma 2 和 Gemma 3 用 128）。"),
    },
    "rope.theta": {"en": "rope_theta (base)", "zh": "rope_theta（底数）"},
    "rope.theta_help": {
        "en": "ω_i = θ^(−2i/d). The original RoPE uses 10,000; Llama 3 uses 500,000, Qwen3 1,000,000.",
        "zh": "ω_i = θ^(−2i/d)。原始 RoPE 用 10,000；Llama 3 用 500,000，Qwen3 用 1,000,000。",
    },
    "rope.context_length": {"en": "context length (tokens)", "zh": "上下文长度（token 数）"},
    "rope.pairing": {"en": "pairing of dimensions", "zh": "维度配对方式"},
    "rope.pairing_half": {"en": "half-split (NeoX, Llama)", "zh": "前后半配对（NeoX、Llama）"},
    "rope.pairing_interleaved": {"en": "interleaved (GPT-J)", "zh": "相邻配对（GPT-J）"},
    "rope.tab_angles": {"en": "Rotation angles", "zh": "旋转角度"},
    "rope.tab_pair": {"en": "One pair: only the offset counts", "zh": "单个维度对：只看相对距离"},
    "rope.tab_decay": {"en": "Long-range decay", "zh": "远程衰减"},
    "rope.tab_random": {"en": "Aligned vs random q, k", "zh": "同向与随机的 q、k"},
    "rope.tab_wave": {"en": "Wavelengths", "zh": "波长"},
    "rope.tab_pairing": {"en": "Two pairings", "zh": "两种配对"},
    "rope.tab_lesson": {"en": "Sinusoidal vs RoPE, Qwen3's 40,960", "zh": "正弦编码与 RoPE、Qwen3 的 40,960"},
    "rope.heat_header": {"en": "Every pair turns at its own speed", "zh": "每个维度对以各自的速度旋转"},
    "rope.window": {"en": "positions in the heatmap", "zh": "热力图显示的位置数"},
    "rope.heat_title": {
        "en": "cos(m·ω_i): how far each dimension of a query/key is rotated at position m",
        "zh": "cos(m·ω_i)：位置 m 处 query/key 每个维度被旋转的程度",
    },
    "rope.heat_note": {
        "en": "both dimensions of a pair share a row pattern; the pairing decides which rows those are",
        "zh": "同一维度对的两个维度条纹相同；配对方式决定它们是哪两行",
    },
    "rope.heat_hover": {
        "en": "position %{x}<br>%{y}<br>cos = %{z:.3f}",
        "zh": "位置 %{x}<br>%{y}<br>cos = %{z:.3f}",
    },
    "rope.heat_row": {"en": "dimension {d} (pair {i})", "zh": "维度 {d}（第 {i} 对）"},
    "rope.window_clipped": {
        "en": "The context has only {length} positions, so the heatmap shows those.",
        "zh": "上下文只有 {length} 个位置，热力图就显示这些。",
    },
    "rope.pair_header": {"en": "One pair in the plane: only the offset counts", "zh": "在平面上看一个维度对：只有相对距离起作用"},
    "rope.pair_intro": {
        "en": (
            "Lesson 003's experiment: q = (1, 0) and k = (0.8, 0.6), one pair with frequency ω. The query is turned "
            "by m·ω, the key by n·ω. Shift both by s and both arrows turn by the same extra angle: the angle "
            "between them, and so their dot product, stays the same."
        ),
        "zh": (
            "第 003 课的实验：q = (1, 0)，k = (0.8, 0.6)，只看频率为 ω 的一个维度对。query 转 "
            "m·ω，key 转 n·ω。把两者同时平移 s，两支箭头多转了同样的角度：它们之间的夹角不变，内积也就不变。"
        ),
    },
    "rope.pair_index": {"en": "pair i", "zh": "维度对 i"},
    "rope.m": {"en": "query position m", "zh": "query 位置 m"},
    "rope.n": {"en": "key position n", "zh": "key 位置 n"},
    "rope.shift": {"en": "shift s", "zh": "平移量 s"},
    "rope.pair_title": {
        "en": "Pair {i} (ω = {omega}): q at m and k at n, then both shifted by s",
        "zh": "第 {i} 对（ω = {omega}）：q 在 m、k 在 n，再一起平移 s",
    },
    "rope.pair_note": {
        "en": "solid arrows at (m, n), dashed at (m + s, n + s): same angle between them",
        "zh": "实线箭头在 (m, n)，虚线在 (m + s, n + s)：两者夹角相同",
    },
    "rope.arrow_q": {"en": "q at m = {m}", "zh": "q 在 m = {m}"},
    "rope.arrow_k": {"en": "k at n = {n}", "zh": "k 在 n = {n}"},
    "rope.score": {"en": "score({m}, {n})", "zh": "score({m}, {n})"},
    "rope.score_help_same": {"en": "offset {d}: the same as above", "zh": "相对距离 {d}：与上面相同"},
    "rope.score_help_other": {"en": "offset {d}: a different score", "zh": "相对距离 {d}：分数随之改变"},
    "rope.pair_caption": {
        "en": "Pair {i} turns by ω = {omega} rad per position: one full turn every {wavelen} positions.",
        "zh": "第 {i} 对每个位置转 ω = {omega} 弧度：每 {wavelen} 个位置转满一圈。",
    },
    "rope.decay_header": {"en": "Long-range decay", "zh": "远程衰减"},
    "rope.decay_intro": {
        "en": ("Take q and k aligned in every pair (the cleanest case: a query looking for a key just like itself). "
               "After rotation their score is the mean of cos(d·ω_i) over the pairs, d = m − n. It is 1 at d = 0 "
               "and falls at first, so a nearby copy scores higher than a far one. Read the curves closely, though. "
               "The fall is not monotone: at θ = 10,000 (head_dim 128) it stalls and rises again after d = 11, and "
               "inside a 4,096 context it goes negative (−0.131 near d = 4,060). A larger rope_theta slows the "
               "later, slow pairs most; pair 0 turns by 1 radian per token for every θ. Lesson 003 says it slows "
               "the high-frequency pairs, the other way round. So at short distances a larger θ scores higher, but "
               "the curves cross. At head_dim 128, θ = 500,000 against 1,000,000 gives 0.611 vs 0.586 at d = 100 "
               "and 0.383 vs 0.278 at d = 4,096."),
        "zh": ("取每个维度对上都同向的 q 和 k（最干净的情形：query 找的 key 和它自己一模一样）。旋转后它"
               "们的分数是各维度对 cos(d·ω_i) 的平均，d = m − n。距离为 0 时等于 1，开始时随距"
               "离下降，所以近处的同向 key 比远处的得分高。但要仔细看曲线：下降并不单调。θ = 10,000（he"
               "ad_dim 128）时，它在 d = 11 之后停住又回升，在 4,096 的上下文之内还会变成负数（"
               "d = 4,060 附近为 −0.131）。rope_theta 越大，越靠后、越慢的维度对被放慢得越多；"
               "第 0 对无论 θ 多大，每个 token 都转 1 弧度。第 003 课说它让高频维度的旋转放缓，恰好说反了。"
               "所以短距离上 θ 越大分数越高，但曲线会交叉。head_dim 128 时，θ = 500,000 与 1,000,000 相比，"
               "d = 100 时是 0.611 对 0.586，d = 4,096 时是 0.383 对 0.278。"),
    },
    "rope.decay_title": {
        "en": "Score of aligned q, k vs distance: mean cos(d·ω_i), head_dim {hd}",
        "zh": "同向 q、k 的分数随距离的变化：平均 cos(d·ω_i)，head_dim {hd}",
    },
    "rope.decay_note": {
        "en": "every distance up to 1,024, log-spaced beyond; thick line: the chosen rope_theta",
        "zh": "1,024 以内取每个距离，之后按对数间隔取样；粗线为当前选择的 rope_theta",
    },
    "rope.distance": {"en": "distance d = m − n (tokens)", "zh": "距离 d = m − n（token）"},
    "rope.mean_cos": {"en": "mean cos(d·ω_i)", "zh": "平均 cos(d·ω_i)"},
    "rope.theta_label": {"en": "θ = {theta}", "zh": "θ = {theta}"},
    "rope.theta_chosen": {"en": "θ = {theta} (chosen)", "zh": "θ = {theta}（当前）"},
    "rope.random_intro": {
        "en": (
            "\"Nearby tokens score higher\" holds only for aligned q and k. For a query and a key drawn "
            "independently the expected score is 0 at every distance: the rotation turns k, it does not pull it "
            "towards q. Lesson 003 says RoPE makes the model naturally attend to nearby tokens; that holds for "
            "aligned q and k only. RoFormer (Su et al., section 3.4.3) derives an upper bound of the score and "
            "shows in its Figure 2 that the bound falls with distance, not the score itself. What a trained model "
            "does with distance is learned into q and k."
        ),
        "zh": (
            "“近处的 token 得分更高”只对同向的 q、k 成立。q 和 k 相互独立随机时，每个距离上分数的期望都是 0："
            "旋转只是转动 k，并不会把它拉向 q。第 003 课说 RoPE 让模型天然更关注近处，这只对同向的 q、k 成立。"
            "RoFormer（苏剑林等，3.4.3 节）推导出分数的一个上界，并在图 2 中展示这个上界随距离下降，"
            "而不是分数本身。训练好的模型如何利用距离，是学进 q 和 k 里的。"
        ),
    },
    "rope.random_header": {"en": "Decay is a property of aligned q, k", "zh": "衰减只属于同向的 q、k"},
    "rope.random_title": {
        "en": "Aligned q, k against independent random q, k: head_dim {hd}, θ = {theta}",
        "zh": "同向的 q、k 与相互独立的随机 q、k 对比：head_dim {hd}，θ = {theta}",
    },
    "rope.random_note": {
        "en": "{n} random unit pairs: their mean stays at 0; the dotted lines are one standard deviation of a single pair",
        "zh": "{n} 对随机单位向量：平均值始终在 0 附近；点线是单独一对的一个标准差",
    },
    "rope.series_aligned": {"en": "q, k aligned (mean cos(d·ω_i))", "zh": "q、k 同向（平均 cos(d·ω_i)）"},
    "rope.series_random": {"en": "independent q, k: mean", "zh": "独立的 q、k：平均值"},
    "rope.series_spread_hi": {"en": "mean + 1 std", "zh": "平均值 + 1 个标准差"},
    "rope.series_spread_lo": {"en": "mean − 1 std", "zh": "平均值 − 1 个标准差"},
    "rope.score_cos": {"en": "score ⟨R(d)q, k⟩ (unit q, k)", "zh": "分数 ⟨R(d)q, k⟩（单位向量 q、k）"},
    "rope.col_distance": {"en": "distance", "zh": "距离"},
    "rope.col_text": {"en": "D = 128, θ = 10,000 (lesson 003)", "zh": "D = 128，θ = 10,000（第 003 课）"},
    "rope.col_chosen": {"en": "D = {hd}, θ = {theta} (chosen)", "zh": "D = {hd}，θ = {theta}（当前）"},
    "rope.table_caption": {
        "en": "Computed live; the first column reproduces lesson 003's table (1.000, 0.970, 0.737, … 0.278).",
        "zh": "实时计算；第一列复现了第 003 课的表格（1.000、0.970、0.737……0.278）。",
    },
    "rope.wave_header": {"en": "Wavelengths and the context length", "zh": "波长与上下文长度"},
    "rope.wave_title": {"en": "Wavelength 2π/ω_i of each pair vs the context length", "zh": "每个维度对的波长 2π/ω_i 与上下文长度对比"},
    "rope.wave_note": {
        "en": "{never} of {pairs} pairs never complete a full turn within {length} tokens",
        "zh": "{pairs} 个维度对中有 {never} 个在 {length} 个 token 内转不满一圈",
    },
    "rope.wave_turns": {"en": "turns at least once", "zh": "至少转满一圈"},
    "rope.wave_never": {"en": "never completes a turn", "zh": "转不满一圈"},
    "rope.wave_context": {"en": "context {length}", "zh": "上下文 {length}"},
    "rope.wave_hover": {"en": "pair %{x}: repeats every %{customdata} positions",
                        "zh": "第 %{x} 对：每 %{customdata} 个位置重复一次"},
    "rope.pair_axis": {"en": "pair i", "zh": "维度对 i"},
    "rope.wavelength_axis": {"en": "wavelength", "zh": "波长"},  # the ticks (10, 100, 1000 ...) say it is a log axis
    "rope.wave_explain": {
        "en": (
            "A pair whose wavelength exceeds the context never repeats an angle inside it: it tells far-apart "
            "positions apart. Past the trained length these slow pairs meet angles the model has never seen, which "
            "is what position interpolation, NTK and YaRN repair."
        ),
        "zh": "波长超过上下文长度的维度对，在上下文内角度从不重复：它负责区分相距很远的位置。超出训练长度后，正是这些慢速维度对会遇到模型从没见过的角度，位置插值、NTK 和 YaRN 修补的就是这一点。",
    },
    "rope.pairing_header": {"en": "Two pairings, one rotation", "zh": "两种配对，同一种旋转"},
    "rope.pairing_intro": {
        "en": (
            "GPT-J pairs neighbouring dimensions (0 with 1, 2 with 3); GPT-NeoX pairs dimension i with i + d/2. "
            "Llama shows both: Meta's code pairs neighbours, and the Hugging Face port pairs i with i + d/2 after "
            "permuting the q and k projection weights. The two are the same rotation with the dimensions listed in a "
            "different order, so the scores are identical."
        ),
        "zh": (
            "GPT-J 把相邻维度配成一对（第 0 和第 1 维、第 2 和第 3 维）；GPT-NeoX 把第 i 维和第 i + d/2 维配成一对。"
            "Llama 两种都有：Meta 的代码配相邻维度，Hugging Face 的移植版先重排 q、k 投影权重，再把第 i 维和第 i + d/2 维"
            "配成一对。两者是同一种旋转，只是维度的排列顺序不同，所以分数完全相同。"
        ),
    },
    "rope.map_title": {"en": "Which pair each dimension belongs to", "zh": "每个维度属于哪个维度对"},
    "rope.map_note": {
        "en": "▶ marks the pairing chosen under the sections (it sets the heatmap's rows)",
        "zh": "▶ 标出各节下方选择的配对方式（它决定热力图的行）",
    },
    "rope.map_hover": {"en": "dimension %{x}: pair %{z}", "zh": "维度 %{x}：第 %{z} 对"},
    "rope.scores_title": {
        "en": "Score of one random q, k (head_dim {hd}) vs offset, under each pairing",
        "zh": "一组随机 q、k（head_dim {hd}）的分数随相对距离的变化，两种配对对比",
    },
    "rope.scores_note": {
        "en": "the first two lines coincide; the dotted one skips the permutation",
        "zh": "前两条线完全重合；点线省略了重排",
    },
    "rope.series_half": {"en": "half-split on q, k", "zh": "前后半配对，原始 q、k"},
    "rope.series_permuted": {"en": "interleaved on permuted q, k", "zh": "相邻配对，重排后的 q、k"},
    "rope.series_raw": {"en": "interleaved on q, k as they are", "zh": "相邻配对，未重排的 q、k"},
    "rope.offset_axis": {"en": "offset m − n", "zh": "相对距离 m − n"},
    "rope.score_axis": {"en": "score ⟨R(m)q, R(n)k⟩", "zh": "分数 ⟨R(m)q, R(n)k⟩"},
    "rope.pairs_caption": {
        "en": "First pairs, half-split: {half} …; interleaved: {interleaved} ….",
        "zh": "前几个维度对，前后半配对：{half} ……；相邻配对：{interleaved} ……。",
    },
    "rope.max_diff": {
        "en": "Largest difference between the two pairings after the permutation: {diff} (rounding only).",
        "zh": "重排之后两种配对的最大差异：{diff}（仅为浮点舍入误差）。",
    },
    "rope.notice": {
        "en": (
            "At the defaults, score(5, 3) = score(50, 48) = 0.2127 and score(5, 0) = −0.3484, as in lesson 003: the "
            "shift does not change the score, the offset does. Raise rope_theta: the thick decay curve stays high "
            "to longer distances at first (further out it crosses the others), and more pairs turn red in the "
            "wavelength chart."
        ),
        "zh": (
            "默认设置下，score(5, 3) = score(50, 48) = 0.2127，score(5, 0) = −0.3484，与第 003 课一致：平移不改变分数，"
            "相对距离才会。调大 rope_theta：粗的衰减曲线一开始在更远的距离上仍保持较高（再远一些会和其他曲线交叉），"
            "波长图里变红的维度对也变多。"
        ),
    },
}
