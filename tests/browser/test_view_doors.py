"""The Doors view (static/games/doors.js) at a real table: direct controls play the moves."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.support import create_table, open_table, version, wait_my_turn_or_end


def seat_against_bot(server: str, page: Page, seat: int, gems: int = 3) -> None:
    seats = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    seats[seat] = {"kind": "human"}
    made = create_table(server, "doors", {"gems_to_win": gems}, seats)
    open_table(page, made["links"]["invites"][str(seat)])
    assert wait_my_turn_or_end(page) == "you"


def click_and_wait(page: Page, locator) -> None:
    before = version(page)
    locator.click()
    page.wait_for_function(
        "(v) => document.body.dataset.version !== String(v)"
        " && document.body.dataset.pending !== '1'", arg=before)


def test_the_collector_takes_a_display_card_by_clicking_it(server, new_page):
    # The Guesser is a person who does nothing, so the position holds still after the take.
    made = create_table(server, "doors", {"gems_to_win": 3}, [{"kind": "human"}] * 2)
    page, guesser = new_page(), new_page()
    guesser.goto(made["links"]["invites"]["1"])
    open_table(page, made["links"]["invites"]["0"])
    assert wait_my_turn_or_end(page) == "you"
    root = page.locator("#game-root")
    expect(root.locator(".dr-status")).to_have_text("Take a card from the display.")
    card = root.locator(".dr-display-cards .card.move").first
    name = card.get_attribute("data-card")
    assert card.get_attribute("data-move") == f"take {name}"
    assert card.get_attribute("role") == "button"
    click_and_wait(page, card)
    taken = root.locator(".dr-collected .card")
    expect(taken).to_have_count(1)
    assert taken.first.get_attribute("data-card") == name
    expect(page.locator("#log")).to_contain_text(f"You take the {name}.")
    # My own Door card is face up and named; the Guesser's is face down.
    assert root.locator('.dr-door[data-seat="0"]').get_attribute("data-card")
    assert root.locator('.dr-door[data-seat="1"]').get_attribute("data-card") is None
    # The Collector has no declarations to make.
    assert root.locator(".dr-declare").count() == 0


def test_the_guesser_discards_then_ends_the_turn(server, page):
    seat_against_bot(server, page, 1)
    root = page.locator("#game-root")
    end_turn = root.locator('[data-move="end turn"]')
    expect(end_turn).to_have_attribute("aria-disabled", "true")
    card = root.locator(".dr-display-cards .card.move").first
    name = card.get_attribute("data-card")
    assert card.get_attribute("data-move") == f"discard {name}"
    click_and_wait(page, card)
    assert root.locator(".dr-discarded .card").first.get_attribute("data-card") == name
    expect(root.locator(".dr-discarded .card.dr-last")).to_have_count(1)
    # Having discarded, the Guesser may end the turn; the display takes no more discards.
    assert end_turn.get_attribute("aria-disabled") is None
    expect(root.locator(".dr-display-cards .card.move")).to_have_count(0)
    click_and_wait(page, end_turn)
    expect(page.locator("#log")).to_contain_text("You end your turn.")


def test_a_guess_ends_the_contest_and_the_result_is_shown(server, page):
    seat_against_bot(server, page, 1, gems=20)
    root = page.locator("#game-root")
    labels = root.locator(".dr-declare .dr-guess").all_inner_texts()
    assert [text.strip() for text in labels[:4]] == ["Red", "Blue", "Lady", "Tiger"]
    assert root.locator(".dr-identities [data-move]").evaluate_all(
        "(buttons) => buttons.map((b) => b.dataset.move)") == [
        "guess Red Lady", "guess Red Tiger", "guess Blue Lady", "guess Blue Tiger"]
    click_and_wait(page, root.locator('[data-move="guess Red"]'))
    result = root.locator(".dr-result")
    said = re.compile(r"Contest 1: the Guesser's guess Red is (right|wrong)")
    expect(result).to_contain_text(said)
    expect(root.locator(".dr-top .dr-chip").first).to_have_text("Contest 2")
