"""Resigning (docs/protocol.md, "Resigning"): a player gives up, the game ends at once for
everyone, lost by that seat and won by every other, and a rated game is rated so."""

from __future__ import annotations

import json
import sqlite3
import time
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from ladytiger.web import create_app
from ladytiger.web.tables import resign_returns, resigned_seat
from tests.web.support import auth, join_seats, quick_settings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


@pytest.fixture
def client(tmp_path) -> Iterator[TestClient]:
    with TestClient(create_app(quick_settings(tmp_path / "tables.sqlite3"))) as test_client:
        yield test_client


def new_player(client: TestClient, name: str) -> dict[str, Any]:
    return client.post("/api/players", json={"name": name}).json()


def create(client: TestClient, player: dict[str, Any] | None = None, **request: Any) -> Any:
    headers = {"authorization": f"Player {player['secret']}"} if player else {}
    response = client.post("/api/tables", json={"game": "doors", **request}, headers=headers)
    assert response.status_code == 201, response.text
    return response.json()


def next_of(ws, kind: str) -> dict[str, Any]:
    while True:
        message = ws.receive_json()
        if message["type"] in (kind, "error"):
            return message


def hello(ws, token: str | None, **fields: Any) -> dict[str, Any]:
    ws.send_json({"type": "hello", **({"token": token} if token else {}), **fields})
    next_of(ws, "welcome")
    return next_of(ws, "view")


def table_of(client: TestClient, made: dict[str, Any]) -> dict[str, Any]:
    return client.get(f"/api/tables/{made['table']['id']}").json()["table"]


def wait_for(check: Any) -> Any:
    deadline = time.monotonic() + 5
    while not (result := check()):
        assert time.monotonic() < deadline
        time.sleep(0.02)
    return result


def test_a_resignation_ends_the_game_for_everyone_as_lost_by_the_resigner(client):
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    made = create(client, ana, me=0)
    table_id = made["table"]["id"]
    join_seats(client, table_id, made["tokens"])
    with client.websocket_connect(f"/api/tables/{table_id}/ws") as first, \
            client.websocket_connect(f"/api/tables/{table_id}/ws") as second:
        hello(first, made["tokens"]["0"])
        hello(second, made["tokens"]["1"], player=bea["secret"])
        second.send_json({"type": "resign", "ref": "r"})
        # Everyone's new view goes out as the table ends; the ack follows.
        for ws in (first, second):
            view = next_of(ws, "view")
            assert view["status"] == "abandoned" and view["resigned"] == 1
            assert view["abandoned"] == "Bea resigned: Ana wins"
            assert view["began"] is True
            assert view["legal_actions"] == []
        ack = next_of(second, "ack")
        assert ack == {"type": "ack", "ref": "r", "table": table_id, "resigned": 1}
        # Nothing more can be played, and a second resignation names why.
        first.send_json({"type": "resign", "ref": "again"})
        refused = next_of(first, "ack")
        assert refused["code"] == "game_abandoned" and "Bea resigned" in refused["message"]
    info = table_of(client, made)
    assert info["status"] == "abandoned"
    assert info["abandoned"]["reason"] == "resigned:1" and info["abandoned"]["resigned"] == 1
    board = wait_for(lambda: client.get("/api/leaderboard/doors").json()["players"])
    assert [row["player"]["name"] for row in board] == ["Ana", "Bea"]
    assert board[0]["rating"] > board[1]["rating"]
    # The players' pages list it as given up, by whom.
    games = client.get(f"/api/players/{bea['player']['id']}").json()["games"]
    assert [(g["id"], g["seat"], g["abandoned"]) for g in games] == [
        (table_id, 1, {"reason": "resigned:1", "resigned": 1})]
    # A rematch may follow, as after a finished game.
    again = client.post(f"/api/tables/{table_id}/rematch", headers=auth(made["tokens"]["0"]))
    assert again.status_code == 201, again.text


