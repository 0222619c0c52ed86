"""The ``darkempire`` command: watch bots play a game, or play one seat yourself (spec 9.2-9.4).

* ``darkempire demo [--players N] [--seed S] [--theme T] [--bots greedy,random,...]``
  plays a whole seeded game between bots and prints it week by week: the
  revealed cards, every play step, the strengths, the tokens and why, the
  cards placed to the score track, each monthly scoring and the final
  judgement.
  Seat ``s``'s bot is seeded with ``10 * S + s``, so a demo can be replayed
  with :func:`darkempire.bots.run_game`.
* ``darkempire play [--players N] [--seed S] [--theme T] [--seat K]`` lets
  one person play seat ``K`` against :class:`~darkempire.bots.GreedyBot`
  seats at the terminal. The person sees only that seat's
  :class:`~darkempire.views.PlayerView`: its own hand and victor card and the
  public table and scores.
* ``darkempire demo --record FILE`` also writes the game as a JSON game
  record; ``darkempire replay FILE`` re-runs a record through the rules,
  prints it and confirms its verdict; ``darkempire replay FILE --seat N
  --week W`` shows what seat ``N`` saw in week ``W`` (1-12). See
  :mod:`darkempire.record_cli`.
* ``darkempire simulate [--players N] [--games G] [--seed S] [--bots ...]
  [--jobs J] [--json] [--plot FILE.png]`` plays many seeded bot games, in
  ``J`` worker processes, and prints how they ended: outcomes, win rates per
  seat and per bot with 95% intervals, mean totals and tokens. See
  :mod:`darkempire.simulation`.

Output goes through ``rich``; when standard output is not a terminal (a
pipe, a file, CI) it is plain text without colours or wrapping.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from typing import Protocol

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
    Reorganize,
    Side,
)
from darkempire.bots import BOT_KINDS, Bot, GreedyBot, Turn, iter_game, make_bot
from darkempire.cards import Faction, HandCard, Theme, faction_name
from darkempire.errors import DarkEmpireError
from darkempire.scoring import (
    AwardReason,
    MonthScore,
    Verdict,
    VerdictReason,
    WeekScore,
    emperor_strength,
    faction_strengths,
)
from darkempire.simulation import add_arguments as add_simulate_arguments
from darkempire.simulation import simulate_command
from darkempire.state import WEEKS, GameConfig, GameState, Phase, WeekRecord
from darkempire.table import WeekTable
from darkempire.views import PlayerView, spectator_view

__all__ = ["main"]

#: Exit status of a finished command.
EXIT_OK = 0
#: Exit status when the player leaves ``play`` (end of input or "q").
EXIT_LEFT = 1
#: Exit status after Ctrl-C.
EXIT_INTERRUPTED = 130

_THEMES = {theme.value: theme for theme in Theme}


# --------------------------------------------------------------------------- formatting the public record


def _seat(seat: int, you: int | None = None) -> str:
    return f"seat {seat} (you)" if seat == you else f"seat {seat}"


def _owner(seat: int, you: int | None = None) -> str:
    return "yours" if seat == you else f"seat {seat}'s"


def _card(card: HandCard, theme: Theme) -> str:
    return escape(card.label(theme))


def _strengths_line(strengths: Sequence[int], emperor: int | None, theme: Theme) -> str:
    factions = ", ".join(f"{faction_name(f, theme)} {strengths[f]}" for f in Faction)
    tail = f"emperor {emperor}" if emperor is not None else "no emperor"
    return f"Strengths: {factions}; {tail}"


def _revealed_line(table: WeekTable, theme: Theme) -> str:
    revolution = f"revolution card {faction_name(table.revolution_card.faction, theme)} (+3)"
    if table.emperor_card is None:
        return f"Revealed: {revolution}; no emperor card this week, so no traitor cards (ruling J)"
    emperor = f"emperor card {table.emperor_card.value}"
    if table.add_on is not None:
        emperor += f' with the add-on "{int(table.add_on)} +"'
    return f"Revealed: {revolution}; {emperor}"


def _step_lines(table: WeekTable, theme: Theme, you: int | None = None) -> list[str]:
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
                    lines.append(f"  {_seat(seat, you)}: {_card(play.card, theme)} {where}")
                for r in play.reinforcements:
                    if r.step == step and r.seat == seat:
                        kind = "" if play.side is Side.REVOLUTION else "traitor card "
                        lines.append(
                            f"  {_seat(seat, you)}: {_card(r.card, theme)} attached to {kind}"
                            f"{_card(play.card, theme)} ({_owner(play.seat, you)})"
                        )
            if (step, seat) in table.idle:
                lines.append(f"  {_seat(seat, you)}: nothing")
    return lines


def _award_text(score: WeekScore, theme: Theme, you: int | None) -> str:
    if not score.awards:
        return "Tokens: none (no seat played a strongest faction's card to the revolution side)"
    parts = []
    for award in score.awards:
        why = "most support" if award.reason is AwardReason.MOST_SUPPORT else "single highest card"
        parts.append(f"{_seat(award.seat, you)} +{award.points} ({why} of {faction_name(award.faction, theme)})")
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
        "  " + _revealed_line(table, theme),
        *("  " + line for line in _step_lines(table, theme, you)),
        "  " + _strengths_line(score.strengths, score.emperor_strength, theme),
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
        lines.append(f"  Score track: {_seat(scored.seat, you)} places {_card(scored.card, theme)}")
    if not lines:
        lines.append("  Score track: nothing is placed (the strongest faction has no revolution-side card)")
    return lines


def _note_reorganize(reorganized: dict[tuple[int, int], dict[int, Reorganize]], turn: Turn) -> None:
    """Keep ``turn``'s choice under its (month, week) and seat if it is a re-organize, for :func:`_reorganize_line`."""
    if isinstance(turn.action, Reorganize):
        reorganized.setdefault((turn.before.month, turn.before.week), {})[turn.seat] = turn.action


