"""The record commands of ``darkempire``: ``demo --record FILE``, ``replay FILE [--seat N] [--week W]`` (spec 9.3).

* ``darkempire demo --record FILE`` writes the demo game as a
  :class:`~darkempire.records.GameRecord` in the JSON wire format.
* ``darkempire replay FILE`` re-runs the record through the rules with
  :func:`~darkempire.records.replay_record`, prints the game week by week,
  and confirms that it reproduces the recorded verdict. A record that does
  not reproduce stops with an error naming the first divergent choice
  (exit status 1).
* ``darkempire demo --public-record FILE`` writes the demo game's
  :class:`~darkempire.public_record.PublicRecord` (no seed, nothing hidden);
  ``darkempire replay FILE`` checks such a record move by move with
  :func:`~darkempire.public_record.spectator_replay` and prints it as a
  spectator saw it (``--seat`` is refused: it holds no seat's secrets).
* ``darkempire replay FILE --week W [--seat N]`` shows what seat ``N`` (or a
  spectator, without ``--seat``) saw in week ``W`` of the game (1-12): its
  :class:`~darkempire.views.PlayerView` when the week's cards were revealed,
  then the week's events as :func:`~darkempire.events.events_for` gives them
  to that seat.
"""

from __future__ import annotations

import stat
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from darkempire.actions import (
    Action,
    ChooseSupport,
    DiscardCards,
    PassCards,
    PlaceCards,
    PlayCard,
    PlayNothing,
    Reinforce,
)
from darkempire.actions import Reorganize, Side
from darkempire.bots import Turn
from darkempire.cards import Faction, HandCard, Theme, faction_name
from darkempire.cli import _card, _Chronicle, _revealed_line, _seat, _step_lines
from darkempire.events import (
    CardsPassed,
    CardsPlaced,
    ChoiceMade,
    ChoiceWithdrawn,
    DraftDiscarded,
    EmperorCardScored,
    Event,
    GameOver,
    GameStarted,
    HandDealt,
    HandRefilled,
    MonthScored,
    MonthStarted,
    PlacementsDue,
    PlaysRevealed,
    Reorganized,
    StrengthsRevealed,
    TokensAwarded,
    WeekStarted,
    events_for,
)
from darkempire.history import History
from darkempire.public_record import PublicRecord, public_record, spectator_replay
from darkempire.records import Choice, GameRecord, RecordError, replay_record, state_digest
from darkempire.serialization import DEFAULT_MAX_SIZE, DocumentTooLargeError, WrongTypeError, from_json, to_json
from darkempire.state import MONTHS, WEEKS, GameConfig, GameState, Phase
from darkempire.views import PlayerView, player_view, spectator_view

__all__ = [
    "action_text",
    "event_lines",
    "read_record",
    "replay_command",
    "save_demo_record",
    "view_lines",
    "write_record",
]


def write_record(path: Path, record: GameRecord | PublicRecord) -> None:
    """Write ``record`` to ``path`` as a ``"game-record"`` (or ``"public-record"``) JSON message.

    :raises RecordError: if the file cannot be written.
    """
    try:
        path.write_text(to_json(record) + "\n", encoding="utf-8")
    except OSError as error:
        raise RecordError(f"cannot write {path}: {error.strerror or error}") from None


def read_record(path: Path, *, max_size: int = DEFAULT_MAX_SIZE) -> GameRecord | PublicRecord:
    """Read a ``"game-record"`` or ``"public-record"`` JSON message from ``path``, reading no more than
    ``max_size`` bytes and one.

    :raises RecordError: if the file cannot be read.
    :raises DocumentTooLargeError: if the file holds more than ``max_size`` bytes (``/dev/zero`` does).
    :raises SerializationError: if it is not a valid record (with the path of the bad value).
    """
    try:
        # A FIFO or a device would block open() or read() forever: only a regular file is a record.
        if not stat.S_ISREG(path.stat().st_mode):
            raise RecordError(f"{path} is not a regular file")
        with path.open("rb") as file:
            data = file.read(max_size + 1)  # never the whole of a huge file
    except OSError as error:
        raise RecordError(f"cannot read {path}: {error.strerror or error}") from None
    if len(data) > max_size:
        raise DocumentTooLargeError(f"{path} holds more than {max_size} bytes, the limit of a record")
    document = from_json(data, max_size=max_size)
    if not isinstance(document, (GameRecord, PublicRecord)):
        raise WrongTypeError(f"{path} holds a {type(document).__name__} message, not a game or public record")
    return document


