"""The documentation: every public name has a docstring, every module has an API page, the docs build clean.

The build test runs ``sphinx-build -W -n`` (warnings and broken references are errors) for the doctest and
dummy builders, so it also runs every example in the pages and in the public docstrings. It is skipped
when Sphinx is not installed, except on CI (``CI`` set), where a missing Sphinx is a failure.
"""

from __future__ import annotations

import ast
import enum
import importlib
import inspect
import os
import pkgutil
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import attrs
import pytest

import darkempire
import revolution

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


#: Libraries that only the optional extras install, the adapters' and the server's (as in docs/_ext/optionaldeps.py).
OPTIONAL_LIBRARIES = ("pyspiel", "open_spiel", "pettingzoo", "gymnasium", "numpy", "starlette", "uvicorn", "psycopg")


#: The documented packages: Dark Empire, and the second game on the kit, Revolution! (issue 18).
DOCUMENTED = (darkempire, revolution)


def public_module_names() -> list[str]:
    """Each documented package and every module in it whose name has no part starting with an underscore."""
    names = []
    for package in DOCUMENTED:
        prefix = f"{package.__name__}."
        names += [package.__name__] + [
            info.name
            for info in pkgutil.walk_packages(package.__path__, prefix, onerror=lambda _name: None)
            if not any(part.startswith("_") for part in info.name.split("."))
        ]
    return sorted(names)


def page_stem(name: str) -> str:
    """The API page of module ``name``: Dark Empire's by the module's last name (``darkempire.rules.state`` is
    ``state``), Revolution!'s by its whole dotted name (``revolution.rules.state`` is ``revolution_rules_state``),
    as the two games share module names."""
    return name.rpartition(".")[2] if name.partition(".")[0] == "darkempire" else name.replace(".", "_")


def public_modules() -> list[ModuleType]:
    """The public modules that import here: those needing an optional library that is missing are left out.

    Any other import error fails the test that asked.
    """
    modules = []
    for name in public_module_names():
        try:
            modules.append(importlib.import_module(name))
        except ModuleNotFoundError as error:
            if (error.name or "").partition(".")[0] not in OPTIONAL_LIBRARIES:
                raise
    return modules


def doc_comments(module: ModuleType) -> dict[tuple[str, str], list[str]]:
    """``#:`` comments and attribute docstrings of ``module``, keyed by (class name or "", attribute name).

    Sphinx's own source analyser finds them, so this is what autodoc will show.
    """
    from sphinx.pycode import ModuleAnalyzer

    return dict(ModuleAnalyzer.for_module(module.__name__).find_attr_docs())


def _imported_names(module: ModuleType) -> set[str]:
    """Names that ``module`` binds by importing them (its re-exports)."""
    tree = ast.parse(inspect.getsource(module))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).partition(".")[0] for alias in node.names)
    return names


def _documented_fields(docstring: str) -> set[str]:
    """Names given an ``:ivar name:`` (or ``:cvar:``/``:var:``) entry in a class docstring."""
    return set(re.findall(r":[ci]?var\s+(?:[\w\[\], .|]+\s+)?(\w+):", docstring))


def _own_members(cls: type) -> dict[str, object]:
    return {name: value for name, value in vars(cls).items() if not name.startswith("_")}


def undocumented(module: ModuleType) -> list[str]:
    """Public names of ``module`` without documentation, as ``module.name`` strings.

    A name in ``__all__`` (other than a dunder such as ``__version__``) needs a docstring if it is a
    function or class, else a ``#:`` doc comment. A public class needs, for each public method or
    property it defines, a docstring; for each attrs field or annotated attribute, an ``:ivar:`` entry
    in its docstring or a ``#:`` comment; for each enum member, a ``#:`` comment or a mention of the
    member's name in the class docstring.
    """
    missing: list[str] = []
    comments = doc_comments(module)
    imported = _imported_names(module)
    for name in getattr(module, "__all__", []):
        if name.startswith("__") or name in imported:
            continue  # a dunder such as __version__, or a re-export checked where it is defined
        obj = getattr(module, name)
        where = f"{module.__name__}.{name}"
        if inspect.isclass(obj) or inspect.isfunction(obj):
            if not inspect.getdoc(obj):
                missing.append(where)
            if inspect.isclass(obj):
                missing += _undocumented_members(obj, where, comments)
        elif ("", name) not in comments:
            missing.append(where)
    return missing


