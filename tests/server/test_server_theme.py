"""A match's theme reaches its prompts: names and labels in Dark Empire's words for a ``dark-empire`` match."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from server_helpers import GameClient, Lobby, serving

from darkempire.server.asgi import create_app
from darkempire.server.storage import SQLiteStorage


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with serving(create_app(SQLiteStorage(":memory:"))) as url:
        yield url


@pytest.mark.spec("1.1")
@pytest.mark.parametrize(("theme", "tag"), [("dark-empire", "DARK_EMPIRE"), ("steam-noir", "STEAM_NOIR")])
def test_prompts_are_in_the_theme_of_their_match(base: str, theme: str, tag: str) -> None:
    lobby = Lobby(base)
    answer = lobby.http.post("/api/matches", json={"players": 3, "theme": theme, "bots": [None, None, None]})
    match_id = answer.json()["match"]["match_id"]
    _, credential = lobby.join(match_id, 0)
    client = GameClient(base, match_id)
    prompt = client.hello(0, credential)["prompt"]
    assert prompt["theme"] == tag
    names = {card["id"]: card["names"][tag] for card in lobby.http.get("/api/card-table").json()["hand_cards"]}
    for action, label in zip(prompt["legal_actions"], prompt["labels"], strict=True):
        assert all(names[card] in label for card in action["cards"]), label
    spectator = GameClient(base, match_id)
    assert spectator.hello()["prompt"]["theme"] == tag
    client.close()
    spectator.close()
    lobby.close()


@pytest.mark.spec("1.1")
@pytest.mark.parametrize(("theme", "tag"), [("dark-empire", "DARK_EMPIRE"), ("steam-noir", "STEAM_NOIR")])
def test_a_matchs_downloaded_record_keeps_its_theme(base: str, theme: str, tag: str) -> None:
    # It said Steam Noir for every match, so `darkempire replay` showed a dark-empire game in the wrong names.
    lobby = Lobby(base)
    answer = lobby.http.post("/api/matches", json={"players": 3, "theme": theme, "bots": [None, "greedy", "random"]})
    match_id = answer.json()["match"]["match_id"]
    assert lobby.http.get(f"/api/matches/{match_id}/record").json()["theme"] == tag
    lobby.close()
