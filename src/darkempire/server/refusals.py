"""The server's refusals: one typed error per reason, each with the ``code`` a client reads.

Every refusal the lobby or a game connection sends names its reason as a short ``code`` (``"unknown-match"``,
``"bad-credential"``, ``"illegal-action"``...) and, for a move the rules forbid, the broken rule. The HTTP
lobby maps each to a status (``ServerError.status``); a game connection sends it as an ``"error"``
message (:func:`darkempire.server.protocol.error_message`) and stays open.
"""

from __future__ import annotations

from typing import ClassVar

from darkempire.rules.errors import DarkEmpireError

__all__ = [
    "BadRequestError",
    "ChoiceConflictError",
    "CredentialError",
    "ForbiddenOriginError",
    "FrameTooLargeError",
    "HelloTimeoutError",
    "MatchOverError",
    "MethodNotAllowedError",
    "NoFreeSeatError",
    "NotASeatError",
    "NotFoundError",
    "OutOfOrderError",
    "RateLimitedError",
    "SeatTakenError",
    "SeatLostError",
    "ServerError",
    "StorageError",
    "TooManyConnectionsError",
    "UnknownMatchError",
    "UnsupportedMediaTypeError",
]


class ServerError(DarkEmpireError):
    """A request the server refuses; nothing changed.

    :ivar code: the refusal's name, as a client reads it in an ``"error"`` message or an HTTP error body.
    :ivar status: the HTTP status the lobby answers with.
    :ivar message: the explanation, which never quotes a credential.
    """

    code: ClassVar[str] = "server-error"
    status: ClassVar[int] = 500

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BadRequestError(ServerError):
    """A lobby request or a game message that is not one the protocol defines (a field missing, of the wrong
    type, out of range, or unknown); its message names the field."""

    code = "bad-request"
    status = 400


class FrameTooLargeError(BadRequestError):
    """A game message longer than :data:`darkempire.server.protocol.MAX_FRAME_BYTES`; it is not parsed."""

    code = "frame-too-large"
    status = 413


class UnsupportedMediaTypeError(BadRequestError):
    """A lobby request body sent as another media type than ``application/json``."""

    code = "unsupported-media-type"
    status = 415


class NotFoundError(ServerError):
    """No route of the server has this path."""

    code = "not-found"
    status = 404


class MethodNotAllowedError(ServerError):
    """The route has no such method (the ``Allow`` header lists those it has)."""

    code = "method-not-allowed"
    status = 405


class RateLimitedError(ServerError):
    """A connection sent more messages than :data:`darkempire.server.protocol.RATE_PER_SECOND` allows; the
    message was dropped unread."""

    code = "rate-limited"
    status = 429


class TooManyConnectionsError(ServerError):
    """The match, or the client's address, has as many game connections open as the server allows: this one
    is closed (code 4503)."""

    code = "too-many-connections"
    status = 503


class OutOfOrderError(ServerError):
    """A game message that is not allowed now on this connection: an ``"act"`` before ``"hello"``, a second
    ``"hello"``."""

    code = "out-of-order"
    status = 409


class HelloTimeoutError(ServerError):
    """A game connection sent no ``hello`` in time after it opened: it is closed (code 4408), so that idle
    sockets do not pile up."""

    code = "hello-timeout"
    status = 408


class UnknownMatchError(ServerError):
    """No match has this id."""

    code = "unknown-match"
    status = 404


class NoFreeSeatError(ServerError):
    """Every human seat of the match is taken, or the seat asked for is a bot's or no seat of the match."""

    code = "no-free-seat"
    status = 409


class SeatTakenError(NoFreeSeatError):
    """The seat asked for is held by another player."""

    code = "seat-taken"


class SeatLostError(ServerError):
    """The player of this connection's seat left it: the connection is closed (code 4409), as what the seat is
    sent from now on is for whoever takes it next."""

    code = "seat-lost"
    status = 409


class CredentialError(ServerError):
    """A credential that is missing, not this seat's, or guessed: the move or request is refused unread."""

    code = "bad-credential"
    status = 403


class ForbiddenOriginError(ServerError):
    """A lobby POST from a web page of an origin the server does not allow
    (:class:`~darkempire.server.origins.OriginPolicy`); a game socket's handshake is refused with HTTP 403."""

    code = "forbidden-origin"
    status = 403


class NotASeatError(ServerError):
    """A spectator's connection sent a move."""

    code = "not-a-seat"
    status = 403


class MatchOverError(ServerError):
    """The match is finished: it takes no more moves and no more players."""

    code = "match-over"
    status = 409


class StorageError(ServerError):
    """The storage could not read or write; the move was not accepted."""

    code = "storage-error"
    status = 503


class ChoiceConflictError(StorageError):
    """The storage already holds a choice at this position of the match (written by another server process):
    the match catches up and the move is judged again."""

    code = "choice-conflict"
