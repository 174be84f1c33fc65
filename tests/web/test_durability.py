"""Nothing acknowledged is lost: tables survive a restart, and a SIGKILL, with every move.

The SIGKILL test runs the real `ladytiger serve` as a subprocess on 127.0.0.1, drives busy
games over WebSockets, kills the process with SIGKILL mid-play, starts it again on the same
database, and checks that every table comes back with every move the server acknowledged,
that the seats reconnect and play on, and that the bots resume.

Each runs on both stores: a SQLite file, and a PostgreSQL database (tests/web/postgres.py).
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from ladytiger.web import create_app
from ladytiger.web.client import TableConnection
from tests.web.postgres import STORES, database
from tests.web.support import (
    auth,
    free_port,
    join_seats,
    player_moves,
    quick_settings,
    run,
)

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def http_move(client, table_id: str, tokens: dict[str, str]) -> tuple[int, str]:
    info = client.get(f"/api/tables/{table_id}").json()["table"]
    token = tokens[str(info["current_player"])]
    view = client.get(f"/api/tables/{table_id}/view", headers=auth(token)).json()
    move = view["legal_actions"][-1]["text"]
    reply = client.post(f"/api/tables/{table_id}/actions", headers=auth(token),
                        json={"version": view["version"], "action": move})
    assert reply.status_code == 200
    return view["version"], move


@pytest.mark.parametrize("store", STORES)
def test_a_restarted_server_restores_every_table_and_resumes_its_bots(tmp_path, store):
    database_path = database(store, tmp_path, "restart")
    with TestClient(create_app(quick_settings(database_path, bot_pause=600))) as client:
        humans = client.post("/api/tables", json={"game": "doors"}).json()
        bots = client.post("/api/tables", json={
            "game": "doors", "options": {"gems_to_win": 3},
            "seats": [{"kind": "bot"}, {"kind": "bot"}]}).json()
        half = client.post("/api/tables", json={"game": "doors"}).json()
        humans_id, bots_id, half_id = (t["table"]["id"] for t in (humans, bots, half))
        join_seats(client, humans_id, humans["tokens"])
        played = [http_move(client, humans_id, humans["tokens"]) for _ in range(4)]
        before = client.get(f"/api/tables/{humans_id}/view",
                            headers=auth(humans["tokens"]["0"])).json()
        join_seats(client, half_id, {"0": half["tokens"]["0"]})
        assert client.get(f"/api/tables/{bots_id}").json()["table"]["version"] == 1
    with TestClient(create_app(quick_settings(database_path))) as client:
        after = client.get(f"/api/tables/{humans_id}/view",
                           headers=auth(humans["tokens"]["0"])).json()
        assert after == before
        for _ in range(200):
            if client.get(f"/api/tables/{bots_id}").json()["table"]["status"] == "finished":
                break
            time.sleep(0.02)
        assert client.get(f"/api/tables/{bots_id}").json()["table"]["status"] == "finished"
        assert client.get(f"/api/tables/{half_id}").json()["table"]["status"] == "waiting"
        join_seats(client, half_id, {"1": half["tokens"]["1"]})
        assert client.get(f"/api/tables/{half_id}").json()["table"]["status"] == "playing"
        while client.get(f"/api/tables/{humans_id}").json()["table"]["status"] != "finished":
            http_move(client, humans_id, humans["tokens"])
        record = client.get(f"/api/tables/{humans_id}/record").json()
    with TestClient(create_app(quick_settings(database_path))) as client:
        # Finished tables stay readable, read back from the database.
        assert client.get(f"/api/tables/{humans_id}/record").json()["history"] == (
            record["history"])
        assert client.get(f"/api/tables/{bots_id}").json()["table"]["status"] == "finished"
    moves = player_moves(record)
    for version, text in played:
        assert moves[version - 1][1] == text


# ---------------------------------------------------------------------------- SIGKILL
def start_server(database: str, port: int, log: Path, *extra: str) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "ladytiger.cli.main", "serve", "--db", database,
               "--host", "127.0.0.1", "--port", str(port), "--bot-pause", "0",
               "--log-level", "warning", *extra]
    process = subprocess.Popen(command, cwd=log.parent, stdout=log.open("ab"),
                               stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            pass
        if process.poll() is not None:
            break
        time.sleep(0.05)
    process.kill()
    raise AssertionError(f"the server did not start: {log.read_text()}")


class Seat:
    """Plays random moves for a seat across server deaths, keeping every acknowledgement."""

    def __init__(self, base: str, table_id: str, token: str, seat: int, seed: int) -> None:
        self.base, self.table_id, self.token, self.seat = base, table_id, token, seat
        self.rng = random.Random(seed)
        self.acks: list[tuple[int, str, int]] = []
        self.first_views: list[int] = []
        self.end: dict[str, Any] | None = None

    async def play(self) -> str:
        """Play until the game ends ('end') or the server goes away ('dropped')."""
        try:
            connection = await TableConnection.open(self.base, self.table_id, self.token)
        except (OSError, ConnectionClosed):
            return "dropped"
        sent: dict[str, tuple[int, str]] = {}
        first = True
        try:
            while True:
                message = await connection.receive()
                if message["type"] == "view" and first:
                    self.first_views.append(message["version"])
                    first = False
                if message["type"] == "end":
                    self.end = message
                    await connection.close()
                    return "end"
                if message["type"] == "ack":
                    version, text = sent.pop(message["ref"])
                    self.acks.append((version, text, message["version"]))
                if message["type"] == "view" and message["your_turn"]:
                    move = self.rng.choice(message["legal_actions"])
                    ref = await connection.act(message["version"], move["id"])
                    sent[ref] = (message["version"], move["text"])
        except ConnectionClosed:
            return "dropped"


@pytest.mark.parametrize("store", STORES)
def test_sigkill_mid_game_loses_no_acknowledged_move(tmp_path, store):
    database_path = database(store, tmp_path, "kill")
    # On PostgreSQL the killed process's lease must run out before the new one runs its
    # bots: a short lease keeps the test short.
    extra = ("--setting", "lease_seconds=2") if store == "postgresql" else ()
    log = tmp_path / "server.log"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(database_path, port, log, *extra)
    try:
        tables = []
        for number in range(8):
            seats = [{"kind": "human"}, {"kind": "human" if number < 6 else "bot"}]
            made = httpx.post(f"{base}/api/tables", json={
                "game": "doors", "options": {"gems_to_win": 50}, "seats": seats}).json()
            tables.append(made)
        players = [Seat(base, made["table"]["id"], token, int(seat), seed=index)
                   for index, made in enumerate(tables) for seat, token in made["tokens"].items()]

        async def busy_then_kill() -> list[str]:
            playing = [asyncio.ensure_future(p.play()) for p in players]
            deadline = time.monotonic() + 10
            while sum(len(p.acks) for p in players) < 120 and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            os.kill(server.pid, signal.SIGKILL)
            return await asyncio.gather(*playing)

        outcomes = run(asyncio.wait_for(busy_then_kill(), 30))
        server.wait(10)
        assert "dropped" in outcomes, "the kill came after every game had ended"
        acked_before = sum(len(p.acks) for p in players)
        assert acked_before >= 120
        last_acked = {}
        for p in players:
            for _, _, version in p.acks:
                last_acked[p.table_id] = max(last_acked.get(p.table_id, 0), version)

        server = start_server(database_path, port, log, *extra)

        async def play_on() -> list[str]:
            return await asyncio.gather(*(p.play() for p in players if p.end is None))

        assert set(run(asyncio.wait_for(play_on(), 60))) <= {"end"}
        for p in players:
            if len(p.first_views) > 1:
                # Back at once with a view no older than the last acknowledged move.
                assert p.first_views[1] >= last_acked.get(p.table_id, 0)
        for made in tables:
            table_id = made["table"]["id"]
            record = httpx.get(f"{base}/api/tables/{table_id}/record").json()
            moves = player_moves(record)
            for p in players:
                if p.table_id != table_id:
                    continue
                for sent_version, text, new_version in p.acks:
                    assert moves[sent_version - 1] == (p.seat, text)
                    assert new_version == sent_version + 1
        assert sum(len(p.acks) for p in players) > acked_before
    finally:
        if server.poll() is None:
            server.terminate()
            server.wait(10)
