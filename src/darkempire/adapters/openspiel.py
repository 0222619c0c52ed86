"""The game for OpenSpiel: importing this module registers ``dark_empire_revolution`` (spec 9.2-9.4).

>>> import pyspiel
>>> import darkempire.adapters.openspiel
>>> game = pyspiel.load_game("dark_empire_revolution(players=5)")
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes(), game.max_game_length()
(5, 6857, 75, 64)

Install the ``openspiel`` extra (``pip install "darkempire[openspiel]"``, PyPI name ``open-spiel``).

Game type
=========

* **Simultaneous moves.** Every decision of the game is simultaneous (spec 9.2). At each decision node every
  seat acts: a seat the step awaits chooses among its legal actions; every other seat has exactly one legal
  action, :data:`~darkempire.adapters.core.NO_OP` ("wait"). ``pyspiel.convert_to_turn_based`` gives the turn-based form, in which the
  seats act in seat order and each sees only its own earlier choice.
* **Explicit chance** (``EXPLICIT_STOCHASTIC``): the deal, the revealed revolution and emperor cards and the
  re-organize draws are chance nodes with uniform outcomes (at most 75), so a history of integers replays a
  game exactly: they are the engine's own named draws (see "Explicit chance" in :mod:`darkempire.adapters.core`).
* **Imperfect information, general-sum, 3-5 players** (parameter ``players``, default 4).
* **Returns** (terminal reward model): the verdict's winners share +1, each getting ``1 / len(winners)``;
  every other seat gets -1 (rules 8.2-8.5). A shared win is worth less than a sole win, and the sum of the
  returns depends on how many seats share it, so the game is general-sum.

Actions
=======

One action space of :data:`~darkempire.adapters.core.NUM_ACTIONS` = 6857 integers, the same for 3-5 players:

===================  ====================================================================================
actions              meaning
===================  ====================================================================================
0                    wait: the only action of a seat the step does not await
1-2775               pass the two cards ``(a, b)``, ``a < b``, numbered in ``itertools.combinations(range(75),
                     2)`` order (rule 2.5)
2776-5550            discard two cards, numbered the same way (rule 2.6)
5551-5555            choose support faction ``0-4`` (rule 3.2)
5556-5685            play faction card ``c`` (0-64): ``5556 + 2c`` revolution side, ``5557 + 2c`` emperor side
                     (rule 4.3)
5686-6335            attach reinforcement card ``r`` (65-74) to faction card ``t``: ``5686 + 65 (r - 65) + t``
                     (rule 4.6)
6336                 play nothing (ruling H)
6337-6344            place: ``6337 + mask``, bit ``k`` naming the ``k``-th of the seat's own revolution-side
                     cards on the table, sorted by id (rule 5.6, ruling E)
6345-6856            re-organize: ``6345 + 128 slot + mask``; ``slot`` 0 takes nothing back, ``k`` takes back
                     the ``k``-th own revolution-side card on the table; bit ``j`` of ``mask`` discards the
                     ``j``-th card of the hand sorted by id (rules 6.2, 6.3, ruling Q)
===================  ====================================================================================

:func:`encode_action` and :func:`decode_action` convert between these integers and
:mod:`darkempire.rules.actions` values.

Observations and information states
===================================

Built from :func:`darkempire.rules.views.player_view` only, so they show a seat nothing its view does not:

* the observation string and tensor: the seat's current view. Both are rendered from one structure,
  :func:`~darkempire.adapters.core.observation_fields` (groups of named fields), so two observations have
  equal strings exactly when they have equal tensors: the seat's hand, victor card, support and pending
  choice; the calendar, phase, awaited and chosen seats; every finished week's table in its own slot; the
  score track with the month and week of each card; each month's revealed support and totals; the verdict
  with every seat's victor card and the faction totals; during the deal, how many cards are dealt.
  :data:`OBSERVATION_TENSOR_LAYOUT` names the tensor's pieces; its size is fixed for each number of players.
  A public-only observer gives the spectator view, a private-only observer the seat's own secrets;
* the information-state string (perfect recall): one line per earlier decision with what the seat saw and
  chose, then its current view. There is no information-state tensor.

While chance nodes draw the outcome of a step, the seats see the step before it resolved, with their own
choice pending. During the deal each seat sees its own cards dealt so far.

A pyspiel state itself is omniscient, as every OpenSpiel state is: ``str(state)``, ``state.history()`` (the
chance outcomes are card ids), ``legal_actions`` at a chance node (the cards not dealt yet) and
``action_to_string`` of another seat's action (a re-organize names that seat's hidden cards) all show what
some seat may not know. A seat's view is its observation or information state, nothing else: hand a bot
those only.

Speed
=====

A state from :meth:`DarkEmpireGame.new_initial_state` plays on the playout kernel
(:class:`~darkempire.adapters.kernel_flow.KernelFlow`): who acts, the legal actions, the chance outcomes,
the moves and the returns come from the kernel's integers. The chance nodes are the kernel's explicit draws,
the same as the reference's. The observations, texts and JSON come from the reference flow
(:attr:`DarkEmpireState.flow`), which is built only when one of them is asked for. A decision then costs
about what the reference engine's costs (``benchmarks/spiel_floor.py``).

Serialization
=============

From Python, :meth:`DarkEmpireState.serialize` writes JSON (format :data:`STATE_FORMAT`): the OpenSpiel
history and the flow in the JSON wire format of :mod:`darkempire.serialization` (the last decided engine
state as a ``"game-state"`` message, the joint action waiting for its draws, the script of chance outcome
indices drawn since, the seats' trails; format 2 since chance became explicit in the engine). :meth:`DarkEmpireGame.deserialize_state`
reads only that JSON: it replays the history, checks that it gives the flow written, and raises a
:class:`~darkempire.serialization.SerializationError` for anything else. It never unpickles, so a crafted
string cannot run code.

OpenSpiel's C++ side serializes every Python game by pickling the state's attributes: ``pyspiel.serialize_game_and_state``,
``pyspiel.deserialize_game_and_state`` and the C++ callers of ``DeserializeState`` (such as
``pyspiel.random_sim_test(..., serialize=True)``) go that way and cannot be overridden from Python. The one
attribute of a :class:`DarkEmpireState` pickles as a call that loads the same JSON, so those round trips work;
but ``pyspiel.deserialize_game_and_state`` unpickles whatever it is given, so never give it text you did not
write. The turn-based form serializes, as OpenSpiel does for every explicit-chance game, by its history of
integers.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, cast

import numpy as np
import pyspiel

from tablekit.adapters.flow import KitFlow
from tablekit.adapters.openspiel import KitGame, KitObserver, KitState, Limits, Spec, game_type, replay_history
from darkempire.rules import engine
from darkempire.rules.actions import Action
from darkempire.adapters.core import (
    ENCODER,
    MAX_DECISIONS,
    NO_OP,
    NUM_ACTIONS,
    Flow,
    decode,
    encode,
    fill_observation,
    index_text,
    info_state_text,
    legal_indices,
    make_pieces,
    max_chance_events,
    observation_text,
    outcome_id,
    private_observation_text,
    tensor_layout,
    view_text,
)
from darkempire.adapters.kernel_flow import KernelFlow
from darkempire.rules.cards import HAND_CARDS
from darkempire.rules.errors import IllegalActionError, WrongSeatError
from darkempire.rules.game import GAME
from darkempire.serialization import (
    FormatVersionError,
    InconsistentStateError,
    InvalidValueError,
    MalformedJSONError,
    MissingFieldError,
    TooManyItemsError,
    UnknownFieldError,
    WrongTypeError,
    parse_json,
    quote,
)
from darkempire.rules.state import GameConfig, GameState
from darkempire.rules.views import player_view

__all__ = [
    "GAME_TYPE",
    "NO_OP",
    "NUM_ACTIONS",
    "OBSERVATION_TENSOR_LAYOUT",
    "SHORT_NAME",
    "SPEC",
    "STATE_FORMAT",
    "DarkEmpireGame",
    "DarkEmpireObserver",
    "DarkEmpireState",
    "SampledState",
    "decode_action",
    "encode_action",
    "engine_state",
    "ismcts_resampler",
]

#: The name the game is registered under.
SHORT_NAME: Final = "dark_empire_revolution"

#: The OpenSpiel game type (see the module docstring).
GAME_TYPE: Final = game_type(SHORT_NAME, long_name="Dark Empire: Revolution", players=(3, 5),
                             parameters={"players": 4}, observation_tensor=True, factored_observation_string=True)

#: The observation tensor's pieces for ``players`` seats, in order: ``(name, shape)`` pairs.
OBSERVATION_TENSOR_LAYOUT: Final = tensor_layout

_TERMINAL: Final = int(pyspiel.PlayerId.TERMINAL)
_CHANCE: Final = int(pyspiel.PlayerId.CHANCE)
_SIMULTANEOUS: Final = int(pyspiel.PlayerId.SIMULTANEOUS)

#: The ``format`` of :meth:`DarkEmpireState.serialize`'s JSON.
STATE_FORMAT: Final = "darkempire-openspiel/2"


def _game_config(params: Mapping[str, Any]) -> GameConfig:
    return GameConfig(players=params["players"])  # ConfigError (rule 2.1) for anything but 3-5


def _limits(config: GameConfig) -> Limits:
    return Limits(config.players, max_chance_outcomes=len(HAND_CARDS), max_game_length=MAX_DECISIONS,
                  min_utility=-1.0, max_utility=1.0)  # fmt: skip


#: What the kit's OpenSpiel base is given: the kit game, the action integers, the game type, the config of the
#: parameters, the sizes, and chance outcomes named by card (:func:`~darkempire.adapters.core.outcome_id`).
SPEC: Final = Spec(GAME, ENCODER, GAME_TYPE, _game_config, _limits, outcome=outcome_id)


class DarkEmpireGame(KitGame):
    """The game, for a number of seats given by the parameter ``players`` (3-5, default 4): the kit's
    :class:`~tablekit.adapters.openspiel.KitGame` of :data:`SPEC`, with Dark Empire's flow, observer and JSON.

    :param params: OpenSpiel game parameters; only ``players``.
    :raises ~darkempire.rules.errors.ConfigError: for a number of players outside 3-5.
    :raises AdapterError: for parameters that are no mapping, or another parameter (the kit's).
    """

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        if params is None or isinstance(params, Mapping):  # else the kit refuses them
            _game_config({"players": 4, **(params or {})})  # the engine's own error, before the kit wraps it
        super().__init__(SPEC, params)

    def start_flow(self, config: GameConfig, players: int) -> Flow:
        """Dark Empire's :class:`~darkempire.adapters.core.Flow` (the kit's, with the seats' trails)."""
        return Flow.new(players)

    def new_initial_state(self) -> DarkEmpireState:
        """A new game: chance deals the victor cards and hands first. It is played on the kernel
        (:class:`~darkempire.adapters.kernel_flow.KernelFlow`); the reference flow is built when asked."""
        return DarkEmpireState(self, KernelFlow.new(self.players))

    def deserialize_state(self, text: str) -> DarkEmpireState:
        """The state that :meth:`DarkEmpireState.serialize` wrote, rebuilt by replaying its history with the
        kit's :func:`~tablekit.adapters.openspiel.replay_history`; never unpickles anything (see the module
        docstring).

        :raises SerializationError: (a subclass from :mod:`darkempire.serialization`) for text that is not
            JSON, another format, another number of players, a history that is not legal in this game, or a
            flow that its history does not give.
        """
        data = _state_document(text, self.players)
        state = self.new_initial_state()
        buffered = replay_history(state, data["history"], _illegal)
        if buffered:
            raise InvalidValueError(f"the history ends within a joint action ({len(buffered)} of {self.players})",
                                    path="history")  # fmt: skip
        if _canonical(state.flow.to_data()) != _canonical(data["flow"]):  # by JSON text: 3.0 and true are not 3 and 1
            raise InconsistentStateError("the flow is not the one its history gives", path="flow")
        return state

    def max_chance_nodes_in_history(self) -> int:
        """Most chance nodes in a game (the deal, two revealed cards a week, the re-organize draws)."""
        return max_chance_events(self.players)

    def make_py_observer(self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None) -> DarkEmpireObserver:
        """An observer of the given kind (see :class:`DarkEmpireObserver`)."""
        return DarkEmpireObserver(self.players, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
                                  params)  # fmt: skip


class DarkEmpireState(KitState):
    """A state of the game: the kit's :class:`~tablekit.adapters.openspiel.KitState` over a
    :class:`~darkempire.adapters.core.Flow`, with Dark Empire's legal-action lists, action and state texts and
    JSON serialization (the node player, chance outcomes, transitions and returns are the kit's).

    The hot path (who acts, legal actions, chance outcomes, moves, returns) runs on a
    :class:`~darkempire.adapters.kernel_flow.KernelFlow` when the state holds one (every state
    :meth:`DarkEmpireGame.new_initial_state` makes, and their clones); the texts, observations and JSON come
    from the reference :attr:`flow`, built only when asked. A state built with a
    :class:`~darkempire.adapters.core.Flow` (or unpickled) plays on that flow: the same game, the reference's way.

    :param game: the game.
    :param flow: the game's progress (a new game on the kernel when built by
        :meth:`DarkEmpireGame.new_initial_state`).
    """

    def __init__(self, game: DarkEmpireGame, flow: Flow | KernelFlow) -> None:
        super().__init__(game, cast("KitFlow[Any, Any, Any]", flow))  # the kit's hot-path calls are KernelFlow's too

    @property
    def _played(self) -> Flow | KernelFlow:
        """What the state plays on (the kit types its attribute as any kit flow)."""
        return cast("Flow | KernelFlow", self._flow)

    @property
    def flow(self) -> Flow:
        """The game's progress: engine state, choices waiting for their draws, outcomes drawn, the seats' trails
        (the reference flow; built from the kernel's moves when the state plays on the kernel)."""
        flow = self._played
        if isinstance(flow, KernelFlow):
            return flow.reference()
        assert isinstance(flow, Flow)
        return flow

    @property
    def kernel_flow(self) -> KernelFlow | None:
        """The :class:`~darkempire.adapters.kernel_flow.KernelFlow` the state plays on, or ``None`` if it plays
        on its reference flow."""
        flow = self._played
        return flow if isinstance(flow, KernelFlow) else None

    def current_player(self) -> int:
        """``pyspiel.PlayerId.TERMINAL``, ``CHANCE`` or ``SIMULTANEOUS``."""
        flow = cast("Flow | KernelFlow", self._flow)  # the hot path: no property call
        if flow.is_over:
            return _TERMINAL
        return _CHANCE if flow.is_chance else _SIMULTANEOUS

    def _legal_actions(self, player: int) -> list[int]:
        flow = cast("Flow | KernelFlow", self._flow)  # the hot path: no property call
        return flow.legal(player)  # listed by the encoding itself, faster than encoding each action

    def _apply_action(self, action: int) -> None:
        flow = cast("Flow | KernelFlow", self._flow)  # the hot path: no property call
        self._flow = cast("KitFlow[Any, Any, Any]", flow.apply_chance(action))  # a KernelFlow changes in place

    def _apply_actions(self, actions: Sequence[int]) -> None:
        flow = cast("Flow | KernelFlow", self._flow)  # the hot path: no property call
        self._flow = cast("KitFlow[Any, Any, Any]", flow.apply_joint(list(actions)))  # Dark Empire's errors, naming the seat and rule

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return self.flow.outcome_text(action)
        if type(player) is not int or not 0 <= player < self.flow.players:
            raise WrongSeatError(f"there is no seat {quote(player)} in a {self.flow.players}-player game",
                                 rule="9.1")  # fmt: skip
        return f"seat {player}: {index_text(self.flow.seen, player, action)}"

    def __str__(self) -> str:
        return self.flow.text()

    def serialize(self) -> str:
        """The state as JSON: ``{"format": STATE_FORMAT, "players": n, "history": [...], "flow": {...}}``, the
        flow in ``darkempire.serialization``'s wire format (:meth:`~darkempire.adapters.core.Flow.to_data`).
        :meth:`DarkEmpireGame.deserialize_state` reads it back."""
        document = {"format": STATE_FORMAT, "players": self.flow.players, "history": list(self.history()),
                    "flow": self.flow.to_data()}  # fmt: skip
        return json.dumps(document, separators=(",", ":"))


class DarkEmpireObserver(KitObserver):
    """OpenSpiel's Python observer interface, built on the seats' views: the kit's
    :class:`~tablekit.adapters.openspiel.KitObserver` (which reads the kind and refuses parameters and every
    seat's private information), with Dark Empire's tensors and more kinds.

    ============================================  =========================================================
    ``iig_obs_type``                              string / tensor
    ============================================  =========================================================
    public and own private info, no recall        the seat's view / the whole tensor (the default)
    public info only                              the spectator view / the public pieces
    own private info only                         hand, victor card, support / the ``private_`` pieces
    public and own private info, perfect recall   the information state (trail and view) / no tensor
    ============================================  =========================================================

    :param players: number of seats.
    :param iig_obs_type: the kind of observation.
    :param params: observation parameters; none are supported.
    :raises ValueError: (:class:`~tablekit.adapters.flow.AdapterError`) for parameters, or a kind not in the
        table (other seats' private information, or perfect recall of a partial observation).
    """

    def __init__(self, players: int, iig_obs_type: Any, params: Mapping[str, Any] | None) -> None:
        super().__init__(SPEC, iig_obs_type, params)
        self.tensor: np.ndarray[Any, np.dtype[np.float32]] | None = None
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}
        if not self.recall:
            self.tensor, self.dict = make_pieces(players)

    def refused(self) -> str | None:
        """Perfect recall is offered for the information state only; every other one-seat kind is."""
        if self.recall and not (self.public and self.private):
            return "perfect recall is offered for the information state (public and own private info)"
        return None

    def set_from(self, state: DarkEmpireState, player: int) -> None:
        """Write ``player``'s observation of ``state`` into the observer's ``tensor``.

        :raises WrongSeatError: ``player`` is no seat of the game (OpenSpiel does not check a Python
            observer's calls).
        """
        _check_player(state, player)
        if self.tensor is None:  # perfect recall: no tensor
            return
        fill_observation(self.tensor, state.flow, player, public=self.public, private=self.private)

    def string_from(self, state: DarkEmpireState, player: int) -> str:
        """``player``'s observation of ``state`` as text.

        :raises WrongSeatError: ``player`` is no seat of the game.
        """
        _check_player(state, player)
        flow = state.flow
        if self.recall:
            return info_state_text(flow, player)
        if not self.public:
            return private_observation_text(flow, player) if self.private else ""
        return observation_text(flow, player if self.private else None)


