"""Where code lives (docs/architecture.md): no product module grows past the size one reader holds in their head, no
module reaches into another's private names, and no import inside a function hides a cycle. The import direction
between layers is import-linter's (pyproject.toml), run by ``make lint``."""

import ast
import sys
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


# --- Imports inside functions

# Each import of a project module inside a function, by (module, function): why it cannot be at the top. Anything else
# moves to the top; an import that closes a cycle is never allowed (``test_no_import_inside_a_function_hides_a_cycle``):
# move the shared piece down a layer, or let the upper module pass it in.
FUNCTION_IMPORTS_ALLOWED = {
    # Django's way for an app to wire itself to another once every app is loaded (AppConfig.ready): here the erasure
    # steps a lower app calls without importing this one.
    ("exports/apps.py", "ready"): "AppConfig.ready",
    ("ingestion/apps.py", "ready"): "AppConfig.ready",
    # ``make run`` sets DJANGO_SETTINGS_MODULE and DEBUG before anything reads the settings.
    ("talentdb/run.py", "main"): "the launcher sets the environment first",
    ("talentdb/run.py", "_wait_for_banners"): "the launcher sets the environment first",
    # A migration imports the module, and runs on historical models: the current ones are read only by the command.
    ("profiles/skills_reresolve.py", "current"): "a migration imports the module",
    # The shipped table is large: it is read for a run only, not by every process that imports the module.
    ("profiles/skills_reresolve.py", "_seeded"): "a large table read for a run only",
}


def _module_path(dotted: str) -> Path | None:
    path = BASE_DIR.joinpath(*dotted.split("."))
    if path.with_suffix(".py").is_file():
        return path.with_suffix(".py")
    if (path / "__init__.py").is_file():
        return path / "__init__.py"
    return None


def _module_name(path: Path) -> str:
    parts = path.relative_to(BASE_DIR).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _executed(node: ast.Import | ast.ImportFrom, importer: str) -> list[str]:
    """The project's modules an import statement runs: each package on the way, the module, and the submodules a
    ``from`` names."""
    if isinstance(node, ast.Import):
        targets = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = importer.split(".")[: -node.level] if importer else []
            base = ".".join([*package, *([base] if base else [])])
        targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
    executed = []
    for target in targets:
        parts = target.split(".")
        if parts[0] not in PRODUCT:
            continue
        for end in range(1, len(parts) + 1):
            name = ".".join(parts[:end])
            if _module_path(name) is not None and name not in executed:
                executed.append(name)
    return executed


def _top_level_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """The imports a module runs when it is imported: outside functions and ``if TYPE_CHECKING:`` blocks."""
    found = []
    pending: list[ast.AST] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            pending.extend(node.orelse)
        elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            pending.extend(ast.iter_child_nodes(node))
    return found


def _function_imports(tree: ast.Module) -> list[tuple[str, ast.Import | ast.ImportFrom]]:
    """(the outermost function, the import) of every import inside a function."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(node):
                if isinstance(inner, (ast.Import, ast.ImportFrom)) and inner is not node:
                    found.append((node.name, inner))
    # An import in a nested function is found under each enclosing one: the outermost is named.
    seen: dict[int, tuple[str, ast.Import | ast.ImportFrom]] = {}
    for name, node in found:
        seen.setdefault(id(node), (name, node))
    return list(seen.values())


def import_graph(modules: list[Path]) -> dict[str, set[str]]:
    """Module → the project's modules its top-level imports run."""
    graph = {}
    for path in modules:
        name = _module_name(path)
        tree = ast.parse(path.read_text(), filename=str(path))
        graph[name] = {m for node in _top_level_imports(tree) for m in _executed(node, name) if m != name}
    return graph


def _reaches(graph: dict[str, set[str]], start: str, goal: str) -> bool:
    seen, pending = set(), [start]
    while pending:
        module = pending.pop()
        if module == goal:
            return True
        if module not in seen:
            seen.add(module)
            pending.extend(graph.get(module, ()))
    return False