def _reorganize_line(choices: Mapping[int, Reorganize], theme: Theme) -> str:
    parts = []
    for seat in sorted(choices):
        action = choices[seat]
        took = f"takes back {_card(action.take_back, theme)}" if action.take_back is not None else "takes nothing back"
        parts.append(f"seat {seat} {took} and discards {len(action.discards)}")
    return "  Re-organize: " + "; ".join(parts)


def _month_lines(month: MonthScore, banked: Sequence[int], theme: Theme, you: int | None = None) -> list[str]:
    """A monthly scoring: support cards, totals, the 6-point split, banked tokens (rules 7.1-7.3)."""
    support = ", ".join(f"{_seat(s, you)}: {faction_name(f, theme)}" for s, f in enumerate(month.support))
    totals = ", ".join(
        f"{faction_name(f, theme)} {month.totals[f]} (cards {month.card_points[f]}"
        f" + tokens {month.totals[f] - month.card_points[f]})"
        for f in Faction
    )
    names = " and ".join(faction_name(f, theme) for f in sorted(month.strongest))
    gainers = [f"{_seat(s, you)} +{b}" for s, b in enumerate(month.bonus) if b]
    shared = ", ".join(gainers) if gainers else "nobody supported it"
    split = f"strongest {names}; 6 points: {shared}"
    bank = ", ".join(f"{_seat(s, you)}: {b}" for s, b in enumerate(banked))
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


