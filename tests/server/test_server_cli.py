"""``darkempire serve``: listed in the help, and telling how to install the server extra when it is missing."""

from __future__ import annotations

import importlib.util
from importlib.machinery import ModuleSpec
from pathlib import Path

import pytest

from darkempire.cli import main
from darkempire.cli import serve


def test_serve_without_the_server_extra_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    real = importlib.util.find_spec

    def without_starlette(name: str, package: str | None = None) -> ModuleSpec | None:
        return None if name == "starlette" else real(name, package)

    monkeypatch.setattr(importlib.util, "find_spec", without_starlette)
    assert main(["serve", "--port", "0"]) == 1
    assert 'pip install -e ".[server]"' in capsys.readouterr().err


def test_serve_is_a_subcommand_with_a_local_default_address(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "serve" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    assert "127.0.0.1" in capsys.readouterr().out


def test_the_default_database_is_under_the_users_data_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert serve.default_database() == tmp_path / "darkempire" / "server.sqlite3"
