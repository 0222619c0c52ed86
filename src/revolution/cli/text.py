"""The game in words for the terminal: tokens, bids, the table, every event, the final scoring.

Plain text, one line per fact, for :mod:`revolution.cli`'s subcommands (the kit's console convention: a
command writes to its output stream, a pipe gets the same lines). Nothing here reads more than what it is
given, and everything it is given is public (rule 3.2): a bid appears only once it is revealed.

>>> tokens_text(Tokens(force=1, gold=3))
'1 Force, 3 Gold'
>>> bid_text(Bid({"Priest": Tokens(gold=3), "General": Tokens(blackmail=1)}))
'General 1 Blackmail; Priest 3 Gold'
"""

from __future__ import annotations

import types
from collections.abc import Iterable, Iterator, Sequence
from typing import Final

from revolution.rules.actions import Action, CubeAt, Decline, Replace, Swap
from revolution.rules.bids import Bid
from revolution.rules.data import Board, Character, Effect
from revolution.rules.events import BidTokensReturned, BidsRevealed, CharacterResolved, CubeNotPlaced, CubePlaced
from revolution.rules.events import CubeReplaced, CubesSwapped, EffectAwaited, EffectDeclined, EffectSkipped
from revolution.rules.events import GameEnded, GameStarted, PatronageGiven, RevolutionEvent, RoundStarted
from revolution.rules.events import SupportGained, TokensGained, TokensRemoved
from revolution.rules.state import FinalScore
from revolution.rules.tokens import Token, Tokens
from revolution.rules.views import RevolutionView

__all__ = ["action_text", "bid_text", "character_lines", "choice_text", "cube_text", "event_lines", "score_lines",
           "seat_does", "seat_name", "seat_owns", "tokens_text", "view_lines"]


def seat_name(seat: int, you: int | None = None) -> str:
    """``"seat 2"``, or ``"you"`` for the seat at the terminal."""
    return "you" if seat == you else f"seat {seat}"


def seat_does(seat: int, verb: str, you: int | None = None) -> str:
    """``"seat 2 takes"``, or ``"you take"`` for the seat at the terminal: ``verb`` is given as a seat's
    (``"takes"``, ``"replaces"``) and loses its ``s`` after "you".

    >>> seat_does(1, "swaps"), seat_does(1, "swaps", you=1)
    ('seat 1 swaps', 'you swap')
    """
    return f"you {verb.removesuffix('s')}" if seat == you else f"seat {seat} {verb}"


def seat_owns(seat: int, you: int | None = None) -> str:
    """``"seat 2's"``, or ``"your"`` for the seat at the terminal."""
    return "your" if seat == you else f"seat {seat}'s"


def tokens_text(tokens: Tokens) -> str:
    """``"1 Force, 3 Gold"``; ``"nothing"`` for no token."""
    parts = [f"{tokens.count(kind)} {kind.value.title()}" for kind in Token if tokens.count(kind)]
    return ", ".join(parts) if parts else "nothing"


def bid_text(bid: Bid) -> str:
    """A bid as its placements in name order: ``"General 1 Blackmail; Priest 3 Gold"``."""
    return "; ".join(f"{name} {tokens_text(tokens)}" for name, tokens in bid.placements) or "no tokens"


def cube_text(cube: CubeAt, you: int | None = None) -> str:
    """``"seat 1's cube in the Cathedral"``."""
    return f"{seat_owns(cube.seat, you)} cube in the {cube.area}"


def action_text(action: Action, you: int | None = None) -> str:
    """A choice in words, as offered to its chooser: a bid's placements, the Spy's replacement, the
    Apothecary's swap, or declining."""
    if isinstance(action, Bid):
        return bid_text(action)
    if isinstance(action, Replace):
        return f"replace {cube_text(action.target, you)} with one of your cubes"
    if isinstance(action, Swap):
        return f"swap {cube_text(action.first, you)} with {cube_text(action.second, you)}"
    assert isinstance(action, Decline)
    return "decline: leave the board as it is"


def _placement_text(name: str, tokens: Tokens) -> str:
    """``"1 Force and 2 Gold on the Priest"``."""
    parts = [f"{tokens.count(kind)} {kind.value.title()}" for kind in Token if tokens.count(kind)]
    return f"{_and(parts) if parts else 'nothing'} on the {name}"


