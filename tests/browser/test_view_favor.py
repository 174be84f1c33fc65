"""Favor's browser view (static/games/favor.js) in Chromium, driven by the engine.

Most tests show arranged days through a stand-in table page: the view module drawn with the
frame's own context and binder (static/js/frame.js), with the engine in this process in place
of the server. A control is enabled when its text names a legal move of the engine state;
otherwise hovering it shows the engine's reason. A click records the move, which the test then
plays on the engine, so each check is of the view naming the right moves. Tighee's and Shady
Lady's view tests use the same page. The last tests use the real server and table page.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page

from ladytiger.core import State
from ladytiger.core.playout import random_step
from tests.browser.support import (
    engine_view,
    engine_why,
    human_against_bots,
    open_table,
    screenshots_at_both_sizes,
    serve_bench_page,
    version,
    wait_my_turn_or_end,
)
from tests.helpers import new_game, play

GAME = "favor"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
ORIGIN = "http://view.test"
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}

# The stand-in table page: the game's view module drawn with the frame's own context and
# binder (static/js/frame.js) and stylesheets; only the server is replaced, by the engine in
# this process: the legal moves come from the engine state, `why` from its illegal_reason.
PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/css/site.css">
<link rel="stylesheet" href="/static/css/table.css">
<link rel="stylesheet" href="/static/games/GAME.css">
<style>body { padding: 12px; }</style>
</head><body><main><div id="game-root" class="game-view game-GAME"></div></main>
<script type="module">
import { render } from "/static/games/GAME.js";
import { makeBinder, makeContext } from "/static/js/frame.js";
import { normalise } from "/static/js/dom.js";
window.__moves = [];
window.__show = (view, lastMove) => {
  const root = document.getElementById("game-root");
  root.replaceChildren();
  root.className = "game-view game-GAME";
  const moves = new Map(view.legal_actions.map((a) => [normalise(a.text), a]));
  const play = (action) => window.__moves.push(action.text);
  const explain = async (text, element) => {
    const reason = await window.ltWhy(text);
    element.dataset.reason = reason;
    element.title = reason;
  };
  render(root, view, makeContext({ seat: view.seat, bind: makeBinder({ moves, play, explain }),
                                   lastMove }));
  root.classList.add("game-root");  // the frame's felt under the view
};
window.__ready = true;
</script></body></html>
"""


class EngineTable:
    """One seat's page (None: a spectator's) over a real engine state, in place of the server."""

    def __init__(self, page: Page, state: State, seat: int | None) -> None:
        self.page = page
        self.state = state
        self.seat = seat
        self.game = state.game.info.name
        page.expose_function("ltWhy", self.why)
        page.route(f"{ORIGIN}/**", self._serve)
        page.goto(f"{ORIGIN}/")
        page.wait_for_function("window.__ready === true")
        self.show()

    def _serve(self, route: Any) -> None:
        serve_bench_page(route, ORIGIN, PAGE.replace("GAME", self.game))

    def view(self) -> dict[str, Any]:
        return engine_view(self.state, self.seat, len(self.state.history()))

    def show(self) -> None:
        view = self.view()
        log = view["observation"]["log"]
        last = log[-1] if log else None
        self.page.evaluate("([v, last]) => window.__show(v, last)", [view, last])

    def why(self, text: str) -> str:
        return engine_why(self.state, self.seat, text)

    def control(self, text: str) -> Locator:
        return self.page.locator(f'#game-root [data-move="{text}"]')

    def enabled_moves(self) -> list[str]:
        return enabled_moves(self.page)

    def click(self, text: str) -> None:
        """Click the control bound to `text`, check it asked for that move, and play it."""
        self.control(text).first.click()
        moves = self.page.evaluate("window.__moves.splice(0)")
        assert len(moves) == 1 and moves[0].lower() == text.lower(), moves
        self.state.apply_action(self.state.string_to_action(moves[0]))

    def reason_shown(self, text: str) -> str:
        return reason_shown(self.control(text).first)

    def others_move(self, rng: random.Random) -> None:
        """Chance and the other seats move at random until it is this seat's turn again."""
        state = self.state
        while not state.is_terminal() and state.current_player() != self.seat:
            state.apply_action(random_step(state, rng))

    def screenshot(self, name: str, size: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"view-{self.game}-{name}-{size}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path


def enabled_moves(page: Page) -> list[str]:
    """The move texts of the view's enabled controls (not the frame's move list), in order."""
    return page.eval_on_selector_all(
        '#game-root [data-move]:not([aria-disabled="true"])',
        "els => els.map(el => el.dataset.move)",
    )


def reason_shown(control: Locator) -> str:
    """Hover a disabled control and return the reason the frame then gives for it."""
    assert control.get_attribute("aria-disabled") == "true"
    control.hover()
    control.page.wait_for_function("el => Boolean(el.dataset.reason)", arg=control.element_handle())
    return control.get_attribute("data-reason") or ""


def no_sideways_scroll(page: Page) -> int:
    return page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth")


def resize(page: Page, size: str) -> None:
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})


