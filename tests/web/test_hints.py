"""Hints at the table (docs/protocol.md, "Hints"): given to the seat to move where the table
allows them, refused clearly elsewhere, limited per seat, and worked out off the event loop."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

import ladytiger
from ladytiger.web import create_app
from ladytiger.web import tables as tables_module
from tests.web.support import quick_settings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

# A small search keeps the tests quick; the hint still carries its note.
QUICK_HINTS = {"hint_iterations": 40, "hint_seconds": 5.0}


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(quick_settings(tmp_path / "t.sqlite3", **QUICK_HINTS))) as made:
        yield made


def create(client, **request: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={"game": "doors", **request})
    assert response.status_code == 201, response.text
    return response.json()


def until(ws, kind: str, **wanted: Any) -> dict[str, Any]:
    """The next message of `kind` (with the `wanted` fields), skipping the others."""
    while True:
        message = ws.receive_json()
        if message["type"] == kind and all(message.get(k) == v for k, v in wanted.items()):
            return message
        # An error where none is awaited would otherwise leave the test waiting for good.
        assert message["type"] != "error" or kind == "error", message


def my_turn(ws) -> dict[str, Any]:
    while True:
        view = until(ws, "view")
        if view["your_turn"]:
            return view


def socket(made: dict[str, Any]) -> str:
    return f"/api/tables/{made['table']['id']}/ws"


AGAINST_A_BOT = [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}]


def test_the_seat_to_move_gets_a_hint_and_can_play_it(client):
    made = create(client, seats=AGAINST_A_BOT)
    assert made["table"]["hints"] is True  # a table with a bot allows them unasked
    with client.websocket_connect(socket(made)) as ws:
        ws.send_json({"type": "hello", "token": made["tokens"]["0"]})
        assert until(ws, "welcome")["table"]["hints"] is True
        view = my_turn(ws)
        ws.send_json({"type": "hint", "ref": "h1"})
        hint = until(ws, "hint")
        assert hint["ref"] == "h1" and hint["table"] == made["table"]["id"]
        assert hint["version"] == view["version"]
        legal = {move["id"]: move["text"] for move in view["legal_actions"]}
        assert legal[hint["action"]] == hint["text"]
        assert hint["reason"].startswith("Taking the ") and hint["reason"].endswith(".")
        search = hint["search"]
        assert search["simulations"] == QUICK_HINTS["hint_iterations"]
        assert search["text"] == legal[search["action"]]
        assert "after 40 simulations" in search["note"]
        assert set(hint) == {"type", "ref", "table", "version", "action", "text", "reason",
                             "search"}
        # Asking again about the same position gives the same hint.
        ws.send_json({"type": "hint", "ref": "h2"})
        again = until(ws, "hint")
        assert {**again, "ref": "h1"} == hint
        ws.send_json({"type": "action", "version": view["version"], "action": hint["action"],
                      "ref": "m1"})
        assert until(ws, "ack")["text"] == hint["text"]


def test_a_table_of_people_has_no_hints_unless_its_creator_allows_them(client):
    closed = create(client)
    assert closed["table"]["hints"] is False
    opened = create(client, hints=True)
    assert opened["table"]["hints"] is True
    # And a table with a bot may have them turned off.
    assert create(client, seats=AGAINST_A_BOT, hints=False)["table"]["hints"] is False
    bad = client.post("/api/tables", json={"game": "doors", "hints": "yes"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_field"
    for made, allowed in ((closed, False), (opened, True)):
        with client.websocket_connect(socket(made)) as ws0, \
                client.websocket_connect(socket(made)) as ws1:
            ws0.send_json({"type": "hello", "token": made["tokens"]["0"]})
            ws1.send_json({"type": "hello", "token": made["tokens"]["1"]})
            my_turn(ws0)  # seat 0 collects first
            ws0.send_json({"type": "hint", "ref": 1})
            if allowed:
                assert until(ws0, "hint", ref=1)["reason"]
            else:
                refused = until(ws0, "error", ref=1)
                assert refused["code"] == "hints_off"
                assert refused["message"] == ("hints are off at this table: its creator "
                                              "did not allow them")


def test_a_hint_is_refused_off_turn_and_to_a_spectator(client):
    made = create(client, hints=True)
    with client.websocket_connect(socket(made)) as ws0, \
            client.websocket_connect(socket(made)) as ws1, \
            client.websocket_connect(socket(made)) as watcher:
        ws0.send_json({"type": "hello", "token": made["tokens"]["0"]})
        ws1.send_json({"type": "hello", "token": made["tokens"]["1"]})
        watcher.send_json({"type": "hello"})
        my_turn(ws0)
        ws1.send_json({"type": "hint", "ref": "early"})
        refused = until(ws1, "error", ref="early")
        assert refused["code"] == "not_your_turn"
        assert refused["message"] == "it is seat 0's turn, not yours"
        watcher.send_json({"type": "hint", "ref": "w"})
        refused = until(watcher, "error", ref="w")
        assert refused["code"] == "spectator"
        assert "a spectator cannot ask for one" in refused["message"]


def test_hints_before_the_game_starts_are_refused(client):
    made = create(client, hints=True)
    with client.websocket_connect(socket(made)) as ws0:
        ws0.send_json({"type": "hello", "token": made["tokens"]["0"]})
        until(ws0, "view")
        ws0.send_json({"type": "hint", "ref": 5})
        assert until(ws0, "error", ref=5)["code"] == "not_started"


def test_hints_are_limited_per_seat_and_a_repeat_is_free(tmp_path):
    settings = quick_settings(tmp_path / "t.sqlite3", **QUICK_HINTS, hint_burst=2,
                              hints_per_minute=0.5)
    with TestClient(create_app(settings)) as client:
        made = create(client, game="hoard", seats=[{"kind": "human"}])
        with client.websocket_connect(socket(made)) as ws:
            ws.send_json({"type": "hello", "token": made["tokens"]["0"]})
            for number in range(2):
                view = my_turn(ws)
                ws.send_json({"type": "hint", "ref": f"h{number}"})
                hint = until(ws, "hint", ref=f"h{number}")
                # The same position again: answered, and not counted against the limit.
                ws.send_json({"type": "hint", "ref": f"again{number}"})
                assert until(ws, "hint", ref=f"again{number}")["action"] == hint["action"]
                ws.send_json({"type": "action", "version": view["version"],
                              "action": hint["action"]})
                until(ws, "ack")
            my_turn(ws)
            ws.send_json({"type": "hint", "ref": "third"})
            refused = until(ws, "error", ref="third")
            assert refused["code"] == "rate_limited"
            assert refused["message"].startswith(
                "too many hints: at most 2 in a row and 0.5 a minute; the next one in ")
            assert 60 <= refused["retry_after"] <= 120


def test_the_connection_answers_while_a_hint_is_worked_out(tmp_path):
    """A long search does not hold up the asker's other messages."""
    settings = quick_settings(tmp_path / "t.sqlite3", hint_iterations=10**7, hint_seconds=1.5)
    with TestClient(create_app(settings)) as client:
        made = create(client, seats=AGAINST_A_BOT)
        with client.websocket_connect(socket(made)) as ws:
            ws.send_json({"type": "hello", "token": made["tokens"]["0"]})
            my_turn(ws)
            ws.send_json({"type": "hint", "ref": "slow"})
            ws.send_json({"type": "ping", "ref": "quick"})
            first = ws.receive_json()
            while first["type"] == "presence":
                first = ws.receive_json()
            assert first["type"] == "pong" and first["ref"] == "quick"
            hint = until(ws, "hint", ref="slow")
            assert 1 <= hint["search"]["simulations"] < 10**7


