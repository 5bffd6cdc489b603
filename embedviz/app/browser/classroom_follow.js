// A following student's tab (embedviz/app/classroom_follow.py): it asks the server's follow route where the class is
// (a few bytes of JSON, no script run) and reruns the app, by the trigger "moved", only when that is not what this
// page shows: the teacher moved or revealed, or the class is gone (the rerun then says so). The request names what
// the page shows (?seen=), and the route holds it while the class stays there and answers the moment the teacher
// moves (embedviz/app/classroom_route.py), so the tab asks again as soon as it has its answer. An answer that came
// at once (a move this page has not caught up with yet, or a route that does not hold) is asked again a period
// later. The rerun's own run reads the store again; what the route said is only the reason to ask.
const RETRY_MS = 3000; // a trigger whose rerun has not brought the new position yet is sent again after this
const SLOWEST_MS = 8000; // backing off (the route refused for load, the network failed) never waits longer
const pollers = new WeakMap(); // parentElement -> poller: a rerun calls this module again with new data

function position(p) { // classroom_route.position_text: a second vote and a shown spread only when there is one
  return `${p.lesson}|${p.step}|${p.revealed}` + (p.vote > 1 ? "|v2" : "") + (p.shown ? "|shown" : "");
}

async function poll(p) {
  p.timer = null;
  p.busy = true;
  const began = performance.now();
  let wait = p.data.period_ms;
  const abort = new AbortController();
  p.abort = abort;
  try {
    // a hidden tab asks without holding: it may be one of many tabs on the app, and a browser keeps only a few
    // connections to one server open at once
    const seen = document.hidden ? "" : `?seen=${encodeURIComponent(position(p.data.seen))}`;
    const answer = await fetch(p.data.route + seen, { cache: "no-store", credentials: "same-origin",
                                                      signal: abort.signal });
    if (p.data.offline && (answer.status >= 500 || answer.status === 404 || answer.status === 429)) {
      // the page says it is reconnecting: the store is still away (503) or back without the class, which the
      // teacher's tab is writing back (404); ask again with backoff, and rerun only once the class answers
      const [first, most] = p.data.retry_ms;
      p.backoff = Math.min(most, p.backoff ? p.backoff * 2 : first);
      wait = p.backoff;
    } else if (answer.status === 429 || answer.status >= 500 && answer.status !== 503) {
      p.backoff = Math.min(SLOWEST_MS, (p.backoff || p.data.period_ms) * 2);
      wait = p.backoff;
    } else {
      p.backoff = 0;
      // 404: no open class; 503: the store is lost. Either way the page's rerun tells the reader.
      const there = answer.ok ? position(await answer.json()) : `gone:${answer.status}`;
      const sentLately = p.sent === there && performance.now() - p.sentAt < RETRY_MS;
      if (there !== position(p.data.seen) && !sentLately) {
        p.sent = there;
        p.sentAt = performance.now();
        p.setTriggerValue("moved", there);
      } else if (there === position(p.data.seen)) {
        wait = Math.max(0, p.data.period_ms - (performance.now() - began)); // held: ask again at once
      }
    }
  } catch (error) { // offline for a moment (or stopped: then no next ask)
    p.backoff = Math.min(p.data.offline ? p.data.retry_ms[1] : SLOWEST_MS, (p.backoff || p.data.period_ms) * 2);
    wait = p.backoff;
  }
  p.busy = false;
  if (!p.stopped && p.timer === null) p.timer = setTimeout(() => poll(p), wait);
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  let p = pollers.get(parentElement);
  if (!p) {
    p = { timer: null, busy: false, sent: null, sentAt: 0, backoff: 0, abort: null };
    pollers.set(parentElement, p);
    // a hidden tab's timers are slowed to once a minute: when it is shown again, ask at once (and hold)
    p.onVisible = () => { if (!document.hidden && p.timer !== null) { clearTimeout(p.timer); poll(p); } };
    document.addEventListener("visibilitychange", p.onVisible);
  }
  p.data = data;
  p.setTriggerValue = setTriggerValue;
  p.stopped = false;
  if (p.timer === null && !p.busy) p.timer = setTimeout(() => poll(p), 0);
  return () => {
    p.stopped = true;
    clearTimeout(p.timer);
    p.timer = null;
    if (p.abort) p.abort.abort(); // a held request would keep a connection open for nothing
    document.removeEventListener("visibilitychange", p.onVisible);
    pollers.delete(parentElement);
  };
}
