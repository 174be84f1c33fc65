"""Players: identity without a sign-up form, seats that belong to players, their tables,
chat, ratings, a player's page and the leaderboard (docs/protocol.md, "Players")."""

from __future__ import annotations

import sqlite3
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from ladytiger.web import create_app
from ladytiger.web.players import table_names
from ladytiger.web.ratings import Skill, ranks_from_returns, rate, shown_rating
from tests.web.support import auth, join_seats, quick_settings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def new_player(client: TestClient, name: str | None = None) -> dict[str, Any]:
    response = client.post("/api/players", json={} if name is None else {"name": name})
    assert response.status_code == 201, response.text
    return response.json()


def as_player(made: dict[str, Any]) -> dict[str, str]:
    return {"authorization": f"Player {made['secret']}"}


def create(client: TestClient, player: dict[str, Any] | None = None, **request: Any) -> Any:
    headers = as_player(player) if player is not None else {}
    response = client.post("/api/tables", json={"game": "doors", **request}, headers=headers)
    assert response.status_code == 201, response.text
    return response.json()


@contextmanager
def hello(client: TestClient, table_id: str, **fields: Any) -> Iterator[Any]:
    with client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
        ws.send_json({"type": "hello", **fields})
        yield ws


def until(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        message = ws.receive_json()
        if message["type"] == kind:
            return message


def error_of(response: Any) -> dict[str, Any]:
    return response.json()["error"]


# ------------------------------------------------------------------ identity
def test_a_player_is_made_without_a_form_and_known_by_their_secret(client):
    made = new_player(client)
    assert len(made["secret"]) == 43
    assert made["player"]["id"].startswith("p_")
    assert 3 <= len(made["player"]["name"]) <= 24  # a friendly default
    me = client.get("/api/me", headers=as_player(made)).json()
    assert me["player"]["id"] == made["player"]["id"] and me["your_turn"] == 0
    assert made["secret"] not in str(me)


@pytest.mark.parametrize(("name", "shown"), [
    ("  Ana  ", "Ana"), ("Jean   Luc", "Jean Luc"), ("Ана 李小龙", "Ана 李小龙"),
    ("<script>alert(1)</script>"[:24], "<script>alert(1)</script"),
])
def test_names_of_any_script_are_trimmed_and_kept_as_text(client, name, shown):
    assert new_player(client, name)["player"]["name"] == shown


@pytest.mark.parametrize(("name", "words"), [
    ("x" * 25, "at most 24 characters"), ("   ", "must not be empty"),
    ("a\u0000b", "U+0000"), ("a\u202eb", "U+202E"), (5, "must be a string"),
])
def test_bad_names_are_refused_with_the_reason(client, name, words):
    response = client.post("/api/players", json={"name": name})
    assert response.status_code == 400
    assert words in error_of(response)["message"]


def test_a_wrong_or_missing_secret_is_refused(client):
    wrong = client.get("/api/me", headers={"authorization": "Player nope"})
    assert wrong.status_code == 401 and error_of(wrong)["code"] == "unknown_player"
    missing = client.get("/api/me")
    assert missing.status_code == 401 and error_of(missing)["code"] == "unauthorized"
    long = client.get("/api/me", headers={"authorization": "Player " + "x" * 500})
    assert long.status_code == 401
    with hello(client, create(client)["table"]["id"], player="nope") as ws:
        assert ws.receive_json()["code"] == "unknown_player"


def test_a_player_renames_and_every_table_shows_the_new_name(client):
    ana = new_player(client, "Ana")
    made = create(client, ana, me=0)
    renamed = client.post("/api/me", json={"name": "Ana Maria"}, headers=as_player(ana))
    assert renamed.json()["player"]["name"] == "Ana Maria"
    seats = client.get(f"/api/tables/{made['table']['id']}").json()["table"]["seats"]
    assert seats[0]["player"]["name"] == "Ana Maria" and seats[0]["name"] == "Ana Maria"
    bad = client.post("/api/me", json={"name": "x" * 30}, headers=as_player(ana))
    assert bad.status_code == 400


# ------------------------------------------------------------------ seats
def test_the_creators_seat_is_theirs_and_their_hello_alone_takes_it(client):
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    made = create(client, ana, me=1)
    table_id = made["table"]["id"]
    assert made["table"]["seats"][1]["player"]["id"] == ana["player"]["id"]
    with hello(client, table_id, player=ana["secret"]) as ws:
        welcome = ws.receive_json()
        assert welcome["seat"] == 1 and welcome["player"]["name"] == "Ana"
    with hello(client, table_id, player=bea["secret"]) as ws:
        assert ws.receive_json()["seat"] is None  # not hers: she watches


def test_an_invite_link_opened_by_a_player_binds_the_seat(client):
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    made = create(client, ana, me=0)
    table_id = made["table"]["id"]
    with hello(client, table_id, token=made["tokens"]["1"], player=bea["secret"]) as ws:
        assert ws.receive_json()["seat"] == 1
    with hello(client, table_id, player=bea["secret"]) as ws:
        assert ws.receive_json()["seat"] == 1  # from now on, no token needed
    names = [s["name"] for s in client.get(f"/api/tables/{table_id}").json()["table"]["seats"]]
    assert names == ["Ana", "Bea"]


def test_several_bots_of_one_level_are_told_apart_by_letters_not_numbers(client):
    made = client.post("/api/tables", json={
        "game": "traps", "options": {"players": 4},
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "casual"},
                  {"kind": "bot", "bot": "casual"}, {"kind": "bot", "bot": "beginner"}]})
    names = [seat["name"] for seat in made.json()["table"]["seats"]]
    # "Casual bot (2)" in the page's seat 3 (the engine's seat 2) would read as a seat.
    assert names[1:] == ["Casual bot A", "Casual bot B", "Beginner bot"]


