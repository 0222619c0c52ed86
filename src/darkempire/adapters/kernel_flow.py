"""The adapters' game on the playout kernel: :class:`KernelFlow`, the hot path of an OpenSpiel state.

A :class:`~darkempire.adapters.core.Flow` runs the reference engine through the kit: every chance node runs
the step again with a longer script, and every joint action writes each seat's trail line from its view.
That is what the observations need, and it cost the OpenSpiel adapter 16-18 times the reference engine's
cost per decision. A :class:`KernelFlow` answers what a game driver asks at every node from the kernel's
integers instead: whether the node is chance, a decision or the end; each seat's legal action integers;
the chance outcomes (the kernel's explicit draws, :mod:`darkempire.kernel.explicit`); applying a joint
action or an outcome; the returns.

Everything else (observation and information-state strings and tensors, texts, serialization, resampling)
is asked of the reference :class:`~darkempire.adapters.core.Flow`, which :meth:`KernelFlow.reference`
builds only when asked: it replays the moves made since the last time it was built. So the two give the
same game: the same chance nodes with the same outcomes in the same order, the same legal integers, the
same returns (``tests/test_adapters_kernel_flow.py`` plays both side by side). Every refusal is the
reference's own: a move the kernel path does not accept is handed to the reference flow, which raises its
error.

A :class:`KernelFlow` is mutable (its moves change it in place and return it), unlike a
:class:`~darkempire.adapters.core.Flow`; ``copy.deepcopy`` (OpenSpiel's clone) gives an independent copy,
and pickling (OpenSpiel's serialization) gives the reference flow's JSON, which loads as a
:class:`~darkempire.adapters.core.Flow`.
"""

from __future__ import annotations

import numbers
import operator
from bisect import bisect_left
from collections.abc import Callable, Sequence
from typing import Any, Final

from darkempire.adapters.core import (
    DISCARD_BASE,
    MAX_REORGANIZE_HAND,
    NO_OP,
    PASS_BASE,
    PLACE_BASE,
    PLAY_BASE,
    PLAY_NOTHING,
    REINFORCE_BASE,
    REORGANIZE_BASE,
    SUPPORT_BASE,
    Flow,
)
from darkempire.kernel import Kernel
from darkempire.kernel import encoding as enc
from darkempire.kernel import listing
from darkempire.kernel.explicit import Drawing, position

__all__ = ["KernelFlow", "encode_listing"]

_PAIR_RANK: Final[dict[tuple[int, int], int]] = {}
for _a in range(75):
    for _b in range(_a + 1, 75):
        _PAIR_RANK[(_a, _b)] = len(_PAIR_RANK)
del _a, _b
#: For each hand size, a discard set's bit mask (bit ``j``: the ``j``-th card by id) to its rank in the
#: kernel's listing (:func:`darkempire.kernel.encoding.subset_masks`).
_MASK_RANK: Final[tuple[dict[int, int], ...]] = tuple(
    {mask: rank for rank, mask in enumerate(masks)} for masks in enc.SUBSETS
)
_FACTION_CARDS: Final = 65
_REORGANIZE_ROW: Final = 1 << MAX_REORGANIZE_HAND


def _own(k: Kernel, seat: int) -> list[int]:
    """``seat``'s revolution-side faction cards on the table, sorted by id (the adapter's positions)."""
    return sorted(play[1] for play in k.plays if play[0] == seat and not play[2])


def encode_listing(k: Kernel, seat: int) -> list[int]:
    """The action integer (:mod:`darkempire.adapters.core`) of each action of ``seat``'s kernel listing, in
    listing order: entry ``i`` encodes ``k.action(seat, i)``. Not for a re-organize (see :class:`KernelFlow`)."""
    phase = k.phase
    hand = k.hands[seat]
    if enc.PLAY_1 <= phase <= enc.PLAY_3:
        allowed = k.table_emperor >= 0 and not k.traitor[seat]
        factions = bisect_left(hand, _FACTION_CARDS)
        codes = []
        for card in hand[:factions]:
            codes.append(PLAY_BASE + 2 * card)
            if allowed:
                codes.append(PLAY_BASE + 2 * card + 1)
        if phase != enc.PLAY_1 and factions < len(hand):
            plays = k.plays
            targets = [plays[t][1] for t in listing.play_targets(k, seat, allowed)]
            for card in hand[factions:]:
                row = REINFORCE_BASE + _FACTION_CARDS * (card - _FACTION_CARDS)
                codes += [row + target for target in targets]
        return codes or [PLAY_NOTHING]
    if phase == enc.DRAFT_PASS or phase == enc.DRAFT_DISCARD:
        base = PASS_BASE if phase == enc.DRAFT_PASS else DISCARD_BASE
        ranks = _PAIR_RANK
        return [base + ranks[(hand[a], hand[b])] for a, b in enc.PAIRS[len(hand)]]
    if phase == enc.CHOOSE_SUPPORT:
        return [SUPPORT_BASE + f for f in listing.support_options(k, seat)]
    if phase == enc.PLACEMENT:
        own = _own(k, seat)
        codes = []
        for index in range(listing.option_count(k, seat)):
            cards = listing.decode_placement(k, seat, index)
            codes.append(PLACE_BASE + sum(1 << own.index(c) for c in cards))
        return codes
    raise ValueError(f"phase {enc.PHASES[phase].value} has no listing to encode")


