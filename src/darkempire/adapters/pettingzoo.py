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
  :class:`~darkempire.rules.views.PlayerView`, laid out as :func:`darkempire.adapters.core.tensor_layout` says (a
  fixed size for each number of players), so it shows nothing the view does not; it holds everything
  ``render()``'s text of the same view shows (:func:`darkempire.adapters.core.view_fields`).
* **Rewards**: 0 until the end; then the verdict's winners share +1 (each gets ``1 / len(winners)``) and
  every other seat gets -1 (rules 8.2-8.5). All agents terminate together when the game ends.
* **Chance**: the kit's (:class:`tablekit.adapters.pettingzoo.KitParallelEnv`): every draw of a step is made
  through a :class:`~tablekit.chance.SeededChance` seeded from the environment's generator, itself seeded by
  ``reset(seed=...)``; a ``reset()`` without a seed continues the environment's own seeded sequence of games.
* **Illegal actions** raise :class:`~darkempire.rules.errors.IllegalActionError`; an action that is not an integer
  (``1.9``, ``"5"``, ``True``) raises :class:`~darkempire.rules.errors.InvalidArgumentError` and is never rounded or
  parsed (:func:`action_index`; numpy integers are integers). Both are :class:`ValueError`. An agent that is
  none of the game's (a key of a parallel ``step``, the agent of ``observe``) and an AEC ``step`` before
  ``reset()`` raise :class:`~darkempire.rules.errors.InvalidArgumentError`; a missing agent
  :class:`~darkempire.rules.errors.MissingChoiceError`. In :func:`env` these checks run outside PettingZoo's
  ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``, before their bare ``AssertionError`` can.

Conformance: the test suite runs PettingZoo's ``parallel_api_test`` on :func:`parallel_env`, ``api_test`` on
:func:`env`, and ``seed_test`` both on :func:`env` and on ``parallel_to_aec(parallel_env())``, for 3, 4 and 5
players. PettingZoo's ``parallel_seed_test`` cannot run on these environments: it samples every action from
``action_space(agent)`` without the action mask, so its first step fails with an
:class:`~darkempire.rules.errors.IllegalActionError` such as "action 611 is not legal for player_0" (and in
PettingZoo 1.27 it checks one step only). ``seed_test`` of the parallel environment seen as AEC checks the
same seeding over whole games, with masked actions.

