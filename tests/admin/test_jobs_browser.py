"""A recruiter finds people for a job in a real browser (issue 16): headless Chromium at 1366x768 against the live
server. Pastes a fictional job post (tests/fixtures/jobs/) into "Add job", sees its criteria as chips and the ranked
candidates, removes a chip, adds the best candidate to the pipeline, moves them on a stage on the pipeline board, and
opens their profile with its "Similar candidates". No page scrolls sideways; every page is saved under
``screenshots/`` (git-ignored) as ``jobs-NN-<page>.png``.
"""

import base64
import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from jobs.models import Job
from profiles.models import RelatedSkill, ShortlistEntry, SkillAlias
from profiles.vocabulary_copy import skill_vocabulary_changed
from tests.admin.conftest import PASSWORD
from tests.admin.test_browser import BROWSER_TESTS, SCREENSHOTS, Recruiter, chromium_driver
from tests.factories import (
    CandidateFactory,
    CandidateSkillFactory,
    ContributionFactory,
    RepositoryFactory,
    SkillFactory,
)
from tests.jobs.helpers import JOBS_DIR

pytestmark = BROWSER_TESTS

POST = JOBS_DIR / "jd-go-platform.txt"  # Senior Platform Engineer (Go), Berlin, hybrid
# The skills the post names, with the aliases it uses (a transactional test starts from empty tables).
SKILLS = {
    "go": ["go", "golang"],
    "postgresql": ["postgresql", "postgres"],
    "kafka": ["kafka"],
    "rabbitmq": ["rabbitmq"],
    "terraform": ["terraform"],
    "rust": ["rust"],
    "kubernetes": ["kubernetes"],
    "java": ["java"],
    "ruby": ["ruby"],
    "chef": ["chef"],
    "puppet": ["puppet"],
}


NAMES = {"postgresql": {"name": "PostgreSQL"}, "rabbitmq": {"name": "RabbitMQ"}}  # as the seeded vocabulary names them


class JobRecruiter(Recruiter):
    """test_browser's recruiter, its screenshots named ``jobs-NN-...`` beside the day's ``admin-NN-...``."""

    def screenshot(self, name: str) -> None:
        """The whole page, not only the window: the ranked rows are below the criteria."""
        self.shots += 1
        shot = self.driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
        (SCREENSHOTS / f"jobs-{self.shots:02d}-{name}.png").write_bytes(base64.b64decode(shot["data"]))

    def __init__(self, driver, base_url: str):
        super().__init__(driver, base_url)
        for old in SCREENSHOTS.glob("jobs-*.png"):  # a run's pages only: steps are renumbered when they change
            old.unlink()

    def click(self, element, name: str) -> None:
        """Click, and wait for the next page (the old one is gone) before its screenshot."""
        from selenium.common.exceptions import WebDriverException
        from selenium.webdriver.support import expected_conditions as ec
        from selenium.webdriver.support.ui import WebDriverWait

        old = self.find("html")
        element.click()
        # Chromium may answer for the old page's node with an inspector error while the next page replaces it.
        WebDriverWait(self.driver, 30, ignored_exceptions=(WebDriverException,)).until(ec.staleness_of(old))
        self.page_loaded(name)

    def submit(self, css: str, name: str) -> None:
        self.click(self.find(css), name)

    def rows(self):
        from selenium.webdriver.common.by import By

        return self.driver.find_elements(By.CSS_SELECTOR, "#match-results tr.match-row")

    def row_of(self, candidate):
        return self.find(f"#match-results tr.match-row[data-candidate='{candidate.pk}']")


def _pool():
    for slug, labels in SKILLS.items():
        skill = SkillFactory(slug=slug, **NAMES.get(slug, {}))
        for label in labels:
            SkillAlias.objects.get_or_create(label=label, defaults={"skill": skill})
    skill_vocabulary_changed()
    RelatedSkill.objects.create(  # as the related-skills refresh would count it over a real pool
        skill=SkillFactory(slug="go"),
        related=SkillFactory(slug="grpc", name="gRPC"),
        support=42,
        lift=2.4,
        computed_at=timezone.now(),
    )

    def person(name, scores, **fields):
        candidate = CandidateFactory(name=name, title="Backend Engineer", company="Fjordline", **fields)
        for slug, score in scores.items():
            CandidateSkillFactory(candidate=candidate, skill=SkillFactory(slug=slug), score=score)
        return candidate

    greta = person("Greta Gopher", {"go": 9, "postgresql": 8, "kafka": 8, "rabbitmq": 7, "terraform": 7, "rust": 6})
    ContributionFactory(
        candidate=greta,
        repository=RepositoryFactory(full_name="gretag/seat-holder", topic_slugs=["go", "kafka"]),
        commits=240,
        active_months=18,
        start=dt.date(2024, 1, 1),
        is_current=True,
    )
    person("Tomas Terraform", {"go": 7, "postgresql": 6, "terraform": 9}, city="Hamburg")
    person("Dana Decoy", {"go": 3}, summary="Go, Kafka, Kubernetes, Terraform, PostgreSQL: every buzzword.")
    return greta


