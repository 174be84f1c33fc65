"""What a rated game did to each seat's rating (docs/protocol.md, "Ratings"): told to the
table as `rated` once saved, kept with the table's result, and listed with the game."""

from __future__ import annotations

import time
import warnings
from typing import Any

from ladytiger.web import create_app
from ladytiger.web.ratings import Skill, rate
from tests.web.support import auth, join_seats, quick_settings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def new_player(client: TestClient, name: str) -> dict[str, Any]:
    return client.post("/api/players", json={"name": name}).json()


def next_of(ws, kind: str) -> dict[str, Any]:
    while True:
        message = ws.receive_json()
        if message["type"] in (kind, "error"):
            return message


def wait_for(check: Any) -> Any:
    deadline = time.monotonic() + 5
    while not (result := check()):
        assert time.monotonic() < deadline
        time.sleep(0.02)
    return result


def test_a_rated_game_tells_the_table_each_seats_rating_before_and_after(tmp_path):
    settings = quick_settings(tmp_path / "tables.sqlite3")
    with TestClient(create_app(settings)) as client:
        ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
        made = client.post("/api/tables", json={"game": "doors", "me": 0},
                           headers={"authorization": f"Player {ana['secret']}"}).json()
        table_id = made["table"]["id"]
        with client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
            ws.send_json({"type": "hello", "token": made["tokens"]["1"],
                          "player": bea["secret"]})
            next_of(ws, "view")
        join_seats(client, table_id, made["tokens"])
        with client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
            ws.send_json({"type": "hello", "token": made["tokens"]["0"]})
            next_of(ws, "view")
            assert client.get(f"/api/tables/{table_id}").json()["table"]["ratings"] is None
            ws.send_json({"type": "resign", "ref": "r"})
            told = next_of(ws, "rated")
        expected = rate([Skill(), Skill()], [0.0, 1.0])  # seat 0 (Ana) gave up
        assert told["table"] == table_id
        assert told["ratings"] == [
            {"seat": 0, "player": ana["player"]["id"], "before": Skill().shown,
             "after": expected[0].shown, "games": 1},
            {"seat": 1, "player": bea["player"]["id"], "before": Skill().shown,
             "after": expected[1].shown, "games": 1},
        ]
        assert told["ratings"][1]["after"] > 1000 > told["ratings"][0]["after"]
        info = client.get(f"/api/tables/{table_id}").json()["table"]
        assert info["ratings"] == told["ratings"]
        # The seats' ratings as they stand now, for the page to show beside the names.
        assert info["seat_ratings"] == [{"rating": change["after"], "games": 1}
                                        for change in told["ratings"]]
        listed = client.get(f"/api/players/{ana['player']['id']}").json()["games"]
        assert listed[0]["ratings"] == told["ratings"]
    # Kept with the table's result: a restarted server still tells it.
    with TestClient(create_app(settings)) as client:
        info = client.get(f"/api/tables/{table_id}").json()["table"]
        assert info["ratings"] == told["ratings"]
        assert client.get(f"/api/tables/{table_id}/view",
                          headers=auth(made["tokens"]["0"])).json()["resigned"] == 0


def test_a_finished_game_keeps_its_result_beside_its_ratings(tmp_path):
    settings = quick_settings(tmp_path / "tables.sqlite3")
    with TestClient(create_app(settings)) as client:
        made = client.post("/api/tables", json={
            "game": "doors", "options": {"gems_to_win": 1},
            "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "casual"}],
        }).json()
        table_id = made["table"]["id"]
        info = wait_for(lambda: (found := client.get(f"/api/tables/{table_id}").json()["table"])
                        ["ratings"] and found)
        assert [change["player"] for change in info["ratings"]] == ["bot_random", "bot_casual"]
        winner = info["result"]["returns"].index(1.0)
        assert info["ratings"][winner]["after"] > info["ratings"][1 - winner]["after"]
        ended = client.get("/api/tables?status=finished").json()["tables"]
        entry = next(table for table in ended if table["id"] == table_id)
        assert entry["ratings"] == info["ratings"]
        assert set(entry["result"]) == {"returns", "scores"}


def test_a_tables_seats_carry_their_players_ratings_or_none(tmp_path):
    with TestClient(create_app(quick_settings(tmp_path / "tables.sqlite3"))) as client:
        ana = new_player(client, "Ana")
        made = client.post("/api/tables", json={
            "game": "doors", "me": 0, "seats": [{"kind": "human"}, {"kind": "human"}]},
            headers={"authorization": f"Player {ana['secret']}"}).json()
        # Nobody here has played a rated game of Doors, and seat 1 has no player yet.
        info = client.get(f"/api/tables/{made['table']['id']}").json()["table"]
        assert info["seat_ratings"] == [None, None]


def test_the_lobby_lists_an_open_seat_with_the_rating_of_whoever_waits_there(tmp_path):
    with TestClient(create_app(quick_settings(tmp_path / "tables.sqlite3"))) as client:
        ana = new_player(client, "Ana")
        as_ana = {"authorization": f"Player {ana['secret']}"}
        # Ana loses a rated game to the casual bot by resigning it.
        against_bot = client.post("/api/tables", headers=as_ana, json={
            "game": "doors", "me": 0,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "casual"}]}).json()
        join_seats(client, against_bot["table"]["id"], against_bot["tokens"])
        client.post(f"/api/tables/{against_bot['table']['id']}/resign",
                    headers=auth(against_bot["tokens"]["0"]))
        rated = wait_for(lambda: client.get(f"/api/tables/{against_bot['table']['id']}")
                         .json()["table"]["ratings"])
        # Then she opens a table for anyone, against her and the same bot.
        client.post("/api/tables", headers=as_ana, json={
            "game": "favor", "me": 0, "options": {"players": 3},
            "seats": [{"kind": "human"}, {"kind": "human", "open": True},
                      {"kind": "bot", "bot": "casual"}]})
        open_doors = client.post("/api/tables", headers=as_ana, json={
            "game": "doors", "me": 0,
            "seats": [{"kind": "human"}, {"kind": "human", "open": True}]}).json()
        lobby = {entry["id"]: entry for entry in
                 client.get("/api/tables?status=waiting").json()["tables"]}
        assert lobby[open_doors["table"]["id"]]["seat_ratings"] == [
            {"rating": rated[0]["after"], "games": 1}, None]
        # Ratings are each game's own: on Favor, neither Ana nor the bot has one.
        favor = next(entry for entry in lobby.values() if entry["game"] == "favor")
        assert favor["seat_ratings"] == [None, None, None]
