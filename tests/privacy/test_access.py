"""Access requests (issue 18): one JSON document with every row stored about a person, and a plain-text summary."""

import datetime as dt
import importlib
import io
import json
import zipfile

import pytest
from django.apps import apps as django_apps
from django.contrib import admin
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from django.utils import timezone

from exports.models import Export
from ingestion.models import SourceFile
from privacy.access import _section_of, candidate_relations, subject_access_document, subject_access_summary
from privacy.admin_access import MAX_PEOPLE, register_on_candidate_admin
from privacy.models import ErasureRequest, PrivacyEvent, SourcingRecord
from privacy.services import candidate_erase
from profiles import services
from profiles.models import (
    Candidate,
    CandidateIdentifier,
    IdentityReview,
    MergeRecord,
    NotDuplicate,
    PossibleDuplicate,
    Repository,
    SavedSearch,
    Shortlist,
    ShortlistEntry,
    ShortlistEntryEvent,
    SkillLabelMove,
)
from tests.admin.conftest import GROUPS_MIGRATION
from tests.factories import (
    CandidateFactory,
    CandidateSkillFactory,
    ContributionFactory,
    EducationFactory,
    ImportBatchFactory,
    PositionFactory,
    RepositoryFactory,
    SkillFactory,
    SourceFileFactory,
    SpokenLanguageFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

OFFICER_MIGRATION = "privacy.migrations.0002_privacy_officer_group_and_sourcing_backfill"
PROFILE_TEXT = "Ada Quux\nada.quux@example.com\ngithub.com/adaquux\n"


@pytest.fixture
def person():
    """A candidate with a row in every table that can hold one about them, and a bystander with rows of their own."""
    owner = UserFactory(username="rita")
    ada = CandidateFactory(name="Ada Quux", email="ada.quux@example.com", website="https://ada.example.org")
    bystander = CandidateFactory(name="Bob Bystander")
    CandidateSkillFactory(candidate=ada, skill=SkillFactory(slug="python", name="Python"), score=9, label="python")
    CandidateSkillFactory(candidate=bystander, skill=SkillFactory(slug="go", name="Go"), score=4)
    ContributionFactory(candidate=ada, repository=RepositoryFactory(full_name="adaquux/engine"), commits=41)
    EducationFactory(candidate=ada, school="Quux University")
    PositionFactory(candidate=ada, company="Analytical Ltd", title="Engineer")
    SpokenLanguageFactory(candidate=ada, name="French", code="fr")
    CandidateIdentifier.objects.create(candidate=ada, kind="github", value="adaquux")
    CandidateIdentifier.objects.create(candidate=ada, kind="email", value="ada.quux@example.com")
    CandidateIdentifier.objects.create(candidate=bystander, kind="github", value="bob")
    shortlist = Shortlist.objects.create(owner=owner, name="Backend")
    services.shortlist_add_candidates(shortlist=shortlist, candidate_ids=[ada.pk, bystander.pk], user=owner)
    entry = ShortlistEntry.objects.get(shortlist=shortlist, candidate=ada)
    services.shortlist_entry_note(entry=entry, text="Called Ada, call back in May", user=owner)
    services.shortlist_entry_move(entry=entry, status="contacted", user=owner)
    ada.headline = "Engineer of engines"
    services.candidate_save_by_hand(candidate=ada, user=owner, reason="Fixed the headline")
    MergeRecord.objects.create(survivor=ada, merged_name="Ada Q.", merged_id=999_999, details={"email": "a@q.example"})
    NotDuplicate.objects.create(first_id=min(ada.pk, bystander.pk), second_id=max(ada.pk, bystander.pk))
    PossibleDuplicate.objects.create(first=bystander, second=ada, reason="name", kind="github", value="adaquux")
    IdentityReview.objects.create(candidate=ada, names=["Ada Quux", "Ada Q."])
    SkillLabelMove.objects.create(
        candidate=ada, skill_slug="teamwork", label="Teamwork", score=5, section="skill", position=3,
        score_by_hand=False, to_slugs=[],
    )  # fmt: skip
    batch = ImportBatchFactory()
    source = SourceFileFactory(candidate=ada, batch=batch, content=PROFILE_TEXT.encode())
    SourceFileFactory(candidate=bystander, content=b"Bob Bystander\n")
    SourcingRecord.objects.update_or_create(
        candidate=ada,
        defaults={
            "sourced_at": timezone.now(),
            "notice_due_at": timezone.now() + dt.timedelta(days=30),
            "source_batch_id": batch.pk,
            "source_file_id": source.pk,
        },
    )
    ErasureRequest.objects.create(candidate=ada, requested_by=owner, reason="They asked by phone")
    return ada


def _ids(rows) -> set:
    return {row.get("id", row.get("candidate_id")) for row in rows}


def test_the_document_holds_every_row_of_every_table_that_refers_to_the_person(person):
    document = json.loads(json.dumps(subject_access_document(candidate_id=person.pk)))  # JSON as it is, no encoder

    assert document["candidate"]["name"] == "Ada Quux"
    assert document["candidate"]["headline"] == "Engineer of engines"
    # Every table with a key to candidates, enumerated from the schema: the document holds exactly the person's rows.
    found = {}
    for relation in candidate_relations():
        model = relation.related_model
        if model in (NotDuplicate, PossibleDuplicate):  # two keys: their sections are checked below
            continue
        rows = model._base_manager.filter(**{relation.field.attname: person.pk})
        found[model._meta.label] = set(rows.values_list("pk", flat=True))
    sections = {
        "profiles.CandidateIdentifier": "identifiers",
        "profiles.CandidateSkill": "skills",
        "profiles.Contribution": "contributions",
        "profiles.Education": "education",
        "profiles.Position": "positions",
        "profiles.SpokenLanguage": "languages",
        "profiles.ShortlistEntry": "shortlist_entries",
        "profiles.MergeRecord": "merges_into_this_candidate",
        "ingestion.SourceFile": "source_files",
        "privacy.ErasureRequest": "erasure_requests",
        "profiles.IdentityReview": "identity_reviews",
        "profiles.SkillLabelMove": "skill_label_moves",
    }
    one_to_one = {"privacy.SourcingRecord": "sourcing_record"}
    assert set(found) == set(sections) | set(one_to_one), "a new table refers to candidates: name its section here"
    for label, key in sections.items():
        assert found[label], f"the fixture has no {label} row"
        assert _ids(document[key]) == found[label], label
    assert document["sourcing_record"]["candidate_id"] == person.pk
    # Rows that refer to the person through another row or a plain column.
    events = ShortlistEntryEvent.objects.filter(entry__candidate=person)
    assert {e["id"] for entry in document["shortlist_entries"] for e in entry["events"]} == set(
        events.values_list("pk", flat=True)
    )
    assert {h["history_id"] for h in document["history"]} == set(
        Candidate.history.filter(id=person.pk).values_list("history_id", flat=True)
    )
    assert len(document["history"]) >= 1
    assert _ids(document["not_duplicates"]) == set(
        NotDuplicate.objects.filter(first=person)
        .union(NotDuplicate.objects.filter(second=person))
        .values_list("pk", flat=True)
    )
    assert _ids(document["possible_duplicates"]) == set(
        (PossibleDuplicate.objects.filter(first=person) | PossibleDuplicate.objects.filter(second=person)).values_list(
            "pk", flat=True
        )
    )


def test_the_document_names_what_ids_point_at_and_holds_the_files_text(person):
    document = subject_access_document(candidate_id=person.pk)

    assert document["skills"][0]["skill_name"] == "Python"
    assert document["contributions"][0]["repository_full_name"] == "adaquux/engine"
    entry = document["shortlist_entries"][0]
    assert (entry["shortlist_name"], entry["shortlist_owner"], entry["status"]) == ("Backend", "rita", "contacted")
    assert [e["kind"] for e in entry["events"]] == ["added", "note", "stage"]
    assert entry["events"][1]["note"] == "Called Ada, call back in May"
    assert document["source_files"][0]["content"] == PROFILE_TEXT
    assert document["merges_into_this_candidate"][0]["details"] == {"email": "a@q.example"}
    assert any(h["history_change_reason"] == "Fixed the headline" for h in document["history"])
    # Search columns are derived from what is shown and are left out.
    assert "search_vector" not in document["candidate"]


def test_the_document_holds_no_row_of_another_person(person):
    text = json.dumps(subject_access_document(candidate_id=person.pk))

    assert "Bob Bystander" not in text
    assert '"bob"' not in text


def test_bytes_that_are_not_utf8_are_given_as_base64(person):
    SourceFileFactory(candidate=person, content=b"\xff\xfe binary")

    files = subject_access_document(candidate_id=person.pk)["source_files"]

    assert {"base64": "//4gYmluYXJ5"} in [f["content"] for f in files]


def test_a_missing_candidate_is_an_error():
    with pytest.raises(Candidate.DoesNotExist):
        subject_access_document(candidate_id=2_000_000_000)


def test_the_summary_lists_each_section_in_plain_text(person):
    summary = subject_access_summary(subject_access_document(candidate_id=person.pk))

    assert f"Data held by TalentDB about candidate #{person.pk}" in summary
    assert "Name: Ada Quux" in summary
    assert "E-mail: ada.quux@example.com" in summary
    assert "Python 9/10" in summary
    assert "adaquux/engine: 41 commits" in summary
    assert "Backend (owner rita): stage contacted" in summary
    assert "Source files (their full text is in the JSON document) (1)" in summary
    assert "Lawful basis: Legitimate interest." in summary
    assert "Notice: not told yet (due " in summary
    assert "Fixed the headline" in summary
    assert "Erasure requests (1)" in summary


def test_the_command_writes_the_json_and_the_summary_and_logs_the_act_without_the_person(person, tmp_path, capsys):
    out = tmp_path / "ada.json"

    call_command("subject_access", str(person.pk), "--out", str(out))

    document = json.loads(out.read_text())
    assert document["candidate"]["name"] == "Ada Quux"
    assert "Name: Ada Quux" in (tmp_path / "ada.txt").read_text()
    assert oct(out.stat().st_mode & 0o777) == "0o600"
    assert "Name: Ada Quux" in capsys.readouterr().out
    event = PrivacyEvent.objects.get(kind=PrivacyEvent.Kind.SUBJECT_ACCESS)
    assert event.counts["skills"] == 1
    assert "Ada" not in json.dumps(event.counts)
    assert str(person.pk) not in json.dumps(event.counts)


def test_the_command_without_out_prints_the_json(person, capsys):
    call_command("subject_access", str(person.pk))

    assert json.loads(capsys.readouterr().out)["candidate_id"] == person.pk


def test_the_command_refuses_an_unknown_candidate():
    with pytest.raises(CommandError, match="No candidate 2000000000"):
        call_command("subject_access", "2000000000")


@pytest.fixture
def officer_client(client):
    importlib.import_module(OFFICER_MIGRATION).create_groups(django_apps, None)
    user = UserFactory(username="olga", is_staff=True)
    user.groups.add(Group.objects.get(name="Privacy officer"))
    client.force_login(user)
    return client


def test_the_admin_action_downloads_the_document_and_summary_for_a_privacy_officer(person, officer_client):
    response = officer_client.post(
        reverse("admin:privacy_sourcingrecord_changelist"),
        {"action": "subject_access_report", "_selected_action": [person.pk]},
    )

    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"] == f'attachment; filename="subject-access-{person.pk}.zip"'
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    names = sorted(archive.namelist())
    assert names == [f"subject-access-{person.pk}.json", f"subject-access-{person.pk}.txt"]
    assert json.loads(archive.read(names[0]))["candidate"]["name"] == "Ada Quux"
    assert "Name: Ada Quux" in archive.read(names[1]).decode()
    assert PrivacyEvent.objects.get(kind=PrivacyEvent.Kind.SUBJECT_ACCESS).by.username == "olga"


def test_the_admin_action_refuses_more_people_than_an_access_request_is_for(officer_client):
    people = CandidateFactory.create_batch(MAX_PEOPLE + 1)
    for candidate in people:
        SourcingRecord.objects.get_or_create(candidate=candidate, defaults={"notice_due_at": timezone.now()})

    response = officer_client.post(
        reverse("admin:privacy_sourcingrecord_changelist"),
        {"action": "subject_access_report", "_selected_action": [c.pk for c in people]},
        follow=True,
    )

    assert f"Select at most {MAX_PEOPLE} candidates" in response.content.decode()
    assert not PrivacyEvent.objects.exists()


def test_the_admin_action_is_not_offered_to_a_recruiter(person, client):
    importlib.import_module(GROUPS_MIGRATION).create_groups(django_apps, None)
    user = UserFactory(username="rex", is_staff=True)
    user.groups.add(Group.objects.get(name="Recruiter"))
    client.force_login(user)
    changelist = client.get(reverse("admin:profiles_candidate_changelist")).content.decode()
    assert 'value="subject_access_report"' not in changelist

    response = client.post(
        reverse("admin:privacy_sourcingrecord_changelist"),
        {"action": "subject_access_report", "_selected_action": [person.pk]},
    )
    assert response.status_code == 403  # a recruiter may not open the sourcing records at all
    assert not PrivacyEvent.objects.exists()


def test_the_action_is_on_the_candidate_changelist_too(person, officer_client):
    changelist = officer_client.get(reverse("admin:profiles_candidate_changelist")).content.decode()
    assert 'value="subject_access_report"' in changelist
    register_on_candidate_admin(admin.site)  # idempotent

    response = officer_client.post(
        reverse("admin:profiles_candidate_changelist"),
        {"action": "subject_access_report", "_selected_action": [person.pk]},
    )

    assert response["Content-Type"] == "application/zip"


def _all_rows() -> dict:
    return {
        model: set(model._base_manager.values_list("pk", flat=True))
        for model in django_apps.get_models(include_auto_created=True)
    }


def test_the_document_holds_every_row_an_erasure_of_the_person_removes(person):
    """Issue 18: the access request contains every row the erasure would remove (found by erasing and comparing)."""
    owner = UserFactory(username="alan")
    LogEntry.objects.log_actions(user_id=owner.pk, queryset=[person], action_flag=CHANGE, change_message="Edited")
    entry = ShortlistEntry.objects.get(candidate=person)
    LogEntry.objects.log_actions(user_id=owner.pk, queryset=[entry], action_flag=CHANGE, change_message="Moved")
    document = subject_access_document(candidate_id=person.pk)
    before = _all_rows()

    candidate_erase(candidate=person, user=None)

    after = _all_rows()
    removed = {model: pks - after[model] for model, pks in before.items() if pks - after[model]}
    in_document = _rows_in(document)
    assert removed, "the erasure removed nothing"
    for model, pks in removed.items():
        assert pks <= in_document.get(model, set()), f"{model._meta.label}: {pks - in_document.get(model, set())}"
    assert {LogEntry, Candidate.history.model, ShortlistEntryEvent, Repository} <= set(removed)


def _rows_in(document: dict) -> dict:
    """The primary keys of the rows an access document holds, by model: its fixed sections and one per relation of
    the candidate."""
    in_document = {
        Candidate: {document["candidate_id"]},
        Candidate.history.model: {r["history_id"] for r in document["history"]},
        LogEntry: {r["id"] for r in document["admin_log"]},
        ShortlistEntryEvent: {e["id"] for r in document["shortlist_entries"] for e in r["events"]},
        Repository: {r["repository_id"] for r in document["contributions"]},
        SourcingRecord: {document["sourcing_record"]["candidate_id"]},
    }
    for relation in candidate_relations():
        section = document[_section_of(relation)]
        rows = [section] if isinstance(section, dict) else section
        in_document.setdefault(relation.related_model, set()).update(
            r[relation.related_model._meta.pk.attname] for r in rows
        )
    return in_document


def _row_values() -> dict:
    """Every row of every table, by model and primary key, as the database holds it."""
    return {
        model: {
            row["pk"]: row
            for row in model._base_manager.values("pk", *(f.attname for f in model._meta.concrete_fields))
        }
        for model in django_apps.get_models(include_auto_created=True)
    }


def _names_her(row: dict, needles) -> bool:
    text = json.dumps({k: str(v) for k, v in row.items()}, ensure_ascii=False).lower()
    return any(needle.lower() in text for needle in needles)


def test_the_document_holds_every_row_an_erasure_of_everything_a_team_did_with_her_takes(
    officer, recruiter, export_storage, django_capture_on_commit_callbacks
):
    """Issue 18, the access request against the erasure test's person (an import, an edit, a shortlist note, the
    admin log, a merge, saved searches and exports for her, a failed file linked to no one, a repository others use):
    every row the erasure deletes, and every row naming her that it changes, is in her document. The tables are all
    of Django's registry and the sections those of ``candidate_relations`` and ``held_sections``, so a new table or
    a new erasure step cannot be left out."""
    from privacy.access import held_sections
    from privacy.services import erasure_context
    from tests.privacy.people import TOVE_NEEDLES
    from tests.privacy.test_erasure import _tove_everywhere

    tove, _, _ = _tove_everywhere(officer, recruiter, export_storage)
    document = subject_access_document(candidate_id=tove.pk)
    context = erasure_context(tove)
    section_models = {section: finder(context).model for section, finder in held_sections().items()}
    before = _row_values()

    with django_capture_on_commit_callbacks(execute=True):
        candidate_erase(candidate=tove, user=officer)

    after = _row_values()
    in_document = _rows_in(document)
    for section, model in section_models.items():
        in_document.setdefault(model, set()).update(r[model._meta.pk.attname] for r in document[section])
    taken = {}
    for model, rows in before.items():
        gone = set(rows) - set(after[model])
        changed = {pk for pk in set(rows) & set(after[model]) if rows[pk] != after[model][pk]}
        naming = {pk for pk in changed if _names_her(rows[pk], TOVE_NEEDLES)}
        if gone | naming:
            taken[model] = gone | naming
    assert {SavedSearch, LogEntry, SourceFile, Export, Repository} <= set(taken), "the fixture lost a case"
    for model, pks in taken.items():
        missing = pks - in_document.get(model, set())
        assert not missing, f"{model._meta.label}: rows {sorted(missing)} are taken by the erasure, not in the document"


def test_the_document_withholds_the_label_of_a_batch_that_names_other_people():
    """A batch's label made of its files' names (the admin's default before it said "Upload of 3 files, ...") names
    the people of the other files: the document lists the batch, as the erasure would withhold its label, without it."""
    from ingestion import services as ingestion_services
    from ingestion.models import ImportBatch
    from ingestion.privacy import ACCESS_WITHHELD_LABEL
    from tests.fixtures import JSONRESUME_DIR
    from tests.ingestion.imports import import_all
    from tests.privacy.people import OTHER_FILE, TOVE_FILE

    files = [TOVE_FILE, OTHER_FILE, JSONRESUME_DIR / "pia-solberg.x-and-url.json"]
    batch = ingestion_services.batch_create(
        origin=ImportBatch.Origin.ADMIN, label=", ".join(path.name for path in files)
    )
    ingestion_services.batch_receive(
        batch=batch,
        files=[ingestion_services.IncomingFile(path.name, path.read_bytes()) for path in files],
        enqueue=False,
    )
    import_all(batch)
    tove = SourceFile.objects.get(original_name=TOVE_FILE.name).candidate

    document = subject_access_document(candidate_id=tove.pk)

    assert [(row["id"], row["label"]) for row in document["import_batches_of_their_files"]] == [
        (batch.pk, ACCESS_WITHHELD_LABEL)
    ]
    text = json.dumps(document)
    assert "noor-rahimi" not in text
    assert "pia-solberg" not in text
