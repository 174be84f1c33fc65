"""A table you can follow: bots at a human pace, moments shown in view, refusals on purpose.

For each game, a person plays against bots at the server's default pace (one second a
move) on a server of this module's own: the page records when each new position arrives,
and the bots' moves must come at least 0.7 s apart; every moment (a contest, day, season,
round or trick scored, a Try! or Jack!, the end) must show in a panel inside the screen,
and closing it (its button, its ×, Escape, or waiting) must tell the server `seen`. A whole
game at one second a move is long, so each test stops once it has seen a moment and a few
bot moves. Screenshots of a moment in each game, at 1280x800 and 390x844, go to the folder
in LADYTIGER_SCREENSHOTS (a temporary folder otherwise).

Then the refusals: hovering a disabled control shows no "Not now" anywhere, and clicking it
shows the rule's reason in a bubble beside that control.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from ladytiger.web import Settings
from tests.browser.conftest import live_server
from tests.browser.support import ARTIFACTS, ENABLED, http, wait_my_turn_or_end
from tests.web.support import short_options

# Kept with the other screenshots as the suite's artifacts (or where the environment says).
SHOTS = Path(os.environ.get("LADYTIGER_SCREENSHOTS") or ARTIFACTS)
PLAYERS = {"doors": 2, "favor": 3, "hoard": 1, "labyrinth": 2, "shady_lady": 3, "tighee": 3,
           "traps": 3}
# Shorter still than the short options where a game's only moment may be its end; longer
# where one contest can end the game before the bots have moved a few times.
OPTIONS = {"labyrinth": {"turn_cap": 6}, "shady_lady": {"turn_limit": 12},
           "doors": {"gems_to_win": 8}}
MIN_GAP = 0.7  # seconds between bot moves, at a pace of one second
BOT_MOVES = 4  # bot moves to see before stopping (with at least one moment)

# Each new position as it reaches the page (before it is drawn, so that a busy page drawing
# the one before does not shorten the gap): its version, when it came, and who was to move
# in the position before it (a bot's seat means a bot made it).
RECORD_POSITIONS = """
window.__positions = [];
const NativeSocket = window.WebSocket;
window.WebSocket = class extends NativeSocket {
  constructor(...args) {
    super(...args);
    let before = null;
    this.addEventListener("message", (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch (error) { return; }
      if (message.type !== "view") return;
      const mover = before && before.current_player;
      window.__positions.push({version: message.version, at: performance.now(),
        before: before && mover >= 0 && mover !== message.seat ? "other" : "you"});
      before = message;
    });
  }
};
"""


@pytest.fixture(scope="module")
def paced(tmp_path_factory) -> Iterator[str]:
    """A server with the real defaults: bots wait `Settings.bot_pause`, and after a moment
    up to `Settings.moment_pause`."""
    pauses = ("--bot-pause", str(Settings().bot_pause),
              "--moment-pause", str(Settings().moment_pause))
    with live_server(tmp_path_factory.mktemp("paced"), *pauses) as base:
        yield base


def against_bots(base: str, game: str, seat: int = 0) -> dict[str, Any]:
    """A table at the server's default pace: a person in `seat`, random bots elsewhere."""
    players = PLAYERS[game]
    seats: list[dict[str, Any]] = [{"kind": "bot", "bot": "random"}] * players
    seats[seat] = {"kind": "human"}
    options = {"players": players, **short_options(game), **OPTIONS.get(game, {})}
    made = http(base, "POST", "/api/tables", {"game": game, "options": options,
                                              "seats": seats})
    assert made["table"]["pace"] is None and made["table"]["bot_pause"] is None
    return made


def watch_seen(page: Page) -> list[int]:
    """The versions of every `seen` the page sends."""
    seen: list[int] = []

    def frame(payload: str | bytes) -> None:
        try:
            message = json.loads(payload)
        except ValueError:
            return
        if isinstance(message, dict) and message.get("type") == "seen":
            seen.append(message["version"])

    page.on("websocket", lambda socket: socket.on("framesent", frame))
    return seen


def in_view(page: Page, selector: str) -> None:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box and size, f"{selector} is not drawn"
    assert box["x"] >= 0 and box["y"] >= 0, box
    assert box["x"] + box["width"] <= size["width"] + 1, (box, size)
    assert box["y"] + box["height"] <= size["height"] + 1, (box, size)


