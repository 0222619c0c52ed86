"""*Revolution!* as PettingZoo environments: :func:`env` and :func:`raw_env` (AEC) and :func:`parallel_env`.

>>> from revolution.adapters.pettingzoo import env
>>> aec = env(players=3)
>>> aec.reset(seed=1)
>>> aec.agent_selection, int(aec.observe("player_0")["action_mask"].sum())
('player_0', 22)

Install the ``pettingzoo`` extra. Both stand on the kit's bases (:mod:`tablekit.adapters.pettingzoo`) over
:data:`~revolution.adapters.encoding.TOKEN_GAME`, the game with a bid built one token at a time, in turn:

* **Agents** ``player_0`` ... ``player_{N-1}``, ``N`` = ``players`` (3 or 4, default 4).
* **Actions**: ``Discrete(n)``, :class:`~revolution.adapters.encoding.RevolutionEncoder`'s integers (the same
  as the OpenSpiel game's: 403 for four seats, 249 for three); each observation's ``action_mask`` marks the
  legal ones. In the AEC environment only the seat whose turn it is acts (the bidder, or the Spy's or
  Apothecary's winner); in the parallel one every agent acts at every step, the others with 0 (wait).
* **Observations**: ``{"observation": Box(float32), "action_mask": Box(int8)}``, the observation tensor of
  :mod:`revolution.adapters.observation` (the seat's view: nothing of another seat's bid before the reveal).
* **Rewards**: 0 until the end, then the winners share +1 and the others get -1; ``max_rounds`` (default 100)
  bounds a game, which then ends with every reward 0.
* **Chance**: none; ``reset(seed=...)`` changes nothing of the game.
* **Bad actions** raise the kit's :class:`~tablekit.adapters.flow.AdapterError` (an action that is no
  integer, or is not legal for its seat).
"""

from __future__ import annotations

from typing import Any, Final

from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from revolution.adapters.encoding import TOKEN_GAME, RevolutionEncoder, TokenConfig, TokenView
from revolution.adapters.observation import Tensor, observation_fields, observation_size, tensor, text
from revolution.rules.state import RevolutionConfig
from tablekit.adapters.pettingzoo import KitAECEnv, KitParallelEnv

__all__ = ["RevolutionAECEnv", "RevolutionParallelEnv", "env", "parallel_env", "raw_env"]

_NAME: Final = "revolution_sjg_v0"


class RevolutionParallelEnv(KitParallelEnv):
    """The game as a PettingZoo parallel environment (the kit's :class:`~tablekit.adapters.pettingzoo.KitParallelEnv`).

    :param players: 3 or 4.
    :param bid_refunds: the optional rule Bid Refunds (rule 8.1).
    :param area_control_bonus: the optional rule Area Control Bonus (rule 8.2).
    :param max_rounds: the most rounds of a game.
    :param render_mode: ``"ansi"`` (the spectator's observation as text) or ``None``.
    :raises ~revolution.rules.errors.ConfigError: for a config the rules refuse.
    """

    #: PettingZoo metadata.
    metadata: dict[str, Any] = {"name": _NAME, "render_modes": ["ansi"], "is_parallelizable": True}

    def __init__(self, players: int = 4, bid_refunds: bool = False, area_control_bonus: bool = False,
                 max_rounds: int = 100, render_mode: str | None = None) -> None:  # fmt: skip
        rules = RevolutionConfig(players=players, bid_refunds=bid_refunds, area_control_bonus=area_control_bonus)
        config = TokenConfig(rules, max_rounds=max_rounds)

        def seen(view: TokenView) -> Tensor:
            return tensor(observation_fields(view, rules))

        def shown(view: TokenView) -> str:
            return text(observation_fields(view, rules))

        super().__init__(TOKEN_GAME, config, players, RevolutionEncoder.of(rules), seen, observation_size(rules),
                         _NAME, render_mode, text=shown)  # fmt: skip


class RevolutionAECEnv(KitAECEnv):
    """The game as a PettingZoo AEC environment: the seat whose turn it is acts (the kit's
    :class:`~tablekit.adapters.pettingzoo.KitAECEnv`; every decision awaits one seat, so no step is ever half
    chosen). Its parameters are :class:`RevolutionParallelEnv`'s."""

    #: PettingZoo metadata.
    metadata: dict[str, Any] = RevolutionParallelEnv.metadata

    def __init__(self, players: int = 4, bid_refunds: bool = False, area_control_bonus: bool = False,
                 max_rounds: int = 100, render_mode: str | None = None) -> None:  # fmt: skip
        super().__init__(RevolutionParallelEnv(players, bid_refunds, area_control_bonus, max_rounds, render_mode))


def raw_env(players: int = 4, bid_refunds: bool = False, area_control_bonus: bool = False, max_rounds: int = 100,
            render_mode: str | None = None) -> RevolutionAECEnv:  # fmt: skip
    """The AEC environment without PettingZoo's wrappers."""
    return RevolutionAECEnv(players, bid_refunds, area_control_bonus, max_rounds, render_mode)


def env(players: int = 4, bid_refunds: bool = False, area_control_bonus: bool = False, max_rounds: int = 100,
        render_mode: str | None = None) -> AECEnv:  # fmt: skip
    """The AEC environment, wrapped by PettingZoo's out-of-bounds and order-enforcing checks."""
    wrapped = wrappers.AssertOutOfBoundsWrapper(raw_env(players, bid_refunds, area_control_bonus, max_rounds,
                                                        render_mode))  # fmt: skip
    return wrappers.OrderEnforcingWrapper(wrapped)


def parallel_env(players: int = 4, bid_refunds: bool = False, area_control_bonus: bool = False,
                 max_rounds: int = 100, render_mode: str | None = None) -> RevolutionParallelEnv:  # fmt: skip
    """The parallel environment."""
    return RevolutionParallelEnv(players, bid_refunds, area_control_bonus, max_rounds, render_mode)
