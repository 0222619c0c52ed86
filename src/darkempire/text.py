"""The game in words: cards, seats, actions, events, views and the chronicle of a game (spec 9.2-9.4).

Every front end that shows a game as text uses these: the ``darkempire``
command (:mod:`darkempire.cli`), the hot-seat example, a chat bot. Each
function returns lines of `rich markup <https://rich.readthedocs.io/en/stable/markup.html>`_:
card names are escaped, headings are wrapped in ``[bold]...[/bold]``, and
printing a line with a :class:`rich.console.Console` shows it as plain text
when the output is not a terminal.

``you`` is the seat the text is written for: that seat reads ``"seat 2 (you)"``
and ``"yours"``; ``None`` writes for a spectator.

>>> from darkempire.rules.cards import FACTION_CARDS, Theme
>>> seat_name(2, you=2)
'seat 2 (you)'
>>> action_text(PlayCard(FACTION_CARDS[1], Side.REVOLUTION), Theme.STEAM_NOIR)
'plays Workers 4 #1 to the revolution'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from darkempire.rules.actions import (
    Action,
    ChooseSupport,
    DiscardCards,
    PassCards,
    PlaceCards,
    PlayCard,
    PlayNothing,
    Reinforce,
    Reorganize,
    Side,
)
from darkempire.rules.cards import AddOnCard, EmperorCard, Faction, HandCard, RevolutionCard, Theme, faction_name
from darkempire.rules.events import (
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
)
from darkempire.rules.scoring import AwardReason, MonthScore, Verdict, VerdictReason, WeekScore
from darkempire.rules.state import WEEKS, Phase, ScoreTrack, WeekRecord
from darkempire.rules.table import WeekTable
from darkempire.rules.views import PlayerView

__all__ = [
    "Chronicle",
    "action_label",
    "action_text",
    "add_on_name",
    "card_text",
    "cards_text",
    "emperor_card_name",
    "event_lines",
    "note_reorganize",
    "owner_name",
    "plain_text",
    "revealed_line",
    "revolution_card_name",
    "score_track_line",
    "seat_name",
    "step_lines",
    "strengths_line",
    "support_card_name",
    "victor_card_name",
    "verdict_difference",
    "verdict_text",
    "view_lines",
]


# --------------------------------------------------------------------------- seats and cards


def seat_name(seat: int, you: int | None = None) -> str:
    """``"seat 2"``, or ``"seat 2 (you)"`` for the seat ``you`` the text is written for."""
    return f"seat {seat} (you)" if seat == you else f"seat {seat}"


def owner_name(seat: int, you: int | None = None) -> str:
    """Whose a card is: ``"seat 2's"``, or ``"yours"`` for ``you``."""
    return "yours" if seat == you else f"seat {seat}'s"


def card_text(card: HandCard, theme: Theme) -> str:
    """A hand card's label with ``theme``'s faction names, escaped for rich markup, e.g. ``"Workers 4 #1"``."""
    return escape(card.label(theme))


def cards_text(cards: Sequence[HandCard] | frozenset[HandCard], theme: Theme) -> str:
    """Several cards in the order of their ids, separated by commas; ``"none"`` for no card."""
    ordered = sorted(cards, key=lambda c: c.id)
    return ", ".join(card_text(c, theme) for c in ordered) if ordered else "none"


# --------------------------------------------------------------------------- the table


def strengths_line(strengths: Sequence[int], emperor: int | None, theme: Theme) -> str:
    """The factions' strengths and the emperor's (``None``: no emperor card this week), rule 5.1."""
    factions = ", ".join(f"{faction_name(f, theme)} {strengths[f]}" for f in Faction)
    tail = f"emperor {emperor}" if emperor is not None else "no emperor"
    return f"Strengths: {factions}; {tail}"


def score_track_line(track: ScoreTrack, theme: Theme) -> str:
    """The points placed to the score track for each faction and for the emperor (rules 5.5-5.7)."""
    points = track.card_points()
    factions = ", ".join(f"{faction_name(f, theme)} {points[f]}" for f in Faction)
    return f"Score track: {factions}; emperor {track.emperor_total}"


def revealed_line(table: WeekTable, theme: Theme) -> str:
    """The week's revealed revolution card, emperor card and add-on (rules 4.1, ruling J)."""
    revolution = f"revolution card {faction_name(table.revolution_card.faction, theme)} (+3)"
    if table.emperor_card is None:
        return f"Revealed: {revolution}; no emperor card this week, so no traitor cards (ruling J)"
    emperor = f"emperor card {table.emperor_card.value}"
    if table.add_on is not None:
        emperor += f' with the add-on "{int(table.add_on)} +"'
    return f"Revealed: {revolution}; {emperor}"


