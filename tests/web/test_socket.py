"""The table WebSocket: hello and tokens, views to seats and spectators, moves and refusals,
reconnection, and the limits that close a misbehaving connection."""

from __future__ import annotations

import json
import warnings
from typing import Any

import pytest

from ladytiger.web import create_app
from tests.web.support import play_out, quick_settings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect


def create(client, **request: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={"game": "doors", **request})
    assert response.status_code == 201, response.text
    return response.json()


def socket_path(made: dict[str, Any]) -> str:
    return f"/api/tables/{made['table']['id']}/ws"


def until(ws, kind: str) -> dict[str, Any]:
    while True:
        message = ws.receive_json()
        if message["type"] == kind:
            return message


def closed_with(ws) -> int:
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            ws.receive_json()
    return closed.value.code


def test_an_unknown_table_is_refused_and_closed(client):
    with client.websocket_connect("/api/tables/nothing/ws") as ws:
        error = ws.receive_json()
        assert error == {"type": "error", "code": "unknown_table",
                         "message": "there is no table 'nothing'"}
        assert closed_with(ws) == 4404


def test_a_wrong_token_is_refused_and_closed(client):
    made = create(client)
    with client.websocket_connect(socket_path(made)) as ws:
        ws.send_json({"type": "hello", "token": made["tokens"]["0"][:-1] + "!"})
        error = ws.receive_json()
        assert error["code"] == "unauthorized"
        assert error["message"] == "that token holds no seat at this table"
        assert closed_with(ws) == 4401


def test_the_first_message_must_be_a_hello(client):
    made = create(client)
    with client.websocket_connect(socket_path(made)) as ws:
        ws.send_json({"type": "action", "version": 0, "action": 1})
        assert ws.receive_json()["message"] == "say hello first"
        assert closed_with(ws) == 4400


def test_a_silent_connection_is_closed_after_the_hello_timeout(tmp_path):
    app = create_app(quick_settings(tmp_path / "t.sqlite3", hello_timeout=0.2))
    with TestClient(app) as client:
        made = create(client)
        with client.websocket_connect(socket_path(made)) as ws:
            assert "no hello within 0.2 seconds" in ws.receive_json()["message"]
            assert closed_with(ws) == 4400


def test_seats_and_spectators_each_get_their_own_view_and_moves_reach_everyone(client):
    made = create(client)
    path = socket_path(made)
    with client.websocket_connect(path) as spectator, \
            client.websocket_connect(path) as seat0, client.websocket_connect(path) as seat1:
        spectator.send_json({"type": "hello", "ref": 1})
        welcome = spectator.receive_json()
        assert welcome["type"] == "welcome" and welcome["seat"] is None and welcome["ref"] == 1
        assert welcome["table"]["status"] == "waiting"
        assert until(spectator, "view")["version"] == 0
        seat0.send_json({"type": "hello", "token": made["tokens"]["0"]})
        seat1.send_json({"type": "hello", "token": made["tokens"]["1"]})
        views = {}
        for number, ws in enumerate((seat0, seat1)):
            assert until(ws, "welcome")["seat"] == number
            view = until(ws, "view")
            while view["version"] < 1:
                view = until(ws, "view")
            views[number] = view
        watched = until(spectator, "view")
        while watched["version"] < 1:
            watched = until(spectator, "view")
        identities = [views[0]["observation"]["identities"], views[1]["observation"]["identities"]]
        assert identities[0][0] and identities[0][1] is None
        assert identities[1][1] and identities[1][0] is None
        assert watched["observation"]["identities"] == [None, None]
        assert watched["legal_actions"] == []
        mover = views[0]["current_player"]
        movers_ws = (seat0, seat1)[mover]
        assert views[mover]["your_turn"] and views[1 - mover]["legal_actions"] == []
        move = views[mover]["legal_actions"][0]
        assert {"id", "text", "verb", "args"} <= set(move)
        movers_ws.send_json({"type": "action", "version": 1, "action": move["id"], "ref": "m1"})
        ack = until(movers_ws, "ack")
        assert ack == {"type": "ack", "ref": "m1", "table": made["table"]["id"], "version": 2,
                       "action": move["id"], "text": move["text"]}
        assert until(movers_ws, "view")["version"] == 2
        assert until((seat0, seat1)[1 - mover], "view")["version"] == 2
        assert until(spectator, "view")["version"] == 2
        spectator.send_json({"type": "action", "version": 2, "action": 0})
        refused = until(spectator, "error")
        assert refused["code"] == "spectator"
        spectator.send_json({"type": "ping", "ref": "p"})
        assert until(spectator, "pong")["ref"] == "p"


