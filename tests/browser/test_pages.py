"""The page routes themselves (no browser): what `mount_pages` serves and replaces."""

from __future__ import annotations

import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from ladytiger.web import Settings, create_app
from ladytiger.web.pages import mount_pages


@pytest.fixture
def client(tmp_path):
    app = create_app(Settings(db_path=str(tmp_path / "t.sqlite3"), bot_pool="thread"))
    mount_pages(app)
    mount_pages(app)  # twice: nothing changes
    with TestClient(app) as test_client:
        yield test_client


def test_the_home_page_replaces_the_servers_placeholder(client):
    answer = client.get("/")
    assert answer.status_code == 200
    assert '<meta charset="utf-8">' in answer.text
    assert "/static/js/home.js" in answer.text
    assert "server is up" not in answer.text
    assert "script-src 'self'" in answer.headers["content-security-policy"]
    assert answer.headers["referrer-policy"] == "no-referrer"


def test_each_page_route_serves_its_page(client):
    assert "/static/js/table.js" in client.get("/play/anything").text
    assert "/static/js/replay.js" in client.get("/replay/anything").text
    paths = [route.path for route in client.app.router.routes if hasattr(route, "path")]
    assert paths.count("/") == 1 and paths.count("/play/{table_id}") == 1


def test_static_files_ship_in_the_package(client):
    for path in ("/static/css/site.css", "/static/css/table.css", "/static/js/frame.js",
                 "/static/js/cards.js", "/static/games/doors.js", "/static/img/favicon.svg"):
        answer = client.get(path)
        assert answer.status_code == 200, path
    assert client.get("/static/js/frame.js").headers["content-type"].startswith(
        "text/javascript")
    assert client.get("/static/nothing.js").status_code == 404


def test_rules_pages_are_players_guides_with_their_fine_points(client):
    for game in ("doors", "favor", "hoard", "labyrinth", "shady_lady", "tighee", "traps"):
        answer = client.get(f"/rules/{game}")
        assert answer.status_code == 200, game
        assert 'id="fine-points"' in answer.text, game
        assert "<h2>In one minute</h2>" in answer.text, game
        assert answer.text.count("<li>") > 5
    assert client.get("/rules/doors").text.count('aria-current="page"') == 1
    missing = client.get("/rules/chess")
    assert missing.status_code == 404
    assert 'href="/rules/doors"' in missing.text


def test_the_api_is_untouched(client):
    assert client.get("/api/games").status_code == 200
    assert client.get("/api/tables/nope").json()["error"]["code"] == "unknown_table"
