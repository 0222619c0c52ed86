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

#: Where the focus is, as the page's keys name it: its data-key, and whether it is a card to pick.
FOCUS = """(() => {
  const a = document.activeElement;
  return { key: (a && a.dataset && a.dataset.key) || "", card: !!(a && a.closest && a.closest("#hand, #table-picks")),
           inMove: !!(a && a.closest && a.closest("#own, #choices")) };
})()"""


def _keyboard_move(page: Page) -> int:
    """Make one choice with Tab and Enter only, from wherever the page left the focus: Enter on the first card
    the focus reaches (if any), then on the first choice. The number of Tab presses it took."""
    tabs, picked = 0, False
    while True:
        focus = page.evaluate(FOCUS)
        if focus["key"].startswith("choice-"):
            page.keyboard.press("Enter")
            return tabs
        if focus["card"] and not picked:
            page.keyboard.press("Enter")  # the card is picked; the page gives it the focus again
            picked = True
            continue
        page.keyboard.press("Tab")
        tabs += 1
        assert tabs < 60, "Tab never reached a choice"


@pytest.mark.spec("4.2")
def test_keyboard_play_keeps_the_focus_in_the_move_panel(server: str, browser: Browser) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    create_match(page, server, 3, "steam-noir", [None, "greedy", "greedy"])
    sit(page, 0, "Ann")
    counts: list[int] = []
    while week(page) in ("Month 1, week –", "Month 1, week 1"):  # the draft and week 1 (its status says)
        page.wait_for_selector("#choices button.choice", timeout=TIMEOUT_MS)
        if counts:  # after a choice sent by the keyboard, the focus stayed in the hand or the move panel
            assert page.evaluate(FOCUS)["inMove"], page.evaluate("document.activeElement.tagName")
        counts.append(_keyboard_move(page))  # the choice is sent at once: its panel says the page waits
    # The draft (2), the support card (1), three plays, perhaps a placement, the re-organize: a few Tabs each,
    # not a walk through the whole table (16 a move on average before the focus was kept).
    assert len(counts) >= 7
    assert max(counts[1:]) <= 12, counts
    context.close()


def _sum(expression: str) -> int:
    """The value of a sum as the strengths panel writes it: "3 (revolution card) + (8 + 3) + 8 − (6 + 3)"."""
    arithmetic = re.sub(r"\([a-z -]+\)", "", expression)  # the words: "(revolution card)", "(traitor)"
    terms = re.findall(r"([+−]?)\s*(\([\d +]+\)|\d+)", arithmetic)
    assert re.sub(r"[+−]?\s*(\([\d +]+\)|\d+)", "", arithmetic).strip() == "", expression
    return sum((-1 if sign == "−" else 1) * sum(int(n) for n in re.findall(r"\d+", term)) for sign, term in terms)


@pytest.mark.spec("5.1", "5.2", "5.4", "5.5", "5.7")
def test_the_weekly_scoring_shows_the_sums_that_made_the_strengths(server: str, browser: Browser) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    match_id = create_match(page, server, 4, "steam-noir", [None, "greedy", "greedy", "random"])
    sit(page, 0, "Ann")
    play_until([page], lambda: week(page) == "Month 1, week 2" and can_choose(page))
    assert "(month 1, week 1)" in page.inner_text("#strengths h3")
    lines = page.locator("#sums li").all_inner_texts()
    record = httpx.get(f"{server}/api/matches/{match_id}/record").json()
    scored = next(e for step in record["steps"] for e in step["events"] if e["kind"] == "strengths-revealed")
    # One line a faction in the card table's order, then the emperor; each sum adds up to the scored strength.
    shown = []
    for line in lines:
        name, _, expression = line.partition(": ")
        total = expression.rpartition(" = ")[2] if " = " in expression else expression
        if " = " in expression:
            assert _sum(expression.rpartition(" = ")[0]) == int(total), line
        shown.append(int(total))
    assert shown == [*scored["strengths"], scored["emperor_strength"]]
    assert lines[-1].startswith("Emperor: ") and "(add-on)" in lines[-1]  # 4 players: the "5 +" (rule 2.2)
    outcome = page.inner_text("#outcome")
    assert "Tokens (rule 5.4): " in outcome and re.search(r"(beat|tie|beats) ", outcome)
    context.close()


def _track_past_40(base: str) -> tuple[dict[str, Any], int, int]:
    """A score track with more than 40 points for the Workers and for the emperor; the two totals."""
    table = httpx.get(f"{base}/api/card-table").json()
    workers = [c for c in table["hand_cards"] if c.get("faction") == "WORKERS"][:9]
    emperor = table["emperor_cards"][:5]
    track = {
        "faction_cards": [{"card": c["id"], "seat": 1, "month": 1, "week": 1} for c in workers],
        "emperor_cards": [{"card": c["id"], "month": 1, "week": 1} for c in emperor],
    }
    return track, sum(c["value"] for c in workers), sum(c["value"] for c in emperor)


