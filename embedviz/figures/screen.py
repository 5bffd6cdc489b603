"""A built figure fitted to the screen it is drawn on: a figure's dict in, the same dict with line breaks and room.

plotly draws a title, a subtitle, a subplot title, an annotation and a legend entry on one line whatever the width,
so on a phone a long one runs past the chart's edge (or onto its neighbour). :func:`fitted` breaks such texts into
lines that fit the chart's width (at spaces, or between two CJK characters: Chinese has no spaces), and grows the
top margin and the height by the lines it added, so the plot area keeps its size. A legend under the plot
(``LEGEND_BELOW``) is given the bottom margin its rows need at that width and font size, so its rows never climb
onto the x axis's title (a presenter's 20 px font or a phone's narrow chart makes more rows).

It runs before the texts are escaped for plotly (``embedviz.figures.shown_as_text``), on the words as written: a
break is a newline, which the escaping turns into plotly's ``<br>``. Widths are estimated from the characters (the
browser's font is not known here), on the wide side (DejaVu Sans, the usual fallback, is among the widest), so a
line is broken a little early rather than cut.

A live figure (``embedviz/app/live``) fits its own figure in the browser, at the chart's measured width, as a
thumb moves: :func:`rules` is every number and mark set below, sent in its data, and ``live/fit.js`` applies them
step by step as this module does (tests/e2e/test_live_fit.py draws both and compares), so each rule is written here
only.
"""
from __future__ import annotations

import re

from embedviz.figures import ESCAPES

LINE = 1.3  # plotly's line spacing, in font sizes
CJK = "\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef"
_OPEN, _CLOSE = "（「『《〈【〔“‘(", "）」』》〉】〕，。、；：！？”’)"
# a run of non-CJK characters, or one CJK character, each with its opening marks before and closing ones after (no
# line starts with "）" or "，"), or spaces
_TOKENS = re.compile(rf"[{_OPEN}]*[^\s{CJK}]+[{_CLOSE}]*|[{_OPEN}]*[{CJK}][{_CLOSE}]*|\s+")
_NARROW = frozenset(" ijlI.,:;'|!()[]{}/\\-")
_WIDE = frozenset("mwMW@%")
_FULL = frozenset("…←→↑↓—")  # a full em in the CJK fonts that draw them
_CJK_CHAR = re.compile(rf"[{CJK}]")
# a character's width in font sizes, by its kind: CJK (and _FULL), _NARROW, _WIDE, an upper-case letter, any other
EM = {"full": 1.0, "narrow": 0.36, "wide": 0.86, "upper": 0.72, "other": 0.62}
_LEGEND_SYMBOL = 46  # px: a legend entry's line sample and the gap after its text
FONT = 13  # px, a figure's font when neither it nor its template names one (the template's)
# plotly's sizes of a title, its subtitle and an axis title, in the figure's (the title's) font sizes
TITLE_SCALE, SUBTITLE_SCALE, AXIS_TITLE_SCALE = 1.4, 0.7, 1.2
INSET = 12  # px a title's lines keep clear of the chart's edges, together
MIN_PLOT = 120  # px: the plot's width taken as at least this, however wide the margins
PANEL_GAP = 8  # px between two side-by-side panels' titles
# plotly's own margins and height, where neither the figure nor its template sets them
PLOTLY_MARGIN, PLOTLY_HEIGHT = {"l": 80, "r": 80, "t": 100, "b": 80}, 450
# a y axis's title may take this share of the plot's height (the tick labels' automargin may take some), at least
Y_TITLE_SHARE, Y_TITLE_MIN = 0.8, 60
# px a legend under the plot adds to its rows; the tick labels' band and the x axis title's beside their lines; the
# gap under the legend
LEGEND_PAD, TICK_BAND, X_TITLE_BAND, LEGEND_GAP = 10, 12, 8, 12
# a category axis's tick labels stand at least this many font sizes apart, at least this many of them (the browser
# thins a live heatmap's rows to its plot's height, which a presenter's larger text shrinks)
TICK_PITCH, MIN_TICKS = 1.4, 2
# A tour step's figure is given the room the screen has left under the tour's panel (the browser measures it:
# embedviz/app/browser/tour_fit.js for a chart or a table, live/livefig.js for a live figure and its sliders), its
# bottom TOUR_GAP px above the screen's; never taller than built, and never so short that its plot (the figure less
# its margins, which keep their size) is less than TOUR_SHORTEST of the built plot's height, nor the figure less
# than TOUR_FLOOR px: squeezed further, a presenter's 20 px tick labels ran onto each other and onto the subtitle,
# which reads worse than a chart the reader scrolls to (and a y axis is given no more tick labels than TICK_PITCH
# allows in the plot's new height: plotly spaces them by the plot's length, not by their font). Only on a screen
# TOUR_WIDE px wide or more: on a phone no figure fits under the panel, and the page scrolls.
TOUR_SHORTEST, TOUR_FLOOR, TOUR_GAP, TOUR_WIDE = 0.5, 220, 8, 700


