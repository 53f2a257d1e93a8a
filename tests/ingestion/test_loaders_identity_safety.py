"""Two people are never merged into one by a key: an employer's site names no one, and under every key a clearly
different name is a new candidate, recorded as a possible duplicate of the one the key led to."""

import json

import pytest

from ingestion.loaders import preview_outcomes
from ingestion.models import SourceFile
from ingestion.normalise import normalise
from ingestion.parsers import parse
from profiles.models import Candidate, CandidateIdentifier, PossibleDuplicate, SharedIdentifier
from profiles.selectors import candidate_duplicate_groups
from profiles.vocabulary import SkillVocabulary
from tests.ingestion.imports import import_all, receive

pytestmark = pytest.mark.django_db

GLOBEX = "https://globex.example"


def resume(name: str, email: str, *, url: str = "", title: str = "Engineer", work_url: str | None = None) -> bytes:
    work = [{"name": "Globex", "position": title, "startDate": "2020-01", "summary": f"{name} works here."}]
    if work_url is not None:
        work[0]["url"] = work_url
    return json.dumps(
        {
            "basics": {"name": name, "label": title, "email": email, "url": url, "location": {"city": "Porto"}},
            "work": work,
            "skills": [{"name": "Python", "level": "Expert"}],
        }
    ).encode()


def imported(*files: tuple[str, bytes]) -> list[SourceFile]:
    batch = receive(*files)
    import_all(batch)
    return list(SourceFile.objects.filter(batch=batch).order_by("pk"))


def test_two_people_naming_their_employers_site_as_theirs_stay_two_candidates():
    [ada] = imported(("ada.json", resume("Ada Quill", "ada@quill.example", url=GLOBEX, work_url=GLOBEX)))
    [ben] = imported(
        ("ben.json", resume("Ben Ortiz", "ben@ortiz.example", url="https://www.globex.example/", work_url=GLOBEX))
    )

    assert (ada.outcome, ben.outcome) == (SourceFile.Outcome.CREATED, SourceFile.Outcome.CREATED)
    assert ada.candidate_id != ben.candidate_id
    assert Candidate.objects.get(pk=ada.candidate_id).name == "Ada Quill"
    assert not CandidateIdentifier.objects.filter(kind="url", value__contains="globex").exists()
    assert not PossibleDuplicate.objects.exists()  # the site was never a key: nothing to tell apart


def test_a_company_named_by_its_domain_makes_its_site_no_key():
    document = parse(resume("Ada Quill", "ada@quill.example", url="https://globex.example"), vocabulary=frozenset())

    keys = normalise(document, SkillVocabulary()).identity_keys

    assert [kind for kind, _ in keys] == ["email", "name"]


def test_a_clearly_different_name_under_the_same_site_is_a_new_candidate_and_a_possible_duplicate():
    [ada] = imported(("ada.json", resume("Ada Quill", "ada@quill.example", url="https://quill-and-co.example")))
    [ben] = imported(
        ("ben.json", resume("Ben Ortiz", "ben@ortiz.example", url="https://quill-and-co.example/", title="CTO"))
    )

    first = Candidate.objects.get(pk=ada.candidate_id)
    assert ben.outcome == SourceFile.Outcome.CREATED
    assert ben.candidate_id != first.pk
    assert (first.name, first.title) == ("Ada Quill", "Engineer")  # nothing of hers overwritten
    assert Candidate.objects.get(pk=ben.candidate_id).name == "Ben Ortiz"
    pair = PossibleDuplicate.objects.get()
    assert (pair.first_id, pair.second_id, pair.kind, pair.value) == (
        first.pk,
        ben.candidate_id,
        "url",
        "quill-and-co.example",
    )
    [warning] = [w for w in ben.warnings if "possible duplicates" in w]
    assert warning == (
        f"This file names the site quill-and-co.example, which is Ada Quill's (#{first.pk}), a clearly different name "
        "from Ben Ortiz: imported as a new candidate, Ben Ortiz, rather than over Ada Quill, and the two are listed as "
        "possible duplicates."
    )
    # The site is several people's now: nobody's key, and a third person naming it is no duplicate of anyone.
    assert SharedIdentifier.objects.filter(kind="url", value="quill-and-co.example").exists()
    assert not CandidateIdentifier.objects.filter(kind="url").exists()
    [cleo] = imported(("cleo.json", resume("Cleo Park", "cleo@park.example", url="https://quill-and-co.example")))
    assert cleo.outcome == SourceFile.Outcome.CREATED
    assert PossibleDuplicate.objects.count() == 1
    assert not [w for w in cleo.warnings if "possible duplicates" in w]


def test_a_clearly_different_name_under_the_same_email_is_not_written_over_the_first():
    [ada] = imported(("ada.json", resume("Ada Quill", "shared@team.example")))
    [ben] = imported(("ben.json", resume("Ben Ortiz", "Shared@Team.example", title="CTO")))

    assert ben.outcome == SourceFile.Outcome.CREATED
    assert Candidate.objects.get(pk=ada.candidate_id).title == "Engineer"
    assert PossibleDuplicate.objects.filter(first=ada.candidate_id, second=ben.candidate_id, kind="email").exists()
    assert any("Ada Quill" in w and "Ben Ortiz" in w for w in ben.warnings)
    # The e-mail stays hers: her next file is still her.
    [again] = imported(("ada2.json", resume("Ada Quill", "shared@team.example", title="Staff Engineer")))
    assert (again.candidate_id, again.outcome) == (ada.candidate_id, SourceFile.Outcome.UPDATED)


def test_the_same_person_under_another_spelling_of_the_name_is_updated():
    [ada] = imported(("ada.json", resume("Ada Quill", "ada@quill.example")))
    [again] = imported(("ada2.json", resume("Ada M. Quill-Smith", "ada@quill.example", title="Staff Engineer")))

    assert (again.candidate_id, again.outcome) == (ada.candidate_id, SourceFile.Outcome.UPDATED)
    assert not PossibleDuplicate.objects.exists()


def test_two_people_under_one_key_in_one_batch_are_two_candidates():
    ada, ben = imported(
        ("ada.json", resume("Ada Quill", "shared@team.example")),
        ("ben.json", resume("Ben Ortiz", "shared@team.example")),
    )

    assert ada.candidate_id != ben.candidate_id
    assert {ada.outcome, ben.outcome} == {SourceFile.Outcome.CREATED}
    assert PossibleDuplicate.objects.count() == 1


def test_the_preview_counts_a_clearly_different_name_as_a_new_candidate():
    imported(("ada.json", resume("Ada Quill", "shared@team.example")))
    documents = [parse(resume(name, "shared@team.example"), vocabulary=frozenset()) for name in ("Ben Ortiz", "Ada")]

    outcomes = preview_outcomes([normalise(document, SkillVocabulary()) for document in documents])

    assert outcomes == {"created": 1, "updated": 1, "unchanged": 0}


def test_the_possible_duplicates_page_lists_the_pair_until_marked_as_different_people(admin_user):
    from profiles.services import candidates_group_mark_not_duplicate

    [ada] = imported(("ada.json", resume("Ada Quill", "shared@team.example")))
    [ben] = imported(("ben.json", resume("Ben Ortiz", "shared@team.example")))

    [group] = candidate_duplicate_groups().groups
    assert group.ids == [ada.candidate_id, ben.candidate_id]
    assert group.reasons == ["one identifier under two names: email shared@team.example"]

    candidates_group_mark_not_duplicate(candidate_ids=group.ids, user=admin_user)
    assert candidate_duplicate_groups().groups == []
