"""The table page with people at it: two browsers at one table, hidden cards, reloads,
the waiting room, the lobby, reasons for disabled controls, keyboard play and rematches."""

from __future__ import annotations

import json
import random
import re

import httpx
from playwright.sync_api import Page, expect

from tests.browser.support import (
    ENABLED,
    click_random_move,
    create_table,
    human_against_bots,
    open_table,
    page_text,
    play_to_end,
    screenshot,
    screenshots_at_both_sizes,
    turn,
    version,
    wait_my_turn_or_end,
    wait_settled,
)


def wait_version(page: Page, at_least: int) -> None:
    page.wait_for_function(
        "(v) => Number(document.body?.dataset.version || 0) >= v"
        " && document.body?.dataset.pending !== '1'", arg=at_least)


def play_each_other(pages: dict[int, Page], rng: random.Random, check, max_moves: int = 300,
                    **avoid) -> int:
    """Two seats' pages play each other by random clicks; `check(pages)` runs whenever both
    show the same position. Returns the number of moves played."""
    moves = 0
    for page in pages.values():
        wait_settled(page)
    while True:
        turns = {seat: page.evaluate("() => document.body?.dataset.turn")
                 for seat, page in pages.items()}
        if all(t == "over" for t in turns.values()):
            return moves
        movers = [seat for seat, t in turns.items() if t == "you"]
        if not movers:
            for page in pages.values():
                page.wait_for_function(
                    "() => ['you', 'over', 'other'].includes(document.body?.dataset.turn)")
            continue
        click_random_move(pages[movers[0]], rng, **avoid)
        moves += 1
        assert moves <= max_moves
        target = version(pages[movers[0]])
        for page in pages.values():
            wait_version(page, target)
        if all(version(page) == target for page in pages.values()):
            check(pages)


# ---------------------------------------------------------------------------- hidden cards
def test_two_browsers_at_doors_each_see_only_their_own_door(server, new_page):
    made = create_table(server, "doors", {"gems_to_win": 4},
                        [{"kind": "human"}, {"kind": "human"}])
    pages = {seat: new_page() for seat in (0, 1)}
    for seat, page in pages.items():
        page.goto(made["links"]["invites"][str(seat)])
    seen_contests = set()

    def check(pages):
        doors = {}
        for seat, page in pages.items():
            if page.evaluate("() => document.body?.dataset.turn") == "over":
                return
            door = page.locator(f'#game-root .dr-door[data-seat="{seat}"]')
            doors[seat] = door.get_attribute("data-card")
            assert doors[seat], f"seat {seat} does not see its own door"
        for seat, page in pages.items():
            other = 1 - seat
            secret = doors[other]
            # The other's door is face down: no card name on it, and the deal is not in words.
            assert page.locator(f'#game-root .dr-door[data-seat="{other}"]').get_attribute(
                "data-card") is None
            assert page.locator(f'#game-root .dr-door[data-seat="{other}"].card-back').count() == 1
            # Only one's own Door is ever dealt in words ("you are dealt the Red Tiger Door");
            # another seat "is dealt a Door card".
            assert f"is dealt the {secret} Door" not in page_text(page)
            assert f"is dealt the {secret} Door" not in page.content()
            assert f"you are dealt the {doors[seat]} Door" in page_text(page)
        seen_contests.add(pages[0].locator("#game-root .dr-top .dr-chip").first.inner_text())

    moves = play_each_other(pages, random.Random(11), check, avoid=("guess", "claim"),
                            avoid_chance=0.9)
    assert moves > 2 and seen_contests
    for page in pages.values():
        expect(page.locator(".end-summary")).to_be_visible()
        # At the end both doors of the last contest are face up for everyone.
        for door in (0, 1):
            face = page.locator(f'#game-root .dr-door[data-seat="{door}"]')
            assert face.get_attribute("data-card")


