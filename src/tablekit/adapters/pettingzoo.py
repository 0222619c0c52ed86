"""A PettingZoo parallel environment for any :class:`~tablekit.game.Game`, over the same
:class:`~tablekit.adapters.flow.KitFlow` as the OpenSpiel base.

Install the ``pettingzoo`` extra; this is the only kit module that imports ``pettingzoo`` and ``gymnasium``.

* **Agents** ``player_0`` ... ``player_{N-1}`` are the seats.
* **Actions**: ``Discrete(num_actions)``, the integers of the game's
  :class:`~tablekit.adapters.flow.ActionEncoder`; every agent acts at every step, a seat the step does not
  await with :data:`~tablekit.adapters.flow.NO_OP` (its only legal action). A one-seat step is a step where
  the other agents wait.
* **Observations**: ``{"observation": Box(float32), "action_mask": Box(int8)}``: the game-given ``tensor``
  of the seat's :meth:`~tablekit.game.Game.view` (so it shows nothing the view does not), and 1 for each
  legal action.
* **Chance**: PettingZoo has no chance nodes, so the environment draws each one itself, uniformly among the
  draw's options, with a numpy generator seeded by ``reset(seed=...)``; a ``reset()`` without a seed
  continues the environment's own sequence.
* **Rewards**: the game's :meth:`~tablekit.game.Game.returns` at the end, 0 before; every agent terminates
  when the game ends.
* **Bad actions** raise :class:`~tablekit.adapters.flow.AdapterError`: a missing agent, an action that is not
  an integer (``1.9``, ``True``; a numpy integer is one) or is not legal for its seat.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import ParallelEnv

from tablekit.adapters.flow import ActionEncoder, AdapterError, KitFlow, decode_joint, legal_encoded
from tablekit.game import Game

__all__ = ["KitParallelEnv"]

Tensor = np.ndarray[Any, np.dtype[np.float32]]


def _index(agent: str, action: object) -> int:
    """``agent``'s action as a Python integer: an ``int`` or a numpy integer (a 0-d array of one), nothing else."""
    value = action[()] if isinstance(action, np.ndarray) and action.shape == () else action
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise AdapterError(f"the action of {agent} must be an integer, not {type(action).__name__}")
    return int(value)


class KitParallelEnv(ParallelEnv):  # type: ignore[misc]  # PettingZoo's base class is untyped here
    """A game as a PettingZoo parallel environment.

    :param game: the rules.
    :param config: the game's config, for every game the environment plays.
    :param players: the number of seats of that config.
    :param encoder: the actions as integers.
    :param tensor: a seat's view (the spectator's for :meth:`state`) as a float32 vector of ``size`` numbers.
    :param size: the length of every ``tensor``.
    :param name: the environment's name in its metadata (``"toyspiel_v0"``).
    :param render_mode: ``"ansi"`` (``repr`` of the spectator's view) or ``None``.
    :raises AdapterError: for another render mode.
    """

    metadata: dict[str, Any] = {"name": "tablekit_v0", "render_modes": ["ansi"], "is_parallelizable": True}

    def __init__(self, game: Game[Any, Any, Any, Any, Any], config: Any, players: int,
                 encoder: ActionEncoder[Any, Any], tensor: Callable[[Any], Tensor], size: int, name: str,
                 render_mode: str | None = None) -> None:  # fmt: skip
        if render_mode not in (None, "ansi"):
            raise AdapterError(f"render_mode {render_mode!r} is not supported; use 'ansi' or None")
        self.metadata = {**self.metadata, "name": name}
        self.render_mode = render_mode
        self._game, self._config, self._encoder, self._tensor = game, config, encoder, tensor
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents: list[str] = []
        self._observation_space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(-np.inf, np.inf, (size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (encoder.num_actions,), np.int8),
        })  # fmt: skip
        self._action_space = gymnasium.spaces.Discrete(encoder.num_actions)
        self._rng = np.random.default_rng()
        self._flow: KitFlow[Any, Any, Any] = self._drawn(KitFlow.start(game, config, players))

    @property
    def flow(self) -> KitFlow[Any, Any, Any]:
        """The game in progress (always at a decision or at the end: the environment draws chance itself)."""
        return self._flow

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The agent's observation space (the same object for every agent and call)."""
        return self._observation_space

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """``Discrete(num_actions)`` (the same object for every agent and call)."""
        return self._action_space

    def _drawn(self, flow: KitFlow[Any, Any, Any]) -> KitFlow[Any, Any, Any]:
        while flow.node is not None:
            flow = flow.apply_chance(int(self._rng.integers(flow.node.count)))
        return flow

    def _observe(self, seat: int) -> dict[str, Any]:
        mask = np.zeros(self._encoder.num_actions, dtype=np.int8)
        mask[list(legal_encoded(self._flow, self._encoder, seat))] = 1
        view = self._game.view(self._flow.state, seat)
        return {"observation": np.asarray(self._tensor(view), dtype=np.float32), "action_mask": mask}

    def reset(self, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:  # fmt: skip
        """A new game (its draws seeded by ``seed`` if given); every agent's observation and info."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._flow = self._drawn(KitFlow.start(self._game, self._config, len(self.possible_agents)))
        self.agents = list(self.possible_agents)
        return {a: self._observe(s) for s, a in enumerate(self.agents)}, {a: {} for a in self.agents}

    def step(self, actions: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, float], dict[str, bool],
                                                         dict[str, bool], dict[str, dict[str, Any]]]:  # fmt: skip
        """Every agent's action (:data:`~tablekit.adapters.flow.NO_OP` for those not awaited); the step
        resolves, its draws are made, and the next decision begins.

        :raises AdapterError: the game is over, an agent's action is missing, not an integer or not legal.
        """
        if not self.agents:
            raise AdapterError("the game is over: reset the environment")
        if not isinstance(actions, Mapping) or set(self.agents) - set(actions):
            raise AdapterError(f"step takes an action for every agent: {self.agents}")
        joint = [_index(agent, actions[agent]) for agent in self.agents]
        self._flow = self._drawn(self._flow.apply_joint(decode_joint(self._flow, self._encoder, joint)))
        agents, over = list(self.agents), self._flow.is_over
        returns = self._flow.returns()
        observations = {a: self._observe(s) for s, a in enumerate(agents)}
        rewards = {a: float(returns[s]) for s, a in enumerate(agents)}
        if over:
            self.agents = []
        return observations, rewards, dict.fromkeys(agents, over), dict.fromkeys(agents, False), {a: {} for a in agents}

    def state(self) -> Tensor:
        """The spectator's view as a tensor (public information only)."""
        return np.asarray(self._tensor(self._game.view(self._flow.state, None)), dtype=np.float32)

    def render(self) -> str | None:
        """``repr`` of the spectator's view with ``render_mode="ansi"``; nothing otherwise."""
        return None if self.render_mode is None else repr(self._game.view(self._flow.state, None))

    def close(self) -> None:
        """Nothing to release."""
