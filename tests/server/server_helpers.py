"""Helpers of the server's tests: a real uvicorn on 127.0.0.1 in a thread, and a WebSocket game client.

The tests talk to the server as any client would: HTTP with httpx, WebSockets with the ``websockets``
library, to a uvicorn listening on a free port of the loopback address.
"""

from __future__ import annotations

import json
import os
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

if not os.environ.get("CI"):  # CI installs the server extra: there a missing library must fail, not skip
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    pytest.importorskip("websockets")
    pytest.importorskip("httpx")

import httpx
import uvicorn
from starlette.applications import Starlette
from websockets.sync.client import ClientConnection, connect

from darkempire.server.protocol import PROTOCOL

TIMEOUT = 10.0


@contextmanager
def serving(app: Starlette, *, send_buffer: int | None = None) -> Iterator[str]:
    """Run ``app`` on uvicorn on a free loopback port for the ``with`` block; yield its base URL.

    :param send_buffer: a send buffer size for the listening socket, which the sockets it accepts inherit (a
        small one keeps the server from pushing much into a client that does not read).
    """
    sock = socket.socket()
    if send_buffer is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", ws="websockets-sansio", ws_max_size=1 << 20, lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        thread.join(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(TIMEOUT)
        sock.close()


def message(type_name: str, **fields: Any) -> str:
    """A client message of the protocol, as text."""
    return json.dumps({"format": PROTOCOL.tag, "type": type_name, **fields})


class GameClient:
    """One game connection: send frames, read messages, keep every frame received (``frames``, as bytes)."""

    def __init__(self, base: str, match_id: str) -> None:
        self._opening = connect(f"ws{base[4:]}/api/matches/{match_id}/socket", open_timeout=TIMEOUT)
        self.socket: ClientConnection = self._opening.__enter__()
        self.frames: list[bytes] = []
        self.prompt: dict[str, Any] = {}
        self.seq = -1

    def send(self, text: str | bytes) -> None:
        """Send one frame."""
        self.socket.send(text)

    def receive(self) -> dict[str, Any]:
        """The next message (its prompt and seq remembered)."""
        frame = self.socket.recv(timeout=TIMEOUT)
        self.frames.append(frame.encode() if isinstance(frame, str) else frame)
        data: dict[str, Any] = json.loads(frame)
        if data["type"] in ("welcome", "update"):
            self.prompt, self.seq = data["prompt"], data["seq"]
        return data

    def hello(self, seat: int | None = None, credential: str | None = None, since: int | None = None) -> dict[str, Any]:
        """Send ``hello`` and return the answer."""
        self.send(message("hello", seat=seat, credential=credential, since=since))
        return self.receive()

    def act(self, credential: str, action: dict[str, Any]) -> dict[str, Any]:
        """Send ``act`` and return the first answer (an ``ack`` or an ``error``)."""
        self.send(message("act", credential=credential, action=action))
        return self.receive()

    def close(self) -> None:
        """Close the connection."""
        self.socket.close()


class Lobby:
    """The lobby's HTTP routes, through httpx."""

    def __init__(self, base: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=TIMEOUT)

    def create(self, players: int, bots: list[str | None] | None = None) -> str:
        """Create a match; its id."""
        body: dict[str, Any] = {"players": players}
        if bots is not None:
            body["bots"] = bots
        answer = self.http.post("/api/matches", json=body)
        assert answer.status_code == 201, answer.text
        return str(answer.json()["match"]["match_id"])

    def join(self, match_id: str, seat: int | None = None, name: str = "p") -> tuple[int, str]:
        """Take a seat: the seat and its credential."""
        answer = self.http.post(f"/api/matches/{match_id}/join", json={"seat": seat, "name": name})
        assert answer.status_code == 200, answer.text
        return int(answer.json()["seat"]), str(answer.json()["credential"])

    def summary(self, match_id: str) -> dict[str, Any]:
        """The match's public summary."""
        answer = self.http.get(f"/api/matches/{match_id}")
        assert answer.status_code == 200, answer.text
        match: dict[str, Any] = answer.json()["match"]
        return match

    def close(self) -> None:
        """Close the HTTP client."""
        self.http.close()


def awaits_me(client: GameClient, humans: set[int] | None = None) -> bool:
    """Whether the client's prompt asks it to choose now, and no bot is still to move first: the server
    plays bots before it reads the next frame, so a prompt that awaits a bot is always followed by another.

    :param humans: the match's human seats (every seat when ``None``).
    """
    view = client.prompt.get("view", {})
    awaited = set(view.get("awaited", ()))
    return bool(client.prompt.get("legal_actions")) and (humans is None or awaited <= humans)


def is_over(client: GameClient) -> bool:
    """Whether the client's latest view is of a finished game."""
    return bool(client.prompt and client.prompt["view"]["phase"] == "GAME_OVER")


Seats = dict[int, tuple[GameClient, str]]


def settle(lobby: Lobby, match_id: str, clients: list[GameClient], seq: int | None = None) -> int:
    """Read every client up to ``seq`` (default: the match's seq now); return it. After an ``ack`` the server
    has played its bots too (in the same turn of its loop), so the summary's seq is where every client must
    get to."""
    seq = int(lobby.summary(match_id)["seq"]) if seq is None else seq
    for client in clients:
        while client.seq < seq:
            client.receive()
    return seq


def move(
    lobby: Lobby, match_id: str, seats: Seats, seat: int, action: dict[str, Any], others: list[GameClient], *, bots: bool = True
) -> int:
    """``seat`` sends ``action``; every connection reads up to the match's new seq, which is returned.

    :param bots: whether the match has bot seats (without, the ack's seq is the match's).
    """
    client, credential = seats[seat]
    client.send(message("act", credential=credential, action=action))
    while True:
        answer = client.receive()
        assert answer["type"] != "error", answer
        if answer["type"] == "ack":
            break
    return settle(lobby, match_id, [c for c, _ in seats.values()] + others, None if bots else int(answer["seq"]))


def play_out(lobby: Lobby, match_id: str, seats: Seats, others: list[GameClient] = []) -> int:
    """Play until the game is over, the lowest awaited human seat choosing its first legal action; return
    the number of moves the humans made."""
    moves = 0
    while not is_over(next(iter(seats.values()))[0]):
        waiting = [s for s, (c, _) in sorted(seats.items()) if c.prompt["legal_actions"]]
        assert waiting, "no human seat is awaited and the game is not over"
        seat = waiting[0]
        move(lobby, match_id, seats, seat, seats[seat][0].prompt["legal_actions"][0], others)
        moves += 1
    return moves