def test_table_names_tell_people_and_bots_apart():
    assert table_names(["Sam", "Sam", "Casual bot", "Casual bot"], bots=[2, 3]) == [
        "Sam", "Sam (2)", "Casual bot A", "Casual bot B"]
    # A person who calls themselves "Casual bot" is a person, counted apart from the bots.
    assert table_names(["Casual bot", "Casual bot", "Casual bot"], bots=[1, 2]) == [
        "Casual bot", "Casual bot A", "Casual bot B"]


def test_two_players_of_one_name_are_told_apart_at_a_table(client):
    first, second = new_player(client, "Sam"), new_player(client, "Sam")
    made = create(client, first, me=0)
    with hello(client, made["table"]["id"], token=made["tokens"]["1"], player=second["secret"]):
        pass
    seats = client.get(f"/api/tables/{made['table']['id']}").json()["table"]["seats"]
    assert [s["name"] for s in seats] == ["Sam", "Sam (2)"]


def test_joining_from_the_lobby_as_a_player_binds_one_seat_only(client):
    ana = new_player(client, "Ana")
    made = create(client, seats=[{"kind": "human", "open": True}] * 3, options={"players": 3},
                  game="favor")
    table_id = made["table"]["id"]
    joined = client.post(f"/api/tables/{table_id}/join", json={}, headers=as_player(ana))
    assert joined.status_code == 201
    again = client.post(f"/api/tables/{table_id}/join", json={}, headers=as_player(ana))
    assert again.status_code == 409 and "already hold a seat" in error_of(again)["message"]


def test_a_player_acts_over_http_for_their_seat_only(client):
    ana, bea, cid = (new_player(client, n) for n in ("Ana", "Bea", "Cid"))
    made = create(client, ana, me=0)
    table_id = made["table"]["id"]
    with hello(client, table_id, token=made["tokens"]["1"], player=bea["secret"]):
        pass
    join_seats(client, table_id, made["tokens"])
    info = client.get(f"/api/tables/{table_id}").json()["table"]
    mover = [ana, bea][info["current_player"]]
    view = client.get(f"/api/tables/{table_id}/view", headers=as_player(mover)).json()
    assert view["your_turn"] and view["seat"] == info["current_player"]
    moved = client.post(f"/api/tables/{table_id}/actions", headers=as_player(mover),
                        json={"version": view["version"],
                              "action": view["legal_actions"][0]["id"]})
    assert moved.status_code == 200, moved.text
    stranger = client.post(f"/api/tables/{table_id}/actions", headers=as_player(cid),
                           json={"version": 1, "action": 0})
    assert stranger.status_code == 403 and error_of(stranger)["code"] == "no_seat"
    watching = client.get(f"/api/tables/{table_id}/view", headers=as_player(cid)).json()
    assert watching["seat"] is None


