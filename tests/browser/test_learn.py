"""The guided first games, played through their page as a newcomer would: follow the coach,
click what is marked, try something else once and be told, reach the end; and where the
site offers them."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from ladytiger.lessons import frames, lesson_for
from tests.browser.support import screenshots_at_both_sizes


def frame(page: Page) -> int:
    return int(page.evaluate("() => document.body?.dataset.frame || '-1'"))


def test_the_guided_game_of_doors_is_played_to_the_end(server: str, page: Page) -> None:
    page.goto(server + "/learn/doors")
    page.wait_for_function("() => document.body?.dataset.frame === '0'")
    expect(page.locator("#coach-say")).to_contain_text("Collector")
    target = page.locator(".lesson-target")
    expect(target).to_have_count(1)
    assert target.get_attribute("data-move") == "take Blue Lady"
    screenshots_at_both_sizes(page, "learn-doors-start")
    # Another card of the display is not the lesson's move: the coach says so.
    other = page.locator('#game-root [data-move="take Red Lady"]')
    other.click(force=True)
    expect(page.locator("#coach-hint")).to_contain_text("take Blue Lady")
    assert frame(page) == 0, "a move the lesson does not ask for was played"
    played: list[str] = []
    shot_guesser = False
    for _ in range(60):
        if page.locator("#lesson-play").count():
            break
        current = frame(page)
        if page.locator(".lesson-target").count():
            move = page.locator(".lesson-target").get_attribute("data-move")
            if move.startswith("discard") and not shot_guesser:
                screenshots_at_both_sizes(page, "learn-doors-guesser")
                shot_guesser = True
            played.append(move)
            page.locator(".lesson-target").click()
        else:
            page.locator("#lesson-next").click()
        page.wait_for_function("(f) => Number(document.body?.dataset.frame) > f", arg=current)
    expect(page.locator("#lesson-play")).to_be_visible()
    assert played[0] == "take Blue Lady" and played[-1] == "guess Red Lady"
    assert {move.split()[0] for move in played} >= {"take", "discard", "end", "guess"}
    expect(page.locator("#players")).to_contain_text("11")
    screenshots_at_both_sizes(page, "learn-doors-end")
    expect(page.locator("#lesson-play")).to_have_text("Play Doors against a beginner bot")
    page.locator("#lesson-play").click()
    page.wait_for_url("**/?game=doors&bots=beginner#create")
    # The first real game is set up against the beginner level, the learner in seat 0.
    page.wait_for_function("() => document.body?.dataset.ready === '1'")
    expect(page.locator("#game-select")).to_have_value("doors")
    expect(page.locator("#seat-0")).to_have_value("human")
    expect(page.locator("#seat-1")).to_have_value("beginner")


def test_the_home_page_offers_the_guided_game(server: str, page: Page) -> None:
    page.goto(server + "/")
    link = page.locator('a[href="/learn/doors"]').first
    expect(link).to_be_visible()
    link.click()
    # Wait for the new page first: polled during the navigation, the old page may have no body.
    page.wait_for_url("**/learn/doors")
    page.wait_for_function("() => document.body?.dataset.frame === '0'")


def without_its_lesson(page: Page, game: str) -> None:
    """Make the server answer as it does for a game that has no guided game yet."""
    page.route(f"**/api/lessons/{game}", lambda route: route.fulfill(
        status=404, content_type="application/json",
        body='{"error": {"code": "not_found", "message": "no guided game"}}'))


def test_a_game_without_a_guided_game_says_so(server: str, page: Page) -> None:
    without_its_lesson(page, "tighee")
    page.goto(server + "/learn/tighee")
    expect(page.locator("#coach-say")).to_contain_text("Tighee has no guided game yet")
    expect(page.locator('#coach-actions a[href="/learn/doors"]')).to_be_visible()
    # It points to what a newcomer can do instead, and puts the empty table away.
    expect(page.locator('#coach-actions a[href="/rules/tighee"]')).to_contain_text("Tighee")
    expect(page.locator('#coach-actions a[href="/?game=tighee#create"]')).to_be_visible()
    expect(page.locator("#turn")).to_be_hidden()
    expect(page.locator(".log-panel")).to_be_hidden()
    expect(page.locator(".players-panel")).to_be_hidden()


def test_the_signpost_opens_the_create_form_on_its_game(server: str, page: Page) -> None:
    without_its_lesson(page, "hoard")
    page.goto(server + "/learn/hoard")
    page.locator('#coach-actions a[href="/?game=hoard#create"]').click()
    page.wait_for_function("() => document.body?.dataset.ready === '1'")
    expect(page.locator("#game-select")).to_have_value("hoard")


def test_an_unknown_game_is_named_as_unknown(server: str, page: Page) -> None:
    page.goto(server + "/learn/chess")
    expect(page.locator("#coach-say")).to_contain_text("no game called")
    expect(page.locator("#coach-say")).to_contain_text("Tighee and Traps have guided games")
    # Only the guided games are offered: no rules or table of a game that does not exist.
    expect(page.locator("#coach-actions a")).to_have_count(7)
    expect(page.locator('#coach-actions a[href="/learn/shady_lady"]')).to_be_visible()


def test_learn_alone_offers_every_guided_game(server: str, page: Page) -> None:
    page.goto(server + "/learn")
    expect(page.locator("#game-title")).to_have_text("Learn a game")
    expect(page.locator("#coach-say")).to_contain_text("Pick a game")
    expect(page.locator("#coach-actions a")).to_have_count(7)
    expect(page.locator("#rules-link")).to_have_attribute("href", "/rules")
    page.locator('#coach-actions a[href="/learn/favor"]').click()
    page.wait_for_function("() => document.body?.dataset.frame === '0'")


def play_lesson(page: Page, game: str, shoot_at: str) -> list[str]:
    """Follow the coach of /learn/<game> to the end: click each move it marks, press
    Continue otherwise; the moves played, in order."""
    played: list[str] = []
    for _ in range(80):
        if page.locator("#lesson-play").count():
            return played
        current = frame(page)
        target = page.locator(".lesson-target")
        if page.locator("#coach").get_attribute("data-expect"):
            # Every move the coach asks for is marked on the board, where it is played.
            expect(target).to_have_count(1)
            move = target.get_attribute("data-move")
            if move == shoot_at:
                shot = re.sub("[^A-Za-z0-9]+", "-", move)
                screenshots_at_both_sizes(page, f"learn-{game}-{shot}")
            played.append(move)
            target.click()
        else:
            page.locator("#lesson-next").click()
        page.wait_for_function("(f) => Number(document.body?.dataset.frame) > f", arg=current)
    raise AssertionError(f"the lesson of {game} did not end")


# Every guided game but Doors' (above): words the coach opens with, the move to photograph,
# the page's subtitle, names the players panel shows, and the button to a real game.
GUIDED = {
    "favor": ("Blue Tiger", "bid 3", "a guided game against a bot", ["You", "Bot"],
              "Play Favor against a beginner bot"),
    "hoard": ("solo puzzle", "put white Trash on Red Tiger and black Trash on Blue Tiger",
              "a guided solo game", ["You"], "Play Hoard for real"),
    "labyrinth": ("Red Tiger Door", "switch A2 D2 with Blue/Red", "a guided game against a bot",
                  ["You", "Bot"], "Play Labyrinth against a beginner bot"),
    "shady_lady": ("combination", "jack seat 1", "a guided game against a bot", ["You", "Bot"],
                   "Play Shady Lady against a beginner bot"),
    # Two bots at the table: the players panel and the coach tell them apart.
    "tighee": ("Forest", "play Black 6", "a guided game against 2 bots",
               ["You", "Bot 1", "Bot 2"], "Play Tighee against beginner bots"),
    "traps": ("goal", "bid 3", "a guided game against a bot", ["You", "Bot"],
              "Play Traps against a beginner bot"),
}


@pytest.mark.parametrize("game", sorted(GUIDED))
def test_each_guided_game_is_played_through_its_page(server: str, page: Page, game: str) -> None:
    opening, shoot_at, subtitle, names, play = GUIDED[game]
    lesson = lesson_for(game)
    assert lesson is not None
    page.goto(server + f"/learn/{game}")
    page.wait_for_function("() => document.body?.dataset.frame === '0'")
    expect(page.locator("#coach-say")).to_contain_text(opening)
    expect(page.locator("#table-meta")).to_have_text(subtitle)
    for name in names:
        expect(page.locator("#players")).to_contain_text(name)
    screenshots_at_both_sizes(page, f"learn-{game}-start")
    played = play_lesson(page, game, shoot_at)
    # Each move the engine's replay of the script expects, marked on the board and played.
    assert played == [f["expect"] for f in frames(lesson) if f["expect"]]
    expect(page.locator("#coach-say")).to_contain_text(" ".join(lesson.outro.split()[:6]))
    expect(page.locator("#lesson-play")).to_have_text(play)
    screenshots_at_both_sizes(page, f"learn-{game}-end")


def test_the_games_with_a_guided_game_offer_it(server: str, page: Page) -> None:
    page.goto(server + "/")
    page.wait_for_function("() => document.body?.dataset.ready === '1'")
    for game in ("doors", "favor", "hoard", "labyrinth", "shady_lady", "tighee", "traps"):
        expect(page.locator(f'#game-{game} a[href="/learn/{game}"]')).to_be_visible()
    page.goto(server + "/rules/shady_lady")
    expect(page.locator("#guide-learn")).to_have_attribute("href", "/learn/shady_lady")


def test_the_create_form_links_the_rules_of_the_game_chosen(server: str, page: Page) -> None:
    page.goto(server + "/")
    page.wait_for_function("() => document.body?.dataset.ready === '1'")
    page.locator('[data-play="traps"]').click()
    link = page.locator("#create-rules")
    expect(link).to_have_attribute("href", "/rules/traps")
    expect(link).to_contain_text("Traps")
