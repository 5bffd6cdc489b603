"""deploy/k8s and deploy/systemd, checked offline: valid against Kubernetes' own schemas, and in agreement with the
app (the health path Streamlit serves, the port, the cookie secret's config variable, the affinity cookie of the
loopback nginx recipe, the one-BLAS-thread setting) and with each other (names, ports and keys they refer to).

There is no cluster here: the schemas are the ones shipped in kubernetes-validate (requirements-test.txt).
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import time
from pathlib import Path

import pytest
import yaml

from deploy.launcher import ENTRY, TEMPLATE as NGINX_TEMPLATE, streamlit_command
from embedviz.app import serving

ROOT = Path(__file__).resolve().parents[1]
K8S = ROOT / "deploy" / "k8s"
UNIT = ROOT / "deploy" / "systemd" / "embedviz.service"
SECRET = ROOT / "deploy" / "secret.example.yaml"  # outside k8s/: `kubectl apply -f deploy/k8s/` must not apply it
REDIS_SECRET = ROOT / "deploy" / "redis-secret.example.yaml"
NGINX_UNIT = ROOT / "deploy" / "systemd" / "embedviz-nginx.service"
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


@pytest.mark.parametrize("name", sorted(p.name for p in K8S.glob("*.yaml")) + [str(SECRET), str(REDIS_SECRET)])
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


def unit_entries(unit: Path = UNIT) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in unit.read_text().splitlines():
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
    assert mine == launcher  # on loopback too: embedviz-nginx.service faces the network
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
    (tmp_path / NGINX_UNIT.name).write_text(NGINX_UNIT.read_text())
    for name in (unit.name, NGINX_UNIT.name):
        done = subprocess.run(["systemd-analyze", "verify", str(tmp_path / name)], capture_output=True, text=True, timeout=60)
        problems = [line for line in (done.stdout + done.stderr).splitlines() if name in line]
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


def test_security_headers_are_the_replicas_own_in_every_nginx_location():
    """nginx sends the replicas' headers (embedviz/app/serving.py) in each location, on its own refusals too, in place
    of the replica's copies; the Ingresses leave them to the replicas and name no ConfigMap in a fixed namespace."""
    headers = serving.HEADERS
    csp = dict(part.strip().split(" ", 1) for part in headers["Content-Security-Policy"].split(";"))
    assert csp["frame-ancestors"] == "'none'" and headers["X-Frame-Options"] == "DENY"
    assert csp["img-src"] == csp["connect-src"].replace("'self'", "'self' data: blob:") == "'self' data: blob:"
    assert "*" not in headers["Content-Security-Policy"] and "http" not in headers["Content-Security-Policy"]
    nginx = _nginx_headers()
    locations = len(re.findall(r"^\s*location ", NGINX_TEMPLATE.read_text(), re.M))
    assert locations == 3  # the page, its websocket, the class follow route
    for header, value in headers.items():  # in each location (nginx drops the server's add_header in one of its own)
        assert nginx[header] == [value] * locations, header
    hidden = re.findall(r"proxy_hide_header (\S+);", NGINX_TEMPLATE.read_text())
    assert sorted(hidden) == sorted(list(headers) * locations)  # the replica's copies, so a browser gets each once
    for name in ("ingress.yaml", "ingress-follow.yaml"):
        notes = load(name)["metadata"]["annotations"]
        assert "nginx.ingress.kubernetes.io/custom-headers" not in notes, name
        assert not [v for v in notes.values() if str(v).startswith("default/")], name


def test_connections_are_limited_per_client_ip():
    text = NGINX_TEMPLATE.read_text()
    zone = re.search(r"limit_conn_zone \$binary_remote_addr zone=(\w+):", text).group(1)
    per_ip = int(re.search(rf"limit_conn {zone} (\d+);", text).group(1))
    notes = load("ingress.yaml")["metadata"]["annotations"]
    assert int(notes["nginx.ingress.kubernetes.io/limit-connections"]) == per_ip
    assert 60 <= per_ip <= 1_000  # a class behind one NAT still gets in, one client cannot take every worker
    # one address's page and follow connections together stay well under what a replica keeps open with a default
    # 1,024-file limit (embedviz/app/connections.py), so one client behind nginx cannot fill a replica
    from embedviz.app.connections import connection_cap

    follow = int(re.search(r"limit_conn embedviz_follow_per_ip (\d+);", text).group(1))
    assert per_ip + follow <= 0.6 * connection_cap(1024), (per_ip, follow, connection_cap(1024))


