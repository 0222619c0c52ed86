"""An OpenSpiel game for any :class:`~tablekit.game.Game`: :func:`register` it under a short name.

>>> import pyspiel  # doctest: +SKIP
>>> register(GAME, Encoder(), "toyspiel", config=..., limits=...)  # doctest: +SKIP
>>> pyspiel.load_game("toyspiel(players=3)")  # doctest: +SKIP

Install the ``openspiel`` extra (PyPI name ``open-spiel``); this is the only kit module that imports
``pyspiel``.

What the game is
================

* **Simultaneous moves, explicit chance** (``SIMULTANEOUS``, ``EXPLICIT_STOCHASTIC``). A state is a
  :class:`~tablekit.adapters.flow.KitFlow`. At a decision every seat acts: a seat the step awaits
  (:meth:`~tablekit.game.Game.awaited`) chooses among its legal actions, every other seat has the one legal
  action :data:`~tablekit.adapters.flow.NO_OP` ("wait"). A one-seat step is a simultaneous node with one
  real choice, so a game that mixes simultaneous and sequential steps needs no special case;
  ``pyspiel.convert_to_turn_based`` gives the turn-based form. Every draw the game makes through its
  :class:`~tablekit.chance.ChanceSource` is a chance node, where :func:`~tablekit.chance.run_scripted`
  stops: its outcomes are the draw's option indices ``0 .. count - 1``, equally likely.
* **Sequential games** (``register(..., sequential=True)``, or a game type of ``SEQUENTIAL`` dynamics): for a
  game every decision of which awaits exactly one seat (Revolution!'s adapter game, or any game played
  through :class:`~tablekit.adapters.turns.InTurns`), the node's player is that seat, it alone has legal
  actions, and ``apply_action`` takes its one integer; there is no :data:`~tablekit.adapters.flow.NO_OP`
  in its histories. A decision that awaits several seats is the game's fault
  (:class:`~tablekit.errors.GameContractError`).
* **Actions** are integers from the game's :class:`~tablekit.adapters.flow.ActionEncoder`: ``0`` is
  :data:`~tablekit.adapters.flow.NO_OP`, and every legal action of a seat encodes to one of
  ``1 .. num_actions - 1``, distinct within a seat's legal actions.
* **Observations** are the game's :meth:`~tablekit.game.Game.view` for the seat, written by the ``observe``
  function given to :func:`register` (``repr`` by default); while a step draws its outcomes, the seat also
  sees which seats chose and its own choice. The information state (perfect recall) is one line per earlier
  decision, what the seat saw and what it chose, then the current observation. A public-only observer shows
  the spectator's view (``view(state, None)``). No tensors: a game's tensor belongs in its own adapter.
* **Returns**: the game's :meth:`~tablekit.game.Game.returns` at the end, 0 before (terminal reward model).
* **Serialization**: :meth:`KitState.serialize` writes the history of integers, one per line (as OpenSpiel
  does for its own explicit-chance games); :meth:`KitGame.deserialize_state` replays it, checking each action,
  and never unpickles.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs
import pyspiel

from tablekit.adapters.flow import NO_OP, ActionEncoder, AdapterError, KitFlow, OutcomeError, decode_joint, legal_encoded
from tablekit.errors import GameContractError, IllegalChoiceError
from tablekit.game import Game
from tablekit.wire import quote

__all__ = ["KitGame", "KitObserver", "KitState", "Limits", "Spec", "game_type", "is_sequential", "node_player",
           "register", "replay_history"]

@attrs.frozen
class Limits:
    """The sizes OpenSpiel asks of a game for one config (``pyspiel.GameInfo``).

    :ivar players: the number of seats.
    :ivar max_chance_outcomes: the most options of any draw.
    :ivar max_game_length: the most decisions (joint actions) in a game.
    :ivar min_utility: the lowest return.
    :ivar max_utility: the highest return.
    :ivar utility_sum: the sum of the returns if it is constant (a zero-sum game: 0), else ``None``.
    """

    players: int
    max_chance_outcomes: int
    max_game_length: int
    min_utility: float
    max_utility: float
    utility_sum: float | None = None


@attrs.frozen
class Spec:
    """Everything :func:`register` was given: a game, how to encode it, and how to build it from parameters.

    A game's own :class:`KitGame` subclass (one with a tensor, say) builds its spec itself and passes it to
    ``KitGame.__init__``, with its own ``pyspiel.GameType``.

    :ivar observe: writes a view as an observation string.
    :ivar outcome: the id of a drawn option as a chance outcome (:class:`~tablekit.adapters.flow.KitFlow`);
        ``None``: its index.
    """

    game: Game[Any, Any, Any, Any, Any]
    encoder: ActionEncoder[Any, Any]
    game_type: Any
    config: Callable[[Mapping[str, Any]], Any]
    limits: Callable[[Any], Limits]
    observe: Callable[[Any], str] = repr
    outcome: Callable[[Any], int] | None = None


def node_player(is_over: bool, is_chance: bool, seat: int | None = None) -> int:
    """Who acts at a node of a game with explicit chance, as OpenSpiel numbers it: ``pyspiel.PlayerId.TERMINAL``
    at the end, ``CHANCE`` at a draw, and at a decision ``seat`` (the one awaited seat of a sequential game) or,
    if ``None``, ``SIMULTANEOUS``."""
    if is_over:
        return int(pyspiel.PlayerId.TERMINAL)
    if is_chance:
        return int(pyspiel.PlayerId.CHANCE)
    return int(pyspiel.PlayerId.SIMULTANEOUS) if seat is None else seat


def is_sequential(game_type: Any) -> bool:
    """Whether an OpenSpiel game type is sequential (its every decision awaits one seat)."""
    return bool(game_type.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL)


class KitGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type hints
    """The OpenSpiel game of a :class:`Spec` for the given parameters (:func:`register` makes the subclass
    OpenSpiel loads by name).

    :raises AdapterError: if the parameters do not make a config (the ``config`` function's own typed error
        is raised as the cause).
    """

    def __init__(self, spec: Spec, params: Mapping[str, Any] | None = None) -> None:
        known = spec.game_type.parameter_specification
        if params is not None and not isinstance(params, Mapping):
            raise AdapterError(f"{spec.game_type.short_name}: the parameters are a mapping, not {quote(params, 40)}")
        unknown = sorted(map(str, set(params or {}) - set(known)))
        if unknown:  # pyspiel.load_game refuses them too: a game built with one could never be loaded back
            raise AdapterError(f"{spec.game_type.short_name}: unknown parameter {unknown[0]!r}; the parameters are "
                               f"{sorted(known)}")  # fmt: skip
        params = {**known, **(params or {})}
        try:
            config = spec.config(params)
        except (TypeError, ValueError) as error:
            raise AdapterError(f"{spec.game_type.short_name}: no game for parameters {params}: {error}") from error
        limits = spec.limits(config)
        info = pyspiel.GameInfo(num_distinct_actions=spec.encoder.num_actions,
                                max_chance_outcomes=limits.max_chance_outcomes, num_players=limits.players,
                                min_utility=limits.min_utility, max_utility=limits.max_utility,
                                utility_sum=limits.utility_sum, max_game_length=limits.max_game_length)  # fmt: skip
        super().__init__(spec.game_type, info, params)
        self.spec = spec
        self.players: int = limits.players
        self._start: KitFlow[Any, Any, Any] = self.start_flow(config, limits.players)

    def start_flow(self, config: Any, players: int) -> KitFlow[Any, Any, Any]:
        """The flow of a new game, built once per game (a subclass returns its own kind of flow)."""
        return KitFlow.start(self.spec.game, config, players, outcome=self.spec.outcome)

    def new_initial_state(self) -> KitState:
        """A new game, at the set-up's first draw (or its first decision if it draws nothing)."""
        return KitState(self, self._start)

    def make_py_observer(self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None) -> KitObserver:
        """An observer of the given kind (see :class:`KitObserver`)."""
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        return KitObserver(self.spec, kind, params)

    def deserialize_state(self, text: str) -> KitState:
        """The state :meth:`KitState.serialize` wrote, rebuilt by replaying its history.

        :raises AdapterError: for text that is not one integer per line, or a history that is not legal here.
        """
        if not isinstance(text, str):
            raise AdapterError(f"a serialized state is text, not {type(text).__name__}")
        lines = text.split("\n") if text else []
        for at, line in enumerate(lines):
            # Bounded before int(): a line of thousands of digits is no action (and int() would refuse it).
            if len(line) > 20 or not (line.isascii() and line.isdigit()):  # no sign: pyspiel aborts on -1
                raise AdapterError(f"line {at + 1} of a serialized state is not an action: {line!r:.30}")
        state = self.new_initial_state()
        buffered = replay_history(state, [int(line) for line in lines], _refused)
        if buffered:
            raise AdapterError(f"the history ends within a joint action ({len(buffered)} of {self.players})")
        return state


