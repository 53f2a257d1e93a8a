"""Issue 17: at 1366×768 the shortlist page and the source-file list fit the window. Headless Chromium opens each with
rows as long as real ones (long names, notes, labels) and checks that the page does not scroll sideways; each page is
saved under ``screenshots/`` for a person to look at."""

import pytest
from django.urls import reverse

from ingestion.models import SourceFile
from profiles.models import Shortlist, ShortlistEntry
from tests.admin.conftest import PASSWORD
from tests.admin.test_browser import BROWSER_TESTS, SCREENSHOTS, chromium_driver, emulate_viewport
from tests.factories import CandidateFactory, ImportBatchFactory, SourceFileFactory

pytestmark = BROWSER_TESTS

WIDTH, HEIGHT = 1366, 768
LONG_NOTE = (
    "Strong on distributed systems; wants to move to Lisbon next spring. Ask about the Kafka migration she led and "
    "the on-call rota she redesigned. Salary expectations above our band."
)


@pytest.fixture
def browser(tmp_path):
    driver = chromium_driver(tmp_path)
    # The viewport itself, whatever the window around it: what a 1366×768 laptop shows.
    emulate_viewport(driver, WIDTH, HEIGHT)
    yield driver
    driver.quit()


def log_in(driver, base_url: str, user) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(base_url + reverse("admin:login"))
    driver.find_element(By.ID, "id_username").send_keys(user.username)
    driver.find_element(By.ID, "id_password").send_keys(PASSWORD)
    driver.find_element(By.CSS_SELECTOR, "input[type=submit]").click()
    WebDriverWait(driver, 30).until(ec.presence_of_element_located((By.ID, "dashboard")))


def open_page(driver, url: str, ready_css: str, name: str) -> dict:
    """Open the page, wait for ``ready_css``, save a screenshot, and return the document's and the window's width."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(url)
    WebDriverWait(driver, 30).until(ec.presence_of_element_located((By.CSS_SELECTOR, ready_css)))
    SCREENSHOTS.mkdir(exist_ok=True)
    driver.save_screenshot(str(SCREENSHOTS / f"overflow-{name}-{WIDTH}.png"))
    return driver.execute_script(WIDTHS)


# The document's and the window's width, what sticks out of the window, and any box of the page that scrolls
# sideways itself (the changelist's table sits in one: columns behind its scrollbar are as hidden).
WIDTHS = """
const name = (e) => e.tagName + (e.id ? "#" + e.id : "") + (e.className ? "." + e.className : "");
return {
  document: document.documentElement.scrollWidth,
  window: window.innerWidth,
  wide: [...document.querySelectorAll("body *")]
    .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1).slice(0, 5).map(name),
  scrolling: [...document.querySelectorAll("body *")]
    .filter((e) => ["auto", "scroll"].includes(getComputedStyle(e).overflowX) && e.scrollWidth > e.clientWidth + 1)
    .map(name),
};
"""


def assert_fits(widths: dict) -> None:
    assert widths["window"] == WIDTH
    assert widths["document"] <= widths["window"], f"scrolls sideways; wider than the window: {widths['wide']}"
    assert widths["scrolling"] == [], "part of the page scrolls sideways"


@pytest.mark.django_db(transaction=True)
def test_the_shortlist_page_fits_a_1366_px_window(plain_http_live_server, browser, recruiter):
    shortlist = Shortlist.objects.create(name="Platform engineers for the Lisbon office", owner=recruiter)
    for i, name in enumerate(["Maximiliane Oberhauser-Lindqvist", "Ana", "Jean-Baptiste Delacroix-Montgomery"]):
        candidate = CandidateFactory(name=name, headline="Staff Software Engineer, Distributed Systems at Example")
        ShortlistEntry.objects.create(
            shortlist=shortlist, candidate=candidate, status="contacted", notes=LONG_NOTE if i != 1 else "Call back"
        )
    base = plain_http_live_server.url
    log_in(browser, base, recruiter)

    widths = open_page(
        browser, base + reverse("admin:profiles_shortlist_change", args=[shortlist.pk]), "#footer", "shortlist"
    )

    assert_fits(widths)
    from selenium.webdriver.common.by import By

    # Every column of the entries shows inside the window: candidate, stage, notes, added at and delete.
    row = browser.find_element(By.CSS_SELECTOR, "#entries-group tbody tr.form-row.has_original")
    for cell in ["td.field-candidate", "td.field-status", "td.field-notes", "td.field-added", "td.delete"]:
        right = browser.execute_script(
            "return arguments[0].getBoundingClientRect().right", row.find_element(By.CSS_SELECTOR, cell)
        )
        assert right <= WIDTH, f"{cell} ends at {right} px"


@pytest.mark.django_db(transaction=True)
def test_the_source_file_list_fits_a_1366_px_window(plain_http_live_server, browser, recruiter):
    batch = ImportBatchFactory(
        created_by=recruiter, label="Berlin meetup, October: profiles exported from Prog.AI by the sourcing team"
    )
    candidate = CandidateFactory(name="Maximiliane Oberhauser-Lindqvist")
    for name, status, outcome, size in [
        (
            "maximiliane-oberhauser-lindqvist-staff-engineer-distributed-systems-2026-10-14.txt",
            SourceFile.Status.IMPORTED,
            SourceFile.Outcome.CREATED,
            1_234_567,
        ),
        ("jean-baptiste-delacroix-montgomery.json", SourceFile.Status.UNCHANGED, SourceFile.Outcome.UNCHANGED, 98_765),
        ("ana.txt", SourceFile.Status.FAILED, SourceFile.Outcome.NONE, 9),
    ]:
        SourceFileFactory(
            batch=batch,
            candidate=candidate if outcome else None,
            original_name=name,
            status=status,
            outcome=outcome,
            size=size,
            error="" if outcome else "Not a Prog.AI text export or a JSON Resume file.",
        )
    base = plain_http_live_server.url
    log_in(browser, base, recruiter)

    widths = open_page(browser, base + reverse("admin:ingestion_sourcefile_changelist"), "#result_list", "sourcefiles")

    assert_fits(widths)
    from selenium.webdriver.common.by import By

    # Every column shows inside the window, the last ones (batch, size, created) too, not behind a scrollbar.
    headers = browser.find_elements(By.CSS_SELECTOR, "#result_list thead th")
    assert [th.text.strip().lower().split("\n")[-1] for th in headers][-3:] == ["batch", "size", "created"]
    results_right = browser.execute_script(
        "return document.querySelector('#changelist-form .results').getBoundingClientRect().right"
    )
    for element in [*headers, *browser.find_elements(By.CSS_SELECTOR, "#result_list tbody tr:first-child > *")]:
        right = browser.execute_script("return arguments[0].getBoundingClientRect().right", element)
        assert right <= results_right, f"{element.get_attribute('class')} ends at {right} px, behind the scrollbar"
    # A name cut short is whole in its title.
    cut = browser.find_element(By.CSS_SELECTOR, "#result_list .field-file_name .cut[title^='maximiliane']")
    assert cut.get_attribute("title").endswith("-2026-10-14.txt")
