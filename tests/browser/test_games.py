"""Each game played whole through the page: a human seat against random bots, clicking
enabled controls at random until the end screen shows."""

from __future__ import annotations

import random

import pytest

from tests.browser.support import (
    SHORT,
    human_against_bots,
    open_table,
    play_to_end,
    screenshots_at_both_sizes,
)

# The move before which each game's screenshots are taken (a random Shady Lady can end early).
SHOT_AT = {"shady_lady": 1}
PLAYERS = {"doors": 2, "favor": 3, "hoard": 1, "labyrinth": 2, "shady_lady": 3, "tighee": 3,
           "traps": 3}


@pytest.mark.parametrize("game", sorted(SHORT))
def test_a_whole_game_through_the_page(server, page, game):
    # In Doors seat 1 is the first Guesser, the seat with the most to click.
    seat = 1 if game == "doors" else 0
    _table, link = human_against_bots(server, game, PLAYERS[game], SHORT[game], seat=seat)
    open_table(page, link)
    rng = random.Random(f"{game}-1")
    shot = []

    def on_turn(page, moves_so_far):
        # Doors: the Guesser's turn shows the most controls; the others: a few moves in.
        ready = (page.locator(".dr-declare").count() > 0 if game == "doors"
                 else moves_so_far == SHOT_AT.get(game, 3))
        if ready and not shot:
            shot.append(screenshots_at_both_sizes(page, f"{game}-table"))

    # Doors' random Guesser names a door at once; holding back makes a game worth seeing.
    avoid = {"avoid": ("guess", "claim"), "avoid_chance": 0.9} if game == "doors" else {}
    moves = play_to_end(page, rng, on_turn=on_turn, **avoid)
    assert shot, "no screenshot was taken"
    assert moves, "the human seat never moved"
    summary = page.locator(".end-summary")
    assert summary.is_visible()
    assert page.locator("#rematch-button").is_enabled()
    # Every hidden card, revealed: each seat's own view of the end. The click waits for the
    # seats' views to arrive: the re-render they cause, landing between the press and the
    # release of the click, would take the click away from the summary.
    page.locator('.end-summary[data-ready="1"]').wait_for()
    summary.locator(".reveal-seats > summary").click()
    summary.locator(".reveal-body .game-view").first.wait_for()
    screenshots_at_both_sizes(page, f"{game}-end")
