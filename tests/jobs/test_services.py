"""Jobs: created from a description with their criteria stored as rows, edited, and their pipeline."""

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from core.errors import ApplicationError
from jobs import services
from jobs.criteria import Criteria
from jobs.models import Job, JobSkill
from jobs.selectors import job_criteria, job_pipeline, jobs_for
from profiles.models import Shortlist, ShortlistEntry
from tests.factories import CandidateFactory, UserFactory
from tests.jobs.stored import DESCRIPTION

pytestmark = pytest.mark.django_db


def _rows(job):
    return sorted(job.skills.values_list("skill__slug", "kind", "min_score"))


def test_a_job_created_from_a_description_stores_its_criteria_as_rows_and_gets_a_pipeline(skills):
    owner = UserFactory()

    saved = services.job_create(user=owner, title=" Backend  Engineer ", description=DESCRIPTION)

    job = Job.objects.get()
    assert saved.job == job
    assert (job.title, job.description, job.status, job.owner, job.shared) == (
        "Backend Engineer", DESCRIPTION, "open", owner, False,
    )  # fmt: skip
    assert _rows(job) == [
        ("go", "required", 5),
        ("kafka", "required", 5),
        ("postgresql", "required", 5),
        ("rust", "preferred", None),
    ]
    assert job.min_years_coding == 5
    assert (job.pipeline.name, job.pipeline.owner, job.pipeline.shared) == ("Backend Engineer", owner, False)
    assert job_criteria(job).to_dict()["required"][0] == {"skill": "go", "min_score": 5}


def test_overrides_replace_what_the_description_gave(skills):
    saved = services.job_create(
        user=UserFactory(),
        title="Backend",
        description=DESCRIPTION,
        criteria={"required": [{"skill": "go", "min_score": 8}], "excluded": ["php"], "remote": True},
    )

    assert _rows(saved.job) == [("go", "required", 8), ("php", "excluded", None), ("rust", "preferred", None)]
    assert saved.job.remote is True


def test_a_second_job_of_the_same_title_gets_its_own_pipeline_name(skills):
    owner = UserFactory()
    Shortlist.objects.create(owner=owner, name="Backend")

    first = services.job_create(user=owner, title="Backend", description=DESCRIPTION).job
    second = services.job_create(user=owner, title="Backend", description=DESCRIPTION).job
    other = services.job_create(user=UserFactory(), title="Backend", description=DESCRIPTION).job

    assert (first.pipeline.name, second.pipeline.name, other.pipeline.name) == ("Backend (2)", "Backend (3)", "Backend")


@pytest.mark.parametrize(
    ("description", "code"),
    [("   ", "invalid_description"), ("a\x00b", "invalid_description"), ("x" * 100_001, "invalid_description")],
)
def test_a_description_that_cannot_be_read_creates_nothing(skills, description, code):
    with pytest.raises(ApplicationError) as raised:
        services.job_create(user=UserFactory(), title="Backend", description=description)

    assert raised.value.code == code
    assert not Job.objects.exists()
    assert not Shortlist.objects.exists()


def test_a_description_without_skills_makes_a_job_with_a_warning(skills):
    saved = services.job_create(user=UserFactory(), title="Office manager", description="We need an office manager.")

    assert _rows(saved.job) == []
    assert saved.warnings


def test_an_unknown_skill_in_the_overrides_is_refused(skills):
    with pytest.raises(ApplicationError) as raised:
        services.job_create(
            user=UserFactory(), title="B", description=DESCRIPTION, criteria={"preferred": [{"skill": "frob-9000"}]}
        )

    assert raised.value.code == "unknown_skill"
    assert not Job.objects.exists()


def test_the_owner_edits_fields_and_criteria_and_the_pipeline_follows(skills):
    owner = UserFactory()
    job = services.job_create(user=owner, title="Backend", description=DESCRIPTION).job

    services.job_update(
        job=job,
        user=owner,
        title="Platform",
        shared=True,
        status="closed",
        criteria={"required": [{"skill": "rust", "min_score": 7}], "preferred": [], "countries": ["PL"]},
    )

    job.refresh_from_db()
    assert (job.title, job.shared, job.status, job.countries, job.min_years_coding) == (
        "Platform", True, "closed", ["PL"], 5,
    )  # fmt: skip
    assert _rows(job) == [("rust", "required", 7)]
    assert (job.pipeline.name, job.pipeline.shared) == ("Platform", True)


