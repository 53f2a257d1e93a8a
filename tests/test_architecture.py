"""Where code lives (docs/architecture.md): no product module grows past the size one reader holds in their head, and
no module reaches into another's private names. The import direction between layers is import-linter's
(pyproject.toml), run by ``make lint``."""

import ast
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parent.parent
PRODUCT = ["api", "core", "db", "exports", "ingestion", "jobs", "privacy", "profiles", "searchindex", "talentdb"]
MAX_LINES = 500
# Generated or historical: migrations replay history as it was written; the synthetic-profile generator is a
# development tool outside the product.
NOT_MEASURED = {"migrations"}


def product_modules() -> list[Path]:
    return sorted(
        path
        for package in PRODUCT
        if (BASE_DIR / package).is_dir()
        for path in (BASE_DIR / package).rglob("*.py")
        if not NOT_MEASURED & set(path.relative_to(BASE_DIR).parts)
    )


def private_names_used(path: Path) -> list[str]:
    """``from a.b import _name``, and ``module._name`` where ``module`` was imported from the project."""
    tree = ast.parse(path.read_text(), filename=str(path))
    imported_modules = set()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in PRODUCT:
            for alias in node.names:
                if _private(alias.name):
                    found.append(f"from {node.module} import {alias.name}")
                elif _is_module(f"{node.module}.{alias.name}"):
                    imported_modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            imported_modules.update(a.asname or a.name for a in node.names if a.name.split(".")[0] in PRODUCT)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and _private(node.attr)
            and isinstance(node.value, ast.Name)
            and node.value.id in imported_modules
        ):
            found.append(f"{node.value.id}.{node.attr}")
    return found


def _is_module(dotted: str) -> bool:
    path = BASE_DIR.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or path.is_dir()


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_the_product_modules_are_found():
    modules = product_modules()
    assert len(modules) > 100
    assert BASE_DIR / "profiles" / "skill_resolver.py" in modules


def test_no_product_module_is_over_500_lines():
    long = {
        str(path.relative_to(BASE_DIR)): lines
        for path in product_modules()
        if (lines := len(path.read_text().splitlines())) > MAX_LINES
    }
    assert not long, f"split these along their sections into a package (docs/architecture.md): {long}"


@pytest.mark.parametrize("path", product_modules(), ids=lambda p: str(p.relative_to(BASE_DIR)))
def test_no_module_uses_another_modules_private_names(path):
    assert private_names_used(path) == [], "make the name public where it is shared, or keep its use in its module"


def test_the_private_name_check_finds_both_forms(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("from profiles.services import _merge\nfrom profiles import selectors\nselectors._count()\n")
    assert private_names_used(module) == ["from profiles.services import _merge", "selectors._count"]