def shoot(page: Page, name: str) -> list[Path]:
    """The page as it is, at 1280x800 and 390x844 (the moment in view at both), then back."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    original = page.viewport_size
    paths = []
    for width, height in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)
        in_view(page, "#moment")
        path = SHOTS / f"{name}-{width}x{height}.png"
        page.screenshot(path=str(path))
        paths.append(path)
    if original:
        page.set_viewport_size(original)
    return paths


def bot_gaps(page: Page) -> list[float]:
    """Seconds between each bot move and the position before it."""
    positions = page.evaluate("() => window.__positions")
    gaps = []
    for before, after in itertools.pairwise(positions):
        if after["before"] == "other" and after["version"] == before["version"] + 1:
            gaps.append((after["at"] - before["at"]) / 1000)
    return gaps


def close_moment(page: Page, how: str, seen: list[int]) -> None:
    panel = page.locator("#moment")
    version = int(panel.get_attribute("data-version") or "-1")
    if how == "button":
        panel.locator(".moment-ok").click()
    elif how == "cross":
        panel.locator(".moment-close").click()
    elif how == "escape":
        page.keyboard.press("Escape")
    else:  # left alone: it goes by itself after a few seconds
        page.wait_for_function(
            "(v) => !document.querySelector(`#moment[data-version='${v}']`)", arg=version,
            timeout=12_000)
    page.wait_for_function(
        "(v) => !document.querySelector(`#moment[data-version='${v}']`)", arg=version)
    deadline = time.monotonic() + 5
    while version not in seen and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert version in seen, f"closing the moment of version {version} sent no seen"


@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_bots_move_at_a_human_pace_and_every_moment_is_shown_and_closed(paced, new_page, game):
    made = against_bots(paced, game)
    page = new_page()
    page.add_init_script(RECORD_POSITIONS)
    seen = watch_seen(page)
    page.goto(made["links"]["invites"]["0"])
    rng = random.Random(f"moments-{game}")
    ways = ["button", "escape", "wait", "cross"]
    moments: list[tuple[str, str]] = []
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        panel = page.locator("#moment")
        if panel.count():
            kind = panel.get_attribute("data-kind") or ""
            title = panel.locator("#moment-title").inner_text()
            moments.append((kind, title))
            in_view(page, "#moment")
            if len(moments) == 1:
                shoot(page, f"moment-{game}")
            close_moment(page, ways[(len(moments) - 1) % len(ways)], seen)
            continue
        bots = len(bot_gaps(page))
        turn = page.evaluate("() => document.body?.dataset.turn")
        enough_bots = bots >= BOT_MOVES or PLAYERS[game] == 1
        if moments and (enough_bots or turn == "over"):
            break
        if turn == "over":
            page.wait_for_timeout(300)  # the end's own moment comes with the last view
            if not page.locator("#moment").count():
                break
            continue
        if turn == "you" and page.evaluate("() => document.body?.dataset.pending") != "1":
            controls = page.locator(ENABLED).filter(visible=True)
            count = controls.count()
            if count:
                # A moment or a new position may come first and take the click's place.
                with contextlib.suppress(Exception):
                    controls.nth(rng.randrange(count)).click(timeout=2000)
        page.wait_for_timeout(100)
    assert moments, f"no moment was shown in {game}"
    gaps = bot_gaps(page)
    if PLAYERS[game] > 1:
        assert len(gaps) >= 2, f"only {len(gaps)} bot moves were seen in {game}"
        assert min(gaps) >= MIN_GAP, f"bot moves {min(gaps):.2f} s apart in {game}: {gaps}"
    assert all(title.strip() for _, title in moments)


# ---------------------------------------------------------------------------- refusals
def test_hovering_a_disabled_control_shows_no_refusal_and_a_click_shows_it_beside_it(
        paced, new_page):
    # Seat 1 is the first Guesser: ending the turn before discarding is against the rules.
    made = http(paced, "POST", "/api/tables", {
        "game": "doors", "options": {"gems_to_win": 3}, "pace": "fast",
        "seats": [{"kind": "bot", "bot": "random"}, {"kind": "human"}]})
    page = new_page()
    page.goto(made["links"]["invites"]["1"])
    page.wait_for_function("() => ['you', 'other'].includes(document.body?.dataset.turn)")
    refusal = page.locator("#refusal")
    # While the bot is to move, every card is disabled: resting the mouse on one says
    # nothing (the cards are drawn again as the bot moves, so the mouse goes by position).
    if page.evaluate("() => document.body?.dataset.turn") == "other":
        # One look at the page: the bot may move (and the cards be drawn again) at any time.
        box = page.evaluate("""() => {
            const card = document.querySelector(
                '#game-root .dr-display-cards [data-move][aria-disabled="true"]');
            if (!card) return null;
            const r = card.getBoundingClientRect();
            return {x: r.x, y: r.y, width: r.width, height: r.height};
        }""")
        if box:
            page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            page.wait_for_timeout(300)
            assert refusal.count() == 0
    assert wait_my_turn_or_end(page) == "you"
    page.wait_for_timeout(500)  # the position settles: what follows is on purpose
    end_turn = page.locator('.dr-declare [data-move="end turn"]')
    expect(end_turn).to_have_attribute("aria-disabled", "true")
    reason = "the Guesser must discard a card from the display before ending the turn"
    end_turn.hover()
    # The tooltip learns the reason; no banner and no bubble say it.
    expect(end_turn).to_have_attribute("title", f"End turn: {reason}")
    page.wait_for_timeout(300)
    assert refusal.count() == 0
    assert not page.locator("#statusline").is_visible()
    # A click asks on purpose: the reason shows beside the control.
    end_turn.click(force=True)
    expect(refusal).to_be_visible()
    expect(refusal).to_have_text(f"Not now: {reason}")
    beside(page, end_turn, refusal)
    shoot_refusal(page, "refusal-doors")
    # Anything else the player does puts it away.
    page.mouse.click(5, 300)
    expect(refusal).to_have_count(0)
    # A keypress on a control asks too, beside that control.
    claim = page.locator('.dr-declare [data-move="claim set"]')
    claim.focus()
    page.wait_for_timeout(200)
    assert refusal.count() == 0  # focus alone is not asking
    page.keyboard.press("Enter")
    expect(refusal).to_be_visible()
    expect(refusal).to_contain_text("the Collector's cards hold no set")
    beside(page, claim, refusal)
    # On a phone too, beside the control and inside the screen.
    page.keyboard.press("Escape")
    expect(refusal).to_have_count(0)
    page.set_viewport_size({"width": 390, "height": 844})
    end_turn.scroll_into_view_if_needed()
    page.wait_for_timeout(500)
    end_turn.click(force=True)
    expect(refusal).to_be_visible()
    beside(page, end_turn, refusal)
    shoot_refusal(page, "refusal-doors")


def beside(page: Page, control: Any, bubble: Any) -> None:
    """The bubble touches the control's box: just below or just above, overlapping it
    sideways, and inside the screen."""
    near = control.bounding_box()
    box = bubble.bounding_box()
    assert near and box
    below = 0 <= box["y"] - (near["y"] + near["height"]) <= 20
    above = 0 <= near["y"] - (box["y"] + box["height"]) <= 20
    assert below or above, (near, box)
    assert box["x"] < near["x"] + near["width"] and near["x"] < box["x"] + box["width"]
    size = page.viewport_size
    assert size and box["x"] >= 0 and box["x"] + box["width"] <= size["width"]


def shoot_refusal(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size or {"width": 0, "height": 0}
    page.screenshot(path=str(SHOTS / f"{name}-{size['width']}x{size['height']}.png"))


# ---------------------------------------------------------------------------- the create form
def test_the_create_form_offers_three_paces_and_sends_the_one_chosen(paced, new_page):
    page = new_page()
    sent: list[dict[str, Any]] = []
    page.on("request", lambda request: sent.append(json.loads(request.post_data or "{}"))
            if request.method == "POST" and request.url.endswith("/api/tables") else None)
    page.goto(paced + "/")
    page.wait_for_function("() => document.body?.dataset.ready === '1'")
    page.locator('[data-play="doors"]').click()
    field = page.locator("#pace-field")
    expect(field).to_be_visible()
    assert page.locator("#pace-normal").is_checked()  # the normal pace unless changed
    # Only people at the table: no bot to pace.
    page.locator("#seat-1").select_option("human")
    expect(field).to_be_hidden()
    page.locator("#seat-1").select_option(index=1)
    expect(field).to_be_visible()
    page.locator("label.pace-choice", has_text="Slow").click()
    assert page.locator("#pace-slow").is_checked()
    page.locator("#create-button").click()
    page.wait_for_url("**/play/**")
    assert sent and sent[0]["pace"] == "slow" and "bot_pause" not in sent[0]
    table = page.url.split("/play/")[1].split("#")[0]
    info = http(paced, "GET", f"/api/tables/{table}")["table"]
    assert (info["pace"], info["bot_pause"]) == ("slow", 2.0)


def test_a_moment_names_the_readers_own_seat_as_theirs(server, page):
    """A moment is told in the third person: the reader's seat by their name marked "(you)",
    and "Seat 0's stack" as "your stack", never "You takes" nor a stranger's name."""
    page.goto(server + "/")
    told = page.evaluate("""async () => {
        const {namedThirdPerson} = await import("/static/js/frame.js");
        const names = ["Calm Panda", "Casual bot"];
        const text = (words, seat) => namedThirdPerson(words, seat, names)
          .map((part) => (typeof part === "string" ? part : part.textContent)).join("");
        return [
          text("the Red Tiger from Seat 0's stack; Seat 1 ends with 1 gem", 0),
          text("Seat 0 ends with 1 gem", 0),
          text("Seat 0 ends with 1 gem", 1),
          text("Seat 0 ends with 1 gem", null),
          text("Seat 0's Door was the Blue Lady", 0),
        ];
    }""")
    assert told == [
        "the Red Tiger from your stack; Casual bot ends with 1 gem",
        "Calm Panda (you) ends with 1 gem",
        "Calm Panda ends with 1 gem",
        "Calm Panda ends with 1 gem",
        "Your Door was the Blue Lady",
    ]