def test_two_browsers_at_shady_lady_each_see_only_their_own_hand(server, new_page):
    made = create_table(server, "shady_lady", {"turn_limit": 15},
                        [{"kind": "human"}, {"kind": "human"}])
    pages = {seat: new_page() for seat in (0, 1)}
    for seat, page in pages.items():
        page.goto(made["links"]["invites"][str(seat)])
    checked = []

    def hand_values(page, seat, own):
        selector = ".sl-my-hand [data-card]" if own else (
            f'.sl-seat[data-seat="{seat}"] .sl-other-hand [data-card]')
        return sorted(int(v) for v in page.locator(selector).evaluate_all(
            "(cards) => cards.map((c) => c.dataset.card)"))

    def check(pages):
        if any(p.evaluate("() => document.body?.dataset.turn") == "over" for p in pages.values()):
            return
        for seat, page in pages.items():
            other = 1 - seat
            truth = hand_values(pages[other], other, own=True)
            shown = hand_values(page, other, own=False)
            backs = page.locator(f'.sl-seat[data-seat="{other}"] .sl-other-hand .card-back').count()
            # Only cards everyone saw (taken from a pile, revealed) are face up; the rest are
            # backs, and the face-up ones really are in that hand.
            assert len(shown) + backs == len(truth)
            remaining = list(truth)
            for value in shown:
                assert value in remaining, f"seat {seat} is shown a {value} seat {other} lacks"
                remaining.remove(value)
            # The other seat's draws are never named.
            assert not re.search(rf"seat {other} draws \d", page_text(page))
            assert not re.search(rf"Seat {other}\s+draws \d", page_text(page))
        checked.append(True)

    play_each_other(pages, random.Random(5), check)
    assert checked
    for page in pages.values():
        expect(page.locator(".end-summary")).to_be_visible()


