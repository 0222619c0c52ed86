"""One match: the authoritative state, its log of events, and what each connection is sent.

A :class:`Match` is the only holder of its game's :class:`~darkempire.rules.state.GameState`. It is made from
its stored settings by dealing from the seed (:meth:`Match.replay` then re-applies the stored choices: the
engine is deterministic, rule 9.3), and it changes only through :meth:`Match.accept`, which asks the rules,
writes the choice to storage, and only then tells every connection (an :class:`Outbox`) what it may see:

* the seat that chose gets an ``ack``, then, like every other connection, an ``update`` with the events of
  the choice as its seat may see them (:func:`~darkempire.rules.events.events_for`) and its new prompt;
* a spectator gets the public events and the spectator view, never a legal action.

Bot seats are played here, on the server (:meth:`Match.play_bots`), each choice written before it is told.
Every method runs to its end without awaiting, so in one event loop no two choices interleave.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import attrs

from darkempire.bots import make_bot
from darkempire.public_record import PublicRecord, PublicStep
from darkempire.rules import engine
from darkempire.rules.actions import Action, Reinforce
from darkempire.rules.cards import Theme
from darkempire.rules.events import Event, events_for, opening_events
from darkempire.rules.state import GameConfig, GameState
from darkempire.rules.table import Play
from darkempire.rules.views import PlayerView, player_view, spectator_view
from darkempire.serialization import load_action, to_data, to_json
from darkempire.server.protocol import (
    Frame,
    ack_message,
    message_text,
    spliced_text,
    timeout_message,
    update_message,
    welcome_message,
)
from darkempire.server.refusals import BadRequestError, ChoiceConflictError, MatchOverError
from darkempire.server.storage import SeatHolder, Storage, StoredChoice, StoredMatch
from darkempire.text import action_label
from darkempire.wire.prompts import Prompt

__all__ = ["Dealer", "Match", "Outbox"]

#: How a match's opening state is made from its config and seed: :func:`darkempire.rules.engine.deal`,
#: unless a test gives twin deals.
Dealer = Callable[[GameConfig, int], GameState]

#: How many times a choice is judged again after another server process wrote first.
_RETRIES = 3

#: A label's key: its action, the theme, the seat offered it and the number of players, and for a
#: reinforcement the seat that owns its target and whether that is a traitor card (:func:`_label`).
_LabelKey = tuple[Action, str, int, int, tuple[int, bool] | None]
#: The action labels made so far, in every match of this process (:func:`_label`)...
_LABELS: dict[_LabelKey, str] = {}
#: ... up to this many: then they are forgotten, and made again as they are asked for. Not more, as the actions
#: of the keys are objects the garbage collector walks through at each full collection: in the load test's 200
#: matches (``benchmarks/server_load.py``), 4096 make 30,000 labels, an unbounded store 22,000 (holding as many
#: actions) and a memo per match and decision 73,000.
_MOST_LABELS = 4096


def _label(action: Action, theme: Theme, view: PlayerView) -> str:
    """:func:`~darkempire.text.action_label` of ``action`` for the seat of ``view``, made once per process.

    A label names the cards of its action in the theme; of the view it reads only the seat and the number of
    players (a pass names the seat it goes to) and, for a reinforcement, whose card its target is on the table
    and whether that is a traitor card. Those are its key, so the label of a key is the same in every match and
    at every step: a seat is offered the same actions again while the others choose (each label was made once
    per decision, the biggest cost of a choice), and the same plays in the next step, as other seats are.
    """
    owner = None
    if isinstance(action, Reinforce) and view.table is not None:
        play: Play | None = view.table.play_of(action.target)
        owner = None if play is None else (play.seat, play.is_traitor)
    assert view.seat is not None
    key = (action, theme.value, view.seat, view.players, owner)  # an Enum's hash is a Python call: its value's is not
    label = _LABELS.get(key)
    if label is None:
        if len(_LABELS) >= _MOST_LABELS:
            _LABELS.clear()
        label = _LABELS[key] = action_label(action, theme, view)
    return label


class Outbox(Protocol):
    """A connection's queue of messages to send, for one seat or a spectator (``seat is None``)."""

    @property
    def seat(self) -> int | None:
        """The seat this connection plays, or ``None`` for a spectator."""

    def put(self, message: dict[str, Any]) -> None:
        """Queue ``message`` to be sent, without waiting."""