# ---------------------------------------------------------------------------- arranged days
def first_turn(players: int = 3) -> State:
    """Seat 0 the Red Lady, seat 1 the Blue Tiger, seat 2 the Red Tiger; Blue/Red on offer."""
    state = new_game(GAME, players=players)
    doors = ["Red Lady", "Blue Tiger", "Red Tiger", "Blue Lady"][:players]
    play(state, *[f"deal {door} to seat {seat}" for seat, door in enumerate(doors)])
    return play(state, "reveal Blue/Red")


def test_your_identity_is_shown_and_the_others_are_face_down(page: Page) -> None:
    table = EngineTable(page, first_turn(), seat=0)
    you = page.locator("#game-root .fv-you")
    assert "Red Lady" in you.inner_text()
    assert you.locator('[aria-label="Red Lady"]').count() == 1
    for seat in (1, 2):
        panel = page.locator(f'#game-root .fv-seat[data-seat="{seat}"]')
        assert panel.locator('[aria-label="face-down Door card"]').count() == 1
        assert "Blue Tiger" not in panel.inner_text()
    # The day's facts: day, deck, supply, the lot on offer.
    facts = page.locator("#game-root .fv-facts").inner_text()
    assert "Day 1" in facts and "Deck: 13 cards" in facts and "Supply:" in facts
    assert page.locator('#game-root .fv-lot [aria-label="Blue/Red"]').count() == 1
    assert table.enabled_moves() == ["add to lot", "call auction"]


def test_add_and_call_buttons_play_the_moves(page: Page) -> None:
    table = EngineTable(page, first_turn(), seat=0)
    table.click("add to lot")
    assert table.state.action_to_string(table.state.history()[-1], 0) == "add to lot"
    # Seat 1 and seat 2 add too; the lot grows as cards are turned up.
    play(table.state, "reveal Red Lady", "add to lot", "reveal Blue Tiger", "add to lot",
         "reveal Red Tiger")
    table.show()
    assert page.locator("#game-root .fv-lot .fv-cards > *").count() == 4
    table.click("call auction")
    assert table.state.observation(0)["auction"]["caller"] == 0
    table.show()
    # Bidding starts left of the caller: seat 0 waits with its controls disabled.
    assert "Auction called by You" in page.locator("#game-root .fv-auction").inner_text()
    assert table.reason_shown("pass") == "it is not your turn: seat 1 is to move"


def test_bids_are_typed_and_lie_in_front_of_the_bidders(page: Page) -> None:
    state = play(first_turn(), "call auction", "bid 2", "pass")
    table = EngineTable(page, state, seat=0)
    # Seat 1 bid 2, seat 2 passed: both lie in front of them; seat 0, the caller, bids last.
    assert "bid 2" in page.locator('#game-root .fv-seat[data-seat="1"] .fv-bid').inner_text()
    assert "passed" in page.locator('#game-root .fv-seat[data-seat="2"] .fv-bid').inner_text()
    bid_input = page.locator("#game-root .fv-bid-input")
    assert bid_input.input_value() == "3"  # the lowest bid that beats the high bid
    bid_input.fill("4")
    assert table.control("bid 4").count() == 1
    table.click("bid 4")
    # Seat 0 won its own auction for 4: 2 to each opponent (rulebook "Call an Auction").
    obs = table.state.observation(0)
    assert obs["gems"][0] == 1 and obs["collections"][0] == ["Blue/Red"]


def test_a_bid_the_rules_forbid_shows_the_engines_reason(page: Page) -> None:
    state = play(first_turn(), "call auction", "bid 3", "pass")
    table = EngineTable(page, state, seat=0)
    bid_input = page.locator("#game-root .fv-bid-input")
    bid_input.fill("6")
    assert table.reason_shown("bid 6") == "a bid cannot exceed your gems: you hold 5 gems"
    bid_input.fill("2")
    assert table.reason_shown("bid 2") == "a bid must beat the high bid of 3"
    # Enter in the number box plays the typed bid when it is legal.
    bid_input.fill("5")
    bid_input.press("Enter")
    assert page.evaluate("window.__moves.splice(0)") == ["bid 5"]


def test_score_sheets_show_each_day_with_the_wilds_used(page: Page) -> None:
    rng = random.Random(11)
    state = new_game(GAME, players=3)
    while not state.past_days or not any(state.observation(0)["past_days"][0]["wilds"]):
        if state.is_terminal() or state.past_days:
            state = new_game(GAME, players=3)
        state.apply_action(random_step(state, rng))
    EngineTable(page, state, seat=0)
    record = state.observation(0)["past_days"][0]
    sheet = page.locator("#game-root .fv-sheet").first
    assert "Day 1 score sheet" in sheet.inner_text()
    text = sheet.inner_text()
    for wild in (line for lines in record["wilds"] for line in lines):
        assert wild in text
    for identity in record["identities"]:
        assert sheet.locator(f'[aria-label="{identity}"]').count() >= 1
    totals = sheet.locator(".fv-total").all_inner_texts()
    assert totals == [str(total) for total in record["totals"]]


