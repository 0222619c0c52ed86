"""A fast playout policy on the kernel's integers: a rising greedy player for every seat (spec 8.2).

Uniformly random playouts are a poor model of opponents who play for their victor faction: they play
traitor cards half the time and feed the emperor. This policy plays each seat, with its own (sampled) victor
faction, roughly as :class:`~darkempire.bots.GreedyBot` rises, without building a view or an action object:

* play steps: its victor faction's highest card to the revolution side, else its support faction's, else
  its lowest other card; a reinforcement card on a revolution-side play of its victor faction when it has
  no card of that faction; never a traitor card;
* draft pass and discard: the two cards it values least (victor faction high, reinforcements next, then
  support faction, then by value);
* choose support: the faction it holds most points of, its victor faction counting double;
* re-organize: takes back its most valued revolution-side play and discards nothing;
* placement: uniformly random.

With probability ``epsilon`` a seat chooses uniformly at random instead, so playouts do not all agree.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from typing import Final

from darkempire.kernel import encoding as enc
from darkempire.kernel import steps
from darkempire.kernel.listing import play_targets
from darkempire.kernel.mutable import Table
from darkempire.rules.cards import HAND_CARDS

__all__ = ["pick", "play_to_end"]

_VALUES: Final = tuple(card.value for card in HAND_CARDS)
_FIRST_REINFORCEMENT: Final = enc.FACTION_CARD_COUNT
_PAIR_INDEX: Final = tuple({pair: i for i, pair in enumerate(pairs)} for pairs in enc.PAIRS)
_FACTIONS: Final = 5


def _keep(card: int, victor: int, support: int) -> int:
    if card >= _FIRST_REINFORCEMENT:
        return 12
    faction = card // 13
    if faction == victor:
        return 20 + _VALUES[card]
    if faction == support:
        return 8 + _VALUES[card]
    return _VALUES[card]


def _play(k: Table, seat: int) -> int:
    hand = k.hands[seat]
    victor = k.victors[seat]
    support = k.support[seat]
    allowed = k.table_emperor >= 0 and not k.traitor[seat]
    factions = bisect_left(hand, _FIRST_REINFORCEMENT)
    step = 2 if allowed else 1
    best, best_index = -1, 0
    for position in range(factions):
        card = hand[position]
        faction = card // 13
        value = _VALUES[card]
        score = 100 + value if faction == victor else (50 + value if faction == support else 20 - value)
        if score > best:
            best, best_index = score, position * step
    if factions < len(hand) and k.phase != enc.PLAY_1 and best < 100:
        targets = play_targets(k, seat, allowed)
        for j, target in enumerate(targets):
            play = k.plays[target]
            if not play[2] and play[1] // 13 == victor:
                return factions * step + j  # the first reinforcement card: all are worth +3
    return best_index


def _pair(k: Table, seat: int) -> int:
    hand = k.hands[seat]
    victor, support = k.victors[seat], k.support[seat]
    order = sorted(range(len(hand)), key=lambda p: _keep(hand[p], victor, support))
    first, second = sorted(order[:2])
    return _PAIR_INDEX[len(hand)][(first, second)]


def _support(k: Table, seat: int) -> int:
    hand = k.hands[seat]
    victor = k.victors[seat]
    points = [0] * _FACTIONS
    for card in hand:
        if card < _FIRST_REINFORCEMENT:
            points[card // 13] += _VALUES[card] * (2 if card // 13 == victor else 1)
    options = [f for f in range(_FACTIONS) if not k.used[seat] >> f & 1]
    return max(range(len(options)), key=lambda i: points[options[i]])


def _reorganize(k: Table, seat: int) -> int:
    victor, support = k.victors[seat], k.support[seat]
    backs = [play[1] for play in k.plays if play[0] == seat and not play[2]]
    if not backs:
        return 0
    choice = 1 + max(range(len(backs)), key=lambda i: _keep(backs[i], victor, support))
    return choice << len(k.hands[seat])  # subset rank 0: discard nothing


def pick(k: Table, seat: int, rng: random.Random, epsilon: float) -> int:
    """``seat``'s choice by the policy above, an index of its listing (``k.counts[seat]`` actions)."""
    count = k.counts[seat]
    if count <= 1:
        return 0
    if rng.random() < epsilon:
        return rng.randrange(count)
    phase = k.phase
    if enc.PLAY_1 <= phase <= enc.PLAY_3:
        return _play(k, seat)
    if phase == enc.DRAFT_PASS or phase == enc.DRAFT_DISCARD:
        return _pair(k, seat)
    if phase == enc.CHOOSE_SUPPORT:
        return _support(k, seat)
    if phase == enc.REORGANIZE:
        return _reorganize(k, seat)
    return rng.randrange(count)


def play_to_end(k: Table, rng: random.Random, epsilon: float) -> None:
    """Play ``k`` to the end, every awaited seat choosing by :func:`pick` (choices already pending stay)."""
    while k.phase != enc.GAME_OVER:
        pending = k.pending
        for seat in k.awaiting:
            pending[seat] = pick(k, seat, rng, epsilon)
        k.awaiting = []
        steps.resolve(k)
