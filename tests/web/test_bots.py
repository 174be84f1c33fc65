"""Bots at the table: they play in the worker pool after their pause, a move clock lets a bot
move for a human who runs out of time, and a failing bot gives way to a random move."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import httpx
import pytest

import ladytiger
from ladytiger.bots import registered_bots
from ladytiger.web.bot_options import REFUSED_BOTS
from ladytiger.web.client import TableConnection
from ladytiger.web.hub import Hub
from ladytiger.web.players import BOT_NAMES
from ladytiger.web.specs import parse_create_request
from tests.web.support import LiveServer, quick_settings, run


def create(base: str, **request: Any) -> dict[str, Any]:
    response = httpx.post(f"{base}/api/tables", json={"game": "doors", **request})
    assert response.status_code == 201, response.text
    return response.json()


def wait_finished(base: str, table_id: str, seconds: float = 20) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        table = httpx.get(f"{base}/api/tables/{table_id}").json()["table"]
        if table["status"] == "finished":
            return table
        time.sleep(0.05)
    raise AssertionError("the table did not finish")


def test_a_table_of_bots_plays_itself_to_the_end(live):
    made = create(live.base, options={"gems_to_win": 3},
                  seats=[{"kind": "bot"}, {"kind": "bot", "bot": "random"}])
    assert made["tokens"] == {}
    table = wait_finished(live.base, made["table"]["id"])
    assert sorted(table["result"]["returns"]) == [0.0, 1.0]


# The bots refused at tables (hoard_clairvoyant reads the deck) are tested in
# test_bot_limits.py.
@pytest.mark.parametrize("bot", sorted(set(registered_bots()) - set(REFUSED_BOTS)))
def test_every_registered_bot_can_take_a_seat(live, bot):
    # A bot may play only some games; it is refused elsewhere with its own reason.
    seated = 0
    for info in ladytiger.registered_games():
        seats = [{"kind": "bot", "bot": bot}] * info.min_players
        if len(seats) > 1:
            seats[0] = {"kind": "human"}
        seat = len(seats) - 1
        response = httpx.post(f"{live.base}/api/tables", json={
            "game": info.name, "seats": seats, "bot_pause": 1.0})
        if response.status_code == 201:
            seated += 1
            entry = response.json()["table"]["seats"][seat]
            # Several seats of one bot are told apart: "Random bot A", "Random bot B", ...
            assert entry.pop("name").startswith(BOT_NAMES[bot])
            assert entry == {"seat": seat, "kind": "bot", "bot": bot, "options": {}}
        else:
            error = response.json()["error"]
            assert error["code"] == "bad_bot_options"
            assert error["message"].startswith(f"seat {0 if len(seats) == 1 else 1}: ")
    assert seated


def test_a_bot_waits_its_pause_before_moving(live):
    made = create(live.base, bot_pause=0.3, options={"gems_to_win": 50},
                  seats=[{"kind": "human"}, {"kind": "bot"}])

    async def scenario() -> float:
        connection = await TableConnection.open(live.base, made["table"]["id"],
                                                made["tokens"]["0"])
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

    # The server's event loop may keep time in whole milliseconds (uvloop reads libuv's
    # clock, cached once per loop turn), so its 0.3 s can end a few milliseconds early on
    # this side's clock. A bot that did not wait would answer within milliseconds.
    assert run(scenario()) >= 0.29


def test_the_clock_lets_a_bot_move_for_a_human_out_of_time(live):
    made = create(live.base, clock={"seconds": 0.3}, options={"gems_to_win": 50},
                  seats=[{"kind": "human"}, {"kind": "human"}])
    table_id = made["table"]["id"]

    async def scenario() -> list[dict[str, Any]]:
        seats = [await TableConnection.open(live.base, table_id, made["tokens"][str(s)])
                 for s in (0, 1)]
        seen = []
        while True:
            message = await seats[0].receive()
            seen.append(message)
            if message["type"] == "view" and message["version"] >= 3:
                break
        for connection in seats:
            await connection.close()
        return seen

    started = time.monotonic()
    seen = run(scenario())
    assert time.monotonic() - started >= 0.6  # two moves, each after its 0.3 s clock
    views = [m for m in seen if m["type"] == "view" and m["status"] == "playing"]
    assert views[0]["deadline"]["seconds"] == 0.3
    assert views[0]["deadline"]["seat"] == views[0]["current_player"]
    timeouts = [m for m in seen if m["type"] == "timeout"]
    assert [t["version"] for t in timeouts] == [1, 2]
    assert timeouts[0]["seat"] == views[0]["current_player"]


def test_bots_think_in_worker_processes_too(tmp_path):
    settings = quick_settings(tmp_path / "p.sqlite3", bot_pool="process", bot_workers=1)
    with LiveServer(settings) as server:
        made = create(server.base, options={"gems_to_win": 2},
                      seats=[{"kind": "bot"}, {"kind": "bot"}])
        wait_finished(server.base, made["table"]["id"], seconds=60)


class CrashingBot:
    def step(self, state: Any, seat: int) -> int:
        raise RuntimeError("this bot always fails")


class CheatingBot:
    def step(self, state: Any, seat: int) -> int:
        return 10_000


@pytest.mark.parametrize("bad_bot", [CrashingBot(), CheatingBot()], ids=["crash", "illegal"])
def test_a_failing_bot_gives_way_to_a_random_move(tmp_path, bad_bot):
    async def scenario() -> None:
        hub = Hub(quick_settings(tmp_path / "b.sqlite3"), rng=random.Random(3))
        await hub.open()
        spec = parse_create_request({"game": "doors", "options": {"gems_to_win": 2},
                                     "seats": [{"kind": "bot"}, {"kind": "bot"}],
                                     "bot_pause": 0.2})
        table, _ = await hub.create(spec)
        table.bots[0] = table.bots[1] = bad_bot
        for _ in range(200):
            if table.status == "finished":
                break
            await asyncio.sleep(0.02)
        await hub.close()
        assert table.status == "finished"

    run(scenario())
