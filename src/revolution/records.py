"""Records of *Revolution!*: a game as its config and every choice, saved as JSON and replayed through the kit.

A record is the kit's :class:`tablekit.records.Record` (:data:`RevolutionRecord`): the game's name and format
version, the config, a seed and every choice in order. The game has no chance, so the seed changes nothing; it
is kept because the kit's records carry one (a table's record, :func:`table_record`, uses 0). The rules are
deterministic, so replaying the choices through the kit's one replay (:func:`tablekit.records.replay`)
rebuilds every state and event of the game (rule 9.4).

Records travel as ``revolution/1`` JSON (:mod:`revolution.wire`), read strictly by :func:`load_record`.
A record holds every bid, so a record of a game in progress shows bids not yet revealed: keep it on the server
until the round's reveal, and show others :func:`tablekit.records.public_record`.

>>> from tablekit.bots import RandomBot
>>> record = record_game(RevolutionConfig(players=3), 5, [RandomBot(seat) for seat in range(3)])
>>> replay_record(load_record(save_record(record))).state.is_over
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeAlias

import attrs

from revolution.rules.actions import Action
from revolution.rules.events import RevolutionEvent
from revolution.rules.game import GAME
from revolution.rules.state import RevolutionConfig, RevolutionState
from revolution.rules.views import RevolutionView
from revolution.wire import record_from_json, to_json
from tablekit.bots import Bot, run_game
from tablekit.events import Event
from tablekit.records import Choice, Record, replay, resume
from tablekit.wire import DEFAULT_MAX_BYTES

__all__ = ["ReplayedGame", "RevolutionRecord", "load_record", "record_game", "replay_record", "save_record",
           "table_record"]

#: A record of a game of *Revolution!*.
RevolutionRecord: TypeAlias = Record[RevolutionConfig, Action]


@attrs.frozen
class ReplayedGame:
    """What replaying a record gives.

    :ivar state: the state after the last choice that completed a step (the final state of a whole game).
    :ivar events: every event of every step, the set-up's first.
    :ivar pending: the choices at the end of the record that do not complete a step yet (bids of a Bidding
        still open), by seat; empty for a whole game.
    """

    state: RevolutionState
    events: tuple[Event[RevolutionEvent], ...]
    pending: tuple[tuple[int, Action], ...]


def record_game(config: RevolutionConfig, seed: int, bots: Sequence[Bot[RevolutionView, Action]]) -> RevolutionRecord:
    """Play a whole game between ``bots`` (one per seat) with the kit's driver and return its record."""
    return run_game(GAME, config, seed, bots).record


def table_record(config: RevolutionConfig, choices: Iterable[tuple[int, Action]]) -> RevolutionRecord:
    """The record of a game played at a real table: ``(seat, action)`` in the order they were made (a round's
    bids in any seat order), seed 0. Use ``table_mode=True`` in the config to count illegal bids as the table
    counted them (rule 4.5)."""
    return Record(GAME.name, GAME.version, config, 0, tuple(Choice(seat, action) for seat, action in choices))


def save_record(record: RevolutionRecord, *, indent: int | None = None) -> str:
    """``record`` as the JSON text of a ``revolution/1`` record message."""
    return to_json(record, indent=indent)


def load_record(text: str | bytes, *, max_bytes: int = DEFAULT_MAX_BYTES) -> RevolutionRecord:
    """A record read strictly from its JSON text (:func:`revolution.wire.record_from_json`).

    :raises tablekit.wire.WireError: the text is not a valid record message; whether it replays is
        :func:`replay_record`'s check.
    """
    return record_from_json(text, max_bytes=max_bytes)


def replay_record(record: RevolutionRecord) -> ReplayedGame:
    """Replay ``record`` through the kit's one replay (rule 9.4).

    :raises tablekit.records.WrongGameError: the record is of another game or version.
    :raises tablekit.records.DivergentChoiceError: a choice the rules refuse, naming its index, seat and the
        rule broken.
    """
    events: list[Event[RevolutionEvent]] = []
    state: RevolutionState | None = None
    for transition in replay(GAME, record):
        events.extend(transition.events)
        state = transition.state
    assert state is not None  # the replay always yields the set-up
    return ReplayedGame(state, tuple(events), resume(GAME, record).pending)