def test_only_the_owner_changes_a_job_even_a_shared_one(skills):
    owner, colleague = UserFactory(), UserFactory()
    job = services.job_create(user=owner, title="Backend", description=DESCRIPTION, shared=True).job
    candidate = CandidateFactory()

    with pytest.raises(PermissionDenied):
        services.job_update(job=job, user=colleague, title="Mine")
    with pytest.raises(PermissionDenied):
        services.pipeline_add(job=job, candidate=candidate, user=colleague)

    assert Job.objects.get().title == "Backend"
    assert list(jobs_for(user=colleague)) == [job]
    assert list(jobs_for(user=colleague, for_writing=True)) == []


def test_a_private_job_is_only_its_owners():
    owner, colleague, admin = UserFactory(), UserFactory(), UserFactory(is_superuser=True)
    job = services.job_create(user=owner, title="Backend", description="Python developer wanted.").job

    assert (list(jobs_for(user=owner)), list(jobs_for(user=colleague)), list(jobs_for(user=admin))) == (
        [job],
        [],
        [job],
    )


def test_the_pipeline_records_adding_moving_and_noting_with_author_and_time(skills):
    owner = UserFactory(username="ines")
    job = services.job_create(user=owner, title="Backend", description=DESCRIPTION).job
    ada, bo = CandidateFactory(name="Ada"), CandidateFactory(name="Bo")
    before = timezone.now()

    entry, added = services.pipeline_add(job=job, candidate=ada, user=owner)
    services.pipeline_move(entry=entry, stage="contacted", user=owner)
    services.pipeline_move(entry=entry, stage="replied", user=owner)
    services.pipeline_note(entry=entry, text="Wants remote.", user=owner)
    again, added_again = services.pipeline_add(job=job, candidate=ada, user=owner, stage="interviewing", note="Fri")
    services.pipeline_add(job=job, candidate=bo, user=owner, stage="rejected")

    assert (added, added_again, again.pk) == (True, False, entry.pk)
    events = list(entry.events.values_list("kind", "author__username", "from_status", "to_status", "note"))
    assert events == [
        ("added", "ines", "", "sourced", ""),
        ("stage", "ines", "sourced", "contacted", ""),
        ("stage", "ines", "contacted", "replied", ""),
        ("note", "ines", "", "", "Wants remote."),
        ("stage", "ines", "replied", "interviewing", ""),
        ("note", "ines", "", "", "Fri"),
    ]
    assert all(before <= at <= timezone.now() for at in entry.events.values_list("at", flat=True))
    stages = dict(job_pipeline(job=job))
    assert list(stages) == ["sourced", "contacted", "replied", "interviewing", "offer", "hired", "rejected"]
    assert [e.candidate.name for e in stages["interviewing"]] == ["Ada"]
    assert [e.candidate.name for e in stages["rejected"]] == ["Bo"]
    assert ShortlistEntry.objects.get(candidate=ada).notes == "Wants remote.\n\nFri"


def test_a_stage_that_does_not_exist_is_refused(skills):
    owner = UserFactory()
    job = services.job_create(user=owner, title="Backend", description=DESCRIPTION).job
    entry, _ = services.pipeline_add(job=job, candidate=CandidateFactory(), user=owner)

    with pytest.raises(ApplicationError):
        services.pipeline_move(entry=entry, stage="new", user=owner)


def test_a_job_skill_score_outside_0_to_10_is_refused_by_the_database(skills):
    from django.db import IntegrityError

    job = services.job_create(user=UserFactory(), title="Backend", description=DESCRIPTION).job
    with pytest.raises(IntegrityError):
        JobSkill.objects.filter(job=job).update(min_score=11)


def test_editing_only_places_or_years_keeps_the_skill_rows_as_they_are(skills):
    owner = UserFactory()
    job = services.job_create(user=owner, title="Backend", description=DESCRIPTION).job
    before = sorted(job.skills.values_list("pk", flat=True))

    services.job_update(job=job, user=owner, criteria={"countries": ["PL"], "min_years_coding": 3, "remote": False})

    job.refresh_from_db()
    assert sorted(job.skills.values_list("pk", flat=True)) == before
    assert (job.countries, job.min_years_coding, job.remote) == (["PL"], 3, False)


