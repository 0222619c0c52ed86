"""``darkempire serve``: listed in the help, and telling how to install the server extra when it is missing."""

from __future__ import annotations

import gc
import importlib.util
from importlib.machinery import ModuleSpec
from pathlib import Path
from typing import Any

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


def _status(arguments: list[str]) -> int:
    """``darkempire`` ARGUMENTS' exit status, a usage error's (SystemExit 2, as argparse's own) included."""
    try:
        return main(arguments)
    except SystemExit as stop:
        return int(stop.code or 0)


@pytest.mark.parametrize(
    ("arguments", "named"),
    [(["--port", "70000"], "--port"), (["--port", "-1"], "--port"), (["--port", "http"], "--port"), (["--host", "999.1.1.1"], "--host")],
)
def test_a_bad_port_or_host_is_a_usage_error_not_a_traceback(
    arguments: list[str], named: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("uvicorn")
    status = _status(["serve", "--db", str(tmp_path / "m.sqlite3"), *arguments])
    captured = capsys.readouterr()
    assert status == 2 and named in captured.err and "Traceback" not in captured.err
    assert "darkempire server on" not in captured.out


def test_a_database_that_cannot_be_opened_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("uvicorn")
    (tmp_path / "file").write_text("")
    for db in (tmp_path / "file" / "m.sqlite3", tmp_path):  # under a file; a folder
        assert _status(["serve", "--port", "0", "--db", str(db)]) == 2
        captured = capsys.readouterr()
        assert "--db" in captured.err and "Traceback" not in captured.err and "darkempire server on" not in captured.out


def test_a_port_in_use_ends_with_one_line_and_no_banner(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("uvicorn")
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port), "--db", str(tmp_path / "m.sqlite3")]) == 1
    captured = capsys.readouterr()
    assert f"127.0.0.1:{port}" in captured.err and "Traceback" not in captured.err
    assert "darkempire server on" not in captured.out


def test_the_server_freezes_what_it_loaded_and_waits_longer_for_full_collections(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``serve`` sets the collector once uvicorn is loaded, before it serves: the process's objects so far are
    frozen (never walked again), and full collections wait for :data:`~darkempire.cli.serve.FULL_COLLECTION_EVERY`
    middle ones."""
    uvicorn = pytest.importorskip("uvicorn")
    seen: list[tuple[int, tuple[int, int, int], bool]] = []

    def served(server: Any, sockets: object = None) -> None:  # instead of serving: what was set by then
        seen.append((gc.get_freeze_count(), gc.get_threshold(), server.config.loaded))

    monkeypatch.setattr(uvicorn.Server, "run", served)
    threshold = gc.get_threshold()
    try:
        assert main(["serve", "--port", "0", "--db", str(tmp_path / "m.sqlite3")]) == 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
    [(frozen, set_to, loaded)] = seen
    assert frozen > 10_000 and loaded
    assert set_to == (threshold[0], threshold[1], serve.FULL_COLLECTION_EVERY)
