"""The OpenAPI schema is valid and documents every candidate filter."""

import pytest
import yaml
from django.core.management import call_command
from django.urls import reverse

from profiles.search.filtersets import CandidateFilterSet
from profiles.search.terms import PASSTHROUGH_PARAMS


@pytest.fixture(scope="module")
def schema(tmp_path_factory) -> dict:
    path = tmp_path_factory.mktemp("schema") / "openapi.yaml"
    # --validate checks it against the OpenAPI 3 JSON schema; --fail-on-warn fails on anything undocumented.
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(path))
    return yaml.safe_load(path.read_text())


def parameters(schema: dict, path: str) -> dict[str, dict]:
    return {p["name"]: p for p in schema["paths"][path]["get"]["parameters"]}


@pytest.mark.parametrize(
    "path", ["/api/v1/candidates/", "/api/v1/candidates/export.csv", "/api/v1/candidates/export.jsonl"]
)
def test_every_candidate_filter_is_documented(schema, path):
    documented = parameters(schema, path)

    for name in CandidateFilterSet.base_filters:
        assert documented[name].get("description"), name


def test_the_list_documents_cursor_pagination_and_the_match_formula(schema):
    documented = parameters(schema, "/api/v1/candidates/")

    assert PASSTHROUGH_PARAMS - {"format"} <= documented.keys()
    assert documented["skill"]["schema"] == {"type": "array", "items": {"type": "string"}}
    assert "round(100 × mean" in schema["paths"]["/api/v1/candidates/"]["get"]["description"]


def test_uploads_are_documented_as_multipart(schema):
    post = schema["paths"]["/api/v1/imports/"]["post"]

    assert "multipart/form-data" in post["requestBody"]["content"]
    assert "202" in post["responses"]


@pytest.mark.django_db
def test_the_schema_and_docs_are_served_to_a_logged_in_user(api):
    assert api.get(reverse("schema")).status_code == 200
    assert api.get(reverse("swagger-ui")).status_code == 200


@pytest.mark.parametrize("component", ["CandidateList", "CandidateDetail"])
def test_match_and_rank_are_documented_as_optional(schema, component):
    properties = schema["components"]["schemas"][component]

    assert {"match"} <= properties["properties"].keys()
    assert not {"match", "rank"} & set(properties["required"])


def test_the_detail_documents_jobs_languages_and_education_months_typed(schema):
    components = schema["components"]["schemas"]
    detail = components["CandidateDetail"]["properties"]
    month = {"type": "string", "nullable": True, "pattern": r"^\d{4}-\d{2}$"}

    assert detail["experience"]["type"] == "array"
    job = components[detail["experience"]["items"]["$ref"].rsplit("/", 1)[1]]["properties"]
    assert set(job) == {"company", "title", "location", "start", "end", "current", "summary"}
    assert {key: job["start"][key] for key in month} == month
    assert {key: job["end"][key] for key in month} == month
    assert job["current"]["type"] == "boolean"
    language = components[detail["languages"]["items"]["$ref"].rsplit("/", 1)[1]]["properties"]
    assert set(language) == {"code", "name", "fluency"}
    levels = {
        value for ref in language["fluency"]["oneOf"] for value in components[ref["$ref"].rsplit("/", 1)[1]]["enum"]
    }
    assert levels == {"native", "full_professional", "professional_working", "limited_working", "elementary", ""}
    education = components[detail["education"]["items"]["$ref"].rsplit("/", 1)[1]]["properties"]
    assert {key: education["start"][key] for key in month} == month
    assert detail["spoken_languages"]["items"]["type"] == "string"
    assert not {"experience", "languages"} & components["CandidateList"]["properties"].keys()


def test_job_matching_is_documented_as_a_json_post_with_the_contract_answer(schema):
    post = schema["paths"]["/api/v1/jobs/match/"]["post"]
    answer = schema["components"]["schemas"]["JobMatchResponse"]
    result = schema["components"]["schemas"]["MatchResult"]

    assert "application/json" in post["requestBody"]["content"]
    assert {"strict", "cursor", "page_size"} <= {p["name"] for p in post["parameters"]}
    assert set(answer["properties"]) == {"criteria", "results", "next", "warnings"}
    assert set(result["properties"]) == {
        "id", "url", "name", "title", "company", "location", "match", "matched", "missing", "evidence"
    }  # fmt: skip


CONTACT_FIELDS = ("email", "phone", "links")


def test_the_detail_documents_its_contact_details_as_present_only_with_the_permission(schema):
    detail = schema["components"]["schemas"]["CandidateDetail"]

    for name in CONTACT_FIELDS:
        assert "contact details permission" in detail["properties"][name]["description"], name
        assert name not in detail["required"], name
    assert detail["properties"]["links"]["type"] == "array"
    assert "`phone`" in schema["paths"]["/api/v1/candidates/{id}/"]["get"]["description"]


@pytest.mark.django_db
def test_the_served_schema_documents_the_contact_details_to_a_reader_without_the_permission(api):
    served = yaml.safe_load(api.get(reverse("schema")).content)

    assert set(CONTACT_FIELDS) <= served["components"]["schemas"]["CandidateDetail"]["properties"].keys()
