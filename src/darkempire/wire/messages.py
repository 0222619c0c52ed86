"""Messages: values to JSON text and back, checked (the loaders of :mod:`darkempire.serialization`).

:func:`to_json` writes any :data:`~darkempire.wire.message_types.Message`; :func:`from_json` reads one
strictly (:func:`~darkempire.wire.parsing.parse_json`), opens its envelope, bounds its arrays
(:func:`~darkempire.wire.limits.check_sizes`), structures it (:data:`~darkempire.wire.converter.CONVERTER`)
and checks it: a state with :func:`~darkempire.validity.check_state_consistency`, a view with
:func:`~darkempire.validity.check_view`, a prompt, a record and a public record with their own checks, a card
table against the game's own (:func:`~darkempire.wire.card_table.check_card_table`). The
``load_*`` functions read one type of message each.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final, TypeVar, cast

from darkempire.rules.actions import Action, DiscardCards, PassCards, PlayCard, Reinforce, Reorganize
from darkempire.rules.cards import HandCard, is_hand_card
from darkempire.rules.errors import InvalidArgumentError
from darkempire.rules.events import EVENT_TYPES, Event
from darkempire.public_record import PublicRecord, hidden_information
from darkempire.records import GameRecord
from darkempire.rules.state import GameState
from darkempire.validity import InconsistentStateError, check_seat, check_state_consistency, check_view
from darkempire.rules.views import PlayerView
from darkempire.wire.card_table import CardTable, check_card_table
from darkempire.wire.converter import CONVERTER, located
from darkempire.wire.envelope import WIRE_FORMAT, canonical_text, dump_text, encode
from darkempire.wire.limits import check_sizes
from darkempire.wire.message_types import MESSAGE_TYPES, Message, message_type
from darkempire.wire.parsing import DEFAULT_MAX_SIZE, parse_json
from darkempire.wire.prompts import Prompt, check_prompt
from darkempire.wire.wire_errors import CardNotHeldError, InvalidValueError, SerializationError, from_kit, quote
from tablekit import wire as kit

__all__ = [
    "canonical_json",
    "from_data",
    "from_json",
    "load_action",
    "load_card_table",
    "load_event",
    "load_prompt",
    "load_public_record",
    "load_record",
    "load_state",
    "load_view",
    "to_data",
    "to_json",
]

T = TypeVar("T")


def to_data(value: Message) -> dict[str, Any]:
    """``value`` as a JSON-ready dict with ``format`` and ``type`` (see :mod:`darkempire.serialization`).

    :raises NotAMessageError: (a :class:`TypeError`) for a value that is not a message.
    :raises SerializationError: for a message built by hand that holds a value the format cannot carry
        (a seed that is not an integer, a card that is not one of the game's); its ``path`` names it.
    """
    return encode(value, message_type(value))


def to_json(value: Message, *, indent: int | None = None) -> str:
    """``value`` as a JSON message (compact unless ``indent`` is given).

    :raises NotAMessageError, SerializationError: see :func:`to_data`.
    """
    separators = (",", ":") if indent is None else (",", ": ")
    return dump_text(to_data(value), indent=indent, separators=separators, ensure_ascii=False)


def canonical_json(value: Message) -> str:
    """One fixed text per value: sorted keys, no spaces (used for digests).

    :raises NotAMessageError, SerializationError: see :func:`to_data`.
    """
    return canonical_text(to_data(value))


def _envelope(data: Any, expected: str | None) -> tuple[str, dict[str, Any]]:
    """The message's type and payload, its envelope opened by the kit's :func:`~tablekit.wire.open_envelope`."""
    try:
        name, payload = kit.open_envelope(data, WIRE_FORMAT, MESSAGE_TYPES, quoting=quote)
    except kit.WireError as error:
        raise from_kit(error) from None
    if expected is not None and name != expected:
        raise InvalidValueError(f"expected a {expected!r} message, got {name!r}", path="type")
    return name, payload


def _structure(payload: dict[str, Any], tp: Any) -> Any:
    try:
        return CONVERTER.structure(payload, tp)
    except SerializationError:
        raise
    except Exception as exc:  # every failure becomes a located SerializationError
        raise located(exc).error() from None


def _check_expected(expected: object) -> None:
    if expected is not None and (not isinstance(expected, str) or expected not in MESSAGE_TYPES):
        raise InvalidArgumentError(
            f"expected is a message type ({', '.join(MESSAGE_TYPES)}) or None, not {quote(expected)}"
        )


def from_data(data: Any, expected: str | None = None, *, check: bool = True) -> Message:
    """The value of a parsed JSON message (a dict), checked.

    :param data: the parsed message.
    :param expected: the message ``type`` required, or ``None`` for any.
    :param check: see :func:`from_json`.
    :raises InvalidArgumentError: if ``expected`` is neither ``None`` nor a message type (a key of
        :data:`~darkempire.wire.message_types.MESSAGE_TYPES`); the document is not looked at.
    :raises SerializationError: see :func:`from_json`.
    """
    _check_expected(expected)
    name, payload = _envelope(data, expected)
    check_sizes(payload, MESSAGE_TYPES[name])
    value = _structure(payload, MESSAGE_TYPES[name])
    if check:
        _CHECKS[name](value)
    return cast(Message, value)


def from_json(
    text: str | bytes | bytearray, expected: str | None = None, *, check: bool = True, max_size: int = DEFAULT_MAX_SIZE
) -> Message:
    """The value of a JSON message; ``from_json(to_json(x)) == x``.

    :param text: the message.
    :param expected: the message ``type`` required, or ``None`` for any.
    :param max_size: the longest text read, in bytes (a ``str`` is counted in UTF-8); see
        :data:`~darkempire.wire.parsing.DEFAULT_MAX_SIZE`.
    :param check: ``False`` skips the consistency checks (:func:`~darkempire.validity.check_state` for a
        state, the checks of views, prompts and records): the value is only structured, with its types, card
        ids and names checked. Only for a program's own values that are deliberately not moments of a game,
        such as a state saved between two chance draws; never for input from elsewhere, on which the engine
        may then fail or take exponential time.
    :raises ~darkempire.wire.wire_errors.DocumentTooLargeError: the text is longer than ``max_size``; it is
        not parsed.
    :raises ~darkempire.wire.wire_errors.MalformedJSONError: not JSON;
        :class:`~darkempire.wire.wire_errors.DuplicateKeyError` for an object that repeats a key.
    :raises ~darkempire.wire.wire_errors.FormatVersionError: a missing, foreign or future ``format``.
    :raises TooManyItemsError: an array longer than the rules allow
        (:data:`~darkempire.wire.limits.ARRAY_LIMITS`), found before its items are looked at.
    :raises ~darkempire.wire.wire_errors.UnknownFieldError: a value that does not fit the message's types; or
        :class:`~darkempire.wire.wire_errors.MissingFieldError`, :class:`~darkempire.wire.wire_errors.WrongTypeError`,
        :class:`InvalidValueError`, :class:`~darkempire.wire.wire_errors.UnknownCardError`.
    :raises InconsistentStateError, ConservationError: a state (or view) that no game can reach (a state is
        checked with :func:`~darkempire.validity.check_state`).
    :raises InvalidArgumentError: if ``expected`` is neither ``None`` nor a message type, or ``max_size`` is not
        an int of 0 or more.
    """
    _check_expected(expected)
    return from_data(parse_json(text, max_size=max_size), expected, check=check)


def _typed(text: str | bytes | bytearray, expected: str, cls: type[T] | tuple[type, ...], max_size: int) -> T:
    value = from_json(text, expected, max_size=max_size)
    assert isinstance(value, cls)
    return cast(T, value)


def load_state(text: str | bytes | bytearray, *, max_size: int = DEFAULT_MAX_SIZE) -> GameState:
    """A ``"game-state"`` message, checked for card conservation and consistency (save/resume).

    :raises SerializationError: see :func:`from_json`.
    """
    return _typed(text, "game-state", GameState, max_size)


def load_view(text: str | bytes | bytearray, *, max_size: int = DEFAULT_MAX_SIZE) -> PlayerView:
    """A ``"player-view"`` message.

    :raises SerializationError: see :func:`from_json`.
    """
    return _typed(text, "player-view", PlayerView, max_size)


def load_prompt(text: str | bytes | bytearray, *, max_size: int = DEFAULT_MAX_SIZE) -> Prompt:
    """A ``"prompt"`` message.

    :raises SerializationError: see :func:`from_json`.
    """
    return _typed(text, "prompt", Prompt, max_size)


def load_event(text: str | bytes | bytearray, *, max_size: int = DEFAULT_MAX_SIZE) -> Event:
    """An ``"event"`` message.

    :raises SerializationError: see :func:`from_json`.
    """
    return cast(Event, _typed(text, "event", EVENT_TYPES, max_size))


def load_record(text: str | bytes | bytearray, *, max_size: int = DEFAULT_MAX_SIZE) -> GameRecord:
    """A ``"game-record"`` message (replay it with :func:`darkempire.records.replay_record`).

    :raises SerializationError: see :func:`from_json`.
    """
    return _typed(text, "game-record", GameRecord, max_size)


def load_public_record(text: str | bytes | bytearray, *, max_size: int = DEFAULT_MAX_SIZE) -> PublicRecord:
    """A ``"public-record"`` message, refused if it carries hidden information (check it move by move with
    :func:`darkempire.public_record.spectator_replay`).

    :raises SerializationError: see :func:`from_json`.
    """
    return _typed(text, "public-record", PublicRecord, max_size)


def load_card_table(text: str | bytes | bytearray, *, max_size: int = DEFAULT_MAX_SIZE) -> CardTable:
    """A ``"card-table"`` message, refused unless it is the game's own
    (:func:`~darkempire.wire.card_table.check_card_table`).

    :raises SerializationError: see :func:`from_json`.
    """
    return _typed(text, "card-table", CardTable, max_size)


def load_action(
    text: str | bytes | bytearray, *, hand: Iterable[HandCard] | None = None, max_size: int = DEFAULT_MAX_SIZE
) -> Action:
    """An ``"action"`` message from a client.

    :param hand: the seat's hand (``state.hands[seat]`` on a server,
        ``view.hand`` on a client); if given, every hand card the action
        plays, passes or discards must be in it.
    :raises CardNotHeldError: the action names a hand card the seat does not hold.
    :raises InvalidArgumentError: if ``hand`` is not an iterable of hand cards, or ``max_size`` is not an
        int of 0 or more.
    :raises SerializationError: see :func:`from_json`.

    The action is only checked as a value and against the hand; whether the
    rules allow it now is for :func:`darkempire.rules.engine.apply` to say.
    """
    held = None if hand is None else _hand_argument(hand)
    data = parse_json(text, max_size=max_size)
    action = cast(Action, from_data(data, "action"))
    if held is not None:
        _check_held(action, held, data)
    return action


def _hand_argument(hand: object) -> frozenset[HandCard]:
    if isinstance(hand, (str, bytes, bytearray, Mapping)):
        raise InvalidArgumentError(f"hand is an iterable of hand cards, not a {type(hand).__name__}")
    try:
        cards = frozenset(cast(Iterable[HandCard], hand))
    except TypeError:
        raise InvalidArgumentError(f"hand is an iterable of hand cards, not {quote(hand)}") from None
    for card in cards:
        if not is_hand_card(card):
            raise InvalidArgumentError(f"hand holds {quote(card)}, which is not a hand card")
    return cards


def _check_held(action: Action, hand: frozenset[HandCard], data: dict[str, Any]) -> None:
    fields: list[tuple[str, Iterable[HandCard]]] = []
    if isinstance(action, (PassCards, DiscardCards)):
        fields.append(("cards", action.cards))
    elif isinstance(action, (PlayCard, Reinforce)):
        fields.append(("card", (action.card,)))
    elif isinstance(action, Reorganize):
        fields.append(("discards", action.discards))
    for name, cards in fields:
        for card in sorted(cards, key=lambda c: c.id):
            if card not in hand:
                raw = data.get(name)
                path = f"{name}[{raw.index(card.id)}]" if isinstance(raw, list) else name
                raise CardNotHeldError(f"the seat does not hold hand card {card.id} ({card.label()})", path=path)


# --------------------------------------------------------------------------- consistency checks

# --------------------------------------------------------------------------- checks of loaded messages


def _check_record(record: GameRecord) -> None:
    for index, choice in enumerate(record.choices):
        check_seat(choice.seat, record.config.players, "choices", index, "seat")
    for index, digest in enumerate(record.digests):
        if not re.fullmatch(r"[0-9a-f]{16}", digest):
            raise InvalidValueError("a digest is 16 lowercase hex digits", path=f"digests[{index}]")
    if record.digests and len(record.digests) != len(record.choices):
        raise InconsistentStateError("one digest per choice, or none", path="digests")


def _check_public_record(record: PublicRecord) -> None:
    """Seats in range and nothing hidden; the rules are :func:`~darkempire.public_record.spectator_replay`'s."""
    for index, step in enumerate(record.steps):
        for at, event in enumerate(step.events):
            seat = getattr(event, "seat", None)
            if isinstance(seat, int):
                check_seat(seat, record.config.players, "steps", index, "events", at, "seat")
    hidden = hidden_information(record)
    if hidden is not None:
        reason = f"a public record shows no hidden information, but {hidden[1]}"
        raise InconsistentStateError(reason, path=f"steps[{hidden[0]}]")


def _no_check(_: Any) -> None:
    return None


_CHECKS: Final[dict[str, Callable[[Any], None]]] = {
    "game-state": check_state_consistency,
    "player-view": check_view,
    "prompt": check_prompt,
    "action": _no_check,
    "event": _no_check,
    "game-record": _check_record,
    "public-record": _check_public_record,
    "card-table": check_card_table,
}
