"""``darkempire play``: one person plays a seat against bots at the terminal (spec 9.4).

``darkempire play [--players N] [--seed S] [--theme T] [--seat K] [--bots KINDS] [--record FILE]
[--save FILE] [--resume FILE]`` lets one person play seat ``K`` against bots
(:class:`~darkempire.bots.GreedyBot` unless ``--bots`` names other kinds for the other seats; seat ``s``'s bot
seeded with ``10 * S + s``, as in ``darkempire demo``). The person sees only that seat's
:class:`~darkempire.rules.views.PlayerView`: its own hand and victor card, the cards it received at the draft
and drew at each re-organize, and the public table, scores, hand sizes and piles. :class:`HumanSeat` is the
bot that asks the person.

At any question the person may answer ``?`` for a help screen of the rules that matter there
(:mod:`darkempire.cli.play_help`), ``s`` to save the game so far, ``q`` to leave. ``--save FILE`` saves
at every question; ``--resume FILE`` continues a saved game (:mod:`darkempire.cli.play_save`), exactly as
it would have gone on: the bots are seeded as at the start and asked every earlier question again.
``--record FILE`` writes the finished game's record, as ``demo --record`` does. A saved game and a record
both hold the seed, so reading one reveals every hand.

On a terminal, lines are wrapped at word boundaries to its width; to a pipe or a file each line is
printed whole, for a script to read.
"""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Protocol

import attrs

from rich.columns import Columns
from rich.console import Console
from rich.markup import escape
from rich.table import Table
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
from darkempire.bots import BOT_KINDS, Bot, Turn, iter_game, make_bot
from darkempire.cli.play_help import COMMANDS_LINE, help_lines, piles_line
from darkempire.cli.play_save import SavedGame, SaveFileError, read_save, write_save
from darkempire.cli.record_files import check_writable, write_record
from darkempire.cli.terminal import wrap_for_terminal
from darkempire.records import Choice, GameRecord, RecordError, replay_record, state_digest
from darkempire.rules.cards import HandCard, Theme, faction_name
from darkempire.rules.engine import apply_reporting
from darkempire.rules.events import CardsPassed, Event, HandRefilled, Reorganized, events_for
from darkempire.rules.scoring import emperor_strength, faction_strengths
from darkempire.rules.state import GameConfig, GameState, Phase
from darkempire.text import (
    Chronicle,
    card_text,
    cards_text,
    note_reorganize,
    owner_name,
    revealed_line,
    score_track_line,
    seat_name,
    step_lines,
    strengths_line,
)
from darkempire.rules.views import PlayerView, spectator_view
from tablekit.cli import UsageError, other_seat_kinds

__all__ = [
    "DEFAULT_SAVE",
    "GameSaves",
    "HumanSeat",
    "LineReader",
    "PlayerLeft",
    "Setup",
    "command",
    "other_kinds",
    "run",
]

#: Where ``s`` saves the game when neither ``--save`` nor ``--resume`` names a file.
DEFAULT_SAVE = "darkempire-save.json"

_QUIT = ("q", "quit", "exit")
_HELP = ("?", "h", "help")
_SAVE = ("s", "save")


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


