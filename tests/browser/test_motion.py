"""Motion between two drawings of a view (static/js/motion.js), checked on drawings made by
hand in a real page: things glide from where they were, come out of the deck, fly into the
pile that took them, numbers rise, and what the others moved stays marked until your move."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

# Two drawings of a small table: the display's Red Lady goes to seat 1's collection, a card
# comes out of the deck, seat 1's gems rise from 2 to 5 and the trick goes to seat 0's pile.
BEFORE = """
<div data-zone="deck" style="width:60px;height:80px">deck</div>
<div data-zone="display" style="display:flex;gap:8px">
  <div class="card" data-key="card:Red Lady" style="width:50px;height:70px">RL</div>
  <div class="card" data-key="card:Blue Tiger" style="width:50px;height:70px">BT</div>
</div>
<div data-zone="collection-1" style="display:flex;height:80px"></div>
<div data-zone="trick" style="display:flex;gap:8px">
  <div class="card" data-key="card:Green 7" style="width:50px;height:70px">G7</div>
</div>
<div data-zone="won-0" style="width:60px;height:40px">0 tricks</div>
<span data-count-key="gems-1" data-count="2">2</span>
"""
AFTER = """
<div data-zone="deck" style="width:60px;height:80px">deck</div>
<div data-zone="display" style="display:flex;gap:8px">
  <div class="card" data-key="card:Blue Tiger" style="width:50px;height:70px">BT</div>
  <div class="card" data-key="card:Blue Lady" data-from="deck"
       style="width:50px;height:70px">BL</div>
</div>
<div data-zone="collection-1" style="display:flex;height:80px">
  <div class="card" data-key="card:Red Lady" style="width:50px;height:70px">RL</div>
</div>
<div data-zone="trick" style="display:flex;gap:8px"></div>
<div data-zone="won-0" data-took="card:Green 7" style="width:60px;height:40px">1 trick</div>
<span data-count-key="gems-1" data-count="5">5</span>
"""

SETUP = """async ([before]) => {
  const motion = await import('/static/js/motion.js');
  document.body.innerHTML = '<div id="root"></div>';
  const root = document.getElementById('root');
  root.innerHTML = before;
  window.__motion = motion.createMotion(root);
  window.__root = root;
}"""

STEP = """([html, options]) => {
  window.__motion.capture();
  window.__root.innerHTML = html;
  window.__motion.play(options);
  const running = (selector) => [...document.querySelectorAll(selector)]
    .reduce((n, e) => n + e.getAnimations().length, 0);
  return {
    moved: [...document.querySelectorAll('.lt-moved')].map((e) => e.dataset.key),
    glides: running('[data-key="card:Red Lady"]'),
    arrivals: running('[data-key="card:Blue Lady"]'),
    ghosts: document.querySelectorAll('.lt-ghost').length,
    rises: [...document.querySelectorAll('.lt-rise')].map((e) => e.textContent),
    pulses: running('[data-count-key]'),
  };
}"""


@pytest.fixture
def bench(server: str, page: Page) -> Page:
    # A blank page of the server's origin, so that the module is the one the server ships.
    page.route(server + "/motion-bench", lambda route: route.fulfill(
        body='<!doctype html><meta charset="utf-8"><title>bench</title><body></body>',
        content_type="text/html; charset=utf-8"))
    page.goto(server + "/motion-bench")
    # The suite's pages ask for reduced motion (tests/browser/conftest.py); these do not.
    page.emulate_media(reduced_motion="no-preference")
    page.evaluate(SETUP, [BEFORE])
    return page


def test_each_kind_of_move_is_animated_from_where_it_was(bench: Page) -> None:
    seen = bench.evaluate(STEP, [AFTER, {"byOther": True}])
    assert seen["glides"] == 1, "the taken card glides from the display to the collection"
    assert seen["arrivals"] == 1, "the drawn card comes out of the deck"
    assert seen["ghosts"] == 1, "the trick's card flies into the winner's pile"
    assert seen["rises"] == ["+3"], "the gems that rose float up"
    assert seen["pulses"] == 1
    # What the other player moved is marked: the taken card (not the refill: that is chance).
    assert seen["moved"] == ["card:Red Lady"]


def test_the_marks_stay_over_redrawings_until_the_viewers_own_move(bench: Page) -> None:
    bench.evaluate(STEP, [AFTER, {"byOther": True}])
    # Drawn again as it is (a name arrived, say): still marked, nothing glides.
    again = bench.evaluate(STEP, [AFTER, {"byOther": False, "animate": False}])
    assert again["moved"] == ["card:Red Lady"]
    assert again["glides"] == 0
    # The viewer moves: the marks are put away, and the viewer's own move is not marked.
    mine = bench.evaluate(STEP, [BEFORE, {"byOther": False, "reset": True}])
    assert mine["moved"] == []


def test_nothing_moves_for_a_reader_who_asks_for_reduced_motion(bench: Page) -> None:
    bench.emulate_media(reduced_motion="reduce")
    seen = bench.evaluate(STEP, [AFTER, {"byOther": True}])
    assert (seen["glides"], seen["arrivals"], seen["ghosts"], seen["rises"]) == (0, 0, 0, [])
    # The mark does not move: it stays.
    assert seen["moved"] == ["card:Red Lady"]
