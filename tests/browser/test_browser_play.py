"""The browser client (issue 17) in Debian's Chromium against a real ``darkempire serve``: whole games by clicks,
three seats in three browser contexts, a reload, a stale click, the layout on a phone, and the screenshots of
docs/online.md."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import skip_without_a_browser

skip_without_a_browser()

import httpx  # noqa: E402 (after the skip: a machine without them skips this module)
from browser_fixtures import browser, playwright, screenshots, server  # noqa: F401 (the fixtures)
from browser_helpers import TIMEOUT_MS, can_choose, choose, create_match, hand, logged_cards, phase, play_until, shows_card, sit, week
from playwright.sync_api import Browser, Page

SPEC = Path(__file__).parents[2] / "spec" / "darkempire" / "rules.md"
RULES_JS = Path(__file__).parents[2] / "src" / "darkempire" / "web" / "static" / "js" / "rules.js"


def _names(base: str, theme: str) -> dict[int, str]:
    table = httpx.get(f"{base}/api/card-table").json()
    return {card["id"]: card["names"][theme] for card in table["hand_cards"]}


def _errors(page: Page) -> list[str]:
    found: list[str] = []
    page.on("pageerror", lambda error: found.append(str(error)))
    page.on("console", lambda message: found.append(message.text) if message.type == "error" else None)
    return found


@pytest.mark.spec("8.1", "9.4")
def test_one_page_and_two_bots_play_a_whole_game_to_the_verdict_by_clicks(server: str, browser: Browser, screenshots: Path) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    errors = _errors(page)
    match_id = create_match(page, server, 3, "dark-empire", [None, "greedy", "random"])
    page.screenshot(path=str(screenshots / "lobby.png"), full_page=True)
    sit(page, 0, "Ann")
    made = play_until([page], lambda: page.locator("#verdict").count() > 0, limit=120)
    page.screenshot(path=str(screenshots / "verdict.png"), full_page=True)

    # The page's verdict is the server's: the same winner and totals as the public record says.
    record = httpx.get(f"{server}/api/matches/{match_id}/record").json()
    verdict = record["verdict"] if "verdict" in record else next(
        e["verdict"] for e in record["events"] if e.get("kind") == "game-over")
    text = page.inner_text("#verdict")
    winners = " and ".join("you" if seat == 0 else f"seat {seat}" for seat in verdict["winners"])
    assert f"Winner: {winners}" in text
    assert {"EMPEROR_VICTORY": "rule 8.2", "REVOLUTION": "rule 8.3", "LEADER_TOO_POWERFUL": "rule 8.4"}[verdict["reason"]] in text
    assert f"The emperor's total: {verdict['emperor_total']}." in text
    totals = re.search(r"Final totals: (.*?) \(", text)
    assert totals is not None and [int(n) for n in re.findall(r" (-?\d+)", totals.group(1))] == verdict["totals"]
    # Dark Empire's names, not Steam Noir's: the Beggars, never the Workers.
    assert "Beggars" in page.inner_text("#track") and "Workers" not in page.inner_text("body")
    # The game took the human seat's choices: 2 draft choices, 3 supports, 3 plays a week, re-organize weeks.
    assert made >= 2 + 3 + 12 * 3
    assert page.locator("#log li[data-kind='month-scored']").count() == 3
    assert not errors
    context.close()


def _three_seats(server: str, browser: Browser) -> tuple[list[Any], list[Page], str]:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 720}) for _ in range(3)]
    pages = [context.new_page() for context in contexts]
    match_id = create_match(pages[0], server, 3, "steam-noir", [None, None, None])
    links = [str(pages[0].input_value(f"input[data-link='seat-{seat}']")) for seat in range(3)]
    sit(pages[0], 0, "Ann")
    for seat in (1, 2):
        pages[seat].goto(links[seat])
        sit(pages[seat], seat, ["", "Bea", "Cy"][seat])
    return contexts, pages, match_id


@pytest.mark.spec("9.4")
def test_three_pages_play_a_week_and_each_shows_only_its_own_hand(server: str, browser: Browser, screenshots: Path) -> None:
    contexts, pages, _ = _three_seats(server, browser)
    names = _names(server, "STEAM_NOIR")
    # The draft, the support cards and week 1's first two steps; one seat chooses by the keyboard alone.
    choose(pages[2], keyboard=True)
    pages[2].wait_for_selector("#waiting", timeout=TIMEOUT_MS)  # Tab and Enter made the choice: it waits for the others
    assert not can_choose(pages[2]) and can_choose(pages[0])

    def at_step_3(page: Page) -> bool:
        return phase(page) == "PLAY_3"

    def in_week_2(page: Page) -> bool:
        return week(page) == "Month 1, week 2" and phase(page) == "PLAY_1"

    play_until(pages, lambda: all(at_step_3(p) for p in pages), there=at_step_3)
    pages[0].screenshot(path=str(screenshots / "table.png"), full_page=True)
    play_until(pages, lambda: all(in_week_2(p) for p in pages), there=in_week_2)

    hands = [hand(page) for page in pages]
    assert all(len(cards) == 7 for cards in hands)
    assert not (hands[0] & hands[1]) and not (hands[1] & hands[2]) and not (hands[0] & hands[2])
    for seat, page in enumerate(pages):
        html = page.content()
        # The check finds a hand where it is shown: its own page names every one of its cards.
        assert all(shows_card(html, card, names[card]) for card in hands[seat])
        # What this seat may know of another's hand: the cards it passed to it, and cards taken back from the
        # table in view of all.
        known = logged_cards(page, ("cards-passed", "reorganized", "plays-revealed"))
        for other in range(3):
            if other == seat:
                continue
            hidden = hands[other] - known
            assert hidden, "a week leaves every seat some cards nobody else has seen"
            shown = [names[card] for card in hidden if shows_card(html, card, names[card])]
            assert not shown, f"seat {seat}'s page shows seat {other}'s hidden cards {shown}"
    for context in contexts:
        context.close()


@pytest.mark.spec("9.3")
def test_a_page_reloaded_mid_game_comes_back_to_the_same_view(server: str, browser: Browser) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    match_id = create_match(page, server, 4, "steam-noir", [None, "greedy", "greedy", "random"])
    sit(page, 0, "Ann")
    # A play step past the first whose prompt the page shows unanswered: play_until may have clicked a choice
    # of play step 2 just as it arrived, and the game would then move on while the page is reloaded.
    play_until([page], lambda: phase(page) in ("PLAY_2", "PLAY_3", "PLAY_4") and can_choose(page))
    shown = phase(page)
    before = {part: page.inner_text(part) for part in ("#status", "#revealed", "#seats", "#own", "#choices", "#track", "#log")}
    assert "add-on" in before["#revealed"]  # four players: the "5 +" add-on card (rule 2.2)
    page.reload()
    page.wait_for_selector("#choices", timeout=TIMEOUT_MS)
    after = {part: page.inner_text(part) for part in before}
    assert after == before
    # A spectator on the watch link sees the same table and none of the seat's hand.
    watcher = browser.new_context().new_page()
    watcher.goto(f"{server}/?match={match_id}&watch")
    watcher.wait_for_selector("#seats", timeout=TIMEOUT_MS)
    assert "You are watching." in watcher.inner_text("#status")
    assert "seat 0 (Ann)" in watcher.inner_text("#seats") and watcher.inner_text("#revealed") == before["#revealed"]
    assert watcher.locator("#hand").count() == 0
    assert watcher.inner_text("#choices h3") == "The table's move"  # a spectator has no move of its own
    names = _names(server, "STEAM_NOIR")
    html = watcher.content()
    assert not [names[card] for card in hand(page) if shows_card(html, card, names[card])]
    watcher.context.close()
    # And the page plays on from there.
    choose(page)
    page.wait_for_function(f"document.querySelector('.table-grid').dataset.phase !== '{shown}'", timeout=TIMEOUT_MS)
    context.close()


@pytest.mark.spec("9.2")
def test_a_stale_click_gets_a_clear_message_and_the_page_catches_up(server: str, browser: Browser) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    first = context.new_page()
    match_id = create_match(first, server, 3, "steam-noir", [None, "greedy", "greedy"])
    sit(first, 0, "Ann")
    # A second tab of the same browser plays the same seat; its first connection hears nothing after the
    # welcome, as a page whose network stalled, so its choices go stale.
    frozen = {"done": False}

    def stall(route: Any) -> None:
        server_side = route.connect_to_server()
        stalled = not frozen["done"]
        frozen["done"] = True
        seen = {"welcome": False}

        def heard(message: str | bytes) -> None:
            if stalled and seen["welcome"] and '"type":"error"' not in str(message):
                return
            seen["welcome"] = True
            route.send(message)

        server_side.on_message(heard)

    second = context.new_page()
    second.route_web_socket(re.compile(r".*/socket$"), stall)
    second.goto(f"{server}/?match={match_id}&seat=0")
    second.wait_for_selector("#choices button.choice", timeout=TIMEOUT_MS)
    choose(first)  # the draft pass: the bots have passed already, so the step resolves
    first.wait_for_function("document.querySelector('.table-grid').dataset.phase === 'DRAFT_DISCARD'", timeout=TIMEOUT_MS)
    assert phase(second) == "DRAFT_PASS"
    second.locator("#choices button.choice").first.click()
    second.wait_for_selector("#notice:not([hidden])", timeout=TIMEOUT_MS)
    message = second.inner_text("#notice")
    assert message.startswith("Your choice came too late: the game had already moved on") and "choose again" in message
    second.wait_for_function("document.querySelector('.table-grid').dataset.phase === 'DRAFT_DISCARD'", timeout=TIMEOUT_MS)
    assert hand(second) == hand(first)
    context.close()


def test_the_page_fits_a_phone(server: str, browser: Browser) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    create_match(page, server, 5, "steam-noir", [None, "greedy", "greedy", "greedy", "greedy"])
    sit(page, 0, "Ann")
    play_until([page], lambda: phase(page) == "PLAY_2")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert can_choose(page)
    # The bots' choices keep coming and the page draws itself again for each: every layout question is asked in
    # one evaluation, within one frame, so that no element is caught between two drawings.
    # One column with the player's own panels first: the hand and the move come before the seats' table...
    tops = page.evaluate(
        "['#revealed', '#own', '#choices', '#seats'].map((part) => {"
        " const e = document.querySelector(part); return e ? e.getBoundingClientRect().top : null; })"
    )
    assert None not in tops and tops == sorted(tops), tops
    # ... whose rows are blocks, each cell named: nothing of the last seat's row is cut off on the right.
    for label in ("Cards", "Tokens month / banked", "Support used"):  # never empty (a side's cell may be: hidden)
        right = page.evaluate(
            "(label) => { const e = document.querySelector(`#seats tr[data-seat='4'] td[data-label='${label}']`);"
            " return e ? e.getBoundingClientRect().right : null; }",
            label,
        )
        assert right is not None and right <= 360, label
    # The rules help's Close button stays in sight when the help opens far down its list.
    page.click("#phase button.qhelp")
    close, dialog = page.locator("#help .help-head button").bounding_box(), page.locator("#help").bounding_box()
    assert close is not None and dialog is not None and close["y"] >= dialog["y"]
    page.click("#help .help-head button")
    assert not page.locator("#help").is_visible()
    context.close()


def test_rules_help_opens_at_the_phase_and_cites_rules_of_the_spec(server: str, browser: Browser) -> None:
    headings = set(re.findall(r"^### (\d+\.\d+) ", SPEC.read_text(encoding="utf-8"), re.MULTILINE))
    cited = set(re.findall(r'"(\d+\.\d+)"', RULES_JS.read_text(encoding="utf-8")))
    assert cited and cited <= headings, cited - headings
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    create_match(page, server, 3, "steam-noir", [None, "greedy", "greedy"])
    sit(page, 0, "Ann")
    page.click("#phase button.qhelp")
    assert page.locator("#help").is_visible()
    focused = page.evaluate("document.activeElement.id")
    assert focused == "help-phase-DRAFT_PASS"
    assert "2.5" in page.inner_text("#help-phase-DRAFT_PASS + dd")
    page.keyboard.press("Escape")
    assert not page.locator("#help").is_visible()
    # The monthly scoring's help is next to the tokens it banks (rules 7.1 to 7.3).
    page.click("#seats th button.qhelp[data-key='help-scoring-month']")
    assert page.evaluate("document.activeElement.id") == "help-scoring-month"
    assert "7.2" in page.inner_text("#help-scoring-month + dd")
    page.keyboard.press("Escape")
    context.close()
