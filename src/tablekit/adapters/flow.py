"""A game in progress with explicit chance, for any :class:`~tablekit.game.Game`: what an adapter state holds.

Frameworks such as OpenSpiel want every random draw as a *chance node* with listed outcomes, and every
decision as a *joint action* of all seats at once. A :class:`KitFlow` gives both without undoing anything:

* it keeps the last **decided** state (``None`` before the set-up has drawn everything), the **joint choices**
  whose step is drawing its outcomes, and the **script** of outcome indices drawn since;
* its chance node is where :func:`~tablekit.chance.run_scripted` stops when the step (or the set-up,
  :meth:`~tablekit.game.Game.initial`) runs with that script: applying an outcome appends its index and runs
  the step again, which repeats the same draws (the game is pure) and goes one draw further;
* a decision collects one choice per seat the step awaits (:meth:`~tablekit.game.Game.awaited`); every
  choice is checked by the game's :meth:`~tablekit.game.Game.check` once, before any draw, and kept as the
  check returned it (made of the game's own objects, so that a caller's object changed later cannot change
  the step); the step resolves as the kit's collector resolves it (:func:`tablekit.simultaneous.resolve`, each time it runs again
  with more chance), so a step that refuses checked choices is the game's fault
  (:class:`~tablekit.errors.GameContractError`).

It imports no framework: the OpenSpiel base (:mod:`tablekit.adapters.openspiel`) encodes its choices as
integers and writes its observations; another adapter can do the same over the same flow.

It is immutable: every method returns a new flow. It also keeps each earlier decision (the state and the
joint choices), so that a seat's information state (what it saw and chose at each decision) follows from it.

A game's adapter may extend it (Dark Empire's :class:`darkempire.adapters.core.Flow` adds each seat's trail of
text): every transition returns the subclass it was called on (``Self``), with the subclass's own fields
carried over, and two hooks serve what a framework numbers differently from the kit:

* **outcome ids**: by default a chance outcome is the index of the drawn option (``0 .. count - 1``); given
  an ``outcome`` function (option to integer), it is that integer instead (Dark Empire names a drawn card by
  its id, so that a history says which card came). :meth:`KitFlow.apply_chance` takes an id,
  :meth:`KitFlow.draw` an index (for a sampler such as the PettingZoo base);
* **drawn**: the name and outcome id of every draw since the decided state (what a seat has been dealt so
  far, while the set-up draws).
"""

from __future__ import annotations

import numbers
import operator
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, Final, Generic, Protocol, Self, TypeVar

import attrs

from tablekit._typevars import A, C, S
from tablekit.chance import ChanceNode, ChanceSource, Outcome, ScriptedChance, run_scripted
from tablekit.errors import ChanceError, GameContractError, KitError
from tablekit.game import Game, Transition
from tablekit.simultaneous import resolve
from tablekit.wire import quote

__all__ = ["NO_OP", "ActionEncoder", "AdapterError", "KitFlow", "OutcomeError", "Refusal", "decode_joint", "legal_encoded"]

#: The action of a seat the step does not await ("wait").
NO_OP: Final = 0

S_contra = TypeVar("S_contra", contravariant=True)
T = TypeVar("T")
F = TypeVar("F", bound="KitFlow[Any, Any, Any]")


class AdapterError(KitError, ValueError):
    """An adapter was asked for something its game does not allow now: a chance outcome at a decision, an
    illegal or missing joint action, a serialized state that does not replay."""


class OutcomeError(AdapterError, ChanceError):
    """A chance outcome where no draw is due, or one that is not among the draw's: an adapter's refusal and a
    chance error both (catch either)."""


class ActionEncoder(Protocol[S_contra, A]):
    """A game's actions as integers: ``0`` is :data:`NO_OP`, a real action is ``1 .. num_actions - 1``.

    The integer may depend on the state and the seat (Dark Empire numbers a seat's cards by position), but
    the seat's legal actions must encode to distinct integers, and ``decode`` must invert ``encode`` on them.
    """

    @property
    def num_actions(self) -> int:
        """How many integers there are, :data:`NO_OP` included (OpenSpiel's ``num_distinct_actions``)."""
        ...

    def encode(self, state: S_contra, seat: int, action: A) -> int:
        """The integer of ``seat``'s legal ``action`` in ``state``."""
        ...

    def decode(self, state: S_contra, seat: int, index: int) -> A:
        """The action of integer ``index`` (not :data:`NO_OP`) for ``seat`` in ``state``."""
        ...


def _joint(value: Mapping[int, A] | tuple[tuple[int, A], ...]) -> tuple[tuple[int, A], ...]:
    items = value.items() if isinstance(value, Mapping) else value
    return tuple(sorted(items, key=lambda item: item[0]))


