"""Traceability (issue 3, item 4): every spec id is cited by a test, and every cited id exists.

The scan is :mod:`traceability` (tests/traceability.py); it reads the test files' syntax trees. The collection
hook of tests/conftest.py checks the markers pytest collects. The tests below run both on the real spec and
tests, and on small synthetic ones to show that each check fails when it should; a synthetic spec/ with a
second game shows how that game's ids are written (``revolution:3.2``) while bare ids stay Dark Empire's.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from traceability import (
    DEFAULT_GAME,
    ROOT,
    SPEC,
    TESTS,
    canonical,
    citations,
    citing_tests,
    games,
    headings,
    problems,
    python_files,
    rule_ids,
    ruling_ids,
    spec_ids,
    split,
)

# These tests check the spec's structure and the test suite, not a rule of the game, so they cite no id.


def _write(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return folder


def _synthetic_spec(tmp_path: Path) -> Path:
    """A spec/ root whose only game is the default one, with a rules.md and a rulings.md."""
    _write(
        tmp_path / "spec" / DEFAULT_GAME,
        {
            "rules.md": """\
                # Rules
                ### 1.1 First rule
                text; a line like "#### 1.9 not a rule" or "### 2 section" is no id
                ### 1.2 Second rule
                ### 10.11 Two-digit rule
                """,
            "rulings.md": """\
                # Rulings
                ### R-A First ruling
                ### R-B Second ruling
                """,
        },
    )
    return tmp_path / "spec"


def _two_games(tmp_path: Path) -> Path:
    """A spec/ root with the default game (rules, interface, rulings), a second game and two folders that are
    no game (no rules.md; a name that is no game name)."""
    spec = tmp_path / "spec"
    _write(
        spec / DEFAULT_GAME,
        {
            "rules.md": "### 1.1 Game rule\n### 1.2 Another\n",
            "interface.md": "## 9. Interface\n### 9.1 Phases\n",
            "rulings.md": "### R-A A ruling\n",
        },
    )
    _write(spec / "revolution", {"rules.md": "### 1.1 Bids\n### 3.2 Support\n", "rulings.md": "### R-A Ties\n"})
    _write(spec / "notes", {"interface.md": "### 9.9 Not a game: no rules.md\n"})
    _write(spec / "_drafts", {"rules.md": "### 7.7 Not a game: the name\n"})
    (spec / "README.md").write_text("# Specifications\n### 4.4 not in a game folder\n", encoding="utf-8")
    return spec


def test_the_spec_has_46_rules_and_18_rulings_with_distinct_ids() -> None:
    """spec/darkempire/README.md: "In all: 46 rules (42 of the game, 4 of the interface) and 18 rulings"."""
    rules, rulings = rule_ids(), ruling_ids()
    assert len(rules) == 46 and len(set(rules)) == 46
    assert rulings == [f"R-{letter}" for letter in "ABCDEFGHIJKLMNOQRS"]  # R-P is withdrawn; its letter is not reused
    assert rules[0] == "1.1" and rules[-1] == "9.4"


def test_spec_holds_one_folder_per_game_and_the_interface_in_its_own_file() -> None:
    """Dark Empire's spec is spec/darkempire/, Revolution!'s spec/revolution/; Dark Empire's sections 1 to 8 are
    rules.md, section 9 interface.md."""
    assert games() == [DEFAULT_GAME, "revolution"] == ["darkempire", "revolution"]
    files = {spec_id: name for spec_id, _, name in headings()}
    assert [i for i, name in files.items() if name == "interface.md"] == ["9.1", "9.2", "9.3", "9.4"]
    assert len([i for i, name in files.items() if name == "rules.md"]) == 42
    assert not [path.name for path in SPEC.glob("*.md") if path.name != "README.md"]  # no file left at the top
    index = (SPEC / "README.md").read_text(encoding="utf-8")
    assert all(f"`{game}/`" in index for game in games())  # the index of games lists every game


def test_a_second_games_ids_are_qualified_and_bare_ids_stay_the_default_games(tmp_path: Path) -> None:
    """In a spec/ with two games, the default game's ids are bare and the other's ``revolution:<id>``; folders
    without rules.md or with a name that is no game name are no games, and spec/README.md holds no id."""
    spec = _two_games(tmp_path)
    assert games(spec) == ["darkempire", "revolution"]
    assert games(spec, default="revolution") == ["revolution", "darkempire"]
    assert spec_ids(spec) == ["1.1", "1.2", "9.1", "R-A", "revolution:1.1", "revolution:3.2", "revolution:R-A"]
    assert spec_ids(spec, default="revolution")[:3] == ["1.1", "3.2", "R-A"]  # the tools take any default
    assert rule_ids(spec, "revolution") == ["1.1", "3.2"] and ruling_ids(spec, "revolution") == ["R-A"]
    assert split("revolution:3.2") == ("revolution", "3.2") and split("3.2") == (DEFAULT_GAME, "3.2")
    assert canonical("darkempire:1.1") == "1.1"
    unchanged = ["revolution:3.2", "1.1", "darkempire:", "x"]  # "darkempire:" names no id: it stays as cited
    assert [canonical(spec_id) for spec_id in unchanged] == unchanged


def test_bare_and_qualified_spellings_of_one_id_are_one_citation(tmp_path: Path) -> None:
    """``darkempire:1.2`` cites Dark Empire's 1.2; ``revolution:1.1`` is not ``1.1``; an unknown game is named."""
    spec = _two_games(tmp_path)
    tests = _write(
        tmp_path / "tests",
        {
            "test_a.py": """\
                import pytest

                @pytest.mark.spec("1.1", "darkempire:1.2", "darkempire:9.1", "R-A")
                def test_dark_empire() -> None: ...

                @pytest.mark.spec("revolution:3.2", "revolution:R-A")
                def test_revolution() -> None: ...

                @pytest.mark.spec("chess:1.1", "revolution:9.1")
                def test_wrong() -> None: ...
                """
        },
    )
    cited = citations(python_files(tests))
    assert citing_tests(cited)["1.2"] == ["test_a.py::test_dark_empire"]
    assert problems(spec_ids(spec), cited) == [
        "spec id revolution:1.1 is cited by no test",
        "test_a.py::test_wrong cite(s) 'chess:1.1', which is no rule or ruling id "
        "(spec/ holds no game 'chess'; its games: darkempire, revolution)",
        "test_a.py::test_wrong cite(s) 'revolution:9.1', which is no rule or ruling id",
    ]