def step_lines(table: WeekTable, theme: Theme, you: int | None = None) -> list[str]:
    """Each revealed play step: a heading, then every seat's play, reinforcement or idleness.

    Rules 4.2-4.6, ruling H.
    """
    lines = []
    for step in range(1, table.steps_revealed + 1):
        lines.append(f"Step {step}")
        for seat in range(table.players):
            for play in table.plays:
                if play.step == step and play.seat == seat:
                    where = "to the revolution" if play.side is Side.REVOLUTION else "as a traitor card"
                    lines.append(f"  {seat_name(seat, you)}: {card_text(play.card, theme)} {where}")
                for r in play.reinforcements:
                    if r.step == step and r.seat == seat:
                        kind = "" if play.side is Side.REVOLUTION else "traitor card "
                        lines.append(
                            f"  {seat_name(seat, you)}: {card_text(r.card, theme)} attached to {kind}"
                            f"{card_text(play.card, theme)} ({owner_name(play.seat, you)})"
                        )
            if (step, seat) in table.idle:
                lines.append(f"  {seat_name(seat, you)}: nothing")
    return lines


# --------------------------------------------------------------------------- the chronicle of a game


def _award_text(score: WeekScore, theme: Theme, you: int | None) -> str:
    if not score.awards:
        return "Tokens: none (no seat played a strongest faction's card to the revolution side)"
    parts = []
    for award in score.awards:
        why = "most support" if award.reason is AwardReason.MOST_SUPPORT else "single highest card"
        parts.append(
            f"{seat_name(award.seat, you)} +{award.points} ({why} of {faction_name(award.faction, theme)})"
        )
    return "Tokens: " + ", ".join(parts)


def _week_head_lines(record: WeekRecord, theme: Theme, you: int | None = None) -> list[str]:
    """The week's header, revealed cards, play steps, strengths and tokens (rules 4.1-5.4)."""
    table, score = record.table, record.score
    strongest = " and ".join(faction_name(f, theme) for f in sorted(score.strongest))
    top = max(score.strengths)
    if score.emperor_strength is None:
        compare = "no emperor this week"
    elif score.emperor_scored:
        compare = f"the emperor ({score.emperor_strength}) is at least as strong"
    else:
        compare = f"stronger than the emperor ({score.emperor_strength})"
    return [
        f"[bold]Month {record.month}, week {record.week}[/bold]",
        "  " + revealed_line(table, theme),
        *("  " + line for line in step_lines(table, theme, you)),
        "  " + strengths_line(score.strengths, score.emperor_strength, theme),
        f"  Strongest: {strongest} with {top}; {compare}",
        "  " + _award_text(score, theme, you),
    ]


def _week_placement_lines(record: WeekRecord, theme: Theme, you: int | None = None) -> list[str]:
    """The cards placed to the score track this week (rules 5.5-5.7, rulings E, F)."""
    score = record.score
    lines = []
    if score.emperor_scored:
        assert record.table.emperor_card is not None
        lines.append(f"  Score track: the emperor card {record.table.emperor_card.value} is placed")
    for scored in record.placed:
        lines.append(f"  Score track: {seat_name(scored.seat, you)} places {card_text(scored.card, theme)}")
    if not lines:
        lines.append("  Score track: nothing is placed (the strongest faction has no revolution-side card)")
    return lines


