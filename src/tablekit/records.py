"""Records: a whole game as its config, seed and every choice, and the one :func:`replay` everyone uses.

Because every game on the kit is deterministic given its seed (:class:`~tablekit.chance.SeededChance`), a
:class:`Record` is all it takes to rebuild a game: the game's name and format version, the config, the seed,
and each seat's choice in the order it was made. :func:`replay` re-runs a record through the rules and yields
each step's :class:`~tablekit.game.Transition`, the set-up's first; every state, event and chance draw of the
game is in them, so logs, histories, checks and adapters are all built on this one loop,
:func:`replay_choices`, which a game with its own collector calls with its own one-choice step.

A :class:`Record` holds the seed, which decides every hidden card: it is for the game's owner (a server, a
solo player after the game). What may be shown to anyone is a :class:`PublicRecord`, a separate type with no
seed and no hidden choices: the config and the spectator's events (:func:`public_record`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Final, Generic, TypeVar

import attrs

from tablekit._typevars import A, C, E, S, V
from tablekit.chance import SeededChance
from tablekit.errors import IllegalChoiceError, KitError
from tablekit.events import events_for
from tablekit.game import Game, Transition
from tablekit.simultaneous import Collected, Round, choose, start
from tablekit.wire import quote

__all__ = [
    "ACTION_QUOTE_LIMIT",
    "Choice",
    "DivergentChoiceError",
    "PublicRecord",
    "Record",
    "RecordError",
    "WrongGameError",
    "public_record",
    "replay",
    "replay_choices",
    "resume",
]

R = TypeVar("R")

#: A divergent action is quoted in the error's message cut to this many characters: enough for any action of
#: the games on the kit (Dark Empire's largest, a re-organize of a full hand, is about 600), not for an
#: action that a hostile record made huge.
ACTION_QUOTE_LIMIT: Final = 1000


@attrs.frozen
class Choice(Generic[A]):
    """One decision: ``seat`` chose ``action``.

    :ivar seat: the seat.
    :ivar action: its action.
    """

    seat: int
    action: A


def _choice(item: Choice[A] | tuple[int, A]) -> Choice[A]:
    """``item`` as a :class:`Choice`; a ``(seat, action)`` pair is one, anything else a :class:`RecordError`."""
    if isinstance(item, Choice):
        return item
    if isinstance(item, (str, bytes)) or not (isinstance(item, Sequence) and len(item) == 2):
        raise RecordError(f"a recorded choice is a Choice or a (seat, action) pair, not {quote(item, 40)}")
    return Choice(item[0], item[1])


def _choices(value: Sequence[Choice[A] | tuple[int, A]]) -> tuple[Choice[A], ...]:
    if not isinstance(value, Iterable) or isinstance(value, (str, bytes)):
        raise RecordError(f"a record's choices are a sequence of choices, not {type(value).__name__}")
    return tuple(map(_choice, value))


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
    """A recorded choice that the rules refuse when it is replayed (or, for a game that checks more, that
    leads elsewhere than recorded).

    :ivar index: the choice's position in ``Record.choices``, from 0.
    :ivar seat: its seat.
    :ivar action: its action.
    :ivar reason: the refusal, as the rules gave it.
    """

    index: int
    seat: int
    action: object
    reason: str

    def __init__(self, index: int, seat: int, action: object, reason: str) -> None:
        super().__init__(f"choice {index} (seat {seat}, {quote(action, ACTION_QUOTE_LIMIT)}) diverges: {reason}")
        self.index = index
        self.seat = seat
        self.action = action
        self.reason = reason


def replay_choices(
    start: R,
    choices: Iterable[Choice[A] | tuple[int, A]],
    apply: Callable[[R, int, A], R],
    *,
    divergence: type[DivergentChoiceError] = DivergentChoiceError,
) -> Iterator[tuple[int, Choice[A], R]]:
    """The one replay loop: fold ``choices`` over ``start`` with ``apply``, yielding after each choice.

    Every replay of the kit is this loop (:func:`replay`, :func:`resume`, :func:`public_record`), and so is
    every replay of a game that keeps its own collector (Dark Empire's legacy engine, whose state holds the
    pending choices): ``apply(before, seat, action)`` is the game's one-choice step, and ``R`` what it returns
    (a round, a state, a state with its events).

    :param start: the game before the first choice.
    :param choices: the choices in order, :class:`Choice` values or ``(seat, action)`` pairs; read lazily, so
        an iterable that checks its items as it goes stops the replay at a bad one.
    :param apply: one choice: the result after ``seat`` chose ``action``; raises an
        :class:`~tablekit.errors.IllegalChoiceError` if the rules refuse it.
    :param divergence: the error raised for a refused choice: a game passes its own subclass.
    :returns: ``(index, choice, after)`` for each choice, in order.
    :raises DivergentChoiceError: (``divergence``) at the first choice ``apply`` refuses, with the refusal as
        its cause.
    """
    current = start
    for index, choice in enumerate(map(_choice, choices)):
        try:
            current = apply(current, choice.seat, choice.action)
        except IllegalChoiceError as error:
            raise divergence(index, choice.seat, choice.action, str(error)) from error
        yield index, choice, current


def _rounds(
    game: Game[C, S, A, V, E], record: Record[C, A]
) -> Iterator[tuple[Round[S, A], Transition[S, E] | None]]:
    """The opening, then the round after each choice with the step's transition if it resolved."""
    if (record.game, record.version) != (game.name, game.version):
        raise WrongGameError(
            f"a record of {record.game}/{record.version} cannot replay as {game.name}/{game.version}"
        )
    round, opening = start(game, record.config, SeededChance(record.seed))
    yield round, opening

    def collect(before: Collected[S, A, E], seat: int, action: A) -> Collected[S, A, E]:
        return choose(game, before.round, seat, action)

    first: Collected[S, A, E] = Collected(round, ())
    for _, _, collected in replay_choices(first, record.choices, collect):
        yield collected.round, collected.transition


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
