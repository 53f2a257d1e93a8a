"""A recruiter's day in a real browser: headless Chromium against the live server, with a real Celery worker.

At 1366x768: logs in to the dashboard, filters by a skill and a minimum score, opens a profile and edits a score,
finds the change in the history, searches and adds the candidate to a shortlist, uploads files (one broken) and watches
the batch finish with its failed file shown without a reload, and opens the source files. No page scrolls sideways.
Every page visited is saved under ``screenshots/`` (git-ignored) for a person to look at. Only the project's own
files are read (tests/fixtures, samples/).
"""

import re
import shutil
from pathlib import Path

import pytest
from django.urls import reverse

from ingestion.models import ImportBatch
from ingestion.parsers import parse
from ingestion.services import documents_load
from profiles.models import CandidateSkill, ShortlistEntry, Skill
from tests.admin.conftest import PASSWORD
from tests.factories import CandidateFactory, CandidateSkillFactory
from tests.fixtures import PROGAI_DIR

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
BASE_DIR = Path(__file__).resolve().parents[2]
SCREENSHOTS = BASE_DIR / "screenshots"
SAMPLES = BASE_DIR / "samples"

# Every browser test: marked, and skipped where Debian's Chromium is missing (other modules use this list too).
BROWSER_TESTS = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not (shutil.which(CHROMIUM) and shutil.which(CHROMEDRIVER)),
        reason=f"browser tests need Debian's chromium and chromium-driver ({CHROMIUM}, {CHROMEDRIVER})",
    ),
]
pytestmark = BROWSER_TESTS


def chromium_driver(tmp_path, *, console_log: bool = False):
    """Headless Chromium through chromedriver, with a profile of its own under ``tmp_path``; ``console_log`` keeps
    the page's console messages for ``driver.get_log("browser")``."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={tmp_path / 'chromium-profile'}",
        "--window-size=1366,768",  # the smallest laptop screen a recruiter works on
    ]:
        options.add_argument(flag)
    if console_log:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    return driver


def emulate_viewport(driver, width: int, height: int) -> None:
    """Make the page's viewport exactly ``width`` x ``height``, whatever the window around it."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
    )


@pytest.fixture
def browser(tmp_path):
    driver = chromium_driver(tmp_path)
    yield driver
    driver.quit()


# The document's width, the window's, and the deepest elements that reach past the window's right edge.
WIDEST_ELEMENTS_JS = """
const past = e => e.getBoundingClientRect().right > window.innerWidth + 1;
const out = [...document.querySelectorAll("body *")].filter(past).filter(e => ![...e.children].some(past))
    .slice(0, 5).map(e => `${e.tagName.toLowerCase()}${e.id ? "#" + e.id : ""}.${[...e.classList].join(".")}`
    + ` (${Math.round(e.getBoundingClientRect().right)} px)`);
return [document.documentElement.scrollWidth, window.innerWidth, out];
"""


class Recruiter:
    """The browser, with helpers to open admin pages, wait for them and keep a screenshot of each."""

    def __init__(self, driver, base_url: str):
        self.driver, self.base_url, self.shots = driver, base_url, 0
        SCREENSHOTS.mkdir(exist_ok=True)

    def open(self, path: str, name: str) -> None:
        self.driver.get(self.base_url + path)
        self.page_loaded(name)

    def page_loaded(self, name: str) -> None:
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support import expected_conditions as ec
        from selenium.webdriver.support.ui import WebDriverWait

        WebDriverWait(self.driver, 30).until(ec.presence_of_element_located((By.ID, "footer")))
        self.screenshot(name)
        self.assert_fits(name)

    def assert_fits(self, name: str) -> None:
        """No page scrolls sideways: the document is no wider than the window (else, name what sticks out)."""
        width, window, wide = self.driver.execute_script(WIDEST_ELEMENTS_JS)
        assert width <= window, f"{name}: the page is {width} px wide in a {window} px window; widest: {wide}"

    def screenshot(self, name: str) -> None:
        self.shots += 1
        self.driver.save_screenshot(str(SCREENSHOTS / f"admin-{self.shots:02d}-{name}.png"))

    def find(self, css: str):
        from selenium.webdriver.common.by import By

        return self.driver.find_element(By.CSS_SELECTOR, css)

    def submit(self, css: str, name: str) -> None:
        self.find(css).click()
        self.page_loaded(name)

    def wait_for_text(self, css: str, pattern: str, timeout: float = 90) -> str:
        from selenium.webdriver.support.ui import WebDriverWait

        WebDriverWait(self.driver, timeout, poll_frequency=0.5).until(lambda d: re.search(pattern, self.find(css).text))
        return self.find(css).text

    @property
    def body(self) -> str:
        return self.find("body").text


