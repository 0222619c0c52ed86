"""Tournaments between bots: seats rotated, ratings by openskill, head-to-head win rates (spec 8.1-8.5, 9.3).

:func:`tournament` plays a list of *entrants* (bot kinds; a kind listed twice is two entrants, ``greedy#1``
and ``greedy#2``) against each other for ``players`` seats a game:

* **Seats rotate.** A *round* takes every set of ``players`` entrants (all of them when there are as many
  entrants as seats) in turn and deals each set one game per seat: the set's games share one deal, and in
  the ``r``-th of them the entrant listed ``i``-th in the set sits in seat ``(i + r) mod players``. So over
  a round every entrant sits in every seat equally often, and on the same cards. The number of games is a
  whole number of rounds.
* **Ratings.** After each game, in game order, openskill's Plackett-Luce model updates the ratings with two
  ranks: the game's winners (every winner of a shared win, rule 8.5) tied first, everyone else tied
  second; the rules rank no one among the losers. A rating is ``mu`` (the estimate), ``sigma`` (its
  uncertainty) and ``ordinal`` = ``mu - 3 sigma``, the conservative figure the table is sorted by.
* **Head to head.** For two entrants, over the games they both sat in: the games the first won and the
  second did not (``wins``), the reverse (``losses``), and the rest (``ties``: both won, or neither). The
  win rate is ``wins / (wins + losses)``, with its 95% Wilson interval.

Game ``k``'s deal seed is :func:`darkempire.simulation.game_seeds` of the run's seed, one per deal, and its
bots are seeded as in ``darkempire simulate``: ``darkempire demo --players <N> --seed <deal seed> --bots <kinds>``
replays any game (each result's ``replay`` in the JSON output is that command). The games run on any backend of :mod:`darkempire.execution`, with the same result.

Needs the ``tournament`` extra (``pip install 'darkempire[tournament]'``) for openskill.

>>> result = tournament(["greedy", "random", "random"], games=3, seed=1, backend=Backend("serial"))
>>> [game.lineup for game in result.games]
[(0, 1, 2), (2, 0, 1), (1, 2, 0)]
"""

from __future__ import annotations

import itertools
import json
import math
import sys
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

import attrs
from rich.console import Console

from tablekit.errors import KitError
from tablekit.stats import Rate

from darkempire.bots import BOT_KINDS
from darkempire.execution import Backend, map_in_order
from darkempire.simulation import ENGINES, game_seeds, play_game

__all__ = [
    "TOURNAMENT_HINT",
    "Entrant",
    "HeadToHead",
    "Rating",
    "TournamentGame",
    "TournamentResult",
    "TournamentUnavailable",
    "entrant_names",
    "print_json",
    "print_result",
    "progress_bar",
    "round_length",
    "schedule",
    "tournament",
]

#: What to install for :func:`tournament`'s ratings.
TOURNAMENT_HINT = "pip install 'darkempire[tournament]'"


class TournamentUnavailable(KitError, ImportError):
    """openskill, which rates the entrants, is not installed (the ``tournament`` extra)."""


@attrs.frozen
class TournamentGame:
    """One game of a tournament.

    :ivar seed: the deal's seed (the game's seed, as ``darkempire demo --seed`` takes it).
    :ivar lineup: the entrant (its index in the entrant list) in each seat.
    :ivar winners: the winning seats, sorted (rules 8.2-8.5).
    :ivar outcome: one of :data:`darkempire.simulation.OUTCOMES`.
    """

    seed: int
    lineup: tuple[int, ...]
    winners: tuple[int, ...]
    outcome: str

    @property
    def winning_entrants(self) -> frozenset[int]:
        """The entrants in the winning seats."""
        return frozenset(self.lineup[seat] for seat in self.winners)


