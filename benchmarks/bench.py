"""Speed and size benchmark of the darkempire engine, with reference workloads of other engines (issue 6).

Run it with ``nox -s engine_bench`` (which installs the ``bench`` extra: RLCard and PokerKit), or directly::

    python benchmarks/bench.py [--games N] [--repeat R] [--output FILE.json] [--profile]

For 3, 4 and 5 players, with a :class:`~darkempire.bots.RandomBot` in every seat, it reports:

* complete games per second and the median milliseconds per game, with :func:`darkempire.bots.run_game`
  (each decision builds the seat's player view, lists its legal actions, and applies the choice);
* decisions (applied actions) per second of the same games, and of the bare engine loop
  (``awaited_seats``, ``legal_actions``, a random pick, ``apply``: what a search playout does);
* the median microseconds per ``apply`` and per ``legal_actions`` call, timed one by one;
* bytes per game state, with the parts shared between the states of a game counted once (a deep size walk
  over every state of a game with one set of visited ids, divided by the number of states), and the deep
  size of a single state on its own.

Reference workloads, when installed: RLCard's Leduc Hold'em with random agents (environment steps per
second) and PokerKit's no-limit hold'em with 6 players and random legal actions (hands and actions per
second); the ratios compare our engine-loop decisions per second with their steps or actions per second,
and our games per second with their hands per second. Throughputs are the median of ``--repeat`` runs.
Results go to a JSON file too (``build/bench-results.json`` by default). This is a benchmark, not a test:
it asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import platform
import pstats
import random
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from darkempire.bots import RandomBot, run_game
from darkempire.rules.engine import apply, awaited_seats, deal, legal_actions
from darkempire.rules.state import GameConfig, GameState
from darkempire.rules.views import player_view

PLAYERS = (3, 4, 5)

# CPU time of this process by default: on a shared machine, wall time also counts the time the scheduler gave
# to other processes. --clock wall switches the throughputs to time.perf_counter.
clock: Callable[[], float] = time.process_time


def _bots(players: int, seed: int) -> list[RandomBot]:
    return [RandomBot(10 * seed + seat) for seat in range(players)]


def _decisions(players: int, seed: int) -> int:
    """Decisions of the RandomBot game of ``seed`` (replayed once, untimed)."""
    count = 0
    state = deal(GameConfig(players), seed)
    bots = _bots(players, seed)
    while not state.is_over:
        seat = min(awaited_seats(state))
        state = apply(state, seat, bots[seat].choose(player_view(state, seat), legal_actions(state, seat)))
        count += 1
    return count


def bench_games(players: int, games: int) -> dict[str, float]:
    """Whole RandomBot games with :func:`run_game`: games/s, median ms per game, decisions/s."""
    decisions = sum(_decisions(players, seed) for seed in range(games))
    times = []
    for seed in range(games):
        config = GameConfig(players)
        bots = _bots(players, seed)
        start = clock()
        run_game(config, seed, bots)
        times.append(clock() - start)
    total = sum(times)
    return {
        "games_per_s": games / total,
        "median_ms_per_game": 1e3 * statistics.median(times),
        "decisions_per_game": decisions / games,
        "decisions_per_s": decisions / total,
    }


def _engine_game(players: int, seed: int) -> int:
    rng = random.Random(seed)
    state = deal(GameConfig(players), seed)
    count = 0
    while not state.is_over:
        seat = min(awaited_seats(state))
        legal = legal_actions(state, seat)
        state = apply(state, seat, legal[rng.randrange(len(legal))])
        count += 1
    return count


def bench_engine_loop(players: int, games: int) -> dict[str, float]:
    """The bare engine loop (no views, no bot objects): decisions/s and games/s."""
    start = clock()
    decisions = sum(_engine_game(players, seed) for seed in range(games))
    elapsed = clock() - start
    return {"decisions_per_s": decisions / elapsed, "games_per_s": games / elapsed}


def bench_calls(players: int, games: int) -> dict[str, float]:
    """Median microseconds per ``apply`` and per ``legal_actions``, each call timed on its own.

    Always wall time (:func:`time.perf_counter_ns`): a CPU-time reading costs a system call, longer than
    many of the calls; the median keeps out the calls during which the process was descheduled.
    """
    apply_ns: list[int] = []
    legal_ns: list[int] = []
    tick = time.perf_counter_ns
    for seed in range(games):
        rng = random.Random(seed)
        state = deal(GameConfig(players), seed)
        while not state.is_over:
            seat = min(awaited_seats(state))
            start = tick()
            legal = legal_actions(state, seat)
            middle = tick()
            state = apply(state, seat, legal[rng.randrange(len(legal))])
            end = tick()
            legal_ns.append(middle - start)
            apply_ns.append(end - middle)
    return {
        "median_us_apply": statistics.median(apply_ns) / 1e3,
        "median_us_legal_actions": statistics.median(legal_ns) / 1e3,
        "mean_us_apply": statistics.fmean(apply_ns) / 1e3,
        "mean_us_legal_actions": statistics.fmean(legal_ns) / 1e3,
    }


def _deep_size(root: object, seen: set[int]) -> int:
    """Bytes of ``root`` and everything it holds that is not in ``seen`` yet (ids added to ``seen``)."""
    size = 0
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        size += sys.getsizeof(obj)
        if isinstance(obj, (tuple, list, frozenset, set)):
            stack.extend(obj)
        elif isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif attrs.has(type(obj)):
            stack.extend(getattr(obj, field.name) for field in attrs.fields(type(obj)))  # type: ignore[arg-type]
    return size


def _singletons() -> set[int]:
    """Objects every game shares and no state owns: None, booleans, small ints, enum members."""
    from darkempire.rules.actions import Side
    from darkempire.rules.cards import AddOnCard, Faction
    from darkempire.rules.scoring import AwardReason, VerdictReason
    from darkempire.rules.state import Phase

    shared: list[object] = [None, True, False, *range(-5, 257)]
    for enum_type in (Side, Faction, AddOnCard, AwardReason, VerdictReason, Phase):
        shared += list(enum_type)
    return {id(obj) for obj in shared}


def bench_sizes(players: int, games: int) -> dict[str, float]:
    """Bytes per state with sharing between a game's states counted once, and one state's deep size."""
    per_state = []
    single = []
    for seed in range(games):
        rng = random.Random(seed)
        state = deal(GameConfig(players), seed)
        states: list[GameState] = [state]
        while not state.is_over:
            seat = min(awaited_seats(state))
            legal = legal_actions(state, seat)
            state = apply(state, seat, legal[rng.randrange(len(legal))])
            states.append(state)
        seen = _singletons()
        total = sum(_deep_size(s, seen) for s in states)
        per_state.append(total / len(states))
        single.append(statistics.median(_deep_size(s, _singletons()) for s in states))
    return {"bytes_per_state_shared": statistics.median(per_state), "bytes_one_state_alone": statistics.median(single)}


# --------------------------------------------------------------------------- reference engines


def bench_rlcard(seconds: float) -> dict[str, Any]:
    """RLCard's Leduc Hold'em with random agents: environment steps per second."""
    try:
        import rlcard  # type: ignore[import-untyped,import-not-found,unused-ignore]
        from rlcard.agents import RandomAgent  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError as error:
        return {"available": False, "reason": f"rlcard is not installed ({error}); pip install 'darkempire[bench]'"}
    except Exception as error:  # noqa: BLE001  # rlcard.agents runs "pip freeze" on import, which can fail
        return {"available": False, "reason": f"rlcard could not be imported: {error!r}"}
    env = rlcard.make("leduc-holdem", config={"seed": 0})
    agents = [RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)]
    steps = hands = 0
    state, player = env.reset()
    start = clock()
    while clock() - start < seconds:
        for _ in range(200):
            if env.is_over():
                state, player = env.reset()
                hands += 1
            state, player = env.step(agents[player].step(state))
            steps += 1
    elapsed = clock() - start
    return {"available": True, "steps_per_s": steps / elapsed, "hands_per_s": hands / elapsed}


def bench_pokerkit(seconds: float) -> dict[str, Any]:
    """PokerKit no-limit hold'em, 6 players, random legal actions (fold only when facing a bet)."""
    try:
        from pokerkit import Automation, Mode, NoLimitTexasHoldem
    except ImportError as error:
        return {"available": False, "reason": f"pokerkit is not installed ({error}); pip install 'darkempire[bench]'"}
    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.BOARD_DEALING,
        Automation.RUNOUT_COUNT_SELECTION,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )
    rng = random.Random(0)
    hands = actions = 0
    start = clock()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        while clock() - start < seconds:
            state = NoLimitTexasHoldem.create_state(automations, True, 0, (1, 2), 2, 200, 6, mode=Mode.CASH_GAME)
            while state.status:
                moves: list[Callable[[], object]] = [state.check_or_call]
                if state.can_fold() and state.checking_or_calling_amount:
                    moves.append(state.fold)
                if state.can_complete_bet_or_raise_to():
                    moves.append(state.complete_bet_or_raise_to)  # to the minimum amount by default
                rng.choice(moves)()
                actions += 1
            hands += 1
    elapsed = clock() - start
    return {"available": True, "hands_per_s": hands / elapsed, "actions_per_s": actions / elapsed}