def test_an_id_that_is_a_heading_twice_in_its_game_fails(tmp_path: Path) -> None:
    """Moving a rule to interface.md without removing it from rules.md makes its id a heading twice."""
    spec = _two_games(tmp_path)
    (spec / DEFAULT_GAME / "interface.md").write_text("### 9.1 Phases\n### 1.2 Another, copied\n", encoding="utf-8")
    cited = {"test_a.py::test_all": ["1.1", "1.2", "9.1", "R-A", "revolution:1.1", "revolution:3.2", "revolution:R-A"]}
    assert problems(spec_ids(spec), cited) == ["spec id 1.2 is a heading more than once"]


def test_every_spec_id_is_cited_and_every_cited_id_exists() -> None:
    """The traceability check itself, on the real spec/ and tests/."""
    cited = citations(python_files())
    assert problems(spec_ids(), cited) == []


def test_the_scan_sees_the_real_tests() -> None:
    """The scan is not vacuous: it finds known tests and their ids, and this module's tests citing none."""
    cited = citations(python_files())
    assert cited["test_components.py::test_five_factions_in_the_spec_order_with_the_names_of_both_themes"] == ["1.1"]
    assert cited["test_traceability.py::test_the_scan_sees_the_real_tests"] == []
    assert "test_oracle.py::test_monthly_scoring_agrees_with_the_oracle" in citing_tests(cited)["R-L"]
    assert not any(name.startswith(("builders.py", "oracle.py", "conftest.py")) for name in cited)


def test_ids_come_from_the_headings_only(tmp_path: Path) -> None:
    spec = _synthetic_spec(tmp_path)
    assert spec_ids(spec) == ["1.1", "1.2", "10.11", "R-A", "R-B"]


def test_an_uncited_id_fails(tmp_path: Path) -> None:
    """Rule 1.2 of the synthetic spec is cited nowhere: the check names it."""
    spec = _synthetic_spec(tmp_path)
    tests = _write(
        tmp_path / "tests",
        {
            "test_a.py": """\
                import pytest

                @pytest.mark.spec("1.1", "R-A")
                def test_one() -> None: ...

                @pytest.mark.spec("10.11", "R-B")
                def test_two() -> None: ...
                """
        },
    )
    assert problems(spec_ids(spec), citations(python_files(tests))) == ["spec id 1.2 is cited by no test"]


