"""Players in the browser (docs/protocol.md, "Players"): a name without a sign-up form, seats
that belong to the player, "My games" one click from the seat, the personal link, names at
the table, the table's chat (escaped), the your-turn signal, ratings and leaderboards.

Screenshots go to the directory named by LADYTIGER_SCREENSHOTS, else to a pytest temporary
directory; never into the repository.
"""

from __future__ import annotations

import json
import os
import random
import re
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import live_server
from tests.browser.support import (
    click_random_move,
    create_table,
    http,
    wait_my_turn_or_end,
    wait_settled,
)

SIZES = ((1280, 800), (390, 844))
AT_TABLE = "() => ['you', 'other'].includes(document.body?.dataset.turn)"


# ---------------------------------------------------------------------------- helpers
@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[str]:
    """A server of this module's own. Every browser context here makes a player, and players
    count against the same per-address rate as new tables: on the shared server they would
    use up the allowance the other modules' tables need."""
    with live_server(tmp_path_factory.mktemp("players")) as base:
        yield base


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    wanted = os.environ.get("LADYTIGER_SCREENSHOTS")
    folder = Path(wanted) if wanted else tmp_path_factory.mktemp("player-screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def snap(page: Page, folder: Path, name: str, full_page: bool = False) -> list[Path]:
    """The page at 1280x800 and 390x844 (then back to its own size); no sideways scrolling."""
    original = page.viewport_size
    page.mouse.move(0, 0)
    page.evaluate("() => { document.activeElement?.blur(); window.scrollTo(0, 0); }")
    paths = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)
        path = folder / f"{name}-{width}x{height}.png"
        page.screenshot(path=str(path), full_page=full_page)
        paths.append(path)
        overflow = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 1, f"{name} is {overflow}px wider than a {width}px screen"
    if original:
        page.set_viewport_size(original)
    print("screenshots:", *paths)
    return paths


def home(page: Page, base: str) -> None:
    """Open the home page and wait until it knows the player and their games."""
    page.goto(base + "/")
    expect(page.locator("body")).to_have_attribute("data-mine", "1")


def rename(page: Page, name: str) -> None:
    """Rename through the top bar's menu."""
    page.locator("#identity-menu > summary").click()
    page.locator("#identity-rename").fill(name)
    page.locator("#identity-rename").press("Enter")
    expect(page.locator("#identity-name")).to_have_text(name)


def player_of(page: Page) -> dict:
    return page.evaluate("() => JSON.parse(localStorage.getItem('ladytiger.player'))")


def make_doors_table(page: Page, gems: int = 2) -> str:
    """Create a Doors table for two people on the home page; return its id (the page ends up
    in the creator's seat, waiting)."""
    page.locator('[data-play="doors"]').click()
    page.locator("#option-gems_to_win").fill(str(gems))
    page.locator("#seat-1").select_option("human")
    expect(page.locator('label[for="seat-1"]')).to_have_text("Seat 2")  # counted from 1
    page.locator("#create-button").click()
    page.wait_for_url(re.compile(r"/play/[^#]+#seat="))
    expect(page.locator(".waiting-room")).to_be_visible()
    return page.url.split("/play/")[1].split("#")[0]


def play_until(pages: list[Page], done: Callable[[], bool], rng: random.Random,
               max_moves: int = 200) -> None:
    """Whoever is to move clicks a random enabled move (holding back guesses and claims, so
    that the game lasts a little), until `done()`."""
    for _ in range(max_moves):
        if done():
            return
        for page in pages:
            page.wait_for_function(
                "() => ['you', 'other', 'over'].includes(document.body?.dataset.turn)"
                " && document.body?.dataset.pending !== '1'")
        movers = [p for p in pages if p.evaluate("() => document.body?.dataset.turn") == "you"]
        if not movers:
            if all(p.evaluate("() => document.body?.dataset.turn") == "over" for p in pages):
                return
            pages[0].wait_for_timeout(100)
            continue
        click_random_move(movers[0], rng, avoid=("guess", "claim"), avoid_chance=0.85)
    raise AssertionError("the condition never came")