def _check_player(state: DarkEmpireState, player: object) -> None:
    players = state.flow.players
    if type(player) is not int or not 0 <= player < players:
        raise WrongSeatError(f"there is no seat {quote(player)} in a {players}-player game (a seat is a plain int)",
                             rule="9.1")  # fmt: skip


pyspiel.register_game(GAME_TYPE, DarkEmpireGame)


# --------------------------------------------------------------------------- serialization

_STATE_KEYS: Final = frozenset({"format", "players", "history", "flow"})


def _canonical(data: object) -> str:
    """``data`` as canonical JSON text: equal exactly when the JSON values are, types included (Python's ``==``
    takes ``3.0`` and ``True`` for ``3`` and ``1``)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _illegal(at: int, action: object) -> InvalidValueError:
    return InvalidValueError(f"{quote(action)} is not a legal action here", path=f"history[{at}]")


def _state_document(text: object, players: int) -> dict[str, Any]:
    """The checked JSON document of a serialized state: the right format and number of players, a list history."""
    if not isinstance(text, str):
        raise MalformedJSONError(f"expected JSON text, got {type(text).__name__}")
    data = parse_json(text)
    if not isinstance(data, dict):
        raise WrongTypeError(f"a serialized state is a JSON object, not {type(data).__name__}")
    missing, unknown = sorted(_STATE_KEYS - data.keys()), sorted(data.keys() - _STATE_KEYS)
    if missing:
        raise MissingFieldError(f"missing field {missing[0]!r}", path=missing[0])
    if unknown:
        raise UnknownFieldError(f"unknown field {unknown[0]!r}", path=unknown[0])
    if data["format"] != STATE_FORMAT:
        raise FormatVersionError(f"format {quote(data['format'])}, expected {STATE_FORMAT!r}", path="format")
    if data["players"] != players or type(data["players"]) is not int:  # 3.0 and True are no number of players
        raise InvalidValueError(f"a state of {quote(data['players'])} players, not of this {players}-player game",
                                path="players")  # fmt: skip
    if not isinstance(data["history"], list):
        raise WrongTypeError("the history is a JSON array of actions", path="history")
    # Each decision node is one action per seat (simultaneous), plus the chance nodes: a longer history is no game.
    longest = MAX_DECISIONS * players + max_chance_events(players)
    if len(data["history"]) > longest:
        raise TooManyItemsError(
            f"history: {len(data['history'])} actions, but a {players}-player game has at most {longest}",
            path="history",
        )
    return data




# --------------------------------------------------------------------------- actions


def encode_action(state: GameState, seat: int, action: Action | None) -> int:
    """The integer of ``seat``'s ``action`` in the engine state ``state``; ``None`` gives
    :data:`~darkempire.adapters.core.NO_OP`.

    :raises ValueError: if the action names a card that is not where its encoding needs it.
    """
    return NO_OP if action is None else encode(state, seat, action)


def decode_action(state: GameState, seat: int, action: int) -> Action | None:
    """The :mod:`darkempire.rules.actions` value of the integer ``action`` for ``seat`` in ``state``; ``None`` for
    :data:`~darkempire.adapters.core.NO_OP`. Not checked for legality.

    :raises ValueError: if ``action`` is outside the action space or names a position that does not exist.
    """
    return decode(state, seat, action)


# --------------------------------------------------------------------------- turn-based states and search


def _players(game: Any) -> int:
    params = game.get_parameters()
    return int(params.get("game", params).get("players", 4))


def _replayed(players: int, history: Sequence[int], state: DarkEmpireState | None = None,
              buffered: Sequence[int] = ()) -> tuple[DarkEmpireState, list[int]]:  # fmt: skip
    """A turn-based history replayed on a simultaneous state (a new game's unless given), with the kit's
    :func:`~tablekit.adapters.openspiel.replay_history`; the actions of the joint action it ends within."""
    state = DarkEmpireGame({"players": players}).new_initial_state() if state is None else state
    return state, replay_history(state, history, _not_legal, buffered)


def _not_legal(at: int, action: object) -> ValueError:
    return IllegalActionError(f"action {quote(action)} at {at} is not legal here", rule="9.1")


def engine_state(state: Any) -> tuple[GameState | None, list[int]]:
    """The engine state under an OpenSpiel state of this game, simultaneous or turn-based, and the actions
    the seats before the current one already chose in a turn-based decision.

    The engine state is what the seats see (``None`` during the deal). A turn-based state is replayed from
    its history.

    :raises ValueError: if ``state`` is not a state of ``dark_empire_revolution``.
    """
    if isinstance(state, DarkEmpireState):
        return state.flow.seen, []
    game = state.get_game()
    params = game.get_parameters()
    inner = params.get("game", params)
    if inner.get("name", SHORT_NAME) != SHORT_NAME:
        raise ValueError(f"not a state of {SHORT_NAME}: {game}")
    replayed, buffered = _replayed(int(inner.get("players", 4)), state.history())
    return replayed.flow.seen, buffered


class SampledState:
    """A determinized turn-based state for IS-MCTS: one world consistent with a seat's information state.

    It behaves like a state of ``pyspiel.convert_to_turn_based(game)`` for the methods that OpenSpiel's
    Python ``ISMCTSBot`` and ``RandomRolloutEvaluator`` call, and its information-state strings are the
    turn-based game's, so the bot's tree lines up with the real game. It has no chance nodes: the hidden cards
    are already placed and the engine's own generator (seeded at random) draws the rest.

    :param state: a complete engine state at a decision.
    :param trails: each seat's trail (see :class:`~darkempire.adapters.core.Flow`) up to ``state``.
    :param buffered: the actions of the seats before the current one in this turn-based decision.
    """

    def __init__(self, state: GameState, trails: tuple[tuple[str, ...], ...], buffered: Sequence[int]) -> None:
        self._state = state
        self._trails = trails
        self._steps: tuple[tuple[GameState, tuple[int, ...]], ...] = ()  # joint actions since ``trails``
        self._buffered = list(buffered)
        self._legal: list[int] | None = None

    def clone(self) -> SampledState:
        """A copy."""
        copy = SampledState(self._state, self._trails, self._buffered)
        copy._steps = self._steps
        copy._legal = self._legal
        return copy

    def current_player(self) -> int:
        """The seat to act, or ``pyspiel.PlayerId.TERMINAL``."""
        return int(pyspiel.PlayerId.TERMINAL) if self._state.is_over else len(self._buffered)

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._state.is_over

    def is_chance_node(self) -> bool:
        """Always false: the world is fixed and the engine draws the rest."""
        return False

    def is_simultaneous_node(self) -> bool:
        """Always false: the turn-based form."""
        return False

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The current seat's legal actions (:func:`~darkempire.adapters.core.legal_indices`); ``[]`` for any
        other seat."""
        current = self.current_player()
        if self._state.is_over or (player is not None and player != current):
            return []
        if self._legal is None:
            self._legal = legal_indices(self._state, current)
        return list(self._legal)

    def apply_action(self, action: int) -> None:
        """The current seat chooses ``action``; the step resolves once every seat has chosen.

        :raises IllegalActionError: (a :class:`ValueError`) if ``action`` is no integer (a Python or numpy one;
            ``307.0`` and ``True`` are none) or not legal, or the game is over.
        """
        seat = self.current_player()
        integer = isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_))
        if self._state.is_over or not integer or int(action) not in self.legal_actions():
            raise IllegalActionError(f"action {quote(action)} is not legal for seat {seat} here", rule="9.1",
                                     seat=None if self._state.is_over else seat)  # fmt: skip
        action = int(action)  # buffered as a plain int, as the joint action it completes
        self._buffered.append(action)
        self._legal = None
        if len(self._buffered) < self._state.players:
            return
        state = self._state
        self._steps += ((state, tuple(self._buffered)),)
        for s, index in enumerate(self._buffered):
            action_value = decode(state, s, index)
            if action_value is not None:
                self._state = engine.apply(self._state, s, action_value)
        self._buffered = []

    def child(self, action: int) -> SampledState:
        """A copy after ``action``."""
        copy = self.clone()
        copy.apply_action(action)
        return copy

    def returns(self) -> list[float]:
        """As :meth:`DarkEmpireState.returns <tablekit.adapters.openspiel.KitState.returns>`: the game's."""
        return list(GAME.returns(self._state))

    def _trail(self, player: int) -> tuple[str, ...]:
        # Built only when asked: rollouts never ask.
        lines = tuple(
            f"{view_text(player_view(state, player), logs=False)} => {index_text(state, player, actions[player])}"
            for state, actions in self._steps
        )
        return self._trails[player] + lines

    def _head(self, player: int) -> str:
        head = f"Current player: {self.current_player()}\n"
        if player < len(self._buffered):
            head += f"Observer's action this turn: {self._buffered[player]}\n"
        return head

    def information_state_string(self, player: int | None = None) -> str:
        """``player``'s information state, as the turn-based game writes it."""
        player = self.current_player() if player is None else player
        now = view_text(player_view(self._state, player))
        return self._head(player) + "\n".join((*self._trail(player), now))

    def observation_string(self, player: int | None = None) -> str:
        """``player``'s observation, as the turn-based game writes it."""
        player = self.current_player() if player is None else player
        return self._head(player) + view_text(player_view(self._state, player))


