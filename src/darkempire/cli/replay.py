"""``darkempire replay FILE [--seat N] [--week W]``: re-run a record and print it (spec 9.3, 9.4).

* A game record (``darkempire demo --record FILE``) is re-run through the
  rules with :func:`~darkempire.records.replay_record`; the game is printed
  week by week and the command confirms that it reproduces the recorded
  verdict. A record that does not reproduce stops with an error naming the
  first divergent choice (exit status 1).
* A public record (``darkempire demo --public-record FILE``) is checked move
  by move with :func:`~darkempire.public_record.spectator_replay` and printed
  as a spectator saw it (``--seat`` is refused: it holds no seat's secrets).
* ``--week W [--seat N]`` shows what seat ``N`` (or a spectator, without
  ``--seat``) saw in week ``W`` of the game (1-12): its
  :class:`~darkempire.rules.views.PlayerView` when the week's cards were revealed,
  then the week's events as :func:`~darkempire.rules.events.events_for` gives them
  to that seat.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import attrs
from rich.console import Console

from darkempire.rules.actions import Reorganize
from darkempire.rules.cards import Theme
from darkempire.cli.record_files import read_record
from darkempire.rules.events import Event, events_for
from darkempire.history import History
from darkempire.public_record import PublicRecord, spectator_replay
from darkempire.records import GameRecord, RecordError, replay_record
from darkempire.rules.scoring import Verdict
from darkempire.rules.state import MONTHS, WEEKS, GameState, Phase
from darkempire.text import Chronicle, event_lines, note_reorganize, view_lines
from darkempire.rules.views import PlayerView, player_view, spectator_view

__all__ = ["replay_command"]


def replay_command(
    console: Console, path: str, theme: Theme | None = None, *, seat: int | None, week: int | None
) -> int:
    """``darkempire replay``: replay the record at ``path``; print the game, or one seat's view of one week.

    Faction names are ``theme``'s, or, without one, the record's own (the ``theme`` of a
    :class:`~darkempire.records.GameRecord`: the names the game was shown with), in the printout and in the
    error of a record that does not reproduce.

    :returns: 0 when the record reproduces.
    :raises DarkEmpireError: the record does not reproduce, or cannot be read, or ``seat``/``week`` do not exist.
    """
    record = read_record(Path(path))
    if theme is not None and theme is not record.theme:  # the names to show are the ones errors use too
        record = attrs.evolve(record, theme=theme)
    theme = record.theme
    if isinstance(record, PublicRecord):
        return _replay_public(console, record, theme, seat=seat, week=week)
    replayed = replay_record(record)
    history = History(replayed.states, record.choices)
    final = replayed.final
    if seat is not None and not 0 <= seat < final.players:
        raise RecordError(f"there is no seat {seat} in this {final.players}-player game")
    if week is None:
        if seat is not None:
            raise RecordError("--seat needs --week: give the week (1-12) to show")
        _print_game(console, record, history, theme)
    else:
        _print_week(console, history, theme, seat, week)
    return 0


def _print_game(console: Console, record: GameRecord, history: History, theme: Theme) -> None:
    final = history.current
    console.print(
        f"[bold]Replay[/bold] of a {record.config.players}-player game, seed {record.seed}: "
        f"{len(record.choices)} choices"
    )
    reorganized: dict[tuple[int, int], dict[int, Reorganize]] = {}
    for before, choice in zip(history.states, record.choices):
        note_reorganize(reorganized, (before.month, before.week), choice.seat, choice.action)
    public = spectator_view(final)
    Chronicle(console, theme).update(public.history, public.month_scores, public.phase, public.verdict, reorganized)
    _print_ending(console, final.phase, final.verdict, "Verdict reproduced")


def _print_ending(console: Console, phase: Phase, verdict: Verdict | None, confirmed: str) -> None:
    """How the replayed record ends: before the game is over, or with the verdict ``confirmed``."""
    if verdict is None:
        console.print(f"The record ends in the {phase.value} phase, before the game is over, as recorded.")
    else:
        winners = ", ".join(f"seat {s}" for s in sorted(verdict.winners))
        console.print(f"[bold]{confirmed}[/bold]: {verdict.reason.value}, won by {winners}.")


def _replay_public(console: Console, record: PublicRecord, theme: Theme, *, seat: int | None, week: int | None) -> int:
    """Check a public record move by move from public information (rule 9.3) and print it as a spectator saw it."""
    if seat is not None:
        raise RecordError("a public record holds what a spectator saw, no seat's view: replay it without --seat")
    views = spectator_replay(record)
    if week is not None:
        start, end = _week_span(views, week)
        steps = record.steps[start : min(end + 1, len(record.steps))]
        _print_week_lines(console, "a spectator", week, views[start], [e for s in steps for e in s.events], theme)
        return 0
    final = views[-1]
    console.print(
        f"[bold]Replay[/bold] of the public record of a {record.config.players}-player game: "
        f"{len(record.steps)} choices, checked from public information"
    )
    Chronicle(console, theme).update(final.history, final.month_scores, final.phase, final.verdict, {})
    _print_ending(console, final.phase, final.verdict, "Verdict confirmed")
    return 0


def _week_span(positions: Sequence[GameState | PlayerView], week: int) -> tuple[int, int]:
    """Indexes of the first and the last of ``positions`` (states or views of a game, in order) in game week
    ``week`` (1-12), from its first play step on.

    :raises RecordError: if ``week`` is not 1-12 or the game does not reach it.
    """
    if not 1 <= week <= MONTHS * WEEKS:
        raise RecordError(f"week {week} does not exist: a game has weeks 1 to {MONTHS * WEEKS}")
    month, of_month = (week - 1) // WEEKS + 1, (week - 1) % WEEKS + 1
    start = next(
        (i for i, p in enumerate(positions) if (p.month, p.week) == (month, of_month) and p.phase is Phase.PLAY_1),
        None,
    )
    if start is None:
        raise RecordError(f"the recorded game does not reach week {of_month} of month {month}")
    end = start
    while end + 1 < len(positions) and (positions[end + 1].month, positions[end + 1].week) == (month, of_month):
        end += 1
    return start, end


def _print_week(console: Console, history: History, theme: Theme, seat: int | None, week: int) -> None:
    start, end = _week_span(history.states, week)
    end = min(end + 1, len(history.states) - 1)  # the state the week's last choice leads to
    state = history.states[start]
    view = player_view(state, seat) if seat is not None else spectator_view(state)
    who = f"seat {seat}" if seat is not None else "a spectator"
    week_history = History(history.states[start : end + 1], history.choices[start:end])
    _print_week_lines(console, who, week, view, events_for(week_history.events(), seat), theme, seat)


def _print_week_lines(
    console: Console,
    who: str,
    week: int,
    view: PlayerView,
    events: Iterable[Event],
    theme: Theme,
    seat: int | None = None,
) -> None:
    """What ``who`` saw in game week ``week``: ``view`` at its start, then its ``events`` as ``seat`` sees them."""
    month, of_month = (week - 1) // WEEKS + 1, (week - 1) % WEEKS + 1
    console.print(f"[bold]What {who} saw in week {week} (month {month}, week {of_month})[/bold]")
    for line in view_lines(view, theme):
        console.print("  " + line)
    console.print("[bold]The week's events[/bold]")
    for event in events:
        for line in event_lines(event, theme, seat):
            console.print("  " + line)
