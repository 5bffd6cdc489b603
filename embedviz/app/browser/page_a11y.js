// What assistive technology reads of the page beyond its elements (embedviz/app/a11y.py draws this script after a
// hidden marker, whose data it applies each time the marker changes):
// - the document's language (data-lang): Streamlit's index.html says lang="en" whatever the page's language, so a
//   screen reader spoke Chinese in an English voice;
// - an announcement (data-say, once per data-say-key) written into one polite live region that exists from the
//   first run on (outside Streamlit's tree, so no rerun removes it): a tour's new step, a question's verdict;
// - plotly's toolbar in Streamlit's charts: its zoom, pan, select and reset buttons act on a pointer's drag, eight
//   Tab stops per chart before the content below it; only its first button, the image download, stays in the
//   Tab order (embedviz/app/live/livefig.js does the same for the live figures);
// - Streamlit's page navigation is a list (ul) whose children are one div per section (a header and its items), so a
//   screen reader met list items outside any list (axe: list, listitem; streamlit 1.67). Each section becomes the
//   list, named by its header, and the outer ul a plain container. Attributes only: React keeps the elements.
// - another page (data-page) opens at its top: Streamlit swaps the main area in place, so on a phone a page opened
//   from the sidebar kept the previous page's scroll position and landed hundreds of pixels down.
(() => {
  const mark = document.currentScript && document.currentScript.previousElementSibling;
  let region = document.getElementById("embedviz-live");
  if (!region) {
    region = document.createElement("div");
    region.id = "embedviz-live";
    region.setAttribute("role", "status");
    region.setAttribute("aria-live", "polite");
    region.setAttribute("aria-atomic", "true");
    // read, not seen: out of the layout (not display: none, which a screen reader skips too)
    Object.assign(region.style, { position: "absolute", width: "1px", height: "1px", overflow: "hidden",
      clip: "rect(0 0 0 0)", whiteSpace: "nowrap", margin: "-1px", padding: "0", border: "0" });
    document.body.appendChild(region);
  }
  if (!window.embedvizTidy) {
    window.embedvizTidy = true;
    const tidy = () => {
      document.querySelectorAll("[data-testid='stPlotlyChart'] .modebar").forEach((bar) => {
        bar.querySelectorAll(".modebar-btn").forEach((b, i) => { if (i > 0 && b.tabIndex !== -1) b.tabIndex = -1; });
      });
      document.querySelectorAll("[data-testid='stSidebarNavItems']").forEach((items) => {
        const sections = [...items.children].filter((c) => c.tagName !== "LI");
        if (!sections.length) return; // a navigation without sections: a plain list already
        if (items.getAttribute("role") !== "none") items.setAttribute("role", "none");
        for (const section of sections) { // again after a language switch: React may keep a section, new words
          const header = section.querySelector(":scope > [data-testid='stNavSectionHeader']");
          const name = header ? header.textContent.trim() : "";
          if (section.getAttribute("role") !== "list") section.setAttribute("role", "list");
          if (name && section.getAttribute("aria-label") !== name) section.setAttribute("aria-label", name);
          if (header && header.getAttribute("aria-hidden") !== "true") header.setAttribute("aria-hidden", "true");
        }
      });
    };
    let queued = false; // a burst of changes (a chart's redraw) is looked at once, after it
    new MutationObserver(() => {
      if (queued) return;
      queued = true;
      setTimeout(() => { queued = false; tidy(); }, 250);
    }).observe(document.body, { childList: true, subtree: true });
    tidy();
  }
  if (!mark || !mark.dataset) return;
  const { lang, say, sayKey, page } = mark.dataset;
  if (lang && document.documentElement.lang !== lang) document.documentElement.lang = lang;
  if (page && window.embedvizPage !== page) {
    if (window.embedvizPage !== undefined) {
      for (const el of [document.scrollingElement, document.querySelector("[data-testid='stMain']"),
                        document.querySelector("[data-testid='stAppViewContainer']")]) if (el) el.scrollTop = 0;
    }
    window.embedvizPage = page;
  }
  if (say && sayKey && window.embedvizSaid !== sayKey) {
    window.embedvizSaid = sayKey;
    // a moment after the region is emptied, so the same words said again are a change a screen reader reads
    region.textContent = "";
    setTimeout(() => { region.textContent = say; }, 150);
  }
})();
