"""Start embedviz as N identical Streamlit replicas behind nginx (cookie session affinity), all on one machine.

    .venv/bin/python -m deploy.launcher --replicas 3 --port 8080      # then open http://127.0.0.1:8080

(from the repository root; `python deploy/launcher.py` works too once embedviz is installed, as `make setup` does
with `pip install -e .`)

Every replica gets the same ``server.cookieSecret`` (from $EMBEDVIZ_COOKIE_SECRET, else a random one for this
run), runs headless with file watching off, and listens on 127.0.0.1; nginx runs from a temp prefix with a config
generated from ``deploy/nginx.conf.template``, so no root and no system paths are needed. Ctrl-C (or SIGTERM)
stops everything. A replica that dies is restarted (a few times at most). See deploy/README.md.

The helpers (free_port, start_streamlit, wait_healthy, stop_process, rss_bytes, Cluster) are also what the
browser tests (tests/e2e) and the classroom benchmark use to run servers.
"""
from __future__ import annotations

import argparse
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from embedviz._threads import thread_env

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = Path(__file__).with_name("nginx.conf.template")
COOKIE_SECRET_ENV = "EMBEDVIZ_COOKIE_SECRET"
LOOPBACK = "127.0.0.1"
MAX_RESTARTS = 5
WORKER_USER = "nobody"  # nginx's workers when the launcher runs as root
# What every server runs: app.py's pages with the response headers and start-up patches of embedviz/app/serving.py.
ENTRY = "serve.py"


# helper functions


def free_port(host: str = LOOPBACK) -> int:
    """A TCP port nobody listens on right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def find_nginx() -> str | None:
    """Debian installs nginx in /usr/sbin, which is not on every user's PATH."""
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(p, os.X_OK)), None)


def streamlit_command(port: int, *, address: str = LOOPBACK, python: str = sys.executable) -> list[str]:
    """The `make run` command line, on a given port; file watching off (a server does not reload its source)."""
    return [
        python, "-m", "streamlit", "run", ENTRY,
        "--server.headless", "true",
        "--server.address", address,
        "--server.port", str(port),
        "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none",
    ]


def start_streamlit(
    port: int, *, address: str = LOOPBACK, cookie_secret: str | None = None, log_path: Path | None = None,
    root: Path = ROOT, nofile: int | None = None, env: dict[str, str] | None = None,
) -> subprocess.Popen:
    """Start one app server in the background; its output goes to ``log_path`` (or is discarded). ``nofile`` starts
    it with that many open files at most (``ulimit -n``, as a systemd unit without LimitNOFILE runs it); ``env`` adds
    to its environment."""
    extra = env or {}
    env = thread_env()  # the replica loads numpy and torch already capped at one thread (embedviz/_threads.py)
    env.setdefault("EMBEDVIZ_WARM", "1")  # a served process warms its slow caches in the background (embedviz/app/warm.py)
    env.update(extra)
    if cookie_secret:
        env["STREAMLIT_SERVER_COOKIE_SECRET"] = cookie_secret  # env, not argv: `ps` shows argv to every user
    out = open(log_path, "ab") if log_path else subprocess.DEVNULL

    def limit_files() -> None:  # in the child, before it runs Python
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

    # another checkout runs with its own venv, so its code (not this one's editable install) is what serves
    own = root / ".venv" / "bin" / "python"
    python = str(own) if root.resolve() != ROOT and own.exists() else sys.executable
    try:
        return subprocess.Popen(
            streamlit_command(port, address=address, python=python), cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, preexec_fn=limit_files if nofile else None,
        )
    finally:
        if log_path:
            out.close()


def wait_healthy(url: str, *, timeout: float = 60.0, proc: subprocess.Popen | None = None, log_path: Path | None = None) -> None:
    """Poll ``url`` until it answers 200; fail early (with the log's tail) if ``proc`` exits first."""
    deadline = time.monotonic() + timeout
    while True:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"server exited with code {proc.returncode} before {url} answered{_tail(log_path)}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"{url} did not answer within {timeout:.0f} s{_tail(log_path)}")
        time.sleep(0.2)


def _tail(log_path: Path | None, n: int = 2_000) -> str:
    if not log_path or not Path(log_path).exists():
        return ""
    return "\n--- log tail ---\n" + Path(log_path).read_text(errors="replace")[-n:]


def stop_process(proc: subprocess.Popen | None, *, timeout: float = 10.0) -> None:
    """Terminate, wait, and kill if it does not go; a no-op for a process that already exited."""
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=timeout)


@contextmanager
def serving(log_path: Path, *, timeout: float = 120.0, nofile: int | None = None,
            env: dict[str, str] | None = None, root: Path = ROOT) -> Iterator[str]:
    """One app server on a free loopback port, healthy, for the length of a ``with`` block: yields its URL and
    stops it by pid afterwards (the tests' and benchmarks' single-server harness). ``nofile``, ``env`` and ``root``
    (the checkout it serves) as for ``start_streamlit``."""
    with serving_process(log_path, timeout=timeout, nofile=nofile, env=env, root=root) as (url, _):
        yield url


