"""A hand-edited save file whose bot kinds are no strings (a hostile review's finding: a list there raised a bare
``TypeError``, unhashable, out of ``--resume``): refused with the field named."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from darkempire.cli.app import main
from darkempire.cli.play_save import SaveFileError, read_save


def _saved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "save.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("s\nq\n"))
    assert main(["play", "--save", str(path)]) == 0
    return path


@pytest.mark.spec("9.4")
@pytest.mark.parametrize("kind", [["greedy"], {"kind": "greedy"}, 3, True])
def test_a_saved_bot_kind_that_is_no_string_is_refused_with_its_field(
    kind: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _saved(tmp_path, monkeypatch)
    read_save(path)  # the save as written reads back
    capsys.readouterr()
    document = json.loads(path.read_text())
    document["bots"][1] = kind
    path.write_text(json.dumps(document))
    with pytest.raises(SaveFileError, match=r"field 'bots\[1\]' must be a bot kind"):
        read_save(path)
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert main(["play", "--resume", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bots[1]" in err and "Traceback" not in err