class Match:
    """The authoritative state of one match and the connections watching it.

    :ivar stored: the match's settings.
    :ivar state: the game now.
    :ivar holders: the held human seats.
    """

    def __init__(self, stored: StoredMatch, dealer: Dealer = engine.deal) -> None:
        self.stored = stored
        self.state: GameState = dealer(GameConfig(players=stored.players), stored.seed)
        self._steps: list[tuple[Event, ...]] = [opening_events(self.state)]
        self.holders: dict[int, SeatHolder] = {}
        self._outboxes: list[Outbox] = []
        self._theme = Theme(stored.theme)
        #: The finished weeks of the views: the last ones seen, their message data and its JSON text.
        self._history: tuple[object, list[Any], str] = (None, [], "[]")
        #: What each seat (``None``: the spectators) is shown at ``seq`` ``_shown_at``: its view and legal
        #: actions, its prompt, as data and as JSON text. Kept until they are sent (see :meth:`_broadcast`).
        self._shown_at = -1
        self._prompts: dict[int | None, Prompt] = {}
        self._views: dict[int, tuple[PlayerView, Sequence[Action]]] = {}
        self._data: dict[int | None, dict[str, Any]] = {}
        self._texts: dict[int | None, str] = {}

    @property
    def seq(self) -> int:
        """The number of accepted choices (0 right after the deal)."""
        return len(self._steps) - 1

    @property
    def is_over(self) -> bool:
        """Whether the game has its verdict."""
        return self.state.is_over

    def bot_seats(self) -> frozenset[int]:
        """The seats bots play."""
        return frozenset(seat for seat, kind in enumerate(self.stored.bots) if kind is not None)

    # ------------------------------------------------------------------ rebuilding

    def replay(self, choices: Sequence[StoredChoice]) -> None:
        """Apply stored choices (the next ones, in order) without telling anyone: rebuilding after a restart."""
        for stored in choices:
            if stored.index != self.seq:
                raise ChoiceConflictError(f"stored choice {stored.index} of match {self.stored.match_id} is out of order")
            action = load_action(stored.action)
            self._record(stored.seat, action, engine.apply_reporting(self.state, stored.seat, action))

    def catch_up(self, storage: Storage) -> None:
        """Apply the choices another server process stored since, telling every connection."""
        for stored in storage.choices(self.stored.match_id, self.seq):
            self.replay([stored])
            self._broadcast()

    def _record(self, seat: int, action: Action, transition: engine.Transition) -> None:
        self._steps.append(transition.events)
        self.state = transition.state

    # ------------------------------------------------------------------ moves

    def accept(
        self, seat: int, action: Action, storage: Storage, sender: Outbox | None = None, *, judge_again: bool = True
    ) -> int:
        """Judge ``seat``'s ``action``, write it to storage, then tell every connection; return its ``seq``.

        When another server process stored a choice first, the match catches up with it and, if
        ``judge_again``, judges the action again against the new state (a bot decides anew instead).

        :raises IllegalActionError: the rules refuse it (naming the rule); nothing changed.
        :raises ChoiceConflictError: another process stored first, and not ``judge_again`` (the match caught up).
        :raises MatchOverError: the match is finished.
        :raises StorageError: it could not be written; nothing changed.
        """
        for _ in range(_RETRIES):
            if self.is_over:
                raise MatchOverError("the match is over")
            transition = engine.apply_reporting(self.state, seat, action)
            try:
                storage.append_choice(self.stored.match_id, StoredChoice(self.seq, seat, to_json(action)))
            except ChoiceConflictError:
                self.catch_up(storage)  # another process wrote first: judge again from its state
                if not judge_again:
                    raise
                continue
            self._record(seat, action, transition)
            if sender is not None:
                sender.put(ack_message(self.seq))
            self._broadcast()
            return self.seq
        raise ChoiceConflictError("the match changed under this move too often; send it again")

    def play_bots(self, storage: Storage, most: int | None = None) -> bool:
        """Let the bots choose, one awaited bot seat at a time, until no bot seat is awaited, or ``most``
        choices were tried; return whether a bot seat is still awaited."""
        bots = self.bot_seats()
        tried = 0
        while not self.is_over:
            if most is not None and tried >= most:
                return bool(engine.awaited_seats(self.state) & bots)
            tried += 1
            waiting = sorted(engine.awaited_seats(self.state) & bots)
            if not waiting:
                return False
            seat = waiting[0]
            kind = self.stored.bots[seat]
            assert kind is not None
            bot = make_bot(kind, self._bot_seed(seat))
            action = bot.choose(*self._seat_view(seat))
            try:
                self.accept(seat, action, storage, judge_again=False)
            except ChoiceConflictError:
                continue  # another process moved first (perhaps this very bot): look again at who is awaited
        return False

    def decision(self) -> tuple[int, int, str]:
        """What the match waits for now, the same until the step moves on: its month, week and phase."""
        return self.state.month, self.state.week, self.state.phase.value

    def awaited_humans(self) -> frozenset[int]:
        """The human seats the match waits for."""
        return engine.awaited_seats(self.state) - self.bot_seats()

    def choose_for(self, seat: int, storage: Storage) -> None:
        """``seat`` let its time run out: a greedy bot makes its choice, and every connection is told."""
        bot = make_bot("greedy", self._bot_seed(seat))
        seq = self.accept(seat, bot.choose(*self._seat_view(seat)), storage)
        for outbox in list(self._outboxes):
            outbox.put(timeout_message(seat, seq))

    def _bot_seed(self, seat: int) -> int:
        """A bot's seed for its next choice: from the match's seed and the choice's position, so that a bot
        chooses the same after a restart (a bot keeps no state between choices here)."""
        text = f"{self.stored.seed}:{seat}:{self.seq}".encode()
        return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")

    # ------------------------------------------------------------------ what each connection sees

    def prompt(self, seat: int | None) -> Prompt:
        """What ``seat`` (``None``: a spectator) is shown now: its view, its legal actions and their labels.

        Built once per seat for the choice's updates, however many connections ask: the view and the legal
        actions come from the engine, so the prompt is made with its labels rather than type-checking the whole
        view again (what :class:`~darkempire.wire.prompts.Prompt` does when it makes them itself).
        """
        self._fresh()
        if seat not in self._prompts:
            if seat is None:
                self._prompts[seat] = Prompt(spectator_view(self.state), (), self._theme, labels=())
            else:
                view, listing = self._seat_view(seat)
                actions = tuple(listing)
                labels = tuple(_label(action, self._theme, view) for action in actions)
                self._prompts[seat] = Prompt(view, actions, self._theme, labels=labels)
        return self._prompts[seat]

    @property
    def theme(self) -> Theme:
        """The match's theme: its prompts' names and labels are in it (they were Steam Noir's for every match)."""
        return self._theme

    def _seat_view(self, seat: int) -> tuple[PlayerView, Sequence[Action]]:
        """``seat``'s view and legal actions now, built once for its bot or its prompt (the engine's listing,
        whose actions a bot that looks at one only does not all build)."""
        self._fresh()
        if seat not in self._views:
            self._views[seat] = (player_view(self.state, seat), engine.legal_actions(self.state, seat))
        return self._views[seat]

    def _fresh(self) -> None:
        """Forget what was shown at an earlier ``seq``."""
        if self._shown_at != self.seq:
            self._shown_at = self.seq
            self._prompts.clear()
            self._views.clear()
            self._data.clear()
            self._texts.clear()

    def events(self, seq: int, seat: int | None) -> tuple[Event, ...]:
        """The events of choice ``seq`` (0: the deal) as ``seat`` may see them."""
        return events_for(self._steps[seq], seat)

    def subscribe(self, outbox: Outbox, since: int | None) -> None:
        """Send ``outbox`` its welcome (the events after ``since``, every one when ``None``), then every update.

        :raises BadRequestError: ``since`` is ahead of the match.
        """
        if since is not None and since > self.seq:
            raise BadRequestError(f"since: the match is at seq {self.seq}, not {since}")
        start = 0 if since is None else since + 1
        missed = [(k, self.events(k, outbox.seat)) for k in range(start, self.seq + 1)]
        welcome = welcome_message(outbox.seat, self.seq, missed, self.prompt_data(outbox.seat))
        outbox.put(Frame.encoded(welcome, spliced_text(welcome, "prompt", self._prompt_text(outbox.seat))))
        self._outboxes.append(outbox)

    def unsubscribe(self, outbox: Outbox) -> None:
        """Stop sending to ``outbox``."""
        if outbox in self._outboxes:
            self._outboxes.remove(outbox)

    def release(self, seat: int) -> list[Outbox]:
        """Stop sending to the connections of ``seat`` (its player left it); return them, for the server to
        close: what a seat is sent from now on is the next holder's to see."""
        lost = [outbox for outbox in self._outboxes if outbox.seat == seat]
        self._outboxes = [outbox for outbox in self._outboxes if outbox.seat != seat]
        return lost

    def _broadcast(self) -> None:
        """Send every connection its seat's :meth:`update`, made once per seat.

        Then forget the views, prompts and their data: the connections' queues hold their text, and the next
        choice of this match may be seconds away, long enough for the garbage collector to move them, a few
        hundred objects a choice, to its oldest generation, whose growth is what sets off a full collection (a
        pause of the whole server, longer as more matches are kept). The texts stay, for a connection that
        comes in before the next choice; a bot makes its view anew.
        """
        updates: dict[int | None, Frame] = {}
        for outbox in list(self._outboxes):
            if outbox.seat not in updates:
                updates[outbox.seat] = self.update(outbox.seat)
            outbox.put(updates[outbox.seat])
        self._views.clear()
        self._prompts.clear()
        self._data.clear()

    def update(self, seat: int | None) -> Frame:
        """The ``update`` message of the last choice as ``seat`` (``None``: a spectator) sees it, made from that
        seat's events and prompt alone (its text from the seat's prompt text, made once per choice)."""
        message = update_message(self.seq, self.events(self.seq, seat), self.prompt_data(seat))
        return Frame.encoded(message, spliced_text(message, "prompt", self._prompt_text(seat)))

    def prompt_data(self, seat: int | None) -> dict[str, Any]:
        """:meth:`prompt` as a ``"prompt"`` message's data, encoded once per seat for the choice's updates (do
        not change it: it is shared). The finished weeks, the same in every view and the bulk of a late one,
        are encoded once per week rather than once per seat and choice."""
        self._fresh()
        if seat not in self._data:
            self._data[seat] = self._encode(self.prompt(seat))
        return self._data[seat]

    def _encode(self, prompt: Prompt) -> dict[str, Any]:
        history = prompt.view.history
        if self._history[0] is not history:
            data = to_data(prompt)
            weeks = data["view"]["history"]
            self._history = (history, weeks, message_text(weeks))
            return data
        data = to_data(attrs.evolve(prompt, view=attrs.evolve(prompt.view, history=())))
        data["view"]["history"] = self._history[1]
        return data

    def _prompt_text(self, seat: int | None) -> str:
        """:meth:`prompt_data` as JSON text, made once per seat and choice. The finished weeks, most of a late
        view's text, are encoded once per week and spliced in (:func:`~darkempire.server.protocol.spliced_text`)."""
        self._fresh()
        if seat not in self._texts:
            data = self.prompt_data(seat)
            weeks = data["view"]["history"]
            weeks_text = self._history[2] if weeks is self._history[1] else message_text(weeks)
            self._texts[seat] = spliced_text(data, "view", spliced_text(data["view"], "history", weeks_text))
        return self._texts[seat]

    def public_record(self) -> PublicRecord:
        """What a spectator saw of the match so far: the public record (no seed, nothing hidden)."""
        steps = tuple(PublicStep(events_for(events, None)) for events in self._steps[1:])
        return PublicRecord(self.state.config, steps, self.state.verdict, theme=self.theme)
