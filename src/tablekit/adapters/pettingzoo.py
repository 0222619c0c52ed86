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
* **Chance**: PettingZoo has no chance nodes, so the environment makes every draw of a step itself
  (:meth:`~tablekit.adapters.flow.KitFlow.sample`), through a :class:`~tablekit.chance.SeededChance` whose
  seed comes from a numpy generator seeded by ``reset(seed=...)``; a ``reset()`` without a seed continues the
  environment's own sequence.
* **Rewards**: the game's :meth:`~tablekit.game.Game.returns` at the end, 0 before; every agent terminates
  when the game ends.
* **Bad actions** raise :class:`~tablekit.adapters.flow.AdapterError`: a missing agent, a key that is no agent,
  an action that is not an integer (``1.9``, ``True``; a numpy integer is one) or is not legal for its seat. A game's subclass
  raises its own errors instead (:meth:`KitParallelEnv.error`), lists legal actions its own way
  (:meth:`KitParallelEnv.legal`) and renders views its own way (``text``).
* **AEC**: :class:`KitAECEnv` is the same game with the awaited seats acting one at a time, in seat order,
  over a parallel environment: the step resolves when the last awaited seat has chosen.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv, ParallelEnv

from tablekit.adapters.flow import NO_OP, ActionEncoder, AdapterError, KitFlow, decode_joint, legal_encoded
from tablekit.chance import SeededChance
from tablekit.game import Game
from tablekit.wire import quote

__all__ = ["KitAECEnv", "KitParallelEnv", "action_integer"]

Tensor = np.ndarray[Any, np.dtype[np.float32]]


def action_integer(agent: str, action: object) -> int:
    """``agent``'s action as a Python integer: an ``int`` or a numpy integer (a 0-d array of one, as
    ``gymnasium.spaces.Discrete.contains`` accepts), nothing else: nothing is rounded or parsed.

    :raises AdapterError: for anything else (``1.9``, ``"5"``, ``True``).
    """
    value = action[()] if isinstance(action, np.ndarray) and action.shape == () else action
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise AdapterError(f"the action of {agent} must be an integer, not {quote(action, 20)} ({type(action).__name__})")
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
    :param render_mode: ``"ansi"`` (``text`` of the spectator's view) or ``None``.
    :param text: writes a view for :meth:`render` (``repr`` by default).
    :raises AdapterError: for another render mode.
    """

    metadata: dict[str, Any] = {"name": "tablekit_v0", "render_modes": ["ansi"], "is_parallelizable": True}

    def __init__(self, game: Game[Any, Any, Any, Any, Any], config: Any, players: int,
                 encoder: ActionEncoder[Any, Any], tensor: Callable[[Any], Tensor], size: int, name: str,
                 render_mode: str | None = None, text: Callable[[Any], str] = repr) -> None:  # fmt: skip
        if render_mode not in (None, "ansi"):
            raise AdapterError(f"render_mode {render_mode!r} is not supported; use 'ansi' or None")
        self.metadata = {**self.metadata, "name": name}
        self.render_mode = render_mode
        self._game, self._config, self._encoder, self._tensor, self._text = game, config, encoder, tensor, text
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
        return flow.sample(SeededChance(int(self._rng.integers(2**62))))

    def legal(self, seat: int) -> list[int]:
        """``seat``'s legal actions now as sorted integers (``[NO_OP]`` if the step does not await it, ``[]`` at
        the end); a game's subclass may list them faster than by encoding each action."""
        return sorted(legal_encoded(self._flow, self._encoder, seat))

    def error(self, kind: str, message: str) -> Exception:
        """The error to raise for a bad ``step``: ``kind`` is ``"mapping"`` (no mapping of agents),
        ``"missing"`` (an agent without an action), ``"agent"`` (a key or an agent that is no agent of the
        game, or an AEC step before ``reset``), ``"integer"`` (an action that is no integer) or ``"illegal"``.
        The kit's is an :class:`~tablekit.adapters.flow.AdapterError`; a game may raise its own."""
        return AdapterError(message)

    def index(self, agent: str, action: object) -> int:
        """``agent``'s action as a Python integer (:func:`action_integer`), or :meth:`error` ``"integer"``."""
        try:
            return action_integer(agent, action)
        except AdapterError as refused:
            raise self.error("integer", str(refused)) from None

    def check(self, seat: int, index: int) -> None:
        """Raise :meth:`error` ``"illegal"`` unless ``index`` is one of ``seat``'s :meth:`legal` actions."""
        if index not in self.legal(seat):
            raise self._refused(seat, index, "")

    def choices(self, actions: object) -> dict[int, Any]:
        """The choices of a joint action of every agent, each checked, before any is applied."""
        if not isinstance(actions, Mapping):
            raise self.error("mapping", f"step takes a mapping of agents to actions, not {type(actions).__name__}")
        for agent in self.agents:
            if agent not in actions:
                raise self.error("missing", f"step takes an action for every agent: no action for {agent}")
        unknown = [key for key in actions if key not in self.agents]  # a typo'd agent is no wait
        if unknown:
            raise self.error("agent", f"step takes an action for every agent and no other: {quote(unknown[0], 20)} "
                                      f"is not one of {self.agents}")  # fmt: skip
        joint = [self.index(agent, actions[agent]) for agent in self.agents]
        return decode_joint(self._flow, self._encoder, joint, legal=self.legal, refuse=self._refused)

    def _refused(self, seat: int | None, index: object, message: str) -> Exception:
        agent = "?" if seat is None else self.possible_agents[seat]
        return self.error("illegal", f"action {quote(index, 20)} is not legal for {agent}")

    def _observe(self, seat: int) -> dict[str, Any]:
        mask = np.zeros(self._encoder.num_actions, dtype=np.int8)
        mask[self.legal(seat)] = 1
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
        self._flow = self._drawn(self._flow.apply_joint(self.choices(actions)))
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
        """``text`` of the spectator's view with ``render_mode="ansi"``; nothing otherwise."""
        return None if self.render_mode is None else self._text(self._game.view(self._flow.state, None))

    def close(self) -> None:
        """Nothing to release."""