def test_a_class_behind_one_nat_can_hold_its_follow_requests_without_taking_the_pages_connections():
    """A following tab holds one request to the follow route until the teacher moves: those count in a zone of their
    own, big enough for a whole class behind one address, and outlast the route's hold."""
    from embedviz.classroom import limits
    from embedviz.app import classroom_route

    text = NGINX_TEMPLATE.read_text()
    follow = re.search(r"location /api/class/ \{(.*?)\n        \}", text, re.S).group(1)
    zone, per_ip = re.search(r"limit_conn (\w+) (\d+);", follow).groups()
    assert zone != re.search(r"limit_conn (\w+) \d+;", text).group(1)  # not the page's zone
    assert f"zone={zone}:" in text and limits.MAX_STUDENTS <= int(per_ip) <= 1_000
    assert classroom_route.MAX_HELD <= classroom_route.max_held() and classroom_route.max_held() <= 2_000
    assert int(re.search(r"proxy_read_timeout (\d+)s;", follow).group(1)) > classroom_route.HOLD_SECONDS
    assert classroom_route.CLASS_ROUTE.startswith("/api/class/")
    ingress = load("ingress-follow.yaml")
    notes = ingress["metadata"]["annotations"]
    assert int(notes["nginx.ingress.kubernetes.io/limit-connections"]) == int(per_ip)
    assert int(notes["nginx.ingress.kubernetes.io/proxy-read-timeout"]) > classroom_route.HOLD_SECONDS
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

    from embedviz.classroom.store import REDIS_URL_ENV

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
    (script,) = redis["args"]
    argv = shlex.split(script.split("exec ", 1)[1])
    assert argv[argv.index("--save") + 1] == "" and argv[argv.index("--appendonly") + 1] == "no"
    assert store["spec"]["replicas"] == 1 and redis["securityContext"]["readOnlyRootFilesystem"] is True


# the store's password, the network policies, disruptions, probes


def _secret_ref(c: dict, name: str) -> tuple[str, str]:
    ref = env(c)[name]["valueFrom"]["secretKeyRef"]
    return ref["name"], ref["key"]


def test_redis_asks_a_password_from_the_secret_and_the_app_reads_its_url_with_it():
    """Before: `--protected-mode no` and no password, so any pod could list every join code and take over a class."""
    from urllib.parse import urlparse

    from embedviz.classroom.store import REDIS_URL_ENV

    secret = load(REDIS_SECRET)
    redis, app = container(load("redis-deployment.yaml")), container(load("deployment.yaml"))
    assert _secret_ref(redis, "REDIS_PASSWORD") == _secret_ref(app, "REDIS_PASSWORD") == (secret["metadata"]["name"], "password")
    assert secret["stringData"]["password"].startswith("REPLACE"), "the template must not hold a real secret"
    (script,) = redis["args"]
    assert "requirepass" in script and '"$REDIS_PASSWORD"' in script and "protected-mode" not in script
    assert "$REDIS_PASSWORD" not in script.split("exec ", 1)[1]  # not on redis-server's command line
    names = [e["name"] for e in app["env"]]
    url = urlparse(env(app)[REDIS_URL_ENV]["value"])
    assert url.password == "$(REDIS_PASSWORD)" and names.index("REDIS_PASSWORD") < names.index(REDIS_URL_ENV)
    probe = redis["livenessProbe"]["exec"]["command"]
    assert "ping" in probe[-1] and "REDISCLI_AUTH" in probe[-1] and "-a " not in probe[-1]


def _policy(name: str) -> dict:
    policy = load(name)
    assert policy["kind"] == "NetworkPolicy" and set(policy["spec"]["policyTypes"]) == {"Ingress", "Egress"}
    return policy["spec"]


def test_only_the_apps_pods_reach_redis_and_the_app_reaches_only_redis_and_dns():
    app_labels = load("deployment.yaml")["spec"]["template"]["metadata"]["labels"]
    store_labels = load("redis-deployment.yaml")["spec"]["template"]["metadata"]["labels"]
    redis_port = load("redis-service.yaml")["spec"]["ports"][0]["port"]
    store = _policy("networkpolicy-redis.yaml")
    assert store["podSelector"]["matchLabels"].items() <= store_labels.items()
    (rule,) = store["ingress"]
    (peer,) = rule["from"]
    assert set(peer) == {"podSelector"} and peer["podSelector"]["matchLabels"].items() <= app_labels.items()
    assert [p["port"] for p in rule["ports"]] == [redis_port] and store["egress"] == []
    app = _policy("networkpolicy-app.yaml")
    assert app["podSelector"]["matchLabels"].items() <= app_labels.items()
    (rule,) = app["ingress"]
    ports = {p["name"]: p["containerPort"] for p in container(load("deployment.yaml"))["ports"]}
    assert [p["port"] for p in rule["ports"]] == [ports["http"]] and "namespaceSelector" in rule["from"][0]
    to_store, to_dns = app["egress"]
    assert to_store["to"][0]["podSelector"]["matchLabels"].items() <= store_labels.items()
    assert [p["port"] for p in to_store["ports"]] == [redis_port]
    assert {p["port"] for p in to_dns["ports"]} == {53} and len(app["egress"]) == 2  # nothing else, no internet
    # behind the policy every peer is the Ingress controller: uvicorn may take X-Forwarded-For from it
    assert env(container(load("deployment.yaml")))["FORWARDED_ALLOW_IPS"]["value"] == "*"


