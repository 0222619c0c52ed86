"""Public records: a game as a spectator saw it, safe to share, and the spectator replay (spec 9.3, 9.4).

A :class:`~darkempire.records.GameRecord` holds the seed, so it rebuilds
every hand, victor card and pile order: it is for a server, an archive of
finished games or a bug report, never for a client while the game is on.
A :class:`PublicRecord` holds only what a spectator was shown:

* the config (the player count, hence the add-on card);
* for each choice, one :class:`PublicStep`: the spectator's events of that
  choice (:func:`~darkempire.rules.events.events_for` with ``seat=None``), that is,
  which seat chose, and what the step revealed once it resolved: plays,
  scorings, public counts, support cards at the monthly scoring, victor
  cards at the end;
* the verdict, once the game is over.

It has no seed, no hand, no pending choice, no passed or discarded card, no
support or victor card before the rules reveal it, and no pile order, so it
may go to anyone at any moment of the game.

:func:`spectator_replay` checks a public record move by move against the
rules, using public information alone (the engine cannot replay it: the hands
are unknown). From the public face of the deal, which is the same for every
seed, it rebuilds the spectator's :class:`~darkempire.rules.views.PlayerView` after
each step and checks every event against it: the seat that chose was
awaited, plays are cards not face up elsewhere, nor known to lie in the
discard pile or in another seat's hand, and follow rules 4.3-4.6, a seat
plays nothing only if it can have held nothing playable (ruling H: it holds
reinforcement cards only, with no card it may reinforce, and no more of them
than are left unseen), scorings are the ones :mod:`darkempire.rules.scoring` computes from the revealed
table, piles, hands and tokens count as the rules say, and the verdict is the
final judgement of the public score track and the revealed victor cards. A
record that breaks a rule raises :class:`PublicRecordError` naming the step
and the rule.

>>> from darkempire.history import History
>>> from darkempire.rules.engine import legal_actions
>>> from darkempire.rules.state import GameConfig
>>> history = History.start(GameConfig(players=3), seed=7)
>>> history = history.apply(0, legal_actions(history.current, 0)[0])
>>> public = public_record(history)
>>> views = spectator_replay(public)
>>> views[-1].chosen, views[-1].hand
(frozenset({0}), ())

Public records travel as JSON with :mod:`darkempire.serialization`
(``{"format": "darkempire/1", "type": "public-record", ...}``).
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

import attrs

from darkempire.rules import engine
from darkempire.rules.actions import PlayCard, Reinforce, Side
from darkempire.rules.cards import EMPEROR_CARDS, REINFORCEMENT_CARDS, REVOLUTION_CARDS, Faction, HandCard, Theme, faction_name
from darkempire.rules.errors import DarkEmpireError, InvalidArgumentError
from darkempire.rules.events import (
    CardsPassed,
    CardsPlaced,
    ChoiceMade,
    DraftDiscarded,
    Draw,
    EmperorCardScored,
    Event,
    GameOver,
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
from darkempire.records import Choice, GameRecord, RecordError, replay_record
from darkempire.rules.scoring import Verdict, final_verdict, score_month_tally, score_table
from darkempire.rules.state import (
    HAND_SIZE,
    MONTHS,
    PLAY_PHASES,
    STEPS,
    WEEKS,
    GameConfig,
    Phase,
    ScoredCard,
    ScoreTrack,
)
from darkempire.rules.state import GameState, ScoredEmperorCard, WeekRecord
from darkempire.rules.table import Play, Reinforcement, WeekTable
from darkempire.rules.views import PlayerView, spectator_view
from darkempire.text import verdict_difference

T = TypeVar("T")

__all__ = [
    "PlayedGame",
    "PublicRecord",
    "PublicRecordError",
    "PublicStep",
    "hidden_information",
    "public_record",
    "spectator_replay",
]


def _events(value: tuple[Event, ...] | list[Event]) -> tuple[Event, ...]:
    return tuple(value)


def _steps(value: tuple[PublicStep, ...] | list[PublicStep]) -> tuple[PublicStep, ...]:
    return tuple(value)


@attrs.frozen
class PublicStep:
    """One choice of a game as a spectator saw it (spec 9.4).

    :ivar events: the spectator's events of the choice: first
        :class:`~darkempire.rules.events.ChoiceMade` with ``action=None`` (who
        chose), then, if the choice was the last one awaited, every public
        event of the step's resolution and of the automatic steps after it.
    """

    events: tuple[Event, ...] = attrs.field(converter=_events)


@attrs.frozen
class PublicRecord:
    """A game as a spectator saw it: no seed and nothing hidden (spec 9.4). Safe to send to anyone.

    :ivar config: the game's options.
    :ivar steps: one :class:`PublicStep` per choice, in order.
    :ivar verdict: the verdict, or ``None`` for an unfinished game.
    :ivar theme: the faction names the game was shown with (as a
        :class:`~darkempire.records.GameRecord`'s ``theme``); Steam Noir's for a record that names none.
    """

    config: GameConfig
    steps: tuple[PublicStep, ...] = attrs.field(converter=_steps)
    verdict: Verdict | None
    theme: Theme = Theme.STEAM_NOIR


class PublicRecordError(RecordError):
    """A public record that breaks a rule, or that carries hidden information.

    :ivar step: the index of the offending step in ``PublicRecord.steps``, or
        ``None`` for the record as a whole (its verdict).
    :ivar rule: the id of the broken rule or ruling in ``spec/darkempire/``.
    :ivar reason: what is wrong.
    """

    step: int | None
    rule: str
    reason: str

    def __init__(self, step: int | None, rule: str, reason: str) -> None:
        where = "the record" if step is None else f"step {step}"
        super().__init__(f"{where}: {reason} (rule {rule})")
        self.step = step
        self.rule = rule
        self.reason = reason


# --------------------------------------------------------------------------- making a public record


class PlayedGame(Protocol):
    """What a public record is made from: the states of a game and the choices between them, as a
    :class:`~darkempire.history.History` holds them."""

    @property
    def states(self) -> tuple[GameState, ...]:
        """The state after the deal, then after each choice."""

    @property
    def choices(self) -> tuple[Choice, ...]:
        """Each choice, in order: one fewer than the states."""


def public_record(game: GameRecord | PlayedGame, *, theme: Theme | None = None) -> PublicRecord:
    """The public record of a game, from its :class:`~darkempire.history.History` or its
    :class:`~darkempire.records.GameRecord` (which is replayed through the rules).

    Its ``theme`` is ``theme`` if given, else the game record's (Steam Noir's for a
    history).

    :raises RecordError: if the history does not start at a deal (it was
        resumed from a later state), or the game record does not reproduce.
    :raises InvalidArgumentError: if ``game`` is neither.
    """
    if isinstance(game, GameRecord):
        states, choices = replay_record(game).states, game.choices
        theme = game.theme if theme is None else theme
    elif isinstance(getattr(game, "states", None), tuple) and isinstance(getattr(game, "choices", None), tuple):
        states, choices = game.states, game.choices
    else:
        raise InvalidArgumentError(f"a public record is made from a History or a GameRecord, not {type(game).__name__}")
    first = states[0]
    if spectator_view(first) != _opening_view(first.config) or first.pending != (None,) * first.players:
        raise RecordError("a public record starts at the deal, and this history starts later in the game")
    steps = []
    for index, choice in enumerate(choices):
        events = engine.events_between(states[index], states[index + 1], choices={choice.seat: choice.action})
        steps.append(PublicStep(events_for(events, None)))
    return PublicRecord(first.config, tuple(steps), states[-1].verdict, Theme.STEAM_NOIR if theme is None else theme)


def hidden_information(record: PublicRecord) -> tuple[int, str] | None:
    """The first place where ``record`` carries something a spectator may not see (spec 9.4), if any.

    :returns: ``(step index, description)``, or ``None`` for a clean record.
    """
    for index, step in enumerate(record.steps):
        for event in step.events:
            found = _private_part(event)
            if found is not None:
                return index, found
    return None


def _private_part(event: Event) -> str | None:
    if isinstance(event, (HandDealt, HandRefilled)):
        return f"{type(event).__name__} is private to seat {event.seat}"
    if isinstance(event, ChoiceMade) and event.action is not None:
        return f"seat {event.seat}'s choice is shown"
    if isinstance(event, (CardsPassed, DraftDiscarded)) and event.cards is not None:
        return f"the cards seat {event.seat} passed or discarded face down are shown"
    return None


# --------------------------------------------------------------------------- the spectator replay


def _opening_view(config: GameConfig) -> PlayerView:
    """The public face of the deal: the same for every seed (only hidden cards differ)."""
    return spectator_view(engine.deal(config, 0))


def spectator_replay(record: PublicRecord) -> tuple[PlayerView, ...]:
    """Check ``record`` move by move against the rules, from public information alone (spec 9.3, 9.4).

    :returns: the spectator view after the deal, then after each step
        (``len(record.steps) + 1`` views), each equal to
        :func:`~darkempire.rules.views.spectator_view` of the real game's state.
    :raises PublicRecordError: at the first step that carries hidden
        information or breaks a rule (its ``step`` and ``rule`` say which), or
        if the verdict is not the one the steps reach.
    :raises InvalidArgumentError: if ``record`` is not a :class:`PublicRecord`.
    """
    if not isinstance(record, PublicRecord):
        raise InvalidArgumentError(f"expected a PublicRecord, not {type(record).__name__}")
    try:
        return _checked_views(record)
    except (AttributeError, TypeError, ValueError, KeyError, IndexError, AssertionError) as error:
        if isinstance(error, DarkEmpireError):
            raise
        # A record built in Python around the attrs converters (the JSON loader checks every type) can hold
        # values of any type: that is a malformed record, never a crash of the replay.
        reason = f"{type(error).__name__}: {str(error)[:120]}"
        raise PublicRecordError(None, "9.3", f"the record is malformed ({reason})") from None


def _checked_views(record: PublicRecord) -> tuple[PlayerView, ...]:
    hidden = hidden_information(record)
    if hidden is not None:
        raise PublicRecordError(hidden[0], "9.4", f"a public record shows no hidden information, but {hidden[1]}")
    spectator = _Spectator(record.config)
    views = [spectator.view]
    for index, step in enumerate(record.steps):
        spectator.step(index, step.events)
        views.append(spectator.view)
    final = views[-1].verdict
    if record.verdict != final:
        difference = verdict_difference(record.verdict, final, record.theme)
        raise PublicRecordError(None, "9.3", f"its verdict is not the one its steps reach: {difference}")
    return tuple(views)


def _awaited(view: PlayerView) -> frozenset[int]:
    """The seats a step waits for, from public information (rule 9.2, ruling N: forced choices are public)."""
    phase, seats = view.phase, range(view.players)
    if phase in PLAY_PHASES:
        required = [s for s in seats if view.hand_sizes[s]]
    elif phase in (Phase.DRAFT_PASS, Phase.DRAFT_DISCARD):
        required = [s for s in seats if view.hand_sizes[s] >= 3]
    elif phase is Phase.CHOOSE_SUPPORT:
        required = [s for s in seats if len(Faction) - len(view.support_used[s]) >= 2]
    elif phase is Phase.PLACEMENT:
        assert view.week_score is not None
        options = [0] * view.players
        for due in view.week_score.placements:
            options[due.seat] = (options[due.seat] or 1) * len(due.candidates)
        required = [s for s in seats if options[s] >= 2]
    elif phase is Phase.REORGANIZE:
        assert view.table is not None
        owners = {p.seat for p in view.table.revolution_plays()}
        required = [s for s in seats if view.hand_sizes[s] or s in owners]
    else:
        required = []
    return frozenset(required) - view.chosen


class _Spectator:
    """Rebuilds the spectator view event by event, checking each event against the rules."""

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        self.players = config.players
        self.view = _opening_view(config)
        self.index = 0
        self.events: tuple[Event, ...] = ()
        self.at = 0
        # Where a face-up card went face down, as far as the public knows (rule 6.4, ruling K): cards in the
        # discard pile until it is shuffled into the draw pile, and taken-back cards, which stay with their
        # seat until it could have discarded them (a later re-organize) and that pile was shuffled.
        self.in_discard_pile: set[HandCard] = set()
        self.taken: dict[HandCard, tuple[int, bool]] = {}

    # -- reading a step's events

    def fail(self, rule: str, reason: str) -> PublicRecordError:
        return PublicRecordError(self.index, rule, reason)

    def take(self, kind: type, rule: str) -> Event:
        """The step's next event, which must be a ``kind``."""
        if self.at >= len(self.events):
            raise self.fail(rule, f"the step ends where the rules next reveal {kind.__name__}")
        event = self.events[self.at]
        if type(event) is not kind:
            raise self.fail(rule, f"{type(event).__name__} comes where the rules next reveal {kind.__name__}")
        self.at += 1
        return event

    def same(self, given: Event, expected: Event, rule: str) -> None:
        """``given`` must be ``expected``; the error names the first field that differs."""
        if given != expected:
            names = [f.name for f in attrs.fields(type(given))]
            field = next(n for n in names if getattr(given, n) != getattr(expected, n))
            shown, wanted = getattr(given, field), getattr(expected, field)
            raise self.fail(rule, f"{type(given).__name__}.{field} is {shown!r}, not {wanted!r}")

    def evolve(self, **changes: Any) -> None:
        self.view = attrs.evolve(self.view, **changes)

    def counts(self, values: tuple[T, ...], name: str) -> tuple[T, ...]:
        """``values``, which must have one entry per seat (a loaded record has the right types, not lengths)."""
        if len(values) != self.players:
            raise self.fail("9.4", f"{name} has one entry per seat")
        return values

    # -- one step

    def step(self, index: int, events: tuple[Event, ...]) -> None:
        self.index, self.events, self.at = index, events, 0
        view = self.view
        made = self.take(ChoiceMade, "9.2")
        assert isinstance(made, ChoiceMade)
        if view.verdict is not None:
            raise self.fail("9.1", "the game is over: nobody chooses")
        if made.phase is not view.phase:
            raise self.fail("9.1", f"seat {made.seat} chose for {made.phase.value} in the {view.phase.value} phase")
        if made.seat not in view.awaited:
            raise self.fail("9.2", f"seat {made.seat} is not awaited (awaited: {sorted(view.awaited)})")
        self.evolve(chosen=view.chosen | {made.seat}, awaited=view.awaited - {made.seat})
        while not self.view.awaited and self.view.verdict is None:
            self.resolve()  # the last awaited seat chose, or the next step is automatic (ruling N)
        if self.at != len(events):
            extra = type(events[self.at]).__name__
            raise self.fail("9.2", f"{extra} comes after the step is over; the rules await {sorted(self.view.awaited)}")

    def settle(self, **changes: Any) -> None:
        """Enter a new decision step: nobody has chosen yet."""
        self.evolve(chosen=frozenset(), **changes)
        self.evolve(awaited=_awaited(self.view))

    def resolve(self) -> None:
        phase = self.view.phase
        if phase is Phase.DRAFT_PASS:
            self.passed()
        elif phase is Phase.DRAFT_DISCARD:
            self.discarded()
            self.month_started(1)
        elif phase is Phase.CHOOSE_SUPPORT:
            self.week_started()
        elif phase in PLAY_PHASES:
            self.plays(phase.step)
        elif phase is Phase.PLACEMENT:
            self.placed()
        else:
            assert phase is Phase.REORGANIZE
            self.reorganized()

    # -- draft and month start

    def passed(self) -> None:
        for seat in range(self.players):
            self.same(self.take(CardsPassed, "2.5"), CardsPassed(seat, (seat + 1) % self.players, None), "2.5")
        self.settle(phase=Phase.DRAFT_DISCARD)

    def discarded(self) -> None:
        for seat in range(self.players):
            self.same(self.take(DraftDiscarded, "2.6"), DraftDiscarded(seat, 2, None), "2.6")
        v = self.view
        self.evolve(
            hand_sizes=tuple(n - 2 for n in v.hand_sizes), discard_pile_size=v.discard_pile_size + 2 * self.players
        )

    def month_started(self, month: int) -> None:
        scored = len(self.view.score_track.emperor_cards)
        expected = MonthStarted(month, WEEKS, min(WEEKS, len(EMPEROR_CARDS) - scored))
        self.same(self.take(MonthStarted, "3.3"), expected, "R-J")
        self.settle(
            phase=Phase.CHOOSE_SUPPORT,
            month=month,
            week=0,
            revolution_pile_size=expected.revolution_pile_size,
            emperor_pile_size=expected.emperor_pile_size,
        )

    # -- weeks

    def week_started(self) -> None:
        v = self.view
        started = self.take(WeekStarted, "4.1")
        assert isinstance(started, WeekStarted)
        week = v.week + 1
        if (started.month, started.week) != (v.month, week):
            shown = f"week {started.week} of month {started.month}"
            raise self.fail("3.1", f"{shown} starts where week {week} of month {v.month} does")
        earlier = [r.table for r in v.history if r.month == v.month]
        if started.revolution_card in [t.revolution_card for t in earlier]:
            name = started.revolution_card.faction.name
            raise self.fail("3.3", f"the {name} revolution card came up earlier this month")
        card = started.emperor_card
        if (card is None) != (v.emperor_pile_size == 0):
            raise self.fail("R-J", f"the emperor pile holds {v.emperor_pile_size} cards, and the week shows {card!r}")
        seen = [s.card for s in v.score_track.emperor_cards] + [t.emperor_card for t in earlier]
        if card is not None and card in seen:
            raise self.fail("R-J", f"emperor card {card.id} is scored or came up earlier this month")
        add_on = self.config.add_on if card is not None else None
        if started.add_on != add_on:
            raise self.fail("2.2", f"the add-on card this week is {add_on!r}, not {started.add_on!r}")
        # Each card is drawn among this month's cards not revealed yet (rule 3.3).
        draws = [Draw(f"revolution m{v.month}w{week}", len(REVOLUTION_CARDS) - len(earlier))]
        if card is not None:
            draws.append(Draw(f"emperor m{v.month}w{week}", len(EMPEROR_CARDS) - len(set(seen) - {None})))
        self.same(started, attrs.evolve(started, draws=tuple(draws)), "3.3")
        self.settle(
            phase=Phase.PLAY_1,
            week=week,
            table=WeekTable(self.players, started.revolution_card, card, add_on),
            revolution_pile_size=v.revolution_pile_size - 1,
            emperor_pile_size=max(0, v.emperor_pile_size - 1),
        )

    def plays(self, step: int) -> None:
        v = self.view
        table = v.table
        assert table is not None
        revealed = self.take(PlaysRevealed, "4.2")
        assert isinstance(revealed, PlaysRevealed)
        if (revealed.month, revealed.week, revealed.step) != (v.month, v.week, step):
            shown = f"play step {revealed.step} of week {revealed.week}, month {revealed.month}"
            raise self.fail("4.2", f"{shown} is revealed at step {step} of week {v.week}, month {v.month}")
        seats = [p.seat for p in revealed.plays]
        if seats != sorted(set(seats)) or revealed.idle != frozenset(range(self.players)) - set(seats):
            raise self.fail("R-H", "every seat reveals one card or plays nothing, in seat order")
        hands = list(v.hand_sizes)
        plays = list(table.plays)
        public = {c for c in table.cards()} | {s.card for s in v.score_track.faction_cards}
        self.check_idle(table, step, revealed.idle)
        restricted = table.reinforcements_only(v.hand_sizes)
        for play in revealed.plays:
            if not 0 <= play.seat < self.players or not hands[play.seat]:
                raise self.fail("R-H", f"seat {play.seat} holds no card to play")
            card = play.action.card
            if play.seat in restricted and isinstance(play.action, PlayCard):
                reason = "played nothing earlier this week while holding cards, so it holds reinforcement cards only"
                raise self.fail("R-H", f"seat {play.seat} {reason}, and cannot play faction card {card.id}")
            if card in public:
                raise self.fail("1.2", f"card {card.id} is already face up on the table or the score track")
            self.check_whereabouts(play.seat, card)
            public.add(card)
            plays = self.played(table, plays, play.seat, play.action, step)
            hands[play.seat] -= 1
        table = WeekTable(
            self.players, table.revolution_card, table.emperor_card, table.add_on, tuple(plays),
            table.idle | {(step, s) for s in revealed.idle}, step,
        )  # fmt: skip
        self.check_reinforcements_left(table, hands)
        self.evolve(hand_sizes=tuple(hands), table=table)
        if step < STEPS:
            self.settle(phase=PLAY_PHASES[step])
        else:
            self.week_scored()

    def check_idle(self, table: WeekTable, step: int, idle: frozenset[int]) -> None:
        """Each seat idle at play ``step`` while holding cards had nothing playable (ruling H).

        A faction card is always playable, so such a seat holds reinforcement cards only, and from the
        second step on, one of them is playable unless ``table`` (before this step's reveal) holds no card
        it may reinforce.
        """
        for seat in sorted(idle):
            targets = table.reinforcement_targets(seat, step) if self.view.hand_sizes[seat] else ()
            if targets:
                held = f"seat {seat} holds {self.view.hand_sizes[seat]} cards and plays nothing at play step {step}"
                why = f"any faction card is playable, and a reinforcement card may go on card {targets[0].card.id}"
                raise self.fail("R-H", f"{held}, but {why}")

    def check_reinforcements_left(self, table: WeekTable, hands: list[int]) -> None:
        """The seats that hold reinforcement cards only cannot hold more of them than there are left (ruling H).

        What is publicly certain bounds the reinforcement cards in all hands together: every one, less those
        face up on the table now and those known to lie in the discard pile. Cards seen earlier and reshuffled
        into the draw pile since may be in a hand again.
        """
        restricted = table.reinforcements_only(hands)
        held = sum(hands[s] for s in restricted)
        if not held:
            return
        seen = {c for c in table.cards() if c.is_reinforcement}
        seen |= {c for c in self.in_discard_pile if c.is_reinforcement}
        left = len(REINFORCEMENT_CARDS) - len(seen)
        if held > left:
            seats = ("seat " if len(restricted) == 1 else "seats ") + ", ".join(str(s) for s in sorted(restricted))
            shown = f"{seats} played nothing while holding cards, so their {held} hand cards are reinforcements"
            where = "face up on the table or in the discard pile"
            raise self.fail("R-H", f"{shown}, but only {left} of the {len(REINFORCEMENT_CARDS)} are not {where}")

    def check_whereabouts(self, seat: int, card: HandCard) -> None:
        """``card`` may be in ``seat``'s hand, for all the public knows of where it went face down."""
        if card in self.in_discard_pile:
            raise self.fail("6.4", f"card {card.id} lies in the discard pile, not shuffled into the draw pile since")
        owner = self.taken.pop(card, (seat, False))[0]
        if owner != seat:
            raise self.fail("6.2", f"card {card.id} went back to seat {owner}'s hand and cannot have left it since")

    def played(
        self, table: WeekTable, plays: list[Play], seat: int, action: PlayCard | Reinforce, step: int
    ) -> list[Play]:
        """``plays`` with ``seat``'s revealed ``action``, checked against rules 4.3-4.6 and ruling G."""
        traitor_allowed = table.emperor_card is not None and not table.has_traitor_play(seat)
        if isinstance(action, PlayCard):
            if action.card.faction is None:
                raise self.fail("4.3", f"card {action.card.id} is a reinforcement card, played as a faction card")
            if action.side is Side.EMPEROR and not traitor_allowed:
                rule = "4.5" if table.emperor_card is None else "4.4"
                raise self.fail(rule, f"seat {seat} may not play a traitor card now")
            return [*plays, Play(seat, action.card, action.side, step)]
        if action.card.faction is not None or step == 1:
            raise self.fail("4.6", f"card {action.card.id} is not a reinforcement card played after the first step")
        at = next((i for i, p in enumerate(plays) if p.card == action.target and p.step < step), None)
        if at is None:
            raise self.fail("R-G", f"card {action.target.id} was not played at an earlier step this week")
        target = plays[at]
        if target.side is Side.EMPEROR and not traitor_allowed:
            raise self.fail("R-G", f"seat {seat} may not reinforce a traitor card: it made its traitor play")
        added = Reinforcement(action.card, seat, step)
        reinforced = attrs.evolve(target, reinforcements=(*target.reinforcements, added))
        return [*plays[:at], reinforced, *plays[at + 1 :]]

    def week_scored(self) -> None:
        v = self.view
        table = v.table
        assert table is not None
        score = score_table(table)
        given = self.take(StrengthsRevealed, "5.1")
        expected = StrengthsRevealed(
            v.month, v.week, score.strengths, score.emperor_strength, score.strongest, score.support
        )
        self.same(given, expected, "5.1")
        tokens = tuple(t + w for t, w in zip(v.month_tokens, score.tokens, strict=True))
        awarded = TokensAwarded(v.month, v.week, score.awards, score.tokens, tokens)
        self.same(self.take(TokensAwarded, "5.4"), awarded, "5.4")
        track, after = v.score_track, table
        if score.emperor_scored:
            assert table.emperor_card is not None
            emperor = (*track.emperor_cards, ScoredEmperorCard(table.emperor_card, v.month, v.week))
            track = ScoreTrack(track.faction_cards, emperor)
            scored = EmperorCardScored(v.month, v.week, table.emperor_card, track.emperor_total)
            self.same(self.take(EmperorCardScored, "5.7"), scored, "5.7")
            after = attrs.evolve(table, emperor_card=None, add_on=None)
        if score.placements:
            self.same(self.take(PlacementsDue, "5.5"), PlacementsDue(v.month, v.week, score.placements), "5.5")
        record = WeekRecord(v.month, v.week, table, score, ())
        self.evolve(month_tokens=tokens, score_track=track, table=after, week_score=score, history=(*v.history, record))
        if score.placements:
            self.settle(phase=Phase.PLACEMENT)
        else:
            self.week_ended()

    def placed(self) -> None:
        v = self.view
        assert v.table is not None and v.week_score is not None
        given = self.take(CardsPlaced, "5.5")
        assert isinstance(given, CardsPlaced)
        if any(not 0 <= s.seat < self.players for s in given.placed):
            raise self.fail("9.1", "a card is placed by a seat that is not in the game")
        for seat in range(self.players):
            dues = {d.faction: d for d in v.week_score.placements if d.seat == seat}
            cards = [s.card for s in given.placed if s.seat == seat]
            factions = [c.faction for c in cards]
            if len(cards) != len(dues) or set(factions) != set(dues):
                raise self.fail("R-E", f"seat {seat} places one card of each faction it must place")
            if any(c not in dues[f].candidates for c, f in zip(cards, factions, strict=True) if f is not None):
                raise self.fail("R-E", f"seat {seat} places a card that is not its own revolution-side card")
        placed = tuple(ScoredCard(s.card, s.seat, v.month, v.week) for s in given.placed)
        placed = tuple(sorted(placed, key=lambda s: (s.seat, s.card.id)))
        track = ScoreTrack(v.score_track.faction_cards + placed, v.score_track.emperor_cards)
        self.same(given, CardsPlaced(v.month, v.week, placed, track.card_points()), "5.5")
        gone = {s.card for s in placed}
        freed = [r.card for p in v.table.plays if p.card in gone for r in p.reinforcements]  # ruling S
        self.in_discard_pile.update(freed)
        last = attrs.evolve(v.history[-1], placed=placed)
        self.evolve(
            table=attrs.evolve(v.table, plays=tuple(p for p in v.table.plays if p.card not in gone)),
            discard_pile_size=v.discard_pile_size + len(freed),
            score_track=track,
            history=(*v.history[:-1], last),
        )
        self.week_ended()

    def week_ended(self) -> None:
        if (self.view.month, self.view.week) == (MONTHS, WEEKS):
            self.month_scored()  # no re-organize after the game's last week (ruling O)
        else:
            self.settle(phase=Phase.REORGANIZE)

    # -- re-organize

    def reorganized(self) -> None:
        v = self.view
        table = v.table
        assert table is not None
        given = self.take(Reorganized, "6.2")
        assert isinstance(given, Reorganized)
        take_backs = self.counts(given.take_backs, "Reorganized.take_backs")
        discarded = self.counts(given.discarded, "Reorganized.discarded")
        hands = list(v.hand_sizes)
        for seat, card in enumerate(take_backs):
            play = table.play_of(card) if card is not None else None
            if card is not None and (play is None or play.seat != seat or play.is_traitor):
                raise self.fail("R-K", f"seat {seat} takes back only one of its own revolution-side cards on the table")
            if not 0 <= discarded[seat] <= hands[seat]:
                raise self.fail("6.3", f"seat {seat} discards {discarded[seat]} of its {hands[seat]} hand cards")
            hands[seat] += (card is not None) - discarded[seat]
        on_table = sum(1 for _ in table.cards()) - sum(c is not None for c in take_backs)
        draw, pile = v.draw_pile_size, v.discard_pile_size + on_table + sum(discarded)
        drawn, draws = [], []
        for seat in range(self.players):
            need, got = HAND_SIZE - hands[seat], 0
            while need > 0 and (draw or pile):
                if not draw:
                    draw, pile = pile, 0  # the discard pile becomes the draw pile (rule 6.4, ruling R)
                draws.append(Draw(f"refill m{v.month}w{v.week} seat {seat} #{got}", draw))  # one card at a time
                draw, need, got = draw - 1, need - 1, got + 1
            drawn.append(got)
            hands[seat] += got
        reshuffled = sum(drawn) > v.draw_pile_size
        expected = Reorganized(v.month, v.week, take_backs, discarded, tuple(drawn), reshuffled, tuple(draws))
        self.same(given, expected, "6.4")
        self.evolve(hand_sizes=tuple(hands), draw_pile_size=draw, discard_pile_size=pile, week_score=None)
        self.track_discards(table, take_backs, expected.reshuffled)
        if v.week == WEEKS:
            self.evolve(table=None)
            self.month_scored()
        else:
            self.week_started()

    def track_discards(self, table: WeekTable, take_backs: tuple[HandCard | None, ...], reshuffled: bool) -> None:
        """Update what the public knows of where the table's cards went at this re-organize."""
        # Every earlier take-back could have been discarded now (not this one's: ruling Q).
        taken = {card: (seat, True) for card, (seat, _) in self.taken.items()}
        if reshuffled:  # the whole discard pile went into the draw pile
            self.in_discard_pile.clear()
            taken = {}
        else:
            self.in_discard_pile.update(c for c in table.cards() if c not in take_backs)
        taken.update((card, (seat, False)) for seat, card in enumerate(take_backs) if card is not None)
        self.taken = taken

    # -- monthly and final scoring

    def month_scored(self) -> None:
        v = self.view
        given = self.take(MonthScored, "7.1")
        assert isinstance(given, MonthScored)
        support = self.counts(given.score.support, "MonthScored.score.support")
        for seat, faction in enumerate(support):
            if faction in v.support_used[seat]:
                raise self.fail("3.2", f"seat {seat} used its {faction_name(faction)} support card in an earlier month")
        score = score_month_tally(v.score_track.placed_in_month(v.month), v.month_tokens, support, month=v.month)
        banked = tuple(b + t + x for b, t, x in zip(v.banked_tokens, v.month_tokens, score.bonus, strict=True))
        self.same(given, MonthScored(score, banked), "7.2")
        self.evolve(
            banked_tokens=banked,
            month_tokens=(0,) * self.players,
            support_used=tuple(used | {f} for used, f in zip(v.support_used, support, strict=True)),
            month_scores=(*v.month_scores, score),
        )
        if v.month < MONTHS:
            self.month_started(v.month + 1)
        else:
            self.game_over()

    def game_over(self) -> None:
        v = self.view
        given = self.take(GameOver, "8.1")
        assert isinstance(given, GameOver)
        victors = self.counts(given.verdict.victors, "Verdict.victors")
        if len(set(victors)) != self.players:
            raise self.fail("2.3", "each seat holds a victor card of its own")
        track = v.score_track
        verdict = final_verdict(track.card_points(), track.emperor_total, v.banked_tokens, victors)
        self.same(given, GameOver(verdict), "8.1")
        self.settle(phase=Phase.GAME_OVER, verdict=verdict)

