"""docker compose cannot run here: check the stack's structure instead, and the configurations it runs."""

import contextlib
import http.client
import http.server
import os
import runpy
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest
import yaml

BASE_DIR = Path(__file__).resolve().parents[2]
NGINX = shutil.which("nginx") or shutil.which("/usr/sbin/nginx")


def _compose_command() -> list[str] | None:
    """The docker compose plugin, or the standalone docker-compose (Debian's package); `config` needs no daemon."""
    docker = shutil.which("docker")
    if docker and subprocess.run([docker, "compose", "version"], capture_output=True, check=False).returncode == 0:
        return [docker, "compose"]
    standalone = shutil.which("docker-compose")
    return [standalone] if standalone else None


COMPOSE = _compose_command()


# The Celery worker services and the queue setting each consumes.
WORKERS = {
    "ingest-worker": "CELERY_INGEST_QUEUE",
    "default-worker": "CELERY_DEFAULT_QUEUE",
    "export-worker": "CELERY_EXPORT_QUEUE",
}


def _queue_of(service: dict) -> str:
    return service["command"][service["command"].index("-Q") + 1]


def test_compose_describes_the_production_stack_with_health_checks():
    compose = yaml.safe_load((BASE_DIR / "docker-compose.yml").read_text())
    services = compose["services"]
    assert set(services) == {
        "postgres",
        "redis",
        "nginx",
        "web",
        "searchindex",
        "ingest-worker",
        "default-worker",
        "export-worker",
        "beat",
    }
    for name, service in services.items():
        assert service.get("healthcheck", {}).get("test"), f"{name} has no health check"
    for name in ("web", *WORKERS, "beat"):
        assert services[name]["image"] == "talentdb:latest"
        assert services[name]["environment"]["DEBUG"] == "0"
        assert services[name]["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert services[name]["depends_on"]["redis"]["condition"] == "service_healthy"
    assert "gunicorn -c gunicorn.conf.py" in services["web"]["command"]
    for name in WORKERS:
        assert services[name]["command"][:4] == ["celery", "-A", "talentdb", "worker"]
    assert services["beat"]["command"][:4] == ["celery", "-A", "talentdb", "beat"]
    # Secrets are never written into the file, only required from the environment.
    assert services["web"]["environment"]["SECRET_KEY"].startswith("${SECRET_KEY:?")


def test_the_ranking_index_is_one_service_whose_socket_the_web_app_shares():
    """One index for the host (manage.py searchindex_serve), asked by every gunicorn worker over its unix socket: the
    socket's folder is a volume both mount, and both read the same SEARCH_INDEX_SOCKET; the image makes the folder
    the app user's, as a new named volume takes its mount point's owner."""
    compose = yaml.safe_load((BASE_DIR / "docker-compose.yml").read_text())
    index, web = compose["services"]["searchindex"], compose["services"]["web"]
    assert index["command"] == ["python", "manage.py", "searchindex_serve"]
    assert index["image"] == web["image"] == "talentdb:latest"
    socket_path = Path(index["environment"]["SEARCH_INDEX_SOCKET"])
    assert web["environment"]["SEARCH_INDEX_SOCKET"] == str(socket_path)
    mounts = {f"searchindex:{socket_path.parent}"}
    assert mounts <= set(index["volumes"])
    assert mounts <= set(web["volumes"])
    assert "searchindex" in compose["volumes"]
    assert "ports" not in index
    assert str(socket_path.parent) in (BASE_DIR / "Dockerfile").read_text()


def test_issue_15_hole_5_only_nginx_is_published_and_gunicorn_runs_threaded_workers_behind_it():
    services = yaml.safe_load((BASE_DIR / "docker-compose.yml").read_text())["services"]
    published = {name for name, service in services.items() if service.get("ports")}
    assert published == {"nginx"}, "slow clients must reach nginx, never gunicorn's workers"
    nginx = services["nginx"]
    assert nginx["environment"]["TALENTDB_UPSTREAM"] == "web:8000"
    assert "./deploy/nginx/templates:/etc/nginx/templates:ro" in nginx["volumes"]
    assert nginx["depends_on"]["web"]["condition"] == "service_healthy"
    # The upload limit nginx applies is the one the app applies.
    app = services["web"]["environment"]
    assert nginx["environment"]["INGEST_MAX_UPLOAD_BYTES"] == app["INGEST_MAX_UPLOAD_BYTES"]
    assert app["TRUSTED_PROXY_COUNT"] == "1", "nginx alone writes the X-Forwarded-For the app reads"
    assert nginx["environment"]["NGINX_TRUSTED_PROXY"].startswith("${NGINX_TRUSTED_PROXY:-")

    config = runpy.run_path(str(BASE_DIR / "gunicorn.conf.py"))
    assert config["wsgi_app"] == "talentdb.wsgi:application"
    assert config["worker_class"] == "gthread"
    assert config["threads"] >= 4
    assert config["workers"] == 4
    assert config["timeout"] > 30, "a long export is not a stuck worker"


def test_issue_15_hole_5_the_nginx_configuration_buffers_and_times_out_slow_clients():
    server = (BASE_DIR / "deploy" / "nginx" / "templates" / "default.conf.template").read_text()
    for directive in (
        "client_header_timeout 10s;",
        "client_body_timeout 20s;",
        "proxy_request_buffering on;",
        "proxy_buffering on;",
        "client_max_body_size ${INGEST_MAX_UPLOAD_BYTES};",
        "set_real_ip_from ${NGINX_TRUSTED_PROXY};",
        "proxy_set_header X-Forwarded-For $remote_addr;",
        "proxy_set_header X-Forwarded-Proto $talentdb_forwarded_proto;",
        "server ${TALENTDB_UPSTREAM};",
        "listen ${NGINX_PORT};",
    ):
        assert directive in server, directive


@pytest.mark.skipif(not NGINX, reason="nginx is not installed (Debian's package nginx)")
def test_issue_15_hole_5_nginx_accepts_the_configuration_as_the_image_renders_it(tmp_path):
    from bench.load import nginx_config

    main = nginx_config(tmp_path, listen="127.0.0.1:18080", upstream="127.0.0.1:18000", max_upload_bytes=104857600)
    result = subprocess.run(
        [NGINX, "-t", "-p", str(tmp_path), "-c", str(main)], capture_output=True, text=True, timeout=60, check=False
    )

    assert result.returncode == 0, result.stderr
    assert "${" not in (tmp_path / "default.conf").read_text()


def test_the_image_installs_the_pinned_requirements():
    dockerfile = (BASE_DIR / "Dockerfile").read_text()
    assert "pip install --no-cache-dir -r requirements.txt" in dockerfile
    for line in (BASE_DIR / "requirements.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            assert "==" in line, f"unpinned requirement: {line}"


class _EchoForwardedFor(http.server.BaseHTTPRequestHandler):
    """The upstream in place of gunicorn: answers with the X-Forwarded-For that nginx sent it."""

    def do_GET(self):
        body = (self.headers.get("X-Forwarded-For") or "").encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def nginx_in_front_of_an_echo(tmp_path):
    """nginx with the committed configuration, in front of an upstream that echoes X-Forwarded-For; yields a function
    that starts it trusting the given TLS-proxy address and returns nginx's port."""
    from bench.load import nginx_config

    upstream = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _EchoForwardedFor)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    started = []

    def start(trusted_proxy: str) -> int:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        main = nginx_config(
            tmp_path,
            listen=f"127.0.0.1:{port}",
            upstream=f"127.0.0.1:{upstream.server_address[1]}",
            max_upload_bytes=1024,
            trusted_proxy=trusted_proxy,
        )
        started.append(subprocess.Popen([NGINX, "-p", str(tmp_path), "-c", str(main), "-g", "daemon off;"]))
        for _ in range(100):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.1):
                return port
            time.sleep(0.05)
        raise RuntimeError("nginx did not start")

    yield start
    for process in started:
        process.terminate()
        process.wait(timeout=10)
    upstream.shutdown()


