"""The guided first game of Doors, played through its page as a newcomer would: follow the
coach, click what is marked, try something else once and be told, reach the end."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

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


def test_the_guided_game_of_shady_lady_is_played_to_the_end(server: str, page: Page) -> None:
    page.goto(server + "/learn/shady_lady")
    page.wait_for_function("() => document.body?.dataset.frame === '0'")
    expect(page.locator("#coach-say")).to_contain_text("combination")
    screenshots_at_both_sizes(page, "learn-shady-lady-start")
    played = play_lesson(page, "shady_lady", "jack seat 1")
    assert played[0] == "draw" and played[-1] == "try"
    assert {move.split()[0] for move in played} >= {"draw", "discard", "take", "try", "jack"}
    expect(page.locator("#players")).to_contain_text("3")
    screenshots_at_both_sizes(page, "learn-shady-lady-end")


def test_the_first_day_of_favor_is_played_to_its_scoring(server: str, page: Page) -> None:
    page.goto(server + "/learn/favor")
    page.wait_for_function("() => document.body?.dataset.frame === '0'")
    expect(page.locator("#coach-say")).to_contain_text("Blue Tiger")
    screenshots_at_both_sizes(page, "learn-favor-start")
    played = play_lesson(page, "favor", "bid 3")
    assert played[0] == "call auction" and played[-1] == "bid 4"
    assert {move.split()[0] for move in played} >= {"call", "bid", "pass", "add"}
    # The lesson stops after the first day: its scoring is shown, and the learner leads.
    expect(page.locator("#coach-say")).to_contain_text("day 1")
    expect(page.locator("#players")).to_contain_text("16")
    screenshots_at_both_sizes(page, "learn-favor-end")


def test_the_guided_game_of_traps_is_played_to_the_end(server: str, page: Page) -> None:
    page.goto(server + "/learn/traps")
    page.wait_for_function("() => document.body?.dataset.frame === '0'")
    expect(page.locator("#coach-say")).to_contain_text("goal")
    screenshots_at_both_sizes(page, "learn-traps-start")
    played = play_lesson(page, "traps", "bid 3")
    assert played[0] == "start stack with Blue Tiger" and played[-1] == "pass"
    assert {move.split()[0] for move in played} >= {"start", "build", "bid", "pass", "reveal"}
    expect(page.locator("#coach-say")).to_contain_text("you win")
    screenshots_at_both_sizes(page, "learn-traps-end")


def test_the_first_turns_of_labyrinth_are_played_to_a_cub_home(server: str, page: Page) -> None:
    page.goto(server + "/learn/labyrinth")
    page.wait_for_function("() => document.body?.dataset.frame === '0'")
    expect(page.locator("#coach-say")).to_contain_text("Red Tiger Door")
    played = play_lesson(page, "labyrinth", "switch A2 D2 with Blue/Red")
    assert played[0] == "move red cub from A1 to A2"
    assert played[-1] == "move red cub from C4 to D4"
    expect(page.locator("#coach-say")).to_contain_text("first cub is home")
    screenshots_at_both_sizes(page, "learn-labyrinth-end")


def test_the_first_cards_of_hoard_are_played(server: str, page: Page) -> None:
    page.goto(server + "/learn/hoard")
    page.wait_for_function("() => document.body?.dataset.frame === '0'")
    expect(page.locator("#coach-say")).to_contain_text("solo puzzle")
    expect(page.locator("#table-meta")).to_have_text("a guided solo game")
    wild = "put white Trash on Red Tiger and black Trash on Blue Tiger"
    played = play_lesson(page, "hoard", wild)
    assert played[0] == "remove pairs from Red Lady"
    assert played[-1] == "collect red Treasure from Red Tiger"
    expect(page.locator("#coach-say")).to_contain_text("Three Treasures")
    expect(page.locator("#lesson-play")).to_have_text("Play Hoard for real")
    screenshots_at_both_sizes(page, "learn-hoard-end")


def test_the_first_tricks_of_tighee_are_played(server: str, page: Page) -> None:
    page.goto(server + "/learn/tighee")
    page.wait_for_function("() => document.body?.dataset.frame === '0'")
    expect(page.locator("#coach-say")).to_contain_text("Forest")
    # Two bots at the table: the players and the coach tell them apart.
    expect(page.locator("#players")).to_contain_text("Bot 1")
    expect(page.locator("#players")).to_contain_text("Bot 2")
    expect(page.locator("#table-meta")).to_have_text("a guided game against 2 bots")
    played = play_lesson(page, "tighee", "play Black 6")
    assert played[:3] == ["put out Red 8", "put out Green 7", "put out Purple 4"]
    assert played[-1] == "play Black 6"
    expect(page.locator("#coach-say")).to_contain_text("first trick")
    expect(page.locator("#lesson-play")).to_have_text("Play Tighee against beginner bots")
    screenshots_at_both_sizes(page, "learn-tighee-end")


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
