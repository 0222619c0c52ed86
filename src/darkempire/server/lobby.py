"""The lobby: create matches, list the open ones, join and leave seats, and find a match to play or watch.

The lobby's requests and answers are JSON objects (the HTTP routes of :mod:`darkempire.server.asgi` pass
them through). A request is checked field by field; a bad one raises
:class:`~darkempire.server.refusals.BadRequestError` naming the field, and changes nothing.

* create: ``{"players": 3-5, "theme": "steam-noir" | "dark-empire", "bots": [null | "greedy" | "random", ...],
  "time_limit": null | seconds}`` (one bot entry per seat, ``null`` for a human seat; default: every seat
  human). With a ``time_limit`` (0.1 to 86400 seconds), a human seat that lets it run out on a decision has its
  choice made by a greedy bot, and every connection is told (a ``"timeout"`` message); the clock starts again
  for each decision, and after a restart. The seed is drawn by the
  server with :mod:`secrets`: a seed chosen by a client would tell it every hand.
* join: ``{"seat": k | null, "name": "..."}`` (``null``: the first free human seat; a name of at most 40
  characters, none of them a control, format or lone surrogate character) answers
  ``{"seat": k, "credential": "..."}``: the credential is shown once, and stored only as its hash.
* leave: ``{"seat": k, "credential": "..."}`` frees the seat.

A match's summary (:meth:`Lobby.summary`) is public: its seats, who holds them, its ``seq``, whether it is
over. Never its seed, never a credential.
"""

from __future__ import annotations

import functools
import logging
import secrets
import time
import unicodedata
from collections.abc import Callable
from typing import Any, Final, Protocol

from darkempire.rules import engine
from darkempire.rules.cards import Theme
from darkempire.server.credentials import credential_hash, credential_matches, new_credential
from darkempire.server.match import Dealer, Match, Outbox
from darkempire.server.refusals import (
    BadRequestError,
    CredentialError,
    MatchOverError,
    NoFreeSeatError,
    SeatTakenError,
    UnknownMatchError,
)
from darkempire.server.storage import FanOut, SeatHolder, Storage, StoredMatch
from tablekit.wire import quote

__all__ = [
    "BOT_STEP", "LISTINGS", "MAX_NAME", "MAX_TIME_LIMIT", "MIN_TIME_LIMIT", "SERVER_BOTS", "Lobby", "Scheduler", "Timer",
    "random_seed",
]  # fmt: skip

#: The longest player name, in characters.
MAX_NAME: Final = 40
#: The shortest time limit per decision, in seconds...
MIN_TIME_LIMIT: Final = 0.1
#: ... and the longest (a day).
MAX_TIME_LIMIT: Final = 86400.0
#: The bot kinds a match may seat (of :data:`darkempire.bots.BOT_KINDS`): those that decide in well under a
#: millisecond. The server plays bots on the event loop that serves every match, so the search bot, at 10-50 ms
#: of CPU a decision, would hold them all; it plays at the terminal and in simulations instead.
SERVER_BOTS: Final[tuple[str, ...]] = ("greedy", "random")

#: The choices a bots-only match makes per turn of the event loop (:meth:`Lobby.moved`).
BOT_STEP: Final = 4
#: The lobby listing's ``status`` filters (:meth:`Lobby.listing`).
LISTINGS: Final = ("open", "live", "all")
_LOG = logging.getLogger("darkempire.server")
_THEMES: Final = {theme.value for theme in Theme}
#: The Unicode categories a player name may not hold: controls, format characters, surrogates, private use,
#: unassigned...
_UNSHOWN: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
#: ... but for the joiners emoji and some scripts are written with.
_JOINERS: Final = frozenset({"\u200c", "\u200d"})


class Timer(Protocol):
    """A scheduled call that can be cancelled (an :class:`asyncio.TimerHandle`)."""

    def cancel(self) -> None:
        """Do not make the call."""


#: How the lobby runs a function after a delay in seconds (:meth:`asyncio.loop.call_later`).
Scheduler = Callable[[float, Callable[[], None]], Timer]


def random_seed() -> int:
    """A deal's seed drawn with :mod:`secrets` (63 bits, within the engine's range)."""
    return secrets.randbits(63)


