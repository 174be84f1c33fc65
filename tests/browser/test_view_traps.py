"""Traps' browser view (static/games/traps.js) in real Chromium, on the real engine.

The bench (the frame's drawView and ctx over the engine in Python) is the one in
test_view_hoard.py.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Locator, Page

from ladytiger.core import CHANCE, State
from ladytiger.core.playout import random_step
from tests.browser.support import (
    human_against_bots,
    open_table,
    screenshots_at_both_sizes,
    version,
    wait_my_turn_or_end,
)
from tests.browser.test_view_hoard import SIZES, ViewBench, hover_reason, sized, wait_moved
from tests.helpers import legal_texts, new_game, play

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


def step_bid_to(page: Page, amount: int) -> Locator:
    """Step the bid to `amount` with the stepper's buttons; the Bid button."""
    bid = page.locator("#game-root .tp-bid-button")
    for _ in range(2 * 13):
        shown = int(bid.inner_text().split()[1])
        if shown == amount:
            return bid
        page.locator(f'#game-root .tp-step[data-step="{1 if amount > shown else -1}"]').click()
    raise AssertionError(f"the stepper never showed {amount}")


def stepper_bids(page: Page) -> set[str]:
    """Every bid the stepper can show: down to its lowest, then up to its highest."""
    bid = page.locator("#game-root .tp-bid-button")
    if not bid.count():
        return set()
    down = page.locator('#game-root .tp-step[data-step="-1"]')
    up = page.locator('#game-root .tp-step[data-step="1"]')
    while down.count():
        down.click()
    bids = set()
    while True:
        assert bid.get_attribute("aria-disabled") is None, "the stepper shows a bid not allowed"
        bids.add(bid.get_attribute("data-move") or "")
        if not up.count():
            return bids
        up.click()


def board_moves(page: Page) -> set[str]:
    """The moves the board offers: its enabled controls and every bid of the stepper."""
    enabled = page.eval_on_selector_all(
        '#game-root [data-move]:not([aria-disabled="true"])', "els => els.map(e => e.dataset.move)")
    return set(enabled) | stepper_bids(page)


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


def test_build_then_bid_with_the_stepper(page: Page) -> None:
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
    # The stepper starts at the lowest bid allowed and goes no lower: 3 to 13 only.
    bid = page.locator(".tp-bid-button")
    assert bid.inner_text() == "Bid 3"
    assert page.locator('.tp-step[data-step="-1"]').count() == 0
    assert stepper_bids(page) == {f"bid {n}" for n in range(3, 14)}
    assert page.locator('.tp-step[data-step="1"]').count() == 0
    step_bid_to(page, 5)
    assert bid.inner_text() == "Bid 5"
    # One bid control on the board, beside the pot.
    assert page.locator("#game-root .tp-bid-button").count() == 1
    assert page.locator("#game-root .tp-centre .tp-bid-button").count() == 1
    assert page.locator("#game-root input").count() == 0
    assert bench.click(bid) == "bid 5"
    assert "bid 5" in seat_panel(page, 0).locator(".tp-badges").inner_text()


def test_the_keyboard_steps_the_bid_and_enter_bids(page: Page) -> None:
    state = arranged("start stack with Red Tiger", "start stack with Lady/Tiger")
    bench = ViewBench(page, GAME, state, seat=0)
    bench.others_wait = True
    bid = page.locator(".tp-bid-button")
    bid.focus()
    for _ in range(6):
        page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowDown")
    assert page.locator(".tp-bid-button").inner_text() == "Bid 6"
    # The stepper's buttons keep the focus on the bid as it changes.
    page.keyboard.press("Enter")
    page.wait_for_function(f"window.benchVersion === {bench.version}")
    assert bench.played == ["bid 6"]


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
        "Season 1 (goal Blue Lady): You bid 3 and matched 0. You stopped revealing and gave a "
        "gem to Seat 1.")
    assert last.locator(".card").get_attribute("data-card") == "Red Tiger"


