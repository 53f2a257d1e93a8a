from django.db import migrations

# What the shipped vocabulary (profiles/data/vocabulary.tsv) gained after 0034 (the Android stack CVs list, Koin,
# Ktor, Moshi, Coil, LeakCanary, Kotlin Multiplatform, Google Play Console, RTOS's spelled-out name, WebdriverIO,
# Fastify, pgvector, Thanos, etcd), written out here so that this migration adds the same rows wherever and whenever
# it runs, whatever the table says later.
SKILLS = [
    ("android-jetpack", "Android Jetpack", "skill"),
    ("android-workmanager", "WorkManager", "skill"),
    ("coil", "Coil", "skill"),
    ("dagger-hilt", "Hilt", "skill"),
    ("etcd", "etcd", "skill"),
    ("fastify", "Fastify", "skill"),
    ("koin", "Koin", "skill"),
    ("kotlin-coroutines", "Kotlin Coroutines", "skill"),
    ("kotlin-flow", "Kotlin Flow", "skill"),
    ("kotlin-multiplatform", "Kotlin Multiplatform", "skill"),
    ("ktor", "Ktor", "skill"),
    ("leakcanary", "LeakCanary", "skill"),
    ("moshi", "Moshi", "skill"),
    ("pgvector", "pgvector", "skill"),
    ("thanos", "Thanos", "skill"),
    ("webdriverio", "WebdriverIO", "skill"),
]
ALIASES = [
    ("espresso", "android-espresso"),
    ("glide", "android-glide"),
    ("android-jetpack", "android-jetpack"),
    ("android-architecture-components", "android-jetpack"),
    ("androidx", "android-jetpack"),
    ("jetpack", "android-jetpack"),
    ("live-data", "android-livedata"),
    ("livedata", "android-livedata"),
    ("android-navigation-component", "android-navigation"),
    ("jetpack-navigation", "android-navigation"),
    ("navigation-component", "android-navigation"),
    ("navigation-compose", "android-navigation"),
    ("androidx-room", "android-room"),
    ("room-database", "android-room"),
    ("room-db", "android-room"),
    ("room-persistence-library", "android-room"),
    ("android-workmanager", "android-workmanager"),
    ("work-manager", "android-workmanager"),
    ("workmanager", "android-workmanager"),
    ("coil", "coil"),
    ("coil-compose", "coil"),
    ("coil-kt", "coil"),
    ("dagger-hilt", "dagger-hilt"),
    ("dagger-hilt-android", "dagger-hilt"),
    ("hilt", "dagger-hilt"),
    ("hilt-android", "dagger-hilt"),
    ("etcd", "etcd"),
    ("coreos-etcd", "etcd"),
    ("fastify", "fastify"),
    ("fastify-js", "fastify"),
    ("google-play-developer-console", "google-play-console"),
    ("play-console", "google-play-console"),
    ("android-jetpack-compose", "jetpack-compose"),
    ("compose-ui", "jetpack-compose"),
    ("jetpack-compose-ui", "jetpack-compose"),
    ("koin", "koin"),
    ("kotlin-coroutines", "kotlin-coroutines"),
    ("coroutines", "kotlin-coroutines"),
    ("kotlin-coroutine", "kotlin-coroutines"),
    ("kotlinx-coroutines", "kotlin-coroutines"),
    ("kotlinx.coroutines", "kotlin-coroutines"),
    ("kotlin-flow", "kotlin-flow"),
    ("kotlin-flows", "kotlin-flow"),
    ("kotlinx-flow", "kotlin-flow"),
    ("sharedflow", "kotlin-flow"),
    ("stateflow", "kotlin-flow"),
    ("kotlin-multiplatform", "kotlin-multiplatform"),
    ("kmm", "kotlin-multiplatform"),
    ("kmp", "kotlin-multiplatform"),
    ("kotlin-multiplatform-mobile", "kotlin-multiplatform"),
    ("ktor", "ktor"),
    ("leakcanary", "leakcanary"),
    ("leak-canary", "leakcanary"),
    ("moshi", "moshi"),
    ("pgvector", "pgvector"),
    ("pg-vector", "pgvector"),
    ("real-time-operating-system", "rtos"),
    ("real-time-operating-systems", "rtos"),
    ("real-time-os", "rtos"),
    ("thanos", "thanos"),
    ("thanos-io", "thanos"),
    ("webdriverio", "webdriverio"),
    ("wdio", "webdriverio"),
    ("webdriver-io", "webdriverio"),
]
NAMES = [
    ("android-espresso", "Android Espresso", "Espresso"),
    ("android-glide", "Android Glide", "Glide"),
    ("android-livedata", "Android LiveData", "LiveData"),
    ("android-navigation", "Android Navigation", "Jetpack Navigation"),
    ("rtos", "Rtos", "RTOS"),
]
# Two skills the public lists knew under another slug, now aliases of the curated one: a database that holds the old
# skill keeps it, and the new slug and its aliases lead to it (merging skills is a curator's call, in the admin).
FORMERLY = {"android-jetpack": "android-architecture-components", "webdriverio": "webdriver-io"}
# Labels that are English words or name two platforms' tools ("Docker, Compose", "Room booking systems"), which a
# database seeded from the table for a while took as Android's; a file's skills list reads them by its platform.
DROPPED_ALIASES = [("compose", "jetpack-compose"), ("room", "android-room")]
DROPPED_NAMES = [("android-room", "Room", "Android Room")]