# --------------------------------------------------------------------------- running


def _median_of(runs: list[dict[str, float]]) -> dict[str, float]:
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


def _profile(games: int) -> str:
    profiler = cProfile.Profile()
    profiler.enable()
    for seed in range(games):
        run_game(GameConfig(5), seed, _bots(5, seed))
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(15)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per player count and run (default 100)")
    parser.add_argument("--repeat", type=int, default=3, help="runs whose median is reported (default 3)")
    parser.add_argument("--reference-seconds", type=float, default=3.0, help="seconds per reference workload run")
    parser.add_argument("--output", default="build/bench-results.json", help="JSON results file")
    parser.add_argument("--profile", action="store_true", help="also print cProfile's top entries (5 players)")
    parser.add_argument(
        "--clock", choices=("cpu", "wall"), default="cpu", help="CPU time of this process (default) or wall time"
    )
    args = parser.parse_args(argv)
    global clock
    if args.clock == "wall":
        clock = time.perf_counter

    results: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "games": args.games,
        "repeat": args.repeat,
        "clock": args.clock,
        "players": {},
    }
    print(
        f"darkempire benchmark: {args.games} RandomBot games per player count, median of {args.repeat} runs, "
        f"{'CPU' if args.clock == 'cpu' else 'wall'} time"
    )
    header = (
        f"{'players':>7} {'games/s':>8} {'ms/game':>8} {'dec/game':>8} {'dec/s game':>10} {'dec/s loop':>10} "
        f"{'us apply':>8} {'us legal':>8} {'B/state':>8} {'B alone':>8}"
    )
    print(header)
    for players in PLAYERS:
        games = _median_of([bench_games(players, args.games) for _ in range(args.repeat)])
        loop = _median_of([bench_engine_loop(players, args.games) for _ in range(args.repeat)])
        calls = _median_of([bench_calls(players, max(1, args.games // 4)) for _ in range(args.repeat)])
        sizes = bench_sizes(players, min(5, args.games))
        results["players"][str(players)] = {"run_game": games, "engine_loop": loop, "calls": calls, "sizes": sizes}
        print(
            f"{players:>7} {games['games_per_s']:>8.0f} {games['median_ms_per_game']:>8.2f} "
            f"{games['decisions_per_game']:>8.0f} {games['decisions_per_s']:>10,.0f} {loop['decisions_per_s']:>10,.0f} "
            f"{calls['median_us_apply']:>8.1f} {calls['median_us_legal_actions']:>8.1f} "
            f"{sizes['bytes_per_state_shared']:>8,.0f} {sizes['bytes_one_state_alone']:>8,.0f}"
        )

    print("\nreference workloads (median of runs):")
    rlcard_runs = [bench_rlcard(args.reference_seconds) for _ in range(args.repeat)]
    pokerkit_runs = [bench_pokerkit(args.reference_seconds) for _ in range(args.repeat)]
    five = results["players"]["5"]
    references: dict[str, Any] = {}
    if rlcard_runs[0]["available"]:
        steps = statistics.median(r["steps_per_s"] for r in rlcard_runs)
        ratio = five["engine_loop"]["decisions_per_s"] / steps
        references["rlcard_leduc"] = {"steps_per_s": steps, "ratio_engine_loop_decisions_to_steps": ratio}
        print(f"  RLCard Leduc Hold'em, random agents: {steps:,.0f} steps/s; "
              f"darkempire 5p engine-loop decisions/s are {ratio:.2f}x that")
    else:
        references["rlcard_leduc"] = rlcard_runs[0]
        print(f"  RLCard left out: {rlcard_runs[0]['reason']}")
    if pokerkit_runs[0]["available"]:
        hands = statistics.median(r["hands_per_s"] for r in pokerkit_runs)
        actions = statistics.median(r["actions_per_s"] for r in pokerkit_runs)
        game_ratio = five["run_game"]["games_per_s"] / hands
        action_ratio = five["engine_loop"]["decisions_per_s"] / actions
        references["pokerkit_nlhe6"] = {
            "hands_per_s": hands,
            "actions_per_s": actions,
            "ratio_games_to_hands": game_ratio,
            "ratio_engine_loop_decisions_to_actions": action_ratio,
        }
        print(f"  PokerKit NLHE 6 players, random actions: {hands:,.0f} hands/s, {actions:,.0f} actions/s; "
              f"darkempire 5p games/s are {game_ratio:.2f}x its hands/s, decisions/s {action_ratio:.2f}x its actions/s")
    else:
        references["pokerkit_nlhe6"] = pokerkit_runs[0]
        print(f"  PokerKit left out: {pokerkit_runs[0]['reason']}")
    results["references"] = references

    if args.profile:
        text = _profile(min(args.games, 30))
        results["profile_top"] = text
        print("\ncProfile, 5-player RandomBot games with run_game, top entries by own time:")
        print(text)
    output = Path(args.output)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(f"\nresults written to {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