def test_revealing_an_opponents_trap_pays_them(page: Page) -> None:
    state = arranged("start stack with Red Tiger", "start stack with Lady/Tiger", "bid 3", "pass")
    bench = ViewBench(page, GAME, state, seat=0)
    bench.others_wait = True
    assert seat_panel(page, 1).locator(".tp-seat-line").inner_text().split()[:4] == [
        "1", "gem", "(5", "wins)"]
    assert bench.click(seat_panel(page, 1).locator(".tp-pile")) == "reveal seat 1"
    shown = seat_panel(page, 1).locator(".tp-revealed .card")
    assert shown.get_attribute("data-card") == "Lady/Tiger"
    # It came face up out of seat 1's stack; seat 1's gems are a count that rose.
    assert shown.get_attribute("data-from") == "stack-1"
    assert shown.get_attribute("data-key") == "card:Lady/Tiger#s1-0"
    assert page.locator('#game-root [data-zone="stack-1"]').count() == 1
    gems = seat_panel(page, 1).locator('[data-count-key="gems-1"]')
    assert gems.get_attribute("data-count") == "2"
    assert seat_panel(page, 1).locator(".tp-seat-line").inner_text().split()[:4] == [
        "2", "gems", "(5", "wins)"]
    assert page.locator('#game-root [data-count-key="pot"]').get_attribute("data-count") == "2"


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
    screenshots_at_both_sizes(page, "traps-real-build-or-bid")
    before = version(page)
    step_bid_to(page, 13).click()
    wait_moved(page, before)
    assert "bid 13" in page.locator("#log").inner_text()
    # Nobody can top 13: the others pass and we reveal, clicking the top of a stack.
    assert wait_my_turn_or_end(page) == "you"
    assert "click the top of any stack" in page.locator(".tp-phase").inner_text()
    before = version(page)
    page.locator('#game-root .tp-seat[data-seat="1"] .tp-pile').click()
    wait_moved(page, before)
    assert page.locator('#game-root .tp-seat[data-seat="1"] .tp-revealed .card').count() == 1


def test_your_cards_keep_their_keys_from_hand_to_stack_to_face_up(page: Page) -> None:
    bench = ViewBench(page, GAME, arranged(), seat=0)
    bench.others_wait = True
    root = page.locator("#game-root")

    def key_in_hand(name: str) -> str:
        return hand_card(page, name).locator(".card").get_attribute("data-key") or ""

    def stacked() -> dict[str, str]:
        return dict(root.locator('.tp-own-stack [data-zone="stack-0"] .card').evaluate_all(
            "(cards) => cards.map((c) => [c.dataset.card, c.dataset.key])"))

    tiger, wild = key_in_hand("Red Tiger"), key_in_hand("Blue/Red")
    assert tiger == "card:Red Tiger#y1-0"
    assert root.locator('[data-zone="hand-0"] [data-key]').count() == 6
    bench.forced = ["start stack with Lady/Tiger"]
    bench.click(hand_card(page, "Red Tiger"))
    assert stacked() == {"Red Tiger": tiger}
    bench.forced = ["build Red Tiger"]
    bench.click(hand_card(page, "Blue/Red"))
    assert stacked() == {"Red Tiger": tiger, "Blue/Red": wild}
    bench.forced = ["pass"]
    bench.click(step_bid_to(page, 2))
    # Turned up from the top of the own stack, the Blue/Red keeps its key once more.
    bench.click(seat_panel(page, 0).locator(".tp-pile"))
    shown = seat_panel(page, 0).locator(".tp-revealed .card")
    assert shown.get_attribute("data-key") == wild
    assert stacked() == {"Red Tiger": tiger}
    keys = root.locator("[data-key]").evaluate_all("(all) => all.map((e) => e.dataset.key)")
    assert len(keys) == len(set(keys)) and not any("|" in key for key in keys)


