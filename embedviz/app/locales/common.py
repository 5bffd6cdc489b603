"""Strings every page shares: the sidebar, error and notice lead-ins, downsampling notes, CSV columns and
charts' text alternatives."""
PREFIX = "common."  # every key of STRINGS starts with it (tests/app/test_page_stems.py)
STRINGS = {
    # the browser tab's title, what a screen reader says first of a page (embedviz/app/a11y.py)
    "common.doc_title": {"en": "{page} – embedviz", "zh": "{page} – embedviz"},
    "common.doc_title_step": {"en": "{page} – step {k} of {n} – lesson {lesson} – embedviz",
                              "zh": "{page} – 第 {k} 步，共 {n} 步 – 第 {lesson} 课 – embedviz"},
    "common.sidebar_caption": {
        "en": "Every view's settings are in the URL: copy it to share exactly what you see.",
        "zh": "每个视图的设置都保存在网址里：复制网址即可分享你看到的内容。",
    },
    "common.input_error": {"en": "Cannot show this: {message}", "zh": "无法显示：{message}"},
    "common.url_cut": {
        "en": "The link's value for '{key}' had {sent:,} characters; this field takes {kept:,}, so the rest was cut.",
        "zh": "链接中 '{key}' 的值有 {sent:,} 个字符；此输入框最多 {kept:,} 个，多出的部分已截去。",
    },
    # the box a page ends a point with: Chinese takes the full-width colon, and no space after it
    "common.notice": {"en": "**What to notice:** {text}", "zh": "**注意观察：**{text}"},
    "common.details": {"en": "Details", "zh": "详细说明"},
    # a model's pre-training context, then a long-context stage that raised it (Llama 3.1: 8,192, then 131,072)
    "common.last_stage": {"en": "Its last pre-training stage reached {n} tokens.",
                          "zh": "它预训练的最后阶段达到了 {n} 个 token。"},
    "common.formula": {"en": "Formula", "zh": "公式"},
    "common.showing_every": {
        "en": "showing one position in every {step}",
        "zh": "每隔 {step} 个位置显示一个",
    },
    "common.downsampled": {
        "en": "block-averaged {rs}×{cs} cells to fit the screen",
        "zh": "按 {rs}×{cs} 的块取平均以适应屏幕",
    },
    "common.scale_key_signed": {  # a diverging heatmap symmetric about 0 (the token table), no colour bar
        "en": "colour: blue negative, white 0, red positive",
        "zh": "颜色：蓝为负，白为 0，红为正",
    },
    "common.scale_key": {  # a heatmap on the fixed -1..1 diverging scale (RdBu_r) says it in words, no colour bar
        "en": "colour: blue −1, white 0, red +1",
        "zh": "颜色：蓝 −1，白 0，红 +1",
    },
    "common.grad_norm": {"en": "|grad|", "zh": "|梯度|"},
    "common.pc_axes": {"en": "PC 1|PC 2", "zh": "主成分 1|主成分 2"},  # the PCA pictures' axes, split at "|"
    "common.bias": {"en": "bias", "zh": "偏置"},
    "common.d_model": {"en": "d_model (vector width)", "zh": "d_model（向量维度）"},
    "common.position": {"en": "position", "zh": "位置"},
    "common.dimension": {"en": "dimension", "zh": "维度"},
    "common.token": {"en": "token", "zh": "token"},
    "common.csv": {"en": "CSV", "zh": "CSV"},
    # a figure's CSV columns (embedviz.figures.export.COLUMNS); x / y are the axis titles when the figure has them
    # a chart's text alternative for screen readers (embedviz.figures.describe): title, axes, each series' range
    "common.alt_axes": {"en": "{y} against {x}", "zh": "{y} 随 {x} 变化"},
    "common.alt_series": {"en": "{name}: {n} points, {low} to {high}", "zh": "{name}：{n} 个点，{low} 到 {high}"},
    "common.alt_heatmap": {"en": "{name}: {rows} × {cols} cells, {low} to {high}",
                           "zh": "{name}：{rows} × {cols} 个格子，{low} 到 {high}"},
    "common.alt_more": {"en": "{n} more series", "zh": "另有 {n} 个系列"},
    "common.alt_unnamed": {"en": "series {n}", "zh": "系列 {n}"},
    "common.alt_sep": {"en": ". ", "zh": "。"},
    "common.alt_end": {"en": ".", "zh": "。"},
    "common.csv_col_trace": {"en": "trace", "zh": "系列"},
    "common.csv_col_x": {"en": "x", "zh": "x"},
    "common.csv_col_y": {"en": "y", "zh": "y"},
    "common.csv_col_value": {"en": "value", "zh": "数值"},
    "common.csv_col_text": {"en": "text", "zh": "标签"},
    "common.csv_col_unnamed": {"en": "trace {n}", "zh": "系列 {n}"},
    "common.csv_help": {
        "en": "Download the numbers this chart was drawn from (one row per point or cell, named columns).",
        "zh": "下载绘制这张图所用的数据（每个点或格子一行，列有名称）。",
    },
}
