"""Every stored identity key in the one normalisation of ``core.identity.identifier_key`` (the import's keys from now
on): a URL without scheme, ``www.``, port, trailing dot or slash, percent-decoded; an account percent-decoded; an
e-mail without ``mailto:`` or a trailing dot; all in NFC, without invisible characters, case-folded.

Two stored keys that turn out to be one (a LinkedIn slug stored percent-encoded and plainly) are not merged: the key
stays with the candidate that holds it in today's form, or with the first one met, the other's row goes, and when
the two are different candidates the pair is recorded as a possible duplicate (``PossibleDuplicate``, "one
identifier written two ways") for a recruiter to merge or mark as different people. A URL that names no site (a
``mailto:`` or a word) is no key and goes.

The normalisation is today's, imported, on purpose: the rows must be keyed exactly as the import keys files.
Reversed, a URL key gets back the ``https://`` the import used to store it with; the rest stays as it is (the old
import computed the same keys for them, but for the spellings it told apart).
"""

from django.db import migrations

from core.identity import identifier_key

CHUNK = 2000
URL = "url"


def _changed_rows(identifier_model):
    """The (id, candidate, kind, value, key) of every row whose value is not its key, in id order, a chunk at a
    time."""
    last = 0
    while True:
        rows = list(
            identifier_model.objects.filter(pk__gt=last)
            .order_by("pk")
            .values_list("pk", "candidate_id", "kind", "value")[:CHUNK]
        )
        if not rows:
            return
        last = rows[-1][0]
        changed = []
        for pk, candidate_id, kind, value in rows:
            key = identifier_key(kind, value)[:500]
            if key != value:
                changed.append((pk, candidate_id, kind, value, key))
        if changed:
            yield changed


def normalise_identifiers(apps, schema_editor):
    identifier_model = apps.get_model("profiles", "CandidateIdentifier")
    pair_model = apps.get_model("profiles", "PossibleDuplicate")
    for changed in _changed_rows(identifier_model):
        wanted = {(kind, key) for _, _, kind, _, key in changed if key}
        holders = {}
        for kind in {kind for kind, _ in wanted}:
            values = [key for k, key in wanted if k == kind]
            holders.update(
                ((kind, value), candidate_id)
                for value, candidate_id in identifier_model.objects.filter(kind=kind, value__in=values).values_list(
                    "value", "candidate_id"
                )
            )
        gone, renamed, pairs = [], [], {}
        for pk, candidate_id, kind, _, key in changed:
            holder = holders.get((kind, key))
            if not key or holder is not None:
                gone.append(pk)
                if holder is not None and holder != candidate_id:
                    pairs.setdefault((holder, candidate_id), (kind, key))
                continue
            holders[(kind, key)] = candidate_id
            renamed.append(identifier_model(pk=pk, value=key))
        identifier_model.objects.filter(pk__in=gone).delete()
        identifier_model.objects.bulk_update(renamed, ["value"], batch_size=CHUNK)
        pair_model.objects.bulk_create(
            [
                pair_model(first_id=first, second_id=second, reason="spelling", kind=kind, value=value)
                for (first, second), (kind, value) in pairs.items()
            ],
            ignore_conflicts=True,
        )


def url_keys_with_their_scheme(apps, schema_editor):
    identifier_model = apps.get_model("profiles", "CandidateIdentifier")
    taken = set(identifier_model.objects.filter(kind=URL, value__startswith="https://").values_list("value", flat=True))
    rows = []
    for pk, value in (
        identifier_model.objects.filter(kind=URL).exclude(value__contains="://").values_list("pk", "value")
    ):
        old = f"https://{value}"[:500]
        if old not in taken:
            taken.add(old)
            rows.append(identifier_model(pk=pk, value=old))
    identifier_model.objects.bulk_update(rows, ["value"], batch_size=CHUNK)
    apps.get_model("profiles", "PossibleDuplicate").objects.filter(reason="spelling").delete()


class Migration(migrations.Migration):
    dependencies = [("profiles", "0020_possible_duplicates_and_shared_identifiers")]

    operations = [migrations.RunPython(normalise_identifiers, url_keys_with_their_scheme)]