# ---------------------------------------------------------------------------- tricks
# Every panel the page shows, by kind and version, whether or not it is still up.
RECORD_PANELS = """
window.__panels = [];
new MutationObserver(() => {
  const panel = document.getElementById("moment");
  if (!panel) return;
  const entry = `${panel.dataset.kind}:${panel.dataset.version}`;
  if (!window.__panels.includes(entry)) window.__panels.push(entry);
}).observe(document, {childList: true, subtree: true});
"""


def trick_panels(page: Page) -> list[int]:
    return [int(entry.split(":")[1]) for entry in page.evaluate("() => window.__panels")
            if entry.startswith("trick:")]


def play_until(page: Page, rng: random.Random, done, limit: float = 60) -> None:
    """Play this seat by random clicks, closing any panel that is not a trick's, until
    `done()` is true."""
    deadline = time.monotonic() + limit
    while not done():
        assert time.monotonic() < deadline, "the game did not get there in time"
        panel = page.locator("#moment")
        if panel.count() and panel.get_attribute("data-kind") != "trick":
            page.keyboard.press("Escape")
        turn = page.evaluate("() => document.body?.dataset.turn")
        assert turn != "over", "the game ended first"
        # A click outside a panel closes it: no click once what was awaited is there.
        if turn == "you" and page.evaluate("() => document.body?.dataset.pending") != "1" \
                and not done():
            controls = page.locator(ENABLED).filter(visible=True)
            if controls.count():
                with contextlib.suppress(Exception):
                    controls.nth(rng.randrange(controls.count())).click(timeout=2000)
        page.wait_for_timeout(80)


