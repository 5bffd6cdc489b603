"""deploy/k8s and deploy/systemd, checked offline: valid against Kubernetes' own schemas, and in agreement with the
app (the health path Streamlit serves, the port, the cookie secret's config variable, the affinity cookie of the
loopback nginx recipe, the one-BLAS-thread setting) and with each other (names, ports and keys they refer to).

There is no cluster here: the schemas are the ones shipped in kubernetes-validate (requirements-test.txt).
"""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from deploy.launcher import ENTRY, TEMPLATE as NGINX_TEMPLATE, streamlit_command
from embedviz.app import serving

ROOT = Path(__file__).resolve().parents[1]
K8S = ROOT / "deploy" / "k8s"
UNIT = ROOT / "deploy" / "systemd" / "embedviz.service"
SECRET = ROOT / "deploy" / "secret.example.yaml"  # outside k8s/: `kubectl apply -f deploy/k8s/` must not apply it
K8S_VERSION = "1.37.0"


def load(name: str | Path) -> dict:
    docs = [d for d in yaml.safe_load_all((K8S / name).read_text()) if d]
    assert len(docs) == 1, f"{name} holds {len(docs)} documents, expected one"
    return docs[0]


def flags(argv: list[str]) -> dict[str, str]:
    """Streamlit's options from a command line, '--a=b' and '--a b' alike: {'server.port': '8501', ...}."""
    out, it = {}, iter(argv)
    for arg in it:
        if arg.startswith("--"):
            key, eq, value = arg[2:].partition("=")
            out[key] = value if eq else next(it)
    return out


def container(deployment: dict) -> dict:
    (c,) = deployment["spec"]["template"]["spec"]["containers"]
    return c


def env(c: dict) -> dict[str, dict]:
    return {e["name"]: e for e in c["env"]}


# schemas


@pytest.mark.parametrize("name", sorted(p.name for p in K8S.glob("*.yaml")) + [str(SECRET)])
def test_manifest_is_valid_for_kubernetes(name):
    """Strict: an unknown field (a typo such as `readinesProbe`) is an error, not silently ignored."""
    import kubernetes_validate

    kubernetes_validate.validate(load(name), K8S_VERSION, strict=True)


def test_the_validator_rejects_a_broken_manifest():
    """The oracle can fail: a misspelt probe and a port given as text are both rejected."""
    import kubernetes_validate

    broken = load("deployment.yaml")
    c = container(broken)
    c["readinesProbe"] = c.pop("readinessProbe")
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, K8S_VERSION, strict=True)
    broken = load("service.yaml")
    broken["spec"]["ports"][0]["port"] = "eighty"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, K8S_VERSION, strict=True)


# the manifests agree with the app


def test_probes_ask_the_health_path_streamlit_serves_on_the_served_port():
    from streamlit.web.server.starlette.starlette_routes import ROUTE_HEALTH

    c = container(load("deployment.yaml"))
    opts = flags(c["command"][3:])
    ports = {p["name"]: p["containerPort"] for p in c["ports"]}
    assert int(opts["server.port"]) == ports["http"]
    for probe in ("readinessProbe", "livenessProbe"):
        get = c[probe]["httpGet"]
        assert get["path"] == "/" + ROUTE_HEALTH, probe
        assert get["port"] in ("http", ports["http"]), probe


def test_container_runs_the_launchers_command_listening_beyond_loopback():
    """Same options as `make run` / the launcher (headless, no file watcher), but on all of the pod's addresses."""
    c = container(load("deployment.yaml"))
    assert c["command"][:3] == ["streamlit", "run", ENTRY]
    mine, launcher = flags(c["command"][3:]), flags(streamlit_command(8501)[5:])
    assert streamlit_command(8501)[3:5] == ["run", ENTRY]
    assert mine.pop("server.address") == "0.0.0.0" and launcher.pop("server.address") == "127.0.0.1"
    assert mine == launcher


def test_every_replica_gets_the_one_cookie_secret_from_the_secret():
    from streamlit import config

    c = container(load("deployment.yaml"))
    secret = load(SECRET)
    name = config._config_options_template["server.cookieSecret"].env_var  # the variable Streamlit reads
    ref = env(c)[name]["valueFrom"]["secretKeyRef"]
    assert ref["name"] == secret["metadata"]["name"]
    assert ref["key"] in secret["stringData"]
    assert secret["stringData"][ref["key"]].startswith("REPLACE"), "the template must not hold a real secret"


