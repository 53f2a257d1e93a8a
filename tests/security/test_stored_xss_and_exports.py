"""Stored XSS and CSV injection: profiles whose every field carries markup or a formula, imported for real, then
shown in every admin page, the browsable API and every export."""

import csv
import io

import pytest
from django.contrib import admin
from django.urls import reverse

from ingestion import services
from ingestion.models import ImportBatch, SourceFile
from profiles.models import Candidate, Shortlist, ShortlistEntry
from tests.factories import CandidateFactory
from tests.reliability.hostile import FORMULA_PAYLOADS, MARKUP_FILE_NAME, XSS, XSS_PAYLOADS, hostile_files
from tests.security.conftest import concrete_endpoints

pytestmark = pytest.mark.django_db

# What must never reach a page unescaped: the opening of each markup payload.
RAW_MARKUP = ("<script>alert(1)", "<img src=x onerror", "<svg/onload")
ESCAPED_SCRIPT = "&lt;script&gt;alert(1)&lt;/script&gt;"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


@pytest.fixture
def poisoned(admin_user):
    """Every markup and formula payload in every field, in both formats, with hostile file names too."""
    files = [f for f in hostile_files() if f.category in {"html-js", "formula"}]
    files.append(next(f for f in hostile_files() if f.name == MARKUP_FILE_NAME))
    batch = services.batch_create(origin=ImportBatch.Origin.ADMIN, label=f"upload {XSS}", user=admin_user)
    services.batch_receive(batch=batch, files=(services.IncomingFile(f.name, f.data) for f in files), enqueue=False)
    services.source_files_import(file_ids=list(batch.files.values_list("pk", flat=True)), token="xss")
    candidates = Candidate.objects.filter(name__startswith="<script>")
    assert candidates.exists(), "the poisoned profiles did not import"
    shortlist = Shortlist.objects.create(name=XSS, owner=admin_user, description=XSS)
    for candidate in Candidate.objects.all():
        ShortlistEntry.objects.create(shortlist=shortlist, candidate=candidate, notes=f"=cmd|' /C calc'!A0 {XSS}")
    return {"batch": batch, "candidate": candidates.first(), "shortlist": shortlist}


def _assert_escaped(response, where: str) -> None:
    html = response.content.decode(errors="replace")
    for raw in RAW_MARKUP:
        assert raw not in html, f"{where} shows {raw!r} unescaped"


def _assert_no_formula(response, where: str) -> int:
    assert "text/csv" in response["Content-Type"]
    assert response["Content-Disposition"].startswith("attachment")
    body = b"".join(response.streaming_content) if response.streaming else response.content
    rows = list(csv.reader(io.StringIO(body.decode())))
    cells = [cell for row in rows[1:] for cell in row]
    assert cells, f"{where} exported nothing"
    for cell in cells:
        assert not cell.startswith(FORMULA_STARTS), f"{where}: a spreadsheet would run {cell!r}"
    return len(rows) - 1


def test_every_admin_page_shows_the_markup_escaped(admin_client, poisoned):
    change = admin_client.get(reverse("admin:profiles_candidate_change", args=[poisoned["candidate"].pk]))
    assert change.status_code == 200
    assert ESCAPED_SCRIPT in change.content.decode(), "the payload did not reach the change form"

    checked = 0
    for model in admin.site._registry:
        opts = model._meta
        for obj in model._default_manager.order_by("-pk")[:2]:  # the newest rows: the ones the import wrote
            response = admin_client.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk]))
            assert response.status_code in (200, 302), f"{opts.label} {obj.pk}"
            _assert_escaped(response, f"the {opts.label} change page of {obj.pk}")
            checked += 1
    for name in ("admin:profiles_candidate_changelist", "admin:ingestion_sourcefile_changelist"):
        _assert_escaped(admin_client.get(reverse(name), {"q": XSS}), f"{name} searched for the payload")
    # Every other admin page too (custom views: duplicates, progress, a source file's text, history records).
    for endpoint in concrete_endpoints():
        if endpoint.area == "admin" and not endpoint.url.endswith(("/delete/", "/logout/")):
            response = admin_client.get(endpoint.url)
            if response.status_code == 200 and not response.get("Content-Type", "").startswith("text/csv"):
                _assert_escaped(response, endpoint.url)
                checked += 1
    assert checked > 50


def test_a_source_file_with_markup_is_never_served_as_html(admin_client, poisoned):
    source = SourceFile.objects.get(original_name=MARKUP_FILE_NAME)

    page = admin_client.get(reverse("admin:ingestion_sourcefile_change", args=[source.pk]))
    _assert_escaped(page, "the source file's change page")
    for endpoint in concrete_endpoints():
        if endpoint.name == "admin:ingestion_sourcefile_text":
            response = admin_client.get(reverse("admin:ingestion_sourcefile_text", args=[source.pk]))
            assert response.status_code == 200
            if "text/html" in response["Content-Type"]:
                _assert_escaped(response, "the source file's text")
            assert response["X-Content-Type-Options"] == "nosniff"


