"""The parsers' modules stay small and keep to their own names: none over 500 lines, and none imports a private name
(``_name``) of another module, so that what a module shares is the public surface it says it has."""

import ast
from pathlib import Path

import ingestion.parsers

PARSERS = Path(ingestion.parsers.__file__).parent
MAX_LINES = 500


def _modules() -> list[Path]:
    return sorted(PARSERS.rglob("*.py"))


def test_no_parser_module_is_over_500_lines():
    sizes = {str(path.relative_to(PARSERS)): len(path.read_text().splitlines()) for path in _modules()}
    assert {name: lines for name, lines in sizes.items() if lines > MAX_LINES} == {}


def test_no_parser_module_imports_a_private_name_of_another():
    private = []
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                private += [
                    f"{path.relative_to(PARSERS)}: {node.module}.{alias.name}"
                    for alias in node.names
                    if alias.name.startswith("_")
                ]
    assert private == []
