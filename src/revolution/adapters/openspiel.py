"""*Revolution!* for OpenSpiel: importing this module registers ``revolution_sjg``.

>>> import pyspiel
>>> import revolution.adapters.openspiel
>>> game = pyspiel.load_game("revolution_sjg(players=4)")
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes(), game.max_game_length()
(4, 403, 0, 6200)

Install the ``openspiel`` extra (PyPI name ``open-spiel``). The game is the kit's OpenSpiel base
(:mod:`tablekit.adapters.openspiel`) over :data:`~revolution.adapters.encoding.TOKEN_GAME`.

How the simultaneous Bidding becomes an OpenSpiel game
======================================================

A bid is a sequence of placements ending with "done" (:mod:`revolution.adapters.encoding`), so a seat makes
many decisions in one Bidding. As an OpenSpiel *simultaneous* game every seat would act at every node, and a
seat that has finished its bid (or holds fewer tokens) would wait through the others' placements: the nodes
would stop matching the rules' steps, and every node's joint action would carry a wait per seat. So the game is
**sequential with imperfect information** (``SEQUENTIAL``, ``IMPERFECT_INFORMATION``), OpenSpiel's usual form
of a simultaneous move: the seats build their bids in turn, seat 0 first, each seeing its own bid so far and
nothing of another's; the bids are revealed together after the last seat's "done", as at the table. Seat order
gives a later seat no information: what it observes during its turn is the table before the Bidding, whose
turn it is and its own placements. The Spy's and the Apothecary's winners then choose at their nodes.

* **Chance**: none (``DETERMINISTIC``): the rules draw nothing.
* **Players**: parameter ``players``, 3 or 4 (default 4). The optional rules are parameters too:
  ``bid_refunds`` and ``area_control_bonus`` (default false). The board is the shipped one.
* **Length**: parameter ``max_rounds`` (default 100): a game not over after that many rounds stops unfinished,
  every return 0 (*Revolution!* has no last round). Random placements end a game in 18-50 rounds.
  ``max_game_length`` is :func:`~revolution.adapters.encoding.max_decisions`: per round one decision per token
  in the box, one "done" per seat, and the two effect choices.
* **Actions**: :class:`~revolution.adapters.encoding.RevolutionEncoder`'s integers (403 for four seats, 249
  for three): place one token of a kind on a character, done, the Spy's replacements, the Apothecary's swaps,
  decline.
* **Returns** (terminal): the winners share +1, the others get -1 (the rules'
  :meth:`~revolution.rules.game.Revolution.returns`); 0 each when stopped at the bound.
* **Observations** (:mod:`revolution.adapters.observation`): an observation string and tensor (the seat's
  view), an information-state string and tensor (perfect recall: every revealed bid and effect choice so far,
  and the seat's own bid in progress), and public-only ones (the spectator's view). None shows another seat's
  bid before the reveal.
* **Serialization**: the kit's: the history of integers, replayed and checked by ``deserialize_state``.
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from typing import Any, Final

import pyspiel

from revolution.adapters.encoding import TOKEN_GAME, Building, RevolutionEncoder, TokenConfig, max_decisions
from revolution.adapters.observation import information_fields, information_size, observation_fields
from revolution.adapters.observation import observation_size, tensor, text
from revolution.rules.errors import ConfigError
from revolution.rules.state import RevolutionConfig
from tablekit.adapters.openspiel import KitGame, KitObserver, KitState, Limits, Spec, game_type

__all__ = ["GAME_TYPE", "PARAMETERS", "SHORT_NAME", "SPEC", "RevolutionGame", "RevolutionObserver", "token_config"]

#: The name the game is registered under.
SHORT_NAME: Final = "revolution_sjg"

#: The game's parameters and their defaults.
PARAMETERS: Final = types.MappingProxyType({"players": 4, "bid_refunds": False, "area_control_bonus": False,
                                            "max_rounds": 100})

#: The OpenSpiel game type (see the module docstring).
GAME_TYPE: Final = game_type(SHORT_NAME, long_name="Revolution! (Steve Jackson Games)", players=(3, 4),
                             parameters=PARAMETERS, sequential=True, chance=False, information_state_tensor=True,
                             observation_tensor=True)


def token_config(params: Mapping[str, Any]) -> TokenConfig:
    """The config of OpenSpiel parameters (any missing one at its default).

    :raises ~revolution.rules.errors.ConfigError: for an unknown parameter, or a value the rules' config refuses.
    """
    unknown = sorted(set(params) - set(PARAMETERS))
    if unknown:
        raise ConfigError(f"unknown parameters {unknown}; the game takes {sorted(PARAMETERS)}", field="params")
    values = {**PARAMETERS, **params}
    rules = RevolutionConfig(players=values["players"], bid_refunds=values["bid_refunds"],
                             area_control_bonus=values["area_control_bonus"])  # fmt: skip
    return TokenConfig(rules, max_rounds=values["max_rounds"])


def _limits(config: TokenConfig) -> Limits:
    return Limits(config.rules.players, max_chance_outcomes=0, max_game_length=max_decisions(config),
                  min_utility=-1.0, max_utility=1.0)  # fmt: skip


#: What the kit's OpenSpiel base is given, for four seats (:class:`RevolutionGame` builds the spec of its own
#: number of seats: the action integers depend on it).
SPEC: Final = Spec(TOKEN_GAME, RevolutionEncoder.of(RevolutionConfig()), GAME_TYPE, token_config, _limits)


class RevolutionGame(KitGame):
    """The game for the given parameters: the kit's :class:`~tablekit.adapters.openspiel.KitGame` of
    :data:`SPEC` with the encoder of its number of seats, and :class:`RevolutionObserver`'s tensors.

    :param params: OpenSpiel parameters (:data:`PARAMETERS`).
    :raises ~revolution.rules.errors.ConfigError: for an unknown parameter or a value the rules refuse (three or
        four players).
    """

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        config = token_config(dict(params or {}))  # the rules' own error, before the kit wraps it
        self.config = config
        spec = Spec(TOKEN_GAME, RevolutionEncoder.of(config.rules), GAME_TYPE, token_config, _limits)
        super().__init__(spec, params)

    def make_py_observer(self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None) -> RevolutionObserver:
        """An observer of the given kind (see :class:`RevolutionObserver`)."""
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        return RevolutionObserver(self.spec, self.config, kind, params)


class RevolutionObserver(KitObserver):
    """The kit's observer with *Revolution!*'s strings and tensors (:mod:`revolution.adapters.observation`).

    ============================================  =========================================================
    ``iig_obs_type``                              string / tensor
    ============================================  =========================================================
    public and own private info, no recall        the seat's observation (the default)
    public and own private info, perfect recall   the information state
    public info only, no recall                   the spectator's observation
    ============================================  =========================================================

    :raises ~tablekit.adapters.flow.AdapterError: for parameters or another kind.
    """

    def __init__(self, spec: Spec, config: TokenConfig, iig_obs_type: Any, params: Mapping[str, Any] | None) -> None:
        super().__init__(spec, iig_obs_type, params)
        self.config = config
        size = information_size(config.rules, config.max_rounds) if self.recall else observation_size(config.rules)
        self.tensor = tensor([("observation", (0.0,) * size)])
        self.dict = {"observation": self.tensor}

    def _fields(self, state: KitState, player: int) -> list[tuple[str, tuple[float, ...]]]:
        flow = state.flow
        seat = player if self.private else None
        assert isinstance(flow.state, Building)  # the game has no set-up draws: a state is always decided
        view = TOKEN_GAME.view(flow.state, seat)
        if self.recall:
            return information_fields(flow, view, self.config.rules, self.config.max_rounds)
        return observation_fields(view, self.config.rules)

    def set_from(self, state: KitState, player: int) -> None:
        """Write ``player``'s observation (or information state) of ``state`` into ``tensor``."""
        self.tensor[:] = tensor(self._fields(state, player))

    def string_from(self, state: KitState, player: int) -> str:
        """``player``'s observation (or information state) of ``state`` as text."""
        return text(self._fields(state, player), skip_empty=self.recall)


pyspiel.register_game(GAME_TYPE, RevolutionGame)
