"""Hints in the browser: the Hint button on your turn, its panel (the move, the reason, the
search's note) and "Play it", against the real server; the create form's "Allow hints"."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.support import (
    SIZES,
    create_table,
    http,
    open_table,
    screenshot,
    screenshots_at_both_sizes,
    version,
    wait_my_turn_or_end,
)


def table_against_a_bot(server: str, **extra: Any) -> tuple[str, str, str]:
    made = create_table(server, "doors", {"gems_to_win": 10},
                        [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}], **extra)
    return made["table"]["id"], made["tokens"]["0"], made["links"]["invites"]["0"]


def wired(page: Page, table: str, token: str, link: str) -> None:
    """The table page at the seat's turn (table.js puts the Hint button in the moves panel)."""
    open_table(page, link)
    assert wait_my_turn_or_end(page) == "you"


def test_ask_for_a_hint_and_play_it(server, page):
    table, token, link = table_against_a_bot(server)
    wired(page, table, token, link)
    button = page.locator("#hint-button")
    expect(button).to_be_visible()
    expect(button).to_have_text("Hint")
    legal = {move["text"] for move in http(server, "GET", f"/api/tables/{table}/view",
                                           token=token)["legal_actions"]}
    screenshots_at_both_sizes(page, "hint-button")
    button.click()
    panel = page.locator("#hint-panel")
    expect(panel).to_have_attribute("data-state", "hint", timeout=30_000)
    move = panel.locator(".hint-move").inner_text()
    suggested = next(text for text in legal if text.lower() == move.lower())
    reason = panel.locator(".hint-reason").inner_text()
    assert reason.startswith("Taking the ") and len(reason) > 30
    expect(panel.locator(".hint-search")).to_contain_text(re.compile(r"after [\d,]+ simulations"))
    # The suggested move glows on the board, and only that one.
    marked = page.eval_on_selector_all("[data-move].lt-hinted",
                                       "els => els.map(e => e.dataset.move)")
    assert marked and {text.lower() for text in marked} == {suggested.lower()}
    expect(button).to_have_attribute("aria-expanded", "true")
    screenshots_at_both_sizes(page, "hint-panel")
    before = version(page)
    panel.get_by_role("button", name="Play it").click()
    page.wait_for_function("(v) => Number(document.body?.dataset.version) > v", arg=before)
    expect(page.locator("#log")).to_contain_text(f"You take the {suggested.split(' ', 1)[1]}")
    # Off turn the button goes; on the next turn it is back, with no hint left open.
    assert wait_my_turn_or_end(page) == "you"
    expect(button).to_be_visible()
    expect(panel).to_be_hidden()
    assert page.locator("[data-move].lt-hinted").count() == 0


def test_asking_twice_shows_the_same_hint_and_the_panel_closes(server, page):
    table, token, link = table_against_a_bot(server)
    wired(page, table, token, link)
    page.locator("#hint-button").click()
    panel = page.locator("#hint-panel")
    expect(panel).to_have_attribute("data-state", "hint", timeout=30_000)
    first = panel.inner_text()
    page.get_by_role("button", name="Close the hint").click()
    expect(panel).to_be_hidden()
    assert page.locator("[data-move].lt-hinted").count() == 0
    page.locator("#hint-button").click()
    expect(panel).to_have_attribute("data-state", "hint")
    assert panel.inner_text() == first


def test_a_table_of_people_shows_no_hint_button(server, page):
    made = create_table(server, "doors", {}, [{"kind": "human"}, {"kind": "human"}])
    table, token = made["table"]["id"], made["tokens"]["0"]
    other = page.context.browser.new_context()
    try:
        # The other seat joins, so that the game starts.
        friend = other.new_page()
        friend.goto(made["links"]["invites"]["1"])
        wired(page, table, token, made["links"]["invites"]["0"])
        expect(page.locator("#hint-button")).to_be_hidden()
    finally:
        other.close()


def test_the_create_form_offers_hints_at_a_table_of_people(server, page):
    page.goto(server + "/")
    page.wait_for_function("() => document.body?.dataset.ready === '1'")
    page.select_option("#game-select", "doors")
    field = page.locator("#hints-field")
    # Against a bot (the form's first choice) hints come with the table: no question.
    expect(field).to_be_hidden()
    page.select_option("#seat-1", "human")
    expect(field).to_be_visible()
    expect(page.locator("#table-hints")).not_to_be_checked()
    for width, height in SIZES.values():
        page.set_viewport_size({"width": width, "height": height})
        field.scroll_into_view_if_needed()
        screenshot(page, "hint-create-form")
    page.locator("#table-hints").check()
    page.locator("#create-button").click()
    page.wait_for_url(re.compile(r"/play/"))
    table = page.url.split("/play/")[1].split("#")[0]
    assert http(server, "GET", f"/api/tables/{table}")["table"]["hints"] is True
