"""Nothing hidden is ever sent: every registered game, played whole over the real protocol.

Each seat and a spectator play or watch a whole game through the server on 127.0.0.1. Then
the game's record (handed out at the end) is replayed, and every message each connection
received is checked against what that connection may know at that version: a view carries
exactly `observation(seat)` and, on the seat's own turn only, its legal moves; an answer to
"why not" is the engine's reason on the seat's own turn only; a sample replays to a state the
seat cannot tell from the real one; and no record or history appears before the end.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest

import ladytiger
from ladytiger.web.client import state_from_history
from ladytiger.web.protocol import SERVER_MESSAGES
from tests.web.postgres import STORES, database
from tests.web.support import (
    LiveServer,
    RandomSeat,
    canonical,
    quick_settings,
    run,
    short_options,
    states_by_version,
)


@pytest.fixture(scope="module", params=STORES)
def live(request, tmp_path_factory):
    """The real server on 127.0.0.1, on each store in turn (a table read back from
    PostgreSQL must not carry more than one kept in SQLite)."""
    path = database(request.param, tmp_path_factory.mktemp("live"))
    with LiveServer(quick_settings(path)) as server:
        yield server


def configurations() -> list[tuple[str, dict[str, Any]]]:
    """Each game at its fewest and its most players, and each declared variant once."""
    configs = []
    for info in ladytiger.registered_games():
        short = short_options(info.name)
        for players in sorted({info.min_players, info.max_players}):
            configs.append((info.name, {"players": players, **short}))
        for variant in info.variants:
            configs.append((info.name, {"players": info.min_players, **short, **variant}))
    return configs


CONFIGURATIONS = configurations()
VIEW_KEYS = {"type", "table", "version", "status", "seat", "current_player", "your_turn",
             "deadline", "observation", "legal_actions", "moment", "stand_ins"}
KEYS = {
    "welcome": {"type", "protocol", "seat", "player", "table", "chat"},
    "chat": {"type", "table", "index", "at", "text", "from"},
    "presence": {"type", "table", "seats", "spectators"},
    "ack": {"type", "ref", "table", "version", "action", "text"},
    "why": {"type", "ref", "table", "action", "text", "legal", "reason", "version"},
    "sample": {"type", "ref", "table", "version", "history"},
    "end": {"type", "table", "version", "returns", "scores", "record"},
}
CHAT_LINES = {"hello from the rail", *(f"good luck from seat {s}" for s in range(6))}
SECRET_KEYS = {"record", "history", "token", "tokens", "token_hash", "secret",
               "secret_hash"}


def keys_anywhere(value: Any) -> set[str]:
    if isinstance(value, dict):
        found = set(value)
        for item in value.values():
            found |= keys_anywhere(item)
        return found
    if isinstance(value, list):
        found = set()
        for item in value:
            found |= keys_anywhere(item)
        return found
    return set()


def check_messages(messages: list[dict[str, Any]], seat: int | None, record: dict[str, Any],
                   states: dict[int, Any], secrets: tuple[str, ...] = ()) -> None:
    last_version = -1
    for message in messages:
        text = json.dumps(message)
        assert not any(secret in text for secret in secrets), "a player's secret went out"
    ended = False
    views = 0
    for message in messages:
        kind = message["type"]
        assert kind in SERVER_MESSAGES, message
        assert not ended, f"a message after the end: {message}"
        if kind == "error":
            assert message["code"] == "stale_version", message
            continue
        if kind in KEYS:
            # A chat line carries the speaker's ref in the speaker's own copy only.
            keys = set(message) - {"ref"} if kind == "chat" else set(message)
            assert keys == KEYS[kind], message
        if kind == "end":
            ended = True
            assert message["record"]["history"] == record["history"]
            continue
        secret = keys_anywhere(message) & SECRET_KEYS
        if kind == "sample":
            secret -= {"history"}
        assert not secret, f"{kind} carries {secret} before the end"
        if kind == "view":
            views += 1
            assert set(message) == VIEW_KEYS
            version = message["version"]
            assert version >= last_version
            last_version = version
            state = states[version]
            assert message["seat"] == seat
            assert message["observation"] == canonical(state.observation(seat))
            assert message["current_player"] == state.current_player()
            mine = seat is not None and message["status"] == "playing" and (
                state.current_player() == seat
            )
            assert message["your_turn"] == mine
            expected = [state.describe_action(a) for a in state.legal_actions()] if mine else []
            assert message["legal_actions"] == canonical(expected)
        elif kind == "why":
            assert seat is not None
            state = states[message["version"]]
            if state.current_player() == seat:
                assert message["reason"] == state.illegal_reason(message["action"])
            else:
                assert message["reason"].startswith("it is not your turn")
        elif kind == "sample":
            assert seat is not None
            real = states[message["version"]]
            guess = state_from_history(real.observation(seat), message["history"])
            assert canonical(guess.observation(seat)) == canonical(real.observation(seat))
        elif kind == "chat":
            assert message["text"] in CHAT_LINES, message
            speaker = message["from"]
            assert set(speaker) == {"seat", "player"} and set(speaker["player"]) == {"id", "name"}
        elif kind == "ack":
            before = states[message["version"] - 1]
            assert before.current_player() == seat
            assert message["text"] == before.action_to_string(message["action"])
    assert ended and views >= 2


@pytest.mark.parametrize(
    ("game", "options"), CONFIGURATIONS,
    ids=[f"{game}[{','.join(f'{k}={v}' for k, v in options.items())}]"
         for game, options in CONFIGURATIONS],
)
def test_no_message_carries_more_than_its_reader_may_know(live, game, options):
    players = options["players"]
    space = ladytiger.load_game(game, **options).num_distinct_actions()
    # Every seat is a player who says a line at the table; the spectator is a player too.
    made = [httpx.post(f"{live.base}/api/players", json={"name": f"P{s}"}).json()
            for s in range(players + 1)]
    secrets = tuple(player["secret"] for player in made)
    created = httpx.post(f"{live.base}/api/tables", json={"game": game, "options": options,
                                                         "me": 0},
                         headers={"authorization": f"Player {secrets[0]}"})
    assert created.status_code == 201, created.text
    table_id = created.json()["table"]["id"]
    tokens = created.json()["tokens"]
    spectator = RandomSeat(live.base, table_id, None, seed=99, player=secrets[-1],
                           chat="hello from the rail")
    seats = [
        RandomSeat(live.base, table_id, tokens[str(s)], seed=s, ask_why=True, ask_sample=True,
                   player=secrets[s], chat=f"good luck from seat {s}")
        for s in range(players)
    ]

    async def play_all() -> list[dict[str, Any]]:
        watching = asyncio.ensure_future(spectator.play())
        await asyncio.sleep(0.05)  # the spectator watches from before the deal
        return await asyncio.gather(watching, *(seat.play(space) for seat in seats))

    ends = run(asyncio.wait_for(play_all(), 60))
    record = ends[0]["record"]
    assert all(end["record"]["history"] == record["history"] for end in ends)
    states = states_by_version(record)
    check_messages(spectator.messages, None, record, states, secrets)
    for number, seat in enumerate(seats):
        check_messages(seat.messages, number, record, states, secrets)
        assert seat.messages[0]["player"] == {"id": made[number]["player"]["id"],
                                              "name": f"P{number}"}
        assert seat.acks, "every seat moved at least once"
