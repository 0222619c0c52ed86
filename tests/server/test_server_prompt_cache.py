"""What the server sends each seat is made once per choice and reused (labels once per process): the reuse
must never show a seat anything but what the prompt would say if made afresh from its view."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import darkempire.server.match as match_module
from darkempire.rules import engine
from darkempire.rules.actions import Action, PassCards, Reinforce, Side
from darkempire.rules.cards import Theme
from darkempire.rules.state import GameConfig
from darkempire.rules.views import PlayerView, player_view, spectator_view
from darkempire.serialization import from_data, to_data
from darkempire.server.match import Match
from darkempire.server.protocol import Frame, message_text
from darkempire.server.storage import SQLiteStorage, StoredMatch
from darkempire.text import action_label
from darkempire.wire.prompts import Prompt, check_prompt, prompt_labels


class _Outbox:
    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.prompts: list[dict[str, Any]] = []

    def put(self, message: dict[str, Any]) -> None:
        if isinstance(message, Frame):  # its text was made of parts encoded once: it must be the message's
            assert message.text() == message_text(dict(message))
        if "prompt" in message:
            self.prompts.append(message["prompt"])


def _afresh(match: Match, seat: int | None) -> dict[str, Any]:
    """The prompt of ``seat`` now, made from nothing but the state, its labels by the prompt itself."""
    if seat is None:
        return to_data(Prompt(spectator_view(match.state), ()))
    return to_data(Prompt(player_view(match.state, seat), tuple(engine.legal_actions(match.state, seat))))


@pytest.mark.parametrize("seed", [7, 11])
def test_every_prompt_sent_in_a_whole_game_is_the_one_made_afresh(seed: int) -> None:
    bots = (None, "greedy", None, "random")
    stored = StoredMatch("m1", len(bots), "steam-noir", seed, bots, 0.0)
    storage = SQLiteStorage(":memory:")
    storage.create_match(stored)
    match = Match(stored)
    boxes = [_Outbox(seat) for seat in (0, 2, 0, None)]  # two connections of seat 0
    for box in boxes:
        match.subscribe(box, None)
    match.play_bots(storage)
    sent = 0
    while not match.is_over:
        seat = min(engine.awaited_seats(match.state) - match.bot_seats())
        match.accept(seat, engine.legal_actions(match.state, seat)[-1], storage)
        for box in boxes:
            assert box.prompts[-1] == _afresh(match, box.seat)
        if match.seq % 7 == 0:  # a connection that comes in once the choice's updates are sent (and forgotten)
            for late in (_Outbox(2), _Outbox(None)):
                match.subscribe(late, match.seq)
                assert late.prompts == [_afresh(match, late.seat)]
                match.unsubscribe(late)
        match.play_bots(storage)
    for box in boxes:
        for data in box.prompts:
            prompt = from_data({**data}, "prompt")
            assert isinstance(prompt, Prompt)
            check_prompt(prompt)  # the labels are prompt_labels' of its view and actions
            sent += 1
    assert boxes[0].prompts == boxes[2].prompts
    assert sent > 400


def test_labels_kept_for_every_match_are_those_of_each_prompt_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """The labels are kept once per process, for every match: matches of other themes, seat counts and seats
    must each get their own, also after the store was forgotten (made tiny here, so that it is, often)."""
    monkeypatch.setattr(match_module, "_LABELS", {})
    monkeypatch.setattr(match_module, "_MOST_LABELS", 40)
    storage = SQLiteStorage(":memory:")
    settings = [(3, "steam-noir", 3), (4, "dark-empire", 5), (5, "steam-noir", 8), (3, "dark-empire", 3)]
    matches = []
    for k, (players, theme, seed) in enumerate(settings):
        stored = StoredMatch(f"m{k}", players, theme, seed, (None,) * players, 0.0)
        storage.create_match(stored)
        matches.append(Match(stored))
    compared = 0
    while not all(match.is_over for match in matches):
        for match in matches:  # interleaved: each match's prompts are made between the others'
            if match.is_over:
                continue
            for seat in range(match.stored.players):
                prompt = match.prompt(seat)
                assert prompt.labels == prompt_labels(prompt.view, prompt.legal_actions, match.theme)
                compared += len(prompt.labels)
            seat = min(engine.awaited_seats(match.state))
            match.accept(seat, engine.legal_actions(match.state, seat)[match.seq % 3 - 1], storage)
    assert compared > 5000


def _offered(kind: type[Action]) -> tuple[PlayerView, Action]:
    """A view of a seat offered an action of ``kind``, and that action."""
    for seed in range(1, 50):
        state = engine.deal(GameConfig(players=3), seed)
        while not state.is_over:
            for seat in sorted(engine.awaited_seats(state)):
                for action in engine.legal_actions(state, seat):
                    if isinstance(action, kind):
                        return player_view(state, seat), action
            seat = min(engine.awaited_seats(state))
            state = engine.apply(state, seat, engine.legal_actions(state, seat)[0])
    raise AssertionError(f"no game offered a {kind.__name__}")


def _views_around(view: PlayerView, action: Action) -> list[PlayerView]:
    """``view`` as other seats of games of 3 to 5 seats would see it, and, for a reinforcement, with its
    target on the table owned by each seat and on either side."""
    views = [attrs.evolve(view, seat=seat, players=players) for players in (3, 4, 5) for seat in range(players)]
    if not isinstance(action, Reinforce):
        return views
    assert view.table is not None
    play = view.table.play_of(action.target)
    assert play is not None
    tables = []
    for seat in range(view.players):
        for side in Side:
            plays = tuple(attrs.evolve(p, seat=seat, side=side) if p == play else p for p in view.table.plays)
            tables.append(attrs.evolve(view.table, plays=plays))
    return [attrs.evolve(v, table=table) for v in views for table in tables]


@pytest.mark.parametrize("kind", [PassCards, Reinforce])
def test_a_kept_label_is_only_shown_in_a_view_that_would_make_it(kind: type[Action]) -> None:
    """The same action has other labels for another seat (a pass names the next seat, a reinforcement whose
    card it goes to), in a game of another size (who is next), in another theme, and, for a reinforcement,
    with its target owned by another seat or on the other side: each must be made for its view, not taken
    from another match's."""
    view, action = _offered(kind)
    labels = set()
    for theme in Theme:
        for other in _views_around(view, action):
            label = match_module._label(action, theme, other)
            assert label == action_label(action, theme, other)
            labels.add(label)
    assert len(labels) >= 2 * 5  # the themes, and the seats (or owners) named
