"""Two loaders in two transactions at once, interleaved on purpose: no deadlock, one candidate per person."""

import contextlib
import dataclasses
import threading

import pytest
from django.db import connection

from ingestion.documents import ContributionEntry, Location, ProfileDocument, SkillEntry
from ingestion.loaders import children
from ingestion.loaders import skills as loader_skills
from ingestion.services import documents_load
from profiles.models import Candidate, Skill

pytestmark = pytest.mark.django_db(transaction=True)


def _doc(name: str, skill: str, topic: str, repository: str) -> ProfileDocument:
    return ProfileDocument(
        format="progai",
        name=name,
        location=Location(city="Lisbon", country="Portugal", country_code="PT"),
        skills=[SkillEntry(label=skill, score=7)],
        contributions=[ContributionEntry(repository=repository, topics=[topic])],
    )


def _load_in_threads(docs: list[ProfileDocument], monkeypatch) -> list[BaseException]:
    """Load each document in a thread of its own; both threads pause after creating their first new skills, so each
    would hold what the other needs next."""
    barrier = threading.Barrier(len(docs), timeout=1.5)
    real = loader_skills.skill_ids_for_labels
    paused: set[int] = set()

    def pausing(**kwargs):
        ids = real(**kwargs)
        if threading.get_ident() not in paused:
            paused.add(threading.get_ident())
            # A broken barrier: the other loader waits for this one's locks, exactly what prevents the deadlock.
            with contextlib.suppress(threading.BrokenBarrierError):
                barrier.wait()
        return ids

    monkeypatch.setattr(loader_skills, "skill_ids_for_labels", pausing)
    errors: list[BaseException] = []

    def load(doc: ProfileDocument) -> None:
        try:
            documents_load(documents=[doc])
        except Exception as exc:  # collected and asserted on below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=load, args=(doc,)) for doc in docs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return errors


def test_two_loaders_creating_the_same_new_skills_in_opposite_order_do_not_deadlock(seeded_vocabulary, monkeypatch):
    docs = [
        _doc("Ana Prima", skill="zqx-alpha-skill", topic="zqx-beta-skill", repository="ana/one"),
        _doc("Rui Secundo", skill="zqx-beta-skill", topic="zqx-alpha-skill", repository="rui/two"),
    ]

    errors = _load_in_threads(docs, monkeypatch)

    assert errors == [], errors
    assert set(Candidate.objects.values_list("name", flat=True)) == {"Ana Prima", "Rui Secundo"}
    assert Skill.objects.filter(slug__in=["zqx-alpha-skill", "zqx-beta-skill"]).count() == 2


def test_two_loaders_of_the_same_person_at_once_give_one_candidate(seeded_vocabulary, monkeypatch):
    docs = [
        _doc("Ines Igual", skill="python", topic="django", repository="ines/one"),
        _doc("Inês  Igual", skill="rust", topic="tokio", repository="ines/two"),
    ]

    errors = _load_in_threads(docs, monkeypatch)

    assert errors == [], errors
    assert Candidate.objects.count() == 1


@pytest.mark.parametrize("shared", ["skill", "repository"])
def test_a_take_back_never_deletes_a_shared_row_a_loader_has_just_read(seeded_vocabulary, monkeypatch, shared):
    """Issue 15, hole 9 (review): a loader looked up an existing skill or repository without a lock; a take-back of
    another import's failed file, which had created that row and found it unused, deleted it in between, and the
    loader's valid file failed on the foreign key at commit (23503). Interleaved on purpose: the loader stops right
    after reading the row, in its chunk's transaction, while the take-back runs and commits."""
    from ingestion.loaders import shared_rows_delete_unused
    from profiles.models import Contribution, Repository
    from profiles.services import skills_upsert

    skills_upsert(skills=[("zq-lonely-skill", "zq-lonely-skill", Skill.Kind.SKILL)], aliases=[])
    Repository.objects.create(full_name="zq-lonely/repo")
    doc = dataclasses.replace(
        _doc("Lina Leitora", skill="zq-lonely-skill", topic="", repository="zq-lonely/repo"),
        contributions=[ContributionEntry(repository="zq-lonely/repo")],  # as stored: the loader only reads it
    )
    # The chunk's first write after it read the row: the skill's id goes into the candidate's skills, the
    # repository's into the contributions.
    table = "profiles_candidateskill" if shared == "skill" else "profiles_contribution"
    real = children.copy_rows
    has_read, take_back_done = threading.Event(), threading.Event()

    def pausing(into: str, *args, **kwargs):
        if into == table:
            has_read.set()
            take_back_done.wait(timeout=10)
        return real(into, *args, **kwargs)

    monkeypatch.setattr(children, "copy_rows", pausing)
    errors: list[BaseException] = []

    def load() -> None:
        try:
            documents_load(documents=[doc])
        except Exception as exc:  # asserted on below
            errors.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=load)
    thread.start()
    assert has_read.wait(timeout=30)
    try:
        # Another import's file that created these rows failed: its take-back, in a transaction of its own.
        shared_rows_delete_unused(
            skill_slugs=["zq-lonely-skill"] if shared == "skill" else [],
            alias_labels=[],
            repository_names=["zq-lonely/repo"] if shared == "repository" else [],
        )
    finally:
        take_back_done.set()
        thread.join(timeout=60)

    assert errors == [], errors
    assert Candidate.objects.filter(name="Lina Leitora").exists()
    assert Skill.objects.filter(slug="zq-lonely-skill").exists()
    assert Contribution.objects.filter(repository__full_name="zq-lonely/repo").exists()