def choice_text(seat: int, action: Action) -> str:
    """A recorded choice in the game's words, its seat first: ``"seat 0 bids 1 Gold on the Captain, 1 Force on
    the General"``, ``"seat 1 uses the Spy to replace seat 2's cube in the Tavern with one of its own"``.

    >>> choice_text(0, Bid({"General": Tokens(blackmail=1), "Priest": Tokens(force=1, gold=2)}))
    'seat 0 bids 1 Blackmail on the General, 1 Force and 2 Gold on the Priest'
    """
    who = seat_name(seat)
    if isinstance(action, Bid):
        placed = [_placement_text(name, tokens) for name, tokens in action.placements]
        return f"{who} bids {', '.join(placed) or 'no tokens'}"
    if isinstance(action, Replace):
        return f"{who} uses the Spy to replace {cube_text(action.target)} with one of its own"
    if isinstance(action, Swap):
        return f"{who} uses the Apothecary to swap {cube_text(action.first)} with {cube_text(action.second)}"
    assert isinstance(action, Decline)
    return f"{who} declines the Spy's or the Apothecary's move"


#: What a character's winner may do besides its rewards (rules 5.7, 5.8).
_EFFECT_WORDS: Final = types.MappingProxyType({Effect.SPY: "replace a cube (5.7)",
                                               Effect.APOTHECARY: "swap two cubes (5.8)"})


def _reward_text(character: Character) -> str:
    """``"+1 support, 1 Force"``: what the winner of ``character`` gains (rules 5.4, 5.5, 5.7, 5.8)."""
    parts = [f"+{character.support} support"] if character.support else []
    if character.tokens:
        parts.append(tokens_text(character.tokens))
    if character.effect is not None:
        parts.append(_EFFECT_WORDS.get(character.effect, character.effect.value))
    return ", ".join(parts) or "nothing"


def character_lines(board: Board) -> Iterator[str]:
    """The characters as a table, in board order (rule 5.1): each one's name, the area where its winner places
    a cube (rule 5.6), the tokens it is immune to (rule 4.4) and its winner's reward (rules 5.4-5.8).

    >>> from revolution.rules.data import BASE_BOARD
    >>> print("\\n".join(list(character_lines(BASE_BOARD))[:3]))
    The characters, in board order (the order they are resolved, rule 5.1):
       #  Character   Area        Immune to         Reward
       1  General     Fortress    Force             +1 support, 1 Force
    """
    rows = [(str(number), character.name, character.influence or "-",
             ", ".join(kind.value.title() for kind in Token if kind in character.immune) or "-",
             _reward_text(character)) for number, character in enumerate(board.characters, 1)]
    header = ("#", "Character", "Area", "Immune to", "Reward")
    widths = [max(len(row[column]) for row in (header, *rows)) for column in range(4)]
    yield "The characters, in board order (the order they are resolved, rule 5.1):"
    for row in (header, *rows):
        cells = [row[0].rjust(widths[0]), *(cell.ljust(width) for cell, width in zip(row[1:4], widths[1:]))]
        yield "  " + "  ".join([*cells, row[4]])


def view_lines(view: RevolutionView, board: Board, you: int | None = None) -> Iterator[str]:
    """The table as ``view`` shows it: support, tokens, cubes on the board and in supply, the bank."""
    yield f"Round {view.round}, {view.phase.value}"
    for seat, (support, held, supply) in enumerate(zip(view.support, view.held, view.supply)):
        yield f"  {seat_name(seat, you)}: support {support}; tokens {tokens_text(held)}; {supply} cubes in supply"
    yield f"  bank: {tokens_text(view.bank)}"
    for (name, row), area in zip(view.cubes, board.areas):
        cubes = ", ".join(f"{seat_name(seat, you)} {count}" for seat, count in enumerate(row) if count) or "empty"
        yield f"  {name} ({sum(row)}/{area.spaces} spaces, {area.bonus} support): {cubes}"


def score_lines(scores: Sequence[FinalScore], winners: Sequence[int], you: int | None = None) -> Iterator[str]:
    """The final scoring (rules 7.2-7.4): each seat's track, area bonuses, tokens left, total; the winners."""
    yield "Final scoring:"
    for score in scores:
        areas = f" ({', '.join(score.areas)})" if score.areas else ""
        full = ", ".join(score.full_control)
        control = f" + {score.control_bonus} for full control ({full})" if score.control_bonus else ""
        yield (f"  {seat_name(score.seat, you)}: {score.support} on the track + {score.area_bonus} for areas{areas}"
               f"{control} + {score.token_support} for tokens left ({tokens_text(score.tokens)}) = {score.total}")
    names = _and(seat_name(seat, you) for seat in winners)
    yield f"Won by {names}." if len(winners) == 1 else f"Shared by {names}, tied on support."


