"""Revolution!'s spec and package: the spec's ids, the traceability of a game's tests in a subfolder, the
package's purity, documentation and doctests, and the kit's independence from it."""

from __future__ import annotations

import ast
import collections
import doctest
import importlib
import inspect
import pkgutil
import types
from pathlib import Path

from test_docs import undocumented
from traceability import SPEC, canonical, citations, citing_tests, headings, problems, python_files, rule_ids
from traceability import ruling_ids, spec_ids

import revolution

ROOT = Path(__file__).resolve().parents[2]


def modules() -> list[types.ModuleType]:
    names = [info.name for info in pkgutil.walk_packages(revolution.__path__, "revolution.")]
    return [revolution, *(importlib.import_module(name) for name in sorted(names))]


def test_the_spec_has_35_rules_and_20_rulings_with_distinct_ids() -> None:
    """spec/revolution/README.md: "In all: 35 rules (31 of the game, 4 of the interface) and 20 rulings"."""
    rules, rulings = rule_ids(game="revolution"), ruling_ids(game="revolution")
    assert len(rules) == len(set(rules)) == 35 and rules[0] == "1.1" and rules[-1] == "9.4"
    assert rulings == [f"R-{letter}" for letter in "ABCDEFGHIJKLMNOPQRST"]
    files = {spec_id: name for spec_id, _, name in headings(game="revolution")}
    assert [i for i, name in files.items() if name == "interface.md"] == ["9.1", "9.2", "9.3", "9.4"]
    readme = (SPEC / "revolution" / "README.md").read_text(encoding="utf-8")
    assert "In all: 35 rules (31 of the game, 4 of the interface) and 20 rulings." in readme
    index = (SPEC / "README.md").read_text(encoding="utf-8")
    assert "| `revolution/` | `src/revolution/` |" in index


def test_every_revolution_id_has_its_myst_target() -> None:
    """Each heading has the target Sphinx links to (spec/README.md): ``(revolution-rule-5.2)=`` above it."""
    for name in ("rules.md", "interface.md", "rulings.md"):
        text = (SPEC / "revolution" / name).read_text(encoding="utf-8")
        for spec_id, _, file in headings(game="revolution"):
            if file == name:
                kind = "ruling" if spec_id.startswith("R-") else "rule"
                assert f"(revolution-{kind}-{spec_id})=\n### {spec_id} " in text, spec_id


def test_a_games_tests_in_a_subfolder_are_traced_with_the_folder_in_their_name(tmp_path: Path) -> None:
    """tests/revolution/test_x.py is scanned; its tests are named ``revolution/test_x.py::...``, so they cannot
    be confused with a test of the same file name at the top of tests/."""
    top, sub = tmp_path / "tests", tmp_path / "tests" / "revolution"
    sub.mkdir(parents=True)
    source = 'import pytest\n\n@pytest.mark.spec("{}")\ndef test_same() -> None: ...\n'
    (top / "test_x.py").write_text(source.format("1.1"), encoding="utf-8")
    (sub / "test_x.py").write_text(source.format("revolution:5.2"), encoding="utf-8")
    (sub / "helper.py").write_text("", encoding="utf-8")
    found = python_files(top)
    assert [p.relative_to(top).as_posix() for p in found] == ["revolution/helper.py", "revolution/test_x.py",
                                                              "test_x.py"]
    cited = citations(found)
    assert cited == {"revolution/test_x.py::test_same": ["revolution:5.2"], "test_x.py::test_same": ["1.1"]}
    assert citing_tests(cited)["revolution:5.2"] == ["revolution/test_x.py::test_same"]
    assert canonical("revolution:5.2") == "revolution:5.2"


def test_every_revolution_id_is_cited_by_a_test_in_tests_revolution() -> None:
    ids = [spec_id for spec_id in spec_ids() if spec_id.startswith("revolution:")]
    per_id = citing_tests(citations(python_files()))
    assert len(ids) == 55 and problems(spec_ids(), citations(python_files())) == []
    assert all(any(test.startswith("revolution/") for test in per_id[spec_id]) for spec_id in ids)


def _impurities(source: str) -> list[str]:
    tree = ast.parse(source)
    found = [f"global at line {node.lineno}" for node in ast.walk(tree) if isinstance(node, ast.Global)]
    found += [f"cache at line {node.lineno}" for node in ast.walk(tree)
              if isinstance(node, ast.Attribute) and node.attr in ("lru_cache", "cache")]
    return found


def _holds_mutable(value: object) -> bool:
    if isinstance(value, (dict, list, set, bytearray, collections.deque)):
        return True
    if isinstance(value, (tuple, frozenset)):
        return any(_holds_mutable(item) for item in value)
    if isinstance(value, types.MappingProxyType):
        return any(_holds_mutable(item) for item in (*value.keys(), *value.values()))
    return False


def test_the_rules_keep_no_module_state() -> None:
    """No ``global``, no cache, no mutable container at module level in any module of the package."""
    for module in modules():
        assert _impurities(inspect.getsource(module)) == [], module.__name__
        held = [name for name, value in vars(module).items() if not name.startswith("__") and _holds_mutable(value)]
        assert held == [], module.__name__
    planted = types.ModuleType("planted")
    planted.MEMO = {}  # type: ignore[attr-defined]
    assert [n for n, v in vars(planted).items() if _holds_mutable(v)] == ["MEMO"]
    assert _impurities("def f():\n    global x\n") == ["global at line 2"]


def test_every_public_name_is_documented_and_the_docstring_examples_run() -> None:
    for module in modules():
        assert inspect.getdoc(module), module.__name__
        assert undocumented(module) == [], module.__name__
        failed, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert failed == 0, module.__name__
    examples = sum(len(test.examples) for module in modules() for test in doctest.DocTestFinder().find(module))
    assert examples >= 15


def test_the_kit_imports_no_game_and_the_game_only_the_kit() -> None:
    """tablekit stays game-agnostic with a second game beside it; revolution imports no Dark Empire."""
    def imported(folder: Path) -> set[str]:
        names: set[str] = set()
        for path in folder.rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    names |= {alias.name.partition(".")[0] for alias in node.names}
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    names.add(node.module.partition(".")[0])
        return names

    assert "revolution" not in imported(ROOT / "src" / "tablekit")
    assert "darkempire" not in imported(ROOT / "src" / "revolution")


def test_the_wheel_ships_the_board_file_as_package_data() -> None:
    """pyproject.toml lists the package for the build, and board.json lies inside it (hatch ships every file of
    a listed package); the board loads from the installed package's resources."""
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"src/revolution"' in pyproject
    assert (ROOT / "src" / "revolution" / "rules" / "board.json").is_file()
    assert revolution.load_board(revolution.rules.data.base_board_text()) == revolution.BASE_BOARD