def rules() -> dict:
    """Every rule above as plain data, for the browser's copy of :func:`fitted` (``embedviz/app/live/fit.js``): the
    token pattern as written here (Python's and JavaScript's regular expressions read it alike), the mark sets as
    strings, the numbers as they are."""
    return {"escapes": dict(ESCAPES), "tokens": _TOKENS.pattern, "cjk": CJK, "narrow": "".join(sorted(_NARROW)),
            "wide": "".join(sorted(_WIDE)), "full": "".join(sorted(_FULL)), "em": dict(EM), "line": LINE,
            "legend_symbol": _LEGEND_SYMBOL, "font": FONT, "title_scale": TITLE_SCALE,
            "subtitle_scale": SUBTITLE_SCALE, "axis_title_scale": AXIS_TITLE_SCALE, "inset": INSET,
            "min_plot": MIN_PLOT, "panel_gap": PANEL_GAP, "margin": dict(PLOTLY_MARGIN), "height": PLOTLY_HEIGHT,
            "y_title_share": Y_TITLE_SHARE, "y_title_min": Y_TITLE_MIN, "legend_pad": LEGEND_PAD,
            "tick_band": TICK_BAND, "x_title_band": X_TITLE_BAND, "legend_gap": LEGEND_GAP,
            "tick_pitch": TICK_PITCH, "min_ticks": MIN_TICKS, "tour": tour_rules()}


def tour_rules() -> dict:
    """How a tour step's figure is sized to the screen (TOUR_*), for the browser's two fitters."""
    return {"shortest": TOUR_SHORTEST, "floor": TOUR_FLOOR, "gap": TOUR_GAP, "wide": TOUR_WIDE,
            "tick_pitch": TICK_PITCH}


def text_width(text: str, size: float) -> float:
    """About how wide ``text`` (one line) is drawn at ``size`` px."""
    em = 0.0
    for ch in text:
        if _CJK_CHAR.match(ch) or ch in _FULL:
            em += EM["full"]
        elif ch in _NARROW:
            em += EM["narrow"]
        elif ch in _WIDE:
            em += EM["wide"]
        elif ch.isupper():
            em += EM["upper"]
        else:
            em += EM["other"]
    return em * size


def wrap(text: str, size: float, width: float) -> list[str]:
    """``text``'s lines no wider than ``width`` px at ``size`` px (a word longer than that keeps a line of its own);
    a break already in it (a newline) stays one."""
    lines: list[str] = []
    for part in text.split("\n"):
        line = ""
        for token in _TOKENS.findall(part):
            if line.strip() and not token.isspace() and text_width(line + token, size) > width:
                lines.append(line.rstrip())
                line = token
            else:
                line += token.lstrip() if not line.strip() else token
        lines.append(line.rstrip())
    return lines


def _get(d, *keys, default=None):
    for key in keys:
        if not isinstance(d, dict) or d.get(key) is None:
            return default
        d = d[key]
    return d


def fitted(spec: dict, *, width: float, wrap_texts: bool) -> dict:
    """``spec`` (a figure's dict, its texts as written) for a chart ``width`` px wide: with ``wrap_texts`` (a phone) its
    titles, annotations and legend entries broken into lines that fit, and in any case a legend under the plot
    given the bottom margin its rows need. A new dict; the traces' arrays are shared, not copied."""
    layout = dict(spec.get("layout") or {})
    base = _get(layout, "font", "size") or _get(layout, "template", "layout", "font", "size", default=FONT)
    margin = {**PLOTLY_MARGIN, **(_get(layout, "template", "layout", "margin") or {}), **(layout.get("margin") or {})}
    height = layout.get("height") or PLOTLY_HEIGHT
    plot_width = max(width - margin["l"] - margin["r"], MIN_PLOT)
    data = spec.get("data") or []
    grow_top = 0.0
    if wrap_texts:
        title = dict(layout.get("title") or {})
        size = _get(title, "font", "size") or round(base * TITLE_SCALE)
        sub_size = _get(title, "subtitle", "font", "size") or round(size * SUBTITLE_SCALE)
        room = width - INSET
        if title.get("text"):
            head = wrap(title["text"], size, room)
            title["text"] = "\n".join(head)
            grow_top += (len(head) - 1) * size * LINE
        if _get(title, "subtitle", "text"):
            sub = wrap(title["subtitle"]["text"], sub_size, room)
            title["subtitle"] = {**title["subtitle"], "text": "\n".join(sub)}
            grow_top += (len(sub) - 1) * sub_size * LINE
        if grow_top:
            # anchored from the top, as plotly anchors a top title by its first line's baseline (pad: below the edge)
            title.update(y=1, yanchor="top", yref="container", pad={**(title.get("pad") or {}), "t": round(size)})
        layout["title"] = title
        layout["annotations"], grow_above = _wrapped_annotations(layout.get("annotations") or [], base, plot_width,
                                                                    layout)
        grow_top += grow_above
        data = [_wrapped_name(trace, base, plot_width - _LEGEND_SYMBOL) for trace in data]
    _wrap_y_titles(layout, base, height - margin["t"] - margin["b"])
    grow_bottom = _legend_room(layout, data, base, plot_width, margin)
    if grow_top or grow_bottom:
        layout["margin"] = {**(layout.get("margin") or {}), "t": round(margin["t"] + grow_top),
                            "b": round(margin["b"] + grow_bottom)}
        layout["height"] = round(height + grow_top + grow_bottom)
    return {**spec, "layout": layout, "data": data}