def _refused(at: int, action: object) -> AdapterError:
    return AdapterError(f"action {at} of the history, {action!r:.20}, is not legal here")


def replay_history(state: Any, history: Iterable[object], refuse: Callable[[int, object], Exception],
                   buffered: Sequence[int] = ()) -> list[int]:  # fmt: skip
    """Apply a history of integers to an OpenSpiel ``state`` of a game with explicit chance, in place: at a
    chance node one integer is the outcome, at a simultaneous decision one integer per seat, in seat order,
    make the joint action, at a sequential decision one integer is the acting seat's action. Every integer is
    checked first against the legal actions of whoever acts.

    This is the one loop behind every ``deserialize_state`` and every replay of a turn-based history (whose
    integers are the same, one seat after the other).

    :param state: the state to apply the history to (a new initial state, typically); any ``pyspiel.State``.
    :param history: the integers, as ``state.history()`` gives them.
    :param refuse: the error to raise for the integer at position ``at`` that is not legal (or not an ``int``).
    :param buffered: the actions already chosen in the current joint action (a turn-based history's tail).
    :returns: the actions of the joint action the history ends within (``[]`` if it ends between nodes).
    :raises Exception: what ``refuse`` gives, for the first integer that is not legal.
    """
    pending = list(buffered)
    players = state.num_players()
    for at, action in enumerate(history):
        single = state.is_chance_node() or not state.is_simultaneous_node()
        legal = state.legal_actions() if single else state.legal_actions(len(pending))
        if type(action) is not int or action not in legal:  # True and 1.0 are no actions
            raise refuse(at, action)
        if single:
            state.apply_action(action)
            continue
        pending.append(action)
        if len(pending) == players:
            state.apply_actions(pending)
            pending = []
    return pending