class GameSaves(Protocol):
    """Where :class:`HumanSeat` saves the game: at every question when :attr:`automatic`, and when asked."""

    @property
    def automatic(self) -> bool:
        """Whether to save at every question (``--save FILE``)."""
        ...

    def save(self) -> Path:
        """Save the game so far and return the file written.

        :raises SaveFileError: if it cannot be written.
        """
        ...


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
    :param saves: where ``s`` saves the game (``None``: saving is not offered).
    :param replay: the seat's answers before the game was saved, given again without asking when the game
        is resumed, in order.
    """

    def __init__(
        self,
        console: Console,
        stdin: LineReader,
        theme: Theme,
        seat: int,
        *,
        saves: GameSaves | None = None,
        replay: Sequence[Action] = (),
    ) -> None:
        self._console = console
        self._stdin = stdin
        self._theme = theme
        self._seat = seat
        self._saves = saves
        self._replay = deque(replay)
        self._chronicle = Chronicle(console, theme, you=seat)
        self._reorganized: dict[tuple[int, int], dict[int, Reorganize]] = {}
        self._news: list[str] = []  # what the seat learnt privately since its last question
        self._view: PlayerView | None = None

    def record(self, turn: Turn) -> None:
        """Note any seat's decision of the game, for the record this seat is shown. Only re-organize choices
        are kept, and only their public part is printed (the card taken back and the number of discards,
        rules 6.1-6.3). When the decision ends the draft pass or a re-organize, the cards this seat received
        or drew are told at its next question (rules 2.5, 6.4)."""
        note_reorganize(self._reorganized, (turn.before.month, turn.before.week), turn.seat, turn.action)
        resolved = all(p is None for p in turn.after.pending)
        if resolved and turn.before.phase in (Phase.DRAFT_PASS, Phase.REORGANIZE):
            # The engine's own report of the step, as this seat may see it: nothing is recovered from states.
            events = events_for(apply_reporting(turn.before, turn.seat, turn.action).events, self._seat)
            self._news += _news_lines(events, self._theme, self._seat)

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
        if self._replay:  # answered before the game was saved: what it told the seat was seen then
            self._news.clear()
            return self._replay.popleft()
        self._view = view
        self._chronicle.update(view.history, view.month_scores, view.phase, view.verdict, self._reorganized)
        self._show(view)
        if self._saves is not None and self._saves.automatic:
            self._saves.save()
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
        for line in self._news:
            console.print(line)
        self._news.clear()
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
        console.print(piles_line(view))
        table = view.table
        if table is not None and view.phase in (Phase.PLAY_1, Phase.PLAY_2, Phase.PLAY_3):
            console.print(revealed_line(table, theme))
            for line in step_lines(table, theme, self._seat):
                console.print(line)
            console.print(strengths_line(faction_strengths(table), emperor_strength(table), theme))
        if view.phase is Phase.REORGANIZE and table is not None:
            left = ", ".join(card_text(p.card, theme) for p in table.plays if p.seat == self._seat and not p.is_traitor)
            console.print(f"Your revolution-side cards still on the table: {left or 'none'}")
        self._print_hand(view)

    def _print_hand(self, view: PlayerView) -> None:
        """The hand, numbered as the questions about it number it."""
        console = self._console
        items = [f"{i}) {card_text(card, self._theme)}" for i, card in enumerate(view.hand, start=1)]
        if console.soft_wrap:  # one line, for a script to read
            console.print(f"Your hand ({len(view.hand)} cards): " + "  ".join(items))
        else:  # a grid as wide as the terminal, never breaking a card's line
            console.print(f"Your hand ({len(view.hand)} cards):")
            console.print(Columns([Text.from_markup(item, overflow="fold") for item in items], padding=(0, 2)))

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
        """The next answer to ``prompt`` that is no command: ``?`` shows the help, ``s`` saves, and the
        question is asked again.

        :raises PlayerLeft: at the end of input or when the player answers "q".
        """
        while True:
            self._console.print(f"[bold]{prompt}[/bold] > ", end="")
            line = self._stdin.readline()
            if not line:
                self._console.print()
                raise PlayerLeft("end of input")
            answer = line.strip()
            if not self._stdin.isatty():
                self._console.print(escape(answer), highlight=False)  # keep a piped transcript readable
            word = answer.lower()
            if word in _QUIT:
                raise PlayerLeft("you left the game", chosen=True)
            if word in _HELP:
                self._help()
            elif word in _SAVE:
                self._save()
            else:
                return answer

    def _help(self) -> None:
        if self._view is not None:
            for line in help_lines(self._view, self._theme):
                self._console.print(line)
        else:
            self._console.print(COMMANDS_LINE)

    def _save(self) -> None:
        if self._saves is None:
            self._console.print("This game cannot be saved here.")
            return
        try:
            path = escape(str(self._saves.save()))
        except SaveFileError as error:
            self._console.print(f"Not saved: {escape(str(error))}")
            return
        self._console.print(f"Game saved to {path}. To go on later: darkempire play --resume {path}")

    def _numbers(self, prompt: str, low: int, high: int, count: int | None) -> list[int]:
        """Ask until the answer is ``count`` distinct numbers in ``low..high`` (any count if ``None``)."""
        while True:
            answer = self._read(prompt)
            words = answer.replace(",", " ").split()
            try:
                numbers = [int(w) for w in words]
            except ValueError:
                self._console.print(f"Please answer with numbers from {low} to {high}. Answer ? for help.")
                continue
            if any(not low <= n <= high for n in numbers):
                self._console.print(f"Every number must be from {low} to {high}.")
            elif len(set(numbers)) != len(numbers):
                self._console.print("Name each number once.")
            elif count is not None and len(numbers) != count:
                self._console.print(f"Please give exactly {count} number{'s' if count > 1 else ''}.")
            else:
                return numbers

    def _menu(self, labels: Sequence[str], start: int = 1) -> None:
        """The numbered ``labels``, one a line; wrapped lines are indented under their label on a terminal."""
        if self._console.soft_wrap:
            for i, label in enumerate(labels, start=start):
                self._console.print(f"  {i}) {label}")
            return
        grid = Table.grid(padding=(0, 1))
        grid.add_column(justify="right", no_wrap=True)
        grid.add_column()
        for i, label in enumerate(labels, start=start):
            grid.add_row(f"  {i})", Text.from_markup(label))
        self._console.print(grid)

    def _ask_option(self, question: str, labels: Sequence[str]) -> int:
        self._menu(labels)
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
            self._menu(["take nothing back", *(card_text(card, self._theme) for card in take_backs)], start=0)
            n = self._numbers(f"Re-organize: take back one of your cards (0-{len(take_backs)})", 0, len(take_backs), 1)
            take_back = take_backs[n[0] - 1] if n[0] else None
        discards: list[HandCard] = []
        if view.hand:
            if take_backs:  # the menu just shown numbered the take-backs: the discard numbers are the hand's
                self._print_hand(view)
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


def _news_lines(events: Sequence[Event], theme: Theme, you: int) -> list[str]:
    """What ``you`` learnt privately from a resolved draft pass or re-organize: the cards received (rule 2.5),
    the card taken back, the cards you discarded and the cards drawn (rules 6.2-6.4)."""
    lines = []
    took_back: HandCard | None = None
    reshuffled = False
    for event in events:
        if isinstance(event, CardsPassed) and event.to_seat == you and event.cards is not None:
            lines.append(f"Draft: you received {cards_text(event.cards, theme)} from seat {event.seat} (rule 2.5).")
        elif isinstance(event, Reorganized):
            took_back, reshuffled = event.take_backs[you], event.reshuffled
        elif isinstance(event, HandRefilled) and event.seat == you:
            back = f"you took back {card_text(took_back, theme)}, " if took_back is not None else ""
            # Your own discards: they were in your hand, so naming them to you tells no one's secret.
            discarded = f"discarded {cards_text(event.discarded, theme)}" if event.discarded else "discarded none"
            shuffle = "; the discard pile was shuffled into a new draw pile" if reshuffled else ""
            lines.append(
                f"Re-organize: {back}{discarded} and drew {cards_text(event.drawn, theme)} (rule 6.4{shuffle})."
            )
    return lines


@attrs.frozen
class Setup:
    """One game of ``darkempire play``: who sits where.

    :ivar players: number of seats.
    :ivar seed: the game's seed; seat ``s``'s bot is seeded ``10 * seed + s``.
    :ivar seat: the person's seat.
    :ivar bots: the bot kind of each seat (:data:`~darkempire.bots.BOT_KINDS`), ``None`` at the person's.
    """

    players: int
    seed: int
    seat: int
    bots: tuple[str | None, ...]

    @property
    def config(self) -> GameConfig:
        """The game's options."""
        return GameConfig(players=self.players)