def test_resigning_over_http_against_bots_survives_a_restart(tmp_path):
    settings = quick_settings(tmp_path / "tables.sqlite3")
    with TestClient(create_app(settings)) as client:
        made = create(client, game="favor", options={"players": 3},
                      seats=[{"kind": "human"}, {"kind": "bot", "bot": "casual"},
                             {"kind": "bot", "bot": "random"}])
        join_seats(client, made["table"]["id"], made["tokens"])
        answer = client.post(f"/api/tables/{made['table']['id']}/resign",
                             headers=auth(made["tokens"]["0"]))
        assert answer.status_code == 200, answer.text
        assert answer.json()["table"]["status"] == "abandoned"
    with TestClient(create_app(settings)) as client:
        info = table_of(client, made)
        assert info["abandoned"]["resigned"] == 0
        assert info["abandoned"]["words"].endswith(
            "resigned, so the game is over: the others share the win")
        view = client.get(f"/api/tables/{made['table']['id']}/view",
                          headers=auth(made["tokens"]["0"])).json()
        assert view["resigned"] == 0 and view["status"] == "abandoned"


def test_resigning_is_refused_before_the_game_and_to_a_spectator(client):
    made = create(client)
    table_id = made["table"]["id"]
    early = client.post(f"/api/tables/{table_id}/resign", headers=auth(made["tokens"]["0"]))
    assert early.status_code == 409
    assert early.json()["error"]["code"] == "not_started"
    join_seats(client, table_id, made["tokens"])
    with client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
        hello(ws, None)
        ws.send_json({"type": "resign", "ref": "s"})
        refused = next_of(ws, "ack")
        assert refused["code"] == "spectator"
    wrong = client.post(f"/api/tables/{table_id}/resign", headers=auth("not-a-token"))
    assert wrong.status_code == 401
    assert table_of(client, made)["status"] == "playing"


def test_an_unrated_resignation_changes_no_rating(client):
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    made = create(client, ana, me=0, rated=False)
    with client.websocket_connect(f"/api/tables/{made['table']['id']}/ws") as ws:
        hello(ws, made["tokens"]["1"], player=bea["secret"])
    join_seats(client, made["table"]["id"], made["tokens"])
    client.post(f"/api/tables/{made['table']['id']}/resign", headers=auth(made["tokens"]["0"]))
    time.sleep(0.3)
    assert client.get("/api/leaderboard/doors").json()["players"] == []


def test_the_resigned_seat_is_read_back_from_its_reason():
    assert resigned_seat("resigned:2") == 2
    assert resigned_seat("deserted") is None and resigned_seat(None) is None
    assert resigned_seat("resigned:") is None
    assert resign_returns(3, 1) == [1.0, 0.0, 1.0]


def test_a_resignation_after_another_process_ended_the_table_is_refused(tmp_path):
    path = tmp_path / "tables.sqlite3"
    with TestClient(create_app(quick_settings(path))) as client:
        made = create(client)
        table_id = made["table"]["id"]
        join_seats(client, table_id, made["tokens"])
        # Another process, sharing the database, closed the table a moment ago.
        with sqlite3.connect(path) as other:
            other.execute("UPDATE tables SET status = 'abandoned', finished_at = 1, "
                          "result = '{\"abandoned\": \"deserted\"}' WHERE id = ?", (table_id,))
        answer = client.post(f"/api/tables/{table_id}/resign", headers=auth(made["tokens"]["0"]))
        assert answer.status_code == 409, answer.text
        assert answer.json()["error"]["code"] == "game_abandoned"
        info = table_of(client, made)
        assert info["abandoned"]["reason"] == "deserted" and "resigned" not in info["abandoned"]