def _field(body: dict[str, Any], name: str, types: tuple[type, ...], default: Any = ...) -> Any:
    if name not in body:
        if default is ...:
            raise BadRequestError(f"{name}: missing field")
        return default
    value = body[name]
    if type(value) not in types:
        raise BadRequestError(f"{name}: wrong type {type(value).__name__}")
    return value


#: How a refusal names a JSON value of the wrong kind.
_JSON_KINDS: Final[dict[type, str]] = {bool: "a boolean", int: "a number", float: "a number", list: "an array",
                                       dict: "an object"}  # fmt: skip


def _shown(text: str) -> str:
    """A field name to begin a refusal with, unquoted like the known ones: its lone surrogates and controls
    escaped, as no UTF-8 holds the one and a terminal obeys the other."""
    return "".join(c if unicodedata.category(c) not in _UNSHOWN else ascii(c)[1:-1] for c in text)


def _player_name(name: str) -> str:
    """``name``, if it is one a lobby listing can show as it is: at most :data:`MAX_NAME` characters, none a
    control or format character (a bidi override would turn the listing around) nor half of a surrogate pair
    (JSON may spell one, ``"\\ud800"``; no UTF-8 text holds it)."""
    if len(name) > MAX_NAME:
        raise BadRequestError(f"name: at most {MAX_NAME} characters")
    for char in name:
        if unicodedata.category(char) in _UNSHOWN and char not in _JOINERS:
            raise BadRequestError(f"name: no control, format or lone surrogate character ({ascii(char)[1:-1]})")
    return name


