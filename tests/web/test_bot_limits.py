"""Bots' limits: which options a table's creator may give a bot, what a table restored from
the database does with options beyond them, the move deadline, and the end of the bot workers
with the server (SIGTERM, or SIGKILL)."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import ladytiger
from ladytiger.bots import register_bot, registered_bots
from ladytiger.bots import registry as bot_registry
from ladytiger.bots.random_bot import RandomBot
from ladytiger.web import store as db
from ladytiger.web.hub import Hub
from ladytiger.web.protocol import ProtocolError
from ladytiger.web.specs import BOT, HUMAN, SeatPlan, TableSpec, parse_create_request
from ladytiger.web.store import Store
from tests.web import slow_bot
from tests.web.support import free_port, quick_settings, run


def players(game: str) -> int:
    return next(i for i in ladytiger.registered_games() if i.name == game).min_players


def with_bot(game: str, bot: str, options: dict[str, Any]) -> dict[str, Any]:
    """A table request whose last seat is `bot` with `options`, the others human."""
    seats: list[dict[str, Any]] = [{"kind": HUMAN}] * (players(game) - 1)
    return {"game": game, "seats": [*seats, {"kind": BOT, "bot": bot, "options": options}]}


def refusal(request: dict[str, Any], *limits: Any) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        parse_create_request(request, *limits)
    return caught.value


# ---------------------------------------------------------------------------- the whitelist
REFUSED = [
    # (game, bot, options, words the refusal must hold)
    ("doors", "ismcts", {"seconds": "inf"},
     ["'seconds'", "a number above 0 and at most 5", "the string 'inf'"]),
    ("doors", "ismcts", {"seconds": 1e300}, ["'seconds'", "above 0 and at most 5", "1e+300"]),
    ("doors", "ismcts", {"seconds": 0}, ["'seconds'", "above 0 and at most 5"]),
    ("doors", "ismcts", {"seconds": -1}, ["'seconds'", "above 0 and at most 5"]),
    ("doors", "ismcts", {"iterations": 2**62}, ["'iterations'", "a whole number from 1 to 5000"]),
    ("doors", "ismcts", {"iterations": "100000000"}, ["'iterations'", "from 1 to 5000", "string"]),
    ("doors", "ismcts", {"iterations": True}, ["'iterations'", "from 1 to 5000", "not true"]),
    ("doors", "ismcts", {"iterations": 5_001}, ["'iterations'", "from 1 to 5000"]),
    ("doors", "ismcts", {"iterations": 100.0}, ["'iterations'", "a whole number"]),
    ("doors", "ismcts", {"worlds": 10**9}, ["'worlds'", "from 0 to 200"]),
    ("doors", "ismcts", {"judges": 10**6}, ["'judges'", "from 1 to 32"]),
    ("doors", "ismcts", {"rollout_limit": 10**7}, ["'rollout_limit'", "from 0 to 1000"]),
    ("doors", "ismcts", {"depth": 10**6}, ["'depth'", "from 0 to 64"]),
    ("doors", "ismcts", {"exploration": "0.7"}, ["'exploration'", "from 0 to 10", "string"]),
    ("doors", "ismcts", {"margin": 5}, ["'margin'", "from 0 to 1"]),
    ("doors", "ismcts", {"prior": 1.0}, ["'prior'", "above 0 and below 1"]),
    ("doors", "ismcts", {"rollout": "forever"}, ["'rollout'", "one of auto, heuristic, random"]),
    ("doors", "ismcts", {"seed": 7}, ["'seed'", "cannot be set"]),
    ("doors", "ismcts", {"bogus": 1}, ["'bogus'", "takes no option"]),
    ("doors", "heuristic", {"seconds": "inf"}, ["'seconds'", "above 0 and at most 5"]),
    ("doors", "random", {"seed": 1}, ["'seed'", "cannot be set"]),
    ("labyrinth", "labyrinth_search", {"max_depth": 10**6}, ["'max_depth'", "from 1 to 32"]),
    ("hoard", "hoard_planner", {"iterations": 10**9}, ["'iterations'", "from 1 to 5000"]),
]


@pytest.mark.parametrize(("game", "bot", "options", "words"), REFUSED,
                         ids=[f"{bot}-{options}" for _, bot, options, _ in REFUSED])
def test_bot_options_outside_the_whitelist_are_refused(game, bot, options, words):
    error = refusal(with_bot(game, bot, options))
    assert error.code == "bad_bot_options"
    assert error.message.startswith(f"seat {players(game) - 1}: "), error.message
    for word in words:
        assert word in error.message, error.message


ACCEPTED = [
    ("doors", "ismcts", {"seconds": 5}),
    ("doors", "ismcts", {"iterations": 5_000}),
    ("doors", "ismcts", {
        "seconds": 0.05, "exploration": 1.5, "margin": 0, "confidence": 3.0, "prior": 0.5,
        "judges": 32, "worlds": 200, "rollout": "heuristic", "rollout_epsilon": 0.1,
        "rollout_limit": 1000, "depth": 2, "opponents": "infer", "horizon": "auto",
    }),
    ("doors", "heuristic", {"seconds": 1}),
    ("doors", "random", {}),
    ("labyrinth", "labyrinth_search", {"max_depth": 32, "iterations": 500}),
    ("hoard", "hoard_planner", {"iterations": 5_000}),
]


@pytest.mark.parametrize(("game", "bot", "options"), ACCEPTED,
                         ids=[f"{bot}-{options}" for _, bot, options in ACCEPTED])
def test_bot_options_inside_the_whitelist_are_accepted(game, bot, options):
    spec = parse_create_request(with_bot(game, bot, options))
    assert spec.seats[-1].options == options


def test_the_clock_bot_is_held_to_the_same_whitelist():
    for options, word in (({"seconds": 1e300}, "'seconds'"), ({"worlds": 10**9}, "'worlds'"),
                          ({"seed": 3}, "'seed'")):
        error = refusal({"game": "doors", "clock": {"seconds": 10, "bot": "ismcts",
                                                    "options": options}})
        assert error.code == "bad_bot_options"
        assert error.message.startswith("the clock: ") and word in error.message
    spec = parse_create_request({"game": "doors", "clock": {"seconds": 10, "bot": "ismcts",
                                                            "options": {"seconds": 2}}})
    assert spec.clock is not None and spec.clock.options == {"seconds": 2}


def test_the_clairvoyant_bot_is_not_allowed_at_a_table():
    error = refusal({"game": "hoard", "seats": [{"kind": BOT, "bot": "hoard_clairvoyant"}]})
    assert error.code == "bot_not_allowed"
    assert error.message.startswith("seat 0: ") and "deck" in error.message
    error = refusal({"game": "hoard", "clock": {"seconds": 5, "bot": "hoard_clairvoyant"}})
    assert error.code == "bot_not_allowed"
    assert error.message.startswith("the clock: ")


def test_budgets_are_capped_by_the_server_limits():
    from ladytiger.web.bot_options import BotLimits

    limits = BotLimits(max_seconds=1.0, max_iterations=50)
    for options, words in (({"seconds": 1.5}, "at most 1"), ({"iterations": 51}, "1 to 50")):
        error = refusal(with_bot("doors", "ismcts", options), limits)
        assert error.code == "bad_bot_options" and words in error.message, error.message
    for options in ({"seconds": 1.0}, {"iterations": 50}):
        parse_create_request(with_bot("doors", "ismcts", options), limits)


def test_every_registered_bot_is_in_the_whitelist_or_refused():
    from ladytiger.web.bot_options import EXTRA_OPTIONS, REFUSED_BOTS

    assert set(registered_bots()) == set(EXTRA_OPTIONS) | set(REFUSED_BOTS)


def test_the_http_api_refuses_bot_options_outside_the_whitelist(client):
    reply = client.post("/api/tables", json=with_bot("doors", "ismcts", {"seconds": "inf"}))
    assert reply.status_code == 400
    assert reply.json()["error"]["code"] == "bad_bot_options"
    reply = client.post("/api/tables", json={"game": "hoard", "seats": [
        {"kind": BOT, "bot": "hoard_clairvoyant"}]})
    assert reply.status_code == 400
    assert reply.json()["error"]["code"] == "bot_not_allowed"


# ---------------------------------------------------------------------------- restored tables
def store_table(path: Path, game: str, seats: list[SeatPlan]) -> str:
    """Write a table straight into the database, as a server before the whitelist did."""
    spec = TableSpec(id=f"old-{game}", game=game, options={}, seats=tuple(seats),
                     bot_pause=30.0, created_at=time.time())

    async def insert() -> None:
        store = Store(str(path), "NORMAL")
        store.open()
        await store.call(db.insert_table, spec.to_json(), [None] * len(seats))
        await store.close()

    run(insert())
    return spec.id


def restored_bots(path: Path, table_id: str) -> dict[int, Any]:
    async def restore() -> dict[int, Any]:
        hub = Hub(quick_settings(path), rng=random.Random(5))
        await hub.open()
        try:
            return dict(hub.active[table_id].bots)
        finally:
            await hub.close()

    return run(restore())  # type: ignore[no-any-return]


def test_a_restored_table_drops_and_clamps_options_beyond_the_whitelist(tmp_path, caplog):
    path = tmp_path / "old.sqlite3"
    table_id = store_table(path, "doors", [
        SeatPlan(BOT, bot="ismcts", options={"seconds": 1e300, "seed": 5, "worlds": 10**9,
                                             "bogus": 1}),
        SeatPlan(BOT, bot="ismcts", options={"iterations": "100000000", "judges": 10**6,
                                             "rollout": "forever"}),
    ])
    with caplog.at_level(logging.WARNING, logger="ladytiger.web.tables"):
        bots = restored_bots(path, table_id)
    assert bots[0].budget.seconds == 5.0
    assert bots[0].seed != 5
    assert bots[0].worlds == 200
    assert bots[1].budget.iterations == 1000  # the string was dropped: the default budget
    assert bots[1].judges == 32
    assert bots[1].rollout == "auto"
    said = caplog.text
    for word in ("seed dropped", "bogus dropped", "seconds=1e+300 clamped to 5",
                 "iterations=the string '100000000' dropped", "rollout=the string 'forever'"):
        assert word in said, said


def test_a_restored_table_replaces_the_clairvoyant_bot(tmp_path, caplog):
    path = tmp_path / "old.sqlite3"
    table_id = store_table(path, "hoard", [SeatPlan(BOT, bot="hoard_clairvoyant")])
    with caplog.at_level(logging.WARNING, logger="ladytiger.web.tables"):
        bots = restored_bots(path, table_id)
    assert type(bots[0]) is RandomBot
    assert "hoard_clairvoyant bot is not allowed" in caplog.text


# ---------------------------------------------------------------------------- the deadline
@pytest.fixture
def slow_bot_registered(tmp_path, monkeypatch) -> Iterator[Path]:
    """The slow bot under its name while the test runs; yields the file of its pids."""
    pids = tmp_path / "slow-bot-pids.txt"
    monkeypatch.setenv(slow_bot.PIDS_FILE_VARIABLE, str(pids))
    slow_bot.RELEASE.clear()
    register_bot(slow_bot.NAME, "thinks far past any deadline (tests only)")(slow_bot.SlowBot)
    try:
        yield pids
    finally:
        slow_bot.RELEASE.set()
        bot_registry._BOTS.pop(slow_bot.NAME, None)


def gone(pid: int) -> bool:
    """Whether `pid` has exited (reaped, or a zombie nobody has reaped yet)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return True
    return state in ("Z", "X")


