"""Fixtures of the browser tests: a real ``darkempire serve`` process on a free loopback port, and Debian's
Chromium driven by Playwright (never a browser that Playwright downloads: see TOOLCHAIN's "Browser tests").

Without Chromium or Playwright the tests skip (the test modules say so), except under CI (``CI`` set), where
``.ci/run`` installs both and a missing one must fail. This file imports neither, so that a machine without them
still collects the rest of the suite. The test modules import these fixtures (a second ``conftest.py`` would be
a second module named ``conftest`` to mypy).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from browser_helpers import CHROMIUM

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Playwright

TIMEOUT = 20.0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``darkempire serve`` as a user runs it, on a fresh SQLite file; its base URL."""
    import httpx

    port = _free_port()
    db = tmp_path_factory.mktemp("server") / "matches.sqlite3"
    # A high rate: the tests click faster than people do.
    command = [sys.executable, "-m", "darkempire", "serve", "--port", str(port), "--db", str(db), "--rate", "1000"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + TIMEOUT
    try:
        while True:
            try:
                if httpx.get(f"{base}/api/matches", timeout=1.0).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"darkempire serve did not start: {process.stdout.read() if process.stdout else ''}")
            time.sleep(0.05)
        yield base
    finally:
        process.terminate()
        process.wait(TIMEOUT)


# Module-scoped, not session-scoped: Playwright's sync API runs an event loop in this thread until it stops, and
# the later modules' asyncio.run() would refuse to start under it.
@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the tests save their screenshots: ``DARKEMPIRE_SCREENSHOTS`` (the docs' are made with
    ``DARKEMPIRE_SCREENSHOTS=docs/_static/online``), or a temporary folder."""
    chosen = os.environ.get("DARKEMPIRE_SCREENSHOTS")
    folder = Path(chosen) if chosen else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder
