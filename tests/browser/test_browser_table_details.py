"""The browser client's details that whole games by clicks do not reach (issue 17, review): keyboard play that keeps
its place, the weekly scoring's sums, the score track past 40, the theme's name, a refused connection that stops,
and the rule numbers the log cites."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import skip_without_a_browser

skip_without_a_browser()

import httpx  # noqa: E402 (after the skip: a machine without them skips this module)
from browser_fixtures import browser, playwright, server  # noqa: F401 (the fixtures)
from browser_helpers import TIMEOUT_MS, can_choose, create_match, phase, play_until, sit, week
from playwright.sync_api import Browser, Page, WebSocketRoute

SPEC = Path(__file__).parents[2] / "spec" / "darkempire" / "rules.md"
WORDS_JS = Path(__file__).parents[2] / "src" / "darkempire" / "web" / "static" / "js" / "words.js"

def test_a_refused_connection_stops_with_a_clear_message_instead_of_reconnecting(server: str, browser: Browser) -> None:
    """A seat's link with a credential the server does not take (the seat was given up, the server's matches
    were reset) or a watch link to no match: one connection, a message saying what to do, no retry loop."""
    match = httpx.post(f"{server}/api/matches", json={"players": 3, "bots": [None, "greedy", "greedy"]}).json()["match"]
    page = browser.new_page()
    sockets: list[Any] = []
    page.on("websocket", lambda socket: sockets.append(socket))
    page.goto(f"{server}/")
    page.evaluate(f"localStorage.setItem('darkempire:{match['match_id']}:0', 'not-a-credential')")
    page.goto(f"{server}/?match={match['match_id']}&seat=0")
    page.wait_for_selector("#notice:not([hidden])", timeout=TIMEOUT_MS)
    page.wait_for_timeout(1500)  # long enough for a retry after a close (1 s), and for hundreds of tight ones
    assert len(sockets) == 1
    assert page.inner_text("#notice").startswith("This browser can no longer play seat 0: ")
    assert "refused: " not in page.inner_text("#notice")  # no choice was made: nothing to "choose again"
    # The credential is forgotten, so the seat's link leads to the match's seats to sit again.
    assert page.evaluate(f"localStorage.getItem('darkempire:{match['match_id']}:0')") is None
    page.click("#stopped a >> nth=0")
    page.wait_for_selector("button.sit[data-seat='0']", timeout=TIMEOUT_MS)

    sockets.clear()
    page.goto(f"{server}/?match=no-such-match&watch")
    page.wait_for_selector("#stopped", timeout=TIMEOUT_MS)
    page.wait_for_timeout(1500)
    assert len(sockets) == 1
    assert page.inner_text("#notice") == "This match does not exist."
    page.context.close()
