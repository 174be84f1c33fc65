"""The Doors view (static/games/doors.js): at a real table, and on the view bench (the
frame's own drawing and binder over the engine in this process, tests/browser/
test_view_hoard.py) for positions arranged or reached at random."""

from __future__ import annotations

import random
import re
import time

import pytest
from playwright.sync_api import Page, expect

from ladytiger.core import CHANCE
from ladytiger.core.playout import random_step
from tests.browser.support import (
    create_table,
    http,
    open_table,
    screenshots_at_both_sizes,
    version,
    wait_my_turn_or_end,
)
from tests.browser.test_view_hoard import ViewBench
from tests.browser.test_view_traps import grammar_slips, show_as
from tests.helpers import legal_texts, new_game, play


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
        "(v) => document.body?.dataset.version !== String(v)"
        " && document.body?.dataset.pending !== '1'", arg=before)


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
    screenshots_at_both_sizes(page, "doors-guesser-mid-game")
    click_and_wait(page, end_turn)
    expect(page.locator("#log")).to_contain_text("You end your turn.")


def test_a_guess_ends_the_contest_and_the_result_is_shown(server, page):
    seat_against_bot(server, page, 1, gems=20)
    root = page.locator("#game-root")
    labels = root.locator(".dr-declare .dr-guess").all_inner_texts()
    assert [text.strip() for text in labels[:4]] == ["Red", "Blue", "Lady", "Tiger"]
    # Three Doors are moves; my own asks first, so it is no move by itself.
    mine = root.locator('.dr-door[data-seat="1"]').get_attribute("data-card")
    others = [f"guess {door}" for door in ("Red Lady", "Red Tiger", "Blue Lady", "Blue Tiger")
              if door != mine]
    assert root.locator(".dr-identities [data-move]").evaluate_all(
        "(buttons) => buttons.map((b) => b.dataset.move)") == others
    click_and_wait(page, root.locator('[data-move="guess Red"]'))
    # The result in the log's words, the seats by their names at the table.
    said = re.compile(
        r"Contest 1: You guessed Red, (right: you earn 1 gem|wrong: .+ earns 4 gems)\.")
    expect(root.locator(".dr-result")).to_contain_text(said)
    expect(root.locator(".dr-result")).not_to_contain_text("Seat 0")
    expect(root.locator(".dr-top .dr-chip").first).to_have_text("Contest 2")


def test_guessing_your_own_door_asks_first_then_is_wrong(server, page):
    seat_against_bot(server, page, 1, gems=20)
    root = page.locator("#game-root")
    mine = root.locator('.dr-door[data-seat="1"]').get_attribute("data-card")
    ask = root.locator(".dr-guess-own")
    expect(ask).to_contain_text(mine)
    assert ask.get_attribute("data-move") is None
    ask.click()
    box = root.locator(".dr-confirm")
    expect(box).to_contain_text(f"The {mine} is your own Door")
    expect(box).to_contain_text("always wrong")
    go = box.locator("[data-move]")
    expect(go).to_have_attribute("data-move", f"guess {mine}")
    expect(go).to_be_focused()
    # The box sits just under the Doors' row, where the question was asked.
    ask_box, confirm_box = ask.bounding_box(), box.bounding_box()
    assert ask_box and confirm_box and 0 <= confirm_box["y"] - ask_box["y"] < 200
    screenshots_at_both_sizes(page, "doors-own-door-confirm", full_page=True)
    box.get_by_role("button", name="Keep thinking").click()
    expect(box).to_have_count(0)
    expect(ask).to_be_focused()
    ask.click()
    click_and_wait(page, root.locator(".dr-confirm [data-move]"))
    expect(root.locator(".dr-result")).to_contain_text(
        re.compile(rf"Contest 1: You guessed {mine}, wrong: .+ earns 4 gems\."))


def bench_controls(bench: ViewBench) -> set[str]:
    """The moves the board offers now: its enabled controls, and the own-Door guess once its
    question is opened (then closed again)."""
    page = bench.page
    offered = set(bench.enabled_moves())
    ask = page.locator("#game-root .dr-guess-own")
    if ask.count():
        assert ask.get_attribute("data-move") is None
        ask.click()
        asked = set(bench.enabled_moves()) - offered
        assert len(asked) == 1, asked
        offered |= asked
        page.locator("#game-root .dr-cancel").click()
        assert set(bench.enabled_moves()) == offered - asked
    return offered


def test_the_board_offers_exactly_the_legal_moves(new_page) -> None:
    checked = 0
    for seed, seat in ((1, 0), (2, 1), (3, 0)):
        state = new_game("doors", gems_to_win=30)
        page = new_page()
        bench = ViewBench(page, "doors", state, seat=seat, seed=seed)
        bench.advance()
        bench.show()
        rng = random.Random(seed)
        for _ in range(30):
            if state.is_terminal():
                break
            assert bench_controls(bench) == set(legal_texts(state))
            checked += 1
            moves = page.locator("#game-root .move[data-move]")
            bench.click(moves.nth(rng.randrange(moves.count())))
    assert checked >= 40


