"""The jobs list at 1366×768 in headless Chromium: a job read from a long post (a dozen skills, a long title) leaves
every column inside the window, its skills summarised ("Python, Django, PostgreSQL, +10 more"), and the list neither
scrolls sideways nor hides a column behind a scrollbar. The page is saved under ``screenshots/`` for a person to look
at."""

import pytest
from django.urls import reverse

from jobs import services
from tests.admin.test_browser import BROWSER_TESTS, chromium_driver, emulate_viewport
from tests.admin.test_jobs_list import MANY, job_asking_for
from tests.admin.test_overflow_browser import HEIGHT, WIDTH, assert_fits, log_in, open_page
from tests.factories import CandidateFactory

pytestmark = BROWSER_TESTS


@pytest.fixture
def browser(tmp_path):
    driver = chromium_driver(tmp_path)
    emulate_viewport(driver, WIDTH, HEIGHT)
    yield driver
    driver.quit()


@pytest.mark.django_db(transaction=True)
def test_the_jobs_list_fits_a_1366_px_window_with_a_job_of_many_skills(plain_http_live_server, browser, recruiter):
    job = job_asking_for(
        recruiter,
        required=MANY,
        preferred=["rust", "go"],
        excluded=["php"],
        title="Senior Staff Platform Engineer, Payments Infrastructure and Developer Experience (Lisbon or remote)",
    )
    job_asking_for(recruiter, required=["python", "django"], title="Backend Engineer")
    for candidate in CandidateFactory.create_batch(2):
        services.pipeline_add(job=job, candidate=candidate, user=recruiter)
    base = plain_http_live_server.url
    log_in(browser, base, recruiter)

    widths = open_page(browser, base + reverse("admin:jobs_job_changelist"), "#result_list", "jobs")

    assert_fits(widths)
    from selenium.webdriver.common.by import By

    cells = browser.find_elements(By.CSS_SELECTOR, "#result_list td.field-skills_summary")
    assert [cell.text for cell in cells] == ["Python, Django", "Python, Django, Postgresql, +10 more"]
    for column in ["th.field-title", "td.field-skills_summary", "td.field-pipeline_size", "td.field-added"]:
        right = browser.execute_script(
            "return arguments[0].getBoundingClientRect().right",
            browser.find_element(By.CSS_SELECTOR, f"#result_list {column}"),
        )
        assert right <= WIDTH, f"{column} ends at {right} px"