def note_reorganize(
    reorganized: dict[tuple[int, int], dict[int, Reorganize]], when: tuple[int, int], seat: int, action: Action
) -> None:
    """Keep ``seat``'s ``action`` under ``when`` (the month and week it was chosen in) if it is a re-organize.

    :class:`Chronicle` prints the public part of the choices so kept (rules 6.1-6.3).
    """
    if isinstance(action, Reorganize):
        reorganized.setdefault(when, {})[seat] = action


def _reorganize_line(choices: Mapping[int, Reorganize], theme: Theme) -> str:
    parts = []
    for seat in sorted(choices):
        action = choices[seat]
        took = (
            f"takes back {card_text(action.take_back, theme)}"
            if action.take_back is not None
            else "takes nothing back"
        )
        parts.append(f"seat {seat} {took} and discards {len(action.discards)}")
    return "  Re-organize: " + "; ".join(parts)


def _month_lines(month: MonthScore, banked: Sequence[int], theme: Theme, you: int | None = None) -> list[str]:
    """A monthly scoring: support cards, totals, the 6-point split, banked tokens (rules 7.1-7.3)."""
    support = ", ".join(f"{seat_name(s, you)}: {faction_name(f, theme)}" for s, f in enumerate(month.support))
    totals = ", ".join(
        f"{faction_name(f, theme)} {month.totals[f]} (cards {month.card_points[f]}"
        f" + tokens {month.totals[f] - month.card_points[f]})"
        for f in Faction
    )
    names = " and ".join(faction_name(f, theme) for f in sorted(month.strongest))
    gainers = [f"{seat_name(s, you)} +{b}" for s, b in enumerate(month.bonus) if b]
    shared = ", ".join(gainers) if gainers else "nobody supported it"
    split = f"strongest {names}; 6 points: {shared}"
    bank = ", ".join(f"{seat_name(s, you)}: {b}" for s, b in enumerate(banked))
    return [
        f"[bold]Monthly scoring, month {month.month}[/bold]",
        f"  Support cards revealed: {support}",
        f"  Month totals: {totals}",
        f"  Bonus: {split}",
        f"  Banked tokens: {bank}",
    ]


def _banked_after(history: Sequence[WeekRecord], month_scores: Sequence[MonthScore], month: int) -> list[int]:
    """Each seat's banked tokens after the monthly scoring of ``month``, from the public record (rule 7.3)."""
    players = len(month_scores[0].support)
    banked = [0] * players
    for record in history:
        if record.month <= month:
            banked = [b + t for b, t in zip(banked, record.score.tokens, strict=True)]
    for score in month_scores[:month]:
        banked = [b + x for b, x in zip(banked, score.bonus, strict=True)]
    return banked


_REASONS = {
    VerdictReason.EMPEROR_VICTORY: "emperor victory: the emperor reaches the strongest faction, "
    "so the held faction with the lowest total wins (rule 8.2)",
    VerdictReason.REVOLUTION: "revolution: the held faction with the highest total wins (rule 8.3)",
    VerdictReason.LEADER_TOO_POWERFUL: "leader too powerful: the lone leader is 15 or more points ahead and drops out;"
    " the next held faction wins (rule 8.4)",
}


def _victor_name(verdict: Verdict, seat: int, theme: Theme) -> str:
    """The faction of ``seat``'s victor card, or ``"no victor card"`` for a seat the verdict does not have (a
    verdict read from a damaged record)."""
    return faction_name(verdict.victors[seat], theme) if 0 <= seat < len(verdict.victors) else "no victor card"