def function_imports(paths: list[Path]) -> list[tuple[str, str, list[str]]]:
    """(module's path, function, the project's modules its import runs) of every import of the project inside a
    function."""
    found = []
    for path in paths:
        tree = ast.parse(path.read_text(), filename=str(path))
        for function, node in _function_imports(tree):
            if executed := _executed(node, _module_name(path)):
                found.append((str(path.relative_to(BASE_DIR)), function, executed))
    return found


def hidden_cycles(paths: list[Path], graph: dict[str, set[str]]) -> list[str]:
    """The imports inside functions that would close a cycle at the top: what they import runs this module."""
    return [
        f"{path}: {function} imports {', '.join(executed)}"
        for path, function, executed in function_imports(paths)
        if any(_reaches(graph, module, _module_name(BASE_DIR / path)) for module in executed)
    ]


def test_no_import_inside_a_function_hides_a_cycle():
    modules = product_modules()
    assert hidden_cycles(modules, import_graph(modules)) == [], (
        "move what both modules need down a layer, or let the upper one pass it in (docs/architecture.md)"
    )


def test_every_import_inside_a_function_says_why():
    found = {(path, function) for path, function, _ in function_imports(product_modules())}
    assert found - FUNCTION_IMPORTS_ALLOWED.keys() == set(), "import at the top, or add the reason to the allow-list"
    assert FUNCTION_IMPORTS_ALLOWED.keys() - found == set(), "the allow-list names an import that is gone"


def test_the_cycle_check_finds_a_package_that_imports_the_module_back(tmp_path, monkeypatch):
    """The case it was written for: ``a.low`` imports ``a.high`` in a function, and the package ``a.high`` runs
    ``a.high.work``, which imports ``a.low``."""
    this = sys.modules[__name__]
    monkeypatch.setattr(this, "BASE_DIR", tmp_path)
    monkeypatch.setattr(this, "PRODUCT", ["a"])
    (tmp_path / "a" / "high").mkdir(parents=True)
    (tmp_path / "a" / "__init__.py").write_text("")
    (tmp_path / "a" / "low.py").write_text("def later():\n    from a.high import run\n")
    (tmp_path / "a" / "high" / "__init__.py").write_text("from a.high.work import run\n")
    (tmp_path / "a" / "high" / "work.py").write_text("from a.low import later\nrun = later\n")
    (tmp_path / "a" / "other.py").write_text("def cheap():\n    from a.high import run\n")
    modules = sorted(tmp_path.rglob("*.py"))
    assert hidden_cycles(modules, import_graph(modules)) == ["a/low.py: later imports a, a.high"]


# --- One home for each name


def names_lent(path: Path) -> list[str]:
    """The names a module's ``__all__`` lists that it imports from outside its own package: a second home for them.
    A package's ``__init__`` gathering its own modules' names is its face, not a second home."""
    tree = ast.parse(path.read_text(), filename=str(path))
    listed: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            listed = {element.value for element in node.value.elts if isinstance(element, ast.Constant)}
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    lent = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in PRODUCT:
            if node.module == package or node.module.startswith(f"{package}."):
                continue
            lent += [
                f"{alias.asname or alias.name} of {node.module}"
                for alias in node.names
                if (alias.asname or alias.name) in listed
            ]
    return lent


@pytest.mark.parametrize("path", product_modules(), ids=lambda p: str(p.relative_to(BASE_DIR)))
def test_no_module_lends_another_packages_names(path):
    assert names_lent(path) == [], "import the name from its home module; list in __all__ only what this package holds"


def test_the_second_home_check_finds_a_name_of_another_package(tmp_path, monkeypatch):
    this = sys.modules[__name__]
    monkeypatch.setattr(this, "BASE_DIR", tmp_path)
    monkeypatch.setattr(this, "PRODUCT", ["a", "c"])
    (tmp_path / "a").mkdir()
    module = tmp_path / "a" / "b.py"
    module.write_text('from a.e import OWN\nfrom c.d import LENT, USED\n__all__ = ["LENT", "OWN", "here"]\n')
    assert names_lent(module) == ["LENT of c.d"]