def save_demo_record(
    console: Console,
    path: str | None,
    config: GameConfig,
    seed: int,
    turns: Sequence[Turn],
    *,
    public: str | None = None,
) -> None:
    """Record the demo game made of ``turns`` (with state digests) and write it to ``path``, and its public
    record to ``public``, each if given."""
    final = turns[-1].after if turns else None
    record = GameRecord(
        config,
        seed,
        tuple(Choice(t.seat, t.action) for t in turns),
        final.verdict if final is not None else None,
        tuple(state_digest(t.after) for t in turns),
    )
    if path is not None:
        write_record(Path(path), record)
        console.print(f"Record of {len(record.choices)} choices written to {escape(path)}")
    if public is not None:
        write_record(Path(public), public_record(record))
        console.print(f"Public record (no seed, nothing hidden) written to {escape(public)}")


def replay_command(console: Console, path: str, theme: Theme, *, seat: int | None, week: int | None) -> int:
    """``darkempire replay``: replay the record at ``path``; print the game, or one seat's view of one week.

    :returns: 0 when the record reproduces.
    :raises DarkEmpireError: the record does not reproduce, or cannot be read, or ``seat``/``week`` do not exist.
    """
    record = read_record(Path(path))
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
    for index, choice in enumerate(record.choices):
        if isinstance(choice.action, Reorganize):
            before = history.states[index]
            reorganized.setdefault((before.month, before.week), {})[choice.seat] = choice.action
    public = spectator_view(final)
    _Chronicle(console, theme).update(public.history, public.month_scores, public.phase, public.verdict, reorganized)
    if final.verdict is None:
        console.print(f"The record ends in the {final.phase.value} phase, before the game is over, as recorded.")
    else:
        winners = ", ".join(f"seat {s}" for s in sorted(final.verdict.winners))
        console.print(f"[bold]Verdict reproduced[/bold]: {final.verdict.reason.value}, won by {winners}.")


def _replay_public(console: Console, record: PublicRecord, theme: Theme, *, seat: int | None, week: int | None) -> int:
    """Check a public record move by move from public information (rule 9.3) and print it as a spectator saw it."""
    if seat is not None:
        raise RecordError("a public record holds what a spectator saw, no seat's view: replay it without --seat")
    views = spectator_replay(record)
    if week is not None:
        _print_public_week(console, record, views, theme, week)
        return 0
    final = views[-1]
    console.print(
        f"[bold]Replay[/bold] of the public record of a {record.config.players}-player game: "
        f"{len(record.steps)} choices, checked from public information"
    )
    _Chronicle(console, theme).update(final.history, final.month_scores, final.phase, final.verdict, {})
    if final.verdict is None:
        console.print(f"The record ends in the {final.phase.value} phase, before the game is over, as recorded.")
    else:
        winners = ", ".join(f"seat {s}" for s in sorted(final.verdict.winners))
        console.print(f"[bold]Verdict confirmed[/bold]: {final.verdict.reason.value}, won by {winners}.")
    return 0


def _print_public_week(
    console: Console, record: PublicRecord, views: Sequence[PlayerView], theme: Theme, week: int
) -> None:
    month, week_of_month = _month_and_week(week)
    starts = [i for i, v in enumerate(views) if (v.month, v.week, v.phase) == (month, week_of_month, Phase.PLAY_1)]
    if not starts:
        raise RecordError(f"the recorded game does not reach week {week} of month {month}")
    start = starts[0]
    end = start
    while end + 1 < len(views) and (views[end + 1].month, views[end + 1].week) == (month, week_of_month):
        end += 1
    console.print(f"[bold]What a spectator saw in week {week} (month {month}, week {week_of_month})[/bold]")
    for line in view_lines(views[start], theme):
        console.print("  " + line)
    console.print("[bold]The week's events[/bold]")
    for step in record.steps[start : min(end + 1, len(record.steps))]:
        for event in step.events:
            for line in event_lines(event, theme, None):
                console.print("  " + line)


def _month_and_week(week: int) -> tuple[int, int]:
    """The month and the week of the month of game week ``week`` (1-12)."""
    if not 1 <= week <= MONTHS * WEEKS:
        raise RecordError(f"week {week} does not exist: a game has weeks 1 to {MONTHS * WEEKS}")
    return (week - 1) // WEEKS + 1, (week - 1) % WEEKS + 1