@contextmanager
def serving_process(log_path: Path, *, timeout: float = 120.0, nofile: int | None = None,
                    env: dict[str, str] | None = None, root: Path = ROOT) -> Iterator[tuple[str, subprocess.Popen]]:
    """``serving``, yielding the server's process too (its CPU time, its open files)."""
    port = free_port()
    proc = start_streamlit(port, log_path=log_path, nofile=nofile, env=env, root=root)
    try:
        url = f"http://{LOOPBACK}:{port}"
        wait_healthy(f"{url}/_stcore/health", timeout=timeout, proc=proc, log_path=log_path)
        yield url, proc
    finally:
        stop_process(proc)


def cpu_seconds(pid: int) -> float:
    """User + system CPU a process has used so far (from /proc; 0 if it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_bytes(pid: int) -> int:
    """Resident memory of a process now (VmRSS from /proc; 0 if it is gone)."""
    return _proc_status_kb(pid, "VmRSS") * 1024


def peak_rss_bytes(pid: int) -> int:
    """Peak resident memory of a process so far (VmHWM from /proc; 0 if it is gone)."""
    return _proc_status_kb(pid, "VmHWM") * 1024


def _proc_status_kb(pid: int | str, field_name: str) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field_name + ":"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _group_of(user: str) -> str:
    """The user's own group by name (nginx assumes a group named like the user: Debian's nobody is in nogroup)."""
    import grp
    import pwd

    return grp.getgrgid(pwd.getpwnam(user).pw_gid).gr_name


def render_nginx_conf(prefix: Path, *, listen: str, upstreams: list[str], template: Path = TEMPLATE,
                      temp: Path | None = None, worker_user: bool = True) -> str:
    """The nginx config for ``upstreams`` (host:port each) with pid/logs under ``prefix``, temp files in ``temp``
    (default ``prefix/tmp``). ``worker_user=False`` names no worker user (an nginx that never runs as root: the
    systemd recipe's, whatever user renders its config)."""
    servers = "\n".join(f"        server {u} max_fails=1 fail_timeout=10s;" for u in upstreams)
    # Started by root, nginx would run its workers as root if told so; they run as an unprivileged user instead,
    # and Cluster.start gives that user a temp directory of its own (a large response, plotly's 4 MB chunk, is
    # buffered there; unwritable, it arrives truncated). Started by anyone else, the workers are that user.
    user = f"user {WORKER_USER} {_group_of(WORKER_USER)};" if os.geteuid() == 0 and worker_user else ""
    return (
        template.read_text()
        .replace("{{user}}", user)
        .replace("{{temp}}", str(temp or prefix / "tmp"))
        .replace("{{prefix}}", str(prefix))
        .replace("{{listen}}", listen)
        .replace("{{servers}}", servers)
    )


# the cluster


@dataclass
class Replica:
    port: int
    log_path: Path
    proc: subprocess.Popen | None = None
    restarts: int = 0

    @property
    def address(self) -> str:
        return f"{LOOPBACK}:{self.port}"


@dataclass
class Cluster:
    """N replicas of the app + nginx in front, all in a temp prefix. Use as a context manager.

    ``ports`` are the replicas' ports (free ones when omitted); nginx listens on ``host:port``.
    """

    replicas: int = 2
    port: int = 0
    host: str = LOOPBACK
    ports: list[int] | None = None
    cookie_secret: str | None = None
    prefix: Path | None = None
    temp: Path | None = None  # nginx's temp files (set by start)
    health_timeout: float = 120.0
    nodes: list[Replica] = field(default_factory=list)
    nginx: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def access_log(self) -> Path:
        return self.prefix / "logs" / "access.log"

    def start(self) -> Cluster:
        nginx = find_nginx()
        if nginx is None:
            raise RuntimeError("nginx not found: install it with `apt-get install nginx` (Debian/Ubuntu)")
        self.prefix = Path(self.prefix or tempfile.mkdtemp(prefix="embedviz-nginx-"))
        for sub in ("logs", "tmp"):
            (self.prefix / sub).mkdir(parents=True, exist_ok=True)
        self.temp = self.prefix / "tmp"
        if os.geteuid() == 0:  # root's workers are WORKER_USER (render_nginx_conf): they must write temp files
            import pwd

            # in /tmp itself: the prefix may sit in a directory only root may enter (pytest's tmp_path does)
            worker = pwd.getpwnam(WORKER_USER)
            self.temp = Path(tempfile.mkdtemp(prefix="embedviz-nginx-temp-"))
            os.chown(self.temp, worker.pw_uid, worker.pw_gid)
        self.cookie_secret = self.cookie_secret or os.environ.get(COOKIE_SECRET_ENV) or secrets.token_hex(32)
        self.port = self.port or free_port(self.host)
        ports = self.ports or [free_port() for _ in range(self.replicas)]
        self.nodes = [Replica(p, self.prefix / "logs" / f"replica-{p}.log") for p in ports]
        try:
            for node in self.nodes:  # start all, then wait: the replicas import torch in parallel
                self._spawn(node)
            for node in self.nodes:
                wait_healthy(f"http://{node.address}/_stcore/health", timeout=self.health_timeout, proc=node.proc, log_path=node.log_path)
            conf = self.prefix / "nginx.conf"
            conf.write_text(render_nginx_conf(self.prefix, listen=f"{self.host}:{self.port}", upstreams=[n.address for n in self.nodes],
                                              temp=self.temp))
            check = subprocess.run([nginx, "-t", "-q", "-p", str(self.prefix), "-c", str(conf)], capture_output=True, text=True)
            if check.returncode != 0:
                raise RuntimeError(f"nginx rejected {conf}: {check.stderr.strip()}")
            # -g "daemon off;": nginx stays our child, so stopping it is stopping a pid we own.
            self.nginx = subprocess.Popen(
                [nginx, "-p", str(self.prefix), "-c", str(conf), "-g", "daemon off;"],
                stdout=subprocess.DEVNULL, stderr=open(self.prefix / "logs" / "nginx.stderr", "ab"), stdin=subprocess.DEVNULL,
            )
            wait_healthy(f"{self.url}/_stcore/health", timeout=30, proc=self.nginx, log_path=self.prefix / "logs" / "error.log")
        except BaseException:
            self.stop()
            raise
        return self

    def _spawn(self, node: Replica) -> None:
        node.proc = start_streamlit(node.port, cookie_secret=self.cookie_secret, log_path=node.log_path)

    def stop_replica(self, index: int) -> None:
        stop_process(self.nodes[index].proc)

    def restart_dead(self) -> list[Replica]:
        """Restart replicas that exited (at most MAX_RESTARTS each); returns the ones restarted."""
        restarted = []
        for node in self.nodes:
            if node.proc is not None and node.proc.poll() is not None and node.restarts < MAX_RESTARTS:
                node.restarts += 1
                self._spawn(node)
                restarted.append(node)
        return restarted

    def stop(self) -> None:
        stop_process(self.nginx)
        if self.temp is not None and self.prefix is not None and self.temp.parent != self.prefix:
            shutil.rmtree(self.temp, ignore_errors=True)  # the workers' own temp directory, made by start
        for node in self.nodes:
            stop_process(node.proc)

    def __enter__(self) -> Cluster:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


# command line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replicas", type=int, default=2, help="number of app servers (default 2; about one per core)")
    parser.add_argument("--port", type=int, default=8080, help="port nginx listens on (default 8080)")
    parser.add_argument("--host", default=LOOPBACK, help="address nginx listens on (default 127.0.0.1; 0.0.0.0 for a LAN)")
    parser.add_argument("--replica-ports", type=int, nargs="*", help="ports of the replicas (default: free ports)")
    parser.add_argument("--prefix", type=Path, help="directory for nginx.conf, pid and logs (default: a new temp dir)")
    parser.add_argument("--render-nginx", type=Path, metavar="PATH",
                        help="only write the nginx config for --upstream to PATH and exit (the systemd recipe's nginx)")
    parser.add_argument("--upstream", nargs="*", default=[], help="host:port of running servers (with --render-nginx)")
    parser.add_argument("--listen", default="0.0.0.0:80", help="address nginx listens on (with --render-nginx)")
    args = parser.parse_args(argv)
    if args.render_nginx:
        if not args.upstream or not args.prefix:
            parser.error("--render-nginx needs --upstream and --prefix")
        args.render_nginx.parent.mkdir(parents=True, exist_ok=True)
        args.render_nginx.write_text(render_nginx_conf(args.prefix, listen=args.listen, upstreams=args.upstream,
                                                       worker_user=False))
        return 0
    if args.replica_ports and len(args.replica_ports) != args.replicas:
        parser.error(f"--replica-ports has {len(args.replica_ports)} ports for --replicas {args.replicas}")

    stopping = False

    def _stop(signum, frame):
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    cluster = Cluster(replicas=args.replicas, port=args.port, host=args.host, ports=args.replica_ports, prefix=args.prefix)
    cluster.start()
    try:
        print(f"embedviz: {args.replicas} replicas ({', '.join(n.address for n in cluster.nodes)}) behind {cluster.url}")
        print(f"config and logs in {cluster.prefix}; Ctrl-C stops everything", flush=True)
        while not stopping:
            if cluster.nginx.poll() is not None:
                print(f"nginx exited with code {cluster.nginx.returncode}; see {cluster.prefix}/logs/error.log", file=sys.stderr)
                return 1
            for node in cluster.restart_dead():
                print(f"replica {node.address} exited; restarted ({node.restarts}/{MAX_RESTARTS})", file=sys.stderr, flush=True)
            time.sleep(1.0)
    finally:
        cluster.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
