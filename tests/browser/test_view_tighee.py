"""Tighee's browser view (static/games/tighee.js) in Chromium, driven by the engine.

Moments found in seeded random games are shown through the stand-in table page of
test_view_favor.py (the frame's own binder, the engine in place of the server); the last tests
use the real server and page.
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
    human_against_bots,
    open_table,
    screenshots_at_both_sizes,
    version,
    wait_my_turn_or_end,
)
from tests.browser.test_view_favor import (
    SIZES,
    EngineTable,
    enabled_moves,
    no_sideways_scroll,
    reason_shown,
    resize,
)
from tests.helpers import new_game

GAME = "tighee"


# ---------------------------------------------------------------------------- finding moments
def reach(seed: int, wanted: Any, seat: int = 0, **options: Any) -> State:
    """Random play (seeded) until `wanted(state)` holds on `seat`'s turn."""
    rng = random.Random(seed)
    state = new_game(GAME, **options)
    for _ in range(20_000):
        if state.is_terminal():
            state = new_game(GAME, **options)
        if state.current_player() == seat and wanted(state):
            return state
        state.apply_action(random_step(state, rng))
    raise AssertionError("no such moment found")


def texts(state: State) -> set[str]:
    return {state.action_to_string(a) for a in state.legal_actions()}


def hand_order(page: Page) -> list[str]:
    return page.eval_on_selector_all(
        "#game-root .tg-hand [data-move]", "els => els.map(el => el.dataset.move)")


def test_put_out_by_clicking_cards_in_a_hand_sorted_by_colour(page: Page) -> None:
    state = reach(1, lambda s: s.observation(0)["phase"] == "put out", players=4)
    table = EngineTable(page, state, seat=0)
    hand = state.observation(0)["hand"]
    assert hand_order(page) == [f"put out {name}" for name in hand]
    groups = page.eval_on_selector_all(
        "#game-root .tg-group", "els => els.map(el => el.getAttribute('aria-label'))")
    colours = ["Red", "Purple", "Blue", "Green", "Black"]
    present = [c for c in colours if any(name.startswith(c + " ") for name in hand)]
    assert groups == [f"{c} cards" for c in present]
    # Black cards are marked as such on top of their colour.
    blacks = [name for name in hand if name.startswith("Black")]
    assert page.locator("#game-root .tg-hand .tg-black").count() == len(blacks)
    table.click(f"put out {hand[0]}")
    table.show()
    assert state.observation(0)["put_out"] == [hand[0]]
    assert page.locator(f'#game-root .tg-out-cards [aria-label="{hand[0]}"]').count() == 1
    assert table.control(f"put out {hand[0]}").count() == 0
    assert "2 to go" in page.locator("#game-root .tg-hand-area > .tg-label .tg-hint").inner_text()


def test_a_card_that_does_not_follow_shows_the_rule(page: Page) -> None:
    def must_follow(state: State) -> bool:
        obs = state.observation(0)
        return obs["phase"] == "play" and obs["follow"] not in (None, "Black") and any(
            not name.startswith((obs["follow"], "Black")) for name in obs["hand"]
        ) and any(name.startswith(obs["follow"] + " ") for name in obs["hand"])

    state = reach(2, must_follow, players=4)
    table = EngineTable(page, state, seat=0)
    obs = state.observation(0)
    follow = obs["follow"]
    refused = [n for n in obs["hand"] if not n.startswith((follow, "Black"))]
    held = next(n for n in obs["hand"] if n.startswith(follow + " "))
    rule = f"you must follow {follow} or play a Black card: you hold {held}"
    assert table.reason_shown(f"play {refused[0]}") == rule
    # By keyboard: focusing a refused card (freshly drawn) gives the same reason.
    table.show()
    control = table.control(f"play {refused[-1]}")
    control.focus()
    page.wait_for_function("el => Boolean(el.dataset.reason)", arg=control.element_handle())
    assert control.get_attribute("data-reason") == rule
    assert f"play {held}" in table.enabled_moves()
    assert set(table.enabled_moves()) == texts(state)
    follow_chip = page.locator("#game-root .tg-follow").inner_text()
    assert follow in follow_chip
    # Enter on a focused card plays it.
    table.control(f"play {held}").focus()
    page.keyboard.press("Enter")
    assert page.evaluate("window.__moves.splice(0)") == [f"play {held}"]
    table.state.apply_action(table.state.string_to_action(f"play {held}"))
    played = state.observation(0)["trick"] or state.observation(0)["tricks"][-1]["cards"]
    assert held in str(played)


def test_a_black_card_in_the_trick_shows_what_it_counts_as(page: Page) -> None:
    def black_converted(state: State) -> bool:
        trick = state.observation(0)["trick"]
        return any(e["card"].startswith("Black") and e["counts_as"] != e["card"] for e in trick)

    state = reach(3, black_converted, players=4)
    EngineTable(page, state, seat=0)
    entry = next(e for e in state.observation(0)["trick"] if e["counts_as"] != e["card"])
    played = page.locator("#game-root .tg-trick .tg-played").filter(
        has=page.locator(f'[aria-label="{entry["card"]}"]'))
    text = " ".join(played.inner_text().split())
    colour, number = entry["counts_as"].split()
    assert f"= {colour} {number}" in text
    seat_name = "You" if entry["seat"] == 0 else f"Seat {entry['seat']}"
    assert seat_name in text


