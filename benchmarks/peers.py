"""Random playouts of darkempire and of its peers, in interleaved rounds of the same run (one table).

Every contestant is a small function ``play(games, seed) -> (decisions, games)`` that plays ``games`` whole
random games with generators seeded from ``seed`` and counts its **decisions**: the actions that players
applied. Chance is excluded whenever the peer has a separate chance (a chance node, an automated deal);
each contestant's docstring says exactly what it counts. The contestants:

* ``darkempire kernel``: :func:`darkempire.kernel.deal` and :meth:`~darkempire.kernel.interface.Kernel.playout`,
  the pure modules (this process sets ``DARKEMPIRE_PURE_KERNEL``);
* ``darkempire kernel (compiled)``: the same on the compiled build (``python -m darkempire.kernel.build``, which
  ``nox -s bench`` runs), measured in a subprocess per round that times itself as :func:`measure` does; a row
  saying why when there is no fresh build;
* ``darkempire reference``: :func:`darkempire.rules.engine.deal`, ``awaited_seats``, ``legal_actions``
  and ``apply``, the loop of a random bot driver without views;
* ``darkempire OpenSpiel``: the adapter's game ``dark_empire_revolution`` stepped with ``apply_actions``;
* ``RLCard Leduc``: RLCard's Leduc Hold'em, ``env.step`` with a random legal action;
* ``PokerKit NLHE 6``: PokerKit's no-limit Texas hold'em, 6 players, random legal moves;
* ``OpenSpiel goofspiel`` and ``OpenSpiel hearts``: OpenSpiel's C++ games stepped from Python.

The darkempire contestants play ``--players`` seats (default 5) and seed the seats' generators as
:class:`~darkempire.bots.RandomBot` seeds them in :func:`~darkempire.bots.run_game`, ``random.Random(10 * g + s)``
for game ``g`` and seat ``s``, so the reference and the kernel play the very same games.

A round runs every contestant in turn for ``--seconds`` of CPU time (:func:`time.process_time`; wall time
is taken too), the order reversed every other round so that a busy machine slows all alike. The table gives,
per contestant, the min and max over rounds of decisions/s and games/s (CPU), decisions/s by the wall clock,
and the kernel's decisions/s divided by the contestant's, per round. A peer that is not installed is a row
that says so. After the table: the median CPU time of a whole 5-player kernel game (of ``--game-median``
games, timed by :func:`kernel_speed.kernel_round`) and the issue's targets against the figures.

Not a test: it asserts nothing. Run it with ``nox -s bench`` (which installs the peers) or directly::

    python benchmarks/peers.py --rounds 3 --seconds 2 --json build/peers.json
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # kernel_speed, when run as a script or imported by tests

import kernel_speed  # noqa: E402

from darkempire.kernel import deal as kernel_deal  # noqa: E402
from darkempire.rules import engine  # noqa: E402
from darkempire.rules.state import GameConfig  # noqa: E402

#: A contestant: ``play(games, seed)`` plays ``games`` random games and returns (decisions, games played).
Play = Callable[[int, int], tuple[int, int]]

KERNEL = "darkempire kernel"
COMPILED = "darkempire kernel (compiled)"


def seat_generators(players: int, game: int) -> list[random.Random]:
    """The seats' generators of game ``game``: those of ``RandomBot(10 * game + seat)`` in ``run_game``."""
    return [random.Random(10 * game + seat) for seat in range(players)]


# --------------------------------------------------------------------------- darkempire


def kernel_player(players: int) -> Play:
    """The playout kernel. A decision is one seat's choice: what :meth:`Kernel.playout` returns, one
    ``apply_index`` per awaited seat per step. The deal's and the refills' shuffles are the kernel's own
    (no chance decisions)."""

    def play(games: int, seed: int) -> tuple[int, int]:
        decisions = 0
        for game in range(seed, seed + games):
            decisions += kernel_deal(players, game).playout(seat_generators(players, game))
        return decisions, games

    return play