def test_a_stale_or_illegal_move_is_refused_with_the_reason_and_changes_nothing(client):
    made = create(client, seats=[{"kind": "human"}, {"kind": "human"}])
    with client.websocket_connect(socket_path(made)) as seat0, \
            client.websocket_connect(socket_path(made)) as seat1:
        seat0.send_json({"type": "hello", "token": made["tokens"]["0"]})
        seat1.send_json({"type": "hello", "token": made["tokens"]["1"]})
        view = until(seat0, "view")
        while view["version"] < 1:
            view = until(seat0, "view")
        ws = seat0 if view["your_turn"] else seat1
        ws.send_json({"type": "action", "version": 0, "action": 0, "ref": 5})
        stale = until(ws, "error")
        assert stale["code"] == "stale_version" and stale["version"] == 1 and stale["ref"] == 5
        assert "you sent version 0 but the table is at version 1" in stale["message"]
        ws.send_json({"type": "action", "version": 1, "action": "claim set"})
        illegal = until(ws, "error")
        assert illegal["code"] == "illegal_action" and illegal["text"] == "claim set"
        assert illegal["message"] == (
            "only the Guesser guesses or claims a set, on the Guesser's turn")
        ws.send_json({"type": "why", "action": "end turn", "ref": "w"})
        why = until(ws, "why")
        assert why["legal"] is False and why["ref"] == "w"
        assert why["reason"] == "the Collector's turn ends by taking a card from the display"
        ws.send_json({"type": "why", "action": "not a move"})
        assert until(ws, "error")["code"] == "unknown_action"
        info = client.get(f"/api/tables/{made['table']['id']}").json()["table"]
        assert info["version"] == 1


def test_a_returning_seat_gets_the_current_view_at_once(client):
    made = create(client, seats=[{"kind": "human"}, {"kind": "bot"}],
                  options={"gems_to_win": 50})
    path = socket_path(made)
    with client.websocket_connect(path) as ws:
        ws.send_json({"type": "hello", "token": made["tokens"]["0"]})
        view = until(ws, "view")
        while not view["your_turn"]:
            view = until(ws, "view")
        ws.send_json({"type": "action", "version": view["version"],
                      "action": view["legal_actions"][0]["id"]})
        until(ws, "ack")
    version = client.get(f"/api/tables/{made['table']['id']}").json()["table"]["version"]
    with client.websocket_connect(path) as ws:
        ws.send_json({"type": "hello", "token": made["tokens"]["0"]})
        assert ws.receive_json()["type"] == "welcome"
        back = ws.receive_json()
        assert back["type"] == "view" and back["seat"] == 0 and back["version"] >= version
        assert back["observation"]["identities"][0] is not None


def test_presence_tells_who_is_connected(client):
    made = create(client)
    path = socket_path(made)
    with client.websocket_connect(path) as first:
        first.send_json({"type": "hello", "token": made["tokens"]["0"]})
        seats = until(first, "presence")["seats"]
        assert seats[0]["connected"] and not seats[0]["joined"]  # before the join is saved
        seats = until(first, "presence")["seats"]
        assert seats[0]["connected"] and seats[0]["joined"] and not seats[1]["connected"]
        with client.websocket_connect(path) as second:
            second.send_json({"type": "hello"})
            assert until(first, "presence")["spectators"] == 1
        assert until(first, "presence")["spectators"] == 0


def test_oversized_messages_close_the_connection(client):
    made = create(client)
    with client.websocket_connect(socket_path(made)) as ws:
        ws.send_json({"type": "hello"})
        until(ws, "view")
        ws.send_text(json.dumps({"type": "why", "action": "x" * 20_000}))
        assert until(ws, "error")["code"] == "too_large"
        assert closed_with(ws) == 1009


