"""The HTTP API: games, tables, lobby, seats, moves, records, replays and its JSON errors."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path
from typing import Any

import ladytiger
from ladytiger.core.record import from_record
from tests.web.support import auth, join_seats, play_out


def create(client, **request: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={"game": "doors", **request})
    assert response.status_code == 201, response.text
    return response.json()


def start(client, made: dict[str, Any]) -> None:
    """Join every invited seat (a hello with its token), which starts the game."""
    join_seats(client, made["table"]["id"], made["tokens"])


def error_of(response) -> dict[str, Any]:
    assert response.headers["content-type"].startswith("application/json")
    return response.json()["error"]


def test_home_page_is_the_browser_interface(client):
    page = client.get("/")
    assert page.status_code == 200
    assert '<meta charset="utf-8">' in page.text
    assert "/static/js/home.js" in page.text  # the games themselves come from /api/games


def test_games_and_bots_are_listed_with_their_options(client):
    games = client.get("/api/games").json()["games"]
    assert [g["name"] for g in games] == [i.name for i in ladytiger.registered_games()]
    doors = next(g for g in games if g["name"] == "doors")
    assert [o["name"] for o in doors["options"]][:2] == ["players", "gems_to_win"]
    assert doors["options"][1] == {"name": "gems_to_win", "default": 10, "kind": "int",
                                   "description": "gems that end the game", "choices": None,
                                   "minimum": 1, "maximum": 50}
    assert {"name": "random", "summary": "a uniformly random legal move"} in (
        client.get("/api/bots").json()["bots"]
    )


def test_a_new_table_gives_each_invited_seat_a_token_and_an_invite_link(client):
    made = create(client, options={"gems_to_win": 2})
    table = made["table"]
    assert table["status"] == "waiting" and table["version"] == 0
    assert set(made["tokens"]) == {"0", "1"}
    assert made["tokens"]["0"] != made["tokens"]["1"] and len(made["tokens"]["0"]) >= 32
    invite = made["links"]["invites"]["1"]
    assert invite.endswith(f"/play/{table['id']}#seat={made['tokens']['1']}")
    assert made["links"]["spectate"].endswith(f"/play/{table['id']}")
    assert "token" not in str(client.get(f"/api/tables/{table['id']}").json())


def test_tokens_are_kept_only_as_digests(client, tmp_path):
    made = create(client)
    token = made["tokens"]["0"]
    database = client.app.state.settings.db_path
    rows = sqlite3.connect(database).execute("SELECT token_hash FROM seats").fetchall()
    assert (hashlib.sha256(token.encode()).hexdigest(),) in rows
    for suffix in ("", "-wal"):
        path = Path(database + suffix)
        if path.exists():
            assert token.encode() not in path.read_bytes()


def test_the_table_request_is_checked_field_by_field(client):
    cases = [
        ({"game": "chess"}, 404, "unknown_game", "there is no game called 'chess'"),
        ({"game": "doors", "options": {"gems_to_win": 0}}, 400, "bad_options",
         "option 'gems_to_win' cannot be 0"),
        ({"game": "doors", "colour": "red"}, 400, "unknown_field", "unknown field(s) 'colour'"),
        ({"game": "doors", "seats": [{"kind": "human"}]}, 400, "bad_options", "players"),
        ({"game": "doors", "seats": [{"kind": "human"}, {"kind": "robot"}]}, 400, "bad_seats",
         "kind must be 'human' or 'bot'"),
        ({"game": "doors", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "oracle"}]},
         400, "unknown_bot", "there is no bot called 'oracle'"),
        ({"game": "doors", "seats": [{"kind": "human"},
                                     {"kind": "bot", "options": {"depth": 3}}]},
         400, "bad_bot_options", "bad options for the random bot"),
        ({"game": "doors", "seats": [{"kind": "human", "bot": "random"}, {"kind": "human"}]},
         400, "bad_seats", "a human seat takes no bot"),
        ({"game": "doors", "clock": {"seconds": -1}}, 400, "bad_field", "'seconds' must be"),
        ({"game": "doors", "bot_pause": 99}, 400, "bad_field", "'bot_pause' must be"),
        ([1, 2], 400, "bad_message", "must be a JSON object"),
    ]
    for body, status, code, words in cases:
        response = client.post("/api/tables", json=body)
        assert response.status_code == status, (body, response.text)
        error = error_of(response)
        assert error["code"] == code and words in error["message"], (body, error)


def test_bad_json_and_oversized_bodies_get_json_errors(client):
    response = client.post("/api/tables", content=b"{nope", headers={
        "content-type": "application/json"})
    assert response.status_code == 400 and error_of(response)["code"] == "bad_json"
    response = client.post("/api/tables", content=b"{" + b" " * 70_000 + b"}")
    assert response.status_code == 413 and error_of(response)["code"] == "too_large"


def test_unknown_routes_tables_and_methods_answer_in_json(client):
    assert error_of(client.get("/api/nothing"))["code"] == "not_found"
    response = client.get("/api/tables/nosuchtable")
    assert response.status_code == 404
    assert error_of(response) == {"code": "unknown_table",
                                  "message": "there is no table 'nosuchtable'"}
    assert error_of(client.delete("/api/games"))["code"] == "method_not_allowed"


def test_the_lobby_lists_tables_with_free_seats_until_they_are_claimed(client):
    made = create(client, seats=[{"kind": "human"}, {"kind": "human", "open": True}])
    table_id = made["table"]["id"]
    assert set(made["tokens"]) == {"0"}
    create(client, public=False, seats=[{"kind": "human"}, {"kind": "human", "open": True}])
    lobby = client.get("/api/tables").json()["tables"]
    assert [t["id"] for t in lobby] == [table_id]
    assert lobby[0]["free_seats"] == [1]
    joined = client.post(f"/api/tables/{table_id}/join", json={})
    assert joined.status_code == 201
    assert joined.json()["seat"] == 1 and joined.json()["links"]["invites"]["1"].endswith(
        joined.json()["token"])
    again = client.post(f"/api/tables/{table_id}/join", json={"seat": 1})
    assert again.status_code == 409 and error_of(again)["code"] == "seat_taken"
    assert client.get("/api/tables").json()["tables"] == []
    full = client.post(f"/api/tables/{table_id}/join")
    assert error_of(full)["code"] == "no_free_seat"


def test_moves_over_http_are_checked_like_over_the_socket(client):
    made = create(client, options={"gems_to_win": 1})
    table_id = made["table"]["id"]
    tokens = made["tokens"]
    early = client.post(f"/api/tables/{table_id}/actions", headers=auth(tokens["0"]),
                        json={"version": 0, "action": 0})
    assert error_of(early)["code"] == "not_started"
    start(client, made)
    info = client.get(f"/api/tables/{table_id}").json()["table"]
    assert info["status"] == "playing" and info["version"] == 1
    mover, other = str(info["current_player"]), str(1 - info["current_player"])
    wrong = client.post(f"/api/tables/{table_id}/actions", headers=auth(tokens[other]),
                        json={"version": 1, "action": 0})
    assert wrong.status_code == 409
    assert error_of(wrong) == {"code": "not_your_turn",
                               "message": f"it is seat {mover}'s turn, not yours"}
    stale = client.post(f"/api/tables/{table_id}/actions", headers=auth(tokens[mover]),
                        json={"version": 0, "action": 0})
    assert error_of(stale)["code"] == "stale_version" and error_of(stale)["version"] == 1
    illegal = client.post(f"/api/tables/{table_id}/actions", headers=auth(tokens[mover]),
                          json={"version": 1, "action": "discard Red Lady"})
    assert illegal.status_code == 400
    assert error_of(illegal)["message"] == (
        "discarding is the Guesser's move; the Collector takes a card")
    unknown = client.post(f"/api/tables/{table_id}/actions", headers=auth(tokens[mover]),
                          json={"version": 1, "action": "fly away"})
    assert error_of(unknown)["code"] == "unknown_action"
    assert "'fly away' is not a move of Doors here" in error_of(unknown)["message"]
    nobody = client.post(f"/api/tables/{table_id}/actions", json={"version": 1, "action": 0})
    assert nobody.status_code == 401 and error_of(nobody)["code"] == "unauthorized"
    forged = client.post(f"/api/tables/{table_id}/actions", headers=auth("x" * 32),
                         json={"version": 1, "action": 0})
    assert forged.status_code == 401
    assert client.get(f"/api/tables/{table_id}").json()["table"]["version"] == 1


def test_why_answers_from_the_rules_only_on_your_own_turn(client):
    made = create(client)
    start(client, made)
    table_id = made["table"]["id"]
    mover = client.get(f"/api/tables/{table_id}").json()["table"]["current_player"]
    mine = client.post(f"/api/tables/{table_id}/why", headers=auth(made["tokens"][str(mover)]),
                       json={"action": "end turn"}).json()
    assert mine["legal"] is False
    assert mine["reason"] == "the Collector's turn ends by taking a card from the display"
    theirs = client.post(f"/api/tables/{table_id}/why",
                         headers=auth(made["tokens"][str(1 - mover)]),
                         json={"action": "end turn"}).json()
    assert theirs["reason"] == f"it is not your turn: seat {mover} is to move"


def test_views_over_http_are_the_seat_s_or_the_spectator_s(client):
    made = create(client)
    start(client, made)
    table_id = made["table"]["id"]
    seat0 = client.get(f"/api/tables/{table_id}/view", headers=auth(made["tokens"]["0"])).json()
    watcher = client.get(f"/api/tables/{table_id}/view").json()
    assert seat0["seat"] == 0 and seat0["observation"]["identities"][0] is not None
    assert watcher["seat"] is None and watcher["observation"]["identities"] == [None, None]
    assert watcher["legal_actions"] == []


def test_a_finished_table_hands_out_its_record_and_replays(client):
    made = create(client, options={"gems_to_win": 1})
    table_id = made["table"]["id"]
    early = client.get(f"/api/tables/{table_id}/record")
    assert early.status_code == 409 and error_of(early)["code"] == "not_finished"
    assert client.get(f"/api/tables/{table_id}/replay").status_code == 409
    start(client, made)
    play_out(client, made)
    response = client.get(f"/api/tables/{table_id}/record")
    assert response.status_code == 200
    assert "attachment" in response.headers["content-disposition"]
    record = response.json()
    assert record["format"] == "ladytiger-record" and record["metadata"]["table"] == table_id
    final = from_record(record)
    assert final.is_terminal()
    steps = client.get(f"/api/tables/{table_id}/replay").json()["steps"]
    assert [s["text"] for s in steps] == record["history"]
    assert steps[0]["actor"] == -1
    first = client.get(f"/api/tables/{table_id}/replay/1?viewer=1").json()
    assert first["step"] == 1 and first["observation"]["viewer"] == 1
    dealt = record["history"][0]  # the move text: "deal Blue Lady to seat 1"
    if dealt.endswith("to seat 1"):  # viewer 1's own Door, named to them
        card = dealt.removeprefix("deal ").removesuffix(" to seat 1")
        assert first["observation"]["log"] == [f"Contest 1: you are dealt the {card} Door."]
    else:
        assert first["observation"]["log"] == ["Contest 1: Seat 0 is dealt a Door card."]
    bad = client.get(f"/api/tables/{table_id}/replay/9999")
    assert error_of(bad)["code"] == "bad_field"
    uploaded = client.post("/api/replay", json={"record": record, "step": len(steps)}).json()
    assert uploaded["observation"]["terminal"] is True
    tampered = dict(record, history=["take Red Lady"])
    assert error_of(client.post("/api/replay", json={"record": tampered}))["code"] == "bad_record"


def test_a_rematch_seats_the_same_tokens_at_a_new_table(client):
    made = create(client, options={"gems_to_win": 1})
    table_id = made["table"]["id"]
    token = made["tokens"]["0"]
    early = client.post(f"/api/tables/{table_id}/rematch", headers=auth(token))
    assert error_of(early)["code"] == "not_finished"
    start(client, made)
    play_out(client, made)
    assert client.post(f"/api/tables/{table_id}/rematch").status_code == 401
    first = client.post(f"/api/tables/{table_id}/rematch", headers=auth(token))
    assert first.status_code == 201
    new = first.json()["table"]
    assert new["rematch_of"] == table_id and new["options"] == made["table"]["options"]
    again = client.post(f"/api/tables/{table_id}/rematch", headers=auth(made["tokens"]["1"]))
    assert again.json()["table"]["id"] == new["id"]
    assert client.get(f"/api/tables/{table_id}").json()["table"]["rematch"] == new["id"]
    view = client.get(f"/api/tables/{new['id']}/view", headers=auth(token)).json()
    assert view["seat"] == 0


def test_finished_tables_are_listed_and_stay_readable(client):
    made = create(client, options={"gems_to_win": 1})
    start(client, made)
    play_out(client, made)
    finished = client.get("/api/tables?status=finished").json()["tables"]
    assert finished[0]["id"] == made["table"]["id"]
    assert finished[0]["result"]["returns"] in ([1.0, 0.0], [0.0, 1.0])
    assert error_of(client.get("/api/tables?status=lost"))["code"] == "bad_field"
