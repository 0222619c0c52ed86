"""The server serves the browser client from the package: its page at the root, every module it imports,
nothing from elsewhere, and the card table it names cards with."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from server_helpers import Lobby, serving

from darkempire.serialization import to_json
from darkempire.server.asgi import create_app
from darkempire.server.storage import SQLiteStorage
from darkempire.web import static_directory
from darkempire.wire.card_table import card_table

IMPORT = re.compile(r"""^import\b[^;]*?from\s+["']([^"']+)["']""", re.M)
REFERENCE = re.compile(r"""\b(?:src|href)=["']([^"']+)["']""")


@pytest.fixture(scope="module")
def lobby() -> Iterator[Lobby]:
    with serving(create_app(SQLiteStorage(":memory:"))) as url:
        client = Lobby(url)
        yield client
        client.close()


def test_the_root_serves_the_page_and_every_file_it_loads(lobby: Lobby) -> None:
    page = lobby.http.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    references = [ref for ref in REFERENCE.findall(page.text) if not ref.startswith(("data:", "./"))]
    assert "js/main.js" in references
    seen: set[str] = set()
    waiting = list(references)
    while waiting:  # every module the page imports, followed import by import
        path = waiting.pop()
        if path in seen:
            continue
        seen.add(path)
        answer = lobby.http.get("/" + path)
        assert answer.status_code == 200, path
        if path.endswith(".js"):
            assert "javascript" in answer.headers["content-type"], path
            folder = path.rpartition("/")[0]
            waiting += [f"{folder}/{target.removeprefix('./')}" for target in IMPORT.findall(answer.text)]
    # All of the package's modules are reached from the page: none is left over, none missing.
    shipped = {str(p.relative_to(static_directory())) for p in static_directory().rglob("*.js")}
    assert {p for p in seen if p.endswith(".js")} == shipped


def test_the_page_fetches_nothing_from_another_site() -> None:
    for path in static_directory().rglob("*"):
        if path.suffix in (".html", ".js", ".css"):
            text = path.read_text(encoding="utf-8")
            assert not re.search(r"""["'(]\s*(?:https?:)?//""", text), f"{path.name} names another site"


def test_the_card_table_route_is_the_wire_formats_card_table(lobby: Lobby) -> None:
    answer = lobby.http.get("/api/card-table")
    assert answer.status_code == 200
    assert answer.json() == json.loads(to_json(card_table()))


def test_the_api_still_answers_beside_the_page(lobby: Lobby) -> None:
    assert lobby.http.get("/api/matches").json() == {"matches": []}
    assert lobby.http.get("/api/matches/nope").status_code == 404
    assert lobby.http.get("/no-such-file.js").status_code == 404
