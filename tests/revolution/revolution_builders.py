"""Helpers for the tests of *Revolution!*: hand-built states and one-call steps through the engine."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs

from revolution.rules import engine
from revolution.rules.actions import Action
from revolution.rules.bids import Bid
from revolution.rules.data import BASE_BOARD
from revolution.rules.events import RevolutionEvent
from revolution.rules.state import RevolutionConfig, RevolutionState
from revolution.rules.tokens import Tokens

AREAS = tuple(area.name for area in BASE_BOARD.areas)


def start(players: int = 3, *, bid_refunds: bool = False, area_control_bonus: bool = False,
          table_mode: bool = False) -> RevolutionState:
    """A new game's state."""
    config = RevolutionConfig(players, bid_refunds=bid_refunds, area_control_bonus=area_control_bonus,
                              table_mode=table_mode)
    return engine.setup(config).state


def with_cubes(state: RevolutionState, cubes: Mapping[str, Sequence[int]]) -> RevolutionState:
    """``state`` with the cubes of the named areas set (``{"Cathedral": (2, 3, 2)}``) and the supplies to match."""
    rows = list(state.cubes)
    for name, row in cubes.items():
        rows[AREAS.index(name)] = tuple(row)
    supply = tuple(state.config.board.cubes_per_player - sum(row[seat] for row in rows)
                   for seat in range(state.players))
    return attrs.evolve(state, cubes=tuple(rows), supply=supply)


def holding(state: RevolutionState, held: Sequence[Tokens]) -> RevolutionState:
    """``state`` with each seat holding ``held[seat]``, the bank changed so that the box's tokens are kept."""
    before = sum(state.held, Tokens())
    after = sum(held, Tokens())
    bank = state.bank + before - after
    return attrs.evolve(state, held=tuple(held), bank=bank)


def bid(**on: Tokens) -> Bid:
    """A bid: ``bid(Priest=Tokens(gold=2))``; an underscore in a name stands for a space (``Town_Hall``)."""
    return Bid({name.replace("_", " "): tokens for name, tokens in on.items()})


def play(state: RevolutionState, choices: Mapping[int, Action]) -> tuple[RevolutionState, list[RevolutionEvent]]:
    """One step of the engine, its events' payloads as a list."""
    done = engine.step(state, choices)
    return done.state, [event.payload for event in done.events]


def gold_only(state: RevolutionState, seat: int, character: str) -> Bid:
    """A bid of all ``seat``'s tokens: its Gold on ``character``, its Force and Blackmail on the Printer."""
    held = state.held[seat]
    placements = {character: Tokens(gold=held.gold)}
    rest = Tokens(held.force, held.blackmail)
    if rest:
        placements["Printer"] = rest + placements.get("Printer", Tokens())
    return Bid({name: tokens for name, tokens in placements.items()})


def all_bids(state: RevolutionState, bids: Sequence[Bid]) -> dict[int, Action]:
    """The choices of a Bidding step."""
    return dict(enumerate(bids))


def total_tokens(state: RevolutionState) -> Tokens:
    """Every token of the game: held, in the bank and on the bid boards."""
    return sum(state.held, state.bank) + sum((b.total for b in state.bids), Tokens())


#: Every space filled but one of the Tavern's; seat 2 leads in every other area (21 cubes), seats 0 and 1 have 10
#: and 11 (no colour has more than its 25 cubes).
NEARLY_FULL: dict[str, tuple[int, int, int]] = {
    "Tavern": (1, 1, 1),
    "Market": (1, 1, 3),
    "Plantation": (1, 2, 3),
    "Cathedral": (2, 2, 3),
    "Harbor": (2, 1, 3),
    "Town Hall": (2, 2, 3),
    "Fortress": (1, 2, 5),
}
