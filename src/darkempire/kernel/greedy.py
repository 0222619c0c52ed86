"""GreedyBot on the kernel's integers: the same choices as :class:`~darkempire.bots.GreedyBot`, without a view.

A search plays many games to their end and needs a model of how the other seats play; a simulation of greedy
seats wants the kernel's speed. GreedyBot's preferences (spec 8.2-8.4; the bot's docstring lists them) are a
few sums over the table, the hand and the finished weeks, so they can be read off a
:class:`~darkempire.kernel.mutable.Table` instead of a :class:`~darkempire.rules.views.PlayerView` and a
listing of action objects.

:func:`greedy_index` returns the index, in the seat's listing, of the action GreedyBot would choose, and
breaks ties as GreedyBot does: one ``randrange`` over the tied actions in listing order, from the generator
given. So with a generator in the state of a GreedyBot's own it makes *the same* choice, and
:func:`play_greedy` with one generator per seat, seeded as the bots are, plays the game
:func:`darkempire.bots.run_game` plays with those GreedyBots (``tests/test_kernel_greedy.py`` holds the two
to that, game by game).

Only what the seat may see is read: its hand, victor and support faction, the table, the score track, the
tokens and the finished weeks. A search hands it sampled worlds, never the real state.

What GreedyBot recomputes at every decision but changes only once a week (its forecast of an emperor
victory, the traitor plays of the finished weeks) is kept in a :class:`Forecast`, brought up to date by
each call.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from typing import Final

from darkempire.kernel import encoding as enc
from darkempire.kernel import steps
from darkempire.kernel.listing import decode_placement
from darkempire.kernel.mutable import Record, Table
from darkempire.rules.errors import InvalidArgumentError

__all__ = ["Forecast", "GreedySeat", "Strengths", "choose_for", "greedy_index", "play_greedy", "sinking"]

_VALUES: Final = enc.CARD_VALUE
_CARD_FACTION: Final = enc.CARD_FACTION
_FIRST_REINFORCEMENT: Final = enc.FACTION_CARD_COUNT
_BONUS: Final = enc.REINFORCEMENT_BONUS
_EMPEROR_VALUES: Final = enc.EMPEROR_VALUE
_EMPEROR_DECK_POINTS: Final = sum(enc.EMPEROR_VALUE)
_EMPEROR_CARDS: Final = len(enc.EMPEROR_VALUE)
_GAME_WEEKS: Final = 12
# GreedyBot's constants (darkempire.bots), restated for the kernel: that module keeps them private.
_LEADER_GAIN_PER_FREE_WEEK: Final = 5.0
_TRAITOR_MARGIN: Final = 3
_PRIOR_WINS: Final = 1
_PRIOR_LOSSES: Final = 3
_HOSTILE_TRAITOR_RATE: Final = 0.3
#: The rank of each discard set, by hand size: ``_SUBSET_RANK[size][mask]``, the inverse of ``enc.SUBSETS``.
_SUBSET_RANK: Final[tuple[dict[int, int], ...]] = tuple(
    {mask: rank for rank, mask in enumerate(masks)} for masks in enc.SUBSETS
)


class GreedySeat:
    """A seat that :func:`darkempire.kernel.playout.play_bots` plays by GreedyBot's preferences on the kernel's
    ints, breaking ties with ``rng`` as a :class:`~darkempire.bots.GreedyBot` holding it would.

    :ivar rng: the seat's generator.
    """

    __slots__ = ("rng",)

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng


class Forecast:
    """What GreedyBot reads of the finished weeks and the score track, summed when they change.

    It follows one table forward: handed another table (a copy, or another game), it reads that one afresh.

    :ivar key: the moment it was read at: finished weeks, placed faction and emperor cards, and the month.
    :ivar traitors: the traitor cards each seat played in the finished weeks.
    :ivar emperor_weeks: finished weeks with an emperor card.
    :ivar emperor_ahead: whether the emperor's projected final total reaches the leader's (the second test of
        :func:`darkempire.bots.expects_emperor_victory`, the same for every seat).
    """

    __slots__ = ("emperor_ahead", "emperor_weeks", "history", "key", "traitors")

    def __init__(self, n: int) -> None:
        self.key = (-1, -1, -1, -1)
        #: The finished weeks of the table it was read on: every table has its own list, so two tables at
        #: the same counts are told apart.
        self.history: list[Record] | None = None
        self.traitors = [0] * n
        self.emperor_weeks = 0
        self.emperor_ahead = False

    def update(self, k: Table) -> None:
        """Read ``k`` again if it is another table, or the finished weeks, the score track or the month changed
        since the last read."""
        key = (len(k.history), len(k.faction_track), len(k.emperor_track), k.month)
        if key == self.key and k.history is self.history:
            return
        self.key = key
        self.history = k.history
        traitors = [0] * k.n
        emperor_weeks = emperor_wins = 0
        scored = {(month, week) for _, month, week in k.emperor_track}
        for record in k.history:
            for play in record.plays:
                if play[2]:
                    traitors[play[0]] += 1
            if record.emperor >= 0:
                emperor_weeks += 1
                if (record.month, record.week) in scored:
                    emperor_wins += 1
        self.traitors = traitors
        self.emperor_weeks = emperor_weeks
        rate = (emperor_wins + _PRIOR_WINS) / (emperor_weeks + _PRIOR_WINS + _PRIOR_LOSSES)
        emperor_now = 0
        for card, _, _ in k.emperor_track:
            emperor_now += _EMPEROR_VALUES[card]
        unscored_points = _EMPEROR_DECK_POINTS - emperor_now
        unscored_cards = _EMPEROR_CARDS - len(k.emperor_track)
        weeks_left = _GAME_WEEKS - len(k.history)
        average = unscored_points / unscored_cards if unscored_cards else 0.0
        emperor_final = emperor_now + min(float(unscored_points), rate * weeks_left * average)
        points = [0] * 5
        for card, _, _, _ in k.faction_track:
            points[_CARD_FACTION[card]] += _VALUES[card]
        tokens = max([b + m for b, m in zip(k.banked, k.month_tokens)])
        leader_final = max(points) + tokens + (1 - rate) * weeks_left * _LEADER_GAIN_PER_FREE_WEEK
        self.emperor_ahead = emperor_final >= leader_final


def sinking(k: Table, seat: int, forecast: Forecast) -> bool:
    """:func:`darkempire.bots.expects_emperor_victory` for ``seat``: the others' traitor rate, or the forecast.

    :param forecast: up to date for ``k`` (:meth:`Forecast.update`).
    """
    weeks = float(forecast.emperor_weeks)
    traitors = sum(forecast.traitors) - forecast.traitors[seat]
    phase = k.phase
    if enc.PLAY_1 <= phase <= enc.PLAY_3 and k.table_emperor >= 0:
        weeks += k.revealed / 3  # this week's revealed steps count as a fraction of a week
        for play in k.plays:
            if play[2] and play[0] != seat:
                traitors += 1
    return traitors / ((k.n - 1) * (weeks + 1)) >= _HOSTILE_TRAITOR_RATE or forecast.emperor_ahead


def _keep(card: int, victor: int, support: int, sink: bool) -> float:
    """GreedyBot's ``_keep_value``: how much the seat wants to hold ``card``."""
    if card >= _FIRST_REINFORCEMENT:
        return 12.0
    faction = _CARD_FACTION[card]
    if faction == victor:
        return 20.0 + _VALUES[card]
    if sink:
        return 10.0 - _VALUES[card]
    if faction == support:
        return 8.0 + _VALUES[card]
    return float(_VALUES[card])


