"""PettingZoo environments of the game: :func:`parallel_env` and :func:`env` (AEC) (spec 9.2-9.4).

>>> from darkempire.adapters.pettingzoo import parallel_env
>>> penv = parallel_env(players=3)
>>> observations, infos = penv.reset(seed=1)
>>> penv.agents, observations["player_0"]["action_mask"].sum()
(['player_0', 'player_1', 'player_2'], np.int64(36))

Install the ``pettingzoo`` extra (``pip install "darkempire[pettingzoo]"``).

* **Agents** ``player_0`` ... ``player_{N-1}`` are the seats, ``N`` = ``players`` (3-5, default 4).
* **Actions**: ``Discrete(6857)``, the integer actions of :mod:`darkempire.adapters.core` (the same as in
  :mod:`darkempire.adapters.openspiel`). Each observation carries an ``action_mask`` (int8, 1 for each legal
  action). A seat the step does not await has the single legal action 0 (wait).
* **Observations**: ``{"observation": Box(float32), "action_mask": Box(int8)}``; the tensor is the seat's
  :class:`~darkempire.views.PlayerView`, laid out as :func:`darkempire.adapters.core.tensor_layout` says (a
  fixed size for each number of players), so it shows nothing the view does not; it holds everything
  ``render()``'s text of the same view shows (:func:`darkempire.adapters.core.view_fields`).
* **Rewards**: 0 until the end; then the verdict's winners share +1 (each gets ``1 / len(winners)``) and
  every other seat gets -1 (rules 8.2-8.5). All agents terminate together when the game ends.
* **Chance**: the engine's own generator (:class:`~darkempire.chance.Chance`), seeded by ``reset(seed=...)``;
  a ``reset()`` without a seed continues the environment's own seeded sequence of games.
* **Illegal actions** raise :class:`~darkempire.errors.IllegalActionError`; an action that is not an integer
  (``1.9``, ``"5"``, ``True``) raises :class:`~darkempire.errors.InvalidArgumentError` and is never rounded or
  parsed (:func:`action_index`; numpy integers are integers). Both are :class:`ValueError`.

Conformance: the test suite runs PettingZoo's ``parallel_api_test`` on :func:`parallel_env`, ``api_test`` on
:func:`env`, and ``seed_test`` both on :func:`env` and on ``parallel_to_aec(parallel_env())``, for 3, 4 and 5
players. PettingZoo's ``parallel_seed_test`` cannot run on these environments: it samples every action from
``action_space(agent)`` without the action mask, so its first step fails with an
:class:`~darkempire.errors.IllegalActionError` such as "action 611 is not legal for player_0" (and in
PettingZoo 1.27 it checks one step only). ``seed_test`` of the parallel environment seen as AEC checks the
same seeding over whole games, with masked actions.

In the parallel environment every agent acts at every step (0 for the seats not awaited). In the AEC
environment only the awaited seats act, in seat order; a seat that acts later in the same step sees that the
earlier ones have chosen, not what (their choices are pending, as in the engine's ``apply``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import gymnasium
import numpy as np
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from darkempire.rules import engine
from darkempire.adapters.core import NUM_ACTIONS, decode, fill_tensor, legal_indices, tensor_size, view_text
from darkempire.rules.errors import ConfigError, IllegalActionError, InvalidArgumentError, MissingChoiceError
from darkempire.serialization import quote
from darkempire.rules.state import GameConfig, GameState
from darkempire.rules.views import player_view, spectator_view

__all__ = ["DarkEmpireAECEnv", "DarkEmpireParallelEnv", "action_index", "env", "parallel_env", "raw_env"]

_NAME: Final = "dark_empire_revolution_v0"


def action_index(agent: str, action: object) -> int:
    """``agent``'s action as an index of ``Discrete(6857)``: a Python or numpy integer (or a 0-d integer array,
    as ``gymnasium.spaces.Discrete.contains`` accepts).

    :raises InvalidArgumentError: for anything else (``1.9``, ``"5"``, ``True``): nothing is rounded or parsed.
    """
    value = action
    if isinstance(value, np.ndarray) and value.shape == ():
        value = value[()]
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise InvalidArgumentError(f"the action of {agent} must be an integer 0-{NUM_ACTIONS - 1}, not "
                                   f"{quote(action)} ({type(action).__name__})")  # fmt: skip
    index = int(value)
    if not 0 <= index < NUM_ACTIONS:
        # Named by its bit length: the repr of a 5000-digit int raises, and a long one makes a huge message.
        raise IllegalActionError(
            f"the action of {agent} must be an integer 0-{NUM_ACTIONS - 1}, not an integer of {index.bit_length()} "
            f"bits{' (negative)' if index < 0 else ''}",
            rule="9.1",
        )
    return index


class _Seats:
    """What both environments share: the agents, their spaces, the engine state and the observations."""

    def __init__(self, players: int, render_mode: str | None) -> None:
        if not isinstance(players, int) or not 3 <= players <= 5:
            raise ConfigError(f"the game is for 3 to 5 players, not {players!r} (rule 2.1)")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r} is not supported; use 'ansi' or None")
        self.players = players
        self.render_mode = render_mode
        self.names = [f"player_{s}" for s in range(players)]
        self.seat_of = {name: s for s, name in enumerate(self.names)}
        size = tensor_size(players)
        self.observation_spaces = {
            name: gymnasium.spaces.Dict(
                {
                    "observation": gymnasium.spaces.Box(-np.inf, np.inf, (size,), np.float32),
                    "action_mask": gymnasium.spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
                }
            )
            for name in self.names
        }
        self.action_spaces = {name: gymnasium.spaces.Discrete(NUM_ACTIONS) for name in self.names}
        self.rng = np.random.default_rng()
        self.state: GameState = engine.deal(GameConfig(players=players), 0)
        self._flat = np.zeros(tensor_size(players), dtype=np.float32)

    def reset(self, seed: int | None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self.state = engine.deal(GameConfig(players=self.players), int(self.rng.integers(2**63)))

    def observe(self, seat: int) -> dict[str, np.ndarray[Any, Any]]:
        fill_tensor(self._flat, player_view(self.state, seat))
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        mask[legal_indices(self.state, seat)] = 1
        return {"observation": self._flat.copy(), "action_mask": mask}

    def choose(self, seat: int, action: Any) -> None:
        """Record ``seat``'s action (its wait is nothing to record).

        :raises InvalidArgumentError: if the action is not an integer (:func:`action_index`).
        :raises IllegalActionError: if it is not legal for the seat.
        """
        index = action_index(self.names[seat], action)
        legal = legal_indices(self.state, seat)
        if index not in legal:
            raise IllegalActionError(f"action {index} is not legal for {self.names[seat]}; legal: {legal[:10]}...",
                                     rule="9.2")
        chosen = decode(self.state, seat, index)
        if chosen is not None:
            self.state = engine.apply(self.state, seat, chosen)

    def returns(self) -> dict[str, float]:
        if not self.state.is_over:
            return dict.fromkeys(self.names, 0.0)
        assert self.state.verdict is not None
        winners = self.state.verdict.winners
        return {name: (1.0 / len(winners) if s in winners else -1.0) for s, name in enumerate(self.names)}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return view_text(spectator_view(self.state))


class _SeatsEnv:
    """What both environments share: the seats of one game, the spaces, the metadata and the rendering.

    :param players: number of seats, 3-5.
    :param render_mode: ``"ansi"`` (the spectator view as text) or ``None``.
    :raises ConfigError: for a number of players outside 3-5.
    """

    #: PettingZoo metadata.
    metadata: dict[str, Any] = {"name": _NAME, "render_modes": ["ansi"], "is_parallelizable": True}

    def _set_up(self, players: int, render_mode: str | None) -> None:
        self._seats = _Seats(players, render_mode)
        self.render_mode = render_mode
        self.possible_agents = list(self._seats.names)
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The agent's observation space (the same object on every call)."""
        return self._seats.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The agent's action space, ``Discrete(6857)`` (the same object on every call)."""
        return self._seats.action_spaces[agent]

    def render(self) -> str | None:
        """The spectator view as text with ``render_mode="ansi"``; nothing otherwise."""
        return self._seats.render()

    def close(self) -> None:
        """Nothing to release."""