def test_motion_keys_follow_the_cards(page: Page) -> None:
    state = play(new_game("doors"), "deal Red Tiger to seat 0", "deal Blue Lady to seat 1",
                 "reveal Red Lady", "reveal Red Tiger", "reveal Red Tiger", "reveal Blue Tiger")
    bench = ViewBench(page, "doors", state, seat=0)
    bench.forced = ["reveal Red Tiger"]
    bench.others_wait = True
    root = page.locator("#game-root")

    def keyed(selector: str) -> dict[str, str]:
        return dict(root.locator(f"{selector} [data-key]").evaluate_all(
            "(cards) => cards.map((c) => [c.dataset.key, c.dataset.card])"))

    display = keyed('[data-zone="display"]')
    assert display == {"card:Red Lady#0": "Red Lady", "card:Red Tiger#0": "Red Tiger",
                       "card:Red Tiger#1": "Red Tiger", "card:Blue Tiger#0": "Blue Tiger"}
    assert set(root.locator('[data-zone="display"] [data-key]').evaluate_all(
        "(cards) => cards.map((c) => c.dataset.from)")) == {"deck"}
    assert root.locator('[data-zone="deck"]').count() == 1
    # The Collector takes a Red Tiger and another is turned up: the card left behind keeps
    # its key, the new one has a key never seen, the taken one flies in from the display.
    bench.click(root.locator('[data-move="take Red Tiger"]').first)
    after = keyed('[data-zone="display"]')
    assert set(after) == {"card:Red Lady#0", "card:Red Tiger#1", "card:Red Tiger#2",
                          "card:Blue Tiger#0"}
    taken = root.locator('[data-zone="collection-0"] [data-key]')
    expect(taken).to_have_count(1)
    assert taken.get_attribute("data-key") == "card:Red Tiger#c0"
    assert taken.get_attribute("data-from") == "display"
    keys = root.locator("[data-key]").evaluate_all("(all) => all.map((e) => e.dataset.key)")
    assert len(keys) == len(set(keys)) and not any("|" in key for key in keys)
    gems = root.locator('[data-count-key="gems-0"]')
    assert gems.get_attribute("data-count") == "0"


def test_the_first_step_of_a_replay_speaks_of_no_door(page: Page) -> None:
    state = new_game("doors")
    assert state.current_player() == CHANCE
    ViewBench(page, "doors", state, seat=0)
    text = page.locator("#game-root").inner_text()
    assert "undefined" not in text
    assert "The Door cards are being dealt" in text
    assert "not dealt yet" in page.locator('#game-root .dr-seat[data-seat="0"]').inner_text()
    assert page.locator("#game-root .dr-goal").count() == 0


def test_the_replay_at_its_first_step_says_nothing_undefined(server, page):
    seats = [{"kind": "bot", "bot": "random"}] * 2
    table = create_table(server, "doors", {"gems_to_win": 1}, seats)["table"]["id"]
    deadline = time.monotonic() + 20
    while http(server, "GET", f"/api/tables/{table}")["table"]["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.2)
    for viewer in (0, 1):
        page.goto(f"{server}/replay/{table}?viewer={viewer}&step=0")
        page.wait_for_function("() => document.body?.dataset.ready === '1'")
        root = page.locator("#game-root")
        expect(root.locator(".dr-status")).to_have_text("The Door cards are being dealt…")
        assert "undefined" not in root.inner_text()


@pytest.mark.parametrize("seed", [31, 32])
def test_the_words_have_no_grammar_slips_anywhere(new_page, seed) -> None:
    # Doors' words at random positions, for each seat (its turn drawn before it is offered,
    # too) and a spectator: no "You takes", no doubled sentence or full stop.
    rng = random.Random(seed)
    state = new_game("doors", gems_to_win=12)
    bench = ViewBench(new_page(), "doors", state, seat=0)
    phases, ended, shown = set(), 0, 0
    while True:
        if state.is_terminal() or rng.random() < 0.35:
            bench.state = state
            phases.add(state.phase)
            ended = max(ended, len(state.past_contests))
            mover = state.current_player()
            for seat in (0, 1, None):
                for offered in (True, False) if seat == mover else (True,):
                    text = show_as(bench, seat, your_turn=None if offered else False)
                    assert not grammar_slips(text), (state.phase, seat, grammar_slips(text))
                    shown += 1
        if state.is_terminal():
            break
        state.apply_action(random_step(state, rng))
    assert len(phases) >= 3 and ended >= 2 and shown >= 40, (phases, ended, shown)