def _best(values: list[float], rng: random.Random) -> int:
    """The position of a highest value, ties broken as GreedyBot's ``_best`` does (one draw)."""
    top = max(values)
    tied = [i for i, v in enumerate(values) if v == top]
    return tied[rng.randrange(len(tied))]


class Strengths:
    """The week's table as a play step finds it: each faction's strength and the emperor's (ruling B), read once
    for every seat that chooses in the step.

    :ivar strengths: each faction's strength, by faction.
    :ivar top: the strongest faction's strength.
    :ivar others: for each faction, the strength of the strongest other faction.
    :ivar emperor: the emperor's strength, ``-1`` without an emperor card.
    """

    __slots__ = ("emperor", "others", "strengths", "top")

    def __init__(self, k: Table) -> None:
        strengths = [0, 0, 0, 0, 0]
        strengths[k.table_revolution] += enc.REVOLUTION_CARD_VALUE
        traitors = 0
        for play in k.plays:
            card = play[1]
            value = _VALUES[card] + _BONUS * len(play[4])
            if play[2]:
                strengths[_CARD_FACTION[card]] -= value
                traitors += value
            else:
                strengths[_CARD_FACTION[card]] += value
        self.strengths = strengths
        self.top = max(strengths)
        # The strongest of the other factions, for each faction: what a traitor card cannot lower.
        self.others = [max([s for g, s in enumerate(strengths) if g != f]) for f in range(5)]
        emperor = k.table_emperor
        self.emperor = _EMPEROR_VALUES[emperor] + k.add_on + traitors if emperor >= 0 else -1

    def safe(self, faction: int, points: int) -> bool:
        """GreedyBot's ``_traitor_is_safe``: after ``points`` go from ``faction`` to the emperor, the
        emperor stays at least 3 points (``_TRAITOR_MARGIN``) below the strongest faction (rulings B, E)."""
        if self.emperor < 0:
            return False
        top = max(self.strengths[faction] - points, self.others[faction])
        return self.emperor + points <= top - _TRAITOR_MARGIN


