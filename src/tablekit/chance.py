"""Explicit chance: every random event is a named draw among listed options, and is reported.

A game never calls a random generator directly. It asks a :class:`ChanceSource` to :meth:`~ChanceSource.draw`
one of a sequence of equally likely options, under a name that says what the draw is (``"prize"``,
``"deal seat 2"``), and gets back an :class:`Outcome`: the name, the options, and the index drawn. The game
reports each outcome in its transition's events, so a log, a replay and an adapter all see the same chance.

A shuffle is a sequence of draws without replacement (:func:`shuffle`), so that each draw is a chance node
with a small, listed set of outcomes, as OpenSpiel wants, instead of one outcome among ``n!`` orders.

Two sources:

* :class:`SeededChance`: deterministic and counter-based. Draw ``k`` of seed ``s`` uses the standard
  library's Mersenne Twister seeded with the string ``"tablekit:<s>:<k>"`` (seeded through SHA-512, the same
  on every platform and Python version since 3.2). No global random state is read or written.
* :class:`ScriptedChance`: the outcomes are given, as indices; when they run out it raises
  :class:`ChanceNeeded`, naming the draw that is due. :func:`run_scripted` turns that into a value, which is
  how an adapter exposes chance nodes without undoing draws: run the step with the outcomes chosen so far; if
  it stops at a :class:`ChanceNode`, that is the chance node; append its outcome and run again.

>>> source = SeededChance(seed=7)
>>> outcome, source = source.draw("coin", ("heads", "tails"))
>>> outcome.name, outcome.value in ("heads", "tails"), source.draws
('coin', True, 1)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import ClassVar, Generic, Protocol, TypeVar

import attrs

from tablekit.errors import ChanceError, KitError

__all__ = [
    "ChanceNeeded",
    "ChanceNode",
    "ChanceSource",
    "Concealed",
    "Counter",
    "Outcome",
    "ScriptedChance",
    "SeededChance",
    "run_scripted",
    "shuffle",
]

T = TypeVar("T")
R = TypeVar("R")
Src = TypeVar("Src", bound="ChanceSource")
CounterT = TypeVar("CounterT", bound="Counter")


@attrs.frozen
class Concealed:
    """What the seats that may not see a draw see of it: its name and how many options there were.

    :ivar name: the draw's name.
    :ivar count: the number of equally likely options.
    """

    name: str
    count: int


@attrs.frozen
class Outcome(Generic[T]):
    """One chance draw: ``options[index]`` was drawn, uniformly among ``options``.

    :ivar name: what the draw is, in the game's words (``"prize"``, ``"deal seat 2"``).
    :ivar options: the equally likely options, in a fixed order the game chooses (sorted, typically).
    :ivar index: the position of the drawn option in ``options``.
    """

    name: str
    options: tuple[T, ...]
    index: int

    @property
    def value(self) -> T:
        """The option drawn."""
        return self.options[self.index]

    @property
    def probability(self) -> float:
        """The probability of this outcome: one over the number of options."""
        return 1.0 / len(self.options)

    def concealed(self) -> Concealed:
        """This draw as the seats that may not see it see it (for :meth:`tablekit.events.Event.private`)."""
        return Concealed(self.name, len(self.options))


class ChanceSource(Protocol):
    """Where a game's randomness comes from: an immutable value that draws and returns its next state."""

    def draw(self: Src, name: str, options: Sequence[T]) -> tuple[Outcome[T], Src]:
        """Draw one of ``options``, uniformly; return the outcome and the source for the next draw.

        :raises ChanceError: ``options`` is empty (or, for a scripted source, the scripted index is not one
            of the options).
        :raises ChanceNeeded: a scripted source has no outcome left for this draw.
        """
        ...


def _check_options(name: str, options: Sequence[object]) -> None:
    if len(options) == 0:
        raise ChanceError(f"the chance draw {name!r} has no options")


@attrs.frozen
class Counter:
    """A counter-based generator's state: a seed and how many draws were made; each draw its own generator.

    Draw ``k`` of seed ``s`` uses the standard library's Mersenne Twister seeded with the string
    ``"<namespace>:<s>:<k>"`` (seeded through SHA-512, the same on every platform and Python version since
    3.2), so a draw depends on its number alone, never on what happened around it, and no global random state
    is read or written. Subclasses name their :attr:`NAMESPACE` and say what one draw is.

    :ivar seed: the game's seed (any integer).
    :ivar draws: how many draws have been made so far.
    """

    #: What the generator strings start with: two sources of different namespaces never share a draw.
    NAMESPACE: ClassVar[str] = "tablekit"

    seed: int
    draws: int = 0

    def generator(self) -> random.Random:
        """The generator of draw number ``draws``."""
        return random.Random(f"{self.NAMESPACE}:{self.seed}:{self.draws}")

    def following(self: CounterT) -> CounterT:
        """The state after one more draw."""
        return attrs.evolve(self, draws=self.draws + 1)


