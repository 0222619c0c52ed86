"""Games for the embedding tests (events, serialization, records, history): random legal play, every state kept."""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator
from typing import cast

import attrs
from hypothesis import strategies as st

from darkempire.rules import engine
from darkempire.rules.actions import Action
from darkempire.rules.cards import EmperorCard, HandCard
from darkempire.history import History
from darkempire.rules.state import GameConfig, GameState


def random_history(players: int, seed: int, *, choices: int | None = None, choice_seed: int | None = None) -> History:
    """A game dealt with ``seed`` and played with uniformly random legal choices, the lowest awaited seat first.

    :param choices: stop after this many choices (``None``: play to the end).
    :param choice_seed: seeds the choices (default: ``seed``).
    """
    rng = random.Random(seed if choice_seed is None else choice_seed)
    history = History.start(GameConfig(players=players), seed)
    while not history.current.is_over and (choices is None or len(history.choices) < choices):
        state = history.current
        seat = min(engine.awaited_seats(state))
        history = history.apply(seat, rng.choice(engine.legal_actions(state, seat)))
    return history


@functools.cache
def finished_game(players: int, seed: int) -> History:
    """A whole random game, cached: tests share it and never change it (histories are values)."""
    return random_history(players, seed)


def steps(history: History) -> Iterator[tuple[GameState, int, Action, GameState]]:
    """``(before, seat, action, after)`` for every choice of ``history``."""
    for index, choice in enumerate(history.choices):
        yield history.states[index], choice.seat, choice.action, history.states[index + 1]


@st.composite
def game_states(draw: st.DrawFn) -> GameState:
    """A state of a random game: any player count, any point of the game, often with pending choices."""
    players = draw(st.integers(3, 5))
    game = finished_game(players, draw(st.integers(0, 7)))
    return game.states[draw(st.integers(0, len(game.states) - 1))]


def hand_cards_in(value: object) -> set[HandCard]:
    """Every hand card mentioned anywhere inside ``value`` (attrs values, tuples, sets)."""
    found: set[HandCard] = set()
    _walk(value, found, set())
    return found


def emperor_cards_in(value: object) -> set[EmperorCard]:
    """Every emperor card mentioned anywhere inside ``value``."""
    found: set[EmperorCard] = set()
    _walk(value, set(), found)
    return found


def _walk(value: object, hands: set[HandCard], emperors: set[EmperorCard]) -> None:
    if isinstance(value, HandCard):
        hands.add(value)
    elif isinstance(value, EmperorCard):
        emperors.add(value)
    elif isinstance(value, (tuple, list, frozenset, set)):
        for item in value:
            _walk(item, hands, emperors)
    elif attrs.has(type(value)):
        for field in attrs.fields(cast("type[attrs.AttrsInstance]", type(value))):
            _walk(getattr(value, field.name), hands, emperors)
