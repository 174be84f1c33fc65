"""Pace and moments: how long bots wait, and how a table lets its people see what just happened.

A table is made at a pace (fast, normal, slow) or with its own `bot_pause`; without either it
takes the server's default of one second. When a move scores or reveals something (a
moment, from the engine's `moment` hook), every view of that version carries it, and the
next bot waits until every connected human seat says `seen`, or `moment_pause` at most.

The engines' own hook may not exist yet, so these tests give Doors and Favor a stand-in
hook of their own for their length: what is tested is the table's side.
"""

from __future__ import annotations

import asyncio
import inspect
import random
import time
import warnings
from typing import Any

import httpx
import pytest

from ladytiger.games.doors import DoorsState
from ladytiger.games.favor import FavorState
from ladytiger.web import Settings, create_app
from ladytiger.web.client import TableConnection
from ladytiger.web.hub import Hub
from ladytiger.web.protocol import parse_client_message
from ladytiger.web.specs import PACES, TableSpec, parse_create_request
from ladytiger.web.tables import clean_moment
from tests.web.support import LiveServer, quick_settings, run

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

MOMENT = {"kind": "test", "title": "seat 0 moved", "lines": ["a line", "another line"]}


def moment_after_seat_0(self: Any, after: Any) -> dict[str, Any] | None:
    """A stand-in hook: every move of seat 0 is a moment."""
    return dict(MOMENT) if self.current_player() == 0 else None


def moment_before_the_bot(bot: int):
    """A stand-in hook: a moment whenever a move hands the turn to seat `bot`."""
    def hook(self: Any, after: Any) -> dict[str, Any] | None:
        if self.current_player() != bot and after.current_player() == bot:
            return {"kind": "test", "title": "the bot is next", "lines": []}
        return None
    return hook


def create(client: Any, **request: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={"game": "doors", **request})
    assert response.status_code == 201, response.text
    return response.json()


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(quick_settings(tmp_path / "t.sqlite3"))) as test_client:
        yield test_client


# ---------------------------------------------------------------------------- pace
def test_the_default_pace_is_one_second_and_a_moment_waits_four_at_most():
    from ladytiger.cli.server_commands import serve

    assert Settings().bot_pause == 1.0
    assert Settings().moment_pause == 4.0
    assert inspect.signature(serve).parameters["bot_pause"].default == 1.0
    assert PACES == {"fast": 0.3, "normal": 1.0, "slow": 2.0}


@pytest.mark.parametrize("pace", sorted(PACES))
def test_a_table_is_made_at_a_pace(client, pace):
    table = create(client, pace=pace)["table"]
    assert (table["pace"], table["bot_pause"]) == (pace, PACES[pace])
    shown = client.get(f"/api/tables/{table['id']}").json()["table"]
    assert (shown["pace"], shown["bot_pause"]) == (pace, PACES[pace])


def test_without_a_pace_the_table_takes_the_servers_and_a_number_wins_over_a_pace(client):
    table = create(client)["table"]
    assert (table["pace"], table["bot_pause"]) == (None, None)
    table = create(client, pace=None)["table"]
    assert (table["pace"], table["bot_pause"]) == (None, None)
    table = create(client, pace="slow", bot_pause=0.5)["table"]
    assert (table["pace"], table["bot_pause"]) == (None, 0.5)
    table = create(client, bot_pause=0)["table"]
    assert (table["pace"], table["bot_pause"]) == (None, 0.0)


@pytest.mark.parametrize(("pace", "words"), [
    ("warp", "'pace' must be one of 'fast', 'normal', 'slow'"),
    ("Normal", "'pace' must be one of 'fast', 'normal', 'slow'"),
    ("", "'pace' must be one of"),
    (1.0, "'pace' must be a string or null"),
    (True, "'pace' must be a string or null"),
    (["fast"], "'pace' must be a string or null"),
])
def test_a_pace_that_is_not_one_of_the_three_is_refused(client, pace, words):
    response = client.post("/api/tables", json={"game": "doors", "pace": pace})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "bad_field"
    assert words in error["message"]


