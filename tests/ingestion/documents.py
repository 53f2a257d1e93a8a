"""Small hand-built documents for loader and service tests (the parsers have their own tests)."""

from ingestion.documents import ContributionEntry, EducationEntry, Identifiers, Location, ProfileDocument, SkillEntry


def make_document(name: str = "Mira Okafor", **overrides) -> ProfileDocument:
    values = {
        "format": "progai",
        "name": name,
        "headline": "Principal Engineer at Lumen Labs",
        "title": "Principal Engineer",
        "company": "Lumen Labs",
        "location": Location(city="Lagos", region="Lagos State", country="Nigeria", country_code="NG"),
        "badges": ["Rockstar"],
        "summary": f"{name} builds compilers and data pipelines.",
        "years_coding": 11,
        "years_employed": 9,
        "education": [EducationEntry("Master's Degree", "Computer Science", "", "University of Lagos")],
        "spoken_languages": ["English", "Yoruba"],
        "skills_declared": 5,
        "skills": [SkillEntry("python", 9), SkillEntry("c-language", 7), SkillEntry("cprogramming-language", 10)],
        "programming_languages_declared": 0,
        "contributions_declared": 1,
        "contributions": [
            ContributionEntry(
                repository="lumen/optics",
                repository_description="Optical flow kernels",
                start="2021-02",
                end=None,
                is_current=True,
                role="Maintainer",
                commits=120,
                comments=4,
                active_months=20,
                summary="Rewrote the scheduler for vectorised kernels.",
                topics=["compiler", "ml"],
                topics_raw="compilerml",
            )
        ],
    }
    values.update(overrides)
    return ProfileDocument(**values)


def with_github(doc: ProfileDocument, username: str) -> ProfileDocument:
    doc.identifiers = Identifiers(github=username)
    return doc


def write_shared_rows_first(documents: list[ProfileDocument]) -> None:
    """What an import writes before a chunk's transaction: the documents' skills, then their repositories."""
    from ingestion.loaders import repositories_upsert, skill_vocabulary_resolve
    from ingestion.normalise import document_label_keys, normalise

    skill_keys, topic_keys = document_label_keys(documents)
    vocabulary = skill_vocabulary_resolve(skill_keys=skill_keys, topic_keys=topic_keys)
    repositories_upsert([normalise(document, vocabulary) for document in documents])
