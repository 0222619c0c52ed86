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


@pytest.mark.parametrize(
    ("method", "path", "status", "code"),
    [
        ("GET", "/nowhere", 404, "not-found"),
        ("GET", "/api/matches/x/nothing", 404, "not-found"),
        ("DELETE", "/api/matches", 405, "method-not-allowed"),
        ("GET", "/api/matches/x/join", 405, "method-not-allowed"),
    ],
)
def test_unknown_routes_and_methods_answer_json_error_bodies(lobby: Lobby, method: str, path: str, status: int, code: str) -> None:
    answer = lobby.http.request(method, path)
    assert answer.status_code == status
    assert answer.headers["content-type"].startswith("application/json")
    assert answer.json()["error"]["code"] == code
    if status == 405:
        assert "POST" in answer.headers["allow"] or "GET" in answer.headers["allow"]


@pytest.mark.parametrize(
    ("body", "named"),
    [
        (b'{"players": NaN}', "NaN"),
        (b'{"players": 3, "time_limit": Infinity}', "Infinity"),
        (b'{"players": 3, "time_limit": 1e400}', "1e400"),
        (b'{"players": 3, "players": 5}', "players"),
        (b"[3]", "object"),
        (b'"players"', "object"),
    ],
)
def test_lobby_bodies_are_strict_json_objects_and_the_refusal_names_what_is_wrong(lobby: Lobby, body: bytes, named: str) -> None:
    before = len(lobby.http.get("/api/matches").json()["matches"])
    answer = lobby.http.post("/api/matches", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"]["code"] == "bad-request" and named in answer.json()["error"]["message"]
    assert len(lobby.http.get("/api/matches").json()["matches"]) == before


@pytest.mark.parametrize("media", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"])
def test_a_lobby_body_of_another_media_type_is_refused_with_415(lobby: Lobby, media: str) -> None:
    answer = lobby.http.post("/api/matches", content=b'{"players": 3}', headers={"content-type": media})
    assert answer.status_code == 415 and answer.json()["error"]["code"] == "unsupported-media-type"
    assert lobby.http.post("/api/matches", content=b'{"players": 3}', headers={"content-type": "application/json; charset=utf-8"}).status_code == 201


def test_a_connection_that_sends_no_hello_in_time_is_closed_with_4408_and_one_that_does_stays() -> None:
    with serving(create_app(SQLiteStorage(":memory:"), hello_timeout=0.5)) as url:
        lobby = Lobby(url)
        match_id = lobby.create(3)
        idle, junk, greeting = GameClient(url, match_id), GameClient(url, match_id), GameClient(url, match_id)
        junk.send("junk")  # a frame that is no hello does not keep the connection open
        assert greeting.hello()["type"] == "welcome"
        assert _close_code(idle) == 4408
        assert b'"hello-timeout"' in idle.frames[-1]
        assert _close_code(junk) == 4408
        _, credential = lobby.join(match_id, 0)  # the greeted spectator is still served after the deadline
        player = GameClient(url, match_id)
        player.hello(0, credential)
        player.act(credential, player.prompt["legal_actions"][0])
        assert greeting.receive()["type"] == "update"
        for client in (player, greeting):
            client.close()
        lobby.close()


def test_the_listing_filters_open_live_and_all_and_a_finished_match_keeps_its_public_record() -> None:
    with serving(create_app(SQLiteStorage(":memory:"))) as url:
        lobby = Lobby(url)
        open_id, full_id = lobby.create(3, [None, "greedy", "greedy"]), lobby.create(3, [None, "greedy", "greedy"])
        lobby.join(full_id, 0)
        over_id = lobby.create(3, ["greedy", "greedy", "random"])
        for _ in range(10000):  # a match of bots only plays itself out
            if lobby.summary(over_id)["over"]:
                break
        assert lobby.summary(over_id)["over"]

        def listed(status: str) -> set[str]:
            answer = lobby.http.get("/api/matches", params={"status": status})
            assert answer.status_code == 200, answer.text
            return {m["match_id"] for m in answer.json()["matches"]}

        assert listed("open") == {open_id} == {m["match_id"] for m in lobby.http.get("/api/matches").json()["matches"]}
        assert listed("live") == {open_id, full_id}
        assert listed("all") == {open_id, full_id, over_id}
        refused = lobby.http.get("/api/matches", params={"status": "finished"})
        assert refused.status_code == 400 and refused.json()["error"]["message"].startswith("status:")
        record = lobby.http.get(f"/api/matches/{over_id}/record")
        assert record.status_code == 200 and record.json()["verdict"] is not None
        lobby.close()


def test_a_match_of_bots_only_is_created_at_once_and_plays_itself_out_in_the_background() -> None:
    with serving(create_app(SQLiteStorage(":memory:"))) as url:
        lobby = Lobby(url)
        created = lobby.http.post("/api/matches", json={"players": 5, "bots": ["greedy"] * 5})
        assert created.status_code == 201
        assert not created.json()["match"]["over"]  # answered before its game was played out
        match_id = created.json()["match"]["match_id"]
        for _ in range(10000):  # it plays itself out without a client
            if (summary := lobby.summary(match_id))["over"]:
                break
        assert summary["over"] and summary["seq"] > created.json()["match"]["seq"]
        lobby.close()


def test_an_address_that_creates_matches_too_fast_is_refused_with_429_and_may_still_join() -> None:
    with serving(create_app(SQLiteStorage(":memory:"), create_rate=1e-6, create_burst=2)) as url:
        lobby = Lobby(url)
        first, _ = lobby.create(3), lobby.create(3)
        refused = lobby.http.post("/api/matches", json={"players": 3})
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate-limited"
        assert len(lobby.http.get("/api/matches").json()["matches"]) == 2
        assert lobby.join(first)[0] == 0
        lobby.close()


def test_connections_past_the_match_or_address_quota_are_closed_with_4503() -> None:
    with serving(create_app(SQLiteStorage(":memory:"), per_match=2, per_address=3)) as url:
        lobby = Lobby(url)
        crowded, other = lobby.create(3), lobby.create(3)
        first, second = GameClient(url, crowded), GameClient(url, crowded)
        third = GameClient(url, crowded)
        assert _close_code(third) == 4503 and b'"too-many-connections"' in third.frames[-1]
        fourth = GameClient(url, other)  # another match: under both quotas
        assert fourth.hello()["type"] == "welcome"
        fifth = GameClient(url, other)  # the address's fourth connection
        assert _close_code(fifth) == 4503
        assert first.hello()["type"] == "welcome" and second.hello()["type"] == "welcome"
        for client in (first, second, fourth):
            client.close()
        lobby.close()


def test_the_message_rate_is_shared_by_every_connection_of_an_address() -> None:
    with serving(create_app(SQLiteStorage(":memory:"), rate=1e-6, burst=3, address_rate=1e-6)) as url:
        lobby = Lobby(url)
        match_id = lobby.create(3)
        clients = [GameClient(url, match_id) for _ in range(3)]
        for client in clients[:2]:  # the address's 6 messages at once: 3 per connection
            for _ in range(3):
                client.send("junk")
            assert [client.receive()["code"] for _ in range(3)] == ["bad-request"] * 3
        clients[2].send("junk")  # a fresh connection buys no more
        assert clients[2].receive()["code"] == "rate-limited"
        for client in clients:
            client.close()
        lobby.close()


def test_lobby_posts_and_game_sockets_from_a_foreign_web_page_are_refused() -> None:
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect
    from websockets.typing import Origin

    from darkempire.server.origins import OriginPolicy

    with serving(create_app(SQLiteStorage(":memory:"), origins=OriginPolicy(["https://play.example"]))) as url:
        lobby = Lobby(url)
        match_id = lobby.create(3)  # no Origin: not a web page
        host = url.removeprefix("http://")
        for origin, allowed in [
            ("https://evil.example", False),
            ("null", False),
            (f"http://{host}.evil.example", False),
            ("https://play.example", True),
            (url, True),
            ("http://localhost:3000", True),
        ]:
            answer = lobby.http.post(f"/api/matches/{match_id}/join", json={"name": "x"}, headers={"origin": origin})
            assert (answer.status_code == 200) == allowed, (origin, answer.text)
            if not allowed:
                assert answer.json()["error"]["code"] == "forbidden-origin"
            socket_url = f"ws://{host}/api/matches/{match_id}/socket"
            if allowed:
                with connect(socket_url, origin=Origin(origin), open_timeout=10) as socket:
                    socket.send('{"format": "darkempire-server/1", "type": "hello", "seat": null, "credential": null, "since": null}')
                    assert '"welcome"' in str(socket.recv(timeout=10))
            else:
                with pytest.raises(InvalidStatus) as refused:
                    connect(socket_url, origin=Origin(origin), open_timeout=10)
                assert refused.value.response.status_code == 403
        lobby.close()


def test_create_refuses_the_search_bot_which_would_hold_every_matchs_loop(lobby: Lobby) -> None:
    """Bots play on the server's event loop; the search bot's tens of milliseconds a decision would stall every
    match, so a match may seat only the bots of SERVER_BOTS, and the refusal says why."""
    body = b'{"players": 3, "bots": [null, "ismcts", "greedy"]}'
    answer = lobby.http.post("/api/matches", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 400, answer.text
    message = answer.json()["error"]["message"]
    assert message.startswith("bots[1]: null or one of greedy, random, not 'ismcts'") and "loop" in message
    # Other wrong entries are named as they are, without the search bot's reason.
    for bots, said in [('[null, null, "foo"]', "bots[2]: null or one of greedy, random, not 'foo'"),
                       ('[null, 3, null]', "bots[1]: null or one of greedy, random, not a number"),
                       ('[null, "greedy"]', "bots: one entry per seat, 3 in all (null for a seat people join), not 2")]:
        body = b'{"players": 3, "bots": %s}' % bots.encode()
        refused = lobby.http.post("/api/matches", content=body, headers={"content-type": "application/json"})
        assert refused.status_code == 400 and refused.json()["error"]["message"] == said, refused.text
    ok = b'{"players": 3, "bots": [null, "random", "greedy"]}'
    assert lobby.http.post("/api/matches", content=ok, headers={"content-type": "application/json"}).status_code == 201


def test_a_refusal_quotes_a_clients_text_once_escaped_and_cut_where_it_says_so() -> None:
    """A refusal quotes at most 40 characters of what a client sent, marks a cut with an ellipsis, escapes a
    control character once (a terminal reading the log would obey it), and never prints a huge number whole."""
    from darkempire.server.lobby import Lobby as ServerLobby
    from darkempire.server.refusals import BadRequestError

    lobby = ServerLobby(SQLiteStorage(":memory:"))

    def refusal(body: dict[object, object]) -> str:
        with pytest.raises(BadRequestError) as refused:
            lobby.create(body)
        return str(refused.value)

    said = refusal({"players": 3, "bots": [None, None, "\x00\x1b[2J"]})
    assert said == "bots[2]: null or one of greedy, random, not '\\x00\\x1b[2J'", said
    assert refusal({"players": 3, "bots": [None, "x" * 100_000, None]}).endswith(f"not '{'x' * 36}...")
    assert refusal({"players": 10**5000}) == "players: 3 to 5 seats (rule 2.1), not an integer of 16610 bits"
    assert refusal({"players": 7}) == "players: 3 to 5 seats (rule 2.1), not 7"
    assert refusal({10**5000: 1}).startswith("an integer of 16610 bits: unknown field")
    assert refusal({"y" * 50: 1}).startswith(f"{'y' * 40}…: unknown field")  # a field name, as the known ones