def other_kinds(spec: str, players: int, seat: int) -> tuple[str | None, ...]:
    """The bot kind of each seat that ``--bots`` names: one kind for every other seat, or one kind per other
    seat in seat order, separated by commas; ``None`` at ``seat`` (:func:`tablekit.cli.other_seat_kinds`).

    :raises UsageError: for a kind that does not exist or a list of the wrong length.
    """
    return tuple(other_seat_kinds(spec, BOT_KINDS, players, seat))


@attrs.define
class _Saves:
    """The :class:`GameSaves` of a game being played: it writes the turns played so far to ``path``."""

    path: Path
    automatic: bool
    setup: Setup
    turns: list[Turn]
    digests: list[str] = attrs.field(factory=list)  # one per turn, computed once each
    theme: Theme = Theme.STEAM_NOIR  # kept in the record, so a replay or a resumed game shows these names

    def record(self) -> GameRecord:
        """The game so far, with a state digest after each choice (as ``demo --record`` writes it)."""
        self.digests += [state_digest(t.after) for t in self.turns[len(self.digests) :]]
        choices = tuple(Choice(t.seat, t.action) for t in self.turns)
        verdict = self.turns[-1].after.verdict if self.turns else None
        return GameRecord(self.setup.config, self.setup.seed, choices, verdict, tuple(self.digests), self.theme)

    def save(self) -> Path:
        write_save(self.path, SavedGame(self.setup.seat, self.setup.bots, self.record()))
        return self.path


