"""The WSGI entry point gunicorn loads, in a fresh interpreter."""

import os
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]


def test_the_wsgi_module_loads_every_view_and_freezes_the_startup_heap():
    code = (
        "import gc, sys; import talentdb.wsgi;"
        "print(gc.get_freeze_count() > 50_000, 'api.candidates.views' in sys.modules, 'profiles.admin' in sys.modules)"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "talentdb.settings", "SECRET_KEY": "s" * 50}
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=120, check=False
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True", "True"]
