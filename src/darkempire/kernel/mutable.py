"""The mutable table: :class:`Kernel`, one game of Dark Empire held as lists of small ints (spec sections 2-9).

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
  :class:`~darkempire.rules.state.WeekRecord` of each is built only by :meth:`Kernel.snapshot`.

An action is named by its index in the reference's :func:`~darkempire.rules.engine.legal_actions` listing
for that seat, and chance is the reference's: the same Mersenne Twister shuffles, numbered the same way, of
lists of the same length, so a shuffle of card ids is the same permutation as the reference's shuffle of
cards. The steps live in :mod:`~darkempire.kernel.listing` (legal actions), :mod:`~darkempire.kernel.steps`
(resolving a step) and :mod:`~darkempire.kernel.tally`; :mod:`~darkempire.kernel.convert` turns a
:class:`~darkempire.rules.state.GameState` into a kernel and back.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import attrs

from darkempire.kernel import encoding as enc
from darkempire.kernel import listing, steps
from darkempire.rules.actions import Action
from darkempire.rules.errors import WrongPhaseError, WrongSeatError
from darkempire.rules.scoring import MonthScore, Verdict
from darkempire.rules.state import GameState, Phase, WeekRecord

__all__ = ["Kernel", "KernelIndexError", "Play", "Record"]

#: A play on the kernel's table: ``(seat, card id, side code, step, ((card id, seat, step), ...))``.
Play = tuple[int, int, int, int, tuple[tuple[int, int, int], ...]]


class KernelIndexError(WrongSeatError):
    """An action index out of a seat's listing, or a seat the step does not await (rule 9.2)."""


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
    :ivar built: the reference record, once :meth:`Kernel.snapshot` built it (``None`` until then, and
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


class Kernel:
    """One game, mutable and integer-encoded, that plays exactly as the reference engine.

    Build one with :meth:`from_state` (or :func:`darkempire.kernel.dealing.deal`); read it back with
    :meth:`snapshot`, which equals the reference state at every step. The public methods:

    * :meth:`awaited`: the seats the step still waits for (:func:`~darkempire.rules.engine.awaited_seats`);
    * :meth:`action_count` and :meth:`action`: a seat's legal actions, counted and built one by index, in
      the order of :func:`~darkempire.rules.engine.legal_actions`;
    * :meth:`apply_index` (one seat, as :func:`~darkempire.rules.engine.apply`) and :meth:`apply_joint`
      (every awaited seat at once, as :func:`~darkempire.rules.engine.step`);
    * :meth:`playout`: random choices to the end of the game (:mod:`darkempire.kernel.playout`);
    * :meth:`is_over`, :meth:`winners`, :meth:`snapshot`.

    The fields are documented in the module docstring. They are public for the kernel's own modules; code
    outside the kernel should treat them as read-only, or the next :meth:`snapshot` is no game.
    """

    __slots__ = (
        "add_on", "awaiting", "banked", "counts", "discard", "draw", "draw_top", "draws", "emperor_pile",
        "emperor_reserve", "emperor_track", "faction_track", "has_table", "hands", "history", "idle",
        "month", "month_scores", "month_tokens", "n", "pending", "phase", "placements", "plays",
        "revolution_pile", "revolution_reserve", "revealed", "scored", "seed", "support", "table_emperor",
        "table_revolution", "traitor", "used", "verdict", "victors", "week",
    )  # fmt: skip

    n: int
    add_on: int
    phase: int
    month: int
    week: int
    hands: list[list[int]]
    draw: list[int]
    draw_top: int
    discard: list[int]
    victors: list[int]
    support: list[int]
    used: list[int]
    revolution_pile: list[int]
    revolution_reserve: list[int]
    emperor_pile: list[int]
    emperor_reserve: list[int]
    has_table: bool
    table_revolution: int
    table_emperor: int
    plays: list[Play]
    idle: list[tuple[int, int]]
    revealed: int
    traitor: list[bool]
    scored: bool
    placements: list[tuple[int, int, tuple[int, ...]]]
    faction_track: list[tuple[int, int, int, int]]
    emperor_track: list[tuple[int, int, int]]
    month_tokens: list[int]
    banked: list[int]
    pending: list[int]
    awaiting: list[int]
    counts: list[int]
    history: list[Record]
    month_scores: list[MonthScore]
    verdict: Verdict | None
    seed: int
    draws: int

    # ------------------------------------------------------------------ building and reading back

    @classmethod
    def from_state(cls, state: GameState) -> Kernel:
        """A kernel at the moment ``state`` is (:func:`darkempire.kernel.convert.from_state`).

        :raises ~darkempire.rules.errors.InvalidArgumentError: ``state`` is no
            :class:`~darkempire.rules.state.GameState`, or sits in an automatic phase
            (weekly or monthly scoring), which no transition of the reference leaves a state in.
        """
        from darkempire.kernel import convert

        return convert.from_state(state)

    def snapshot(self) -> GameState:
        """The reference :class:`~darkempire.rules.state.GameState` of this moment
        (:func:`darkempire.kernel.convert.snapshot`)."""
        from darkempire.kernel import convert

        return convert.snapshot(self)

    def copy(self) -> Kernel:
        """An independent copy: every list copied, the immutable tuples and records shared."""
        other = Kernel.__new__(Kernel)
        for name in Kernel.__slots__:
            value = getattr(self, name)
            if type(value) is list:
                value = [list(v) if type(v) is list else v for v in value]
            setattr(other, name, value)
        other.history = [attrs.evolve(r) for r in self.history]
        return other

    # ------------------------------------------------------------------ questions

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.n

    @property
    def game_phase(self) -> Phase:
        """The current phase, as the reference's enum."""
        return enc.PHASES[self.phase]

    def awaited(self) -> frozenset[int]:
        """The seats whose choice the step still waits for, as :func:`~darkempire.rules.engine.awaited_seats`."""
        return frozenset(self.awaiting)

    def is_over(self) -> bool:
        """Whether the game has ended (the verdict is in)."""
        return self.phase == enc.GAME_OVER

    def winners(self) -> frozenset[int]:
        """The winning seats once the game is over (rules 8.2-8.5); empty before."""
        if self.phase != enc.GAME_OVER:
            return frozenset()
        return steps.winning_seats(self)

    def action_count(self, seat: int) -> int:
        """How many legal actions ``seat`` has now: ``len(legal_actions(state, seat))`` of the reference,
        0 unless the seat is awaited (or, at a play step, holds a card and has not chosen)."""
        self._check_seat(seat)
        return listing.legal_count(self, seat)

    def action(self, seat: int, index: int) -> Action:
        """Legal action ``index`` of ``seat``, the reference's ``legal_actions(state, seat)[index]``.

        :raises KernelIndexError: ``index`` is not in ``0 .. action_count(seat) - 1``.
        """
        self._check_index(seat, index)
        return listing.build_action(self, seat, index)

    def actions(self, seat: int) -> tuple[Action, ...]:
        """Every legal action of ``seat``, built (up to 512 at a re-organize: for tests and tools)."""
        return tuple(self.action(seat, i) for i in range(self.action_count(seat)))

    # ------------------------------------------------------------------ choosing

    def apply_index(self, seat: int, index: int) -> None:
        """``seat`` chooses its legal action ``index``; the step resolves, and every automatic step after it
        runs, once every awaited seat has chosen (:func:`~darkempire.rules.engine.apply`).

        :raises KernelIndexError: the seat is not awaited, or ``index`` is out of its listing.
        """
        self._check_index(seat, index)
        if seat not in self.awaiting:
            raise KernelIndexError(f"seat {seat} has no choice to make in this step", rule="9.2")
        self.pending[seat] = index
        self.awaiting.remove(seat)
        if not self.awaiting:
            steps.resolve(self)

    def apply_joint(self, choices: Mapping[int, int]) -> None:
        """Every awaited seat's choice at once, ``{seat: index}``, as :func:`~darkempire.rules.engine.step`.

        :raises KernelIndexError: a seat is not awaited, an index is out of its listing, or an awaited
            seat is missing.
        """
        missing = sorted(set(self.awaiting) - set(choices))
        if missing:
            raise KernelIndexError(f"the choices of seats {missing} are missing", rule="9.2")
        for seat in sorted(choices):
            self.apply_index(seat, choices[seat])

    def apply_action(self, seat: int, action: Action) -> None:
        """``seat`` chooses ``action``, found in its listing by equality (slow: for tests and tools).

        :raises KernelIndexError: ``action`` is not among the seat's legal actions.
        """
        for index in range(self.action_count(seat)):
            if listing.build_action(self, seat, index) == action:
                self.apply_index(seat, index)
                return
        raise KernelIndexError(f"{action!r} is not a legal action of seat {seat} now", rule="9.2")

    def playout(self, rng: random.Random | Sequence[random.Random]) -> int:
        """Play to the end with uniformly random choices (:func:`darkempire.kernel.playout.playout`); the
        number of decisions made."""
        from darkempire.kernel import playout

        return playout.playout(self, rng)

    # ------------------------------------------------------------------ checks

    def _check_seat(self, seat: int) -> None:
        if type(seat) is not int or not 0 <= seat < self.n:
            raise KernelIndexError(f"there is no seat {seat!r} in a {self.n}-player game", rule="9.1")

    def _check_index(self, seat: int, index: int) -> None:
        self._check_seat(seat)
        if self.phase == enc.GAME_OVER:
            raise WrongPhaseError("the game is over: no seat chooses", rule="9.1")
        count = listing.legal_count(self, seat)
        if type(index) is not int or not 0 <= index < count:
            raise KernelIndexError(
                f"action index {index!r} is not in seat {seat}'s {count} legal actions", rule="9.2"
            )