In the parallel environment every agent acts at every step (0 for the seats not awaited). In the AEC
environment only the awaited seats act, in seat order; a seat that acts later in the same step sees that the
earlier ones have chosen, not what (their choices are pending, as in the engine's ``apply``).

Both stand on the kit's bases: :class:`DarkEmpireParallelEnv` is a
:class:`~tablekit.adapters.pettingzoo.KitParallelEnv` of :data:`darkempire.rules.game.GAME` (the reset/step loop, the
drawing of chance, the rewards and the spaces are the kit's), and :class:`DarkEmpireAECEnv` a
:class:`~tablekit.adapters.pettingzoo.KitAECEnv` over one. What is Dark Empire's: the tensor and the text of a
view, the fast listing of legal actions (:func:`~darkempire.adapters.core.legal_indices`), the errors, and the
AEC observation of a step with pending choices.
"""

from __future__ import annotations

from typing import Any, Final

import attrs
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from tablekit.adapters.flow import AdapterError
from tablekit.adapters.pettingzoo import KitAECEnv, KitParallelEnv, action_integer
from darkempire.adapters.core import ENCODER, NUM_ACTIONS, decode, fill_tensor, legal_indices, tensor_size, view_text
from darkempire.rules.errors import IllegalActionError, InvalidArgumentError, MissingChoiceError
from darkempire.rules.game import GAME
from darkempire.serialization import quote
from darkempire.rules.state import GameConfig, GameState
from darkempire.rules.views import PlayerView, player_view

__all__ = ["DarkEmpireAECEnv", "DarkEmpireParallelEnv", "action_index", "env", "parallel_env", "raw_env"]

_NAME: Final = "dark_empire_revolution_v0"


def action_index(agent: str, action: object) -> int:
    """``agent``'s action as an index of ``Discrete(6857)``: a Python or numpy integer (or a 0-d integer array,
    as ``gymnasium.spaces.Discrete.contains`` accepts).

    :raises InvalidArgumentError: for anything else (``1.9``, ``"5"``, ``True``): nothing is rounded or parsed.
    :raises IllegalActionError: for an integer outside 0-6856.
    """
    try:
        index = action_integer(agent, action)
    except AdapterError:
        raise InvalidArgumentError(f"the action of {agent} must be an integer 0-{NUM_ACTIONS - 1}, not "
                                   f"{quote(action)} ({type(action).__name__})") from None  # fmt: skip
    if not 0 <= index < NUM_ACTIONS:
        # A huge one is named by its bit length: the repr of a 5000-digit int raises, and a long one makes a huge
        # message; a small one (-1) by its value.
        bits = index.bit_length()
        shown = str(index) if bits <= 32 else f"an integer of {bits} bits{' (negative)' if index < 0 else ''}"
        raise IllegalActionError(f"the action of {agent} must be an integer 0-{NUM_ACTIONS - 1}, not {shown}",
                                 rule="9.1")  # fmt: skip
    return index


def _tensor(view: PlayerView) -> np.ndarray[Any, np.dtype[np.float32]]:
    flat = np.zeros(tensor_size(view.players), dtype=np.float32)
    fill_tensor(flat, view)
    return flat


class DarkEmpireParallelEnv(KitParallelEnv):
    """The game as a PettingZoo parallel environment: every agent acts at every step.

    :param players: number of seats, 3-5.
    :param render_mode: ``"ansi"`` (the spectator view as text) or ``None``.
    :raises ~darkempire.rules.errors.ConfigError: for a number of players outside 3-5.
    """

    #: PettingZoo metadata.
    metadata: dict[str, Any] = {"name": _NAME, "render_modes": ["ansi"], "is_parallelizable": True}

    def __init__(self, players: int = 4, render_mode: str | None = None) -> None:
        config = GameConfig(players=players)  # ConfigError (rule 2.1) for anything but 3-5
        super().__init__(GAME, config, players, ENCODER, _tensor, tensor_size(players), _NAME,
                         render_mode, text=view_text)  # fmt: skip

    @property
    def state_now(self) -> GameState:
        """The engine state the seats choose in now (the game always stands at a decision or at its end)."""
        state = self.flow.state
        assert isinstance(state, GameState)
        return state

    def legal(self, seat: int) -> list[int]:
        """``seat``'s legal actions (:func:`~darkempire.adapters.core.legal_indices`)."""
        return legal_indices(self.state_now, seat)

    def index(self, agent: str, action: object) -> int:
        """:func:`action_index`."""
        return action_index(agent, action)

    def error(self, kind: str, message: str) -> Exception:
        """Dark Empire's errors: :class:`~darkempire.rules.errors.InvalidArgumentError` for what is no mapping, no
        agent or no integer, :class:`~darkempire.rules.errors.MissingChoiceError` and :class:`~darkempire.rules.errors.IllegalActionError`
        (rule 9.2)."""
        if kind in ("mapping", "integer", "agent"):
            return InvalidArgumentError(message)
        if kind == "missing":
            return MissingChoiceError(message, rule="9.2")
        return IllegalActionError(message, rule="9.2")


class DarkEmpireAECEnv(KitAECEnv):
    """The game as a PettingZoo AEC environment: the awaited seats act one at a time, in seat order.

    A seat that acts later in a step sees that the earlier ones have chosen, not what: its observation is of
    :attr:`seen`, the state with their choices pending (as the engine's ``apply`` records them).

    :param players: number of seats, 3-5.
    :param render_mode: ``"ansi"`` (the spectator view as text) or ``None``.
    :raises ~darkempire.rules.errors.ConfigError: for a number of players outside 3-5.
    """

    #: PettingZoo metadata.
    metadata: dict[str, Any] = DarkEmpireParallelEnv.metadata

    def __init__(self, players: int = 4, render_mode: str | None = None) -> None:
        super().__init__(DarkEmpireParallelEnv(players=players, render_mode=render_mode))

    @property
    def seen(self) -> GameState:
        """The state the seats see: the decided state, with this step's choices so far pending."""
        parallel = self.parallel
        assert isinstance(parallel, DarkEmpireParallelEnv)
        state = parallel.state_now
        if not self.pending:
            return state
        pending = tuple(None if s not in self.pending else decode(state, s, self.pending[s]) for s in state.seats)
        return attrs.evolve(state, pending=pending)

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        """The agent's observation now (its view of :attr:`seen`) and its action mask."""
        seat, seen = self.seat(agent), self.seen
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        mask[legal_indices(seen, seat)] = 1
        return {"observation": _tensor(player_view(seen, seat)), "action_mask": mask}


def raw_env(players: int = 4, render_mode: str | None = None) -> DarkEmpireAECEnv:
    """The AEC environment without PettingZoo's wrappers."""
    return DarkEmpireAECEnv(players=players, render_mode=render_mode)


class _CheckedFirst(wrappers.BaseWrapper):  # type: ignore[misc]  # PettingZoo's base class is untyped here
    """The outermost wrapper of :func:`env`: the environment's own checks
    (:meth:`~tablekit.adapters.pettingzoo.KitAECEnv.check_step`, :meth:`~tablekit.adapters.pettingzoo.KitAECEnv.seat`)
    run before PettingZoo's wrappers, whose bare ``AssertionError`` (an action out of the space, a step before
    ``reset``) would otherwise come first, and vanish under ``python -O``."""

    def step(self, action: Any) -> None:
        raw = self.unwrapped
        if getattr(raw, "agent_selection", None) is None or raw.agents:  # once all are done: PettingZoo's warning
            raw.check_step(action)
        super().step(action)

    def observe(self, agent: Any) -> Any:
        raw = self.unwrapped
        raw.seat(agent)
        if getattr(raw, "agent_selection", None) is None:
            raise raw.parallel.error("agent", "no observation before reset(): reset the environment first")
        return super().observe(agent)


def env(players: int = 4, render_mode: str | None = None) -> AECEnv:
    """The AEC environment, wrapped by PettingZoo's out-of-bounds and order-enforcing checks, and outside them
    by the environment's own checks, so that a bad action or agent raises the typed errors above, never a bare
    ``AssertionError``."""
    wrapped = wrappers.AssertOutOfBoundsWrapper(raw_env(players=players, render_mode=render_mode))
    return _CheckedFirst(wrappers.OrderEnforcingWrapper(wrapped))


def parallel_env(players: int = 4, render_mode: str | None = None) -> DarkEmpireParallelEnv:
    """The parallel environment."""
    return DarkEmpireParallelEnv(players=players, render_mode=render_mode)
