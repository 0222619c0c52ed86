"""The actions a seat chooses: its :class:`~revolution.rules.bids.Bid` at the Bidding (rule 4), and, during the
Resolution, the winner of the Spy or the Apothecary its effect (rules 5.7, 5.8).

* :class:`Replace`: the Spy's winner replaces one opponent's cube with one of its own (rule 5.7);
* :class:`Swap`: the Apothecary's winner swaps the cubes of two influence spaces (rule 5.8); use
  :meth:`Swap.between` to build one from two cubes in either order;
* :class:`Decline`: the winner uses neither (R-J).

A cube is named by its area and its owner's seat (:class:`CubeAt`): the spaces of an area are alike, so which
of a seat's cubes in an area is taken changes nothing.
"""

from __future__ import annotations

from typing import TypeAlias

import attrs

from revolution.rules.bids import Bid

__all__ = ["Action", "CubeAt", "Decline", "Replace", "Swap"]


@attrs.frozen(order=True)
class CubeAt:
    """A cube on the board: one of ``seat``'s cubes in ``area``.

    :ivar area: the area's name.
    :ivar seat: the seat whose colour the cube is.
    """

    area: str
    seat: int


@attrs.frozen
class Replace:
    """The Spy (rule 5.7): take ``target`` off the board, back to its owner, and put one of the chooser's cubes in
    its space.

    :ivar target: an opponent's cube.
    """

    target: CubeAt


@attrs.frozen
class Swap:
    """The Apothecary (rule 5.8): swap the cubes of two influence spaces of different areas and colours (R-I).

    The earlier area in board order comes first (:meth:`between` puts them so); the engine refuses the other
    order, so that each swap is one action.

    :ivar first: the cube in the earlier area.
    :ivar second: the cube in the later area.
    """

    first: CubeAt
    second: CubeAt

    @classmethod
    def between(cls, one: CubeAt, other: CubeAt, areas: tuple[str, ...]) -> Swap:
        """The swap of ``one`` and ``other``, in the board order of ``areas`` (the board's area names)."""
        key = (lambda cube: (areas.index(cube.area), cube.seat)) if {one.area, other.area} <= set(areas) else None
        first, second = sorted((one, other), key=key)
        return cls(first, second)


@attrs.frozen
class Decline:
    """The winner of the Spy or the Apothecary uses neither its replacement nor its swap (R-J)."""


#: Every action of the game.
Action: TypeAlias = Bid | Replace | Swap | Decline
