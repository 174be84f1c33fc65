"""The create form offers the four levels, casual first chosen, and a table made with one
seats that level (a browser test against the real server, like tests/browser)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from ladytiger.bots.levels import LEVELS

playwright = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def live() -> Iterator[tuple[str, object]]:
    import tempfile
    from pathlib import Path

    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, live_server

    with tempfile.TemporaryDirectory() as folder, live_server(Path(folder)) as base, \
            playwright.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield base, browser
        browser.close()


@pytest.mark.parametrize("game", ["doors", "labyrinth", "hoard"])
def test_the_create_form_offers_the_four_levels(live, game):
    from tests.browser.support import SIZES, http, screenshot

    base, browser = live
    context = browser.new_context(viewport={"width": 1280, "height": 800},
                                  reduced_motion="reduce")
    try:
        page = context.new_page()
        page.goto(base + "/")
        page.wait_for_function("() => document.body?.dataset.ready === '1'")
        page.select_option("#game-select", game)
        seat = "#seat-1" if game != "hoard" else "#seat-0"
        offered = page.eval_on_selector_all(f"{seat} option", "els => els.map(e => e.value)")
        assert offered == ["human", *LEVELS]
        labels = page.eval_on_selector_all(f"{seat} option", "els => els.map(e => e.title)")
        assert all(labels[1:]), "each level explains itself in its tooltip"
        if game == "hoard":
            return  # a solitaire: the one seat is the player's
        assert page.locator(seat).input_value() == "casual"
        page.select_option(seat, "expert")
        if game == "doors":
            for width, height in SIZES.values():
                page.set_viewport_size({"width": width, "height": height})
                page.locator(seat).scroll_into_view_if_needed()
                screenshot(page, "level-create-form")
            page.set_viewport_size({"width": 1280, "height": 800})
        page.locator("#create-button").click()
        page.wait_for_url(re.compile(r"/play/"))
        table = page.url.split("/play/")[1].split("#")[0]
        seats = http(base, "GET", f"/api/tables/{table}")["table"]["seats"]
        assert seats[1]["bot"] == "expert"
        page.wait_for_function("() => document.body.innerText.includes('expert bot')")
    finally:
        context.close()
