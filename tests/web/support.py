"""Shared helpers of the server tests: a live server in a thread, game clients, replays."""

from __future__ import annotations

import asyncio
import json
import random
import socket
import threading
import time
from pathlib import Path
from typing import Any

import uvicorn

import ladytiger
from ladytiger.core import CHANCE, State
from ladytiger.web import Settings, create_app
from ladytiger.web.client import TableConnection
from ladytiger.web.transport import server_config

# Options that keep a game short where a game has them (the names the games declare).
SHORT_OPTIONS = {"gems_to_win": 3, "turn_cap": 40, "max_seasons": 2, "turn_limit": 40}


def short_options(game: str) -> dict[str, Any]:
    info = next(i for i in ladytiger.registered_games() if i.name == game)
    names = {option.name for option in info.options}
    return {name: value for name, value in SHORT_OPTIONS.items() if name in names}


# The per-client limits lifted: most tests create many tables from one address. The tests
# of the limits themselves set them.
UNLIMITED_CLIENT: dict[str, Any] = {
    "tables_per_client": 1_000_000, "creates_per_minute": 1e9, "create_burst": 1_000_000,
    "replays_per_minute": 1e9, "replay_burst": 1_000_000,
    "players_per_minute": 1e9, "player_burst": 1_000_000,
}


def quick_settings(path: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {"db_path": str(path), "bot_pause": 0.0, "synchronous": "NORMAL",
                              "bot_pool": "thread", **UNLIMITED_CLIENT}
    values.update(overrides)
    return Settings(**values)


class LiveServer:
    """The real server (uvicorn on 127.0.0.1, a free port) in a background thread."""

    def __init__(self, settings: Settings, rng: random.Random | None = None) -> None:
        self.app = create_app(settings, rng=rng)
        self.hub = self.app.state.hub
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        config = server_config(self.app, settings, "127.0.0.1", self.port,
                               log_level="warning", ws_max_size=1 << 20)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the live server did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


def states_by_version(record: dict[str, Any]) -> dict[int, State]:
    """Replay a finished table's record into the state shown at each version: version 1 once
    the opening chance is dealt, then one more after each player's move and its chance."""
    state = ladytiger.load_game(record["game"], **record["options"]).new_initial_state()
    texts = list(record["history"])
    states = {0: state.clone()}
    position = 0

    def deal() -> None:
        nonlocal position
        while position < len(texts) and state.current_player() == CHANCE:
            state.apply_action(state.string_to_action(texts[position]))
            position += 1

    deal()
    version = 1
    states[version] = state.clone()
    while position < len(texts):
        state.apply_action(state.string_to_action(texts[position]))
        position += 1
        deal()
        version += 1
        states[version] = state.clone()
    return states


def player_moves(record: dict[str, Any]) -> list[tuple[int, str]]:
    """(seat, text) of every player's move in a record, in order (chance left out)."""
    state = ladytiger.load_game(record["game"], **record["options"]).new_initial_state()
    moves = []
    for text in record["history"]:
        actor = state.current_player()
        if actor != CHANCE:
            moves.append((actor, text))
        state.apply_action(state.string_to_action(text))
    return moves


def canonical(value: Any) -> Any:
    """What a value looks like after a trip through JSON."""
    return json.loads(json.dumps(value))


class RandomSeat:
    """A client that plays random legal moves for one seat and keeps every message."""

    def __init__(self, base: str, table_id: str, token: str | None, seed: int,
                 ask_why: bool = False, ask_sample: bool = False, player: str | None = None,
                 chat: str | None = None) -> None:
        self.base = base
        self.table_id = table_id
        self.token = token
        self.rng = random.Random(seed)
        self.ask_why = ask_why
        self.ask_sample = ask_sample
        self.player = player  # a player's secret to say hello with
        self.chat = chat  # a line to say at the table once connected
        self.messages: list[dict[str, Any]] = []
        self.acks: list[tuple[int, str, int]] = []  # (sent version, text, new version)
        self.sent: dict[str, tuple[int, str]] = {}
        self.connection: TableConnection | None = None

    async def play(self, action_space: int | None = None, stop: asyncio.Event | None = None
                   ) -> dict[str, Any]:
        self.connection = connection = await TableConnection.open(
            self.base, self.table_id, self.token, player=self.player
        )
        self.messages.append(connection.welcome)
        if self.chat is not None:
            await connection.chat(self.chat)
        while True:
            message = await connection.receive()
            self.messages.append(message)
            kind = message["type"]
            if kind == "end":
                await connection.close()
                return message
            if kind == "ack":
                version, text = self.sent.pop(message["ref"])
                self.acks.append((version, text, message["version"]))
            if kind != "view" or not message["your_turn"]:
                continue
            if stop is not None and stop.is_set():
                continue
            if self.ask_why and action_space and self.rng.random() < 0.3:
                await connection.why(self.rng.randrange(action_space))
            if self.ask_sample and self.rng.random() < 0.2:
                await connection.sample()

            choice = self.rng.choice(message["legal_actions"])
            ref = await connection.act(message["version"], choice["id"])
            self.sent[ref] = (message["version"], choice["text"])


def auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def play_out(client: Any, made: dict[str, Any]) -> None:
    """Play first legal moves over HTTP, with each seat's token, until the game ends."""
    table_id = made["table"]["id"]
    while True:
        info = client.get(f"/api/tables/{table_id}").json()["table"]
        if info["status"] == "finished":
            return
        token = made["tokens"][str(info["current_player"])]
        view = client.get(f"/api/tables/{table_id}/view", headers=auth(token)).json()
        move = view["legal_actions"][0]
        reply = client.post(f"/api/tables/{table_id}/actions", headers=auth(token),
                            json={"version": view["version"], "action": move["text"]})
        assert reply.status_code == 200, reply.text


def join_seats(client: Any, table_id: str, tokens: dict[str, str]) -> None:
    """Say hello with each token over the test client, and wait until each join is saved
    (and, once every human seat has joined, until the table has started)."""
    for seat, token in tokens.items():
        with client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
            ws.send_json({"type": "hello", "token": token})
            while True:
                message = ws.receive_json()
                if message["type"] == "presence" and message["seats"][int(seat)]["joined"]:
                    break
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        table = client.get(f"/api/tables/{table_id}").json()["table"]
        humans = [s for s in table["seats"] if s["kind"] == "human"]
        if table["status"] != "waiting" or not all(s["joined"] for s in humans):
            return
        time.sleep(0.01)
    raise AssertionError("the table did not start")
