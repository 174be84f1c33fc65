"""Shady Lady's browser view (static/games/shady_lady.js) in Chromium, driven by the engine.

Arranged deals are shown through the stand-in table page of test_view_favor.py (the frame's
own binder, the engine in place of the server); the last tests use the real server and page.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page

from ladytiger.core import State
from ladytiger.core.playout import random_step

# The stand-in table page is shared with Favor's view tests.
from tests.browser.support import (
    create_table,
    http,
    screenshots_at_both_sizes,
    turn,
)
from tests.browser.test_view_favor import (
    SIZES,
    EngineTable,
    enabled_moves,
    no_sideways_scroll,
    resize,
)
from tests.helpers import new_game, play

GAME = "shady_lady"


# ---------------------------------------------------------------------------- arranged deals
def dealt(*hands: tuple[int, int, int], **options: Any) -> State:
    """A game whose seats were dealt `hands`, seat by seat (ruling 15)."""
    state = new_game(GAME, players=len(hands), **options)
    return play(state, *[f"deal {card} to seat {seat}"
                         for seat, hand in enumerate(hands) for card in hand])


def texts(state: State) -> set[str]:
    return {state.action_to_string(a) for a in state.legal_actions()}


def hand_values(page: Page, selector: str) -> list[str]:
    """The cards under `selector`, by name ("7"); a face-down card is "?"."""
    return page.eval_on_selector_all(
        f"#game-root {selector} .card", "els => els.map(el => el.dataset.card || '?')")


def test_draw_then_discard_by_clicking_the_pile_and_a_card(page: Page) -> None:
    table = EngineTable(page, dealt((2, 3, 7), (1, 4, 6), (8, 8, 9)), seat=0)
    assert "Draw pile: 71 cards" in page.locator("#game-root .sl-draw").inner_text()
    assert sorted(table.enabled_moves()) == sorted(texts(table.state))
    assert table.reason_shown("take from seat 1") == "seat 1's discard pile is empty"
    table.click("draw")
    play(table.state, "seat 0 draws 1")
    table.show()
    assert hand_values(page, ".sl-my-hand") == ["1", "2", "3", "7"]
    assert table.reason_shown("try") == (
        "you hold four cards: discard one of 1 2 3 7 to end your turn")
    table.click("discard 7")
    play(table.state, "draw", "seat 1 draws 9", "discard 9")
    table.show()
    # Seat 0's pile shows the 7 on top; seat 1 put its 9 on its own pile.
    assert hand_values(page, '.sl-my-pile') == ["7"]
    assert hand_values(page, '.sl-seat[data-seat="1"] .sl-pile') == ["9"]


def test_taking_a_top_card_and_what_the_others_then_know(
    new_page: Callable[..., Page], page: Page
) -> None:
    state = dealt((2, 3, 7), (1, 4, 6), (8, 8, 9))
    play(state, "draw", "seat 0 draws 6", "discard 6", "draw", "seat 1 draws 2", "discard 1",
         "draw", "seat 2 draws 4", "discard 4")
    # Every pile is visible in full: seat 0 holds 6, seat 1 holds 1, seat 2 holds 4.
    table = EngineTable(page, state, seat=0)
    assert sorted(table.enabled_moves()) == sorted(texts(state))
    table.click("take 4 from seat 2")
    table.show()
    assert hand_values(page, ".sl-my-hand") == ["2", "3", "4", "7"]
    assert hand_values(page, '.sl-seat[data-seat="2"] .sl-pile') == []
    assert page.locator('#game-root .sl-seat[data-seat="2"] .sl-empty').count() == 1
    # Seat 1 now sees the 4 face up in seat 0's hand, the rest face down.
    watcher = EngineTable(new_page(), state, seat=1)
    other = hand_values(watcher.page, '.sl-seat[data-seat="0"] .sl-other-hand')
    assert other == ["4", "?", "?", "?"]
    assert hand_values(watcher.page, '.sl-seat[data-seat="2"] .sl-other-hand') == [
        "?"] * 3


def test_the_whole_pile_is_shown_in_order_and_only_its_top_can_be_taken(page: Page) -> None:
    state = dealt((1, 6, 9), (2, 3, 7))
    play(state, "draw", "seat 0 draws 1", "discard 1",
         "draw", "seat 1 draws 8", "discard 8",
         "draw", "seat 0 draws 4", "discard 6",
         "draw", "seat 1 draws 1", "discard 1",
         "draw", "seat 0 draws 1", "discard 4")
    table = EngineTable(page, state, seat=1)
    pile = hand_values(page, '.sl-seat[data-seat="0"] .sl-pile')
    assert pile == ["1", "6", "4"]  # bottom first, top last
    bound = page.eval_on_selector_all(
        '#game-root .sl-seat[data-seat="0"] .sl-pile [data-move]',
        "els => els.map(e => e.dataset.move)")
    assert bound == ["take 4 from seat 0"]
    table.click("take 4 from seat 0")
    assert state.observation(1)["hands"][1] == [2, 3, 4, 7]


def test_try_declines_and_reveals_name_the_rule(
    new_page: Callable[..., Page], page: Page
) -> None:
    # Seat 0 holds 6-7-8, seat 1 a triple of 2s, seat 2 nothing.
    state = dealt((6, 7, 8), (2, 2, 2), (1, 4, 9))
    declarer = EngineTable(page, state, seat=0)
    assert page.locator("#game-root .sl-combo-mine").inner_text() == "you hold 6-7-8 (run)"
    declarer.click("try")
    answer = EngineTable(new_page(), state, seat=1)
    panel = answer.page.locator("#game-root .sl-try").inner_text()
    assert "Seat 0 declared Try!" in panel and "6-7-8 (run)" in panel
    # The declarer's hand is face up for everyone.
    assert hand_values(answer.page, '.sl-seat[data-seat="0"] .sl-other-hand') == [
        "6", "7", "8"]
    answer.click("reveal")
    last = EngineTable(new_page(), state, seat=2)
    assert last.reason_shown("reveal") == (
        "you may reveal only a combination stronger than 2-2-2 (triple) (shown by seat 1); "
        "your 1 4 9 is no combination")
    last.click("decline")
    last.show()
    text = last.page.locator("#game-root .sl-last-call").inner_text()
    assert "Seat 1 scores" in text and "2-2-2 (triple)" in text
    # The revealers now discard their hands one card at a time: seat 0 first.
    declarer.show()
    status = page.locator("#game-root .sl-status").inner_text()
    assert "the revealed hand goes onto the pile" in status
    assert sorted(declarer.enabled_moves()) == ["discard 6", "discard 7", "discard 8"]


def test_try_without_a_combination_and_jack_on_a_player(page: Page) -> None:
    state = dealt((2, 3, 7), (4, 4, 4), (1, 6, 9))
    table = EngineTable(page, state, seat=0)
    assert table.reason_shown("try") == (
        "you may declare Try! only while holding a combination (a triple or a run); "
        "your 2 3 7 is none")
    jack = page.locator('#game-root .sl-seat[data-seat="1"] .sl-jack')
    assert jack.get_attribute("data-move") == "jack seat 1"
    table.click("jack seat 1")
    table.show()
    assert state.observation(0)["scores"] == [1, 0, 0]
    text = page.locator("#game-root .sl-last-call").inner_text()
    assert "called Jack! on Seat 1" in text and "4-4-4 (triple)" in text
    assert hand_values(page, '.sl-seat[data-seat="1"] .sl-other-hand') == ["4"] * 3


def test_a_whole_game_through_the_page(page: Page) -> None:
    """Seat 0 plays a whole game by clicking enabled controls at random."""
    rng = random.Random(9)
    state = new_game(GAME, players=4, turn_limit=200)
    table = EngineTable(page, state, seat=0)
    table.others_move(rng)
    table.show()
    moves = 0
    while not state.is_terminal():
        enabled = table.enabled_moves()
        assert sorted(enabled) == sorted(texts(state))
        table.click(rng.choice(enabled))
        moves += 1
        table.others_move(rng)
        table.show()
    assert moves > 3
    assert page.locator("#game-root .sl-banner").count() == 1
    assert page.locator("#game-root [data-move]").count() == 0
    # At the end every hand is face up.
    assert hand_values(page, "").count("?") == 1  # the draw pile
    table.screenshot("end", "desktop")


def test_screenshots_at_both_sizes(
    new_page: Callable[..., Page], page: Page
) -> None:
    """A Try! being answered at a five-player table with piles of every length."""
    rng = random.Random(12)
    state = new_game(GAME, players=5)
    while True:
        obs = state.observation(0)
        if (obs["try"] is not None and state.current_player() == 0
                and sum(len(p) for p in obs["piles"]) >= 12 and obs["results"]):
            break
        if state.is_terminal():
            state = new_game(GAME, players=5)
        state.apply_action(random_step(state, rng))
    table = EngineTable(page, state, seat=0)
    shots = []
    for size in SIZES:
        resize(page, size)
        table.show()
        shots.append(table.screenshot("try", size))
        overflow = no_sideways_scroll(page)
        assert overflow <= 0, f"{size}: the page scrolls sideways by {overflow}px"
    spectator = EngineTable(new_page(), state, seat=None)
    assert spectator.page.locator("#game-root .sl-mine").count() == 0
    assert spectator.page.locator("#game-root [data-move]").count() == 0
    shots.append(spectator.screenshot("spectator", "desktop"))
    assert all(path.stat().st_size > 10_000 for path in shots)


# ---------------------------------------------------------------------------- the real page
def shown_hands(page: Page) -> dict[int, list[str]]:
    """Every hand as the page draws it: seat -> card names, "?" for a face-down card."""
    return page.evaluate("""() => {
        const hands = {};
        for (const panel of document.querySelectorAll('#game-root .sl-seat')) {
            hands[panel.dataset.seat] = [...panel.querySelectorAll('.sl-other-hand .card')]
                .map((el) => el.dataset.card || '?');
        }
        const mine = document.querySelector('#game-root .sl-mine');
        if (mine) hands.mine = [...mine.querySelectorAll('.sl-my-hand .card')]
            .map((el) => el.dataset.card || '?');
        return hands;
    }""")


def test_two_players_each_see_only_their_own_hidden_cards(
    server: str, new_page: Callable[..., Page]
) -> None:
    """Two browsers hold the two seats of one table and play it through the page to the end;
    after every move each page draws exactly its own seat's observation: its own hand face
    up, the other hand face down but for the cards that seat has seen (taken or shown)."""
    made = create_table(server, GAME, {"players": 2, "turn_limit": 15},
                        [{"kind": "human"}, {"kind": "human"}])
    table = made["table"]["id"]
    pages = [new_page(), new_page(390, 844)]
    for seat, page in enumerate(pages):
        page.goto(made["links"]["invites"][str(seat)])
    for page in pages:
        page.wait_for_function("() => ['you', 'other'].includes(document.body.dataset.turn)")
    rng = random.Random(5)
    moves = 0
    while True:
        current = version_of(server, table)
        for seat, page in enumerate(pages):
            page.wait_for_function("v => document.body.dataset.version === String(v)"
                                   " && document.body.dataset.pending !== '1'", arg=current)
            seen = http(server, "GET", f"/api/tables/{table}/view",
                        token=made["tokens"][str(seat)])
            assert seen["version"] == current
            observation = seen["observation"]
            if observation["terminal"]:
                continue  # the end summary replaces the table; every hand is shown there
            hands = shown_hands(page)
            other = 1 - seat
            assert hands["mine"] == [str(card) for card in observation["hands"][seat]]
            assert hands[str(other)] == [
                "?" if card is None else str(card) for card in observation["hands"][other]]
            if moves == 0:
                assert hands[str(other)] == ["?", "?", "?"]  # nothing of it is known yet
        if turn(pages[0]) == "over":
            break
        mover = next(page for page in pages if turn(page) == "you")
        choices = enabled_moves(mover)
        mover.locator(f'#game-root [data-move="{rng.choice(choices)}"]').first.click()
        mover.wait_for_function("v => document.body.dataset.version !== String(v)", arg=current)
        moves += 1
        if moves == 6:
            for seat, page in enumerate(pages):
                screenshots_at_both_sizes(page, f"view-shady_lady-real-seat{seat}")
    for page in pages:
        page.locator(".end-summary").wait_for()
    assert moves >= 3


def version_of(server: str, table: str) -> int:
    return int(http(server, "GET", f"/api/tables/{table}")["table"]["version"])