def verdict_text(verdict: Verdict, theme: Theme, you: int | None = None) -> str:
    """How the game ended, in one line: ``"revolution, won by seat 2 (Mechandros)"`` (rules 8.2-8.5).

    A shared win names every winner: ``"emperor victory, won by seat 0 (Workers) and seat 3 (Students)"``.
    """
    winners = " and ".join(f"{seat_name(s, you)} ({_victor_name(verdict, s, theme)})" for s in sorted(verdict.winners))
    return f"{verdict.reason.value}, won by {winners or 'nobody'}"


def _faction_list(factions: frozenset[Faction], theme: Theme) -> str:
    return " and ".join(faction_name(f, theme) for f in sorted(factions)) or "none"


def _verdict_details(verdict: Verdict, theme: Theme) -> list[tuple[str, str]]:
    """The parts of a verdict, each as (what it is, its value), in the order the final judgement gives them."""
    winners = " and ".join(seat_name(s) for s in sorted(verdict.winners)) or "nobody"
    details = [("the reason", verdict.reason.value), ("the winners", winners)]
    details.append(("the winning factions", _faction_list(verdict.winning_factions, theme)))
    for faction, total, cards in zip(Faction, verdict.totals, verdict.card_points):
        name = faction_name(faction, theme)
        details += [(f"the {name} total", str(total)), (f"the {name} card points", str(cards))]
    details.append(("the emperor total", str(verdict.emperor_total)))
    too = faction_name(verdict.too_powerful, theme) if verdict.too_powerful is not None else "none"
    details.append(("the faction too powerful (rule 8.4)", too))
    details += [(f"{seat_name(s)}'s victor card", faction_name(f, theme)) for s, f in enumerate(verdict.victors)]
    return details


def verdict_difference(recorded: Verdict | None, replayed: Verdict | None, theme: Theme) -> str:
    """Why a recorded verdict is not the one the rules reach, in the game's words (rule 9.3): both verdicts,
    and the first part in which they differ when the one-line summaries are alike.

    >>> from darkempire.rules.scoring import VerdictReason
    >>> from darkempire.rules.cards import Faction, Theme
    >>> v = Verdict(VerdictReason.REVOLUTION, frozenset({1}), frozenset({Faction.STUDENTS}), (0, 0, 0, 0, 9),
    ...             (0, 0, 0, 0, 9), 3, None, (Faction.WORKERS, Faction.STUDENTS, Faction.MECHANDROS))
    >>> verdict_difference(v, None, Theme.STEAM_NOIR)
    'the record has a verdict (revolution, won by seat 1 (Students)), but the rules reach none'
    """
    if recorded is None or replayed is None:
        if recorded is None and replayed is not None:
            return f"the record has no verdict, but the rules reach one: {verdict_text(replayed, theme)}"
        assert recorded is not None
        return f"the record has a verdict ({verdict_text(recorded, theme)}), but the rules reach none"
    said = f"the record says {verdict_text(recorded, theme)}, the rules give {verdict_text(replayed, theme)}"
    if verdict_text(recorded, theme) != verdict_text(replayed, theme):
        return said
    ours, theirs = _verdict_details(recorded, theme), _verdict_details(replayed, theme)
    for (what, mine), (_, right) in zip(ours, theirs):
        if mine != right:
            return f"{said}, but they differ in {what}: {mine} in the record, {right} by the rules"
    return f"{said}, but the verdicts differ in the number of factions or seats"


