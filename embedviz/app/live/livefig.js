// A live figure: native range sliders and a plotly chart that the browser redraws on every input event (no server
// round trip); on release, a key step or a short pause the sliders' option indices go back to Python as the trigger
// "commit", which moves the page's URL-bound widgets. The figure's layout and texts come from Python once per rerun
// (already translated); only the data is recomputed here, by formulas.js.
import { angleHeatmapView, classifyPairs, decayCurve, distanceCurves, encodingView, ropeDistances,
  ropeInverseFrequencies, scaledInverseFrequencies, wavelengths } from "./formulas.js";

const PAUSE_MS = 400; // a drag or a run of key steps that rests this long commits, as a release does
// While a thumb moves (and for the first frame of a key step) a curve view is drawn from fewer points. On release,
// or the frame after a key step, it is drawn again whole, as Python draws it.
const MOVING_POINTS = 64;
// A moving curve or bar view's frames take plotly's transition path (a zero-length transition): only the traces' x
// and y move, on the axes and under the words of the last whole frame, without the relayout (titles, legend, axes,
// shapes, annotations) that a data change otherwise costs Plotly.react, about half of a frame. Its words (legend
// names, level labels and lines, axes' ranges) follow the value in a whole frame at most every WORDS_MS while they
// change. A heatmap has no such path in plotly.
const WORDS_MS = 100;
const QUICK_TYPES = new Set(["scatter", "bar"]); // plotly's animatable traces
const PLOTLY_URL = new URL("./plotly.min.js", import.meta.url).href;
let plotlyReady = null;
const instances = new WeakMap(); // parentElement -> instance: a rerun calls this module again with new data

function loadPlotly() {
  if (window.Plotly) return Promise.resolve(window.Plotly);
  if (!plotlyReady) {
    plotlyReady = new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = PLOTLY_URL;
      script.onload = () => resolve(window.Plotly);
      script.onerror = () => reject(new Error("plotly.js did not load from " + PLOTLY_URL));
      document.head.appendChild(script);
    });
  }
  return plotlyReady;
}

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

function subtitle(...notes) {
  return { text: notes.filter(Boolean).join(" · ") }; // embedviz.figures.joined
}