def test_a_drain_keeps_a_replica_serving_and_replicas_spread_over_nodes():
    deployment, budget = load("deployment.yaml"), load("pdb.yaml")
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert budget["kind"] == "PodDisruptionBudget"
    assert budget["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert budget["spec"]["maxUnavailable"] < deployment["spec"]["replicas"]
    (spread,) = deployment["spec"]["template"]["spec"]["topologySpreadConstraints"]
    assert spread["topologyKey"] == "kubernetes.io/hostname" and spread["labelSelector"]["matchLabels"].items() <= labels.items()


def test_a_cold_pod_has_a_startup_probe_before_liveness_counts():
    from streamlit.web.server.starlette.starlette_routes import ROUTE_HEALTH

    c = container(load("deployment.yaml"))
    start = c["startupProbe"]
    assert start["httpGet"]["path"] == "/" + ROUTE_HEALTH
    assert start["periodSeconds"] * start["failureThreshold"] >= 60  # torch's import on a small node
    assert "initialDelaySeconds" not in c["livenessProbe"]  # the startup probe holds it back instead


# the request rate per client, the same numbers everywhere


def _limit_req(text: str) -> tuple[float, int]:
    rate = float(re.search(r"limit_req_zone \$binary_remote_addr zone=(\w+):\S+ rate=(\d+)r/s;", text).group(2))
    bursts = {int(b) for b in re.findall(r"limit_req zone=\w+ burst=(\d+) nodelay;", text)}
    assert len(bursts) == 1, bursts
    return rate, bursts.pop()


def test_every_recipe_limits_requests_per_client_with_the_servers_own_numbers():
    """nginx (both locations a page and a follower use), both Ingresses and a bare server: RATE per second, BURST at
    once; the burst holds a class of 60 behind one address opening a page cold."""
    from embedviz.app import request_limit

    text = NGINX_TEMPLATE.read_text()
    assert _limit_req(text) == (request_limit.RATE, request_limit.BURST)
    for location in ("location / {", "location /api/class/ {"):
        block = text.split(location, 1)[1].split("\n        }", 1)[0]
        assert "limit_req zone=" in block, location
    assert "limit_req" not in text.split("location /_stcore/stream {", 1)[1].split("\n        }", 1)[0]
    for name in ("ingress.yaml", "ingress-follow.yaml"):
        notes = load(name)["metadata"]["annotations"]
        rps = int(notes["nginx.ingress.kubernetes.io/limit-rps"])
        burst = rps * int(notes["nginx.ingress.kubernetes.io/limit-burst-multiplier"])
        assert (rps, burst) == (request_limit.RATE, request_limit.BURST), name
    assert request_limit.BURST >= 60 * request_limit.COLD_OPEN_REQUESTS


def test_nginx_hides_its_version_and_times_out_a_slow_request_head():
    text = NGINX_TEMPLATE.read_text()
    assert re.search(r"^\s*server_tokens off;", text, re.M)
    assert int(re.search(r"client_header_timeout (\d+)s;", text).group(1)) <= 30
    assert re.search(r"^\s*gzip on;", text, re.M) and "application/javascript" in re.search(r"gzip_types ([^;]+);", text).group(1)


def test_the_unit_is_hardened_and_has_files_for_its_connections():
    from embedviz.app import classroom_route
    from embedviz.app.connections import connection_cap

    entries = unit_entries()
    for key, value in {"ProtectKernelLogs": "true", "ProtectClock": "true", "ProtectHostname": "true",
                       "ProtectProc": "invisible", "RestrictNamespaces": "true", "RestrictRealtime": "true",
                       "UMask": "0077"}.items():
        assert entries.get(key) == [value], key
    assert "@system-service" in entries["SystemCallFilter"]
    files = int(entries["LimitNOFILE"][0])
    assert connection_cap(files) // 2 >= 2_000  # the 2,000 held follow requests fit (under 1,024 files: 448)
    assert classroom_route.max_held() == min(2_000, connection_cap() // 2)
    nginx = unit_entries(NGINX_UNIT)
    assert nginx["DynamicUser"] == ["true"] and nginx["CapabilityBoundingSet"] == ["CAP_NET_BIND_SERVICE"]


def _nginx_or_skip() -> str:
    from deploy.launcher import find_nginx

    nginx = find_nginx()
    if nginx is None:
        if os.environ.get("CI"):
            pytest.fail("nginx not installed (.ci/run installs it)")
        pytest.skip("nginx not installed: apt-get install nginx")
    return nginx


def test_nginx_accepts_the_rendered_recipes(tmp_path):
    """`nginx -t` on the config the launcher runs and on the one the systemd recipe renders (no worker user)."""
    from deploy import launcher

    nginx = _nginx_or_skip()
    for name, user in (("loopback", True), ("systemd", False)):
        prefix = tmp_path / name
        for sub in ("logs", "tmp"):
            (prefix / sub).mkdir(parents=True)
        conf = prefix / "nginx.conf"
        conf.write_text(launcher.render_nginx_conf(prefix, listen="127.0.0.1:1", upstreams=["127.0.0.1:2"],
                                                   worker_user=user))
        done = subprocess.run([nginx, "-t", "-p", str(prefix), "-c", str(conf)], capture_output=True, text=True, timeout=30)
        assert done.returncode == 0, done.stderr


def test_a_class_of_60_behind_one_address_opens_through_the_recipes_limits(tmp_path):
    """A class of 60 behind one school NAT opening a page cold at once (COLD_OPEN_REQUESTS each, from one address,
    as fast as a stub upstream answers: faster than a real class) through the nginx recipe's limit_req, and through
    the Ingress's numbers: no 429. One client sending a class's worth more at once is refused past the burst."""
    import concurrent.futures
    import http.server
    import threading
    import urllib.request

    from deploy import launcher
    from embedviz.app import request_limit
    from embedviz.app.request_limit import COLD_OPEN_REQUESTS

    nginx = _nginx_or_skip()

    class Stub(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self):  # noqa: N802
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args):
            pass

    class Upstream(http.server.ThreadingHTTPServer):
        request_queue_size = 256  # nginx opens many upstream connections at once; the default backlog of 5 drops them

    upstream = Upstream(("127.0.0.1", 0), Stub)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    port = launcher.free_port()
    prefix = tmp_path / "nginx"
    for sub in ("logs", "tmp"):
        (prefix / sub).mkdir(parents=True)
    conf = prefix / "nginx.conf"
    conf.write_text(launcher.render_nginx_conf(prefix, listen=f"127.0.0.1:{port}",
                                               upstreams=[f"127.0.0.1:{upstream.server_port}"]))
    proc = subprocess.Popen([nginx, "-p", str(prefix), "-c", str(conf), "-g", "daemon off;"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def ask(i: int) -> int:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/static/js/chunk{i}.js", timeout=30) as answer:
                return answer.status
        except urllib.error.HTTPError as error:
            return error.code

    try:
        launcher.wait_healthy(f"http://127.0.0.1:{port}/_stcore/health", timeout=30, proc=proc)
        time.sleep(1.0)  # the health polls' tokens back
        with concurrent.futures.ThreadPoolExecutor(64) as pool:
            start = time.monotonic()
            statuses = list(pool.map(ask, range(60 * COLD_OPEN_REQUESTS)))
            assert statuses.count(200) == len(statuses), {s: statuses.count(s) for s in set(statuses)}
            # What limit_req lets through: the burst, plus the rate for every second the rounds took (a loaded
            # machine sends slower, and the bucket refills meanwhile), plus the requests in flight. A round more
            # (at most three more) while a loaded machine has not yet sent past it.
            flood = []
            for _ in range(4):
                flood += pool.map(ask, range(60 * COLD_OPEN_REQUESTS))
                elapsed = time.monotonic() - start
                allowed = request_limit.BURST + request_limit.RATE * elapsed + 64
                sent = len(statuses) + len(flood)
                if allowed < sent:
                    break
        assert allowed < sent, f"the rounds took {elapsed:.1f} s: too slow to reach the limit"
        assert statuses.count(200) + flood.count(200) <= allowed, f"{flood.count(200)} of a second class's worth passed"
        assert set(flood) <= {200, 429}
    finally:
        launcher.stop_process(proc)
        upstream.shutdown()


def test_the_image_takes_the_os_updates():
    """Not a patch tag frozen with its OS (3.11.7 was December 2023's), and Debian's updates applied at build."""
    text = (ROOT / "Dockerfile").read_text()
    base = re.search(r"^FROM (\S+)", text, re.M).group(1)
    assert re.fullmatch(r"python:3\.11-slim-\w+(@sha256:[0-9a-f]{64})?", base), base
    assert re.search(r"apt-get update \\\s+&& apt-get upgrade -y", text)
