"""Labyrinth's browser view (static/games/labyrinth.js) in real Chromium, on the real engine.

The bench (the frame's drawView and ctx over the engine in Python) is the one in
test_view_hoard.py.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Locator, Page

from ladytiger.core import CHANCE, State
from tests.browser.support import human_against_bots, open_table, version, wait_my_turn_or_end
from tests.browser.test_view_hoard import (
    SIZES,
    ViewBench,
    hover_reason,
    play_with_the_view,
    sized,
    wait_moved,
)
from tests.helpers import new_game, play

GAME = "labyrinth"

# The twelve Clue cards in the engine's placing order (B1, C1, A2, B2, C2, D2, A3, B3, C3,
# D3, B4, C4), so that the grid reads:
#        A           B           C           D
#   1  Red Lady D  Red Tiger   Blue Lady   Blue Lady D
#   2  Blue Lady   Red Lady    Blue Tiger  Red Tiger
#   3  Red Lady    Blue Tiger  Red Tiger   Blue Lady
#   4  Blue Tiger D Red Lady   Blue Tiger  Red Tiger D
GRID = [
    ("B1", "Red Tiger"), ("C1", "Blue Lady"), ("A2", "Blue Lady"), ("B2", "Red Lady"),
    ("C2", "Blue Tiger"), ("D2", "Red Tiger"), ("A3", "Red Lady"), ("B3", "Blue Tiger"),
    ("C3", "Red Tiger"), ("D3", "Blue Lady"), ("B4", "Red Lady"), ("C4", "Blue Tiger"),
]


def arranged(*then: str, **options: Any) -> State:
    state = new_game(GAME, **options)
    play(state, *(f"place {card} at {cell}" for cell, card in GRID))
    return play(state, *then)


def cell(page: Page, name: str) -> Locator:
    return page.locator(f'#game-root .lb-cell[data-cell="{name}"]')


def cubs(page: Page, name: str) -> str:
    """The cub counts on a card, stack by stack (each stack's top cub carries its count)."""
    return " ".join(cell(page, name).locator(".lb-stack").all_text_contents())


def test_click_a_cub_then_its_destination(page: Page) -> None:
    bench = ViewBench(page, GAME, arranged(), seat=0)
    bench.others_wait = True
    # All five red cubs stand on A1, so A1 is picked already and its neighbours are moves.
    assert "lb-selected" in (cell(page, "A1").get_attribute("class") or "")
    assert set(bench.enabled_moves()) == {
        "move red cub from A1 to A2", "move red cub from A1 to B1"}
    assert cell(page, "C3").get_attribute("data-move") is None
    assert bench.click(cell(page, "B1")) == "move red cub from A1 to B1"
    # No switch was possible (the cub stands on a Tiger, the gems lie on Blue and Lady), so
    # the turn passed: the red cub is on B1 and both gems moved.
    assert cubs(page, "A1") == "4"
    assert "yellow gem on Red" in page.locator(".lb-switches").inner_text()


def test_switch_two_cards_by_clicking_both(page: Page) -> None:
    bench = ViewBench(page, GAME, arranged("move red cub from A1 to A2"), seat=0)
    bench.others_wait = True
    assert "Now move the labyrinth" in page.locator(".lb-instruction").inner_text()
    # The Blue/Red card is chosen first; its legal switch is listed and glows on the grid.
    chosen = page.locator('.lb-switch[data-switch="Blue/Red"]')
    assert chosen.get_attribute("aria-pressed") == "true"
    assert "lb-switchable" in (cell(page, "C2").get_attribute("class") or "")
    cell(page, "A2").click()
    assert "Switch A2 with Blue/Red" in page.locator(".lb-instruction").inner_text()
    targets = page.locator("#game-root .lb-cell.lb-target")
    assert sorted(targets.nth(i).get_attribute("data-cell") for i in range(targets.count())) == [
        "A1", "A3", "A4", "B2", "C2", "D2"]
    assert bench.click(cell(page, "C2")) == "switch A2 C2 with Blue/Red"
    # The cards traded places and the red cub rode along to C2.
    assert cell(page, "C2").locator(".card").get_attribute("data-card") == "Blue Lady"
    assert cell(page, "A2").locator(".card").get_attribute("data-card") == "Blue Tiger"
    assert cubs(page, "C2") == "1"
    assert "Seat 1 (blue) is to move a cub" in page.locator(".lb-instruction").inner_text()


def test_a_switch_the_rules_forbid_says_why(page: Page) -> None:
    bench = ViewBench(page, GAME, arranged("move red cub from A1 to A2"), seat=0)
    cell(page, "A2").click()
    assert bench.reason(cell(page, "B2")) == (
        "the yellow gem is on Blue, so the Blue/Red card switches only two Blue cards; "
        "B2 is a Red Lady")
    assert bench.reason(cell(page, "A1")) == (
        "A1 is the Red Lady Door; Door cards cannot be switched")
    # Starting over: click the first card again.
    cell(page, "A2").click()
    assert page.locator("#game-root .lb-cell.lb-target").count() == 0


def test_the_other_switch_card_and_its_list_of_switches(page: Page) -> None:
    bench = ViewBench(page, GAME, arranged("move red cub from A1 to A2"), seat=0)
    bench.others_wait = True
    lady_tiger = page.locator('.lb-switch[data-switch="Lady/Tiger"]')
    lady_tiger.click()
    assert lady_tiger.get_attribute("aria-pressed") == "true"
    listed = page.locator(".lb-switch-wrap", has=lady_tiger).locator(".lb-switch-move")
    assert listed.all_inner_texts() == ["A2 \u21c4 B2", "A2 \u21c4 A3"]
    assert bench.click(listed.nth(1)) == "switch A2 A3 with Lady/Tiger"
    assert cell(page, "A3").locator(".card").get_attribute("data-card") == "Blue Lady"


def test_choosing_among_cubs_on_several_cards(page: Page) -> None:
    state = arranged("move red cub from A1 to A2", "switch A2 B2 with Lady/Tiger",
                     "move blue cub from D1 to D2", "switch C2 D2 with Lady/Tiger")
    bench = ViewBench(page, GAME, state, seat=0)
    # What the opponent just did is written and marked on the grid.
    assert page.locator(".lb-last").inner_text() == (
        "Last turn: Seat 1 moved a blue cub from D1 to D2 and switched C2 \u21c4 D2 "
        "with Lady/Tiger.")
    marked = page.locator("#game-root .lb-last-switched")
    assert [marked.nth(i).get_attribute("data-cell") for i in range(2)] == ["C2", "D2"]
    # Red cubs on A1 and B2: nothing is picked yet, and both cells can be picked. Their
    # arrows are the moves already, one to each neighbouring card.
    assert page.locator("#game-root .lb-cell.lb-selected").count() == 0
    assert page.locator("#game-root .lb-cell[data-move]").count() == 0
    assert sorted(bench.enabled_moves()) == [
        "move red cub from A1 to A2", "move red cub from A1 to B1",
        "move red cub from B2 to A2", "move red cub from B2 to B1",
        "move red cub from B2 to B3", "move red cub from B2 to C2"]
    own = page.locator("#game-root .lb-cell.lb-own")
    assert sorted(own.nth(i).get_attribute("data-cell") for i in range(own.count())) == ["A1", "B2"]
    cell(page, "B2").click()
    targets = page.locator("#game-root .lb-cell.move")
    assert sorted(targets.nth(i).get_attribute("data-move") for i in range(targets.count())) == [
        "move red cub from B2 to A2", "move red cub from B2 to B1",
        "move red cub from B2 to B3", "move red cub from B2 to C2"]
    # The keyboard picks too: Enter on the chosen cell lets it go again.
    cell(page, "B2").focus()
    page.keyboard.press("Enter")
    assert page.locator("#game-root .lb-cell.lb-selected").count() == 0


def test_while_the_other_player_moves_there_is_nothing_to_click(page: Page) -> None:
    state = arranged("move red cub from A1 to B1")
    ViewBench(page, GAME, state, seat=0)
    assert page.locator("#game-root [data-move]").count() == 0
    assert page.locator("#game-root .lb-selectable").count() == 0
    assert "Seat 1 (blue) is to move a cub" in page.locator(".lb-instruction").inner_text()
    assert "to move" in page.locator(".lb-player", has_text="Seat 1").inner_text()


def test_a_whole_game_is_played_through_the_view(page: Page) -> None:
    state = new_game(GAME, turn_cap=40)
    bench = ViewBench(page, GAME, state, seat=1, seed=3)
    bench.advance()
    bench.show()
    bench.play_out_through_page()
    assert state.is_terminal()
    assert len(bench.played) >= 19  # a move and usually a switch in each of 20 turns
    text = page.locator(".lb-instruction").inner_text()
    assert "wins" in text or "draw" in text
    bench.screenshot("labyrinth-view-end-desktop")


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("moment", ["move", "switch"])
def test_screenshots(new_page: Callable[..., Page], size: str, moment: str) -> None:
    sized_page = sized(new_page, size)
    then = ["move red cub from A1 to A2", "switch A2 B2 with Lady/Tiger",
            "move blue cub from D1 to D2", "switch C2 D2 with Lady/Tiger"]
    if moment == "switch":
        then.append("move red cub from B2 to B3")
    bench = ViewBench(sized_page, GAME, arranged(*then), seat=0)
    if moment == "move":
        cell(sized_page, "B2").click()
    else:
        cell(sized_page, "B3").click()
    width = sized_page.viewport_size["width"]
    overflow = sized_page.evaluate("document.documentElement.scrollWidth")
    assert overflow <= width, f"the page is {overflow}px wide in a {width}px window"
    path = bench.screenshot(f"labyrinth-view-{moment}-{sized_page.size_name}")  # type: ignore[attr-defined]
    assert path.stat().st_size > 10_000


def test_at_a_real_table_cubs_and_switches_are_played_on_the_grid(server, page: Page) -> None:
    _, link = human_against_bots(server, GAME, 2, {"turn_cap": 30}, seat=0)
    open_table(page, link)
    rng = random.Random(2)
    explained = switched = False
    for _ in range(16):
        if wait_my_turn_or_end(page) != "you" or (explained and switched):
            break
        if not page.locator("#game-root .lb-switch.lb-selectable").count():
            # Move a cub: click one of ours (unless it is picked already), then a neighbour.
            before = version(page)
            if not page.locator("#game-root .lb-cell.lb-selected").count():
                page.locator("#game-root .lb-cell.lb-own").first.click()
            targets = page.locator("#game-root .lb-cell.move")
            target = targets.nth(rng.randrange(targets.count()))
            text = target.get_attribute("data-move") or ""
            assert text.startswith("move red cub from ")
            target.click()
            wait_moved(page, before)
            # The log tells our move in our words: "You move a red cub from A1 to B1."
            assert f"You {text.replace('move red', 'move a red')}." in (
                page.locator("#log").inner_text())
            continue
        # Move the labyrinth. Picking a card that may be switched (the deal decides which)
        # and then the Door at A1 is refused with the engine's own reason.
        if not explained:
            first = page.locator("#game-root .lb-cell.lb-switchable").first
            picked = first.get_attribute("data-cell")
            first.click()
            door = page.locator('#game-root .lb-cell[data-cell="A1"]')
            assert hover_reason(page, door) == (
                "A1 is the Red Lady Door; Door cards cannot be switched")
            explained = True
            page.locator(f'#game-root .lb-cell[data-cell="{picked}"]').click()  # start over
        if not page.locator("#game-root .lb-switch-move.move").count():
            page.locator("#game-root .lb-switch:not(.lb-chosen)").click()
        assert play_with_the_view(page, rng).startswith("switch ")
        switched = True
    assert explained and switched


def test_the_board_offers_exactly_the_legal_moves(new_page: Callable[..., Page]) -> None:
    """With nothing picked, the enabled controls on the board are the legal moves, no more
    and no fewer, at every turn of random games, for either seat: the cub moves as arrows,
    the switches under their Switch card."""
    phases: dict[str, int] = {}
    for seat, seed in ((0, 1), (1, 2), (0, 7)):
        state = new_game(GAME, turn_cap=60)
        bench = ViewBench(new_page(), GAME, state, seat=seat, seed=seed)
        bench.advance()
        bench.show()
        for _ in range(25):
            if state.is_terminal():
                break
            assert set(bench.enabled_moves()) == bench.legal_texts()
            phase = state.observation(seat, with_log=False)["phase"]
            phases[phase] = phases.get(phase, 0) + 1
            bench.step_by_engine()
    assert set(phases) == {"move a cub", "move the labyrinth"}, phases


def test_an_arrow_on_a_cub_plays_its_step(page: Page) -> None:
    state = arranged("move red cub from A1 to A2", "switch A2 B2 with Lady/Tiger",
                     "move blue cub from D1 to D2", "switch C2 D2 with Lady/Tiger")
    bench = ViewBench(page, GAME, state, seat=0)
    bench.others_wait = True
    arrows = page.locator('#game-root .lb-spot[data-zone="cell-B2"] .lb-step')
    assert arrows.count() == 4
    assert bench.click(page.locator('.lb-spot[data-zone="cell-B2"] .lb-step-down')) == (
        "move red cub from B2 to B3")
    assert cubs(page, "B3") == "1"


def zones_of(keyed: dict[str, str | None], prefix: str) -> dict[str, str | None]:
    return {key: zone for key, zone in keyed.items() if key.startswith(prefix)}


def test_cubs_and_cards_keep_their_keys_through_steps_and_switches(page: Page) -> None:
    """The motion's keys: ten cubs and twelve Clue cards, each in its cell's zone. A step
    changes the zone of one cub, from its card to the next; a switch, of the two cards and
    of the cubs riding on them, and of nothing else."""
    state = new_game(GAME, turn_cap=80)
    rng = random.Random(9)
    while state.current_player() == CHANCE:
        outcomes = state.chance_outcomes()
        state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
    bench = ViewBench(page, GAME, state, seat=None, seed=9)
    switches = 0
    for _ in range(70):
        if state.is_terminal():
            break
        keyed = bench.keyed()
        cubs_before, cards_before = zones_of(keyed, "cub:"), zones_of(keyed, "card:")
        assert len(cubs_before) == 10 and len(cards_before) == 12
        grid = {square["cell"]: square
                for row in state.observation(None, with_log=False)["grid"] for square in row}
        for name, square in grid.items():
            riding = sum(zone == f"cell-{name}" for zone in cubs_before.values())
            assert riding == sum(square["cubs"].values())
        move = state.legal_actions()
        fields = state.describe_action(bench.rng.choice(move))
        text = fields["text"]
        state.apply_action(state.string_to_action(text))
        bench.show()
        keyed = bench.keyed()
        cubs_after, cards_after = zones_of(keyed, "cub:"), zones_of(keyed, "card:")
        moved_cubs = {key: (cubs_before[key], cubs_after[key])
                      for key in cubs_before if cubs_before[key] != cubs_after[key]}
        moved_cards = {key: (cards_before[key], cards_after[key])
                       for key in cards_before if cards_before[key] != cards_after[key]}
        if text.startswith("move"):
            assert list(moved_cubs.values()) == [
                (f"cell-{fields['from']}", f"cell-{fields['to']}")], text
            assert moved_cards == {}
        else:
            a, b = fields["cells"]
            pair = {f"cell-{a}", f"cell-{b}"}
            riders = sum(sum(grid[cell]["cubs"].values()) for cell in (a, b))
            assert len(moved_cubs) == riders, text
            assert all(set(move) == pair for move in moved_cubs.values())
            assert sorted(moved_cards.values()) == sorted(
                [(f"cell-{a}", f"cell-{b}"), (f"cell-{b}", f"cell-{a}")]), text
            switches += 1
    assert switches >= 5


def test_only_switchable_cards_are_highlighted_and_the_rest_say_why(page: Page) -> None:
    state = arranged("move red cub from A1 to A2")
    bench = ViewBench(page, GAME, state, seat=0)
    bench.others_wait = True
    legal = [state.describe_action(a) for a in state.legal_actions()]
    paired = {cell for move in legal if move["switch"] == "Blue/Red" for cell in move["cells"]}
    lit = page.locator("#game-root .lb-cell.lb-switchable")
    assert {lit.nth(i).get_attribute("data-cell") for i in range(lit.count())} == paired
    # A Door, a card of the wrong colour, and a Blue card with no cub on it or its partner.
    assert bench.reason(cell(page, "A1")) == (
        "A1 is the Red Lady Door; Door cards cannot be switched")
    assert bench.reason(cell(page, "B2")) == (
        "the yellow gem is on Blue, so the Blue/Red card switches only two Blue cards; "
        "B2 is a Red Lady")
    assert bench.reason(cell(page, "C1")) == (
        "neither C1 nor C2 carries a cub; at least one switched card must carry a cub")
    # Clicking one says it beside it (the frame's refusal; here, the bench's status line).
    cell(page, "B2").click(force=True)
    page.wait_for_function(
        "() => document.getElementById('bench-status').textContent.includes('B2 is a Red Lady')")
    # Every card the chosen Switch card cannot move answers so: none is a silent one.
    quiet = page.locator("#game-root .lb-cell.lb-unswitchable:not([data-move])")
    assert quiet.count() == 0


def test_a_card_with_no_partner_of_its_trait_is_explained_on_the_board(page: Page) -> None:
    # With the Lady/Tiger card (white gem on Lady), the Blue Lady at C1 has no other Lady in
    # its row or column but the Doors: no pair the engine could refuse for C1's sake exists,
    # so the view says what is missing, beside the grid.
    ViewBench(page, GAME, arranged("move red cub from A1 to A2"), seat=0)
    page.locator('.lb-switch[data-switch="Lady/Tiger"]').click()
    lonely = cell(page, "C1")
    assert lonely.get_attribute("data-move") is None
    assert "lb-unswitchable" in (lonely.get_attribute("class") or "")
    assert page.locator(".lb-note").count() == 0
    lonely.click()
    assert page.locator(".lb-note").inner_text() == (
        "C1 cannot be switched with the Lady/Tiger: no other Lady card lies in its row or "
        "column.")
    # Choosing another Switch card puts the note away.
    page.locator('.lb-switch[data-switch="Blue/Red"]').click()
    assert page.locator(".lb-note").count() == 0


def test_the_other_players_switch_flashes_on_the_grid(page: Page) -> None:
    state = arranged("move red cub from A1 to A2", "switch A2 B2 with Lady/Tiger")
    bench = ViewBench(page, GAME, state, seat=0)
    bench.forced = ["move blue cub from D1 to D2", "switch C2 D2 with Lady/Tiger"]
    bench.advance()
    bench.show()
    flashing = page.locator("#game-root .lb-cell.lb-flash")
    assert sorted(flashing.nth(i).get_attribute("data-cell") for i in range(2)) == ["C2", "D2"]
    assert flashing.count() == 2
    # After the flash the two cards stay marked, still, until the player's own next move.
    page.wait_for_function("() => !document.querySelector('#game-root .lb-flash')",
                           timeout=4000)
    marked = page.locator("#game-root .lb-cell.lb-last-switched")
    assert marked.count() == 2
    cell(page, "B2").click()  # a pick draws the grid again: it does not flash again
    assert page.locator("#game-root .lb-flash").count() == 0
    assert marked.count() == 2
    bench.others_wait = True
    bench.click(page.locator('.lb-spot[data-zone="cell-B2"] .lb-step-down'))
    assert marked.count() == 0


def test_both_players_distance_home_is_shown(page: Page) -> None:
    bench = ViewBench(page, GAME, arranged(), seat=0)
    bench.others_wait = True
    chips = page.locator("#game-root .lb-race-chip")
    # Five cubs, each six steps from its Tiger Door.
    assert "You: 30 steps" in chips.nth(0).inner_text()
    assert "Seat 1: 30 steps" in chips.nth(1).inner_text()
    bench.click(cell(page, "A2"))
    assert "You: 29 steps" in chips.nth(0).inner_text()
    assert "0/5 home" in chips.nth(1).inner_text()


@pytest.mark.parametrize("size", list(SIZES))
def test_screenshot_of_the_other_players_switch(new_page: Callable[..., Page], size: str
                                                ) -> None:
    sized_page = sized(new_page, size)
    state = arranged("move red cub from A1 to A2", "switch A2 B2 with Lady/Tiger",
                     "move blue cub from D1 to D2", "switch C2 D2 with Lady/Tiger",
                     "move red cub from B2 to B3", "switch B3 D3 with Blue/Red")
    bench = ViewBench(sized_page, GAME, state, seat=0)
    bench.forced = ["move blue cub from C2 to C3", "switch A3 C3 with Blue/Red"]
    bench.advance()
    bench.show()
    sized_page.wait_for_function("() => !document.querySelector('#game-root .lb-flash')",
                                 timeout=4000)
    overflow = sized_page.evaluate("document.documentElement.scrollWidth")
    assert overflow <= sized_page.viewport_size["width"]
    bench.screenshot(f"labyrinth-view-their-switch-{sized_page.size_name}")  # type: ignore[attr-defined]


def test_the_grid_is_drawn_while_it_is_laid_out(page: Page) -> None:
    # A replay shows every step, the setup's too: some cells have no card yet.
    state = play(new_game(GAME), *(f"place {card} at {at}" for at, card in GRID[:5]))
    bench = ViewBench(page, GAME, state, seat=None)
    keyed = bench.keyed()
    assert len(zones_of(keyed, "card:")) == 5
    assert len(zones_of(keyed, "cub:")) == 10
    assert "being laid out" in page.locator(".lb-instruction").inner_text()
