"""Messages of the command line that quote text with brackets or colons print it as written (spec 9.3)."""

from __future__ import annotations

import argparse
import io

import pytest
from rich.console import Console

from darkempire import simulation


def test_the_plot_hint_names_the_extra_with_its_brackets(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """rich reads "[plot]" as a style tag unless told not to: the install hint would lose the extra's name."""
    monkeypatch.setattr(simulation, "_has_matplotlib", lambda: False)
    args = argparse.Namespace(games=1, jobs=1, plot="x.png")
    status = simulation.simulate_command(Console(file=io.StringIO()), args, ["random"] * 4)
    assert status == 2
    assert "pip install 'darkempire[plot]'" in capsys.readouterr().err
