"""Resigning in the browser: "Resign…" asks once more, saying what it does; "Keep playing"
takes it back; resigning ends the game for everyone, each told who won in words."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.support import create_table, screenshots_at_both_sizes, wait_settled


def test_resigning_asks_first_and_then_ends_the_game_for_both_players(server, new_page):
    made = create_table(server, "doors", {"gems_to_win": 3},
                        [{"kind": "human"}, {"kind": "human"}])
    links = made["links"]["invites"]
    host, guest = new_page(), new_page(390, 844)
    host.goto(links["0"])
    guest.goto(links["1"])
    for page in (host, guest):
        wait_settled(page)
    # Each player's name reaches the other with presence, a moment after the seat's hello.
    expect(guest.locator('#players li[data-seat="0"] .name')).not_to_have_text("Seat 0")
    expect(host.locator('#players li[data-seat="1"] .name')).not_to_have_text("Seat 1")
    host_name = guest.locator('#players li[data-seat="0"] .name').inner_text()
    guest_name = host.locator('#players li[data-seat="1"] .name').inner_text()
    # Asked once more, with what it does; taking it back leaves the game as it was.
    guest.click("#resign-button")
    ask = guest.locator(".resign-ask")
    expect(ask).to_contain_text("It ends at once for everyone, and the other player wins.")
    guest.get_by_role("button", name="Keep playing").click()
    expect(ask).to_have_count(0)
    expect(guest.locator("#resign-button")).to_be_visible()
    assert guest.evaluate("() => document.body.dataset.turn") != "over"
    # Now for real.
    guest.click("#resign-button")
    guest.click("#resign-confirm")
    expect(guest.locator(".resigned-notice h2")).to_have_text("You resigned")
    expect(guest.locator(".resigned-notice")).to_contain_text(f"{host_name} wins")
    expect(host.locator(".resigned-notice h2")).to_have_text(f"You win: {guest_name} resigned")
    for page in (host, guest):
        expect(page.locator("#resign")).to_be_empty()
        expect(page.locator("#game-root")).to_have_class("game-view game-doors game-root "
                                                         "table-closed")
        expect(page.locator('#players li[data-seat="0"]')).to_have_class("player winner"
                                                                         if page is guest
                                                                         else "player me winner")
        expect(page.locator(".to-move-mark")).to_have_count(0)
        expect(page.locator("#rematch-button")).to_be_visible()
    screenshots_at_both_sizes(host, "resigned")


def test_a_player_alone_with_bots_gives_up_as_a_loss(server, new_page):
    made = create_table(server, "favor", {"players": 3},
                        [{"kind": "human"}, {"kind": "bot", "bot": "casual"},
                         {"kind": "bot", "bot": "random"}])
    page = new_page()
    page.goto(made["links"]["invites"]["0"])
    wait_settled(page)
    page.click("#resign-button")
    expect(page.locator(".resign-ask")).to_contain_text("the other players share the win")
    page.click("#resign-confirm")
    notice = page.locator(".resigned-notice")
    expect(notice.locator("h2")).to_have_text("You resigned")
    expect(notice).to_contain_text("share the win: the game ends there, with no final scores.")
    expect(page.locator("#move-list")).to_have_text("The game is over.")


def test_the_maker_closes_a_waiting_table_and_the_player_who_sat_down_is_told(server,
                                                                              new_page):
    made = create_table(server, "favor", {"players": 3},
                        [{"kind": "human"}, {"kind": "human", "open": True},
                         {"kind": "human"}])
    host, guest = new_page(), new_page(390, 844)
    host.goto(made["links"]["invites"]["0"])
    guest.goto(f"{server}/play/{made['table']['id']}")
    guest.get_by_role("button", name="Take this seat").click()
    expect(guest.locator(".waiting-room li.me")).to_be_visible()
    # Who holds no other seat's link is told to wait (the maker's browser, holding them all,
    # is told to send them: tests/browser/test_table.py).
    expect(guest.locator(".waiting-room")).to_contain_text(
        "The others come by the links the table's maker sent them: this page turns into "
        "the game as soon as it starts.")
    # Only the maker's seat may close it; asking once more, and taking it back, changes nothing.
    expect(guest.locator("#close-button")).to_have_count(0)
    host.click("#close-button")
    expect(host.locator(".close-table")).to_contain_text(
        "nobody wins or loses; the invite links stop working and whoever has sat down is told.")
    host.get_by_role("button", name="Keep waiting").click()
    expect(host.locator("#close-confirm")).to_have_count(0)
    host.click("#close-button")
    expect(host.locator("#close-confirm")).to_be_focused()
    # Someone comes to watch: the waiting room is drawn again, and the focus stays put.
    watcher = new_page()
    watcher.goto(f"{server}/play/{made['table']['id']}")
    expect(host.locator("#watchers")).to_have_text("1 spectator watching")
    expect(host.locator("#close-confirm")).to_be_focused()
    host.click("#close-confirm")
    expect(host.locator(".abandoned-notice")).to_contain_text(
        "You closed this table before the game began. Nothing was dealt")
    expect(guest.locator('#players li[data-seat="0"] .name')).not_to_have_text("Seat 0")
    host_name = guest.locator('#players li[data-seat="0"] .name').inner_text()
    expect(guest.locator(".abandoned-notice")).to_contain_text(
        f"{host_name} closed this table before the game began.")
    for page in (host, guest):
        expect(page.locator("#turn")).to_have_text("Closed")
        expect(page.locator("#game-root")).to_be_empty()  # nothing was dealt: no board
        expect(page.locator(".waiting-room")).to_have_count(0)


def test_a_player_who_sat_down_from_the_lobby_gives_the_seat_back_and_may_take_it_again(
        server, new_page):
    made = create_table(server, "favor", {"players": 3},
                        [{"kind": "human"}, {"kind": "human", "open": True},
                         {"kind": "human"}])
    host, guest = new_page(), new_page(390, 844)
    host.goto(made["links"]["invites"]["0"])
    guest.goto(f"{server}/play/{made['table']['id']}")
    guest.get_by_role("button", name="Take this seat").click()
    expect(guest.locator(".waiting-room li.me")).to_contain_text("You took this seat from "
                                                                 "the lobby")
    # The maker's own seat came with the table: it is closed, not given back.
    expect(host.locator("#leave-seat")).to_have_count(0)
    guest.click("#leave-seat")
    expect(guest.locator("#statusline")).to_have_text(
        "You gave your seat back: you are watching now. Take an open seat to play.")
    expect(guest.locator(".waiting-room li.me")).to_have_count(0)
    expect(guest.locator("#table-meta")).to_have_text("watching")
    assert "#" not in guest.url
    seat = host.locator('.waiting-room li[data-seat="1"]')
    expect(seat).to_contain_text("open: listed in the lobby")
    # Read afresh, the page still only watches; the seat may be taken again.
    guest.reload()
    guest.get_by_role("button", name="Take this seat").click()
    expect(guest.locator(".waiting-room li.me")).to_have_attribute("data-seat", "1")
    expect(seat).to_contain_text("here")


def test_the_maker_starts_now_with_a_bot_and_the_player_who_came_goes_along(server, new_page):
    made = create_table(server, "favor", {"players": 3},
                        [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
    links = made["links"]["invites"]
    old = made["table"]["id"]
    host, guest = new_page(), new_page(390, 844)
    host.goto(links["0"])
    guest.goto(links["2"])
    expect(host.locator('.seat-list li[data-seat="2"]')).to_contain_text("here")
    # As with closing, any seat given out with the table may start it (the server cannot
    # tell the maker's seat from a friend's); the guest's own seat is not counted as empty.
    expect(guest.locator("#fill-button")).to_have_text("Start now with a bot in the empty seat")
    expect(host.locator("#fill-button")).to_have_text("Start now with a bot in the empty seat")
    screenshots_at_both_sizes(host, "fill-offered")
    host.locator("#fill-level").select_option("beginner")
    host.locator("#fill-button").click()
    for page in (host, guest):
        page.wait_for_url(lambda url: old not in url)
        expect(page.locator("body")).to_have_attribute("data-turn", re.compile("you|other"))
    new = host.url.split("/play/")[1].split("#")[0]
    assert new in guest.url and host.locator("body").get_attribute("data-seat") == "0"
    expect(guest.locator("body")).to_have_attribute("data-seat", "2")
    expect(guest.locator('#players li[data-seat="1"]')).to_contain_text("beginner bot")
    # The friend who never came opens the old link: the game went on without them.
    late = new_page()
    late.goto(links["1"])
    notice = late.locator(".abandoned-notice")
    expect(notice.locator("h2")).to_have_text("The game went on at a new table")
    expect(notice).to_contain_text("started the game with bots in the empty seats")
    screenshots_at_both_sizes(late, "fill-late")
    late.locator("#restarted-link").click()
    expect(late.locator("body")).to_have_attribute("data-seat", "spectator")


def test_the_maker_opens_the_absent_friends_seat_and_a_stranger_takes_it(server, new_page):
    made = create_table(server, "doors", {},
                        [{"kind": "human"}, {"kind": "human"}])
    links = made["links"]["invites"]
    old = made["table"]["id"]
    host = new_page()
    host.goto(links["0"])
    opener = host.locator("#open-seats-button")
    expect(opener).to_have_text("Open the invited seat to anyone")
    screenshots_at_both_sizes(host, "open-offered")
    opener.click()
    host.wait_for_url(lambda url: old not in url)
    new = host.url.split("/play/")[1].split("#")[0]
    expect(host.locator('.waiting-room li[data-seat="1"]')).to_contain_text(
        "open: listed in the lobby")
    expect(host.locator("body")).to_have_attribute("data-seat", "0")
    # The friend's old link holds nothing now, and says where the table went.
    late = new_page(390, 844)
    late.goto(links["1"])
    notice = late.locator(".abandoned-notice")
    expect(notice.locator("h2")).to_have_text("This table moved to a new address")
    expect(notice).to_contain_text("opened the empty seats to anyone in the lobby")
    # Nothing was dealt there: no moves or story panels, and the late reader is not named.
    expect(late.locator(".moves-panel")).to_be_hidden()
    expect(late.locator(".log-panel")).to_be_hidden()
    expect(late.locator("#chat")).to_be_hidden()
    expect(late.locator('#players li[data-seat="1"] .name')).to_have_text("Seat 2")
    expect(late.locator("body")).to_have_attribute("data-seat", "spectator")
    expect(late.locator("#players")).not_to_contain_text("You")
    expect(late.locator("#players .score").first).to_be_hidden()
    screenshots_at_both_sizes(late, "open-late")
    late.locator("#restarted-link").click()
    late.wait_for_url(lambda url: new in url)
    # There the seat is free for anyone, the friend included; taking it starts the game.
    late.get_by_role("button", name="Take this seat").click()
    for page in (host, late):
        expect(page.locator("body")).to_have_attribute("data-turn", re.compile("you|other"))
    expect(late.locator("body")).to_have_attribute("data-seat", "1")