# ------------------------------------------------------------------ closing a waiting table
def test_a_seat_closes_a_table_still_waiting_and_everyone_there_is_told(client):
    made = create(client, game="favor", options={"players": 3},
                  seats=[{"kind": "human"}, {"kind": "human", "open": True},
                         {"kind": "human"}])
    table_id = made["table"]["id"]
    assert [t["id"] for t in client.get("/api/tables?status=waiting").json()["tables"]] == [
        table_id]
    with client.websocket_connect(f"/api/tables/{table_id}/ws") as host, \
            client.websocket_connect(f"/api/tables/{table_id}/ws") as guest:
        hello(host, made["tokens"]["0"])
        hello(guest, made["tokens"]["2"])
        host.send_json({"type": "close", "ref": "c"})
        for ws in (host, guest):
            view = next_of(ws, "view")
            assert view["status"] == "abandoned"
            assert view["abandoned"] == "Seat 0 closed this table before the game began"
            assert view["closed"] == 0 and "resigned" not in view
            assert view["began"] is False  # nothing was dealt: the page shows no board
        assert next_of(host, "ack") == {"type": "ack", "ref": "c", "table": table_id,
                                        "closed": 0}
        # Closed is closed: a seat can no more be taken, and closing again says why.
        guest.send_json({"type": "close", "ref": "again"})
        assert next_of(guest, "ack")["code"] == "game_abandoned"
    assert client.get("/api/tables?status=waiting").json()["tables"] == []
    taken = client.post(f"/api/tables/{table_id}/join", json={})
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "game_abandoned"
    info = table_of(client, made)
    assert info["abandoned"]["reason"] == "closed:0" and "resigned" not in info["abandoned"]
    assert info["abandoned"]["closed"] == 0


def test_a_table_in_play_is_not_closed_but_resigned(client):
    made = create(client)
    table_id = made["table"]["id"]
    wrong = client.post(f"/api/tables/{table_id}/close", headers=auth("not-a-token"))
    assert wrong.status_code == 401
    join_seats(client, table_id, made["tokens"])
    refused = client.post(f"/api/tables/{table_id}/close", headers=auth(made["tokens"]["1"]))
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "already_started"
    assert "resign instead" in refused.json()["error"]["message"]
    assert table_of(client, made)["status"] == "playing"
    with client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
        hello(ws, None)
        ws.send_json({"type": "close", "ref": "s"})
        assert next_of(ws, "ack")["code"] == "spectator"


def test_a_seat_taken_from_the_lobby_cannot_close_the_table_for_the_rest(client):
    made = create(client, seats=[{"kind": "human"}, {"kind": "human", "open": True}])
    table_id = made["table"]["id"]
    claimed = client.post(f"/api/tables/{table_id}/join", json={}).json()
    assert claimed["seat"] == 1
    refused = client.post(f"/api/tables/{table_id}/close", headers=auth(claimed["token"]))
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "not_table_maker"
    assert "set the table up" in refused.json()["error"]["message"]
    assert table_of(client, made)["status"] == "waiting"
    # The seat the maker kept closes it.
    closed = client.post(f"/api/tables/{table_id}/close", headers=auth(made["tokens"]["0"]))
    assert closed.status_code == 200
    assert closed.json()["table"]["status"] == "abandoned"


def test_closing_a_waiting_table_gives_its_maker_back_a_place_in_the_quota(tmp_path):
    settings = quick_settings(tmp_path / "tables.sqlite3", tables_per_client=1)
    with TestClient(create_app(settings)) as client:
        made = create(client)
        second = client.post("/api/tables", json={"game": "doors"})
        assert second.status_code == 429
        assert "close one still waiting" in second.json()["error"]["message"]
        closed = client.post(f"/api/tables/{made['table']['id']}/close",
                             headers=auth(made["tokens"]["0"]))
        assert closed.status_code == 200
        create(client)


def test_a_closed_table_is_listed_as_closed_by_whom(client):
    ann = new_player(client, "Ann")
    made = create(client, ann, seats=[{"kind": "human"}, {"kind": "human", "open": True}])
    table_id = made["table"]["id"]
    with client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
        hello(ws, made["tokens"]["0"], player=ann["secret"])
        ws.send_json({"type": "close", "ref": "c"})
        assert next_of(ws, "view")["abandoned"] == "Ann closed this table before the game began"
    games = wait_for(lambda: client.get(f"/api/players/{ann['player']['id']}").json()["games"])
    assert [(g["id"], g["seat"], g["abandoned"]) for g in games] == [
        (table_id, 0, {"reason": "closed:0", "closed": 0})]