def test_an_unknown_id_fails(tmp_path: Path) -> None:
    """A section number ("1") and a misspelt ruling ("R-a") are not ids: the check names the test and the id."""
    spec = _synthetic_spec(tmp_path)
    tests = _write(
        tmp_path / "tests",
        {
            "test_a.py": """\
                import pytest

                @pytest.mark.spec("1.1", "1.2", "10.11", "R-A", "R-B", "1")
                def test_one() -> None: ...

                @pytest.mark.spec("R-a")
                def test_two() -> None: ...
                """
        },
    )
    assert problems(spec_ids(spec), citations(python_files(tests))) == [
        "test_a.py::test_one cite(s) '1', which is no rule or ruling id",
        "test_a.py::test_two cite(s) 'R-a', which is no rule or ruling id",
    ]


def test_every_way_of_applying_the_marker_is_seen(tmp_path: Path) -> None:
    """Decorators, ``mark.spec``, classes, ``pytestmark`` of module and class, ``pytest.param(marks=...)``,
    and module-level names bound to markers or parameter lists."""
    tests = _write(
        tmp_path / "tests",
        {
            "test_forms.py": """\
                import pytest
                from pytest import mark

                pytestmark = [pytest.mark.spec("R-A"), pytest.mark.slow]
                SHARED = pytest.mark.spec("1.2")
                CASES = [pytest.param(1, marks=pytest.mark.spec("10.11")), pytest.param(2, marks=[mark.spec("R-B")])]

                @mark.spec("1.1")
                def test_plain() -> None: ...

                @SHARED
                def test_named() -> None: ...

                @pytest.mark.parametrize("x", CASES)
                def test_params(x: int) -> None: ...

                @pytest.mark.parametrize("x", [pytest.param(3, marks=pytest.mark.spec("1.1"))])
                def test_inline_param(x: int) -> None: ...

                @pytest.mark.spec("1.2")
                class TestGroup:
                    pytestmark = pytest.mark.spec("R-B")

                    @pytest.mark.spec("1.1")
                    def test_method(self) -> None: ...

                    def helper(self) -> None: ...

                def helper() -> None:
                    pytest.mark.spec("9.9")  # not a test: not counted
                """,
            "helpers.py": "def test_like_name() -> None: ...\n",  # not a test module: pytest collects none
        },
    )
    cited = citations(python_files(tests))
    assert {name: sorted(ids) for name, ids in cited.items()} == {
        "test_forms.py::test_plain": ["1.1", "R-A"],
        "test_forms.py::test_named": ["1.2", "R-A"],
        "test_forms.py::test_params": ["10.11", "R-A", "R-B"],
        "test_forms.py::test_inline_param": ["1.1", "R-A"],
        "test_forms.py::TestGroup::test_method": ["1.1", "1.2", "R-A", "R-B"],
    }
    assert problems(spec_ids(_synthetic_spec(tmp_path)), cited) == []


def _pytest_in(project: Path) -> subprocess.CompletedProcess[str]:
    """Run pytest on ``project`` in a subprocess that imports this folder's traceability module."""
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-o", "markers=spec", "-q", str(project)],
        cwd=project,
        env={**os.environ, "PYTHONPATH": str(TESTS)},
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_collection_hook_stops_a_run_that_cites_an_unknown_id(tmp_path: Path) -> None:
    """A pytest run with the hook of tests/conftest.py stops at collection and names the test and the bad id."""
    project = _write(
        tmp_path / "project",
        {
            "conftest.py": "from traceability import reject_unknown_ids as pytest_collection_modifyitems\n",
            "test_x.py": """\
                import pytest

                @pytest.mark.spec("5.4", "R-D")
                def test_good() -> None: ...

                @pytest.mark.parametrize("x", [pytest.param(1, marks=pytest.mark.spec("5.99")), 2])
                def test_bad(x: int) -> None: ...

                @pytest.mark.spec()
                def test_empty() -> None: ...

                @pytest.mark.spec("darkempire:5.4", "revolution:3.9", "darkempire:", 5.4)
                def test_games() -> None: ...
                """,
        },
    )
    run = _pytest_in(project)
    output = run.stdout + run.stderr
    assert run.returncode == pytest.ExitCode.USAGE_ERROR, output
    assert "test_x.py::test_bad cites '5.99'\n" in output
    assert "test_x.py::test_empty cites (none: @pytest.mark.spec() names no id)" in output
    # Dark Empire's 5.4 qualified is known; Revolution! has no rule 3.9; a number is no id.
    assert "test_x.py::test_games cites 'revolution:3.9', 'darkempire:', 5.4\n" in output
    assert "another game's is written <game>:<id> (e.g. revolution:3.2); spec/ holds the games darkempire, " \
           "revolution:" in output
    assert "test_good" not in output
    assert "passed" not in output  # nothing ran


