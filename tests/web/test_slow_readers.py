"""Clients that stop reading must never stall a table: nothing after a commit may fail.

Real sockets on 127.0.0.1 with a small receive buffer say hello as spectators and then never
read again, so the server's writes to them back up until their outbox overflows and the
server closes them, in the middle of broadcasting a move. The game must go on regardless:
every move acknowledged once, its view sent to the players, the bot answering each time.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import time
from typing import Any

import httpx
import pytest

from ladytiger.web.specs import parse_create_request
from ladytiger.web.tables import Table
from tests.web.support import LiveServer, RandomSeat, quick_settings


class SlowReader:
    """A WebSocket spectator that reads its welcome, then nothing ever again."""

    def __init__(self, port: int, table_id: str) -> None:
        self.sock = socket.socket()
        # Before connecting, so the window the server sees is small from the start.
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        self.sock.settimeout(10)
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            f"GET /api/tables/{table_id}/ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            assert chunk, "the server closed the upgrade"
            head += chunk
        assert head.startswith(b"HTTP/1.1 101"), head
        self.send_text(json.dumps({"type": "hello"}))

    def send_text(self, text: str) -> None:
        payload = text.encode()
        assert len(payload) < 126
        mask = os.urandom(4)
        masked = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
        self.sock.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + masked)

    def close(self) -> None:
        self.sock.close()


def play_against_bot_with_slow_spectators(tmp_path, spectators: int) -> None:
    settings = quick_settings(tmp_path / "slow.sqlite3", outbox_limit=8, presence_interval=0.05)
    server = LiveServer(settings)
    # Accepted sockets inherit the listening socket's buffer sizes: small ones make a reader
    # that stops reading back up after a few views, not after megabytes.
    server.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 8192)
    with server:
        made = httpx.post(f"{server.base}/api/tables", json={
            # Favor: every game runs some 60 views of about 9 KB, far more than the
            # buffers between the server and a reader that does not read can hold.
            "game": "favor", "options": {"players": 2},
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
        }).json()
        table, token = server.hub.active[made["table"]["id"]], made["tokens"]["0"]
        readers = [SlowReader(server.port, table.id) for _ in range(spectators)]
        try:
            deadline = time.monotonic() + 10
            while len(table.listeners.get(None, ())) < spectators:
                assert time.monotonic() < deadline, "the spectators did not all get in"
                time.sleep(0.02)
            seat = RandomSeat(server.base, table.id, token, seed=5)
            end = asyncio.run(asyncio.wait_for(seat.play(), 90))
            errors = [m for m in seat.messages if m["type"] == "error"]
            assert not errors, errors[:3]
            assert end["type"] == "end"
            moves = sum(1 for actor in table.state.actors() if actor == 0)
            assert len(seat.acks) == moves, "every move of the seat acknowledged once"
            assert table.status == "finished"
            # The readers were closed as slow, not left to grow the server's memory.
            assert not table.listeners.get(None)
        finally:
            for reader in readers:
                reader.close()


def test_one_spectator_that_stops_reading_does_not_stall_the_game(tmp_path):
    play_against_bot_with_slow_spectators(tmp_path, 1)


@pytest.mark.slow
def test_two_hundred_spectators_that_stop_reading_do_not_stall_the_game(tmp_path):
    play_against_bot_with_slow_spectators(tmp_path, 200)


# ------------------------------------------------------------------ without sockets
class Listener:
    def __init__(self, seat: int | None, on_send: Any = None) -> None:
        self.seat = seat
        self.got: list[str] = []
        self.on_send = on_send

    def send(self, text: str) -> None:
        self.got.append(text)
        if self.on_send is not None:
            self.on_send(self)


def test_listeners_that_leave_or_fail_while_a_move_goes_out_do_not_stop_the_table(tmp_path):
    from ladytiger.web.hub import Hub

    async def scenario() -> None:
        hub = Hub(quick_settings(tmp_path / "t.sqlite3"))
        await hub.open()
        try:
            spec = parse_create_request({
                "game": "doors", "options": {"gems_to_win": 3},
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
            })
            table: Table = (await hub.create(spec))[0]
            await table.join(0, table.token_hashes[0])
            armed = False

            def leave(listener: Listener) -> None:
                if armed:
                    table.detach(listener)

            def fail(listener: Listener) -> None:
                if armed:
                    raise OSError("the socket broke")

            leavers = [Listener(None, leave) for _ in range(20)]
            broken = Listener(None, fail)
            player, watcher = Listener(0), Listener(None)
            for listener in [*leavers, broken, player, watcher]:
                table.attach(listener)
            armed = True
            while table.status == "playing":
                if table.state.current_player() == 0:
                    before = len(player.got)
                    action = table.state.legal_actions()[0]
                    await table.play(0, table.version, action)
                    assert len(player.got) > before, "the mover saw its move"
                else:
                    version = table.version
                    deadline = time.monotonic() + 5
                    while table.version == version:
                        assert time.monotonic() < deadline, "the bot stopped moving"
                        await asyncio.sleep(0.01)
            assert table.status == "finished"
            assert not any(listener in table.listeners.get(None, ()) for listener in leavers)
            views = [json.loads(text) for text in watcher.got if '"type":"view"' in text]
            assert views[-1]["version"] == table.version
        finally:
            await hub.close()

    asyncio.run(scenario())


def test_a_presence_burst_is_sent_once_per_interval(tmp_path):
    from ladytiger.web.hub import Hub

    async def scenario() -> None:
        hub = Hub(quick_settings(tmp_path / "p.sqlite3", presence_interval=0.2))
        await hub.open()
        try:
            spec = parse_create_request({"game": "doors"})
            table: Table = (await hub.create(spec))[0]
            first = Listener(None)
            table.attach(first)
            for _ in range(150):
                table.attach(Listener(None))
            await asyncio.sleep(0.5)
            presences = [text for text in first.got if '"type":"presence"' in text]
            # One at once, then at most one per interval for the rest of the burst.
            assert 1 <= len(presences) <= 2, len(presences)
            assert json.loads(presences[-1])["spectators"] == 151
        finally:
            await hub.close()

    asyncio.run(scenario())


def test_spectators_beyond_the_cap_are_refused_with_a_clear_error(tmp_path):
    from ladytiger.web.hub import Hub
    from ladytiger.web.protocol import ProtocolError

    async def scenario() -> None:
        hub = Hub(quick_settings(tmp_path / "c.sqlite3", max_spectators=3))
        await hub.open()
        try:
            table: Table = (await hub.create(parse_create_request({"game": "doors"})))[0]
            for _ in range(3):
                table.attach(Listener(None))
            with pytest.raises(ProtocolError) as refused:
                table.attach(Listener(None))
            assert refused.value.code == "too_many_spectators"
            assert "3 spectators" in refused.value.message
            assert refused.value.close == 1013
            table.attach(Listener(0))  # a seat always gets in
        finally:
            await hub.close()

    asyncio.run(scenario())