// One builder per view: (values, labels, data, figure, moving) -> {traces, layout, reduced}. traces[i] holds what
// changes in trace i of the figure Python sent (or of trace `like`, for a view whose trace count varies); layout what
// changes in its layout (merged one level deep); reduced: drawn from fewer points than Python's. Texts are the
// page's translated templates; the formulas are formulas.js.
const VIEWS = {
  sin_heatmap(values, labels, { texts, budget }) {
    const v = encodingView(values.sin_L, values.sin_d, values.sin_base, budget.cells, budget.pairs);
    const notes = [];
    if (v.posStep > 1) notes.push(fill(texts.showing_every, { step: v.posStep }));
    if (v.pairStep > 1) notes.push(fill(texts.every_pair, { step: v.pairStep }));
    return {
      traces: [{ z: v.z, x: v.positions, y: v.dims.map(String) }],
      layout: { title: { text: fill(texts.title, { L: labels.sin_L, D: values.sin_d }),
        subtitle: subtitle(notes.join(" · ") || texts.note, texts.scale_key) } },
    };
  },
  sin_distance(values, labels, { texts, budget, fixed }, figure, moving) {
    const c = distanceCurves(values.sin_L, values.sin_d, values.sin_base, fixed.starts,
      moving ? Math.min(MOVING_POINTS, budget.curve_points) : budget.curve_points);
    const names = [fill(texts.typical, { v: c.typical.toFixed(2) }),
      fill(texts.bound, { v: c.bound.toFixed(2) })];
    const levels = [c.typical, c.bound];
    return {
      reduced: moving,
      traces: c.distances.map((y) => ({ x: c.gaps, y })),
      layout: {
        xaxis: { type: c.gaps.at(-1) > fixed.log_gaps_past ? "log" : "-" },
        yaxis: { range: [0, c.bound * fixed.headroom] },
        shapes: figure.layout.shapes.map((s, i) => ({ ...s, y0: levels[i], y1: levels[i] })),
        annotations: figure.layout.annotations.map((a, i) => ({ ...a, y: levels[i], text: names[i] })),
      },
    };
  },
  rope_angles(values, labels, { texts, budget, fixed }) {
    const v = angleHeatmapView(values.rope_hd, values.rope_theta, Math.min(fixed.window, values.rope_len),
      fixed.pairing, budget.positions);
    const rows = v.pair.map((i, d) => fill(texts.row, { d, i }));
    const every = Math.ceil(rows.length / fixed.max_ticks); // as embedviz.figures.rope.angle_heatmap
    const ticks = rows.map((_, d) => d).filter((d) => d % every === 0);
    const note = v.step > 1 ? texts.note + " · " + fill(texts.showing_every, { step: v.step }) : texts.note;
    return {
      traces: [{ z: v.z, x: v.positions, y: rows }],
      layout: { title: { subtitle: subtitle(note, texts.scale_key) },
        yaxis: { tickvals: ticks.map((d) => rows[d]), ticktext: ticks.map(String) } },
    };
  },
  rope_decay(values, labels, { texts, budget, fixed }, figure, moving) {
    const distances = ropeDistances(values.rope_len, moving ? Math.min(MOVING_POINTS, budget.dense) : budget.dense);
    const chosen = fill(texts.chosen, { theta: labels.rope_theta });
    // the chosen theta drawn thick under its own name: at rest one of the references when it is one, as Python
    // draws it; while moving always a curve of its own, last, so the legend's order holds on the way
    const own = moving || !fixed.thetas.includes(values.rope_theta);
    const [chosenWidth, referenceWidth] = fixed.widths; // embedviz.figures.rope.decay_chart's
    const curves = fixed.thetas.map((theta, k) => (!own && theta === values.rope_theta ? [theta, chosen, true]
      : [theta, fill(texts.reference, { theta: fixed.theta_labels[k] }), false]));
    if (own) curves.push([values.rope_theta, chosen, true]);
    return {
      reduced: moving,
      traces: curves.map(([theta, name, thick]) => ({ like: 0, name, x: distances,
        y: decayCurve(values.rope_hd, theta, distances), line: { width: thick ? chosenWidth : referenceWidth } })),
      layout: { title: { text: fill(texts.title, { hd: values.rope_hd }) } },
    };
  },
  // embedviz.figures.context_extension.wavelength_chart: the wavelengths before, then one trace per kind of pair after
  ctx_wave(values, labels, { fixed }, figure) {
    const factor = values.ctx_factor, theta = values.ctx_theta;
    const before = ropeInverseFrequencies(fixed.dim, theta);
    const after = scaledInverseFrequencies(fixed.dim, theta, fixed.method,
      { ...fixed.params, factor, original: fixed.original }, fixed.seq_len);
    const kinds = classifyPairs(before, after, factor), waveAfter = wavelengths(after);
    const traces = [{ like: 0, x: Array.from(before, (_, i) => i), y: wavelengths(before) }];
    for (const kind of fixed.kinds) {
      const pairs = kinds.flatMap((k, i) => (k === kind ? [i] : []));
      if (!pairs.length) continue;
      const name = fixed.kind_names[kind];
      // the marker as Python drew the first kind's (its size), in this kind's colour
      traces.push({ like: 1, x: pairs, y: Float64Array.from(pairs, (i) => waveAfter[i]), name,
        marker: { ...figure.data[1].marker, color: fixed.colors[kind] },
        hovertemplate: `${name}<br>${fixed.hover}<extra></extra>` });
    }
    return { traces, layout: {} };
  },
};

function merge(base, patch) { // one level deep: {title: {text}} keeps the title's other fields
  const out = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    out[k] = v && typeof v === "object" && !Array.isArray(v) && base[k] && typeof base[k] === "object"
      ? { ...base[k], ...v } : v;
  }
  return out;
}

// Plotly draws a title and its subtitle on one line whatever the width, so on a phone a long one ran past the
// chart's right edge. Both are broken into lines that fit the chart, at spaces or between CJK characters (Chinese
// has no spaces), measured in the font plotly draws them in; the top margin and the height grow by the added lines
// so the plot area keeps its size.
const measure = document.createElement("canvas").getContext("2d");
// a run of non-CJK characters or one CJK character, each with the opening marks before it and the closing ones
// after it (no line starts with "）" or "，"), or spaces
const CJK = "\\u2e80-\\u9fff\\uf900-\\ufaff\\uff00-\\uffef";
const OPEN = "（「『《〈【〔“‘", CLOSE = "）」』》〉】〕，。、；：！？”’";
const TOKENS = new RegExp(`[${OPEN}]*[^\\s${CJK}]+[${CLOSE}]*|[${OPEN}]*[${CJK}][${CLOSE}]*|\\s+`, "g");
const LINE = 1.3; // plotly's line spacing, in font sizes

