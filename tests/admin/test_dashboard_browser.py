"""Issue 17: the dashboard's charts, drawn by headless Chromium at 1366×768, fit the window (they wrap in the flex
layout and scale down, never push the page sideways), and every one of them is there with its title. The page is
saved under ``screenshots/`` for a person to look at."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from ingestion.models import ImportBatch
from jobs import services as job_services
from profiles.models import ShortlistEntry
from tests.admin.conftest import PASSWORD
from tests.admin.test_browser import (
    BROWSER_TESTS,
    SCREENSHOTS,
    chromium_driver,
    emulate_viewport,
)
from tests.factories import (
    CandidateFactory,
    CandidateSkillFactory,
    ImportBatchFactory,
    SkillFactory,
    SourceFileFactory,
)

pytestmark = BROWSER_TESTS

WIDTH, HEIGHT = 1366, 768
CHARTS = ["chart-skills", "chart-countries", "chart-years", "chart-imports", "chart-pipeline"]


@pytest.fixture
def browser(tmp_path):
    driver = chromium_driver(tmp_path)
    emulate_viewport(driver, WIDTH, HEIGHT)
    yield driver
    driver.quit()


def _a_month_of_work(recruiter) -> None:
    skills = [SkillFactory(slug=f"distributed-systems-engineering-{n}") for n in range(10)]
    for n in range(12):
        candidate = CandidateFactory(
            years_coding=[1, 4, 8, 12, 20, None][n % 6], country_code=["DE", "FR", "PT"][n % 3]
        )
        CandidateSkillFactory(candidate=candidate, skill=skills[n % len(skills)])
    now = timezone.now()
    for days_ago, imported, failed in [(0, 6, 1), (2, 14, 0), (9, 3, 3), (27, 9, 1)]:
        batch = ImportBatchFactory()
        ImportBatch.objects.filter(pk=batch.pk).update(created_at=now - dt.timedelta(days=days_ago))
        for _ in range(imported):
            SourceFileFactory(batch=batch, status="imported")
        for _ in range(failed):
            SourceFileFactory(batch=batch, status="failed", error="unreadable")
    job = job_services.job_create(user=recruiter, title="Backend", description="Go").job
    for status in ["sourced", "sourced", "contacted", "interviewing", "rejected"]:
        ShortlistEntry.objects.create(shortlist=job.pipeline, candidate=CandidateFactory(), status=status)


@pytest.mark.django_db(transaction=True)
def test_the_dashboard_charts_fit_a_1366_px_window(plain_http_live_server, browser, recruiter):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    _a_month_of_work(recruiter)
    base = plain_http_live_server.url
    browser.get(base + reverse("admin:login"))
    browser.find_element(By.ID, "id_username").send_keys(recruiter.username)
    browser.find_element(By.ID, "id_password").send_keys(PASSWORD)
    browser.find_element(By.CSS_SELECTOR, "input[type=submit]").click()
    WebDriverWait(browser, 30).until(ec.presence_of_element_located((By.ID, "chart-pipeline")))
    SCREENSHOTS.mkdir(exist_ok=True)
    browser.set_window_size(WIDTH, browser.execute_script("return document.documentElement.scrollHeight") + 100)
    emulate_viewport(browser, WIDTH, browser.execute_script("return document.documentElement.scrollHeight"))
    browser.save_screenshot(str(SCREENSHOTS / f"dashboard-{WIDTH}.png"))

    widths = browser.execute_script(
        "return {document: document.documentElement.scrollWidth, window: window.innerWidth,"
        " charts: [...document.querySelectorAll('#dashboard svg')].map((s) => s.getBoundingClientRect().right)}"
    )
    assert widths["window"] == WIDTH
    assert widths["document"] <= widths["window"], widths
    assert all(right <= WIDTH for right in widths["charts"]), widths
    for chart in CHARTS:
        svg = browser.find_element(By.CSS_SELECTOR, f"#{chart} svg")
        assert svg.get_attribute("role") == "img"
        assert svg.get_attribute("aria-label")
        assert svg.size["width"] > 200, f"{chart} is squeezed to {svg.size['width']} px"
