"""The recruiter's workspace in a real browser at a laptop's 1366x768 and a desktop's 1920x1080: the search results
(one line a candidate, at least 12 on the first screen, the match column, a chip for every filter, no sideways
scroll), the profile (Add to job, Add to shortlist), the edit form without links that delete a shared skill, and
the dashboard. Each first screen is saved to ``docs/screenshots/workspace-<width>-<page>.png`` for a person to
judge."""

import random

import pytest
from django.urls import reverse

from jobs import services as job_services
from profiles import services
from profiles.models import Candidate
from profiles.search import candidates_refresh_search_columns
from tests.admin.test_browser import BASE_DIR, BROWSER_TESTS, WIDEST_ELEMENTS_JS, chromium_driver, emulate_viewport
from tests.factories import CandidateFactory, CandidateSkillFactory, ContributionFactory, SkillFactory

pytestmark = BROWSER_TESTS

SIZES = [(1366, 768), (1920, 1080)]
ADMIN_PASSWORD = "password"  # pytest-django's admin_user
SHOTS = BASE_DIR / "docs" / "screenshots"
FIRST_NAMES = ["Ada", "Ben", "Cyra", "Dario", "Esme", "Farid", "Greta", "Hugo", "Ines", "Jonas", "Kaito", "Lena"]
LAST_NAMES = ["Quill", "Ortiz", "Moreau", "Valtonen", "Okafor", "Lindqvist", "Brandt", "Castellanos-Whitfield"]
COMPANIES = ["Lumen Labs", "Northwind Analytics", "Quanta", "Fjordline Logistics International", "Brightforge"]
TITLES = ["Staff Software Engineer", "Backend Developer", "Principal Platform Engineer", "Data Engineer"]
PLACES = [("Berlin", "DE"), ("Paris", "FR"), ("Tampere", "FI"), ("Lisbon", "PT"), ("Amsterdam", "NL")]

# Rows of the results whose bottom edge is inside the window: what the first screen shows.
ROWS_ON_FIRST_SCREEN_JS = """
return [...document.querySelectorAll('#result_list tbody tr')]
    .filter(row => row.getBoundingClientRect().bottom <= window.innerHeight).length;
"""
ROW_HEIGHTS_JS = (
    "return [...document.querySelectorAll('#result_list tbody tr')].map(r => r.getBoundingClientRect().height);"
)


@pytest.fixture
def desk(db, admin_user):
    rng = random.Random(31)
    skills = [
        SkillFactory(slug=slug, name=name)
        for slug, name in [
            ("python", "Python"),
            ("go", "Go"),
            ("postgresql", "PostgreSQL"),
            ("kubernetes", "Kubernetes"),
            ("typescript", "TypeScript"),
            ("rust", "Rust"),
            ("terraform", "Terraform"),
        ]
    ]
    people = []
    for n in range(30):
        city, country = PLACES[n % len(PLACES)]
        candidate = CandidateFactory(
            name=f"{FIRST_NAMES[n % 12]} {LAST_NAMES[n % 8]}",
            title=TITLES[n % 4],
            company=COMPANIES[n % 5],
            city=city,
            country_code=country,
            years_coding=3 + n % 15,
            badges=["Rockstar"] if n % 4 == 0 else [],
            summary="",
        )
        for skill in rng.sample(skills, 5):
            CandidateSkillFactory(candidate=candidate, skill=skill, score=rng.randint(4, 10))
        people.append(candidate)
    ContributionFactory(candidate=people[0])
    candidates_refresh_search_columns(candidate_ids=[c.pk for c in people])
    job = job_services.job_create(
        user=admin_user, title="Senior Go engineer", description="Requirements: 5+ years of Go and PostgreSQL."
    ).job
    for candidate, stage in zip(people[:4], ["sourced", "contacted", "interviewing", "sourced"], strict=True):
        job_services.pipeline_add(job=job, candidate=candidate, user=admin_user, stage=stage)
    services.shortlist_get_or_create(owner=admin_user, name="Platform people")
    return {"first": people[0], "job": job}


