"""The kernel's interface: :class:`Kernel`, the mutable table with the reference engine's questions and moves.

:class:`Kernel` is :class:`~darkempire.kernel.mutable.Table` with methods that ask and act through the
kernel's modules: :mod:`~darkempire.kernel.listing` (legal actions), :mod:`~darkempire.kernel.steps`
(resolving), :mod:`~darkempire.kernel.convert` (to and from the reference's state) and
:mod:`~darkempire.kernel.playout`. :func:`deal` starts a game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import attrs

from darkempire.kernel import convert, dealing, explicit, listing, playout, steps
from darkempire.kernel import encoding as enc
from darkempire.kernel.mutable import FIELDS, Table
from darkempire.rules.actions import Action
from darkempire.rules.errors import InvalidArgumentError, WrongPhaseError, WrongSeatError
from darkempire.rules.state import GameConfig, GameState, Phase

__all__ = ["Kernel", "KernelIndexError", "deal"]


class KernelIndexError(WrongSeatError):
    """An action index out of a seat's listing, or a seat the step does not await (rule 9.2)."""



class Kernel(Table):
    """One game, mutable and integer-encoded, that plays exactly as the reference engine.

    Build one with :meth:`from_state` (or :func:`darkempire.kernel.interface.deal`); read it back with
    :meth:`snapshot`, which equals the reference state at every step. The public methods:

    * :meth:`awaited`: the seats the step still waits for (:func:`~darkempire.rules.engine.awaited_seats`);
    * :meth:`action_count` and :meth:`action`: a seat's legal actions, counted and built one by index, in
      the order of :func:`~darkempire.rules.engine.legal_actions`;
    * :meth:`apply_index` (one seat, as :func:`~darkempire.rules.engine.apply`) and :meth:`apply_joint`
      (every awaited seat at once, as :func:`~darkempire.rules.engine.step`);
    * :meth:`playout`: random choices to the end of the game (:mod:`darkempire.kernel.playout`);
    * :meth:`is_over`, :meth:`winners`, :meth:`snapshot`.

    The fields are :class:`~darkempire.kernel.mutable.Table`'s. They are public for the kernel's own
    modules; code outside the kernel should treat them as read-only, or the next :meth:`snapshot` is no game.
    """

    __slots__ = ()

    # ------------------------------------------------------------------ building and reading back

    @classmethod
    def from_state(cls, state: GameState) -> Kernel:
        """A kernel at the moment ``state`` is (:func:`darkempire.kernel.convert.read_state`).

        :raises ~darkempire.rules.errors.InvalidArgumentError: ``state`` is no
            :class:`~darkempire.rules.state.GameState`, or sits in an automatic phase
            (weekly or monthly scoring), which no transition of the reference leaves a state in.
        """
        kernel = cls.__new__(cls)
        convert.read_state(kernel, state)
        return kernel

    def snapshot(self) -> GameState:
        """The reference :class:`~darkempire.rules.state.GameState` of this moment
        (:func:`darkempire.kernel.convert.snapshot`)."""
        return convert.snapshot(self)

    def __copy__(self) -> Kernel:
        # copy.copy would share the lists, so playing the copy would corrupt this kernel.
        return self.copy()

    def copy(self) -> Kernel:
        """An independent copy: every list copied, the immutable tuples and the finished weeks shared."""
        other = type(self).__new__(type(self))
        for name in FIELDS:
            value = getattr(self, name)
            if type(value) is list:
                value = [list(v) if type(v) is list else v for v in value]
            setattr(other, name, value)
        # A week's record changes once, when its cards are placed (steps.resolve_placement); until then it is
        # this copy's own. Every other record is final (its cached reference record is the same in both).
        if self.phase == enc.PLACEMENT and self.history:
            other.history[-1] = attrs.evolve(self.history[-1])
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
            seat is missing; nothing is changed then, so a corrected retry plays this step, not the next.
        """
        for seat in self._checked_joint(choices):
            self.apply_index(seat, choices[seat])

    def apply_drawing(self, choices: Mapping[int, int]) -> explicit.Drawing:
        """Every awaited seat's choice at once, ``{seat: index}``, as :meth:`apply_joint`, with the step's
        chance explicit (:mod:`darkempire.kernel.explicit`): the draws the step makes are the returned
        drawing's, each made by an outcome given to :meth:`~darkempire.kernel.explicit.Drawing.choose`. The
        kernel is at the next decision once the drawing is done (at once when the step draws nothing).

        :raises KernelIndexError: as :meth:`apply_joint`; nothing is changed then.
        """
        for seat in self._checked_joint(choices):
            self.pending[seat] = choices[seat]
        self.awaiting = []
        return explicit.Drawing(explicit.resolve(self))

    @classmethod
    def deal_drawing(cls, config: GameConfig | int) -> tuple[Kernel, explicit.Drawing]:
        """A new game whose victor and hand cards are drawn one at a time (:func:`darkempire.kernel.explicit.deal`):
        the kernel is at the first decision once the drawing is done.

        :raises ~darkempire.rules.errors.ConfigError: as :func:`deal`.
        """
        kernel = cls.__new__(cls)
        if not isinstance(config, GameConfig):
            config = GameConfig(players=config)
        return kernel, explicit.Drawing(explicit.deal(kernel, config))

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
        number of decisions made.

        :raises InvalidArgumentError: ``rng`` is neither a generator nor one per seat; nothing is changed then.
        """
        if not isinstance(rng, random.Random) and not (
            isinstance(rng, Sequence) and not isinstance(rng, (str, bytes)) and len(rng) == self.n
            and all(isinstance(r, random.Random) for r in rng)
        ):
            raise InvalidArgumentError(
                f"playout takes one random.Random or one per seat ({self.n}), not {rng!r:.80}"
            )
        return playout.playout(self, rng)

    # ------------------------------------------------------------------ checks

    def _check_seat(self, seat: int) -> None:
        if type(seat) is not int or not 0 <= seat < self.n:
            raise KernelIndexError(f"there is no seat {seat!r} in a {self.n}-player game", rule="9.1")

    def _checked_joint(self, choices: Mapping[int, int]) -> list[int]:
        """The seats of a whole step's ``choices``, in order, once every one is checked: all or nothing."""
        if not isinstance(choices, Mapping):
            raise KernelIndexError(f"the choices must map seats to indices, not {type(choices).__name__}", rule="9.2")
        for seat in choices:
            self._check_seat(seat)
        missing = sorted(set(self.awaiting) - set(choices))
        if missing:
            raise KernelIndexError(f"the choices of seats {missing} are missing", rule="9.2")
        for seat in choices:
            self._check_index(seat, choices[seat])
            if seat not in self.awaiting:
                raise KernelIndexError(f"seat {seat} has no choice to make in this step", rule="9.2")
        return sorted(choices)

    def _check_index(self, seat: int, index: int) -> None:
        self._check_seat(seat)
        if self.phase == enc.GAME_OVER:
            raise WrongPhaseError("the game is over: no seat chooses", rule="9.1")
        count = listing.legal_count(self, seat)
        if type(index) is not int or not 0 <= index < count:
            raise KernelIndexError(
                f"action index {index!r} is not in seat {seat}'s {count} legal actions", rule="9.2"
            )


def deal(config: GameConfig | int, seed: int) -> Kernel:
    """A kernel at the start of the game :func:`darkempire.rules.engine.deal` deals for ``config`` and ``seed``
    (:func:`darkempire.kernel.dealing.deal_into`).

    :param config: the game's options, or the number of players.
    :raises ~darkempire.rules.errors.ConfigError: as the reference: 3-5 players, a seed of magnitude below 2**64.
    """
    kernel = Kernel.__new__(Kernel)
    dealing.deal_into(kernel, config, seed)
    return kernel
