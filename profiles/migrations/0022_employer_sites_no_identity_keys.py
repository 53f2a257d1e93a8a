"""A site that is one of its candidate's employers' is no identity key (``core.identity.personal_site``: the host of
one of their jobs' sites, or a company's domain): an employer's homepage, stored as a key before imports told it
apart, would lead a colleague's file to this candidate, and an erasure of this candidate would refuse the colleague's
files. Those keys go; a network's page (``github.com/ada``) stays.

Reversed, nothing comes back: such a key named the employer, not the person.
"""

from django.db import migrations

from core.identity import network_page, personal_site

CHUNK = 2000


def drop_employer_sites(apps, schema_editor):
    identifier_model = apps.get_model("profiles", "CandidateIdentifier")
    candidate_model = apps.get_model("profiles", "Candidate")
    position_model = apps.get_model("profiles", "Position")
    last = 0
    while True:
        rows = list(
            identifier_model.objects.filter(kind="url", pk__gt=last)
            .order_by("pk")
            .values_list("pk", "candidate_id", "value")[:CHUNK]
        )
        if not rows:
            return
        last = rows[-1][0]
        ids = {candidate_id for _, candidate_id, _ in rows}
        sites: dict[int, list[str]] = {}
        companies: dict[int, list[str]] = {}
        for candidate_id, company in candidate_model.objects.filter(pk__in=ids).values_list("pk", "company"):
            companies.setdefault(candidate_id, []).append(company)
        for candidate_id, url, company in position_model.objects.filter(candidate_id__in=ids).values_list(
            "candidate_id", "url", "company"
        ):
            sites.setdefault(candidate_id, []).append(url)
            companies.setdefault(candidate_id, []).append(company)
        employers = [
            pk
            for pk, candidate_id, value in rows
            if not network_page(value)
            and not personal_site(
                value, work_sites=sites.get(candidate_id, ()), companies=companies.get(candidate_id, ())
            )
        ]
        identifier_model.objects.filter(pk__in=employers).delete()


class Migration(migrations.Migration):
    dependencies = [("profiles", "0021_identifiers_normalised")]

    operations = [migrations.RunPython(drop_employer_sites, migrations.RunPython.noop)]
