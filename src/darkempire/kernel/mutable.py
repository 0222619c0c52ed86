"""The mutable table: :class:`Table`, one game of Dark Empire held as lists of small ints (spec sections 2-9).

The reference engine (:mod:`darkempire.rules.engine`) builds a new immutable
:class:`~darkempire.rules.state.GameState` at every choice; the kernel changes one object in place. Its
fields are the state's fields in the encoding of :mod:`darkempire.kernel.encoding`:

* ``hands[s]``: seat ``s``'s card ids, sorted (so its reinforcement cards, ids 65-74, come last);
* ``draw[draw_top:]``: the draw pile, top card first (a draw moves ``draw_top`` on instead of copying);
* ``discard``: the discard pile, most recent last (its order decides the next reshuffle, rule 6.4);
* ``plays``: this week's table, in reveal order, each play a tuple ``(seat, card, side, step, reinforcements)``
  with ``reinforcements`` a tuple of ``(card, seat, step)``; ``table_revolution`` and ``table_emperor``
  the week's revolution faction and emperor card id (``-1``: none, or scored); ``traitor[s]`` whether seat
  ``s`` made its traitor play this week (rule 4.4);
* ``pending[s]``: the index, in the seat's legal-action listing, of its hidden choice (``-1``: none);
  ``awaiting``: the seats still to choose in this step, in seat order; ``counts[s]``: how many legal
  actions seat ``s`` has in this step, pending choices ignored, counted once when the step begins;
* ``history``: one :class:`Record` per finished week, the table as scored; the reference's
  :class:`~darkempire.rules.state.WeekRecord` of each is built only by a snapshot
  (:func:`darkempire.kernel.convert.snapshot`).

An action is named by its index in the reference's :func:`~darkempire.rules.engine.legal_actions` listing
for that seat, and chance is the reference's: the same Mersenne Twister shuffles, numbered the same way, of
lists of the same length, so a shuffle of card ids is the same permutation as the reference's shuffle of
cards. The steps live in :mod:`~darkempire.kernel.listing` (legal actions), :mod:`~darkempire.kernel.steps`
(resolving a step) and :mod:`~darkempire.kernel.tally`; :mod:`~darkempire.kernel.convert` turns a
:class:`~darkempire.rules.state.GameState` into a kernel and back.
"""

from __future__ import annotations

from typing import Final

import attrs
from mypy_extensions import mypyc_attr

from darkempire.rules.scoring import MonthScore, Verdict
from darkempire.rules.state import WeekRecord

__all__ = ["FIELDS", "Play", "Record", "Table"]

#: A play on the kernel's table: ``(seat, card id, side code, step, ((card id, seat, step), ...))``.
Play = tuple[int, int, int, int, tuple[tuple[int, int, int], ...]]


@attrs.define(slots=True)
class Record:
    """A finished week as the kernel keeps it (the reference's :class:`~darkempire.rules.state.WeekRecord`).

    :ivar month: 1-3.
    :ivar week: 1-4.
    :ivar plays: the table's plays as scored.
    :ivar revolution: the week's revolution faction.
    :ivar emperor: the week's emperor card id, or ``-1``.
    :ivar idle: the ``(step, seat)`` pairs of seats that played nothing (ruling H).
    :ivar placed: the faction cards placed, ``(card, seat, month, week)`` each.
    :ivar built: the reference record, once :func:`~darkempire.kernel.convert.snapshot` built it (``None`` until then, and
        again whenever ``placed`` changes).
    """

    month: int
    week: int
    plays: tuple[Play, ...]
    revolution: int
    emperor: int
    idle: tuple[tuple[int, int], ...]
    placed: tuple[tuple[int, int, int, int], ...] = ()
    built: WeekRecord | None = None


#: The names of :class:`Table`'s fields (a compiled class has no ``__slots__`` to read them from).
FIELDS: Final[tuple[str, ...]] = (
    "add_on", "awaiting", "banked", "counts", "discard", "draw", "draw_top", "draws", "emperor_pile",
    "emperor_reserve", "emperor_track", "faction_track", "has_table", "hands", "history", "idle",
    "month", "month_scores", "month_tokens", "n", "pending", "phase", "placements", "plays",
    "revolution_pile", "revolution_reserve", "revealed", "scored", "seed", "support", "table_emperor",
    "table_revolution", "traitor", "used", "verdict", "victors", "week",
)  # fmt: skip