def _verdict_lines(verdict: Verdict, theme: Theme, you: int | None = None) -> list[str]:
    """The final judgement (rules 8.1-8.5, ruling M)."""
    victors = ", ".join(f"{_seat(s, you)}: {faction_name(f, theme)}" for s, f in enumerate(verdict.victors))
    totals = ", ".join(
        f"{faction_name(f, theme)} {verdict.totals[f]} (cards only {verdict.card_points[f]})" for f in Faction
    )
    winners = ", ".join(
        f"{_seat(s, you)} ({faction_name(verdict.victors[s], theme)})" for s in sorted(verdict.winners)
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


class _Chronicle:
    """Prints the public record (finished weeks, monthly scorings, verdict) once each, in order."""

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
        follows once made.
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


# --------------------------------------------------------------------------- demo


def _demo(
    console: Console,
    players: int,
    seed: int,
    theme: Theme,
    kinds: Sequence[str],
    record: str | None = None,
    public: str | None = None,
) -> int:
    """Play a game between bots of ``kinds`` (seat ``s``'s bot seeded ``10 * seed + s``) and print it;
    write its game record to the file ``record`` and its public record to ``public`` if given."""
    config = GameConfig(players=players)
    bots = [make_bot(kind, seed * 10 + seat) for seat, kind in enumerate(kinds)]
    seats = ", ".join(f"seat {s}: {kind}" for s, kind in enumerate(kinds))
    console.print(f"[bold]Dark Empire: Revolution[/bold] - {players} players, seed {seed}, theme {theme.value}")
    console.print(f"Bots: {seats}")
    console.print("Draft: every seat passes 2 cards to the next seat and discards 2 (face down, rules 2.5-2.6).")
    console.print("Each month every seat secretly chooses a temporary support card, revealed at the monthly scoring.")
    reorganized: dict[tuple[int, int], dict[int, Reorganize]] = {}
    final: GameState | None = None
    turns = list(iter_game(config, seed, bots))
    for turn in turns:
        _note_reorganize(reorganized, turn)
        final = turn.after
    assert final is not None and final.verdict is not None
    chronicle = _Chronicle(console, theme)
    chronicle.update(final.history, final.month_scores, final.phase, final.verdict, reorganized)
    if record is not None or public is not None:
        from darkempire.record_cli import save_demo_record  # it imports this module's formatting

        save_demo_record(console, record, config, seed, turns, public=public)
    return EXIT_OK


# --------------------------------------------------------------------------- play


class LineReader(Protocol):
    """Where :class:`HumanSeat` reads answers: ``sys.stdin`` or anything with these two methods."""

    def readline(self) -> str:
        """The next line with its newline, or ``""`` at the end of input."""
        ...

    def isatty(self) -> bool:
        """Whether a person types the lines (they are echoed otherwise)."""
        ...


class _Leave(Exception):
    """The player left the game: end of input, or "q"."""


def _effect(action: Action) -> object:
    """What ``action`` does, whichever of several interchangeable cards it uses: equal for two "+3" cards
    attached to one card, or two faction cards of one faction and value played to one side."""
    if isinstance(action, Reinforce):
        return (Reinforce, action.target)
    if isinstance(action, PlayCard):
        return (PlayCard, action.card.faction, action.card.value, action.side)
    return action


class HumanSeat:
    """A :class:`~darkempire.bots.Bot` that asks a person at the terminal (spec 9.4).

    It is given only the seat's :class:`~darkempire.views.PlayerView` and
    legal actions, like any bot, so it cannot show another seat's hand.

    :param console: where to print.
    :param stdin: where to read answers, one per line.
    :param theme: the faction names to show.
    :param seat: the seat it plays, for "you" in the log.
    """

    def __init__(self, console: Console, stdin: LineReader, theme: Theme, seat: int) -> None:
        self._console = console
        self._stdin = stdin
        self._theme = theme
        self._seat = seat
        self._chronicle = _Chronicle(console, theme, you=seat)
        self._reorganized: dict[tuple[int, int], dict[int, Reorganize]] = {}

    def record(self, turn: Turn) -> None:
        """Note any seat's decision of the game, for the record this seat is shown. Only re-organize choices
        are kept, and only their public part is printed (the card taken back and the number of discards,
        rules 6.1-6.3)."""
        _note_reorganize(self._reorganized, turn)

    @property
    def reorganized(self) -> Mapping[tuple[int, int], Mapping[int, Reorganize]]:
        """The re-organize choices noted so far, by (month, week) and seat."""
        return self._reorganized

    @property
    def chronicle(self) -> _Chronicle:
        """The record of the game as this seat has been shown it."""
        return self._chronicle

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """Show the seat's view, then ask for one of ``legal``.

        :raises _Leave: at the end of input or when the player answers "q".
        """
        self._chronicle.update(view.history, view.month_scores, view.phase, view.verdict, self._reorganized)
        self._show(view)
        phase = view.phase
        if phase is Phase.DRAFT_PASS:
            target = (self._seat + 1) % view.players
            cards = self._ask_cards(view, f"Pass 2 cards to seat {target}: two card numbers, e.g. 1 2", 2)
            return self._check(PassCards(cards), legal)
        if phase is Phase.DRAFT_DISCARD:
            return self._check(DiscardCards(self._ask_cards(view, "Discard 2 cards: two card numbers", 2)), legal)
        if phase is Phase.REORGANIZE:
            return self._reorganize(view, legal)
        # Interchangeable cards (the "+3" reinforcement cards, two faction cards of one value) make actions with
        # the same effect on the game: the menu lists each effect once.
        options: dict[object, Action] = {}
        for action in legal:
            options.setdefault(_effect(action), action)
        distinct = list(options.values())
        labels = [self._describe(action, view) for action in distinct]
        if len(distinct) == 1:  # e.g. only reinforcement cards at the first step (ruling H)
            self._console.print(f"Your only choice: {labels[0]}")
            return distinct[0]
        question = {
            Phase.CHOOSE_SUPPORT: "Choose your temporary support card for this month",
            Phase.PLACEMENT: "Choose the card you place to the score track",
        }.get(phase, f"Play step {phase.step}: choose your play")
        return distinct[self._ask_option(question, labels) - 1]

    # ------------------------------------------------------------------ showing

    def _show(self, view: PlayerView) -> None:
        theme = self._theme
        console = self._console
        when = f"month {view.month}" + (f", week {view.week}" if view.week else "")
        console.print()
        console.print(f"[bold cyan]-- {escape(view.phase.value)}, {when} -- you are seat {self._seat}[/bold cyan]")
        assert view.victor is not None
        support = faction_name(view.support, theme) if view.support is not None else "not chosen yet"
        console.print(f"Your victor faction (secret): {faction_name(view.victor, theme)}; your support: {support}")
        track = view.score_track.card_points()
        console.print(
            "Score track: "
            + ", ".join(f"{faction_name(f, theme)} {track[f]}" for f in Faction)
            + f"; emperor {view.score_track.emperor_total}"
        )
        console.print(
            "Tokens (banked + this month): "
            + ", ".join(
                f"{_seat(s, self._seat)}: {b}+{m}"
                for s, (b, m) in enumerate(zip(view.banked_tokens, view.month_tokens, strict=True))
            )
        )
        table = view.table
        if table is not None and view.phase in (Phase.PLAY_1, Phase.PLAY_2, Phase.PLAY_3):
            console.print(_revealed_line(table, theme))
            for line in _step_lines(table, theme, self._seat):
                console.print(line)
            console.print(_strengths_line(faction_strengths(table), emperor_strength(table), theme))
        if view.phase is Phase.REORGANIZE and table is not None:
            left = ", ".join(_card(p.card, theme) for p in table.plays if p.seat == self._seat and not p.is_traitor)
            console.print(f"Your revolution-side cards still on the table: {left or 'none'}")
        hand = "  ".join(f"{i}) {_card(card, theme)}" for i, card in enumerate(view.hand, start=1))
        console.print(f"Your hand ({len(view.hand)} cards): {hand}")

    def _describe(self, action: Action, view: PlayerView) -> str:
        theme = self._theme
        if isinstance(action, ChooseSupport):
            return faction_name(action.faction, theme)
        if isinstance(action, PlayCard):
            where = "to the revolution" if action.side is Side.REVOLUTION else "as a traitor card (to the emperor)"
            return f"play {_card(action.card, theme)} {where}"
        if isinstance(action, Reinforce):
            assert view.table is not None
            target = view.table.play_of(action.target)
            owner = _owner(target.seat, self._seat) if target is not None else "?"
            kind = "traitor card " if target is not None and target.is_traitor else ""
            return f"attach {_card(action.card, theme)} to {kind}{_card(action.target, theme)} ({owner})"
        if isinstance(action, PlayNothing):
            return "play nothing (you hold no card you may play)"
        if isinstance(action, PlaceCards):
            return "place " + " and ".join(_card(c, theme) for c in sorted(action.cards, key=lambda c: c.id))
        return escape(repr(action))

    # ------------------------------------------------------------------ asking

    def _read(self, prompt: str) -> str:
        self._console.print(f"[bold]{prompt}[/bold] > ", end="")
        line = self._stdin.readline()
        if not line:
            self._console.print()
            raise _Leave("end of input")
        answer = line.strip()
        if not self._stdin.isatty():
            self._console.print(escape(answer), highlight=False)  # keep a piped transcript readable
        if answer.lower() in ("q", "quit", "exit"):
            raise _Leave("you left the game")
        return answer

    def _numbers(self, prompt: str, low: int, high: int, count: int | None) -> list[int]:
        """Ask until the answer is ``count`` distinct numbers in ``low..high`` (any count if ``None``)."""
        while True:
            answer = self._read(prompt)
            words = answer.replace(",", " ").split()
            try:
                numbers = [int(w) for w in words]
            except ValueError:
                self._console.print(f"Please answer with numbers from {low} to {high}.")
                continue
            if any(not low <= n <= high for n in numbers):
                self._console.print(f"Every number must be from {low} to {high}.")
            elif len(set(numbers)) != len(numbers):
                self._console.print("Name each number once.")
            elif count is not None and len(numbers) != count:
                self._console.print(f"Please give exactly {count} number{'s' if count > 1 else ''}.")
            else:
                return numbers

    def _ask_option(self, question: str, labels: Sequence[str]) -> int:
        for i, label in enumerate(labels, start=1):
            self._console.print(f"  {i}) {label}")
        return self._numbers(f"{question} (1-{len(labels)})", 1, len(labels), 1)[0]

    def _ask_cards(self, view: PlayerView, question: str, count: int) -> list[HandCard]:
        numbers = self._numbers(question, 1, len(view.hand), count)
        return [view.hand[n - 1] for n in numbers]

    def _reorganize(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        take_backs = sorted(
            {a.take_back for a in legal if isinstance(a, Reorganize) and a.take_back is not None}, key=lambda c: c.id
        )
        take_back: HandCard | None = None
        if take_backs:
            self._console.print("  0) take nothing back")
            for i, card in enumerate(take_backs, start=1):
                self._console.print(f"  {i}) {_card(card, self._theme)}")
            n = self._numbers(f"Re-organize: take back one of your cards (0-{len(take_backs)})", 0, len(take_backs), 1)
            take_back = take_backs[n[0] - 1] if n[0] else None
        discards: list[HandCard] = []
        if view.hand:
            numbers = self._numbers(
                "Discard which hand cards? Card numbers separated by spaces, or nothing to keep them all",
                1,
                len(view.hand),
                None,
            )
            discards = [view.hand[n - 1] for n in numbers]
        return self._check(Reorganize(take_back, discards), legal)

    @staticmethod
    def _check(action: Action, legal: Sequence[Action]) -> Action:
        if action not in set(legal):  # the engine lists every pair and subset, so this is a bug, not bad input
            raise AssertionError(f"built an action the engine does not list: {action!r}")
        return action


def _play(console: Console, players: int, seed: int, theme: Theme, seat: int) -> int:
    """Play a game with the person at ``seat`` and GreedyBots (seat ``s``'s seeded ``10 * seed + s``)."""
    config = GameConfig(players=players)
    human = HumanSeat(console, sys.stdin, theme, seat)
    bots: list[Bot] = [human if s == seat else GreedyBot(seed * 10 + s) for s in range(players)]
    console.print(
        f"[bold]Dark Empire: Revolution[/bold] - {players} players, seed {seed}, theme {theme.value}. "
        f"You are seat {seat}; the other seats are greedy bots. Answer q to leave."
    )
    final: GameState | None = None
    for turn in iter_game(config, seed, bots):
        human.record(turn)
        final = turn.after
    assert final is not None and final.verdict is not None
    public = spectator_view(final)
    human.chronicle.update(public.history, public.month_scores, public.phase, public.verdict, human.reorganized)
    if seat not in final.verdict.winners:
        console.print("[bold]You lose.[/bold]")
    else:
        console.print(f"[bold]{'You share the win!' if final.verdict.shared else 'You win!'}[/bold]")
    return EXIT_OK


# --------------------------------------------------------------------------- arguments


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="darkempire", description="Dark Empire: Revolution (Steam Noir: Revolution), the card game."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="{demo,play,replay,simulate}")

    def common(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("--players", type=int, choices=(3, 4, 5), default=4, help="number of seats (default 4)")
        sub.add_argument("--seed", type=int, default=1, help="the game's seed (default 1)")
        sub.add_argument(
            "--theme", choices=sorted(_THEMES), default=Theme.STEAM_NOIR.value, help="faction names to show"
        )

    demo = commands.add_parser("demo", help="watch bots play a whole game, week by week")
    common(demo)
    demo.add_argument(
        "--bots",
        default="greedy",
        help="bot kind of every seat, or a comma-separated kind per seat: "
        + ", ".join(sorted(BOT_KINDS))
        + " (default greedy)",
    )
    demo.add_argument("--record", metavar="FILE", help="also write the game record (JSON) to FILE")
    demo.add_argument(
        "--public-record",
        metavar="FILE",
        help="also write the public record (JSON: no seed, nothing hidden; safe to share) to FILE",
    )
    play = commands.add_parser("play", help="play one seat against greedy bots at the terminal")
    common(play)
    play.add_argument("--seat", type=int, default=0, help="your seat, 0 to players-1 (default 0)")
    simulate = commands.add_parser("simulate", help="play many seeded bot games and sum up how they ended")
    add_simulate_arguments(simulate)
    replay = commands.add_parser("replay", help="replay a game record, check its verdict and print it")
    replay.add_argument("file", metavar="FILE", help="a game record written by demo --record")
    replay.add_argument("--seat", type=int, help="show what this seat saw (with --week)")
    replay.add_argument("--week", type=int, help="show week 1-12 as the seat (or a spectator) saw it")
    replay.add_argument(
        "--theme", choices=sorted(_THEMES), default=Theme.STEAM_NOIR.value, help="faction names to show"
    )
    return parser


def _bot_kinds(parser: argparse.ArgumentParser, spec: str, players: int) -> list[str]:
    kinds = [k.strip() for k in spec.split(",")]
    unknown = [k for k in kinds if k not in BOT_KINDS]
    if unknown:
        parser.error(f"--bots: unknown bot kind {unknown[0]!r}; choose from {', '.join(sorted(BOT_KINDS))}")
    if len(kinds) == 1:
        return kinds * players
    if len(kinds) != players:
        parser.error(f"--bots: give one kind, or one per seat ({players}), not {len(kinds)}")
    return kinds


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``darkempire`` command with ``argv`` (default: the process arguments).

    :returns: the exit status: 0 when done, 1 when the player leaves ``play``,
        130 after Ctrl-C. Bad arguments exit with status 2 and a message
        (:class:`SystemExit`, from :mod:`argparse`).
    """
    parser = _parser()
    args = parser.parse_args(argv)
    console = Console(file=sys.stdout, highlight=False, soft_wrap=True, emoji=False)
    theme = _THEMES[args.theme]
    try:
        if args.command == "demo":
            kinds = _bot_kinds(parser, args.bots, args.players)
            return _demo(console, args.players, args.seed, theme, kinds, args.record, args.public_record)
        if args.command == "simulate":
            return simulate_command(console, args, _bot_kinds(parser, args.bots, args.players), theme=theme)
        if args.command == "replay":
            from darkempire.record_cli import replay_command  # it imports this module's formatting

            return replay_command(console, args.file, theme, seat=args.seat, week=args.week)
        if not 0 <= args.seat < args.players:
            parser.error(f"--seat must be from 0 to {args.players - 1} in a {args.players}-player game")
        return _play(console, args.players, args.seed, theme, args.seat)
    except _Leave as left:
        Console(file=sys.stderr, highlight=False).print(f"Game abandoned: {left}.")
        return EXIT_LEFT
    except KeyboardInterrupt:
        Console(file=sys.stderr, highlight=False).print("Interrupted.")
        return EXIT_INTERRUPTED
    except DarkEmpireError as error:  # an engine refusal is a bug, but report it as one line
        # soft_wrap: one line however narrow the terminal, so a script can read the error from it
        Console(file=sys.stderr, highlight=False, soft_wrap=True).print(f"darkempire: {escape(str(error))}")
        return EXIT_LEFT


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
