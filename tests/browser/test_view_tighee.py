"""Tighee's browser view (static/games/tighee.js) in Chromium, driven by the engine.

Moments found in seeded random games are shown through the stand-in table page of
test_view_favor.py (the frame's own binder, the engine in place of the server); the last tests
use the real server and page.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import pairwise
from typing import Any

from playwright.sync_api import Page

from ladytiger.core import State
from ladytiger.core.playout import random_step
from ladytiger.core.state import CHANCE

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
def reach(seed: int, wanted: Any, seat: int | None = 0, **options: Any) -> State:
    """Random play (seeded) until `wanted(state)` holds on `seat`'s turn (None: anyone's
    but chance's)."""
    rng = random.Random(seed)
    state = new_game(GAME, **options)
    for _ in range(20_000):
        if state.is_terminal():
            state = new_game(GAME, **options)
        mover = state.current_player()
        if (mover == seat or (seat is None and mover >= 0)) and wanted(state):
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
    # A long hand is laid out in two rows, which may split one colour between them.
    assert [g for i, g in enumerate(groups) if i == 0 or groups[i - 1] != g] == [
        f"{c} cards" for c in present]
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


def keyed(page: Page) -> list[dict[str, Any]]:
    """Every keyed thing of the view: its key, the zone it lies in and its data-from."""
    return page.eval_on_selector_all(
        "#game-root [data-key]",
        """els => els.map(el => ({key: el.dataset.key, from: el.dataset.from || null,
            zone: el.closest('[data-zone]')?.dataset.zone ?? null}))""")


def counts(page: Page) -> dict[str, int]:
    return dict(page.eval_on_selector_all(
        "#game-root [data-count-key]",
        "els => els.map(el => [el.dataset.countKey, Number(el.dataset.count)])"))


def chance_steps(state: State, rng: random.Random) -> None:
    """Only chance moves (the next Forest card turned up), none of a player."""
    while state.current_player() == CHANCE:
        state.apply_action(random_step(state, rng))


def test_every_card_shown_carries_its_key_and_its_place(page: Page) -> None:
    """The motion contract: hand, trick, Forest and pile tops keyed by card name, in zones."""
    def mid_trick(state: State) -> bool:
        obs = state.observation(0)
        return len(obs["trick"]) >= 2 and sum(t is not None for t in obs["pile_tops"]) >= 2

    state = reach(11, mid_trick, players=4)
    EngineTable(page, state, seat=0)
    obs = state.observation(0)
    things = keyed(page)
    keys = [thing["key"] for thing in things]
    assert len(keys) == len(set(keys)), "a key is used twice"
    where = {thing["key"]: thing for thing in things}
    for name in obs["hand"]:
        assert where[f"card:{name}"]["zone"] == "hand-0"
    for entry in obs["trick"]:
        thing = where[f"card:{entry['card']}"]
        assert thing["zone"] == "trick"
        # The others' cards come out of hands nobody sees: they fly from that seat's place.
        assert thing["from"] == (None if entry["seat"] == 0 else f"hand-{entry['seat']}")
        if entry["seat"]:
            assert page.locator(f'#game-root [data-zone="hand-{entry["seat"]}"]').count() == 1
    forest = where[f"card:{obs['forest']}"]
    assert forest["zone"] == "forest" and forest["from"] is None  # turned up before this trick
    tops = [(seat, top) for seat, top in enumerate(obs["pile_tops"]) if top is not None]
    for seat, top in tops:
        assert where[f"card:{top}"]["zone"] == f"won-{seat}"
    # Nothing else is keyed: the trick just ended is drawn as pictures (its cards are in a pile)
    # and the put-out cards are keyed only while cards are being put out.
    assert len(keys) == len(obs["hand"]) + len(obs["trick"]) + 1 + len(tops)
    numbers = counts(page)
    for seat in range(4):
        assert numbers[f"points:{seat}"] == obs["scores"][seat]
        assert numbers[f"tricks:{seat}"] == obs["tricks_won"][seat]


def test_a_gathered_trick_is_named_for_its_winners_pile(page: Page) -> None:
    """Seat 0 plays the last card of a trick: the next drawing names every card of it in the
    winner's pile (data-took), the old Forest card is that pile's top, and the new one comes
    off the Forest deck. Once the next trick starts, no pile claims to have just taken any."""
    rng = random.Random(13)
    state = reach(12, lambda s: len(s.observation(0)["trick"]) == 3
                  and s.observation(0)["hand"] and len(s.observation(0)["hand"]) > 1, players=4)
    table = EngineTable(page, state, seat=0)
    before = {thing["key"] for thing in keyed(page) if thing["zone"] == "trick"}
    forest = state.observation(0)["forest"]
    played = table.enabled_moves()[0]
    table.click(played)
    chance_steps(state, rng)
    table.show()
    obs = state.observation(0)
    last = obs["tricks"][-1]
    winner = last["winner"]
    took = page.locator("#game-root [data-took]")
    assert took.count() == 1
    assert took.get_attribute("data-zone") == f"won-{winner}"
    names = set(took.get_attribute("data-took").split("|"))
    assert names == {f"card:{name}" for _, name in last["cards"]}
    assert names == before | {f"card:{played.removeprefix('play ')}"}
    assert took.locator("[data-key]").get_attribute("data-key") == f"card:{forest}"
    new_forest = page.locator('#game-root [data-zone="forest"] [data-key]')
    assert new_forest.get_attribute("data-key") == f"card:{obs['forest']}"
    assert new_forest.get_attribute("data-from") == "deck"
    # The winner is named in the middle of the table and marked on their panel.
    who = "You" if winner == 0 else f"Seat {winner}"
    status = page.locator("#game-root .tg-gathered").inner_text()
    assert status.startswith(f"{who} take") and f"trick {last['trick']}" in status
    panel = page.locator(f'#game-root .tg-seat[data-seat="{winner}"]')
    assert "tg-took" in (panel.get_attribute("class") or "")
    assert f"took trick {last['trick']}" in panel.inner_text()
    # The winner leads; from then on the pile is a pile again.
    state.apply_action(random_step(state, rng))
    table.show()
    assert page.locator("#game-root [data-took]").count() == 0
    assert page.locator("#game-root .tg-took").count() == 0


