"""Dark Empire as one game on the kit: :class:`DarkEmpire`, the rules behind :class:`tablekit.game.Game`.

The engine (:mod:`darkempire.rules.engine`) is the rules as pure functions over a
:class:`~darkempire.rules.state.GameState`. This class is the same rules seen through the kit's protocol, so
that everything the kit offers works for Dark Empire unchanged: the collector of hidden choices
(:mod:`tablekit.simultaneous`), the driver and its bots (:func:`tablekit.bots.run_game`), the one replay
(:func:`tablekit.records.replay`), the per-seat event filter (:func:`tablekit.events.events_for`) and
scripted chance for adapters (:func:`tablekit.chance.run_scripted`).

Two differences from the engine's own seeded functions (:func:`~darkempire.rules.engine.deal` and friends):

* **Chance is the kit's.** :meth:`DarkEmpire.initial` and :meth:`DarkEmpire.step` draw every card through the
  :class:`~tablekit.chance.ChanceSource` they are given, one named draw at a time (rules 2.3-2.4, 3.3, 4.1,
  6.4, ruling R-R). A kit game with seed ``s`` draws through ``SeededChance(s)``, so it is not the game
  :func:`~darkempire.rules.engine.deal` gives for seed ``s``: the kit's records of Dark Empire are
  :attr:`~DarkEmpire.version` 2, and this library's format-1 records (:mod:`darkempire.records`) keep their
  own replay.
* **Pending choices live in the kit's round**, not in the state: the states this class returns never hold a
  pending choice, and a view of one shows nobody as having chosen. What a seat has chosen is the collector's
  (:class:`tablekit.simultaneous.Round`).
* **The collector's refusals are the kit's**: a seat out of turn or choosing twice gets the kit's
  :class:`~tablekit.errors.NotAwaitedError` or :class:`~tablekit.errors.AlreadyChoseError`; an illegal action
  gets the engine's :class:`~darkempire.rules.errors.IllegalActionError` naming the rule. Catch
  :class:`~tablekit.errors.KitError`, which every Dark Empire error is too. A kit log's events are the kit's
  :class:`~tablekit.events.Event` values: filter them with :func:`tablekit.events.events_for`.

>>> from tablekit.bots import RandomBot, run_game
>>> from tablekit.records import replay
>>> game = DarkEmpire()
>>> played = run_game(game, GameConfig(players=3), 7, [RandomBot(s) for s in range(3)])
>>> played.state.is_over, max(played.returns) > 0
(True, True)
>>> list(replay(game, played.record))[-1].state == played.state
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tablekit import game as kit_game
from tablekit.chance import ChanceSource

from darkempire.rules import engine
from darkempire.rules.actions import Action
from darkempire.rules.errors import InvalidArgumentError
from darkempire.rules.events import Event, as_kit_event
from darkempire.rules.state import GameConfig, GameState
from darkempire.rules.views import PlayerView, player_view, spectator_view

__all__ = ["GAME", "DarkEmpire"]

#: The seed of the state's own generator in a kit game. Every draw goes through the kit's chance source; the
#: state's generator still shuffles the undrawn cards' places at the deal (which the consistency checks
#: expect), and that order never decides a draw.
_UNUSED_SEED = 0


def _source(chance: ChanceSource) -> ChanceSource:
    """``chance``, refused if ``None``: the engine would then shuffle with the state's own generator, which a
    kit game never uses (and would hand back no source for the next step)."""
    if chance is None:
        raise InvalidArgumentError("a kit game draws from a tablekit.chance.ChanceSource, not None")
    return chance


def _transition(done: engine.Transition) -> kit_game.Transition[GameState, Event]:
    assert done.chance is not None, "the engine returns the source it was given"
    return kit_game.Transition(done.state, tuple(as_kit_event(event) for event in done.events), done.chance)


class DarkEmpire:
    """The rules of *Dark Empire: Revolution* on the kit's :class:`~tablekit.game.Game` protocol.

    A class with no state of its own: every method is a pure function of its arguments, delegating to
    :mod:`darkempire.rules.engine` and :mod:`darkempire.rules.views`. Use the module's :data:`GAME`.
    """

    @property
    def name(self) -> str:
        """``"darkempire"``: the game's name in the kit's records."""
        return "darkempire"

    @property
    def version(self) -> int:
        """2: a kit record draws through the kit's chance, not the state's generator of format 1."""
        return 2

    def initial(self, config: GameConfig, chance: ChanceSource) -> kit_game.Transition[GameState, Event]:
        """The deal (rules 2.1-2.5), every victor and hand card drawn from ``chance``, and its events."""
        return _transition(engine.deal_reporting(config, _UNUSED_SEED, chance=_source(chance)))

    def players(self, state: GameState) -> int:
        """The number of seats (3-5)."""
        return state.players

    def awaited(self, state: GameState) -> frozenset[int]:
        """The seats the current step waits for (:func:`~darkempire.rules.engine.awaited_seats`)."""
        return engine.awaited_seats(state)

    def legal_actions(self, state: GameState, seat: int) -> Sequence[Action]:
        """``seat``'s legal actions, in the engine's fixed order (:func:`~darkempire.rules.engine.legal_actions`)."""
        return engine.legal_actions(state, seat)

    def check(self, state: GameState, seat: int, action: Action) -> Action:
        """Raise the :class:`~darkempire.rules.errors.IllegalActionError` naming the rule unless awaited ``seat`` may
        choose ``action`` (:func:`~darkempire.rules.engine.check_choice`): it reads the state alone.

        :returns: ``action`` made of the engine's own card objects, the action the kit keeps."""
        return engine.check_choice(state, seat, action)

    def step(
        self, state: GameState, choices: Mapping[int, Action], chance: ChanceSource
    ) -> kit_game.Transition[GameState, Event]:
        """Resolve the step with every awaited seat's choice (:func:`~darkempire.rules.engine.step`), drawing from
        ``chance``, and report what it did."""
        return _transition(engine.step(state, choices, chance=_source(chance)))

    def view(self, state: GameState, seat: int | None) -> PlayerView:
        """``seat``'s view (:func:`~darkempire.rules.views.player_view`), or the spectator's for ``None``."""
        return spectator_view(state) if seat is None else player_view(state, seat)

    def is_over(self, state: GameState) -> bool:
        """Whether the verdict is in (rule 8)."""
        return state.is_over

    def returns(self, state: GameState) -> tuple[float, ...]:
        """At the end, the winners share +1 and every other seat gets -1 (rules 8.2-8.5), as the OpenSpiel
        adapter reports; 0 for everyone before the end."""
        if state.verdict is None:
            return (0.0,) * state.players
        winners = state.verdict.winners
        return tuple(1.0 / len(winners) if seat in winners else -1.0 for seat in state.seats)


#: The one :class:`DarkEmpire` (it has no state, so one is all anyone needs).
GAME = DarkEmpire()

