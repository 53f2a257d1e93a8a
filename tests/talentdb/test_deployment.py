"""docker compose cannot run here: check the stack's structure instead, and the configurations it runs."""

import runpy
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

BASE_DIR = Path(__file__).resolve().parents[2]
NGINX = shutil.which("nginx") or shutil.which("/usr/sbin/nginx")


def test_compose_describes_the_production_stack_with_health_checks():
    compose = yaml.safe_load((BASE_DIR / "docker-compose.yml").read_text())
    services = compose["services"]
    assert set(services) == {"postgres", "redis", "nginx", "web", "worker", "beat"}
    for name, service in services.items():
        assert service.get("healthcheck", {}).get("test"), f"{name} has no health check"
    for name in ("web", "worker", "beat"):
        assert services[name]["image"] == "talentdb:latest"
        assert services[name]["environment"]["DEBUG"] == "0"
        assert services[name]["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert services[name]["depends_on"]["redis"]["condition"] == "service_healthy"
    assert "gunicorn -c gunicorn.conf.py" in services["web"]["command"]
    assert services["worker"]["command"][:4] == ["celery", "-A", "talentdb", "worker"]
    assert services["beat"]["command"][:4] == ["celery", "-A", "talentdb", "beat"]
    # Secrets are never written into the file, only required from the environment.
    assert services["web"]["environment"]["SECRET_KEY"].startswith("${SECRET_KEY:?")


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
    assert app["TRUSTED_PROXY_COUNT"].startswith("${TRUSTED_PROXY_COUNT:-")

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
        "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
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