@attrs.frozen
class Rating:
    """An entrant's openskill rating (the prior is ``mu`` 25, ``sigma`` 25/3).

    :ivar mu: the estimate of its skill.
    :ivar sigma: the estimate's uncertainty (a standard deviation).
    """

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: below the true skill with about 99.7% confidence."""
        return self.mu - 3 * self.sigma


@attrs.frozen
class Entrant:
    """An entrant's standing at the end.

    :ivar name: its name (its kind, with ``#n`` when the kind has several entrants).
    :ivar kind: its bot kind.
    :ivar rating: its rating after the last game.
    :ivar wins: its games won (a shared win counts for each winner) over ``wins.played`` games.
    :ivar seat_games: the games it sat in each seat.
    """

    name: str
    kind: str
    rating: Rating
    wins: Rate
    seat_games: tuple[int, ...]


@attrs.frozen
class HeadToHead:
    """Two entrants over the games they both sat in.

    :ivar games: the games they both sat in.
    :ivar wins: those the first won and the second did not.
    :ivar losses: those the second won and the first did not.
    """

    games: int
    wins: int
    losses: int

    @property
    def ties(self) -> int:
        """Games both won, or neither."""
        return self.games - self.wins - self.losses

    @property
    def rate(self) -> Rate:
        """The first's share of the games that only one of the two won, with its 95% Wilson interval."""
        return Rate.of(self.wins, self.wins + self.losses)


@attrs.frozen
class TournamentResult:
    """What :func:`tournament` found.

    :ivar players: seats per game.
    :ivar seed: the run's seed.
    :ivar entrants: each entrant's standing, in entrant order.
    :ivar head_to_head: ``head_to_head[a][b]`` is entrant ``a`` against entrant ``b`` (``a != b``).
    :ivar games: every game, in game order.
    """

    players: int
    seed: int
    entrants: tuple[Entrant, ...]
    head_to_head: Mapping[int, Mapping[int, HeadToHead]]
    games: tuple[TournamentGame, ...] = attrs.field(repr=False)

    def standings(self) -> list[int]:
        """The entrants' indexes, best ordinal first (entrant order between equals)."""
        return sorted(range(len(self.entrants)), key=lambda i: (-self.entrants[i].rating.ordinal, i))

    def replay_command(self, game: TournamentGame) -> str:
        """The ``darkempire demo`` command that plays ``game`` again: its deal seed and its seats' bot kinds."""
        kinds = ",".join(self.entrants[i].kind for i in game.lineup)
        return f"darkempire demo --players {self.players} --seed {game.seed} --bots {kinds}"

    def to_json(self) -> dict[str, Any]:
        """The result as JSON-ready data (what ``darkempire tournament --json`` prints).

        Keys: ``players``, ``seed``, ``games`` (the count), ``entrants`` (in standing order: ``name``,
        ``kind``, ``mu``, ``sigma``, ``ordinal``, ``wins``, ``played``, ``rate``, ``ci95``, ``seat_games``),
        ``head_to_head`` (by name, then by opponent's name: ``games``, ``wins``, ``losses``, ``ties``,
        ``rate``, ``ci95``) and ``results`` (each game's ``seed``, ``lineup`` by name, ``winners`` seats,
        ``outcome``, and the ``replay`` command that plays it again). No timings, so the output does not depend on the machine or the backend.
        """
        names = [e.name for e in self.entrants]
        return {
            "players": self.players,
            "seed": self.seed,
            "games": len(self.games),
            "entrants": [
                {
                    "name": e.name,
                    "kind": e.kind,
                    "mu": e.rating.mu,
                    "sigma": e.rating.sigma,
                    "ordinal": e.rating.ordinal,
                    "wins": e.wins.wins,
                    "played": e.wins.played,
                    "rate": e.wins.rate,
                    "ci95": [e.wins.low, e.wins.high],
                    "seat_games": list(e.seat_games),
                }
                for e in (self.entrants[i] for i in self.standings())
            ],
            "head_to_head": {
                names[a]: {
                    names[b]: {
                        "games": h.games,
                        "wins": h.wins,
                        "losses": h.losses,
                        "ties": h.ties,
                        "rate": h.rate.rate,
                        "ci95": [h.rate.low, h.rate.high],
                    }
                    for b, h in row.items()
                }
                for a, row in self.head_to_head.items()
            },
            "results": [
                {
                    "seed": g.seed,
                    "lineup": [names[i] for i in g.lineup],
                    "winners": list(g.winners),
                    "outcome": g.outcome,
                    "replay": self.replay_command(g),
                }
                for g in self.games
            ],
        }


def entrant_names(kinds: Sequence[str]) -> list[str]:
    """Each entrant's name: its kind, or ``kind#n`` (from 1, in list order) when the kind is listed twice or more.

    >>> entrant_names(["greedy", "random", "random", "greedy", "ismcts"])
    ['greedy#1', 'random#1', 'random#2', 'greedy#2', 'ismcts']
    """
    seen: dict[str, int] = {}
    names = []
    for kind in kinds:
        seen[kind] = seen.get(kind, 0) + 1
        names.append(f"{kind}#{seen[kind]}" if kinds.count(kind) > 1 else kind)
    return names


def round_length(entrants: int, players: int) -> int:
    """Games in one round: every set of ``players`` entrants, one game per seat."""
    return math.comb(entrants, players) * players


def schedule(entrants: int, players: int, rounds: int) -> list[tuple[int, tuple[int, ...]]]:
    """The games of ``rounds`` rounds, in order: each game's deal (its index in the run's deal seeds) and its
    lineup (the entrant in each seat). Deal ``d`` is played ``players`` times in a row, rotated.

    >>> schedule(3, 3, 1)
    [(0, (0, 1, 2)), (0, (2, 0, 1)), (0, (1, 2, 0))]
    """
    games = []
    sets = list(itertools.combinations(range(entrants), players))
    for deal in range(rounds * len(sets)):
        members = sets[deal % len(sets)]
        for r in range(players):
            lineup = [0] * players
            for i, entrant in enumerate(members):
                lineup[(i + r) % players] = entrant
            games.append((deal, tuple(lineup)))
    return games


def _play_chunk(
    players: int, kinds: tuple[str, ...], engine: str, chunk: Sequence[tuple[int, tuple[int, ...]]]
) -> list[TournamentGame]:
    """A worker's task: the games of ``chunk`` (seed and lineup each), in order."""
    games = []
    for seed, lineup in chunk:
        result = play_game(players, seed, [kinds[i] for i in lineup], engine=engine)
        games.append(TournamentGame(seed=seed, lineup=lineup, winners=result.winners, outcome=result.outcome))
    return games


def tournament(
    kinds: Sequence[str],
    games: int,
    seed: int,
    *,
    players: int | None = None,
    backend: Backend | None = None,
    engine: str = "auto",
    progress: Callable[[int], None] | None = None,
) -> TournamentResult:
    """Play a tournament between the entrants ``kinds`` (bot kinds of :data:`darkempire.bots.BOT_KINDS`).

    :param games: games to play: a positive multiple of :func:`round_length`.
    :param seed: the run's seed: the deals' seeds derive from it.
    :param players: seats per game, 3-5; default one per entrant.
    :param backend: where the games are played (default the process pool). The result does not depend on it.
    :param engine: one of :data:`darkempire.simulation.ENGINES`. The result does not depend on it.
    :param progress: called with the number of games just finished.
    :raises ValueError: for an unknown kind, fewer entrants than seats, a bad number of players or of games.
    :raises TournamentUnavailable: without openskill.
    :raises darkempire.execution.BackendError: when the backend cannot run.
    """
    kinds = tuple(kinds)
    players = len(kinds) if players is None else players
    unknown = [k for k in kinds if k not in BOT_KINDS]
    if unknown:
        raise ValueError(f"unknown bot kind {unknown[0]!r}; choose from {', '.join(sorted(BOT_KINDS))}")
    if players not in (3, 4, 5):
        raise ValueError(f"the game is for 3 to 5 players, not {players}")
    if len(kinds) < players:
        raise ValueError(f"{players} seats need at least {players} entrants, not {len(kinds)}")
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; choose from {', '.join(ENGINES)}")
    length = round_length(len(kinds), players)
    if games < 1 or games % length:
        raise ValueError(f"the games must be a positive multiple of {length} (a round), not {games}")
    model = _model()
    backend = backend if backend is not None else Backend()
    plan = schedule(len(kinds), players, games // length)
    deals = game_seeds(seed, plan[-1][0] + 1)
    seeded = [(deals[deal], lineup) for deal, lineup in plan]
    workers = 1 if backend.kind == "serial" else backend.worker_count
    size = max(1, min(200, math.ceil(len(seeded) / (workers * 8))))
    chunks = [seeded[i : i + size] for i in range(0, len(seeded), size)]
    done = None if progress is None else (lambda chunk: progress(len(chunk)))
    played = [
        game for chunk in map_in_order(partial(_play_chunk, players, kinds, engine), chunks, backend, done) for game in chunk
    ]
    return _rate(model, kinds, players, seed, played)


def _model() -> Any:
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise TournamentUnavailable(f"darkempire tournament rates with openskill: {TOURNAMENT_HINT}") from None
    return PlackettLuce()


def _rate(model: Any, kinds: tuple[str, ...], players: int, seed: int, games: list[TournamentGame]) -> TournamentResult:
    n = len(kinds)
    ratings = [model.rating() for _ in range(n)]
    wins = [0] * n
    played = [0] * n
    seats = [[0] * players for _ in range(n)]
    pair = {(a, b): [0, 0, 0] for a in range(n) for b in range(n) if a != b}  # games, wins, losses
    for game in games:
        winners = game.winning_entrants
        teams = [[ratings[e]] for e in game.lineup]
        ranks = [1 if e in winners else 2 for e in game.lineup]
        for e, (rated,) in zip(game.lineup, model.rate(teams, ranks=ranks), strict=True):
            ratings[e] = rated
        for seat, e in enumerate(game.lineup):
            played[e] += 1
            wins[e] += e in winners
            seats[e][seat] += 1
        for a, b in itertools.permutations(game.lineup, 2):
            counts = pair[(a, b)]
            counts[0] += 1
            counts[1] += a in winners and b not in winners
            counts[2] += b in winners and a not in winners
    names = entrant_names(kinds)
    return TournamentResult(
        players=players,
        seed=seed,
        entrants=tuple(
            Entrant(
                name=names[e],
                kind=kinds[e],
                rating=Rating(mu=float(ratings[e].mu), sigma=float(ratings[e].sigma)),
                wins=Rate.of(wins[e], played[e]),
                seat_games=tuple(seats[e]),
            )
            for e in range(n)
        ),
        head_to_head={
            a: {b: HeadToHead(*pair[(a, b)]) for b in range(n) if b != a} for a in range(n)
        },
        games=tuple(games),
    )


# --------------------------------------------------------------------------- the command line


def print_result(console: Console, result: TournamentResult, heading: str) -> None:
    """Print ``result`` after ``heading`` as two tables: the ratings with win rates, and head to head."""
    from rich.table import Table

    console.print(heading)
    ratings = Table(title="Ratings (openskill Plackett-Luce; sorted by ordinal = mu - 3 sigma)", title_justify="left")
    for column in ("rank", "entrant", "mu", "sigma", "ordinal", "wins", "win %", "95% interval"):
        ratings.add_column(column, justify="left" if column == "entrant" else "right")
    for rank, i in enumerate(result.standings(), 1):
        e = result.entrants[i]
        ratings.add_row(
            str(rank), e.name, f"{e.rating.mu:.2f}", f"{e.rating.sigma:.2f}", f"{e.rating.ordinal:.2f}",
            f"{e.wins.wins}/{e.wins.played}", f"{100 * e.wins.rate:.1f}",
            f"{100 * e.wins.low:.1f}-{100 * e.wins.high:.1f}",
        )
    console.print(ratings)
    order = result.standings()
    h2h = Table(
        title="Head to head: row's win % over column when exactly one of the two won (decisive games)",
        title_justify="left",
    )
    h2h.add_column("")
    for j in order:
        h2h.add_column(result.entrants[j].name, justify="right")
    for i in order:
        cells = []
        for j in order:
            if i == j:
                cells.append("-")
                continue
            h = result.head_to_head[i][j]
            decisive = h.wins + h.losses
            cells.append(f"{100 * h.rate.rate:.0f}% of {decisive}" if decisive else "n/a")
        h2h.add_row(result.entrants[i].name, *cells)
    console.print(h2h)


def print_json(console: Console, result: TournamentResult) -> None:
    """Print ``result`` as JSON, plain (never wrapped or coloured), so that it stays valid on a terminal."""
    console.print(json.dumps(result.to_json(), indent=2), markup=False, highlight=False, soft_wrap=True)


def progress_bar(total: int) -> Any:
    """A transient progress bar on standard error when it is a terminal (disabled otherwise)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    bar_console = Console(file=sys.stderr)
    return Progress(
        TextColumn("playing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=bar_console, disable=not bar_console.is_terminal, transient=True,
    )