def _forwarded_for(port: int, header: str | None) -> str:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", "/", headers={"X-Forwarded-For": header} if header else {})
        return connection.getresponse().read().decode()
    finally:
        connection.close()


@pytest.mark.skipif(not NGINX, reason="nginx is not installed (Debian's package nginx)")
def test_issue_15_hole_10_a_client_that_reaches_nginx_directly_cannot_choose_its_address(nginx_in_front_of_an_echo):
    """The app trusts one proxy, nginx, which decides who the client is: X-Forwarded-For is believed only from the TLS
    proxy's address (NGINX_TRUSTED_PROXY). Before, nginx appended to whatever the client sent, so a client reaching
    nginx directly picked a new address (a new lockout key) with every request."""
    port = nginx_in_front_of_an_echo("192.0.2.1/32")  # the TLS proxy is elsewhere: this loopback client is not it

    assert _forwarded_for(port, "203.0.113.7") == "127.0.0.1"
    assert _forwarded_for(port, None) == "127.0.0.1"


@pytest.mark.skipif(not NGINX, reason="nginx is not installed (Debian's package nginx)")
def test_issue_15_hole_10_behind_the_trusted_tls_proxy_the_client_is_the_address_it_appended(nginx_in_front_of_an_echo):
    port = nginx_in_front_of_an_echo("127.0.0.1/32")  # this loopback client plays the TLS proxy

    assert _forwarded_for(port, "203.0.113.7") == "203.0.113.7"
    # What a client forged before the TLS proxy's entry is ignored.
    assert _forwarded_for(port, "6.6.6.6, 203.0.113.7") == "203.0.113.7"


