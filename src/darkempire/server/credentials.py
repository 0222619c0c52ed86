"""Seat credentials: a secret per seat, generated with :mod:`secrets`, stored only as a hash.

A player who joins a seat gets a credential (:func:`new_credential`); every move it sends carries it. The
server keeps only :func:`credential_hash` of it, so a copy of the storage lets no one play a seat, and checks
a given credential with :func:`credential_matches`, whose comparison takes the same time wherever the strings
differ (:func:`hmac.compare_digest`), so timing tells a guesser nothing.

>>> token = new_credential()
>>> credential_matches(token, credential_hash(token)), credential_matches("guess", credential_hash(token))
(True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Final

__all__ = ["CREDENTIAL_BYTES", "credential_hash", "credential_matches", "new_credential"]

#: The random bytes of a credential (its text is about 4/3 as many URL-safe characters).
CREDENTIAL_BYTES: Final = 32
#: The longest credential text looked at; longer input is refused without being hashed.
_MAX_TEXT: Final = 256


def new_credential() -> str:
    """A fresh seat credential: :data:`CREDENTIAL_BYTES` random bytes as URL-safe text."""
    return secrets.token_urlsafe(CREDENTIAL_BYTES)


def credential_hash(credential: str) -> str:
    """The SHA-256 of ``credential``, in hex: what the storage keeps instead of the credential."""
    return hashlib.sha256(credential.encode("utf-8", "surrogatepass")).hexdigest()


def credential_matches(given: object, stored_hash: str | None) -> bool:
    """Whether ``given`` is the credential whose hash is ``stored_hash`` (``None``: the seat is free, and
    nothing matches). Anything but a string of at most 256 characters matches nothing."""
    if stored_hash is None or not isinstance(given, str) or len(given) > _MAX_TEXT:
        return False
    return hmac.compare_digest(credential_hash(given), stored_hash)