def _week_span(history: History, month: int, week: int) -> tuple[int, int]:
    """Indexes of the state where week ``(month, week)`` starts and of the state where the next one does."""
    start = next(
        (i for i, s in enumerate(history.states) if (s.month, s.week) == (month, week) and s.phase is Phase.PLAY_1),
        None,
    )
    if start is None:
        raise RecordError(f"the recorded game does not reach week {week} of month {month}")
    end = start
    while end + 1 < len(history.states) and (history.states[end + 1].month, history.states[end + 1].week) == (
        month,
        week,
    ):
        end += 1
    return start, min(end + 1, len(history.states) - 1)


def _print_week(console: Console, history: History, theme: Theme, seat: int | None, week: int) -> None:
    month, week_of_month = _month_and_week(week)
    start, end = _week_span(history, month, week_of_month)
    state = history.states[start]
    view = player_view(state, seat) if seat is not None else spectator_view(state)
    who = f"seat {seat}" if seat is not None else "a spectator"
    console.print(f"[bold]What {who} saw in week {week} (month {month}, week {week_of_month})[/bold]")
    for line in view_lines(view, theme):
        console.print("  " + line)
    console.print("[bold]The week's events[/bold]")
    week_history = History(history.states[start : end + 1], history.choices[start:end])
    for event in events_for(week_history.events(), seat):
        for line in event_lines(event, theme, seat):
            console.print("  " + line)


def _cards(cards: Sequence[HandCard] | frozenset[HandCard], theme: Theme) -> str:
    ordered = sorted(cards, key=lambda c: c.id)
    return ", ".join(_card(c, theme) for c in ordered) if ordered else "none"


def view_lines(view: PlayerView, theme: Theme) -> list[str]:
    """A short text summary of a :class:`~darkempire.views.PlayerView` (spec 9.4)."""
    you = view.seat
    lines = [f"Phase: {view.phase.value}, month {view.month}, week {view.week}"]
    if you is not None:
        victor = faction_name(view.victor, theme) if view.victor is not None else "?"
        support = faction_name(view.support, theme) if view.support is not None else "not chosen yet"
        lines.append(f"Your victor card: {victor}; your support this month: {support}")
        lines.append(f"Your hand: {_cards(view.hand, theme)}")
    if view.table is not None:
        lines.append(_revealed_line(view.table, theme))
        lines += _step_lines(view.table, theme, you)
    lines.append("Hand sizes: " + ", ".join(f"{_seat(s, you)} {n}" for s, n in enumerate(view.hand_sizes)))
    lines.append(f"Draw pile {view.draw_pile_size}, discard pile {view.discard_pile_size} cards")
    points = view.score_track.card_points()
    lines.append(
        "Score track: "
        + ", ".join(f"{faction_name(f, theme)} {points[f]}" for f in Faction)
        + f"; emperor {view.score_track.emperor_total}"
    )
    lines.append("Tokens this month: " + ", ".join(f"{_seat(s, you)} {t}" for s, t in enumerate(view.month_tokens)))
    lines.append("Banked tokens: " + ", ".join(f"{_seat(s, you)} {t}" for s, t in enumerate(view.banked_tokens)))
    if view.awaited:
        lines.append("Awaiting: " + ", ".join(_seat(s, you) for s in sorted(view.awaited)))
    return lines


def action_text(action: Action, theme: Theme) -> str:
    """A short text of an action, e.g. ``"plays Workers 4 #1 to the revolution"``."""
    if isinstance(action, (PassCards, DiscardCards)):
        verb = "passes" if isinstance(action, PassCards) else "discards"
        return f"{verb} {_cards(action.cards, theme)}"
    if isinstance(action, ChooseSupport):
        return f"supports {faction_name(action.faction, theme)}"
    if isinstance(action, PlayCard):
        side = "to the revolution" if action.side is Side.REVOLUTION else "as a traitor card"
        return f"plays {_card(action.card, theme)} {side}"
    if isinstance(action, Reinforce):
        return f"attaches {_card(action.card, theme)} to {_card(action.target, theme)}"
    if isinstance(action, PlayNothing):
        return "plays nothing"
    if isinstance(action, PlaceCards):
        return f"places {_cards(action.cards, theme)}"
    took = f"takes back {_card(action.take_back, theme)}" if action.take_back is not None else "takes nothing back"
    return f"{took}, discards {_cards(action.discards, theme)}"


