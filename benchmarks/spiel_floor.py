"""The OpenSpiel adapter's cost per decision against the reference engine's, and pyspiel's own floor.

Three contestants play random 5-player games in interleaved rounds, each given the same CPU time per round
(:func:`time.process_time`), the order reversed every other round:

* ``reference``: the reference engine, :func:`peers.reference_player` (no chance nodes: its seeded draws);
* ``adapter``: ``dark_empire_revolution`` through pyspiel, :func:`peers.spiel_player` (chance nodes drawn,
  waits not counted as decisions), on the kernel path (:mod:`darkempire.adapters.kernel_flow`);
* ``floor``: a Python pyspiel game that replays recorded adapter games node by node, every method a list
  look-up, driven by the same loop (:func:`peers.spiel_game`): the cost of pyspiel's per-call overhead and
  of the driver itself, with no game behind it. No Python adapter can be cheaper than this.

It prints the microseconds per decision of each, min and max over rounds, and the ratios adapter/reference and
floor/reference, round by round. A decision is one seat's choice, as in :mod:`peers`. Not a test.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import peers  # noqa: E402
import pyspiel  # noqa: E402

import darkempire.adapters.openspiel  # noqa: E402,F401  # registers dark_empire_revolution

#: A recorded node: ``("chance", outcomes)``, ``("decision", legal actions of each seat)`` or ``("end", returns)``.
Node = tuple[str, Any]
_FLOOR = "dark_empire_floor"


def record(players: int, games: int) -> list[list[Node]]:
    """The nodes of ``games`` random adapter games (generator ``random.Random(g)`` for game ``g``)."""
    game = pyspiel.load_game(f"dark_empire_revolution(players={players})")
    traces = []
    for number in range(games):
        rng, state, nodes = random.Random(number), game.new_initial_state(), []
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                nodes.append(("chance", outcomes))
                state.apply_action(rng.choice(outcomes)[0])
            else:
                legal = [state.legal_actions(seat) for seat in range(players)]
                nodes.append(("decision", legal))
                state.apply_actions([rng.choice(actions) for actions in legal])
        nodes.append(("end", state.returns()))
        traces.append(nodes)
    return traces


class FloorState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type hints
    """A state that walks a recorded trace, whatever is applied."""

    def __init__(self, game: FloorGame, nodes: list[Node]) -> None:
        super().__init__(game)
        self._nodes = nodes
        self._at = 0

    def current_player(self) -> int:
        kind = self._nodes[self._at][0]
        if kind == "end":
            return int(pyspiel.PlayerId.TERMINAL)
        return int(pyspiel.PlayerId.CHANCE if kind == "chance" else pyspiel.PlayerId.SIMULTANEOUS)

    def _legal_actions(self, player: int) -> list[int]:
        legal: list[int] = self._nodes[self._at][1][player]
        return legal

    def chance_outcomes(self) -> list[tuple[int, float]]:
        outcomes: list[tuple[int, float]] = self._nodes[self._at][1]
        return outcomes

    def _apply_action(self, action: int) -> None:
        self._at += 1

    def _apply_actions(self, actions: list[int]) -> None:
        self._at += 1

    def is_terminal(self) -> bool:
        return self._nodes[self._at][0] == "end"

    def returns(self) -> list[float]:
        kind, value = self._nodes[self._at]
        return list(value) if kind == "end" else [0.0] * self.get_game().num_players()

    def __str__(self) -> str:
        return f"node {self._at}"


class FloorGame(pyspiel.Game):  # type: ignore[misc]
    """The floor game over the traces given to :func:`register_floor` (one per new state, in turn)."""

    traces: list[list[Node]] = []

    def __init__(self, params: Any = None) -> None:
        players = len(self.traces[0][-1][1]) if self.traces else 5
        info = pyspiel.GameInfo(num_distinct_actions=6857, max_chance_outcomes=75, num_players=players,
                                min_utility=-1.0, max_utility=1.0, max_game_length=64)  # fmt: skip
        super().__init__(_GAME_TYPE, info, params or {})
        self._next = 0

    def new_initial_state(self) -> FloorState:
        nodes = self.traces[self._next % len(self.traces)]
        self._next += 1
        return FloorState(self, nodes)


_GAME_TYPE = pyspiel.GameType(
    short_name=_FLOOR, long_name="floor", dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION, utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL, max_num_players=5, min_num_players=3,
    provides_information_state_string=False, provides_information_state_tensor=False,
    provides_observation_string=False, provides_observation_tensor=False, parameter_specification={},
)  # fmt: skip


def floor_player(traces: list[list[Node]]) -> peers.Play:
    """The floor contestant: game ``g`` replays trace ``g`` with the generator the adapter game had."""
    FloorGame.traces = traces
    pyspiel.register_game(_GAME_TYPE, FloorGame)
    game = pyspiel.load_game(_FLOOR)

    def play(games: int, seed: int) -> tuple[int, int]:
        decisions = 0
        for number in range(seed, seed + games):
            state = FloorState(game, traces[number % len(traces)])
            decisions += peers.spiel_game(random.Random(number), state, 0)
        return decisions, games

    return play


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per contestant per round (default 2)")
    parser.add_argument("--players", type=int, default=5, help="seats (default 5)")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    table = {
        "reference": peers.reference_player(args.players),
        "adapter": peers.spiel_player(f"dark_empire_revolution(players={args.players})", adapter=True),
        "floor": floor_player(record(args.players, 200)),
    }
    samples: dict[str, list[float]] = {name: [] for name in table}
    for play in table.values():
        play(1, 0)  # untimed: lazy imports and caches
    for number in range(args.rounds):
        for name in list(table) if number % 2 == 0 else list(table)[::-1]:
            sample = peers.measure(table[name], args.seconds)
            samples[name].append(sample.cpu / sample.decisions * 1e6)
    print(f"us per decision (CPU), {args.rounds} rounds of {args.seconds:g} s, {args.players} players, min - max:")
    for name, values in samples.items():
        print(f"  {name:10} {min(values):7.2f} - {max(values):7.2f}")
    for name in ("adapter", "floor"):
        ratios = [a / r for a, r in zip(samples[name], samples["reference"], strict=True)]
        print(f"  {name} / reference, round by round: {min(ratios):.2f}x - {max(ratios):.2f}x")
    print(f"load averages {load_before} before, {os.getloadavg()} after; {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
