"""The Spy and the Apothecary: the choices their winners make during the Resolution (rules 5.7, 5.8).

They are the only characters that move cubes already on the board, and they work in full areas too. Their
winner chooses at the character's place in the board order, after the characters before it are resolved
and before those after it (rule 5.1, 9.1):

* the **Spy**'s winner takes one opponent's cube anywhere off the board, back to its owner's supply, and puts
  one of its own cubes in that space (rule 5.7, R-H); it needs a cube in its supply (R-G);
* the **Apothecary**'s winner swaps the cubes of two influence spaces, any two, its own or its opponents'
  (rule 5.8); only a swap of two cubes of different colours in different areas changes the board, so only
  those are offered (R-I);
* either may decline (R-J). With no cube to take or swap, nobody is asked (R-K).

With the optional Area Control Bonus (rule 8.2), an area whose every space holds one seat's cubes is closed to
that seat's opponents: no opponent's Spy or Apothecary may take or move a cube there (R-R).
"""

from __future__ import annotations

import attrs

from revolution.rules.actions import Action, CubeAt, Decline, Replace, Swap
from revolution.rules.data import Character, Effect
from revolution.rules.errors import IllegalTargetError
from revolution.rules.state import RevolutionState

__all__ = ["apply_effect", "effect_actions", "is_locked", "replacements", "swaps"]


def is_locked(state: RevolutionState, area: int, seat: int, chooser: int) -> bool:
    """Whether ``seat``'s cubes in area ``area`` are closed to ``chooser``'s Spy and Apothecary: with the Area
    Control Bonus, ``seat`` fills every space there and is ``chooser``'s opponent (rule 8.2, R-R)."""
    full = state.cubes[area][seat] == state.config.board.areas[area].spaces
    return state.config.area_control_bonus and full and seat != chooser


def _cubes(state: RevolutionState, chooser: int) -> list[CubeAt]:
    """Every cube the chooser may take or move, one per area and colour, in board and seat order."""
    return [
        CubeAt(area.name, seat)
        for index, area in enumerate(state.config.board.areas)
        for seat in range(state.players)
        if state.cubes[index][seat] and not is_locked(state, index, seat, chooser)
    ]


def replacements(state: RevolutionState, chooser: int) -> tuple[Replace, ...]:
    """The Spy's choices for ``chooser`` (rule 5.7, R-G, R-H): each opponent's cube it may take, if it has a
    cube left to put in its place."""
    if not state.supply[chooser]:
        return ()
    return tuple(Replace(cube) for cube in _cubes(state, chooser) if cube.seat != chooser)


def swaps(state: RevolutionState, chooser: int) -> tuple[Swap, ...]:
    """The Apothecary's choices for ``chooser`` (rule 5.8, R-I): every pair of cubes of different colours in
    different areas, the earlier area first."""
    cubes = _cubes(state, chooser)
    names = [area.name for area in state.config.board.areas]
    return tuple(
        Swap(first, second)
        for first in cubes
        for second in cubes
        if names.index(first.area) < names.index(second.area) and first.seat != second.seat
    )


def effect_actions(state: RevolutionState, chooser: int, effect: Effect) -> tuple[Action, ...]:
    """What ``chooser`` may choose for ``effect``: its replacements or swaps, then :class:`Decline` (R-J);
    nothing at all if it has no replacement or swap (R-K)."""
    options: tuple[Action, ...] = replacements(state, chooser) if effect is Effect.SPY else swaps(state, chooser)
    return (*options, Decline()) if options else ()


def _moved(cubes: tuple[tuple[int, ...], ...], changes: list[tuple[int, int, int]]) -> tuple[tuple[int, ...], ...]:
    """``cubes`` with ``(area, seat, delta)`` added."""
    table = [list(row) for row in cubes]
    for area, seat, delta in changes:
        table[area][seat] += delta
    return tuple(tuple(row) for row in table)


def _why_not(state: RevolutionState, chooser: int, action: object, effect: Effect) -> str:
    """Why ``action`` is no choice of ``chooser`` for ``effect``: the message of the refusal."""
    wanted = Replace if effect is Effect.SPY else Swap
    if not isinstance(action, wanted):
        return f"the {effect.value.title()}'s winner chooses a {wanted.__name__} or Decline, not {action!r:.60}"
    if isinstance(action, Replace) and not state.supply[chooser]:
        return f"seat {chooser} has no cube left to put in the replaced cube's space"
    if isinstance(action, Replace) and action.target.seat == chooser:
        return "the Spy replaces an opponent's cube, not one's own"
    return f"{action!r:.120} names no cube that may be taken or swapped now"


def _rule(effect: Effect) -> str:
    return "5.7" if effect is Effect.SPY else "5.8"


def apply_effect(state: RevolutionState, chooser: int, action: object, character: Character) -> RevolutionState:
    """The state after ``chooser``'s choice for ``character``'s effect (rules 5.7, 5.8, R-J).

    :raises IllegalTargetError: ``action`` is none of :func:`effect_actions` (naming rule 5.7 or 5.8).
    """
    assert character.effect is not None, "only the Spy and the Apothecary have an effect"
    if action not in effect_actions(state, chooser, character.effect):
        raise IllegalTargetError(_why_not(state, chooser, action, character.effect), rule=_rule(character.effect),
                                 seat=chooser)
    names = [area.name for area in state.config.board.areas]
    if isinstance(action, Replace):
        area = names.index(action.target.area)
        supply = list(state.supply)
        supply[chooser] -= 1
        supply[action.target.seat] += 1
        cubes = _moved(state.cubes, [(area, action.target.seat, -1), (area, chooser, 1)])
        return attrs.evolve(state, cubes=cubes, supply=tuple(supply))
    if isinstance(action, Swap):
        one, other = names.index(action.first.area), names.index(action.second.area)
        first, second = action.first.seat, action.second.seat
        cubes = _moved(state.cubes, [(one, first, -1), (one, second, 1), (other, second, -1), (other, first, 1)])
        return attrs.evolve(state, cubes=cubes)
    return state