# ------------------------------------------------------------------ giving a lobby seat back
def test_a_player_who_sat_down_from_the_lobby_gets_up_again_before_the_game_begins(client):
    made = create(client, game="favor", options={"players": 3},
                  seats=[{"kind": "human"}, {"kind": "human", "open": True},
                         {"kind": "human"}])
    table_id = made["table"]["id"]
    bea = new_player(client, "Bea")
    claimed = client.post(f"/api/tables/{table_id}/join", json={}).json()
    assert claimed["seat"] == 1
    with client.websocket_connect(f"/api/tables/{table_id}/ws") as host, \
            client.websocket_connect(f"/api/tables/{table_id}/ws") as guest:
        hello(host, made["tokens"]["0"])
        hello(guest, claimed["token"], player=bea["secret"])
        assert table_of(client, made)["seats"][1]["player"]["name"] == "Bea"
        guest.send_json({"type": "leave", "ref": "l"})
        assert next_of(guest, "unseated") == {"type": "unseated", "table": table_id, "seat": 1}
        view = next_of(guest, "view")
        assert view["seat"] is None and view["status"] == "waiting"
        assert next_of(guest, "ack") == {"type": "ack", "ref": "l", "table": table_id,
                                         "left": 1}
        # Now only a spectator: it may not act for the seat it gave back.
        guest.send_json({"type": "leave", "ref": "again"})
        assert next_of(guest, "ack")["code"] == "spectator"
        # The host hears that the seat is free again.
        while True:
            presence = next_of(host, "presence")
            seat = presence["seats"][1]
            if not seat["claimed"]:
                break
        assert seat["joined"] is False and seat["player"] is None
    # The old token holds nothing; the seat is in the lobby again, and someone else takes it.
    stale = client.post(f"/api/tables/{table_id}/leave", headers=auth(claimed["token"]))
    assert stale.status_code == 401
    listed = client.get("/api/tables?status=waiting").json()["tables"]
    assert [t["id"] for t in listed] == [table_id]
    info = table_of(client, made)
    assert info["status"] == "waiting" and info["seats"][1]["player"] is None
    again = client.post(f"/api/tables/{table_id}/join", json={}).json()
    assert again["seat"] == 1 and again["token"] != claimed["token"]


def test_only_a_lobby_seat_of_a_waiting_table_is_given_back(client):
    made = create(client, seats=[{"kind": "human"}, {"kind": "human", "open": True}])
    table_id = made["table"]["id"]
    own = client.post(f"/api/tables/{table_id}/leave", headers=auth(made["tokens"]["0"]))
    assert own.status_code == 403 and own.json()["error"]["code"] == "not_lobby_seat"
    assert "closed instead" in own.json()["error"]["message"]
    claimed = client.post(f"/api/tables/{table_id}/join", json={}).json()
    join_seats(client, table_id, {"0": made["tokens"]["0"], "1": claimed["token"]})
    assert table_of(client, made)["status"] == "playing"
    late = client.post(f"/api/tables/{table_id}/leave", headers=auth(claimed["token"]))
    assert late.status_code == 409 and late.json()["error"]["code"] == "already_started"
    assert "resign instead" in late.json()["error"]["message"]


def test_a_seat_given_back_and_taken_again_elsewhere_is_no_longer_held_here(client):
    """Another process gave the seat back and someone took it there, before this copy caught
    up: the connection here with the old token only watches from then on."""
    from ladytiger.web.store import TableDelta

    made = create(client, seats=[{"kind": "human"}, {"kind": "human", "open": True}])
    table_id = made["table"]["id"]
    claimed = client.post(f"/api/tables/{table_id}/join", json={}).json()
    table = client.app.state.hub.active[table_id]

    class Tab:
        def __init__(self) -> None:
            self.seat: int | None = 1
            self.sent: list[dict[str, Any]] = []

        def send(self, text: str) -> None:
            self.sent.append(json.loads(text))

        def unseat(self) -> None:
            self.seat = None

    tab = Tab()
    table.listeners.setdefault(1, set()).add(tab)
    assert table.authenticate(claimed["token"]) == 1
    table._apply_seats(TableDelta(
        status="waiting", finished_at=None, ended_reason=None, rematch=None, actions=[],
        last_activity=None, token_hashes=[table.token_hashes[0], "someone-else"],
        joined=[False, False], players=[None, None]))
    assert tab.seat is None and tab in table.listeners[None] and 1 not in table.listeners
    assert [m["seat"] for m in tab.sent if m["type"] == "view"] == [None]
    assert table.authenticate(claimed["token"]) is None
    assert table.token_hashes[1] == "someone-else"