def test_a_failing_search_leaves_the_rules_of_thumb_to_answer(client, monkeypatch):
    real = tables_module.hint_job

    def no_search(state, seat, seed, iterations, seconds):  # type: ignore[no-untyped-def]
        if iterations:
            raise RuntimeError("the search broke")
        return real(state, seat, seed, iterations, seconds)

    monkeypatch.setattr(tables_module, "hint_job", no_search)
    made = create(client, seats=AGAINST_A_BOT)
    with client.websocket_connect(socket(made)) as ws:
        ws.send_json({"type": "hello", "token": made["tokens"]["0"]})
        my_turn(ws)
        ws.send_json({"type": "hint", "ref": "h"})
        hint = until(ws, "hint", ref="h")
        assert "search" not in hint and hint["reason"].startswith("Taking the ")


def test_a_hint_sees_only_the_askers_cards(client, monkeypatch):
    """The worker is handed the seat's position drawn afresh: whatever it is given, it
    answers from a resample (ladytiger.bots.advice), so the hint is the one any state the
    seat cannot tell apart would get."""
    seen: list[Any] = []
    real = tables_module.hint_job

    def watch(state, seat, seed, iterations, seconds):  # type: ignore[no-untyped-def]
        other = state.resample(seat, __import__("random").Random(99))
        answer = real(state, seat, seed, iterations, seconds)
        seen.append(answer == real(other, seat, seed, iterations, seconds))
        return answer

    monkeypatch.setattr(tables_module, "hint_job", watch)
    made = create(client, seats=[{"kind": "bot", "bot": "random"}, {"kind": "human"}])
    with client.websocket_connect(socket(made)) as ws:
        ws.send_json({"type": "hello", "token": made["tokens"]["1"]})
        my_turn(ws)  # the Guesser, who cannot see the Collector's door
        ws.send_json({"type": "hint", "ref": "h"})
        until(ws, "hint", ref="h")
    assert seen == [True]