def _play_values(k: Table, seat: int, sink: bool, week: Strengths) -> list[float]:
    """GreedyBot's ``_play_value`` of every action in ``seat``'s play-step listing, in listing order."""
    hand = k.hands[seat]
    victor, support = k.victors[seat], k.support[seat]
    strengths = week.strengths
    allowed = k.table_emperor >= 0 and not k.traitor[seat]
    factions = bisect_left(hand, _FIRST_REINFORCEMENT)
    values: list[float] = []
    for position in range(factions):
        card = hand[position]
        faction = _CARD_FACTION[card]
        value = _VALUES[card]
        if sink:
            values.append(40.0 - (strengths[faction] + value) - (30.0 if faction == victor else 0.0))
        elif faction == victor:
            values.append(100.0 + value)
        elif faction == support:
            values.append(60.0 + value)
        else:
            values.append(20.0 - value)
        if allowed:
            if sink:
                values.append((100.0 if faction == victor else 80.0) + value)
            elif faction == victor or not week.safe(faction, value):
                values.append(-100.0)
            elif strengths[faction] >= strengths[victor]:
                values.append(50.0 + value)
            else:
                values.append(5.0 + value / 2)
    if factions < len(hand) and k.phase != enc.PLAY_1:
        per_card: list[float] = []
        for target, play in enumerate(k.plays):
            if allowed or not play[2]:  # listing.play_targets: a traitor card only while the seat may still
                per_card.append(_reinforce_value(k, seat, target, sink, week))
        for _ in range(len(hand) - factions):
            values += per_card
    return values


def _reinforce_value(k: Table, seat: int, target: int, sink: bool, week: Strengths) -> float:
    play = k.plays[target]
    faction = _CARD_FACTION[play[1]]
    victor = k.victors[seat]
    strengths = week.strengths
    if play[2]:
        if sink:
            return 70.0
        if faction == victor or not week.safe(faction, _BONUS):
            return -100.0
        return 45.0 if strengths[faction] >= strengths[victor] else 0.0
    own = play[0] == seat
    if sink:
        if own or faction == victor:
            return -30.0
        return 50.0 + (10.0 if strengths[faction] + _BONUS >= week.top else 0.0)
    if faction == victor:
        return 95.0 if own else 90.0
    if own and faction == k.support[seat]:
        return 55.0
    return 10.0 if own else 0.0


def _pair_values(k: Table, seat: int, sink: bool) -> list[float]:
    hand = k.hands[seat]
    victor, support = k.victors[seat], k.support[seat]
    keep = [_keep(card, victor, support, sink) for card in hand]
    return [-(keep[a] + keep[b]) for a, b in enc.PAIRS[len(hand)]]


def _support_values(k: Table, seat: int, sink: bool) -> list[float]:
    victor = k.victors[seat]
    points = [0, 0, 0, 0, 0]
    for card in k.hands[seat]:
        if card < _FIRST_REINFORCEMENT:
            points[_CARD_FACTION[card]] += _VALUES[card]
    values: list[float] = []
    for f in range(5):
        if k.used[seat] >> f & 1:
            continue
        if sink:
            values.append(-points[f] - (100.0 if f == victor else 0.0))
        else:
            values.append(points[f] * (2.0 if f == victor else 1.0))
    return values


