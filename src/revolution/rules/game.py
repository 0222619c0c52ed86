"""*Revolution!* as one game on the kit: :class:`Revolution`, the rules behind :class:`tablekit.game.Game`.

The engine (:mod:`revolution.rules.engine`) is the rules as pure functions over a
:class:`~revolution.rules.state.RevolutionState`; this class is the same rules seen through the kit's protocol,
so that the kit's collector of hidden choices (:mod:`tablekit.simultaneous`), its driver and bots
(:func:`tablekit.bots.run_game`), its one replay (:func:`tablekit.records.replay`) and its per-seat event filter
(:func:`tablekit.events.events_for`) work for it unchanged (rule 9.4).

Its steps are the two shapes the kit foresees: the Bidding, a simultaneous step awaiting every seat, whose bids
the collector keeps hidden until all are in; and, during the Resolution, a one-seat step for the Spy's or the
Apothecary's winner (rule 9.1). The game has no chance: the source passed in comes back unchanged.

>>> from tablekit.bots import RandomBot, run_game
>>> from tablekit.records import replay
>>> played = run_game(GAME, RevolutionConfig(players=3), 7, [RandomBot(s) for s in range(3)])
>>> played.state.is_over, played.state.board_full
(True, True)
>>> list(replay(GAME, played.record))[-1].state == played.state
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from revolution.rules import engine
from revolution.rules.actions import Action
from revolution.rules.events import RevolutionEvent
from revolution.rules.state import RevolutionConfig, RevolutionState
from revolution.rules.views import RevolutionView, view
from tablekit import game as kit_game
from tablekit.chance import ChanceSource

__all__ = ["GAME", "Revolution"]


def _transition(done: engine.Step, chance: ChanceSource) -> kit_game.Transition[RevolutionState, RevolutionEvent]:
    return kit_game.Transition(done.state, done.events, chance)


class Revolution:
    """The rules of *Revolution!* on the kit's :class:`~tablekit.game.Game` protocol.

    A class with no state of its own; every method delegates to :mod:`revolution.rules.engine` or
    :mod:`revolution.rules.views`. Use the module's :data:`GAME`.
    """

    @property
    def name(self) -> str:
        """``"revolution"``: the game's name in the kit's records."""
        return "revolution"

    @property
    def version(self) -> int:
        """1: the first format of the game's records."""
        return 1

    def initial(self, config: RevolutionConfig, chance: ChanceSource) -> kit_game.Transition[RevolutionState,
                                                                                             RevolutionEvent]:
        """The set-up (rules 2.1, 2.2) and the first Espionage; ``chance`` is not drawn from."""
        return _transition(engine.setup(config), chance)

    def players(self, state: RevolutionState) -> int:
        """The number of seats (3 or 4)."""
        return state.players

    def awaited(self, state: RevolutionState) -> frozenset[int]:
        """Every seat at the Bidding, the chooser at a Choosing step, nobody at the end (rule 9.1)."""
        return engine.awaited(state)

    def legal_actions(self, state: RevolutionState, seat: int) -> Sequence[Action]:
        """``seat``'s legal actions in a fixed order (:func:`~revolution.rules.engine.legal_actions`)."""
        return engine.legal_actions(state, seat)

    def check(self, state: RevolutionState, seat: int, action: Action) -> Action:
        """Raise the error naming the rule unless ``seat`` may choose ``action`` (rule 9.2); it reads the state
        alone, so no refusal depends on another seat's hidden bid.

        :returns: ``action`` made of the rules' own objects (:func:`~revolution.rules.engine.check`), which the
            kit keeps instead of the caller's.
        """
        return engine.check(state, seat, action)

    def step(self, state: RevolutionState, choices: Mapping[int, Action],
             chance: ChanceSource) -> kit_game.Transition[RevolutionState, RevolutionEvent]:
        """Resolve the step with every awaited seat's choice (:func:`~revolution.rules.engine.step`)."""
        return _transition(engine.step(state, choices), chance)

    def view(self, state: RevolutionState, seat: int | None) -> RevolutionView:
        """``seat``'s view (:func:`~revolution.rules.views.view`), a spectator's for ``None``."""
        return view(state, seat)

    def is_over(self, state: RevolutionState) -> bool:
        """Whether every influence space was filled at the end of a Resolution (rule 7.1)."""
        return state.is_over

    def returns(self, state: RevolutionState) -> tuple[float, ...]:
        """At the end, the seats with the most support share +1 and every other seat gets -1 (rule 7.4, R-O);
        0 for everyone before the end."""
        if not state.is_over:
            return (0.0,) * state.players
        winners = state.winners
        return tuple(1.0 / len(winners) if seat in winners else -1.0 for seat in range(state.players))


#: The one :class:`Revolution`; mypy checks here that it implements the kit's protocol.
GAME: kit_game.Game[RevolutionConfig, RevolutionState, Action, RevolutionView, RevolutionEvent] = Revolution()
