"""Events: what a transition did, each with who may see it, and the per-seat filter over them.

Every transition of a game reports the events it caused (see :class:`~tablekit.game.Transition`): who chose
what, what was revealed, what was scored, what chance drew. An :class:`Event` wraps one such fact, the
game's own *payload* value, with its :data:`Visibility`:

* :data:`PUBLIC`: every seat and every spectator sees the payload;
* :class:`KnownTo`: only the listed seats see the payload; everyone else sees ``Event.others_see``,
  the redacted form (``"seat 2 chose"`` for ``"seat 2 chose card 7"``), or nothing when it is ``None``.

The redaction is decided once, by the game, when it makes the event (:meth:`Event.private` takes the
redaction hook's result): the game is the one that knows what a fact hides. So :func:`events_for` is a pure
filter that needs no knowledge of the game, never a comparison of states or a search for what changed.

>>> log = (Event.public("dealt"), Event.private("seat 0 holds 7", {0}, others_see="seat 0 holds a card"))
>>> events_for(log, 0)
('dealt', 'seat 0 holds 7')
>>> events_for(log, 1)
('dealt', 'seat 0 holds a card')
>>> events_for(log, None)
('dealt', 'seat 0 holds a card')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Generic, TypeAlias, TypeVar

import attrs

from tablekit.errors import KitError
from tablekit.wire import quote

__all__ = ["PUBLIC", "Event", "KnownTo", "Public", "Visibility", "WrongViewerError", "events_for"]

P = TypeVar("P")
P_co = TypeVar("P_co", covariant=True)


class WrongViewerError(KitError, ValueError):
    """A viewer that is neither ``None`` (a spectator) nor a seat number (an ``int`` from 0, not a ``bool``)."""


@attrs.frozen
class Public:
    """The visibility of a fact every seat and spectator sees; use the one instance :data:`PUBLIC`."""


#: The visibility of public events.
PUBLIC: Final = Public()


def _seats(value: Iterable[int]) -> frozenset[int]:
    return frozenset(value)


@attrs.frozen
class KnownTo:
    """The visibility of a fact only some seats see (a hand dealt, a card passed between two seats).

    :ivar seats: the seats that see the whole fact; spectators never do.
    """

    seats: frozenset[int] = attrs.field(converter=_seats)


#: Who sees an event's payload.
Visibility: TypeAlias = Public | KnownTo


@attrs.frozen
class Event(Generic[P_co]):
    """One thing a transition did, as the game's own value ``payload``, with who may see it.

    :ivar payload: what happened, a value of the game's event type.
    :ivar visibility: :data:`PUBLIC`, or :class:`KnownTo` some seats.
    :ivar others_see: for a private event, what the other seats and spectators see instead of the payload,
        or ``None`` if they see nothing of it. Always ``None`` for a public event.
    """

    payload: P_co
    visibility: Visibility = PUBLIC
    others_see: P_co | None = None

    @classmethod
    def public(cls, payload: P) -> Event[P]:
        """A fact every seat sees."""
        return Event(payload)

    @classmethod
    def private(cls, payload: P, seats: Iterable[int], *, others_see: P | None = None) -> Event[P]:
        """A fact only ``seats`` see; the others see ``others_see`` (the redaction), or nothing if ``None``."""
        return Event(payload, KnownTo(seats), others_see)

    def seen_by(self, seat: int | None) -> P_co | None:
        """What ``seat`` (``None``: a spectator) sees of this event, or ``None`` if nothing.

        :raises WrongViewerError: ``seat`` is no viewer, as for :func:`events_for`: ``True``, ``1.0`` or an
            ``IntEnum`` member equal to 1 is not seat 1, and must not see seat 1's secrets.
        """
        _check_viewer(seat)
        return self._seen_by(seat)

    def _seen_by(self, seat: int | None) -> P_co | None:
        # The filter behind seen_by, for a viewer already checked (events_for checks once, not once an event).
        if isinstance(self.visibility, Public) or (seat is not None and seat in self.visibility.seats):
            return self.payload
        return self.others_see


def _check_viewer(seat: object) -> None:
    # Exactly int, not isinstance: a bool, an IntEnum or an int subclass with a lying __eq__ or __hash__ would
    # otherwise match a seat of KnownTo.seats without being that seat's number.
    if seat is not None and (type(seat) is not int or seat < 0):
        raise WrongViewerError(f"a viewer is a seat number or None, not {quote(seat, 40)}")


def events_for(events: Iterable[Event[P]], seat: int | None) -> tuple[P, ...]:
    """The payloads ``seat`` may see, in order; ``seat=None`` gives a spectator's log.

    :raises WrongViewerError: ``seat`` is neither ``None`` nor a non-negative ``int``; a ``bool`` is refused, as
        ``True == 1`` would otherwise show seat 1's secrets to whoever passed ``True``.
    """
    _check_viewer(seat)
    seen = (event._seen_by(seat) for event in events)
    return tuple(payload for payload in seen if payload is not None)
