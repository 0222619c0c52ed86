"""Legal actions on the kernel: who must choose, how many actions a seat has, and action ``i`` (spec 9.2).

Every listing is the reference's (:func:`darkempire.rules.engine.legal_actions`) in the same order, so index
``i`` names the same action in both:

* draft pass and discard: the pairs of the hand in :func:`itertools.combinations` order (rules 2.5, 2.6);
* choose support: the support cards left, in faction order (rule 3.2);
* a play step: each hand card in id order, a faction card to the revolution side and then (while the seat
  may make its traitor play) the emperor side, a reinforcement card on each play it may reinforce in table
  order; :class:`~darkempire.rules.actions.PlayNothing` alone when nothing is playable (rules 4.2-4.6,
  rulings G, H);
* placement: the product of the candidates of each faction due, in faction order (rule 5.6);
* re-organize: each take-back (none first, then the seat's revolution-side plays in table order) with each
  subset of the hand by size, in combinations order (rules 6.2, 6.3): index ``i`` takes back
  ``take_backs[i >> len(hand)]`` and discards subset ``i & (2 ** len(hand) - 1)``.

The counts read only what the listing needs, and :func:`decode_play` and friends turn an index into the
kernel's own ints; :func:`build_action` builds the reference's action object only on demand.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING

from darkempire.kernel import encoding as enc
from darkempire.rules.actions import (
    Action,
    ChooseSupport,
    DiscardCards,
    PassCards,
    PlaceCards,
    PlayCard,
    PlayNothing,
    Reinforce,
    Reorganize,
)
from darkempire.rules.cards import HAND_CARDS
from darkempire.rules.errors import InvalidArgumentError

if TYPE_CHECKING:
    from darkempire.kernel.mutable import Table

__all__ = [
    "build_action",
    "decode_placement",
    "decode_play",
    "decode_reorganize",
    "legal_count",
    "count_options",
    "option_count",
    "prepare",
    "support_options",
]

_FIRST_REINFORCEMENT = enc.FACTION_CARD_COUNT


def _reinforcements(hand: list[int]) -> int:
    """How many reinforcement cards a sorted hand holds: they are its last cards (ids 65-74)."""
    return len(hand) - bisect_left(hand, _FIRST_REINFORCEMENT)


def play_targets(k: Table, seat: int, traitor_allowed: bool) -> list[int]:
    """The positions in ``k.plays`` a reinforcement card of ``seat`` may be attached to (rule 4.6, ruling G):
    every play on the table (each was revealed at an earlier step), a traitor card only while the seat may
    still make its traitor play."""
    if traitor_allowed:
        return list(range(len(k.plays)))
    return [i for i, play in enumerate(k.plays) if not play[2]]


def _play_count(k: Table, seat: int) -> int:
    """The play-step listing's size, or 0 for an empty hand; :class:`PlayNothing` counts as 1 (ruling H)."""
    hand = k.hands[seat]
    if not hand:
        return 0
    allowed = k.table_emperor >= 0 and not k.traitor[seat]
    reinforcements = _reinforcements(hand)
    size = (len(hand) - reinforcements) * (2 if allowed else 1)
    if reinforcements and k.phase != enc.PLAY_1:
        size += reinforcements * len(play_targets(k, seat, allowed))
    return size or 1


def _dues(k: Table, seat: int) -> list[tuple[int, ...]]:
    """The candidates of each faction ``seat`` must place a card of, in faction order (rule 5.6)."""
    return [candidates for due_seat, _, candidates in k.placements if due_seat == seat]


def _take_backs(k: Table, seat: int) -> list[int]:
    """The cards ``seat`` may take back, after "none" (rule 6.2): its revolution-side plays in table order."""
    return [play[1] for play in k.plays if play[0] == seat and not play[2]]


