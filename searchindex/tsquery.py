"""Reading a tsquery: the tree of the text PostgreSQL writes for ``websearch_to_tsquery`` and ``plainto_tsquery``
(PostgreSQL parses the user's words; this reads its operators), for the text index (``searchindex.text``) to evaluate.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass


class Unsupported(ValueError):
    """A tsquery the index does not evaluate (a weight or prefix modifier, an operator inside a phrase)."""


_TOKEN_RE = re.compile(r"\s*(?:'((?:[^'\\]|\\.|'')*)'(:[*A-Da-d]+)?|(<->|<\d+>|[!&|()]))")
_UNESCAPE_RE = re.compile(r"\\(.)|''")


def unescape(quoted: str) -> str:
    """A lexeme as a tsquery's or a tsvector's text quotes it (``it''s``, ``a\\\\b``), unquoted."""
    return _UNESCAPE_RE.sub(lambda m: m.group(1) or "'", quoted)


@dataclass(frozen=True, slots=True)
class Node:
    """A tsquery's node: ``term`` (``lexeme``), ``phrase`` (``words``: (offset, lexeme)), ``not``, ``and``, ``or``
    (``children``)."""

    kind: str
    lexeme: str = ""
    words: tuple[tuple[int, str], ...] = ()
    children: tuple[Node, ...] = ()


def _tokens(text: str) -> list[tuple[str, str]]:
    tokens, position = [], 0
    while position < len(text.rstrip()):
        found = _TOKEN_RE.match(text, position)
        if not found:
            raise Unsupported(f"unexpected text at {position} of {text!r}")
        lexeme, modifier, operator = found.groups()
        if modifier:
            raise Unsupported(f"a modifier ({modifier}) in {text!r}")
        if operator:
            tokens.append(("op", operator))
        else:
            tokens.append(("lexeme", unescape(lexeme)))
        position = found.end()
    return tokens


def _phrase(left: Node, distance: int, right: Node) -> Node:
    """``left <distance> right``: the right operand's first word ``distance`` after the left's last."""
    words = []
    for node in (left, right):
        if node.kind == "term":
            part = ((0, node.lexeme),)
        elif node.kind == "phrase":
            part = node.words
        else:
            raise Unsupported(f"a phrase of a {node.kind!r} expression")
        shift = 0 if not words else max(offset for offset, _ in words) + distance
        words += [(shift + offset, lexeme) for offset, lexeme in part]
    return Node("phrase", words=tuple(words))


def parse_tsquery(text: str) -> Node | None:
    """The tree of a tsquery's text (``websearch_to_tsquery(...)::text``); None for an empty one (stop words only),
    which matches nobody. Precedence as PostgreSQL's: ``!``, then ``<->``, then ``&``, then ``|``."""
    tokens = _tokens(text)
    if not tokens:
        return None
    position = 0

    def peek() -> str | None:
        return tokens[position][1] if position < len(tokens) and tokens[position][0] == "op" else None

    def take() -> tuple[str, str]:
        nonlocal position
        if position >= len(tokens):
            raise Unsupported(f"{text!r} ends early")
        position += 1
        return tokens[position - 1]

    def unary() -> Node:
        kind, value = take()
        if kind == "lexeme":
            return Node("term", lexeme=value)
        if value == "!":
            return Node("not", children=(unary(),))
        if value == "(":
            node = either()
            if take() != ("op", ")"):
                raise Unsupported(f"an unclosed parenthesis in {text!r}")
            return node
        raise Unsupported(f"unexpected {value!r} in {text!r}")

    def phrase() -> Node:
        node = unary()
        while (operator := peek()) is not None and operator.startswith("<"):
            take()
            node = _phrase(node, 1 if operator == "<->" else int(operator[1:-1]), unary())
        return node

    def chained(operand: Callable[[], Node], operator: str, kind: str) -> Node:
        """``operand`` joined by ``operator`` as one ``kind`` node (the operand alone when it stands alone)."""
        nodes = [operand()]
        while peek() == operator:
            take()
            nodes.append(operand())
        return nodes[0] if len(nodes) == 1 else Node(kind, children=tuple(nodes))

    def both() -> Node:
        return chained(phrase, "&", "and")

    def either() -> Node:
        return chained(both, "|", "or")

    node = either()
    if position != len(tokens):
        raise Unsupported(f"unexpected {tokens[position][1]!r} in {text!r}")
    return node


def positive_words(node: Node) -> list[str]:
    """The lexemes a query asks for (none under a ``not``), in the query's order, once each."""
    if node.kind == "term":
        found = [node.lexeme]
    elif node.kind == "phrase":
        found = [lexeme for _, lexeme in sorted(node.words)]
    elif node.kind == "not":
        found = []
    else:
        found = [word for child in node.children for word in positive_words(child)]
    return list(dict.fromkeys(found))