@attrs.frozen
class SeededChance(Counter):
    """A deterministic source: the same seed gives the same draws, whatever happens around them (a
    :class:`Counter` of namespace ``"tablekit"``)."""

    def draw(self, name: str, options: Sequence[T]) -> tuple[Outcome[T], SeededChance]:
        """Draw one of ``options`` with draw number ``draws`` of ``seed`` (see the module docstring)."""
        _check_options(name, options)
        index = self.generator().randrange(len(options))
        return Outcome(name, tuple(options), index), self.following()


@attrs.frozen
class ChanceNode:
    """A draw that is due and has no outcome yet: a chance node, for an adapter.

    :ivar name: the draw's name.
    :ivar count: the number of equally likely outcomes, ``0 .. count - 1``.
    :ivar position: how many draws came before it in the script.
    :ivar options: the options themselves, in the game's order (outcome ``i`` draws ``options[i]``), for an
        adapter that names outcomes by what they draw. They are whatever the game draws among, hidden parts
        included (the cards left in a pile): an adapter holds the whole game, and must not show them to a seat.
    """

    name: str
    count: int
    position: int
    options: tuple[object, ...] = ()


class ChanceNeeded(KitError):
    """A :class:`ScriptedChance` ran out of outcomes: a signal, not a fault (see :func:`run_scripted`).

    :ivar node: the draw that is due.
    """

    node: ChanceNode

    def __init__(self, node: ChanceNode) -> None:
        super().__init__(f"the chance draw {node.name!r} ({node.count} options) has no scripted outcome")
        self.node = node


def _indices(value: Sequence[int]) -> tuple[int, ...]:
    return tuple(value)


@attrs.frozen
class ScriptedChance:
    """A source whose outcomes are given in advance, as indices into each draw's options.

    :ivar script: the outcome index of each draw, in order.
    :ivar position: how many scripted outcomes have been used.
    """

    script: tuple[int, ...] = attrs.field(converter=_indices)
    position: int = 0

    def draw(self, name: str, options: Sequence[T]) -> tuple[Outcome[T], ScriptedChance]:
        """The next scripted outcome.

        :raises ChanceNeeded: the script is used up.
        :raises ChanceError: no options, or the scripted index is out of range (or not an ``int``).
        """
        _check_options(name, options)
        if self.position >= len(self.script):
            raise ChanceNeeded(ChanceNode(name, len(options), self.position, tuple(options)))
        index = self.script[self.position]
        if type(index) is not int or not 0 <= index < len(options):
            raise ChanceError(f"scripted outcome {index!r:.20} of {name!r} is not in 0..{len(options) - 1}")
        return Outcome(name, tuple(options), index), ScriptedChance(self.script, self.position + 1)


def shuffle(source: Src, name: str, items: Sequence[T]) -> tuple[tuple[T, ...], tuple[Outcome[T], ...], Src]:
    """``items`` in a random order, drawn one at a time without replacement.

    Draw ``i`` is named ``"<name> #i"`` and picks among the items not drawn yet, in their original order.

    :returns: the new order, the outcome of each draw (to report), and the source after the draws.
    """
    left = list(items)
    order: list[T] = []
    outcomes: list[Outcome[T]] = []
    while left:
        outcome, source = source.draw(f"{name} #{len(order)}", left)
        outcomes.append(outcome)
        order.append(left.pop(outcome.index))
    return tuple(order), tuple(outcomes), source


def run_scripted(run: Callable[[ScriptedChance], R], script: Sequence[int]) -> R | ChanceNode:
    """``run`` with the outcomes of ``script``; the :class:`ChanceNode` it stops at if the script runs out.

    ``run`` must be pure (a game's ``step`` is), so running it again with a longer script repeats the same
    draws and continues: the history of outcome indices is the whole chance state an adapter keeps.
    """
    try:
        return run(ScriptedChance(script))
    except ChanceNeeded as needed:
        return needed.node
