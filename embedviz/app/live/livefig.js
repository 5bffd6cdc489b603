// A live figure: native range sliders and a plotly chart that the browser redraws on every input event (no server
// round trip); on release, a key step or a short pause the sliders' option indices go back to Python as the trigger
// "commit", which moves the page's URL-bound widgets. The figure's layout and texts come from Python once per rerun
// (already translated); only the data is recomputed here, by formulas.js.
import { angleHeatmapView, classifyPairs, decayCurve, distanceCurves, encodingView, ropeDistances,
  ropeInverseFrequencies, scaledInverseFrequencies, stridedIndices, wavelengths } from "./formulas.js";
import { decoded, fitted, plotHeight, tickRoom } from "./fit.js";

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

// A translated template filled in as Python's str.format fills it: {name}, or {name:.Nf} for a number with N
// decimals (the format is the template's, written once where Python builds it: embedviz.app.live.templates)
function fill(template, values) {
  return template.replace(/\{(\w+)(?::\.(\d+)f)?\}/g, (whole, name, decimals) => (!(name in values) ? whole
    : decimals === undefined ? String(values[name]) : Number(values[name]).toFixed(Number(decimals))));
}

function joined(joiner, ...notes) { // embedviz.figures.joined, with its joiner
  return notes.filter(Boolean).join(joiner);
}