# ---------------------------------------------------------------------------- the whole story
def test_two_players_their_names_my_games_the_lobby_and_the_personal_link(
        server, new_page, shots):
    rng = random.Random(7)
    host = new_page()
    home(host, server)
    # A player exists from the first visit, with a friendly name, shown in the top bar.
    made = player_of(host)
    assert re.fullmatch(r"[\w-]{43}", made["secret"])
    expect(host.locator("#identity-name")).to_have_text(made["name"])
    # A refused name is refused in the server's words.
    host.locator("#identity-menu > summary").click()
    host.locator("#identity-rename").fill("   ")
    host.locator("#identity-rename").press("Enter")
    expect(host.locator("#identity-problem")).to_contain_text("must not be empty")
    host.locator("#identity-menu > summary").click()
    rename(host, "Ana")
    assert player_of(host)["name"] == "Ana"

    table = make_doors_table(host)
    invite = host.locator("#invite-1").input_value()
    guest = new_page(390, 844)
    home(guest, server)
    rename(guest, "Bo <i>b</i>")  # markup in a name is a name, not markup
    guest.goto(invite)
    for page in (host, guest):
        page.wait_for_function(AT_TABLE)
    # Names replace "Seat N": the players panel, the turn pill, the log.
    expect(host.locator("#players")).to_contain_text("Bo <i>b</i>")
    expect(guest.locator("#players")).to_contain_text("Ana")
    # Players count seats from 1 (the protocol's seat 1 is the second seat).
    expect(guest.locator("#players")).to_contain_text("You · seat 2")
    expect(guest.locator('#players li[data-seat="1"] .avatar')).to_have_text("2")
    expect(host.locator('#players li[data-seat="0"] .avatar')).to_have_text("1")
    expect(host.locator("#table-meta")).to_contain_text("you are seat 1")
    assert host.locator("#players i").count() == 0
    expect(guest.locator("#turn")).to_have_text("Ana to move")
    expect(host.locator("#log")).to_contain_text("Bo <i>b</i> is dealt a Door card")
    expect(guest.locator("#log")).to_contain_text("Ana is dealt a Door card")
    assert "seat 0" not in guest.locator("#log").inner_text().replace("seat 0 (you)", "")

    # Play until it is the host's turn again after the guest moved, then the host leaves.
    play_until([host, guest], lambda: host.evaluate(
        "() => document.body?.dataset.turn === 'you'"
        " && Number(document.body?.dataset.version) > 2"),
        rng)
    host_context = host.context
    errors: list[str] = []
    host.close()

    # Back on the home page in a new tab: "My games" has the table, marked as their turn,
    # and the top bar counts it.
    back = new_tab(host_context, errors)
    home(back, server)
    row = back.locator(f'#my-games li[data-table="{table}"]')
    expect(row).to_have_class(re.compile(r"your-turn"))
    expect(row).to_contain_text("Your turn")
    expect(row).to_contain_text("Bo <i>b</i>")
    expect(back.locator("#my-games li.mygame").first).to_have_attribute("data-table", table)
    expect(back.locator("#turn-count")).to_contain_text("1")
    expect(back.locator("#my-turns")).to_have_text("1 game: your turn")
    snap(back, shots, "home-my-games")
    # One click, and the player is in their seat: no token in the address.
    row.get_by_role("link", name="Play").click()
    back.wait_for_url(re.compile(rf"/play/{table}$"))
    expect(back.locator("body")).to_have_attribute("data-seat", "0")
    expect(back.locator("body")).to_have_attribute("data-turn", "you")
    # At the table the top bar counts only the other games: none wait here.
    expect(back.locator("#turn-count")).to_be_hidden()
    # The tab says so even from the background: a title marker and a badge on the icon.
    assert back.title().startswith("● Your turn · Doors")
    expect(back.locator("body")).to_have_attribute("data-badge", "1")
    assert back.evaluate("() => document.querySelector('link[rel=icon]').href").startswith(
        "data:image/png")

    # The same from the lobby's list of games in play.
    home(back, server)
    lobby_row = back.locator(f'#lobby-playing li[data-table="{table}"]')
    lobby_row.get_by_role("link", name="Your seat").click()
    back.wait_for_url(re.compile(rf"/play/{table}$"))
    expect(back.locator("body")).to_have_attribute("data-seat", "0")
    wait_settled(back)

    # The personal link, opened in a third browser, is Ana there too.
    me = new_tab(host_context, errors)
    me.goto(server + "/me")
    expect(me.locator("body")).to_have_attribute("data-ready", "1")
    link = me.locator("#personal-link").input_value()
    assert link == f"{server}/me#player={made['secret']}"
    third = new_page()
    home(third, server)
    before = player_of(third)["name"]
    third.goto(link)
    expect(third.locator("body")).to_have_attribute("data-ready", "1")
    expect(third.locator("#me-title")).to_have_text("Ana")
    expect(third.locator("#me-notice")).to_contain_text("this browser now plays as you")
    expect(third.locator("#me-notice")).to_contain_text(f"it was {before}")
    assert "player=" not in third.url  # the secret is wiped from the address bar
    expect(third.locator("#identity-name")).to_have_text("Ana")
    expect(third.locator(f'#me-games li[data-table="{table}"]')).to_be_visible()
    third.goto(f"{server}/play/{table}")
    expect(third.locator("body")).to_have_attribute("data-seat", "0")
    # The player this browser was is not lost: /me offers to switch back.
    third.goto(f"{server}/me")
    third.locator("#switch-back").click()
    expect(third.locator("#me-title")).to_have_text(before)
    third.close()
    me.close()

    # Play to the end: the end screen names the players.
    play_until([back, guest], lambda: back.evaluate(
        "() => document.body?.dataset.turn === 'over'"), rng, max_moves=400)
    for page in (back, guest):
        page.locator(".end-summary").wait_for()
    expect(back.locator(".final-scores")).to_contain_text("Bo <i>b</i>")
    expect(back.locator(".final-scores")).to_contain_text("You")
    expect(guest.locator(".final-scores")).to_contain_text("Ana")
    headline = guest.locator("#end-title").inner_text()
    assert headline in ("You win!", "Ana wins"), headline
    expect(guest.locator("#leaderboard-link")).to_have_attribute("href", "/leaderboard/doors")
    snap(guest, shots, "table-end-names")

    # Ratings: both players are on the Doors leaderboard and on their own pages.
    guest.locator("#leaderboard-link").click()
    expect(guest.locator("body")).to_have_attribute("data-ready", "1")
    board = guest.locator("#board")
    expect(board).to_contain_text("Ana")
    expect(board).to_contain_text("Bo <i>b</i>")
    expect(guest.locator("#board tr.me")).to_contain_text("Bo <i>b</i>")
    # One game each, won by the headline's winner: 1 (100%) for them, 0 (0%) for the other.
    ana_won = headline == "Ana wins"
    ana_row = guest.locator("#board tr", has_text="Ana")
    expect(ana_row.locator("td.wins")).to_have_text("1 (100%)" if ana_won else "0 (0%)")
    expect(guest.locator("#board tr.me td.wins")).to_have_text(
        "0 (0%)" if ana_won else "1 (100%)")
    guest.locator("#board a", has_text="Ana").click()
    expect(guest.locator("body")).to_have_attribute("data-ready", "1")
    expect(guest.locator("#player-name")).to_have_text("Ana")
    expect(guest.locator('#ratings tr[data-game="doors"]')).to_be_visible()
    expect(guest.locator('#ratings tr[data-game="doors"] td.wins')).to_have_text(
        "1 (100%)" if ana_won else "0 (0%)")
    game = guest.locator(f'#games li[data-table="{table}"]')
    expect(game).to_contain_text("Doors")
    expect(game.get_by_role("link", name="Replay")).to_have_attribute("href", f"/replay/{table}")
    snap(guest, shots, "player-page", full_page=True)
    # The replay names the seats too, and starts from the reader's own seat.
    game.get_by_role("link", name="Replay").click()
    expect(guest.locator("body")).to_have_attribute("data-ready", "1")
    expect(guest.locator("#players")).to_contain_text("Ana")
    expect(guest.locator("#players")).to_contain_text("Bo <i>b</i>")
    expect(guest.locator("#viewer")).to_have_value("1")

    # My games lists it as finished, with its replay and a rematch.
    home(back, server)
    done = back.locator(f'#my-games li[data-table="{table}"][data-status="finished"]')
    expect(done).to_be_visible()
    expect(done.get_by_role("link", name="Replay")).to_be_visible()
    expect(done.get_by_role("button", name="Rematch")).to_be_visible()
    expect(done).to_contain_text(re.compile(r"You won|Another player won|Bo <i>b</i> won"))
    snap(back, shots, "home-my-games-finished")
    # The rematch, from My games: the same players in the same seats.
    done.get_by_role("button", name="Rematch").click()
    back.wait_for_url(re.compile(rf"/play/(?!{table})[\w-]+$"))
    expect(back.locator("body")).to_have_attribute("data-seat", "0")
    assert not errors, errors


