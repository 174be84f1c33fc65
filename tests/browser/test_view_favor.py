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
from tests.helpers import legal_texts, new_game, play

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


def stepper_bids(page: Page) -> list[str]:
    """Every bid the stepper can show, lowest first: it is stepped down as far as it goes,
    then up as far as it goes (each shown bid must be allowed)."""
    bid = page.locator("#game-root .fv-bid-button")
    if not bid.count():
        return []
    down = page.locator('#game-root .fv-step[data-step="-1"]')
    up = page.locator('#game-root .fv-step[data-step="1"]')
    while down.count():
        down.click()
    bids = []
    while True:
        bids.append(bid.get_attribute("data-move") or "")
        if not up.count():
            return bids
        up.click()


def step_bid_to(page: Page, amount: int) -> Locator:
    bid = page.locator("#game-root .fv-bid-button")
    for _ in range(40):
        shown = int(bid.inner_text().split()[1])
        if shown == amount:
            return bid
        page.locator(f'#game-root .fv-step[data-step="{1 if amount > shown else -1}"]').click()
    raise AssertionError(f"the stepper never showed {amount}")


def board_moves(page: Page) -> set[str]:
    """The moves the board offers: its enabled controls and every bid of the stepper."""
    return set(enabled_moves(page)) | set(stepper_bids(page))


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
    assert table.state.action_to_string(table.state.history()[-1], player=0) == "add to lot"
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


def test_bids_are_stepped_and_lie_in_front_of_the_bidders(page: Page) -> None:
    state = play(first_turn(), "call auction", "bid 2", "pass")
    table = EngineTable(page, state, seat=0)
    # Seat 1 bid 2, seat 2 passed: both lie in front of them; seat 0, the caller, bids last.
    chip = page.locator('#game-root .fv-seat[data-seat="1"] .fv-bid')
    assert "bid 2" in chip.inner_text()
    assert chip.get_attribute("data-key") == "bid:1"
    assert chip.get_attribute("data-from") == "gems-1"
    assert page.locator('#game-root [data-zone="gems-1"]').count() == 1
    assert "passed" in page.locator('#game-root .fv-seat[data-seat="2"] .fv-bid').inner_text()
    bid = page.locator("#game-root .fv-bid-button")
    assert bid.inner_text() == "Bid 3"  # the lowest bid that beats the high bid
    # One bid control, in the auction beside the lot; no number box.
    assert page.locator("#game-root .fv-lot .fv-bid-button").count() == 1
    assert page.locator("#game-root input").count() == 0
    step_bid_to(page, 4)
    assert table.control("bid 4").count() == 1
    table.click("bid 4")
    # Seat 0 won its own auction for 4: 2 to each opponent (rulebook "Call an Auction").
    obs = table.state.observation(0)
    assert obs["gems"][0] == 1 and obs["collections"][0] == ["Blue/Red"]


def test_the_stepper_offers_only_the_bids_the_rules_allow(page: Page) -> None:
    state = play(first_turn(), "call auction", "bid 3", "pass")
    table = EngineTable(page, state, seat=0)
    # Above the high bid of 3 and within the 5 gems held: 4 and 5, nothing else.
    assert stepper_bids(page) == ["bid 4", "bid 5"]
    assert board_moves(page) == set(legal_texts(table.state)) == {"bid 4", "bid 5", "pass"}
    # The arrow keys step the bid under the focus, and Enter bids it.
    step_bid_to(page, 4).focus()
    page.keyboard.press("ArrowDown")  # 3 is not allowed: it stays at 4
    page.keyboard.press("ArrowUp")
    assert page.locator("#game-root .fv-bid-button").inner_text() == "Bid 5"
    page.keyboard.press("Enter")
    assert page.evaluate("window.__moves.splice(0)") == ["bid 5"]


def test_a_seat_too_poor_to_beat_the_bid_may_only_pass(page: Page) -> None:
    state = play(first_turn(), "call auction", "bid 5")
    table = EngineTable(page, state, seat=2)
    assert page.locator("#game-root .fv-bid-button").count() == 0
    assert "too few to beat 5" in page.locator("#game-root .fv-auction").inner_text()
    assert board_moves(page) == set(legal_texts(table.state)) == {"pass"}


def test_gems_and_points_are_told_apart(page: Page) -> None:
    state = play(first_turn(), "call auction", "bid 2", "pass", "pass")
    EngineTable(page, state, seat=0)
    # Seat 1 took the lot for 2 gems, paid to seat 0, the caller.
    mine = page.locator('#game-root .fv-seat[data-seat="0"]')
    assert mine.locator(".fv-gem-count").inner_text() == "7 gems"
    assert mine.locator(".fv-points").inner_text() == "0 points"
    assert mine.locator('[data-count-key="gems-0"]').get_attribute("data-count") == "7"
    assert mine.locator('[data-count-key="points-0"]').get_attribute("data-count") == "0"
    taken = page.locator('#game-root [data-zone="collection-1"] .card')
    assert taken.get_attribute("data-card") == "Blue/Red"
    assert taken.get_attribute("data-from") == "lot"
    assert taken.get_attribute("data-key") == "card:Blue/Red#d1c1-0"
    new_lot = page.locator('#game-root [data-zone="lot"] [data-key]')
    assert new_lot.count() == 0 or new_lot.first.get_attribute("data-from") == "deck"


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
        # The board offers exactly the legal moves: its controls and the stepper's bids.
        assert board_moves(page) == legal
        bids = [t for t in legal if t.startswith("bid")]
        if bids and rng.random() < 0.5:
            step_bid_to(page, int(rng.choice(bids).split()[1]))
        table.click(rng.choice(table.enabled_moves()))
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
    page.wait_for_function("v => document.body?.dataset.version !== String(v)", arg=before)
    assert wait_my_turn_or_end(page) == "you"  # the caller bids last
    auction = page.locator("#game-root .fv-auction")
    assert "Auction called by You" in auction.inner_text()
    # The stepper goes up to the gems held and no further (or, if a bot bid all 5, offers
    # no bid at all).
    bids = stepper_bids(page)
    if bids:
        assert bids[-1] == "bid 5"
        assert page.locator('#game-root .fv-step[data-step="1"]').count() == 0
    else:
        assert "too few to beat 5" in auction.inner_text()
    screenshots_at_both_sizes(page, "view-favor-real-auction")
    before = version(page)
    page.locator('#game-root [data-move="pass"]').click()
    page.wait_for_function("v => document.body?.dataset.version !== String(v)", arg=before)
    assert re.search(r"^You pass\.$", page.locator("#log").inner_text(), re.MULTILINE)
