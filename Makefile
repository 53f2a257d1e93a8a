# TalentDB: `make run` runs the product, `make test` runs every check. See README.md.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# Tests run with production settings (DEBUG off) and a throwaway secret.
TEST_ENV := DEBUG=0 SECRET_KEY=$${SECRET_KEY:-$$($(PY) -c 'import secrets; print(secrets.token_urlsafe(50))')}

.PHONY: run test reliability bench-ingest bench-ingest-breakdown bench-api bench-admin stop lint

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -r requirements.txt
	touch $@

run: $(VENV)/.installed
	$(PY) -m talentdb.run

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-cache
	DEBUG=1 $(PY) manage.py makemigrations --check --dry-run

# The tests serve the admin's CSS and JavaScript as production does, from the collected var/static (WhiteNoise warns
# on every request handler it builds without it).
test: lint
	DEBUG=1 $(PY) manage.py collectstatic --no-input -v 0
	$(TEST_ENV) $(VENV)/bin/pytest; status=$$?; [ $$status -eq 0 ] || [ $$status -eq 5 ] || exit $$status

reliability: $(VENV)/.installed
	$(TEST_ENV) $(VENV)/bin/pytest -m reliability --run-reliability -s; status=$$?; [ $$status -eq 0 ] || [ $$status -eq 5 ] || exit $$status

bench-ingest: $(VENV)/.installed
	DEBUG=1 $(PY) bench/ingest.py

bench-ingest-breakdown: $(VENV)/.installed
	DEBUG=1 $(PY) bench/ingest_breakdown.py

bench-api: $(VENV)/.installed
	DEBUG=1 $(PY) bench/api.py

bench-admin: $(VENV)/.installed
	DEBUG=1 $(PY) bench/admin.py

# The processes `make run` started (web server, workers, beat, ranking index), then the embedded servers.
stop:
	$(PY) -m talentdb.run stop
	$(PY) -m talentdb.embedded stop