def new_tab(context, errors: list[str]) -> Page:
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
    return page


# ---------------------------------------------------------------------------- chat
PAYLOADS = ["<img src=x onerror=alert(1)>", "<script>alert(2)</script>",
            "</li><b onmouseover=alert(3)>bold?</b> & &amp; \"quotes\""]


def test_chat_between_players_is_text_and_says_the_servers_refusals(server, new_page, shots):
    made = create_table(server, "doors", {"gems_to_win": 3},
                        [{"kind": "human"}, {"kind": "human"}])
    pages = [new_page(), new_page(390, 844)]
    dialogs: list[str] = []
    for seat, page in enumerate(pages):
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        page.goto(made["links"]["invites"][str(seat)])
    for page in pages:
        page.wait_for_function(AT_TABLE)
        expect(page.locator("#chat")).to_be_visible()
    rename_at_table = pages[0]
    rename(rename_at_table, "Cleo")
    # A new name reaches the other seat at once, through presence.
    expect(pages[1].locator("#players")).to_contain_text("Cleo")
    sender, reader = pages
    for text in PAYLOADS:
        sender.locator("#chat-input").fill(text)
        sender.locator("#chat-form button[type=submit]").click()
        for page in pages:
            expect(page.locator("#chat-list .chat-text").last).to_have_text(text)
    for page in pages:
        # The markup stayed text: no element was made of it, no script ran.
        made_of_markup = "#chat-list .chat-text *, #chat-list img, #chat-list script"
        assert page.locator(made_of_markup).count() == 0
        assert page.locator("#chat-list .chat-text").all_inner_texts() == PAYLOADS
    expect(reader.locator("#chat-list .chat-name").first).to_have_text("Cleo")
    expect(sender.locator("#chat-list .chat-line.mine")).to_have_count(len(PAYLOADS))
    # The reader answers; a reload keeps the conversation (welcome carries it).
    reader.locator("#chat-input").fill("hi Cleo")
    reader.locator("#chat-input").press("Enter")
    expect(sender.locator("#chat-list .chat-text").last).to_have_text("hi Cleo")
    reader.reload()
    reader.wait_for_function(AT_TABLE)
    expect(reader.locator("#chat-list .chat-text")).to_have_count(len(PAYLOADS) + 1)
    # Too fast: the server's own words, and the words stay in the box to send again.
    for i in range(4):
        sender.locator("#chat-input").fill(f"quick {i}")
        sender.locator("#chat-input").press("Enter")
    expect(sender.locator("#chat-problem")).to_contain_text("chatting too fast")
    expect(sender.locator("#chat-input")).not_to_have_value("")
    sender.wait_for_timeout(300)
    assert not dialogs
    snap(reader, shots, "table-names-chat", full_page=True)
    snap(sender, shots, "table-names-chat-sender", full_page=True)