def reference_player(players: int) -> Play:
    """The reference engine. A decision is one ``apply``: one seat's choice (the lowest awaited seat first,
    a uniformly random index into its ``legal_actions``). Shuffles happen inside ``deal`` and ``apply``."""
    config = GameConfig(players=players)

    def play(games: int, seed: int) -> tuple[int, int]:
        decisions = 0
        for game in range(seed, seed + games):
            rngs = seat_generators(players, game)
            state = engine.deal(config, game)
            while not state.is_over:
                seat = min(engine.awaited_seats(state))
                legal = engine.legal_actions(state, seat)
                state = engine.apply(state, seat, legal[rngs[seat].randrange(len(legal))])
                decisions += 1
        return decisions, games

    return play


def spiel_game(rng: random.Random, state: Any, waiting: int | None = None) -> int:
    """Play an OpenSpiel state to its end with uniformly random actions; return the decisions made.

    Chance nodes draw an outcome by its probability and are not decisions. At a simultaneous node every
    player acts and each player's action is one decision, except an action ``waiting`` that is a player's
    only legal one (the darkempire adapter's "wait" of a seat the step does not await). At a sequential node
    the current player's action is one decision.
    """
    decisions = 0
    players = range(state.num_players())
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        elif state.is_simultaneous_node():
            joint = []
            for player in players:
                legal = state.legal_actions(player)
                joint.append(legal[rng.randrange(len(legal))])
                decisions += waiting is None or legal != [waiting]
            state.apply_actions(joint)
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            decisions += 1
    return decisions


def spiel_player(name: str, adapter: bool = False) -> Play:
    """An OpenSpiel game, loaded by ``name``, played by :func:`spiel_game` (see there what counts): the
    C++ games ``goofspiel`` (2 players, 13 cards, random point order: simultaneous, the point cards are
    chance) and ``hearts`` (4 players; the deal and pass direction are chance; passes and plays are
    decisions), or the darkempire adapter (``adapter=True``; the deal and revealed cards are chance, waits
    are not decisions). The generator of game ``g`` is ``random.Random(g)``."""
    import pyspiel

    if adapter:
        import darkempire.adapters.openspiel  # noqa: F401  # registers the game with pyspiel
    game = pyspiel.load_game(name)
    waiting = 0 if adapter else None

    def play(games: int, seed: int) -> tuple[int, int]:
        decisions = 0
        for number in range(seed, seed + games):
            decisions += spiel_game(random.Random(number), game.new_initial_state(), waiting)
        return decisions, games

    return play


# --------------------------------------------------------------------------- peers in Python


def rlcard_player() -> Play:
    """RLCard 1.2's Leduc Hold'em (2 players). A decision is one ``env.step``: a player's action, uniformly
    random among ``state["legal_actions"]``. The deal is inside ``env.reset`` (not a decision). A game is a
    hand; the environment is seeded with ``seed`` once per call."""
    import rlcard  # type: ignore[import-untyped,import-not-found,unused-ignore]

    def play(games: int, seed: int) -> tuple[int, int]:
        env = rlcard.make("leduc-holdem", config={"seed": seed})
        rng = random.Random(seed)
        decisions = 0
        for _ in range(games):
            state, _player = env.reset()
            while not env.is_over():
                state, _player = env.step(rng.choice(list(state["legal_actions"])))
                decisions += 1
        return decisions, games

    return play


#: PokerKit's automations: everything but the players' own moves (cards, blinds, bets collected, pots pushed).
POKERKIT_AUTOMATIONS = (
    "ANTE_POSTING", "BET_COLLECTION", "BLIND_OR_STRADDLE_POSTING", "CARD_BURNING", "HOLE_DEALING",
    "BOARD_DEALING", "RUNOUT_COUNT_SELECTION", "HOLE_CARDS_SHOWING_OR_MUCKING", "HAND_KILLING",
    "CHIPS_PUSHING", "CHIPS_PULLING",
)  # fmt: skip