@pytest.mark.django_db(transaction=True)
def test_a_recruiters_day(plain_http_live_server, browser, start_worker, recruiter, settings, tmp_path):
    from talentdb.celery import app

    settings.CELERY_TASK_DEFAULT_QUEUE = app.conf.task_default_queue  # the tests' private queue (conftest)
    worker = start_worker("admin-browser")
    [loaded] = documents_load(documents=[parse((PROGAI_DIR / "ingrid-valtonen.txt").read_bytes())])
    c_language = Skill.objects.get(slug="c")
    CandidateSkillFactory(candidate=CandidateFactory(name="Casey Lowscore"), skill=c_language, score=4)
    me = Recruiter(browser, plain_http_live_server.url)

    # Log in.
    me.open(reverse("admin:login"), "login")
    me.find("#id_username").send_keys(recruiter.username)
    me.find("#id_password").send_keys(PASSWORD)
    me.submit("input[type=submit]", "index")
    assert "Dashboard" in me.body
    assert "TalentDB" in me.driver.title

    # Filter by a skill and a minimum score.
    me.open(reverse("admin:profiles_candidate_changelist"), "candidates")
    assert "Casey Lowscore" in me.body
    assert "Ingrid Valtonen" in me.body
    me.find("#skill-filter-slug").send_keys("c")
    me.find("#skill-filter-min").send_keys("9")
    me.submit("#skill-filter input[type=submit]", "candidates-filtered")
    assert "skill=c%3A9" in browser.current_url
    assert "Ingrid Valtonen" in me.body
    assert "Casey Lowscore" not in me.body

    # Open the profile, then edit a score inline and save.
    me.driver.find_element("link text", "Ingrid Valtonen").click()
    me.page_loaded("candidate-profile")
    assert "Ingrid Valtonen" in me.find("#profile-name").text
    assert "skills" in [line.strip() for line in me.body.lower().splitlines()]  # a heading, set in capitals
    me.submit("#profile-edit", "candidate-edit")
    score = CandidateSkill.objects.get(candidate_id=loaded.candidate_id, skill=c_language)
    row = browser.execute_script(
        "return [...document.querySelectorAll('select[name$=\"-skill\"]')]"
        ".find(s => s.value === arguments[0]).name.replace(/-skill$/, '')",
        str(c_language.pk),
    )
    field = me.find(f"input[name='{row}-score']")
    field.clear()
    field.send_keys("7")
    me.submit("input[name=_save]", "candidate-saved")
    assert "was changed successfully" in me.body
    score.refresh_from_db()
    assert score.score == 7

    # See the change in the history.
    me.open(reverse("admin:profiles_candidate_history", args=[loaded.candidate_id]), "history")
    assert re.search(r"C score:\s*10\s*→\s*7", me.body)
    assert recruiter.username in me.body

    # Add the candidate to a shortlist with the action.
    me.open(reverse("admin:profiles_candidate_changelist") + "?skill=c:7&q=Valtonen", "candidates-search")
    me.find(f"input.action-select[value='{loaded.candidate_id}']").click()
    me.find("select[name=action] option[value=add_to_shortlist]").click()
    me.submit("button[name=index]", "add-to-shortlist")
    me.find("#id_new_name").send_keys("Compiler people")
    me.submit("#add-to-shortlist input[type=submit]", "shortlisted")
    assert "1 candidate added to shortlist Compiler people" in me.body
    entry = ShortlistEntry.objects.get()
    assert (entry.candidate_id, entry.shortlist.name, entry.shortlist.owner_id) == (
        loaded.candidate_id,
        "Compiler people",
        recruiter.pk,
    )

    # Upload files, one of them broken; the batch page follows the worker to 100 % and shows, without a reload,
    # when it finished and which file failed.
    broken = tmp_path / "half-a-resume.json"
    broken.write_text('{"basics": {"name": "Half"')
    me.open(reverse("admin:ingestion_importbatch_add"), "upload")
    paths = [SAMPLES / "amara-okafor.txt", SAMPLES / "rohan-iyer.json", broken]
    me.find("input[type=file]").send_keys("\n".join(str(p) for p in paths))
    me.submit("#upload-form input[type=submit]", "batch")
    text = me.wait_for_text(".batch-progress-text", r"^100 %")
    me.wait_for_text(".batch-failed-files", r"half-a-resume\.json")
    me.screenshot("batch-finished")
    me.assert_fits("batch-finished")
    batch = ImportBatch.objects.get()
    assert (batch.origin, batch.total_files, batch.created_by_id) == ("admin", 3, recruiter.pk)
    assert batch.finished_at is not None, worker.output()
    assert "3 of 3 files, 1 failed" in text
    assert me.find(".batch-finished-at").text not in ("", "-")

    # Open the batch's source files, then the failed one.
    me.open(reverse("admin:ingestion_sourcefile_changelist") + f"?batch__id__exact={batch.pk}", "source-files")
    assert "half-a-resume.json" in me.body
    assert "amara-okafor.txt" in me.body
    me.driver.find_element("partial link text", "half-a-resume").click()
    me.page_loaded("source-file-failed")
    assert "half-a-resume.json" in me.body
