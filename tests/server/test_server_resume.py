"""A server killed with SIGKILL mid-game and started again resumes every match at its last acknowledged move.

The server is a real process (``python -m darkempire serve``) on a SQLite file; the test plays through it,
kills it without warning, starts it again on the same file and goes on playing to the end.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from server_helpers import TIMEOUT, GameClient, Lobby, Seats, move, play_out  # skips the module without the extra

import httpx  # noqa: E402  (after server_helpers, which skips this module when the server extra is missing)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def _server(db: Path, port: int) -> Iterator[subprocess.Popen[bytes]]:
    process = subprocess.Popen(
        [sys.executable, "-m", "darkempire", "serve", "--port", str(port), "--db", str(db), "--rate", "1000"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=os.environ.copy(),
    )  # fmt: skip
    deadline = time.monotonic() + TIMEOUT
    while True:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/matches", timeout=1.0)
            break
        except httpx.TransportError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start: {process.stderr.read() if process.stderr else b''!r}") from None
            time.sleep(0.05)
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(TIMEOUT)


@pytest.mark.spec("9.3")
def test_a_server_killed_mid_game_resumes_every_match_at_its_last_acknowledged_move(tmp_path: Path) -> None:
    db, port = tmp_path / "matches.sqlite3", _free_port()
    base = f"http://127.0.0.1:{port}"
    with _server(db, port) as process:
        lobby = Lobby(base)
        match_id = lobby.create(3, [None, "greedy", "random"])
        other_id = lobby.create(4, [None, None, "greedy", "greedy"])
        _, credential = lobby.join(match_id, 0)
        client = GameClient(base, match_id)
        client.hello(0, credential)
        seats: Seats = {0: (client, credential)}
        for _ in range(12):
            move(lobby, match_id, seats, 0, client.prompt["legal_actions"][0], [])
        acknowledged, prompt = client.seq, client.prompt
        others_seq = lobby.summary(other_id)["seq"]
        process.send_signal(signal.SIGKILL)
        process.wait(TIMEOUT)
        client.close()
        lobby.close()
    with _server(db, port):
        lobby = Lobby(base)
        assert lobby.summary(match_id)["seq"] == acknowledged
        assert lobby.summary(other_id)["seq"] == others_seq
        again = GameClient(base, match_id)
        welcome = again.hello(0, credential, since=acknowledged)
        assert welcome["seq"] == acknowledged and welcome["missed"] == [] and welcome["prompt"] == prompt
        assert play_out(lobby, match_id, {0: (again, credential)}) > 0
        assert lobby.summary(match_id)["over"]
        again.close()
        lobby.close()