def test_a_player_mutes_another_and_unmutes_them(server, new_page, shots):
    made = create_table(server, "doors", {"gems_to_win": 3},
                        [{"kind": "human"}, {"kind": "human"}])
    talker, reader = new_page(), new_page(390, 844)
    for seat, page in enumerate((talker, reader)):
        page.goto(made["links"]["invites"][str(seat)])
    for page in (talker, reader):
        page.wait_for_function(AT_TABLE)
    rename(talker, "Loud")

    def say(page: Page, text: str) -> None:
        page.locator("#chat-input").fill(text)
        page.locator("#chat-input").press("Enter")

    say(talker, "first")
    expect(reader.locator("#chat-list .chat-text")).to_have_text(["first"])
    # One's own lines offer no mute.
    expect(talker.locator("#chat-list .chat-mute")).to_have_count(0)
    snap(reader, shots, "chat-mute-offered")
    reader.locator("#chat-list .chat-line").first.get_by_role("button", name="Mute Loud").click()
    expect(reader.locator("#chat-list .chat-text")).to_have_count(0)
    expect(reader.locator("#chat-muted")).to_contain_text("You muted Loud: 1 line hidden.")
    # Later lines stay hidden too, and the reader's own still show; the talker sees it all.
    talker.wait_for_timeout(1100)  # the chat's rate limit
    say(talker, "second")
    expect(reader.locator("#chat-muted")).to_contain_text("2 lines hidden")
    say(reader, "hello?")
    expect(reader.locator("#chat-list .chat-text")).to_have_text(["hello?"])
    expect(talker.locator("#chat-list .chat-text")).to_have_text(["first", "second", "hello?"])
    # The mute is kept by this browser: a reload still hides the lines.
    reader.reload()
    reader.wait_for_function(AT_TABLE)
    expect(reader.locator("#chat-list .chat-text")).to_have_text(["hello?"])
    snap(reader, shots, "chat-muted")
    reader.get_by_role("button", name="Unmute Loud").click()
    expect(reader.locator("#chat-list .chat-text")).to_have_text(["first", "second", "hello?"])
    expect(reader.locator("#chat-muted")).to_be_hidden()
    # The player's own page lists whom they muted, and unmutes there too.
    reader.locator("#chat-list .chat-line").first.get_by_role("button", name="Mute Loud").click()
    reader.goto(server + "/me")
    expect(reader.locator("#me-muted-list li")).to_have_text(["Loud Unmute"])
    reader.get_by_role("button", name="Unmute Loud").click()
    expect(reader.locator("#me-muted")).to_be_hidden()
    reader.go_back()
    reader.wait_for_function(AT_TABLE)
    expect(reader.locator("#chat-list .chat-text")).to_have_text(["first", "second", "hello?"])


