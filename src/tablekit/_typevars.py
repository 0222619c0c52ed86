"""The type variables of the kit's generic functions, one letter for each type a game defines.

They are declared once so that every module means the same by each letter; a module that needs a
variance or a bound (:mod:`tablekit.game`'s protocol) declares its own.
"""

from __future__ import annotations

from typing import TypeVar

__all__ = ["A", "C", "E", "S", "V"]

#: A game's action.
A = TypeVar("A")
#: A game's config.
C = TypeVar("C")
#: A game's event payload.
E = TypeVar("E")
#: A game's state.
S = TypeVar("S")
#: What one seat may see of a state (a view).
V = TypeVar("V")