def test_the_browsable_api_shows_the_markup_escaped(client, admin_user, poisoned):
    client.force_login(admin_user)
    candidate = poisoned["candidate"]
    urls = [
        reverse("api:candidate-list"),
        reverse("api:candidate-detail", args=[candidate.pk]),
        reverse("api:skill-list"),
        reverse("api:repository-list"),
        reverse("api:import-list"),
        reverse("api:import-detail", args=[poisoned["batch"].pk]),
    ]
    for url in urls:
        response = client.get(url, {"format": "api"})
        assert response.status_code == 200, url
        assert response["Content-Type"].startswith("text/html")
        _assert_escaped(response, f"{url}?format=api")
    detail = client.get(urls[1], {"format": "api"}).content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in detail


def test_json_answers_and_exports_are_never_sniffed_as_html(client, admin_user, poisoned):
    client.force_login(admin_user)
    for name in ("api:candidate-list", "api:candidate-export-jsonl", "api:candidate-export-csv"):
        response = client.get(reverse(name))
        assert response.status_code == 200
        assert "html" not in response["Content-Type"]
        assert response["X-Content-Type-Options"] == "nosniff"
        if response.streaming:  # read to the end, which closes it: an export holds one of the user's slots till then
            b"".join(response.streaming_content)
    jsonl = client.get(reverse("api:candidate-export-jsonl"))
    assert jsonl["Content-Disposition"].startswith("attachment")
    assert XSS in b"".join(jsonl.streaming_content).decode()  # data stays data; escaping is the viewer's job


def test_csv_exports_neutralise_formulas(client, admin_client, admin_user, poisoned):
    client.force_login(admin_user)
    exported = {
        "API export": _assert_no_formula(client.get(reverse("api:candidate-export-csv")), "the API export"),
        "admin candidates action": _assert_no_formula(
            admin_client.post(
                reverse("admin:profiles_candidate_changelist"),
                {"action": "export_csv", "_selected_action": list(Candidate.objects.values_list("pk", flat=True))},
            ),
            "the admin's candidate export",
        ),
        "admin shortlist export": _assert_no_formula(
            admin_client.get(reverse("admin:profiles_shortlist_export", args=[poisoned["shortlist"].pk])),
            "the shortlist export",
        ),
        "admin shortlists action": _assert_no_formula(
            admin_client.post(
                reverse("admin:profiles_shortlist_changelist"),
                {"action": "export_csv", "_selected_action": [poisoned["shortlist"].pk]},
            ),
            "the admin's shortlist export",
        ),
    }
    assert all(rows >= len(FORMULA_PAYLOADS) for rows in exported.values()), exported
    names = {
        row[1]
        for row in csv.reader(
            io.StringIO(b"".join(client.get(reverse("api:candidate-export-csv")).streaming_content).decode())
        )
    }
    assert any(name.startswith("'=HYPERLINK") for name in names)  # kept, but inert
    assert any(name.startswith(XSS_PAYLOADS[0]) for name in names)


LOOK_ALIKE_FORMULAS = ("\uff1dHYPERLINK(1)", "\ufe66SUM(1,1)", "\u200b=cmd|' /C calc'!A0", "\uff0b1")


def test_look_alike_formula_starts_are_neutralised_in_every_csv_export(client, admin_client, admin_user):
    """Issue 15, hole 13: a fullwidth or small equals sign, or a zero-width space before "=", ran as a formula in a
    spreadsheet that normalises the text; the guard reads the cell after NFKC and without format characters."""
    client.force_login(admin_user)
    candidates = [CandidateFactory(name=payload, company=payload) for payload in LOOK_ALIKE_FORMULAS]
    shortlist = Shortlist.objects.create(name="look-alikes", owner=admin_user)
    for candidate in candidates:
        ShortlistEntry.objects.create(shortlist=shortlist, candidate=candidate, notes=LOOK_ALIKE_FORMULAS[0])
    # Each export is read to its end (closing it) before the next starts: an open stream holds one of the user's
    # EXPORT_MAX_CONCURRENT (2) export slots, the admin's too (issue 15, hole 5).
    exports = {
        "API export": lambda: client.get(reverse("api:candidate-export-csv")),
        "admin candidates action": lambda: admin_client.post(
            reverse("admin:profiles_candidate_changelist"),
            {"action": "export_csv", "_selected_action": [c.pk for c in candidates]},
        ),
        "admin shortlist export": lambda: admin_client.get(
            reverse("admin:profiles_shortlist_export", args=[shortlist.pk])
        ),
    }

    for where, send in exports.items():
        response = send()
        assert response.status_code == 200, where
        body = b"".join(response.streaming_content) if response.streaming else response.content
        cells = {cell for row in list(csv.reader(io.StringIO(body.decode())))[1:] for cell in row}
        assert {f"'{payload}" for payload in LOOK_ALIKE_FORMULAS} <= cells, where  # quoted, otherwise unchanged
        assert not cells & set(LOOK_ALIKE_FORMULAS), where
