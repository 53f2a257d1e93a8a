import datetime as dt
import hashlib

import factory
from django.contrib.auth import get_user_model

from ingestion.models import ImportBatch, SourceFile
from profiles.models import (
    Candidate,
    CandidateSkill,
    Contribution,
    Education,
    Position,
    Repository,
    Skill,
    SpokenLanguage,
)
from profiles.search import candidates_refresh_search_columns


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ["username"]

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    password = factory.django.Password("correct horse battery staple")


class SkillFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Skill
        django_get_or_create = ["slug"]

    slug = factory.Sequence(lambda n: f"skill-{n}")
    name = factory.LazyAttribute(lambda s: s.slug.replace("-", " ").title())


class CandidateFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Candidate

    name = factory.Faker("name")
    headline = factory.LazyAttribute(lambda c: f"{c.title} at {c.company}")
    title = "Software Engineer"
    company = factory.Faker("company")
    city = "Berlin"
    country = "Germany"
    country_code = "DE"
    summary = factory.Faker("paragraph")
    years_coding = 8
    years_employed = 6


class CandidateSkillFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = CandidateSkill

    candidate = factory.SubFactory(CandidateFactory)
    skill = factory.SubFactory(SkillFactory)
    score = 7
    label = factory.LazyAttribute(lambda cs: cs.skill.slug)

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        """Every code path that writes skills refreshes the candidate's search columns; so does the factory."""
        row = super()._create(model_class, *args, **kwargs)
        candidates_refresh_search_columns(candidate_ids=[row.candidate_id])
        return row


class EducationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Education

    candidate = factory.SubFactory(CandidateFactory)
    degree = "Master's Degree"
    field = "Computer Science"
    school = "Technical University of Munich"


class RepositoryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Repository
        django_get_or_create = ["full_name"]

    full_name = factory.Sequence(lambda n: f"owner{n}/project{n}")
    description = "A project"


class ContributionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Contribution

    candidate = factory.SubFactory(CandidateFactory)
    repository = factory.SubFactory(RepositoryFactory)
    role = "Backend Developer"
    commits = 12


class ImportBatchFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ImportBatch

    origin = ImportBatch.Origin.ADMIN
    label = factory.Sequence(lambda n: f"upload {n}")


class SourceFileFactory(factory.django.DjangoModelFactory):
    """A stored file as an import stores it: its bytes, and their size and sha256 computed from them."""

    class Meta:
        model = SourceFile

    batch = None
    original_name = factory.Sequence(lambda n: f"profile-{n}.txt")
    content = factory.Sequence(lambda n: f"Person {n}\n".encode())
    sha256 = factory.LazyAttribute(lambda f: hashlib.sha256(bytes(f.content)).hexdigest())
    size = factory.LazyAttribute(lambda f: len(f.content))


class PositionFactory(factory.django.DjangoModelFactory):
    """A job of a candidate's work history; current (no end) unless given an end."""

    class Meta:
        model = Position

    candidate = factory.SubFactory(CandidateFactory)
    order = factory.Sequence(int)
    company = factory.Faker("company")
    title = "Software Engineer"
    start = dt.date(2020, 1, 1)
    end = None
    is_current = factory.LazyAttribute(lambda p: p.end is None)


class SpokenLanguageFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = SpokenLanguage

    candidate = factory.SubFactory(CandidateFactory)
    position = factory.Sequence(int)
    code = "en"
    name = "English"
    fluency = SpokenLanguage.Fluency.PROFESSIONAL_WORKING
    raw = factory.LazyAttribute(lambda s: s.name)