class KitState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type hints
    """A state of a :class:`KitGame`: a :class:`~tablekit.adapters.flow.KitFlow`.

    :param game: the game.
    :param flow: the game's progress.
    """

    def __init__(self, game: KitGame, flow: KitFlow[Any, Any, Any]) -> None:
        super().__init__(game)
        self._flow = flow  # the only attribute: OpenSpiel's C++ side pickles a Python state's attributes

    @property
    def _spec(self) -> Spec:
        spec: Spec = self.get_game().spec
        return spec

    @property
    def flow(self) -> KitFlow[Any, Any, Any]:
        """The game's progress: decided state, choices drawing their outcomes, outcomes drawn, decisions."""
        return self._flow

    def current_player(self) -> int:
        """``pyspiel.PlayerId.TERMINAL``, ``CHANCE`` or ``SIMULTANEOUS`` (:func:`node_player`); in a sequential
        game the awaited seat at a decision.

        :raises GameContractError: a decision of a sequential game awaits more than one seat.
        """
        flow = self._flow
        if flow.is_over or flow.is_chance or not is_sequential(self._spec.game_type):
            return node_player(flow.is_over, flow.is_chance)
        return self._single_seat()

    def _single_seat(self) -> int:
        awaited = self._flow.awaited
        if len(awaited) != 1:
            raise GameContractError(f"{self._spec.game.name}: a sequential game's decision awaits one seat, not "
                                    f"{sorted(awaited)}")  # fmt: skip
        return next(iter(awaited))

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(legal_encoded(self._flow, self._spec.encoder, player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The draw's outcome ids (its options' indices by default), each with the same probability; ``[]`` at
        decisions."""
        return self._flow.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        if self._flow.is_chance or not is_sequential(self._spec.game_type):
            self._flow = self._flow.apply_chance(action)
            return
        seat = self._single_seat()  # a sequential decision: the one seat's action, NO_OP for every other seat
        self._apply_actions([action if s == seat else NO_OP for s in range(self._flow.players)])

    def _apply_actions(self, actions: Sequence[int]) -> None:
        choices = decode_joint(self._flow, self._spec.encoder, list(actions))
        try:
            self._flow = self._flow.apply_joint(choices)
        except IllegalChoiceError as error:  # the game refused what it listed as legal
            raise GameContractError(f"{self._spec.game.name}: check refused a legal action: {error}") from error

    def _action_to_string(self, player: int, action: int) -> str:
        flow = self._flow
        node, state = flow.node, flow.state
        if player == pyspiel.PlayerId.CHANCE:
            outcomes = flow.outcomes  # ids by the game's outcome hook, or the options' indices
            if node is None or type(action) is not int or action not in outcomes:
                where = "no chance node is due" if node is None else f"{node.name!r} has {quote(outcomes, 60)}"
                raise OutcomeError(f"{quote(action, 20)} is not a chance outcome here: {where}")
            return f"{node.name}: outcome {action} ({node.options[outcomes.index(action)]!r})"
        if type(player) is not int or not 0 <= player < flow.players:
            raise AdapterError(f"there is no seat {quote(player, 20)} in this {flow.players}-seat game")
        if type(action) is not int or not 0 <= action < self._spec.encoder.num_actions:
            raise AdapterError(f"{quote(action, 20)} is no action: actions are 0-{self._spec.encoder.num_actions - 1}")
        if action == NO_OP or state is None:
            return f"seat {player}: wait" if action == NO_OP else f"seat {player}: action {action}"
        return f"seat {player}: {self._spec.encoder.decode(state, player, action)!r}"

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._flow.is_over

    def returns(self) -> list[float]:
        """The game's returns at the end, 0 before."""
        return list(self._flow.returns())

    def rewards(self) -> list[float]:
        """The returns at the end, 0 before (terminal reward model)."""
        return list(self._flow.returns())

    def __str__(self) -> str:
        flow = self._flow
        node = "" if flow.node is None else f"\ndrawing {flow.node.name!r} ({flow.node.count} options)"
        return f"{flow.state!r}{node}"

    def serialize(self) -> str:
        """The history, one integer per line (:meth:`KitGame.deserialize_state` replays it)."""
        return "\n".join(str(action) for action in self.history())


class KitObserver:
    """OpenSpiel's Python observer interface, over the game's views; strings only (``tensor`` is ``None``).

    ============================================  =========================================================
    ``iig_obs_type``                              string
    ============================================  =========================================================
    public and own private info, no recall        the seat's observation (the default)
    public and own private info, perfect recall   the information state: earlier decisions, then now
    public info only, no recall                   the spectator's observation
    ============================================  =========================================================

    A game's subclass may offer more kinds (:meth:`refused`), a tensor (fill ``tensor`` and ``dict`` in its
    ``__init__`` and :meth:`set_from`) and its own strings: the kind is read once, into ``public``, ``private``
    (the seat's own) and ``recall``.

    :raises AdapterError: for parameters, or any other kind (another seat's private information, or a private
        part the kit cannot split from a view).
    """

    def __init__(self, spec: Spec, iig_obs_type: Any, params: Mapping[str, Any] | None) -> None:
        if params:
            raise AdapterError(f"observation parameters are not supported: {dict(params)}")
        if not isinstance(iig_obs_type, pyspiel.IIGObservationType):
            raise AdapterError(f"the kind of observation is a pyspiel.IIGObservationType, not {quote(iig_obs_type, 40)}")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise AdapterError("an observation shows one seat's private information, not every seat's")
        self.public = bool(iig_obs_type.public_info)
        self.private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.recall = bool(iig_obs_type.perfect_recall)
        refused = self.refused()
        if refused:
            raise AdapterError(refused)
        self._spec = spec
        self.tensor: Any = None
        self.dict: dict[str, Any] = {}

    def refused(self) -> str | None:
        """Why this observer's kind (``public``, ``private``, ``recall``) is not offered; ``None`` if it is."""
        if (self.public and self.private) or (self.public and not self.recall):
            return None
        return "an observation is a seat's (public and own private info) or the spectator's (public info only, no recall)"

    def set_from(self, state: KitState, player: int) -> None:
        """Nothing: the kit's observer has no tensor."""

    def string_from(self, state: KitState, player: int) -> str:
        """``player``'s observation or information state of ``state`` (the spectator's if public-only).

        :raises AdapterError: ``player`` is no seat of the game (OpenSpiel's C++ side does not check a Python
            observer's calls).
        """
        flow = state.flow
        if type(player) is not int or not 0 <= player < flow.players:
            raise AdapterError(f"there is no seat {quote(player, 20)} in this {flow.players}-seat game")
        if not self.private:
            return _observation(self._spec, flow, None)
        if not self.recall:
            return _observation(self._spec, flow, player)
        lines = [f"{self._spec.observe(self._spec.game.view(past, player))} => {_own(joint, player)!r}"
                 for past, joint in flow.past]  # fmt: skip
        return "\n".join((*lines, _observation(self._spec, flow, player)))


def _own(joint: tuple[tuple[int, Any], ...], seat: int) -> Any:
    return next((action for chosen, action in joint if chosen == seat), "wait")


def _observation(spec: Spec, flow: KitFlow[Any, Any, Any], seat: int | None) -> str:
    """What ``seat`` sees now: its view; while a step draws, who chose and its own choice."""
    if flow.state is None:
        return f"set-up: {len(flow.script)} draws made"
    text = spec.observe(spec.game.view(flow.state, seat))
    if flow.choices is not None:
        text += f"\nchosen: {[chosen for chosen, _ in flow.choices]}"
        if seat is not None and flow.own_choice(seat) is not None:
            text += f"\nown choice: {flow.own_choice(seat)!r}"
    return text


def game_type(
    short_name: str,
    *,
    players: tuple[int, int],
    parameters: Mapping[str, Any],
    long_name: str | None = None,
    sequential: bool = False,
    chance: bool = True,
    utility: Any = None,
    information_state_tensor: bool = False,
    observation_tensor: bool = False,
    factored_observation_string: bool = False,
) -> Any:
    """The ``pyspiel.GameType`` of a game on the kit: what every such game shares, imperfect information,
    terminal rewards, an information state and an observation as strings, and what differs given.

    :func:`register` builds its game type so, and a game with an adapter of its own (its own tensors, no
    chance) calls it for its ``GameType``.

    :param short_name: the name to load it by.
    :param players: the fewest and the most seats.
    :param parameters: the parameters and their defaults (OpenSpiel's ``parameter_specification``).
    :param long_name: the game's name for people (the short name by default).
    :param sequential: ``SEQUENTIAL`` dynamics (one seat at every decision), else ``SIMULTANEOUS``.
    :param chance: ``EXPLICIT_STOCHASTIC`` chance nodes, else ``DETERMINISTIC`` (a game that draws nothing).
    :param utility: a ``pyspiel.GameType.Utility`` (general-sum by default).
    :param information_state_tensor: whether the game's states give an information state tensor.
    :param observation_tensor: whether they give an observation tensor.
    :param factored_observation_string: whether they give the public and private parts of an observation.
    """
    dynamics = pyspiel.GameType.Dynamics.SEQUENTIAL if sequential else pyspiel.GameType.Dynamics.SIMULTANEOUS
    mode = pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if chance else pyspiel.GameType.ChanceMode.DETERMINISTIC
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name or short_name,
        dynamics=dynamics,
        chance_mode=mode,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility if utility is not None else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players[1],
        min_num_players=players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=information_state_tensor,
        provides_observation_string=True,
        provides_observation_tensor=observation_tensor,
        parameter_specification=dict(parameters),
        provides_factored_observation_string=factored_observation_string,
    )


