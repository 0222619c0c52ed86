"""What a seat observes of :data:`~revolution.adapters.encoding.TOKEN_GAME`, as text and as float32 tensors,
for both adapters (imports numpy, no framework).

Both forms come from one list of named fields (:func:`observation_fields`), built from the seat's
:class:`~revolution.adapters.encoding.TokenView` only, so a tensor holds what the text holds and neither shows
what the view does not: no other seat's bid before the reveal.

* **Observation**: the viewer, the round, the phase, whose turn it is to bid, whether the game stopped at its
  bound, every seat's support, tokens and supply, the bank, the cubes of each area, the revealed bids (during
  the Resolution), who chooses for which character, the final totals, and the viewer's own bid so far.
* **Information state** (perfect recall, :func:`information_fields`): the observation, how many tokens the
  current bidder has placed (public: its decisions are counted), and for every round so far the revealed bids
  and the Spy's and Apothecary's choices. The game has no chance and every placement comes in board order, so
  that is all a seat has seen and done: its own placements this round are its bid so far, and every
  earlier decision of its own is in a revealed bid or a public choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import numpy as np

from revolution.adapters.encoding import Building, Done, Place, TokenView, placed_tokens
from revolution.rules.actions import CubeAt, Decline, Replace, Swap
from revolution.rules.data import Effect
from revolution.rules.state import Phase, RevolutionConfig
from revolution.rules.tokens import Tokens
from tablekit.adapters.flow import KitFlow

__all__ = ["PHASES", "Field", "information_fields", "information_size", "observation_fields", "observation_size",
           "text", "tensor"]

Tensor = np.ndarray[Any, np.dtype[np.float32]]

#: The phases in the order of their one-hot slots.
PHASES: Final = (Phase.BIDDING, Phase.RESOLUTION, Phase.CHOOSING, Phase.OVER)

#: A named group of numbers: ``(name, values)``.
Field = tuple[str, tuple[float, ...]]


def _one_hot(index: int | None, size: int) -> tuple[float, ...]:
    return tuple(1.0 if i == index else 0.0 for i in range(size))


def _tokens(values: Sequence[Tokens]) -> tuple[float, ...]:
    return tuple(float(n) for tokens in values for n in tokens.strength)


def observation_fields(view: TokenView, config: RevolutionConfig) -> list[Field]:
    """The observation of ``view`` as named fields, in tensor order (see the module docstring)."""
    seen, board, players = view.view, config.board, config.players
    characters = len(board.characters)
    names = [character.name for character in board.characters]
    bids = [[bid.on(name) for name in names] for bid in seen.bids] or [[Tokens()] * characters] * players
    choosing = seen.choosing
    totals = [float(score.total) for score in seen.final] or [0.0] * players
    own = view.own or (Tokens(),) * characters
    return [
        ("viewer", _one_hot(seen.seat, players)),
        ("round", (float(seen.round),)),
        ("phase", _one_hot(PHASES.index(seen.phase), len(PHASES))),
        ("bidder", _one_hot(view.bidder, players)),
        ("truncated", (float(view.truncated),)),
        ("support", tuple(float(s) for s in seen.support)),
        ("held", _tokens(seen.held)),
        ("bank", _tokens([seen.bank])),
        ("cubes", tuple(float(n) for _, row in seen.cubes for n in row)),
        ("supply", tuple(float(n) for n in seen.supply)),
        ("bids", tuple(n for row in bids for n in _tokens(row))),
        ("choosing character", _one_hot(None if choosing is None else names.index(choosing[0]), characters)),
        ("chooser", _one_hot(None if choosing is None else choosing[1], players)),
        ("final", tuple(totals)),
        ("own bid", _tokens(own)),
    ]


def _cube(cube: CubeAt | None, config: RevolutionConfig) -> tuple[float, ...]:
    areas = [area.name for area in config.board.areas]
    index = None if cube is None else areas.index(cube.area) * config.players + cube.seat
    return _one_hot(index, len(areas) * config.players)


def _rounds(flow: KitFlow[Any, Building, Any]) -> tuple[dict[int, dict[int, tuple[Place, ...]]],
                                                        dict[tuple[int, Effect], object]]:  # fmt: skip
    """Each round's complete bids (round: seat: placements) and effect choices ((round, effect): action), read
    from the decisions made so far."""
    bids: dict[int, dict[int, tuple[Place, ...]]] = {}
    effects: dict[tuple[int, Effect], object] = {}
    for building, joint in flow.past:
        ((seat, action),) = joint
        state = building.state
        if building.bidder is not None:
            if isinstance(action, Done):
                bids.setdefault(state.round, {})[seat] = building.placed
            continue
        effect = state.config.board.characters[state.resolving].effect
        if effect is not None:
            effects[(state.round, effect)] = action
    return bids, effects


def information_fields(flow: KitFlow[Any, Building, Any], view: TokenView, config: RevolutionConfig,
                       max_rounds: int) -> list[Field]:  # fmt: skip
    """The information state of the seat whose ``view`` it is, as named fields: its observation, the current
    bidder's count of placements, and every round's revealed bids and effect choices (see the module
    docstring)."""
    fields = observation_fields(view, config)
    state = flow.state
    placed = 0 if state is None else len(state.placed)
    fields.append(("bidder's placements", (float(placed),)))
    bids, effects = _rounds(flow)
    characters, players = len(config.board.characters), config.players
    cubes = len(config.board.areas) * players
    for number in range(1, max_rounds + 1):
        done = bids.get(number, {})
        revealed = len(done) == players
        if not revealed:  # a round not played yet (or the current one): nothing of it is public, no effect chosen
            fields += [(f"round {number} bids", (0.0,) * (3 * players * characters)),
                       (f"round {number} spy", (0.0,) * (cubes + 1)),
                       (f"round {number} apothecary", (0.0,) * (2 * cubes + 1))]  # fmt: skip
            continue
        rows = [placed_tokens(done[s], characters) for s in range(players)]
        fields.append((f"round {number} bids", tuple(n for row in rows for n in _tokens(row))))
        spy, apothecary = effects.get((number, Effect.SPY)), effects.get((number, Effect.APOTHECARY))
        fields.append((f"round {number} spy", (*_cube(spy.target if isinstance(spy, Replace) else None, config),
                                                float(isinstance(spy, Decline)))))
        first, second = (apothecary.first, apothecary.second) if isinstance(apothecary, Swap) else (None, None)
        fields.append((f"round {number} apothecary", (*_cube(first, config), *_cube(second, config),
                                                      float(isinstance(apothecary, Decline)))))
    return fields


def observation_size(config: RevolutionConfig) -> int:
    """The length of an observation tensor for ``config``."""
    p, m, a = config.players, len(config.board.characters), len(config.board.areas)
    return p + 1 + len(PHASES) + p + 1 + p + 3 * p + 3 + a * p + p + 3 * p * m + m + p + p + 3 * m


def information_size(config: RevolutionConfig, max_rounds: int) -> int:
    """The length of an information-state tensor for ``config`` and ``max_rounds``."""
    p, m, a = config.players, len(config.board.characters), len(config.board.areas)
    per_round = 3 * p * m + (a * p + 1) + (2 * a * p + 1)
    return observation_size(config) + 1 + max_rounds * per_round


def tensor(fields: Sequence[Field]) -> Tensor:
    """The fields' numbers, in order, as one float32 vector."""
    return np.asarray([n for _, values in fields for n in values], dtype=np.float32)


def _shown(values: tuple[float, ...]) -> str:
    return " ".join(str(int(n)) if n == int(n) else str(n) for n in values)


def text(fields: Sequence[Field], *, skip_empty: bool = False) -> str:
    """The fields as lines ``name: numbers``; with ``skip_empty``, the fields that are all 0 are left out (a
    round not played yet), so the text stays short."""
    return "\n".join(f"{name}: {_shown(values)}" for name, values in fields if not (skip_empty and not any(values)))