def count_options(k: Table, seat: int) -> int:
    """How many actions ``seat`` has in this step, pending choices ignored (the reference's ``_options``),
    counted afresh from the table and the hand (:func:`prepare` keeps them for the step)."""
    phase = k.phase
    hand = k.hands[seat]
    if enc.PLAY_1 <= phase <= enc.PLAY_3:
        return _play_count(k, seat)
    if phase == enc.REORGANIZE:
        return (1 + len(_take_backs(k, seat))) << len(hand)
    if phase == enc.DRAFT_PASS or phase == enc.DRAFT_DISCARD:
        size = len(hand)
        return size * (size - 1) // 2
    if phase == enc.CHOOSE_SUPPORT:
        return 5 - bin(k.used[seat]).count("1")
    if phase == enc.PLACEMENT:
        dues = _dues(k, seat)
        if not dues:
            return 0
        product = 1
        for candidates in dues:
            product *= len(candidates)
        return product
    return 0


def prepare(k: Table) -> list[int]:
    """Count every seat's actions for the step just entered into ``k.counts`` (they hold until the step
    resolves: nothing on the table changes before), and return the seats that must choose (rule 9.2,
    ruling N): at a play step every seat holding a card; elsewhere every seat with two or more actions."""
    phase = k.phase
    n = k.n
    if enc.PLAY_1 <= phase <= enc.PLAY_3:
        k.counts = counts = _play_counts(k)
        return [seat for seat in range(n) if counts[seat]]  # a hand with a card has at least PlayNothing
    if phase == enc.GAME_OVER or phase == enc.WEEK_SCORING or phase == enc.MONTH_SCORING:
        k.counts = [0] * n
        return []
    if phase == enc.REORGANIZE:
        take_backs = [1] * n
        for play in k.plays:
            if not play[2]:
                take_backs[play[0]] += 1
        counts = [take_backs[seat] << len(k.hands[seat]) for seat in range(n)]
    else:
        counts = [count_options(k, seat) for seat in range(n)]
    k.counts = counts
    return [seat for seat in range(n) if counts[seat] >= 2]


def _play_counts(k: Table) -> list[int]:
    """:func:`_play_count` of every seat, the table read once."""
    plays = k.plays
    later = k.phase != enc.PLAY_1
    emperor = k.table_emperor >= 0
    every = len(plays)
    revolution = -1  # counted only if a seat holding a reinforcement card may not reinforce a traitor card
    traitor = k.traitor
    counts = []
    for seat, hand in enumerate(k.hands):
        if not hand:
            counts.append(0)
            continue
        allowed = emperor and not traitor[seat]
        factions = bisect_left(hand, _FIRST_REINFORCEMENT)
        if factions == len(hand) or not later:  # no reinforcement card, or none playable yet (rule 4.6)
            counts.append((factions * 2 if allowed else factions) or 1)
            continue
        if allowed:
            size = factions * 2 + (len(hand) - factions) * every
        else:
            if revolution < 0:
                revolution = every - sum(play[2] for play in plays)
            size = factions + (len(hand) - factions) * revolution
        counts.append(size or 1)
    return counts


def option_count(k: Table, seat: int) -> int:
    """How many actions ``seat`` has in this step, pending choices ignored, as :func:`prepare` counted."""
    return k.counts[seat]


def legal_count(k: Table, seat: int) -> int:
    """``len(legal_actions(state, seat))``: 0 unless ``seat`` is awaited (a play step awaits a seat that
    holds cards and has not chosen)."""
    if k.pending[seat] >= 0 or seat not in k.awaiting:
        return 0
    return option_count(k, seat)


def support_options(k: Table, seat: int) -> list[int]:
    """The factions whose support card ``seat`` has not used, in faction order (rule 3.2)."""
    used = k.used[seat]
    return [f for f in range(5) if not used >> f & 1]


