"""Explicit chance on the kernel: every card the game reveals or deals drawn one at a time, by an outcome given.

The kernel's own playouts take the tops of the piles its seeded shuffles made, as the reference's seeded
functions do. An adapter with explicit chance (OpenSpiel's chance nodes, :mod:`darkempire.adapters.core`)
needs instead what the reference engine does with a :class:`tablekit.chance.ChanceSource`: each draw a
named choice among the cards still unseen, in id order, resolved by an outcome from outside. A
:class:`Drawing` is that: the next draw's name and options, and :meth:`Drawing.choose` to make it, the
step going on until the next draw or the next decision. The draws and their names are the reference's
(``darkempire.rules.engine``'s ``_deal``, ``_week_start``, ``_reveal`` and ``_refill``):

* the deal: ``victor seat s`` among the factions not drawn, then ``deal seat s #j`` (9 per seat) among the
  cards not dealt; the shuffles of the game's generator (seed 0, the kit's unused seed) still lay out the
  piles, and the draw pile is the shuffled deck less the cards dealt;
* each week start: ``revolution m{month}w{week}`` and (while the emperor pile holds a card)
  ``emperor m{month}w{week}`` among this month's cards not revealed yet; a card drawn from under the top
  takes the top card's place;
* each re-organize refill: ``refill m{month}w{week} seat s #j`` among the draw pile's cards, the discard pile
  shuffled by the generator into a new draw pile when it runs out (ruling R).

The drawing is a generator: a step suspended at a draw holds no copy of the table. The kernel's own
:func:`~darkempire.kernel.steps.resolve` and playouts are unchanged by it.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Generator

from darkempire.kernel import dealing, listing, steps, tally
from darkempire.kernel import encoding as enc
from darkempire.kernel.mutable import Table
from darkempire.rules.state import DEAL_SIZE, GameConfig

__all__ = ["SEED", "Draw", "Drawing", "Draws", "advance", "deal", "position", "resolve"]

#: A draw due: its name and its options (card ids, or faction numbers for victor and revolution cards), sorted.
Draw = tuple[str, list[int]]
#: The generator of a step's draws: it yields each draw due and is sent the index of the option drawn.
Draws = Generator[Draw, int, None]

_HAND_SIZE = 7
_WEEKS = 4
#: The seed of the generator that lays out the piles in a game with explicit chance (the kit's ``_UNUSED_SEED``).
SEED = 0


class Drawing:
    """The draws still due in a deal or a step, one at a time.

    :ivar name: the next draw's name (``None`` once no draw is due).
    :ivar options: its options, sorted (``[]`` once none is due); an outcome is one of them.
    """

    __slots__ = ("_draws", "name", "options")

    def __init__(self, draws: Draws) -> None:
        self._draws = draws
        self.name: str | None = None
        self.options: list[int] = []
        self._next(None)

    @property
    def done(self) -> bool:
        """Whether every draw has been made (the kernel is at a decision or the end)."""
        return self.name is None

    def choose(self, index: int) -> None:
        """Draw option ``index`` of ``options``; the step goes on to the next draw or decision.

        :raises IndexError: no draw is due, or ``index`` is no position in ``options``.
        """
        if self.name is None or type(index) is not int or not 0 <= index < len(self.options):
            raise IndexError(f"{index!r} is no option of the draw {self.name!r} ({len(self.options)} options)")
        self._next(index)

    def _next(self, index: int | None) -> None:
        try:
            self.name, self.options = self._draws.send(index) if index is not None else next(self._draws)
        except StopIteration:
            self.name, self.options = None, []


def _take(name: str, pool: list[int]) -> Generator[Draw, int, int]:
    """One draw among ``pool``'s values, removed from it (its order otherwise kept); the value drawn."""
    options = sorted(pool)
    index = yield name, options
    value = options[index]
    pool.remove(value)
    return value


def deal(k: Table, config: GameConfig) -> Draws:
    """Set ``k`` to a new game whose victor and hand cards are drawn one at a time (rules 2.3, 2.4)."""
    dealing.deal_into(k, config, SEED)  # the shuffles and piles; the victor cards and hands are drawn below
    n = k.n
    factions = list(range(5))
    victors = []
    for seat in range(n):
        victors.append((yield from _take(f"victor seat {seat}", factions)))
    left = list(k.draw)  # the shuffled deck: the cards not dealt stay in its order
    hands = []
    for seat in range(n):
        hand = []
        for j in range(DEAL_SIZE):
            hand.append((yield from _take(f"deal seat {seat} #{j}", left)))
        hands.append(sorted(hand))
    k.victors, k.hands, k.draw, k.draw_top = victors, hands, left, 0
    k.awaiting = listing.prepare(k)


