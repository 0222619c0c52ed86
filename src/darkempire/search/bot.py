"""SearchBot: a plan chosen by playouts, and its moves by short playouts, on worlds drawn from one seat's view.

At each decision with a real choice the bot

1. draws worlds from its view: :func:`~darkempire.search.worlds.sample_world` deals every hidden card again,
   the other seats' victor factions are drawn from a :class:`~darkempire.search.belief.VictorBelief` (what
   they played in public weighs each way of handing out the victor cards), and the choices the other seats
   have already made in this step, hidden from it, are made again in each world by the opponent model. Each
   world becomes a :class:`~darkempire.kernel.interface.Kernel`. The model of every other seat is
   :class:`~darkempire.bots.GreedyBot` (:mod:`darkempire.kernel.greedy`);
2. chooses a **plan** (:mod:`darkempire.search.plans`): on each of ``plan_worlds`` worlds it plays the game
   to the end once with its own seat rising and once sinking, and adds the paired difference of the wins to
   the game's tally; it starts sinking and takes the other plan only when that plan leads the tally by
   ``switch`` standard errors;
3. chooses the move. Rising, it plays as GreedyBot rises. Sinking, at a play step it tries every distinct
   legal action on every world, plays the rest of the week out (its own seat by
   :func:`~darkempire.search.plans.evasive_index`, the others by the model) and scores the week's end by
   :func:`~darkempire.search.plans.margin`, how far its faction is below the lowest other; the support card
   is chosen the same way, scored at the month's end. Every action is tried on the same worlds with the
   same generators, so two actions differ only by what they do. It plays the action of highest mean score,
   and its plan's own choice unless another beats it. The draft, placement and re-organize follow the plan.

The budget is ``playouts`` week-long playouts per decision over at most ``worlds`` worlds (deterministic: the
same seed, budget and views give the same choices), or, with ``milliseconds``, as many worlds as fit in that
much CPU time (:func:`time.process_time`), then no longer deterministic.

What the bot remembers (its plan, the tally, the cards it passed at the draft) is kept per seat, and
forgotten at the seat's draft pass, when a new game begins: one bot may play several seats, or several games.
"""

from __future__ import annotations

import math
import numbers
import random
import time
from collections.abc import Callable, Sequence
from typing import Final

from darkempire.kernel import encoding as enc
from darkempire.kernel import steps
from darkempire.kernel.greedy import Forecast, choose_for, greedy_index
from darkempire.kernel.interface import Kernel
from darkempire.kernel.listing import build_action, decode_play
from darkempire.kernel.mutable import Table
from darkempire.rules.actions import Action, PassCards
from darkempire.rules.cards import HandCard
from darkempire.rules.errors import InvalidArgumentError
from darkempire.rules.state import Phase
from darkempire.rules.views import PlayerView
from darkempire.search.belief import VictorBelief
from darkempire.search.plans import PLANS, RISE, SINK, margin, plan_index, win_share
from darkempire.search.worlds import sample_world
from tablekit.wire import quote

__all__ = ["MAX_MILLISECONDS", "MAX_PLAYOUTS", "MAX_WORLDS", "SearchBot"]

#: When a playout stops: at the end of the week (its scoring and placement done), or of the month.
_WEEK, _MONTH, _GAME = "week", "month", "game"


#: The most worlds (and plan worlds) a decision may draw: a decision keeps the worlds it drew until it is made.
MAX_WORLDS: Final = 10_000
#: The most week-long playouts a decision may play (a few minutes of CPU at the compiled kernel's speed).
MAX_PLAYOUTS: Final = 1_000_000
#: The most CPU milliseconds a decision may take: a minute.
MAX_MILLISECONDS: Final = 60_000