def test_a_spectator_sees_no_hidden_card_and_has_no_moves(server, page):
    made = create_table(server, "doors", {"gems_to_win": 3},
                        [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    page.goto(made["links"]["spectate"])
    expect(page.locator("#turn")).to_have_text("Waiting for players")
    assert page.locator("body").get_attribute("data-seat") == "spectator"
    # The seat holder arrives: the game starts and the spectator sees it.
    player = page.context.browser.new_context().new_page()
    player.goto(made["links"]["invites"]["0"])
    page.wait_for_function("() => ['you', 'other'].includes(document.body?.dataset.turn)")
    assert page.locator(".dr-door.card-back").count() == 2
    assert page.locator(ENABLED).count() == 0
    expect(page.locator("#move-list")).to_contain_text("You are watching")
    player.context.close()


# ---------------------------------------------------------------------------- reload
def test_reload_mid_game_comes_back_to_the_same_state(server, page):
    _table, link = human_against_bots(server, "tighee", 3)
    open_table(page, link)
    rng = random.Random(3)
    for _ in range(7):
        assert wait_my_turn_or_end(page) == "you"
        click_random_move(page, rng)
    wait_my_turn_or_end(page)
    before = {
        "version": version(page),
        "board": page.locator("#game-root").inner_text(),
        "log": page.locator("#log").inner_text(),
        "moves": page.locator("#move-list").inner_text(),
        "players": page.locator("#players").inner_text(),
    }
    page.reload()
    wait_settled(page)
    page.wait_for_function("(v) => document.body?.dataset.version === String(v)",
                           arg=before["version"])
    assert page.url.endswith(link.split("/play/")[1])  # the token stayed in the fragment
    after = {
        "version": version(page),
        "board": page.locator("#game-root").inner_text(),
        "log": page.locator("#log").inner_text(),
        "moves": page.locator("#move-list").inner_text(),
        "players": page.locator("#players").inner_text(),
    }
    assert after == before
    play_to_end(page, rng)


# ---------------------------------------------------------------------------- reasons
def test_a_disabled_control_shows_the_engines_reason(server, page):
    # Seat 1 is the first Guesser: ending the turn before discarding is against the rules.
    made = create_table(server, "doors", {"gems_to_win": 3},
                        [{"kind": "bot", "bot": "random"}, {"kind": "human"}])
    open_table(page, made["links"]["invites"]["1"])
    assert wait_my_turn_or_end(page) == "you"
    end_turn = page.locator('.dr-declare [data-move="end turn"]')
    expect(end_turn).to_have_attribute("aria-disabled", "true")
    # Hovering only explains in the tooltip; a click says why beside the control (once the
    # position has settled: a click just as the board changes is taken for a slip).
    page.wait_for_timeout(500)
    end_turn.hover()
    reason = "the Guesser must discard a card from the display before ending the turn"
    expect(end_turn).to_have_attribute("title", re.compile(reason))
    end_turn.click(force=True)  # an aria-disabled control still answers a click
    expect(page.locator("#refusal")).to_contain_text(reason)
    # A key press asks too, and a legal control carries no reason.
    page.mouse.move(0, 0)
    claim = page.locator('.dr-declare [data-move="claim set"]')
    claim.focus()
    claim.press("Enter")
    expect(page.locator("#refusal")).to_contain_text("the Collector's cards hold no set")
    assert page.locator('.dr-declare [data-move="guess Red"]').get_attribute(
        "aria-disabled") is None


# ---------------------------------------------------------------------------- keyboard
def test_a_game_played_with_the_keyboard_alone(server, page):
    _table, link = human_against_bots(server, "doors", 2, {"gems_to_win": 2})
    open_table(page, link)
    moves = 0
    while wait_my_turn_or_end(page) == "you":
        # Tab from the top of the page until an enabled move control has the focus.
        page.locator("body").focus()
        page.evaluate("() => document.activeElement && document.activeElement.blur()")
        for _ in range(80):
            page.keyboard.press("Tab")
            if page.evaluate(
                "() => { const e = document.activeElement; return !!e && e.dataset.move !== "
                "undefined && e.getAttribute('aria-disabled') !== 'true'; }"
            ):
                break
        else:
            raise AssertionError("Tab never reached an enabled move")
        before = version(page)
        page.keyboard.press("Enter")
        page.wait_for_function(
            "(v) => document.body?.dataset.pending !== '1' && (document.body?.dataset.version"
            " !== String(v) || document.body?.dataset.turn === 'over')", arg=before)
        moves += 1
        assert moves < 200
    expect(page.locator(".end-summary")).to_be_visible()


# ---------------------------------------------------------------------------- home, lobby
def test_a_table_made_on_the_home_page_waits_for_its_invited_player(server, new_page):
    host = new_page()
    host.goto(server + "/")
    host.wait_for_function("() => document.body?.dataset.ready === '1'")
    host.locator('[data-play="doors"]').click()
    host.locator("#option-gems_to_win").fill("2")
    host.locator("#seat-1").select_option("human")
    host.locator("#create-button").click()
    host.wait_for_url(re.compile(r"/play/[^#]+#seat="))
    expect(host.locator(".waiting-room")).to_be_visible()
    expect(host.locator("#turn")).to_have_text("Waiting for players")
    expect(host.locator(".waiting-room")).to_contain_text(
        "Send each player their own link: whoever holds a link holds that seat.")
    invite = host.locator("#invite-1").input_value()
    assert re.search(r"/play/[^#]+#seat=[\w-]{20,}$", invite)
    assert host.locator("#spectate-link").input_value().endswith(
        host.url.split("#")[0].split("/play/")[1])
    screenshots_at_both_sizes(host, "waiting-room")
    guest = new_page(390, 844)
    guest.goto(invite)
    for page in (host, guest):
        page.wait_for_function("() => ['you', 'other'].includes(document.body?.dataset.turn)")
        assert page.locator(".waiting-room").count() == 0
    expect(host.locator("#players")).to_contain_text("human · here")


def test_an_open_seat_is_taken_from_the_lobby(server, new_page):
    host = new_page()
    host.goto(server + "/?game=favor")
    host.wait_for_function("() => document.body?.dataset.ready === '1'")
    host.locator("#option-players").select_option("2")
    host.locator("#seat-1").select_option("human")
    host.locator("#open-seats").check()
    host.locator("#create-button").click()
    host.wait_for_url(re.compile(r"/play/"))
    table = host.url.split("/play/")[1].split("#")[0]
    expect(host.locator('.seat-list li[data-seat="1"]')).to_contain_text("open")
    guest = new_page()
    guest.goto(server + "/")
    guest.wait_for_function("() => document.body?.dataset.ready === '1'")
    row = guest.locator(f'#lobby-waiting li[data-table="{table}"]')
    expect(row).to_be_visible()
    screenshots_at_both_sizes(guest, "home", full_page=False)
    row.get_by_role("button", name="Join").click()
    guest.wait_for_url(re.compile(rf"/play/{table}#seat="))
    for page in (host, guest):
        page.wait_for_function("() => ['you', 'other'].includes(document.body?.dataset.turn)")


# ---------------------------------------------------------------------------- rematch, replay
def test_rematch_and_replay_after_the_end(server, page):
    table, link = human_against_bots(server, "doors", 2, {"gems_to_win": 2})
    open_table(page, link)
    play_to_end(page, random.Random(8))
    summary = page.locator(".end-summary")
    expect(summary.locator(".final-scores li")).to_have_count(2)
    expect(summary.locator(".reveal-record li").first).to_be_attached()
    # The end as each seat saw it: the other seat's last door is face up there too. (Once
    # the views are in: their re-render during the click would take the click away.)
    page.locator('.end-summary[data-ready="1"]').wait_for()
    summary.locator(".reveal-seats > summary").click()
    summary.locator(".reveal-tabs [role=tab]").nth(1).click()
    expect(summary.locator(".reveal-body .dr-door").first).to_have_attribute("data-card",
                                                                             re.compile(r"\w"))
    # The replay viewer steps through the record.
    replay = page.context.new_page()
    replay.goto(f"{server}/replay/{table}")
    replay.wait_for_function("() => document.body?.dataset.ready === '1'")
    assert replay.locator("body").get_attribute("data-step") == "0"
    replay.keyboard.press("ArrowRight")
    replay.wait_for_function("() => document.body?.dataset.step !== '0'")
    first_stop = int(replay.locator("body").get_attribute("data-step"))
    replay.keyboard.press("End")
    replay.wait_for_function("(s) => Number(document.body?.dataset.step) > s", arg=first_stop)
    expect(replay.locator("#game-root .dr-door[data-card]")).to_have_count(2)
    replay.locator("#viewer").select_option("1")
    replay.keyboard.press("Home")
    replay.wait_for_function("() => document.body?.dataset.step === '0'")
    replay.keyboard.press("ArrowRight")
    replay.wait_for_function("() => document.body?.dataset.step !== '0'")
    # Seat 1's view at its first stop: its own door up, seat 0's face down.
    assert replay.locator('#game-root .dr-door[data-seat="1"]').get_attribute("data-card")
    assert replay.locator('#game-root .dr-door[data-seat="0"]').get_attribute("data-card") is None
    screenshots_at_both_sizes(replay, "replay")
    replay.close()
    # Rematch: a new table, the same seat, the same token.
    token = link.split("#seat=")[1]
    page.locator("#rematch-button").click()
    page.wait_for_url(re.compile(rf"/play/(?!{table})[^#]+#seat={re.escape(token)}$"))
    page.wait_for_function("() => ['you', 'other', 'over'].includes(document.body?.dataset.turn)")


def test_a_saved_record_opens_in_the_replay_viewer(server, page, tmp_path):
    """A record file, as `ladytiger play --save` writes it, steps through like a table's;
    a damaged one is refused with the entry at fault named."""
    from ladytiger.core.record import save
    from tests.helpers import random_game

    state = random_game("doors", 4, gems_to_win=3)
    good = tmp_path / "doors.json"
    save(state, good)
    page.goto(server + "/")
    page.get_by_role("link", name="Open a saved game").click()
    expect(page.locator("body")).to_have_attribute("data-ready", "file")  # across the load
    page.locator("#record-file").set_input_files(str(good))
    page.wait_for_function("() => document.body?.dataset.ready === '1'")
    expect(page.locator("#game-title")).to_have_text("Doors replay")
    expect(page.locator("#steps li")).to_have_count(len(state.history()) + 1)
    page.keyboard.press("End")
    page.wait_for_function("(n) => document.body?.dataset.step === String(n)",
                           arg=len(state.history()))
    expect(page.locator("#game-root .dr-door[data-card]")).to_have_count(2)

    damaged = tmp_path / "damaged.json"
    record = json.loads(good.read_text())
    record["history"][5] = "take the moon"
    damaged.write_text(json.dumps(record))
    page.goto(server + "/replay")
    page.wait_for_function("() => document.body?.dataset.ready === 'file'")
    page.locator("#record-file").set_input_files(str(damaged))
    expect(page.locator("#record-problem")).to_contain_text("damaged.json")
    expect(page.locator("#record-problem")).to_contain_text("take the moon")
    screenshot(page, "replay-open-file")


def test_a_replay_lists_the_cards_put_out_face_down_only_for_their_owner(server, page,
                                                                          tmp_path):
    """In Tighee the cards put out for the Forest deck are secret: a replay from everyone's
    view or another seat's tells that a card was put out, the owner's view names it."""
    from ladytiger.core.record import save
    from tests.helpers import random_game

    state = random_game("tighee", 5, players=3)
    saved = tmp_path / "tighee.json"
    save(state, saved)
    history = json.loads(saved.read_text())["history"]
    index = next(i for i, text in enumerate(history)
                 if text.startswith("put out") and state.actors()[i] == 1)
    card = history[index].removeprefix("put out ")
    page.goto(server + "/replay")
    page.wait_for_function("() => document.body?.dataset.ready === 'file'")
    page.locator("#record-file").set_input_files(str(saved))
    page.wait_for_function("() => document.body?.dataset.ready === '1'")
    entry = page.locator(f'#steps li[data-step="{index + 1}"]')
    expect(entry).to_have_text(re.compile(r"puts out a card face down$"))
    expect(entry).not_to_contain_text(card)
    # Stepping onto it: the step line says no more than the list.
    entry.locator("button").click()
    page.wait_for_function("(n) => document.body?.dataset.step === String(n)", arg=index + 1)
    expect(page.locator(".replay-now")).to_contain_text("puts out a card face down")
    expect(page.locator(".replay-now")).not_to_contain_text(card)
    screenshots_at_both_sizes(page, "replay-hidden-steps")
    # The owner's view names the card; another seat's does not.
    page.locator("#viewer").select_option("1")
    expect(entry).to_contain_text(f"put out {card}")
    expect(page.locator(".replay-now")).to_contain_text(card)
    page.locator("#viewer").select_option("2")
    expect(entry).not_to_contain_text(card)


def test_the_move_clock_counts_down_and_a_bot_moves_when_it_runs_out(server, page):
    made = create_table(server, "doors", {"gems_to_win": 3},
                        [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
                        clock={"seconds": 3, "bot": "random"})
    open_table(page, made["links"]["invites"]["0"])
    page.wait_for_function("() => document.body?.dataset.turn === 'you'")
    before = version(page)
    pill = page.locator("#turn")
    expect(pill).to_have_text(re.compile(r"Your turn · [0-3] s$"))
    # One's own last seconds stand out.
    expect(pill).to_have_class(re.compile(r"\bhurry\b"))
    first = int(re.search(r"(\d+) s$", pill.inner_text()).group(1))
    page.wait_for_function(
        "(s) => { const m = document.getElementById('turn').textContent.match(/(\\d+) s$/);"
        " return m && Number(m[1]) < s; }", arg=first, timeout=3_000)
    # Nobody clicks: when the time is up the clock's bot moves for the seat.
    page.wait_for_function("(v) => Number(document.body?.dataset.version) > v", arg=before,
                           timeout=10_000)
    # ...and the page says why a move was made that nobody clicked.
    expect(page.locator("#statusline")).to_have_text(
        "Your time ran out: a random bot made this move for you.")


def test_rules_pages_render_with_their_fine_points(server, page):
    page.goto(server + "/rules/doors")
    expect(page.locator("h1")).to_have_text("Doors")
    expect(page.locator("#fine-points")).to_contain_text("Why:")
    expect(page.locator(".rules-nav a")).to_have_count(7)
    page.goto(server + "/rules/nonsense")
    expect(page.locator("h1")).to_have_text("No such game")


def test_a_link_to_no_table_shows_the_notice_alone(server, page):
    page.goto(server + "/play/no-such-table")
    expect(page.locator(".error-notice")).to_contain_text("There is no such table.")
    # No empty players, moves and log panels beside it.
    expect(page.locator(".players-panel")).to_be_hidden()
    expect(page.locator(".log-panel")).to_be_hidden()
    page.goto(server + "/replay/no-such-table")
    expect(page.locator("#replay-controls")).to_contain_text("the table was never made")
    expect(page.locator(".players-panel")).to_be_hidden()
    page.goto(server + "/no-such-page")
    expect(page.locator("h1")).to_have_text("There is no page here")
    page.get_by_role("link", name="Learn a game").click()
    expect(page.locator("#game-title")).to_have_text("Learn a game")


def test_a_bad_invite_link_says_so_and_offers_to_watch(server, page):
    made = create_table(server, "doors", {"gems_to_win": 3},
                        [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    page.goto(made["links"]["spectate"] + "#seat=not-a-real-token-at-all")
    notice = page.locator(".error-notice")
    expect(notice).to_contain_text("This link does not hold a seat at this table.")
    notice.get_by_role("link", name="Watch this table").click()
    # The link reloads the page; a locator assertion is re-queried across that
    # navigation, where a page function could run while the new body is absent.
    expect(page.locator("body")).to_have_attribute("data-turn", "waiting")
    expect(page.locator("body")).to_have_attribute("data-seat", "spectator")


def test_a_spectator_takes_an_open_seat_from_the_waiting_room(server, new_page):
    made = create_table(server, "shady_lady", {"turn_limit": 15},
                        [{"kind": "human"}, {"kind": "human", "open": True}])
    host, visitor = new_page(), new_page()
    host.goto(made["links"]["invites"]["0"])
    visitor.goto(made["links"]["spectate"])
    take = visitor.locator('.seat-list li[data-seat="1"]').get_by_role(
        "button", name="Take this seat")
    take.click()
    visitor.wait_for_url(re.compile(r"#seat=[\w-]{20,}$"))
    for page in (host, visitor):
        page.wait_for_function("() => ['you', 'other'].includes(document.body?.dataset.turn)")
    assert visitor.locator("body").get_attribute("data-seat") == "1"
    expect(visitor.locator("#players")).to_contain_text("You · seat 2")  # counted from 1
    # A move's tooltip names the seat it is about by its player, never by the engine's number.
    mover = visitor if visitor.locator("body").get_attribute("data-turn") == "you" else host
    jack = mover.locator('[data-move^="jack seat"]').first
    jack.wait_for(state="attached")
    # The seat just taken may be drawn before its player's name has reached this page; the
    # page draws it again when it comes.
    expect(jack).not_to_have_attribute("title", re.compile("seat", re.IGNORECASE))
    assert "seat" not in (jack.get_attribute("aria-label") or "jack").lower()


SHARE_STUB = """
window.__shared = [];
navigator.share = (data) => { window.__shared.push(data); return Promise.resolve(); };
"""


def test_a_phone_shares_an_invite_link_but_never_the_seats_own(server, new_page):
    made = create_table(server, "favor", {"players": 3},
                        [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "casual"}])
    # The browser that made the table holds every seat's token (as the create form keeps them).
    held = {made["table"]["id"]: made["tokens"]}
    keep = f"localStorage.setItem('ladytiger.tokens', {json.dumps(json.dumps(held))});"
    phone = new_page(390, 844)
    phone.add_init_script(SHARE_STUB + keep)  # a phone's share sheet: Linux Chromium has none
    phone.goto(made["links"]["invites"]["0"])
    expect(phone.locator(".waiting-room")).to_be_visible()
    expect(phone.locator('[data-share="invite-0"]')).to_have_count(0)  # one's own seat
    phone.locator('[data-share="invite-1"]').click()
    phone.locator('[data-share="spectate-link"]').click()
    phone.wait_for_function("() => window.__shared.length === 2")
    shared = phone.evaluate("() => window.__shared")
    assert shared[0]["url"] == phone.locator("#invite-1").input_value()
    assert "Favor" in shared[0]["title"] and "whoever opens this link first" in shared[0]["text"]
    assert shared[1]["url"] == made["links"]["spectate"]
    # Without a share sheet there is no Share button, only Copy.
    desk = new_page()
    desk.add_init_script(keep)
    desk.goto(made["links"]["invites"]["0"])
    expect(desk.locator(".waiting-room")).to_be_visible()
    expect(desk.locator("[data-copy='invite-1']")).to_be_visible()
    assert desk.locator("[data-share]").count() == 0


def test_the_keyboard_focus_stays_among_the_moves_after_a_move(server, page):
    _table, link = human_against_bots(server, "tighee", 3)
    open_table(page, link)
    assert wait_my_turn_or_end(page) == "you"
    # The list of moves is folded away (moves are made on the board) until it is opened.
    page.locator("#move-list-details > summary").click()
    page.locator("#move-list .move-items").wait_for()
    first = page.locator("#move-list [data-move]").first
    first.focus()
    before = version(page)
    page.keyboard.press("Enter")
    page.wait_for_function("(v) => document.body?.dataset.version !== String(v)"
                           " && document.body?.dataset.pending !== '1'", arg=before)
    assert wait_my_turn_or_end(page) == "you"
    # Still in the move list, on a move that can be played: Enter plays the next one.
    focused = page.evaluate("() => [document.activeElement.closest('#move-list') !== null,"
                            " document.activeElement.getAttribute('aria-disabled')]")
    assert focused == [True, None]
    before = version(page)
    page.keyboard.press("Enter")
    page.wait_for_function("(v) => document.body?.dataset.version !== String(v)", arg=before)


def test_a_game_without_a_view_module_falls_back_to_the_plain_view(server, page):
    page.route("**/static/games/doors.js", lambda route: route.fulfill(status=404))
    _table, link = human_against_bots(server, "doors", 2, {"gems_to_win": 2})
    open_table(page, link)
    assert page.locator("body").get_attribute("data-view") == "generic"
    expect(page.locator("#game-root .generic-fields").first).to_contain_text("Display")
    # Every field is drawn from the observation, cards as cards; the moves list plays.
    assert page.locator("#game-root .card[data-card]").count() >= 4
    play_to_end(page, random.Random(2))


def test_play_someone_now_seats_two_strangers_at_one_table(server, new_page):
    first, second = new_page(390, 844), new_page()
    for page in (first, second):
        page.goto(server + "/")
        page.wait_for_function("() => document.body?.dataset.mine === '1'")
    # Nobody waits at Traps: the first player opens a table in the lobby and waits there.
    first.click("#quick-link")
    expect(first.locator("#quick-game")).to_be_focused()
    first.select_option("#quick-game", "traps")
    first.click("#quick-button")
    first.wait_for_url(re.compile(r"/play/[^#]+#seat="))
    table = first.url.split("/play/")[1].split("#")[0]
    expect(first.locator(".waiting-room")).to_contain_text("open: listed in the lobby")
    expect(first.locator(".waiting-room")).to_contain_text(
        "The others come from the lobby, where the open seats are listed: this page turns "
        "into the game as soon as it starts.")
    first.click("#sound-toggle")  # to hear when someone comes
    # Back home and asking again, the first player is sent back to that table, not a new one.
    first.goto(server + "/")
    first.wait_for_function("() => document.body?.dataset.mine === '1'")
    first.select_option("#quick-game", "traps")
    first.click("#quick-button")
    first.wait_for_url(re.compile(f"/play/{table}"))
    # The second player takes the open seat there, and the game begins for both.
    second.select_option("#quick-game", "traps")
    second.click("#quick-button")
    second.wait_for_url(re.compile(f"/play/{table}#seat="))
    for page in (first, second):
        page.wait_for_function("() => ['you', 'other'].includes(document.body?.dataset.turn)")
    # Who waited is told, by a word and by the chime (their own turn's, or the start's).
    expect(first.locator("#statusline")).to_contain_text("Everyone is here: the game has begun")
    assert first.evaluate("() => document.body.dataset.turnSounds") == "1"
    waiting = httpx.get(f"{server}/api/tables?status=waiting").json()["tables"]
    assert [t for t in waiting if t["game"] == "traps"] == []


def test_play_someone_now_fills_the_table_nearest_to_starting(server, new_page):
    def open_table(seats: list[dict]) -> str:
        made = httpx.post(f"{server}/api/tables", json={
            "game": "shady_lady", "options": {"players": len(seats)}, "seats": seats})
        assert made.status_code == 201, made.text
        return made.json()["table"]["id"]

    # Made in this order: the oldest (three seats from starting), the one that needs one more
    # player, and the newest (three from starting too). Neither the lobby's order (newest
    # first) nor age alone would choose the second.
    oldest = open_table([{"kind": "human"}] + [{"kind": "human", "open": True}] * 3)
    near = open_table([{"kind": "human"}, {"kind": "human"}, {"kind": "human", "open": True}])
    far = open_table([{"kind": "human"}] + [{"kind": "human", "open": True}] * 3)
    page = new_page()
    page.goto(server + "/")
    page.wait_for_function("() => document.body?.dataset.mine === '1'")
    page.select_option("#quick-game", "shady_lady")
    page.click("#quick-button")
    page.wait_for_url(re.compile(f"/play/{near}#seat="))
    assert len({oldest, near, far}) == 3


def test_ask_before_each_move_holds_a_click_until_it_is_confirmed(server, page):
    _, link = human_against_bots(server, "doors", 2)
    open_table(page, link)
    assert wait_my_turn_or_end(page) == "you"
    box = page.locator("#confirm-moves")
    expect(box).to_be_visible()
    expect(box).not_to_be_checked()
    box.check()
    bar = page.locator("#confirm-bar")
    moves = page.locator(ENABLED).filter(visible=True)
    before = version(page)
    text = moves.first.get_attribute("data-move")
    moves.first.click()
    # A click only chooses: the move is marked, the bar asks, nothing is sent.
    expect(bar).to_be_visible()
    expect(page.locator("#confirm-words")).to_have_text(re.compile(
        re.escape(text[0].upper() + text[1:]) + r"\?$"))
    # Two like cards (two Blue Tigers on display) are one move: both are marked.
    same = page.locator(".move[data-move]").evaluate_all(
        "(all, text) => all.filter((e) => e.dataset.move === text).length", text)
    assert same >= 1
    expect(page.locator(".move.chosen")).to_have_count(same)
    page.wait_for_timeout(400)
    assert version(page) == before and page.evaluate("document.body.dataset.pending") == "0"
    screenshots_at_both_sizes(page, "confirm-move")
    page.locator("#confirm-cancel").click()
    expect(bar).to_be_hidden()
    expect(page.locator(".move.chosen")).to_have_count(0)
    # A second click on the chosen move plays it.
    moves.first.click()
    expect(bar).to_be_visible()
    moves.first.click()
    wait_version(page, before + 1)
    expect(bar).to_be_hidden()
    # At the next turn, "Play it" plays the chosen move.
    if wait_my_turn_or_end(page) == "you":
        now = version(page)
        moves.first.click()
        expect(bar).to_be_visible()
        page.locator("#confirm-play").click()
        wait_version(page, now + 1)
    # The preference is this browser's: it is still on after a reload.
    page.reload()
    wait_settled(page)
    if turn(page) in ("you", "other"):
        expect(page.locator("#confirm-moves")).to_be_checked()
