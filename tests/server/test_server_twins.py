"""What a connection receives is a function of its seat's view alone: whole games on twin deals.

The twins are two deals of one seed that differ only in cards seat 0 never sees: one card that seat 1 is
dealt, keeps and discards in the draft is swapped with one that seat 2 is dealt, keeps and discards. Both
games are played through the real server with the same moves (the discards swapped too), every seat a
WebSocket client, and a spectator watching. Seat 0's bytes and the spectator's must be the same in both;
seat 1's and seat 2's differ (so the comparison can tell).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import pytest
from server_helpers import GameClient, Lobby, Seats, move, serving, settle

from darkempire.bots import RandomBot, iter_game
from darkempire.records import Choice
from darkempire.rules import engine
from darkempire.rules.actions import Action, DiscardCards, PassCards
from darkempire.rules.cards import HandCard
from darkempire.rules.errors import IllegalActionError
from darkempire.rules.events import events_for
from darkempire.rules.state import GameConfig, GameState
from darkempire.rules.views import player_view, spectator_view
from darkempire.serialization import to_data
from darkempire.server.asgi import create_app
from darkempire.server.storage import SQLiteStorage

#: The seeds tried for twins that stay twins all game: the swap changes the order of the draft's discards,
#: and in most games the discard pile is later shuffled into a new draw pile, which then deals other cards.
#: The first seed whose two games seat 0 and a spectator know alike all along is played.
SEEDS = range(1, 200)
CONFIG = GameConfig(players=3)


def _swap_in(cards: Sequence[HandCard], out: HandCard, into: HandCard) -> tuple[HandCard, ...]:
    return tuple(sorted((into if c == out else c for c in cards), key=lambda c: c.id))


def _hidden_pair(choices: Sequence[Choice], start: GameState) -> tuple[HandCard, HandCard]:
    """A card seat 1 is dealt, keeps and discards, and one seat 2 is dealt, keeps and discards."""
    passes = {c.seat: c.action.cards for c in choices if isinstance(c.action, PassCards)}
    discards = {c.seat: c.action.cards for c in choices if isinstance(c.action, DiscardCards)}
    kept = [[c for c in discards[s] if c in start.hands[s] and c not in passes[s]] for s in (1, 2)]
    return kept[0][0], kept[1][0]


def _twins(seed: int) -> tuple[list[Choice], list[Choice], Any] | None:
    """The first game's choices, the twin's, and the twin's dealer; ``None`` if ``seed``'s game has no pair
    of hidden cards to swap, or its twins come apart."""
    first = [Choice(t.seat, t.action) for t in iter_game(CONFIG, seed, [RandomBot(1), RandomBot(2), RandomBot(3)])]
    try:
        x, y = _hidden_pair(first, engine.deal(CONFIG, seed))
    except IndexError:
        return None

    def twin_deal(config: GameConfig, seed: int) -> GameState:
        state = engine.deal(config, seed)
        hands = list(state.hands)
        hands[1], hands[2] = _swap_in(hands[1], x, y), _swap_in(hands[2], y, x)
        return attrs.evolve(state, hands=tuple(hands))

    def swapped(choice: Choice) -> Choice:
        if isinstance(choice.action, DiscardCards) and choice.seat in (1, 2):
            out, into = (x, y) if choice.seat == 1 else (y, x)
            return Choice(choice.seat, DiscardCards(frozenset(_swap_in(sorted(choice.action.cards, key=lambda c: c.id), out, into))))
        return choice

    second = [swapped(c) for c in first]
    one, other = engine.deal(CONFIG, seed), twin_deal(CONFIG, seed)
    try:
        if _seen(one, first, 0) != _seen(other, second, 0) or _seen(one, first, None) != _seen(other, second, None):
            return None
    except IllegalActionError:  # the twin's draws differ: a choice of the first game is no longer legal
        return None
    return first, second, twin_deal


def _seen(state: GameState, choices: Sequence[Choice], seat: int | None) -> list[object]:
    """Everything ``seat`` knows along a game: each view and each choice's events as it sees them."""
    seen: list[object] = []
    for choice in choices:
        transition = engine.apply_reporting(state, choice.seat, choice.action)
        state = transition.state
        seen += [events_for(transition.events, seat), spectator_view(state) if seat is None else player_view(state, seat)]
    return seen


def _payload(action: Action) -> dict[str, Any]:
    data = to_data(action)
    return {k: v for k, v in data.items() if k not in ("format", "type")}


def _play(seed: int, choices: Sequence[Choice], dealer: Any) -> dict[int | None, bytes]:
    """Play ``choices`` through a fresh server: the bytes each seat's connection and a spectator's received."""
    with serving(create_app(SQLiteStorage(":memory:"), dealer=dealer, seeds=lambda: seed, rate=1e4, burst=10**4)) as url:
        lobby = Lobby(url)
        match_id = lobby.create(3)
        seats: Seats = {}
        for seat in range(3):
            _, credential = lobby.join(match_id, seat)
            client = GameClient(url, match_id)
            client.hello(seat, credential)
            seats[seat] = (client, credential)
        spectator = GameClient(url, match_id)
        spectator.hello()
        for choice in choices:
            move(lobby, match_id, seats, choice.seat, _payload(choice.action), [spectator], bots=False)
        settle(lobby, match_id, [spectator])
        received: dict[int | None, bytes] = {s: b"\n".join(c.frames) for s, (c, _) in seats.items()}
        received[None] = b"\n".join(spectator.frames)
        for client, _ in seats.values():
            client.close()
        spectator.close()
        lobby.close()
    return received


@pytest.mark.spec("9.4")
def test_twin_deals_send_seat_0_and_a_spectator_the_same_bytes_over_a_whole_game() -> None:
    seed, twins = next((s, t) for s in SEEDS if (t := _twins(s)) is not None)
    first, second, twin_deal = twins
    one, other = engine.deal(CONFIG, seed), twin_deal(CONFIG, seed)
    # The twins: the same for seat 0 and a spectator all game long (_twins checked), not for seats 1 and 2.
    assert one.hands[0] == other.hands[0] and one.victors == other.victors and one.hands[1:] != other.hands[1:]
    assert engine.replay(CONFIG, seed, [(c.seat, c.action) for c in first]).is_over
    a, b = _play(seed, first, engine.deal), _play(seed, second, twin_deal)
    assert a[0] == b[0]
    assert a[None] == b[None]
    assert a[1] != b[1] and a[2] != b[2]
