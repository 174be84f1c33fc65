"""Fixtures of the browser tests: the real server in a subprocess and Debian's Chromium.

The server runs on 127.0.0.1 at a free port with a temporary SQLite file and bots that do
not pause; Chromium is /usr/bin/chromium driven by Playwright (never `playwright install`).
Both live for the whole session (per xdist worker). Each test gets fresh browser contexts,
so cookies and storage never leak from one test to the next.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
SERVE = Path(__file__).with_name("serve.py")
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def live_server(folder: Path, *extra: str) -> Iterator[str]:
    """`serve.py` on a free port of 127.0.0.1 with a database in `folder` (and `extra`
    arguments); yields its base URL and stops it afterwards."""
    port = free_port()
    db = folder / "tables.sqlite3"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src") + os.pathsep + os.environ.get(
        "PYTHONPATH", "")}
    with open(db.with_suffix(".log"), "w") as log:
        process = subprocess.Popen(
            [sys.executable, str(SERVE), "--db", str(db), "--port", str(port), *extra],
            stdout=log, stderr=subprocess.STDOUT, env=env, cwd=ROOT,
        )
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(base + "/api", timeout=1):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    process.kill()
                    raise RuntimeError("the server did not start:\n"
                                       + db.with_suffix(".log").read_text()) from None
                time.sleep(0.1)
        try:
            yield base
        finally:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()


@pytest.fixture(scope="session")
def server(tmp_path_factory) -> Iterator[str]:
    """The base URL of a live server with the browser pages mounted."""
    with live_server(tmp_path_factory.mktemp("browser")) as base:
        yield base


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser: Browser) -> Iterator[Callable[..., Page]]:
    """new_page(width=1280, height=800): a page in a context of its own. Uncaught script
    errors on any of them fail the test."""
    contexts: list[BrowserContext] = []
    errors: list[str] = []

    def make(width: int = 1280, height: int = 800) -> Page:
        # Reduced motion: no transitions, so a control is steady the moment it is drawn.
        context = browser.new_context(viewport={"width": width, "height": height},
                                      reduced_motion="reduce")
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, "script errors in the page:\n" + "\n".join(errors)


@pytest.fixture
def page(new_page: Callable[..., Page]) -> Page:
    return new_page()
