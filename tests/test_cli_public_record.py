"""``darkempire demo --public-record`` and ``darkempire replay`` of a public record (spec 9.3, 9.4).

A public record is what the CLI offers for sharing a game: no seed and nothing hidden. ``replay`` checks it
move by move from public information, and refuses a tampered one as it refuses a tampered full record.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from darkempire.cli import main


def _demo(tmp_path: Path, seed: int, capsys: pytest.CaptureFixture[str]) -> tuple[Path, Path]:
    full, public = tmp_path / "full.json", tmp_path / "public.json"
    assert main(["demo", "--players", "4", "--seed", str(seed), "--record", str(full), "--public-record", str(public)]) == 0
    capsys.readouterr()
    return full, public


@pytest.mark.spec("9.3", "9.4")
def test_demo_writes_a_public_record_without_seed_that_replay_confirms(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    full, public = _demo(tmp_path, 4, capsys)
    document = json.loads(public.read_text())
    assert document["type"] == "public-record" and "seed" not in json.dumps(document)
    assert json.loads(full.read_text())["seed"] == 4
    assert main(["replay", str(public)]) == 0
    shown = capsys.readouterr().out
    assert main(["replay", str(full)]) == 0
    reproduced = capsys.readouterr().out
    verdict = reproduced.strip().splitlines()[-1].removeprefix("Verdict reproduced")
    assert shown.strip().splitlines()[-1] == "Verdict confirmed" + verdict
    assert "checked from public information" in shown


@pytest.mark.spec("9.4")
def test_replay_of_a_public_record_shows_a_week_as_a_spectator_and_refuses_a_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, public = _demo(tmp_path, 5, capsys)
    assert main(["replay", str(public), "--week", "3"]) == 0
    out = capsys.readouterr().out
    assert "What a spectator saw in week 3 (month 1, week 3)" in out and "The week's events" in out
    assert main(["replay", str(public), "--week", "3", "--seat", "1"]) == 1
    assert "no seat's view" in capsys.readouterr().err


@pytest.mark.spec("9.3")
def test_replay_refuses_a_tampered_public_record_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, public = _demo(tmp_path, 6, capsys)
    document = json.loads(public.read_text())
    document["steps"][3], document["steps"][4] = document["steps"][4], document["steps"][3]
    document["steps"].reverse()
    public.write_text(json.dumps(document))
    assert main(["replay", str(public)]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "step" in err and "rule" in err