class SearchBot:
    """A bot that searches on worlds drawn from its view (module docstring).

    :param seed: seeds the bot's own generator (worlds, victor factions, playouts).
    :param worlds: the most worlds per decision: every candidate action is played out once on each.
    :param playouts: the budget in iterations: the most week-long playouts per decision (a playout to the
        month's end counts as four); with many candidates, fewer than ``worlds`` worlds are drawn.
    :param milliseconds: if given, a CPU-time budget per decision instead of ``worlds`` (at least one world).
    :param plan_worlds: worlds on which the two plans are played to the end at each decision.
    :param switch: by how many standard errors the other plan must lead the tally to be taken.
    :raises ~darkempire.rules.errors.InvalidArgumentError: (a ``ValueError`` and a ``TypeError``) naming the
        parameter: ``worlds`` or ``plan_worlds`` not a whole number from 1 to :data:`MAX_WORLDS`, ``playouts``
        not one from 1 to :data:`MAX_PLAYOUTS`, ``milliseconds`` not a number above 0 and at most
        :data:`MAX_MILLISECONDS`, ``switch`` not a finite number of 0 or more.
    """

    def __init__(
        self,
        seed: int = 0,
        *,
        worlds: int = 16,
        playouts: int = 160,
        milliseconds: float | None = None,
        plan_worlds: int = 2,
        switch: float = 2.0,
    ) -> None:
        self.worlds = _count("worlds", worlds, MAX_WORLDS)
        self.playouts = _count("playouts", playouts, MAX_PLAYOUTS)
        self.plan_worlds = _count("plan_worlds", plan_worlds, MAX_WORLDS)
        if milliseconds is not None and not 0 < _number("the search budget milliseconds", milliseconds) <= MAX_MILLISECONDS:
            raise InvalidArgumentError(
                f"the search budget milliseconds must be above 0 and at most {MAX_MILLISECONDS:,}, not {quote(milliseconds)}"
            )
        if _number("switch", switch) < 0:
            raise InvalidArgumentError(f"switch is a number of standard errors, 0 or more, not {quote(switch)}")
        self._rng = random.Random(seed)
        self.milliseconds = milliseconds
        self.switch = switch
        #: The plan the bot plays now, or played at its last choice (:data:`~darkempire.search.plans.RISE` or
        #: ``SINK``): it starts sinking.
        self.plan = SINK
        self._seats: dict[int, _Memory] = {}

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The action the plan and the search pick (module docstring).

        :raises ValueError: if ``legal`` is empty or ``view`` is a spectator view.
        :raises ~darkempire.rules.errors.InvalidArgumentError: (a ``ValueError``) if the game is over, the seat
            has already chosen in this step, ``legal`` is not the view's legal actions in the engine's order
            (:func:`~darkempire.rules.engine.legal_actions`), or the view is of no game the rules reach.
        """
        if not legal:
            raise ValueError("a bot is asked only when its seat has at least one legal action")
        seat = view.seat
        if seat is None or view.victor is None:
            raise ValueError("a bot plays a seat: it needs a player view, not the spectator view")
        if view.phase is Phase.GAME_OVER:
            raise InvalidArgumentError("the game is over: no seat chooses, whatever legal says")
        if view.pending is not None:
            raise InvalidArgumentError(f"seat {seat} already chose in this step: it has no legal action left")
        if view.phase is Phase.DRAFT_PASS or seat not in self._seats:  # a new game, or a new seat
            self._seats[seat] = _Memory()
        memory = self._seats[seat]
        self.plan = memory.plan
        if len(legal) == 1:
            return legal[0]
        started = time.process_time()
        draw = _Worlds(view, self._rng, memory.passed_for(view))
        _check_legal(draw.world(0)[0], seat, legal)  # world 0 is the plan's first: no extra draw
        self.plan = memory.plan = self._choose_plan(draw, seat, memory)
        index = self._decide(draw, view, started)
        action = legal[index]
        if action != build_action(draw.world(0)[0], seat, index):
            raise InvalidArgumentError(f"legal is not seat {seat}'s legal actions in the engine's order")
        if isinstance(action, PassCards):
            memory.passed = tuple(sorted(action.cards, key=lambda c: c.id))
            memory.kept = frozenset(c.id for c in view.hand) - {c.id for c in action.cards}
        return action

    # ------------------------------------------------------------------ the plan

    def _choose_plan(self, draw: _Worlds, seat: int, memory: _Memory) -> str:
        for world, seed in draw.first(self.plan_worlds):
            won = []
            for plan in PLANS:
                k = world.copy()
                _play(k, seat, plan, seed, _GAME)
                won.append(win_share(k, seat))
            memory.tally.add(won[0] - won[1])
        lead = memory.tally.z()
        if memory.plan == SINK and lead > self.switch:
            return RISE
        if memory.plan == RISE and lead < -self.switch:
            return SINK
        return memory.plan

    # ------------------------------------------------------------------ the move

    def _decide(self, draw: _Worlds, view: PlayerView, started: float) -> int:
        seat = view.seat
        assert seat is not None
        base, _ = draw.world(0)
        default = plan_index(self.plan, base, seat, random.Random(draw.seed(0)))
        phase = view.phase
        if self.plan == RISE or phase not in (Phase.PLAY_1, Phase.PLAY_2, Phase.PLAY_3, Phase.CHOOSE_SUPPORT):
            return default
        horizon = _MONTH if phase is Phase.CHOOSE_SUPPORT else _WEEK
        candidates = _distinct_actions(base, seat)
        if len(candidates) == 1:
            return candidates[0]
        scores = [0.0] * len(candidates)
        deadline = None if self.milliseconds is None else started + self.milliseconds / 1000
        # Week-long playouts are the unit of the budget: a month's support is played out over its four weeks.
        weeks = 4 if horizon == _MONTH else 1
        worlds = min(self.worlds, max(1, self.playouts // (weeks * len(candidates))))
        tried = 0
        while tried < worlds if deadline is None else (tried == 0 or time.process_time() < deadline):
            world, seed = draw.world(tried)
            for position, index in enumerate(candidates):
                k = world.copy()
                k.pending[seat] = index
                k.awaiting = [s for s in k.awaiting if s != seat]
                _play(k, seat, SINK, seed, horizon)
                scores[position] += margin(k, seat)
            tried += 1
        best = max(range(len(candidates)), key=lambda i: scores[i])
        if default in candidates and scores[candidates.index(default)] >= scores[best]:
            return default
        return candidates[best]


def _count(name: str, value: object, most: int) -> int:
    """``value`` as an ``int`` if it is a whole number from 1 to ``most`` (not a bool), else a clear error."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not 1 <= int(value) <= most:
        raise InvalidArgumentError(
            f"the search budget {name} must be a whole number from 1 to {most:,}, not {quote(value)}"
        )
    return int(value)