const measured = new Map(); // a drag's frames measure the same titles again (setting a canvas font is not free)

function remembered(key, compute) {
  if (!measured.has(key)) {
    if (measured.size > 200) measured.clear();
    measured.set(key, compute());
  }
  return measured.get(key);
}

function wrapText(text, font, width) {
  return remembered(JSON.stringify([text, font, width]), () => measureLines(text, font, width));
}

function textWidth(text, font) {
  return remembered(JSON.stringify([text, font]), () => {
    measure.font = font;
    return measure.measureText(text).width;
  });
}

function measureLines(text, font, width) {
  measure.font = font;
  const lines = [];
  let line = "";
  for (const token of String(text).replace(/<br>/g, " ").match(TOKENS) || []) {
    const next = line + token;
    if (line.trim() && !/^\s+$/.test(token) && measure.measureText(next).width > width) {
      lines.push(line.trim());
      line = token;
    } else {
      line = next;
    }
  }
  if (line.trim()) lines.push(line.trim());
  return lines;
}

function wrapped(inst, layout) {
  // the ResizeObserver's width: reading clientWidth after plotly's last draw would lay the page out again
  const width = inst.width || (inst.width = inst.chart.clientWidth);
  const title = layout.title || {};
  const key = JSON.stringify([width, title.text, title.subtitle?.text]);
  if (inst.wrapKey === key && inst.wrapBase === layout) return inst.wrapDrawn; // the same object: no relayout
  const full = inst.chart._fullLayout?.title;
  const fontSize = layout.font?.size ?? layout.template?.layout?.font?.size ?? 12;
  const family = layout.font?.family ?? layout.template?.layout?.font?.family ?? "sans-serif";
  const size = title.font?.size ?? full?.font?.size ?? Math.round(fontSize * 1.4);
  const subSize = title.subtitle?.font?.size ?? full?.subtitle?.font?.size ?? Math.round(size * 0.7);
  const room = Math.max(width - 8, 120);
  const head = title.text ? wrapText(title.text, `${size}px ${family}`, room) : [];
  const sub = title.subtitle?.text ? wrapText(title.subtitle.text, `${subSize}px ${family}`, room) : [];
  const extra = Math.round(Math.max(head.length - 1, 0) * size * LINE + Math.max(sub.length - 1, 0) * subSize * LINE);
  const margin = { ...(layout.template?.layout?.margin || {}), ...(layout.margin || {}) };
  const out = { ...layout, title: { ...title, text: head.join("<br>") } };
  if (title.subtitle?.text) out.title.subtitle = { ...title.subtitle, text: sub.join("<br>") };
  if (extra > 0) {
    out.margin = { ...margin, t: (margin.t ?? 70) + extra };
    out.height = (layout.height ?? 420) + extra;
    out.title.y = 1;
    out.title.yanchor = "top";
    // pad: below the top edge, as plotly anchors a top title by its first line's baseline
    out.title.pad = { ...(title.pad || {}), t: Math.round(size) };
  }
  // a y title longer than the plot is tall, in lines beside each other (embedviz.figures.screen._wrap_y_titles):
  // centred on the plot, past its height it ran up into the subtitle (a presenter's larger font)
  const plotHeight = (out.height ?? layout.height ?? 450) - ((out.margin || margin).t ?? 100)
    - ((out.margin || margin).b ?? 80);
  const yRoom = Math.max(plotHeight * 0.8, 60);
  for (const key of Object.keys(layout).filter((k) => /^yaxis\d*$/.test(k))) {
    const t = layout[key]?.title;
    if (!t?.text) continue;
    const font = `${t.font?.size ?? Math.round(fontSize * 1.2)}px ${family}`;
    if (textWidth(t.text, font) <= yRoom) continue;
    out[key] = { ...layout[key], title: { ...t, text: wrapText(t.text, font, yRoom).join("<br>") } };
  }
  inst.wrapKey = key;
  inst.wrapBase = layout;
  inst.wrapDrawn = out;
  return out;
}