#: The methods of :class:`~tablekit.game.Game` a flow calls.
_GAME_METHODS: Final = ("initial", "players", "awaited", "legal_actions", "check", "step", "view", "is_over", "returns")


@attrs.frozen
class KitFlow(Generic[C, S, A]):
    """A game in progress: the last decided state, the choices waiting for their draws, the draws made since.

    Build one with :meth:`start`; the fields are what it keeps, and ``node`` follows from them.

    :ivar game: the rules (a :class:`~tablekit.game.Game`; typed ``Any`` here, as the view and event types do
        not matter to a flow).
    :ivar config: the game's config, for :meth:`~tablekit.game.Game.initial`.
    :ivar players: the number of seats (known before the set-up has drawn its outcomes).
    :ivar state: the last decided state, or ``None`` while the set-up draws.
    :ivar choices: the joint choices (``(seat, action)`` of each awaited seat, in seat order) whose step is
        drawing its outcomes; ``None`` at decisions and during the set-up.
    :ivar script: the outcome indices drawn since ``state`` (during the set-up: since the start).
    :ivar node: the chance node due, where the step ran out of script; ``None`` at decisions and at the end.
    :ivar past: every earlier decision: the state and the joint choices, for the seats' information states.
    :ivar drawn: the name and outcome id of each draw since ``state`` (during the set-up: since the start).
    :ivar outcome: the id of a drawn option as a chance outcome; ``None``: its index among the options.
    """

    game: Any = attrs.field(eq=False)
    config: C
    players: int
    state: S | None = None
    choices: tuple[tuple[int, A], ...] | None = None
    script: tuple[int, ...] = ()
    node: ChanceNode | None = None
    past: tuple[tuple[S, tuple[tuple[int, A], ...]], ...] = ()
    drawn: tuple[tuple[str, int], ...] = ()
    outcome: Callable[[Any], int] | None = attrs.field(default=None, eq=False, repr=False)

    @classmethod
    def start(cls, game: Game[C, S, A, Any, Any], config: C, players: int, *,
              outcome: Callable[[Any], int] | None = None) -> Self:  # fmt: skip
        """A new game: the set-up runs at once, and stops at its first draw if it has any.

        :param outcome: the id of a drawn option as a chance outcome (see the module docstring); ``None``: its
            index.
        :raises AdapterError: ``game`` lacks a method of :class:`~tablekit.game.Game`, or ``players`` is no
            positive ``int``; once the set-up has drawn everything, a state of another number of seats.
        """
        missing = [name for name in _GAME_METHODS if not callable(getattr(game, name, None))]
        if missing:
            raise AdapterError(f"{quote(game, 40)} is no tablekit Game: it has no {', '.join(missing)}")
        if type(players) is not int or players < 1:
            raise AdapterError(f"a game has a positive int of seats, not {quote(players, 20)}")
        return _settle(cls(game, config, players, outcome=outcome))

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        """The flow itself: it is immutable, so a copy would be equal and useless. OpenSpiel clones a Python
        state by deep-copying its attributes, so without this every clone would copy the whole game so far
        (:attr:`past`), and a long game's random simulation would take quadratic time."""
        return self

    # ------------------------------------------------------------------ queries

    @property
    def is_chance(self) -> bool:
        """Whether a chance node is next."""
        return self.node is not None

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (no draw is due and the decided state is over)."""
        return self.node is None and self.state is not None and bool(self.game.is_over(self.state))

    @property
    def awaited(self) -> frozenset[int]:
        """The seats that choose now; empty at chance nodes and at the end."""
        if self.node is not None or self.state is None:
            return frozenset()
        awaited: frozenset[int] = self.game.awaited(self.state)
        return awaited

    @property
    def outcomes(self) -> tuple[int, ...]:
        """The chance node's outcome ids, one per option in the draw's order (equally likely); ``()`` at
        decisions.

        :raises GameContractError: the ``outcome`` function gave two options one id, or a negative or non-int one.
        """
        node = self.node
        if node is None:
            return ()
        if self.outcome is None:
            return tuple(range(node.count))
        ids = tuple(self.outcome(option) for option in node.options)
        if len(set(ids)) != len(ids) or not all(type(i) is int and i >= 0 for i in ids):
            raise GameContractError(f"{self.game.name}: the outcome ids of the draw {node.name!r} are not distinct "
                                    f"integers >= 0: {quote(ids, 60)}")  # fmt: skip
        return ids

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The chance node's outcome ids with their probability (all equal), as OpenSpiel lists them; ``[]``
        at decisions."""
        outcomes = self.outcomes
        return [(outcome, 1.0 / len(outcomes)) for outcome in outcomes]

    def own_choice(self, seat: int) -> A | None:
        """``seat``'s own choice while its step draws (``None`` otherwise): show it to that seat alone."""
        return next((action for chosen, action in self.choices or () if chosen == seat), None)

    def returns(self) -> tuple[float, ...]:
        """The game's :meth:`~tablekit.game.Game.returns` at the end; 0 for every seat before."""
        if not self.is_over:
            return (0.0,) * self.players
        returns: tuple[float, ...] = tuple(self.game.returns(self.state))
        return returns

    # ------------------------------------------------------------------ transitions

    def apply_chance(self, outcome: int) -> Self:
        """Draw the option of outcome id ``outcome`` (one of :attr:`outcomes`) at the chance node, and run the
        step on.

        :raises OutcomeError: no chance node is due, or ``outcome`` is not one of its outcomes.
        """
        outcomes = self.outcomes
        if self.node is None:
            raise OutcomeError(self._no_chance())
        if type(outcome) is not int or outcome not in outcomes:  # True == 1 is no outcome
            raise OutcomeError(f"{quote(outcome, 20)} is not an outcome of the chance draw {self.node.name!r}")
        return self.draw(outcomes.index(outcome))

    def draw(self, index: int) -> Self:
        """Draw option ``index`` (``0 .. node.count - 1``) at the chance node, and run the step on.

        :raises OutcomeError: no chance node is due, or ``index`` is not one of its options' indices.
        """
        node = self.node
        if node is None:
            raise OutcomeError(self._no_chance())
        if type(index) is not int or not 0 <= index < node.count:  # True == 1 is no outcome
            raise OutcomeError(f"{quote(index, 20)} is not an outcome of the chance draw {node.name!r} "
                               f"(0..{node.count - 1})")  # fmt: skip
        outcome = index if self.outcome is None else self.outcome(node.options[index])
        drawn = (*self.drawn, (node.name, outcome))
        return _settle(attrs.evolve(self, script=(*self.script, index), drawn=drawn, node=None))

    def _no_chance(self) -> str:
        return "no chance node is due: " + ("the game is over" if self.is_over else "the seats choose now")

    def sample(self, chance: ChanceSource) -> Self:
        """Make every draw still due in the pending step (or the set-up) with ``chance``, at once: the step
        runs one more time, its drawn outcomes first and then ``chance``'s (an environment that shows no
        chance nodes, such as the PettingZoo base, plays this way instead of one node at a time).

        :returns: the flow at the next decision (or the end); itself if no draw is due.
        :raises AdapterError: ``chance`` is no chance source (it has no ``draw``).
        """
        if not callable(getattr(chance, "draw", None)):
            raise AdapterError(f"sample takes a chance source (with a draw method), not {quote(chance, 40)}")
        return self if self.node is None else _settle(self, chance)

    def apply_joint(self, choices: Mapping[int, A]) -> Self:
        """Resolve the decision with one choice per awaited seat (and none for any other seat).

        The flow keeps each choice as the game's :meth:`~tablekit.game.Game.check` returned it (the action made
        of the game's own objects), so the step and every later draw of it resolve the actions checked.

        :raises AdapterError: no seat chooses now, or ``choices`` are not exactly the awaited seats'.
        :raises IllegalChoiceError: the game's :meth:`~tablekit.game.Game.check` refuses a choice.
        """
        awaited = self.awaited
        if not awaited:
            raise AdapterError("no seat chooses now (a chance node or the end)")
        if set(choices) != awaited:
            raise AdapterError(f"choices for seats {sorted(choices)}, but the step awaits {sorted(awaited)}")
        assert self.state is not None
        # Check each choice now, so that an illegal one is refused before any draw is made for the step, and
        # keep what the check returns: the step runs again at every draw, and must run with the actions
        # checked, never with the caller's objects (which the caller may change after the check).
        state = self.state
        joint = tuple((seat, _kept(self.game.check(state, seat, action), action)) for seat, action in _joint(choices))
        return _settle(attrs.evolve(self, choices=joint, script=(), past=(*self.past, (state, joint))))