def _number(name: str, value: object) -> float:
    """``value`` as a ``float`` if it is a finite real number (not a bool), else a clear error."""
    if not isinstance(value, bool) and isinstance(value, numbers.Real):
        try:
            number = float(value)
        except OverflowError:  # an int past a float's range
            number = math.inf
        if math.isfinite(number):
            return number
    raise InvalidArgumentError(f"{name} must be a finite number, not {quote(value)}")


def _check_legal(k: Kernel, seat: int, legal: Sequence[Action]) -> None:
    """Refuse ``legal`` unless it has the size, first and last action of ``seat``'s listing in world ``k``:
    the bot names its choice by its index in that listing, the engine's."""
    count = k.counts[seat]
    if len(legal) != count or legal[0] != build_action(k, seat, 0) or legal[count - 1] != build_action(k, seat, count - 1):
        raise InvalidArgumentError(
            f"legal is not seat {seat}'s legal actions in the engine's order ({count} actions in its view's listing)"
        )


class _Memory:
    """What the bot remembers of one seat's game: its plan, the tally of the plans, the cards it passed."""

    __slots__ = ("kept", "passed", "plan", "tally")

    def __init__(self) -> None:
        self.plan = SINK
        self.tally = _Tally()
        #: The cards the seat passed at the draft, and the ids of those it kept then.
        self.passed: tuple[HandCard, ...] = ()
        self.kept: frozenset[int] = frozenset()

    def passed_for(self, view: PlayerView) -> tuple[HandCard, ...]:
        """The passed cards, if the view's hand still holds every card kept with them (else they are of
        another game, and unknown here)."""
        if self.passed and self.kept <= {c.id for c in view.hand}:
            return self.passed
        return ()