function build(root) {
  // Streamlit puts the component's stylesheet into root too: only this module's own box is replaced
  root.querySelector(":scope > .live-figure")?.remove();
  const box = document.createElement("div");
  box.className = "live-figure";
  const controls = document.createElement("div");
  controls.className = "live-controls";
  const chart = document.createElement("div");
  chart.className = "live-chart";
  chart.dataset.redraws = "0";
  chart.liveDigest = () => digest(chart);
  box.append(chart, controls); // the figure first, its sliders under it, as a reader drags while watching it
  root.append(box);
  const inst = { controls, chart, inputs: {}, outputs: {}, sliders: [], data: null, pending: false, timer: null,
    committed: "", dragging: false, width: 0 };
  new ResizeObserver(() => { // a rotated phone or a resized window: the title's lines are measured again
    if (inst.data && Math.abs(chart.clientWidth - inst.width) > 1) { inst.width = chart.clientWidth; schedule(inst); }
  }).observe(chart);
  return inst;
}

function current(inst) {
  const values = {}, labels = {}, indices = {};
  for (const s of inst.sliders) {
    const i = Number(inst.inputs[s.key].value);
    indices[s.key] = i;
    values[s.key] = s.options[i];
    labels[s.key] = s.labels[i];
  }
  return { values, labels, indices };
}

async function draw(inst) {
  inst.pending = false;
  const Plotly = await loadPlotly();
  const { values, labels, indices } = current(inst);
  const state = JSON.stringify(indices), moving = inst.moving, start = performance.now();
  let traces = inst.figure.data, layout = inst.figure.layout, reduced = false;
  if (state !== inst.sent) { // a setting Python has not drawn yet: recompute the data and texts here
    const view = VIEWS[inst.data.view](values, labels, inst.data, inst.figure, moving);
    reduced = !!view.reduced;
    const base = traces;
    traces = view.traces.map((patch, i) => {
      const { like, ...fields } = patch;
      return { ...base[like ?? i], ...fields };
    });
    if (!view.traces.some((p) => p.like !== undefined)) traces.push(...base.slice(view.traces.length));
    const patch = JSON.stringify(view.layout);
    if (patch !== inst.layoutPatch || !inst.layoutDrawn) { // an unchanged layout object spares react a relayout
      inst.layoutPatch = patch;
      inst.layoutDrawn = merge(layout, view.layout);
    }
    layout = inst.layoutDrawn;
  }
  traces = padded(inst, traces);
  for (const s of inst.sliders) {
    inst.outputs[s.key].textContent = labels[s.key];
    inst.inputs[s.key].setAttribute("aria-valuetext", labels[s.key]);
  }
  inst.chart.setAttribute("role", "img");
  inst.chart.setAttribute("aria-label", inst.data.alt || ""); // the sent figure's text alternative, as plot's
  const shown = wrapped(inst, layout), [fitted, ticks] = fitTicks(inst, traces, shown);
  layout = fitted;
  const quick = moving && quickFrame(inst, traces, layout, start);
  if (quick) [traces, layout] = quick;
  const hold = moving && !inst.keyed && !quick; // a key step's frame is the figure at rest, so its rest is not drawn
  if (hold) layout = held(inst, layout);
  if (!quick) inst.whole = layout;
  inst.partial = !!quick || reduced || hold; // the thumb's rest draws the figure whole (set before a rest can ask)
  await Plotly.react(inst.chart, traces, layout, inst.data.config);
  inst.chart.dataset.redraws = String(Number(inst.chart.dataset.redraws) + 1);
  inst.chart.drawMs = [...(inst.chart.drawMs || []).slice(-99), performance.now() - start]; // benchmarks read it
  inst.chart.dataset.state = state;
  inst.chart.dataset.sent = inst.sent; // equal to state: this draw is the figure Python sent, not a browser redraw
  inst.chart.dataset.full = inst.partial ? "0" : "1"; // drawn at the figure's own resolution, with its words
  inst.chart.dataset.title = layout.title.text.replace(/<br>/g, " ");
  if (!inst.moving && !inst.partial) remember(inst);
  if (ticks && fitTicks(inst, traces, shown)[1] !== ticks) {
    schedule(inst); // the first draw told the plot area's height: the tick labels are fitted to it
  }
}