def _kept(checked: T | None, action: T) -> T:
    """The action to keep after :meth:`~tablekit.game.Game.check`: what it returned, or (``None``) the action
    given."""
    return action if checked is None else checked


@attrs.frozen
class _Continued:
    """A chance source that gives the outcomes of ``script`` first, then draws from ``then``."""

    script: tuple[int, ...]
    then: ChanceSource
    position: int = 0

    def draw(self, name: str, options: Sequence[T]) -> tuple[Outcome[T], _Continued]:
        if self.position < len(self.script):
            outcome, _ = ScriptedChance(self.script, self.position).draw(name, options)
            return outcome, attrs.evolve(self, position=self.position + 1)
        outcome, then = self.then.draw(name, options)
        return outcome, attrs.evolve(self, then=then, position=self.position + 1)


def _settle(flow: F, chance: ChanceSource | None = None) -> F:
    """Run the set-up or the pending step with the flow's script: a chance node if it runs out, else the
    decided state after it. With ``chance``, the draws past the script come from it, and none runs out."""
    game: Game[Any, Any, Any, Any, Any] = flow.game
    state, joint = flow.state, flow.choices
    run: Callable[[ChanceSource], Transition[Any, Any]]
    if state is None:
        run = lambda source: game.initial(flow.config, source)  # noqa: E731
    elif joint is not None:
        run = lambda source: resolve(game, state, dict(joint), source)  # noqa: E731
    else:
        return flow
    result = run_scripted(run, flow.script) if chance is None else run(_Continued(flow.script, chance))
    if isinstance(result, ChanceNode):
        return attrs.evolve(flow, node=result)
    if state is None and game.players(result.state) != flow.players:  # the set-up's state: checked once
        raise AdapterError(f"{game.name}: the config gives a game of {game.players(result.state)} seats, not of the "
                           f"{flow.players} the flow was started with")  # fmt: skip
    return attrs.evolve(flow, state=result.state, choices=None, script=(), drawn=(), node=None)


