"""POST/GET /api/v1/imports/: upload files into a batch, then follow its progress."""

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from ingestion.models import ImportBatch, SourceFile
from ingestion.services import IncomingFile, batch_create, batch_progress, batch_receive
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
URL = reverse("api:import-list")
PROFILE = b"Ada Lovelace\nAnalyst at Engines\nLondon, United Kingdom\n"


def upload(*files: tuple[str, bytes]) -> dict:
    return {"files": [SimpleUploadedFile(name, data) for name, data in files]}


def test_an_upload_stores_every_file_and_answers_202_with_the_batch(
    import_api, importer, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as callbacks:
        response = import_api.post(URL, upload(("ada.txt", PROFILE), ("grace.json", b'{"basics": {}}')))

    assert response.status_code == 202
    batch = ImportBatch.objects.get()
    data = response.json()
    assert data["id"] == batch.pk
    assert data["url"] == response["Location"] == f"http://testserver{reverse('api:import-detail', args=[batch.pk])}"
    assert (batch.origin, batch.created_by, batch.total_files) == ("api", importer, 2)
    assert (data["progress"]["total"], data["progress"]["pending"]) == (2, 2)
    stored = {f.original_name: f for f in SourceFile.objects.filter(batch=batch)}
    assert bytes(stored["ada.txt"].content) == PROFILE
    assert bytes(stored["grace.json"].content) == b'{"basics": {}}'
    assert {f.status for f in stored.values()} == {"pending"}
    assert len(callbacks) == 1  # the files are queued once the upload commits, not before


def test_identical_bytes_count_as_duplicates(import_api):
    import_api.post(URL, upload(("ada.txt", PROFILE)))

    data = import_api.post(URL, upload(("ada-again.txt", PROFILE))).json()

    assert (data["progress"]["duplicates"], data["progress"]["unchanged"], data["progress"]["percent"]) == (1, 1, 100)
    assert SourceFile.objects.count() == 1


def test_re_uploading_bytes_another_user_stored_answers_as_for_a_new_file(
    import_api, django_capture_on_commit_callbacks
):
    """Issue 15, hole 16: identical bytes counted as a duplicate, which told the uploader that someone else, in a batch
    the uploader may not see, already had this very file. Now the uploader gets a copy of their own, imported as any
    new file is; only their own earlier copy (a batch they may view) makes a duplicate."""
    theirs = batch_create(origin=ImportBatch.Origin.API, user=UserFactory(username="other"))
    batch_receive(batch=theirs, files=[IncomingFile("theirs.txt", PROFILE)], enqueue=False)
    never_seen = import_api.post(URL, upload(("eve.txt", PROFILE.replace(b"Ada", b"Eve")))).json()

    with django_capture_on_commit_callbacks() as queued:
        again = import_api.post(URL, upload(("mine.txt", PROFILE))).json()

    assert again["progress"] == never_seen["progress"]
    assert (again["progress"]["duplicates"], again["progress"]["pending"]) == (0, 1)
    mine = SourceFile.objects.get(batch_id=again["id"])
    assert (mine.original_name, mine.status, bytes(mine.content)) == ("mine.txt", "pending", PROFILE)
    assert len(queued) == 1  # sent to the workers like any new file
    assert SourceFile.objects.get(batch=theirs).original_name == "theirs.txt"  # the other copy is left as it was

    third = import_api.post(URL, upload(("mine-again.txt", PROFILE))).json()

    assert third["progress"]["duplicates"] == 1
    assert SourceFile.objects.filter(sha256=mine.sha256).count() == 2


def test_identical_bytes_are_a_duplicate_for_a_user_who_may_view_every_batch(importer):
    """Issue 15, hole 16: who may view the earlier copy's batch may be told it is already stored."""
    importer.user_permissions.add(Permission.objects.get(codename="view_importbatch"))
    importer = type(importer).objects.get(pk=importer.pk)  # permissions are cached on the instance
    inbox = batch_create(origin=ImportBatch.Origin.INBOX)
    batch_receive(batch=inbox, files=[IncomingFile("inbox.txt", PROFILE)], enqueue=False)

    batch = batch_receive(
        batch=batch_create(origin=ImportBatch.Origin.API, user=importer),
        files=[IncomingFile("mine.txt", PROFILE)],
        enqueue=False,
    )

    assert (batch.total_files, batch.duplicates) == (1, 1)
    assert SourceFile.objects.get().batch == inbox


def test_an_upload_needs_files(import_api):
    response = import_api.post(URL, {})

    assert response.status_code == 400
    assert response.json()["error"]["message"] == "files: attach one or more files as `files` parts"
    assert not ImportBatch.objects.exists()


def test_too_many_files_is_a_400_and_stores_nothing(import_api, settings):
    settings.INGEST_MAX_FILES_PER_UPLOAD = 2

    response = import_api.post(URL, upload(("a.txt", b"a"), ("b.txt", b"b"), ("c.txt", b"c")))

    assert response.status_code == 400
    assert response.json()["error"]["message"] == "files: 3 files sent; at most 2 per upload."
    assert not SourceFile.objects.exists()
    assert not ImportBatch.objects.exists()


def test_more_files_than_django_parses_is_a_400_in_the_error_shape(import_api, settings):
    settings.DATA_UPLOAD_MAX_NUMBER_FILES = 2

    response = import_api.post(URL, upload(("a.txt", b"a"), ("b.txt", b"b"), ("c.txt", b"c")))

    assert response.status_code == 400
    assert response.json()["error"]["message"] == "files: too many files in one upload"


def test_a_file_over_the_size_limit_is_a_400_naming_it(import_api, settings):
    settings.INGEST_MAX_FILE_BYTES = 10

    response = import_api.post(URL, upload(("small.txt", b"ok"), ("big.txt", b"x" * 2_000_000)))

    assert response.status_code == 400
    assert response.json()["error"]["details"]["files"] == ["big.txt is 1.9 MiB; files up to 10 bytes are accepted."]
    assert not SourceFile.objects.exists()


def test_a_consumer_without_the_import_permission_gets_a_403(api):
    response = api.post(URL, upload(("ada.txt", PROFILE)))

    assert response.status_code == 403
    assert response.json() == {
        "error": {
            "code": "permission_denied",
            "message": "Uploading files needs the import permission (ingestion.add_importbatch).",
            "details": {},
        }
    }
    assert not SourceFile.objects.exists()


def make_batch(user, files) -> ImportBatch:
    batch = batch_create(origin=ImportBatch.Origin.API, label="test", user=user)
    return batch_receive(batch=batch, files=[IncomingFile(name, data) for name, data in files], enqueue=False)


def test_the_detail_shows_progress_and_failed_files_with_their_errors(import_api, importer):
    batch = make_batch(importer, [("ok.txt", b"one"), ("bad.txt", b"two"), ("wait.txt", b"three")])
    SourceFile.objects.filter(original_name="ok.txt").update(status="imported", outcome="created")
    SourceFile.objects.filter(original_name="bad.txt").update(status="failed", error="Not a profile.")

    data = import_api.get(reverse("api:import-detail", args=[batch.pk])).json()

    assert data["progress"] == {
        "total": 3,
        "processed": 2,
        "pending": 1,
        "processing": 0,
        "imported": 1,
        "unchanged": 0,
        "failed": 1,
        "duplicates": 0,
        "percent": 67,
        "finished": False,
    }
    assert [(f["name"], f["error"]) for f in data["failed_files"]] == [("bad.txt", "Not a profile.")]


def test_the_detail_lists_the_files_read_with_warnings(import_api, importer):
    """Issue 14: warnings are shown on the source file and in the batch detail, to API consumers too."""
    batch = make_batch(importer, [("clean.json", b"one"), ("warned.json", b"two")])
    SourceFile.objects.filter(original_name="clean.json").update(status="imported", outcome="created")
    SourceFile.objects.filter(original_name="warned.json").update(
        status="imported", outcome="created", warnings=["work[0] (Engineer at Copperleaf): the end date is in 2031."]
    )

    data = import_api.get(reverse("api:import-detail", args=[batch.pk])).json()

    assert data["warned_count"] == 1
    assert data["warned_files"] == [
        {
            "id": SourceFile.objects.get(original_name="warned.json").pk,
            "name": "warned.json",
            "format": "unknown",
            "status": "imported",
            "warnings": ["work[0] (Engineer at Copperleaf): the end date is in 2031."],
        }
    ]


def test_list_progress_equals_the_ingestion_services_figures(import_api, importer):
    make_batch(importer, [("a.txt", b"a")])
    batch = make_batch(importer, [("b.txt", b"b"), ("c.txt", b"c"), ("a-again.txt", b"a")])
    SourceFile.objects.filter(original_name="b.txt").update(status="processing")
    SourceFile.objects.filter(original_name="c.txt").update(status="unchanged")

    rows = import_api.get(URL).json()["results"]

    assert rows[0]["id"] == batch.pk
    assert rows[0]["progress"] == batch_progress(batch=batch)


def test_consumers_see_only_their_own_batches_unless_they_may_view_all(api, consumer, importer):
    theirs = make_batch(importer, [("a.txt", b"a")])

    assert api.get(URL).json()["results"] == []
    assert api.get(reverse("api:import-detail", args=[theirs.pk])).status_code == 404

    from django.contrib.auth.models import Permission

    consumer.user_permissions.add(Permission.objects.get(codename="view_importbatch"))
    assert [r["id"] for r in api.get(URL).json()["results"]] == [theirs.pk]


def test_the_list_runs_the_same_queries_whatever_its_size(import_api, importer, django_assert_num_queries):
    for index in range(5):
        make_batch(importer, [(f"{index}.txt", f"{index}".encode())])
    for size in (1, 5):
        with django_assert_num_queries(4):  # token, the user's permissions (2), batches with their counts
            assert len(import_api.get(URL, {"page_size": size}).json()["results"]) == size


def test_other_users_batches_stay_hidden_from_the_list(import_api):
    make_batch(UserFactory(username="someone-else"), [("x.txt", b"x")])

    assert import_api.get(URL).json()["results"] == []