class DarkEmpireParallelEnv(_SeatsEnv, ParallelEnv):  # type: ignore[misc]  # PettingZoo's base class is untyped here
    """The game as a PettingZoo parallel environment: every agent acts at every step.

    :param players: number of seats, 3-5.
    :param render_mode: ``"ansi"`` (the spectator view as text) or ``None``.
    :raises ConfigError: for a number of players outside 3-5.
    """

    def __init__(self, players: int = 4, render_mode: str | None = None) -> None:
        self._set_up(players, render_mode)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """Deal a new game (seeded by ``seed`` if given) and return every agent's observation and info."""
        self._seats.reset(seed)
        self.agents = list(self.possible_agents)
        return {a: self._seats.observe(self._seats.seat_of[a]) for a in self.agents}, {a: {} for a in self.agents}

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]]:
        """Every agent's action (0 for those not awaited); the step resolves and the next one begins.

        :raises MissingChoiceError: if an agent's action is missing.
        :raises IllegalActionError: if an action is not legal.
        :raises InvalidArgumentError: if an action is not an integer (:func:`action_index`), or ``actions``
            is not a mapping of agents to actions.
        """
        if not isinstance(actions, Mapping):
            raise InvalidArgumentError(f"step takes a mapping of agents to actions, not {type(actions).__name__}")
        seats = self._seats
        for agent in self.agents:
            if agent not in actions:
                raise MissingChoiceError(f"no action for {agent}", rule="9.2")
        before = seats.state
        chosen = []
        for agent in self.agents:  # every action is checked against the step's state before any is applied
            seat, index = seats.seat_of[agent], action_index(agent, actions[agent])
            if index not in legal_indices(before, seat):
                raise IllegalActionError(f"action {index} is not legal for {agent}", rule="9.2")
            action = decode(before, seat, index)
            if action is not None:
                chosen.append((seat, action))
        for seat, action in chosen:  # the last awaited seat's choice resolves the step
            seats.state = engine.apply(seats.state, seat, action)
        agents = list(self.agents)
        over = seats.state.is_over
        observations = {a: seats.observe(seats.seat_of[a]) for a in agents}
        rewards = {a: seats.returns()[a] for a in agents}
        terminations = dict.fromkeys(agents, over)
        truncations = dict.fromkeys(agents, False)
        infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def state(self) -> np.ndarray[Any, Any]:
        """The spectator view as a tensor (public information only)."""
        flat = np.zeros(tensor_size(self._seats.players), dtype=np.float32)
        fill_tensor(flat, spectator_view(self._seats.state))
        return flat