def pokerkit_player() -> Play:
    """PokerKit 0.7's no-limit Texas hold'em, 6 players, blinds 1/2, stacks 200, cash game. A decision is
    one player's move, uniformly random among check/call, fold (only when facing a bet) and a raise to the
    minimum; dealing and chip moves are automated (not decisions). A game is a hand. PokerKit deals from its
    own shuffled deck; ``seed`` seeds the moves' generator."""
    import pokerkit

    automations = tuple(getattr(pokerkit.Automation, name) for name in POKERKIT_AUTOMATIONS)

    def play(games: int, seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        decisions = 0
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for _ in range(games):
                state = pokerkit.NoLimitTexasHoldem.create_state(
                    automations, True, 0, (1, 2), 2, 200, 6, mode=pokerkit.Mode.CASH_GAME
                )
                while state.status:
                    moves: list[Callable[[], object]] = [state.check_or_call]
                    if state.can_fold() and state.checking_or_calling_amount:
                        moves.append(state.fold)
                    if state.can_complete_bet_or_raise_to():
                        moves.append(state.complete_bet_or_raise_to)
                    rng.choice(moves)()
                    decisions += 1
        return decisions, games

    return play


# --------------------------------------------------------------------------- rounds


@dataclass
class Sample:
    """One contestant's share of one round: what it played and the CPU and wall seconds it took."""

    decisions: int = 0
    games: int = 0
    cpu: float = 0.0
    wall: float = 0.0

    def rate(self, what: str) -> float:
        """``decisions``, ``games`` (per CPU second) or ``wall`` (decisions per wall second)."""
        if what == "wall":
            return self.decisions / self.wall if self.wall else 0.0
        return (self.decisions if what == "decisions" else self.games) / self.cpu if self.cpu else 0.0


@dataclass
class Contestant:
    """A row of the table: a name, its ``play`` (``None`` when its package is missing, with ``note``)."""

    name: str
    play: Play | None
    note: str = ""
    samples: list[Sample] = field(default_factory=list)
    #: Measures one round of ``seconds`` itself, instead of :func:`measure` on ``play`` (the compiled kernel).
    sampler: Callable[[float], Sample] | None = None


def measure(play: Play, seconds: float) -> Sample:
    """Play games ``0, 1, 2, ...`` until ``seconds`` of CPU time have passed, in chunks of games that double
    from one until a chunk takes a tenth of the time (so that a contestant's set-up per call is paid rarely)."""
    sample, chunk = Sample(), 1
    while sample.cpu < seconds:
        cpu, wall = time.process_time(), time.perf_counter()
        decisions, games = play(chunk, sample.games)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        sample.decisions, sample.games = sample.decisions + decisions, sample.games + games
        sample.cpu, sample.wall = sample.cpu + cpu, sample.wall + wall
        if cpu < seconds / 10:
            chunk *= 2
    return sample


def compiled_sample(players: int, seconds: float, game_median: int = 0) -> dict[str, Any]:
    """One round of the compiled kernel in a subprocess that may load it (:func:`kernel_speed.compiled_worker`):
    ``compiled`` and ``reason`` (:data:`darkempire.kernel.BUILD_REASON`), then the ``sample`` of
    :func:`measure` and, when ``game_median`` is given, the median CPU ms of that many 5-player games."""
    return kernel_speed.compiled_worker(str(Path(__file__).resolve()), "--kernel-worker", "--players", str(players),
                                        "--seconds", str(seconds), "--game-median", str(game_median))


def _kernel_worker(players: int, seconds: float, game_median: int) -> int:
    import darkempire.kernel

    answer: dict[str, Any] = {"compiled": darkempire.kernel.COMPILED, "reason": darkempire.kernel.BUILD_REASON}
    if darkempire.kernel.COMPILED:
        play = kernel_player(players)
        play(1, 0)  # untimed, as run_rounds plays one game of each contestant first
        if seconds > 0:
            answer["sample"] = vars(measure(play, seconds))
        if game_median:
            answer["game_ms"] = statistics.median(kernel_speed.kernel_round(game_median, 5)[2]) * 1e3
    print(json.dumps(answer))
    return 0


def compiled_contestant(players: int) -> Contestant:
    """The compiled kernel's row: measured by :func:`compiled_sample`, or a note when there is no fresh build."""
    try:
        answer = compiled_sample(players, 0)
    except Exception as error:  # noqa: BLE001  # a broken build is a row that says so, as a broken peer is
        return Contestant(COMPILED, None, f"could not be loaded: {error!r}")
    if not answer["compiled"]:
        return Contestant(COMPILED, None, str(answer["reason"]))
    return Contestant(COMPILED, None, sampler=lambda seconds: Sample(**compiled_sample(players, seconds)["sample"]))


def contestants(players: int, compiled: bool = True) -> list[Contestant]:
    """Every contestant, those whose package cannot be imported as rows with a note and no ``play``; the
    compiled kernel's row only when ``compiled``."""
    makers: list[tuple[str, Callable[[], Play]]] = [
        (KERNEL, lambda: kernel_player(players)),
        ("darkempire reference", lambda: reference_player(players)),
        ("darkempire OpenSpiel", lambda: spiel_player(f"dark_empire_revolution(players={players})", adapter=True)),
        ("RLCard Leduc", rlcard_player),
        ("PokerKit NLHE 6", pokerkit_player),
        ("OpenSpiel goofspiel (C++)", lambda: spiel_player("goofspiel")),
        ("OpenSpiel hearts (C++)", lambda: spiel_player("hearts")),
    ]
    made = []
    for name, maker in makers:
        try:
            made.append(Contestant(name, maker()))
        except ImportError as error:
            made.append(Contestant(name, None, f"not installed ({error.name or error})"))
        except Exception as error:  # noqa: BLE001  # a peer that installs but fails on import is reported, not fatal
            made.append(Contestant(name, None, f"could not be loaded: {error!r}"))
    if compiled:
        made.insert(1, compiled_contestant(players))
    return made


def run_rounds(table: list[Contestant], rounds: int, seconds: float) -> None:
    """``rounds`` rounds of every playable contestant, the order reversed every other round, after one
    untimed game of each (a peer's first game pays for lazy imports and caches: RLCard's ran 25% slower)."""
    playable = [c for c in table if c.play is not None or c.sampler is not None]
    for contestant in playable:
        if contestant.play is not None:
            contestant.play(1, 0)
    for number in range(rounds):
        for contestant in playable if number % 2 == 0 else playable[::-1]:
            if contestant.sampler is not None:
                contestant.samples.append(contestant.sampler(seconds))
            else:
                assert contestant.play is not None
                contestant.samples.append(measure(contestant.play, seconds))


# --------------------------------------------------------------------------- the table


def _span(values: list[float]) -> list[float]:
    return [min(values), max(values)] if values else []


def summary(table: list[Contestant]) -> list[dict[str, Any]]:
    """Each row's min and max over rounds: decisions/s and games/s (CPU), decisions/s (wall), and the
    pure and the compiled kernel's decisions/s over the row's, round by round."""
    kernel = next(c for c in table if c.name == KERNEL)
    compiled = next((c for c in table if c.name == COMPILED), Contestant(COMPILED, None))

    def ratios(of: Contestant, contestant: Contestant) -> list[float]:
        return [k.rate("decisions") / s.rate("decisions") for k, s in zip(of.samples, contestant.samples)
                if s.rate("decisions")]  # fmt: skip

    rows = []
    for contestant in table:
        rows.append({
            "name": contestant.name, "note": contestant.note, "rounds": len(contestant.samples),
            "decisions_per_s": _span([s.rate("decisions") for s in contestant.samples]),
            "games_per_s": _span([s.rate("games") for s in contestant.samples]),
            "wall_decisions_per_s": _span([s.rate("wall") for s in contestant.samples]),
            "kernel_ratio": _span(ratios(kernel, contestant)),
            "compiled_ratio": _span(ratios(compiled, contestant)),
            "decisions_per_game": (sum(s.decisions for s in contestant.samples)
                                   / max(1, sum(s.games for s in contestant.samples))),
        })  # fmt: skip
    return rows


def _text(span: list[float], unit: str = "", digits: int = 0) -> str:
    if not span:
        return "-"
    low, high = (f"{v:,.{digits}f}{unit}" for v in span)
    return low if low == high else f"{low} - {high}"


def print_table(rows: list[dict[str, Any]], title: str) -> None:
    """The one table, with rich."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title)
    for header in ("contestant", "decisions/s (CPU)", "games/s (CPU)", "decisions/s (wall)", "kernel / this",
                   "compiled / this", "decisions/game"):  # fmt: skip
        table.add_column(header, justify="left" if header == "contestant" else "right")
    for row in rows:
        if row["note"]:
            table.add_row(row["name"], row["note"], "", "", "", "", "")
            continue
        table.add_row(row["name"], _text(row["decisions_per_s"]), _text(row["games_per_s"], digits=1),
                      _text(row["wall_decisions_per_s"]), _text(row["kernel_ratio"], "x", 2),
                      _text(row["compiled_ratio"], "x", 2),
                      f"{row['decisions_per_game']:.1f}")  # fmt: skip
    Console(width=160).print(table)


def targets(rows: list[dict[str, Any]], game_ms: float, compiled_ms: float | None = None) -> list[str]:
    """The issue's targets against the figures (min - max over rounds); a missing peer says so. The kernel's
    are given for the pure modules and, when measured, for the compiled build."""
    by_name = {row["name"]: row for row in rows}

    def ratio(name: str, key: str = "kernel_ratio") -> list[float]:
        return by_name[name][key] if name in by_name else []

    reference, adapter = ratio("darkempire reference"), ratio("darkempire OpenSpiel")
    cost = [a / r for a, r in zip(adapter, reference)] if adapter and reference else []
    return [
        f"kernel decisions/s >= 300,000: {_text(by_name[KERNEL]['decisions_per_s'])}",
        f"kernel >= 5x RLCard Leduc: {_text(ratio('RLCard Leduc'), 'x', 2)}",
        f"kernel >= 0.6x OpenSpiel C++ hearts: {_text(ratio('OpenSpiel hearts (C++)'), 'x', 2)}",
        f"5-player kernel game < 1 ms (median): {game_ms:.3f} ms",
        f"OpenSpiel adapter <= 2x the reference's cost per decision: {_text(_span(cost), 'x', 1)}",
    ] + ([
        f"compiled kernel decisions/s >= 300,000: {_text(by_name[COMPILED]['decisions_per_s'])}",
        f"compiled kernel >= 5x RLCard Leduc: {_text(ratio('RLCard Leduc', 'compiled_ratio'), 'x', 2)}",
        f"compiled kernel >= 0.6x OpenSpiel C++ hearts: {_text(ratio('OpenSpiel hearts (C++)', 'compiled_ratio'), 'x', 2)}",
        f"5-player compiled kernel game < 1 ms (median): {compiled_ms:.3f} ms",
    ] if compiled_ms is not None and by_name.get(COMPILED, {}).get("rounds") else [])  # fmt: skip


def machine() -> dict[str, Any]:
    """Where and when: the date (UTC), Python, the processor, the core count and the load averages."""
    import os

    cpuinfo = Path("/proc/cpuinfo")
    models = [line.split(":", 1)[1].strip() for line in cpuinfo.read_text().splitlines()
              if line.startswith("model name")] if cpuinfo.exists() else []  # fmt: skip
    processor = models[0] if models else platform.processor()
    return {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "python": platform.python_version(),
        "machine": f"{platform.system()} {platform.machine()} {processor}".strip(),
        "cores": os.cpu_count(), "load": [round(x, 2) for x in os.getloadavg()],
    }  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per contestant per round (default 2)")
    parser.add_argument("--players", type=int, default=5, help="darkempire's seats (default 5)")
    parser.add_argument("--game-median", type=int, default=1000, help="5-player kernel games timed (default 1000)")
    parser.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    parser.add_argument("--kernel-worker", action="store_true", help=argparse.SUPPRESS)  # compiled_sample's
    args = parser.parse_args(argv)
    if args.kernel_worker:
        return _kernel_worker(args.players, args.seconds, args.game_median)
    before = machine()
    table = contestants(args.players)
    run_rounds(table, args.rounds, args.seconds)
    per_game = kernel_speed.kernel_round(args.game_median, 5)[2]
    game_ms = statistics.median(per_game) * 1e3
    compiled_ms = None
    if any(c.name == COMPILED and c.samples for c in table):
        compiled_ms = float(compiled_sample(args.players, 0, args.game_median)["game_ms"])
    rows = summary(table)
    after = machine()
    print_table(rows, f"Random playouts, {args.rounds} rounds of {args.seconds:g} CPU s each, min - max over rounds; "
                      f"darkempire with {args.players} players")  # fmt: skip
    print("\n".join(targets(rows, game_ms, compiled_ms)))
    print(f"{after['date']}, Python {after['python']}, {after['machine']}, {after['cores']} cores, "
          f"load averages {before['load']} before, {after['load']} after")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        document = {"rows": rows, "kernel_game_ms_median": game_ms, "compiled_kernel_game_ms_median": compiled_ms,
                    "games_timed": args.game_median,
                    "rounds": args.rounds, "seconds": args.seconds, "players": args.players,
                    "machine_before": before, "machine_after": after}  # fmt: skip
        args.json.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