@pytest.mark.django_db(transaction=True)
def test_a_recruiter_finds_people_for_a_job(plain_http_live_server, tmp_path, recruiter):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    greta = _pool()
    driver = chromium_driver(tmp_path)
    me = JobRecruiter(driver, plain_http_live_server.url)
    try:
        me.open(reverse("admin:login"), "login")
        me.find("#id_username").send_keys(recruiter.username)
        me.find("#id_password").send_keys(PASSWORD)
        me.submit("input[type=submit]", "index")

        # Paste the job post into "Add job".
        me.open(reverse("admin:jobs_job_add"), "add-job")
        me.find("#id_title").send_keys("Senior Platform Engineer")
        description = me.find("#id_description")
        driver.execute_script("arguments[0].value = arguments[1];", description, POST.read_text(encoding="utf-8"))
        me.submit("input[name=_save]", "matches")

        # The criteria as chips, then the candidates ranked by them.
        job = Job.objects.get()
        assert driver.current_url.endswith(reverse("admin:jobs_job_matches", args=[job.pk]))
        required = me.find("#criteria-required").text
        for name in ("Go ≥", "PostgreSQL ≥", "Kafka ≥", "RabbitMQ ≥", "Terraform ≥"):
            assert name in required
        assert "Rust" in me.find("#criteria-preferred").text
        assert "DE" in me.find("#criteria-countries").text
        names = [row.find_element(By.CSS_SELECTOR, ".candidate-name").text for row in me.rows()]
        assert names[0] == "Greta Gopher"
        assert names.index("Tomas Terraform") < names.index("Dana Decoy")
        first = me.rows()[0]
        assert "gretag/seat-holder" in first.text
        assert "%" in first.find_element(By.CSS_SELECTOR, ".match").text
        assert me.find(".chip-missing").text  # someone misses a required skill, in red

        # Remove a chip in one click: the candidates are ranked again.
        me.submit("#criteria-required .chip-remove button[aria-label^='Remove RabbitMQ']", "chip-removed")
        assert "RabbitMQ" not in me.find("#criteria-required").text
        assert "Criteria saved" in me.body

        # A related skill to also consider, added as preferred in one click.
        me.submit("#criteria-also-consider .chip-add button", "also-consider-added")
        assert "gRPC" in me.find("#criteria-preferred").text

        # Add a skill chip, with a mistake first: it is refused in words.
        me.find("#criteria-edit summary").click()
        me.find("#id_skill").send_keys("Zorblang")
        me.submit("#add-skill input[type=submit]", "chip-refused")
        assert "No skill called “Zorblang” is in the database" in me.body
        field = me.find("#id_skill")
        field.clear()
        field.send_keys("Rust")
        me.find("#id_kind option[value=preferred]").click()
        me.submit("#add-skill input[type=submit]", "chip-added")
        assert "Rust" in me.find("#criteria-preferred").text

        # Add the best candidate to the pipeline in one click.
        row = me.row_of(greta)
        me.click(row.find_element(By.CSS_SELECTOR, ".add-to-pipeline button"), "added-to-pipeline")
        assert "Greta Gopher was added to the pipeline (Sourced)." in me.body
        assert "In pipeline: Sourced" in me.row_of(greta).text
        entry = ShortlistEntry.objects.get(shortlist=job.pipeline)
        assert (entry.candidate_id, entry.status) == (greta.pk, "sourced")

        # The pipeline board: move her on a stage in one click.
        me.submit("#tab-board", "board")
        assert "Greta Gopher" in me.find("#stage-sourced").text
        me.submit(f"#stage-sourced .card[data-entry='{entry.pk}'] .move-next button", "moved")
        assert "Greta Gopher moved to Contacted." in me.body
        assert "Greta Gopher" in me.find("#stage-contacted").text
        assert "Greta Gopher" not in me.find("#stage-sourced").text
        entry.refresh_from_db()
        assert entry.status == "contacted"
        assert list(entry.events.filter(kind="stage").values_list("from_status", "to_status", "author")) == [
            ("sourced", "contacted", recruiter.pk)
        ]

        # Her profile: the job she is in, and people like her.
        me.click(driver.find_element(By.LINK_TEXT, "Greta Gopher"), "profile-similar")
        assert "Senior Platform Engineer" in me.find("#profile-work").text
        # The panel fills in after the page has loaded.
        WebDriverWait(driver, 30).until(lambda d: "Tomas Terraform" in me.find("#profile-similar").text)
        similar = [row.text for row in driver.find_elements(By.CSS_SELECTOR, "#profile-similar .similar-row")]
        assert similar
        assert not any("Greta Gopher" in row for row in similar), "she is not similar to herself"
        assert "Ranked as a job's matches" in me.find("#profile-similar").text
    finally:
        driver.quit()
