"""Name-and-location identity keys in the new name-key form (profiles.identity.name_key, the twin of NAME_KEY_SQL).

The key was ``casefold()``-ed; it is now lowered character by character, as PostgreSQL's ``lower()`` does, and only
the combining diacritical marks are dropped. For names where the two differ ("Strauß", a word-final "Σ", Devanagari
or Hebrew marks), the next import of the same person would not find the stored key and would create a second
candidate: each such key gets its new-form twin beside it (keys are additive; the old one stays harmless). Names in
plain ASCII key the same both ways and are skipped.
"""

import re
import unicodedata

from django.db import migrations

_COMBINING_DIACRITICS_RE = re.compile("[\u0300-\u036f]")
_WHITESPACE_RE = re.compile(r"\s+")


def _old_name_key(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name)
    letters = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(letters.casefold().split())


def _new_name_key(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name)
    spaced = _WHITESPACE_RE.sub(" ", _COMBINING_DIACRITICS_RE.sub("", decomposed)).strip(" ")
    return "".join([char.lower() for char in spaced])


def add_new_form_keys(apps, schema_editor):
    identifier_model = apps.get_model("profiles", "CandidateIdentifier")
    keys = (
        identifier_model.objects.filter(kind="name", candidate__name__regex=r"[^\x01-\x7f]")
        .values_list("candidate_id", "value", "candidate__name")
        .iterator(chunk_size=2000)
    )
    new_rows = []
    for candidate_id, value, name in keys:
        parts = value.rsplit("|", 2)
        if len(parts) != 3 or parts[0] != _old_name_key(name):
            continue  # a key from an earlier name of this candidate: leave it as it is
        new_value = "|".join([_new_name_key(name), parts[1], parts[2]])[:500]
        if new_value != value:
            new_rows.append(identifier_model(candidate_id=candidate_id, kind="name", value=new_value))
    identifier_model.objects.bulk_create(new_rows, batch_size=2000, ignore_conflicts=True)


class Migration(migrations.Migration):
    dependencies = [("profiles", "0009_candidate_skill_scores_uncompressed")]

    operations = [migrations.RunPython(add_new_form_keys, migrations.RunPython.noop)]
