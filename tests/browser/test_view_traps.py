"""Traps' browser view (static/games/traps.js) in real Chromium, on the real engine.

The bench (the frame's drawView and ctx over the engine in Python) is the one in
test_view_hoard.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Locator, Page

from ladytiger.core import State
from tests.browser.support import human_against_bots, open_table, version, wait_my_turn_or_end
from tests.browser.test_view_hoard import SIZES, ViewBench, hover_reason, sized, wait_moved
from tests.helpers import new_game, play

GAME = "traps"

# Two players, six cards each (a Red Lady and a Blue Tiger are set aside unseen); the goal is
# the Blue Lady, so a Blue Lady scores 2, a Red Lady, a Blue Tiger or the Blue/Red 1, and a
# Red Tiger or the Lady/Tiger is a trap.
HANDS = [
    ["Red Lady", "Red Lady", "Blue Lady", "Blue Tiger", "Blue/Red", "Red Tiger"],
    ["Blue Lady", "Blue Lady", "Red Tiger", "Red Tiger", "Blue Tiger", "Lady/Tiger"],
]


def arranged(*then: str, **options: Any) -> State:
    state = new_game(GAME, players=2, **options)
    for seat, hand in enumerate(HANDS):
        play(state, *(f"deal {card} to seat {seat}" for card in hand))
    return play(state, "goal Blue Lady", *then)


def hand_card(page: Page, name: str) -> Locator:
    face = page.locator(f'.card[data-card="{name}"]')
    return page.locator("#game-root .tp-hand-card", has=face).first


def seat_panel(page: Page, seat: int) -> Locator:
    return page.locator(f'#game-root .tp-seat[data-seat="{seat}"]')


def test_click_a_card_in_hand_to_start_the_stack(page: Page) -> None:
    bench = ViewBench(page, GAME, arranged(), seat=0)
    bench.others_wait = True
    assert "start your stack" in page.locator(".tp-phase").inner_text()
    assert sorted(set(bench.enabled_moves())) == [
        "start stack with Blue Lady", "start stack with Blue Tiger", "start stack with Blue/Red",
        "start stack with Red Lady", "start stack with Red Tiger"]
    # Each card in hand shows what it would score against the goal.
    assert hand_card(page, "Red Tiger").locator(".tp-score").inner_text() == "trap"
    assert hand_card(page, "Blue Lady").locator(".tp-score").inner_text() == "+2"
    assert bench.click(hand_card(page, "Red Tiger")) == "start stack with Red Tiger"
    mine = seat_panel(page, 0)
    assert mine.locator(".tp-height").inner_text() == "1"
    assert mine.locator(".tp-own-stack .card").get_attribute("data-card") == "Red Tiger"
    # The other seat's stack shows its height only.
    assert seat_panel(page, 1).locator(".tp-own-stack").count() == 0
    assert "Seat 1 starts a stack" in page.locator(".tp-phase").inner_text()


def test_build_then_bid_with_the_number_input(page: Page) -> None:
    state = arranged("start stack with Red Tiger", "start stack with Lady/Tiger")
    bench = ViewBench(page, GAME, state, seat=0)
    bench.forced = ["bid 2"]
    bench.others_wait = True
    assert bench.reason(page.locator(".tp-pass")) == (
        "no one has bid yet, so there is nothing to pass on: build or bid")
    assert bench.click(hand_card(page, "Blue Lady")) == "build Blue Lady"
    # Seat 1 bid 2: building is over, and a bid must top 2.
    assert "bid 2" in seat_panel(page, 1).locator(".tp-badges").inner_text()
    assert bench.reason(hand_card(page, "Red Lady")) == (
        "once anyone has bid, no one builds: bid higher or pass")
    amount = page.locator(".tp-bid-input")
    assert amount.input_value() == "3"
    amount.fill("2")
    assert bench.reason(page.locator(".tp-bid-button")) == (
        "a bid must be higher than the current bid of 2")
    amount.fill("5")
    assert page.locator(".tp-bid-button").inner_text() == "Bid 5"
    assert bench.click(page.locator(".tp-bid-button")) == "bid 5"
    assert "bid 5" in seat_panel(page, 0).locator(".tp-badges").inner_text()


def test_enter_in_the_bid_box_bids(page: Page) -> None:
    state = arranged("start stack with Red Tiger", "start stack with Lady/Tiger")
    bench = ViewBench(page, GAME, state, seat=0)
    bench.others_wait = True
    amount = page.locator(".tp-bid-input")
    amount.fill("7")
    amount.press("Enter")
    page.wait_for_function(f"window.benchVersion === {bench.version}")
    assert bench.played == ["bid 7"]


def test_reveal_by_clicking_a_stack_then_give_the_trap_gem_and_stop(page: Page) -> None:
    state = arranged("start stack with Red Tiger", "start stack with Lady/Tiger", "bid 3", "pass")
    bench = ViewBench(page, GAME, state, seat=0)
    bench.others_wait = True
    assert "click the top of any stack" in page.locator(".tp-phase").inner_text()
    assert bench.click(seat_panel(page, 0).locator(".tp-pile")) == "reveal seat 0"
    # Our own trap: we choose who takes the gem from the pot.
    assert "choose the opponent" in page.locator(".tp-phase").inner_text()
    revealed = seat_panel(page, 0).locator(".tp-revealed-card")
    assert revealed.locator(".card").get_attribute("data-card") == "Red Tiger"
    assert revealed.locator(".tp-score").inner_text() == "trap"
    assert bench.click(seat_panel(page, 1).locator(".tp-button")) == "trap gem to seat 1"
    assert "2" in seat_panel(page, 1).locator(".tp-gem-number").inner_text()
    # Our stack is empty now; the reason says so. Stopping pays seat 1 one of our gems.
    assert bench.reason(seat_panel(page, 0).locator(".tp-pile")) == (
        "seat 0's stack has no face-down card left")
    stop = seat_panel(page, 1).locator(".tp-button", has_text="Stop")
    assert bench.click(stop) == "stop and give a gem to seat 1"
    # The next season began: what the last one turned up, and how it ended, stays in view.
    last = page.locator(".tp-last-season")
    assert last.inner_text().startswith(
        "Season 1 (goal Blue Lady): You bid 3, matched 0; seat 0 stopped, giving a gem to "
        "seat 1.")
    assert last.locator(".card").get_attribute("data-card") == "Red Tiger"


def test_revealing_an_opponents_trap_pays_them(page: Page) -> None:
    state = arranged("start stack with Red Tiger", "start stack with Lady/Tiger", "bid 3", "pass")
    bench = ViewBench(page, GAME, state, seat=0)
    bench.others_wait = True
    assert bench.click(seat_panel(page, 1).locator(".tp-pile")) == "reveal seat 1"
    assert seat_panel(page, 1).locator(".tp-revealed .card").get_attribute("data-card") == (
        "Lady/Tiger")
    assert seat_panel(page, 1).locator(".tp-gem-number").inner_text() == "2"


def test_a_spectator_sees_no_hand_and_no_controls(page: Page) -> None:
    state = arranged("start stack with Red Tiger", "start stack with Lady/Tiger", "bid 3")
    ViewBench(page, GAME, state, seat=None)
    assert page.locator("#game-root [data-move]").count() == 0
    assert page.locator("#game-root .tp-hand").count() == 0
    assert page.locator("#game-root .tp-own-stack").count() == 0
    assert "Seat 1 bids higher or passes" in page.locator(".tp-phase").inner_text()


def test_a_whole_game_is_played_through_the_view(page: Page) -> None:
    state = new_game(GAME, players=3, max_seasons=4)
    bench = ViewBench(page, GAME, state, seat=1, seed=11)
    bench.advance()
    bench.show()
    bench.play_out_through_page()
    assert state.is_terminal()
    assert len(bench.played) >= 4
    text = page.locator(".tp-phase").inner_text()
    assert "wins" in text or "draw" in text
    bench.screenshot("traps-view-end-desktop")


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("moment", ["build-or-bid", "revealing"])
def test_screenshots(new_page: Callable[..., Page], size: str, moment: str) -> None:
    sized_page = sized(new_page, size)
    then = ["start stack with Red Tiger", "start stack with Lady/Tiger"]
    if moment == "revealing":
        then += ["build Blue/Red", "build Blue Lady", "bid 4", "pass", "reveal seat 0"]
    bench = ViewBench(sized_page, GAME, arranged(*then), seat=0)
    width = sized_page.viewport_size["width"]
    overflow = sized_page.evaluate("document.documentElement.scrollWidth")
    assert overflow <= width, f"the page is {overflow}px wide in a {width}px window"
    path = bench.screenshot(f"traps-view-{moment}-{sized_page.size_name}")  # type: ignore[attr-defined]
    assert path.stat().st_size > 10_000


def test_at_a_real_table_stack_bid_and_reveal_through_the_view(server, page: Page) -> None:
    _, link = human_against_bots(server, GAME, 3, {"max_seasons": 2}, seat=0)
    open_table(page, link)
    # Seat 0 starts the first season: a card from the hand starts the stack.
    assert wait_my_turn_or_end(page) == "you"
    before = version(page)
    page.locator("#game-root .tp-hand-card.move").first.click()
    wait_moved(page, before)
    assert wait_my_turn_or_end(page) == "you"
    # Build or bid: nobody has bid, so Pass is refused with the engine's reason.
    assert hover_reason(page, page.locator("#game-root .tp-pass")) == (
        "no one has bid yet, so there is nothing to pass on: build or bid")
    before = version(page)
    page.locator("#game-root .tp-bid-input").fill("13")
    page.locator("#game-root .tp-bid-button").click()
    wait_moved(page, before)
    assert "bid 13" in page.locator("#log").inner_text()
    # Nobody can top 13: the others pass and we reveal, clicking the top of a stack.
    assert wait_my_turn_or_end(page) == "you"
    assert "click the top of any stack" in page.locator(".tp-phase").inner_text()
    before = version(page)
    page.locator('#game-root .tp-seat[data-seat="1"] .tp-pile').click()
    wait_moved(page, before)
    assert page.locator('#game-root .tp-seat[data-seat="1"] .tp-revealed .card').count() == 1
