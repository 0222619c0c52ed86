"""Records: a whole game as its config, seed and every choice, and the one :func:`replay` everyone uses.

Because every game on the kit is deterministic given its seed (:class:`~tablekit.chance.SeededChance`), a
:class:`Record` is all it takes to rebuild a game: the game's name and format version, the config, the seed,
and each seat's choice in the order it was made. :func:`replay` re-runs a record through the rules and yields
each step's :class:`~tablekit.game.Transition`, the set-up's first; every state, event and chance draw of the
game is in them, so logs, histories, checks and adapters are all built on this one loop.

A :class:`Record` holds the seed, which decides every hidden card: it is for the game's owner (a server, a
solo player after the game). What may be shown to anyone is a :class:`PublicRecord`, a separate type with no
seed and no hidden choices: the config and the spectator's events (:func:`public_record`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Generic, TypeVar

import attrs

from tablekit.chance import SeededChance
from tablekit.errors import IllegalChoiceError, KitError
from tablekit.events import events_for
from tablekit.game import Game, Transition
from tablekit.simultaneous import Round, choose, start

__all__ = [
    "Choice",
    "DivergentChoiceError",
    "PublicRecord",
    "Record",
    "RecordError",
    "WrongGameError",
    "public_record",
    "replay",
    "resume",
]

A = TypeVar("A")
C = TypeVar("C")
E = TypeVar("E")
S = TypeVar("S")
V = TypeVar("V")


@attrs.frozen
class Choice(Generic[A]):
    """One decision: ``seat`` chose ``action``.

    :ivar seat: the seat.
    :ivar action: its action.
    """

    seat: int
    action: A


def _choices(value: Sequence[Choice[A] | tuple[int, A]]) -> tuple[Choice[A], ...]:
    return tuple(item if isinstance(item, Choice) else Choice(item[0], item[1]) for item in value)


@attrs.frozen
class Record(Generic[C, A]):
    """A whole game, or its beginning: enough to replay it.

    :ivar game: the game's name (:attr:`tablekit.game.Game.name`).
    :ivar version: the game's format version when the record was made.
    :ivar config: the game's config.
    :ivar seed: the seed of its :class:`~tablekit.chance.SeededChance`.
    :ivar choices: every choice in the order it was made; ``(seat, action)`` pairs are accepted.
    """

    game: str
    version: int
    config: C
    seed: int
    choices: tuple[Choice[A], ...] = attrs.field(default=(), converter=_choices)


@attrs.frozen
class PublicRecord(Generic[C, E]):
    """What anyone may keep of a game: no seed, no hidden choice, only what a spectator saw.

    :ivar game: the game's name.
    :ivar version: the game's format version.
    :ivar config: the game's config.
    :ivar events: the spectator's view of every event, in order (:func:`~tablekit.events.events_for` with
        ``None``).
    """

    game: str
    version: int
    config: C
    events: tuple[E, ...]


class RecordError(KitError, ValueError):
    """A record that does not replay."""


class WrongGameError(RecordError):
    """A record of another game, or of another format version of this game."""


class DivergentChoiceError(RecordError):
    """A recorded choice that the rules refuse when it is replayed.

    :ivar index: the choice's position in :attr:`Record.choices`, from 0.
    :ivar seat: its seat.
    :ivar reason: the refusal, as the rules gave it.
    """

    index: int
    seat: int
    reason: str

    def __init__(self, index: int, seat: int, reason: str) -> None:
        super().__init__(f"choice {index} (seat {seat}) does not replay: {reason}")
        self.index = index
        self.seat = seat
        self.reason = reason


def _rounds(
    game: Game[C, S, A, V, E], record: Record[C, A]
) -> Iterator[tuple[Round[S, A], Transition[S, E] | None]]:
    """The replay loop: the opening, then the round after each choice with the step's transition if it resolved."""
    if (record.game, record.version) != (game.name, game.version):
        raise WrongGameError(
            f"a record of {record.game}/{record.version} cannot replay as {game.name}/{game.version}"
        )
    round, opening = start(game, record.config, SeededChance(record.seed))
    yield round, opening
    for index, choice in enumerate(record.choices):
        try:
            collected = choose(game, round, choice.seat, choice.action)
        except IllegalChoiceError as error:
            raise DivergentChoiceError(index, choice.seat, str(error)) from error
        round = collected.round
        yield round, collected.transition


def replay(game: Game[C, S, A, V, E], record: Record[C, A]) -> Iterator[Transition[S, E]]:
    """Each step's transition of the recorded game: the set-up's, then one per resolved step.

    Choices at the end of a record that do not complete a step are checked but resolve nothing, so they
    yield nothing; :func:`resume` gives the round that holds them.

    :raises WrongGameError: the record is of another game or format version.
    :raises DivergentChoiceError: at the first choice the rules refuse.
    """
    for _, transition in _rounds(game, record):
        if transition is not None:
            yield transition


def resume(game: Game[C, S, A, V, E], record: Record[C, A]) -> Round[S, A]:
    """The round after the record's last choice, its pending choices included: where play continues.

    :raises WrongGameError, DivergentChoiceError: as :func:`replay`.
    """
    last: Round[S, A] | None = None
    for last, _ in _rounds(game, record):
        pass
    assert last is not None  # _rounds always yields the opening
    return last


def public_record(game: Game[C, S, A, V, E], record: Record[C, A]) -> PublicRecord[C, E]:
    """The record as a spectator may see it: the config and the public side of every event.

    :raises WrongGameError, DivergentChoiceError: as :func:`replay`.
    """
    events = tuple(event for transition in replay(game, record) for event in transition.events)
    return PublicRecord(record.game, record.version, record.config, events_for(events, None))
