"""What one hostile link or client can cost the server: a Train press, a cache filled by seeds, huge websocket
messages, clear_cache requests.

Each probe runs in its own process (its peak RSS is its own) or against a real server on loopback:

- Train press: Trained embedding's "Your own text" with 2,000 distinct characters, d_model 256, 2,000 steps,
  context 8: the link's open (within the budget), then the "train every step" button. CPU seconds of the process
  and its RSS growth (peak) over the press.
- Cache over 26 seeds: the same link opened with seeds 0..25 (each trains within the budget and is cached): RSS
  growth of the process after the 26th open over the first.
- 10 x 190 MB messages: ten clients at once each start a 190 MB websocket message (the header, then the payload
  in 1 MB chunks): the server's peak RSS.
- Uploads under made-up file ids: one session PUTs five 150 MB files, each under an id the server never issued:
  the server's RSS growth once they are sent (the files stayed in the session while its socket was open).
- clear_cache: Trained embedding opened, a clear_cache BackMsg sent, the page opened again: the second open's time
  (a cleared cache retrains the default run) against a plain reopen.

``python -m benchmarks.bench_hostile [train|seeds|messages|uploads|clear]`` runs one probe; main() runs all.
"""
from __future__ import annotations

import json
import resource
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path
from embedviz.lessons.widget_keys import Training as K

ROOT = Path(__file__).resolve().parents[1]

CJK = "".join(chr(0x4E00 + i) for i in range(2_000))  # 2,000 distinct characters (the text field's max_chars)
HEAVY = {K.STEPS: "2000", K.D_MODEL: "256", K.CONTEXT: "8", K.TEXT: CJK}
MESSAGE_BYTES = 190_000_000
CLIENTS = 10


def _rss_mb() -> float:
    return int(Path("/proc/self/statm").read_text().split()[1]) * resource.getpagesize() / 1e6


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3


def _heavy_page(**extra):
    from embedviz.app.i18n import catalog
    from tests.app import pagetest as pt

    return pt.page("trained_embedding", timeout=600, **{K.TAB: catalog()["train.tab_text"]["en"]}, **{**HEAVY, **extra})


def probe_train() -> dict:
    from embedviz._threads import limit_threads

    limit_threads()
    _heavy_page(**{K.STEPS: "10", K.D_MODEL: "2"}).run()  # imports and first allocations: not the link's cost
    at = _heavy_page()
    cpu0 = time.process_time()
    at.run()
    open_cpu = time.process_time() - cpu0
    [button] = [b for b in at.button if b.key and b.key.startswith("tr_finish")]
    rss0, peak0 = _rss_mb(), _peak_mb()
    cpu0 = time.process_time()
    button.click().run()
    press_cpu = time.process_time() - cpu0
    assert not at.exception, at.exception
    return {"open_cpu_s": open_cpu, "press_cpu_s": press_cpu, "press_peak_growth_mb": max(0.0, _peak_mb() - rss0),
            "peak_before_press_mb": peak0, "peak_mb": _peak_mb()}


