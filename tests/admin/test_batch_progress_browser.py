"""Issue 17: on the batch page, the finish time and the failed files follow the progress bar, without a reload, and
read as they do after one. Headless Chromium watches a batch that the test imports (as a worker would)."""

import pytest
from django.urls import reverse

from ingestion import services
from ingestion.models import ImportBatch
from tests.admin.conftest import PASSWORD
from tests.admin.test_browser import BROWSER_TESTS, SCREENSHOTS, chromium_driver
from tests.fixtures import PROGAI_DIR

pytestmark = BROWSER_TESTS

HOSTILE_NAME = "<img src=x onerror=alert(1)>.txt"


@pytest.fixture
def browser(tmp_path):
    driver = chromium_driver(tmp_path)
    yield driver
    driver.quit()


@pytest.mark.django_db(transaction=True)
def test_the_batch_page_shows_its_finish_time_and_failed_files_when_the_bar_reaches_100(
    plain_http_live_server, browser, recruiter
):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    batch = services.batch_create(origin=ImportBatch.Origin.ADMIN, label="Live", user=recruiter)
    profile = (PROGAI_DIR / "ingrid-valtonen.txt").read_bytes()
    files = [services.IncomingFile("ingrid-valtonen.txt", profile), services.IncomingFile(HOSTILE_NAME, b"<b>hi</b>")]
    services.batch_receive(batch=batch, files=files, enqueue=False)
    base = plain_http_live_server.url
    browser.get(base + reverse("admin:login"))
    browser.find_element(By.ID, "id_username").send_keys(recruiter.username)
    browser.find_element(By.ID, "id_password").send_keys(PASSWORD)
    browser.find_element(By.CSS_SELECTOR, "input[type=submit]").click()
    WebDriverWait(browser, 30).until(ec.presence_of_element_located((By.ID, "dashboard")))
    page = base + reverse("admin:ingestion_importbatch_change", args=[batch.pk])
    browser.get(page)
    WebDriverWait(browser, 30).until(ec.presence_of_element_located((By.ID, "footer")))

    def text(css: str) -> str:
        return browser.find_element(By.CSS_SELECTOR, css).text

    assert text(".batch-finished-at") == "-"
    assert text(".batch-failed-files") == "None."

    services.source_files_import(file_ids=list(batch.files.values_list("pk", flat=True)), token="test")  # the worker
    WebDriverWait(browser, 30, poll_frequency=0.25).until(lambda d: text(".batch-progress-text").startswith("100 %"))
    SCREENSHOTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / "batch-live-finished.png"))
    live = {css: text(css) for css in [".batch-progress-text", ".batch-finished-at", ".batch-failed-files"]}

    assert live[".batch-progress-text"] == "100 % — 2 of 2 files, 1 failed"
    assert live[".batch-finished-at"] != "-"
    assert live[".batch-failed-files"].startswith(f"{HOSTILE_NAME}: ")  # the name as text: no element made of it
    assert browser.find_elements(By.CSS_SELECTOR, ".batch-failed-files img") == []
    link = browser.find_element(By.CSS_SELECTOR, ".batch-failed-files li a")
    failed = batch.files.get(status="failed")
    assert link.get_attribute("href") == base + reverse("admin:ingestion_sourcefile_change", args=[failed.pk])

    browser.get(page)  # what a reload shows, the same words
    WebDriverWait(browser, 30).until(ec.presence_of_element_located((By.ID, "footer")))
    assert {css: text(css) for css in live} == live