def _saved_setup(saved: SavedGame, players: int | None, seed: int | None, seat: int | None, bots: str | None) -> Setup:
    """The saved game's setup, refusing any option given that differs from it.

    :raises UsageError: for such an option.
    """
    setup = Setup(saved.record.config.players, saved.record.seed, saved.seat, saved.bots)
    given: dict[str, tuple[object, object]] = {
        "--players": (players, setup.players),
        "--seed": (seed, setup.seed),
        "--seat": (seat, setup.seat),
    }
    if bots is not None:
        given["--bots"] = (other_kinds(bots, setup.players, setup.seat), setup.bots)
    for name, (value, kept) in given.items():
        if value is not None and value != kept:
            raise UsageError(f"{name} differs from the saved game's ({kept!r}); leave it out with --resume")
    return setup


def command(
    console: Console,
    theme: Theme | None,
    *,
    players: int | None,
    seed: int | None,
    seat: int | None,
    bots: str | None,
    record: str | None = None,
    save: str | None = None,
    resume: str | None = None,
    defaults: tuple[int, int] = (4, 1),
) -> int:
    """``darkempire play``: check the options, then :func:`run` the game, new or resumed.

    ``None`` is an option not given. With ``resume``, the saved game sets the players, seed, seat and bots
    (an option given that differs is refused) and the theme (``theme`` given overrides it), and ``s`` saves
    to ``save`` or else back to ``resume``. A new game's theme is Steam Noir's unless ``theme`` is given.
    Every file named is checked before the game starts.

    :param defaults: the players and seed of a new game when not given.
    :raises UsageError: for options that do not fit together.
    :raises ~darkempire.records.RecordError: for a file that cannot be written, or a save that cannot be read
        or does not replay (:class:`~darkempire.cli.play_save.SaveFileError`).
    :raises PlayerLeft: as :func:`run`.
    """
    saved = read_save(Path(resume)) if resume is not None else None
    if saved is not None:
        setup = _saved_setup(saved, players, seed, seat, bots)
    else:
        players = defaults[0] if players is None else players
        seat = 0 if seat is None else seat
        if not 0 <= seat < players:
            raise UsageError(f"--seat must be from 0 to {players - 1} in a {players}-player game")
        kinds = other_kinds("greedy" if bots is None else bots, players, seat)
        setup = Setup(players, defaults[1] if seed is None else seed, seat, kinds)
    for path in (record, save):
        if path is not None:  # refused now rather than after the game
            check_writable(Path(path))
    if saved is not None and resume is not None:
        try:  # every choice legal and every state as saved, before any bot is asked
            replay_record(saved.record)
        except RecordError as error:
            raise SaveFileError(f"{resume}: {error}") from None
    save_path = save if save is not None else resume if resume is not None else DEFAULT_SAVE
    if theme is None:
        theme = saved.record.theme if saved is not None else Theme.STEAM_NOIR
    return run(
        console,
        setup,
        theme,
        record=record,
        save=Path(save_path),
        autosave=save is not None,
        resumed=saved.record.choices if saved is not None else (),
    )


