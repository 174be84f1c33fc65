"""Helpers of the browser tests: tables made over HTTP, pages that play moves by clicking.

A page is at the table when `body[data-turn]` is set by the frame: `waiting`, `you`,
`other`, `over` (or `loading`, `error`). `body[data-version]` is the version of the view
shown and `body[data-pending]` is "1" while a move is on its way. Every control that plays a
move carries `data-move` (its move text); a control not legal now has aria-disabled="true".
"""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

import ladytiger

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}

# Options that keep each game short in the whole-game tests.
SHORT = {
    "doors": {"gems_to_win": 3},
    "favor": {},
    "hoard": {},
    "labyrinth": {"turn_cap": 10},
    "shady_lady": {"turn_limit": 15},
    "tighee": {},
    "traps": {"max_seasons": 3},
}
# Enabled move controls that are on the page (not hidden): what a player could click now.
ENABLED = '[data-move]:not([aria-disabled="true"]):not([disabled])'


def http(base: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    headers = {"content-type": "application/json"} if body is not None else {}
    if token:
        headers["authorization"] = f"Bearer {token}"
    request = urllib.request.Request(base + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.load(answer)
    except urllib.error.HTTPError as error:
        raise AssertionError(f"{method} {path}: {error.code} {error.read()!r}") from None


def create_table(base: str, game: str, options: dict[str, Any] | None = None,
                 seats: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    """POST /api/tables; bots default to random with no pause."""
    body: dict[str, Any] = {"game": game, "options": options or {}, "bot_pause": 0.0}
    if seats is not None:
        body["seats"] = seats
    body.update(extra)
    return http(base, "POST", "/api/tables", body)


def human_against_bots(base: str, game: str, players: int,
                       options: dict[str, Any] | None = None, seat: int = 0) -> tuple[str, str]:
    """A table with a human in `seat` and random bots elsewhere: (table id, invite link)."""
    seats: list[dict[str, Any]] = [{"kind": "bot", "bot": "random"}] * players
    seats[seat] = {"kind": "human"}
    made = create_table(base, game, {"players": players, **(options or {})}, seats)
    return made["table"]["id"], made["links"]["invites"][str(seat)]


def open_table(page: Page, link: str) -> None:
    page.goto(link)
    wait_settled(page)


def wait_settled(page: Page, timeout: float = 15_000) -> str:
    """Wait until the page shows a view that is not waiting on a move; return data-turn."""
    page.wait_for_function(
        "() => ['you', 'other', 'over', 'waiting'].includes(document.body?.dataset.turn)"
        " && document.body?.dataset.pending !== '1'",
        timeout=timeout,
    )
    return turn(page)


def turn(page: Page) -> str:
    return page.evaluate("() => document.body?.dataset.turn")


def version(page: Page) -> int:
    return int(page.evaluate("() => document.body?.dataset.version || '0'"))


def wait_my_turn_or_end(page: Page, timeout: float = 20_000) -> str:
    page.wait_for_function(
        "() => ['you', 'over'].includes(document.body?.dataset.turn)"
        " && document.body?.dataset.pending !== '1'",
        timeout=timeout,
    )
    return turn(page)


def enabled_moves(page: Page) -> list[str]:
    """Texts of the enabled move controls now visible, in page order (duplicates kept)."""
    return page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)]
            .filter((e) => e.getClientRects().length > 0)
            .map((e) => e.dataset.move)""",
        ENABLED,
    )


def click_random_move(page: Page, rng: random.Random, avoid: tuple[str, ...] = (),
                      avoid_chance: float = 0.0) -> str:
    """Click one enabled control at random (moves starting with `avoid` are skipped with
    probability `avoid_chance`, to make games last longer); return its move text."""
    texts = enabled_moves(page)
    assert texts, "it is this seat's turn but no enabled control is on the page"
    indices = list(range(len(texts)))
    if avoid and rng.random() < avoid_chance:
        kept = [i for i in indices if not texts[i].lower().startswith(avoid)]
        indices = kept or indices
    index = rng.choice(indices)
    before = version(page)
    visible = page.locator(ENABLED).filter(visible=True)
    visible.nth(index).click()
    page.wait_for_function(
        "(v) => document.body?.dataset.pending !== '1'"
        " && (document.body?.dataset.version !== String(v)"
        " || document.body?.dataset.turn === 'over')",
        arg=before,
        timeout=15_000,
    )
    return texts[index]


def play_to_end(page: Page, rng: random.Random, max_moves: int = 400,
                on_turn: Any = None, **avoid: Any) -> list[str]:
    """Play this seat by random clicks until the end screen shows; return the moves."""
    moves: list[str] = []
    while wait_my_turn_or_end(page) == "you":
        if on_turn is not None:
            on_turn(page, len(moves))
        moves.append(click_random_move(page, rng, **avoid))
        assert len(moves) <= max_moves, f"no end after {max_moves} moves"
    # The summary is complete once the record and every seat's final view have arrived.
    page.locator('.end-summary[data-ready="1"]').wait_for()
    return moves


def screenshot(page: Page, name: str, full_page: bool = False) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    size = page.viewport_size or {"width": 0, "height": 0}
    path = ARTIFACTS / f"{name}-{size['width']}x{size['height']}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


def screenshots_at_both_sizes(page: Page, name: str, full_page: bool = False) -> list[Path]:
    """Save the page at 1280x800 and at 390x844, then put the first size back."""
    original = page.viewport_size
    # A hover left over from the last click would show its tooltip in the picture.
    page.mouse.move(0, 0)
    page.evaluate("""() => { const line = document.getElementById('statusline');
        if (line && line.classList.contains('reason')) line.hidden = true; }""")
    paths = []
    for width, height in SIZES.values():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(120)  # a layout pass after the resize
        paths.append(screenshot(page, name, full_page=full_page))
        overflow = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 1, f"{name} is {overflow}px wider than a {width}px screen"
    if original:
        page.set_viewport_size(original)
    return paths


def page_text(page: Page) -> str:
    return page.evaluate("() => document.body.innerText")


def page_html(page: Page) -> str:
    return page.content()


# ---------------------------------------------------------------------------- stand-in server
# Two view benches (tests/browser/test_view_favor.py and test_view_hoard.py) draw a game's
# view module in a page of their own, with the engine in this process standing in for the
# server. These are the parts they share: the static files, the `view` message and `why`.
STATIC = Path(ladytiger.__file__).parent / "web" / "static"
CONTENT_TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}


def serve_bench_page(route: Any, origin: str, page_html: str) -> None:
    """Answer a request of a bench page: `/` is the page itself, `/static/...` the shipped
    static files, anything else 404."""
    path = route.request.url[len(origin):].split("?")[0]
    if path == "/":
        route.fulfill(body=page_html, content_type="text/html; charset=utf-8")
        return
    file = STATIC / path.removeprefix("/static/")
    if not path.startswith("/static/") or not file.is_file():
        route.fulfill(status=404, body="not found")
        return
    route.fulfill(body=file.read_text("utf-8"),
                  content_type=CONTENT_TYPES.get(file.suffix, "text/plain"))


def engine_view(state: Any, seat: int | None, version: int, table: str = "bench"
                ) -> dict[str, Any]:
    """The server's `view` message (docs/protocol.md) for `seat`, made from `state`."""
    mover = state.current_player()
    mine = seat is not None and mover == seat
    return {
        "type": "view", "table": table, "version": version,
        "status": "finished" if state.is_terminal() else "playing",
        "seat": seat, "current_player": mover, "your_turn": mine,
        "observation": state.observation(seat),
        "legal_actions": [state.describe_action(a) for a in state.legal_actions()]
        if mine else [],
    }


def engine_why(state: Any, seat: int | None, text: str, legal: str = "legal") -> str:
    """The server's answer to `why`: the engine's reason, on the seat's own turn only."""
    from ladytiger.core.errors import LadyTigerError

    player = state.current_player()
    if player != seat:
        return f"it is not your turn: seat {player} is to move"
    try:
        return state.illegal_reason(state.string_to_action(text)) or legal
    except LadyTigerError as error:
        return str(error)