def test_a_player_can_follow_tricks_on_the_board_without_a_panel_each_time(server, new_page):
    made = http(server, "POST", "/api/tables", {
        "game": "tighee", "options": {"players": 3}, "bot_pause": 0.0,
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"},
                  {"kind": "bot", "bot": "random"}]})
    page = new_page()
    page.add_init_script(RECORD_PANELS)
    seen = watch_seen(page)
    page.goto(made["links"]["invites"]["0"])
    rng = random.Random("tricks")
    toggle = page.locator("#trick-panels")
    # Before any trick has ended, the game has nothing to say about tricks.
    page.wait_for_function("() => document.body?.dataset.turn === 'you'")
    expect(toggle).to_be_hidden()
    # The first trick comes up in a panel, which offers to stop; the preference appears.
    trick = page.locator("#moment[data-kind='trick']")
    play_until(page, rng, lambda: trick.count() > 0)
    first = int(trick.get_attribute("data-version") or "-1")
    expect(toggle).to_be_visible()
    expect(toggle).to_be_checked()
    page.locator(".moment-no-tricks").click()
    expect(trick).to_have_count(0)
    expect(toggle).not_to_be_checked()
    shown = trick_panels(page)
    # The following tricks are seen at once, without a panel, so the bots go on.
    seen_before = len(seen)
    play_until(page, rng, lambda: len(seen) >= seen_before + 3)
    assert first in seen
    assert trick_panels(page) == shown
    assert page.evaluate("() => localStorage.getItem('ladytiger.trickPanels')") == "off"
    # The board still shows the trick last taken.
    expect(page.locator("#game-root")).to_contain_text("went to")
    # Ticked again, the next trick comes up again.
    toggle.check()
    play_until(page, rng, lambda: len(trick_panels(page)) > len(shown))
    assert page.evaluate("() => localStorage.getItem('ladytiger.trickPanels')") == "on"
