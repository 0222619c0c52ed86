"""OpenSpiel's IS-MCTS bot against darkempire's GreedyBot (issue 7).

Plays ``--games`` games of ``dark_empire_revolution`` in OpenSpiel's turn-based form: one seat (it moves
round the table from game to game) is OpenSpiel's Python ``ISMCTSBot`` with a random-rollout evaluator,
the other seats are :class:`darkempire.bots.GreedyBot`. The bot searches determinized worlds drawn by
:func:`darkempire.adapters.openspiel.ismcts_resampler` from what its seat may see. Prints each game's
verdict and the win counts.

Needs the ``openspiel`` extra::

    pip install -e ".[openspiel]"
    python examples/ismcts_vs_greedy.py --games 20

With the defaults (3 players, 6 simulations per decision) 20 games take about two minutes on two cores;
more simulations make the bot stronger and slower.
"""

from __future__ import annotations

import argparse
import sys
import time

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts
except ModuleNotFoundError as missing:  # pragma: no cover - depends on the installed extras
    sys.exit(f"this example needs the openspiel extra: python -m pip install -e '.[openspiel]' ({missing})")

from darkempire.rules import engine
from darkempire.adapters import openspiel as adapter
from darkempire.adapters.core import Flow
from darkempire.bots import GreedyBot
from darkempire.rules.views import player_view


class Follower:
    """Keeps a :class:`~darkempire.adapters.core.Flow` in step with a turn-based OpenSpiel state, one action
    at a time (the C++ wrapper does not hand out the state it wraps)."""

    def __init__(self, players: int) -> None:
        self.flow = Flow.new(players)
        self.buffered: list[int] = []

    def apply(self, action: int) -> None:
        if self.flow.is_chance:
            self.flow = self.flow.apply_chance(action)
            return
        self.buffered.append(action)
        if len(self.buffered) == self.flow.players:
            self.flow, self.buffered = self.flow.apply_joint(self.buffered), []


def play(players: int, ismcts_seat: int, simulations: int, seed: int) -> tuple[list[float], str]:
    """One game; returns each seat's return and the verdict's text."""
    game = pyspiel.convert_to_turn_based(pyspiel.load_game(f"dark_empire_revolution(players={players})"))
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=simulations, random_state=rng)
    bot.set_resampler(adapter.ismcts_resampler(seed))
    greedy = {s: GreedyBot(seed * 10 + s) for s in range(players) if s != ismcts_seat}
    state = game.new_initial_state()
    follower = Follower(players)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            action = int(rng.choice(outcomes, p=probabilities))
        else:
            seat = state.current_player()
            legal = state.legal_actions()
            if len(legal) == 1:
                action = legal[0]
            elif seat == ismcts_seat:
                action = int(bot.step(state))
            else:
                engine_state = follower.flow.state
                assert engine_state is not None
                choice = greedy[seat].choose(player_view(engine_state, seat), engine.legal_actions(engine_state, seat))
                action = adapter.encode_action(engine_state, seat, choice)
        state.apply_action(action)
        follower.apply(action)
    final = follower.flow.state
    assert final is not None and final.verdict is not None
    verdict = final.verdict
    return state.returns(), f"{verdict.reason.value}, winners {sorted(verdict.winners)}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games to play (default 20)")
    parser.add_argument("--players", type=int, default=3, choices=(3, 4, 5), help="seats (default 3)")
    parser.add_argument("--simulations", type=int, default=6, help="IS-MCTS simulations per decision (default 6)")
    parser.add_argument("--seed", type=int, default=0, help="first game's seed (default 0)")
    args = parser.parse_args(argv)
    wins = {"IS-MCTS": 0.0, "GreedyBot": 0.0}
    start = time.perf_counter()
    for index in range(args.games):
        seat = index % args.players
        returns, verdict = play(args.players, seat, args.simulations, args.seed + index)
        shares = [max(r, 0.0) for r in returns]  # a winner's share of the win; losers get -1
        wins["IS-MCTS"] += shares[seat]
        wins["GreedyBot"] += sum(shares) - shares[seat]
        print(f"game {index + 1:2d}: IS-MCTS in seat {seat}; {verdict}; IS-MCTS return {returns[seat]:+.2f}")
    elapsed = time.perf_counter() - start
    fair = args.games / args.players
    print(f"\n{args.games} games in {elapsed:.0f} s. Wins (a shared win counts as its share):")
    print(f"  IS-MCTS    {wins['IS-MCTS']:5.1f}  (one seat; a seat's fair share is {fair:.1f})")
    print(f"  GreedyBot  {wins['GreedyBot']:5.1f}  ({args.players - 1} seats)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
