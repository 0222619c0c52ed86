"""SearchBot: determinized Monte Carlo search over one seat's own actions, on the playout kernel.

At each decision with a real choice the bot

1. draws ``worlds`` states from its view (:func:`~darkempire.search.worlds.sample_world`): other hands,
   victor and support factions, the other seats' pending choices and the piles' order drawn again, so it
   never conditions on a card or a choice it has not seen;
2. turns each into a :class:`~darkempire.kernel.interface.Kernel` once, and reuses them round-robin;
3. runs ``iterations`` playouts: each picks a root action by UCB1 over its mean reward so far, applies it on
   a copy of the next world, and plays to the end with the greedy-ish kernel policy of
   :mod:`darkempire.search.rollout`; the reward is the seat's share of the win, ``1 / len(winners)`` if it
   is among the winners, else 0;
4. plays the root action of highest mean reward (most playouts on a tie).

Root actions: all legal ones when there are at most ``candidates``; otherwise
:class:`~darkempire.bots.GreedyBot`'s choice and a random sample of the others (the draft lists 36 pairs,
a re-organize up to 512 take-back and discard sets). When choosing, each root's mean is shrunk towards the
overall mean by ``prior`` virtual playouts, and another root is played instead of the greedy choice only if
its mean beats the greedy one's by ``margin``: a noisy handful of playouts does not talk the bot out of a
sound move.

The budget is ``iterations`` playouts (deterministic: the same seed, budget and views give the same
choices), or, with ``milliseconds``, as many as fit in that much CPU time (:func:`time.process_time`),
then no longer deterministic.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from darkempire.bots import GreedyBot
from darkempire.kernel.interface import Kernel
from darkempire.rules.actions import Action, PassCards
from darkempire.rules.cards import HandCard
from darkempire.rules.state import Phase
from darkempire.rules.views import PlayerView
from darkempire.search.rollout import play_to_end
from darkempire.search.worlds import sample_world

__all__ = ["SearchBot"]


class SearchBot:
    """A determinized Monte Carlo search bot (module docstring).

    :param seed: seeds the bot's own generator (worlds, playouts, candidate samples) and its greedy helper.
    :param iterations: playouts per decision.
    :param milliseconds: if given, a CPU-time budget per decision instead of ``iterations``.
    :param worlds: sampled worlds per decision, reused round-robin by the playouts.
    :param candidates: most root actions searched.
    :param exploration: UCB1's exploration constant.
    :param epsilon: chance that a playout seat chooses uniformly at random instead of by the policy.
    :param prior: virtual playouts at the overall mean reward added to every root's mean when choosing.
    :param margin: how much higher another root's mean must be than the greedy choice's to be played.
    :raises ValueError: for a budget, world or candidate count below 1.
    """

    def __init__(
        self,
        seed: int = 0,
        *,
        iterations: int = 64,
        milliseconds: float | None = None,
        worlds: int = 12,
        candidates: int = 6,
        exploration: float = 0.5,
        epsilon: float = 0.1,
        prior: int = 8,
        margin: float = 0.02,
    ) -> None:
        if iterations < 1 or worlds < 1 or candidates < 1 or (milliseconds is not None and milliseconds <= 0):
            raise ValueError("a SearchBot needs at least one iteration, world and candidate, and a positive budget")
        self._rng = random.Random(seed)
        self._greedy = GreedyBot(seed)
        self.iterations = iterations
        self.milliseconds = milliseconds
        self.worlds = worlds
        self.candidates = candidates
        self.exploration = exploration
        self.epsilon = epsilon
        self.prior = prior
        self.margin = margin
        self._passed: tuple[HandCard, ...] = ()

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The root action whose playouts won the largest share (module docstring).

        :raises ValueError: if ``legal`` is empty or ``view`` is a spectator view.
        """
        if not legal:
            raise ValueError("a bot is asked only when its seat has at least one legal action")
        if view.seat is None or view.victor is None:
            raise ValueError("a bot plays a seat: it needs a player view, not the spectator view")
        if view.phase is Phase.DRAFT_PASS:
            self._passed = ()  # a new game's draft
        action = legal[0] if len(legal) == 1 else legal[self._search(view, legal)]
        if isinstance(action, PassCards):
            self._passed = tuple(action.cards)
        return action

    def _roots(self, view: PlayerView, legal: Sequence[Action]) -> tuple[list[int], int]:
        greedy = legal.index(self._greedy.choose(view, legal))
        size = len(legal)
        if size <= self.candidates:
            return list(range(size)), greedy
        others = [i for i in range(size) if i != greedy]
        return [greedy, *sorted(self._rng.sample(others, self.candidates - 1))], greedy

    def _search(self, view: PlayerView, legal: Sequence[Action]) -> int:
        seat = view.seat
        assert seat is not None
        rng = self._rng
        roots, greedy = self._roots(view, legal)
        kernels = [Kernel.from_state(sample_world(view, rng, passed=self._passed)) for _ in range(self.worlds)]
        visits = [0.0] * len(roots)
        totals = [0.0] * len(roots)
        g = roots.index(greedy)
        deadline = None if self.milliseconds is None else time.process_time() + self.milliseconds / 1000
        played = 0
        while True:
            if deadline is None:
                if played >= self.iterations:
                    break
            elif played >= len(roots) and time.process_time() >= deadline:
                break
            r = self._select(visits, totals, played)
            k = kernels[played % len(kernels)].copy()
            k.pending[seat] = roots[r]
            k.awaiting = [s for s in k.awaiting if s != seat]  # the others choose in play_to_end, then it resolves
            play_to_end(k, rng, self.epsilon)
            winners = k.winners()
            visits[r] += 1
            totals[r] += 1 / len(winners) if seat in winners else 0.0
            played += 1
        # Every mean is shrunk towards the overall mean by ``prior`` virtual playouts, and another root must
        # beat the greedy choice by ``margin``: a few lucky playouts do not talk the bot out of a sound move.
        mean = sum(totals) / max(sum(visits), 1.0)
        shrunk = [(totals[i] + self.prior * mean) / (visits[i] + self.prior) for i in range(len(roots))]
        best = max(range(len(roots)), key=lambda i: (shrunk[i], visits[i]))
        return roots[best] if shrunk[best] > shrunk[g] + self.margin else greedy

    def _select(self, visits: list[float], totals: list[float], played: int) -> int:
        for i, v in enumerate(visits):
            if v == 0:
                return i
        log_n = math.log(sum(visits))
        c = self.exploration
        return max(range(len(visits)), key=lambda i: totals[i] / visits[i] + c * math.sqrt(log_n / visits[i]))
