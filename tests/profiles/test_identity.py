"""The name key's two definitions, Python's and PostgreSQL's, give the same key for the same name."""

import pytest
from django.db import connection

from core.identity import NAME_KEY_SQL, URL_TOKEN_SQL, name_key, url_token

HARD_NAMES = [
    "Strauß",  # casefold() would give "strauss"; lower() keeps "ß"
    "ΣΊΣΥΦΟΣ Παπαδόπουλος",  # a word-final capital sigma: str.lower() gives "ς", lower() gives "σ"
    "José  Núñez\tGarcía",  # accents, a double space and a tab
    "  Zoë O\u2019Brien \n",  # diaeresis, typographic apostrophe, surrounding whitespace
    "İlkay Gündoğan",  # capital I with a dot above: NFKD splits it into I and a combining dot
    "Ǆenan Đorđević",  # a title-case digraph; Đ does not decompose
    "ﬁona Ｍａｒｉａ",  # a ligature and full-width letters, both compatibility forms
    "Nguyễn Thị Ánh",  # stacked diacritics
    "Ørsted Łukasz",  # letters with strokes: not combining marks
    "नमस्ते Kumar",  # Devanagari virama: a combining mark outside U+0300-U+036F stays
    "שָׁלוֹם Levi",  # Hebrew points, combining marks outside the Latin block
    "Ana\u00a0María\u3000López",  # a no-break and an ideographic space
    "",
]


@pytest.mark.django_db
@pytest.mark.parametrize("name", HARD_NAMES)
def test_python_and_sql_name_keys_agree(name):
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {NAME_KEY_SQL} FROM (SELECT %s::text AS name) AS t", [name])
        (sql_key,) = cursor.fetchone()
    assert name_key(name) == sql_key


def test_the_key_ignores_case_accents_and_spacing():
    assert name_key("  JOSÉ   núñez ") == name_key("Jose Nunez") == "jose nunez"


def test_the_key_keeps_sharp_s_as_postgresql_does():
    assert name_key("STRAUß") == name_key("strauß") == "strauß"


URL_KEYS = [
    "github.com/samroe",
    "github.com/samroe/tool",
    "github.com",  # GitHub itself: no account
    "gitlab.com/group/subgroup",
    "linkedin.com/in/josé-garcía",
    "de.linkedin.com/in/ada-quill",
    "linkedin.com/pub/ada-quill/1/2/3",
    "linkedin.com/company/globex",  # a company's page: no person's account
    "stackoverflow.com/users/4412345/noor",
    "stackoverflow.com/users/noor",
    "x.com/ada",
    "mobile.twitter.com/ada",
    "notgithub.com/ada",
    "site.example/people/ada",
    "bücher.example",
]


@pytest.mark.django_db
@pytest.mark.parametrize("key", URL_KEYS)
def test_python_and_sql_url_tokens_agree(key):
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {URL_TOKEN_SQL.replace('{value}', 'value')} FROM (SELECT %s::text AS value) AS t", [key]
        )
        (sql_token,) = cursor.fetchone()
    assert url_token(key) == sql_token


def test_a_url_key_names_the_account_of_its_network():
    assert url_token("github.com/samroe/tool") == "github:samroe"
    assert url_token("de.linkedin.com/in/ada-quill") == "linkedin:ada-quill"
    assert url_token("stackoverflow.com/users/4412345/noor") == "so:4412345"
    assert url_token("site.example/people/ada") == "url:site.example/people/ada"
