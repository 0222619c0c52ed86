"""The import structure of ``src/``: no import cycle, no private name used across modules (issue 13).

Read with the standard library's :mod:`ast`, never by importing: an import inside a function counts (a
cycle broken only by a late import is still a cycle), and so does a package's ``__init__`` (a module that
imports from its own package's ``__init__``, which imports it back, runs half-initialised).

A private name is one with a leading underscore (not a dunder). ``from m import _name`` and ``m._name``
(``m`` bound to a module of ``src/`` by an import) both use one across modules. Private *modules* such as
``pkg._impl`` are private to their package and may be imported inside it.

The whole of ``src/`` is checked: :data:`KNOWN` lists no offender, and none may join it.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"

#: Offenders that other branches of issue 13 remove; take each off once it is gone (its xfail then passes).
KNOWN: frozenset[str] = frozenset()  # every offender of issue 13 is gone; keep it that way

#: The modules of ``darkempire.cli`` that each run one subcommand.
SUBCOMMANDS = (
    "darkempire.cli.demo", "darkempire.cli.play", "darkempire.cli.replay", "darkempire.cli.simulate", "darkempire.cli.tourney"
)


def modules(src: Path) -> dict[str, Path]:
    """Every module under ``src`` by dotted name (a package by its own name, for its ``__init__.py``)."""
    found = {}
    for path in sorted(src.rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _base(name: str, path: Path, node: ast.ImportFrom) -> str:
    """The absolute module name a ``from ... import`` in module ``name`` (file ``path``) reads from."""
    if node.level == 0:
        return node.module or ""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    package = package[: len(package) - (node.level - 1)]
    return ".".join(package + ([node.module] if node.module else []))


def _imports(name: str, path: Path, tree: ast.Module, known: dict[str, Path]) -> Iterator[tuple[str, str | None, str]]:
    """``(module, attribute, bound name)`` for each import in module ``name`` (``tree``): ``attribute`` is
    ``None`` when a whole module of ``known`` is imported, else the name read from ``module``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in known:
                    yield alias.name, None, alias.asname or alias.name
        elif isinstance(node, ast.ImportFrom):
            base = _base(name, path, node)
            for alias in node.names:
                if f"{base}.{alias.name}" in known:
                    yield f"{base}.{alias.name}", None, alias.asname or alias.name
                elif base in known:
                    yield base, alias.name, alias.asname or alias.name


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _module_attributes(tree: ast.Module, bound: dict[str, str]) -> Iterator[tuple[str, str]]:
    """``(module, attribute)`` for each ``alias.attribute`` where ``alias`` is bound to a module (``bound``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in bound:
            yield bound[node.value.id], node.attr


@functools.cache  # each test reads the same tree
def import_graph(src: Path) -> tuple[dict[str, frozenset[str]], tuple[str, ...]]:
    """The modules each module of ``src`` imports, and each private name used across modules."""
    known = modules(src)
    edges: dict[str, set[str]] = {name: set() for name in known}
    private = []
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        bound = {}
        for module, attribute, alias in _imports(name, path, tree, known):
            edges[name].add(module)
            if attribute is None:
                bound[alias] = module
            elif _private(attribute) and module != name:
                private.append(f"private: {name} uses {module}.{attribute}")
        for module, attribute in _module_attributes(tree, bound):
            if _private(attribute) and module != name:
                private.append(f"private: {name} uses {module}.{attribute}")
    return {name: frozenset(targets - {name}) for name, targets in edges.items()}, tuple(sorted(set(private)))


def cycles(edges: dict[str, frozenset[str]]) -> list[list[str]]:
    """The import cycles: each set of two or more modules that all reach each other, sorted (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(edges[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return sorted(found)


def problems(src: Path) -> set[str]:
    """Every import cycle and every private name used across modules in ``src``, one line each."""
    edges, private = import_graph(src)
    return {"cycle: " + " <-> ".join(c) for c in cycles(edges)} | set(private)


def test_src_has_no_import_problem_beyond_the_known_ones() -> None:
    """No module of ``src`` is in an import cycle or uses a private name of another module (issue 13)."""
    assert sorted(problems(SRC) - KNOWN) == []


def test_subcommands_never_import_each_other() -> None:
    """Each subcommand of ``darkempire`` is one module that needs no other: what they share lives below them
    (``darkempire.text``, ``darkempire.cli.record_files``), and the shell (``darkempire.cli.app``) runs them."""
    edges, _ = import_graph(SRC)
    assert all(name in edges for name in SUBCOMMANDS)
    between = sorted(f"{a} imports {b}" for a in SUBCOMMANDS for b in edges[a] if b in SUBCOMMANDS)
    assert between == []
    assert "darkempire.cli" not in {target for a in SUBCOMMANDS for target in edges[a]}


def test_the_checker_finds_cycles_and_private_names(tmp_path: Path) -> None:
    """Not vacuous: a cycle closed by an import inside a function, a relative import, a package ``__init__``
    that a module of the package imports back, and private names read both ways are all found."""
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    files = {
        "__init__.py": "",
        "a.py": "from pkg.b import _hidden\n",
        "b.py": "def f():\n    from . import a\n_hidden = 1\n",
        "c.py": "import pkg.b as bee\nbee._hidden\nfrom pkg import _values\n_values.public\n",
        "_values.py": "public = 1\n",
        "sub/__init__.py": "from pkg.sub.leaf import thing\n",
        "sub/leaf.py": "from .. import c\nfrom pkg.sub import thing as _again\nthing = 1\n",
    }
    for name, text in files.items():
        (package / name).write_text(text, encoding="utf-8")
    assert problems(tmp_path) == {
        "cycle: pkg.a <-> pkg.b",
        "cycle: pkg.sub <-> pkg.sub.leaf",
        "private: pkg.a uses pkg.b._hidden",
        "private: pkg.c uses pkg.b._hidden",
    }
