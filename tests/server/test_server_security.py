"""What the server refuses, and that refusing changes nothing: credentials, malformed frames, rates, the lobby."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from server_helpers import GameClient, Lobby, message, serving

from darkempire.server.asgi import create_app
from darkempire.server.protocol import MAX_FRAME_BYTES
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


def _error(client: GameClient) -> dict[str, object]:
    answer = client.receive()
    assert answer["type"] == "error", answer
    return answer


@pytest.mark.spec("9.2")
def test_a_move_with_another_seats_no_or_a_guessed_credential_is_refused_and_changes_nothing(base: str, lobby: Lobby) -> None:
    match_id = lobby.create(3)
    credentials = {seat: lobby.join(match_id, seat)[1] for seat in range(3)}
    client = GameClient(base, match_id)
    client.hello(0, credentials[0])
    before, action = lobby.summary(match_id)["seq"], client.prompt["legal_actions"][0]
    guesses = [credentials[1], credentials[0][:-1] + ("A" if credentials[0][-1] != "A" else "B"), "", "x" * 5000]
    for guess in guesses:
        assert client.act(guess, action)["code"] == "bad-credential"
    client.send(message("act", action=action))  # no credential at all
    assert _error(client)["code"] == "bad-request"
    client.send(message("act", credential=None, action=action))
    assert _error(client)["code"] == "bad-request"
    assert lobby.summary(match_id)["seq"] == before
    # A refused hello binds no seat: a wrong credential, then another seat's, then the right one.
    other = GameClient(base, match_id)
    assert other.hello(1, credentials[0])["code"] == "bad-credential"
    assert other.hello(1, "guess")["code"] == "bad-credential"
    assert other.hello(1, credentials[1])["type"] == "welcome"
    assert client.act(credentials[0], action)["type"] == "ack"  # the connection and the match are still up
    assert lobby.summary(match_id)["seq"] == before + 1
    client.close()
    other.close()


@pytest.mark.spec("9.4")
def test_a_spectator_cannot_move_and_no_credential_reaches_another_connection(base: str, lobby: Lobby) -> None:
    match_id = lobby.create(3, [None, "greedy", "random"])
    _, credential = lobby.join(match_id, 0)
    spectator = GameClient(base, match_id)
    spectator.hello()
    player = GameClient(base, match_id)
    player.hello(0, credential)
    spectator.send(message("act", credential=credential, action=player.prompt["legal_actions"][0]))
    assert _error(spectator)["code"] == "not-a-seat"
    assert player.act(credential, player.prompt["legal_actions"][0])["type"] == "ack"
    spectator.receive()  # the update of that move
    assert spectator.frames and not [f for f in spectator.frames if credential.encode() in f]
    assert not [f for f in player.frames if credential.encode() in f]  # not even sent back to its own seat
    listing = lobby.http.get("/api/matches").text + lobby.http.get(f"/api/matches/{match_id}").text
    assert credential not in listing
    spectator.close()
    player.close()


def test_malformed_oversized_and_out_of_order_frames_get_errors_and_the_connection_stays_up(base: str, lobby: Lobby) -> None:
    match_id = lobby.create(3, [None, "greedy", "greedy"])
    _, credential = lobby.join(match_id, 0)
    client = GameClient(base, match_id)
    action = {"kind": "pass-cards", "cards": [0, 1]}
    client.send(message("act", credential=credential, action=action))
    assert _error(client)["code"] == "out-of-order"  # act before hello
    frames: list[tuple[str | bytes, str]] = [
        ("not json", "bad-request"),
        (b"\x00\x01binary", "bad-request"),
        ("[]", "bad-request"),
        ("{}", "bad-request"),
        (json.dumps({"format": "darkempire-server/2", "type": "hello"}), "bad-request"),
        (message("shout", seat=0), "bad-request"),
        (message("hello", seat=0, credential=credential, since=0, extra=1), "bad-request"),
        (message("hello", seat=0, credential=None, since=None), "bad-request"),
        (message("hello", seat=0, credential=credential, since=-1), "bad-request"),
        (message("hello", seat=0, credential=credential, since=10**6), "bad-request"),
        (message("hello", seat=0, credential=credential, since=None, pad="x" * MAX_FRAME_BYTES), "frame-too-large"),
    ]
    for frame, code in frames:
        client.send(frame)
        answer = _error(client)
        assert answer["code"] == code, (frame[:80], answer)
    assert client.hello(0, credential)["type"] == "welcome"
    assert client.hello(0, credential)["code"] == "out-of-order"  # hello comes once
    bad_actions: list[dict[str, Any]] = [{"kind": "pass-cards", "cards": [999]}, {"kind": "no-such-kind"}, {"format": "darkempire/1"}]
    for bad in bad_actions:
        assert client.act(credential, bad)["code"] == "bad-request"
    illegal = {"kind": "choose-support", "faction": "WORKERS"}
    refusal = client.act(credential, illegal)
    assert refusal["code"] == "illegal-action" and refusal["rule"]
    assert client.act(credential, client.prompt["legal_actions"][0])["type"] == "ack"
    client.close()


def test_a_connection_that_sends_too_fast_is_told_and_stays_up() -> None:
    with serving(create_app(SQLiteStorage(":memory:"), rate=1.0, burst=3)) as url:
        lobby = Lobby(url)
        match_id = lobby.create(3)
        client = GameClient(url, match_id)
        for _ in range(6):
            client.send("junk")
        codes = [client.receive()["code"] for _ in range(6)]
        assert codes == ["bad-request"] * 3 + ["rate-limited"] * 3
        lobby.close()
        client.close()


def test_the_lobby_refuses_bad_requests_naming_the_field(base: str, lobby: Lobby) -> None:
    http = lobby.http
    for body, field in [
        ({"players": 2}, "players"),
        ({"players": 3, "bots": ["greedy"]}, "bots"),
        ({"players": 3, "bots": [None, "genius", None]}, "bots"),
        ({"players": 3, "seed": 4}, "seed"),
        ({"players": "3"}, "players"),
        ({"players": 3, "theme": "pastel"}, "theme"),
    ]:
        answer = http.post("/api/matches", json=body)
        assert answer.status_code == 400 and answer.json()["error"]["message"].startswith(field), answer.text
    assert http.post("/api/matches", content=b"{").status_code == 400
    assert http.post("/api/matches", content=b"[" * 20000).status_code == 413
    assert http.get("/api/matches/nope").json()["error"]["code"] == "unknown-match"
    match_id = lobby.create(3, [None, "greedy", None])
    assert match_id in [m["match_id"] for m in http.get("/api/matches").json()["matches"]]
    seat, credential = lobby.join(match_id)
    assert seat == 0 and len(credential) >= 40
    assert http.post(f"/api/matches/{match_id}/join", json={"seat": 0}).json()["error"]["code"] == "seat-taken"
    assert http.post(f"/api/matches/{match_id}/join", json={"seat": 1}).json()["error"]["code"] == "no-free-seat"
    assert lobby.join(match_id)[0] == 2
    assert http.post(f"/api/matches/{match_id}/join", json={}).json()["error"]["code"] == "no-free-seat"
    assert match_id not in [m["match_id"] for m in http.get("/api/matches").json()["matches"]]  # full
    wrong = http.post(f"/api/matches/{match_id}/leave", json={"seat": 0, "credential": "guess"})
    assert wrong.status_code == 403 and lobby.summary(match_id)["seats"][0]["held"]
    left = http.post(f"/api/matches/{match_id}/leave", json={"seat": 0, "credential": credential})
    assert left.status_code == 200 and not lobby.summary(match_id)["seats"][0]["held"]
    assert lobby.join(match_id)[0] == 0


def test_an_unknown_match_is_refused_on_its_socket(base: str) -> None:
    client = GameClient(base, "no-such-match")
    assert client.receive()["code"] == "unknown-match"
    client.close()