def _undocumented_members(cls: type, where: str, comments: dict[tuple[str, str], list[str]]) -> list[str]:
    missing: list[str] = []
    docstring = cls.__doc__ or ""
    fields = _documented_fields(docstring)
    commented = {attr for (owner, attr) in comments if owner == cls.__qualname__}
    if issubclass(cls, enum.Enum):
        for member in cls.__members__:
            if member not in commented and member not in docstring:
                missing.append(f"{where}.{member}")
    attributes: list[str] = []
    if attrs.has(cls):
        attributes += [field.name for field in attrs.fields(cls) if not field.name.startswith("_")]
    attributes += [name for name in vars(cls).get("__annotations__", {}) if not name.startswith("_")]
    for name in dict.fromkeys(attributes):
        if name not in fields and name not in commented:
            missing.append(f"{where}.{name}")
    for name, value in _own_members(cls).items():
        if isinstance(value, (staticmethod, classmethod)):
            value = value.__func__
        if inspect.isfunction(value) or isinstance(value, property):
            if not (value.__doc__ or "").strip():
                missing.append(f"{where}.{name}")
    return missing


def test_every_public_name_has_a_docstring() -> None:
    missing = [name for module in public_modules() for name in undocumented(module)]
    assert missing == [], f"public names without documentation: {missing}"


def test_every_module_has_a_docstring_and_an_api_page() -> None:
    pages = {page.stem: page.read_text(encoding="utf-8") for page in (DOCS / "api").glob("*.md")}
    index = pages["index"]
    for module in public_modules():
        assert inspect.getdoc(module), f"{module.__name__} has no module docstring"
    for name in public_module_names():
        stem = page_stem(name)
        assert stem in pages, f"docs/api/{stem}.md is missing for {name}"
        assert f"automodule:: {name}\n" in pages[stem], f"docs/api/{stem}.md does not autodoc it"
        assert re.search(rf"^{stem}$", index, re.M), f"docs/api/index.md does not list {stem}"


def test_the_checker_finds_what_is_missing() -> None:
    """The docstring checker is not vacuous: it reports a bare function, field, method and constant."""
    source = '''
import attrs
import enum
__all__ = ["bare", "Shape", "Colour", "CONSTANT", "DOCUMENTED"]
def bare(): pass
@attrs.frozen
class Shape:
    """A shape.

    :ivar sides: number of sides.
    """
    sides: int
    colour: str
    def area(self) -> float:
        return 0.0
    @property
    def name(self) -> str:
        """Its name."""
        return ""
class Colour(enum.Enum):
    """A colour: RED."""
    RED = 1
    GREEN = 2
CONSTANT = 1
#: Documented.
DOCUMENTED = 2
'''
    path = Path(__file__).resolve().parent / "_docs_checker_probe.py"
    path.write_text(source, encoding="utf-8")
    sys.path.insert(0, str(path.parent))
    try:
        module = importlib.import_module("_docs_checker_probe")
        found = undocumented(module)
    finally:
        sys.path.remove(str(path.parent))
        sys.modules.pop("_docs_checker_probe", None)
        path.unlink()
    assert sorted(found) == sorted(
        [
            "_docs_checker_probe.bare",
            "_docs_checker_probe.Shape.colour",
            "_docs_checker_probe.Shape.area",
            "_docs_checker_probe.Colour.GREEN",
            "_docs_checker_probe.CONSTANT",
        ]
    )