# mypyc makes Table a native class (fast field reads in the compiled kernel); Kernel, not compiled, extends it.
@mypyc_attr(allow_interpreted_subclasses=True)
class Table:
    """The mutable state of one game: the fields below, in the encoding of :mod:`darkempire.kernel.encoding`.

    Only data: :class:`darkempire.kernel.interface.Kernel` adds the methods, and the kernel's modules act on
    a table through plain functions. Code outside the kernel should treat the fields as read-only, or the
    next snapshot is no game.
    """

    __slots__ = FIELDS

    #: The number of seats, 3-5.
    n: int
    #: The add-on card's value: 0 (3 players), 5 or 10 (rule 2.2).
    add_on: int
    #: The phase's code, its position in :data:`darkempire.kernel.encoding.PHASES`.
    phase: int
    #: 1-3.
    month: int
    #: 1-4 during a month's weeks; 0 before its first.
    week: int
    #: Each seat's card ids, sorted: its reinforcement cards (65-74) last.
    hands: list[list[int]]
    #: The draw pile from :attr:`draw_top` on, top card first.
    draw: list[int]
    #: Where the draw pile starts in :attr:`draw`: a draw moves it on instead of copying the list.
    draw_top: int
    #: The discard pile, most recent last: its order decides the next reshuffle (rule 6.4).
    discard: list[int]
    #: Each seat's victor faction.
    victors: list[int]
    #: Each seat's support faction this month, ``-1`` until chosen.
    support: list[int]
    #: Each seat's support cards of earlier months, a bit mask of factions.
    used: list[int]
    #: This month's revolution pile, factions, top first.
    revolution_pile: list[int]
    #: The revolution cards laid aside this month.
    revolution_reserve: list[int]
    #: This month's emperor pile, card ids, top first.
    emperor_pile: list[int]
    #: The unscored emperor cards out of this month's pile.
    emperor_reserve: list[int]
    #: Whether there is a week's table (the reference's ``table`` is not ``None``).
    has_table: bool
    #: The week's revolution faction.
    table_revolution: int
    #: The week's emperor card id; ``-1`` when there is none, or once it is scored.
    table_emperor: int
    #: The week's plays in reveal order (:data:`Play`).
    plays: list[Play]
    #: The ``(step, seat)`` pairs of seats that played nothing this week (ruling H).
    idle: list[tuple[int, int]]
    #: How many play steps of the week have been revealed.
    revealed: int
    #: Whether each seat made its traitor play this week (rule 4.4).
    traitor: list[bool]
    #: Whether the week is scored (the reference's ``week_score`` is not ``None``).
    scored: bool
    #: The placements due, ``(seat, faction, candidate card ids)``, in seat and faction order.
    placements: list[tuple[int, int, tuple[int, ...]]]
    #: The faction cards placed, ``(card, seat, month, week)``, in the order placed.
    faction_track: list[tuple[int, int, int, int]]
    #: The emperor cards placed, ``(card, month, week)``, in the order placed.
    emperor_track: list[tuple[int, int, int]]
    #: Each seat's tokens won this month.
    month_tokens: list[int]
    #: Each seat's banked tokens.
    banked: list[int]
    #: Each seat's hidden choice, an index into its listing; ``-1`` for none.
    pending: list[int]
    #: The seats the step still waits for, in seat order.
    awaiting: list[int]
    #: Each seat's number of actions in this step, pending choices ignored, counted when the step began.
    counts: list[int]
    #: The finished weeks.
    history: list[Record]
    #: The finished monthly scorings, the reference's values.
    month_scores: list[MonthScore]
    #: The verdict once the game is over, the reference's value.
    verdict: Verdict | None
    #: The game's seed.
    seed: int
    #: How many shuffles the game has made (the reference's ``chance.draws``).
    draws: int
