from django.db import migrations

# What the shipped vocabulary (profiles/data/vocabulary.tsv) gained after 0029 first seeded a database from it, written
# out here so that this migration adds the same rows wherever and whenever it runs, whatever the table says later.
SKILLS = [
    ("adobe-analytics", "Adobe Analytics", "skill"),
    ("adobe-brackets", "Adobe Brackets", "skill"),
    ("adobe-illustrator", "Adobe Illustrator", "skill"),
    ("amazon-athena", "Amazon Athena", "skill"),
    ("amazon-ecs", "Amazon ECS", "skill"),
    ("amazon-ses", "Amazon SES", "skill"),
    ("aws-batch", "AWS Batch", "skill"),
    ("bioinformatics", "Bioinformatics", "topic"),
    ("computer-graphics", "Computer graphics", "topic"),
    ("domain-driven-design", "Domain-driven design", "skill"),
    ("event-driven-architecture", "Event-driven architecture", "topic"),
    ("event-sourcing", "Event sourcing", "skill"),
    ("jtag", "JTAG", "skill"),
    ("linear-algebra", "Linear algebra", "topic"),
    ("logo", "Logo", "language"),
    ("microsoft-cognitive", "Microsoft Cognitive", "skill"),
    ("microsoft-dynamics", "Microsoft Dynamics", "skill"),
    ("microsoft-metro", "Microsoft Metro", "skill"),
    ("ms-media-foundation", "MS Media Foundation", "skill"),
    ("ms-office", "MS Office", "skill"),
    ("ms-project", "MS Project", "skill"),
    ("onnx", "ONNX", "skill"),
    ("oop", "Object-oriented programming", "topic"),
    ("polars", "Polars", "skill"),
    ("preact", "Preact", "skill"),
    ("reshape2", "Reshape2", "skill"),
    ("spi", "SPI", "skill"),
    ("tensorrt", "TensorRT", "skill"),
    ("zephyr-rtos", "Zephyr", "skill"),
]
ALIASES = [
    ("adobe-analytics", "adobe-analytics"),
    ("adobe-brackets", "adobe-brackets"),
    ("adobe-illustrator", "adobe-illustrator"),
    ("amazon-athena", "amazon-athena"),
    ("amazon-ecs", "amazon-ecs"),
    ("amazon-ses", "amazon-ses"),
    ("aws-batch", "aws-batch"),
    ("batch-file", "batchfile"),
    ("bioinformatics", "bioinformatics"),
    ("computational-biology", "bioinformatics"),
    ("ckeditor4.x", "ckeditor"),
    ("computer-graphics", "computer-graphics"),
    ("graphics-programming", "computer-graphics"),
    ("real-time-graphics", "computer-graphics"),
    ("real-time-rendering", "computer-graphics"),
    ("domain-driven-design", "domain-driven-design"),
    ("event-driven-architecture", "event-driven-architecture"),
    ("event-driven", "event-driven-architecture"),
    ("event-driven-design", "event-driven-architecture"),
    ("event-driven-systems", "event-driven-architecture"),
    ("event-sourcing", "event-sourcing"),
    ("exoplayer2.x", "exoplayer"),
    ("jboss5.x", "jboss"),
    ("jboss6.x", "jboss"),
    ("jboss7.x", "jboss"),
    ("json-ld", "jsonld"),
    ("jtag", "jtag"),
    ("linear-algebra", "linear-algebra"),
    ("logo", "logo"),
    ("logo-language", "logo"),
    ("logo-programming", "logo"),
    ("microsoft-cognitive", "microsoft-cognitive"),
    ("microsoft-dynamics", "microsoft-dynamics"),
    ("microsoft-metro", "microsoft-metro"),
    ("ms-media-foundation", "ms-media-foundation"),
    ("ms-office", "ms-office"),
    ("ms-project", "ms-project"),
    ("onnx", "onnx"),
    ("onnx-runtime", "onnx"),
    ("onnxruntime", "onnx"),
    ("oop", "oop"),
    ("object-oriented-programming", "oop"),
    ("object-oriented", "oop"),
    ("object-oriented-design", "oop"),
    ("opencart2.x", "opencart"),
    ("polars", "polars"),
    ("python-polars", "polars"),
    ("preact", "preact"),
    ("preact-js", "preact"),
    ("preactjs", "preact"),
    ("reshape2", "reshape2"),
    ("r-markdown", "rmarkdown"),
    ("salt-stack", "salt"),
    ("spi", "spi"),
    ("system-verilog", "systemverilog"),
    ("tensorrt", "tensorrt"),
    ("nvidia-tensorrt", "tensorrt"),
    ("plaintext", "text"),
    ("zephyr-rtos", "zephyr-rtos"),
    ("zephyr", "zephyr-rtos"),
    ("zephyr-os", "zephyr-rtos"),
    ("zephyrproject", "zephyr-rtos"),
]


def seed_shipped_vocabulary(apps, schema_editor):
    """A database seeded by 0029 learns the skills and aliases the shipped vocabulary gained since (object-oriented
    programming, event-driven architecture, linear algebra, ONNX, TensorRT, SPI, JTAG, Zephyr...). What the database
    already holds wins: a slug that is a skill, or a label of another skill (a curator merged it there), adds no skill,
    and its aliases follow the label to that skill; a label already taken keeps its skill. Every process then reads the
    vocabulary again."""
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
    skill_vocabulary_changed()


class Migration(migrations.Migration):
    dependencies = [("profiles", "0033_reresolve_skill_labels_recorded")]

    operations = [migrations.RunPython(seed_shipped_vocabulary, migrations.RunPython.noop)]
