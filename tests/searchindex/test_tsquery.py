"""searchindex.tsquery: the text of a tsquery read as PostgreSQL reads it, or refused."""

import pytest

from searchindex.tsquery import Node, Unsupported, parse_tsquery, positive_words, unescape


def test_a_tsquery_is_read_with_its_phrases_negations_and_alternatives():
    node = parse_tsquery("'head' <2> 'engin' & !'php' | 'it''s' <-> 'go'")

    assert node == Node(
        "or",
        children=(
            Node(
                "and",
                children=(
                    Node("phrase", words=((0, "head"), (2, "engin"))),
                    Node("not", children=(Node("term", lexeme="php"),)),
                ),
            ),
            Node("phrase", words=((0, "it's"), (1, "go"))),
        ),
    )
    assert positive_words(node) == ["head", "engin", "it's", "go"]
    assert parse_tsquery("") is None  # stop words only: PostgreSQL's empty query, which matches nobody


def test_a_tsquery_the_index_does_not_evaluate_is_refused_not_guessed():
    with pytest.raises(Unsupported):
        parse_tsquery("'python':*")
    with pytest.raises(Unsupported):
        parse_tsquery("( 'go' | 'rust' ) <-> 'developer'")


def test_a_quoted_lexeme_is_unquoted():
    assert unescape("it''s") == "it's"
    assert unescape("a\\\\b") == "a\\b"