def event_lines(event: Event, theme: Theme, you: int | None = None) -> list[str]:
    """A one-line text of an event as a seat sees it (after :func:`~darkempire.events.events_for`)."""
    if isinstance(event, ChoiceMade):
        what = action_text(event.action, theme) if event.action is not None else "has chosen"
        return [f"{_seat(event.seat, you)} {what}"]
    if isinstance(event, WeekStarted):
        emperor = f"emperor card {event.emperor_card.value}" if event.emperor_card is not None else "no emperor card"
        add_on = f" + {int(event.add_on)}" if event.add_on is not None else ""
        return [f"Week {event.week} of month {event.month}: revolution card "
                f"{faction_name(event.revolution_card.faction, theme)}, {emperor}{add_on}"]  # fmt: skip
    if isinstance(event, PlaysRevealed):
        parts = [f"{_seat(p.seat, you)} {action_text(p.action, theme)}" for p in event.plays]
        parts += [f"{_seat(s, you)} plays nothing" for s in sorted(event.idle)]
        return [f"Step {event.step} revealed: " + "; ".join(parts)]
    if isinstance(event, StrengthsRevealed):
        strengths = ", ".join(f"{faction_name(f, theme)} {event.strengths[f]}" for f in Faction)
        emperor = f"emperor {event.emperor_strength}" if event.emperor_strength is not None else "no emperor"
        return [f"Strengths: {strengths}; {emperor}"]
    if isinstance(event, TokensAwarded):
        gained = ", ".join(f"{_seat(s, you)} +{t}" for s, t in enumerate(event.tokens) if t) or "nobody"
        return [f"Tokens: {gained}"]
    if isinstance(event, EmperorCardScored):
        return [f"The emperor card {event.card.value} goes to the score track (emperor total {event.emperor_total})"]
    if isinstance(event, PlacementsDue):
        return [
            "To place: "
            + ", ".join(f"{_seat(d.seat, you)} a {faction_name(d.faction, theme)} card" for d in event.dues)
        ]
    if isinstance(event, CardsPlaced):
        return ["Placed: " + ", ".join(f"{_seat(s.seat, you)} {_card(s.card, theme)}" for s in event.placed)]
    if isinstance(event, Reorganized):
        parts = []
        for s, (took, discarded, drawn) in enumerate(zip(event.take_backs, event.discarded, event.drawn, strict=True)):
            back = f"takes back {_card(took, theme)}, " if took is not None else ""
            parts.append(f"{_seat(s, you)} {back}discards {discarded}, draws {drawn}")
        shuffled = " (the discard pile was reshuffled)" if event.reshuffled else ""
        return ["Re-organize: " + "; ".join(parts) + shuffled]
    if isinstance(event, HandRefilled):
        return [f"You discarded {_cards(event.discarded, theme)} and drew {_cards(event.drawn, theme)}"]
    if isinstance(event, MonthScored):
        support = ", ".join(f"{_seat(s, you)} {faction_name(f, theme)}" for s, f in enumerate(event.score.support))
        return [f"Month {event.score.month} scored: support cards {support}; bonus {list(event.score.bonus)}"]
    if isinstance(event, GameOver):
        return [f"Game over: {event.verdict.reason.value}, winners {sorted(event.verdict.winners)}"]
    if isinstance(event, GameStarted):
        add_on = f", add-on {int(event.add_on)} +" if event.add_on is not None else ""
        return [f"A {event.players}-player game is dealt: {event.hand_sizes[0]} cards each{add_on}"]
    if isinstance(event, HandDealt):
        victor = faction_name(event.victor, theme)
        return [f"{_seat(event.seat, you)} is dealt {_cards(event.cards, theme)}; victor card {victor}"]
    if isinstance(event, ChoiceWithdrawn):
        return [f"{_seat(event.seat, you)} takes back its choice"]
    if isinstance(event, MonthStarted):
        return [f"Month {event.month} begins: {event.emperor_pile_size} emperor cards in the pile; choose support"]
    if isinstance(event, (CardsPassed, DraftDiscarded)):
        cards = _cards(event.cards, theme) if event.cards is not None else "2 cards"
        target = f" to {_seat(event.to_seat, you)}" if isinstance(event, CardsPassed) else ""
        verb = "passes" if isinstance(event, CardsPassed) else "discards"
        return [f"{_seat(event.seat, you)} {verb} {cards}{target}"]
