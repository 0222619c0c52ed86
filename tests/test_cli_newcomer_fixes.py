"""The ``darkempire`` command's newcomer fixes (Dark Empire side), tried as a person meets them: the command in
a subprocess 80 columns wide, or on a pseudo-terminal of 80 columns.

1. ``play`` keeps ``--theme`` in its ``--record`` and ``--save`` files;
2. ``demo`` and ``replay`` wrap at word boundaries on a terminal;
3. card labels, seat names and add-ons stay whole when a terminal wraps;
4. the rules' messages in a replay name factions as the record's theme does;
5. ``replay`` of a saved game points to ``play --resume``;
6. ``replay --seat`` without ``--week`` is a usage error;
7. re-organize news names your own discarded cards;
8. no internal issue notes in the docs;
9. ``prompt.json`` requires ``theme`` and ``labels``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from test_cli_play_newcomer import FIRST_CHOICES, env

ROOT = Path(__file__).resolve().parents[1]


def darkempire(
    args: Sequence[str], answers: Sequence[str] = (), cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``darkempire args`` with ``answers`` piped to it, one a line, 80 columns wide."""
    return subprocess.run(
        [sys.executable, "-m", "darkempire", *args],
        input="".join(a + "\n" for a in answers),
        capture_output=True,
        text=True,
        env=env(),
        cwd=cwd,
        timeout=120,
    )


# --------------------------------------------------------------------------- 1: the theme in play's files


@pytest.mark.spec("9.3")
def test_play_record_keeps_the_theme_and_replay_shows_it(tmp_path: Path) -> None:
    played = darkempire(
        ["play", "--players", "5", "--seed", "3", "--theme", "dark-empire", "--record", "r.json"],
        FIRST_CHOICES,
        cwd=tmp_path,
    )
    assert played.returncode == 0, played.stderr
    assert json.loads((tmp_path / "r.json").read_text())["theme"] == "DARK_EMPIRE"
    replayed = darkempire(["replay", "r.json"], cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stderr
    assert "Apparats" in replayed.stdout and "Mechandros" not in replayed.stdout


@pytest.mark.spec("9.3")
def test_a_saved_game_keeps_the_theme_and_theme_on_resume_overrides_it(tmp_path: Path) -> None:
    saved = darkempire(["play", "--theme", "dark-empire", "--save", "s.json"], FIRST_CHOICES[:1], cwd=tmp_path)
    assert saved.returncode == 1 and (tmp_path / "s.json").exists(), saved.stderr
    resumed = darkempire(["play", "--resume", "s.json"], cwd=tmp_path)
    assert "theme dark-empire" in resumed.stdout.splitlines()[0]
    overridden = darkempire(["play", "--resume", "s.json", "--theme", "steam-noir"], cwd=tmp_path)
    assert "theme steam-noir" in overridden.stdout.splitlines()[0]
    document = json.loads((tmp_path / "s.json").read_text())
    del document["record"]["theme"]  # a game saved before saves kept the theme is still read, as Steam Noir's
    (tmp_path / "old.json").write_text(json.dumps(document))
    old = darkempire(["play", "--resume", "old.json"], cwd=tmp_path)
    assert "theme steam-noir" in old.stdout.splitlines()[0], old.stderr