def ismcts_resampler(seed: int = 0) -> Callable[[Any, int], SampledState]:
    """A resampler for OpenSpiel's Python ``ISMCTSBot.set_resampler``, on the turn-based form of this game.

    Each call draws a world that ``player`` cannot tell from the real one (see
    :meth:`~darkempire.adapters.core.Flow.resample`): other hands, the piles and the other seats' victor
    cards and support, and the choices of the seats that acted before ``player`` in this turn-based decision.
    The other seats' trails are left empty, since they are hidden from ``player``. The real state's history
    is replayed once and then followed action by action.

    :param seed: seeds the resampler's generator.
    """
    rng = random.Random(seed)
    followed: list[Any] = [(), None, []]  # history, simultaneous state, buffered

    def resample(state: Any, player: int) -> SampledState:
        history = tuple(state.history())
        known, real, buffered = followed
        if real is None or history[: len(known)] != known:
            known, real, buffered = (), None, []
        real, buffered = _replayed(_players(state.get_game()), history[len(known) :], real, buffered)
        followed[:] = [history, real, buffered]
        flow = real.flow
        world = flow.resample(player, rng)
        trails = tuple(trail if s == player else () for s, trail in enumerate(flow.trail))
        sampled = SampledState(world, trails, [])
        for _ in range(len(buffered)):
            sampled.apply_action(rng.choice(sampled.legal_actions()))
        return sampled

    return resample
