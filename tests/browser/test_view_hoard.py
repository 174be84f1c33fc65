"""Hoard's browser view (static/games/hoard.js) in real Chromium, on the real engine.

This module also holds `ViewBench`, the bench that the Labyrinth and Traps view tests share:
the view module is drawn by the frame's own `drawView` with the frame's own binder and card
drawing (static/js/frame.js, the contract's `ctx`), on the frame's felt, but the server is
replaced by the engine in Python: a bound control that names a legal move plays it on the
engine state, a disabled one shows the engine's own reason, and chance and the other seats
then move (forced outcomes first, else at random) until the seat is to move again.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page

from ladytiger.core import CHANCE, State
from tests.browser.support import (
    engine_view,
    engine_why,
    human_against_bots,
    open_table,
    screenshot,
    serve_bench_page,
    version,
    wait_my_turn_or_end,
)
from tests.helpers import new_game, play

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
ORIGIN = "http://bench.test"
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}

# The bench page: the frame's stylesheets, a felt root like the table page's, the frame's
# drawView / makeBinder / makeContext, and a status line for the reasons.
PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>view bench</title>
<link rel="stylesheet" href="/static/css/site.css">
<link rel="stylesheet" href="/static/css/table.css">
<link rel="stylesheet" href="/static/games/GAME.css">
<style>body { padding: .75rem; } #bench-status { min-height: 1.3rem; font-size: .85rem; }</style>
</head><body class="page-table"><main>
<div id="game-root" class="game-root"></div><p id="bench-status" role="status"></p>
</main>
<script type="module">
import * as module from "/static/games/GAME.js";
import {drawView, makeBinder, makeContext} from "/static/js/frame.js";
import {normalise} from "/static/js/dom.js";
const root = document.getElementById("game-root");
const status = document.getElementById("bench-status");
window.benchErrors = [];
window.benchVersion = -1;
function show(view) {
  const moves = new Map((view.legal_actions || []).map((a) => [normalise(a.text), a]));
  const play = async (action) => show(await window.benchPlay(action.text));
  const explain = async (text, element) => {
    const reason = await window.benchWhy(text);
    element.title = reason;
    status.textContent = reason;
  };
  const log = view.observation.log || [];
  const ctx = makeContext({seat: view.seat, bind: makeBinder({moves, play, explain}),
                           lastMove: log.length ? log[log.length - 1] : null});
  drawView(root, {module, own: true}, view, ctx,
           (error) => window.benchErrors.push(String(error && error.stack || error)));
  root.classList.add("game-root");
  window.benchVersion = view.version;
}
window.benchShow = show;
window.benchReady = true;
</script></body></html>
"""