def register(
    game: Game[Any, Any, Any, Any, Any],
    encoder: ActionEncoder[Any, Any],
    short_name: str,
    *,
    config: Callable[[Mapping[str, Any]], Any],
    limits: Callable[[Any], Limits],
    parameters: Mapping[str, Any],
    players: tuple[int, int],
    long_name: str | None = None,
    observe: Callable[[Any], str] = repr,
    utility: Any = None,
    outcome: Callable[[Any], int] | None = None,
    sequential: bool = False,
) -> type[KitGame]:
    """Register ``game`` with OpenSpiel as ``short_name``; ``pyspiel.load_game(short_name)`` then builds it.

    :param game: the rules.
    :param encoder: its actions as integers (see :class:`~tablekit.adapters.flow.ActionEncoder`).
    :param short_name: the name to load it by.
    :param config: the game's config from OpenSpiel parameters (``parameters`` updated with the given ones).
    :param limits: the sizes of the game of a config.
    :param parameters: the parameters and their defaults (OpenSpiel's ``parameter_specification``).
    :param players: the fewest and the most seats.
    :param long_name: the game's name for people (the short name by default).
    :param observe: writes a view as an observation string.
    :param utility: a ``pyspiel.GameType.Utility`` (general-sum by default).
    :param outcome: the id of a drawn option as a chance outcome (its index by default); ids must be below
        the limits' ``max_chance_outcomes``.
    :param sequential: the game awaits one seat at every decision: register it as a sequential game (see the
        module docstring).
    :returns: the registered subclass of :class:`KitGame`.
    """
    kind = game_type(short_name, players=players, parameters=parameters, long_name=long_name, sequential=sequential,
                     utility=utility)
    spec = Spec(game, encoder, kind, config, limits, observe, outcome)

    class Registered(KitGame):
        __doc__ = f"{kind.long_name}, on the kit's OpenSpiel base."

        def __init__(self, params: Mapping[str, Any] | None = None) -> None:
            super().__init__(spec, params)

    Registered.__name__ = Registered.__qualname__ = f"KitGame_{short_name}"
    pyspiel.register_game(kind, Registered)
    return Registered
