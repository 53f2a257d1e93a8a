"""docker compose cannot run here: check the stack's structure instead."""

from pathlib import Path

import yaml

BASE_DIR = Path(__file__).resolve().parents[2]


def test_compose_describes_the_production_stack_with_health_checks():
    compose = yaml.safe_load((BASE_DIR / "docker-compose.yml").read_text())
    services = compose["services"]
    assert set(services) == {"postgres", "redis", "web", "worker", "beat"}
    for name, service in services.items():
        assert service.get("healthcheck", {}).get("test"), f"{name} has no health check"
    for name in ("web", "worker", "beat"):
        assert services[name]["image"] == "talentdb:latest"
        assert services[name]["environment"]["DEBUG"] == "0"
        assert services[name]["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert services[name]["depends_on"]["redis"]["condition"] == "service_healthy"
    assert "gunicorn talentdb.wsgi:application" in services["web"]["command"]
    assert services["worker"]["command"][:4] == ["celery", "-A", "talentdb", "worker"]
    assert services["beat"]["command"][:4] == ["celery", "-A", "talentdb", "beat"]
    # Secrets are never written into the file, only required from the environment.
    assert services["web"]["environment"]["SECRET_KEY"].startswith("${SECRET_KEY:?")


def test_the_image_installs_the_pinned_requirements():
    dockerfile = (BASE_DIR / "Dockerfile").read_text()
    assert "pip install --no-cache-dir -r requirements.txt" in dockerfile
    for line in (BASE_DIR / "requirements.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            assert "==" in line, f"unpinned requirement: {line}"