@pytest.mark.spec("1.6")
def test_the_score_track_shows_totals_past_40(server: str, browser: Browser) -> None:
    """The welcome's view is given a track past 40 on its way to the page: a real game gets there only late."""
    track, workers, emperor = _track_past_40(server)
    assert workers > 40 and emperor > 40

    def past_40(route: WebSocketRoute) -> None:
        server_side = route.connect_to_server()

        def heard(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "welcome":
                data["prompt"]["view"]["score_track"] = track
                message = json.dumps(data)
            route.send(message)

        server_side.on_message(heard)

    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.route_web_socket(re.compile(r".*/socket$"), past_40)
    create_match(page, server, 3, "steam-noir", [None, "greedy", "greedy"])
    sit(page, 0, "Ann")
    text = page.inner_text("#track")
    assert re.search(rf"Workers\s+{workers} \(40\+\)", text), text
    assert re.search(rf"Emperor\s+{emperor} \(40\+\)", text), text
    assert re.search(r"Students\s+0\b", text) and "0 (40+)" not in text
    assert page.locator("#track .bar40 span.lap").count() == 2
    assert page.get_attribute("#track .bar40[aria-label^='Workers']", "aria-label") == f"Workers: {workers} points"
    context.close()


@pytest.mark.spec("1.1")
def test_the_page_is_named_after_the_matchs_theme(server: str, browser: Browser) -> None:
    page = browser.new_page()
    create_match(page, server, 3, "steam-noir", [None, "greedy", "greedy"])
    assert "Steam Noir: Revolution" in page.inner_text("#match h2")  # not the theme's id
    sit(page, 0, "Ann")
    assert page.inner_text("header .home") == "Steam Noir: Revolution" == page.title()
    create_match(page, server, 3, "dark-empire", [None, "greedy", "greedy"])
    sit(page, 0, "Ann")
    assert page.inner_text("header .home") == "Dark Empire: Revolution" == page.title()
    page.context.close()


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


def test_a_seats_link_asks_for_a_name_and_enter_sits_there(server: str, browser: Browser) -> None:
    match = httpx.post(f"{server}/api/matches", json={"players": 3, "bots": [None, None, "greedy"]}).json()["match"]
    page = browser.new_page()
    page.goto(f"{server}/?match={match['match_id']}&seat=1")
    page.wait_for_selector("#invitation")
    assert "link to seat 1" in page.inner_text("#invitation")
    assert page.evaluate("document.activeElement.id") == "name"
    page.keyboard.type("Dee")
    page.keyboard.press("Enter")
    page.wait_for_selector("#choices", timeout=TIMEOUT_MS)
    assert "You are seat 1." in page.inner_text("#status")
    # Opened again without the credential (another browser), the link says the seat is taken.
    other = browser.new_page()
    other.goto(f"{server}/?match={match['match_id']}&seat=1")
    other.wait_for_selector("#invitation")
    assert other.inner_text("#invitation").startswith("Seat 1 is taken")
    page.context.close()
    other.context.close()


def test_the_rule_numbers_the_log_and_the_scoring_cite_are_rules_of_the_spec() -> None:
    headings = set(re.findall(r"^### (\d+\.\d+) ", SPEC.read_text(encoding="utf-8"), re.MULTILINE))
    cited = set(re.findall(r"\b(\d+\.\d+)\b", WORDS_JS.read_text(encoding="utf-8")))
    assert {"5.4", "5.5", "7.1", "8.4"} <= cited <= headings, cited - headings


@pytest.mark.spec("9.2")
def test_a_time_limit_set_in_the_lobby_lets_a_bot_choose_for_a_slow_seat(server: str, browser: Browser) -> None:
    """The lobby's "seconds per decision": a seat that lets the time run out has its choice made for it, and the
    page says so in its log (issue 16's time limit, set from the page)."""
    page = browser.new_context().new_page()
    page.goto(server + "/")
    page.fill("#time-limit", "1")
    page.click("#create-match")
    page.wait_for_selector("#match")
    match_id = str(page.get_attribute("#match", "data-match"))
    assert httpx.get(f"{server}/api/matches/{match_id}").json()["match"]["time_limit"] == 1.0
    sit(page, 0, "Slow")
    page.wait_for_selector("#log li[data-kind='timeout']", timeout=TIMEOUT_MS)
    assert "ran out of time" in page.inner_text("#log")
    page.context.close()