def _integer(value: object) -> int | None:
    """``value`` as a plain ``int`` if it is an integer (a ``bool`` is none), as the kit's joint decoding reads."""
    if type(value) is int:
        return value
    if not isinstance(value, numbers.Integral) or isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except (TypeError, ValueError, OverflowError):
        return None


class KernelFlow:
    """A game in progress with explicit chance, played on a :class:`~darkempire.kernel.Kernel` (see the module
    docstring): the moves of :class:`~darkempire.adapters.core.Flow` that a game driver makes at every node,
    and the reference flow, built when asked.

    Build one with :meth:`new`. Its moves mutate it and return it.

    :ivar players: number of seats.
    :ivar kernel: the game; during the deal and a step's draws it is mid-way, and only the drawing is read.
    :ivar drawing: the draws due (``None`` at decisions and at the end).
    """

    __slots__ = ("_base", "_joint", "_legal", "_moves", "_ref", "_ref_at", "_script", "drawing", "kernel", "players")

    def __init__(self, players: int, kernel: Kernel, drawing: Drawing | None, origin: Flow) -> None:
        self.players = players
        self.kernel = kernel
        self.drawing = drawing
        self._moves: list[int | tuple[int, ...]] = []  # since ``origin``: outcome ids and joint actions
        self._ref = origin  # the reference flow after ``_moves[:_ref_at]``
        self._ref_at = 0
        self._legal: dict[int, tuple[list[int], dict[int, int] | None]] = {}
        # While a step draws: the kernel before it and the joint choices (``None``: the deal), and the outcome
        # indices drawn since; a copy replays them, since a suspended step cannot be copied.
        self._base: Kernel | None = None
        self._joint: dict[int, int] | None = None
        self._script: list[int] = []

    @classmethod
    def new(cls, players: int) -> KernelFlow:
        """A new game before the deal (its first chance nodes are the victor cards).

        :raises ~darkempire.rules.errors.ConfigError: if ``players`` is not 3-5.
        """
        origin = Flow.new(players)
        kernel, drawing = Kernel.deal_drawing(players)
        return cls(players, kernel, None if drawing.done else drawing, origin)

    # ------------------------------------------------------------------ queries

    @property
    def is_chance(self) -> bool:
        """Whether a chance node is next."""
        return self.drawing is not None

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.drawing is None and self.kernel.phase == enc.GAME_OVER

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The chance node's outcome ids (card ids, faction numbers) with their probability; ``[]`` at decisions."""
        drawing = self.drawing
        if drawing is None:
            return []
        p = 1.0 / len(drawing.options)
        return [(outcome, p) for outcome in drawing.options]

    def legal(self, seat: int) -> list[int]:
        """``seat``'s legal action integers at a decision (``[NO_OP]`` for a seat not awaited); ``[]`` at chance
        nodes and the end. A seat that is no plain ``int`` of the game gets the reference's refusal."""
        if self.drawing is not None or self.kernel.phase == enc.GAME_OVER:
            return []
        if type(seat) is not int or not 0 <= seat < self.players:
            return self.reference().legal(seat)
        return list(self._listing(seat)[0])

    def _listing(self, seat: int) -> tuple[list[int], dict[int, int] | None]:
        known = self._legal.get(seat)
        if known is not None:
            return known
        k = self.kernel
        if seat not in k.awaiting:
            known = [NO_OP], {NO_OP: -1}
        elif k.phase == enc.REORGANIZE:  # up to 512 integers, all of them legal: mapped to indices when chosen
            slots = 1 + sum(1 for play in k.plays if play[0] == seat and not play[2])
            size = 1 << len(k.hands[seat])
            rows = range(REORGANIZE_BASE, REORGANIZE_BASE + slots * _REORGANIZE_ROW, _REORGANIZE_ROW)
            known = [row + m for row in rows for m in range(size)], None
        else:
            codes = encode_listing(k, seat)
            index = {code: i for i, code in enumerate(codes)}
            codes.sort()
            known = codes, index
        self._legal[seat] = known
        return known

    def _index(self, seat: int, code: int) -> int:
        """The kernel index of ``seat``'s legal action integer ``code`` (``-1``: the wait); ``-2``: not legal."""
        codes, index = self._listing(seat)
        if index is not None:
            return index.get(code, -2)
        k = self.kernel  # a re-organize: take-back slot and discard mask
        slot, mask = divmod(code - REORGANIZE_BASE, _REORGANIZE_ROW)
        hand = k.hands[seat]
        own = _own(k, seat)
        if code < REORGANIZE_BASE or slot > len(own) or mask >> len(hand):
            return -2
        choice = 0
        if slot:
            take_backs = [play[1] for play in k.plays if play[0] == seat and not play[2]]  # the kernel's order
            choice = take_backs.index(own[slot - 1]) + 1
        return choice << len(hand) | _MASK_RANK[len(hand)][mask]

    def returns(self) -> tuple[float, ...]:
        """At the end, the winners share +1 and every other seat gets -1 (rules 8.2-8.5); 0 for all before."""
        if not self.is_over:
            return (0.0,) * self.players
        winners = self.kernel.winners()
        return tuple(1.0 / len(winners) if seat in winners else -1.0 for seat in range(self.players))

    # ------------------------------------------------------------------ moves

    def apply_chance(self, outcome: int) -> KernelFlow:
        """Draw the option of outcome id ``outcome`` at the chance node; the step goes on.

        :raises OutcomeError: (the reference's) no chance node is due, or ``outcome`` is not one of its outcomes.
        """
        drawing = self.drawing
        index = -1 if drawing is None or type(outcome) is not int else position(drawing.options, outcome)
        if drawing is None or index < 0:
            return self._refused(lambda flow: flow.apply_chance(outcome))
        drawing.choose(index)
        self._script.append(index)
        self._moves.append(outcome)
        if drawing.done:
            self.drawing, self._base, self._joint, self._script = None, None, None, []
            self._legal = {}
        return self

    def apply_joint(self, actions: Sequence[int]) -> KernelFlow:
        """Apply one action integer per seat (:data:`~darkempire.adapters.core.NO_OP` for each seat the step
        does not await).

        :raises ValueError: (the reference's :class:`~darkempire.rules.errors.IllegalActionError` and kin) for
            anything but a list of one legal integer per seat, or no decision now.
        """
        k = self.kernel
        if self.drawing is not None or k.phase == enc.GAME_OVER or not isinstance(actions, Sequence) \
                or len(actions) != self.players:  # fmt: skip
            return self._refused(lambda flow: flow.apply_joint(actions))
        choices: dict[int, int] = {}
        plain: list[int] = []
        for seat, action in enumerate(actions):
            value = _integer(action)
            index = -2 if value is None else self._index(seat, value)
            if value is None or index == -2:
                return self._refused(lambda flow: flow.apply_joint(actions))
            plain.append(value)
            if index >= 0:
                choices[seat] = index
        base = k.copy() if k.phase == enc.CHOOSE_SUPPORT or k.phase == enc.REORGANIZE else None
        drawing = k.apply_drawing(choices)
        self._moves.append(tuple(plain))
        self._legal = {}
        if not drawing.done:
            self.drawing, self._base, self._joint, self._script = drawing, base, choices, []
        return self

    def _refused(self, move: Callable[[Flow], Flow]) -> KernelFlow:
        """Hand a move the kernel path does not accept to the reference flow, which raises its own error."""
        move(self.reference())
        raise AssertionError("the reference flow accepted a move the kernel flow refused")  # pragma: no cover

    # ------------------------------------------------------------------ the reference

    def reference(self) -> Flow:
        """The reference :class:`~darkempire.adapters.core.Flow` of this moment: the last one built, with the
        moves made since replayed on it."""
        flow, moves = self._ref, self._moves
        for move in moves[self._ref_at :]:
            flow = flow.apply_chance(move) if isinstance(move, int) else flow.apply_joint(list(move))
        self._ref, self._ref_at = flow, len(moves)
        return flow

    def copy(self) -> KernelFlow:
        """An independent copy (a step's draws so far replayed on a copy of the kernel before it)."""
        other = KernelFlow.__new__(KernelFlow)
        other.players = self.players
        other._moves = self._moves.copy()
        other._ref, other._ref_at = self._ref, self._ref_at
        other._legal = dict(self._legal)
        other._base, other._joint, other._script = self._base, self._joint, self._script.copy()
        if self.drawing is None:
            other.kernel, other.drawing = self.kernel.copy(), None
            return other
        if self._joint is None:  # the deal
            other.kernel, drawing = Kernel.deal_drawing(self.players)
        elif self._base is not None:
            other.kernel = self._base.copy()
            drawing = other.kernel.apply_drawing(self._joint)
        else:  # a step that drew though it was not expected to (a forced re-organize, say)
            return _from_reference(self.reference(), other)
        for index in self._script:
            drawing.choose(index)
        other.drawing = drawing
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> KernelFlow:
        return self.copy()  # OpenSpiel's clone deep-copies the state's attributes

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # OpenSpiel serializes a Python state by pickling its attributes: as the reference flow pickles (its JSON).
        return self.reference().__reduce__()


def _from_reference(flow: Flow, other: KernelFlow) -> KernelFlow:
    """``other`` (a copy being made) rebuilt mid-step from the reference flow: a kernel of its decided state,
    the joint choices found in the kernel's listings, the step's draws so far made again."""
    assert flow.state is not None and flow.choices is not None
    kernel = Kernel.from_state(flow.state)
    choices = {}
    for seat, action in flow.choices:
        choices[seat] = next(i for i in range(kernel.action_count(seat)) if kernel.action(seat, i) == action)
    other._base, other._joint = kernel.copy(), choices
    drawing = kernel.apply_drawing(choices)
    for index in flow.script:
        drawing.choose(index)
    other.kernel, other.drawing, other._script = kernel, drawing, list(flow.script)
    return other
