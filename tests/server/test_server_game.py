"""Whole games through the real server: uvicorn on 127.0.0.1, the lobby over HTTP, the game over WebSockets."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from server_helpers import GameClient, Lobby, Seats, move, play_out, serving, settle

from darkempire.serialization import load_public_record
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


def _seated(base: str, lobby: Lobby, match_id: str, seats: list[int]) -> Seats:
    found: Seats = {}
    for seat in seats:
        _, credential = lobby.join(match_id, seat)
        client = GameClient(base, match_id)
        assert client.hello(seat, credential)["type"] == "welcome"
        found[seat] = (client, credential)
    return found


@pytest.mark.spec("9.2", "9.4")
def test_two_humans_and_two_bots_play_a_whole_game_and_a_spectator_watches_it(base: str, lobby: Lobby) -> None:
    match_id = lobby.create(4, [None, "greedy", None, "random"])
    seats = _seated(base, lobby, match_id, [0, 2])
    spectator = GameClient(base, match_id)
    welcome = spectator.hello()
    assert welcome["seat"] is None and welcome["prompt"]["legal_actions"] == []
    settle(lobby, match_id, [c for c, _ in seats.values()] + [spectator])
    assert play_out(lobby, match_id, seats, [spectator]) > 20
    verdicts = [c.prompt["view"]["verdict"] for c, _ in seats.values()] + [spectator.prompt["view"]["verdict"]]
    assert verdicts[0] is not None and verdicts.count(verdicts[0]) == 3
    # The spectator never saw a hand: its view has none, and no event of its showed a card held.
    assert spectator.prompt["view"]["hand"] == [] and spectator.prompt["view"]["seat"] is None
    seen = [json.loads(f) for f in spectator.frames]
    events = [e for m in seen for e in m.get("events", []) + [x for s in m.get("missed", []) for x in s["events"]]]
    assert not [e for e in events if e["kind"] in ("hand-dealt", "hand-refilled")]
    assert all(e.get("action") is None for e in events if e["kind"] == "choice-made")
    summary = lobby.summary(match_id)
    assert summary["over"] and "seed" not in json.dumps(summary)
    record = load_public_record(lobby.http.get(f"/api/matches/{match_id}/record").text)
    assert len(record.steps) == summary["seq"] and record.verdict is not None
    for client, _ in seats.values():
        client.close()
    spectator.close()


@pytest.mark.spec("9.4")
def test_a_seat_that_reconnects_gets_its_view_and_the_events_it_missed(base: str, lobby: Lobby) -> None:
    match_id = lobby.create(3, [None, None, "greedy"])
    seats = _seated(base, lobby, match_id, [0, 1])
    first, credential = seats[0]
    for _ in range(3):  # a few moves with seat 0 connected
        seat = min(s for s, (c, _) in seats.items() if c.prompt["legal_actions"])
        move(lobby, match_id, seats, seat, seats[seat][0].prompt["legal_actions"][0], [])
    seen_until = first.seq
    first.close()
    del seats[0]
    other = seats[1][0]
    # Seat 1 moves while seat 0 is away, as long as the game waits for seat 1 only.
    while other.prompt["legal_actions"] and set(other.prompt["view"]["awaited"]) == {1}:
        move(lobby, match_id, seats, 1, other.prompt["legal_actions"][0], [])
    now = lobby.summary(match_id)["seq"]
    assert now > seen_until + 1  # seat 1 moved while seat 0 was away
    again = GameClient(base, match_id)
    welcome = again.hello(0, credential, since=seen_until)
    assert welcome["seq"] == now
    assert [s["seq"] for s in welcome["missed"]] == list(range(seen_until + 1, now + 1))
    # The events it missed are the ones a connection that stayed would have had: a fresh connection's.
    fresh = GameClient(base, match_id)
    full = fresh.hello(0, credential)
    assert full["missed"][seen_until + 1 :] == welcome["missed"] and full["prompt"] == welcome["prompt"]
    assert welcome["prompt"]["view"]["seat"] == 0 and welcome["prompt"]["view"]["hand"]
    for client in (again, fresh, other):
        client.close()


@pytest.mark.spec("9.2")
def test_a_seat_that_lets_its_time_run_out_has_a_bot_choose_for_it_and_everyone_is_told(base: str, lobby: Lobby) -> None:
    answer = lobby.http.post("/api/matches", json={"players": 3, "bots": [None, None, "greedy"], "time_limit": 0.2})
    match_id = answer.json()["match"]["match_id"]
    seats = _seated(base, lobby, match_id, [0, 1])
    spectator = GameClient(base, match_id)
    spectator.hello()
    before = lobby.summary(match_id)["seq"]
    # Nobody moves: each human seat's clock runs out; the bot's choices arrive, each with its notice.
    notices: list[dict[str, Any]] = []
    while len(notices) < 2:
        message = spectator.receive()
        if message["type"] == "timeout":
            notices.append(message)
    assert sorted(n["seat"] for n in notices) == [0, 1]
    assert lobby.summary(match_id)["seq"] >= before + 2
    for client, _ in seats.values():
        kinds = [client.receive()["type"] for _ in range(4)]
        assert kinds.count("timeout") == 2  # every connection is told, the seat itself too
        client.close()
    spectator.close()
    for bad in (0, -1, 10**6, "1"):
        refused = lobby.http.post("/api/matches", json={"players": 3, "time_limit": bad})
        assert refused.status_code == 400 and refused.json()["error"]["message"].startswith("time_limit")


def test_without_a_time_limit_no_clock_runs(base: str, lobby: Lobby) -> None:
    match_id = lobby.create(3, [None, "greedy", "greedy"])
    (client, _), = _seated(base, lobby, match_id, [0]).values()
    with pytest.raises(TimeoutError):
        client.socket.recv(timeout=0.5)
    assert lobby.summary(match_id)["time_limit"] is None
    client.close()