def log_in(driver, base_url, user):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(base_url + reverse("admin:login"))
    driver.find_element(By.ID, "id_username").send_keys(user.username)
    driver.find_element(By.ID, "id_password").send_keys(ADMIN_PASSWORD)
    driver.find_element(By.CSS_SELECTOR, "input[type=submit]").click()
    WebDriverWait(driver, 30).until(ec.presence_of_element_located((By.ID, "footer")))


def open_page(driver, url: str, shot: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(url)
    WebDriverWait(driver, 30).until(ec.presence_of_element_located((By.ID, "footer")))
    assert driver.find_elements(By.ID, "logout-form"), f"{shot}: not the page, the login form"
    page_width, window, wide = driver.execute_script(WIDEST_ELEMENTS_JS)
    assert page_width <= window, f"{shot}: {page_width} px wide in a {window} px window; widest: {wide}"
    SHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SHOTS / f"workspace-{shot}.png"))


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_workspace_pages_at_a_laptop_and_a_desktop(
    plain_http_live_server, tmp_path, admin_user, desk, width, height
):
    from selenium.webdriver.common.by import By

    base = plain_http_live_server.url
    driver = chromium_driver(tmp_path)
    try:
        log_in(driver, base, admin_user)
        emulate_viewport(driver, width, height)

        # The search results: a skill search with filters that came only in the address.
        results = reverse("admin:profiles_candidate_changelist")
        query = "?skill=python:5&min_years_coding=3&title=engineer"
        open_page(driver, base + results + query, f"{width}-candidates")
        assert driver.execute_script(ROWS_ON_FIRST_SCREEN_JS) >= 12
        heights = driver.execute_script(ROW_HEIGHTS_JS)
        assert max(heights) < 2 * min(heights), f"a row wraps onto a second line: {heights}"
        chips = [chip.text for chip in driver.find_elements(By.CSS_SELECTOR, "#active-filters .chip-filter")]
        assert len(chips) == 3, chips
        assert any("python ≥ 5" in chip for chip in chips)
        assert driver.find_elements(By.CSS_SELECTOR, "th.column-match")
        assert driver.find_element(By.ID, "save-search").is_displayed()
        assert driver.find_elements(By.CSS_SELECTOR, "#result_list .row-add")
        facets = driver.find_elements(By.CSS_SELECTOR, "#changelist-filter .facet-count")
        assert facets, "the country facet has no counts"
        # A chip's × removes its filter.
        driver.find_element(By.CSS_SELECTOR, "#active-filters .chip-filter[data-param=title] .chip-remove").click()
        assert len(driver.find_elements(By.CSS_SELECTOR, "#active-filters .chip-filter")) == 2

        # The unfiltered list.
        open_page(driver, base + results, f"{width}-candidates-all")
        assert driver.execute_script(ROWS_ON_FIRST_SCREEN_JS) >= 12

        # The profile: Add to job, Add to shortlist.
        candidate: Candidate = desk["first"]
        open_page(driver, base + reverse("admin:profiles_candidate_change", args=[candidate.pk]), f"{width}-candidate")
        assert driver.find_element(By.ID, "profile-add-to-job").is_displayed()
        assert driver.find_element(By.ID, "profile-add-to-shortlist").is_displayed()

        # The edit form: no link that edits or deletes a skill or repository for everyone.
        open_page(
            driver, base + reverse("admin:profiles_candidate_edit", args=[candidate.pk]), f"{width}-candidate-edit"
        )
        assert driver.find_elements(By.CSS_SELECTOR, "select[name$='-skill']")
        assert not driver.find_elements(By.CSS_SELECTOR, ".related-widget-wrapper-link")
        driver.execute_script("document.getElementById('skills-group').scrollIntoView()")
        driver.save_screenshot(str(SHOTS / f"workspace-{width}-candidate-edit-skills.png"))

        # The dashboard.
        open_page(driver, base + reverse("admin:index"), f"{width}-dashboard")
    finally:
        driver.quit()