def _sphinx_available() -> bool:
    try:
        importlib.import_module("sphinx")
        importlib.import_module("myst_parser")
        importlib.import_module("sphinx_copybutton")
    except ImportError:
        return False
    return True


def _require_sphinx() -> None:
    if not _sphinx_available():
        if os.environ.get("CI"):
            pytest.fail("Sphinx and the doc extensions are missing on CI: install the dev extras")
        pytest.skip("Sphinx is not installed (pip install -e '.[dev]')")


def test_docs_build_with_warnings_as_errors(tmp_path: Path) -> None:
    """``sphinx-build -W -n`` from scratch: no warning, no broken reference, no failing example.

    The doctest builder reads every page (reading warnings fail it) and runs every example; the ``dummy``
    builder then reuses what was read and resolves every reference as the ``html`` builder does, without
    writing pages. ``nox -s docs`` builds the HTML itself.
    """
    _require_sphinx()
    doctrees = tmp_path / "doctrees"
    for builder, fresh in (("doctest", ["-E"]), ("dummy", [])):
        command = [sys.executable, "-m", "sphinx", "-W", "-n", "--keep-going", "-q", *fresh, "-b", builder]
        command += ["-d", str(doctrees), str(DOCS), str(tmp_path / builder)]
        run = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=300)
        assert run.returncode == 0, f"sphinx-build -b {builder} failed:\n{run.stdout}\n{run.stderr}"
    summary = (tmp_path / "doctest" / "output.txt").read_text(encoding="utf-8")
    tests = int(re.findall(r"^\s+(\d+) tests?$", summary, re.M)[-1])
    assert tests >= 100, f"only {tests} doctests ran; examples went missing"
    assert re.search(r"^\s+0 failures in tests$", summary, re.M), summary


def test_figure_is_the_rulebook_example() -> None:
    """The weekly-scoring figure shows the rulebook's numbers: emperor 21, Calendrical Order 25, Students 15."""
    _require_sphinx()
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        weekfigure = importlib.import_module("weekfigure")
    finally:
        sys.path.remove(str(DOCS / "_ext"))
    from darkempire.rules.cards import Faction
    from darkempire.rules.scoring import score_table

    score = score_table(weekfigure.sample_week_table())
    svg = weekfigure.render_svg(weekfigure.sample_week_table(), score)
    assert (score.emperor_strength, score.strength(Faction.CALENDRICAL_ORDER), score.strength(Faction.STUDENTS)) == (
        21,
        25,
        15,
    )
    assert ">emperor strength: 21<" in svg and ">25  strongest<" in svg and ">15<" in svg


def test_extension_examples() -> None:
    """The examples in the docs' own Sphinx extensions run too."""
    import doctest

    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        for name in ("importrefs", "weekfigure"):
            result = doctest.testmod(importlib.import_module(name))
            assert result.failed == 0, f"{name}: {result}"
    finally:
        sys.path.remove(str(DOCS / "_ext"))


def test_spec_ids_in_text_become_links_and_nothing_else_does() -> None:
    """The rules pages link "4.1" and "R-A" to their headings, but not "2.5%", "1.2.3", "9.9" (no such id) or code."""
    _require_sphinx()
    from docutils import nodes  # type: ignore[import-untyped]

    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        spectrace = importlib.import_module("spectrace")
    finally:
        sys.path.remove(str(DOCS / "_ext"))
    paragraph = nodes.paragraph()
    paragraph += nodes.Text("see 4.1, R-A and 2.5% of 1.2.3 or 9.9; ")
    paragraph += nodes.literal(text="4.1")
    made = spectrace.link_ids(paragraph, {"4.1", "R-A", "2.5", "1.2", "9.4"})
    targets = [node["reftarget"] for node in paragraph.findall(lambda n: n.tagname == "pending_xref")]
    assert (made, targets) == (2, ["rule-4.1", "ruling-r-a"])
    assert paragraph.astext() == "see 4.1, R-A and 2.5% of 1.2.3 or 9.9; 4.1"