def test_the_collection_hook_lets_a_run_with_known_ids_through(tmp_path: Path) -> None:
    project = _write(
        tmp_path / "project",
        {
            "conftest.py": "from traceability import reject_unknown_ids as pytest_collection_modifyitems\n",
            "test_x.py": """\
                import pytest

                @pytest.mark.spec("5.4", "R-D")
                def test_good() -> None: ...

                @pytest.mark.spec("darkempire:9.4", "darkempire:R-N")
                def test_qualified() -> None: ...
                """,
        },
    )
    run = _pytest_in(project)
    assert run.returncode == pytest.ExitCode.OK, run.stdout + run.stderr
    assert "2 passed" in run.stdout


def _spectrace() -> Any:
    """docs/_ext/spectrace.py, the Sphinx extension (it needs docutils and Sphinx, as the docs build does)."""
    path = ROOT / "docs" / "_ext" / "spectrace.py"
    spec = importlib.util.spec_from_file_location("spectrace", path)
    assert spec is not None and spec.loader is not None, path
    spectrace: Any = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(spectrace)
    return spectrace


def test_the_docs_table_lists_the_tests_this_scan_finds() -> None:
    """The rules reference's "Tests per rule" page (docs/_ext/spectrace.py) shows the citations checked here."""
    spectrace = _spectrace()
    per_id = citing_tests(citations(python_files()))
    for game in games():
        rows = spectrace.rows(SPEC, TESTS, game)
        ids = [spec_id for spec_id in spec_ids() if split(spec_id)[0] == game]
        assert [spec_id for spec_id, _, _ in rows] == ids
        assert {spec_id: tests for spec_id, _, tests in rows} == {spec_id: per_id[spec_id] for spec_id in ids}
    rows = spectrace.rows(SPEC, TESTS, DEFAULT_GAME)
    assert rows[0][1] == "Factions and themes" and rows[-1][1].startswith("Placed cards' reinforcements")
    assert spectrace.unknown_citations(SPEC, TESTS) == []


def test_the_docs_link_a_second_games_ids_to_its_own_headings(tmp_path: Path) -> None:
    """The docs extension on a spec/ with two games: each game's table and labels, and the game a page includes."""
    spectrace = _spectrace()
    spec = _two_games(tmp_path)
    tests = _write(
        tmp_path / "tests",
        {
            "traceability.py": (TESTS / "traceability.py").read_text(encoding="utf-8"),
            "test_r.py": """\
                import pytest

                @pytest.mark.spec("revolution:3.2", "darkempire:1.1", "chess:1.1")
                def test_r() -> None: ...
                """,
        },
    )
    assert spectrace.rows(spec, tests, "revolution") == [
        ("revolution:1.1", "Bids", []),
        ("revolution:3.2", "Support", ["test_r.py::test_r"]),
        ("revolution:R-A", "Ties", []),
    ]
    assert spectrace.rows(spec, tests, DEFAULT_GAME)[0] == ("1.1", "Game rule", ["test_r.py::test_r"])
    assert spectrace.unknown_citations(spec, tests) == ["chess:1.1"]
    trace = spectrace.traceability(tests)
    labels = [spectrace.target(i, trace) for i in ("5.4", "R-E", "darkempire:5.4", "revolution:3.2", "revolution:R-A")]
    assert labels == ["rule-5.4", "ruling-r-e", "rule-5.4", "revolution-rule-3.2", "revolution-ruling-r-a"]
    pages = _write(
        tmp_path / "docs" / "rules",
        {
            "rev.md": "# Revolution!\n\n```{include} ../../spec/revolution/rules.md\n```\n",
            "index.md": "```{include} ../../spec/README.md\n```\n",
            "other.md": "```{include} ../../README.md\n```\n",
        },
    )
    found = [spectrace.included_game(pages / name, spec, games(spec)) for name in ("rev.md", "index.md", "other.md")]
    assert found == ["revolution", None, None]


def test_the_docs_link_ids_with_a_games_label_prefix() -> None:
    """On a second game's pages, "3.2" in the text links to that game's heading, not to Dark Empire's."""
    from docutils import nodes  # type: ignore[import-untyped]

    spectrace = _spectrace()
    paragraph = nodes.paragraph()
    paragraph += nodes.Text("rules 3.2 and R-A; not 5.4")
    assert spectrace.link_ids(paragraph, {"3.2", "R-A"}, prefix="revolution-") == 2
    targets = [node["reftarget"] for node in paragraph.findall(lambda n: n.tagname == "pending_xref")]
    assert targets == ["revolution-rule-3.2", "revolution-ruling-r-a"]