def _verdict_lines(verdict: Verdict, theme: Theme, you: int | None = None) -> list[str]:
    """The final judgement (rules 8.1-8.5, ruling M)."""
    victors = ", ".join(f"{seat_name(s, you)}: {faction_name(f, theme)}" for s, f in enumerate(verdict.victors))
    totals = ", ".join(
        f"{faction_name(f, theme)} {verdict.totals[f]} (cards only {verdict.card_points[f]})" for f in Faction
    )
    winners = ", ".join(
        f"{seat_name(s, you)} ({faction_name(verdict.victors[s], theme)})" for s in sorted(verdict.winners)
    )
    lines = [
        "[bold]Final judgement[/bold]",
        f"  Victor cards revealed: {victors}",
        f"  Faction totals: {totals}",
        f"  Emperor total: {verdict.emperor_total}",
        f"  Reason: {_REASONS[verdict.reason]}",
    ]
    if verdict.too_powerful is not None:
        lines.append(f"  Too powerful: {faction_name(verdict.too_powerful, theme)}")
    label = "Winners (shared)" if verdict.shared else "Winner"
    lines.append(f"  [bold green]{label}: {winners}[/bold green]")
    return lines


class Chronicle:
    """Prints the public record of a game (finished weeks, monthly scorings, verdict) once each, in order.

    Call :meth:`update` whenever the game moves on; it prints only what is new.

    :param console: where to print.
    :param theme: the faction names to show.
    :param you: the seat the chronicle is written for (``None``: a spectator).
    """

    def __init__(self, console: Console, theme: Theme, you: int | None = None) -> None:
        self._console = console
        self._theme = theme
        self._you = you
        self._weeks = 0  # weeks printed completely
        self._head_shown = False  # the next week's head was printed while its placement was pending
        self._months = 0
        self._verdict = False
        self._reorganize_due: tuple[int, int] | None = None  # (month, week) printed without its re-organize line

    def _print(self, lines: Sequence[str]) -> None:
        for line in lines:
            self._console.print(line)

    def update(
        self,
        history: Sequence[WeekRecord],
        month_scores: Sequence[MonthScore],
        phase: Phase,
        verdict: Verdict | None,
        reorganized: Mapping[tuple[int, int], Mapping[int, Reorganize]] | None = None,
    ) -> None:
        """Print whatever of the record is new since the last call.

        A week recorded while its placement is still open (phase
        :attr:`Phase.PLACEMENT`) is printed up to its tokens; its placement
        follows once made. ``reorganized`` holds the re-organize choices made so
        far, by (month, week) and seat (see :func:`note_reorganize`).
        """
        theme, you = self._theme, self._you
        reorganized = reorganized or {}
        self._show_reorganize(reorganized, len(history), phase)
        while self._weeks < len(history):
            record = history[self._weeks]
            placing = self._weeks == len(history) - 1 and phase is Phase.PLACEMENT
            if not self._head_shown:
                self._print(_week_head_lines(record, theme, you))
                self._head_shown = True
            if placing:
                break
            self._print(_week_placement_lines(record, theme, you))
            self._weeks += 1
            self._head_shown = False
            self._reorganize_due = (record.month, record.week)
            self._show_reorganize(reorganized, len(history), phase)
            self._print_months(history, month_scores)
        self._print_months(history, month_scores)
        if verdict is not None and not self._verdict:
            self._print(_verdict_lines(verdict, theme, you))
            self._verdict = True

    def _show_reorganize(
        self, reorganized: Mapping[tuple[int, int], Mapping[int, Reorganize]], weeks: int, phase: Phase
    ) -> None:
        """Print the re-organize line of the last week printed, once its re-organize is over.

        While it is still being chosen (the newest week, in :attr:`Phase.REORGANIZE`), the seats that chose
        have hidden pending choices: the line waits for the next update.
        """
        due = self._reorganize_due
        if due is None or (self._weeks == weeks and phase is Phase.REORGANIZE):
            return
        self._reorganize_due = None
        choices = reorganized.get(due)
        if choices:
            self._console.print(_reorganize_line(choices, self._theme))

    def _print_months(self, history: Sequence[WeekRecord], month_scores: Sequence[MonthScore]) -> None:
        while self._months < len(month_scores) and self._weeks >= WEEKS * (self._months + 1):
            self._months += 1
            banked = _banked_after(history, month_scores, self._months)
            self._print(_month_lines(month_scores[self._months - 1], banked, self._theme, self._you))