def test_malformed_messages_get_errors_then_a_close_when_they_persist(tmp_path):
    app = create_app(quick_settings(tmp_path / "t.sqlite3", bad_message_limit=3))
    with TestClient(app) as client:
        made = create(client)
        with client.websocket_connect(socket_path(made)) as ws:
            ws.send_json({"type": "hello"})
            until(ws, "view")
            ws.send_json({"type": "ping", "colour": "red"})
            assert "unknown field(s) 'colour'" in until(ws, "error")["message"]
            ws.send_json({"type": "ping"})
            assert until(ws, "pong")["type"] == "pong"
            for _ in range(3):
                ws.send_text("{broken")
                assert until(ws, "error")["code"] == "bad_json"
            assert closed_with(ws) == 1008


def test_a_flood_is_throttled_then_closed(tmp_path):
    app = create_app(quick_settings(tmp_path / "t.sqlite3", messages_per_second=1.0,
                                    message_burst=5, throttle_limit=20))
    with TestClient(app) as client:
        made = create(client)
        with client.websocket_connect(socket_path(made)) as ws:
            ws.send_json({"type": "hello"})
            for _ in range(30):
                ws.send_json({"type": "ping"})
            kinds = []
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    message = ws.receive_json()
                    kinds.append(message.get("code", message["type"]))
            assert closed.value.code == 1008
            assert kinds.count("pong") == 4  # the burst of 5, less the hello
            assert kinds.count("rate_limited") == 2  # one notice, then the closing one
        assert client.get("/api").status_code == 200


def test_a_client_that_stops_reading_is_closed_and_its_backlog_dropped(tmp_path):
    from ladytiger.web.sessions import Close, Session

    class Table:
        id = "t"

        def detach(self, listener: object) -> None:
            pass

    settings = quick_settings(tmp_path / "unused.sqlite3", outbox_limit=3)
    session = Session(hub=None, table=Table(), settings=settings)  # type: ignore[arg-type]
    for number in range(5):
        session.send(f"message {number}")
    assert session.outbox.qsize() == 1
    assert session.outbox.get_nowait() == Close(4408, "too many unread messages")


def test_seats_and_spectators_follow_the_rematch_on_the_same_connection(client):
    made = create(client, options={"gems_to_win": 1})
    path = socket_path(made)
    old_id = made["table"]["id"]
    with client.websocket_connect(path) as seat0, client.websocket_connect(path) as seat1, \
            client.websocket_connect(path) as spectator:
        spectator.send_json({"type": "hello"})
        for seat, ws in enumerate((seat0, seat1)):
            ws.send_json({"type": "hello", "token": made["tokens"][str(seat)]})
        for ws in (seat0, seat1, spectator):
            until(ws, "welcome")
        play_out(client, made)
        for ws in (seat0, seat1, spectator):
            until(ws, "end")
        seat1.send_json({"type": "follow", "ref": "too-soon"})
        early = until(seat1, "error")
        assert early["code"] == "no_rematch" and early["ref"] == "too-soon"
        assert "asks for one with 'rematch'" in early["message"]
        seat0.send_json({"type": "rematch"})
        new_id = until(seat0, "rematch")["rematch"]
        assert new_id != old_id
        for ws in (seat1, spectator):
            assert until(ws, "rematch") == {"type": "rematch", "table": old_id,
                                           "rematch": new_id}
        for expected_seat, ws in ((0, seat0), (1, seat1), (None, spectator)):
            ws.send_json({"type": "follow", "ref": "next"})
            welcome = until(ws, "welcome")
            assert welcome["ref"] == "next" and welcome["seat"] == expected_seat
            assert welcome["table"]["id"] == new_id
            assert welcome["table"]["rematch_of"] == old_id
        # Both seats have joined by following: the new game starts and is played on.
        views = {}
        for seat, ws in enumerate((seat0, seat1)):
            view = until(ws, "view")
            while view["version"] < 1:
                view = until(ws, "view")
            assert view["table"] == new_id and view["seat"] == seat
            views[seat] = view
        mover = views[0]["current_player"]
        ws = (seat0, seat1)[mover]
        ws.send_json({"type": "action", "version": views[mover]["version"],
                      "action": views[mover]["legal_actions"][0]["id"]})
        assert until(ws, "ack")["table"] == new_id
        watched = until(spectator, "view")
        while watched["version"] < views[mover]["version"] + 1:
            watched = until(spectator, "view")
        assert watched["table"] == new_id
    assert client.get(f"/api/tables/{new_id}").json()["table"]["version"] >= 2
