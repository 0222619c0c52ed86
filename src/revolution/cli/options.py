"""The options that ``revolution``'s subcommands share: the game's config, its seed, and the bots' kinds.

* ``--players {3,4}`` (default 4), ``--bid-refunds`` and ``--area-control-bonus`` (the optional rules 8.1 and
  8.2) make the :class:`~revolution.rules.state.RevolutionConfig` (:func:`config_of`);
* ``--bots`` names the bot kind of every seat, or one kind per seat separated by commas, among
  :data:`BOT_KINDS` (:func:`bot_kinds`); in ``play``, as in Dark Empire's, one kind for every other seat or one
  per other seat in seat order (:func:`other_kinds`); :func:`make_bot` builds one.

>>> bot_kinds("greedy,random,random", 3)
['greedy', 'random', 'random']
>>> other_kinds("greedy,random", 3, seat=1)
['greedy', None, 'random']
"""

from __future__ import annotations

import argparse
import types
from collections.abc import Callable, Mapping
from typing import Final

from revolution.bots import GreedyBot
from revolution.rules.actions import Action
from revolution.rules.state import RevolutionConfig
from revolution.rules.views import RevolutionView
from revolution.wire import SEEDS
from tablekit.bots import Bot, RandomBot
from tablekit.cli import other_seat_kinds, seat_kinds

__all__ = ["BOT_KINDS", "add_bots", "add_game", "bot_kinds", "config_of", "make_bot", "other_kinds"]

#: The bots a seat may be played by, by name: the greedy bidder (:class:`~revolution.bots.GreedyBot`) and the
#: kit's :class:`~tablekit.bots.RandomBot`, each built from its seed.
BOT_KINDS: Final[Mapping[str, Callable[[int], Bot[RevolutionView, Action]]]] = types.MappingProxyType(
    {"greedy": GreedyBot, "random": RandomBot})


def make_bot(kind: str, seed: int) -> Bot[RevolutionView, Action]:
    """A bot of ``kind`` (one of :data:`BOT_KINDS`) seeded with ``seed``."""
    return BOT_KINDS[kind](seed)


def _seed(text: str) -> int:
    """A seed a record can hold (:data:`revolution.wire.SEEDS`): refused before the game, not at its replay."""
    try:
        seed = int(text) if len(text) <= 30 else None
    except ValueError:
        seed = None
    if seed is None or seed not in SEEDS:
        raise argparse.ArgumentTypeError(f"a seed is a whole number from {SEEDS.start} to {SEEDS.stop - 1}, "
                                         f"not {text:.40}")
    return seed


def add_game(parser: argparse.ArgumentParser) -> None:
    """Add the options of one game: the seats, the seed, the optional rules."""
    parser.add_argument("--players", type=int, choices=(3, 4), default=4, help="number of seats (default 4)")
    parser.add_argument("--seed", type=_seed, default=1, help="the seed of the bots (default 1)")
    parser.add_argument("--bid-refunds", action="store_true", help="play with the optional Bid Refunds (rule 8.1)")
    parser.add_argument("--area-control-bonus", action="store_true",
                        help="play with the optional Area Control Bonus (rule 8.2)")


def add_bots(parser: argparse.ArgumentParser) -> None:
    """Add ``--bots``: the bot kind of every seat, or one per seat separated by commas (:func:`bot_kinds`);
    greedy at every seat by default, as Dark Empire's ``demo`` and ``simulate``."""
    parser.add_argument("--bots", default="greedy",
                        help=f"bot kind of every seat, or a comma-separated kind per seat: "
                             f"{', '.join(sorted(BOT_KINDS))} (default greedy)")


def config_of(args: argparse.Namespace) -> RevolutionConfig:
    """The config that :func:`add_game`'s options give."""
    return RevolutionConfig(players=args.players, bid_refunds=args.bid_refunds,
                            area_control_bonus=args.area_control_bonus)


def other_kinds(spec: str, players: int, seat: int) -> list[str | None]:
    """The bot kind of each seat but ``seat`` (the person's, ``None``) that ``play --bots`` names: one kind for
    every other seat, or one per other seat in seat order, as Dark Empire's ``play --bots``
    (:func:`tablekit.cli.other_seat_kinds`).

    :raises ~tablekit.cli.UsageError: a kind that does not exist, or a list of the wrong length.
    """
    return other_seat_kinds(spec, BOT_KINDS, players, seat)


def bot_kinds(spec: str, players: int) -> list[str]:
    """The bot kind of each seat that ``--bots`` names (:func:`tablekit.cli.seat_kinds`).

    :raises ~tablekit.cli.UsageError: a kind that does not exist, or a list of the wrong length.
    """
    return seat_kinds(spec, BOT_KINDS, players)