def decode_play(k: Table, seat: int, index: int) -> tuple[int, int, int]:
    """Play-step action ``index`` of ``seat`` as ``(card, side, target)``: side 0 or 1 and target ``-1`` for a
    faction card, side ``-1`` and the target's position in ``k.plays`` for a reinforcement card, and
    ``(-1, -1, -1)`` for :class:`PlayNothing`. Read before the step's plays join the table."""
    hand = k.hands[seat]
    allowed = k.table_emperor >= 0 and not k.traitor[seat]
    factions = bisect_left(hand, _FIRST_REINFORCEMENT)
    if allowed:
        if index < 2 * factions:
            return hand[index >> 1], index & 1, -1
        index -= 2 * factions
    elif index < factions:
        return hand[index], 0, -1
    else:
        index -= factions
    if k.phase == enc.PLAY_1:
        return -1, -1, -1
    targets = play_targets(k, seat, allowed)
    if not targets:
        return -1, -1, -1
    return hand[factions + index // len(targets)], -1, targets[index % len(targets)]


def decode_placement(k: Table, seat: int, index: int) -> list[int]:
    """Placement action ``index`` of ``seat``: one card of each faction due, in faction order (the
    :func:`itertools.product` order, the last faction's candidates varying fastest)."""
    dues = _dues(k, seat)
    cards = [0] * len(dues)
    for position in range(len(dues) - 1, -1, -1):
        candidates = dues[position]
        index, pick = divmod(index, len(candidates))
        cards[position] = candidates[pick]
    return cards


def decode_reorganize(k: Table, seat: int, index: int) -> tuple[int, list[int]]:
    """Re-organize action ``index`` of ``seat``: the card taken back (``-1``: none) and the discards, in
    hand (id) order."""
    hand = k.hands[seat]
    size = len(hand)
    choice = index >> size
    take_back = _take_backs(k, seat)[choice - 1] if choice else -1
    rank = index & ((1 << size) - 1)
    if size < len(enc.SUBSET_POSITIONS):
        return take_back, [hand[position] for position in enc.SUBSET_POSITIONS[size][rank]]
    mask = enc.subset_masks(size)[rank]
    return take_back, [card for position, card in enumerate(hand) if mask >> position & 1]


def decode_pair(k: Table, seat: int, index: int) -> tuple[int, int]:
    """Draft action ``index`` of ``seat``: the pair of cards, in :func:`itertools.combinations` order."""
    hand = k.hands[seat]
    if index < 0:  # a seat with fewer than 2 cards has no pair to give: counting the pairs out never ends
        raise InvalidArgumentError(
            f"seat {seat} holds {len(hand)} card{'' if len(hand) == 1 else 's'} at the draft, no pair to pass or "
            "discard: no game the rules reach has such a hand (rules 2.5, 2.6)"
        )
    pairs = enc.PAIRS[len(hand)] if len(hand) < len(enc.PAIRS) else ()
    if pairs:
        first, second = pairs[index]
    else:  # a hand larger than any game deals: count the pairs out
        first = 0
        while index >= len(hand) - 1 - first:
            index -= len(hand) - 1 - first
            first += 1
        second = first + 1 + index
    return hand[first], hand[second]


def build_action(k: Table, seat: int, index: int) -> Action:
    """The reference's action object for index ``index`` of ``seat``'s listing, made of the game's own
    card objects (:data:`~darkempire.rules.cards.HAND_CARDS`), equal to ``legal_actions(state, seat)[index]``."""
    phase = k.phase
    cards = HAND_CARDS
    if enc.PLAY_1 <= phase <= enc.PLAY_3:
        card, side, target = decode_play(k, seat, index)
        if card < 0:
            return PlayNothing()
        if side < 0:
            return Reinforce(cards[card], cards[k.plays[target][1]])
        return PlayCard(cards[card], enc.SIDES[side])
    if phase == enc.REORGANIZE:
        take_back, discards = decode_reorganize(k, seat, index)
        return Reorganize(cards[take_back] if take_back >= 0 else None, frozenset(cards[c] for c in discards))
    if phase == enc.DRAFT_PASS or phase == enc.DRAFT_DISCARD:
        kind = PassCards if phase == enc.DRAFT_PASS else DiscardCards
        return kind(frozenset(cards[c] for c in decode_pair(k, seat, index)))
    if phase == enc.CHOOSE_SUPPORT:
        return ChooseSupport(enc.FACTIONS[support_options(k, seat)[index]])
    return PlaceCards(frozenset(cards[c] for c in decode_placement(k, seat, index)))
