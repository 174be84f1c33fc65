"""The reference client and `ladytiger connect`: links, remote bots, watching."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from typer.testing import CliRunner

from ladytiger.cli.main import app
from ladytiger.core.record import from_record
from ladytiger.web.client import (
    ClientError,
    Link,
    ServerClient,
    TableConnection,
    parse_link,
    play_seat,
)
from tests.web.support import run

runner = CliRunner()


@pytest.mark.parametrize(
    ("url", "link"),
    [
        ("http://127.0.0.1:8000/play/abc#seat=TOKEN",
         Link("http://127.0.0.1:8000", "abc", "TOKEN")),
        ("http://h:1/api/tables/abc", Link("http://h:1", "abc", None)),
        ("ws://h:1/api/tables/abc/ws", Link("http://h:1", "abc", None)),
        ("127.0.0.1:8000", Link("http://127.0.0.1:8000", None, None)),
    ],
)
def test_links_name_the_server_table_and_token(url, link):
    assert parse_link(url) == link


def test_two_remote_bots_play_a_whole_game(live):
    async def scenario() -> list[dict]:
        async with ServerClient(live.base) as server:
            made = await server.create_table("doors", options={"gems_to_win": 3})
            table_id = made["table"]["id"]
            games = await server.games()
            assert "doors" in [g["name"] for g in games]
            ends = await asyncio.gather(*(
                play_seat(live.base, table_id, made["tokens"][seat], "random", seed=int(seat))
                for seat in ("0", "1")))
            assert (await server.table(table_id))["status"] == "finished"
            assert (await server.record(table_id))["history"] == ends[0]["record"]["history"]
            return ends

    ends = run(asyncio.wait_for(scenario(), 30))
    assert from_record(ends[0]["record"]).is_terminal()


async def first_moves_to_the_end(connection: TableConnection) -> dict:
    while True:
        message = await connection.receive()
        if message["type"] == "end":
            return message
        if message["type"] == "view" and message["your_turn"]:
            await connection.act(message["version"], message["legal_actions"][0]["id"])


def test_the_reference_client_follows_a_rematch_on_its_connection(live):
    async def scenario() -> None:
        async with ServerClient(live.base) as server:
            made = await server.create_table("doors", options={"gems_to_win": 2})
            old_id = made["table"]["id"]
            seats = [await TableConnection.open(live.base, old_id, made["tokens"][s])
                     for s in ("0", "1")]
            await asyncio.gather(*(first_moves_to_the_end(c) for c in seats))
            with pytest.raises(ClientError) as early:
                await seats[1].follow()
            assert early.value.code == "no_rematch"
            await seats[0].send("rematch")
            welcomes = [await c.follow() for c in seats]
            new_id = welcomes[0]["table"]["id"]
            assert new_id != old_id and welcomes[1]["table"]["id"] == new_id
            assert [c.seat for c in seats] == [0, 1]
            assert [c.table_id for c in seats] == [new_id, new_id]
            ends = await asyncio.gather(*(first_moves_to_the_end(c) for c in seats))
            assert ends[0]["table"] == new_id
            assert (await server.table(new_id))["status"] == "finished"
            for connection in seats:
                await connection.close()

    run(asyncio.wait_for(scenario(), 30))


def test_the_reference_client_resigns_over_http_and_over_its_connection(live):
    async def started(server: ServerClient) -> tuple[str, dict, list[TableConnection]]:
        made = await server.create_table("doors")
        table_id = made["table"]["id"]
        seats = [await TableConnection.open(live.base, table_id, made["tokens"][s])
                 for s in ("0", "1")]
        while (await server.table(table_id))["status"] != "playing":
            await asyncio.sleep(0.02)
        return table_id, made["tokens"], seats

    async def scenario() -> None:
        async with ServerClient(live.base) as server:
            table_id, tokens, seats = await started(server)
            table = await server.resign(table_id, tokens["1"])
            assert table["abandoned"]["resigned"] == 1
            for connection in seats:
                await connection.close()
            table_id, tokens, seats = await started(server)
            ref = await seats[0].resign()
            while (message := await seats[0].receive()).get("ref") != ref:
                pass
            assert message == {"type": "ack", "ref": ref, "table": table_id, "resigned": 0}
            assert (await server.table(table_id))["status"] == "abandoned"
            for connection in seats:
                await connection.close()

    run(asyncio.wait_for(scenario(), 30))


def test_a_refused_token_is_reported(live):
    made = httpx.post(f"{live.base}/api/tables", json={"game": "doors"}).json()
    with pytest.raises(ClientError) as refused:
        run(play_seat(live.base, made["table"]["id"], "wrong-token-" * 3))
    assert refused.value.code == "unauthorized"


def test_connect_plays_a_seat_from_the_command_line(live):
    made = httpx.post(f"{live.base}/api/tables", json={
        "game": "doors", "options": {"gems_to_win": 3},
        "seats": [{"kind": "human"}, {"kind": "bot"}]}).json()
    result = runner.invoke(app, ["connect", made["links"]["invites"]["0"], "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "Doors table" in result.output and "playing seat 0" in result.output
    assert "seat 0 (you)" in result.output
    assert "Seat 1 is dealt a Door card" in result.output


def test_connect_without_a_token_watches(live):
    made = httpx.post(f"{live.base}/api/tables", json={
        "game": "doors", "options": {"gems_to_win": 2},
        "seats": [{"kind": "bot"}, {"kind": "bot"}], "bot_pause": 0.01}).json()
    result = runner.invoke(app, ["connect", made["links"]["spectate"]])
    assert result.exit_code == 0, result.output
    assert "watching" in result.output and "(you)" not in result.output


def test_connect_explains_what_it_needs(live):
    result = runner.invoke(app, ["connect", live.base])
    assert result.exit_code == 2 and "which table?" in result.output
    result = runner.invoke(app, ["connect", f"{live.base}/play/x#seat=t", "--bot", "oracle"])
    assert result.exit_code == 2 and "there is no bot called 'oracle'" in result.output
    result = runner.invoke(app, ["connect", f"{live.base}/play/nosuch#seat=t"])
    assert result.exit_code == 1 and "there is no table 'nosuch'" in result.output


def test_a_refusal_that_arrives_before_the_hello_is_still_read(monkeypatch):
    """An unknown table is refused as soon as the socket opens; a client whose hello then
    meets a closed connection must still report the server's reason."""
    from websockets.exceptions import ConnectionClosedError
    from websockets.frames import Close

    import ladytiger.web.client as client_module

    reason = {"type": "error", "code": "unknown_table", "message": "there is no table 'x'"}

    class RefusedSocket:
        closed = False

        async def send(self, text: str) -> None:
            raise ConnectionClosedError(Close(4404, ""), Close(4404, ""), True)

        async def recv(self) -> str:
            return json.dumps(reason)

        async def close(self) -> None:
            self.closed = True

    socket = RefusedSocket()

    async def fake_connect(*args, **kwargs):
        return socket

    monkeypatch.setattr(client_module, "connect", fake_connect)
    with pytest.raises(ClientError) as refused:
        run(TableConnection.open("http://127.0.0.1:1", "x"))
    assert refused.value.code == "unknown_table"
    assert "there is no table 'x'" in str(refused.value)
    assert socket.closed