def test_issue_15_hole_4_export_jobs_run_on_a_worker_of_their_own_never_on_the_imports_one():
    """An export may run an hour: on the import worker two of them would stop imports for that long, on the default
    worker the periodic tasks."""
    services = yaml.safe_load((BASE_DIR / "docker-compose.yml").read_text())["services"]
    environment = services["web"]["environment"]
    queues = {name: _queue_of(services[name]) for name in WORKERS}

    assert queues == {name: environment[setting] for name, setting in WORKERS.items()}
    assert len(set(queues.values())) == len(WORKERS), "each worker service consumes a queue of its own"


def test_issue_19_each_queue_has_a_worker_service_and_every_service_routes_to_the_same_queues():
    """The stack uses the settings' default names (a worker started by hand on another host with no queue setting
    joins the stack's queues), and every service that sends tasks sends them to the queues the workers consume."""
    services = yaml.safe_load((BASE_DIR / "docker-compose.yml").read_text())["services"]
    environment = services["web"]["environment"]

    assert {name: _queue_of(services[name]) for name in WORKERS} == {
        "ingest-worker": "ingest",
        "default-worker": "default",
        "export-worker": "exports",
    }
    for name in ("web", *WORKERS, "beat"):  # every one sends tasks: all route to the same queues
        assert {setting: services[name]["environment"][setting] for setting in WORKERS.values()} == {
            setting: environment[setting] for setting in WORKERS.values()
        }


def test_issue_19_the_ingest_worker_scales_with_docker_compose_up_scale():
    """`docker compose up --scale ingest-worker=N` starts N containers of the service: none may have a fixed name,
    a published port or a fixed Celery node name (the health check pings celery@$HOSTNAME, each container's own)."""
    services = yaml.safe_load((BASE_DIR / "docker-compose.yml").read_text())["services"]
    for name in WORKERS:
        service = services[name]
        assert "container_name" not in service
        assert "ports" not in service
        assert "-n" not in service["command"]
        assert "--hostname" not in service["command"]
        assert "celery@$$HOSTNAME" in service["healthcheck"]["test"][1]


@pytest.mark.skipif(not COMPOSE, reason="neither docker compose nor docker-compose is installed")
def test_issue_19_docker_compose_accepts_the_file():
    result = subprocess.run(
        [*COMPOSE, "-f", str(BASE_DIR / "docker-compose.yml"), "config", "--services"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={"PATH": os.environ["PATH"], "SECRET_KEY": "compose-config", "POSTGRES_PASSWORD": "compose-config"},
    )

    assert result.returncode == 0, result.stderr
    assert {"ingest-worker", "default-worker", "export-worker", "web", "beat"} <= set(result.stdout.split())
