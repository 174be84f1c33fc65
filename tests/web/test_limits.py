"""No client can fill the server for good: per-address quotas and rates, tables that expire,
games abandoned when nobody is at them, claims given back, ended tables deleted after their
retention, replays off the event loop and bounded, and a full disk answered clearly."""

from __future__ import annotations

import asyncio
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ladytiger
from ladytiger.core.playout import sample_chance
from ladytiger.core.record import to_record
from ladytiger.web import create_app
from ladytiger.web.hub import Hub, owner_key
from ladytiger.web.protocol import ProtocolError
from ladytiger.web.specs import parse_create_request
from tests.web.support import auth, join_seats, play_out, quick_settings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def limited_client(tmp_path: Path, **limits: Any) -> TestClient:
    settings = quick_settings(tmp_path / "limits.sqlite3")
    values = {**settings.__dict__, **limits}
    return TestClient(create_app(type(settings)(**values)))


@pytest.fixture
def make_client(tmp_path) -> Iterator[Any]:
    opened: list[TestClient] = []

    def make(**limits: Any) -> TestClient:
        client = limited_client(tmp_path, **limits)
        client.__enter__()
        opened.append(client)
        return client

    yield make
    for client in opened:
        client.__exit__(None, None, None)


def create(client: TestClient, **request: Any) -> Any:
    return client.post("/api/tables", json={"game": "doors", **request})


def error_of(response: Any) -> dict[str, Any]:
    return response.json()["error"]