def test_criteria_rows_edited_one_by_one_are_the_owners_to_change(skills):
    owner, colleague = UserFactory(), UserFactory()
    job = services.job_create(user=owner, title="Backend", description=DESCRIPTION, shared=True).job
    rust = job.skills.get(skill__slug="rust")
    kafka = job.skills.get(skill__slug="kafka")

    with pytest.raises(PermissionDenied):
        services.job_skills_save(job=job, user=colleague, deleted=[kafka])
    rust.kind, rust.min_score = "excluded", 4
    services.job_skills_save(job=job, user=owner, changed=[rust], deleted=[kafka])

    assert _rows(job) == [("go", "required", 5), ("postgresql", "required", 5), ("rust", "excluded", None)]


def test_the_jobs_title_heads_the_text_its_criteria_are_read_from(skills):
    # A pasted description often starts with a sentence, not the title: its words are not the role's keywords.
    saved = services.job_create(
        user=UserFactory(),
        title="Senior Payments Engineer",
        description="We build payment systems.\n\nRequirements\n- Python\n- 5+ years of experience",
    )

    keywords = set(job_criteria(saved.job).keywords)
    assert {"senior", "payments"} <= keywords
    assert not keywords & {"we", "build", "systems"}


def _reads(monkeypatch) -> list[int]:
    """The lengths of the texts the extractor reads from now on."""
    from jobs import selectors

    reads, extract = [], selectors.extract_criteria

    def counted(text, *args, **kwargs):
        reads.append(len(text))
        return extract(text, *args, **kwargs)

    monkeypatch.setattr(selectors, "extract_criteria", counted)
    return reads


def test_a_job_is_created_reading_its_description_once_and_an_edit_reads_it_no_more(skills, monkeypatch):
    reads = _reads(monkeypatch)
    owner = UserFactory()

    job = services.job_create(user=owner, title="Backend", description=DESCRIPTION).job
    created = len(reads)
    services.job_update(job=job, user=owner, description=DESCRIPTION + "\nOn call once a month.")

    assert (created, len(reads)) == (1, 1)


def test_the_cap_counts_the_description_as_pasted_not_the_title_read_above_it(skills, settings):
    settings.JOB_DESCRIPTION_MAX_CHARS = 500
    at_the_cap = DESCRIPTION + "x" * (500 - len(DESCRIPTION))
    owner = UserFactory()

    job = services.job_create(
        user=owner, title="A title that is not the description's first line", description=at_the_cap
    )
    with pytest.raises(ApplicationError) as raised:
        services.job_create(user=owner, title="Backend", description=at_the_cap + "x")

    assert job.job.description == at_the_cap
    assert raised.value.details == {"description": ["The description is 501 characters long; at most 500 are read."]}


def test_a_job_whose_criteria_cannot_be_stored_leaves_no_pipeline_behind(skills, monkeypatch):
    def fails(**kwargs):
        raise RuntimeError("the criteria rows could not be written")

    monkeypatch.setattr(services, "_store_criteria", fails)

    with pytest.raises(RuntimeError):
        services.job_create(user=UserFactory(), title="Backend", description=DESCRIPTION)

    assert not Job.objects.exists()
    assert not Shortlist.objects.exists()


@pytest.mark.parametrize("description", [-3607, ["Go"], {"text": "Go"}, None, True, b"Go"])
def test_a_description_that_is_not_text_is_refused_with_the_extractors_message(skills, description):
    with pytest.raises(ApplicationError) as raised:
        services.job_create(user=UserFactory(), title="Backend", description=description)

    assert raised.value.code == "invalid_description"
    assert "must be text" in raised.value.message
    assert not Job.objects.exists()


def test_a_post_with_a_technical_looking_token_too_long_for_a_name_is_stored_without_it(skills):
    description = f"Backend {'ab1' * 60} Engineer\n\nRequirements\n- Go and {'Ab1' * 60}; data in QuuxDB\n"

    job = services.job_create(user=UserFactory(), title="Backend", description=description).job

    job.refresh_from_db()
    assert job.unrecognised == ["QuuxDB"]
    assert job.keywords == ["backend"]
    assert _rows(job) == [("go", "required", 5)]


def test_terms_and_keywords_longer_than_their_columns_are_clipped_when_stored(skills, monkeypatch):
    # Django writes an array as ``%s::varchar(100)[]``, and PostgreSQL's explicit cast clips: no DataError.
    read = Criteria(keywords=("k" * 150, "senior"), unrecognised=("U" * 150, "PostGIS"))
    monkeypatch.setattr(services, "description_criteria", lambda text, heading_chars: read)

    job = services.job_create(user=UserFactory(), title="Backend", description=DESCRIPTION).job

    job.refresh_from_db()
    assert job.keywords == ["k" * 100, "senior"]
    assert job.unrecognised == ["U" * 100, "PostGIS"]
