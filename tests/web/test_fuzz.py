"""Hypothesis drives the message handler with anything a client could send.

Whatever arrives, the handler answers with well-formed server messages (or closes the
connection with a protocol close code) and never raises; and the game changes only through
a move the server acknowledged.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ladytiger.web.hub import Hub
from ladytiger.web.protocol import SERVER_MESSAGES
from ladytiger.web.sessions import Close, Session
from ladytiger.web.specs import parse_create_request
from tests.web.support import quick_settings

CLOSE_CODES = {1008, 1009, 4400, 4401, 4408}
TEXTS = ["take Red Lady", "take Blue Tiger", "discard Red Lady", "guess Blue", "end turn",
         "claim set", "TAKE   red lady", "deal Red Lady to seat 0", "", " "]
CURRENT = "<current version>"
LEGAL = "<a legal move>"


@pytest.fixture(scope="module")
def arena(tmp_path_factory) -> Iterator[tuple[asyncio.AbstractEventLoop, Hub, Any, dict]]:
    loop = asyncio.new_event_loop()
    hub = Hub(quick_settings(tmp_path_factory.mktemp("fuzz") / "fuzz.sqlite3",
                             messages_per_second=1e6, message_burst=1e6),
              rng=random.Random(11))
    loop.run_until_complete(hub.open())
    spec = parse_create_request({"game": "doors", "options": {"gems_to_win": 50}})
    table, tokens = loop.run_until_complete(hub.create(spec))
    loop.run_until_complete(table.join(0, table.token_hashes[0]))
    loop.run_until_complete(table.join(1, table.token_hashes[1]))
    yield loop, hub, table, tokens
    loop.run_until_complete(hub.close())
    loop.close()


scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(
    max_size=20)
anything = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                        | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=8)
actions = st.one_of(st.just(LEGAL), st.just(LEGAL), st.integers(-3, 40),
                    st.sampled_from(TEXTS), st.text(max_size=30), anything)
versions = st.one_of(st.just(CURRENT), st.just(CURRENT), st.integers(-2, 400), anything)
shaped = st.one_of(
    st.fixed_dictionaries({"type": st.just("action"), "version": versions, "action": actions},
                          optional={"ref": anything, "junk": anything}),
    st.fixed_dictionaries({"type": st.just("why"), "action": actions},
                          optional={"ref": anything}),
    st.fixed_dictionaries({"type": st.sampled_from(["ping", "sample", "rematch", "follow", "hello",
                                                    "bogus"])},
                          optional={"ref": anything, "token": anything}),
    st.dictionaries(st.text(max_size=8), anything, max_size=4),
)
raw_messages = st.one_of(
    shaped,
    shaped,
    st.text(max_size=80),
    st.binary(max_size=80),
    anything.map(json.dumps),
)


def resolve(table: Any, value: Any) -> Any:
    if value == CURRENT:
        return table.version
    if value == LEGAL:
        legal = table.state.legal_actions() or [0]
        return legal[table.version % len(legal)]
    return value


greetings = st.sampled_from(["mover", "mover", "seat 0", "seat 1", "spectator", "bad token",
                             None])


def test_the_handler_answers_everything_and_only_acknowledged_moves_count(arena):
    _, _, table, _ = arena

    # Derandomized: whether the generated moves reach real play (the check below) must not
    # depend on the run's luck; one run in ten or so reached only two moves.
    @settings(max_examples=150, derandomize=True)
    @given(greeting=greetings, messages=st.lists(raw_messages, max_size=8))
    def conversation(greeting: str | None, messages: list[Any]) -> None:
        converse_and_check(arena, greeting, messages)

    conversation()
    # In the same test, so that it sees the same table whichever worker runs it: the
    # generated moves were not all refused, the fuzzing reached real play.
    assert table.version > 3


def converse_and_check(arena: Any, greeting: str | None, messages: list[Any]) -> None:
    """One connection says `greeting`, then sends `messages`; every reply must be a
    well-formed server message, and the table must change only by acknowledged moves."""
    loop, hub, table, tokens = arena
    session = Session(hub, table, hub.settings)
    version_before = table.version
    history_before = table.state.history()

    async def converse() -> None:
        if greeting is not None:
            hello: dict[str, Any] = {"type": "hello"}
            if greeting.startswith("seat"):
                hello["token"] = tokens[int(greeting[-1])]
            elif greeting == "mover":
                hello["token"] = tokens[max(0, table.state.current_player())]
            elif greeting == "bad token":
                hello["token"] = "x" * 32
            await session.handle(json.dumps(hello))
        for item in messages:
            if isinstance(item, dict):
                item = {k: resolve(table, v) for k, v in item.items()}
                try:
                    item = json.dumps(item)
                except (TypeError, ValueError):
                    item = str(item)
            await session.handle(item)

    loop.run_until_complete(converse())
    session.detach()
    sent = []
    while not session.outbox.empty():
        sent.append(session.outbox.get_nowait())
    acks = 0
    for index, item in enumerate(sent):
        if isinstance(item, Close):
            assert item.code in CLOSE_CODES
            assert index == len(sent) - 1, "nothing follows a close"
            continue
        reply = json.loads(item)
        assert reply["type"] in SERVER_MESSAGES
        if reply["type"] == "error":
            assert reply["code"] != "internal", reply
            assert reply["message"]
        acks += reply["type"] == "ack"
    if greeting == "bad token":
        assert isinstance(sent[-1], Close) and sent[-1].code == 4401
    assert table.version == version_before + acks
    assert table.state.history()[: len(history_before)] == history_before
    if acks == 0:
        assert table.state.history() == history_before
