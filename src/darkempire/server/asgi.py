"""The ASGI application: the lobby as JSON over HTTP, each game over a WebSocket (Starlette).

:func:`create_app` builds it on a :class:`~darkempire.server.storage.Storage`; ``darkempire serve`` runs it
on uvicorn (:mod:`darkempire.cli.serve`). The routes:

==========================================  ======================================================
``GET /api/matches?status=open|live|all``   the matches: open (default), not over, or all (:meth:`~darkempire.server.lobby.Lobby.listing`)
``POST /api/matches``                       create a match
``GET /api/matches/{id}``                   a match's public summary
``POST /api/matches/{id}/join``             take a seat: its credential
``POST /api/matches/{id}/leave``            give it up
``GET /api/matches/{id}/record``            the public record so far (no seed, nothing hidden)
``WebSocket /api/matches/{id}/socket``      the game (:mod:`darkempire.server.protocol`)
``GET /api/card-table``                     every card's names in both themes (:func:`~darkempire.wire.card_table.card_table`)
``GET /``                                   the browser client (:mod:`darkempire.web`)
==========================================  ======================================================

A credential travels only in request bodies and in frames, never in a URL, so no access log holds one.
Each connection's frames are capped (:data:`~darkempire.server.protocol.MAX_FRAME_BYTES`) and rate-limited
(:data:`~darkempire.server.protocol.RATE_PER_SECOND`); a refused frame gets an ``"error"`` message and the
connection stays open. What a connection has waiting to be sent is bounded too (:data:`MAX_QUEUED`): a client
that reads too slowly is dropped, closed with :data:`SLOW_CLIENT_CLOSE`, and may reconnect with ``since``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, Final, Protocol

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from darkempire.rules import engine
from darkempire.rules.errors import IllegalActionError
from darkempire.serialization import to_json
from darkempire.server.lobby import Lobby, random_seed
from darkempire.server.match import Dealer, Match
from darkempire.server.origins import OriginPolicy
from darkempire.server.protocol import (
    RATE_BURST,
    RATE_PER_SECOND,
    Act,
    Frame,
    error_message,
    message_text,
    parse_client_message,
)
from darkempire.server.refusals import (
    BadRequestError,
    ForbiddenOriginError,
    FrameTooLargeError,
    HelloTimeoutError,
    MethodNotAllowedError,
    NotASeatError,
    NotFoundError,
    OutOfOrderError,
    RateLimitedError,
    SeatLostError,
    ServerError,
    TooManyConnectionsError,
    UnsupportedMediaTypeError,
)
from darkempire.server.storage import FanOut, Storage
from darkempire.web import static_directory
from darkempire.wire.card_table import card_table
from tablekit import wire as kit

__all__ = [
    "CREATE_BURST",
    "CROWDED_CLOSE",
    "MAX_PER_ADDRESS",
    "MAX_PER_MATCH",
    "HELLO_TIMEOUT",
    "HELLO_TIMEOUT_CLOSE",
    "MAX_BODY_BYTES",
    "MAX_QUEUED",
    "SEAT_LOST_CLOSE",
    "SLOW_CLIENT_CLOSE",
    "AddressLimits",
    "Connection",
    "Quotas",
    "RateLimit",
    "TextSocket",
    "create_app",
]

#: The longest lobby request body, in bytes.
MAX_BODY_BYTES: Final = 16 * 1024
#: The WebSocket close code sent for a match that does not exist.
_UNKNOWN_MATCH_CLOSE: Final = 4404
#: The WebSocket close code of a connection dropped for reading too slowly (:class:`Connection`).
SLOW_CLIENT_CLOSE: Final = 4429
#: The WebSocket close code of a seat's connection once its player left the seat (:meth:`Connection.lose`).
SEAT_LOST_CLOSE: Final = 4409
#: The WebSocket close code of a connection that sent no ``hello`` within :data:`HELLO_TIMEOUT`.
HELLO_TIMEOUT_CLOSE: Final = 4408
#: The seconds a game connection has, once open, to send its ``hello`` (by default).
HELLO_TIMEOUT: Final = 10.0
#: The WebSocket close code of a connection past a quota (:data:`MAX_PER_MATCH`, :data:`MAX_PER_ADDRESS`).
CROWDED_CLOSE: Final = 4503
#: The game connections one match may have open at once (by default)...
MAX_PER_MATCH: Final = 128
#: ... and one client address, over every match.
MAX_PER_ADDRESS: Final = 16
#: The matches a client address may create at once, with a ``create_rate`` (:func:`create_app`).
CREATE_BURST: Final = 10
#: The most text, in characters, a connection may have waiting to be sent (by default): some late views.
MAX_QUEUED: Final = 2 * 1024 * 1024
#: How long a dropped connection's close frame may wait for the client to read what was already sent.
_CLOSE_WAIT: Final = 10.0

_LOG = logging.getLogger("darkempire.server")


class RateLimit:
    """A token bucket: ``rate`` messages a second on average, ``burst`` at once."""

    def __init__(self, rate: float = RATE_PER_SECOND, burst: int = RATE_BURST) -> None:
        self._rate = rate
        self._burst = float(burst)
        self._tokens = float(burst)
        self._last = time.monotonic()

    def take(self) -> bool:
        """Whether one more message is allowed now (and count it)."""
        now = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._last) * self._rate)
        self._last = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True


class AddressLimits:
    """A :class:`RateLimit` per client address, made on its first use; the buckets of addresses idle long
    enough to be full again are forgotten once there are many, so that a crowd of addresses costs little."""

    def __init__(self, rate: float, burst: int, keep: int = 4096) -> None:
        self._rate, self._burst, self._keep = rate, burst, keep
        self._limits: dict[str, tuple[RateLimit, float]] = {}

    def take(self, address: str) -> bool:
        """Whether ``address`` may do one more now (and count it)."""
        now = time.monotonic()
        if len(self._limits) >= self._keep:
            idle = self._burst / self._rate
            self._limits = {a: (lim, at) for a, (lim, at) in self._limits.items() if now - at < idle}
        limit = self._limits.get(address, (None, now))[0] or RateLimit(self._rate, self._burst)
        self._limits[address] = (limit, now)
        return limit.take()


def _address(connection: Request | WebSocket) -> str:
    return connection.client.host if connection.client is not None else "?"


class Quotas:
    """What the game connections may take together: how many are open per match and per client address (at
    most ``per_match`` and ``per_address``), and the messages an address may send per second over all of its
    connections (``shared``), so that opening more connections buys a client no more."""

    def __init__(self, per_match: int, per_address: int, shared: AddressLimits) -> None:
        self._most = {"match": per_match, "address": per_address}
        self._open: dict[tuple[str, str], int] = {}
        self.shared = shared

    def enter(self, match_id: str, address: str) -> bool:
        """Count a new connection, if both its match and its address are under their quota."""
        keys = [("match", match_id), ("address", address)]
        if any(self._open.get(key, 0) >= self._most[key[0]] for key in keys):
            return False
        for key in keys:
            self._open[key] = self._open.get(key, 0) + 1
        return True

    def leave(self, match_id: str, address: str) -> None:
        """Count a connection :meth:`enter` let in as closed."""
        for key in (("match", match_id), ("address", address)):
            self._open[key] -= 1
            if not self._open[key]:
                del self._open[key]


class TextSocket(Protocol):
    """What a :class:`Connection` writes to: a Starlette ``WebSocket``."""

    async def send_text(self, data: str) -> None:
        """Send one text frame; it may wait for the client to read."""


class Connection:
    """One game connection: its seat (``None`` for a spectator until ``hello`` names one) and its queue of
    messages, drained by one writer task (:meth:`drain`) so that every connection gets its messages in the
    match's order.

    The queue is bounded: a message that would take the text waiting to be sent past ``limit`` characters
    drops the connection instead (:attr:`dropped`): its queue is emptied, its writer stopped, and nothing more
    is queued, so a client that reads too slowly costs at most ``limit`` of memory, however fast the match goes.
    """

    def __init__(self, socket: TextSocket, limit: int = MAX_QUEUED) -> None:
        self._socket = socket
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._queued = 0
        self._limit = limit
        self._seat: int | None = None
        self._writer: asyncio.Task[None] | None = None
        self.greeted = False
        #: Whether the connection read too slowly and was dropped.
        self.dropped = False
        #: The close code the server ends the connection with once its queue is sent (``None``: none yet).
        self.close_code: int | None = None

    @property
    def seat(self) -> int | None:
        """The seat this connection plays, or ``None``."""
        return self._seat

    def play(self, seat: int | None) -> None:
        """Bind the connection to ``seat`` (after its credential was checked)."""
        self._seat = seat

    @property
    def queued(self) -> int:
        """The characters of text waiting to be sent (the message on its way included)."""
        return self._queued

    def put(self, message: dict[str, Any]) -> None:
        """Queue a message to send, or drop the connection if that would pass its limit."""
        if self.dropped or self.close_code is not None:
            return
        text = message.text() if isinstance(message, Frame) else message_text(message)
        if self._queued + len(text) > self._limit:
            self._drop()
            return
        self._queued += len(text)
        self._queue.put_nowait(text)

    def _drop(self) -> None:
        self.dropped = True
        self._queue = asyncio.Queue()  # the unsent messages go: the client catches up on reconnecting
        self._queued = 0
        if self._writer is not None:
            self._writer.cancel()  # it may wait forever on a socket the client does not read

    def lose(self, code: int = SEAT_LOST_CLOSE, why: ServerError | None = None) -> None:
        """End the connection with ``code`` after the messages already queued and a last ``error`` saying
        why (by default: its seat was left, and nothing the seat is sent from now on may reach it)."""
        if self.dropped or self.close_code is not None:
            return
        self.put(error_message(why or SeatLostError("the seat's player left it: this connection is closed")))
        self.close_code = code
        self.close()

    def close(self) -> None:
        """Let the writer stop once the queue is sent."""
        self._queue.put_nowait(None)

    async def drain(self) -> None:
        """Send the queued messages in order until :meth:`close`; run it as the connection's one writer task
        (a dropped connection cancels it, as it may wait forever on a client that does not read)."""
        self._writer = asyncio.current_task()
        while not self.dropped and (text := await self._queue.get()) is not None:
            await self._socket.send_text(text)
            self._queued -= len(text)


def _json(data: Any, status: int = 200) -> Response:
    # ASCII-escaped: a name stored before names were checked may hold a lone surrogate, which no UTF-8 encodes.
    text = json.dumps(data, ensure_ascii=True, allow_nan=False, separators=(",", ":"))
    return Response(text, status_code=status, media_type="application/json")


def _refusal(error: ServerError) -> Response:
    return _json({"error": {"code": error.code, "message": error.message}}, error.status)


async def _read_body(request: Request) -> Any:
    """The request's JSON body, parsed strictly (no ``NaN``, no key twice: :func:`tablekit.wire.load_json`);
    an empty body is ``{}``."""
    media = request.headers.get("content-type")
    if media is not None:
        kind = media.partition(";")[0].strip().lower()
        if kind != "application/json" and not (kind.startswith("application/") and kind.endswith("+json")):
            raise UnsupportedMediaTypeError(f"content-type: a lobby request is application/json, not {media[:60]!r}")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise FrameTooLargeError(f"a lobby request is at most {MAX_BODY_BYTES} bytes")
        chunks.append(chunk)
    try:
        return kit.load_json(b"".join(chunks) or b"{}", max_bytes=MAX_BODY_BYTES)
    except kit.WireError as error:
        raise BadRequestError(f"the request body is not strict JSON: {error}") from None


async def _not_routed(request: Request, error: Exception) -> Response:
    """Starlette's own 404 and 405, as the lobby's JSON error bodies."""
    if isinstance(error, HTTPException) and error.status_code == 405:
        refusal = _refusal(MethodNotAllowedError(f"{request.method} is not a method of {request.url.path[:200]!r}"))
        refusal.headers.update(error.headers or {})  # Allow: the methods the route has
        return refusal
    return _refusal(NotFoundError(f"no route {request.url.path[:200]!r}"))


Handler = Callable[[Request], Awaitable[Response]]


def _routes(
    lobby: Lobby,
    rate: float,
    burst: int,
    queued: int,
    hello_timeout: float,
    creations: AddressLimits | None,
    quotas: Quotas,
    origins: OriginPolicy,
) -> list[Route | WebSocketRoute | Mount]:
    """The lobby's routes, the game socket and the page. Long because every endpoint is a closure over the
    same lobby and limits, so that the whole API reads in one place."""

    def refusing(handler: Callable[[Request], Awaitable[Any]], status: int = 200) -> Handler:
        async def endpoint(request: Request) -> Response:
            try:
                headers = request.headers
                if request.method == "POST" and not origins.allows(headers.get("origin"), headers.get("host")):
                    raise ForbiddenOriginError("requests from this page's origin are not allowed (serve --allow-origin)")
                return _json(await handler(request), status)
            except ServerError as error:
                return _refusal(error)
            except Exception as error:  # a bug must not answer with a traceback; the log names no credential
                _LOG.exception("lobby %s %s: unexpected %s", request.method, request.url.path, type(error).__name__)
                return _refusal(ServerError("the server failed on this request; nothing changed"))

        return endpoint

    async def listing(request: Request) -> Any:
        return {"matches": lobby.listing(request.query_params.get("status", "open"))}

    async def create(request: Request) -> Any:
        if creations is not None and not creations.take(_address(request)):
            raise RateLimitedError("this address created too many matches lately; wait a little")
        summary = lobby.create(await _read_body(request))
        return {"match": summary}

    async def summary(request: Request) -> Any:
        return {"match": lobby.summary(request.path_params["match_id"])}

    async def join(request: Request) -> Any:
        return lobby.join(request.path_params["match_id"], await _read_body(request))

    async def leave(request: Request) -> Any:
        return lobby.leave(request.path_params["match_id"], await _read_body(request))

    async def record(request: Request) -> Response:
        try:
            match = lobby.match(request.path_params["match_id"])
        except ServerError as error:
            return _refusal(error)
        return Response(to_json(match.public_record()), media_type="application/json")

    async def socket(websocket: WebSocket) -> None:
        if not origins.allows(websocket.headers.get("origin"), websocket.headers.get("host")):
            await websocket.close()  # before the handshake: an HTTP 403, and nothing of the match read
            return
        await _play(lobby, websocket, RateLimit(rate, burst), queued, hello_timeout, quotas)

    cards = to_json(card_table())  # the same for every request: the rules' cards

    async def card_names(_: Request) -> Response:
        return Response(cards, media_type="application/json")

    # Under one mount, so a known path with the wrong method is a 405 from the API's router, not a missing file.
    api = [
        Route("/matches", refusing(listing), methods=["GET"]),
        Route("/matches", refusing(create, 201), methods=["POST"]),
        Route("/matches/{match_id}", refusing(summary), methods=["GET"]),
        Route("/matches/{match_id}/join", refusing(join), methods=["POST"]),
        Route("/matches/{match_id}/leave", refusing(leave), methods=["POST"]),
        Route("/matches/{match_id}/record", record, methods=["GET"]),
        WebSocketRoute("/matches/{match_id}/socket", socket),
        Route("/card-table", card_names, methods=["GET"]),
    ]
    return [
        Mount("/api", routes=api),
        # Last: the page's files answer whatever the API does not.
        Mount("/", StaticFiles(directory=static_directory(), html=True), name="web"),
    ]


async def _play(
    lobby: Lobby, websocket: WebSocket, limit: RateLimit, queued: int, hello_timeout: float, quotas: Quotas
) -> None:
    """Serve one game connection until the client leaves, or reads too slowly."""
    await websocket.accept()
    connection = Connection(websocket, queued)
    writer = asyncio.create_task(connection.drain())
    try:
        match = lobby.match(websocket.path_params["match_id"])
    except ServerError as error:
        connection.put(error_message(error))
        connection.close()
        await writer
        await websocket.close(_UNKNOWN_MATCH_CLOSE)
        return
    address = _address(websocket)
    if not quotas.enter(match.stored.match_id, address):
        connection.lose(CROWDED_CLOSE, TooManyConnectionsError("too many connections to this match or from this address"))
        try:
            await writer
            await websocket.close(CROWDED_CLOSE)
        except Exception:  # the client is gone already
            pass
        return
    try:
        await _serve(lobby, match, websocket, connection, writer, limit, quotas.shared, address, hello_timeout)
    finally:
        quotas.leave(match.stored.match_id, address)


async def _serve(
    lobby: Lobby,
    match: Match,
    websocket: WebSocket,
    connection: Connection,
    writer: asyncio.Task[None],
    limit: RateLimit,
    shared: AddressLimits,
    address: str,
    hello_timeout: float,
) -> None:
    """Read and write a game connection let in by its quotas, until it ends."""
    deadline = time.monotonic() + hello_timeout

    def allowed() -> bool:  # the connection's own bucket, then its address's
        return limit.take() and shared.take(address)

    reader = asyncio.create_task(_read(lobby, match, websocket, connection, allowed, deadline))
    try:
        await asyncio.wait((reader, writer), return_when=asyncio.FIRST_COMPLETED)
    finally:
        match.unsubscribe(connection)
        reader.cancel()
        if connection.dropped:
            await _hang_up(match, connection, websocket)
        elif connection.close_code is not None:
            try:
                await writer
                await websocket.close(connection.close_code)
            except Exception:  # the client is gone already
                pass
        else:
            connection.close()
            try:
                await writer
            except Exception:  # the client is gone: its unsent messages go nowhere
                pass


async def _read(
    lobby: Lobby, match: Match, websocket: WebSocket, connection: Connection, allowed: Callable[[], bool], deadline: float
) -> None:
    """Answer the client's frames until it disconnects, or lets ``deadline`` (monotonic) pass without a hello."""
    while True:
        if connection.greeted:
            message = await websocket.receive()
        else:
            try:
                message = await asyncio.wait_for(websocket.receive(), max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                connection.lose(HELLO_TIMEOUT_CLOSE, HelloTimeoutError("no 'hello' in time: this connection is closed"))
                return
        if message["type"] == "websocket.disconnect":
            return
        frame = message.get("text")
        frame = message.get("bytes", b"") if frame is None else frame
        if not allowed():
            connection.put(error_message(RateLimitedError("too many messages; this one was dropped unread")))
            continue
        _answer(lobby, match, connection, frame)


async def _hang_up(match: Match, connection: Connection, websocket: WebSocket) -> None:
    """Close a connection dropped for reading too slowly, once the client reads what is on its way."""
    seat = "spectator" if connection.seat is None else f"seat {connection.seat}"
    _LOG.warning("match %s: a %s connection read too slowly and was dropped", match.stored.match_id, seat)
    try:
        await asyncio.wait_for(websocket.close(SLOW_CLIENT_CLOSE), _CLOSE_WAIT)
    except Exception:  # it did not read even that, or left: the server closes the transport
        pass


def _answer(lobby: Lobby, match: Match, connection: Connection, frame: str | bytes) -> None:
    """Act on one frame; every refusal becomes an ``"error"`` message on this connection."""
    try:
        message = parse_client_message(frame)
        if isinstance(message, Act):
            if not connection.greeted:
                raise OutOfOrderError("send 'hello' before 'act'")
            if connection.seat is None:
                raise NotASeatError("a spectator's connection makes no move")
            seat = lobby.check_credential(match, connection.seat, message.credential)
            match.accept(seat, message.action, lobby.storage, sender=connection)
            # The bots answer on the loop's next turn, once this move's ack and updates are on their way.
            asyncio.get_running_loop().call_soon(lobby.moved, match)
            return
        if connection.greeted:
            raise OutOfOrderError("'hello' comes once, first")
        if message.seat is not None:
            connection.play(lobby.check_credential(match, message.seat, message.credential))
        match.subscribe(connection, message.since)
        connection.greeted = True
    except (ServerError, IllegalActionError) as error:
        connection.put(error_message(error))
    except Exception as error:  # a bug must not take the match down; the log names no credential
        _LOG.exception("match %s: unexpected %s", match.stored.match_id, type(error).__name__)
        connection.put(error_message(ServerError("the server failed on this message; nothing changed")))


def create_app(
    storage: Storage,
    *,
    dealer: Dealer = engine.deal,
    seeds: Callable[[], int] = random_seed,
    rate: float = RATE_PER_SECOND,
    burst: int = RATE_BURST,
    queued: int = MAX_QUEUED,
    hello_timeout: float = HELLO_TIMEOUT,
    create_rate: float | None = None,
    create_burst: int = CREATE_BURST,
    per_match: int = MAX_PER_MATCH,
    per_address: int = MAX_PER_ADDRESS,
    address_rate: float | None = None,
    origins: OriginPolicy | None = None,
) -> Starlette:
    """The server's ASGI application on ``storage`` (see the module's docstring for the routes). It is long
    because it documents and wires every limit a host may tune.

    :param dealer: how matches are dealt (a test gives twin deals).
    :param seeds: where seeds come from (a test may fix them).
    :param rate: the messages a connection may send per second on average...
    :param burst: ... and at once.
    :param queued: the most text, in characters, a connection may have waiting to be sent: one that reads
        more slowly is closed with :data:`SLOW_CLIENT_CLOSE` (it may reconnect and catch up with ``since``).
    :param hello_timeout: the seconds a game connection has to send its ``hello`` once open; one that does
        not is closed with :data:`HELLO_TIMEOUT_CLOSE`.
    :param create_rate: the matches one client address may create per second on average (``None``: no
        limit; ``darkempire serve`` sets one)...
    :param create_burst: ... and at once; more are refused with ``rate-limited`` (429).
    :param per_match: the game connections a match may have open at once...
    :param per_address: ... and a client address; one more is closed with :data:`CROWDED_CLOSE`.
    :param address_rate: the messages a client address may send per second over all its connections, twice
        ``rate`` by default (and twice ``burst`` at once).
    :param origins: the web pages whose lobby POSTs and game sockets are allowed (default: those of the server's
        own site and of this machine, and any request that names no origin).
    """
    lobby = Lobby(storage, dealer=dealer, seeds=seeds)
    creations = None if create_rate is None else AddressLimits(create_rate, create_burst)
    shared = AddressLimits(2 * rate if address_rate is None else address_rate, 2 * burst)
    quotas = Quotas(per_match, per_address, shared)
    lobby.seat_lost = lambda outbox: outbox.lose() if isinstance(outbox, Connection) else None

    @asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        """Keep the time limits on the event loop; with a shared storage, hear the other processes' choices,
        for as long as the app runs."""
        loop = asyncio.get_running_loop()
        lobby.scheduler = loop.call_later
        if not isinstance(storage, FanOut):
            yield
            return

        def heard(match_id: str) -> None:  # on the listener's thread: the match is the loop's to change
            loop.call_soon_threadsafe(lobby.catch_up, match_id)

        stop = storage.listen(heard)
        try:
            yield
        finally:
            stop()

    app = Starlette(
        routes=_routes(lobby, rate, burst, queued, hello_timeout, creations, quotas, origins or OriginPolicy()), lifespan=lifespan, exception_handlers={404: _not_routed, 405: _not_routed}
    )
    app.state.lobby = lobby
    return app