# --------------------------------------------------------------------------- views, actions and events


def view_lines(view: PlayerView, theme: Theme) -> list[str]:
    """A short text summary of a :class:`~darkempire.rules.views.PlayerView` (spec 9.4)."""
    you = view.seat
    lines = [f"Phase: {view.phase.value}, month {view.month}, week {view.week}"]
    if you is not None:
        victor = faction_name(view.victor, theme) if view.victor is not None else "?"
        support = faction_name(view.support, theme) if view.support is not None else "not chosen yet"
        lines.append(f"Your victor card: {victor}; your support this month: {support}")
        lines.append(f"Your hand: {cards_text(view.hand, theme)}")
    if view.table is not None:
        lines.append(revealed_line(view.table, theme))
        lines += step_lines(view.table, theme, you)
    lines.append("Hand sizes: " + ", ".join(f"{seat_name(s, you)} {n}" for s, n in enumerate(view.hand_sizes)))
    lines.append(f"Draw pile {view.draw_pile_size}, discard pile {view.discard_pile_size} cards")
    lines.append(score_track_line(view.score_track, theme))
    lines.append("Tokens this month: " + ", ".join(f"{seat_name(s, you)} {t}" for s, t in enumerate(view.month_tokens)))
    lines.append("Banked tokens: " + ", ".join(f"{seat_name(s, you)} {t}" for s, t in enumerate(view.banked_tokens)))
    if view.awaited:
        lines.append("Awaiting: " + ", ".join(seat_name(s, you) for s in sorted(view.awaited)))
    return lines


def action_text(action: Action, theme: Theme) -> str:
    """A short text of an action, e.g. ``"plays Workers 4 #1 to the revolution"``."""
    if isinstance(action, (PassCards, DiscardCards)):
        verb = "passes" if isinstance(action, PassCards) else "discards"
        return f"{verb} {cards_text(action.cards, theme)}"
    if isinstance(action, ChooseSupport):
        return f"supports {faction_name(action.faction, theme)}"
    if isinstance(action, PlayCard):
        side = "to the revolution" if action.side is Side.REVOLUTION else "as a traitor card"
        return f"plays {card_text(action.card, theme)} {side}"
    if isinstance(action, Reinforce):
        return f"attaches {card_text(action.card, theme)} to {card_text(action.target, theme)}"
    if isinstance(action, PlayNothing):
        return "plays nothing"
    if isinstance(action, PlaceCards):
        return f"places {cards_text(action.cards, theme)}"
    took = (
        f"takes back {card_text(action.take_back, theme)}" if action.take_back is not None else "takes nothing back"
    )
    return f"{took}, discards {cards_text(action.discards, theme)}"


def event_lines(event: Event, theme: Theme, you: int | None = None) -> list[str]:
    """A one-line text of an event as a seat sees it (after :func:`~darkempire.rules.events.events_for`)."""
    if isinstance(event, ChoiceMade):
        what = action_text(event.action, theme) if event.action is not None else "has chosen"
        return [f"{seat_name(event.seat, you)} {what}"]
    if isinstance(
        event,
        (WeekStarted, PlaysRevealed, StrengthsRevealed, TokensAwarded, EmperorCardScored, PlacementsDue, CardsPlaced),
    ):
        return [_week_event_line(event, theme, you)]
    return [_other_event_line(event, theme, you)]