def test_the_enabled_cards_are_the_legal_moves_at_random_positions(page: Page) -> None:
    """At positions of random games of each mode, the enabled controls on the board are
    exactly the legal moves (and none while another seat is to move)."""
    rng = random.Random(14)
    table = None
    for options in ({"players": 4}, {"players": 3}, {"players": 3, "mode": "short"}):
        state = new_game(GAME, **options)
        checked = 0
        while not state.is_terminal() and checked < 8:
            for _ in range(rng.randrange(1, 12)):
                if state.is_terminal():
                    break
                state.apply_action(random_step(state, rng))
            chance_steps(state, rng)
            if state.is_terminal():
                break
            if table is None:
                table = EngineTable(page, state, seat=0)
            table.state = state
            table.show()
            legal = texts(state) if state.current_player() == 0 else set()
            enabled = table.enabled_moves()
            assert sorted(enabled) == sorted(legal), (options, state.observation(0)["phase"])
            checked += 1
        assert checked >= 5


def test_a_long_hand_fits_two_rows_on_a_phone(new_page: Callable[..., Page]) -> None:
    """Twenty cards on a 390-pixel screen: two rows, colours in order, overlapping cards that
    each still show their number, and nothing wider than the screen."""
    state = reach(8, lambda s: s.observation(0)["phase"] == "put out"
                  and not s.observation(0)["put_out"], players=3)
    page = new_page(390, 844)
    EngineTable(page, state, seat=0)
    hand = state.observation(0)["hand"]
    assert len(hand) == 20
    boxes = page.eval_on_selector_all(
        "#game-root .tg-hand .card",
        "els => els.map(el => { const r = el.getBoundingClientRect();"
        " return {name: el.dataset.card, left: r.left, right: r.right, top: r.top}; })")
    # In colour order then by number, as the observation lists it.
    assert [box["name"] for box in boxes] == hand
    rows = sorted({round(box["top"]) for box in boxes})
    assert len(rows) == 2, rows
    area = page.locator("#game-root .tg-hand").bounding_box()
    assert area is not None
    for box in boxes:
        assert area["x"] - 1 <= box["left"] and box["right"] <= area["x"] + area["width"] + 1
    # Each card shows at least its left edge, where its number and symbol are.
    for this, following in pairwise(boxes):
        if round(this["top"]) == round(following["top"]):
            assert following["left"] - this["left"] >= 18, (this, following)
    assert no_sideways_scroll(page) <= 0


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
    """Mid-trick with a Black card converted and a trick just ended; a 20-card put-out hand;
    a trick just gathered into another player's pile."""
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
    # A trick just gathered by another player, who is about to lead the next one.
    gathered = reach(9, lambda s: (s.observation(0)["phase"] == "play"
                                   and not s.observation(0)["trick"]
                                   and len(s.observation(0)["tricks"]) >= 2
                                   and s.current_player() != 0), seat=None, players=4)
    moment = EngineTable(new_page(), gathered, seat=0)
    for size in SIZES:
        resize(moment.page, size)
        moment.show()
        assert moment.page.locator("#game-root [data-took]").count() == 1
        shots.append(moment.screenshot("gathered", size))
        assert no_sideways_scroll(moment.page) <= 0
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
            "v => document.body?.dataset.version !== String(v)"
            " || document.body?.dataset.turn === 'over'", arg=before)
        if move == 2:  # the three put-out cards are out, face down in the Forest deck
            assert page.locator("#game-root .tg-out-cards .card").count() == 3
    assert refused is not None, "no card was ever refused in 30 moves"


def test_the_log_counts_a_run_of_the_same_line_instead_of_repeating_it(server, page):
    from tests.browser.support import click_random_move

    _, link = human_against_bots(server, GAME, 3)
    open_table(page, link)
    rng = random.Random(2)
    # Every seat puts five cards out face down before the first trick.
    while "Trick 1" not in page.locator("#log").inner_text():
        assert wait_my_turn_or_end(page) == "you"
        click_random_move(page, rng)
    text = page.locator("#log").inner_text()
    for bot in ("Random bot A", "Random bot B"):
        assert f"{bot} puts out a card face down. ×5" in text, text
        assert text.count(f"{bot} puts out a card face down.") == 1
    # The player's own put-outs name five different cards: five lines.
    assert text.count("You put out") == 5
    assert page.locator("#log li", has_text="puts out a card face down").count() == 2