def test_the_create_form_sends_rated_chat_and_me_and_a_table_without_chat_hides_it(
        server, page):
    home(page, server)
    sent: list[dict] = []
    page.on("request", lambda request: sent.append(json.loads(request.post_data or "{}"))
            if request.method == "POST" and request.url.endswith("/api/tables") else None)
    page.locator('[data-play="doors"]').click()
    assert page.locator("#rated").is_checked() and page.locator("#table-chat").is_checked()
    page.locator("#rated").uncheck()
    page.locator("#table-chat").uncheck()
    page.locator(".pace-choice", has=page.locator("#pace-fast")).click()
    page.locator("#create-button").click()
    page.wait_for_url(re.compile(r"/play/[^#]+#seat="))
    assert sent and sent[0]["rated"] is False and sent[0]["chat"] is False
    assert sent[0]["me"] == 0
    wait_settled(page)
    expect(page.locator("body")).to_have_attribute("data-chat", "off")
    assert page.locator("#chat").is_hidden()
    table = page.url.split("/play/")[1].split("#")[0]
    info = http(server, "GET", f"/api/tables/{table}")["table"]
    me = player_of(page)
    assert info["rated"] is False and info["chat"] is False
    assert info["seats"][0]["player"]["id"] == me["id"]
    # Ticked (the default), neither field is sent.
    home(page, server)
    sent.clear()
    page.locator("#seat-1").select_option("human")
    page.locator("#create-button").click()
    page.wait_for_url(re.compile(r"/play/[^#]+#seat="))
    assert "rated" not in sent[0] and "chat" not in sent[0] and sent[0]["me"] == 0
    assert "clock" not in sent[0], "no limit (the default) sends no clock"
    waiting = page.url.split("/play/")[1].split("#")[0]
    expect(page.locator("#table-terms")).to_have_text("Rated game · No time limit")
    invite = page.locator("#invite-1").input_value()
    # My games keeps the waiting table's invite link, since this browser holds its token.
    home(page, server)
    row = page.locator(f'#my-games li[data-table="{waiting}"][data-status="waiting"]')
    expect(row).to_contain_text("waiting for 1 player")
    expect(row.locator(f"#my-invite-{waiting}-1")).to_have_value(invite)


