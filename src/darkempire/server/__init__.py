"""Play online: a game server that keeps every secret and loses no move (``pip install -e ".[server]"``).

The server alone holds each match's state; each connection is sent only what its seat may see. The parts,
one module each:

* :mod:`~darkempire.server.asgi`: the ASGI application (Starlette): the lobby's HTTP routes and the game's
  WebSocket; ``darkempire serve`` runs it on uvicorn (:mod:`darkempire.cli.serve`).
* :mod:`~darkempire.server.lobby`: create, list, join and leave matches.
* :mod:`~darkempire.server.match`: one match's authoritative state, its bots, and what each connection
  is sent.
* :mod:`~darkempire.server.protocol`: the game's messages (``darkempire-server/1``), with their JSON Schemas
  (:mod:`~darkempire.server.protocol_schema`).
* :mod:`~darkempire.server.storage`: the storage interface and its SQLite implementation; every choice is
  committed before it is acknowledged, and a match is rebuilt by replaying its choices.
* :mod:`~darkempire.server.credentials`: seat credentials, stored hashed, compared in constant time.
* :mod:`~darkempire.server.refusals`: the typed errors a client is sent.

Only :mod:`~darkempire.server.asgi` needs the ``server`` extra; the rest is the standard library and the
engine. See the hosting page of the documentation.
"""

__all__: list[str] = []
