"""manage.py erase."""

import pytest
from django.core.management import CommandError, call_command

from privacy.models import PrivacyEvent
from profiles.models import Candidate
from tests.factories import CandidateFactory

pytestmark = pytest.mark.django_db


def test_erase_deletes_the_candidates_and_prints_counts_without_names(capsys, officer):
    candidate = CandidateFactory(name="Pia Example")

    call_command("erase", str(candidate.pk), "--by", officer.username)

    out = capsys.readouterr().out
    assert out.startswith(f"Erased candidate #{candidate.pk}: candidates 1, ")
    assert "Pia" not in out
    assert not Candidate.objects.filter(pk=candidate.pk).exists()
    assert PrivacyEvent.objects.get().by == officer


def test_erase_by_someone_who_may_not_erase_is_refused(recruiter):
    candidate = CandidateFactory()

    with pytest.raises(CommandError, match="rita may not erase candidates"):
        call_command("erase", str(candidate.pk), "--by", "rita")

    assert Candidate.objects.filter(pk=candidate.pk).exists()


def test_erase_of_an_unknown_id_erases_nothing():
    candidate = CandidateFactory()

    with pytest.raises(CommandError, match=r"No candidate with id 0; nothing was erased\."):
        call_command("erase", str(candidate.pk), "0")

    assert Candidate.objects.filter(pk=candidate.pk).exists()


def test_a_dry_run_of_an_erased_persons_file_refuses_it_without_printing_it(tmp_path, capsys, officer):
    from privacy.services import candidate_erase
    from tests.ingestion.imports import import_file
    from tests.privacy.people import TOVE_FILE

    candidate_erase(candidate=import_file(TOVE_FILE), user=officer)
    (tmp_path / "tove.json").write_bytes(TOVE_FILE.read_bytes())

    with pytest.raises(SystemExit):
        call_command("ingest", "--dry-run", str(tmp_path))

    out = capsys.readouterr().out
    assert "This person asked to be erased on " in out
    assert "tove.lindqvist@example.org" not in out
    assert out.rstrip().endswith("imported 0, updated 0, unchanged 0, failed 1")
