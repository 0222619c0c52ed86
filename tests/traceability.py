"""Which tests cite which spec ids: read from spec/ and from the test files' syntax trees (issue 3, item 4).

``spec/`` holds one folder per game (``spec/README.md``); a folder holding a ``rules.md`` is a game, named
after the folder. A game's rule ids are the headings ``### <section>.<number> <title>`` of its ``rules.md`` and
``interface.md``, its ruling ids the headings ``### R-<letter> <title>`` of its ``rulings.md``. Outside its
files an id is written ``<game>:<id>`` (``revolution:3.2``), except that the default game's ids are written
bare (``5.4`` is Dark Empire's, and so is ``darkempire:5.4``); :func:`canonical` turns either spelling into
the one the tools report.

A test cites ids with ``@pytest.mark.spec("5.4", "R-D")``; the scan finds the marker wherever pytest applies
it:

* as a decorator of a test function or method, also inside ``@pytest.mark.parametrize`` as
  ``pytest.param(..., marks=pytest.mark.spec(...))``;
* as a decorator of a ``Test*`` class, or in a class's or module's ``pytestmark = ...``, for all their tests;
* through a module-level name bound to such a marker or to a list of ``pytest.param`` values, used in one
  of the places above.

Nothing is imported or run, so the scan also sees tests that fail to import. ``tests/conftest.py`` checks the
markers pytest actually collects; :func:`problems` is what ``tests/test_traceability.py`` asserts is empty.
``docs/_ext/spectrace.py`` renders the same scan in the documentation.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

import pytest

#: The game whose ids are written bare: ``5.4`` means ``darkempire:5.4``.
DEFAULT_GAME = "darkempire"
#: Between a game's name and an id of that game, in a qualified id.
SEPARATOR = ":"
#: A game's name: the name of its folder in spec/.
GAME_NAME = re.compile(r"[a-z][a-z0-9-]*")
#: A rule heading of a game's rules.md or interface.md; group 1 is the id, group 2 the title.
RULE_ID = re.compile(r"^### (\d+\.\d+) (.*)$", re.M)
#: A ruling heading of a game's rulings.md; group 1 is the id, group 2 the title.
RULING_ID = re.compile(r"^### (R-[A-Z]) (.*)$", re.M)
#: The files of a game's folder that hold ids, in the order the tools list them, with the heading of an id.
ID_FILES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("rules.md", RULE_ID),
    ("interface.md", RULE_ID),
    ("rulings.md", RULING_ID),
)

TESTS = Path(__file__).resolve().parent
# The nearest folder above tests/ that holds spec/: the project root, also when a tool runs a copy of tests/
# inside the project (mutmut runs the suite in mutants/tests/, without copying spec/).
ROOT = next((p for p in TESTS.parents if (p / "spec" / DEFAULT_GAME / "rules.md").is_file()), TESTS.parent)
SPEC = ROOT / "spec"


def games(spec: Path = SPEC, default: str = DEFAULT_GAME) -> list[str]:
    """The games of ``spec``: its folders named like a game and holding a ``rules.md``; the default first."""
    found = sorted(
        path.name for path in spec.iterdir() if GAME_NAME.fullmatch(path.name) and (path / "rules.md").is_file()
    )
    return sorted(found, key=lambda game: game != default)


def headings(spec: Path = SPEC, game: str = DEFAULT_GAME) -> list[tuple[str, str, str]]:
    """``(id, title, file name)`` of every id heading of ``game``, in the order of :data:`ID_FILES`.

    The ids are the game's own, bare (``3.2``); :func:`qualify` gives the form used outside the game's files.
    """
    found: list[tuple[str, str, str]] = []
    for name, heading in ID_FILES:
        path = spec / game / name
        if path.is_file():
            found += [(spec_id, title.strip(), name) for spec_id, title in heading.findall(path.read_text("utf-8"))]
    return found


def rule_ids(spec: Path = SPEC, game: str = DEFAULT_GAME) -> list[str]:
    """The rule ids of ``game`` (bare), in the order the spec states them: ``rules.md``, then ``interface.md``."""
    return [spec_id for spec_id, _, name in headings(spec, game) if name != "rulings.md"]


def ruling_ids(spec: Path = SPEC, game: str = DEFAULT_GAME) -> list[str]:
    """The ruling ids of ``game`` (bare), in the order ``rulings.md`` states them."""
    return [spec_id for spec_id, _, name in headings(spec, game) if name == "rulings.md"]


def qualify(game: str, spec_id: str, default: str = DEFAULT_GAME) -> str:
    """The id as tests and the tools write it: bare for the default game, ``<game>:<id>`` for any other."""
    return spec_id if game == default else f"{game}{SEPARATOR}{spec_id}"


def split(cited: str, default: str = DEFAULT_GAME) -> tuple[str, str]:
    """``(game, id)`` of a cited id: ``"revolution:3.2"`` -> ``("revolution", "3.2")``; bare: the default game's."""
    game, separator, spec_id = cited.partition(SEPARATOR)
    return (game, spec_id) if separator else (default, cited)