def test_stored_tables_keep_their_hint_setting(tmp_path):
    from ladytiger.web.specs import TableSpec, parse_create_request

    spec = parse_create_request({"game": "doors", "hints": True})
    assert TableSpec.from_json(spec.to_json()).allows_hints() is True
    assert spec.rematch("next").hints is True
    # Tables stored before hints existed: allowed with a bot or alone, not among people.
    for seats, allowed in (([{"kind": "human"}] * 2, False), (AGAINST_A_BOT, True),
                           ([{"kind": "human", "open": True}, {"kind": "human"}], False),
                           ([{"kind": "human"}] * 2 + [{"kind": "bot"}], True)):
        older = parse_create_request({"game": "traps", "seats": seats}).to_json()
        del older["hints"]
        assert TableSpec.from_json(older).allows_hints() is allowed
    solo = parse_create_request({"game": "hoard"}).to_json()
    del solo["hints"]
    assert TableSpec.from_json(solo).allows_hints() is True


def test_every_game_answers_a_hint_over_the_socket(client):
    for info in ladytiger.registered_games():
        seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * (info.min_players
                                                                             - 1)
        made = create(client, game=info.name, seats=seats)
        with client.websocket_connect(socket(made)) as ws:
            ws.send_json({"type": "hello", "token": made["tokens"]["0"]})
            view = my_turn(ws)
            ws.send_json({"type": "hint", "ref": info.name})
            hint = until(ws, "hint", ref=info.name)
            texts = {move["id"]: move["text"] for move in view["legal_actions"]}
            assert texts[hint["action"]] == hint["text"], info.name
            assert hint["reason"], info.name


def test_a_hint_is_worked_out_in_a_bot_worker_process(tmp_path):
    """The server's own way: the search runs in a worker process, never in the server's."""
    settings = quick_settings(tmp_path / "t.sqlite3", **QUICK_HINTS, bot_pool="process",
                              bot_workers=1)
    with TestClient(create_app(settings)) as client:
        # A solo game: no bot seat, so no worker is started before the hint asks for one.
        made = create(client, game="hoard", seats=[{"kind": "human"}])
        pool = client.app.state.hub.services.pool
        with client.websocket_connect(socket(made)) as ws:
            ws.send_json({"type": "hello", "token": made["tokens"]["0"]})
            view = my_turn(ws)
            assert all(slot.process is None for slot in pool._slots)
            ws.send_json({"type": "hint", "ref": "p"})
            hint = until(ws, "hint", ref="p")
        assert hint["version"] == view["version"]
        assert hint["search"]["simulations"] == QUICK_HINTS["hint_iterations"]
        assert any(slot.process is not None for slot in pool._slots)
