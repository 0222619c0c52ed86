"""The server's hardening against a hostile or careless client: seats left with a connection open, lobby input,
strict JSON, quotas, origins, idle sockets (issue 16's hostile review)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from server_helpers import GameClient, Lobby, serving
from websockets.exceptions import ConnectionClosed

from darkempire.server.asgi import create_app
from darkempire.server.storage import SQLiteStorage


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with serving(create_app(SQLiteStorage(":memory:"), rate=1e4, burst=10**4)) as url:
        yield url


@pytest.fixture
def lobby(base: str) -> Iterator[Lobby]:
    client = Lobby(base)
    yield client
    client.close()


def _close_code(client: GameClient) -> int | None:
    """Read until the server closes the connection; its close code."""
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            client.receive()
    return closed.value.rcvd.code if closed.value.rcvd is not None else None


@pytest.mark.spec("9.4")
def test_a_seat_left_closes_its_connections_with_4409_before_the_next_holder_is_sent_anything(base: str, lobby: Lobby) -> None:
    match_id = lobby.create(3)
    credentials = {seat: lobby.join(match_id, seat)[1] for seat in range(3)}
    old = GameClient(base, match_id)
    old.hello(0, credentials[0])
    left = lobby.http.post(f"/api/matches/{match_id}/leave", json={"seat": 0, "credential": credentials[0]})
    assert left.status_code == 200
    _, fresh = lobby.join(match_id, 0, name="next")
    new = GameClient(base, match_id)
    new.hello(0, fresh)
    assert new.act(fresh, new.prompt["legal_actions"][0])["type"] == "ack"
    frames_before = len(old.frames)
    assert _close_code(old) == 4409
    last = old.frames[frames_before:]
    assert len(last) == 1 and b'"seat-lost"' in last[0]  # told why, and no update of the next holder's seat
    new.close()


@pytest.mark.parametrize(
    "body",
    [
        b'{"players": 3, "bots": [["greedy"], null, null]}',
        b'{"players": 3, "bots": [{"kind": "greedy"}, null, null]}',
        b'{"players": 3, "bots": [3, null, null]}',
        b'{"players": 3, "\\ud800": 1}',
    ],
)
def test_create_refuses_bot_kinds_of_the_wrong_type_with_a_typed_error(lobby: Lobby, body: bytes) -> None:
    answer = lobby.http.post("/api/matches", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"]["code"] == "bad-request"


@pytest.mark.parametrize("name", ["\\ud800", "a\\udfffb", "a\\u0000b", "\\u001b[2J", "\\u202eevil", "x" * 41])
def test_join_refuses_names_with_controls_lone_surrogates_or_too_long_naming_the_field(lobby: Lobby, name: str) -> None:
    match_id = lobby.create(3)
    body = ('{"seat": 0, "name": "' + name + '"}').encode()
    answer = lobby.http.post(f"/api/matches/{match_id}/join", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"]["message"].startswith("name:")
    assert not lobby.summary(match_id)["seats"][0]["held"]


def test_join_keeps_a_name_in_any_script_and_emoji_with_joiners(lobby: Lobby) -> None:
    match_id = lobby.create(3)
    name = "Zoë 鈴木 👩\u200d🚀"
    lobby.join(match_id, 0, name=name)
    assert lobby.summary(match_id)["seats"][0]["name"] == name
