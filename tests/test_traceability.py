"""Traceability (issue 3, item 4): every spec id is cited by a test, and every cited id exists.

The scan is :mod:`traceability` (tests/traceability.py); it reads the test files' syntax trees. The collection
hook of tests/conftest.py checks the markers pytest collects. The tests below run both on the real spec and
tests, and on small synthetic ones to show that each check fails when it should.
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
from traceability import ROOT, TESTS, citations, citing_tests, problems, python_files, rule_ids, ruling_ids, spec_ids

# These tests check the spec's structure and the test suite, not a rule of the game, so they cite no id.


def _write(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return folder


def _synthetic_spec(tmp_path: Path) -> Path:
    return _write(
        tmp_path / "spec",
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


def test_the_spec_has_46_rules_and_18_rulings_with_distinct_ids() -> None:
    """spec/README.md: "In all: 46 rules and 18 rulings", found by the README's regular expressions."""
    rules, rulings = rule_ids(), ruling_ids()
    assert len(rules) == 46 and len(set(rules)) == 46
    assert rulings == [f"R-{letter}" for letter in "ABCDEFGHIJKLMNOQRS"]  # R-P is withdrawn; its letter is not reused
    assert rules[0] == "1.1" and rules[-1] == "9.4"


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
                """,
        },
    )
    run = _pytest_in(project)
    output = run.stdout + run.stderr
    assert run.returncode == pytest.ExitCode.USAGE_ERROR, output
    assert "test_x.py::test_bad cites '5.99'\n" in output
    assert "test_x.py::test_empty cites (none: @pytest.mark.spec() names no id)" in output
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
                """,
        },
    )
    run = _pytest_in(project)
    assert run.returncode == pytest.ExitCode.OK, run.stdout + run.stderr
    assert "1 passed" in run.stdout


def test_the_docs_table_lists_the_tests_this_scan_finds() -> None:
    """The rules reference's "Tests per rule" page (docs/_ext/spectrace.py) shows the citations checked here."""
    path = ROOT / "docs" / "_ext" / "spectrace.py"
    spec = importlib.util.spec_from_file_location("spectrace", path)
    assert spec is not None and spec.loader is not None, path
    spectrace: Any = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(spectrace)
    assert [spec_id for spec_id, _ in spectrace.spec_ids(ROOT / "spec")] == spec_ids()
    assert spectrace.cited_ids(TESTS) == citing_tests(citations(python_files()))