class DarkEmpireAECEnv(_SeatsEnv, AECEnv):  # type: ignore[misc]  # PettingZoo's base class is untyped here
    """The game as a PettingZoo AEC environment: the awaited seats act one at a time, in seat order.

    :param players: number of seats, 3-5.
    :param render_mode: ``"ansi"`` (the spectator view as text) or ``None``.
    :raises ConfigError: for a number of players outside 3-5.
    """

    def __init__(self, players: int = 4, render_mode: str | None = None) -> None:
        super().__init__()
        self._set_up(players, render_mode)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game (seeded by ``seed`` if given); the first awaited seat is selected."""
        self._seats.reset(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        state = self._seats.state
        if state.is_over:
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self._seats.names[min(engine.awaited_seats(state))]

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        """The agent's observation now (its view) and its action mask."""
        return self._seats.observe(self._seats.seat_of[agent])

    def step(self, action: Any) -> None:
        """The selected agent's action; ``None`` for an agent whose game is over.

        :raises InvalidArgumentError: if the action is not an integer (:func:`action_index`).
        :raises IllegalActionError: if it is not legal.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._seats.choose(self._seats.seat_of[agent], action)
        if self._seats.state.is_over:
            self.rewards = self._seats.returns()
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
        self._select()
        self._accumulate_rewards()



def raw_env(players: int = 4, render_mode: str | None = None) -> DarkEmpireAECEnv:
    """The AEC environment without PettingZoo's wrappers."""
    return DarkEmpireAECEnv(players=players, render_mode=render_mode)


def env(players: int = 4, render_mode: str | None = None) -> AECEnv:
    """The AEC environment, wrapped by PettingZoo's out-of-bounds and order-enforcing checks."""
    wrapped = wrappers.AssertOutOfBoundsWrapper(raw_env(players=players, render_mode=render_mode))
    return wrappers.OrderEnforcingWrapper(wrapped)


def parallel_env(players: int = 4, render_mode: str | None = None) -> DarkEmpireParallelEnv:
    """The parallel environment."""
    return DarkEmpireParallelEnv(players=players, render_mode=render_mode)
