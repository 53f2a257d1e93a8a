"""A job's matches page in a real browser (headless Chromium) at 1366×768 and 1920×1080: at least eight ranked rows on
the first screen, nothing scrolling sideways, the criteria chips by their display names, what the reading left out as
chips, and the switches (every requirement met, everyone) working and kept in the address. The first screen of each
size is saved under ``docs/screenshots/`` as ``job-matches-<width>.png``, the switched pages under ``screenshots/``."""

import datetime as dt

import pytest
from django.conf import settings
from django.urls import reverse

from jobs import services
from jobs.models import Job
from profiles.models import SkillAlias
from profiles.vocabulary_copy import skill_vocabulary_changed
from tests.admin.test_browser import BROWSER_TESTS, SCREENSHOTS, chromium_driver, emulate_viewport
from tests.admin.test_overflow_browser import WIDTHS, log_in
from tests.factories import (
    CandidateFactory,
    CandidateSkillFactory,
    ContributionFactory,
    RepositoryFactory,
    SkillFactory,
)

pytestmark = BROWSER_TESTS

DOC_SHOTS = settings.BASE_DIR / "docs" / "screenshots"
SIZES = [(1366, 768), (1920, 1080)]
FIRST_SCREEN_ROWS = 8

POST = """Senior Backend Engineer (Go)

Location: Berlin, Germany. On-site.

Requirements
- 5+ years of Go, PostgreSQL and Kafka
- Kubernetes and Terraform in production

Nice to have
- Rust
"""
SKILLS = {"go": "Go", "postgresql": "PostgreSQL", "kafka": "Apache Kafka", "kubernetes": "Kubernetes"}
SKILLS |= {"terraform": "Terraform", "rust": "Rust", "php": "PHP"}
FIRST = [
    "Ada",
    "Bram",
    "Cleo",
    "Dara",
    "Emil",
    "Fenna",
    "Gus",
    "Hedda",
    "Ines",
    "Joris",
    "Kai",
    "Lotte",
    "Mats",
    "Nora",
]


def _pool():
    for slug, name in SKILLS.items():
        skill = SkillFactory(slug=slug, name=name)
        SkillAlias.objects.get_or_create(label=slug, defaults={"skill": skill})
    skill_vocabulary_changed()
    for index, first in enumerate(FIRST):
        # Some meet every requirement, the others miss one or two: both groups are on the page.
        scores = {"go": 9 - index % 4, "postgresql": 8, "kafka": 7, "kubernetes": 6 + index % 3, "terraform": 6}
        for slug in ("kafka", "terraform")[: index % 3]:
            scores.pop(slug)
        candidate = CandidateFactory(
            name=f"{first} Testperson", title="Backend Engineer", company="Fjordline Logistics", city="Berlin",
            country_code="DE", summary="", years_coding=4 + index % 5,
        )  # fmt: skip
        for slug, score in scores.items():
            CandidateSkillFactory(candidate=candidate, skill=SkillFactory(slug=slug), score=score)
        ContributionFactory(
            candidate=candidate,
            repository=RepositoryFactory(full_name=f"{first.lower()}/service-{index}", topic_slugs=["go", "kafka"]),
            commits=20 + 10 * index,
            active_months=6,
            start=dt.date(2024, 1, 1),
            is_current=True,
        )
    abroad = CandidateFactory(name="Oskar Abroad", city="Lyon", country_code="FR", country="France", summary="")
    for slug in ("go", "postgresql", "kafka", "kubernetes", "terraform"):
        CandidateSkillFactory(candidate=abroad, skill=SkillFactory(slug=slug), score=10)
    return abroad


def _first_screen(driver) -> dict:
    return driver.execute_script(
        """
        const rows = [...document.querySelectorAll("#match-results tr.match-row")];
        return {
          rows: rows.length,
          onScreen: rows.filter((r) => r.getBoundingClientRect().bottom <= window.innerHeight).length,
          names: rows.map((r) => r.querySelector(".candidate-name").textContent),
        };
        """
    )


def _apply_switches(driver, expected: str) -> None:
    """Submit the switches and wait for the page they lead to: read at once, ``current_url`` may still be the page
    before the click, and the next step would then reload the old page."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver.find_element(By.CSS_SELECTOR, "#ranking-switches input[type=submit]").click()
    WebDriverWait(driver, 30).until(lambda d: expected in d.current_url)


def _open(driver, url: str, name: str, *, keep: bool = False) -> dict:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(url)
    WebDriverWait(driver, 30).until(ec.presence_of_element_located((By.ID, "footer")))
    SCREENSHOTS.mkdir(exist_ok=True)
    driver.save_screenshot(str(SCREENSHOTS / f"job-matches-{name}.png"))
    if keep:
        DOC_SHOTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(DOC_SHOTS / f"job-matches-{name}.png"))
    widths = driver.execute_script(WIDTHS)
    assert widths["document"] <= widths["window"], f"{name}: scrolls sideways; wider than the window: {widths['wide']}"
    assert widths["scrolling"] == [], f"{name}: part of the page scrolls sideways"
    return _first_screen(driver)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_matches_page_shows_eight_rows_its_chips_and_working_switches(
    plain_http_live_server, tmp_path, recruiter, width, height
):
    from selenium.webdriver.common.by import By

    abroad = _pool()
    job = services.job_create(user=recruiter, title="Senior Backend Engineer (Go)", description=POST).job
    Job.objects.filter(pk=job.pk).update(
        countries=["DE"],
        ignored=[{"label": "PHP", "skill": "php", "reason": "migrated-off"}],
        unrecognised=["Nextflow"],
    )
    driver = chromium_driver(tmp_path)
    try:
        emulate_viewport(driver, width, height)
        log_in(driver, plain_http_live_server.url, recruiter)
        url = plain_http_live_server.url + reverse("admin:jobs_job_matches", args=[job.pk])

        screen = _open(driver, url, f"{width}", keep=True)
        assert screen["onScreen"] >= FIRST_SCREEN_ROWS, screen
        assert "Oskar Abroad" not in screen["names"], "an on-site job in Germany: candidates in Germany"
        required = driver.find_element(By.ID, "criteria-required").text
        assert "PostgreSQL ≥" in required
        assert "Apache Kafka ≥" in required
        assert "postgresql" not in required
        assert "+ PHP" in driver.find_element(By.ID, "criteria-ignored").text
        assert "+ Nextflow" in driver.find_element(By.ID, "criteria-unrecognised").text
        headers = [h.text for h in driver.find_elements(By.CSS_SELECTOR, "#match-results tr.group-header")]
        assert headers[0] == "Meets all 5 requirements"

        # "Meets every requirement": only the first group, and the address keeps the switch.
        driver.find_element(By.CSS_SELECTOR, "#switch-strict input").click()
        _apply_switches(driver, "strict=1")
        strict = _open(driver, driver.current_url, f"{width}-strict")
        assert "strict=1" in driver.current_url
        assert driver.find_element(By.CSS_SELECTOR, "#switch-strict input").is_selected()
        assert not driver.find_elements(By.CSS_SELECTOR, "#match-results .chip-missing")
        assert 0 < strict["rows"] < screen["rows"]

        # "Everyone": the candidate in France joins, the other switch still on.
        driver.find_element(By.CSS_SELECTOR, "#switch-anywhere input").click()
        _apply_switches(driver, "anywhere=1")
        everyone = _open(driver, driver.current_url, f"{width}-everyone")
        assert "anywhere=1" in driver.current_url
        assert "strict=1" in driver.current_url
        assert abroad.name in everyone["names"]
    finally:
        driver.quit()