def _placement_values(k: Table, seat: int, sink: bool) -> list[float]:
    victor = k.victors[seat]
    values: list[float] = []
    for index in range(k.counts[seat]):
        own = 0
        for card in decode_placement(k, seat, index):
            own += _VALUES[card] if _CARD_FACTION[card] == victor else -_VALUES[card]
        values.append(float(-own if sink else own))
    return values


def _reorganize(k: Table, seat: int, sink: bool, rng: random.Random) -> int:
    """GreedyBot's re-organize, built rather than scored: its take-back and its discards."""
    hand = k.hands[seat]
    victor, support = k.victors[seat], k.support[seat]
    backs = [play[1] for play in k.plays if play[0] == seat and not play[2]]
    choice = 0
    if backs and not sink:
        ordered = sorted(set(backs))
        card = ordered[_best([_keep(c, victor, support, False) for c in ordered], rng)]
        choice = 1 + backs.index(card)
    mask = 0
    for position, card in enumerate(hand):
        faction = _CARD_FACTION[card]
        if faction < 0 or faction == victor:
            continue
        if (_VALUES[card] >= 7) if sink else (faction != support and _VALUES[card] <= 5):
            mask |= 1 << position
    return (choice << len(hand)) | _SUBSET_RANK[len(hand)][mask]


def greedy_index(
    k: Table, seat: int, rng: random.Random, forecast: Forecast | None = None, *, sink: bool | None = None
) -> int:
    """The index, in ``seat``'s listing, of the action :class:`~darkempire.bots.GreedyBot` chooses now.

    :param rng: breaks ties as the bot's own generator does (one ``randrange`` per choice between two or
        more actions; none when the seat has a single action).
    :param forecast: kept up to date by this call; a fresh one is read when not given.
    :param sink: GreedyBot's mode, sinking or rising, instead of the one its forecast gives
        (:func:`sinking`): a search plays its own seat this way to try out either plan.
    :raises ~darkempire.rules.errors.InvalidArgumentError: ``seat`` is no seat of the table, or has no legal
        action now (GreedyBot is asked only with one).
    """
    if not 0 <= seat < k.n:
        raise InvalidArgumentError(f"there is no seat {seat} in a {k.n}-player game")
    count = k.counts[seat]
    if count <= 1:
        if count == 0:
            raise InvalidArgumentError(f"seat {seat} has no legal action now: there is nothing to choose")
        return 0
    if sink is None:
        if forecast is None:
            forecast = Forecast(k.n)
        forecast.update(k)
        sink = sinking(k, seat, forecast)
    return _choose(k, seat, rng, sink, None)


def _choose(k: Table, seat: int, rng: random.Random, sink: bool, week: Strengths | None) -> int:
    phase = k.phase
    if enc.PLAY_1 <= phase <= enc.PLAY_3:
        return _best(_play_values(k, seat, sink, week if week is not None else Strengths(k)), rng)
    if phase == enc.REORGANIZE:
        return _reorganize(k, seat, sink, rng)
    if phase == enc.DRAFT_PASS or phase == enc.DRAFT_DISCARD:
        return _best(_pair_values(k, seat, sink), rng)
    if phase == enc.CHOOSE_SUPPORT:
        return _best(_support_values(k, seat, sink), rng)
    return _best(_placement_values(k, seat, sink), rng)


def choose_for(k: Table, seats: list[int], rngs: list[random.Random], forecast: Forecast) -> None:
    """Make the pending choice of each of ``seats`` (awaited, in seat order) as GreedyBot does with
    ``rngs[seat]``: :func:`greedy_index` for each, with the table's strengths read once for all of them."""
    forecast.update(k)
    pending, counts = k.pending, k.counts
    week = Strengths(k) if enc.PLAY_1 <= k.phase <= enc.PLAY_3 else None
    for seat in seats:
        pending[seat] = _choose(k, seat, rngs[seat], sinking(k, seat, forecast), week) if counts[seat] > 1 else 0


def play_greedy(k: Table, rngs: list[random.Random], forecast: Forecast | None = None) -> None:
    """Play ``k`` to the end, every awaited seat choosing in seat order as GreedyBot does with ``rngs[seat]``
    (choices already pending stay)."""
    if forecast is None:
        forecast = Forecast(k.n)
    while k.phase != enc.GAME_OVER:
        choose_for(k, k.awaiting, rngs, forecast)
        k.awaiting = []
        steps.resolve(k)
