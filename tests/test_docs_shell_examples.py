"""Every shell example of the guides in docs/, as a reader copies it: the quick ones run against a live server on a
fresh database with the samples and each answer is checked; the slow ones (benchmarks, ``make reliability``) have
each command asked for its usage (``tests/shell_examples.py``)."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token

from jobs import services as job_services
from jobs.models import Job
from profiles.models import Candidate, ShortlistEntry
from tests.shell_examples import (
    BASE_DIR,
    EVERY_DATABASE,
    commands_of,
    every_shell_block,
    example_env,
    fresh_database_with_samples,
    run_block,
    shell_blocks,
    usage_checks,
)
from tests.test_readme import NEEDS_CURL_AND_JQ

DOCS = BASE_DIR / "docs"
# The examples that are run, by the test that runs them (the README's by tests/test_readme.py).
RUN_BY = {
    "README.md#2": "tests/test_readme.py",
    "docs/api.md#1": "test_the_api_guide_examples",
    "docs/api.md#2": "test_the_api_guide_examples",
    "docs/importing.md#1": "test_the_import_guide_examples",
    "docs/jobs.md#1": "test_the_jobs_guide_examples",
    "docs/jobs.md#2": "test_the_jobs_guide_examples",
}
GENERATED = Path("/tmp/talentdb-profiles")  # where the import guide's generate_profiles writes


def block(name: str, number: int) -> str:
    return shell_blocks(DOCS / name)[number - 1].text


def succeeded(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 0, result.stderr[-3000:] + result.stdout[-3000:]
    return result.stdout


def test_every_shell_example_is_run_or_its_commands_checked():
    blocks = every_shell_block()
    unrun = [b.id for b in blocks if not b.slow and b.id not in RUN_BY]
    assert not unrun, f"shell examples no test runs: run them in a test (RUN_BY) or fence them as ```sh slow: {unrun}"
    gone = set(RUN_BY) - {b.id for b in blocks}
    assert not gone, f"RUN_BY names examples that are no longer there (or not ```sh): {sorted(gone)}"


def _slow_checks() -> list:
    params = []
    for b in every_shell_block():
        if not b.slow:
            continue
        for command in commands_of(b.text):
            params += [pytest.param(check, id=f"{b.id}:{' '.join(check)}") for check in usage_checks(command)]
    return params


@pytest.mark.parametrize("check", _slow_checks())
def test_each_command_of_a_slow_example_answers_its_usage(check):
    result = subprocess.run(
        check, cwd=BASE_DIR, capture_output=True, text=True, timeout=120, check=False, env=example_env("x:0")
    )
    assert result.returncode == 0, f"{' '.join(check)}: {result.stderr[-2000:]}"


@NEEDS_CURL_AND_JQ
@pytest.mark.django_db(transaction=True, databases=EVERY_DATABASE)
def test_the_api_guide_examples(plain_http_live_server):
    fresh_database_with_samples()
    get_user_model().objects.create_superuser("admin", password=None)  # make run's admin
    env = example_env(plain_http_live_server.url)

    out = succeeded(run_block(block("api.md", 1), env))
    root, candidates = (json.loads(part) for part in _json_documents(out)[:2])
    assert "candidates" in root
    assert [c["name"] for c in candidates["results"]]
    assert out.splitlines()[-1] == "401"  # the revoked key
    assert not Token.objects.filter(user__username="alice").exists()
    assert Token.objects.filter(user__username="admin").exists()

    sam = get_user_model().objects.create_user("sam")
    job = job_services.job_create(user=sam, title="Go engineer", description="Requirements: Go, PostgreSQL.").job
    out = succeeded(run_block(block("api.md", 2), env))
    matches, similar = (json.loads(part) for part in _json_documents(out))
    assert all(not row["missing"] for row in matches["results"])  # strict=1: only who meets every requirement
    assert similar["criteria"]["required"], similar
    assert Job.objects.get(pk=job.pk).owner == sam


@NEEDS_CURL_AND_JQ
@pytest.mark.django_db(transaction=True, databases=EVERY_DATABASE)
def test_the_jobs_guide_examples(plain_http_live_server):
    fresh_database_with_samples()
    env = example_env(plain_http_live_server.url)

    out = succeeded(run_block(block("jobs.md", 1) + block("jobs.md", 2), env))
    match, entry = (json.loads(part) for part in _json_documents(out))
    assert match["criteria"]["countries"] == ["NG"]  # the criteria given win over what the post says
    assert match["criteria"]["preferred"]  # "Nice to have: Rust."
    assert match["results"], "the example finds candidates among the samples"
    assert entry["stage"] == "contacted"
    job = Job.objects.get(owner__username="sam", title="Senior Go engineer")
    assert ShortlistEntry.objects.filter(shortlist=job.pipeline, status="contacted").count() == 1


@pytest.mark.django_db(transaction=True, databases=EVERY_DATABASE)
def test_the_import_guide_examples(start_worker, plain_http_live_server):
    fresh_database_with_samples(samples=False)  # the guide imports them
    start_worker()
    shutil.rmtree(GENERATED, ignore_errors=True)
    try:
        result = run_block(block("importing.md", 1), example_env(plain_http_live_server.url))
        generated = sorted(p.name for p in GENERATED.iterdir()) if GENERATED.exists() else []
    finally:
        shutil.rmtree(GENERATED, ignore_errors=True)

    out = succeeded(result)
    samples = len(list((BASE_DIR / "samples").iterdir()))
    assert Candidate.objects.count() == samples
    dry_run = json.loads(next(line for line in out.splitlines() if line.startswith("{")))
    assert dry_run["name"] == "Amara Okafor"
    assert len(generated) == 5


def _json_documents(text: str) -> list[str]:
    """The JSON documents printed one after another (jq's and curl's answers)."""
    decoder, found, at = json.JSONDecoder(), [], 0
    while (start := _next_brace(text, at)) is not None:
        value, end = decoder.raw_decode(text, start)
        found.append(json.dumps(value))
        at = end
    return found


def _next_brace(text: str, at: int) -> int | None:
    match = re.compile(r"[{\[]").search(text, at)
    return match.start() if match else None
