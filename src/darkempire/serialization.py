"""The JSON wire format, version 1: states, views, actions, events, records and prompts (spec 9.3, 9.4).

Every message is one JSON object with a format version and a type::

    {"format": "darkempire/1", "type": "action", "kind": "play-card", "card": 12, "side": "REVOLUTION"}

========================  ===============================================  ===========================
``type``                  Python value                                     schema file
========================  ===============================================  ===========================
``"game-state"``          :class:`~darkempire.rules.state.GameState`             ``game-state.json``
``"player-view"``         :class:`~darkempire.rules.views.PlayerView`            ``player-view.json``
``"prompt"``              :class:`Prompt` (a view and the legal actions)   ``prompt.json``
``"action"``              :data:`~darkempire.rules.actions.Action`               ``action.json``
``"event"``               :data:`~darkempire.rules.events.Event`                 ``event.json``
``"game-record"``         :class:`~darkempire.records.GameRecord`          ``game-record.json``
``"public-record"``       :class:`~darkempire.public_record.PublicRecord`  ``public-record.json``
``"card-table"``          :class:`CardTable` (every card and faction)      ``card-table.json``
========================  ===============================================  ===========================

Encoding rules, the same everywhere:

* attrs classes are objects with one key per field; actions and events carry
  a ``"kind"`` tag (kebab case of the class name: ``"play-card"``,
  ``"week-started"``);
* hand cards are their ids (0-74), emperor cards their ids (0-7), a revolution
  card its faction; the ``"card-table"`` message (:func:`card_table`) says what
  each card is, with its name in each theme;
* enumerations (factions, phases, sides, add-on cards, reasons) are their
  member names: ``"WORKERS"``, ``"PLAY_1"``, ``"EMPEROR"``, ``"FIVE_PLUS"``;
* tuples are arrays; sets are arrays sorted by id or enumeration order, with
  no repeated item; ``None`` is ``null``;
* integers are JSON integers (``7``, never ``7.0``). A game's seed may be any
  integer, but JavaScript numbers keep only seeds up to 2**53 exactly.

Conversion is done by a ``cattrs`` converter with strict hooks, and the
JSON Schemas in ``darkempire/schemas/`` are generated from the same types
(:mod:`darkempire.schema`). Round trips are exact: ``from_json(to_json(x)) == x``.

Loading is safe on untrusted input. Every problem raises a
:class:`SerializationError` subclass whose ``path``
names the bad value, such as ``choices[3].action.card``; nothing is returned
half-loaded. A loaded state must be a moment some game can reach
(:func:`check_state`: card conservation, hand and pile sizes, calendar,
table, history, pending choices), so the engine can be trusted with it;
:func:`load_action` can check that the seat holds the cards it names.
Encoding a value built by hand that the format cannot carry raises a
:class:`SerializationError` too.

Limits, so that refusing a hostile document costs no more than loading the
largest real one:

* a loader reads at most ``max_size`` bytes (a ``str`` counted in UTF-8; the kit's
  :func:`tablekit.wire.load_json` reads it),
  :data:`~darkempire.wire.parsing.DEFAULT_MAX_SIZE` (4 MiB) unless told otherwise; the largest
  reachable documents are about 25 kB (:class:`DocumentTooLargeError`);
* an object may not repeat a key (:class:`DuplicateKeyError`, whose ``path``
  names the key): parsers disagree on which copy counts;
* no array may be longer than the rules allow anywhere in a game
  (:data:`~darkempire.wire.limits.ARRAY_LIMITS`: 75 cards in a pile, 9 in a hand, 5 seats, 12 weeks,
  ...); the length is checked before any item is (:class:`TooManyItemsError`);
* an error quotes at most :data:`~darkempire.wire.wire_errors.QUOTE_LIMIT` characters of any value from the
  document, and its message and path are at most :data:`~darkempire.wire.wire_errors.MESSAGE_LIMIT` each.

This module is the format's front door: it re-exports every name of the format from the modules that
define it, and ``from darkempire.serialization import X`` is the way to import them.

==========================================  ==============================================================
module                                      what it holds
==========================================  ==============================================================
:mod:`darkempire.wire.messages`             :func:`to_json`, :func:`from_json`, the ``load_*`` functions
:mod:`darkempire.wire.message_types`        :data:`~darkempire.wire.message_types.Message`,
                                            :data:`~darkempire.wire.message_types.MESSAGE_TYPES`,
                                            :func:`message_type`
:mod:`darkempire.wire.envelope`             :data:`~darkempire.wire.envelope.FORMAT`, encoding one value
:mod:`darkempire.wire.prompts`              :class:`Prompt`, :func:`make_prompt`
:mod:`darkempire.wire.card_table`           :class:`CardTable`, :func:`card_table`
:mod:`darkempire.wire.converter`            the ``cattrs`` converter, the ``"kind"`` tags
:mod:`darkempire.wire.parsing`              :func:`parse_json`, the size limit
:mod:`darkempire.wire.limits`               the array limits, :class:`TooManyItemsError`
:mod:`darkempire.wire.wire_errors`          :class:`SerializationError` and its kin, :func:`quote`
:mod:`darkempire.wire.typecheck`            the type check of values built by hand
:mod:`darkempire.validity`                  :func:`check_state`, :class:`InconsistentStateError`,
                                            :class:`ConservationError`
==========================================  ==============================================================
"""

