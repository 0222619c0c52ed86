"""revolution: the rules of Steve Jackson Games' *Revolution!* (Philip duBarry, 2009) for 3 and 4 players,
as a second game on the kit (``tablekit``).

Each round every player secretly spreads its Force, Blackmail and Gold tokens over the twelve characters of
the bid board; the bids are revealed together, and in board order the strongest bid on each character wins its
rewards: support, tokens for the next round, an influence cube in one of the city's seven areas, or, for the
Spy and the Apothecary, a choice that moves cubes already on the board. The game ends when every influence
space is filled; area majorities and leftover tokens add to the support. The numbered rules and rulings are in
``spec/revolution/``.

The rules are in :mod:`revolution.rules`, one module per job. The names a program needs:

* :data:`GAME`, the kit :class:`~tablekit.game.Game` (:class:`~revolution.rules.game.Revolution`), and its
  :class:`RevolutionConfig` (players, the two optional rules, the table mode, the board);
* the actions: :class:`Bid` of :class:`Tokens`, and the Spy's :class:`Replace`, the Apothecary's
  :class:`Swap` of two :class:`CubeAt`, and :class:`Decline`;
* the state :class:`RevolutionState`, its :class:`Phase`, the :class:`RevolutionView` of a seat, the
  :class:`FinalScore`;
* the board as data: :data:`BASE_BOARD` and :func:`load_board`;
* :class:`RevolutionError`, the base of every error it raises on purpose.
"""

from __future__ import annotations

from revolution.rules.actions import Action, CubeAt, Decline, Replace, Swap
from revolution.rules.bids import Bid
from revolution.rules.data import BASE_BOARD, Board, load_board
from revolution.rules.errors import RevolutionError
from revolution.rules.game import GAME, Revolution
from revolution.rules.state import FinalScore, Phase, RevolutionConfig, RevolutionState
from revolution.rules.tokens import Token, Tokens
from revolution.rules.views import RevolutionView

__all__ = [
    "BASE_BOARD",
    "GAME",
    "Action",
    "Bid",
    "Board",
    "CubeAt",
    "Decline",
    "FinalScore",
    "Phase",
    "Replace",
    "Revolution",
    "RevolutionConfig",
    "RevolutionError",
    "RevolutionState",
    "RevolutionView",
    "Swap",
    "Token",
    "Tokens",
    "load_board",
]
