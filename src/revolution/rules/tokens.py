"""Tokens: the three persuasions, Force, Blackmail and Gold, and a count of each (rule 1.5).

Force is the strongest persuasion, then Blackmail, then Gold. A :class:`Tokens` value is a count of each kind:
a seat's tokens behind its screen, the bank, or the tokens one seat bids on one character. Bids are compared by
:attr:`Tokens.strength` (rule 5.2): the tuple ``(force, blackmail, gold)``, compared lexicographically, so one
Force beats any number of Blackmail and Gold, and equal Force is settled by Blackmail, then by Gold.

>>> Tokens(force=2).strength > Tokens(force=1, blackmail=5).strength
True
>>> Tokens(blackmail=1, gold=3) + Tokens(gold=2)
Tokens(force=0, blackmail=1, gold=5)
"""

from __future__ import annotations

import enum
import types
from collections.abc import Mapping
from typing import Final

import attrs

from revolution.rules.errors import InvalidValueError

__all__ = ["NO_TOKENS", "Token", "Tokens", "TOKEN_SUPPORT"]


class Token(enum.Enum):
    """A kind of token, strongest first: FORCE, BLACKMAIL, GOLD (rule 1.5); the value is its name in data."""

    FORCE = "force"
    BLACKMAIL = "blackmail"
    GOLD = "gold"


#: The support each leftover token scores at the end (rule 7.3): Force 5, Blackmail 3, Gold 1.
TOKEN_SUPPORT: Final[Mapping[Token, int]] = types.MappingProxyType({Token.FORCE: 5, Token.BLACKMAIL: 3, Token.GOLD: 1})


def _count(instance: Tokens, attribute: attrs.Attribute[int], value: object) -> None:
    if type(value) is not int or value < 0:
        raise InvalidValueError(f"a token count is a whole number from 0, not {value!r}", field=f"Tokens.{attribute.name}")


@attrs.frozen
class Tokens:
    """So many Force, Blackmail and Gold tokens (rule 1.5).

    :ivar force: Force tokens, the strongest persuasion.
    :ivar blackmail: Blackmail tokens.
    :ivar gold: Gold tokens, the weakest.
    :raises ~revolution.rules.errors.InvalidValueError: a count that is not a whole number from 0 (a ``bool`` is refused).
    """

    force: int = attrs.field(default=0, validator=_count)
    blackmail: int = attrs.field(default=0, validator=_count)
    gold: int = attrs.field(default=0, validator=_count)

    @classmethod
    def of(cls, kind: Token, count: int = 1) -> Tokens:
        """``count`` tokens of one ``kind``."""
        return cls(**{kind.value: count})

    def count(self, kind: Token) -> int:
        """How many tokens of ``kind``."""
        value: int = getattr(self, kind.value)
        return value

    @property
    def total(self) -> int:
        """The number of tokens, whatever their kind (patronage counts them so, rule 6.1)."""
        return self.force + self.blackmail + self.gold

    @property
    def strength(self) -> tuple[int, int, int]:
        """``(force, blackmail, gold)``: bids compare by this tuple, lexicographically (rule 5.2)."""
        return (self.force, self.blackmail, self.gold)

    @property
    def kinds(self) -> frozenset[Token]:
        """The kinds of which there is at least one token."""
        return frozenset(kind for kind in Token if self.count(kind))

    @property
    def support(self) -> int:
        """What these tokens score when left over at the end: 5 a Force, 3 a Blackmail, 1 a Gold (rule 7.3)."""
        return sum(TOKEN_SUPPORT[kind] * self.count(kind) for kind in Token)

    def __add__(self, other: Tokens) -> Tokens:
        """The tokens of both."""
        return Tokens(self.force + other.force, self.blackmail + other.blackmail, self.gold + other.gold)

    def __sub__(self, other: Tokens) -> Tokens:
        """These tokens less ``other``'s.

        :raises ~revolution.rules.errors.InvalidValueError: ``other`` has more of some kind than these.
        """
        return Tokens(self.force - other.force, self.blackmail - other.blackmail, self.gold - other.gold)

    def __bool__(self) -> bool:
        """Whether there is any token."""
        return self.total > 0

    def capped_by(self, other: Tokens) -> Tokens:
        """Of each kind, as many as these, but no more than ``other`` has (what a short bank can pay, R-F)."""
        return Tokens(min(self.force, other.force), min(self.blackmail, other.blackmail), min(self.gold, other.gold))


#: No token at all.
NO_TOKENS: Final = Tokens()