def resolve(k: Table) -> Draws:
    """:func:`darkempire.kernel.steps.resolve` with the step's draws made one at a time."""
    chosen = k.pending
    phase = k.phase
    k.pending = [-1] * k.n
    if enc.PLAY_1 <= phase <= enc.PLAY_3:
        steps.resolve_play(k, chosen)
        yield from advance(k)
        return
    counts = k.counts
    for seat in range(k.n):
        if chosen[seat] < 0 and counts[seat] == 1:
            chosen[seat] = 0
    if phase == enc.REORGANIZE:
        steps.clear_table(k, chosen)
        yield from _refill(k)
        steps.lay_aside(k)
        if k.week < _WEEKS:
            yield from _week_start(k)
        else:
            steps.close_month(k)
    elif phase == enc.PLACEMENT:
        steps.resolve_placement(k, chosen)
    elif phase == enc.CHOOSE_SUPPORT:
        k.support = [listing.support_options(k, seat)[chosen[seat]] for seat in range(k.n)]
        yield from _week_start(k)
    else:
        steps.resolve_draft(k, chosen)
    yield from advance(k)


def advance(k: Table) -> Draws:
    """:func:`darkempire.kernel.steps.advance`, a step nobody chooses in resolved with explicit draws."""
    while True:
        phase = k.phase
        if phase == enc.WEEK_SCORING:
            tally.score_week(k)
        elif phase == enc.MONTH_SCORING:
            tally.score_month(k)
            if k.phase == enc.CHOOSE_SUPPORT:
                steps.month_reset(k)  # the generator's shuffles, as the reference's: no draw
        elif phase == enc.GAME_OVER:
            k.awaiting = []
            k.counts = [0] * k.n
            return
        else:
            required = listing.prepare(k)
            if required:
                k.awaiting = required
                return
            yield from resolve(k)
            return


def _week_start(k: Table) -> Draws:
    """The week's revolution and emperor cards, each drawn among this month's not revealed yet (rule 4.1)."""
    month, week = k.month, k.week + 1
    records = [r for r in k.history if r.month == month]
    revolution = yield from _reveal(f"revolution m{month}w{week}", k.revolution_pile, k.revolution_reserve,
                                    {r.revolution for r in records})  # fmt: skip
    emperor = -1
    if k.emperor_pile:  # an empty pile reveals no emperor card (ruling J)
        emperor = yield from _reveal(f"emperor m{month}w{week}", k.emperor_pile, k.emperor_reserve,
                                     {r.emperor for r in records})  # fmt: skip
    steps.open_week(k, revolution, emperor)


def _reveal(name: str, pile: list[int], reserve: list[int], revealed: set[int]) -> Generator[Draw, int, int]:
    """Draw the card a week reveals among the pile's and the reserve's not ``revealed``; the top card leaves
    the pile and, if another card was drawn, takes that card's place (the reference's ``_reveal``)."""
    top = pile[0]
    options = sorted([top, *[c for c in pile[1:] + reserve if c not in revealed]])
    index = yield name, options
    card = options[index]
    del pile[0]
    if card != top:
        for cards in (pile, reserve):
            if card in cards:
                cards[cards.index(card)] = top
    return card


def _refill(k: Table) -> Draws:
    """Each seat in turn draws to 7, one card at a time among the draw pile's (rule 6.4); an empty draw pile
    is replaced by the discard pile, shuffled (ruling R); when both are empty the seat gets fewer (ruling K)."""
    pile = k.draw[k.draw_top :]
    month, week = k.month, k.week
    for seat in range(k.n):
        hand = k.hands[seat]
        drawn = 0
        while len(hand) < _HAND_SIZE:
            if not pile:
                if not k.discard:
                    break
                pile = k.discard
                steps.shuffle(k, pile)
                k.discard = []
            options = pile.copy()
            options.sort()
            index = yield f"refill m{month}w{week} seat {seat} #{drawn}", options
            card = options[index]
            del pile[pile.index(card)]
            hand.append(card)
            drawn += 1
        hand.sort()
    k.draw, k.draw_top = pile, 0


def position(options: list[int], value: int) -> int:
    """The index of ``value`` in the sorted ``options``, or ``-1``."""
    index = bisect_left(options, value)
    return index if index < len(options) and options[index] == value else -1
