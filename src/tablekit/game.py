"""The :class:`Game` protocol a rules package implements, and the :class:`Transition` every step returns.

A game is a handful of pure functions over immutable values, generic in five types the rules package defines:
its config ``C`` (player count, options), state ``S``, action ``A``, view ``V`` (what one seat may see) and
event payload ``E``. The kit never looks inside them.

The shape of play is the same for every game:

1. :meth:`Game.initial` sets up a game from a config and a :class:`~tablekit.chance.ChanceSource`, and reports
   what it did (the deal's draws are chance events);
2. while not :meth:`Game.is_over`, the seats in :meth:`Game.awaited` choose, each from
   :meth:`Game.legal_actions` (checked by :meth:`Game.check`), hidden from each other until all have chosen
   (:mod:`tablekit.simultaneous` collects them);
3. :meth:`Game.step` resolves the step with every awaited seat's choice and returns a :class:`Transition`: the
   new state and the events it caused;
4. :meth:`Game.returns` scores a finished game.

A simultaneous step awaits several seats; a sequential one awaits one. So both of these fit:

* *Dark Empire: Revolution*: every step is simultaneous among the awaited seats;
* *Revolution!*: a simultaneous bid step, then, during its resolution, one-seat steps for the choices only a
  winner makes (the Spy's and the Apothecary's winners).

The state holds no random generator: chance is passed to :meth:`~Game.initial` and :meth:`~Game.step` and comes
back, advanced, in the :class:`Transition`. That is what lets an adapter replace it with a scripted source
and expose every draw as a chance node (see :mod:`tablekit.chance`).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Generic, Protocol, TypeVar, overload

import attrs

from tablekit.chance import ChanceSource
from tablekit.errors import NotListedError
from tablekit.events import Event
from tablekit.wire import quote

__all__ = ["Game", "LazyActions", "Transition"]

A = TypeVar("A")
S = TypeVar("S")
E = TypeVar("E")
S_co = TypeVar("S_co", covariant=True)
E_co = TypeVar("E_co", covariant=True)
C_contra = TypeVar("C_contra", contravariant=True)
V_co = TypeVar("V_co", covariant=True)


def _events(value: Sequence[Event[E]]) -> tuple[Event[E], ...]:
    return tuple(value)


@attrs.frozen
class Transition(Generic[S_co, E_co]):
    """What one step did: the state after it, the events it caused in order, and the chance source after it.

    Python-chess and PokerKit style: an operation returns the record of what it did, so a log is the
    concatenation of the transitions' events, never a comparison of two states.

    :ivar state: the state after the step.
    :ivar events: the events the step caused, in the order they happened.
    :ivar chance: the chance source to pass to the next step.
    """

    state: S_co
    events: tuple[Event[E_co], ...] = attrs.field(converter=_events)
    chance: ChanceSource


@attrs.frozen(eq=False)
class LazyActions(Sequence[A]):
    """A sequence of legal actions that builds each one only when it is asked for.

    Some games have many legal actions (Dark Empire's re-organize has hundreds) while a bot or an adapter
    looks at a few: it counts them, picks an index, and takes that one. This sequence knows only its length
    and how to build action ``i``; it is a :class:`~collections.abc.Sequence`, so ``len``, indexing, slicing,
    iteration and ``in`` all work.

    It stands for the tuple of its actions: it is equal to that tuple (and to any other :class:`LazyActions`
    with the same actions in the same order) and hashes like it, whatever builds the actions. Like a tuple,
    it is never equal to a list. Comparing or hashing builds every action, so do it in tests, not in a loop.

    Membership is the game's to say: with ``contains``, ``in``, :meth:`index` and :meth:`count` ask it
    first, so a value it refuses is in no position, though a tuple's ``==`` might have said otherwise (a
    value built without its fields, whose comparison raises; a subclass whose ``__eq__`` says True of
    everything, which the game's check refuses). ``value in actions`` then means the game accepts ``value``.

    :ivar size: the number of legal actions.
    :ivar build: ``build(i)`` is action ``i``, for ``0 <= i < size``.
    :ivar contains: optionally, a fast membership test; without it ``in`` builds actions one by one.
        For a value it accepts it must agree with ``any(action == value for action in self)``; it may refuse
        a value that only compares equal to an action, and must not raise for any value.

    >>> squares = LazyActions(4, lambda i: i * i)
    >>> len(squares), squares[3], list(squares[1:3]), 9 in squares
    (4, 9, [1, 4], True)
    >>> squares == (0, 1, 4, 9), squares == [0, 1, 4, 9]
    (True, False)
    """

    size: int
    build: Callable[[int], A]
    contains: Callable[[object], bool] | None = None

    def __len__(self) -> int:
        """The number of legal actions."""
        return self.size

    @overload
    def __getitem__(self, index: int) -> A: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[A]: ...

    def __getitem__(self, index: int | slice) -> A | Sequence[A]:
        """Action ``index`` (negative counts from the end), or a tuple of the actions of a slice.

        :raises IndexError: ``index`` is out of range, as for any sequence.
        :raises TypeError: ``index`` is no integer (``1.0``, ``"0"``), as for a tuple.
        """
        if type(index) is int and 0 <= index < self.size:  # the common case, a bot's pick, first
            return self.build(index)
        if isinstance(index, slice):
            return tuple(self.build(i) for i in range(*index.indices(self.size)))
        index = operator.index(index)  # a float or a str is no index, as for a tuple
        position = index + self.size if index < 0 else index
        if not 0 <= position < self.size:
            raise IndexError(f"action index {quote(index, 20)} out of range for {self.size} actions")
        return self.build(position)

    def __iter__(self) -> Iterator[A]:
        """The actions in order, built one at a time."""
        return (self.build(i) for i in range(self.size))

    def __contains__(self, value: object) -> bool:
        """Whether ``value`` is one of the actions (with ``contains`` if given)."""
        if self.contains is not None:
            return self.contains(value)
        return any(action == value for action in self)

    def index(self, value: object, start: int = 0, stop: int | None = None) -> int:
        """The position of ``value`` (from ``start``, before ``stop``), as for a tuple, once ``contains``
        accepts it: a value it refuses is compared with no action.

        :raises NotListedError: ``value`` is not one of the actions there (a :class:`ValueError`, as for a tuple).
        """
        if self.contains is None or self.contains(value):
            try:
                return super().index(value, start, self.size if stop is None else stop)
            except ValueError:
                pass
        # Named by its type: the repr of a value built without its fields may raise in turn.
        raise NotListedError(f"the {type(value).__name__} given is not one of the {self.size} actions")

    def count(self, value: object) -> int:
        """How many of the actions equal ``value``: none for a value ``contains`` refuses."""
        if self.contains is not None and not self.contains(value):
            return 0
        return super().count(value)

    def __eq__(self, other: object) -> bool:
        """Whether ``other`` is a tuple or a :class:`LazyActions` of the same actions in the same order."""
        if not isinstance(other, (tuple, LazyActions)):
            return NotImplemented
        return len(other) == self.size and all(a == b for a, b in zip(self, other))

    def __hash__(self) -> int:
        """The hash of the tuple of the actions, as equality with that tuple requires."""
        return hash(tuple(self))

    def __repr__(self) -> str:
        """The actions, as the tuple they stand for would show them, in a ``LazyActions(...)``."""
        return f"LazyActions({tuple(self)!r})"


class Game(Protocol[C_contra, S, A, V_co, E_co]):
    """The rules of one game, as pure functions; one class per game, no state of its own.

    Seats are numbered ``0 .. players - 1``. Every method is pure: the same arguments give the same result,
    and no argument is changed. A method given a seat that does not exist may raise anything; the kit checks
    seats against :meth:`awaited` before it calls :meth:`check` or :meth:`step`.
    """

    @property
    def name(self) -> str:
        """The game's name in records and wire formats, lowercase ASCII (``"darkempire"``)."""
        ...

    @property
    def version(self) -> int:
        """The version of the game's record and wire format; a record of another version is refused."""
        ...

    def initial(self, config: C_contra, chance: ChanceSource) -> Transition[S, E_co]:
        """A new game: the state before the first choice, and the set-up's events (the deal's draws)."""
        ...

    def players(self, state: S) -> int:
        """The number of seats."""
        ...

    def awaited(self, state: S) -> frozenset[int]:
        """The seats whose choice the current step waits for; empty exactly when the game is over.

        A seat whose only legal action follows from public information need not be awaited: :meth:`step`
        makes that choice for it.
        """
        ...

    def legal_actions(self, state: S, seat: int) -> Sequence[A]:
        """What an awaited ``seat`` may choose now, in a fixed order; a :class:`LazyActions` if there are many."""
        ...

    def check(self, state: S, seat: int, action: A) -> A | None:
        """Raise the game's :class:`~tablekit.errors.IllegalChoiceError` (naming the rule) unless awaited
        ``seat`` may choose ``action`` now.

        It sees only ``state``, never another seat's hidden choice, so no error can reveal one.

        :returns: the action to keep: ``action`` made of the game's own objects (equal to it), so that an
            object the caller changes after the check cannot change the step; the kit resolves the step with
            it. ``None`` keeps ``action`` itself (enough for a game whose actions nobody can change).
        """
        ...

    def step(self, state: S, choices: Mapping[int, A], chance: ChanceSource) -> Transition[S, E_co]:
        """Resolve the current step with one checked choice per awaited seat.

        It must accept every combination of choices that :meth:`check` accepted one by one.
        """
        ...

    def view(self, state: S, seat: int | None) -> V_co:
        """What ``seat`` may see of ``state``; ``None`` for a spectator."""
        ...

    def is_over(self, state: S) -> bool:
        """Whether the game has ended."""
        ...

    def returns(self, state: S) -> tuple[float, ...]:
        """Each seat's result in a finished game (OpenSpiel's returns): higher is better."""
        ...
