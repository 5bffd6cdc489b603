// A tour step's figure sized to the room the screen has left under the tour's panel (embedviz/app/tour.py draws this
// script while a tour runs; the served CSP allows it by its hash). The server builds each chart at one height for
// every screen, but the panel above it is taller on one step than on another (a question, its verdict, the
// presenter's larger text), so a 460 px chart under a 340 px panel ran past a 720 px projector's bottom. The first
// figure of the step (the first one on the screen, as CSS order draws the page) ends on the screen, by the rules
// embedviz.figures.screen sends on the marker beside this script (TOUR_*: never taller than built, its plot never
// shorter than a share of the built plot, only on a wide screen):
// - a server-drawn chart: plotly redraws it at that height (its fonts stay as they are), and the chart's box follows;
// - a live figure (embedviz/app/live) redraws itself on every frame: it is told its room (data-room, px for the
//   chart and its sliders) and sizes its own chart to it on each draw (livefig.js);
// - a table: its rows scroll inside a box that ends on the screen.
(() => {
  if (window.embedvizTourFit) return;
  window.embedvizTourFit = true;
  // the chart's box -> the height the server built it at, its plot's, its y ticks, the least it reads at
  const natural = new WeakMap();
  const TICKS = ["nticks", "tickmode", "tickvals", "ticktext"]; // what sets a y axis's ticks, given back as built
  const figures = "[data-testid='stPlotlyChart'], .live-figure, [data-testid='stDataFrame'], [data-testid='stTable']";
  const fitted = new Set(); // the figures given another size, to give back theirs once the tour is left
  const restore = (except) => {
    for (const el of [...fitted]) {
      if (el === except) continue;
      fitted.delete(el);
      if (el.matches(".live-figure")) { delete el.dataset.room; continue; }
      if (!el.matches("[data-testid='stPlotlyChart']")) { el.style.maxHeight = el.style.overflowY = ""; continue; }
      const own = natural.get(el), gd = el.querySelector(".js-plotly-plot");
      el.style.height = "";
      if (el.isConnected && own && gd && gd.layout && window.Plotly) {
        window.Plotly.relayout(gd, { height: own.height, ...own.ticks });
      }
    }
  };
  const rules = () => {
    const marker = document.getElementById("embedviz-tour-fit");
    try { return marker ? JSON.parse(marker.dataset.rules) : null; } catch (e) { return null; }
  };
  const fit = () => {
    const panel = document.querySelector(".st-key-tour_panel");
    const main = document.querySelector("[data-testid='stMain']");
    const r = rules();
    if (!panel || !main || !r || window.innerWidth < r.wide) {
      restore(null);
      return;
    }
    if (main.scrollTop > 0) return;
    const shown = [...main.querySelectorAll(figures)].filter((el) => {
      const box = el.getBoundingClientRect();
      return !panel.contains(el) && box.width > 0 && box.height > 0;
    }).sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
    const el = shown[0];
    restore(el); // only the step's figure is fitted: a figure that was first on another step gets its size back
    if (!el) return;
    const room = Math.round(window.innerHeight - el.getBoundingClientRect().top - r.gap);
    if (el.matches(".live-figure")) {
      if (el.dataset.room !== String(room)) el.dataset.room = String(room);
      fitted.add(el);
      return;
    }
    if (!el.matches("[data-testid='stPlotlyChart']")) { // a table: its rows scroll in the room, at least the floor's
      const most = Math.max(room, r.floor) + "px";
      if (el.style.maxHeight !== most) Object.assign(el.style, { maxHeight: most, overflowY: "auto" });
      fitted.add(el);
      return;
    }
    const gd = el.querySelector(".js-plotly-plot");
    if (!window.Plotly || !gd || !gd.layout || !gd._fullLayout) return;
    const mine = natural.get(el);
    // a height the server sent (a rerun redrew the chart with its own figure) is the chart's natural one again
    if (!mine || (gd.layout.height && gd.layout.height !== mine.set)) {
      // its y axes' own ticks, to give back
      const axes = Object.keys(gd._fullLayout).filter((k) => /^yaxis\d*$/.test(k));
      const ticks = {};
      for (const k of axes) for (const f of TICKS) ticks[`${k}.${f}`] = gd.layout[k]?.[f] ?? null;
      natural.set(el, { height: gd.layout.height || el.getBoundingClientRect().height, plot: gd._fullLayout._size.h,
        axes, ticks, set: null });
    }
    const own = natural.get(el);
    const height = Math.round(Math.min(own.height,
      Math.max(room, own.height - (1 - r.shortest) * own.plot, r.floor, own.least || 0)));
    if (height === own.set && gd.layout.height === height) return;
    own.set = height;
    fitted.add(el);
    el.style.height = height + "px";
    window.Plotly.relayout(gd, { height, ...own.ticks }).then(() => {
      // a y title (broken into lines by the server for the built plot) taller than the new plot ran onto the
      // subtitle: the chart keeps the height where it is not, as its least from now on
      const plot = gd._fullLayout._size.h;
      const title = Math.max(0, ...[...gd.querySelectorAll(".g-ytitle, .g-y2title")]
        .map((t) => t.getBoundingClientRect().height));
      if (title <= plot) return null;
      own.least = own.set = Math.min(own.height, Math.round(height + title - plot));
      el.style.height = own.set + "px";
      return window.Plotly.relayout(gd, { height: own.set });
    }).then(() => {
      // a y axis drawn with more tick labels than their font allows (screen.py's TICK_PITCH) in the plot's new
      // height gets fewer: a linear one a lower nticks (plotly's most, and the count it aims at: only ever lowered
      // here), a log one the labels it drew that stand apart (they crowd at a decade's top), one with its own ticks
      // every 2^k-th of them (0, 8, 16: 0, 16); a category axis that names every one of its rows (a token per
      // row) keeps them all, and the chart the height they need, as its least from now on
      const ticks = {};
      let short = 0;
      for (const k of own.axes) {
        const axis = gd._fullLayout[k], drawn = (axis._vals || []).length;
        const most = Math.max(Math.floor(gd._fullLayout._size.h / (axis.tickfont.size * r.tick_pitch)), 2);
        if (drawn <= most) continue;
        const named = gd.layout[k]?.tickvals;
        if (axis.type === "category" && Array.isArray(named) && named.length >= (axis._categories || []).length) {
          short = Math.max(short, drawn * axis.tickfont.size * r.tick_pitch - gd._fullLayout._size.h);
          continue;
        }
        if (axis.tickmode === "array" && Array.isArray(gd.layout[k]?.tickvals)) {
          let every = 2;
          while (Math.ceil(gd.layout[k].tickvals.length / every) > most) every *= 2;
          const keep = (_, i) => i % every === 0;
          ticks[`${k}.tickvals`] = gd.layout[k].tickvals.filter(keep);
          if (Array.isArray(gd.layout[k].ticktext)) ticks[`${k}.ticktext`] = gd.layout[k].ticktext.filter(keep);
        } else if (axis.type === "linear") ticks[`${k}.nticks`] = most;
        else if (axis.type === "log") { // the labels it drew, each a label's pitch from the last one kept
          const pitch = axis.tickfont.size * r.tick_pitch, kept = [];
          for (const v of axis._vals) {
            if (!kept.length || Math.abs(axis.l2p(v.x) - axis.l2p(kept.at(-1).x)) >= pitch) kept.push(v);
          }
          Object.assign(ticks, { [`${k}.tickmode`]: "array", [`${k}.tickvals`]: kept.map((v) => 10 ** v.x),
            [`${k}.ticktext`]: kept.map((v) => v.text) });
        }
      }
      if (short > 0) {
        own.least = own.set = Math.min(own.height, Math.ceil(gd._fullLayout.height + short));
        el.style.height = own.set + "px";
        ticks.height = own.set;
      }
      if (Object.keys(ticks).length) window.Plotly.relayout(gd, ticks);
    });
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
