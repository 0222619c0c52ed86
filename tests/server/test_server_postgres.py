"""PostgreSQL storage and the fan-out between server processes, against a real PostgreSQL.

Run when ``DARKEMPIRE_TEST_PG`` names a database (``postgresql://postgres@127.0.0.1:55432/darkempire_test``):
``.ci/run`` starts a throwaway cluster and sets it. Each test works in tables of its own schema.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator

import pytest

URL = os.environ.get("DARKEMPIRE_TEST_PG", "")
pytestmark = pytest.mark.skipif(not URL, reason="DARKEMPIRE_TEST_PG names no PostgreSQL database")

from server_helpers import GameClient, Lobby, Seats, message, serving  # noqa: E402

from darkempire.server.asgi import create_app  # noqa: E402
from darkempire.server.refusals import ChoiceConflictError  # noqa: E402
from darkempire.server.storage import SeatHolder, StoredChoice, StoredMatch  # noqa: E402


@pytest.fixture
def url() -> Iterator[str]:
    """The database, with a fresh schema first on the search path, dropped afterwards."""
    import psycopg

    schema = "t_" + secrets.token_hex(6)
    with psycopg.connect(URL, autocommit=True) as db:
        db.execute(f"CREATE SCHEMA {schema}")
    separator = "&" if "?" in URL else "?"
    yield f"{URL}{separator}options=-csearch_path%3D{schema}"
    with psycopg.connect(URL, autocommit=True) as db:
        db.execute(f"DROP SCHEMA {schema} CASCADE")


def test_the_postgres_storage_keeps_choices_in_order_and_refuses_a_second_at_one_position(url: str) -> None:
    from darkempire.server.postgres import PostgresStorage

    storage = PostgresStorage(url)
    stored = StoredMatch("m1", 3, "steam-noir", 2**62 + 5, (None, "greedy", None), 1.5)
    storage.create_match(stored)
    storage.append_choice("m1", StoredChoice(0, 0, "{}"))
    with pytest.raises(ChoiceConflictError):
        storage.append_choice("m1", StoredChoice(0, 2, "[]"))
    assert storage.hold_seat("m1", SeatHolder(0, "ann", "h")) and not storage.hold_seat("m1", SeatHolder(0, "b", "x"))
    storage.close()
    again = PostgresStorage(url)  # the tables exist: opened again, not made again
    assert again.matches() == [stored] and again.choices("m1") == [StoredChoice(0, 0, "{}")]
    assert again.seats("m1") == [SeatHolder(0, "ann", "h")]
    again.close()


def _read_to(clients: list[GameClient], seq: int) -> None:
    for client in clients:
        while client.seq < seq:
            client.receive()


def test_two_server_processes_on_one_database_serve_the_same_match(url: str) -> None:
    from darkempire.server.postgres import PostgresStorage

    one, two = PostgresStorage(url), PostgresStorage(url)
    apps = [create_app(s, rate=1e4, burst=10**4) for s in (one, two)]
    with serving(apps[0]) as a, serving(apps[1]) as b:
        lobbies = {a: Lobby(a), b: Lobby(b)}
        match_id = lobbies[a].create(3, [None, None, "greedy"])
        seats: Seats = {}
        home = {0: a, 1: b}  # seat 0 plays through server a, seat 1 through server b
        for seat, base in home.items():
            _, credential = lobbies[base].join(match_id, seat)
            client = GameClient(base, match_id)
            assert client.hello(seat, credential)["type"] == "welcome"
            seats[seat] = (client, credential)
        watchers = [GameClient(a, match_id), GameClient(b, match_id)]
        for watcher in watchers:
            watcher.hello()
        clients = [c for c, _ in seats.values()] + watchers
        _read_to(clients, int(lobbies[a].summary(match_id)["seq"]))
        while seats[0][0].prompt["view"]["phase"] != "GAME_OVER":
            seat = min(s for s, (c, _) in seats.items() if c.prompt["legal_actions"])
            client, credential = seats[seat]
            client.send(message("act", credential=credential, action=client.prompt["legal_actions"][0]))
            while (answer := client.receive())["type"] != "ack":
                assert answer["type"] == "update", answer
            _read_to(clients, int(lobbies[home[seat]].summary(match_id)["seq"]))
        final = int(lobbies[a].summary(match_id)["seq"])
        assert int(lobbies[b].summary(match_id)["seq"]) == final
        # No move lost or told twice: the stored choices are 0..final, and both spectators, one per
        # process, received the very same bytes.
        assert [c.index for c in one.choices(match_id)] == list(range(final))
        assert watchers[0].frames == watchers[1].frames
        for c in clients:
            c.close()
        for lobby in lobbies.values():
            lobby.close()
    one.close()
    two.close()


@pytest.mark.spec("9.2")
def test_a_credential_is_checked_against_the_database_by_every_process_and_a_seat_left_elsewhere_is_lost(url: str) -> None:
    from websockets.exceptions import ConnectionClosed

    from darkempire.server.postgres import PostgresStorage

    one, two = PostgresStorage(url), PostgresStorage(url)
    with serving(create_app(one, rate=1e4, burst=10**4)) as a, serving(create_app(two, rate=1e4, burst=10**4)) as b:
        lobby_a, lobby_b = Lobby(a), Lobby(b)
        match_id = lobby_a.create(3, [None, None, "greedy"])
        _, issued_by_a = lobby_a.join(match_id, 0)  # issued by process a...
        player = GameClient(b, match_id)  # ... played through process b, which has the match loaded
        watcher = GameClient(b, match_id)
        watcher.hello()
        assert player.hello(0, issued_by_a)["type"] == "welcome"
        assert player.act(issued_by_a, player.prompt["legal_actions"][0])["type"] == "ack"
        # The seat is left through process a: process b refuses the old credential and closes its connection.
        left = lobby_a.http.post(f"/api/matches/{match_id}/leave", json={"seat": 0, "credential": issued_by_a})
        assert left.status_code == 200
        late = GameClient(b, match_id)  # at once: b reads the seat from the database, not from its notice
        assert late.hello(0, issued_by_a)["code"] == "bad-credential"
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                player.receive()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4409
        # A move made through process a reaches process b's spectator (the fan-out).
        _, credential = lobby_a.join(match_id, 1)
        mover = GameClient(a, match_id)
        mover.hello(1, credential)
        seq = mover.act(credential, mover.prompt["legal_actions"][0])["seq"]
        while watcher.seq < seq:
            watcher.receive()
        for client in (late, mover, watcher):
            client.close()
        lobby_a.close()
        lobby_b.close()
    one.close()
    two.close()
