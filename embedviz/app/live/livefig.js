// A live figure: native range sliders and a plotly chart that the browser redraws on every input event (no server
// round trip); on release, a key step or a short pause the sliders' option indices go back to Python as the trigger
// "commit", which moves the page's URL-bound widgets. The figure's layout and texts come from Python once per rerun
// (already translated); only the data is recomputed here, by formulas.js.
import { encodingView } from "./formulas.js";

const PAUSE_MS = 400; // a drag that rests this long commits, as a release does
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

// One builder per view: (values, labels, data) -> {traces, title, subtitle}; traces carry only what changes.
const VIEWS = {
  sin_heatmap(values, labels, data) {
    const { texts, budget } = data;
    const v = encodingView(values.sin_L, values.sin_d, values.sin_base, budget.cells, budget.pairs);
    const notes = [];
    if (v.posStep > 1) notes.push(fill(texts.showing_every, { step: v.posStep }));
    if (v.pairStep > 1) notes.push(fill(texts.every_pair, { step: v.pairStep }));
    const note = notes.join(" · ") || texts.note;
    return {
      z: v.z, x: v.positions, y: v.dims.map(String),
      title: fill(texts.title, { L: labels.sin_L, D: values.sin_d }),
      subtitle: [note, texts.scale_key].filter(Boolean).join(" · "),
    };
  },
};

function build(root) {
  root.innerHTML = "";
  const controls = document.createElement("div");
  controls.className = "live-controls";
  const chart = document.createElement("div");
  chart.className = "live-chart";
  chart.dataset.redraws = "0";
  root.append(controls, chart);
  return { controls, chart, inputs: {}, outputs: {}, sliders: [], data: null, pending: false, timer: null,
    committed: "", dragging: false, drawn: "" };
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
  const state = JSON.stringify(indices);
  let traces = inst.figure.data, layout = inst.figure.layout;
  if (state !== inst.sent) { // a setting Python has not drawn yet: recompute the first trace and the title here
    const view = VIEWS[inst.data.view](values, labels, inst.data);
    traces = [Object.assign({}, traces[0], { z: view.z, x: view.x, y: view.y }), ...traces.slice(1)];
    layout = Object.assign({}, layout, {
      title: Object.assign({}, layout.title, { text: view.title, subtitle: { text: view.subtitle } }),
    });
  }
  for (const s of inst.sliders) {
    inst.outputs[s.key].textContent = labels[s.key];
    inst.inputs[s.key].setAttribute("aria-valuetext", labels[s.key]);
  }
  await Plotly.react(inst.chart, traces, layout, inst.data.config);
  inst.chart.dataset.redraws = String(Number(inst.chart.dataset.redraws) + 1);
  inst.chart.dataset.state = state;
  inst.chart.dataset.title = layout.title.text;
}

function schedule(inst) {
  if (inst.pending) return;
  inst.pending = true;
  requestAnimationFrame(() => draw(inst));
}

function commit(inst) {
  clearTimeout(inst.timer);
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
      schedule(inst);
      clearTimeout(inst.timer);
      inst.timer = setTimeout(() => commit(inst), PAUSE_MS);
    });
    input.addEventListener("change", () => commit(inst)); // release of a drag, or a key step
    input.addEventListener("pointerdown", () => { inst.dragging = true; });
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
  if (!inst.dragging) {
    for (const s of data.sliders) inst.inputs[s.key].value = String(s.index); // a tour or a lesson button moved it
  }
  draw(inst);
  return () => { clearTimeout(inst.timer); };
}
