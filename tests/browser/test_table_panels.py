"""The table page's side panels: the list of moves is folded away and offers exactly what the
board offers; each other player's last move is under their name; sound, once turned on,
plays at a reveal."""

from __future__ import annotations

import json
import random

import pytest
from playwright.sync_api import Page, expect

from tests.browser.support import (
    ENABLED,
    click_random_move,
    create_table,
    human_against_bots,
    open_table,
    screenshots_at_both_sizes,
    version,
    wait_my_turn_or_end,
)

BOARD = f"#game-root {ENABLED}"
LIST_BUTTONS = f"#move-list {ENABLED}"


def list_moves(page: Page) -> list[str]:
    """Every move the opened list offers: its buttons, and each value of a number choice."""
    return page.evaluate(
        """() => {
          const plain = '#move-list .move-group:not(.number-move) [data-move]';
          const moves = [...document.querySelectorAll(plain)].map((e) => e.dataset.move);
          for (const group of document.querySelectorAll('#move-list .number-move')) {
            for (const option of group.querySelectorAll('option')) {
              moves.push(`${group.dataset.verb} ${option.value}`);
            }
          }
          return moves;
        }""")


def watch_views(page: Page) -> dict[int, dict]:
    """Every view message the page receives, by version."""
    views: dict[int, dict] = {}

    def frame(payload: str | bytes) -> None:
        try:
            message = json.loads(payload)
        except ValueError:
            return
        if isinstance(message, dict) and message.get("type") == "view":
            views[message["version"]] = message

    page.on("websocket", lambda socket: socket.on("framereceived", frame))
    return views


def legal_texts(view: dict) -> list[str]:
    return [action["text"] for action in view.get("legal_actions", [])]


def board_moves(page: Page) -> list[str]:
    return page.evaluate(
        "(s) => [...document.querySelectorAll(s)].map((e) => e.dataset.move)", BOARD)


def test_the_list_of_moves_is_folded_and_offers_exactly_the_boards_moves(server, page):
    _table, link = human_against_bots(server, "traps", 3, {"max_seasons": 2})
    views = watch_views(page)
    open_table(page, link)
    rng = random.Random(5)
    checked = 0
    numbers = 0
    while wait_my_turn_or_end(page) == "you" and checked < 12:
        details = page.locator("#move-list-details")
        expect(details).to_be_visible()
        expect(page.locator("#move-list")).to_contain_text("play on the board")
        if not details.evaluate("(d) => d.open"):
            # Folded: none of its controls can be clicked by mistake.
            assert page.locator(LIST_BUTTONS).filter(visible=True).count() == 0
            page.locator("#move-list-details > summary").click()
        page.locator("#move-list .move-items").wait_for()
        legal = legal_texts(views[version(page)])
        assert sorted(list_moves(page)) == sorted(legal), "the list offers other moves"
        assert set(board_moves(page)) <= set(legal), "the board offers a move that is not legal"
        numbers += page.locator("#move-list .number-move").count()
        checked += 1
        # Fold it again so that the random clicks below land on the board only.
        page.locator("#move-list-details > summary").click()
        page.locator("#move-list .move-items").wait_for(state="detached")
        click_random_move(page, rng)
    assert checked >= 3
    assert numbers >= 1, "no turn offered a number choice (a bid)"


def test_each_other_players_last_move_is_under_their_name(server, page):
    # A long game: the end's own lines ("You win ...") would count as the reader's move.
    made = create_table(server, "doors", {"gems_to_win": 30},
                        [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    open_table(page, made["links"]["invites"]["0"])
    rng = random.Random(2)
    # The Collector (seat 0) takes a card; the bot then moves as the Guesser.
    assert wait_my_turn_or_end(page) == "you"
    click_random_move(page, rng)
    assert wait_my_turn_or_end(page) in ("you", "over")
    bot = page.locator('#players li[data-seat="1"] .player-last')
    expect(bot).to_be_visible()
    assert bot.inner_text().strip(), "the bot's last move is not named"
    expect(bot).to_have_class("player-last since")
    # The reader's own line carries no such note.
    assert page.locator('#players li[data-seat="0"] .player-last').count() == 0
    # A move that names another player (Shady Lady's "jack Casual bot B", Favor's "... to
    # Casual bot C, who called the auction") keeps the name inside the one line: the name
    # is marked up as namedText marks it, and the line keeps a single line's height.
    one_line = bot.bounding_box()["height"]
    bot.evaluate("""(line) => {
      line.textContent = "jacks ";
      const who = document.createElement("b");
      who.className = "who seat-colour-0-ink";
      who.textContent = "Someone with a long name";
      line.append(who, ", who had called the auction before anyone else");
    }""")
    assert bot.locator(".who").evaluate("(b) => getComputedStyle(b).display") == "inline"
    assert bot.bounding_box()["height"] == one_line


@pytest.mark.parametrize("sound", ["on", "off"])
def test_a_reveal_plays_its_notes_only_with_sound_on(server, page, sound):
    if sound == "on":
        page.add_init_script("localStorage.setItem('ladytiger.sound', 'on')")
    made = create_table(server, "doors", {"gems_to_win": 2},
                        [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    open_table(page, made["links"]["invites"]["0"])
    rng = random.Random(4)
    while wait_my_turn_or_end(page) == "you" and not page.locator("#moment").count():
        # The Guesser's declarations end a contest soon: a moment with its reveal.
        click_random_move(page, rng)
    page.locator("#moment").wait_for()
    played = int(page.evaluate("() => document.body?.dataset.revealSounds || '0'"))
    assert played >= 1 if sound == "on" else played == 0


@pytest.mark.parametrize(("game", "players"), [("doors", 2), ("traps", 3)])
def test_the_rules_of_the_moment_follow_the_phase_at_a_real_table(server, page, game, players):
    views = watch_views(page)
    _table, link = human_against_bots(server, game, players,
                                      {"gems_to_win": 20} if game == "doors" else {})
    open_table(page, link)
    button = page.locator("#rule-help-slot .rule-help-button")
    button.click()
    panel = page.locator(".rule-help-panel")
    expect(panel).to_be_visible()
    panel.locator(".rule-help-section").first.wait_for()
    screenshots_at_both_sizes(page, f"rule-help-{game}")
    rng = random.Random(7)
    seen: set[str] = set()
    for _ in range(30):
        if wait_my_turn_or_end(page) != "you" or len(seen) >= 2:
            break
        phase = views[version(page)]["observation"]["phase"]
        expect(panel).to_have_attribute("data-phase", phase)
        assert panel.locator(".rule-help-section").count() >= 1, f"nothing for {phase}"
        seen.add(phase)
        # Doors changes phase when a contest ends and the roles swap: guesses end contests.
        click_random_move(page, rng)
    assert len(seen) >= 2, f"only the phases {seen} were met"
    button.focus()
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