def test_the_pace_is_kept_through_a_restart_and_a_rematch():
    spec = parse_create_request({"game": "doors", "pace": "fast"})
    again = TableSpec.from_json(spec.to_json())
    assert (again.pace, again.bot_pause) == ("fast", 0.3)
    assert (spec.rematch("x").pace, spec.rematch("x").bot_pause) == ("fast", 0.3)
    # A table stored before paces existed comes back without one.
    old = spec.to_json()
    del old["pace"]
    assert TableSpec.from_json(old).pace is None


def first_bot_reply(base: str, table_id: str, token: str) -> float:
    """Play seat 0's first move; seconds until the bot's answer arrives."""
    async def scenario() -> float:
        connection = await TableConnection.open(base, table_id, token)
        while True:
            view = await connection.receive()
            if view["type"] == "view" and view["your_turn"]:
                break
        await connection.act(view["version"], view["legal_actions"][0]["id"])
        sent = time.monotonic()
        while True:
            message = await connection.receive()
            if message["type"] == "view" and message["version"] == view["version"] + 2:
                await connection.close()
                return time.monotonic() - sent

    return run(asyncio.wait_for(scenario(), 20))


def test_bots_wait_the_default_second_or_their_tables_pace(tmp_path):
    settings = quick_settings(tmp_path / "p.sqlite3", bot_pause=Settings().bot_pause)
    seats = [{"kind": "human"}, {"kind": "bot"}]
    with LiveServer(settings) as server:
        plain = httpx.post(f"{server.base}/api/tables", json={
            "game": "doors", "options": {"gems_to_win": 50}, "seats": seats}).json()
        fast = httpx.post(f"{server.base}/api/tables", json={
            "game": "doors", "options": {"gems_to_win": 50}, "seats": seats,
            "pace": "fast"}).json()
        slow_answer = first_bot_reply(server.base, plain["table"]["id"], plain["tokens"]["0"])
        fast_answer = first_bot_reply(server.base, fast["table"]["id"], fast["tokens"]["0"])
    assert 1.0 <= slow_answer < 2.5
    assert 0.3 <= fast_answer < 0.9


def test_a_humans_own_move_is_never_held_back(tmp_path, monkeypatch):
    # Two people at a slow table with a moment after every move of seat 0: each move is
    # taken and shown at once; only bots wait.
    monkeypatch.setattr(DoorsState, "moment", moment_after_seat_0, raising=False)
    settings = quick_settings(tmp_path / "h.sqlite3", bot_pause=2.0, moment_pause=5.0)
    with LiveServer(settings) as server:
        made = httpx.post(f"{server.base}/api/tables", json={
            "game": "doors", "options": {"gems_to_win": 50}, "pace": "slow",
            "seats": [{"kind": "human"}, {"kind": "human"}]}).json()

        async def seat(number: int, moves: list[float]) -> None:
            connection = await TableConnection.open(server.base, made["table"]["id"],
                                                    made["tokens"][str(number)])
            while len(moves) < 8:
                message = await connection.receive()
                if message["type"] == "view" and message["your_turn"]:
                    moves.append(time.monotonic())
                    await connection.act(message["version"], message["legal_actions"][0]["id"])
            await connection.close()

        async def scenario() -> float:
            moves: list[float] = []
            started = time.monotonic()
            tasks = [asyncio.ensure_future(seat(s, moves)) for s in (0, 1)]
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            return moves[7] - started

        assert run(asyncio.wait_for(scenario(), 20)) < 2.0


