"""The main admin pages at a laptop's 1366x768 and a desktop's 1920x1080 (issue 17): none scrolls sideways, and each is
saved whole under ``screenshots/pages/`` (git-ignored; ``docs/screenshots/`` keeps a chosen set) for a person to
judge. The data is the project's own: a fixture profile, a job with a pipeline, a shortlist and an import batch."""

import base64

import pytest
from django.urls import reverse

from ingestion.models import SourceFile
from ingestion.parsers import parse
from ingestion.services import documents_load
from jobs import services as job_services
from profiles import services
from profiles.models import Candidate
from tests.admin.test_browser import (
    BROWSER_TESTS,
    SCREENSHOTS,
    WIDEST_ELEMENTS_JS,
    chromium_driver,
    emulate_viewport,
)
from tests.factories import ImportBatchFactory, SourceFileFactory
from tests.fixtures import PROGAI_DIR

pytestmark = BROWSER_TESTS

SIZES = [(1366, 768), (1920, 1080)]
ADMIN_PASSWORD = "password"  # pytest-django's admin_user


def _pages(candidate: Candidate, job, shortlist, batch) -> dict[str, str]:
    pages = {
        "index": reverse("admin:index"),
        "candidates": reverse("admin:profiles_candidate_changelist"),
        "candidate": reverse("admin:profiles_candidate_change", args=[candidate.pk]),
        "candidate-edit": reverse("admin:profiles_candidate_edit", args=[candidate.pk]),
        "candidate-history": reverse("admin:profiles_candidate_history", args=[candidate.pk]),
        "shortlist": reverse("admin:profiles_shortlist_change", args=[shortlist.pk]),
        "job": reverse("admin:jobs_job_change", args=[job.pk]),
        "job-matches": reverse("admin:jobs_job_matches", args=[job.pk]),
        "pipeline-board": reverse("admin:jobs_job_pipeline_board", args=[job.pk]),
        "batch": reverse("admin:ingestion_importbatch_change", args=[batch.pk]),
        "source-files": reverse("admin:ingestion_sourcefile_changelist"),
        "upload": reverse("admin:ingestion_importbatch_add"),
    }
    return pages


@pytest.fixture
def workday(db, admin_user):
    [loaded] = documents_load(documents=[parse((PROGAI_DIR / "ingrid-valtonen.txt").read_bytes())])
    candidate = Candidate.objects.get(pk=loaded.candidate_id)
    shortlist, _ = services.shortlist_get_or_create(owner=admin_user, name="Query engine people")
    services.shortlist_add_candidates(shortlist=shortlist, candidate_ids=[candidate.pk], user=admin_user)
    job = job_services.job_create(
        user=admin_user,
        title="Senior compiler engineer",
        description="Requirements: 5+ years of C and C++, LLVM. Nice to have: Rust. Remote within Finland.",
    ).job
    job_services.pipeline_add(job=job, candidate=candidate, user=admin_user, stage="interviewing", note="Strong")
    batch = ImportBatchFactory(total_files=2)
    SourceFileFactory(batch=batch, candidate=candidate, status=SourceFile.Status.IMPORTED, original_name="ingrid.txt")
    SourceFileFactory(
        batch=batch, status=SourceFile.Status.FAILED, original_name="broken.json", error="The JSON is not valid."
    )
    return _pages(candidate, job, shortlist, batch)


@pytest.mark.django_db(transaction=True)
def test_the_main_pages_fit_a_laptop_and_a_desktop(plain_http_live_server, tmp_path, admin_user, workday):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    out = SCREENSHOTS / "pages"
    out.mkdir(parents=True, exist_ok=True)
    driver = chromium_driver(tmp_path)
    try:
        driver.get(plain_http_live_server.url + reverse("admin:login"))
        driver.find_element(By.ID, "id_username").send_keys(admin_user.username)
        driver.find_element(By.ID, "id_password").send_keys(ADMIN_PASSWORD)
        driver.find_element(By.CSS_SELECTOR, "input[type=submit]").click()
        WebDriverWait(driver, 30).until(ec.presence_of_element_located((By.ID, "footer")))
        too_wide = []
        for width, height in SIZES:
            emulate_viewport(driver, width, height)
            for name, path in workday.items():
                driver.get(plain_http_live_server.url + path)
                WebDriverWait(driver, 30).until(ec.presence_of_element_located((By.ID, "footer")))
                assert driver.find_elements(By.ID, "logout-form"), f"{name}: not the page, the login form"
                page_width, window, wide = driver.execute_script(WIDEST_ELEMENTS_JS)
                if page_width > window:
                    too_wide.append(f"{name} at {width}: {page_width} px ({wide})")
                shot = driver.execute_cdp_cmd(
                    "Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True}
                )
                (out / f"{width}-{name}.png").write_bytes(base64.b64decode(shot["data"]))
    finally:
        driver.quit()
    assert not too_wide, "pages scroll sideways: " + "; ".join(too_wide)