def random_positions(players: int, seat: int, seed: int, count: int) -> list[State]:
    """`count` positions of random games where `seat` is to move, spread over them."""
    rng = random.Random(seed)
    state = new_game(GAME, players=players, max_seasons=6)
    found: list[State] = []
    while len(found) < count:
        if state.is_terminal():
            state = new_game(GAME, players=players, max_seasons=6)
        if state.current_player() == seat and rng.random() < 0.35:
            found.append(state.clone())
        state.apply_action(random_step(state, rng))
    return found


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_the_board_offers_exactly_the_legal_moves(
    new_page: Callable[..., Page], players: int, seed: int
) -> None:
    seat = seed % players
    positions = random_positions(players, seat, seed, 8)
    page = new_page()
    bench = ViewBench(page, GAME, positions[0], seat=seat)
    phases = set()
    for state in positions:
        bench.state = state
        bench.show()
        phases.add(state.phase)
        assert board_moves(page) == set(legal_texts(state)), state.phase
    assert len(phases) >= 2


def won_with_stacks_standing(seed: int) -> State:
    """A finished game won in the middle of a season, face-down cards still on two stacks
    or more."""
    rng = random.Random(seed)
    while True:
        state = new_game(GAME, players=3, max_seasons=40)
        while not state.is_terminal():
            state.apply_action(random_step(state, rng))
        public = state.observation(None)
        standing = sum(1 for stack in public["stacks"] if stack["face_down"])
        if public.get("winner") is not None and standing >= 2:
            return state


def test_at_the_end_every_stack_is_face_up_in_every_view(new_page: Callable[..., Page]) -> None:
    # The end turns every stack face up for everyone (rules: ruling 21): each player's view
    # and a spectator's draw every stack still standing face up, where it stood.
    state = won_with_stacks_standing(7)
    public = state.observation(None)["stacks"]
    standing = [seat for seat, stack in enumerate(public) if stack["face_down"]]
    assert len(standing) >= 2, "the game should leave at least two stacks standing"
    page = new_page()
    bench = ViewBench(page, GAME, state, seat=standing[0])
    for viewer in (*range(3), None):
        bench.seat = viewer
        bench.show()
        for seat in standing:
            panel = seat_panel(page, seat)
            assert panel.locator(".tp-pile").count() == 0, (viewer, seat)
            cards = panel.locator(".tp-stack-face-up .card").evaluate_all(
                "(cards) => cards.map((c) => c.dataset.card)")
            assert cards == public[seat]["cards"], (viewer, seat)
            assert "face up at the end" in panel.locator(".tp-pile-box").inner_text()
            assert panel.locator(".tp-own-stack").count() == 0
            # Another seat's cards come out of its stack, keyed apart from the ones turned up.
            froms = panel.locator(".tp-stack-face-up .card").evaluate_all(
                "(cards) => cards.map((c) => c.dataset.from || null)")
            if seat != viewer:
                assert froms == [f"stack-{seat}"] * len(cards)
        keyed = bench.keyed()  # every key once
        assert sum(zone and zone.startswith("stack-") for zone in keyed.values()) == sum(
            public[seat]["face_down"] for seat in standing)
        assert "face down" not in page.locator("#game-root .tp-seats").inner_text()
        assert page.locator("#game-root [data-move]").count() == 0
    bench.seat = standing[0]
    bench.show()
    screenshots_at_both_sizes(page, "traps-end-stacks-face-up", full_page=True)


# "You builds", "you reveals", "You is": a verb that agrees with a seat's name, not with
# "You" (a word ending in "ss", as in "You pass" or "You guess", is the verb's own form).
YOU_WITH_NAME_VERB = re.compile(r"\b[Yy]ou (?:is|has|was|does|[a-z]*[^s\W]s)\b")
# Verbs the Traps and Doors views use, in the form that never follows "You".
NEVER_AFTER_YOU = ("builds", "bids", "passes", "reveals", "starts", "chooses", "wins",
                   "holds", "takes", "discards", "declares", "guesses", "earns", "stops",
                   "gives", "ends", "reaches", "claims", "collects")