def _wrapped_annotations(annotations, base: float, plot_width: float, layout: dict) -> tuple[list, float]:
    """Annotations broken to fit: a title over one of several side-by-side panels (above the plot, paper
    coordinates) to its panel's share of the width, any other to the plot's width; and how much the panel titles'
    added lines need above the plot."""
    above = [a for a in annotations if a.get("yref") == "paper" and (a.get("y") or 0) >= 1
             and a.get("yanchor") == "bottom" and not a.get("showarrow", True)]
    # a panel's width: its x axis's domain (side by side, they leave gaps between them), else an even share
    domains = [d[1] - d[0] for k, v in (layout or {}).items() if k.startswith("xaxis")
               and isinstance(v, dict) and isinstance(d := v.get("domain"), (list, tuple)) and len(d) == 2]
    share = plot_width * (min(domains) if len(above) > 1 and len(domains) >= len(above) else
                          1 / max(len(above), 1)) - PANEL_GAP
    out, grow = [], 0.0
    for a in annotations:
        if not a.get("text"):
            out.append(a)
            continue
        size = _get(a, "font", "size") or base
        panel_title = any(a is b for b in above)
        lines = wrap(a["text"], size, share if panel_title else plot_width)
        if len(lines) > 1:
            if panel_title:  # it grows upward, into the room under the subtitle
                grow = max(grow, (len(lines) - 1) * size * LINE)
            a = {**a, "text": "\n".join(lines)}
        out.append(a)
    return out, grow


def _wrap_y_titles(layout: dict, base: float, plot_height: float) -> None:
    """A y axis's title longer than the plot is tall, broken into lines beside each other: it is centred on the plot,
    so past its height it ran up into the subtitle (a presenter's larger font, a plot shortened by tilted labels)."""
    room = max(plot_height * Y_TITLE_SHARE, Y_TITLE_MIN)
    for key in [k for k in layout if k.startswith("yaxis")]:
        title = _get(layout, key, "title")
        text = _get(title, "text")
        size = _get(title, "font", "size") or round(base * AXIS_TITLE_SCALE)
        if isinstance(text, str) and text_width(text, size) > room:
            layout[key] = {**layout[key], "title": {**title, "text": "\n".join(wrap(text, size, room))}}


def _wrapped_name(trace: dict, base: float, room: float) -> dict:
    name = trace.get("name")
    if not isinstance(name, str) or trace.get("showlegend") is False or text_width(name, base) <= room:
        return trace
    return {**trace, "name": "\n".join(wrap(name, base, room))}


def _legend_room(layout: dict, data, base: float, plot_width: float, margin: dict) -> float:
    """How much more bottom margin a legend at the container's bottom needs at this width and font size: its
    rows (entries packed left to right as plotly packs them) above the tick labels' and the x-axis title's band."""
    legend = layout.get("legend") or {}
    if legend.get("yref") != "container" or legend.get("yanchor") != "bottom" or layout.get("showlegend") is False:
        return 0.0
    size = _get(legend, "font", "size") or base
    rows, used, lines = 1, 0.0, 1
    for trace in data:
        name = trace.get("name")
        if not isinstance(name, str) or not name or trace.get("showlegend") is False:
            continue
        parts = name.split("\n")
        entry = _LEGEND_SYMBOL + max(text_width(p, size) for p in parts)
        if used and used + entry > plot_width:
            rows, used = rows + 1, 0.0
        used += entry
        lines = max(lines, len(parts))
    legend_height = rows * lines * size * LINE + LEGEND_PAD
    x_title = _get(layout, "xaxis", "title", "text")
    # tick labels and the axis title under the plot
    band = base * LINE + TICK_BAND + (base * LINE + X_TITLE_BAND if x_title else 0)
    need = band + legend_height + LEGEND_GAP
    return max(0.0, need - margin["b"])