def _body(body: object, fields: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise BadRequestError("the request body is a JSON object")
    for key in body:
        if key not in fields:
            named = _shown(key[:40]) + ("…" if len(key) > 40 else "") if isinstance(key, str) else quote(key)
            raise BadRequestError(f"{named}: unknown field; the fields are {', '.join(fields)}")
    return body


class Lobby:
    """Every match of one storage, loaded when first asked for.

    :param storage: where matches are kept.
    :param dealer: how a match is dealt (:func:`darkempire.rules.engine.deal`).
    :param seeds: where seeds come from (:func:`random_seed`; a test may fix them).
    """

    def __init__(self, storage: Storage, *, dealer: Dealer = engine.deal, seeds: Callable[[], int] = random_seed) -> None:
        self.storage = storage
        self._dealer = dealer
        self._seeds = seeds
        self._matches: dict[str, Match] = {}
        #: How time limits are kept: set by the app once its event loop runs; ``None``, no clock runs.
        self.scheduler: Scheduler | None = None
        self._timers: dict[tuple[str, int], tuple[tuple[int, int, str], Timer]] = {}
        self._playing: set[str] = set()  # the bots-only matches with a step scheduled
        # Other processes share the storage: a seat they freed is read from it before each credential check.
        self._shared = isinstance(storage, FanOut)
        #: What is done with each connection of a seat its player left (the app closes it); ``None``: they
        #: are only no longer sent anything.
        self.seat_lost: Callable[[Outbox], None] | None = None

    def match(self, match_id: str) -> Match:
        """The match, rebuilt from storage on first use (its bots play any turn they owe).

        :raises UnknownMatchError: no such match.
        """
        if match_id in self._matches:
            return self._matches[match_id]
        stored = self.storage.match(match_id) if isinstance(match_id, str) and len(match_id) <= 64 else None
        if stored is None:
            raise UnknownMatchError(f"no match {match_id[:64]!r}")
        match = Match(stored, self._dealer)
        match.replay(self.storage.choices(match_id))
        match.holders = {h.seat: h for h in self.storage.seats(match_id)}
        self._matches[match_id] = match
        self.moved(match)
        return match

    def moved(self, match: Match) -> None:
        """After a change of ``match``: its bots play, and the clock of each awaited human seat starts.

        A match of bots only is played on the loop in steps of :data:`BOT_STEP` choices, one step a turn
        (once the app's loop runs): played at once, its whole game would hold the loop, and every other
        match, for as long as it lasts.
        """
        if self.scheduler is not None and all(kind is not None for kind in match.stored.bots):
            self._play_on(match)
            return
        match.play_bots(self.storage)
        limit = match.stored.time_limit
        if limit is None or self.scheduler is None:
            return
        decision, match_id = match.decision(), match.stored.match_id
        awaited = match.awaited_humans() if not match.is_over else frozenset()
        for key in [k for k in self._timers if k[0] == match_id]:
            if key[1] not in awaited or self._timers[key][0] != decision:
                self._timers.pop(key)[1].cancel()
        for seat in awaited:
            if (match_id, seat) not in self._timers:
                timer = self.scheduler(limit, functools.partial(self._expire, match, seat, decision))
                self._timers[match_id, seat] = (decision, timer)

    def _play_on(self, match: Match) -> None:
        """Play a step of a bots-only match, and the next one on a later turn of the loop."""
        match_id = match.stored.match_id
        if match_id in self._playing:
            return
        if match.play_bots(self.storage, BOT_STEP) and self.scheduler is not None:
            self._playing.add(match_id)
            self.scheduler(0.0, functools.partial(self._step, match))

    def _step(self, match: Match) -> None:
        self._playing.discard(match.stored.match_id)
        try:
            self._play_on(match)
        except Exception:  # a storage failure stops this match's bots until it is touched again, not the loop
            _LOG.exception("match %s: its bots stopped", match.stored.match_id)

    def _expire(self, match: Match, seat: int, decision: tuple[int, int, str]) -> None:
        self._timers.pop((match.stored.match_id, seat), None)
        if match.decision() == decision and seat in match.awaited_humans():
            match.choose_for(seat, self.storage)
        self.moved(match)

    def catch_up(self, match_id: str) -> None:
        """Tell a loaded match's connections of the choices another server process stored, and close those of
        a seat left there (the fan-out calls this); a match not loaded here is read when first asked for."""
        match = self._matches.get(match_id)
        if match is not None:
            self.refresh_seats(match)
            match.catch_up(self.storage)
            self.moved(match)

    def refresh_seats(self, match: Match) -> None:
        """Read who holds the match's seats again: another server process may have seated someone, or freed a
        seat, whose connections here are then lost (:attr:`seat_lost`)."""
        before = match.holders
        match.holders = {h.seat: h for h in self.storage.seats(match.stored.match_id)}
        for seat, holder in before.items():
            now = match.holders.get(seat)
            if now is None or now.credential_hash != holder.credential_hash:
                for outbox in match.release(seat):
                    if self.seat_lost is not None:
                        self.seat_lost(outbox)

    def create(self, body: object) -> dict[str, Any]:
        """Create a match (see the module's docstring); return its summary."""
        body = _body(body, ("players", "theme", "bots", "time_limit"))
        players = _field(body, "players", (int,))
        if not 3 <= players <= 5:
            raise BadRequestError(f"players: 3 to 5 seats (rule 2.1), not {quote(players)}")
        theme = _field(body, "theme", (str,), Theme.STEAM_NOIR.value)
        if theme not in _THEMES:
            raise BadRequestError(f"theme: one of {', '.join(sorted(_THEMES))}")
        bots = _field(body, "bots", (list,), [None] * players)
        if len(bots) != players:
            raise BadRequestError(f"bots: one entry per seat, {players} in all (null for a seat people join), not {len(bots)}")
        for seat, bot in enumerate(bots):
            if bot is None or (type(bot) is str and bot in SERVER_BOTS):
                continue
            given = quote(bot) if isinstance(bot, str) else _JSON_KINDS.get(type(bot), "another value")
            why = (" (the search bot is not played on the server: its tens of milliseconds a decision would hold "
                   "every match's loop)" if bot == "ismcts" else "")  # fmt: skip
            raise BadRequestError(f"bots[{seat}]: null or one of {', '.join(SERVER_BOTS)}, not {given}{why}")
        limit = _field(body, "time_limit", (int, float, type(None)), None)
        if limit is not None and not MIN_TIME_LIMIT <= limit <= MAX_TIME_LIMIT:
            raise BadRequestError(f"time_limit: {MIN_TIME_LIMIT:g} to {MAX_TIME_LIMIT:g} seconds per decision, or null")
        stored = StoredMatch(secrets.token_urlsafe(9), players, theme, self._seeds(), tuple(bots), time.time(), limit)
        self.storage.create_match(stored)
        return self.summary(self.match(stored.match_id).stored.match_id)

    def summary(self, match_id: str) -> dict[str, Any]:
        """The public summary of a match."""
        match = self.match(match_id)
        self.refresh_seats(match)
        seats = [
            {"seat": s, "bot": kind, "held": s in match.holders, "name": match.holders[s].name if s in match.holders else None}
            for s, kind in enumerate(match.stored.bots)
        ]
        return {
            "match_id": match.stored.match_id,
            "players": match.stored.players,
            "theme": match.stored.theme,
            "seats": seats,
            "seq": match.seq,
            "over": match.is_over,
            "time_limit": match.stored.time_limit,
        }

    def open_matches(self) -> list[dict[str, Any]]:
        """The summaries of the matches not over with a free human seat."""
        return self.listing("open")

    def listing(self, status: object = "open") -> list[dict[str, Any]]:
        """The summaries of the matches of a :data:`LISTINGS` ``status``: ``"open"``, not over with a free
        human seat; ``"live"``, not over; ``"all"``, the finished ones too (whose public record stays there
        to download).

        :raises BadRequestError: another ``status``.
        """
        if status not in LISTINGS:
            raise BadRequestError(f"status: one of {', '.join(LISTINGS)}")
        found = []
        for stored in self.storage.matches():
            match = self.match(stored.match_id)
            free = [s for s, kind in enumerate(stored.bots) if kind is None and s not in match.holders]
            if status == "all" or (not match.is_over and (free or status == "live")):
                found.append(self.summary(stored.match_id))
        return found

    def join(self, match_id: str, body: object) -> dict[str, Any]:
        """Take a free human seat; answer the seat and its new credential."""
        match = self.match(match_id)
        body = _body(body, ("seat", "name"))
        seat = _field(body, "seat", (int, type(None)), None)
        name = _player_name(_field(body, "name", (str,), ""))
        if match.is_over:
            raise MatchOverError("the match is over")
        humans = [s for s, kind in enumerate(match.stored.bots) if kind is None]
        if seat is None:
            free = [s for s in humans if s not in match.holders]
            if not free:
                raise NoFreeSeatError("every human seat of the match is taken")
            seat = free[0]
        if seat not in humans:
            raise NoFreeSeatError(f"seat {seat} is no human seat of this match")
        credential = new_credential()
        holder = SeatHolder(seat, name, credential_hash(credential))
        if seat in match.holders or not self.storage.hold_seat(match_id, holder):
            raise SeatTakenError(f"seat {seat} is taken")
        match.holders[seat] = holder
        return {"seat": seat, "credential": credential}

    def leave(self, match_id: str, body: object) -> dict[str, Any]:
        """Give up a held seat, with its credential."""
        match = self.match(match_id)
        body = _body(body, ("seat", "credential"))
        seat = _field(body, "seat", (int,))
        self.check_credential(match, seat, _field(body, "credential", (str,)))
        self.storage.free_seat(match_id, seat)
        del match.holders[seat]
        for outbox in match.release(seat):
            if self.seat_lost is not None:
                self.seat_lost(outbox)
        return {"seat": seat, "left": True}

    def check_credential(self, match: Match, seat: object, credential: object) -> int:
        """``seat``, if ``credential`` is its credential.

        :raises CredentialError: it is not (whatever the reason: no such seat, a free seat, another seat's
            credential, a guess; the message tells which seat, never why).
        """
        holder = match.holders.get(seat) if type(seat) is int else None
        if self._shared or holder is None or not credential_matches(credential, holder.credential_hash):
            self.refresh_seats(match)  # seated, or left, through another server process?
            holder = match.holders.get(seat) if type(seat) is int else None
        if holder is None or not credential_matches(credential, holder.credential_hash):
            raise CredentialError(f"that is not the credential of seat {seat if type(seat) is int else '?'}")
        assert type(seat) is int
        return seat
