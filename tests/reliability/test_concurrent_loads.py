"""Two loaders in two transactions at once, interleaved on purpose: no deadlock, one candidate per person."""

import contextlib
import threading

import pytest
from django.db import connection

from ingestion import loaders
from ingestion.documents import ContributionEntry, Location, ProfileDocument, SkillEntry
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
    real = loaders.skill_ids_for_labels
    paused: set[int] = set()

    def pausing(**kwargs):
        ids = real(**kwargs)
        if threading.get_ident() not in paused:
            paused.add(threading.get_ident())
            # A broken barrier: the other loader waits for this one's locks, exactly what prevents the deadlock.
            with contextlib.suppress(threading.BrokenBarrierError):
                barrier.wait()
        return ids

    monkeypatch.setattr(loaders, "skill_ids_for_labels", pausing)
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
