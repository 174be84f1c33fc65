"""The players' rules pages (/rules/<game>) and the "?" panel (static/js/rulehelp.js).

Each page draws every example scene with the game's own view module; each scene is checked
against the engine: the position is rebuilt here from the scene's moves and chance outcomes,
and the picture must show what that position shows the scene's seat. The "?" panel is tried
in a bench page of its own over positions of random games, and must choose the same sections
as the server's `moments_for`.
"""

from __future__ import annotations

import html
import random
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from ladytiger import guides
from ladytiger.core import CHANCE, load_game
from tests.browser.support import screenshots_at_both_sizes
from tests.web.test_guides import internal_words


def _doors(o: dict[str, Any]) -> list[str]:
    cards = [*o["display"], *o["collected"], *o["discarded"]]
    return cards + [door for door in o["identities"] if door]


def _traps(o: dict[str, Any]) -> list[str]:
    cards = [*o["hand"], *([o["goal"]] if o["goal"] else [])]
    for stack in o["stacks"]:
        cards += [*stack["revealed"], *(stack["cards"] or [])]
    return cards


def _favor(o: dict[str, Any]) -> list[str]:
    mine = o["identities"][o["viewer"]]
    return [*o["lot"], *(c for pile in o["collections"] for c in pile), *([mine] if mine else [])]


def _tighee(o: dict[str, Any]) -> list[str]:
    cards = [*o["hand"], *o["put_out"], *(c for _, c in o["trick"])]
    return cards + [c for c in (o["forest"], *o["pile_tops"]) if c]


def _shady_lady(o: dict[str, Any]) -> list[str]:
    return [str(c) for hand in o["hands"] for c in hand if c is not None]


def _labyrinth(o: dict[str, Any]) -> list[str]:
    return [square["card"] for row in o["grid"] for square in row]


# Per game: the card names the position shows its viewer, which the picture must show too.
SHOWN_CARDS: dict[str, Callable[[dict[str, Any]], list[str]]] = {
    "doors": _doors, "traps": _traps, "favor": _favor, "tighee": _tighee,
    "shady_lady": _shady_lady, "labyrinth": _labyrinth,
}


def _hoard_places(o: dict[str, Any]) -> list[tuple[str, str]]:
    return [(f'[data-door="{door}"] [data-gem="{kind}"]', f"{count} {kind}")
            for door, gems in o["doors"].items() for kind, count in gems.items() if count]


def _labyrinth_places(o: dict[str, Any]) -> list[tuple[str, str]]:
    return [(f'[data-cell="{square["cell"]}"] [data-card="{square["card"]}"]', "")
            for row in o["grid"] for square in row]


# Per game: (part of the picture, words it must hold) for what is not a card: gems, cells.
SHOWN_PLACES: dict[str, Callable[[dict[str, Any]], list[tuple[str, str]]]] = {
    "hoard": _hoard_places, "labyrinth": _labyrinth_places,
}


def open_rules(page: Page, server: str, game: str) -> None:
    page.goto(f"{server}/rules/{game}")
    page.wait_for_function("() => document.body?.dataset.ready === '1'")


def scene_cards(page: Page, scene_id: str) -> list[str]:
    return page.evaluate(
        """(id) => [...document.querySelectorAll(`#scene-${id} [data-card]`)]
            .map((e) => e.dataset.card)""", scene_id)


@pytest.mark.parametrize("game", guides.GAMES)
def test_each_rules_page_draws_every_scene_as_the_engine_has_it(server, page, game):
    data = guides.guide(game)
    assert data is not None
    open_rules(page, server, game)
    assert page.locator("h1").inner_text() == data["title"]
    for scene in guides.scenes(data):
        figure = page.locator(f"#scene-{scene['id']}")
        assert figure.get_attribute("data-drawn") == "1", scene["id"]
        # Something of the table is on view, not only the caption.
        height = figure.locator(".scene-view").evaluate("(e) => e.getBoundingClientRect().height")
        assert height > 60, (scene["id"], height)
        state = guides.scene_state(game, scene)
        observation = state.observation(scene.get("seat"))
        expected = SHOWN_CARDS.get(game)
        if expected is not None:
            missing = Counter(expected(observation)) - Counter(scene_cards(page, scene["id"]))
            assert not missing, f"{game} scene {scene['id']}: not drawn: {dict(missing)}"
        places = SHOWN_PLACES.get(game)
        for selector, words in places(observation) if places else ():
            found = page.evaluate(
                """([id, selector]) => [...document.querySelectorAll(`#scene-${id} ${selector}`)]
                    .map((e) => e.textContent)""", [scene["id"], selector])
            assert any(words in text for text in found), (scene["id"], selector, words, found)
        assert expected is not None or places is not None, f"nothing of {game} is checked"
    # The guide's own words; a scene's words are the table's, which may name seats.
    text = page.evaluate("""() => { const main = document.querySelector('main').cloneNode(true);
        main.querySelectorAll('.scene-view').forEach((e) => e.remove());
        return main.textContent; }""")
    assert "Fine points" in text and not internal_words(text), internal_words(text)
    others = page.locator(".guide-others a")
    assert others.count() == len(guides.GAMES) - 1
    assert page.locator(f'a[href="/?game={game}"]').count() >= 1
    page.emulate_media(media="print")
    assert page.locator(".topbar").is_hidden() and page.locator(".scene").first.is_visible()
    page.emulate_media(media="screen")
    screenshots_at_both_sizes(page, f"rules-{game}", full_page=True)


