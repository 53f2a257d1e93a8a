"""The pipeline board in a real browser (headless Chromium, 1366×768): a card moves to the next stage with Alt+Right
on the focused card, and the move is recorded as a click's would be."""

import pytest
from django.urls import reverse

from jobs import services
from tests.admin.test_browser import BROWSER_TESTS, SCREENSHOTS, chromium_driver, emulate_viewport
from tests.admin.test_overflow_browser import log_in
from tests.factories import CandidateFactory
from tests.jobs.stored import DESCRIPTION, make_skills

pytestmark = BROWSER_TESTS


@pytest.mark.django_db(transaction=True)
def test_a_card_moves_to_the_next_stage_by_keyboard(plain_http_live_server, tmp_path, recruiter):
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    make_skills()
    job = services.job_create(user=recruiter, title="Backend", description=DESCRIPTION).job
    entry, _ = services.pipeline_add(job=job, candidate=CandidateFactory(name="Kira Keys"), user=recruiter)
    services.pipeline_note(entry=entry, text="Prefers mornings.", user=recruiter)
    driver = chromium_driver(tmp_path)
    try:
        emulate_viewport(driver, 1366, 768)
        log_in(driver, plain_http_live_server.url, recruiter)
        driver.get(plain_http_live_server.url + reverse("admin:jobs_job_pipeline_board", args=[job.pk]))
        card = driver.find_element(By.CSS_SELECTOR, f".card[data-entry='{entry.pk}']")
        assert "Prefers mornings." in card.text
        page = driver.find_element(By.TAG_NAME, "html")

        driver.execute_script("arguments[0].focus();", card)
        card.send_keys(Keys.ALT, Keys.ARROW_RIGHT)
        # While the next page replaces it, Chromium may answer a question about the old page's node with an
        # inspector error instead of "stale": ask again until it says stale.
        WebDriverWait(driver, 30, ignored_exceptions=(WebDriverException,)).until(ec.staleness_of(page))
        WebDriverWait(driver, 30).until(ec.presence_of_element_located((By.ID, "footer")))

        SCREENSHOTS.mkdir(exist_ok=True)
        driver.save_screenshot(str(SCREENSHOTS / "pipeline-board-keyboard-move.png"))
        assert "Kira Keys moved to Contacted." in driver.find_element(By.TAG_NAME, "body").text
        assert "Kira Keys" in driver.find_element(By.ID, "stage-contacted").text
        entry.refresh_from_db()
        assert entry.status == "contacted"
    finally:
        driver.quit()
