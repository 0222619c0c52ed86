"""Fast private copies and constructors of the engine's frozen attrs values (internal, issue 6).

:func:`attrs.evolve` and the attrs-generated ``__init__`` of a frozen slotted
class set each field through ``object.__setattr__`` by name, and ``evolve``
also reads every field by name: for the 24 fields of a
:class:`~darkempire.state.GameState` that is most of the cost of a transition.
The functions made here write each slot through its descriptor directly,
which gives the same object several times faster.

They skip converters and validators: callers pass values already in their
final form (tuples, frozensets) that the engine has checked. Only the engine
and the views use them; the public constructors still validate.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from itertools import repeat
from typing import Any, TypeVar

import attrs

__all__ = ["bulk_maker", "evolver", "maker"]

T = TypeVar("T")


class _Keep:
    """Marks a field that :func:`evolver`'s copy takes over unchanged."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<keep>"


_KEEP = _Keep()


def _namespace(cls: type[Any]) -> tuple[list[str], dict[str, Any]]:
    """The field names of ``cls`` and the names a generated function uses."""
    if not attrs.has(cls) or "__slots__" not in vars(cls):
        raise TypeError(f"{cls.__name__} is not a slotted attrs class")
    names = [field.name for field in attrs.fields(cls)]
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_KEEP": _KEEP}
    for name in names:
        namespace[f"_set_{name}"] = vars(cls)[name].__set__
    return names, namespace


def evolver(cls: type[T]) -> Callable[..., T]:
    """A function ``evolve(instance, **changes)`` equal in result to :func:`attrs.evolve`.

    Unlike :func:`attrs.evolve` it runs no converter or validator: pass field
    values in their converted form.

    :param cls: a slotted attrs class.
    :raises TypeError: if ``cls`` is not one.
    """
    names, namespace = _namespace(cls)
    lines = [f"def evolve(inst, *, {', '.join(f'{name}=_KEEP' for name in names)}):", "    new = _new(_cls)"]
    lines += [f"    _set_{name}(new, inst.{name} if {name} is _KEEP else {name})" for name in names]
    lines.append("    return new")
    exec("\n".join(lines), namespace)  # noqa: S102  # generated from the class's own field names
    function: Callable[..., T] = namespace["evolve"]
    function.__qualname__ = f"evolve_{cls.__name__}"
    return function


def maker(cls: type[T]) -> Callable[..., T]:
    """A function ``make(*values)`` that builds ``cls`` from all its field values in field order.

    Unlike the class's own ``__init__`` it runs no converter or validator and
    takes no defaults.

    :param cls: a slotted attrs class.
    :raises TypeError: if ``cls`` is not one.
    """
    names, namespace = _namespace(cls)
    lines = [f"def make({', '.join(names)}):", "    new = _new(_cls)"]
    lines += [f"    _set_{name}(new, {name})" for name in names]
    lines.append("    return new")
    exec("\n".join(lines), namespace)  # noqa: S102  # generated from the class's own field names
    function: Callable[..., T] = namespace["make"]
    function.__qualname__ = f"make_{cls.__name__}"
    return function


def bulk_maker(cls: type[T]) -> Callable[..., list[T]]:
    """A function ``make_all(count, *columns)`` that builds ``count`` instances of ``cls`` at once.

    ``columns`` holds one iterable of ``count`` values per field, in field
    order. The instances are made and their slots written by C-level loops
    (:func:`map`), with no Python call per instance: several times faster
    than calling a :func:`maker` for each, which matters for the hundreds of
    re-organize actions of a hand. Like :func:`maker` it runs no converter or
    validator.

    :param cls: a slotted attrs class.
    :raises TypeError: if ``cls`` is not one.
    """
    names, namespace = _namespace(cls)
    setters = [namespace[f"_set_{name}"] for name in names]
    new = object.__new__

    def make_all(count: int, *columns: Iterable[Any]) -> list[T]:
        made: list[T] = list(map(new, repeat(cls, count)))
        for setter, column in zip(setters, columns, strict=True):
            deque(map(setter, made, column), maxlen=0)  # consumes the map: writes one slot of each instance
        return made

    make_all.__qualname__ = f"make_all_{cls.__name__}"
    return make_all
