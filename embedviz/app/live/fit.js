// A live figure fitted to its chart's width in the browser: embedviz.figures.screen.fitted, step by step, applying
// the rules Python sends (embedviz.figures.screen.rules: every number, mark set and the token pattern). No rule is
// written here: a change to one is made in screen.py and reaches both. tests/e2e/test_live_fit.py draws a figure
// fitted by both and compares their lines, margins and height; tests/app/test_live_figure.py scans this file for
// numbers of screen.py's.
//
// The figure here is the one plotly draws (embedviz.figures.shown_as_text): its texts hold & < > as entities and
// its breaks as <br>, where screen.py reads the words as written (breaks as newlines); widths are measured on the
// words as written.

const compiled = new WeakMap(); // rules -> their regular expressions and sets, made once per figure Python sends

function prepared(rules) {
  let r = compiled.get(rules);
  if (!r) {
    // rules.escapes: embedviz.figures' {character: what plotly is sent}, a newline's being plotly's line break
    const escapes = Object.entries(rules.escapes).filter(([ch]) => ch !== "\n");
    r = { tokens: new RegExp(rules.tokens, "gu"), cjk: new RegExp(`[${rules.cjk}]`, "u"),
      narrow: new Set(rules.narrow), wide: new Set(rules.wide), full: new Set(rules.full),
      br: rules.escapes["\n"], entity: new RegExp(escapes.map(([, e]) => e).join("|"), "g"),
      decode: Object.fromEntries(escapes.map(([ch, e]) => [e, ch])) };
    compiled.set(rules, r);
  }
  return r;
}