def legal_encoded(flow: KitFlow[C, S, A], encoder: ActionEncoder[S, A], seat: int) -> dict[int, A | None]:
    """``seat``'s legal actions now by integer: ``{NO_OP: None}`` for a seat the step does not await, none
    at chance nodes and at the end.

    :raises GameContractError: the encoder gave an action an integer out of range, or one it gave another.
    """
    if flow.is_chance or flow.is_over:
        return {}
    if seat not in flow.awaited:
        return {NO_OP: None}
    state = flow.state
    assert state is not None  # a decision has a decided state
    encoded: dict[int, A | None] = {}
    legal: Sequence[A] = flow.game.legal_actions(state, seat)
    for action in legal:
        index = encoder.encode(state, seat, action)
        if type(index) is not int or not 0 < index < encoder.num_actions or index in encoded:
            raise GameContractError(f"{flow.game.name}: the encoder gave {index!r:.20} to {action!r:.40}, "
                                    f"not a new integer in 1..{encoder.num_actions - 1}")  # fmt: skip
        encoded[index] = action
    return encoded


#: Builds the error for a joint action refused by :func:`decode_joint`: given the seat (``None`` when the
#: joint action is no sequence of one integer per seat), the refused value and the kit's message.
Refusal = Callable[[int | None, object, str], Exception]


def _refused(seat: int | None, value: object, message: str) -> AdapterError:
    return AdapterError(message)


def _count(actions: object) -> str:
    return str(len(actions)) if isinstance(actions, Sequence) else f"no sequence but {type(actions).__name__}:"


def _integer(value: object) -> int | None:
    """``value`` as a plain ``int`` if it is an integer (a ``bool`` is none), else ``None``."""
    if not isinstance(value, numbers.Integral) or isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except (TypeError, ValueError, OverflowError):  # an Integral whose __index__ fails is no integer here
        return None


def decode_joint(flow: KitFlow[C, S, A], encoder: ActionEncoder[S, A], actions: Sequence[int], *,
                 legal: Callable[[int], Collection[int]] | None = None,
                 refuse: Refusal = _refused) -> dict[int, A]:  # fmt: skip
    """The choices of a joint action, one integer per seat (:data:`NO_OP` for a seat not awaited), for
    :meth:`KitFlow.apply_joint`: the one decoding of joint actions, for every adapter.

    An integer is a Python or numpy integer, never a ``bool`` or a float equal to one.

    :param legal: a seat's legal integers now, if the game lists them faster than :func:`legal_encoded`
        (they are then decoded with ``encoder``).
    :param refuse: the error to raise instead of the kit's :class:`AdapterError` (a game's own, say).
    :raises AdapterError: (or ``refuse``'s) the wrong number of actions, or an action that is not legal for
        its seat.
    """
    if not isinstance(actions, Sequence) or len(actions) != flow.players:
        raise refuse(None, actions, f"{_count(actions)} actions for {flow.players} seats")
    choices: dict[int, A] = {}
    for seat, index in enumerate(actions):
        listed: Mapping[int, A | None] | Collection[int] = legal_encoded(flow, encoder, seat) if legal is None else legal(seat)
        value = _integer(index)  # numpy ints are ints; an int subclass's own __eq__ decides nothing
        if value is None or value not in listed:
            raise refuse(seat, index if value is None else value, f"action {quote(index, 20)} is not legal for seat {seat}")
        if value == NO_OP:
            continue
        if isinstance(listed, Mapping):
            action = listed[value]
        else:
            assert flow.state is not None  # a seat has a legal action other than NO_OP at a decision only
            action = encoder.decode(flow.state, seat, value)
        if action is not None:
            choices[seat] = action
    return choices