def run(
    console: Console,
    setup: Setup,
    theme: Theme,
    *,
    record: str | None = None,
    save: Path | None = None,
    autosave: bool = False,
    resumed: Sequence[Choice] = (),
    stdin: LineReader | None = None,
) -> int:
    """Play the game of ``setup`` with the person at ``setup.seat`` (answers from ``stdin``, default standard
    input) and bots; print it to ``console``, wrapped at word boundaries if it is a terminal.

    :param record: write the finished game's record to this file (as ``demo --record``).
    :param save: where ``s`` saves the game (``None``: saving is not offered); at every question if
        ``autosave``.
    :param resumed: the choices of a saved game: every seat's are made again first, the bots' by the bots
        themselves (so that their generators go on as in the game saved), the person's without asking.
    :returns: 0 when the game is over.
    :raises PlayerLeft: at the end of input or when the player answers "q".
    :raises SaveFileError: if the bots do not make the saved choices again.
    """
    wrap_for_terminal(console)  # rich wraps at word boundaries; a pipe keeps each line whole
    turns: list[Turn] = []
    saves = _Saves(save if save is not None else Path(DEFAULT_SAVE), autosave, setup, turns, theme=theme)
    replay = [c.action for c in resumed if c.seat == setup.seat]
    offered = saves if save is not None else None
    human = HumanSeat(console, stdin or sys.stdin, theme, setup.seat, saves=offered, replay=replay)
    bots: list[Bot] = [
        human if kind is None else make_bot(kind, setup.seed * 10 + s) for s, kind in enumerate(setup.bots)
    ]
    _greet(console, setup, theme, len(resumed))
    for turn in iter_game(setup.config, setup.seed, bots):
        if len(turns) < len(resumed):
            _check_resumed(turn, resumed[len(turns)], len(turns))
        turns.append(turn)
        human.record(turn)
    final = turns[-1].after
    assert final.verdict is not None
    public = spectator_view(final)
    human.chronicle.update(public.history, public.month_scores, public.phase, public.verdict, human.reorganized)
    if setup.seat not in final.verdict.winners:
        console.print("[bold]You lose.[/bold]")
    else:
        console.print(f"[bold]{'You share the win!' if final.verdict.shared else 'You win!'}[/bold]")
    if record is not None:
        made = saves.record()
        write_record(Path(record), made)
        console.print(f"Record of {len(made.choices)} choices written to {escape(record)}")
    return 0


def _greet(console: Console, setup: Setup, theme: Theme, resumed: int) -> None:
    others = ", ".join(f"seat {s} {kind}" for s, kind in enumerate(setup.bots) if kind is not None)
    console.print(
        f"[bold]Dark Empire: Revolution[/bold] - {setup.players} players, seed {setup.seed}, theme {theme.value}. "
        f"You are seat {setup.seat}; the other seats are bots: {others}."
    )
    if resumed:
        console.print(f"Resuming a saved game: its {resumed} choices are made again, then it goes on.")
    console.print(COMMANDS_LINE)


def _check_resumed(turn: Turn, saved: Choice, index: int) -> None:
    """Refuse a resumed game whose bots do not make their saved choices again (another version of them)."""
    if (turn.seat, turn.action) != (saved.seat, saved.action):
        raise SaveFileError(
            f"the saved game does not go on the same way: choice {index} was seat {saved.seat}'s "
            f"{saved.action!r}, now seat {turn.seat} chooses {turn.action!r} (saved by another version?)"
        )
