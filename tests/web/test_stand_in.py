"""A player who left (docs/protocol.md, "A player who left"): after `away_grace` without a
connection, another player at the table may have a bot play the seat's turns, until its
human comes back; every other case is refused, naming why."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from ladytiger.web import create_app
from tests.web.support import join_seats, quick_settings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

GRACE = 0.3


@pytest.fixture
def client(tmp_path) -> Iterator[TestClient]:
    settings = quick_settings(tmp_path / "tables.sqlite3", away_grace=GRACE)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def two_people(client) -> dict[str, Any]:
    """A Doors table of two people, both joined and gone again: the game has started."""
    made = client.post("/api/tables", json={"game": "doors",
                                            "options": {"gems_to_win": 3}}).json()
    join_seats(client, made["table"]["id"], made["tokens"])
    return made


def path(made: dict[str, Any]) -> str:
    return f"/api/tables/{made['table']['id']}/ws"


def next_of(ws, kind: str) -> dict[str, Any]:
    while True:
        message = ws.receive_json()
        if message["type"] in (kind, "error"):
            return message


def hello(ws, token: str | None) -> dict[str, Any]:
    ws.send_json({"type": "hello", **({"token": token} if token else {})})
    next_of(ws, "welcome")
    return next_of(ws, "view")


def to_seat_one(ws, view: dict[str, Any]) -> dict[str, Any]:
    """Seat 0 plays its first legal moves until seat 1 is to move."""
    while view["current_player"] == 0:
        ws.send_json({"type": "action", "version": view["version"],
                      "action": view["legal_actions"][0]["id"]})
        while True:
            view = next_of(ws, "view")
            if view.get("type") == "error":
                raise AssertionError(view)
            if view["current_player"] != 0 or view["your_turn"]:
                break
    return view


def test_a_bot_plays_for_a_player_who_left_until_they_come_back(client):
    made = two_people(client)
    with client.websocket_connect(path(made)) as ws:
        view = to_seat_one(ws, hello(ws, made["tokens"]["0"]))
        assert view["stand_ins"] == []
        waiting = client.get(f"/api/tables/{made['table']['id']}").json()["table"]["seats"]
        assert 0 < waiting[1]["stand_in_wait"] <= GRACE
        # Seat 1 left a moment ago: too soon.
        ws.send_json({"type": "stand_in", "seat": 1, "ref": "s1"})
        refused = next_of(ws, "ack")
        assert refused["code"] == "no_stand_in" and refused["ref"] == "s1"
        assert "a bot may stand in after 0.3 s away" in refused["message"]
        assert 0 < refused["retry_after"] <= GRACE
        time.sleep(GRACE + 0.1)
        ws.send_json({"type": "stand_in", "seat": 1, "ref": "s2"})
        assert next_of(ws, "ack") == {"type": "ack", "ref": "s2",
                                      "table": made["table"]["id"], "stand_in": 1}
        # Everyone is told, and the bot moves for seat 1 until seat 0 is to move again.
        assert next_of(ws, "view")["stand_ins"] == [1]
        while True:
            view = next_of(ws, "view")
            if view["current_player"] == 0 or view["status"] != "playing":
                break
        assert view["version"] > refused.get("version", 0)
        info = client.get(f"/api/tables/{made['table']['id']}").json()["table"]
        assert info["seats"][1]["stand_in"] is True and info["seats"][1]["away_since"]
        assert info["seats"][0]["away_since"] is None
        assert info["seats"][0]["stand_in_wait"] is None
        assert info["seats"][1]["stand_in_wait"] == 0.0
        # Seat 1 comes back: the seat is its player's again, and no bot moves for it.
        with client.websocket_connect(path(made)) as back:
            returned = hello(back, made["tokens"]["1"])
            assert returned["stand_ins"] == []
            if view["status"] == "playing":
                view = to_seat_one(ws, next_of(ws, "view"))
                time.sleep(0.3)
                again = client.get(f"/api/tables/{made['table']['id']}").json()["table"]
                assert again["version"] == view["version"], "nobody moved for seat 1"
                assert again["seats"][1]["stand_in"] is False


def test_a_stand_in_is_refused_naming_why(client):
    made = two_people(client)
    with client.websocket_connect(path(made)) as ws0, \
            client.websocket_connect(path(made)) as ws1:
        hello(ws0, made["tokens"]["0"])
        hello(ws1, made["tokens"]["1"])
        time.sleep(GRACE + 0.1)
        for seat, words in ((0, "a bot can stand in only for another player"),
                            (1, "seat 1 is here: a bot may stand in only for a player who "
                                "has left")):
            ws0.send_json({"type": "stand_in", "seat": seat})
            refused = next_of(ws0, "ack")
            assert (refused["code"], refused["message"]) == ("no_stand_in", words)
        ws0.send_json({"type": "stand_in", "seat": 5})
        assert next_of(ws0, "ack")["code"] == "bad_field"
        ws0.send_json({"type": "stand_in", "seat": "1"})
        assert next_of(ws0, "ack")["code"] == "bad_field"
        with client.websocket_connect(path(made)) as watcher:
            hello(watcher, None)
            watcher.send_json({"type": "stand_in", "seat": 1})
            assert next_of(watcher, "ack")["code"] == "spectator"


def test_no_stand_in_for_a_bot_or_where_the_server_allows_none(tmp_path):
    for grace, seats, words in (
            (GRACE, [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
             "seat 1 is a bot already"),
            (0.0, [{"kind": "human"}, {"kind": "human"}],
             "this server lets no bot stand in for a player (its away_grace setting is 0)")):
        settings = quick_settings(tmp_path / f"t{grace}.sqlite3", away_grace=grace)
        with TestClient(create_app(settings)) as client:
            made = client.post("/api/tables", json={"game": "doors", "seats": seats}).json()
            join_seats(client, made["table"]["id"], made["tokens"])
            with client.websocket_connect(path(made)) as ws:
                hello(ws, made["tokens"]["0"])
                time.sleep(GRACE + 0.1)
                ws.send_json({"type": "stand_in", "seat": 1})
                refused = next_of(ws, "ack")
                assert (refused["code"], refused["message"]) == ("no_stand_in", words)