def test_one_blas_thread_everywhere_the_app_runs():
    """The thread variables of embedviz/_threads.py, set before Python starts (BLAS reads them once, at load)."""
    from embedviz._threads import THREAD_ENV

    c = container(load("deployment.yaml"))
    assert {name: env(c)[name]["value"] for name in THREAD_ENV} == THREAD_ENV
    unit_env = dict(pair.split("=", 1) for line in unit_entries()["Environment"] for pair in line.split())
    assert {name: unit_env[name] for name in THREAD_ENV} == THREAD_ENV


def test_served_processes_warm_their_caches():
    """The variable embedviz/app/warm.py reads is set where the app is served (not in tests: AppTest runs pages
    in-process and must see their own first runs)."""
    from embedviz.app.warm import ENV

    assert env(container(load("deployment.yaml")))[ENV]["value"] == "1"
    assert f"Environment={ENV}=1" in UNIT.read_text().splitlines()


def test_service_and_ingress_point_at_the_pods_port():
    deployment, service, ingress = load("deployment.yaml"), load("service.yaml"), load("ingress.yaml")
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert deployment["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert service["spec"]["selector"].items() <= labels.items()
    (svc_port,) = service["spec"]["ports"]
    assert svc_port["targetPort"] in [p["name"] for p in container(deployment)["ports"]]
    (rule,) = ingress["spec"]["rules"]
    (path,) = rule["http"]["paths"]
    backend = path["backend"]["service"]
    assert backend["name"] == service["metadata"]["name"]
    assert backend["port"].get("name") == svc_port["name"] or backend["port"].get("number") == svc_port["port"]
    assert path["path"] == "/" and path["pathType"] == "Prefix"  # the websocket /_stcore/stream goes through too


def test_ingress_pins_a_browser_by_cookie_and_keeps_websockets_open():
    notes = load("ingress.yaml")["metadata"]["annotations"]
    prefix = "nginx.ingress.kubernetes.io/"
    assert notes[prefix + "affinity"] == "cookie"  # not the client IP: a classroom behind one NAT shares one
    # the same cookie as the loopback recipe (deploy/nginx.conf.template), so logs and docs speak of one name
    assert f"$cookie_{notes[prefix + 'session-cookie-name']}" in NGINX_TEMPLATE.read_text()
    for timeout in ("proxy-read-timeout", "proxy-send-timeout"):
        assert int(notes[prefix + timeout]) >= 3600, f"{timeout}: a lesson's websocket must stay open"


# systemd


def unit_entries() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            out.setdefault(key, []).append(value)
    return out


def test_systemd_unit_runs_the_launchers_command():
    entries = unit_entries()
    (exec_start,) = entries["ExecStart"]
    argv = exec_start.split()
    workdir = Path(entries["WorkingDirectory"][0])
    assert argv[0] == str(workdir / ".venv" / "bin" / "streamlit")  # the venv `make setup` creates
    assert argv[1:3] == ["run", ENTRY]
    mine, launcher = flags(argv[3:]), flags(streamlit_command(8501)[5:])
    assert mine.pop("server.address") == "0.0.0.0" and launcher.pop("server.address") == "127.0.0.1"
    assert mine == launcher
    assert entries["Restart"] == ["on-failure"]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze not installed (the unit is parsed above)")
def test_systemd_analyze_verifies_the_unit(tmp_path):
    """systemd's own checker, on the unit pointed at this checkout (its /opt/embedviz paths do not exist here)."""
    venv_streamlit = ROOT / ".venv" / "bin" / "streamlit"
    if not venv_streamlit.exists():
        venv_streamlit = Path(shutil.which("streamlit") or "/work/main/.venv/bin/streamlit")
    text = (UNIT.read_text().replace("/opt/embedviz/.venv/bin/streamlit", str(venv_streamlit))
            .replace("/opt/embedviz", str(ROOT)).replace("User=embedviz", "User=root"))
    unit = tmp_path / "embedviz.service"
    unit.write_text(text)
    done = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60)
    problems = [line for line in (done.stdout + done.stderr).splitlines() if "embedviz.service" in line]
    assert done.returncode == 0 and not problems, done.stdout + done.stderr


# hardening


