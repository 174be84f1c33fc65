"""Several `ladytiger serve` processes sharing one PostgreSQL database (docs/deploy.md).

Two real server processes on 127.0.0.1, one database: a table's clients spread over both
see every move; moves racing from both processes for one turn are played exactly once;
bots move once per turn; and when one process is killed (SIGKILL) mid-game, the other takes
its tables over, its clients reconnect to the other and finish, and every acknowledged move
is in the record.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from typing import Any

import httpx

from ladytiger.web.client import TableConnection
from tests.web.postgres import database
from tests.web.support import free_port, player_moves, run
from tests.web.test_durability import Seat, start_server

LEASE = "lease_seconds=2"


class Site:
    """Two server processes on one fresh database."""

    def __init__(self, tmp_path: Any) -> None:
        self.url = database("postgresql", tmp_path)
        self.log = tmp_path / "servers.log"
        self.ports = [free_port(), free_port()]
        self.bases = [f"http://127.0.0.1:{port}" for port in self.ports]
        self.servers = [start_server(self.url, port, self.log, "--setting", LEASE,
                                     "--setting", "heartbeat_interval=0.5")
                        for port in self.ports]

    def stop(self) -> None:
        for server in self.servers:
            if server.poll() is None:
                server.terminate()
                server.wait(10)


def make_table(base: str, seats: list[dict[str, Any]], gems: int = 50) -> dict[str, Any]:
    reply = httpx.post(f"{base}/api/tables", json={
        "game": "doors", "options": {"gems_to_win": gems}, "seats": seats})
    assert reply.status_code == 201, reply.text
    return reply.json()  # type: ignore[no-any-return]


def test_clients_of_one_table_on_two_processes_see_every_move_and_races_play_once(tmp_path):
    site = Site(tmp_path)
    try:
        made = make_table(site.bases[0], [{"kind": "human"}, {"kind": "human"}])
        table_id = made["table"]["id"]

        async def scenario() -> None:
            # Each seat has a connection on each process; a spectator watches on the second.
            pairs = [[await TableConnection.open(base, table_id, made["tokens"][str(seat)])
                      for base in site.bases] for seat in (0, 1)]
            watcher = await TableConnection.open(site.bases[1], table_id, None)
            moves = 0
            while moves < 12:  # the table may still be starting: only moves count
                info = httpx.get(f"{site.bases[1]}/api/tables/{table_id}").json()["table"]
                if info["status"] != "playing":
                    await asyncio.sleep(0.02)
                    continue
                moves += 1
                seat, version = info["current_player"], info["version"]
                first, second = pairs[seat]
                view = await view_at(first, version)
                await view_at(second, version)
                legal = [action["id"] for action in view["legal_actions"]]
                # The same turn from both processes at once: the database lets one through.
                await asyncio.gather(first.act(version, legal[0]), second.act(version, legal[-1]))
                replies = [await reply_to_move(first), await reply_to_move(second)]
                answers = sorted(r.get("code", r["type"]) for r in replies)
                assert answers == ["ack", "stale_version"], replies
                # Every connection, on either process, gets the view of the one move.
                for connection in [*pairs[0], *pairs[1], watcher]:
                    # Put back: the next turn starts from this view.
                    connection.pending.appendleft(await view_at(connection, version + 1))
                for base in site.bases:
                    again = httpx.get(f"{base}/api/tables/{table_id}").json()["table"]
                    assert again["version"] == version + 1
            for connection in [*pairs[0], *pairs[1], watcher]:
                await connection.close()

        run(asyncio.wait_for(scenario(), 60))
        final = httpx.get(f"{site.bases[0]}/api/tables/{table_id}/view").json()
        assert final["version"] == 13
    finally:
        site.stop()


def test_bots_move_once_per_turn_whichever_process_their_table_is_read_from(tmp_path):
    site = Site(tmp_path)
    try:
        # Two bot levels: one bot on both seats would rate nothing.
        made = make_table(site.bases[0], [{"kind": "bot", "bot": "random"},
                                          {"kind": "bot", "bot": "casual"}], gems=3)
        table_id = made["table"]["id"]
        deadline = time.monotonic() + 30
        info: dict[str, Any] = {}
        while time.monotonic() < deadline:
            # Asked of the other process, so that it holds a copy as the game goes on.
            info = httpx.get(f"{site.bases[1]}/api/tables/{table_id}").json()["table"]
            if info["status"] == "finished":
                break
            time.sleep(0.05)
        assert info["status"] == "finished"
        record = httpx.get(f"{site.bases[1]}/api/tables/{table_id}/record").json()
        moves = player_moves(record)
        # One move per version: the version counts the moves the database holds.
        assert info["version"] == 1 + len(moves)
        # Bots are rated players: the process that ended the game rated it, and the other
        # learns what it did to each rating from the database's notice.
        rated: list[Any] = [None, None]
        while time.monotonic() < deadline and not all(rated):
            rated = [httpx.get(f"{base}/api/tables/{table_id}").json()["table"]["ratings"]
                     for base in site.bases]
            time.sleep(0.05)
        assert rated[0] and rated[0] == rated[1]
        assert [change["player"] for change in rated[0]] == ["bot_random", "bot_casual"]
    finally:
        site.stop()


def test_a_resignation_on_one_process_ends_the_game_for_a_player_on_the_other(tmp_path):
    site = Site(tmp_path)
    try:
        made = make_table(site.bases[0], [{"kind": "human"}, {"kind": "human"}])
        table_id = made["table"]["id"]

        async def scenario() -> dict[str, Any]:
            stays = await TableConnection.open(site.bases[0], table_id, made["tokens"]["0"])
            leaves = await TableConnection.open(site.bases[1], table_id, made["tokens"]["1"])
            while httpx.get(f"{site.bases[1]}/api/tables/{table_id}").json()["table"][
                    "status"] != "playing":
                await asyncio.sleep(0.02)
            await leaves.resign()
            while (view := await stays.receive()).get("status") != "abandoned":
                pass
            for connection in (stays, leaves):
                await connection.close()
            return view

        view = run(asyncio.wait_for(scenario(), 30))
        assert view["resigned"] == 1 and view["abandoned"].startswith("Seat 1 resigned")
        for base in site.bases:
            info = httpx.get(f"{base}/api/tables/{table_id}").json()["table"]
            assert info["abandoned"]["resigned"] == 1
    finally:
        site.stop()


def test_a_start_with_bots_on_one_process_moves_a_guest_on_the_other_to_the_new_table(
        tmp_path):
    site = Site(tmp_path)
    try:
        reply = httpx.post(f"{site.bases[0]}/api/tables", json={
            "game": "favor", "options": {"players": 3},
            "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]})
        made = reply.json()
        old = made["table"]["id"]

        async def scenario() -> tuple[dict[str, Any], dict[str, Any], str]:
            maker = await TableConnection.open(site.bases[0], old, made["tokens"]["0"])
            guest = await TableConnection.open(site.bases[1], old, made["tokens"]["2"])
            ref = await maker.fill_with_bots("casual")  # seat 1 never came
            while (said := await maker.receive()).get("ref") != ref:
                pass
            assert said["type"] == "ack", said
            while (moved := await guest.receive())["type"] != "rematch":
                pass
            new = moved["rematch"]
            while (ended := await guest.receive()).get("status") != "abandoned":
                pass
            for connection in (maker, guest):
                welcome = await connection.follow()
                assert welcome["table"]["id"] == new
            # Both had joined the old table; here they join again, and the game begins.
            while (view := await guest.receive()).get("status") != "playing":
                pass
            for connection in (maker, guest):
                await connection.close()
            return ended, view, new

        ended, view, new = run(asyncio.wait_for(scenario(), 30))
        assert ended["restarted"] == 0 and ended["rematch"] == new
        assert view["table"] == new and view["seat"] == 2
        for base in site.bases:
            info = httpx.get(f"{base}/api/tables/{new}").json()["table"]
            assert [s["kind"] for s in info["seats"]] == ["human", "bot", "human"]
            assert httpx.get(f"{base}/api/tables/{old}").json()["table"]["rematch"] == new
    finally:
        site.stop()


def test_a_lobby_seat_given_back_on_one_process_is_free_again_on_the_other(tmp_path):
    site = Site(tmp_path)
    try:
        made = make_table(site.bases[0], [{"kind": "human"}, {"kind": "human", "open": True}])
        table_id = made["table"]["id"]
        claimed = httpx.post(f"{site.bases[1]}/api/tables/{table_id}/join", json={}).json()
        # The other process learns of the claim a moment later, by the database's notice.
        deadline = time.monotonic() + 10
        while not httpx.get(f"{site.bases[0]}/api/tables/{table_id}").json()["table"][
                "seats"][1]["claimed"]:
            assert time.monotonic() < deadline
            time.sleep(0.02)

        async def scenario() -> tuple[dict[str, Any], list[dict[str, Any]]]:
            # Seat 0 has not come yet (or the game would begin): someone watches for it.
            host = await TableConnection.open(site.bases[0], table_id)
            # The same seat open twice, once on each process, as two browser tabs might be.
            here = await TableConnection.open(site.bases[1], table_id, claimed["token"])
            # The second tab opens once the first one's arrival is known on its process too,
            # as a tab opened later would: else its own arrival, still on its way, would race
            # the giving back (a narrower race of its own, not this test's subject).
            while not httpx.get(f"{site.bases[0]}/api/tables/{table_id}").json()["table"][
                    "seats"][1]["joined"]:
                await asyncio.sleep(0.02)
            there = await TableConnection.open(site.bases[0], table_id, claimed["token"])
            await here.leave()
            told = []
            while not told or told[-1]["type"] != "view":
                message = await there.receive()
                if message["type"] in ("unseated", "view") and (
                        told or message["type"] == "unseated"):
                    told.append(message)
            while True:
                presence = await host.receive()
                if presence["type"] == "presence" and not presence["seats"][1]["claimed"]:
                    break
            for connection in (host, here, there):
                await connection.close()
            return presence, told

        presence, told = run(asyncio.wait_for(scenario(), 30))
        assert presence["seats"][1]["joined"] is False
        # The other process's connection of that seat was told, and only watches now.
        assert told[0] == {"type": "unseated", "table": table_id, "seat": 1}
        assert told[1]["seat"] is None
        for base in site.bases:
            info = httpx.get(f"{base}/api/tables/{table_id}").json()["table"]
            assert info["status"] == "waiting" and info["seats"][1]["claimed"] is False
            stale = httpx.post(f"{base}/api/tables/{table_id}/leave",
                               headers={"authorization": f"Bearer {claimed['token']}"})
            assert stale.status_code == 401
    finally:
        site.stop()


def test_sigkill_of_one_process_the_other_takes_over_and_no_acknowledged_move_is_lost(
        tmp_path):
    site = Site(tmp_path)
    killed, survivor = site.bases
    try:
        tables = [make_table(killed, [{"kind": "human"}, {"kind": "human"}]) for _ in range(4)]
        tables += [make_table(killed, [{"kind": "human"}, {"kind": "bot"}]) for _ in range(2)]
        players = []
        for index, made in enumerate(tables):
            for seat, token in made["tokens"].items():
                # Seat 0 plays through the process that will die, seat 1 through the other.
                base = killed if seat == "0" else survivor
                players.append(Seat(base, made["table"]["id"], token, int(seat), seed=index))

        kill: dict[str, Any] = {}

        async def persist(p: Seat) -> int:
            """Play to the end; a dropped connection comes back at the survivor (as a proxy
            would send it). How many times it had to."""
            drops = 0
            while await p.play() != "end":
                drops += 1
                assert drops < 20, "a seat could not get back to its table"
                p.base = survivor
                await asyncio.sleep(0.1)
            return drops

        async def busy_then_kill() -> list[int]:
            playing = [asyncio.ensure_future(persist(p)) for p in players]
            deadline = time.monotonic() + 20
            while sum(len(p.acks) for p in players) < 80 and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            os.kill(site.servers[0].pid, signal.SIGKILL)
            kill["acked"] = sum(len(p.acks) for p in players)
            kill["ended"] = sum(p.end is not None for p in players)
            return await asyncio.gather(*playing)

        drops = run(asyncio.wait_for(busy_then_kill(), 120))
        site.servers[0].wait(10)
        assert kill["ended"] < len(players), "the kill came after every game had ended"
        assert kill["acked"] >= 80
        assert any(drops), "no connection was dropped by the kill"
        assert all(p.end is not None for p in players)
        for made in tables:
            table_id = made["table"]["id"]
            record = httpx.get(f"{survivor}/api/tables/{table_id}/record").json()
            moves = player_moves(record)
            for p in players:
                if p.table_id != table_id:
                    continue
                for sent_version, text, new_version in p.acks:
                    assert moves[sent_version - 1] == (p.seat, text)
                    assert new_version == sent_version + 1
        assert sum(len(p.acks) for p in players) > kill["acked"]
    finally:
        site.stop()


async def view_at(connection: TableConnection, version: int) -> dict[str, Any]:
    held = []
    while True:
        message = await connection.receive()
        if message["type"] == "view" and message["version"] == version:
            connection.pending.extend(held)
            return message
        if message["type"] in ("ack", "error"):
            held.append(message)


async def reply_to_move(connection: TableConnection) -> dict[str, Any]:
    held = []
    while True:
        message = await connection.receive()
        if message["type"] in ("ack", "error"):
            connection.pending.extend(held)
            return message
        held.append(message)
