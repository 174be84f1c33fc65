"""The reference client of the protocol: HTTP calls, a table connection, a remote bot seat.

`ladytiger connect URL --seat-file FILE --bot NAME` runs `play_seat`: it connects to the table,
and on each of its turns asks the server for a sample (a history consistent with everything
the seat knows, hidden parts guessed), replays it into a local state, lets the bot choose on
that state and sends the move with the version it answers. A dropped connection is retried.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus, InvalidURI

from ladytiger.bots import load_bot
from ladytiger.core import LadyTigerError, State, load_game

log = logging.getLogger("ladytiger.web.client")

MAX_SERVER_MESSAGE = 8 * 1024 * 1024


class ClientError(Exception):
    """The server refused a request; `code` is the protocol's error code."""

    def __init__(self, code: str, message: str, payload: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.payload = payload or {}


@dataclass(frozen=True)
class Link:
    """A server address and, when the link names them, a table and a seat token."""

    base: str
    table: str | None = None
    token: str | None = None


def parse_link(url: str) -> Link:
    """Read an invite link (`.../play/ID#seat=TOKEN`), a table URL or a bare server URL."""
    parts = urlsplit(url if "://" in url else "http://" + url)
    if parts.scheme not in ("http", "https", "ws", "wss"):
        raise ValueError(f"{url!r} is not an http(s) or ws(s) address")
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    base = f"{scheme}://{parts.netloc}"
    segments = [s for s in parts.path.split("/") if s]
    table = None
    if len(segments) >= 2 and segments[0] == "play":
        table = segments[1]
    elif len(segments) >= 3 and segments[:2] == ["api", "tables"]:
        table = segments[2]
    fragment = parse_qs(parts.fragment)
    token = fragment.get("seat", [None])[0]
    return Link(base, table, token)


class ServerClient:
    """The HTTP API (`/api`), as plain async calls returning JSON."""

    def __init__(self, base: str, timeout: float = 10.0) -> None:
        self.base = base.rstrip("/")
        self.http = httpx.AsyncClient(base_url=self.base, timeout=timeout)

    async def __aenter__(self) -> ServerClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        await self.http.aclose()

    async def _call(self, method: str, path: str, token: str | None = None,
                    body: Any = None) -> Any:
        headers = {"authorization": f"Bearer {token}"} if token else {}
        response = await self.http.request(method, path, json=body, headers=headers)
        data = response.json()
        if response.status_code >= 400:
            error = data.get("error", {}) if isinstance(data, dict) else {}
            raise ClientError(error.get("code", "http_error"),
                              error.get("message", response.text), error)
        return data

    async def games(self) -> list[dict[str, Any]]:
        return (await self._call("GET", "/api/games"))["games"]

    async def bots(self) -> list[dict[str, Any]]:
        return (await self._call("GET", "/api/bots"))["bots"]

    async def lobby(self, status: str = "waiting") -> list[dict[str, Any]]:
        return (await self._call("GET", f"/api/tables?status={status}"))["tables"]

    async def create_table(self, game: str, **request: Any) -> dict[str, Any]:
        """POST /api/tables: `options`, `seats`, `clock`, `bot_pause`, `public` as documented."""
        return await self._call("POST", "/api/tables", body={"game": game, **request})

    async def table(self, table_id: str) -> dict[str, Any]:
        return (await self._call("GET", f"/api/tables/{table_id}"))["table"]

    async def join(self, table_id: str, seat: int | None = None) -> dict[str, Any]:
        body = {} if seat is None else {"seat": seat}
        return await self._call("POST", f"/api/tables/{table_id}/join", body=body)

    async def view(self, table_id: str, token: str | None = None) -> dict[str, Any]:
        return await self._call("GET", f"/api/tables/{table_id}/view", token)

    async def act(self, table_id: str, token: str, version: int,
                  action: int | str) -> dict[str, Any]:
        body = {"version": version, "action": action}
        return await self._call("POST", f"/api/tables/{table_id}/actions", token, body)

    async def why(self, table_id: str, token: str, action: int | str) -> dict[str, Any]:
        return await self._call("POST", f"/api/tables/{table_id}/why", token, {"action": action})

    async def rematch(self, table_id: str, token: str) -> dict[str, Any]:
        return await self._call("POST", f"/api/tables/{table_id}/rematch", token)

    async def resign(self, table_id: str, token: str) -> dict[str, Any]:
        """Give the game up for the token's seat (docs/protocol.md, Resigning)."""
        return (await self._call("POST", f"/api/tables/{table_id}/resign", token))["table"]

    async def close_table(self, table_id: str, token: str) -> dict[str, Any]:
        """Close a table still waiting for players (docs/protocol.md, Closing a waiting
        table)."""
        return (await self._call("POST", f"/api/tables/{table_id}/close", token))["table"]

    async def leave(self, table_id: str, token: str) -> dict[str, Any]:
        """Give back a seat taken from the lobby before the game begins; the token holds
        nothing afterwards (docs/protocol.md, Giving a lobby seat back)."""
        return (await self._call("POST", f"/api/tables/{table_id}/leave", token))["table"]

    async def fill_with_bots(self, table_id: str, token: str, bot: str) -> dict[str, Any]:
        """Start a waiting table now with bot `bot` in every empty seat; returns the new
        table and its links (docs/protocol.md, Starting with bots)."""
        return await self._call("POST", f"/api/tables/{table_id}/fill", token, {"bot": bot})

    async def record(self, table_id: str) -> dict[str, Any]:
        return await self._call("GET", f"/api/tables/{table_id}/record")


class TableConnection:
    """One WebSocket to a table, after its hello. Read with `receive`, write with the verbs."""

    def __init__(self, socket: ClientConnection, welcome: dict[str, Any]) -> None:
        self.socket = socket
        self.welcome = welcome
        self.seat: int | None = welcome.get("seat")
        self.table_id: str = welcome["table"]["id"]
        self._refs = 0
        self.pending: deque[dict[str, Any]] = deque()

    @classmethod
    async def open(cls, base: str, table_id: str, token: str | None = None,
                   open_timeout: float = 10.0, player: str | None = None) -> TableConnection:
        """Connect and say hello: with a seat `token`, a `player` secret, both, or neither
        (to watch)."""
        url = "ws" + base.rstrip("/").removeprefix("http") + f"/api/tables/{table_id}/ws"
        socket = await connect(url, max_size=MAX_SERVER_MESSAGE, open_timeout=open_timeout,
                               compression=None)
        hello: dict[str, Any] = {"type": "hello"}
        if token is not None:
            hello["token"] = token
        if player is not None:
            hello["player"] = player
        # The server refuses some connections before any hello (an unknown table): it sends
        # its reason and closes at once, and that reason is still there to read.
        with contextlib.suppress(ConnectionClosed):
            await socket.send(json.dumps(hello))
        first = json.loads(await socket.recv())
        if first.get("type") != "welcome":
            await socket.close()
            raise ClientError(first.get("code", "refused"), first.get("message", str(first)),
                              first)
        return cls(socket, first)

    async def receive(self) -> dict[str, Any]:
        if self.pending:
            return self.pending.popleft()
        return json.loads(await self.socket.recv())

    async def send(self, kind: str, **fields: Any) -> str:
        self._refs += 1
        ref = f"r{self._refs}"
        await self.socket.send(json.dumps({"type": kind, "ref": ref, **fields}))
        return ref

    async def chat(self, text: str) -> str:
        return await self.send("chat", text=text)

    async def act(self, version: int, action: int | str) -> str:
        return await self.send("action", version=version, action=action)

    async def why(self, action: int | str) -> str:
        return await self.send("why", action=action)

    async def sample(self) -> str:
        return await self.send("sample")

    async def resign(self) -> str:
        return await self.send("resign")

    async def close_table(self) -> str:
        return await self.send("close")

    async def leave(self) -> str:
        return await self.send("leave")

    async def fill_with_bots(self, bot: str) -> str:
        return await self.send("fill", bot=bot)

    async def open_seats(self) -> str:
        """Move the waiting table to a new one whose empty invited seats are open to all."""
        return await self.send("fill", lobby=True)

    async def follow(self) -> dict[str, Any]:
        """Move this connection to the table's rematch; returns the new `welcome`.
        Messages that arrive before it (the old table's last words) wait in `pending`."""
        ref = await self.send("follow")
        held: list[dict[str, Any]] = []
        while True:
            reply = json.loads(await self.socket.recv())
            if reply.get("ref") == ref and reply["type"] in ("welcome", "error"):
                break
            held.append(reply)
        self.pending.extend(held)
        if reply["type"] == "error":
            raise ClientError(reply["code"], reply["message"], reply)
        self.welcome, self.seat, self.table_id = reply, reply["seat"], reply["table"]["id"]
        return reply

    async def close(self) -> None:
        await self.socket.close()


def state_from_history(observation: dict[str, Any], history: list[str]) -> State:
    """A local state for a bot to think on, from a sample's move texts."""
    state = load_game(observation["game"], **observation["options"]).new_initial_state()
    for text in history:
        state.apply_action(state.string_to_action(text))
    return state


async def play_seat(
    base: str,
    table_id: str,
    token: str | None,
    bot_name: str = "random",
    bot_options: dict[str, Any] | None = None,
    on_message: Callable[[dict[str, Any]], None] | None = None,
    retries: int = 20,
    seed: int | None = None,
) -> dict[str, Any]:
    """Play `token`'s seat with a local bot (or watch, without a token) until the game ends.

    Returns the `end` message (results and record). A lost connection is retried up to
    `retries` times in a row, with the seat's current view coming back on each reconnect.
    """
    rng = random.Random(seed)
    bot = None
    failures = 0
    while True:
        try:
            connection = await TableConnection.open(base, table_id, token)
        except (OSError, InvalidStatus, InvalidURI, ConnectionClosed, TimeoutError) as error:
            failures += 1
            if failures > retries:
                raise ClientError("unreachable", f"cannot reach the table: {error}") from error
            await asyncio.sleep(min(2.0, 0.1 * 2**failures))
            continue
        if on_message is not None:
            on_message(connection.welcome)
        try:
            while True:
                message = await connection.receive()
                failures = 0
                if on_message is not None:
                    on_message(message)
                kind = message["type"]
                if kind == "end":
                    await connection.close()
                    return message
                if kind == "error" and message.get("code") in ("unauthorized", "unknown_table"):
                    raise ClientError(message["code"], message["message"], message)
                if kind == "view" and message.get("moment") and message.get("seat") is not None:
                    # A program has read the moment as soon as it has it: say so, so that
                    # the table's bots do not wait for a person who is not there.
                    await connection.send("seen", version=message["version"])
                if kind != "view" or not message["your_turn"]:
                    continue
                if bot is None:
                    game = load_game(message["observation"]["game"],
                                     **message["observation"]["options"])
                    bot = load_bot(bot_name, game, **{"seed": rng.getrandbits(32),
                                                      **(bot_options or {})})
                action = await _choose(connection, bot, message, rng)
                if action is not None:
                    await connection.act(message["version"], action)
        except ConnectionClosed as closed:
            failures += 1
            if failures > retries:
                raise ClientError("disconnected", f"the connection was closed: {closed}") from None
            await asyncio.sleep(min(2.0, 0.1 * 2**failures))


async def _choose(connection: TableConnection, bot: Any, view: dict[str, Any],
                  rng: random.Random) -> int | None:
    """The bot's move for this view, thought on a sampled state; None if the view is old."""
    legal = [entry["id"] for entry in view["legal_actions"]]
    await connection.sample()
    held: list[dict[str, Any]] = []
    while True:
        reply = json.loads(await connection.socket.recv())
        if reply["type"] in ("sample", "error"):
            break
        held.append(reply)  # everything else waits for the main loop, in order
    connection.pending.extend(held)
    if any(m["type"] in ("view", "end") for m in held):
        return None  # the table moved on (a clock ran out): this turn is gone
    if reply["type"] == "error":
        log.warning("no sample: %s", reply.get("message"))
        return rng.choice(legal)
    if reply["version"] != view["version"]:
        return None
    try:
        state = state_from_history(view["observation"], reply["history"])
        seat = connection.seat
        assert seat is not None
        action = await asyncio.to_thread(bot.step, state, seat)
    except (LadyTigerError, ValueError, KeyError, AssertionError) as error:
        log.warning("the bot could not think (%s); playing a random move", error)
        return rng.choice(legal)
    return action if action in legal else rng.choice(legal)