def test_my_tables_lists_waiting_playing_and_finished_with_my_turns_first(client):
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    waiting = create(client, ana, me=0)
    games = []
    for _ in range(2):
        made = create(client, ana, me=0, options={"gems_to_win": 1})
        with hello(client, made["table"]["id"], token=made["tokens"]["1"],
                   player=bea["secret"]):
            pass
        join_seats(client, made["table"]["id"], made["tokens"])
        games.append(made)
    mine = client.get("/api/me/tables", headers=as_player(ana)).json()
    assert [t["id"] for t in mine["waiting"]] == [waiting["table"]["id"]]
    assert {t["id"] for t in mine["playing"]} == {g["table"]["id"] for g in games}
    turns = [t["your_turn"] for t in mine["playing"]]
    assert turns == sorted(turns, reverse=True), "your turns first"
    me = client.get("/api/me", headers=as_player(ana)).json()
    assert me["your_turn"] == sum(turns) == len(me["your_turn_tables"])
    assert set(me["your_turn_tables"]) == {t["id"] for t in mine["playing"] if t["your_turn"]}
    for entry in mine["playing"]:
        assert entry["seat"] == 0
        assert entry["your_turn"] == (entry["current_player"] == 0)
    # Bea sees her own seats, never Ana's waiting table.
    hers = client.get("/api/me/tables", headers=as_player(bea)).json()
    assert not hers["waiting"] and all(t["seat"] == 1 for t in hers["playing"])


# ------------------------------------------------------------------ chat
def test_chat_reaches_everyone_at_the_table_and_is_kept(client):
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    made = create(client, ana, me=0)
    table_id = made["table"]["id"]
    with hello(client, table_id, player=ana["secret"]) as seat, \
            hello(client, table_id, player=bea["secret"]) as rail:
        until(seat, "welcome"), until(rail, "welcome")
        seat.send_json({"type": "chat", "text": "  <b>hi</b> & welcome\nline two  "})
        for ws in (seat, rail):
            line = until(ws, "chat")
            assert line["text"] == "<b>hi</b> & welcome\nline two"
            assert line["from"] == {"seat": 0, "player": {"id": ana["player"]["id"],
                                                          "name": "Ana"}}
        rail.send_json({"type": "chat", "text": "good luck"})
        assert until(seat, "chat")["from"]["seat"] is None
    with hello(client, table_id) as late:
        texts = [line["text"] for line in until(late, "welcome")["chat"]]
        assert texts == ["<b>hi</b> & welcome\nline two", "good luck"]


def test_chat_refuses_strangers_floods_bad_text_and_tables_without_chat(client):
    ana = new_player(client, "Ana")
    made = create(client, ana, me=0)
    with hello(client, made["table"]["id"]) as anonymous:
        until(anonymous, "welcome")
        anonymous.send_json({"type": "chat", "text": "hi"})
        assert until(anonymous, "error")["code"] == "not_a_player"
    with hello(client, made["table"]["id"], player=ana["secret"]) as ws:
        until(ws, "welcome")
        for text, code in [("x" * 301, "bad_field"), ("a\u0007b", "bad_field"),
                           ("   ", "bad_field")]:
            ws.send_json({"type": "chat", "text": text})
            assert until(ws, "error")["code"] == code
        codes = []
        for number in range(7):
            ws.send_json({"type": "chat", "text": f"spam {number}", "ref": number})
        while len(codes) < 7:
            message = ws.receive_json()
            if message.get("ref") is not None and message["type"] == "error":
                codes.append(message["code"])
            elif message["type"] == "chat":
                codes.append("said")
        assert codes.count("said") == 5 and codes.count("rate_limited") == 2
    quiet = create(client, ana, me=0, chat=False)
    assert quiet["table"]["chat"] is False
    with hello(client, quiet["table"]["id"], player=ana["secret"]) as ws:
        assert "chat" not in until(ws, "welcome")
        ws.send_json({"type": "chat", "text": "hi"})
        assert until(ws, "error")["code"] == "chat_off"