def test_the_create_form_sets_a_move_clock_that_the_table_and_the_lobby_show(server, page):
    home(page, server)
    sent: list[dict] = []
    page.on("request", lambda request: sent.append(json.loads(request.post_data or "{}"))
            if request.method == "POST" and request.url.endswith("/api/tables") else None)
    page.locator('[data-play="doors"]').click()
    expect(page.locator("#clock-field")).to_be_visible()
    assert page.locator("#move-clock").input_value() == ""
    # A table of bots only has nobody to time.
    page.locator("#seat-0").select_option("casual")
    expect(page.locator("#clock-field")).to_be_hidden()
    page.locator("#seat-0").select_option("human")
    page.locator("#seat-1").select_option("human")
    page.locator("#open-seats").check()
    page.locator("#move-clock").select_option("60")
    page.locator("#create-button").click()
    page.wait_for_url(re.compile(r"/play/[^#]+#seat="))
    assert sent[0]["clock"] == {"seconds": 60, "bot": "casual"}
    table = page.url.split("/play/")[1].split("#")[0]
    clock = http(server, "GET", f"/api/tables/{table}")["table"]["clock"]
    assert clock["seconds"] == 60 and clock["bot"] == "casual"
    expect(page.locator("#table-meta")).to_contain_text("1 min a move")
    expect(page.locator("#table-terms")).to_have_text(
        "Rated game · 1 min a move (then a casual bot moves for whoever ran out)")
    # Whoever might take the open seat is told before joining.
    home(page, server)
    expect(page.locator(f'#lobby-waiting li[data-table="{table}"]')).to_contain_text(
        "1 min a move")