# ---------------------------------------------------------------------------- moments in views
def test_every_view_of_a_moments_version_carries_it_and_no_other_does(client, monkeypatch):
    monkeypatch.setattr(DoorsState, "moment", moment_after_seat_0, raising=False)
    made = create(client, options={"gems_to_win": 50},
                  seats=[{"kind": "human"}, {"kind": "human"}])
    table_id = made["table"]["id"]
    path = f"/api/tables/{table_id}/ws"
    with client.websocket_connect(path) as zero, client.websocket_connect(path) as one, \
            client.websocket_connect(path) as watcher:
        zero.send_json({"type": "hello", "token": made["tokens"]["0"]})
        one.send_json({"type": "hello", "token": made["tokens"]["1"]})
        watcher.send_json({"type": "hello"})
        seen: dict[str, dict[int, Any]] = {"0": {}, "1": {}, "watcher": {}}
        sockets = {"0": zero, "1": one, "watcher": watcher}
        tokens = made["tokens"]
        moves = 0
        version = 0
        while moves < 6:
            views = {}
            for name, ws in sockets.items():
                while True:
                    message = ws.receive_json()
                    if message["type"] == "view" and message["version"] >= max(version, 1):
                        views[name] = message
                        seen[name][message["version"]] = message["moment"]
                        break
            version = views["0"]["version"]
            mover = str(views["0"]["current_player"])
            http = client.get(f"/api/tables/{table_id}/view",
                              headers={"authorization": f"Bearer {tokens[mover]}"}).json()
            assert http["moment"] == views[mover]["moment"]
            move = views[mover]["legal_actions"][0]
            client.post(f"/api/tables/{table_id}/actions",
                        headers={"authorization": f"Bearer {tokens[mover]}"},
                        json={"version": version, "action": move["id"]})
            version += 1
            moves += 1
    assert seen["0"] == seen["1"] == seen["watcher"]
    assert None in seen["0"].values() and MOMENT in seen["0"].values()
    assert all(moment in (None, MOMENT) for moment in seen["0"].values())


def test_a_failing_or_odd_hook_costs_the_moment_never_the_move(client, monkeypatch):
    def broken(self: Any, after: Any) -> Any:
        raise RuntimeError("the hook is broken")

    monkeypatch.setattr(DoorsState, "moment", broken, raising=False)
    made = create(client, seats=[{"kind": "human"}, {"kind": "human"}])
    table_id = made["table"]["id"]
    headers = {"authorization": f"Bearer {made['tokens']['0']}"}
    from tests.web.support import join_seats

    join_seats(client, table_id, made["tokens"])
    view = client.get(f"/api/tables/{table_id}/view", headers=headers).json()
    move = view["legal_actions"][0]["id"]
    answer = client.post(f"/api/tables/{table_id}/actions", headers=headers,
                         json={"version": view["version"], "action": move})
    assert answer.status_code == 200, answer.text
    after = client.get(f"/api/tables/{table_id}/view", headers=headers).json()
    assert after["version"] == view["version"] + 1 and after["moment"] is None


def test_a_moment_is_sent_as_kind_title_and_lines_of_text_only():
    assert clean_moment(None) is None
    assert clean_moment({"kind": "trick", "title": "seat 1 takes the trick",
                         "lines": ["Blue 10"], "secret": "the deck"}) == {
        "kind": "trick", "title": "seat 1 takes the trick", "lines": ["Blue 10"]}
    assert clean_moment({"kind": "end", "title": "x", "lines": [3]})["lines"] == ["3"]
    assert len(clean_moment({"kind": "k", "title": "t" * 9000, "lines": ["l"] * 900})[
        "lines"]) == 40
    for odd in ({"title": "no kind"}, {"kind": "k", "title": 3}, ["a list"],
                {"kind": "k", "title": "t", "lines": "not a list"}):
        with pytest.raises(TypeError):
            clean_moment(odd)