def test_chat_survives_a_restart(tmp_path):
    settings = quick_settings(tmp_path / "chat.sqlite3")
    with TestClient(create_app(settings)) as client:
        ana = new_player(client, "Ana")
        table_id = create(client, ana, me=0)["table"]["id"]
        with hello(client, table_id, player=ana["secret"]) as ws:
            until(ws, "welcome")
            ws.send_json({"type": "chat", "text": "still here?"})
            until(ws, "chat")
    with TestClient(create_app(settings)) as client, hello(client, table_id) as ws:
        assert [line["text"] for line in until(ws, "welcome")["chat"]] == ["still here?"]
        seats = client.get(f"/api/tables/{table_id}").json()["table"]["seats"]
        assert seats[0]["player"]["name"] == "Ana"


# ------------------------------------------------------------------ ratings
def finish(client: TestClient, made: dict[str, Any]) -> None:
    table_id = made["table"]["id"]
    while True:
        info = client.get(f"/api/tables/{table_id}").json()["table"]
        if info["status"] == "finished":
            return
        token = made["tokens"].get(str(info["current_player"]))
        if token is None:  # a bot's turn
            time.sleep(0.01)
            continue
        view = client.get(f"/api/tables/{table_id}/view", headers=auth(token)).json()
        if view["legal_actions"]:
            client.post(f"/api/tables/{table_id}/actions", headers=auth(token),
                        json={"version": view["version"],
                              "action": view["legal_actions"][0]["id"]})


def wait_for(check: Any) -> Any:
    deadline = time.monotonic() + 5
    while not (result := check()):
        assert time.monotonic() < deadline
        time.sleep(0.02)
    return result


def test_a_game_between_players_rates_them_and_fills_the_leaderboard(client):
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    made = create(client, ana, me=0, options={"gems_to_win": 1})
    with hello(client, made["table"]["id"], token=made["tokens"]["1"], player=bea["secret"]):
        pass
    join_seats(client, made["table"]["id"], made["tokens"])
    finish(client, made)
    result = client.get(f"/api/tables/{made['table']['id']}").json()["table"]["result"]
    board = wait_for(lambda: client.get("/api/leaderboard/doors").json()["players"])
    assert [row["rank"] for row in board] == [1, 2]
    winner = [ana, bea][result["returns"].index(max(result["returns"]))]
    assert board[0]["player"]["id"] == winner["player"]["id"]
    assert board[0]["rating"] > board[1]["rating"] and board[0]["games"] == 1
    page = client.get(f"/api/players/{winner['player']['id']}").json()
    assert page["ratings"] == [{"game": "doors", "rating": board[0]["rating"], "games": 1,
                                "wins": 1, "tallied": 1}]
    assert [(row["wins"], row["tallied"]) for row in board] == [(1, 1), (0, 1)]
    assert [g["id"] for g in page["games"]] == [made["table"]["id"]]
    assert winner["secret"] not in str(page)


def test_a_bot_level_is_a_rated_player(client):
    ana = new_player(client, "Ana")
    made = create(client, ana, me=0, options={"gems_to_win": 1},
                  seats=[{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}])
    join_seats(client, made["table"]["id"], made["tokens"])
    finish(client, made)
    board = wait_for(lambda: client.get("/api/leaderboard/doors").json()["players"])
    bots = [row["player"] for row in board if row["player"]["bot"]]
    assert bots == [{"id": "bot_heuristic", "name": "Rule-of-thumb bot", "bot": "heuristic"}]


