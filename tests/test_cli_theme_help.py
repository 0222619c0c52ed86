"""``--help`` of the subcommands that show faction names says which theme they show by default."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.spec("9.4")
@pytest.mark.parametrize("command", ["demo", "play", "replay"])
def test_the_theme_option_names_its_default(command: str) -> None:
    shown = subprocess.run(
        [sys.executable, "-m", "darkempire", command, "--help"], capture_output=True, text=True, check=True,
        env={"COLUMNS": "200", "PATH": ""},
    ).stdout  # fmt: skip
    theme = " ".join(shown.split("\n  --theme {", 1)[1].split("\n  -", 1)[0].split())  # its help, unwrapped
    assert "default steam-noir" in theme
