"""A client that reads too slowly is dropped, not buffered without bound; it reconnects and catches up.

What a connection has waiting to be sent is bounded (``create_app(queued=...)``). The end-to-end test shrinks
the socket buffers on both ends of the loopback connection, so that a spectator that stops reading fills
them within a few updates, then lets a fast player go on moving: the server must drop the spectator (close
code 4429, one log line naming no credential), and the spectator, reconnecting with ``since``, gets every
choice it missed, once each and in order.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from server_helpers import TIMEOUT, GameClient, Lobby, awaits_me, is_over, message, serving  # skips without the extra

# After server_helpers, which skips this module when the server extra is missing.
from websockets.exceptions import ConnectionClosed  # noqa: E402
from websockets.sync.client import ClientConnection, connect  # noqa: E402

from darkempire.server.asgi import SLOW_CLIENT_CLOSE, Connection, create_app  # noqa: E402
from darkempire.server.storage import SQLiteStorage  # noqa: E402

#: The socket buffers of the test's connections, in bytes: the kernel keeps at least a few kB.
_BUFFER = 4096


@contextmanager
def _slow_spectator(base: str, match_id: str) -> Iterator[ClientConnection]:
    """A spectator's connection with a small receive buffer, after its ``hello`` (its welcome unread)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, _BUFFER)
    sock.connect(("127.0.0.1", int(base.rsplit(":", 1)[1])))
    with connect(f"ws{base[4:]}/api/matches/{match_id}/socket", sock=sock, open_timeout=TIMEOUT) as client:
        client.send(message("hello", seat=None, credential=None, since=None))
        yield client


def _dropped(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "darkempire.server" and "too slowly" in r.getMessage()]


def _read_to_close(client: ClientConnection) -> tuple[list[dict[str, Any]], int | None]:
    """Every message the client still gets, and the close code it ends with."""
    received = []
    try:
        while True:
            received.append(json.loads(client.recv(timeout=TIMEOUT)))
    except ConnectionClosed as closed:
        return received, closed.rcvd.code if closed.rcvd is not None else None


def test_a_spectator_that_stops_reading_is_dropped_and_catches_up_on_reconnecting(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="darkempire.server")
    storage = SQLiteStorage(tmp_path / "slow.sqlite3")
    # A player's move and the bots' answers queue up to about 80 kB at once for a connection that reads.
    app = create_app(storage, rate=1000.0, burst=1000, queued=150_000)
    with serving(app, send_buffer=_BUFFER) as base:
        lobby = Lobby(base)
        match_id = lobby.create(3, [None, "greedy", "random"])
        with _slow_spectator(base, match_id) as slow:
            _outrun(lobby, base, match_id, slow, caplog)
        lobby.close()
    storage.close()


def _outrun(lobby: Lobby, base: str, match_id: str, slow: ClientConnection, caplog: pytest.LogCaptureFixture) -> None:
    """A player moves until the server drops the ``slow`` spectator, which then reads, and comes back."""
    seat, credential = lobby.join(match_id, 0)
    player = GameClient(base, match_id)
    player.hello(seat, credential)
    deadline = time.monotonic() + 3 * TIMEOUT
    while not _dropped(caplog) and not is_over(player) and time.monotonic() < deadline:
        if awaits_me(player, {0}):
            player.act(credential, player.prompt["legal_actions"][0])
        player.receive()
    assert [r.getMessage().split(": ")[1] for r in _dropped(caplog)] == ["a spectator connection read too slowly and was dropped"]
    assert credential not in caplog.text
    told, code = _read_to_close(slow)
    assert code == SLOW_CLIENT_CLOSE
    seen = [m["seq"] for m in told if m["type"] in ("welcome", "update")]
    assert seen == list(range(seen[0], seen[0] + len(seen))), "what was sent before the drop came in order"
    last = seen[-1]
    assert last < lobby.summary(match_id)["seq"], "the drop lost the messages still queued"
    again = GameClient(base, match_id)
    welcome = again.hello(None, None, last)
    missed = [step["seq"] for step in welcome["missed"]]
    assert missed == list(range(last + 1, welcome["seq"] + 1))
    assert welcome["seq"] == lobby.summary(match_id)["seq"]
    for client in (again, player):
        client.close()


class _DeafSocket:
    """A socket whose client never reads: every send waits forever."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send_text(self, data: str) -> None:
        self.sent.append(data)
        await asyncio.Event().wait()


def test_a_connection_queues_no_more_than_its_limit() -> None:
    async def scenario() -> tuple[Connection, asyncio.Task[None], _DeafSocket]:
        deaf = _DeafSocket()
        connection = Connection(deaf, limit=1000)
        writer = asyncio.create_task(connection.drain())
        for k in range(1000):
            connection.put({"type": "update", "seq": k, "padding": "x" * 50})
            await asyncio.sleep(0)
        await asyncio.wait((writer,), timeout=TIMEOUT)
        return connection, writer, deaf

    connection, writer, deaf = asyncio.run(scenario())
    assert connection.dropped
    assert writer.cancelled(), "the writer waiting on the deaf socket was stopped"
    assert len(deaf.sent) == 1, "one message was on its way; the rest waited in the queue, then were dropped"
    assert connection.queued == 0
