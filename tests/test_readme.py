"""The README's shell examples, run as written on a fresh database with the shipped samples against a live server,
each answer checked: the examples a new user copies on their first day must work."""

import re
import shutil

import pytest

from ingestion.models import ImportBatch
from jobs.models import Job
from tests.shell_examples import (
    BASE_DIR,
    EVERY_DATABASE,
    example_env,
    fresh_database_with_samples,
    run_block,
    shell_blocks,
)

README = BASE_DIR / "README.md"
NEEDS_CURL_AND_JQ = pytest.mark.skipif(
    not (shutil.which("jq") and shutil.which("curl")), reason="the examples use jq and curl"
)


def readme_api_block():
    """The README's walkthrough from a shell: its first shell block that is run, not only checked."""
    return next(block for block in shell_blocks(README) if not block.slow)


@NEEDS_CURL_AND_JQ
@pytest.mark.django_db(transaction=True, databases=EVERY_DATABASE)
def test_the_shell_examples_of_the_readme_work_as_written(plain_http_live_server):
    fresh_database_with_samples()
    result = run_block(readme_api_block().text, example_env(plain_http_live_server.url))

    # The examples write their files into a temporary directory, not the checkout a reader runs them in.
    assert not [name for name in ("job.txt", "candidates.csv") if (BASE_DIR / name).exists()]

    assert result.returncode == 0, result.stderr[-3000:] + result.stdout[-3000:]
    out = result.stdout
    assert '"Amara Okafor"' in out  # q=kafka
    assert re.search(r'"match": \d+', out)  # skill=go:5&skill=postgresql, and the job's matches
    assert re.search(r'"files": 2\b', out)  # the upload's batch, with its two files
    assert '"sourced"' in out  # the first match entered the pipeline
    assert re.search(r"^id,name,", out, re.MULTILINE)  # the CSV's head
    job = Job.objects.get(owner__username="sam", title="Senior backend engineer")
    assert {"go", "postgresql"} <= set(job.skills.values_list("skill__slug", flat=True))
    assert job.pipeline.entries.count() == 1
    assert ImportBatch.objects.filter(files__original_name="rohan-iyer.json").exists()
