from django.db import migrations

# What the shipped vocabulary (profiles/data/vocabulary.tsv) gained after 0036 (the data orchestrators Prefect and
# Dagster, the Ray framework, Amazon EKS and EventBridge) and the display name it corrected (RBAC), written out here so
# that this migration adds the same rows wherever and whenever it runs, whatever the table says later.
SKILLS = [
    ("amazon-eks", "Amazon EKS", "skill"),
    ("amazon-eventbridge", "Amazon EventBridge", "skill"),
    ("dagster", "Dagster", "skill"),
    ("prefect", "Prefect", "skill"),
    ("ray", "Ray", "skill"),
]
ALIASES = [
    ("amazon-eks", "amazon-eks"),
    ("amazon-elastic-kubernetes-service", "amazon-eks"),
    ("aws-eks", "amazon-eks"),
    ("eks", "amazon-eks"),
    ("elastic-kubernetes-service", "amazon-eks"),
    ("amazon-eventbridge", "amazon-eventbridge"),
    ("amazon-event-bridge", "amazon-eventbridge"),
    ("aws-eventbridge", "amazon-eventbridge"),
    ("eventbridge", "amazon-eventbridge"),
    ("dagster", "dagster"),
    ("prefect", "prefect"),
    ("prefecthq", "prefect"),
    ("ray", "ray"),
    ("ray-framework", "ray"),
    ("ray-io", "ray"),
]
NAMES = [("rbac", "Rbac", "RBAC")]


def seed_shipped_vocabulary(apps, schema_editor):
    """A database seeded before learns the skills and aliases the shipped vocabulary gained since, and the display
    name it corrected. What the database already holds wins: a slug that is a skill, or a label of another skill (a
    curator merged it there), adds no skill, and its aliases follow the label to that skill; a label already taken
    keeps its skill; a name a curator changed stays. Every process then reads the vocabulary again."""
    from profiles.vocabulary_copy import skill_vocabulary_changed

    skill_model = apps.get_model("profiles", "Skill")
    alias_model = apps.get_model("profiles", "SkillAlias")
    slugs = [slug for slug, _, _ in SKILLS]
    labels = {label for label, _ in ALIASES} | set(slugs)
    taken = set(skill_model.objects.filter(slug__in=slugs).values_list("slug", flat=True))
    taken |= set(alias_model.objects.filter(label__in=slugs).values_list("label", flat=True))
    skill_model.objects.bulk_create(
        [skill_model(slug=slug, name=name, kind=kind) for slug, name, kind in SKILLS if slug not in taken],
        ignore_conflicts=True,
    )
    targets = {slug for _, slug in ALIASES}
    skill_ids = dict(skill_model.objects.filter(slug__in=targets).values_list("slug", "id"))
    for label, skill_id in alias_model.objects.filter(label__in=targets).values_list("label", "skill_id"):
        skill_ids.setdefault(label, skill_id)  # a slug merged away: its aliases go where its own label went
    held = set(alias_model.objects.filter(label__in=labels).values_list("label", flat=True))
    alias_model.objects.bulk_create(
        [
            alias_model(label=label, skill_id=skill_ids[slug])
            for label, slug in ALIASES
            if label not in held and slug in skill_ids
        ],
        ignore_conflicts=True,
    )
    for slug, shipped, name in NAMES:
        skill_model.objects.filter(slug=slug, name=shipped).update(name=name)
    skill_vocabulary_changed()


class Migration(migrations.Migration):
    dependencies = [("profiles", "0036_seed_shipped_vocabulary_android_and_platform_tools")]

    operations = [migrations.RunPython(seed_shipped_vocabulary, migrations.RunPython.noop)]