def test_unrated_tables_and_seats_without_players_change_no_rating(client):
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    unrated = create(client, ana, me=0, rated=False, options={"gems_to_win": 1})
    with hello(client, unrated["table"]["id"], token=unrated["tokens"]["1"],
               player=bea["secret"]):
        pass
    anonymous = create(client, ana, me=0, options={"gems_to_win": 1})  # seat 1: token only
    for made in (unrated, anonymous):
        join_seats(client, made["table"]["id"], made["tokens"])
        finish(client, made)
    time.sleep(0.3)
    assert client.get("/api/leaderboard/doors").json()["players"] == []
    assert client.get("/api/leaderboard/nogame").status_code == 404


def test_a_players_page_shows_no_game_in_play_and_no_secret(client):
    ana = new_player(client, "Ana")
    create(client, ana, me=0)
    page = client.get(f"/api/players/{ana['player']['id']}").json()
    assert page == {"player": {"id": ana["player"]["id"], "name": "Ana"}, "ratings": [],
                    "games": []}
    assert client.get("/api/players/p_nobody").status_code == 404


def test_ratings_follow_the_plackett_luce_model():
    assert ranks_from_returns([0.0, 1.0, 0.5, 0.5]) == [3, 1, 2, 2]
    start = [Skill(), Skill(), Skill()]
    after = rate(start, [1.0, 0.0, 0.0])
    assert after[0].mu > start[0].mu and after[1].mu < start[1].mu
    assert after[1] == after[2], "tied seats move alike"
    assert all(s.sigma < start[0].sigma and s.games == 1 for s in after)
    assert shown_rating(25.0, 25.0 / 3) == 1000.0
    with pytest.raises(ValueError):
        rate([Skill()], [1.0])


def test_a_database_of_the_first_schema_is_brought_up_to_date(tmp_path):
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(
        "CREATE TABLE tables (id TEXT PRIMARY KEY, game TEXT NOT NULL, spec TEXT NOT NULL, "
        "status TEXT NOT NULL, created_at REAL NOT NULL, started_at REAL, finished_at REAL, "
        "rematch TEXT, result TEXT); PRAGMA user_version=1;"
    )
    old.close()
    with TestClient(create_app(quick_settings(path))) as client:
        assert new_player(client, "Ana")["player"]["name"] == "Ana"
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == 3


def test_a_database_of_the_second_schema_gains_the_win_tally_and_keeps_its_ratings(tmp_path):
    path = tmp_path / "two.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(
        "CREATE TABLE ratings (player_id TEXT NOT NULL, game TEXT NOT NULL, mu REAL NOT NULL, "
        "sigma REAL NOT NULL, shown REAL NOT NULL, games INTEGER NOT NULL, "
        "updated_at REAL NOT NULL, PRIMARY KEY (player_id, game)) WITHOUT ROWID; "
        "INSERT INTO ratings VALUES ('p_x', 'doors', 27.0, 6.0, 1050.0, 5, 0.0); "
        "PRAGMA user_version=2;"
    )
    old.close()
    with TestClient(create_app(quick_settings(path))) as client:
        assert new_player(client, "Ana")["player"]["name"] == "Ana"
    kept = sqlite3.connect(path)
    assert kept.execute("PRAGMA user_version").fetchone()[0] == 3
    # Its five games were played before wins were counted: none of them is tallied.
    assert kept.execute("SELECT games, wins, tallied FROM ratings").fetchall() == [(5, 0, 0)]


def test_a_win_is_the_best_return_alone_or_shared_but_never_a_tie_of_everyone():
    from ladytiger.web.hub import won_game

    assert won_game([1.0, 0.0], 0) and not won_game([1.0, 0.0], 1)
    assert won_game([0.5, 0.5, 0.0], 0) and won_game([0.5, 0.5, 0.0], 1)
    assert not won_game([0.5, 0.5, 0.0], 2)
    assert not any(won_game([0.5, 0.5], seat) for seat in (0, 1))