def seed_shipped_vocabulary(apps, schema_editor):
    """A database seeded before learns the skills and aliases the shipped vocabulary gained since, and the display
    names it changed. What the database already holds wins: a slug that is a skill, or a label of another skill (a
    curator merged it there), or whose former skill it holds, adds no skill, and its aliases follow the label to that
    skill; a label already taken keeps its skill; a name a curator changed stays. Every process then reads the
    vocabulary again."""
    from profiles.vocabulary_copy import skill_vocabulary_changed

    skill_model = apps.get_model("profiles", "Skill")
    alias_model = apps.get_model("profiles", "SkillAlias")
    slugs = [slug for slug, _, _ in SKILLS]
    labels = {label for label, _ in ALIASES} | set(slugs)
    former = set(skill_model.objects.filter(slug__in=FORMERLY.values()).values_list("slug", flat=True))
    taken = set(skill_model.objects.filter(slug__in=slugs).values_list("slug", flat=True))
    taken |= set(alias_model.objects.filter(label__in=slugs).values_list("label", flat=True))
    taken |= {slug for slug, old in FORMERLY.items() if old in former}
    skill_model.objects.bulk_create(
        [skill_model(slug=slug, name=name, kind=kind) for slug, name, kind in SKILLS if slug not in taken],
        ignore_conflicts=True,
    )
    targets = {slug for _, slug in ALIASES}
    skill_ids = dict(skill_model.objects.filter(slug__in=targets | former).values_list("slug", "id"))
    for label, skill_id in alias_model.objects.filter(label__in=targets).values_list("label", "skill_id"):
        skill_ids.setdefault(label, skill_id)  # a slug merged away: its aliases go where its own label went
    for slug, old in FORMERLY.items():
        if old in skill_ids:
            skill_ids.setdefault(slug, skill_ids[old])
    held = set(alias_model.objects.filter(label__in=labels).values_list("label", flat=True))
    alias_model.objects.bulk_create(
        [
            alias_model(label=label, skill_id=skill_ids[slug])
            for label, slug in ALIASES
            if label not in held and slug in skill_ids
        ],
        ignore_conflicts=True,
    )
    for label, slug in DROPPED_ALIASES:
        alias_model.objects.filter(label=label, skill__slug=slug).delete()
    for slug, shipped, name in [*NAMES, *DROPPED_NAMES]:
        skill_model.objects.filter(slug=slug, name=shipped).update(name=name)
    skill_vocabulary_changed()


class Migration(migrations.Migration):
    dependencies = [("profiles", "0035_education_year_only")]

    operations = [migrations.RunPython(seed_shipped_vocabulary, migrations.RunPython.noop)]
