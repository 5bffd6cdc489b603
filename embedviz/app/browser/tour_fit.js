// A tour step's figure sized to the room the screen has left under the tour's panel (embedviz/app/tour.py draws this
// script while a tour runs; the served CSP allows it by its hash). The server builds each chart at one height for
// every screen, but the panel above it is taller on one step than on another (a question, its verdict, the
// presenter's larger text), so a 460 px chart under a 340 px panel ran past a 720 px projector's bottom. The first
// chart of the step (the first one on the screen, as CSS order draws the page) is given the height that ends it
// on the screen, never more than the server's own and never less than SMALLEST of it: a chart squeezed further
// reads worse than one the reader scrolls to. Plotly redraws it at that height (its fonts stay as they are), and
// the chart's box follows. A wide screen only: on a phone no chart fits under the panel, and the page scrolls. Not
// in presenter view either: its 20 px text is fitted to each chart's built height (embedviz/figures/screen.py wraps
// a y axis title to the plot's height), and a shorter plot put tick labels on each other and a y title on the
// subtitle.
(() => {
  if (window.embedvizTourFit) return;
  window.embedvizTourFit = true;
  const SMALLEST = 0.6, FLOOR = 220, GAP = 8, WIDE = 700;
  const natural = new WeakMap(); // the chart's box -> the height the server built it at
  const charts = "[data-testid='stPlotlyChart'], .live-figure, [data-testid='stDataFrame'], [data-testid='stTable']";
  const fitted = new Set(); // the charts given another height, to give back theirs once the tour is left
  const restore = (except) => {
    for (const chart of [...fitted]) {
      if (chart === except) continue;
      fitted.delete(chart);
      const own = natural.get(chart), gd = chart.querySelector(".js-plotly-plot");
      chart.style.height = "";
      if (chart.isConnected && own && gd && gd.layout && window.Plotly) window.Plotly.relayout(gd, { height: own.height });
    }
  };
  const fit = () => {
    const panel = document.querySelector(".st-key-tour_panel");
    const main = document.querySelector("[data-testid='stMain']");
    if (!panel || !main || window.innerWidth < WIDE || document.getElementById("embedviz-presenting")) {
      restore(null);
      return;
    }
    if (!window.Plotly || main.scrollTop > 0) return;
    const shown = [...main.querySelectorAll(charts)].filter((el) => {
      const r = el.getBoundingClientRect();
      return !panel.contains(el) && r.width > 0 && r.height > 0;
    }).sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
    const chart = shown[0];
    restore(chart); // only the step's figure is fitted: a chart that was first on another step gets its height back
    // a server-drawn chart only: a table keeps its rows, and a live figure (embedviz/app/live) redraws itself at its
    // own height whenever it draws, so a height given here would be undone (and redone) on every frame
    if (!chart || !chart.matches("[data-testid='stPlotlyChart']")) return;
    const gd = chart.querySelector(".js-plotly-plot");
    if (!gd || !gd.layout || !gd._fullLayout) return;
    const mine = natural.get(chart);
    // a height the server sent (a rerun redrew the chart with its own figure) is the chart's natural one again
    if (!mine || (gd.layout.height && gd.layout.height !== mine.set)) {
      natural.set(chart, { height: gd.layout.height || chart.getBoundingClientRect().height, set: null });
    }
    const own = natural.get(chart);
    const room = window.innerHeight - chart.getBoundingClientRect().top - GAP;
    const height = Math.round(Math.min(own.height, Math.max(room, own.height * SMALLEST, FLOOR)));
    if (height === own.set && gd.layout.height === height) return;
    own.set = height;
    fitted.add(chart);
    chart.style.height = height + "px";
    window.Plotly.relayout(gd, { height });
  };
  let queued = false; // a burst of changes (a chart's redraw, the panel's verdict) is looked at once, after it
  const later = () => {
    if (queued) return;
    queued = window.embedvizTourFitQueued = true; // (the browser tests wait for it to be false before measuring)
    setTimeout(() => { queued = window.embedvizTourFitQueued = false; fit(); }, 200);
  };
  new MutationObserver(later).observe(document.body, { childList: true, subtree: true });
  window.addEventListener("resize", later);
  later();
})();