class KitAECEnv(AECEnv):  # type: ignore[misc]  # PettingZoo's base class is untyped here
    """A game as a PettingZoo AEC environment, over a :class:`KitParallelEnv`: only the awaited seats act, one
    at a time in seat order, and the step resolves (through the parallel environment) once the last of them
    has chosen. Every check, error and observation is the parallel environment's.

    What a seat sees while others of its step have chosen is :meth:`observe`'s: the kit shows the decided
    state's view (nothing of the step's choices); a game whose views show who has chosen overrides it.

    :param parallel: the parallel environment it plays on.
    """

    def __init__(self, parallel: KitParallelEnv) -> None:
        super().__init__()
        self.parallel = parallel
        self.metadata = parallel.metadata
        self.render_mode = parallel.render_mode
        self.possible_agents = list(parallel.possible_agents)
        self.agents: list[str] = []
        self.pending: dict[int, int] = {}  # seat: the action integer chosen in this step

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The parallel environment's observation space."""
        return self.parallel.observation_space(agent)

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The parallel environment's action space."""
        return self.parallel.action_space(agent)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game (seeded by ``seed`` if given); the first awaited seat is selected."""
        self.parallel.reset(seed=seed, options=options)
        self.agents, self.pending = list(self.possible_agents), {}
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        waiting = sorted(self.parallel.flow.awaited - set(self.pending))
        self.agent_selection = self.possible_agents[waiting[0] if waiting else 0]

    def seat(self, agent: object) -> int:
        """The seat of ``agent``.

        :raises Exception: the parallel environment's :meth:`~KitParallelEnv.error` ``"agent"`` for anything
            that is not one of ``possible_agents``.
        """
        if type(agent) is not str or agent not in self.possible_agents:
            raise self.parallel.error("agent", f"{quote(agent, 20)} is not one of the agents {self.possible_agents}")
        return self.possible_agents.index(agent)

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's observation now and its action mask (the parallel environment's)."""
        return self.parallel._observe(self.seat(agent))

    def check_step(self, action: Any) -> int | None:
        """Raise what :meth:`step` would raise for ``action``, changing nothing: the selected agent's action
        integer, or ``None`` for the ``None`` of an agent whose game is over. A wrapper that must refuse with
        the game's errors before PettingZoo's own assertions run calls it first.

        :raises Exception: the parallel environment's :meth:`~KitParallelEnv.error`: ``"agent"`` before
            :meth:`reset` or once every agent is done, ``"illegal"`` for an action other than ``None`` of an agent whose game is over,
            ``"integer"`` or ``"illegal"`` for an action that is no integer or not legal.
        """
        agent = getattr(self, "agent_selection", None)
        if agent is None:
            raise self.parallel.error("agent", "no agent is selected before reset(): reset the environment first")
        if not self.agents:
            raise self.parallel.error("agent", "every agent is done (the game is over): reset the environment")
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise self.parallel.error("illegal", f"the game of {agent} is over: its only action is None")
            return None
        index = self.parallel.index(agent, action)
        self.parallel.check(self.seat(agent), index)
        return index

    def step(self, action: Any) -> None:
        """The selected agent's action; ``None`` for an agent whose game is over.

        :raises Exception: the parallel environment's :meth:`~KitParallelEnv.error` for an action that is no
            integer or not legal, or a step before :meth:`reset` (:meth:`check_step`; nothing is applied).
        """
        index = self.check_step(action)
        agent = self.agent_selection
        if index is None:
            self._was_dead_step(action)
            return
        seat = self.seat(agent)
        self._cumulative_rewards[agent] = 0.0
        self.pending[seat] = index
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.parallel.flow.awaited <= set(self.pending):
            joint = {a: self.pending.get(s, NO_OP) for s, a in enumerate(self.possible_agents)}
            self.pending = {}
            _, self.rewards, self.terminations, self.truncations, self.infos = self.parallel.step(joint)
        self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The parallel environment's rendering."""
        return self.parallel.render()

    def close(self) -> None:
        """Nothing to release."""
