"""Resolving a step on the kernel, and every automatic step after it (spec sections 2-7, 9.2).

:func:`resolve` is the reference's ``_decide`` followed by ``_advance``: it completes the step's choices with
the forced ones (a seat with a single action has it made for it, ruling N), resolves the step in place, and
runs weekly scoring, monthly scoring and every step nobody has to choose in, until a seat must choose or the
game is over. Each resolver changes the piles in the reference's order (the discard pile's order decides
the next reshuffle) and draws chance the reference's way (:func:`shuffle`).
"""

from __future__ import annotations

import random
from bisect import bisect_left

from darkempire.kernel import encoding as enc
from darkempire.kernel import draws, listing, tally
from darkempire.kernel.mutable import Play, Table
from darkempire.rules.chance import Chance

__all__ = [
    "advance", "clear_table", "close_month", "lay_aside", "month_reset", "open_week", "resolve", "resolve_draft",
    "resolve_placement", "resolve_play", "shuffle", "week_start", "winning_seats",
]  # fmt: skip

_HAND_SIZE = 7
_WEEKS = 4
_MONTHS = 3
_NAMESPACE = Chance.NAMESPACE
_FIRST_REINFORCEMENT = enc.FACTION_CARD_COUNT


def shuffle(k: Table, items: list[int]) -> None:
    """Shuffle ``items`` in place with the game's next draw (:meth:`darkempire.rules.chance.Chance.shuffled`).

    The shuffle's permutation depends only on the list's length and the generator, so shuffling the ids is
    shuffling the reference's cards."""
    draws.shuffle(random.Random(f"{_NAMESPACE}:{k.seed}:{k.draws}"), items)
    k.draws += 1


def resolve(k: Table) -> None:
    """Resolve the step with the pending choices and the forced ones, then :func:`advance`."""
    chosen = k.pending
    phase = k.phase
    k.pending = [-1] * k.n
    if enc.PLAY_1 <= phase <= enc.PLAY_3:  # every seat with an action chose: a play step awaits them all
        resolve_play(k, chosen)
        advance(k)
        return
    counts = k.counts
    for seat in range(k.n):
        if chosen[seat] < 0 and counts[seat] == 1:
            chosen[seat] = 0
    if phase == enc.REORGANIZE:
        _resolve_reorganize(k, chosen)
    elif phase == enc.PLACEMENT:
        resolve_placement(k, chosen)
    elif phase == enc.CHOOSE_SUPPORT:
        k.support = [listing.support_options(k, seat)[chosen[seat]] for seat in range(k.n)]
        week_start(k)
    else:
        resolve_draft(k, chosen)
    advance(k)


def advance(k: Table) -> None:
    """Run the automatic steps (scoring, steps where nobody chooses) until a seat must choose; set
    ``k.awaiting`` to the seats that must."""
    while True:
        phase = k.phase
        if phase == enc.WEEK_SCORING:
            tally.score_week(k)
        elif phase == enc.MONTH_SCORING:
            tally.score_month(k)
            if k.phase == enc.CHOOSE_SUPPORT:
                month_reset(k)
        elif phase == enc.GAME_OVER:
            k.awaiting = []
            k.counts = [0] * k.n
            return
        else:
            required = listing.prepare(k)
            if required:
                k.awaiting = required
                return
            resolve(k)
            return


def resolve_draft(k: Table, chosen: list[int]) -> None:
    """The draft pass (rule 2.5: seat ``i``'s pair goes to seat ``i + 1``) or discard (rule 2.6)."""
    n = k.n
    pairs = [listing.decode_pair(k, seat, chosen[seat]) for seat in range(n)]
    if k.phase == enc.DRAFT_PASS:
        for seat in range(n):
            kept = [c for c in k.hands[seat] if c not in pairs[seat]]
            k.hands[seat] = sorted(kept + list(pairs[(seat - 1) % n]))
        k.phase = enc.DRAFT_DISCARD
        return
    for seat in range(n):
        pair = pairs[seat]
        k.discard += pair  # a pair is in id order already
        k.hands[seat] = [c for c in k.hands[seat] if c not in pair]
    k.phase = enc.CHOOSE_SUPPORT


def week_start(k: Table) -> None:
    """Reveal the week's revolution and emperor cards, the tops of the piles (rule 4.1, ruling J)."""
    open_week(k, k.revolution_pile.pop(0), k.emperor_pile.pop(0) if k.emperor_pile else -1)


def open_week(k: Table, revolution: int, emperor: int) -> None:
    """Start the next week with the revealed cards, already out of their piles (:func:`week_start`, or an
    explicit draw: :mod:`darkempire.kernel.explicit`)."""
    k.week += 1
    k.table_revolution = revolution
    k.table_emperor = emperor
    k.has_table = True
    k.plays = []
    k.idle = []
    k.revealed = 0
    k.traitor = [False] * k.n
    k.phase = enc.PLAY_1


