"""tablekit is game-agnostic: no module of it imports darkempire (or any game), checked on the syntax trees."""

from __future__ import annotations

import ast
from pathlib import Path

KIT = Path(__file__).resolve().parents[2] / "src" / "tablekit"


def _imported_modules(path: Path) -> set[str]:
    """Every module an ``import`` or ``from ... import`` in ``path`` names, relative imports resolved to tablekit."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.add("tablekit" if node.level else (node.module or ""))
    return names


def test_the_kit_has_its_modules() -> None:
    found = {path.stem for path in KIT.glob("*.py")}
    assert {"game", "events", "simultaneous", "chance", "records", "wire", "bots", "stats", "errors"} <= found


def test_no_kit_module_imports_a_game() -> None:
    offenders = {
        f"{path.name}: {name}"
        for path in sorted(KIT.rglob("*.py"))
        for name in _imported_modules(path)
        if name.partition(".")[0] in ("darkempire", "kit")
    }
    assert offenders == set()


def test_no_kit_module_keeps_state_in_globals() -> None:
    """No ``global`` statement anywhere: the kit keeps no module state (Dark Empire's engine memo does)."""
    uses = [
        f"{path.name}:{node.lineno}"
        for path in sorted(KIT.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Global)
    ]
    assert uses == []
