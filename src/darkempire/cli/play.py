"""``darkempire play``: one person plays a seat against greedy bots at the terminal (spec 9.4).

``darkempire play [--players N] [--seed S] [--theme T] [--seat K]`` lets one
person play seat ``K`` against :class:`~darkempire.bots.GreedyBot` seats
(seat ``s``'s bot seeded with ``10 * S + s``, as in ``darkempire demo``). The
person sees only that seat's :class:`~darkempire.rules.views.PlayerView`: its own
hand and victor card and the public table and scores. :class:`HumanSeat` is
the bot that asks the person.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Protocol

from rich.console import Console
from rich.markup import escape

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
from darkempire.bots import Bot, GreedyBot, Turn, iter_game
from darkempire.rules.cards import HandCard, Theme, faction_name
from darkempire.rules.scoring import emperor_strength, faction_strengths
from darkempire.rules.state import GameConfig, GameState, Phase
from darkempire.text import (
    Chronicle,
    card_text,
    note_reorganize,
    owner_name,
    revealed_line,
    score_track_line,
    seat_name,
    step_lines,
    strengths_line,
)
from darkempire.rules.views import PlayerView, spectator_view

__all__ = ["HumanSeat", "LineReader", "PlayerLeft", "run"]


class LineReader(Protocol):
    """Where :class:`HumanSeat` reads answers: ``sys.stdin`` or anything with these two methods."""

    def readline(self) -> str:
        """The next line with its newline, or ``""`` at the end of input."""
        ...

    def isatty(self) -> bool:
        """Whether a person types the lines (they are echoed otherwise)."""
        ...


class PlayerLeft(Exception):
    """The player left the game: at the end of input (the command exits with status 1: the game was
    abandoned), or by answering "q" (status 0: a chosen quit is no failure).

    :ivar chosen: whether the player chose to leave ("q", "quit" or "exit").
    """

    def __init__(self, reason: str, *, chosen: bool = False) -> None:
        super().__init__(reason)
        self.chosen = chosen


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

    It is given only the seat's :class:`~darkempire.rules.views.PlayerView` and
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
        self._chronicle = Chronicle(console, theme, you=seat)
        self._reorganized: dict[tuple[int, int], dict[int, Reorganize]] = {}

    def record(self, turn: Turn) -> None:
        """Note any seat's decision of the game, for the record this seat is shown. Only re-organize choices
        are kept, and only their public part is printed (the card taken back and the number of discards,
        rules 6.1-6.3)."""
        note_reorganize(self._reorganized, (turn.before.month, turn.before.week), turn.seat, turn.action)

    @property
    def reorganized(self) -> Mapping[tuple[int, int], Mapping[int, Reorganize]]:
        """The re-organize choices noted so far, by (month, week) and seat."""
        return self._reorganized

    @property
    def chronicle(self) -> Chronicle:
        """The record of the game as this seat has been shown it."""
        return self._chronicle

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """Show the seat's view, then ask for one of ``legal``.

        :raises PlayerLeft: at the end of input or when the player answers "q".
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
        console.print(score_track_line(view.score_track, theme))
        console.print(
            "Tokens (banked + this month): "
            + ", ".join(
                f"{seat_name(s, self._seat)}: {b}+{m}"
                for s, (b, m) in enumerate(zip(view.banked_tokens, view.month_tokens, strict=True))
            )
        )
        table = view.table
        if table is not None and view.phase in (Phase.PLAY_1, Phase.PLAY_2, Phase.PLAY_3):
            console.print(revealed_line(table, theme))
            for line in step_lines(table, theme, self._seat):
                console.print(line)
            console.print(strengths_line(faction_strengths(table), emperor_strength(table), theme))
        if view.phase is Phase.REORGANIZE and table is not None:
            left = ", ".join(card_text(p.card, theme) for p in table.plays if p.seat == self._seat and not p.is_traitor)
            console.print(f"Your revolution-side cards still on the table: {left or 'none'}")
        hand = "  ".join(f"{i}) {card_text(card, theme)}" for i, card in enumerate(view.hand, start=1))
        console.print(f"Your hand ({len(view.hand)} cards): {hand}")

    def _describe(self, action: Action, view: PlayerView) -> str:
        theme = self._theme
        if isinstance(action, ChooseSupport):
            return faction_name(action.faction, theme)
        if isinstance(action, PlayCard):
            where = "to the revolution" if action.side is Side.REVOLUTION else "as a traitor card (to the emperor)"
            return f"play {card_text(action.card, theme)} {where}"
        if isinstance(action, Reinforce):
            assert view.table is not None
            target = view.table.play_of(action.target)
            owner = owner_name(target.seat, self._seat) if target is not None else "?"
            kind = "traitor card " if target is not None and target.is_traitor else ""
            return f"attach {card_text(action.card, theme)} to {kind}{card_text(action.target, theme)} ({owner})"
        if isinstance(action, PlayNothing):
            return "play nothing (you hold no card you may play)"
        if isinstance(action, PlaceCards):
            return "place " + " and ".join(card_text(c, theme) for c in sorted(action.cards, key=lambda c: c.id))
        return escape(repr(action))

    # ------------------------------------------------------------------ asking

    def _read(self, prompt: str) -> str:
        self._console.print(f"[bold]{prompt}[/bold] > ", end="")
        line = self._stdin.readline()
        if not line:
            self._console.print()
            raise PlayerLeft("end of input")
        answer = line.strip()
        if not self._stdin.isatty():
            self._console.print(escape(answer), highlight=False)  # keep a piped transcript readable
        if answer.lower() in ("q", "quit", "exit"):
            raise PlayerLeft("you left the game", chosen=True)
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
                self._console.print(f"  {i}) {card_text(card, self._theme)}")
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


def run(console: Console, players: int, seed: int, theme: Theme, seat: int) -> int:
    """Play a game with the person at ``seat`` (answers from standard input) and GreedyBots (seat ``s``'s
    seeded ``10 * seed + s``); print it to ``console``.

    :returns: 0 when the game is over.
    :raises PlayerLeft: at the end of input or when the player answers "q".
    """
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
    return 0
