"""Two moves racing for the same turn: exactly one is played, the other is told it is stale.

On both stores: a SQLite file, and a PostgreSQL database (tests/web/postgres.py).
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import pytest

from ladytiger.web.client import TableConnection
from ladytiger.web.hub import Hub
from ladytiger.web.protocol import ProtocolError
from ladytiger.web.specs import parse_create_request
from tests.web.postgres import STORES, database
from tests.web.support import LiveServer, quick_settings, run


@pytest.fixture(scope="module", params=STORES)
def live(request, tmp_path_factory):
    """The real server on 127.0.0.1, on each store in turn."""
    path = database(request.param, tmp_path_factory.mktemp("live"))
    with LiveServer(quick_settings(path)) as server:
        yield server


@pytest.mark.parametrize("store", STORES)
def test_racing_calls_on_one_table_play_exactly_one(tmp_path, store):
    path = database(store, tmp_path, "r")

    async def scenario() -> None:
        hub = Hub(quick_settings(path), rng=random.Random(8))
        await hub.open()
        spec = parse_create_request({"game": "doors", "options": {"gems_to_win": 50}})
        table, _ = await hub.create(spec)
        await table.join(0, table.token_hashes[0])
        await table.join(1, table.token_hashes[1])
        for _ in range(20):
            seat, version = table.state.current_player(), table.version
            legal = table.state.legal_actions()
            attempts = [table.play(seat, version, action) for action in (legal[0], legal[-1])]
            outcomes = await asyncio.gather(*attempts, return_exceptions=True)
            played = [o for o in outcomes if isinstance(o, dict)]
            refused = [o for o in outcomes if isinstance(o, ProtocolError)]
            assert len(played) == 1 and len(refused) == 1
            assert refused[0].code == "stale_version"
            assert table.version == version + 1
        await hub.close()

    run(scenario())


def test_racing_connections_of_one_seat_over_the_network(live):
    made = httpx.post(f"{live.base}/api/tables",
                      json={"game": "doors", "options": {"gems_to_win": 50}}).json()
    table_id = made["table"]["id"]

    async def scenario() -> None:
        # Two connections for each seat (the same player on two devices), plus HTTP.
        pairs = [[await TableConnection.open(live.base, table_id, made["tokens"][str(s)])
                  for _ in range(2)] for s in (0, 1)]
        http = httpx.AsyncClient(base_url=live.base)
        for _ in range(12):
            table = (await http.get(f"/api/tables/{table_id}")).json()["table"]
            if table["status"] != "playing":
                await asyncio.sleep(0.01)
                continue
            seat, version = table["current_player"], table["version"]
            first, second = pairs[seat]
            view = await latest_view(first, version)
            await latest_view(second, version)
            legal = [a["id"] for a in view["legal_actions"]]
            token = made["tokens"][str(seat)]
            await asyncio.gather(first.act(version, legal[0]), second.act(version, legal[-1]))
            over_http = await http.post(f"/api/tables/{table_id}/actions",
                                        headers={"authorization": f"Bearer {token}"},
                                        json={"version": version, "action": legal[0]})
            replies = [await reply_to_move(first), await reply_to_move(second)]
            answers = [r.get("code", r["type"]) for r in replies]
            answers.append(over_http.json().get("error", {}).get("code", "ack"))
            assert sorted(answers) == ["ack", "stale_version", "stale_version"], answers
            after = (await http.get(f"/api/tables/{table_id}")).json()["table"]
            assert after["version"] == version + 1
        await http.aclose()
        for pair in pairs:
            for connection in pair:
                await connection.close()

    run(asyncio.wait_for(scenario(), 30))


async def latest_view(connection: TableConnection, version: int) -> dict[str, Any]:
    while True:
        message = await connection.receive()
        if message["type"] == "view" and message["version"] == version:
            return message


async def reply_to_move(connection: TableConnection) -> dict[str, Any]:
    held = []
    while True:
        message = await connection.receive()
        if message["type"] in ("ack", "error"):
            # The new view may arrive before a loser's refusal: keep it for the next turn.
            connection.pending.extend(held)
            return message
        held.append(message)
