"""Bots for *Revolution!*: the kit's :class:`~tablekit.bots.RandomBot`, and :class:`GreedyBot`, which bids where a
token buys the most.

Both play through the kit's driver (:func:`tablekit.bots.run_game`) and see only their seat's view and legal
actions: a bid before the reveal is never in a view (rule 9.3), so no bot can peek. A seat holding ten tokens has
millions of legal bids (:func:`~revolution.rules.bids.legal_bids`), so :class:`GreedyBot` does not look at them
all: it builds one bid and checks it is among them.

>>> from tablekit.bots import run_game
>>> from revolution.rules.game import GAME
>>> from revolution.rules.state import RevolutionConfig
>>> played = run_game(GAME, RevolutionConfig(players=3), 1, [GreedyBot(0), RandomBot(1), RandomBot(2)])
>>> played.state.is_over
True
"""

from __future__ import annotations

import random
import types
from collections.abc import Mapping, Sequence
from typing import Final

from revolution.rules.actions import Action, Replace, Swap
from revolution.rules.bids import MAX_CHARACTERS, Bid
from revolution.rules.data import BASE_BOARD, Board, Character
from revolution.rules.scoring import controller
from revolution.rules.state import Phase
from revolution.rules.tokens import Token, Tokens
from revolution.rules.views import RevolutionView
from tablekit.bots import RandomBot

__all__ = ["CONTESTED", "EFFECT_VALUE", "JITTER", "TOKEN_VALUE", "GreedyBot", "RandomBot"]

#: What the greedy bot reckons a token won is worth, in support: a Force or Blackmail wins a character next
#: round, and left over at the end scores 5 or 3 (rule 7.3).
TOKEN_VALUE: Final[Mapping[Token, float]] = types.MappingProxyType({Token.FORCE: 5.0, Token.BLACKMAIL: 3.5, Token.GOLD: 1.0})
#: What the greedy bot reckons the Spy's or the Apothecary's move is worth when there is a cube to move.
EFFECT_VALUE: Final = 4.0
#: How much a greedy bot varies each value it reckons, either way (a fraction).
JITTER: Final = 0.15
#: The chance the greedy bot gives a bid that some opponent could still beat.
CONTESTED: Final = 0.45


def _accepted(character: Character, tokens: Tokens) -> tuple[int, int, int]:
    """The strength of all of ``tokens`` that ``character`` accepts (rule 4.4)."""
    force, blackmail, gold = (tokens.count(kind) if character.accepts(kind) else 0 for kind in Token)
    return (force, blackmail, gold)


class GreedyBot:
    """A bot that bids where a token buys the most support, never illegally.

    It values each character for its rewards (support, tokens by :data:`TOKEN_VALUE`, a cube by its area's
    bonus per space if a space is free, the Spy's or Apothecary's move), and places its tokens one at a time
    where they add the most expected value: a placement that no opponent can beat, given the opponents' public
    tokens (rule 3.2) and the character's immunities (rule 4.4), counts in full, one they could beat at
    :data:`CONTESTED`. It spreads over at most six characters (rule 4.3). As the Spy's or Apothecary's winner it
    makes the move that most improves its area bonuses over the best opponent's.

    Each bot varies its values by up to :data:`JITTER` either way, from its own seeded generator: two greedy
    bots that reckoned alike would tie on the same characters every round, and a tie wins nothing (rule 5.3), so
    a table of them would never fill the board.

    :param seed: the seed of its generator.
    :param board: the board played (public); :data:`~revolution.rules.data.BASE_BOARD` by default.
    """

    def __init__(self, seed: int = 0, board: Board = BASE_BOARD) -> None:
        self._board = board
        self._rng = random.Random(f"revolution-greedy-bot:{seed}")

    def choose(self, view: RevolutionView, legal: Sequence[Action]) -> Action:
        """The greedy bid at the Bidding, the best move at a Choosing step; always one of ``legal``."""
        if view.phase is Phase.BIDDING and view.seat is not None and view.own is not None:
            bid = self._bid(view, view.seat, view.own)
            return bid if bid in legal else legal[0]
        return max(legal, key=lambda action: self._after_move(view, action))

    def _value(self, view: RevolutionView, character: Character) -> float:
        """What winning ``character`` is worth now, in support."""
        value = character.support + sum(TOKEN_VALUE[kind] * character.tokens.count(kind) for kind in Token)
        if character.influence is not None:
            index = self._board.area_index(character.influence)
            area = self._board.areas[index]
            if sum(view.cubes[index][1]) < area.spaces:
                value += area.bonus / area.spaces
        if character.effect is not None and any(sum(row) for _, row in view.cubes):
            value += EFFECT_VALUE
        return value

    def _threat(self, view: RevolutionView, seat: int, character: Character) -> tuple[int, int, int]:
        """The strongest bid any opponent could place on ``character`` with all its tokens."""
        strongest = (0, 0, 0)
        for other, tokens in enumerate(view.held):
            if other != seat:
                strongest = max(strongest, _accepted(character, tokens))
        return strongest

    def _expected(self, placed: tuple[int, int, int], threat: tuple[int, int, int], value: float) -> float:
        if not any(placed):
            return 0.0
        return value if placed > threat else value * CONTESTED

    def _bid(self, view: RevolutionView, seat: int, held: Tokens) -> Bid:
        """Every held token placed, strongest first, each where it adds the most expected value."""
        characters = self._board.characters
        values = [self._value(view, character) * self._rng.uniform(1 - JITTER, 1 + JITTER) for character in characters]
        threats = [self._threat(view, seat, character) for character in characters]
        placed = [Tokens() for _ in characters]
        for kind in Token:
            for _ in range(held.count(kind)):
                used = sum(1 for tokens in placed if tokens)
                best, gain = -1, -1.0
                for i, character in enumerate(characters):
                    if not character.accepts(kind) or (not placed[i] and used >= MAX_CHARACTERS):
                        continue
                    before = self._expected(placed[i].strength, threats[i], values[i])
                    after = self._expected((placed[i] + Tokens.of(kind)).strength, threats[i], values[i])
                    if after - before > gain:
                        best, gain = i, after - before
                placed[best] = placed[best] + Tokens.of(kind)
        return Bid({character.name: tokens for character, tokens in zip(characters, placed)})

    def _after_move(self, view: RevolutionView, action: Action) -> float:
        """The bot's area bonuses less the best opponent's, after ``action`` (a Replace, a Swap or a Decline)."""
        seat = view.choosing[1] if view.choosing is not None else 0
        rows = {name: list(row) for name, row in view.cubes}
        if isinstance(action, Replace):
            rows[action.target.area][action.target.seat] -= 1
            rows[action.target.area][seat] += 1
        elif isinstance(action, Swap):
            first, second = action.first, action.second
            rows[first.area][first.seat] -= 1
            rows[first.area][second.seat] += 1
            rows[second.area][second.seat] -= 1
            rows[second.area][first.seat] += 1
        bonus = [0] * len(view.support)
        for name, row in rows.items():
            owner = controller(row)
            if owner is not None:
                bonus[owner] += self._board.area(name).bonus
        return bonus[seat] - max(b for other, b in enumerate(bonus) if other != seat)

