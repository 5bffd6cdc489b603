// Presenter view: a presentation clicker's keys step the tour. Clickers send ArrowRight / PageDown for "next" and
// ArrowLeft / PageUp for "back"; the handler presses the tour panel's own Next / Back buttons, so a key does exactly
// what a click does. A key meant for a control (a slider, a text box, a menu) is left to that control.
(() => {
  if (window.embedvizPresenterKeys) return;  // one listener per tab, however many reruns draw this block
  window.embedvizPresenterKeys = true;
  const NEXT = new Set(["ArrowRight", "PageDown"]), BACK = new Set(["ArrowLeft", "PageUp"]);
  const forControl = (el) => !!el && el !== document.body &&
    (el.closest("input, textarea, select, [contenteditable='true'], [role='slider'], [role='listbox'], [role='tablist'], [role='radiogroup'], [role='menu']") !== null);
  document.addEventListener("keydown", (event) => {
    if (!document.getElementById("embedviz-presenting")) return;  // presenter view is off
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || forControl(document.activeElement)) return;
    const which = NEXT.has(event.key) ? "tour_next" : BACK.has(event.key) ? "tour_back" : null;
    const button = which && document.querySelector(`.st-key-${which} button`);
    if (!button || button.disabled) return;
    event.preventDefault();
    button.click();
  });
})();