def test_the_scene_check_would_notice_a_different_position(server, page):
    # The check above compares with the engine: a position one move on shows other cards.
    data = guides.guide("doors")
    assert data is not None
    scene = next(s for s in guides.scenes(data) if s["id"] == "start")
    open_rules(page, server, "doors")
    moved = guides.scene_state("doors", scene)
    moved.apply_action(moved.string_to_action("take Red Lady"))
    moved.apply_action(moved.string_to_action("reveal Blue Lady"))
    expected = Counter(_doors(moved.observation(0)))
    assert expected - Counter(scene_cards(page, "start"))


# ---------------------------------------------------------------------------- the "?" panel
BENCH = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/css/site.css">
</head><body><main><div id="bar"></div></main>
<script type="module">
import {createRuleHelp} from "/static/js/rulehelp.js";
const game = new URLSearchParams(location.search).get("game");
window.__obs = null;
window.__seat = null;
const help = createRuleHelp({game, observation: () => window.__obs, seat: () => window.__seat});
document.getElementById("bar").append(help.button);
document.body.append(help.panel);
window.__set = (obs, seat) => { window.__obs = obs; window.__seat = seat; return help.update(); };
window.__ready = true;
</script></body></html>
"""


def open_bench(page: Page, server: str, game: str) -> None:
    page.route(lambda url: url.startswith(f"{server}/bench"), lambda route: route.fulfill(
        body=BENCH, content_type="text/html; charset=utf-8"))
    page.goto(f"{server}/bench?game={game}")
    page.wait_for_function("() => window.__ready === true")


def plain(markup: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", markup)).split())


def panel_shows(page: Page) -> dict[str, Any]:
    return page.evaluate("""() => {
        const panel = document.querySelector('.rule-help-panel');
        return {hidden: panel.hidden, phase: panel.dataset.phase,
                sections: [...panel.querySelectorAll('[data-section]')]
                    .map((e) => e.dataset.section),
                say: [...panel.querySelectorAll('.rule-help-say')].map((e) => e.innerText.trim())};
    }""")


def positions(game: str, seed: int, players: int) -> list[Any]:
    """Every player decision of one random game, as states (chance steps played out)."""
    rng = random.Random(seed)
    state = load_game(game, players=players).new_initial_state()
    found = []
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([o for o, _ in outcomes],
                                           weights=[p for _, p in outcomes])[0])
            continue
        found.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    found.append(state)
    return found


@pytest.mark.parametrize(("game", "players"), [("doors", 2), ("traps", 3)])
def test_the_question_mark_shows_the_rule_of_each_phase_and_role(server, page, game, players):
    data = guides.guide(game)
    assert data is not None
    open_bench(page, server, game)
    button = page.locator(".rule-help-button")
    assert button.inner_text() == "?"
    assert panel_shows(page)["hidden"]
    button.click()
    assert page.locator(".rule-help-panel").is_visible()
    # Beside the rules, the game's guided game, for a player who learns by playing.
    expect(page.locator(".rule-help-learn")).to_have_attribute("href", f"/learn/{game}")
    states = positions(game, 3, players)
    # Every phase once, for every seat and a spectator, and the end.
    picked: dict[str, Any] = {}
    for state in states:
        picked.setdefault(state.observation(None, with_log=False)["phase"], state)
    assert len(picked) >= 3, sorted(picked)
    for phase, state in picked.items():
        for seat in (None, *range(players)):
            observation = state.observation(seat, with_log=False)
            page.evaluate("([o, s]) => window.__set(o, s)", [observation, seat])
            expected = guides.moments_for(data, observation, seat)
            assert expected, (phase, seat)
            page.wait_for_function("(p) => document.querySelector('.rule-help-panel')"
                                   ".dataset.phase === p", arg=phase)
            shown = panel_shows(page)
            assert shown["sections"] == [section["id"] for section, _ in expected]
            assert shown["say"] == [plain(moment["say"]) for _, moment in expected]
    page.keyboard.press("Escape")
    assert panel_shows(page)["hidden"]
    assert button.get_attribute("aria-expanded") == "false"


def test_the_panel_names_the_guessers_rule_and_fits_a_phone(server, new_page):
    data = guides.guide("doors")
    assert data is not None
    scene = next(s for s in guides.scenes(data) if s["id"] == "guessing")
    state = guides.scene_state("doors", scene)
    page = new_page(390, 844)
    open_bench(page, server, "doors")
    page.evaluate("([o, s]) => window.__set(o, s)", [state.observation(1), 1])
    page.locator(".rule-help-button").click()
    panel = page.locator(".rule-help-panel")
    panel.get_by_text("Your turn as Guesser: discard one card; you may guess before or after."
                      ).wait_for()
    assert panel.locator("a", has_text="All the rules of Doors").get_attribute(
        "href") == "/rules/doors#guesser"
    screenshots_at_both_sizes(page, "rulehelp-doors-guesser")
    box = panel.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 1280