def _week_event_line(
    event: WeekStarted
    | PlaysRevealed
    | StrengthsRevealed
    | TokensAwarded
    | EmperorCardScored
    | PlacementsDue
    | CardsPlaced,
    theme: Theme,
    you: int | None,
) -> str:
    """The line of an event of a week's revealing and scoring (rules 4.1-5.7)."""
    if isinstance(event, WeekStarted):
        emperor = f"emperor card {event.emperor_card.value}" if event.emperor_card is not None else "no emperor card"
        add_on = f" + {int(event.add_on)}" if event.add_on is not None else ""
        return (f"Week {event.week} of month {event.month}: revolution card "
                f"{faction_name(event.revolution_card.faction, theme)}, {emperor}{add_on}")  # fmt: skip
    if isinstance(event, PlaysRevealed):
        parts = [f"{seat_name(p.seat, you)} {action_text(p.action, theme)}" for p in event.plays]
        parts += [f"{seat_name(s, you)} plays nothing" for s in sorted(event.idle)]
        return f"Step {event.step} revealed: " + "; ".join(parts)
    if isinstance(event, StrengthsRevealed):
        return strengths_line(event.strengths, event.emperor_strength, theme)
    if isinstance(event, TokensAwarded):
        gained = ", ".join(f"{seat_name(s, you)} +{t}" for s, t in enumerate(event.tokens) if t) or "nobody"
        return f"Tokens: {gained}"
    if isinstance(event, EmperorCardScored):
        return f"The emperor card {event.card.value} goes to the score track (emperor total {event.emperor_total})"
    if isinstance(event, PlacementsDue):
        dues = (f"{seat_name(d.seat, you)} a {faction_name(d.faction, theme)} card" for d in event.dues)
        return "To place: " + ", ".join(dues)
    return "Placed: " + ", ".join(f"{seat_name(s.seat, you)} {card_text(s.card, theme)}" for s in event.placed)


def _other_event_line(
    event: GameStarted
    | HandDealt
    | ChoiceWithdrawn
    | CardsPassed
    | DraftDiscarded
    | MonthStarted
    | Reorganized
    | HandRefilled
    | MonthScored
    | GameOver,
    theme: Theme,
    you: int | None,
) -> str:
    """The line of an event of the deal, the draft, a re-organize or a month's end (rules 2, 6, 7, 8)."""
    if isinstance(event, Reorganized):
        parts = []
        for s, (took, discarded, drawn) in enumerate(zip(event.take_backs, event.discarded, event.drawn, strict=True)):
            back = f"takes back {card_text(took, theme)}, " if took is not None else ""
            parts.append(f"{seat_name(s, you)} {back}discards {discarded}, draws {drawn}")
        shuffled = " (the discard pile was reshuffled)" if event.reshuffled else ""
        return "Re-organize: " + "; ".join(parts) + shuffled
    if isinstance(event, HandRefilled):
        return f"You discarded {cards_text(event.discarded, theme)} and drew {cards_text(event.drawn, theme)}"
    if isinstance(event, MonthScored):
        support = ", ".join(f"{seat_name(s, you)} {faction_name(f, theme)}" for s, f in enumerate(event.score.support))
        gainers = ", ".join(f"{seat_name(s, you)} +{b}" for s, b in enumerate(event.score.bonus) if b) or "nobody"
        return f"Month {event.score.month} scored: support cards {support}; the 6 points: {gainers}"
    if isinstance(event, GameOver):
        return f"Game over: {verdict_text(event.verdict, theme, you)}"
    if isinstance(event, GameStarted):
        add_on = f", add-on {int(event.add_on)} +" if event.add_on is not None else ""
        return f"A {event.players}-player game is dealt: {event.hand_sizes[0]} cards each{add_on}"
    if isinstance(event, HandDealt):
        victor = faction_name(event.victor, theme)
        return f"{seat_name(event.seat, you)} is dealt {cards_text(event.cards, theme)}; victor card {victor}"
    if isinstance(event, ChoiceWithdrawn):
        return f"{seat_name(event.seat, you)} takes back its choice"
    if isinstance(event, MonthStarted):
        return f"Month {event.month} begins: {event.emperor_pile_size} emperor cards in the pile; choose support"
    cards = cards_text(event.cards, theme) if event.cards is not None else "2 cards"
    target = f" to {seat_name(event.to_seat, you)}" if isinstance(event, CardsPassed) else ""
    verb = "passes" if isinstance(event, CardsPassed) else "discards"
    return f"{seat_name(event.seat, you)} {verb} {cards}{target}"


