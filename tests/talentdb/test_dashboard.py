"""The admin index's figures (``talentdb.dashboard``) and the geometry of its bar charts."""

import pytest

from ingestion import services
from ingestion.models import SourceFile
from profiles.models import Shortlist, Skill
from talentdb.dashboard import dashboard
from talentdb.templatetags.talentdb_dashboard import BAR_AREA, ROW_HEIGHT, bar_chart
from tests.factories import CandidateFactory, CandidateSkillFactory, RepositoryFactory, SkillFactory, UserFactory


@pytest.mark.django_db
def test_the_dashboard_counts_candidates_imports_and_failed_files():
    python, go = SkillFactory(slug="python", name="Python"), SkillFactory(slug="go", name="Go")
    for country, skills in [("DE", [python, go]), ("DE", [python]), ("FR", [python])]:
        candidate = CandidateFactory(country_code=country)
        for skill in skills:
            CandidateSkillFactory(candidate=candidate, skill=skill)
    RepositoryFactory()
    reader = UserFactory()
    Shortlist.objects.create(owner=reader, name="Backend")
    batch = services.batch_create(origin="cli")
    services.batch_receive(
        batch=batch,
        files=[services.IncomingFile("broken.txt", b"\x00\x01"), services.IncomingFile("later.txt", b"\x00\x02")],
        enqueue=False,
    )
    broken = batch.files.get(original_name="broken.txt")
    services.source_files_import(file_ids=[broken.pk], token="t")

    figures = dashboard(user=reader)

    assert (figures.candidates, figures.candidates_estimated) == (3, False)
    assert (figures.skills, figures.repositories, figures.shortlists) == (Skill.objects.count(), 1, 1)
    assert figures.batches_last_day == 1
    assert figures.files_last_day == dict.fromkeys(SourceFile.Status.values, 0) | {"failed": 1, "pending": 1}
    assert [f.original_name for f in figures.failed_files] == ["broken.txt"]
    assert figures.failed_count == 1
    assert figures.top_skills == [("Python", 3), ("Go", 1)]
    assert figures.countries == [("DE", 2), ("FR", 1)]
    assert figures.estimated is False


@pytest.mark.django_db
def test_the_dashboard_counts_only_the_shortlists_its_reader_may_open():
    """Issue 15, hole 8: another recruiter's private shortlists are not even counted."""
    reader, colleague = UserFactory(), UserFactory()
    Shortlist.objects.create(owner=reader, name="Mine")
    Shortlist.objects.create(owner=colleague, name="Shared", shared=True)
    Shortlist.objects.create(owner=colleague, name="Private")

    assert dashboard(user=reader).shortlists == 2


def test_a_bar_chart_scales_the_longest_bar_to_the_whole_area():
    chart = bar_chart([("Python", 10), ("Go", 5), ("Zig", 0)])

    assert [(bar["label"], bar["width"], bar["y"]) for bar in chart["bars"]] == [
        ("Python", BAR_AREA, 0),
        ("Go", BAR_AREA // 2, ROW_HEIGHT),
        ("Zig", 1, 2 * ROW_HEIGHT),  # an empty row still shows a sliver
    ]
    assert chart["height"] == 3 * ROW_HEIGHT


def test_an_empty_bar_chart_keeps_one_row_of_height():
    assert bar_chart([]) == {"bars": [], "height": ROW_HEIGHT, "row": ROW_HEIGHT}
