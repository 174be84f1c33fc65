"""Addresses with nothing on them: a browser gets the site's own page with the ways back in,
a program gets the API's JSON error; the index pages of rules and guided games list them all."""

from __future__ import annotations

import pytest

from ladytiger.core import registered_games
from ladytiger.lessons import LESSON_GAMES
from tests.web.test_guides import visible_text

WAYS_BACK = ('href="/"', 'href="/#lobby"', 'href="/#my-games"', 'href="/rules"', 'href="/learn"')


@pytest.mark.parametrize("path", ["/nothing", "/play", "/rules/doors/more", "/static/nope.js"])
def test_a_page_that_is_not_there_is_said_so_in_the_sites_own_look(client, path):
    answer = client.get(path)
    assert answer.status_code == 404
    assert answer.headers["content-type"].startswith("text/html")
    assert "content-security-policy" in answer.headers
    page = answer.text
    assert '<meta charset="utf-8">' in page and "/static/css/site.css" in page
    assert "There is no page here" in visible_text(page)
    for way in WAYS_BACK:
        assert way in page, way
    # The template's blanks are all filled.
    assert "{" not in visible_text(page)


def test_a_program_asking_the_api_still_gets_json(client):
    answer = client.get("/api/nothing")
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "not_found"
    wrong = client.get("/api/tables/abc/join")
    assert wrong.status_code == 405
    assert wrong.json()["error"]["code"] == "method_not_allowed"


def test_a_browser_at_an_address_that_takes_only_posts_is_told_what_it_is(client):
    # /replay takes the browser's GET; the page routes are GET only, so a POST to one is
    # the way to reach a 405 outside the API.
    answer = client.post("/rules/doors")
    assert answer.status_code == 405
    assert "This address is not a page" in visible_text(answer.text)


def test_the_rules_index_names_every_game_and_what_it_is(client):
    answer = client.get("/rules")
    assert answer.status_code == 200
    text = visible_text(answer.text)
    for info in registered_games():
        assert f'href="/rules/{info.name}"' in answer.text
        assert info.description in text
    # No list of "the other games" under a list of all of them.
    assert "The other games" not in text


def test_the_guided_games_have_a_chooser_at_learn(client):
    assert client.get("/learn").status_code == 200
    assert LESSON_GAMES  # the chooser lists these, read from /api/games by the page
    listed = {entry["name"]: entry for entry in client.get("/api/games").json()["games"]}
    for game in LESSON_GAMES:
        assert listed[game]["lesson"] == f"/learn/{game}"
