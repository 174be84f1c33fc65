"""Starting a waiting table now with bots in the empty seats (docs/protocol.md, "Starting
with bots"): the table's maker does not wait for a friend who never comes. The game goes on at
a new table, everyone who had joined in their own seat; the old table ends pointing there."""

from __future__ import annotations

from tests.web.support import auth
from tests.web.test_resign import client, create, hello, new_player, next_of, table_of, wait_for

__all__ = ["client"]  # the fixture, shared with the resignation tests


def test_the_maker_starts_now_and_the_guest_who_came_follows_to_the_new_table(client):
    ann = new_player(client, "Ann")
    made = create(client, ann, game="favor", options={"players": 3},
                  seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
    old = made["table"]["id"]
    with client.websocket_connect(f"/api/tables/{old}/ws") as host, \
            client.websocket_connect(f"/api/tables/{old}/ws") as guest:
        hello(host, made["tokens"]["0"], player=ann["secret"])
        hello(guest, made["tokens"]["2"])
        host.send_json({"type": "fill", "bot": "casual", "ref": "f"})
        for ws in (host, guest):
            moved = next_of(ws, "rematch")
            new = moved["rematch"]
            view = next_of(ws, "view")
            assert view["status"] == "abandoned" and view["began"] is False
            assert view["restarted"] == 0 and view["rematch"] == new
            assert view["abandoned"] == ("Ann started the game with bots in the empty seats: "
                                         "it goes on at a new table")
        assert next_of(host, "ack") == {"type": "ack", "ref": "f", "table": old,
                                        "rematch": new}
        # The seat nobody joined is a casual bot there; the others keep their tokens.
        info = client.get(f"/api/tables/{new}").json()["table"]
        kinds = [(s["kind"], s.get("bot")) for s in info["seats"]]
        assert kinds == [("human", None), ("bot", "casual"), ("human", None)]
        assert info["seats"][0]["name"] == "Ann"
        for ws in (host, guest):
            ws.send_json({"type": "follow", "ref": "go"})
            assert next_of(ws, "welcome")["table"]["id"] == new
        view = wait_for(lambda: (v := next_of(host, "view"))["status"] == "playing" and v)
        assert view["status"] == "playing"
    assert table_of(client, made)["abandoned"] == {
        "reason": "restarted:0", "restarted": 0,
        "words": "Ann started the game with bots in the empty seats: it goes on at a new table"}
    # Ann's lists hold the game, not the table it moved from.
    mine = client.get("/api/me/tables", headers={"authorization": f"Player {ann['secret']}"})
    listed = [t["id"] for part in mine.json().values() for t in part]
    assert new in listed and old not in listed
    games = client.get(f"/api/players/{ann['player']['id']}").json()["games"]
    assert old not in [g["id"] for g in games]
    ended = client.get("/api/tables?status=abandoned").json()["tables"]
    assert old not in [t["id"] for t in ended]
    # The friend who never came: the old link holds a seat at a table that has ended.
    late = client.post(f"/api/tables/{old}/join", json={"seat": 1})
    assert late.status_code == 409 and late.json()["error"]["code"] == "game_abandoned"


def test_starting_with_bots_over_http_gives_the_new_table_and_its_links(client):
    made = create(client, seats=[{"kind": "human"}, {"kind": "human", "open": True}])
    old = made["table"]["id"]
    started = client.post(f"/api/tables/{old}/fill", json={"bot": "beginner"},
                          headers=auth(made["tokens"]["0"]))
    assert started.status_code == 201, started.text
    new = started.json()["table"]
    assert new["id"] != old and started.json()["links"]["spectate"].endswith(new["id"])
    assert [s["kind"] for s in new["seats"]] == ["human", "bot"]
    assert table_of(client, made)["rematch"] == new["id"]
    # The asker had not connected yet: it keeps its seat, and the new table waits for it
    # alone (no seat is open, so the lobby does not list it), then starts.
    assert new["status"] == "waiting"
    assert client.get("/api/tables?status=waiting").json()["tables"] == []
    with client.websocket_connect(f"/api/tables/{new['id']}/ws") as ws:
        hello(ws, made["tokens"]["0"])
        assert wait_for(lambda: next_of(ws, "view")["status"] == "playing")


def test_who_may_start_with_bots_and_when(client):
    made = create(client, seats=[{"kind": "human"}, {"kind": "human", "open": True}])
    table_id = made["table"]["id"]

    def fill(token: str, bot: str = "casual") -> tuple[int, str]:
        answer = client.post(f"/api/tables/{table_id}/fill", json={"bot": bot},
                             headers=auth(token))
        return answer.status_code, answer.json()["error"]["code"]

    assert fill(made["tokens"]["0"], "nobody") == (400, "unknown_bot")
    assert client.post(f"/api/tables/{table_id}/fill", json={},
                       headers=auth(made["tokens"]["0"])).status_code == 400
    claimed = client.post(f"/api/tables/{table_id}/join", json={}).json()
    assert fill(claimed["token"]) == (403, "not_table_maker")
    assert table_of(client, made)["status"] == "waiting"
    with client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
        hello(ws, claimed["token"])
        with client.websocket_connect(f"/api/tables/{table_id}/ws") as host:
            hello(host, made["tokens"]["0"])
            # Everyone came, so the game began by itself: nothing to fill any more.
            assert wait_for(lambda: table_of(client, made)["status"] == "playing")
    assert fill(made["tokens"]["0"]) == (409, "already_started")


def test_a_table_whose_only_other_seat_is_here_has_nobody_missing(client):
    made = create(client, seats=[{"kind": "human"}, {"kind": "human"}])
    table_id = made["table"]["id"]
    with client.websocket_connect(f"/api/tables/{table_id}/ws") as guest:
        hello(guest, made["tokens"]["1"])
        # Seat 0 asks over HTTP: seat 1 is here, seat 0 is the asker, so nobody is missing.
        answer = client.post(f"/api/tables/{table_id}/fill", json={"bot": "casual"},
                             headers=auth(made["tokens"]["0"]))
        assert answer.status_code == 409
        assert answer.json()["error"]["code"] == "nobody_missing"
        assert "starts by itself" in answer.json()["error"]["message"]


def test_the_maker_opens_an_absent_friends_seat_to_the_lobby(client):
    """Instead of bots, the invited seat nobody joined goes to anyone in the lobby: the table
    moves to a new one that waits, everyone who came (and a lobby seat already claimed)
    keeps their seat, and the old invite link holds nothing any more."""
    ann = new_player(client, "Ann")
    made = create(client, ann, game="favor", options={"players": 4},
                  seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"},
                         {"kind": "human", "open": True}])
    old = made["table"]["id"]
    bob = client.post(f"/api/tables/{old}/join", json={}).json()
    assert bob["seat"] == 3
    with client.websocket_connect(f"/api/tables/{old}/ws") as host, \
            client.websocket_connect(f"/api/tables/{old}/ws") as guest:
        hello(host, made["tokens"]["0"], player=ann["secret"])
        hello(guest, made["tokens"]["2"])
        host.send_json({"type": "fill", "lobby": True, "ref": "o"})
        for ws in (host, guest):
            new = next_of(ws, "rematch")["rematch"]
            view = next_of(ws, "view")
            assert view["status"] == "abandoned" and view["opened"] is True
            assert view["restarted"] == 0 and view["rematch"] == new
            assert view["abandoned"] == ("Ann opened the empty seats to anyone in the lobby: "
                                         "the table waits for players at a new address")
        assert next_of(host, "ack") == {"type": "ack", "ref": "o", "table": old,
                                        "rematch": new}
        info = client.get(f"/api/tables/{new}").json()["table"]
        assert [s["kind"] for s in info["seats"]] == ["human"] * 4
        assert [bool(s.get("open")) for s in info["seats"]] == [False, True, False, True]
        assert info["status"] == "waiting" and info["seats"][0]["name"] == "Ann"
        # The new table is in the lobby, its one free seat the friend's.
        lobby = client.get("/api/tables?status=waiting").json()["tables"]
        assert [t["id"] for t in lobby] == [new]
        for ws in (host, guest):
            ws.send_json({"type": "follow", "ref": "go"})
            assert next_of(ws, "welcome")["table"]["id"] == new
        # The old invite link holds nothing: the seat is the lobby's now. Opened at the old
        # table, it only watches (and names nobody); the host's own link is still a seat.
        late = client.post(f"/api/tables/{old}/join", json={"seat": 1})
        assert late.status_code == 409 and late.json()["error"]["code"] == "game_abandoned"
        with client.websocket_connect(f"/api/tables/{old}/ws") as friend:
            friend.send_json({"type": "hello", "token": made["tokens"]["1"],
                              "player": new_player(client, "Fay")["secret"]})
            assert next_of(friend, "welcome")["seat"] is None
        seats = table_of(client, made)["seats"]
        assert seats[1].get("name") in (None, "Seat 1") and seats[0]["name"] == "Ann"
        with client.websocket_connect(f"/api/tables/{old}/ws") as again:
            again.send_json({"type": "hello", "token": made["tokens"]["0"]})
            assert next_of(again, "welcome")["seat"] == 0
        stranger = client.post(f"/api/tables/{new}/join", json={}).json()
        assert stranger["seat"] == 1
        # Bob's claim came along; once he and the stranger arrive, the game begins.
        with client.websocket_connect(f"/api/tables/{new}/ws") as third, \
                client.websocket_connect(f"/api/tables/{new}/ws") as fourth:
            hello(third, stranger["token"])
            hello(fourth, bob["token"])
            assert wait_for(lambda: next_of(host, "view")["status"] == "playing")
    assert table_of(client, made)["abandoned"] == {
        "reason": "opened:0", "restarted": 0, "opened": True,
        "words": "Ann opened the empty seats to anyone in the lobby: the table waits for "
                 "players at a new address"}
    mine = client.get("/api/me/tables", headers={"authorization": f"Player {ann['secret']}"})
    listed = [t["id"] for part in mine.json().values() for t in part]
    assert new in listed and old not in listed


def test_opening_seats_is_refused_when_none_is_invited_or_the_request_is_unclear(client):
    made = create(client, seats=[{"kind": "human"}, {"kind": "human", "open": True}])
    table_id = made["table"]["id"]

    def fill(body: dict) -> tuple[int, str]:
        answer = client.post(f"/api/tables/{table_id}/fill", json=body,
                             headers=auth(made["tokens"]["0"]))
        return answer.status_code, answer.json()["error"]["code"]

    assert fill({"lobby": True}) == (409, "already_open")
    assert fill({"lobby": True, "bot": "casual"}) == (400, "bad_field")
    assert fill({"lobby": False}) == (400, "bad_field")
    assert table_of(client, made)["status"] == "waiting"