// Python's round(): half to even
function pyRound(v) {
  const r = Math.round(v);
  return Math.abs(v - Math.trunc(v)) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

// What a drawn text says, as written (screen.py measures the words, not their entities)
export function decoded(text, rules) {
  const r = prepared(rules);
  return text.replace(r.entity, (e) => r.decode[e]);
}

function isUpper(ch) { // Python's str.isupper() of one character
  return ch !== ch.toLowerCase() && ch === ch.toUpperCase();
}

// A drag's frames fit the same texts again: their widths and lines are remembered, per rules Python sent
const memos = new WeakMap();

function remembered(rules, key, compute) {
  let memo = memos.get(rules);
  if (!memo) memos.set(rules, (memo = new Map()));
  if (!memo.has(key)) {
    if (memo.size >= 500) memo.clear();
    memo.set(key, compute());
  }
  return memo.get(key);
}

// screen.text_width
export function textWidth(text, size, rules) {
  return remembered(rules, `width ${size} ${text}`, () => measured(text, size, rules));
}

function measured(text, size, rules) {
  const r = prepared(rules), em = rules.em;
  let sum = 0;
  for (const ch of decoded(text, rules)) {
    if (r.cjk.test(ch) || r.full.has(ch)) sum += em.full;
    else if (r.narrow.has(ch)) sum += em.narrow;
    else if (r.wide.has(ch)) sum += em.wide;
    else if (isUpper(ch)) sum += em.upper;
    else sum += em.other;
  }
  return sum * size;
}

const isSpace = (s) => /^\s+$/u.test(s);

// screen.wrap: text's lines no wider than width px at size px; a break already in it stays one
export function wrap(text, size, width, rules) {
  return remembered(rules, `lines ${size} ${width} ${text}`, () => wrapped(String(text), size, width, rules));
}

function wrapped(text, size, width, rules) {
  const r = prepared(rules), lines = [];
  for (const part of text.split(r.br)) {
    let line = "";
    for (const token of part.match(r.tokens) || []) {
      if (line.trim() && !isSpace(token) && textWidth(line + token, size, rules) > width) {
        lines.push(line.trimEnd());
        line = token;
      } else {
        line += !line.trim() ? token.trimStart() : token;
      }
    }
    lines.push(line.trimEnd());
  }
  return lines;
}

function get(d, ...keys) {
  for (const key of keys) {
    if (!d || typeof d !== "object" || d[key] == null) return undefined;
    d = d[key];
  }
  return d;
}

// screen.fitted: {data, layout} for a chart width px wide, with wrapTexts its titles, annotations and legend entries
// broken into lines, and in any case a legend under the plot given the bottom margin its rows need. New objects
// where something changed; the traces' arrays are shared.
export function fitted(spec, width, wrapTexts, rules) {
  const layout = { ...(spec.layout || {}) };
  const base = get(layout, "font", "size") || get(layout, "template", "layout", "font", "size") || rules.font;
  const margin = { ...rules.margin, ...(get(layout, "template", "layout", "margin") || {}), ...(layout.margin || {}) };
  const height = layout.height || rules.height;
  const plotWidth = Math.max(width - margin.l - margin.r, rules.min_plot);
  let data = spec.data || [];
  let growTop = 0;
  if (wrapTexts) {
    const title = { ...(layout.title || {}) };
    const size = get(title, "font", "size") || pyRound(base * rules.title_scale);
    const subSize = get(title, "subtitle", "font", "size") || pyRound(size * rules.subtitle_scale);
    const room = width - rules.inset;
    if (title.text) {
      const head = wrap(title.text, size, room, rules);
      title.text = head.join(prepared(rules).br);
      growTop += (head.length - 1) * size * rules.line;
    }
    if (get(title, "subtitle", "text")) {
      const sub = wrap(title.subtitle.text, subSize, room, rules);
      title.subtitle = { ...title.subtitle, text: sub.join(prepared(rules).br) };
      growTop += (sub.length - 1) * subSize * rules.line;
    }
    if (growTop) {
      // anchored from the top, as plotly anchors a top title by its first line's baseline (pad: below the edge)
      Object.assign(title, { y: 1, yanchor: "top", yref: "container",
        pad: { ...(title.pad || {}), t: pyRound(size) } });
    }
    layout.title = title;
    const [annotations, growAbove] = wrappedAnnotations(layout.annotations || [], base, plotWidth, layout, rules);
    layout.annotations = annotations;
    growTop += growAbove;
    data = data.map((trace) => wrappedName(trace, base, plotWidth - rules.legend_symbol, rules));
  }
  wrapYTitles(layout, base, height - margin.t - margin.b, rules);
  const growBottom = legendRoom(layout, data, base, plotWidth, margin, rules);
  if (growTop || growBottom) {
    layout.margin = { ...(layout.margin || {}), t: pyRound(margin.t + growTop), b: pyRound(margin.b + growBottom) };
    layout.height = pyRound(height + growTop + growBottom);
  }
  return { ...spec, layout, data };
}

// screen._wrapped_annotations
function wrappedAnnotations(annotations, base, plotWidth, layout, rules) {
  const above = annotations.filter((a) => a.yref === "paper" && (a.y || 0) >= 1 && a.yanchor === "bottom"
    && !(a.showarrow ?? true));
  const domains = Object.entries(layout).filter(([k, v]) => k.startsWith("xaxis") && v && typeof v === "object"
    && Array.isArray(v.domain) && v.domain.length === 2).map(([, v]) => v.domain[1] - v.domain[0]);
  const share = plotWidth * (above.length > 1 && domains.length >= above.length ? Math.min(...domains)
    : 1 / Math.max(above.length, 1)) - rules.panel_gap;
  let grow = 0;
  const out = annotations.map((a) => {
    if (!a.text) return a;
    const size = get(a, "font", "size") || base;
    const panelTitle = above.includes(a);
    const lines = wrap(a.text, size, panelTitle ? share : plotWidth, rules);
    if (lines.length <= 1) return a;
    if (panelTitle) grow = Math.max(grow, (lines.length - 1) * size * rules.line); // it grows upward
    return { ...a, text: lines.join(prepared(rules).br) };
  });
  return [out, grow];
}

// screen._wrap_y_titles
function wrapYTitles(layout, base, plotHeight, rules) {
  const room = Math.max(plotHeight * rules.y_title_share, rules.y_title_min);
  for (const key of Object.keys(layout).filter((k) => k.startsWith("yaxis"))) {
    const title = get(layout, key, "title"), text = get(title, "text");
    const size = get(title, "font", "size") || pyRound(base * rules.axis_title_scale);
    if (typeof text === "string" && textWidth(text, size, rules) > room) {
      const lines = wrap(text, size, room, rules);
      layout[key] = { ...layout[key], title: { ...title, text: lines.join(prepared(rules).br) } };
    }
  }
}

// screen._wrapped_name
function wrappedName(trace, base, room, rules) {
  const name = trace.name;
  if (typeof name !== "string" || trace.showlegend === false || textWidth(name, base, rules) <= room) return trace;
  return { ...trace, name: wrap(name, base, room, rules).join(prepared(rules).br) };
}

// screen._legend_room
function legendRoom(layout, data, base, plotWidth, margin, rules) {
  const legend = layout.legend || {};
  if (legend.yref !== "container" || legend.yanchor !== "bottom" || layout.showlegend === false) return 0;
  const size = get(legend, "font", "size") || base;
  let rows = 1, used = 0, lines = 1;
  for (const trace of data) {
    const name = trace.name;
    if (typeof name !== "string" || !name || trace.showlegend === false) continue;
    const parts = name.split(prepared(rules).br);
    const entry = rules.legend_symbol + Math.max(...parts.map((p) => textWidth(p, size, rules)));
    if (used && used + entry > plotWidth) [rows, used] = [rows + 1, 0];
    used += entry;
    lines = Math.max(lines, parts.length);
  }
  const legendHeight = rows * lines * size * rules.line + rules.legend_pad;
  const xTitle = get(layout, "xaxis", "title", "text");
  const band = base * rules.line + rules.tick_band + (xTitle ? base * rules.line + rules.x_title_band : 0);
  return Math.max(0, band + legendHeight + rules.legend_gap - margin.b);
}

// A category axis's most tick labels in a plot plotHeight px tall (livefig.js thins a heatmap's rows to it)
export function tickRoom(layout, plotHeight, rules) {
  const font = get(layout, "yaxis", "tickfont", "size") || get(layout, "font", "size")
    || get(layout, "template", "layout", "font", "size") || rules.font;
  return Math.max(rules.min_ticks, Math.floor(plotHeight / (font * rules.tick_pitch)));
}

// The plot's height before plotly has drawn it: the figure's height less its top and bottom margins
export function plotHeight(layout, rules) {
  const margin = { ...rules.margin, ...(get(layout, "template", "layout", "margin") || {}), ...(layout.margin || {}) };
  return (layout.height || rules.height) - margin.t - margin.b;
}
