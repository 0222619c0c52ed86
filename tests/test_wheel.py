"""The built wheel holds every file the packages need at run time: ``pip install`` alone gives a working
engine, server and browser page (issue 17: "pip install alone gives a working page"), and nothing built
on this machine (the kernel's compiled modules, byte code) leaks into it."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"

#: What a checkout may hold under src/ that is built here and must stay out of the wheel (.gitignore).
_LOCAL = ("__pycache__", ".so", ".pyd", "_compiled.json", ".egg-info")


def _sources() -> set[str]:
    """Every file under src/ that the project's own files hold, as its path inside the wheel."""
    found = set()
    for path in SRC.rglob("*"):
        relative = path.relative_to(SRC).as_posix()
        if path.is_file() and not any(part in relative for part in _LOCAL):
            found.add(relative)
    return found


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    pytest.importorskip("hatchling", reason="the build backend is a dev dependency (pip install -e '.[dev]')")
    out = tmp_path_factory.mktemp("wheel")
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out),
               str(ROOT)]
    run = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    (built,) = out.glob("darkempire-*.whl")
    with zipfile.ZipFile(built) as archive:
        return {name for name in archive.namelist() if ".dist-info/" not in name}


def test_the_wheel_holds_every_source_file_and_nothing_built_here(wheel: set[str]) -> None:
    assert wheel == _sources()


def test_the_wheel_holds_the_browser_page_the_schemas_and_the_type_markers(wheel: set[str]) -> None:
    """Named outright, so a packaging rule that dropped a kind of file from both the checkout's listing and the
    wheel (a pattern in ``exclude``) would still be caught."""
    page = {"index.html", "style.css", "js/main.js", "js/api.js", "js/table.js", "js/lobby.js", "js/help.js"}
    assert {f"darkempire/web/static/{name}" for name in page} <= wheel
    assert {"darkempire/server/schemas/hello.json", "darkempire/server/schemas/update.json",
            "darkempire/schemas/player-view.json", "revolution/schemas/view.json"} <= wheel
    assert {"darkempire/py.typed", "tablekit/py.typed", "revolution/py.typed"} <= wheel
    assert not [name for name in wheel if name.endswith((".so", ".pyd", ".pyc"))]
