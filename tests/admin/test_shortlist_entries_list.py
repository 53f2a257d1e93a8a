"""The list of all shortlist entries fits a laptop (its layout is checked in a browser by
``test_working_lists_browser``): a pipeline's entries name the job ("Pipeline of <job>"), a long note shows its start
with the whole note in its title, a date as the desk writes it; everything escaped."""

import re

import pytest
from django.urls import reverse
from django.utils.timezone import localtime

from jobs import services as job_services
from profiles.models import Shortlist, ShortlistEntry
from tests.factories import CandidateFactory

pytestmark = pytest.mark.django_db

CHANGELIST = reverse("admin:profiles_shortlistentry_changelist")


def cells(html: str, field: str) -> list[str]:
    return re.findall(rf'<td class="field-{field}">(.*?)</td>', html, re.S)


def test_an_entry_names_its_list_or_its_jobs_pipeline(recruiter_client, recruiter):
    plain = Shortlist.objects.create(owner=recruiter, name="Backend <i>Berlin</i>")
    ShortlistEntry.objects.create(shortlist=plain, candidate=CandidateFactory(name="Ada Quill"))
    job = job_services.job_create(user=recruiter, title="Go <b>lead</b>", description="Requirements: Go.").job
    ShortlistEntry.objects.create(shortlist=job.pipeline, candidate=CandidateFactory(name="Ben Ortiz"))

    html = recruiter_client.get(CHANGELIST, {"o": "2"}).content.decode()

    assert cells(html, "list_name") == ["Backend &lt;i&gt;Berlin&lt;/i&gt;", "Pipeline of Go &lt;b&gt;lead&lt;/b&gt;"]


def test_a_long_note_shows_its_start_and_keeps_the_whole_in_its_title(recruiter_client, recruiter):
    shortlist = Shortlist.objects.create(owner=recruiter, name="Backend")
    note = "Call <back> " + "about the Kafka migration " * 10 + "END"
    entry = ShortlistEntry.objects.create(shortlist=shortlist, candidate=CandidateFactory(), notes=note)

    [cell] = cells(recruiter_client.get(CHANGELIST).content.decode(), "note")
    [added] = cells(recruiter_client.get(CHANGELIST).content.decode(), "added")

    title, shown = re.fullmatch(r'<span title="(.*?)">(.*?)</span>', cell).groups()
    assert title == "Call &lt;back&gt; " + "about the Kafka migration " * 10 + "END"
    assert shown.startswith("Call &lt;back&gt; about the Kafka")
    assert shown.endswith("…")
    assert "END" not in shown
    assert added == localtime(entry.added_at).strftime("%-d %b %Y")
