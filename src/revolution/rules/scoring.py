"""Patronage and the final score (rules 6.1, 7.2-7.4, 8.2).

* **Patronage** (rule 6.1): a seat holding fewer than five tokens, whatever their kind, takes Gold from the
  bank up to five; never Force or Blackmail. If the bank cannot top up everyone, it gives one Gold at a time
  in seat order, as long as it has any (R-F).
* **Area bonuses** (rule 7.2): an area's bonus goes to the seat with strictly the most cubes there; a tie for
  the most gives it to nobody (the Cathedral examples A and B).
* **Leftover tokens** (rule 7.3): 5 support a Force, 3 a Blackmail, 1 a Gold.
* **Area Control Bonus** (rule 8.2, optional): 10 more for every area all of whose spaces hold one's cubes.

>>> controller((2, 3, 2)), controller((3, 3, 1)), controller((0, 0, 0))
(1, None, None)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from revolution.rules.state import FinalScore, RevolutionState
from revolution.rules.tokens import Tokens

__all__ = ["CONTROL_BONUS", "PATRONAGE", "area_bonuses", "controller", "final_scores", "patronage"]

#: Patronage tops a seat's tokens up to this many (rule 6.1).
PATRONAGE: Final = 5
#: The optional Area Control Bonus: support for each area one fills alone (rule 8.2).
CONTROL_BONUS: Final = 10


def controller(cubes: Sequence[int]) -> int | None:
    """The seat with strictly the most cubes in one area, or ``None`` on a tie for the most or an empty area
    (rule 7.2). ``cubes[seat]`` is the seat's count there.

    :pre: len(cubes) <= 4 and all(count >= 0 for count in cubes)
    :post: __return__ is None or all(cubes[__return__] > c for i, c in enumerate(cubes) if i != __return__)
    :post: __return__ is not None or max(cubes, default=0) == 0 or list(cubes).count(max(cubes)) > 1
    """
    best = max(cubes, default=0)
    most = [seat for seat, count in enumerate(cubes) if count == best]
    return most[0] if best and len(most) == 1 else None


def patronage(held: tuple[Tokens, ...], bank: Tokens) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The Gold each seat takes at Patronage, and the Gold each lacks because the bank ran out (rule 6.1, R-F).

    Each seat holding fewer than :data:`PATRONAGE` tokens is owed Gold up to five. The bank pays one Gold at a
    time, seat after seat in seat order, round and round, until every seat is paid or the bank has no Gold.
    """
    owed = [max(0, PATRONAGE - tokens.total) for tokens in held]
    given = [0] * len(held)
    gold = bank.gold
    while gold and any(given[seat] < owed[seat] for seat in range(len(held))):
        for seat in range(len(held)):
            if gold and given[seat] < owed[seat]:
                given[seat] += 1
                gold -= 1
    return tuple(given), tuple(want - got for want, got in zip(owed, given))


def area_bonuses(cubes: Sequence[Sequence[int]], bonuses: Sequence[int], players: int) -> tuple[int, ...]:
    """Each seat's area bonuses (rule 7.2): ``cubes[area][seat]`` the cubes, ``bonuses[area]`` each area's bonus.

    :func:`final_scores` takes its area bonuses from here; the contracts state rule 7.2 on plain numbers, where
    CrossHair can check them (``nox -s crosshair``): the bonuses paid are those of the areas with a strict
    majority, each paid once, and a seat with no cube anywhere scores none.

    :pre: 3 <= players <= 4 and len(cubes) == len(bonuses) <= 3
    :pre: all(len(row) == players and all(c >= 0 for c in row) for row in cubes) and all(b >= 0 for b in bonuses)
    :post: len(__return__) == players
    :post: sum(__return__) == sum(b for row, b in zip(cubes, bonuses) if controller(row) is not None)
    :post: all(__return__[seat] == 0 for seat in range(players) if not any(row[seat] for row in cubes))
    """
    paid = [0] * players
    for row, bonus in zip(cubes, bonuses):
        owner = controller(row)
        if owner is not None:
            paid[owner] += bonus
    return tuple(paid)


def final_scores(state: RevolutionState) -> tuple[FinalScore, ...]:
    """Each seat's final score at the end (rules 7.2-7.4, 8.2): support on the track, the bonuses of the areas it
    controls, with the optional rule 10 for each area it fills alone, and its leftover tokens."""
    board = state.config.board
    owners = [controller(row) for row in state.cubes]
    bonuses = area_bonuses(state.cubes, tuple(area.bonus for area in board.areas), state.players)
    scores = []
    for seat in range(state.players):
        areas = tuple(area.name for area, owner in zip(board.areas, owners) if owner == seat)
        alone = tuple(area.name for index, area in enumerate(board.areas)
                      if state.config.area_control_bonus and state.cubes[index][seat] == area.spaces)
        scores.append(FinalScore(
            seat=seat,
            support=state.support[seat],
            areas=areas,
            area_bonus=bonuses[seat],
            full_control=alone,
            control_bonus=CONTROL_BONUS * len(alone),
            tokens=state.held[seat],
            token_support=state.held[seat].support,
        ))
    return tuple(scores)
