"""Fast private copies and constructors of the engine's frozen attrs values (internal, issue 6).

:func:`attrs.evolve` and the attrs-generated ``__init__`` of a frozen slotted
class set each field through ``object.__setattr__`` by name, and ``evolve``
also reads every field by name: for the 24 fields of a
:class:`~darkempire.state.GameState` that was most of the cost of a transition.
Writing a slot through its descriptor's ``__set__`` is hardly faster.

The functions made here build the instance as a *builder*: a subclass with no
slots of its own whose ``__setattr__`` is the plain one, so each field is an
ordinary attribute store (which the interpreter specialises for slots), and
then set its ``__class__`` to the frozen class. The result is an ordinary,
frozen instance of that class, equal to what :func:`attrs.evolve` or the
constructor gives, several times faster. (A separate class with the same slots
would do too, but CPython 3.11 refuses ``__class__`` assignment between two
classes with a ``__weakref__`` slot.)

They skip converters and validators: callers pass values already in their
final form (tuples, frozensets) that the engine has checked. Only the engine
and the views use them; the public constructors still validate.
"""

from __future__ import annotations

from collections.abc import Callable
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
    builder = type(
        f"_{cls.__name__}Builder",
        (cls,),
        # Both hooks of tp_setattro must be object's for attribute stores to take the fast generic path.
        {"__slots__": (), "__setattr__": object.__setattr__, "__delattr__": object.__delattr__, "__module__": __name__},
    )
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_builder": builder, "_KEEP": _KEEP}
    return names, namespace


def evolver(cls: type[T]) -> Callable[..., T]:
    """A function ``evolve(instance, **changes)`` equal in result to :func:`attrs.evolve`.

    Unlike :func:`attrs.evolve` it runs no converter or validator: pass field
    values in their converted form.

    :param cls: a slotted attrs class.
    :raises TypeError: if ``cls`` is not one.
    """
    names, namespace = _namespace(cls)
    lines = [f"def evolve(inst, *, {', '.join(f'{name}=_KEEP' for name in names)}):", "    new = _new(_builder)"]
    lines += [f"    new.{name} = inst.{name} if {name} is _KEEP else {name}" for name in names]
    lines += ["    new.__class__ = _cls", "    return new"]
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
    lines = [f"def make({', '.join(names)}):", "    new = _new(_builder)"]
    lines += [f"    new.{name} = {name}" for name in names]
    lines += ["    new.__class__ = _cls", "    return new"]
    exec("\n".join(lines), namespace)  # noqa: S102  # generated from the class's own field names
    function: Callable[..., T] = namespace["make"]
    function.__qualname__ = f"make_{cls.__name__}"
    return function


def bulk_maker(cls: type[T]) -> Callable[..., list[T]]:
    """A function ``make_all(*columns)`` that builds one instance of ``cls`` per row of the columns.

    ``columns`` holds one iterable per field, in field order; they are zipped.
    One generated loop builds them all, with no function call per instance,
    which matters for the hundreds of re-organize actions of a hand. Like
    :func:`maker` it runs no converter or validator.

    :param cls: a slotted attrs class.
    :raises TypeError: if ``cls`` is not one.
    """
    names, namespace = _namespace(cls)
    lines = [
        f"def make_all({', '.join(names)}):",
        "    made = []",
        "    append = made.append",
        f"    for {', '.join(f'_{name}' for name in names)}{',' if len(names) == 1 else ''} in zip({', '.join(names)}):",
        "        new = _new(_builder)",
    ]
    lines += [f"        new.{name} = _{name}" for name in names]
    lines += ["        new.__class__ = _cls", "        append(new)", "    return made"]
    exec("\n".join(lines), namespace)  # noqa: S102  # generated from the class's own field names
    function: Callable[..., list[T]] = namespace["make_all"]
    function.__qualname__ = f"make_all_{cls.__name__}"
    return function