// A moving frame's [traces, layout] on plotly's transition path, or null when it is drawn whole: a heatmap, a new
// trace count, a key step, or words that differ from the last whole frame's, which is WORDS_MS old (the thumb's
// first move counts as one). Every other field is the last whole frame's, so plotly sees only animatable changes.
function quickFrame(inst, traces, layout, now) {
  const drawn = inst.chart.data;
  // a key step's frame is whole: the transition path ends its frame a task later, after the step's paint
  if (inst.keyed || !drawn || !inst.whole || drawn.length !== traces.length
      || !traces.every((t) => QUICK_TYPES.has(t.type))) {
    return null;
  }
  const words = JSON.stringify([traces.map(({ x, y, ...rest }) => rest),
    { ...layout, xaxis: { ...layout.xaxis, range: 0 }, yaxis: { ...layout.yaxis, range: 0 } }]);
  if (words !== inst.words && now - inst.wordsAt >= WORDS_MS) {
    inst.words = words;
    inst.wordsAt = now;
    return null;
  }
  const data = drawn.map((t, i) => ({ ...t, x: traces[i].x, y: traces[i].y }));
  return [data, { ...inst.whole, transition: { duration: 0 } }];
}

// While a thumb is dragged, the plot area holds the margins of the frame before (plotly's automargin measures every
// tick label, title and legend again on each frame, and relayouts when they push), and the axes' tick labels may run
// past the chart's edge (plotly's default hides those, measuring every label's box): at rest they are Python's.
function held(inst, layout) {
  const out = { ...layout }, size = inst.chart._fullLayout?._size;
  for (const key of Object.keys(layout).filter((k) => /^[xy]axis\d*$/.test(k))) {
    out[key] = { ...layout[key], ticklabeloverflow: "allow", automargin: false };
  }
  if (size) out.margin = { ...layout.margin, l: size.l, r: size.r, t: size.t, b: size.b, autoexpand: false };
  return out;
}

// A view whose trace count changes on the way (RoPE's chosen theta among the references or not, Context
// extension's kinds of pair) keeps the count it has drawn: a shorter list is filled with hidden empty traces, as a
// new trace count makes Plotly.react draw the chart from scratch (several times a redraw's cost).
function padded(inst, traces) {
  const drawn = inst.chart.data || [];
  if (traces.length >= drawn.length) return traces;
  return [...traces, ...drawn.slice(traces.length).map((t) => ({ type: t.type, x: [], y: [], visible: false,
    showlegend: false, hoverinfo: "skip" }))];
}

// A category axis's tick labels at most one per 1.4 font sizes of the plot's height, every 2^k-th of the ticks
// Python chose (so they still read 0, 8, 16, ...): the presenter view's larger text put 16 labels on a heatmap's
// rows where 8 fit. The height is the last draw's plot area (before the first, the layout's height less margins).
function tickRoom(inst, layout) {
  const y = layout.yaxis || {};
  const font = y.tickfont?.size ?? layout.font?.size ?? layout.template?.layout?.font?.size ?? 12;
  const margin = { ...(layout.template?.layout?.margin || {}), ...(layout.margin || {}) };
  const h = inst.chart._fullLayout?._size?.h ?? (layout.height ?? 450) - (margin.t ?? 100) - (margin.b ?? 80);
  return Math.max(2, Math.floor(h / (font * 1.4)));
}

function fitTicks(inst, traces, layout) { // -> [layout, the number of tick labels] (0: not a category axis)
  const y = layout.yaxis;
  if (!y || y.type !== "category" || !traces[0]?.y) return [layout, 0];
  const rows = Array.from(traces[0].y);
  const array = y.tickmode === "array";
  const vals = array ? y.tickvals : rows.filter((_, i) => i % Math.ceil(rows.length / (y.nticks || rows.length)) === 0);
  const room = tickRoom(inst, layout);
  if (vals.length <= room) return [layout, vals.length];
  let every = 2;
  while (Math.ceil(vals.length / every) > room) every *= 2;
  const keep = (_, i) => i % every === 0;
  const tickvals = vals.filter(keep);
  return [{ ...layout, yaxis: { ...y, tickmode: "array", tickvals, ticktext: (array ? y.ticktext : vals).filter(keep) } },
    tickvals.length];
}