def test_the_placeholder_secret_is_not_in_the_applied_folder():
    kinds = [load(p.name)["kind"] for p in K8S.glob("*.yaml")]
    assert "Secret" not in kinds and load(SECRET)["kind"] == "Secret"


def test_the_pod_runs_unprivileged_with_a_read_only_root():
    deployment = load("deployment.yaml")
    pod = deployment["spec"]["template"]["spec"]
    c = container(deployment)
    assert pod["automountServiceAccountToken"] is False
    assert pod["securityContext"]["runAsNonRoot"] is True and pod["securityContext"]["runAsUser"] != 0
    assert pod["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
    sc = c["securityContext"]
    assert sc["allowPrivilegeEscalation"] is False and sc["readOnlyRootFilesystem"] is True
    assert sc["capabilities"]["drop"] == ["ALL"] and "add" not in sc["capabilities"]
    # what must be written goes to an emptyDir: temp files, and HOME (Streamlit's ~/.streamlit) inside it
    volumes = {v["name"]: v for v in pod["volumes"]}
    mounts = {m["mountPath"]: m["name"] for m in c["volumeMounts"]}
    assert "emptyDir" in volumes[mounts["/tmp"]]
    assert env(c)["HOME"]["value"].startswith("/tmp")


def test_the_image_is_a_fixed_version_never_latest():
    image = container(load("deployment.yaml"))["image"]
    tag = image.rsplit("/", 1)[-1].partition(":")[2]  # registry:port/name:tag -> tag
    assert "@sha256:" in image or tag not in ("", "latest"), image


def test_the_ingress_serves_tls_for_its_host():
    ingress = load("ingress.yaml")
    (tls,) = ingress["spec"]["tls"]
    assert tls["secretName"] and tls["hosts"] == [rule["host"] for rule in ingress["spec"]["rules"]]


def _nginx_headers() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for name, value in re.findall(r'add_header (\S+) ("[^"]*"|\S+) always;', NGINX_TEMPLATE.read_text()):
        found.setdefault(name, []).append(value.strip('"'))
    return found


def test_security_headers_are_the_same_in_the_nginx_recipe_and_the_ingress():
    headers = load("headers.yaml")["data"]
    notes = load("ingress.yaml")["metadata"]["annotations"]
    namespace, _, name = notes["nginx.ingress.kubernetes.io/custom-headers"].partition("/")
    assert name == load("headers.yaml")["metadata"]["name"] and namespace
    csp = dict(part.strip().split(" ", 1) for part in headers["Content-Security-Policy"].split(";"))
    assert csp["frame-ancestors"] == "'none'" and headers["X-Frame-Options"] == "DENY"
    assert csp["img-src"] == csp["connect-src"].replace("'self'", "'self' data: blob:") == "'self' data: blob:"
    assert "*" not in headers["Content-Security-Policy"] and "http" not in headers["Content-Security-Policy"]
    nginx = _nginx_headers()
    locations = len(re.findall(r"^\s*location ", NGINX_TEMPLATE.read_text(), re.M))
    assert locations == 3  # the page, its websocket, the class follow route
    for header, value in headers.items():  # in each location (nginx drops the server's add_header in one of its own)
        assert nginx[header] == [value] * locations, header
    assert headers == serving.HEADERS  # what a bare replica sends (a changed inline script changes its hash)
    hidden = re.findall(r"proxy_hide_header (\S+);", NGINX_TEMPLATE.read_text())
    assert sorted(hidden) == sorted(list(headers) * locations)  # the replica's copies, so a browser gets each once
    follow = load("ingress-follow.yaml")["metadata"]["annotations"]
    assert follow["nginx.ingress.kubernetes.io/custom-headers"] == notes["nginx.ingress.kubernetes.io/custom-headers"]


def test_connections_are_limited_per_client_ip():
    text = NGINX_TEMPLATE.read_text()
    zone = re.search(r"limit_conn_zone \$binary_remote_addr zone=(\w+):", text).group(1)
    per_ip = int(re.search(rf"limit_conn {zone} (\d+);", text).group(1))
    notes = load("ingress.yaml")["metadata"]["annotations"]
    assert int(notes["nginx.ingress.kubernetes.io/limit-connections"]) == per_ip
    assert 60 <= per_ip <= 1_000  # a class behind one NAT still gets in, one client cannot take every worker


def test_a_class_behind_one_nat_can_hold_its_follow_requests_without_taking_the_pages_connections():
    """A following tab holds one request to the follow route until the teacher moves: those count in a zone of their
    own, big enough for a whole class behind one address, and outlast the route's hold."""
    from embedviz import classroom
    from embedviz.app import class_route

    text = NGINX_TEMPLATE.read_text()
    follow = re.search(r"location /api/class/ \{(.*?)\n        \}", text, re.S).group(1)
    zone, per_ip = re.search(r"limit_conn (\w+) (\d+);", follow).groups()
    assert zone != re.search(r"limit_conn (\w+) \d+;", text).group(1)  # not the page's zone
    assert f"zone={zone}:" in text and classroom.MAX_STUDENTS <= int(per_ip) <= 1_000
    assert int(re.search(r"proxy_read_timeout (\d+)s;", follow).group(1)) > class_route.HOLD_SECONDS
    assert class_route.CLASS_ROUTE.startswith("/api/class/")
    ingress = load("ingress-follow.yaml")
    notes = ingress["metadata"]["annotations"]
    assert int(notes["nginx.ingress.kubernetes.io/limit-connections"]) == int(per_ip)
    assert int(notes["nginx.ingress.kubernetes.io/proxy-read-timeout"]) > class_route.HOLD_SECONDS
    assert notes["nginx.ingress.kubernetes.io/affinity"] == "cookie"  # a held request goes to the tab's replica
    (rule,) = ingress["spec"]["rules"]
    assert rule["host"] == load("ingress.yaml")["spec"]["rules"][0]["host"]
    assert [p["path"] for p in rule["http"]["paths"]] == ["/api/class/"]


def test_nginx_workers_never_run_as_root(monkeypatch, tmp_path):
    from deploy import launcher

    monkeypatch.setattr(launcher.os, "geteuid", lambda: 0)
    conf = launcher.render_nginx_conf(tmp_path, listen="127.0.0.1:1", upstreams=["127.0.0.1:2"])
    (user,) = re.findall(r"^user (\S+) \S+;", conf, flags=re.M)
    assert user == launcher.WORKER_USER != "root"
    monkeypatch.setattr(launcher.os, "geteuid", lambda: 1000)
    assert not re.findall(r"^user ", launcher.render_nginx_conf(tmp_path, listen="127.0.0.1:1", upstreams=[]), re.M)


def test_the_service_cannot_write_its_code_and_has_a_memory_ceiling():
    entries = unit_entries()
    assert entries["ProtectSystem"] == ["strict"] and "ReadWritePaths" not in entries  # /opt/embedviz read-only
    assert entries["MemoryMax"] == ["2G"]  # the pod's limit, too
    assert entries["CapabilityBoundingSet"] == [""] and entries["NoNewPrivileges"] == ["true"]
    home = dict(pair.split("=", 1) for line in entries["Environment"] for pair in line.split())["HOME"]
    assert home == "/var/lib/" + entries["StateDirectory"][0]  # a writable home outside the code


def test_the_replicas_share_classes_through_the_clusters_redis_without_persistence():
    """More than one replica: EMBEDVIZ_REDIS_URL names the Redis Service and its port, and that Redis keeps
    nothing on disk (a class is hours of step numbers under random ids; every key has a TTL)."""
    from urllib.parse import urlparse

    from embedviz.classroom import REDIS_URL_ENV

    app = load("deployment.yaml")
    assert app["spec"]["replicas"] > 1
    url = urlparse(env(container(app))[REDIS_URL_ENV]["value"])
    service, store = load("redis-service.yaml"), load("redis-deployment.yaml")
    assert url.scheme == "redis" and url.hostname == service["metadata"]["name"]
    (port,) = service["spec"]["ports"]
    assert url.port == port["port"] and service["spec"].get("type", "ClusterIP") == "ClusterIP"
    assert service["spec"]["selector"].items() <= store["spec"]["template"]["metadata"]["labels"].items()
    redis = container(store)
    assert port["targetPort"] in [p["name"] for p in redis["ports"]]
    args = redis["args"]
    assert args[args.index("--save") + 1] == "" and args[args.index("--appendonly") + 1] == "no"
    assert store["spec"]["replicas"] == 1 and redis["securityContext"]["readOnlyRootFilesystem"] is True