@pytest.mark.parametrize("kind", ["thread", "process"])
def test_a_bot_past_the_move_deadline_is_stopped_and_a_random_move_played(
    tmp_path, caplog, slow_bot_registered, kind
):
    settings = quick_settings(tmp_path / "slow.sqlite3", bot_pool=kind, bot_workers=2,
                              bot_move_timeout=1.0)

    async def scenario() -> tuple[str, float]:
        hub = Hub(settings, rng=random.Random(7))
        await hub.open()
        try:
            spec = parse_create_request({
                "game": "doors", "options": {"gems_to_win": 50}, "bot_pause": 0,
                "seats": [{"kind": BOT, "bot": slow_bot.NAME}, {"kind": BOT}],
            })
            table, _ = await hub.create(spec)
            started = time.monotonic()
            # The slow bot never answers, so any move of seat 0 is the fallback.
            while 0 not in table.state.actors():
                assert time.monotonic() - started < 30, "seat 0 never moved"
                await asyncio.sleep(0.05)
            return table.id, time.monotonic() - started
        finally:
            await hub.close()

    with caplog.at_level(logging.WARNING, logger="ladytiger.web.tables"):
        table_id, waited = run(scenario())
    assert waited >= 1.0
    warnings = [r.getMessage() for r in caplog.records if "overran" in r.getMessage()]
    assert warnings, caplog.text
    assert f"table {table_id}: seat 0's bot (the {slow_bot.NAME} bot) overran" in warnings[0]
    assert "past the 1 s move deadline" in warnings[0]
    if kind == "process":
        assert "worker process was killed" in warnings[0]
        pids = [int(line) for line in slow_bot_registered.read_text().split()]
        assert pids and os.getpid() not in pids
        assert all(gone(pid) for pid in pids)