def canonical(cited: str, default: str = DEFAULT_GAME) -> str:
    """One spelling per id: ``"darkempire:5.4"`` -> ``"5.4"``; anything else (``"revolution:3.2"``) unchanged."""
    game, spec_id = split(cited, default)
    return spec_id if game == default and spec_id else cited


def spec_ids(spec: Path = SPEC, default: str = DEFAULT_GAME) -> list[str]:
    """Every id of every game, game by game (the default first), as :func:`qualify` writes it.

    Within a game: every rule id, then every ruling id.
    """
    return [
        qualify(game, spec_id, default)
        for game in games(spec, default)
        for spec_id in rule_ids(spec, game) + ruling_ids(spec, game)
    ]


def _is_spec_mark(node: ast.AST) -> bool:
    """``pytest.mark.spec(...)`` or ``mark.spec(...)`` (after ``from pytest import mark``)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "spec"):
        return False
    owner = node.func.value
    return (isinstance(owner, ast.Attribute) and owner.attr == "mark") or (
        isinstance(owner, ast.Name) and owner.id == "mark"
    )


class _Marks:
    """Finds the spec markers in expressions, following module-level names one binding at a time."""

    def __init__(self, module: ast.Module) -> None:
        self.bindings: dict[str, list[ast.expr]] = defaultdict(list)
        for node in module.body:
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        self.bindings[target.id].append(node.value)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
                self.bindings[node.target.id].append(node.value)

    def ids(self, expressions: Iterable[ast.AST]) -> list[str]:
        """The string arguments of every spec marker in ``expressions`` (non-strings as their source text)."""
        found: list[str] = []
        seen: set[str] = set()
        pending = list(expressions)
        while pending:
            expression = pending.pop()
            for node in ast.walk(expression):
                if _is_spec_mark(node):
                    assert isinstance(node, ast.Call)
                    found += [
                        arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else ast.unparse(arg)
                        for arg in node.args
                    ]
                elif isinstance(node, ast.Name) and node.id in self.bindings and node.id not in seen:
                    seen.add(node.id)
                    pending += self.bindings[node.id]
        return found


def _pytestmark(body: list[ast.stmt]) -> list[ast.expr]:
    values: list[ast.expr] = []
    for node in body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets):
            values.append(node.value)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "pytestmark":
            if node.value is not None:
                values.append(node.value)
    return values


def _tests(
    body: list[ast.stmt], marks: _Marks, prefix: str, inherited: list[str]
) -> Iterator[tuple[str, list[str]]]:
    for node in body:
        if isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            own = marks.ids([*node.decorator_list, *_pytestmark(node.body)])
            yield from _tests(node.body, marks, f"{prefix}{node.name}::", inherited + own)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            yield f"{prefix}{node.name}", inherited + marks.ids(node.decorator_list)


def _names(paths: list[Path]) -> dict[Path, str]:
    """Each path as the scan names it: its path below the folder holding the others (``test_a.py`` at the top,
    ``revolution/test_bids.py`` in a game's subfolder of tests/)."""
    if not paths:
        return {}
    top = min((path.parent for path in paths), key=lambda folder: len(folder.parts))
    return {path: path.relative_to(top).as_posix() if path.is_relative_to(top) else path.name for path in paths}


def citations(paths: Iterable[Path]) -> dict[str, list[str]]:
    """For every test in ``paths``, ``file.py::[Class::]test_name`` -> the ids it cites (possibly none).

    A file in a subfolder (a game's tests, ``tests/revolution/``) is named with its folder:
    ``revolution/test_bids.py::test_name``. Only test modules (``test_*.py``, ``*_test.py``) hold tests, as
    pytest's defaults say.
    """
    result: dict[str, list[str]] = {}
    files = sorted(paths)
    names = _names(files)
    for path in files:
        if not (path.name.startswith("test_") or path.name.endswith("_test.py")):
            continue  # pytest collects no test from helper modules
        module = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        marks = _Marks(module)
        module_ids = marks.ids(_pytestmark(module.body))
        for name, ids in _tests(module.body, marks, "", module_ids):
            result[f"{names[path]}::{name}"] = ids
    return result


def citing_tests(cited: Mapping[str, list[str]], default: str = DEFAULT_GAME) -> dict[str, list[str]]:
    """Invert :func:`citations`: each cited id, as :func:`canonical` spells it -> the tests citing it, sorted."""
    per_id: dict[str, set[str]] = defaultdict(set)
    for test, ids in cited.items():
        for spec_id in ids:
            per_id[canonical(spec_id, default)].add(test)
    return {spec_id: sorted(tests) for spec_id, tests in per_id.items()}


def _not_an_id(spec_id: str, known_games: set[str], default: str) -> str:
    """Why a cited id is unknown, when the reason is its game: the game is not in spec/."""
    game, _ = split(spec_id, default)
    if SEPARATOR in spec_id and game not in known_games:
        return f" (spec/ holds no game {game!r}; its games: {', '.join(sorted(known_games))})"
    return ""


def problems(ids: Iterable[str], cited: Mapping[str, list[str]], default: str = DEFAULT_GAME) -> list[str]:
    """What breaks traceability: ids that are a heading twice, ids no test cites, and cited ids that are not
    spec ids. ``ids`` are :func:`spec_ids`; empty when all is well."""
    known = list(ids)
    per_id = citing_tests(cited, default)
    twice = sorted({spec_id for spec_id in known if known.count(spec_id) > 1})
    found = [f"spec id {spec_id} is a heading more than once" for spec_id in twice]
    found += [f"spec id {spec_id} is cited by no test" for spec_id in dict.fromkeys(known) if spec_id not in per_id]
    known_games = {split(spec_id, default)[0] for spec_id in known}
    for spec_id in sorted(set(per_id) - set(known)):
        found.append(
            f"{', '.join(per_id[spec_id])} cite(s) {spec_id!r}, which is no rule or ruling id"
            + _not_an_id(spec_id, known_games, default)
        )
    return found


def python_files(tests: Path = TESTS) -> list[Path]:
    """Every Python file of the tests folder and its subfolders (a game's tests, ``tests/revolution/``), helpers
    included: a marker there would be a mistake to see."""
    return sorted(path for path in tests.rglob("*.py") if "__pycache__" not in path.parts)


def reject_unknown_ids(items: list[pytest.Item]) -> None:
    """Collection hook: stop the run when a collected test cites an id that is not in spec/, or none at all.

    ``tests/conftest.py`` installs it as ``pytest_collection_modifyitems``. It reads the markers pytest applies
    (decorators, class and module ``pytestmark``, ``pytest.param(marks=...)``), so it also catches markers
    built at run time that the syntax scan cannot see.

    :raises pytest.UsageError: listing every offending test and id; pytest then exits with status 4.
    """
    known = set(spec_ids())
    bad: dict[str, dict[str, None]] = defaultdict(dict)  # test -> ordered set of its unknown ids
    for item in items:
        test = item.nodeid.split("[")[0]  # a parametrized test repeats its marks for each item
        for mark in item.iter_markers("spec"):
            if not mark.args:
                bad[test]["(none: @pytest.mark.spec() names no id)"] = None
            for arg in mark.args:
                if not isinstance(arg, str) or canonical(arg) not in known:
                    bad[test][repr(arg)] = None
    if bad:
        raise pytest.UsageError(
            f"tests cite spec ids that do not exist. A rule id is a heading '### <id> <title>' of "
            f"spec/<game>/rules.md or interface.md (e.g. 5.4), a ruling id a heading '### R-<letter> <title>' of "
            f"spec/<game>/rulings.md (e.g. R-D); a section number alone is not an id. A bare id is one of "
            f"{DEFAULT_GAME}'s, another game's is written <game>{SEPARATOR}<id> (e.g. revolution{SEPARATOR}3.2); "
            f"spec/ holds the games {', '.join(games())}:\n"
            + "\n".join(f"  {test} cites {', '.join(ids)}" for test, ids in bad.items())
        )