def probe_seeds(n: int = 26) -> dict:
    from embedviz._threads import limit_threads

    limit_threads()
    cpu, after_first = [], None
    for seed in range(n):
        at = _heavy_page(**{K.SEED: str(seed)})
        cpu0 = time.process_time()
        at.run()
        cpu.append(time.process_time() - cpu0)
        assert not at.exception, at.exception
        del at
        if seed == 0:
            after_first = _rss_mb()
    return {"growth_mb": _rss_mb() - after_first, "open_cpu_median_s": sorted(cpu)[n // 2],
            "open_cpu_max_s": max(cpu)}


def _server():
    from deploy.launcher import free_port, start_streamlit, wait_healthy

    port = free_port()
    log = Path("/tmp") / f"bench_hostile_{port}.log"
    proc = start_streamlit(port, log_path=log)
    wait_healthy(f"http://127.0.0.1:{port}/_stcore/health", timeout=120, proc=proc, log_path=log)
    return proc, port


def _big_message(port: int, closed: list) -> None:
    """Start one masked binary frame of MESSAGE_BYTES on a websocket and stream its payload until refused."""
    import websocket

    ws = websocket.create_connection(f"ws://127.0.0.1:{port}/_stcore/stream", subprotocols=["streamlit"], timeout=30)
    sock = ws.sock
    header = bytes([0x82, 0x80 | 127]) + struct.pack(">Q", MESSAGE_BYTES) + b"\0\0\0\0"  # mask key 0: payload as is
    chunk = bytes(1_000_000)
    sent = 0
    try:
        sock.sendall(header)
        while sent < MESSAGE_BYTES:
            sock.sendall(chunk[: min(len(chunk), MESSAGE_BYTES - sent)])
            sent += len(chunk)
        closed.append(("accepted", sent))
    except OSError:
        closed.append(("refused", sent))
    finally:
        try:
            sock.close()
        except OSError:
            pass


def probe_messages() -> dict:
    from deploy.launcher import rss_bytes, stop_process

    proc, port = _server()
    try:
        base = rss_bytes(proc.pid) / 1e6
        results: list = []
        threads = [threading.Thread(target=_big_message, args=(port, results)) for _ in range(CLIENTS)]
        peak = base
        for th in threads:
            th.start()
        while any(th.is_alive() for th in threads):
            peak = max(peak, rss_bytes(proc.pid) / 1e6)
            time.sleep(0.05)
        alive = proc.poll() is None
        return {"server_base_mb": base, "server_peak_mb": peak, "refused": sum(r == "refused" for r, _ in results),
                "max_sent_mb": max(s for _, s in results) / 1e6, "server_alive": alive}
    finally:
        stop_process(proc)


def probe_uploads(files: int = 5, size: int = 150_000_000) -> dict:
    import uuid

    import requests
    from deploy.launcher import rss_bytes, stop_process
    from benchmarks.load.stclient import StreamlitSession

    proc, port = _server()
    try:
        url = f"http://127.0.0.1:{port}"
        s = StreamlitSession(url, timeout=120)
        s.open("home")
        http = requests.Session()
        http.get(url + "/_stcore/health", timeout=30)  # the XSRF cookie
        token = http.cookies.get("_streamlit_xsrf", "")
        base = rss_bytes(proc.pid) / 1e6
        body = bytes(size)
        statuses = [http.put(f"{url}/_stcore/upload_file/{s.session_id}/{uuid.uuid4()}",
                             headers={"X-Xsrftoken": token}, files={"file": ("t.npy", body)}, timeout=300).status_code
                    for _ in range(files)]
        del body
        time.sleep(1.0)
        grown = rss_bytes(proc.pid) / 1e6 - base
        s.close()
        return {"growth_mb": grown, "statuses": statuses}
    finally:
        stop_process(proc)


def probe_clear() -> dict:
    from deploy.launcher import stop_process
    from benchmarks.load.stclient import StreamlitSession
    from streamlit.proto.BackMsg_pb2 import BackMsg

    proc, port = _server()
    try:
        url = f"http://127.0.0.1:{port}"
        s = StreamlitSession(url, timeout=120)
        s.open("trained-embedding")  # the default run trained and cached
        plain = min(s.open("trained-embedding").seconds for _ in range(3))
        after = []
        for _ in range(3):
            s.ws.send_binary(BackMsg(clear_cache=True).SerializeToString())
            time.sleep(0.2)
            after.append(s.open("trained-embedding").seconds)
        s.close()
        return {"reopen_s": plain, "reopen_after_clear_cache_s": min(after)}
    finally:
        stop_process(proc)


PROBES = {"train": probe_train, "seeds": probe_seeds, "messages": probe_messages, "uploads": probe_uploads,
          "clear": probe_clear}


def _in_subprocess(name: str) -> dict:
    out = subprocess.run([sys.executable, "-m", "benchmarks.bench_hostile", name], cwd=ROOT, capture_output=True,
                         text=True, timeout=1_800, env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    if out.returncode:
        raise RuntimeError(f"probe {name} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    rows = []
    train = _in_subprocess("train")
    rows += [("Train press: CPU (s)", f"{train['press_cpu_s']:.1f}"),
             ("Train press: RSS growth, peak (MB)", f"{train['press_peak_growth_mb']:.0f}"),
             ("Train press: process peak RSS (MB)", f"{train['peak_mb']:.0f}"),
             ("its link's open: CPU (s)", f"{train['open_cpu_s']:.1f}")]
    seeds = _in_subprocess("seeds")
    rows += [("26 seeds of that link: RSS growth (MB)", f"{seeds['growth_mb']:.0f}"),
             ("  an open's CPU, median / max (s)", f"{seeds['open_cpu_median_s']:.1f} / {seeds['open_cpu_max_s']:.1f}")]
    msgs = probe_messages()
    rows += [(f"{CLIENTS} x 190 MB messages: server peak RSS (MB)",
              f"{msgs['server_peak_mb']:.0f} (base {msgs['server_base_mb']:.0f}; {msgs['refused']} refused after "
              f"<= {msgs['max_sent_mb']:.0f} MB)")]
    uploads = probe_uploads()
    rows += [("5 x 150 MB uploads under made-up ids: server RSS growth (MB)",
              f"{uploads['growth_mb']:.0f} (answers {sorted(set(uploads['statuses']))})")]
    clear = probe_clear()
    rows += [("Trained embedding reopen (s)", f"{clear['reopen_s']:.2f}"),
             ("  after a clear_cache request (s)", f"{clear['reopen_after_clear_cache_s']:.2f}")]
    print("| probe | value |\n|---|---|")
    for name, value in rows:
        print(f"| {name} | {value} |")


if __name__ == "__main__":
    if len(sys.argv) > 1:
        print(json.dumps(PROBES[sys.argv[1]]()))
    else:
        main()