# ---------------------------------------------------------------------------- the workers' end
def children(pid: int) -> set[int]:
    """The processes whose parent is `pid` (from /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError, IndexError):
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def cpu_ticks(pid: int) -> int:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return 0
    return int(fields[11]) + int(fields[12])  # utime + stime


def ladytiger_command() -> list[str]:
    script = Path(sys.executable).parent / "ladytiger"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "ladytiger.cli.main"]


@pytest.fixture
def busy_server(tmp_path) -> Iterator[tuple[subprocess.Popen[bytes], set[int]]]:
    """`ladytiger serve` in a process of its own, with a table of two search bots thinking in
    worker processes; yields the server and its children once a worker is busy thinking."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = (tmp_path / "server.log").open("wb")
    server = subprocess.Popen(
        [*ladytiger_command(), "serve", "--db", str(tmp_path / "s.sqlite3"), "--port",
         str(port), "--bot-pool", "process", "--log-level", "warning"],
        stdout=log, stderr=subprocess.STDOUT,
    )
    seen: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, "the server exited"
            assert time.monotonic() < deadline, "the server did not start"
            try:
                if httpx.get(f"{base}/api", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        ismcts = {"kind": BOT, "bot": "ismcts", "options": {"seconds": 5}}
        reply = httpx.post(f"{base}/api/tables", json={
            "game": "doors", "options": {"gems_to_win": 50}, "bot_pause": 0,
            "seats": [ismcts, ismcts]})
        assert reply.status_code == 201, reply.text
        # Busy: a child that used most of a CPU over the last 0.3 s.
        deadline = time.monotonic() + 60
        while True:
            assert time.monotonic() < deadline, "no bot worker got busy"
            before = {pid: cpu_ticks(pid) for pid in children(server.pid)}
            seen |= set(before)
            time.sleep(0.3)
            used = max((cpu_ticks(pid) - ticks for pid, ticks in before.items()), default=0)
            if used >= 0.2 * os.sysconf("SC_CLK_TCK"):
                break
        seen |= children(server.pid)
        yield server, seen
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)
        for pid in seen | children(server.pid):
            if not gone(pid):
                os.kill(pid, signal.SIGKILL)  # a worker the test found alive: not left behind
        log.close()


def wait_all_gone(pids: set[int], seconds: float) -> set[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        alive = {pid for pid in pids if not gone(pid)}
        if not alive:
            return alive
        time.sleep(0.05)
    return {pid for pid in pids if not gone(pid)}


def test_sigterm_stops_the_server_and_every_bot_worker(busy_server):
    server, workers = busy_server
    assert workers
    sent = time.monotonic()
    server.send_signal(signal.SIGTERM)
    server.wait(30)
    # The bots were given 5 s a move; what is left of it must not keep anything running.
    alive = wait_all_gone(workers, 3.0 - (time.monotonic() - sent))
    assert not alive, f"still running {time.monotonic() - sent:.1f} s after SIGTERM: {alive}"


def test_sigkill_of_the_server_leaves_no_bot_worker_behind(busy_server):
    server, workers = busy_server
    assert workers
    server.kill()
    server.wait(10)
    alive = wait_all_gone(workers, 3.0)
    assert not alive, f"still running 3 s after the server was killed: {alive}"