class _Tally:
    """The paired differences of the game so far: how much more of a world rising won than sinking."""

    def __init__(self) -> None:
        self.count = 0
        self.total = 0.0
        self.squares = 0.0

    def add(self, difference: float) -> None:
        self.count += 1
        self.total += difference
        self.squares += difference * difference

    def z(self) -> float:
        """The mean difference in standard errors (0 while fewer than two or all equal)."""
        if self.count < 2:
            return 0.0
        mean = self.total / self.count
        variance = (self.squares - self.count * mean * mean) / (self.count - 1)
        return mean / (variance / self.count) ** 0.5 if variance > 0 else 0.0


class _Worlds:
    """The worlds of one decision, drawn from the view on demand and kept, each with its playouts' seed."""

    def __init__(self, view: PlayerView, rng: random.Random, passed: tuple[HandCard, ...]) -> None:
        self._view, self._rng, self._passed = view, rng, passed
        self._belief = VictorBelief(view)
        self._drawn: list[tuple[Kernel, int]] = []

    def world(self, i: int) -> tuple[Kernel, int]:
        """World ``i`` and its seed, drawn now if it is the next one."""
        while len(self._drawn) <= i:
            self._drawn.append(self._draw())
        return self._drawn[i]

    def seed(self, i: int) -> int:
        """World ``i``'s seed for its playouts' generators."""
        return self.world(i)[1]

    def first(self, count: int) -> list[tuple[Kernel, int]]:
        """The first ``count`` worlds with their seeds."""
        return [self.world(i) for i in range(count)]

    def _draw(self) -> tuple[Kernel, int]:
        view, rng = self._view, self._rng
        seat = view.seat
        assert seat is not None
        k = Kernel.from_state(sample_world(view, rng, passed=self._passed))
        for other, faction in self._belief.sample(rng).items():
            k.victors[other] = int(faction)
        seed = rng.getrandbits(32)
        model = random.Random(seed ^ 0x5EED)
        # The choices the others made in this step are hidden: the world's are uniform draws, so the model
        # makes them again with the world's hands (the seat never conditions on a choice it has not seen).
        for other in sorted(view.chosen - {seat}):
            k.pending[other] = greedy_index(k, other, model)
        return k, seed


def _distinct_actions(k: Table, seat: int) -> list[int]:
    """The indices of ``seat``'s play-step or support listing, one per distinct effect: reinforcement cards
    are all +3, so of the actions attaching one to the same card only the first is kept (rule 4.6)."""
    count = k.counts[seat]
    if not enc.PLAY_1 <= k.phase <= enc.PLAY_3:
        return list(range(count))
    seen: set[tuple[int, int, int]] = set()
    kept = []
    for index in range(count):
        card, side, target = decode_play(k, seat, index)
        key = (card, side, target) if side >= 0 or card < 0 else (-1, -1, target)
        if key not in seen:
            seen.add(key)
            kept.append(index)
    return kept


def _play(k: Table, seat: int, plan: str, seed: int, horizon: str) -> None:
    """Play ``k`` on: ``seat`` by ``plan``, the others by the model, until ``horizon`` (the game's end at
    the latest). Every seat's generator is drawn from ``seed``, so playouts from one world share them."""
    rngs = [random.Random(seed + s) for s in range(k.n)]
    forecast = Forecast(k.n)
    stop = _stopper(k, horizon)
    while k.phase != enc.GAME_OVER and not stop(k):
        awaiting = k.awaiting
        if seat in awaiting:
            k.pending[seat] = plan_index(plan, k, seat, rngs[seat])
            awaiting = [s for s in awaiting if s != seat]
        choose_for(k, awaiting, rngs, forecast)
        k.awaiting = []
        steps.resolve(k)


def _stopper(k: Table, horizon: str) -> Callable[[Table], bool]:
    month, week = k.month, k.week
    if horizon == _WEEK:
        # The week is over at its re-organize, or once the next week (or month) began.
        return lambda t: t.phase == enc.REORGANIZE or (t.month, t.week) != (month, week)
    if horizon == _MONTH:
        return lambda t: t.month != month
    return lambda t: False