def test_a_whole_game_through_the_page(page: Page) -> None:
    """Seat 0 plays a whole game by clicking enabled controls at random (typing random bids)."""
    rng = random.Random(3)
    state = new_game(GAME, players=3)
    table = EngineTable(page, state, seat=0)
    table.others_move(rng)
    table.show()
    moves = 0
    while not state.is_terminal():
        legal = {state.action_to_string(a) for a in state.legal_actions()}
        enabled = table.enabled_moves()
        # Every enabled control is a legal move, and every legal move but the bids has one.
        assert set(enabled) <= legal
        assert {t for t in legal if not t.startswith("bid")} <= set(enabled)
        bid_input = page.locator("#game-root .fv-bid-input")
        bids = sorted(int(t.split()[1]) for t in legal if t.startswith("bid"))
        if bids and rng.random() < 0.5:
            bid_input.fill(str(rng.choice(bids)))
            enabled = table.enabled_moves()
        table.click(rng.choice(enabled))
        moves += 1
        table.others_move(rng)
        table.show()
    assert moves > 10
    banner = page.locator("#game-root .fv-banner").inner_text()
    winner = state.observation(0)["winner"]
    assert ("You win" if winner == 0 else f"Seat {winner} wins") in banner
    assert page.locator("#game-root .fv-sheet").count() == 3
    table.screenshot("end", "desktop")


def test_screenshots_at_both_sizes(
    new_page: Callable[..., Page], page: Page
) -> None:
    """A day-2 auction with bids out and day 1's score sheet, as seat 0 and as a spectator."""
    rng = random.Random(5)
    state = new_game(GAME, players=4)
    while True:
        obs = state.observation(0)
        auction = obs["auction"]
        if (obs["day"] == 2 and auction and not auction["final"]
                and sum(b not in (None, "pass") for b in auction["bids"]) >= 2
                and state.current_player() == 0):
            break
        if state.is_terminal():
            state = new_game(GAME, players=4)
        state.apply_action(random_step(state, rng))
    table = EngineTable(page, state, seat=0)
    shots = []
    for size in SIZES:
        resize(page, size)
        table.show()
        shots.append(table.screenshot("auction", size))
        # Nothing may stick out sideways at either size.
        overflow = no_sideways_scroll(page)
        assert overflow <= 0, f"{size}: the page scrolls sideways by {overflow}px"
    spectator = EngineTable(new_page(), state, seat=None)
    assert spectator.page.locator("#game-root .fv-you").count() == 0
    assert spectator.page.locator('#game-root [data-move]').count() == 0
    shots.append(spectator.screenshot("spectator", "desktop"))
    assert all(path.stat().st_size > 10_000 for path in shots)


# ---------------------------------------------------------------------------- the real page
def test_on_the_real_table_page_a_bid_is_typed_and_a_refusal_explained(
    server: str, page: Page
) -> None:
    """Against two random bots on the real server: call an auction with the view's button,
    have a too-high bid refused with the server's reason, then bid or pass."""
    _table, link = human_against_bots(server, GAME, 3)
    open_table(page, link)
    assert wait_my_turn_or_end(page) == "you"  # seat 0 plays first on day 1
    assert page.locator("#game-root .fv-you").is_visible()
    assert sorted(enabled_moves(page)) == ["add to lot", "call auction"]
    screenshots_at_both_sizes(page, "view-favor-real-turn")
    before = version(page)
    page.locator('#game-root [data-move="call auction"]').click()
    page.wait_for_function("v => document.body.dataset.version !== String(v)", arg=before)
    assert wait_my_turn_or_end(page) == "you"  # the caller bids last
    auction = page.locator("#game-root .fv-auction")
    assert "Auction called by You" in auction.inner_text()
    top = int(page.locator("#game-root .fv-bid-input").get_attribute("max") or "0")
    page.locator("#game-root .fv-bid-input").fill(str(top + 1))
    too_many = page.locator(f'#game-root [data-move="bid {top + 1}"]')
    assert reason_shown(too_many).startswith("a bid cannot exceed your gems")
    screenshots_at_both_sizes(page, "view-favor-real-auction")
    before = version(page)
    page.locator('#game-root [data-move="pass"]').click()
    page.wait_for_function("v => document.body.dataset.version !== String(v)", arg=before)
    assert re.search(r"^You pass\.$", page.locator("#log").inner_text(), re.MULTILINE)