def _and(names: Iterable[str]) -> str:
    """``"a, b and c"``."""
    *first, last = names
    return f"{', '.join(first)} and {last}" if first else last


def _winner_lines(payload: RevolutionEvent, you: int | None) -> Iterator[str]:
    """A character's winner's rewards and effect (rules 5.4-5.8), indented under the character."""
    if isinstance(payload, SupportGained):
        yield f"    +{payload.support} support (now {payload.total})"
    elif isinstance(payload, TokensGained):
        short = f" (the bank is short of {tokens_text(payload.short)})" if payload.short else ""
        yield f"    takes {tokens_text(payload.tokens)} from the bank for the next round{short}"
    elif isinstance(payload, CubePlaced):
        yield f"    places a cube in the {payload.area}"
    elif isinstance(payload, CubeNotPlaced):
        yield f"    places no cube in the {payload.area}: {payload.reason}"
    elif isinstance(payload, EffectAwaited):
        yield f"    {seat_name(payload.seat, you)} may use the {payload.character}"
    elif isinstance(payload, EffectSkipped):
        yield f"    the {payload.character} has no cube to move"
    elif isinstance(payload, EffectDeclined):
        yield f"    {seat_does(payload.seat, 'declines', you)} the {payload.character}'s move"
    elif isinstance(payload, CubeReplaced):
        yield f"    {seat_does(payload.seat, 'replaces', you)} {cube_text(payload.target, you)}"
    elif isinstance(payload, CubesSwapped):
        yield f"    {seat_does(payload.seat, 'swaps', you)} {cube_text(payload.first, you)} with " \
              f"{cube_text(payload.second, you)}"


def _round_lines(payload: RevolutionEvent, you: int | None) -> Iterator[str]:
    """The events of a round that are not a winner's: the start, the reveal, the characters, the end."""
    if isinstance(payload, GameStarted):
        yield f"{payload.players} players, {payload.cubes} cubes each; the bank holds {tokens_text(payload.bank)}"
    elif isinstance(payload, RoundStarted):
        yield f"== Round {payload.round} =="
        for seat, held in enumerate(payload.held):
            yield f"  {seat_name(seat, you)}: {tokens_text(held)}"
    elif isinstance(payload, BidsRevealed):
        yield "Bids revealed:"
        for seat, bid in enumerate(payload.bids):
            yield f"  {seat_name(seat, you)}: {bid_text(bid)}"
    elif isinstance(payload, TokensRemoved):
        yield f"  {seat_owns(payload.seat, you)} {tokens_text(payload.tokens)} on the {payload.character} " \
              f"do not count ({payload.reason})"
    elif isinstance(payload, CharacterResolved):
        if payload.winner is not None:
            yield f"  {payload.character}: won by {seat_name(payload.winner, you)}"
        elif payload.tied:
            yield f"  {payload.character}: tied by {_and(seat_name(s, you) for s in payload.tied)}; nobody wins"
    elif isinstance(payload, BidTokensReturned):
        back = [f"{seat_name(s, you)} {tokens_text(t)}" for s, t in enumerate(payload.refunded) if t]
        yield f"Bid tokens to the bank: {tokens_text(payload.to_bank)}" + (f"; refunded: {', '.join(back)}"
                                                                            if back else "")
    elif isinstance(payload, PatronageGiven):
        short = f" ({payload.short} short: the bank is out of Gold)" if payload.short else ""
        yield f"Patronage: {seat_does(payload.seat, 'takes', you)} {payload.gold} Gold{short}"
    elif isinstance(payload, GameEnded):
        yield "Every influence space is filled: the game is over."
        yield from score_lines(payload.scores, payload.winners, you)


def event_lines(payload: RevolutionEvent, you: int | None = None) -> list[str]:
    """The lines of one event (every event of the game is public, rule 9.3); ``you`` names the seat at the
    terminal."""
    return [*_round_lines(payload, you), *_winner_lines(payload, you)]