def test_without_a_player_the_table_still_works_with_its_seat_token(server, page):
    # The server may refuse a new player (too many from one address): the invite link alone
    # still holds the seat, as it did before players existed.
    page.route("**/api/players", lambda route: route.fulfill(
        status=429, content_type="application/json",
        body=json.dumps({"error": {"code": "rate_limited", "message": "slow down"}})))
    made = create_table(server, "doors", {"gems_to_win": 3},
                        [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    page.goto(made["links"]["invites"]["0"])
    assert wait_my_turn_or_end(page) == "you"
    expect(page.locator("body")).to_have_attribute("data-seat", "0")
    assert page.locator("#identity").is_hidden()
    assert player_of(page) is None


# ---------------------------------------------------------------------------- the signal
def test_your_turn_marks_the_tab_and_the_chime_is_off_until_asked(server, page):
    made = create_table(server, "doors", {"gems_to_win": 3},
                        [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    page.goto(made["links"]["invites"]["0"])
    assert wait_my_turn_or_end(page) == "you"
    expect(page.locator("body")).to_have_attribute("data-badge", "1")
    assert page.title() == "● Your turn · Doors · ladytiger"
    toggle = page.locator("#sound-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("() => localStorage.getItem('ladytiger.sound')") is None
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("() => localStorage.getItem('ladytiger.sound')") == "on"
    page.reload()
    wait_settled(page)
    expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "true")
    # Once the move is made, the marks follow the turn. The bot may answer at once, so the
    # turn and the marks are read together: the title is set with the turn, the badge's
    # icon is drawn a moment later.
    click_random_move(page, random.Random(1), avoid=("guess", "claim"), avoid_chance=1.0)
    turn, title = page.evaluate("() => [document.body?.dataset.turn, document.title]")
    assert turn in ("you", "other", "over")
    assert title.startswith("●") == (turn == "you")
    page.wait_for_function("() => document.body?.dataset.badge === "
                           "(document.body?.dataset.turn === 'you' ? '1' : '0')")


def test_at_a_table_the_top_bar_counts_the_other_games_and_leads_to_the_next(server, page):
    links = {}
    for _ in range(2):
        made = create_table(server, "doors", {"gems_to_win": 3},
                            [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
        links[made["table"]["id"]] = made["links"]["invites"]["0"]
    first, second = links
    for table in (first, second):
        page.goto(links[table])
        assert wait_my_turn_or_end(page) == "you"
    # Read again now that both wait for this player: this table's own turn is on the page,
    # the top bar names the other and leads to it.
    page.reload()
    wait_settled(page)
    chip = page.locator("#turn-count")
    expect(chip).to_have_text("1 other game: your turn")
    expect(chip).to_have_attribute("href", f"/play/{first}")
    chip.click()
    page.wait_for_url(re.compile(rf"/play/{first}$"))
    expect(page.locator("body")).to_have_attribute("data-turn", "you")
    expect(chip).to_have_attribute("href", f"/play/{second}")
    # Away from the tables it counts them all, and leads to the list.
    home(page, server)
    expect(chip).to_have_text("2 games: your turn")
    expect(chip).to_have_attribute("href", "/#my-games")


# ---------------------------------------------------------------------------- ratings
def test_a_rated_game_against_a_bot_puts_the_bot_on_the_leaderboard_marked_as_a_bot(
        server, new_page):
    page = new_page(390, 844)
    made = create_table(server, "doors", {"gems_to_win": 1},
                        [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    page.goto(made["links"]["invites"]["0"])
    rng = random.Random(3)
    while wait_my_turn_or_end(page) == "you":
        click_random_move(page, rng)
    page.locator(".end-summary").wait_for()
    # What the game did to each rating: under each score, and the reader's in words.
    note = page.locator(".end-summary .rated-note")
    expect(note).to_have_text(re.compile(r"^Your rating: 1000 → \d+ \([+−]\d+\)$"))
    expect(page.locator(".final-scores .rating-delta")).to_have_count(2)
    after = re.search(r"→ (\d+)", note.inner_text())
    assert after is not None
    # Each name carries its new rating (on a phone, at the end of the line under it).
    expect(page.locator('#players li[data-seat="0"] .rating-inline')).to_have_text(
        f" · {after.group(1)}")
    expect(page.locator('#players li[data-seat="0"] .rating-badge')).to_be_hidden()
    me = player_of(page)
    page.locator("#leaderboard-link").click()
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    bot = page.locator('#board tr[data-bot="1"]', has_text="Random bot")
    expect(bot).to_be_visible()
    expect(bot.locator(".tag.bot")).to_have_text("bot")
    mine = page.locator(f'#board tr[data-player="{me["id"]}"]')
    expect(mine).to_have_class(re.compile(r"\bme\b"))
    expect(mine.locator(".rating")).to_have_text(after.group(1))
    assert mine.locator(".tag.bot").count() == 0
    expect(page.locator('#game-tabs a[aria-current="page"]')).to_have_text("Doors")


def test_forget_me_on_this_device_and_a_bad_personal_link(server, page):
    page.goto(server + "/me")
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    first = player_of(page)
    expect(page.locator("#me-title")).to_have_text(first["name"])
    # Renaming on /me: a refusal in the server's words, then a good name.
    page.locator("#me-name").fill("x" * 24 + " ")
    page.locator("#me-rename button[type=submit]").click()
    expect(page.locator("#me-title")).to_have_text("x" * 24)
    page.locator("#forget-button").click()
    page.locator("#forget-yes").click()
    expect(page.locator("#me-gone")).to_be_visible()
    assert page.evaluate("() => localStorage.getItem('ladytiger.player')") is None
    assert page.evaluate("() => localStorage.getItem('ladytiger.tokens')") is None
    # A link with a secret no player has says so, and the address forgets it too.
    page.goto(server + "/me#player=" + "n" * 43)
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    expect(page.locator("#me-error")).to_contain_text("belongs to no player")
    assert "player=" not in page.url
    # The first visit of the next page makes a new player, not the forgotten one.
    assert player_of(page)["id"] != first["id"]


# ---------------------------------------------------------------------------- the pages
@pytest.mark.parametrize("path, script", [
    ("/me", "/static/js/me.js"),
    ("/players/p_nobody", "/static/js/player.js"),
    ("/leaderboard/doors", "/static/js/leaderboard.js"),
    ("/leaderboard", "/static/js/leaderboard.js"),
])
def test_the_player_pages_are_served_with_the_sites_headers(server, path, script):
    with urllib.request.urlopen(server + path, timeout=10) as answer:
        body = answer.read().decode()
        headers = answer.headers
    assert '<meta charset="utf-8">' in body and script in body
    assert "script-src 'self'" in headers["content-security-policy"]
    assert "img-src 'self' data:" in headers["content-security-policy"]
    assert headers["referrer-policy"] == "no-referrer"


def test_a_missing_player_and_a_missing_game_say_so(server, page):
    page.goto(server + "/players/p_nobody")
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    expect(page.locator("#player-error")).to_contain_text("no such player")
    page.goto(server + "/leaderboard/chess")
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    expect(page.locator("#board-title")).to_have_text("No such game")
    expect(page.locator("#game-tabs a")).to_have_count(7)
