"""The shortlists' and saved searches' pages in a real browser at a laptop's 1366x768: the shortlist list (plain
shortlists and the jobs' pipelines told apart), a shortlist's page and the list of all entries, a profile with its
similar candidates, and the saved searches. None scrolls sideways; each first screen is saved under ``screenshots/``
(git-ignored) as ``working-lists-<page>.png`` for a person to look at."""

import pytest
from django.urls import reverse

from jobs import services as job_services
from profiles.models import SavedSearch, Shortlist, ShortlistEntry
from profiles.search import candidates_refresh_search_columns
from tests.admin.test_browser import BROWSER_TESTS, SCREENSHOTS, WIDEST_ELEMENTS_JS, chromium_driver, emulate_viewport
from tests.factories import CandidateFactory, CandidateSkillFactory, SkillFactory

pytestmark = BROWSER_TESTS

WIDTH, HEIGHT = 1366, 768
ADMIN_PASSWORD = "password"  # pytest-django's admin_user
LONG_NOTE = (
    "Strong on distributed systems; wants to move to Lisbon next spring. Ask about the Kafka migration she led and "
    "the on-call rota she redesigned. Salary expectations above our band."
)
NAMES = [
    "Maximiliane Oberhauser-Lindqvist",
    "Jean-Baptiste Delacroix-Montgomery",
    "Ada Quill",
    "Ben Ortiz",
    "Cyra Moreau",
    "Dario Valtonen",
    "Esme Okafor",
    "Farid Brandt",
]


@pytest.fixture
def lists(db, admin_user):
    """Two plain shortlists and a job's pipeline with long names and notes, saved searches (one with a filter no
    version knows), and candidates who share skills: the first has others with all of her strongest skills and
    others with some of them."""
    skills = {
        slug: SkillFactory(slug=slug, name=name)
        for slug, name in [("python", "Python"), ("go", "Go"), ("postgresql", "PostgreSQL"), ("rust", "Rust")]
    }
    people = []
    for n, name in enumerate(NAMES):
        candidate = CandidateFactory(
            name=name, title="Staff Software Engineer, Distributed Systems", company="Fjordline Logistics International"
        )
        held = ["python", "go", "postgresql"] if n < 3 else ["python", "rust"]
        for slug in held:
            CandidateSkillFactory(candidate=candidate, skill=skills[slug], score=8 if n < 3 else 6)
        people.append(candidate)
    candidates_refresh_search_columns(candidate_ids=[c.pk for c in people])
    shortlist = Shortlist.objects.create(owner=admin_user, name="Platform engineers for the Lisbon office", shared=True)
    Shortlist.objects.create(owner=admin_user, name="Frontend, Berlin")
    for n, candidate in enumerate(people[:4]):
        ShortlistEntry.objects.create(
            shortlist=shortlist, candidate=candidate, status="contacted", notes=LONG_NOTE if n % 2 == 0 else "Call"
        )
    job = job_services.job_create(
        user=admin_user,
        title="Senior Go engineer, payments platform (Lisbon or remote in Europe)",
        description="Requirements: 5+ years of Go and PostgreSQL.",
    ).job
    for candidate in people[:3]:
        job_services.pipeline_add(job=job, candidate=candidate, user=admin_user, stage="sourced")
    SavedSearch.objects.create(owner=admin_user, name="Go in Lisbon", query="skill=go:7&country=PT", shared=True)
    SavedSearch.objects.create(owner=admin_user, name="From an older version", query="q=python&legacy_filter=1")
    return {"shortlist": shortlist, "first": people[0], "job": job}


# Boxes of the page that scroll sideways themselves (the changelist's table sits in one: what is behind its
# scrollbar is as hidden as what is past the window's edge).
SCROLLING_BOXES_JS = """
const name = (e) => e.tagName + (e.id ? "#" + e.id : "") + (e.className ? "." + e.className : "");
return [...document.querySelectorAll("body *")]
    .filter((e) => ["auto", "scroll"].includes(getComputedStyle(e).overflowX) && e.scrollWidth > e.clientWidth + 1)
    .map((e) => `${name(e)} (${e.scrollWidth} px in ${e.clientWidth})`);
"""


def log_in(driver, base_url, user):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(base_url + reverse("admin:login"))
    driver.find_element(By.ID, "id_username").send_keys(user.username)
    driver.find_element(By.ID, "id_password").send_keys(ADMIN_PASSWORD)
    driver.find_element(By.CSS_SELECTOR, "input[type=submit]").click()
    WebDriverWait(driver, 30).until(ec.presence_of_element_located((By.ID, "footer")))


def open_page(driver, url: str, shot: str, ready=None) -> None:
    """Open the page, wait for it (and for ``ready``, a condition on the driver), check that it does not scroll
    sideways, and save its first screen."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(url)
    WebDriverWait(driver, 30).until(ec.presence_of_element_located((By.ID, "footer")))
    if ready is not None:
        WebDriverWait(driver, 30).until(ready)
    assert driver.find_elements(By.ID, "logout-form"), f"{shot}: not the page, the login form"
    SCREENSHOTS.mkdir(exist_ok=True)
    driver.save_screenshot(str(SCREENSHOTS / f"working-lists-{shot}.png"))
    page_width, window, wide = driver.execute_script(WIDEST_ELEMENTS_JS)
    assert page_width <= window, f"{shot}: {page_width} px wide in a {window} px window; widest: {wide}"
    assert driver.execute_script(SCROLLING_BOXES_JS) == [], f"{shot}: part of the page scrolls sideways"


@pytest.mark.django_db(transaction=True)
def test_the_working_lists_pages_fit_a_laptop(plain_http_live_server, tmp_path, admin_user, lists):
    from selenium.webdriver.common.by import By

    base = plain_http_live_server.url
    driver = chromium_driver(tmp_path)
    try:
        log_in(driver, base, admin_user)
        emulate_viewport(driver, WIDTH, HEIGHT)

        open_page(driver, base + reverse("admin:profiles_shortlist_changelist"), "shortlists")
        open_page(driver, base + reverse("admin:profiles_shortlist_change", args=[lists["shortlist"].pk]), "shortlist")
        open_page(driver, base + reverse("admin:profiles_shortlistentry_changelist"), "entries")
        open_page(
            driver, base + reverse("admin:profiles_shortlist_change", args=[lists["job"].pipeline_id]), "pipeline"
        )
        open_page(driver, base + reverse("admin:profiles_savedsearch_changelist"), "saved-searches")
        open_page(
            driver,
            base + reverse("admin:profiles_candidate_change", args=[lists["first"].pk]),
            "profile-similar",
            ready=lambda d: d.find_elements(By.CSS_SELECTOR, "#profile-similar .similar-row"),
        )
        driver.execute_script("document.getElementById('profile-similar').scrollIntoView()")
        driver.save_screenshot(str(SCREENSHOTS / "working-lists-profile-similar-panel.png"))
        # The group headings ("All 3 strongest skills", "Missing some of them") are no candidates: no number.
        displays = driver.execute_script(
            "return [...document.querySelectorAll('#profile-similar .similar-candidates > li')]"
            ".map(li => [li.className, getComputedStyle(li).display])"
        )
        assert {display for kind, display in displays if kind == "similar-group"} == {"block"}, displays
        assert {display for kind, display in displays if kind == "similar-row"} == {"list-item"}, displays
    finally:
        driver.quit()