class ViewBench:
    """One seat's view of `state` in the page, with the engine standing in for the server."""

    def __init__(self, page: Page, game: str, state: State, seat: int | None,
                 seed: int = 0) -> None:
        self.page, self.game, self.state, self.seat = page, game, state, seat
        self.rng = random.Random(seed)
        self.version = 1
        self.forced: list[str] = []  # chance outcomes and other seats' moves to play first
        # When set, the other seats do not move by themselves: the page shows the table as
        # this seat's move left it (chance still moves, forced moves are still played).
        self.others_wait = False
        self.played: list[str] = []  # this seat's moves, as the page named them
        self.console_errors: list[str] = []
        page.on("pageerror", lambda error: self.console_errors.append(str(error)))
        page.on("console", lambda message: self.console_errors.append(message.text)
                if message.type == "error" else None)
        page.route(f"{ORIGIN}/**", self._serve)
        page.expose_function("benchPlay", self._play)
        page.expose_function("benchWhy", self.why)
        page.goto(f"{ORIGIN}/")
        page.wait_for_function("window.benchReady === true")
        self.show()

    # -------------------------------------------------------------- the stand-in server
    def _serve(self, route: Any) -> None:
        serve_bench_page(route, ORIGIN, PAGE.replace("GAME", self.game))

    def view(self) -> dict[str, Any]:
        return engine_view(self.state, self.seat, self.version)

    def _play(self, text: str) -> dict[str, Any]:
        self.state.apply_action(self.state.string_to_action(text))
        self.played.append(text)
        self.advance()
        self.version += 1
        return self.view()

    def why(self, text: str) -> str:
        return engine_why(self.state, self.seat, text, legal="that move is legal")

    def advance(self) -> None:
        """Chance and the other seats move until this seat is to move or the game ends."""
        state = self.state
        while not state.is_terminal() and state.current_player() != self.seat:
            if self.others_wait and not self.forced and state.current_player() != CHANCE:
                return
            if self.forced:
                state.apply_action(state.string_to_action(self.forced.pop(0)))
            elif state.current_player() == CHANCE:
                outcomes = state.chance_outcomes()
                pick = self.rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])
                state.apply_action(pick[0])
            else:
                state.apply_action(self.rng.choice(state.legal_actions()))

    # -------------------------------------------------------------- for the tests
    def show(self) -> None:
        """Send the current view to the page (after the test changed the state itself)."""
        self.version += 1
        self.page.evaluate("view => window.benchShow(view)", self.view())
        self.check()

    def click(self, target: Locator | str) -> str:
        """Click a control that plays a move; the move's text, once the page shows the result."""
        before = len(self.played)
        locator = self.page.locator(target) if isinstance(target, str) else target
        locator.click()
        self.page.wait_for_function(f"window.benchVersion === {self.version}")
        assert len(self.played) == before + 1, "the click played no move"
        self.check()
        return self.played[-1]

    def reason(self, target: Locator | str) -> str:
        """Hover a disabled control; the reason the page shows for it."""
        locator = self.page.locator(target) if isinstance(target, str) else target
        assert locator.get_attribute("aria-disabled") == "true"
        locator.hover()
        self.page.wait_for_function("el => el.title !== ''", arg=locator.element_handle())
        return locator.get_attribute("title") or ""

    def enabled_moves(self) -> list[str]:
        return self.page.eval_on_selector_all(
            "#game-root .move[data-move]", "els => els.map(el => el.dataset.move)")

    def legal_texts(self) -> set[str]:
        if self.state.is_terminal() or self.state.current_player() != self.seat:
            return set()
        return {self.state.action_to_string(a) for a in self.state.legal_actions()}

    def keyed(self) -> dict[str, str | None]:
        """Every keyed thing in the view (the motion contract's data-key) and its zone; keys
        must be unique, so a repeated one fails here."""
        pairs = self.page.eval_on_selector_all(
            "#game-root [data-key]",
            "els => els.map(el => [el.dataset.key,"
            " el.closest('[data-zone]')?.dataset.zone ?? null])")
        keys = [key for key, _ in pairs]
        assert len(keys) == len(set(keys)), f"keys drawn twice: {sorted(keys)}"
        assert not any("|" in key for key in keys)
        return dict(pairs)

    def step_by_engine(self, text: str | None = None) -> str:
        """Play one move of the seat to move (a random legal one unless named) on the engine,
        let chance and the other seats move as usual, and show the result."""
        state = self.state
        if text is None:
            text = state.action_to_string(self.rng.choice(state.legal_actions()))
        state.apply_action(state.string_to_action(text))
        self.advance()
        self.show()
        return text

    def check(self) -> None:
        errors = self.page.evaluate("window.benchErrors")
        assert not errors, f"the view failed: {errors}"
        assert not self.console_errors, f"errors in the page: {self.console_errors}"

    def screenshot(self, name: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path

    def play_out_through_page(self, max_clicks: int = 3000) -> int:
        """Play this seat's moves to the end by clicking the view's own controls at random.

        Only what the view draws is used: enabled move controls, and the selectable things
        (`button`s and role=button elements that are not bound) that lead to them.
        """
        clicks = 0
        while not self.state.is_terminal():
            assert clicks < max_clicks, "the game did not end"
            moves = self.page.locator("#game-root .move[data-move]")
            picks = self.page.locator(
                "#game-root button:not([data-move]), #game-root [role=button]:not([data-move])")
            count_moves, count_picks = moves.count(), picks.count()
            assert count_moves + count_picks, (
                f"the view offers no control, but the legal moves are "
                f"{[self.state.action_to_string(a) for a in self.state.legal_actions()]}")
            choice = self.rng.randrange(count_moves + count_picks)
            if choice < count_moves or not count_picks:
                self.click(moves.nth(min(choice, count_moves - 1)))
            else:
                picks.nth(choice - count_moves).click()
                self.check()
            clicks += 1
        return clicks


def sized(new_page: Callable[..., Page], size: str) -> Page:
    """A page at one of SIZES (1280x800, a phone's 390x844), named for screenshots."""
    opened = new_page(*SIZES[size])
    opened.size_name = size  # type: ignore[attr-defined]
    return opened


# At a real table (the frame's page, the real server): the view's own controls only.
VIEW_MOVES = '#game-root [data-move]:not([aria-disabled="true"])'
VIEW_PICKS = ("#game-root button:not([data-move]), "
              "#game-root [role=button]:not([data-move]):not(.card)")


def wait_moved(page: Page, before: int) -> None:
    page.wait_for_function(
        "(v) => document.body?.dataset.pending !== '1'"
        " && (document.body?.dataset.version !== String(v)"
        " || document.body?.dataset.turn === 'over')", arg=before)


def play_with_the_view(page: Page, rng: random.Random, tries: int = 30) -> str:
    """Play one move at a real table through the game view (never the frame's move list):
    click an enabled move in the view, or first a pick (a cub, a black Trash, a card)."""
    before = version(page)
    for _ in range(tries):
        moves = page.locator(VIEW_MOVES).filter(visible=True)
        if moves.count():
            chosen = moves.nth(rng.randrange(moves.count()))
            text = chosen.get_attribute("data-move") or ""
            chosen.click()
            wait_moved(page, before)
            return text
        picks = page.locator(VIEW_PICKS).filter(visible=True)
        assert picks.count(), "the view offers nothing to click on this seat's turn"
        picks.nth(rng.randrange(picks.count())).click()
    raise AssertionError("no move reached through the view's picks")


def hover_reason(page: Page, control: Locator) -> str:
    """Hover a disabled control at a real table; the reason the server gave for it."""
    assert control.get_attribute("aria-disabled") == "true"
    control.hover()
    page.wait_for_function("el => el.dataset.reason", arg=control.element_handle())
    return control.get_attribute("data-reason") or ""


# ---------------------------------------------------------------------------- Hoard
GAME = "hoard"

# Five gems per door, in the engine's dealing order (Red Lady, Blue Lady, Red Tiger, Blue
# Tiger): the Red Lady holds only Treasure, the Red Tiger one white+black pair and a spare
# white, the Blue Tiger two pairs and a spare black.
DEAL = {
    "Red Lady": ["red Treasure"] * 3 + ["blue Treasure"] * 2,
    "Blue Lady": ["blue Treasure"] * 3 + ["white Trash", "black Trash"],
    "Red Tiger": ["white Trash"] * 2 + ["black Trash"] + ["red Treasure"] * 2,
    "Blue Tiger": ["white Trash"] * 2 + ["black Trash"] * 3,
}


def arranged(*then: str, **options: Any) -> State:
    state = new_game(GAME, **options)
    for door, gems in DEAL.items():
        play(state, *(f"deal {gem} to {door}" for gem in gems))
    return play(state, *then)


def door(page: Page, name: str) -> Locator:
    return page.locator(f'#game-root .hd-door[data-door="{name}"]')


def chip(page: Page, name: str, kind: str) -> Locator:
    return door(page, name).locator(f'.hd-chip[data-gem="{kind}"]')


def count_on(page: Page, name: str, kind: str) -> int:
    found = chip(page, name, kind)
    if not found.count():
        return 0
    return int(found.locator(".hd-chip-label").inner_text().split()[0])


def test_clicking_a_gem_moves_it_to_the_other_door_of_its_row(page: Page) -> None:
    bench = ViewBench(page, GAME, arranged("reveal Red Tiger"), seat=0)
    bench.forced = ["reveal Blue Lady"]
    assert count_on(page, "Blue Tiger", "white") == 2
    assert bench.click(chip(page, "Red Tiger", "white")) == (
        "move white Trash from Red Tiger to Blue Tiger")
    assert count_on(page, "Blue Tiger", "white") == 3
    assert count_on(page, "Red Tiger", "white") == 1
    # The next card, the Blue Lady, now names the top row: its gems move right to left.
    assert bench.click(chip(page, "Blue Lady", "black")) == (
        "move black Trash from Blue Lady to Red Lady")
    assert count_on(page, "Red Lady", "black") == 1


def test_a_gem_that_cannot_move_says_why(page: Page) -> None:
    bench = ViewBench(page, GAME, arranged("reveal Red Tiger"), seat=0)
    lady_gem = chip(page, "Red Lady", "red")
    assert "between the two Tiger doors" in bench.reason(lady_gem)
    assert "never move between a Lady and a Tiger" in page.locator("#bench-status").inner_text()
    # Only the named door has Remove and Collect, and Collect waits for the Trash to go.
    assert door(page, "Red Lady").locator(".hd-action").count() == 0
    collect = door(page, "Red Tiger").locator(".hd-action", has_text="Collect")
    assert bench.reason(collect) == (
        "no Treasure can be collected from the Red Tiger while it holds Trash "
        "(2 white, 1 black)")


def test_remove_and_collect_buttons_on_the_named_door(page: Page) -> None:
    bench = ViewBench(page, GAME, arranged("reveal Red Tiger"), seat=0)
    bench.forced = ["reveal Red Lady"]
    remove = door(page, "Red Tiger").locator(".hd-action", has_text="Remove pairs")
    assert bench.click(remove) == "remove pairs from Red Tiger"
    assert page.locator(".hd-removed").inner_text().count("1 white") == 1
    assert count_on(page, "Red Tiger", "black") == 0
    # The Red Lady holds no Trash, so its red Treasure can be collected.
    collect = door(page, "Red Lady").locator(".hd-action", has_text="Collect red")
    assert bench.click(collect) == "collect red Treasure from Red Lady"
    assert "1 of 5 red" in page.locator(".hd-collected").inner_text()
    assert count_on(page, "Red Lady", "red") == 2


def test_a_wild_puts_a_removed_pair_back_where_the_player_picks(page: Page) -> None:
    state = arranged("reveal Blue Tiger", "remove pairs from Blue Tiger", "reveal Blue/Red")
    bench = ViewBench(page, GAME, state, seat=0)
    assert "Put a removed white and black Trash back" in page.locator(".hd-hint").inner_text()
    places = page.locator("#game-root .hd-place")
    assert places.count() == 4
    assert all(places.nth(i).get_attribute("aria-disabled") is None for i in range(4))
    put = door(page, "Blue Lady").locator(".hd-place")
    assert "black on Blue Tiger" in put.inner_text()
    assert bench.click(put) == "put white Trash on Blue Lady and black Trash on Blue Tiger"
    assert count_on(page, "Blue Lady", "white") == 2
    assert page.locator(".hd-removed").inner_text().startswith("1 white")


def test_a_wild_swap_names_the_doors_whose_white_a_black_can_take(page: Page) -> None:
    bench = ViewBench(page, GAME, arranged("reveal Lady/Tiger"), seat=0)
    assert "swap a black Trash" in page.locator(".hd-hint").inner_text()
    # Only the doors holding a black Trash offer a swap, one button per door with a white.
    assert door(page, "Red Lady").locator(".hd-swap").count() == 0
    offered = door(page, "Blue Tiger").locator(".hd-swap")
    assert offered.all_inner_texts() == ["Blue Lady", "Red Tiger"]
    assert sorted(bench.enabled_moves()) == [
        "swap black Trash on Blue Lady with white Trash on Blue Tiger",
        "swap black Trash on Blue Lady with white Trash on Red Tiger",
        "swap black Trash on Blue Tiger with white Trash on Blue Lady",
        "swap black Trash on Blue Tiger with white Trash on Red Tiger",
        "swap black Trash on Red Tiger with white Trash on Blue Lady",
        "swap black Trash on Red Tiger with white Trash on Blue Tiger",
    ]
    assert bench.click(offered.filter(has_text="Red Tiger")) == (
        "swap black Trash on Blue Tiger with white Trash on Red Tiger")
    assert count_on(page, "Red Tiger", "black") == 2
    assert count_on(page, "Blue Tiger", "white") == 3


def test_the_keyboard_reaches_and_plays_a_gem(page: Page) -> None:
    bench = ViewBench(page, GAME, arranged("reveal Blue Tiger"), seat=0)
    bench.forced = ["reveal Red Lady"]
    target = chip(page, "Blue Tiger", "black")
    target.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(f"window.benchVersion === {bench.version}")
    assert bench.played == ["move black Trash from Blue Tiger to Red Tiger"]


def test_the_piles_markers_and_set_aside_cards_are_shown(page: Page) -> None:
    state = arranged("set aside Blue/Red", "set aside Red Lady", "reveal Red Tiger",
                     difficulty="hard")
    ViewBench(page, GAME, state, seat=0)
    assert "Set aside (hard)" in page.locator(".hd-side").inner_text()
    aside = page.locator(".hd-block", has_text="Set aside").locator(".card")
    assert sorted(aside.nth(i).get_attribute("data-card") for i in range(2)) == [
        "Blue/Red", "Red Lady"]
    assert "11 cards left in round 1" in page.locator(".hd-deck").inner_text()
    assert page.locator(".hd-marker-open").count() == 3
    assert page.locator(".hd-revealed .card").get_attribute("data-card") == "Red Tiger"


def test_nothing_is_a_control_when_it_is_not_the_players_move(page: Page) -> None:
    state = arranged("reveal Red Tiger")
    ViewBench(page, GAME, state, seat=None)
    assert page.locator("#game-root [data-move]").count() == 0
    assert page.locator("#game-root .hd-chip").count() > 0


def test_a_whole_game_is_played_through_the_view(page: Page) -> None:
    state = new_game(GAME, difficulty="moderate")
    bench = ViewBench(page, GAME, state, seat=0, seed=5)
    bench.advance()
    bench.show()
    bench.play_out_through_page()
    assert state.is_terminal()
    assert len(bench.played) > 10
    summary = page.locator(".hd-hint").inner_text()
    assert summary.startswith(("All 10 Treasures collected", "The third round ended with"))
    bench.screenshot("hoard-view-end-desktop")


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("moment", ["regular", "wild-place", "wild-swap"])
def test_screenshots(new_page: Callable[..., Page], size: str, moment: str) -> None:
    sized_page = sized(new_page, size)
    then = {
        "regular": ("reveal Red Tiger", "remove pairs from Red Tiger", "reveal Red Lady"),
        "wild-place": ("reveal Blue Tiger", "remove pairs from Blue Tiger", "reveal Lady/Tiger"),
        "wild-swap": ("reveal Blue/Red",),
    }[moment]
    bench = ViewBench(sized_page, GAME, arranged(*then), seat=0)
    width = sized_page.viewport_size["width"]
    overflow = sized_page.evaluate("document.documentElement.scrollWidth")
    assert overflow <= width, f"the page is {overflow}px wide in a {width}px window"
    path = bench.screenshot(f"hoard-view-{moment}-{sized_page.size_name}")  # type: ignore[attr-defined]
    assert path.stat().st_size > 10_000


def logged(text: str) -> str:
    """A pattern for the log's sentence about one of our own moves, from the move's text."""
    place = r"(?:Red|Blue) (?:Lady|Tiger)"
    patterns = [
        (rf"move (.+) from ({place}) to ({place})", r"You move a \1 from the \2 to the \3\."),
        (rf"remove pairs from ({place})",
         r"You remove (?:a pair|\\d+ pairs) of Trash from the \1\."),
        (rf"collect (.+) from ({place})", r"You collect a \1 from the \2\."),
        (rf"put white Trash on ({place}) and black Trash on ({place})",
         r"You put a white Trash on the \1 and a black Trash on the \2\."),
        (rf"swap black Trash on ({place}) with white Trash on ({place})",
         r"You swap a black Trash on the \1 with a white Trash on the \2\."),
    ]
    for move, sentence in patterns:
        if re.fullmatch(move, text):
            return re.sub(move, sentence, text)
    raise AssertionError(f"not a move of Hoard: {text!r}")


def test_at_a_real_table_the_view_plays_and_the_server_explains(server, page: Page) -> None:
    _, link = human_against_bots(server, GAME, 1, {"difficulty": "easy"})
    open_table(page, link)
    rng = random.Random(8)
    explained = played = 0
    while (explained < 1 or played < 3) and wait_my_turn_or_end(page) == "you":
        refused = page.locator('#game-root .hd-chip[aria-disabled="true"]')
        if not explained and refused.count():
            # A gem of the row the card does not name: the engine's own words, via `why`.
            reason = hover_reason(page, refused.first)
            assert "moves a gem only between the two" in reason
            explained += 1
        text = play_with_the_view(page, rng)
        played += 1
        assert text.split()[0] in {"move", "remove", "collect", "put", "swap"}
        assert re.search(logged(text), page.locator("#log").inner_text()), text
    assert explained and played >= 3


def revealed_mode(state: State) -> str:
    observation = state.observation(0, with_log=False)
    card = observation["revealed"]
    if "/" not in card:
        return "regular"
    return "place" if observation["removed"]["white"] else "swap"


def test_the_board_offers_exactly_the_legal_moves(new_page: Callable[..., Page]) -> None:
    """With nothing picked, the enabled controls on the square are the legal moves, no more
    and no fewer, at every turn of random games on each difficulty (a player needs no list
    of moves beside the board)."""
    modes: dict[str, int] = {}
    for seed, difficulty in enumerate(["easy", "moderate", "hard", "impossible"]):
        state = new_game(GAME, difficulty=difficulty)
        bench = ViewBench(new_page(), GAME, state, seat=0, seed=seed)
        bench.advance()
        bench.show()
        for _ in range(40):
            if state.is_terminal():
                break
            assert set(bench.enabled_moves()) == bench.legal_texts()
            modes[revealed_mode(state)] = modes.get(revealed_mode(state), 0) + 1
            bench.step_by_engine()
    assert set(modes) == {"regular", "place", "swap"}, modes


def gem_zones(keyed: dict[str, str | None]) -> dict[str, str | None]:
    return {key: zone for key, zone in keyed.items() if key.startswith("gem:")}


def gems_carried(state: State, text: str) -> int:
    """How many gems the move called `text` takes from one place to another."""
    if text.startswith("remove pairs from "):
        counts = state.observation(0, with_log=False)["doors"][text.removeprefix(
            "remove pairs from ")]
        return 2 * min(counts["white"], counts["black"])
    return 2 if text.startswith(("put", "swap")) else 1


def test_each_gem_keeps_its_key_wherever_it_goes(page: Page) -> None:
    """The motion's keys: twenty gems, each in its place's zone, and a move changes the zone
    of exactly the gems it carries (a gem that went nowhere never seems to move)."""
    state = new_game(GAME)
    bench = ViewBench(page, GAME, state, seat=0, seed=11)
    bench.advance()
    bench.show()
    kinds_moved: set[str] = set()
    while not state.is_terminal():
        before = gem_zones(bench.keyed())
        assert len(before) == 20
        doors = state.observation(0, with_log=False)["doors"]
        for door_name, counts in doors.items():
            zone = "door-" + door_name.lower().replace(" ", "-")
            assert sum(z == zone for z in before.values()) == sum(counts.values())
        # A player who collects and removes when they can: every kind of move comes up.
        texts = [state.action_to_string(a) for a in state.legal_actions()]
        eager = [t for t in texts if t.startswith(("collect", "remove"))]
        text = bench.rng.choice(eager or texts)
        carried = gems_carried(state, text)
        bench.step_by_engine(text)
        after = gem_zones(bench.keyed())
        moved = {key for key in before if before[key] != after[key]}
        assert len(moved) == carried, (text, sorted(moved))
        kinds_moved.add(text.split()[0])
    assert {"move", "remove", "collect", "put", "swap"} <= kinds_moved, kinds_moved


def test_the_revealed_card_moves_on_to_the_used_cards(page: Page) -> None:
    bench = ViewBench(page, GAME, arranged("reveal Red Tiger"), seat=0)
    bench.forced = ["reveal Red Lady"]
    revealed = page.locator('.hd-revealed [data-key^="card:"]')
    key = revealed.get_attribute("data-key")
    assert key == "card:Red Tiger#r1.1"
    assert revealed.get_attribute("data-from") == "deck"
    bench.click(chip(page, "Red Tiger", "white"))
    assert bench.keyed()[key] == "played"
    assert bench.keyed()["card:Red Lady#r1.1"] == "revealed"


END_HEADLINE = """async ([observation, you]) => {
  const module = await import("/static/games/hoard.js");
  return module.endHeadline(observation, {seat: you ? 0 : null,
                                          seatName: (seat) => you ? "You" : "Ana"});
}"""


def test_the_end_headline_says_the_hoard_was_opened_or_stays_shut(page: Page) -> None:
    ViewBench(page, GAME, arranged("reveal Red Tiger"), seat=0)
    won = {"terminal": True, "won": True, "scores": [8],
           "collected": {"red": 5, "blue": 5}}
    lost = {"terminal": True, "won": False, "scores": [0],
            "collected": {"red": 4, "blue": 3}}
    playing = {**lost, "terminal": False}
    assert page.evaluate(END_HEADLINE, [won, True]) == (
        "You opened the hoard: won with all 10 Treasures, score 8")
    assert page.evaluate(END_HEADLINE, [won, False]) == (
        "Ana opened the hoard: won with all 10 Treasures, score 8")
    assert page.evaluate(END_HEADLINE, [lost, True]) == (
        "The hoard stays shut: 7 of 10 Treasures, not won this time")
    assert page.evaluate(END_HEADLINE, [playing, True]) is None


def test_the_real_end_observation_gives_the_headline(page: Page) -> None:
    state = new_game(GAME)
    bench = ViewBench(page, GAME, state, seat=0, seed=4)
    bench.advance()
    while not state.is_terminal():
        bench.state.apply_action(bench.rng.choice(state.legal_actions()))
        bench.advance()
    bench.show()
    observation = state.observation(0)
    headline = page.evaluate(END_HEADLINE, [observation, True])
    if observation["won"]:
        assert headline.startswith("You opened the hoard: won")
    else:
        got = observation["collected"]["red"] + observation["collected"]["blue"]
        assert headline == f"The hoard stays shut: {got} of 10 Treasures, not won this time"
    assert page.locator(".hd-revealed h3").inner_text() in (
        "The hoard is open: won", "The hoard stays shut")


def test_on_a_phone_a_refusal_leaves_the_moves_free(server, new_page: Callable[..., Page]
                                                   ) -> None:
    """At a real table on a phone, a gem of the row the card does not name is refused beside
    it; every move that can be played stays uncovered (the Tiger row, under the Ladies, is
    the row the refusal could cover)."""
    page = new_page(*SIZES["phone"])
    _, link = human_against_bots(server, GAME, 1, {"difficulty": "easy"})
    open_table(page, link)
    rng = random.Random(3)
    for _ in range(40):
        assert wait_my_turn_or_end(page) == "you"
        shown = page.locator(".hd-revealed .card").first.get_attribute("data-card") or ""
        refused = page.locator('#game-root .hd-door[data-door$="Lady"] '
                               '.hd-chip[aria-disabled="true"]')
        if shown.endswith("Tiger") and refused.count():
            break
        play_with_the_view(page, rng)
    else:
        raise AssertionError("no Tiger card with Lady gems came up")
    refused.first.scroll_into_view_if_needed()
    # A click that lands just as the position changes is not answered (the frame's rule).
    page.wait_for_timeout(500)
    refused.first.click(force=True)  # Playwright would wait for a disabled control forever
    page.locator("#refusal").wait_for()
    assert "moves a gem only between the two Tiger doors" in page.locator("#refusal").inner_text()
    page.wait_for_timeout(150)
    covered = page.evaluate("""() => {
      const bubble = document.getElementById('refusal');
      return [...document.querySelectorAll('#game-root .move[data-move]')].filter((control) => {
        const box = control.getBoundingClientRect();
        const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return top !== null && bubble.contains(top);
      }).map((control) => control.dataset.move);
    }""")
    screenshot(page, "hoard-view-refusal-phone")
    assert covered == [], f"the refusal covers {covered}"


def test_the_table_is_drawn_while_the_gems_are_dealt(page: Page) -> None:
    # A replay shows every step, the deal's too: half the gems are out, no card is revealed.
    state = new_game(GAME)
    play(state, *(f"deal {gem} to {name}" for name in ("Red Lady", "Blue Lady")
                  for gem in DEAL[name]))
    bench = ViewBench(page, GAME, state, seat=None)
    gems = gem_zones(bench.keyed())
    assert sorted(set(gems.values())) == ["door-blue-lady", "door-red-lady"]
    assert len(gems) == 10
    assert page.locator(".hd-revealed h3").inner_text() == "No card revealed"