from __future__ import annotations

from darkempire.wire.card_table import CardTable, card_table
from darkempire.validity import ConservationError, InconsistentStateError, check_state
from darkempire.wire.converter import ACTION_TYPES, kind_of
from darkempire.wire.envelope import FORMAT, FORMAT_VERSION
from darkempire.wire.limits import ARRAY_LIMITS, ArrayLimit, TooManyItemsError
from darkempire.wire.message_types import MESSAGE_TYPES, Message, message_type
from darkempire.wire.messages import (
    canonical_json,
    from_data,
    from_json,
    load_action,
    load_card_table,
    load_event,
    load_prompt,
    load_public_record,
    load_record,
    load_state,
    load_view,
    to_data,
    to_json,
)
from darkempire.wire.parsing import DEFAULT_MAX_SIZE, parse_json
from darkempire.wire.prompts import Prompt, make_prompt
from darkempire.wire.wire_errors import (
    MESSAGE_LIMIT,
    QUOTE_LIMIT,
    CardNotHeldError,
    DocumentTooLargeError,
    DuplicateKeyError,
    FormatVersionError,
    InvalidValueError,
    MalformedJSONError,
    MissingFieldError,
    NotAMessageError,
    SerializationError,
    UnknownCardError,
    UnknownFieldError,
    WrongTypeError,
    quote,
)

__all__ = [
    "ACTION_TYPES",
    "ARRAY_LIMITS",
    "DEFAULT_MAX_SIZE",
    "FORMAT",
    "FORMAT_VERSION",
    "MESSAGE_LIMIT",
    "MESSAGE_TYPES",
    "QUOTE_LIMIT",
    "quote",
    "ArrayLimit",
    "CardNotHeldError",
    "CardTable",
    "ConservationError",
    "DocumentTooLargeError",
    "DuplicateKeyError",
    "FormatVersionError",
    "InconsistentStateError",
    "InvalidValueError",
    "MalformedJSONError",
    "Message",
    "MissingFieldError",
    "NotAMessageError",
    "Prompt",
    "SerializationError",
    "TooManyItemsError",
    "UnknownCardError",
    "UnknownFieldError",
    "WrongTypeError",
    "canonical_json",
    "card_table",
    "check_state",
    "from_data",
    "from_json",
    "kind_of",
    "load_action",
    "load_card_table",
    "load_event",
    "load_record",
    "load_prompt",
    "load_public_record",
    "load_state",
    "load_view",
    "make_prompt",
    "message_type",
    "parse_json",
    "to_data",
    "to_json",
]
