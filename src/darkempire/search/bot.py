"""SearchBot: a plan chosen by playouts, and its moves by short playouts, on worlds drawn from one seat's view.

At each decision with a real choice the bot

1. draws worlds from its view: :func:`~darkempire.search.worlds.sample_world` deals every hidden card again,
   the other seats' victor factions are drawn from a :class:`~darkempire.search.belief.VictorBelief` (what
   they played in public weighs each way of handing out the victor cards), and the choices the other seats
   have already made in this step, hidden from it, are made again in each world by the opponent model. Each
   world becomes a :class:`~darkempire.kernel.interface.Kernel`. The model of every other seat is
   :class:`~darkempire.bots.GreedyBot` (:mod:`darkempire.kernel.greedy`);
2. at its first decision of each month, chooses a **plan** (:mod:`darkempire.search.plans`): on each world
   it plays the game to the end once with its own seat rising and once sinking, and takes the plan that won
   the larger share, keeping the plan it has unless the other wins ``switch`` more of the worlds;
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
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from darkempire.kernel import encoding as enc
from darkempire.kernel.greedy import Forecast, choose_for, greedy_index
from darkempire.kernel.interface import Kernel
from darkempire.kernel.listing import decode_play
from darkempire.kernel.mutable import Table
from darkempire.kernel import steps
from darkempire.rules.actions import Action, PassCards
from darkempire.rules.cards import HandCard
from darkempire.rules.state import Phase
from darkempire.rules.views import PlayerView
from darkempire.search.belief import VictorBelief
from darkempire.search.plans import PLANS, RISE, SINK, margin, plan_index, win_share
from darkempire.search.worlds import sample_world

__all__ = ["SearchBot"]

#: When a playout stops: at the end of the week (its scoring and placement done), or of the month.
_WEEK, _MONTH, _GAME = "week", "month", "game"


class SearchBot:
    """A bot that searches on worlds drawn from its view (module docstring).

    :param seed: seeds the bot's own generator (worlds, victor factions, playouts).
    :param worlds: the most worlds per decision: every candidate action is played out once on each.
    :param playouts: the budget in iterations: the most week-long playouts per decision (a playout to the
        month's end counts as four); with many candidates, fewer than ``worlds`` worlds are drawn.
    :param milliseconds: if given, a CPU-time budget per decision instead of ``worlds`` (at least one world).
    :param plan_worlds: worlds on which the two plans are played to the end at the month's first decision.
    :param switch: the share of those worlds by which the other plan must win more to be taken.
    :raises ValueError: for a budget below one world, or a ``switch`` outside 0-1.
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
        if worlds < 1 or playouts < 1 or plan_worlds < 1 or (milliseconds is not None and not milliseconds > 0):
            raise ValueError("a SearchBot needs at least one world and playout per decision and per plan, and a positive budget")
        if not switch >= 0.0:
            raise ValueError(f"switch is a number of standard errors, 0 or more, not {switch!r}")
        self._rng = random.Random(seed)
        self.worlds = worlds
        self.playouts = playouts
        self.milliseconds = milliseconds
        self.plan_worlds = plan_worlds
        self.switch = switch
        #: The plan the bot plays now (:data:`~darkempire.search.plans.RISE` or ``SINK``), ``None`` before its first.
        self.plan = SINK
        self._tally = _Tally()
        self._passed: tuple[HandCard, ...] = ()

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The action the plan and the search pick (module docstring).

        :raises ValueError: if ``legal`` is empty or ``view`` is a spectator view.
        """
        if not legal:
            raise ValueError("a bot is asked only when its seat has at least one legal action")
        if view.seat is None or view.victor is None:
            raise ValueError("a bot plays a seat: it needs a player view, not the spectator view")
        if view.phase is Phase.DRAFT_PASS:  # a new game
            self._passed, self.plan, self._tally = (), SINK, _Tally()
        if len(legal) == 1:
            return legal[0]
        started = time.process_time()
        draw = _Worlds(view, self._rng, self._passed)
        self.plan = self._choose_plan(draw, view.seat)
        action = legal[self._decide(draw, view, started)]
        if isinstance(action, PassCards):
            self._passed = tuple(action.cards)
        return action

    # ------------------------------------------------------------------ the plan

    def _choose_plan(self, draw: _Worlds, seat: int) -> str:
        for world, seed in draw.first(self.plan_worlds):
            won = []
            for plan in PLANS:
                k = world.copy()
                _play(k, seat, plan, seed, _GAME)
                won.append(win_share(k, seat))
            self._tally.add(won[0] - won[1])
        lead = self._tally.z()
        if self.plan == SINK and lead > self.switch:
            return RISE
        if self.plan == RISE and lead < -self.switch:
            return SINK
        return self.plan

    # ------------------------------------------------------------------ the move

    def _decide(self, draw: _Worlds, view: PlayerView, started: float) -> int:
        seat = view.seat
        assert seat is not None and self.plan is not None
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
