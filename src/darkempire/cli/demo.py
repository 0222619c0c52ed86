"""``darkempire demo``: watch bots play a whole seeded game, week by week (spec 9.2, 9.3).

``darkempire demo [--players N] [--seed S] [--theme T] [--bots greedy,random,...]``
plays a game between bots and prints it week by week: the revealed cards,
every play step, the strengths, the tokens and why, the cards placed to the
score track, each monthly scoring and the final judgement. Seat ``s``'s bot
is seeded with ``10 * S + s``, so a demo can be replayed with
:func:`darkempire.bots.run_game`.

``--record FILE`` also writes the game as a JSON
:class:`~darkempire.records.GameRecord`, and ``--public-record FILE`` its
:class:`~darkempire.public_record.PublicRecord` (no seed, nothing hidden):
see :func:`save_demo_record`. ``darkempire replay`` reads either
(:mod:`darkempire.cli.replay`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from darkempire.rules.actions import Reorganize
from darkempire.bots import Turn, iter_game, make_bot
from darkempire.rules.cards import Theme
from darkempire.cli.record_files import write_record
from darkempire.public_record import public_record
from darkempire.records import Choice, GameRecord, state_digest
from darkempire.rules.state import GameConfig
from darkempire.text import Chronicle, note_reorganize

__all__ = ["run", "save_demo_record"]


def run(
    console: Console,
    players: int,
    seed: int,
    theme: Theme,
    kinds: Sequence[str],
    record: str | None = None,
    public: str | None = None,
) -> int:
    """Play a game between bots of ``kinds`` (seat ``s``'s bot seeded ``10 * seed + s``) and print it;
    write its game record to the file ``record`` and its public record to ``public`` if given.

    :returns: 0 when done.
    :raises ~darkempire.records.RecordError: if a record file cannot be written.
    """
    config = GameConfig(players=players)
    bots = [make_bot(kind, seed * 10 + seat) for seat, kind in enumerate(kinds)]
    seats = ", ".join(f"seat {s}: {kind}" for s, kind in enumerate(kinds))
    console.print(f"[bold]Dark Empire: Revolution[/bold] - {players} players, seed {seed}, theme {theme.value}")
    console.print(f"Bots: {seats}")
    console.print("Draft: every seat passes 2 cards to the next seat and discards 2 (face down, rules 2.5-2.6).")
    console.print("Each month every seat secretly chooses a temporary support card, revealed at the monthly scoring.")
    reorganized: dict[tuple[int, int], dict[int, Reorganize]] = {}
    turns = list(iter_game(config, seed, bots))
    for turn in turns:
        note_reorganize(reorganized, (turn.before.month, turn.before.week), turn.seat, turn.action)
    final = turns[-1].after
    assert final.verdict is not None
    Chronicle(console, theme).update(final.history, final.month_scores, final.phase, final.verdict, reorganized)
    if record is not None or public is not None:
        save_demo_record(console, record, config, seed, turns, public=public, theme=theme)
    return 0


def save_demo_record(
    console: Console,
    path: str | None,
    config: GameConfig,
    seed: int,
    turns: Sequence[Turn],
    *,
    public: str | None = None,
    theme: Theme = Theme.STEAM_NOIR,
) -> None:
    """Record the demo game made of ``turns`` (with state digests) and write it to ``path``, and its public
    record to ``public``, each if given; both records carry ``theme``, the faction names the demo showed,
    which ``darkempire replay`` shows again.

    :raises ~darkempire.records.RecordError: if a file cannot be written.
    """
    final = turns[-1].after if turns else None
    record = GameRecord(
        config,
        seed,
        tuple(Choice(t.seat, t.action) for t in turns),
        final.verdict if final is not None else None,
        tuple(state_digest(t.after) for t in turns),
        theme,
    )
    if path is not None:
        write_record(Path(path), record)
        console.print(f"Record of {len(record.choices)} choices written to {escape(path)}")
    if public is not None:
        write_record(Path(public), public_record(record))
        console.print(f"Public record (no seed, nothing hidden) written to {escape(public)}")