# The same sentence twice in a row ("you earn 6 gems.. You earn 6 gems.").
REPEATED_SENTENCE = re.compile(r"([A-Za-z][^.!?\n]{6,}[.!?])\s*\1", re.IGNORECASE)


def drawn_words(page: Page) -> str:
    """Everything the view says: its text, and the labels and tooltips read aloud."""
    return page.evaluate("""() => {
        const root = document.getElementById("game-root");
        const said = [...root.querySelectorAll("[aria-label], [title]")].flatMap(
            (e) => [e.getAttribute("aria-label"), e.getAttribute("title")]);
        return [root.innerText, ...said.filter(Boolean)].join("\\n");
    }""")


def grammar_slips(text: str) -> list[str]:
    """The slips of grammar and punctuation in a view's words."""
    slips = [match.group(0) for match in YOU_WITH_NAME_VERB.finditer(text)]
    slips += [f"You {verb}" for verb in NEVER_AFTER_YOU
              if re.search(rf"\b[Yy]ou {verb}\b", text)]
    slips += [match.group(0) for match in REPEATED_SENTENCE.finditer(text)]
    slips += re.findall(r".{0,30}(?:\.\.|\s[.,]|\bYou's\b|\bby You\b).{0,30}", text)
    return slips


def test_the_grammar_slip_finder_finds_the_slips_seen() -> None:
    # The checker itself: the slips the review saw are caught, correct words are not.
    for wrong in ("You builds or bids.", "You reveals cards: 1 of 4 traits so far.",
                  "Contest 2: you earn 6 gems.. You earn 6 gems.", "You's stack",
                  "Bid 3 by You"):
        assert grammar_slips(wrong), wrong
    for right in ("You build or bid.", "You pass.", "You guess Blue.", "Ana builds or bids.",
                  "You reveal cards: 1 of 4 traits so far.", "Contest 2: you earn 6 gems.",
                  "Your stack, face up", "by you", "The Door cards are being dealt\u2026"):
        assert not grammar_slips(right), right


def show_as(bench: ViewBench, seat: int | None, your_turn: bool | None = None) -> str:
    """Draw `seat`'s view of the bench's state (its turn offered or not); its words."""
    bench.seat = seat
    view = bench.view()
    if your_turn is False:
        view = {**view, "your_turn": False, "legal_actions": []}
    bench.version += 1
    view["version"] = bench.version
    bench.page.evaluate("view => window.benchShow(view)", view)
    bench.check()
    return drawn_words(bench.page)


@pytest.mark.parametrize(("players", "seed"), [(2, 21), (3, 22), (5, 23)])
def test_the_words_have_no_grammar_slips_anywhere(
    new_page: Callable[..., Page], players: int, seed: int
) -> None:
    rng = random.Random(seed)
    page = new_page()
    bench: ViewBench | None = None
    phases: set[str] = set()
    shown = 0
    for _ in range(2):
        state = new_game(GAME, players=players, max_seasons=8)
        while True:
            if state.is_terminal() or rng.random() < 0.08:
                if bench is None:
                    bench = ViewBench(page, GAME, state, seat=0)
                bench.state = state
                phases.add(state.phase)
                mover = state.current_player()
                for seat in (*range(players), None):
                    text = show_as(bench, seat)
                    assert not grammar_slips(text), (state.phase, seat, grammar_slips(text))
                    shown += 1
                    if seat == mover:  # the seat's own turn, drawn before it is offered
                        text = show_as(bench, seat, your_turn=False)
                        assert not grammar_slips(text), (state.phase, seat, grammar_slips(text))
            if state.is_terminal():
                break
            state.apply_action(random_step(state, rng))
    assert "game over" in phases and len(phases) >= 4, phases
    assert shown >= 40


def test_the_first_view_is_dealt_in_one_sentence(page: Page) -> None:
    state = new_game(GAME, players=3)
    while state.current_player() == CHANCE:
        state.apply_action(random_step(state, random.Random(1)))
    deal = [line for line in state.log(0) if " dealt " in line]
    assert len(deal) == 1 and deal[0].startswith("You are dealt ")