// One builder per view: (values, labels, data, figure, moving) -> {traces, layout, reduced}. traces[i] holds what
// changes in trace i of the figure Python sent (or of trace `like`, for a view whose trace count varies); layout what
// changes in its layout (merged one level deep); reduced: drawn from fewer points than Python's. Texts are the
// page's translated templates; the formulas are formulas.js.
const VIEWS = {
  sin_heatmap(values, labels, { texts, budget, joiner }) {
    const v = encodingView(values.sin_L, values.sin_d, values.sin_base, budget.cells, budget.pairs);
    const notes = [];
    if (v.posStep > 1) notes.push(fill(texts.showing_every, { step: v.posStep }));
    if (v.pairStep > 1) notes.push(fill(texts.every_pair, { step: v.pairStep }));
    return {
      traces: [{ z: v.z, x: v.positions, y: v.dims.map(String) }],
      layout: { title: { text: fill(texts.title, { L: labels.sin_L, D: values.sin_d }),
        subtitle: { text: joined(joiner, joined(joiner, ...notes) || texts.note, texts.scale_key) } } },
    };
  },
  sin_distance(values, labels, { texts, budget, fixed }, figure, moving) {
    const c = distanceCurves(values.sin_L, values.sin_d, values.sin_base, fixed.starts,
      moving ? Math.min(MOVING_POINTS, budget.curve_points) : budget.curve_points, budget.dense);
    const names = [fill(texts.typical, { v: c.typical }), fill(texts.bound, { v: c.bound })];
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
  rope_angles(values, labels, { texts, budget, fixed, joiner }) {
    const v = angleHeatmapView(values.rope_hd, values.rope_theta, Math.min(fixed.window, values.rope_len),
      fixed.pairing, budget.positions);
    const rows = v.pair.map((i, d) => fill(texts.row, { d, i }));
    const ticks = stridedIndices(rows.length, fixed.max_ticks); // as embedviz.figures.rope.angle_heatmap
    const note = joined(joiner, texts.note, v.step > 1 && fill(texts.showing_every, { step: v.step }));
    return {
      traces: [{ z: v.z, x: v.positions, y: rows }],
      layout: { title: { subtitle: { text: joined(joiner, note, texts.scale_key) } },
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
      traces: curves.map(([theta, name, thick], k) => ({ like: 0, name, x: distances,
        y: decayCurve(values.rope_hd, theta, distances),
        line: { width: thick ? chosenWidth : referenceWidth, dash: fixed.dashes[k % fixed.dashes.length] } })),
      layout: { title: { text: fill(texts.title, { hd: values.rope_hd }) } },
    };
  },
  // embedviz.figures.context_extension.wavelength_chart: the wavelengths before, then one trace per kind of pair after
  ctx_wave(values, labels, { fixed }, figure) {
    const factor = values.ctx_factor, theta = values.ctx_theta;
    const before = ropeInverseFrequencies(fixed.dim, theta);
    const after = scaledInverseFrequencies(fixed.dim, theta, fixed.method,
      { ...fixed.params, factor, original: fixed.original }, fixed.context_length);
    const kinds = classifyPairs(before, after, factor), waveAfter = wavelengths(after);
    const traces = [{ like: 0, x: Array.from(before, (_, i) => i), y: wavelengths(before) }];
    for (const kind of fixed.kinds) {
      const pairs = kinds.flatMap((k, i) => (k === kind ? [i] : []));
      if (!pairs.length) continue;
      const name = fixed.kind_names[kind];
      // the marker as Python drew the first kind's (its size), in this kind's colour
      traces.push({ like: 1, x: pairs, y: Float64Array.from(pairs, (i) => waveAfter[i]), name,
        marker: { ...figure.data[1].marker, color: fixed.colors[kind] },
        hovertemplate: fixed.hovers[kind] }); // embedviz.figures.context_extension.kind_hover
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

// The figure fitted to the chart's width (fit.js: embedviz.figures.screen.fitted with the rules Python sent), at
// any width: the browser knows the chart's, where Python guesses a phone's. An unchanged layout and width give the
// same layout object as before, which spares Plotly.react a relayout.
function fittedFigure(inst, traces, layout) {
  // the ResizeObserver's width: reading clientWidth after plotly's last draw would lay the page out again
  const width = inst.width || (inst.width = inst.chart.clientWidth);
  // a chart not laid out yet (no width) is drawn as built: the ResizeObserver draws it again once it has one
  const out = fitted({ data: traces, layout }, width, width > 0, inst.data.fit);
  const key = JSON.stringify([width, traces.map((t) => [t.name, t.showlegend])]);
  if (inst.fitKey === key && inst.fitBase === layout) return { data: out.data, layout: inst.fitLayout };
  Object.assign(inst, { fitKey: key, fitBase: layout, fitLayout: out.layout });
  return out;
}

// In a tour step whose first figure this is, the chart's height in the room the screen has left under the tour's
// panel: tour_fit.js measures it for the figure and its sliders (data-room, px), and the chart takes what the
// sliders leave, by screen.py's rules (never taller than built, its plot never shorter than a share of the built
// plot's). The figure's fitted height (its titles' added lines, its legend's rows) is what must fit: the layout's
// height is lowered by what is over, before the figure is fitted, so its y titles are broken for the plot as drawn.
function roomed(inst, traces, layout) {
  const room = Number(inst.box.dataset.room), rules = inst.data.fit, built = layout.height || rules.height;
  const width = inst.width || inst.chart.clientWidth, key = JSON.stringify([room, inst.controlsHeight, width]);
  if (inst.roomBase !== layout || inst.roomKey !== key) { // the same object for the same room: no relayout
    let out = layout, height = built;
    if (room) {
      const own = fitted({ data: traces, layout }, width, width > 0, rules).layout;
      const tall = own.height || built, most = room - inst.controlsHeight;
      height = Math.round(Math.min(tall,
        Math.max(most, tall - (1 - rules.tour.shortest) * plotHeight(own, rules), rules.tour.floor)));
      if (height !== tall) out = { ...layout, height: built - (tall - height) };
    }
    Object.assign(inst, { roomBase: layout, roomKey: key, roomLayout: out, roomHeight: height });
  }
  inst.chart.style.minHeight = `${inst.roomHeight}px`; // held before plotly.js has drawn, and as the room changes
  return inst.roomLayout;
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
  // a figure with its own label, as Streamlit marks st.plotly_chart's (role img would make its toolbar's buttons
  // children of an image, which assistive technology does not reach: axe's nested-interactive)
  chart.setAttribute("role", "figure");
  chart.dataset.redraws = "0";
  chart.liveDigest = () => digest(chart);
  box.append(chart, controls); // the figure first, its sliders under it, as a reader drags while watching it
  root.append(box);
  const inst = { box, controls, chart, inputs: {}, outputs: {}, sliders: [], data: null, pending: false, timer: null,
    committed: "", dragging: false, width: 0, controlsHeight: 0 };
  chart.liveAlt = () => altText(inst); // what a test holds against Python's text alternative
  chart.liveSent = () => inst.figure; // the figure Python sent, before the browser fitted it (a test fits it too)
  new ResizeObserver(() => { // a rotated phone or a resized window: the title's lines are measured again
    if (inst.data && Math.abs(chart.clientWidth - inst.width) > 1) { inst.width = chart.clientWidth; schedule(inst); }
  }).observe(chart);
  new ResizeObserver(() => { // the sliders' rows (their labels wrap on a narrow chart) leave the chart the rest
    const height = controls.offsetHeight;
    if (height === inst.controlsHeight) return;
    inst.controlsHeight = height;
    if (inst.data && box.dataset.room) schedule(inst);
  }).observe(controls);
  // a tour gives the figure a room on the screen, or takes it back (tour_fit.js)
  new MutationObserver(() => { if (inst.data) schedule(inst); }).observe(box, { attributeFilter: ["data-room"] });
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
  for (const s of inst.sliders) spoken(inst, s);
  // the text alternative reads the titles and names as built, not broken into lines
  const [unwrapped, names] = [layout, traces.map((t) => t.name)];
  layout = roomed(inst, traces, layout);
  const fit = fittedFigure(inst, traces, layout), shown = fit.layout;
  traces = fit.data;
  const [ticked, ticks] = fitTicks(inst, traces, shown);
  layout = ticked;
  const quick = moving && quickFrame(inst, traces, layout, start);
  if (quick) [traces, layout] = quick;
  const hold = moving && !inst.keyed && !quick; // a key step's frame is the figure at rest, so its rest is not drawn
  if (hold) layout = held(inst, layout);
  if (!quick) inst.whole = layout;
  inst.partial = !!quick || reduced || hold; // the thumb's rest draws the figure whole (set before a rest can ask)
  await Plotly.react(inst.chart, traces, layout, inst.data.config);
  inst.altLayout = unwrapped;
  inst.altNames = names;
  described(inst, state === inst.sent);
  toolbarKeys(inst.chart);
  inst.chart.dataset.redraws = String(Number(inst.chart.dataset.redraws) + 1);
  inst.chart.drawMs = [...(inst.chart.drawMs || []).slice(-99), performance.now() - start]; // benchmarks read it
  inst.chart.dataset.state = state;
  inst.chart.dataset.sent = inst.sent; // equal to state: this draw is the figure Python sent, not a browser redraw
  inst.chart.dataset.full = inst.partial ? "0" : "1"; // drawn at the figure's own resolution, with its words
  inst.chart.dataset.title = unwrapped.title.text; // as built, not broken into lines
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

// A category axis's tick labels as many as fit the plot's height (fit.js's tickRoom, by screen.py's rules), every
// 2^k-th of the ticks Python chose (so they still read 0, 8, 16, ...): the presenter view's larger text put 16
// labels on a heatmap's rows where 8 fit. The height is the last draw's plot area (before the first, the layout's
// height less margins).
function tickCount(inst, layout) {
  const rules = inst.data.fit;
  return tickRoom(layout, inst.chart._fullLayout?._size?.h ?? plotHeight(layout, rules), rules);
}

function fitTicks(inst, traces, layout) { // -> [layout, the number of tick labels] (0: not a category axis)
  const y = layout.yaxis;
  if (!y || y.type !== "category" || !traces[0]?.y) return [layout, 0];
  const rows = Array.from(traces[0].y);
  const array = y.tickmode === "array";
  const vals = array ? y.tickvals : rows.filter((_, i) => i % Math.ceil(rows.length / (y.nticks || rows.length)) === 0);
  const room = tickCount(inst, layout);
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

// The chart's text alternative says what is drawn now: Python's own for the figure it sent, and while a slider
// shows a setting Python has not drawn, the same sentence built here from the drawn figure
// (embedviz.figures.describe.text_alternative, in the words Python sent; a Chromium test holds the two equal).
// Before, the label kept the sent figure's numbers for the second or two a rerun takes.
function described(inst, sent) {
  const text = sent && inst.data.alt ? inst.data.alt : altText(inst);
  if (inst.chart.getAttribute("aria-label") !== text) inst.chart.setAttribute("aria-label", text);
}

// describe.plain of a drawn text: its tags (describe's pattern) a space, its entities the characters they stand for
function plainText(text, rules, alt) {
  return decoded(String(text ?? "").replace(new RegExp(alt.tag, "g"), " "), rules)
    .split(/\s+/).filter(Boolean).join(" ");
}

function significant(v, digits) { // Python's f"{v:.{digits}g}" (embedviz.figures.describe.number)
  if (v === 0) return Object.is(v, -0) ? "-0" : "0";
  const [mantissa, exp] = v.toExponential(digits - 1).split("e"), x = Number(exp);
  if (x < -4 || x >= digits) { // Python's g switches to an exponent below 1e-4 and from 10^digits
    return `${mantissa.replace(/\.?0+$/, "")}e${x < 0 ? "-" : "+"}${String(Math.abs(x)).padStart(2, "0")}`;
  }
  return v.toFixed(digits - 1 - x).replace(/\.0+$|(\.\d*?)0+$/, "$1");
}

function altText(inst) {
  const chart = inst.chart, w = inst.data.alt_words, alt = inst.data.alt_rules, rules = inst.data.fit;
  const layout = inst.altLayout || chart.layout || {}, plain = (text) => plainText(text, rules, alt);
  const parts = [plain(layout.title?.text)];
  if (layout.title?.subtitle?.text) parts.push(plain(layout.title.subtitle.text));
  const x = plain(layout.xaxis?.title?.text), y = plain(layout.yaxis?.title?.text);
  if (x && y) parts.push(fill(w.axes, { x, y }));
  const full = new Map((chart._fullData || []).map((t) => [t.index, t]));
  const names = inst.altNames || []; // as built, not broken into lines
  const traces = (chart.data || []).map((t, i) => [t, full.get(i), names[i] ?? t.name])
    .filter(([t]) => t.visible !== false);
  traces.slice(0, alt.max_series).forEach(([trace, drawn, traceName], i) => {
    const heat = trace.type === "heatmap", field = heat ? drawn?.z : drawn?.y;
    if (!field) return;
    const rows = heat ? Array.from(field, (row) => Array.from(row)) : null;
    const values = (heat ? rows.flat() : Array.from(field)).filter((v) => typeof v === "number" && Number.isFinite(v));
    if (!values.length) return;
    let low = Infinity, high = -Infinity;
    for (const v of values) { if (v < low) low = v; if (v > high) high = v; }
    const name = plain(traceName) || fill(w.unnamed, { n: i + 1 });
    const range = { name, low: significant(low, alt.digits), high: significant(high, alt.digits) };
    parts.push(heat ? fill(w.heatmap, { ...range, rows: rows.length, cols: rows[0]?.length ?? 0 })
      : fill(w.series, { ...range, n: values.length }));
  });
  if (traces.length > alt.max_series) parts.push(fill(w.more, { n: traces.length - alt.max_series }));
  const trimmed = (p) => { while (p && alt.trim.includes(p.at(-1))) p = p.slice(0, -1); return p; }; // str.rstrip
  return parts.filter(Boolean).map(trimmed).join(w.sep) + w.end;
}

// plotly's toolbar: its zoom, pan, select and reset buttons act on a pointer's drag, and before the sliders
// under the chart they were eight Tab stops a keyboard reader had to pass (32 presses to the first slider on a
// page of three charts). Only its first button, the image download, stays in the Tab order.
function toolbarKeys(chart) {
  chart.querySelectorAll(".modebar-btn").forEach((b, i) => { if (i > 0 && b.tabIndex !== -1) b.tabIndex = -1; });
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

let sliderIds = 0; // a page may hold several live figures, each naming its inputs for its labels

function makeSliders(inst) {
  inst.controls.innerHTML = "";
  inst.inputs = {};
  inst.outputs = {};
  for (const s of inst.sliders) {
    // The input is named by its own <label for>: wrapped in one label together with the <output>, the label named
    // the output (the first labelable element in it) and left the slider without a name. The output shows the
    // value to the eye only: the slider says it itself (aria-valuetext), so a reader does not hear it twice.
    const id = `live-slider-${++sliderIds}`;
    const box = document.createElement("div");
    box.className = "live-slider";
    const head = document.createElement("div");
    head.className = "live-label";
    const label = document.createElement("label");
    label.htmlFor = id;
    label.textContent = s.label;
    const out = document.createElement("output");
    out.htmlFor = id;
    out.setAttribute("aria-hidden", "true");
    const input = document.createElement("input");
    Object.assign(input, { type: "range", min: "0", max: String(s.options.length - 1), step: "1",
      value: String(s.index), id });
    input.dataset.key = s.key;
    // the range runs over option indices (a log scale's stops); the accessibility tree gets the real numbers
    if (s.options.every((o) => typeof o === "number")) {
      input.setAttribute("aria-valuemin", String(Math.min(...s.options)));
      input.setAttribute("aria-valuemax", String(Math.max(...s.options)));
    }
    input.addEventListener("input", () => {
      if (!inst.moving) Object.assign(inst, { words: "", wordsAt: performance.now() }); // the thumb's first move
      inst.moving = true;
      spoken(inst, s); // at once, not a frame later: a screen reader reads the value on the key press
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
    head.append(label, " ", out);
    box.append(head, input);
    inst.controls.append(box);
    inst.inputs[s.key] = input;
    inst.outputs[s.key] = out;
  }
}

// What the slider shows and says: its option's label ("10,000"), and as its value the option itself when a number.
function spoken(inst, s) {
  const input = inst.inputs[s.key], i = Number(input.value), text = String(s.labels[i]);
  inst.outputs[s.key].textContent = text;
  if (input.getAttribute("aria-valuetext") !== text) input.setAttribute("aria-valuetext", text);
  if (typeof s.options[i] === "number") input.setAttribute("aria-valuenow", String(s.options[i]));
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
  // the figure's own height held before plotly.js has loaded and drawn it, so the sliders and the text under it do
  // not jump down when it appears (a Streamlit chart is given its height likewise: embedviz.app.widgets.plot)
  roomed(inst, inst.figure.data, inst.figure.layout); // (which sets the chart's min-height)
  inst.sliders = data.sliders;
  if (!sameSliders) makeSliders(inst);
  const fromPython = JSON.stringify(Object.fromEntries(data.sliders.map((s) => [s.key, s.index])));
  inst.committed = fromPython;
  inst.sent = fromPython; // the settings of the figure Python sent
  inst.layoutDrawn = null; // a new figure from Python: its layout is the base of the next patches
  if (!inst.dragging) {
    for (const s of data.sliders) inst.inputs[s.key].value = String(s.index); // a tour or a lesson button moved it
  }
  for (const s of data.sliders) spoken(inst, s); // now, not after plotly.js has loaded for the first draw
  draw(inst);
  return () => { clearTimeout(inst.timer); };
}