def test_won_piles_show_only_counts_tops_and_the_trick_just_ended(page: Page) -> None:
    state = reach(4, lambda s: len(s.observation(0)["tricks"]) >= 5, players=4)
    EngineTable(page, state, seat=0)
    obs = state.observation(0)
    last = obs["tricks"][-1]
    shown = page.locator("#game-root .tg-last").inner_text()
    assert f"Trick {last['trick']} went to" in shown
    # Every card on the table is accounted for: hand, put-out cards, Forest, trick, pile
    # tops and the trick just ended. None of the earlier tricks is drawn.
    expected = (len(obs["hand"]) + len(obs["put_out"]) + (obs["forest"] is not None)
                + len(obs["trick"]) + sum(top is not None for top in obs["pile_tops"])
                + 1 + len(last["cards"]))
    assert page.locator("#game-root .card").count() == expected
    for seat, won in enumerate(obs["tricks_won"]):
        panel = page.locator(f'#game-root .tg-seat[data-seat="{seat}"]')
        assert panel.locator(".tg-won").inner_text() == str(won)
        top = obs["pile_tops"][seat]
        if top is not None:
            assert panel.locator(f'.tg-pile [aria-label="{top}"]').count() == 1


def test_a_whole_short_game_through_the_page(page: Page) -> None:
    """Seat 0 plays every move of a 3-player short game by clicking enabled cards at random."""
    rng = random.Random(6)
    state = new_game(GAME, players=3, mode="short")
    table = EngineTable(page, state, seat=0)
    table.others_move(rng)
    table.show()
    moves = 0
    while not state.is_terminal():
        enabled = table.enabled_moves()
        # Exactly the legal moves are enabled: the view names every move and no other.
        assert sorted(enabled) == sorted(texts(state))
        table.click(rng.choice(enabled))
        moves += 1
        table.others_move(rng)
        table.show()
    assert moves == 3 * (3 + 10)  # three rounds: three cards put out, ten tricks
    winners = state.observation(0)["winners"]
    banner = page.locator("#game-root .tg-banner").inner_text()
    assert ("You" if winners[0] == 0 else f"Seat {winners[0]}") in banner
    assert page.locator("#game-root .tg-rounds tbody tr").count() == 3
    table.screenshot("end", "desktop")


def test_screenshots_at_both_sizes(
    new_page: Callable[..., Page], page: Page
) -> None:
    """Mid-trick with a Black card converted and a trick just ended; a 20-card put-out hand."""
    def busy(state: State) -> bool:
        obs = state.observation(0)
        return (len(obs["trick"]) >= 2 and bool(obs["tricks"]) and bool(obs["past_rounds"])
                and any(e["counts_as"] != e["card"] for e in obs["trick"]))

    state = reach(7, busy, players=4)
    table = EngineTable(page, state, seat=0)
    shots = []
    for size in SIZES:
        resize(page, size)
        table.show()
        shots.append(table.screenshot("trick", size))
        overflow = no_sideways_scroll(page)
        assert overflow <= 0, f"{size}: the page scrolls sideways by {overflow}px"
    big = reach(8, lambda s: s.observation(0)["phase"] == "put out", players=3)
    other = EngineTable(new_page(), big, seat=0)
    for size in SIZES:
        resize(other.page, size)
        other.show()
        shots.append(other.screenshot("put-out", size))
    spectator = EngineTable(new_page(), state, seat=None)
    assert spectator.page.locator("#game-root .tg-hand-area").count() == 0
    shots.append(spectator.screenshot("spectator", "desktop"))
    assert all(path.stat().st_size > 10_000 for path in shots)


# ---------------------------------------------------------------------------- the real page
def test_on_the_real_table_page_cards_are_put_out_and_played(server: str, page: Page) -> None:
    """Against two random bots on the real server: put out and play cards by clicking them,
    and hover a card that does not follow to get the server's reason."""
    _table, link = human_against_bots(server, GAME, 3, {"mode": "short"})
    open_table(page, link)
    rng = random.Random(21)
    refused = None
    for move in range(30):
        if wait_my_turn_or_end(page) != "you":
            break
        if move == 4:
            screenshots_at_both_sizes(page, "view-tighee-real")
        disabled = page.locator('#game-root .tg-hand [aria-disabled="true"]')
        if refused is None and disabled.count():
            refused = reason_shown(disabled.first)
            assert refused.startswith("you must follow "), refused
        choices = enabled_moves(page)
        assert choices and all(text.startswith(("put out ", "play ")) for text in choices)
        before = version(page)
        page.locator(f'#game-root [data-move="{rng.choice(choices)}"]').click()
        page.wait_for_function(
            "v => document.body.dataset.version !== String(v)"
            " || document.body.dataset.turn === 'over'", arg=before)
        if move == 2:  # the three put-out cards are out, face down in the Forest deck
            assert page.locator("#game-root .tg-out-cards .card").count() == 3
    assert refused is not None, "no card was ever refused in 30 moves"
