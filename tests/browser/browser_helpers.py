"""What the browser tests do on a page: read the table from its DOM and make choices by clicking, as a player."""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Page

TIMEOUT_MS = 20_000
#: The browser the tests drive: Debian's package.
CHROMIUM = os.environ.get("DARKEMPIRE_CHROMIUM", "/usr/bin/chromium")


def skip_without_a_browser() -> None:
    """Skip the calling test module without Playwright or Chromium, unless under CI (``.ci/run`` installs both,
    so there a missing one fails the tests)."""
    if os.environ.get("CI"):
        return
    pytest.importorskip("playwright.sync_api")
    pytest.importorskip("httpx")
    if shutil.which(CHROMIUM) is None:
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)


def create_match(page: Page, base: str, players: int, theme: str, bots: list[str | None]) -> str:
    """Create a match through the lobby form; its id."""
    page.goto(base + "/")
    page.select_option("#players", str(players))
    page.select_option("#theme", theme)
    for seat, bot in enumerate(bots):
        page.select_option(f"select[data-seat='{seat}']", bot or "")
    page.click("#create-match")
    page.wait_for_selector("#match")
    return str(page.get_attribute("#match", "data-match"))


def sit(page: Page, seat: int, name: str) -> None:
    """On a match's panel, sit at ``seat`` under ``name``; wait for the table."""
    page.fill("#name", name)
    page.click(f"button.sit[data-seat='{seat}']")
    page.wait_for_selector("#choices", timeout=TIMEOUT_MS)


def phase(page: Page) -> str:
    return str(page.get_attribute(".table-grid", "data-phase"))


def week(page: Page) -> str:
    return page.inner_text("#status h2")


def can_choose(page: Page) -> bool:
    return page.locator("#choices button.choice").count() > 0


def choose(page: Page, *, keyboard: bool = False) -> None:
    """Make one choice as a player would: pick the first card that may be picked, if any, then the first
    choice offered for it (a side, a target, or the action itself)."""
    card = page.locator("#hand button.card:not([disabled]), #table-picks button.card")
    if card.count():
        if keyboard:
            card.first.focus()
            page.keyboard.press("Enter")
        else:
            card.first.click()
    choice = page.locator("#choices button.choice").first
    if keyboard:
        choice.focus()
        page.keyboard.press("Enter")
    else:
        choice.click()


def hand(page: Page) -> set[int]:
    return {int(card) for card in page.locator("#hand button.card").evaluate_all("cs => cs.map(c => c.dataset.card)")}


def logged_cards(page: Page, kinds: tuple[str, ...]) -> set[int]:
    """The cards that the page's log lines of these event kinds name."""
    found: set[int] = set()
    for kind in kinds:
        for cards in page.locator(f"#log li[data-kind='{kind}']").evaluate_all("ls => ls.map(l => l.dataset.cards)"):
            found |= {int(card) for card in cards.split()}
    return found


def shows_card(html: str, card: int, name: str) -> bool:
    """Whether a page's HTML names the card, by its id or its name (``#1`` is not ``#12``)."""
    return f'data-card="{card}"' in html or re.search(re.escape(name) + r"(?!\d)", html) is not None


def play_until(
    pages: list[Page], done: Callable[[], bool], limit: float = 60.0, *, there: Callable[[Page], bool] | None = None
) -> int:
    """Click choices on every page until ``done()`` holds; the number of choices made.

    ``there(page)``: the page has got where the test wants it, so it makes no more choices. Without it, a
    page whose update arrives while the others are clicked would be clicked past the goal, and a goal that
    every page must reach at once might never hold.
    """
    made = 0
    deadline = time.monotonic() + limit
    while not done():
        assert time.monotonic() < deadline, "the game did not get there in time"
        moved = False
        for page in pages:
            if can_choose(page) and not (there is not None and there(page)):
                choose(page)
                made += 1
                moved = True
        if not moved:
            pages[0].wait_for_timeout(30)
    return made