# ---------------------------------------------------------------------------- waiting on seen
class Reader:
    """A connection as the table sees one: a seat (None: a spectator) and what it is sent."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.sent: list[str] = []

    def send(self, text: str) -> None:
        self.sent.append(text)


async def favor_table(tmp_path, monkeypatch, moment_pause: float = 1.0):
    """Favor for two people (seats 0 and 1) and a bot (seat 2), with a moment whenever a
    move hands the turn to the bot; the people's readers and a spectator's are attached."""
    monkeypatch.setattr(FavorState, "moment", moment_before_the_bot(2), raising=False)
    settings = quick_settings(tmp_path / "f.sqlite3", bot_pause=0.05,
                              moment_pause=moment_pause)
    hub = Hub(settings, rng=random.Random(5))
    await hub.open()
    spec = parse_create_request({"game": "favor", "options": {"players": 3},
                                 "seats": [{"kind": "human"}, {"kind": "human"},
                                           {"kind": "bot"}]})
    table, _ = await hub.create(spec)
    readers = {0: Reader(0), 1: Reader(1), None: Reader(None)}
    for reader in readers.values():
        table.attach(reader)
    await table.join(0, table.token_hashes[0])
    await table.join(1, table.token_hashes[1])
    return hub, table, readers


async def until_the_bot_waits_on_a_moment(table: Any, rng: random.Random) -> int:
    """People move at random until a moment hands the turn to the bot; its version."""
    for _ in range(500):
        player = table.state.current_player()
        if player == 2 and table.moment_version == table.version:
            return table.version
        if player in (0, 1):
            await table.play(player, table.version, rng.choice(table.state.legal_actions()))
        else:
            await asyncio.sleep(0.01)
    raise AssertionError("no moment handed the turn to the bot")


async def moved_within(table: Any, version: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if table.version != version:
            return True
        await asyncio.sleep(0.01)
    return table.version != version


def test_the_bot_waits_until_every_connected_human_seat_has_seen_the_moment(
        tmp_path, monkeypatch):
    async def scenario() -> None:
        hub, table, readers = await favor_table(tmp_path, monkeypatch, moment_pause=3.0)
        try:
            version = await until_the_bot_waits_on_a_moment(table, random.Random(1))
            assert table.view(0)["moment"] == table.view(None)["moment"] is not None
            assert not await moved_within(table, version, 0.4)
            table.seen(readers[None], version)  # a spectator's word does not count here
            table.seen(readers[0], version - 1)  # nor does an old version's
            table.seen(readers[0], version + 1)
            assert not await moved_within(table, version, 0.3)
            table.seen(readers[0], version)
            assert not await moved_within(table, version, 0.4)
            started = time.monotonic()
            table.seen(readers[1], version)
            assert await moved_within(table, version, 1.0)
            assert time.monotonic() - started < 1.0
        finally:
            await hub.close()

    run(scenario())


def test_without_a_seen_the_bot_goes_on_after_the_moment_pause(tmp_path, monkeypatch):
    async def scenario() -> None:
        hub, table, readers = await favor_table(tmp_path, monkeypatch, moment_pause=1.0)
        try:
            version = await until_the_bot_waits_on_a_moment(table, random.Random(2))
            started = time.monotonic()
            table.seen(readers[0], version)
            assert await moved_within(table, version, 2.5)
            waited = time.monotonic() - started
            assert 0.8 <= waited < 2.0
        finally:
            await hub.close()

    run(scenario())


def test_a_seat_that_leaves_is_not_waited_for_and_nor_is_anyone_at_an_empty_table(
        tmp_path, monkeypatch):
    async def scenario() -> None:
        hub, table, readers = await favor_table(tmp_path, monkeypatch, moment_pause=3.0)
        try:
            rng = random.Random(3)
            version = await until_the_bot_waits_on_a_moment(table, rng)
            table.seen(readers[0], version)
            table.detach(readers[1])  # seat 1 closes its tab: only seat 0 is left to ask
            assert await moved_within(table, version, 1.0)
            # With no seat connected, the spectator is the one the bot waits for.
            table.detach(readers[0])
            version = await until_the_bot_waits_on_a_moment(table, rng)
            assert not await moved_within(table, version, 0.3)
            table.seen(readers[None], version)
            assert await moved_within(table, version, 1.0)
            # Nobody watching at all: no wait.
            table.detach(readers[None])
            version = await until_the_bot_waits_on_a_moment(table, rng)
            assert await moved_within(table, version, 0.6)
        finally:
            await hub.close()

    run(scenario())


def test_a_table_whose_bots_do_not_pause_does_not_wait_on_moments(tmp_path, monkeypatch):
    async def scenario() -> None:
        monkeypatch.setattr(FavorState, "moment", moment_before_the_bot(2), raising=False)
        hub = Hub(quick_settings(tmp_path / "z.sqlite3", moment_pause=5.0),
                  rng=random.Random(5))
        await hub.open()
        try:
            spec = parse_create_request({"game": "favor", "options": {"players": 3},
                                         "bot_pause": 0, "seats": [
                                             {"kind": "human"}, {"kind": "human"},
                                             {"kind": "bot"}]})
            table, _ = await hub.create(spec)
            readers = [Reader(0), Reader(1)]
            for reader in readers:
                table.attach(reader)
            await table.join(0, table.token_hashes[0])
            await table.join(1, table.token_hashes[1])
            version = await until_the_bot_waits_on_a_moment(table, random.Random(4))
            assert await moved_within(table, version, 1.0)
        finally:
            await hub.close()

    run(scenario())


# ---------------------------------------------------------------------------- the seen message
@pytest.mark.parametrize(("message", "code"), [
    ({"type": "seen"}, "missing_field"),
    ({"type": "seen", "version": "3"}, "bad_field"),
    ({"type": "seen", "version": -1}, "bad_field"),
    ({"type": "seen", "version": 2.5}, "bad_field"),
    ({"type": "seen", "version": True}, "bad_field"),
    ({"type": "seen", "version": 2**60}, "bad_field"),
    ({"type": "seen", "version": 3, "moment": "x"}, "unknown_field"),
])
def test_a_malformed_seen_is_refused(message, code):
    import json

    from ladytiger.web.protocol import ProtocolError

    with pytest.raises(ProtocolError) as refused:
        parse_client_message(json.dumps(message))
    assert refused.value.code == code


def test_seen_has_no_answer_from_a_seat_or_a_spectator_and_a_bad_one_is_named(client):
    made = create(client, seats=[{"kind": "human"}, {"kind": "bot"}])
    path = f"/api/tables/{made['table']['id']}/ws"
    assert parse_client_message('{"type": "seen", "version": 4, "ref": "s1"}')["version"] == 4
    for token in (made["tokens"]["0"], None):
        with client.websocket_connect(path) as ws:
            ws.send_json({"type": "hello", **({"token": token} if token else {})})
            ws.send_json({"type": "seen", "version": 1, "ref": "s1"})
            ws.send_json({"type": "seen", "version": 9999, "ref": "s2"})
            ws.send_json({"type": "seen", "ref": "s3"})
            ws.send_json({"type": "ping", "ref": "p"})
            answers = []
            while True:
                message = ws.receive_json()
                if message.get("ref") is not None:
                    answers.append(message)
                if message["type"] == "pong":
                    break
            assert [(a["type"], a.get("code"), a["ref"]) for a in answers] == [
                ("error", "missing_field", "s3"), ("pong", None, "p")]


def test_a_restarted_server_shows_the_same_moment(tmp_path, monkeypatch):
    from tests.web.support import auth, join_seats

    monkeypatch.setattr(DoorsState, "moment", moment_after_seat_0, raising=False)
    database = tmp_path / "restart.sqlite3"
    with TestClient(create_app(quick_settings(database))) as first:
        made = create(first, options={"gems_to_win": 50})
        table_id, token = made["table"]["id"], made["tokens"]["0"]
        join_seats(first, table_id, made["tokens"])
        view = first.get(f"/api/tables/{table_id}/view", headers=auth(token)).json()
        first.post(f"/api/tables/{table_id}/actions", headers=auth(token),
                   json={"version": view["version"], "action": view["legal_actions"][0]["id"]})
        before = first.get(f"/api/tables/{table_id}/view", headers=auth(token)).json()
        assert before["moment"] == MOMENT
    with TestClient(create_app(quick_settings(database))) as second:
        after = second.get(f"/api/tables/{table_id}/view", headers=auth(token)).json()
    assert after == before