// What a test compares: per drawn trace its numbers' count and sum of magnitudes (float32 from Python and float64
// from formulas.js agree to ~1e-7) and its line's width, read from plotly's own parsed data.
function digest(chart) {
  return (chart._fullData || []).filter((trace) => trace.visible !== false).map((trace) => {
    const cells = trace.type === "heatmap" ? Array.from(trace.z || [], (row) => Array.from(row)).flat()
      : Array.from(trace.y || []);
    return [cells.length, cells.reduce((sum, v) => sum + Math.abs(v), 0), trace.line?.width ?? null];
  });
}

function schedule(inst) {
  if (inst.pending) return;
  inst.pending = true;
  requestAnimationFrame(() => draw(inst));
}

function rest(inst) { // the thumb rests: the figure whole, unless its last frame was (a heatmap's key step)
  inst.moving = false;
  if (inst.pending) return;
  if (inst.partial) draw(inst);
  else remember(inst);
}

function remember(inst) { // the browser's own whole figure at rest, which tests hold against Python's
  const { state, title } = inst.chart.dataset;
  if (state !== inst.sent) inst.chart.browserDrawn = { state, title, digest: digest(inst.chart) };
}

function settle(inst) {
  if (inst.moving && !inst.dragging) rest(inst);
}

function commit(inst) {
  clearTimeout(inst.timer);
  if (inst.moving) rest(inst);
  const { indices } = current(inst);
  const state = JSON.stringify(indices);
  if (state === inst.committed) return;
  inst.committed = state;
  inst.setTriggerValue("commit", indices);
}

function makeSliders(inst) {
  inst.controls.innerHTML = "";
  inst.inputs = {};
  inst.outputs = {};
  for (const s of inst.sliders) {
    const label = document.createElement("label");
    label.className = "live-slider";
    const head = document.createElement("span");
    head.className = "live-label";
    head.textContent = s.label;
    const out = document.createElement("output");
    const input = document.createElement("input");
    Object.assign(input, { type: "range", min: "0", max: String(s.options.length - 1), step: "1",
      value: String(s.index) });
    input.dataset.key = s.key;
    input.addEventListener("input", () => {
      if (!inst.moving) Object.assign(inst, { words: "", wordsAt: performance.now() }); // the thumb's first move
      inst.moving = true;
      // a key step is one event with one value: drawn at once (a drag's events are drawn one per frame)
      if (inst.keyed && !inst.pending) draw(inst);
      else schedule(inst);
      clearTimeout(inst.timer);
      inst.timer = setTimeout(() => commit(inst), PAUSE_MS);
    });
    // a release commits at once; a key step is drawn fast (as a drag's frame), whole once that frame is on the
    // screen, and commits after the pause, so a run of steps (a held key) costs one rerun, which never holds up the
    // next step's redraw
    input.addEventListener("keydown", () => { inst.keyed = true; });
    input.addEventListener("keyup", () => {
      if (inst.moving) requestAnimationFrame(() => setTimeout(() => settle(inst))); // after the next paint
    });
    input.addEventListener("change", () => { if (!inst.keyed) commit(inst); inst.keyed = false; });
    input.addEventListener("pointerdown", () => { inst.dragging = true; inst.keyed = false; });
    input.addEventListener("pointerup", () => { inst.dragging = false; });
    head.append(" ", out);
    label.append(head, input);
    inst.controls.append(label);
    inst.inputs[s.key] = input;
    inst.outputs[s.key] = out;
  }
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  let inst = instances.get(parentElement);
  if (!inst) {
    inst = build(parentElement);
    instances.set(parentElement, inst);
  }
  inst.setTriggerValue = setTriggerValue;
  const sameSliders = inst.data && JSON.stringify(inst.data.sliders.map((s) => [s.key, s.options, s.labels, s.label]))
    === JSON.stringify(data.sliders.map((s) => [s.key, s.options, s.labels, s.label]));
  inst.data = data;
  inst.figure = JSON.parse(data.figure);
  inst.sliders = data.sliders;
  if (!sameSliders) makeSliders(inst);
  const fromPython = JSON.stringify(Object.fromEntries(data.sliders.map((s) => [s.key, s.index])));
  inst.committed = fromPython;
  inst.sent = fromPython; // the settings of the figure Python sent
  inst.layoutDrawn = null; // a new figure from Python: its layout is the base of the next patches
  if (!inst.dragging) {
    for (const s of data.sliders) inst.inputs[s.key].value = String(s.index); // a tour or a lesson button moved it
  }
  draw(inst);
  return () => { clearTimeout(inst.timer); };
}