def wait_for(check: Any, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the condition never came true"
        time.sleep(0.02)


# ------------------------------------------------------------------ quotas and rates
def test_one_address_creating_too_fast_is_refused_with_when_to_come_back(make_client):
    client = make_client(creates_per_minute=6.0, create_burst=3)
    for _ in range(3):
        assert create(client).status_code == 201
    refused = create(client)
    assert refused.status_code == 429
    assert error_of(refused)["code"] == "rate_limited"
    assert "at most 6 a minute" in error_of(refused)["message"]
    assert int(refused.headers["retry-after"]) == error_of(refused)["retry_after"] == 10


def test_claiming_seats_counts_against_the_same_rate(make_client):
    client = make_client(creates_per_minute=6.0, create_burst=2)
    made = create(client, seats=[{"kind": "human", "open": True}] * 2).json()
    join = client.post(f"/api/tables/{made['table']['id']}/join", json={})
    assert join.status_code == 201
    refused = client.post(f"/api/tables/{made['table']['id']}/join", json={})
    assert refused.status_code == 429 and error_of(refused)["code"] == "rate_limited"


def test_one_address_may_hold_only_so_many_unfinished_tables(make_client):
    client = make_client(tables_per_client=2, creates_per_minute=1e6, create_burst=1000)
    first = create(client, options={"gems_to_win": 1}).json()
    assert create(client).status_code == 201
    refused = create(client)
    assert refused.status_code == 429
    assert error_of(refused)["code"] == "too_many_tables"
    assert "2 tables waiting or in play" in error_of(refused)["message"]
    # Once one of them is over, there is room again.
    join_seats(client, first["table"]["id"], first["tokens"])
    play_out(client, first)
    assert create(client).status_code == 201


def test_a_flood_from_one_address_leaves_room_for_everyone_else(tmp_path):
    async def scenario() -> None:
        hub = Hub(quick_settings(tmp_path / "f.sqlite3", tables_per_client=5,
                                 creates_per_minute=1e6, create_burst=1000,
                                 max_active_tables=20))
        await hub.open()
        try:
            flooded = 0
            for _ in range(50):
                try:
                    await hub.create(parse_create_request({"game": "doors"}), client="10.0.0.1")
                    flooded += 1
                except ProtocolError as error:
                    assert error.code == "too_many_tables"
            assert flooded == 5
            await hub.create(parse_create_request({"game": "doors"}), client="10.0.0.2")
            # A rematch has no client address: the seats of a finished game always get it.
            assert hub.client_tables.count(owner_key("10.0.0.2")) == 1
        finally:
            await hub.close()

    asyncio.run(scenario())


# ------------------------------------------------------------------ the table lifecycle
def test_a_table_nobody_fills_expires_and_leaves_the_lobby(make_client):
    client = make_client(waiting_expiry=0.3, sweep_interval=0.05)
    made = create(client, seats=[{"kind": "human", "open": True}] * 2).json()
    table_id = made["table"]["id"]
    assert any(t["id"] == table_id for t in client.get("/api/tables").json()["tables"])
    wait_for(lambda: client.get(f"/api/tables/{table_id}").json()["table"]["status"]
             == "abandoned")
    info = client.get(f"/api/tables/{table_id}").json()["table"]
    assert info["abandoned"]["reason"] == "expired"
    assert "not every seat was taken in time" in info["abandoned"]["words"]
    assert not any(t["id"] == table_id for t in client.get("/api/tables").json()["tables"])
    listed = client.get("/api/tables?status=abandoned").json()["tables"]
    assert [t["id"] for t in listed] == [table_id]
    assert listed[0]["abandoned"] == {"reason": "expired"}
    refused = client.post(f"/api/tables/{table_id}/join", json={})
    assert refused.status_code == 409


def test_a_game_nobody_is_connected_to_is_abandoned_and_refuses_moves(make_client):
    client = make_client(abandon_after=0.4, sweep_interval=0.05)
    made = create(client).json()
    table_id, tokens = made["table"]["id"], made["tokens"]
    join_seats(client, table_id, tokens)  # both connect, the game starts, both leave
    with client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
        ws.send_json({"type": "hello", "token": tokens["0"]})
        time.sleep(0.8)  # connected: the game stays on however long nobody moves
        assert client.get(f"/api/tables/{table_id}").json()["table"]["status"] == "playing"
    wait_for(lambda: client.get(f"/api/tables/{table_id}").json()["table"]["status"]
             == "abandoned")
    view = client.get(f"/api/tables/{table_id}/view", headers=auth(tokens["0"])).json()
    assert view["status"] == "abandoned"
    move = client.post(f"/api/tables/{table_id}/actions", headers=auth(tokens["0"]),
                       json={"version": view["version"], "action": 0})
    assert move.status_code == 409
    assert error_of(move)["code"] == "game_abandoned"
    assert "no player was connected" in error_of(move)["message"]
    playing = client.get("/api/tables?status=playing").json()["tables"]
    assert not any(t["id"] == table_id for t in playing)


def test_an_abandoned_table_stays_abandoned_after_a_restart(tmp_path):
    settings = quick_settings(tmp_path / "r.sqlite3", waiting_expiry=0.2, sweep_interval=0.05)
    with TestClient(create_app(settings)) as client:
        table_id = create(client).json()["table"]["id"]
        wait_for(lambda: client.get(f"/api/tables/{table_id}").json()["table"]["status"]
                 == "abandoned")
    with TestClient(create_app(settings)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert table_id not in hub.active
        info = client.get(f"/api/tables/{table_id}").json()["table"]
        assert info["status"] == "abandoned" and info["abandoned"]["reason"] == "expired"


def test_a_claimed_seat_nobody_connects_to_is_given_back(make_client):
    client = make_client(seat_claim_timeout=0.3, sweep_interval=0.05)
    made = create(client, seats=[{"kind": "human", "open": True}] * 2).json()
    table_id = made["table"]["id"]
    claimed = client.post(f"/api/tables/{table_id}/join", json={"seat": 1}).json()
    assert client.get(f"/api/tables/{table_id}").json()["table"]["free_seats"] == [0]
    wait_for(lambda: client.get(f"/api/tables/{table_id}").json()["table"]["free_seats"]
             == [0, 1])
    with client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
        ws.send_json({"type": "hello", "token": claimed["token"]})
        assert ws.receive_json()["code"] == "unauthorized"


def test_a_claimed_seat_that_connected_is_kept(make_client):
    client = make_client(seat_claim_timeout=0.3, sweep_interval=0.05)
    made = create(client, seats=[{"kind": "human", "open": True}] * 2).json()
    table_id = made["table"]["id"]
    claimed = client.post(f"/api/tables/{table_id}/join", json={"seat": 1}).json()
    join_seats(client, table_id, {"1": claimed["token"]})
    time.sleep(0.6)
    assert client.get(f"/api/tables/{table_id}").json()["table"]["free_seats"] == [0]


def test_ended_tables_are_deleted_after_their_retention(make_client):
    client = make_client(finished_retention=0.3, sweep_interval=0.05)
    made = create(client, options={"gems_to_win": 1}).json()
    table_id = made["table"]["id"]
    join_seats(client, table_id, made["tokens"])
    play_out(client, made)
    assert client.get(f"/api/tables/{table_id}/record").status_code == 200
    wait_for(lambda: client.get(f"/api/tables/{table_id}").status_code == 404)


# ------------------------------------------------------------------ replays
def long_record(game: str = "labyrinth", seed: int = 3) -> dict[str, Any]:
    import random

    rng = random.Random(seed)
    state = ladytiger.load_game(game).new_initial_state()
    while not state.is_terminal():
        if state.current_player() == ladytiger.CHANCE:
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return to_record(state)


def test_a_record_longer_than_the_limit_is_refused(make_client):
    record = long_record()
    client = make_client(max_record_moves=len(record["history"]) - 1)
    refused = client.post("/api/replay", json={"record": record})
    assert refused.status_code == 413
    assert error_of(refused)["code"] == "too_large"
    assert f"holds {len(record['history'])} moves" in error_of(refused)["message"]


def test_replays_are_computed_off_the_event_loop(make_client, monkeypatch):
    import ladytiger.web.app as app_module

    threads: list[str] = []
    real = app_module.replay_steps

    def watched(record: Any) -> Any:
        threads.append(threading.current_thread().name)
        return real(record)

    monkeypatch.setattr(app_module, "replay_steps", watched)
    client = make_client()
    answer = client.post("/api/replay", json={"record": long_record("doors")})
    assert answer.status_code == 200 and answer.json()["steps"]
    assert threads and threading.main_thread().name not in threads
    assert all(name.startswith("ladytiger-bot") for name in threads)  # the replay worker


def test_replay_requests_are_rate_limited_per_address(make_client):
    client = make_client(replays_per_minute=6.0, replay_burst=2)
    record = long_record("doors")
    for _ in range(2):
        assert client.post("/api/replay", json={"record": record}).status_code == 200
    refused = client.post("/api/replay", json={"record": record})
    assert refused.status_code == 429 and error_of(refused)["code"] == "rate_limited"
    assert "replay requests" in error_of(refused)["message"]


def test_too_many_waiting_replays_are_refused_as_busy(make_client):
    client = make_client(replay_queue=0)
    refused = client.post("/api/replay", json={"record": long_record("doors")})
    assert refused.status_code == 503 and error_of(refused)["code"] == "busy"
    assert refused.headers["retry-after"] == "1"


def test_a_finished_tables_replay_is_computed_once(make_client, monkeypatch):
    import ladytiger.web.app as app_module

    calls: list[int] = []
    real = app_module.replay_view

    def counted(*args: Any) -> Any:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(app_module, "replay_view", counted)
    client = make_client(replays_per_minute=6.0, replay_burst=3)
    made = create(client, options={"gems_to_win": 1}).json()
    join_seats(client, made["table"]["id"], made["tokens"])
    play_out(client, made)
    path = f"/api/tables/{made['table']['id']}/replay/2?viewer=0"
    first = client.get(path)
    assert first.status_code == 200
    for _ in range(10):  # kept answers are free: no rate, no work
        again = client.get(path)
        assert again.status_code == 200 and again.json() == first.json()
    assert len(calls) == 1


# ------------------------------------------------------------------ a full disk
def fill_the_disk(client: TestClient) -> Any:
    connection = client.app.state.hub.store._connection  # type: ignore[attr-defined]
    pages = connection.execute("PRAGMA page_count").fetchone()[0]
    connection.execute(f"PRAGMA max_page_count = {pages}")
    return connection


def test_a_full_disk_when_creating_a_table_is_a_clear_503(make_client):
    client = make_client()
    assert create(client).status_code == 201
    connection = fill_the_disk(client)
    refused = None
    for _ in range(200):  # until the pages left are used up
        refused = create(client)
        if refused.status_code != 201:
            break
    assert refused is not None and refused.status_code == 503
    assert error_of(refused)["code"] == "storage_unavailable"
    assert "could not be saved" in error_of(refused)["message"]
    assert "nothing was changed" in error_of(refused)["message"]
    connection.execute("PRAGMA max_page_count = 1073741823")
    assert create(client).status_code == 201


def test_a_full_disk_when_moving_is_a_clear_503_and_the_game_goes_on(make_client, monkeypatch):
    import sqlite3

    from ladytiger.web import store

    client = make_client()
    made = create(client, options={"gems_to_win": 3}).json()
    table_id, tokens = made["table"]["id"], made["tokens"]
    join_seats(client, table_id, tokens)
    real = store.append_actions

    def full(*args: Any) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(store, "append_actions", full)
    info = client.get(f"/api/tables/{table_id}").json()["table"]
    token = tokens[str(info["current_player"])]
    view = client.get(f"/api/tables/{table_id}/view", headers=auth(token)).json()
    refused = client.post(f"/api/tables/{table_id}/actions", headers=auth(token),
                          json={"version": view["version"],
                                "action": view["legal_actions"][0]["id"]})
    assert refused.status_code == 503
    assert error_of(refused)["code"] == "storage_unavailable"
    assert error_of(refused)["message"] == (
        "the move could not be saved: the server's storage is full or failing; nothing was "
        "changed, try again later")
    after = client.get(f"/api/tables/{table_id}/view", headers=auth(token)).json()
    assert after["version"] == view["version"], "nothing was played"
    assert after["observation"] == view["observation"]
    monkeypatch.setattr(store, "append_actions", real)
    play_out(client, made)
    assert client.get(f"/api/tables/{table_id}").json()["table"]["status"] == "finished"


# ------------------------------------------------------------------ settings
def test_every_setting_can_be_set_by_name_and_bad_ones_are_named():
    from ladytiger.web.config import Settings, with_overrides

    changed = with_overrides(Settings(), ["tables_per_client=50", "creates-per-minute=2.5",
                                          "tune_collector=yes", "synchronous=NORMAL"])
    assert (changed.tables_per_client, changed.creates_per_minute) == (50, 2.5)
    assert changed.tune_collector is True and changed.synchronous == "NORMAL"
    for pairs, words in [
        (["nope=1"], "'nope=1' is not NAME=VALUE with a known setting"),
        (["tables_per_client"], "is not NAME=VALUE"),
        (["tables_per_client=x"], "tables_per_client must be a whole number, not 'x'"),
        (["bot_max_seconds=inf"], "bot_max_seconds must be a finite number"),
        (["hello_timeout=-1"], "hello_timeout must not be negative"),
        (["tune_collector=maybe"], "tune_collector must be true or false"),
    ]:
        with pytest.raises(ValueError) as refused:
            with_overrides(Settings(), pairs)
        assert words in str(refused.value)


def test_the_quota_holds_across_a_restart_without_keeping_addresses(tmp_path):
    settings = quick_settings(tmp_path / "q.sqlite3", tables_per_client=2,
                              creates_per_minute=1e6, create_burst=1000)
    with TestClient(create_app(settings)) as client:
        for _ in range(2):
            assert create(client).status_code == 201
    with TestClient(create_app(settings)) as client:
        refused = create(client)
        assert refused.status_code == 429 and error_of(refused)["code"] == "too_many_tables"
    stored = Path(settings.db_path).read_bytes()
    assert b"testclient" not in stored, "the database keeps no client address"


def test_a_forwarded_for_header_is_not_believed_unless_a_proxy_is_trusted():
    from ladytiger.web.config import Settings
    from ladytiger.web.transport import server_config

    assert server_config(None, Settings()).proxy_headers is False
    trusted = server_config(None, Settings(trusted_proxies="10.0.0.1"))
    assert trusted.proxy_headers is True and trusted.forwarded_allow_ips == "10.0.0.1"


def test_a_crowd_opening_an_ended_table_shares_one_load_and_the_spectator_cap(tmp_path):
    from ladytiger.web.tables import Table

    async def scenario() -> None:
        settings = quick_settings(tmp_path / "crowd.sqlite3", max_spectators=3)
        hub = Hub(settings)
        await hub.open()
        table: Table = (await hub.create(parse_create_request(
            {"game": "doors", "seats": [{"kind": "bot"}, {"kind": "bot"}],
             "options": {"gems_to_win": 1}})))[0]
        while table.status != "finished":
            await asyncio.sleep(0.01)
        await hub.close()
        hub = Hub(settings)
        await hub.open()
        try:
            loaded = await asyncio.gather(*(hub.get(table.id) for _ in range(20)))
            assert len({id(t) for t in loaded}) == 1, "one load, one table"
        finally:
            await hub.close()

    asyncio.run(scenario())