# --------------------------------------------------------------------------- plain names and menu labels
# The wire format carries these (:mod:`darkempire.wire.card_table`, :class:`~darkempire.wire.prompts.Prompt`), so
# that a client in another language shows the same words as the ``darkempire`` command. They are plain text,
# not rich markup: a client prints them as they are.

#: The imperative of each verb that begins a clause of :func:`action_text` (a menu offers, it does not report).
_IMPERATIVES: Final[Mapping[str, str]] = {
    "passes": "Pass",
    "discards": "Discard",
    "supports": "Support",
    "plays": "Play",
    "attaches": "Attach",
    "places": "Place",
    "takes": "Take",
}


def plain_text(markup: str) -> str:
    """The text a line of rich markup shows, with its markup and escapes removed.

    >>> plain_text("[bold]Workers 4 #1[/bold]")
    'Workers 4 #1'
    """
    return Text.from_markup(markup).plain


def emperor_card_name(card: EmperorCard) -> str:
    """An emperor card as :func:`revealed_line` names it: ``"emperor card 10"`` (rule 1.3)."""
    return f"emperor card {card.value}"


def add_on_name(card: AddOnCard) -> str:
    """An add-on card as :func:`revealed_line` names it: ``'add-on "5 +"'`` (rule 1.3)."""
    return f'add-on "{int(card)} +"'


def revolution_card_name(card: RevolutionCard, theme: Theme) -> str:
    """A revolution card as :func:`revealed_line` names it: ``"revolution card Workers (+3)"`` (rule 1.4)."""
    return f"revolution card {faction_name(card.faction, theme)} (+{card.value})"


def victor_card_name(faction: Faction, theme: Theme) -> str:
    """A victor card as the deal's event names it: ``"victor card Workers"`` (rule 1.5)."""
    return f"victor card {faction_name(faction, theme)}"


def support_card_name(faction: Faction, theme: Theme) -> str:
    """A temporary support card: ``"support card Workers"`` (rule 1.5)."""
    return f"support card {faction_name(faction, theme)}"


def action_label(action: Action, theme: Theme, view: PlayerView | None = None) -> str:
    """A menu entry for ``action``: :func:`action_text` in the imperative, as plain text.

    With the ``view`` of the seat that is offered the action, a pass names the seat it goes to and a
    reinforcement names whose card it is attached to (public facts, rules 2.5 and 4.6), as the
    ``darkempire play`` menu does.

    >>> from darkempire.rules.cards import FACTION_CARDS, HAND_CARDS
    >>> action_label(PlayCard(FACTION_CARDS[1], Side.EMPEROR), Theme.DARK_EMPIRE)
    'Play Beggars 4 #1 as a traitor card'
    >>> action_label(Reorganize(None, (HAND_CARDS[66], HAND_CARDS[5])), Theme.STEAM_NOIR)
    'Take nothing back, discard Workers 5 #5, +3 #66'
    """
    verb, _, rest = plain_text(action_text(action, theme)).partition(" ")
    label = f"{_IMPERATIVES[verb]} {rest}"
    if isinstance(action, Reorganize):
        label = label.replace(", discards ", ", discard ", 1)
    if view is None or view.seat is None:
        return label
    if isinstance(action, PassCards):
        return f"{label} to {seat_name((view.seat + 1) % view.players)}"
    play = view.table.play_of(action.target) if isinstance(action, Reinforce) and view.table is not None else None
    if play is not None:
        kind = "traitor card " if play.is_traitor else ""
        label = label.replace(" to ", f" to {kind}", 1) + f" ({owner_name(play.seat, view.seat)})"
    return label