def resolve_play(k: Table, chosen: list[int]) -> None:
    """A play step (rules 4.2-4.6): every seat's play is read off the table as it was, then revealed.

    The new faction cards join the table after the loop, in seat order, so a later seat's reinforcement is
    decoded against the table before this step; attaching a reinforcement changes no play's side."""
    step = k.phase - enc.PLAY_1 + 1
    hands, traitor, plays = k.hands, k.traitor, k.plays
    emperor = k.table_emperor >= 0
    new: list[Play] = []
    for seat, index in enumerate(chosen):
        if index < 0:
            k.idle.append((step, seat))
            continue
        hand = hands[seat]
        # A faction card, the common case, decoded here (listing.decode_play's first branch); the rest there.
        factions = bisect_left(hand, _FIRST_REINFORCEMENT)
        if emperor and not traitor[seat]:
            if index < 2 * factions:
                card, side = hand[index >> 1], index & 1
                new.append((seat, card, side, step, ()))
                if side:
                    traitor[seat] = True
                del hand[index >> 1]
                continue
        elif index < factions:
            new.append((seat, hand[index], 0, step, ()))
            del hand[index]
            continue
        card, _, target = listing.decode_play(k, seat, index)
        if card < 0:  # PlayNothing (ruling H)
            k.idle.append((step, seat))
            continue
        owner, target_card, target_side, target_step, attached = plays[target]
        plays[target] = (owner, target_card, target_side, target_step, attached + ((card, seat, step),))
        if target_side:
            traitor[seat] = True
        hand.remove(card)
    plays += new
    k.revealed = step
    k.phase = k.phase + 1 if step < 3 else enc.WEEK_SCORING


def resolve_placement(k: Table, chosen: list[int]) -> None:
    """The chosen cards go to the score track; their reinforcements to the discard pile (rule 5.5, R-S)."""
    placed: list[tuple[int, int, int, int]] = []
    for seat in range(k.n):
        if chosen[seat] >= 0:
            placed += [(c, seat, k.month, k.week) for c in sorted(listing.decode_placement(k, seat, chosen[seat]))]
    cards = {entry[0] for entry in placed}
    kept = []
    for play in k.plays:
        if play[1] in cards:
            k.discard += [r[0] for r in play[4]]
        else:
            kept.append(play)
    k.plays = kept
    k.faction_track += placed
    record = k.history[-1]
    record.placed = tuple(placed)
    record.built = None
    k.placements = []
    k.phase = tally.week_end_phase(k)


def _resolve_reorganize(k: Table, chosen: list[int]) -> None:
    """Re-organize (rules 6.1-6.5, ruling K): the table's cards and the discards to the discard pile in the
    reference's order, the hands refilled in seat order, the week's cards laid aside, the next week."""
    clear_table(k, chosen)
    _refill(k)
    lay_aside(k)
    if k.week < _WEEKS:
        week_start(k)
    else:
        close_month(k)


def clear_table(k: Table, chosen: list[int]) -> None:
    """Re-organize up to the refill: the table's cards, the discards and the take-backs (rules 6.1-6.3)."""
    n = k.n
    decoded = [listing.decode_reorganize(k, seat, i) if i >= 0 else (-1, []) for seat, i in enumerate(chosen)]
    taken = {take_back for take_back, _ in decoded if take_back >= 0}
    discard = k.discard
    for play in k.plays:  # traitor and reinforcement cards first (rule 6.1)
        discard += [r[0] for r in play[4]]
        if play[2]:
            discard.append(play[1])
    discard += [play[1] for play in k.plays if not play[2] and play[1] not in taken]
    for seat in range(n):
        take_back, drops = decoded[seat]
        if drops:
            discard += drops
            hand = [c for c in k.hands[seat] if c not in drops]
        else:
            hand = k.hands[seat]
        if take_back >= 0:
            hand.append(take_back)
        k.hands[seat] = hand


def lay_aside(k: Table) -> None:
    """Re-organize after the refill: the week's revolution and (unscored) emperor cards to the reserves."""
    k.revolution_reserve.append(k.table_revolution)
    if k.table_emperor >= 0:
        k.emperor_reserve.append(k.table_emperor)
    k.scored = False


def close_month(k: Table) -> None:
    """After the fourth week's re-organize: no table, monthly scoring next."""
    k.has_table = False
    k.plays = []
    k.idle = []
    k.phase = enc.MONTH_SCORING


def _refill(k: Table) -> None:
    """Each seat in turn draws to 7 (rule 6.4); an empty draw pile is replaced by the shuffled discard pile
    (ruling R); when both are empty, this seat and the later ones get fewer cards (ruling K)."""
    for seat in range(k.n):
        hand = k.hands[seat]
        need = _HAND_SIZE - len(hand)
        while need > 0:
            left = len(k.draw) - k.draw_top
            if not left:
                if not k.discard:
                    break
                shuffled = k.discard
                shuffle(k, shuffled)
                k.draw, k.draw_top, k.discard = shuffled, 0, []
                left = len(shuffled)
            take = min(need, left)
            top = k.draw_top
            hand += k.draw[top : top + take]
            k.draw_top = top + take
            need -= take
        hand.sort()


def month_reset(k: Table) -> None:
    """The next month's piles (rules 3.3, 7.4, ruling J): the five revolution cards and the unscored emperor
    cards, in id order, each shuffled with the game's next draw; four of each in the pile."""
    revolution = list(range(5))
    shuffle(k, revolution)
    emperor = sorted(k.emperor_pile + k.emperor_reserve)
    shuffle(k, emperor)
    k.revolution_pile, k.revolution_reserve = revolution[:_WEEKS], revolution[_WEEKS:]
    k.emperor_pile, k.emperor_reserve = emperor[:_WEEKS], emperor[_WEEKS:]


def winning_seats(k: Table) -> frozenset[int]:
    """The seats holding the winning factions' victor cards (rule 8.5)."""
    verdict = k.verdict
    assert verdict is not None
    return verdict.winners
