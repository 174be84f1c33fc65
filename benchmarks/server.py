"""Server load: many concurrent tables of random players over real WebSockets on loopback.

Starts `ladytiger serve` as a subprocess on 127.0.0.1 (a fresh database, bots without a
pause, SQLite synchronous FULL as by default), creates N two-player tables of a workload's
game, and connects one WebSocket client per seat, each playing random legal moves; when a
game ends, seat 0 asks for a rematch and both seats go on to the new table (following it on
the same connection, or reconnecting in "doors-reconnect"), so N tables stay busy. Each
size is measured twice: paced (players think a random time, so that all tables together
offer `--rate` moves/s, 1,000 by default) and flat out (no thinking: the server's
ceiling). For each: moves acknowledged per second, and the median and 99th percentile of the
time from sending a move to receiving the view it produced; and the server's resident memory
per busy table. The load generator shares the machine's 2 cores with the server.

    python benchmarks/server.py                      # 100, 500 and 1,000 tables (~4 min)
    python benchmarks/server.py --sizes 50 --seconds 3 --no-write   # a quick look

With `--db postgresql://USER@HOST/DB` the servers keep their tables in that PostgreSQL
database (emptied before each size), and `--processes N` starts N server processes sharing
it: table i is made at process i mod N, and seat s of table i plays through process
(i + s) mod N, so every move's view crosses from one process to another. The report then
adds the database's cost per move: its transactions and its processes' CPU time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from benchmarks.report import write_section
from ladytiger.web import collector

VIEW_HEAD = re.compile(r'\{"type":"view","table":"[^"]*","version":(\d+),')
MY_TURN = '"your_turn":true'
QUIET = ('{"type":"ack"', '{"type":"presence"')
# Random Doors games last about six moves, so every second or so a table finishes and its
# two players go on to the rematch: they follow it on the same connection (the protocol's
# `follow`), or, in "doors-reconnect", close and open a new connection for every game, which
# adds a storm of new connections to the moves. Random 2-player Traps games last about 115
# moves: mostly moves. Each workload: (game, options, players follow rematches).
WORKLOADS: dict[str, tuple[str, dict[str, Any], bool]] = {
    "doors": ("doors", {"gems_to_win": 10}, True),
    "traps": ("traps", {"players": 2}, True),
    "doors-reconnect": ("doors", {"gems_to_win": 10}, False),
}
TARGET_TABLES, TARGET_MOVES, TARGET_P99_MS = 500, 1000.0, 50.0
RECONNECT_NOTE = (
    "Why reconnecting costs so much more than following: each new connection brings some 140 "
    "objects (the ASGI stack's coroutines, the WebSocket protocol, the session) that Python's "
    "collector scans while they are young; at some 300 new connections a second, the "
    "young generation's scans take tens of milliseconds each, and the moves waiting behind "
    "them make the tail. Following a rematch keeps a connection whose objects have long "
    "left the young generation (docs/protocol.md, \"Inside the server\")."
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int | list[int]) -> float:
    if isinstance(pid, list):
        return sum(cpu_seconds(one) for one in pid)
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:  # gone meanwhile (a database backend that ended)
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def postgres_pids() -> list[int]:
    """The PostgreSQL server's processes on this machine (the database is on it)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == "postgres":
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


class Database:
    """The PostgreSQL database of a run: emptied before each size, and its counters."""

    TABLES = ("tables", "seats", "actions", "players", "seat_players", "chat", "ratings",
              "processes")

    def __init__(self, url: str) -> None:
        self.url = url

    async def _run(self, query: str) -> Any:
        import asyncpg

        connection = await asyncpg.connect(self.url)
        try:
            return await connection.fetchval(query)
        finally:
            await connection.close()

    def empty(self) -> None:
        present = asyncio.run(self._run(
            "SELECT count(*) FROM pg_tables WHERE tablename = 'actions'"))
        if present:
            asyncio.run(self._run(f"TRUNCATE {', '.join(self.TABLES)}"))

    async def transactions(self) -> int:
        return int(await self._run(
            "SELECT xact_commit + xact_rollback FROM pg_stat_database "
            "WHERE datname = current_database()"))


class Load:
    """The shared counters of one run, and the players' mean thinking time."""

    def __init__(self) -> None:
        self.think = 0.0
        self.measuring = False
        self.stopping = False
        self.moves = 0
        self.latencies: list[float] = []
        self.games = 0
        self.errors: dict[str, int] = {}


async def play_seat(base: str, table_id: str, token: str, seat: int, load: Load,
                    rng: random.Random, pace: list[float], follow: bool) -> None:
    """Play one seat, going on to each rematch (`follow`ing it on the same connection, or
    reconnecting), until the run stops.

    Paced, a table's moves fall due on a clock of their own (`pace[0]`, shared by its two
    seats): the next move is due a random think time after the last one was due, whatever
    the latency, so the offered rate does not sink as latency grows (at most one second of
    backlog is kept)."""
    ws_base = "ws" + base.removeprefix("http")
    while not load.stopping:
        async with connect(f"{ws_base}/api/tables/{table_id}/ws", compression=None,
                           max_size=1 << 22, open_timeout=60) as socket_:
            await socket_.send(json.dumps({"type": "hello", "token": token}))
            sent_at: dict[int, float] = {}
            next_table = None
            try:
                async for raw in socket_:
                    assert isinstance(raw, str)
                    # The generator shares the cores with the server: it reads a message
                    # whole only when it must (its own turn, or a rare message).
                    if raw.startswith(QUIET):
                        continue
                    head = VIEW_HEAD.match(raw)
                    if head is not None:
                        version = int(head.group(1))
                        started = sent_at.pop(version - 1, None)
                        if started is not None and load.measuring:
                            load.latencies.append(time.perf_counter() - started)
                            load.moves += 1
                        if MY_TURN in raw and not load.stopping:
                            message = json.loads(raw)
                            move = rng.choice(message["legal_actions"])
                            if load.think:
                                now = time.perf_counter()
                                pace[0] = max(pace[0] + rng.uniform(0.0, 2.0 * load.think),
                                              now - 1.0)
                                if pace[0] > now:
                                    await asyncio.sleep(pace[0] - now)
                            sent_at[version] = time.perf_counter()
                            await socket_.send(json.dumps(
                                {"type": "action", "version": version, "action": move["id"]}))
                        continue
                    message = json.loads(raw)
                    kind = message["type"]
                    if kind == "end":
                        if load.measuring:
                            load.games += 1
                        if seat == 0:
                            await socket_.send(json.dumps({"type": "rematch", "ref": "again"}))
                    elif kind == "rematch" and message.get("ref") is None:
                        # Everyone at the table hears of the rematch (its asker also gets
                        # a reply, with the ref it sent, which is not counted twice).
                        if follow:
                            sent_at.clear()
                            await socket_.send('{"type":"follow"}')
                            continue
                        next_table = message["rematch"]
                        break
                    elif kind == "error":
                        load.errors[message["code"]] = load.errors.get(message["code"], 0) + 1
            except ConnectionClosed:
                return
        if next_table is None:
            return
        table_id = next_table


async def measure(load: Load, pid: list[int], seconds: float,
                  database: Database | None = None) -> dict[str, Any]:
    """Count moves, latencies and CPU over one window."""
    load.moves, load.games, load.latencies = 0, 0, []
    server_before, own_before = cpu_seconds(pid), cpu_seconds(os.getpid())
    database_pids = postgres_pids() if database is not None else []
    database_before = cpu_seconds(database_pids)
    transactions_before = await database.transactions() if database is not None else 0
    load.measuring = True
    started = time.perf_counter()
    await asyncio.sleep(seconds)
    load.measuring = False
    elapsed = time.perf_counter() - started
    moves = max(1, load.moves)
    database_cost = {}
    if database is not None:
        database_cost = {
            "database_ms_per_move": 1000 * (cpu_seconds(database_pids) - database_before)
            / moves,
            # The counting queries themselves are two of these.
            "transactions_per_move": (await database.transactions() - transactions_before - 2)
            / moves,
        }
    latencies = sorted(load.latencies)

    def ms(fraction: float) -> float:
        if not latencies:
            return float("nan")
        return latencies[int(fraction * (len(latencies) - 1))] * 1000

    server_cpu = cpu_seconds(pid) - server_before
    return {
        "moves_per_second": load.moves / elapsed,
        # Server CPU per move (games' set-up included): what a free core would allow.
        "server_ms_per_move": 1000 * server_cpu / max(1, load.moves),
        "median_ms": ms(0.5),
        "p99_ms": ms(0.99),
        "games_per_second": load.games / elapsed,
        "server_cpu": server_cpu / elapsed,
        "client_cpu": (cpu_seconds(os.getpid()) - own_before) / elapsed,
        **database_cost,
    }


async def run_size(bases: list[str], pids: list[int], workload: str, tables: int,
                   rate: float, warmup: float, seconds: float, seed: int,
                   database: Database | None = None) -> dict[str, Any]:
    """Paced at `rate` moves/s in all, then flat out, on `tables` busy tables."""
    load = Load()
    load.think = tables / rate
    rss_before = sum(rss_kib(pid) for pid in pids)
    made = []
    for index in range(tables):
        async with httpx.AsyncClient(base_url=bases[index % len(bases)], timeout=60) as http:
            game, options, _ = WORKLOADS[workload]
            response = await http.post("/api/tables", json={"game": game, "options": options})
            if response.status_code != 201:
                raise RuntimeError(f"table {index} could not be made: {response.status_code} "
                                   f"{response.text[:200]}")
            made.append(response.json())
    rng = random.Random(seed)
    follow = WORKLOADS[workload][2]
    opening = asyncio.Semaphore(100)

    async def seat_task(index: int, table: dict[str, Any], seat: int, pace: list[float]
                        ) -> None:
        async with opening:
            await asyncio.sleep(0)
        await play_seat(bases[(index + seat) % len(bases)], table["table"]["id"],
                        table["tokens"][str(seat)], seat, load,
                        random.Random(rng.getrandbits(32)), pace, follow)

    paces = [[time.perf_counter()] for _ in made]
    tasks = [asyncio.ensure_future(seat_task(index, t, s, pace))
             for index, (t, pace) in enumerate(zip(made, paces, strict=True)) for s in (0, 1)]
    await asyncio.sleep(warmup + load.think)
    rss_during = sum(rss_kib(pid) for pid in pids)
    paced = await measure(load, pids, seconds, database)
    load.think = 0.0
    await asyncio.sleep(warmup)
    flat_out = await measure(load, pids, seconds, database)
    load.stopping = True
    await asyncio.sleep(0.5)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {
        "workload": workload,
        "processes": len(pids),
        "store": "postgresql" if database is not None else "sqlite",
        "tables": tables,
        "load_average": os.getloadavg()[0],
        "offered": rate,
        "paced": paced,
        "flat_out": flat_out,
        "kib_per_table": (rss_during - rss_before) / tables,
        "errors": dict(load.errors),
    }


# The load generator is one address standing for every player of every table: the server's
# per-address quota of unfinished tables (20) and its creation rate would otherwise let only
# 20 of the tables exist, and a run would measure those.
LIFTED_LIMITS = ("--setting", "tables_per_client=1000000", "--setting", "creates_per_minute=1e9",
                 "--setting", "create_burst=1000000")


def start_server(database: str, port: int, synchronous: str, ws_impl: str
                 ) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "ladytiger.cli.main", "serve", "--db", database,
               "--host", "127.0.0.1", "--port", str(port), "--bot-pause", "0",
               "--log-level", "warning", "--synchronous", synchronous, "--ws-impl", ws_impl,
               *LIFTED_LIMITS]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server did not start")


def markdown(results: list[dict[str, Any]], seconds: float, synchronous: str) -> str:
    rate = results[0]["offered"] if results else TARGET_MOVES
    lines = [
        "## Server load",
        "",
        f"`benchmarks/server.py`: the real server (`ladytiger serve`, SQLite WAL with "
        f"synchronous {synchronous}, group commit) on 127.0.0.1, and one WebSocket client per "
        "seat, all in one load-generator process on the same 2 cores as the server. Each "
        "table is a game between two clients that play random legal moves; a finished game "
        "is followed by a rematch on a new table, which both clients follow on the same "
        "connection (the protocol's `follow` message), so the count of busy tables stays put. "
        "Three workloads: *doors* (gems_to_win=10), whose random games last about six moves, "
        "so that setting up the next table is a large part of the work; *traps* (2 players), "
        "whose random games last about 115 moves; and *doors-reconnect*, Doors again, but "
        "each client closes its connection after every game and opens a new one to the "
        "rematch, the worst case for a server: some 300 new WebSocket connections a second. "
        "Both processes tune Python's garbage collector as `ladytiger serve` does "
        "(`ladytiger.web.collector`). Latency: from sending a move to "
        "receiving the view it produced. Each size is measured twice, over "
        f"{seconds:g} s each: *paced*, each player thinking a random time so that the tables "
        f"together offer {rate:g} moves/s, and *flat out*, every player moving the moment its "
        "view arrives (the server's ceiling; latency is then queueing). Memory: growth of "
        "the server's resident memory per busy table, its two connections included. Server "
        "CPU per move counts everything the server did in the flat-out window (games' set-up "
        "and rematches included) over the moves played: one free core would allow about "
        "1000 / that many moves a second.",
        "",
        "| workload | tables | paced moves/s | median ms | p99 ms | flat-out moves/s | median ms | "
        "p99 ms | server CPU (flat out) | server CPU ms/move | KiB/table |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in results:
        p, f = r["paced"], r["flat_out"]
        lines.append(
            f"| {r['workload']} | {r['tables']} | {p['moves_per_second']:.0f} | "
            f"{p['median_ms']:.1f} | "
            f"{p['p99_ms']:.1f} | {f['moves_per_second']:.0f} | {f['median_ms']:.0f} | "
            f"{f['p99_ms']:.0f} | {f['server_cpu']:.0%} | {f['server_ms_per_move']:.2f} | "
            f"{r['kib_per_table']:.0f} |"
        )
    lines += target_lines(results)
    if any(r["workload"] == "doors-reconnect" for r in results):
        lines += ["", RECONNECT_NOTE]
    return "\n".join(lines)


def target_lines(results: list[dict[str, Any]]) -> list[str]:
    """Whether each run at the target's table count met it (paced moves/s and p99)."""
    lines: list[str] = []
    for target in (r for r in results if r["tables"] == TARGET_TABLES):
        paced = target["paced"]
        met = paced["moves_per_second"] >= 0.95 * TARGET_MOVES and paced["p99_ms"] < (
            TARGET_P99_MS)
        lines += ["", f"Target at {TARGET_TABLES} tables, {target['workload']}: "
                  f"{TARGET_MOVES:.0f} moves/s with p99 under {TARGET_P99_MS:.0f} ms: "
                  + ("met." if met else "**not met**.")]
    return lines


def postgres_markdown(results: list[dict[str, Any]], seconds: float) -> str:
    processes = results[0]["processes"] if results else 1
    lines = [
        f"## Server load on PostgreSQL, {processes} process{'es' if processes > 1 else ''}",
        "",
        f"`benchmarks/server.py --db postgresql://... --processes {processes}`: as above, but "
        f"{processes} `ladytiger serve` process{'es keep' if processes > 1 else ' keeps'} the "
        "tables in one PostgreSQL database on the same machine (synchronous_commit on: a move "
        "is acknowledged once its commit is flushed). "
        + ("Seat s of table i plays through process (i + s) mod N, so every view of a move "
           "crosses to the other process by the database's notice. " if processes > 1 else "")
        + f"Windows of {seconds:g} s. Database cost: the database's processes' CPU time and "
        "its transactions (reads of other processes included) per move played.",
        "",
        "| workload | tables | paced moves/s | median ms | p99 ms | flat-out moves/s | median ms | "
        "p99 ms | servers' CPU ms/move | database CPU ms/move | transactions/move |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in results:
        p, f = r["paced"], r["flat_out"]
        lines.append(
            f"| {r['workload']} | {r['tables']} | {p['moves_per_second']:.0f} | "
            f"{p['median_ms']:.1f} | {p['p99_ms']:.1f} | {f['moves_per_second']:.0f} | "
            f"{f['median_ms']:.0f} | {f['p99_ms']:.0f} | {f['server_ms_per_move']:.2f} | "
            f"{f.get('database_ms_per_move', float('nan')):.2f} | "
            f"{f.get('transactions_per_move', float('nan')):.2f} |"
        )
    lines += target_lines(results)
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100,500,1000", help="table counts, comma-separated")
    parser.add_argument("--workloads", default="doors,traps,doors-reconnect",
                        help=f"comma-separated, of: {', '.join(WORKLOADS)}")
    parser.add_argument("--seconds", type=float, default=10.0, help="measuring window per size")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ws-impl", default="auto", help="uvicorn WebSocket implementation")
    parser.add_argument("--rate", type=float, default=TARGET_MOVES,
                        help="moves/s the paced players offer in all")
    parser.add_argument("--synchronous", default="FULL", help="SQLite synchronous of the server")
    parser.add_argument("--no-write", action="store_true", help="do not touch performance.md")
    parser.add_argument("--db", default=None,
                        help="a postgresql:// URL: the servers share this database (its "
                        "ladytiger tables are emptied before each size); default: a new "
                        "SQLite file")
    parser.add_argument("--processes", type=int, default=1,
                        help="server processes sharing the database (PostgreSQL only)")
    args = parser.parse_args()
    if args.processes < 1 or (args.processes > 1 and args.db is None):
        parser.error("--processes above 1 needs --db postgresql://...")
    sizes = [int(s) for s in args.sizes.split(",")]
    results = []
    busy = os.getloadavg()[0]
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    # The load generator holds as many connections as the server: untuned, its own
    # collector pauses would be counted as the server's latency.
    collector.tune_for_server()
    for workload, size in [(w, n) for w in args.workloads.split(",") for n in sizes]:
        if workload not in WORKLOADS:
            parser.error(f"unknown workload {workload!r}; the workloads are: "
                         + ", ".join(WORKLOADS))
        database = Database(args.db) if args.db else None
        with tempfile.TemporaryDirectory() as folder:
            if database is not None:
                database.empty()
            where = args.db or str(Path(folder) / "bench.sqlite3")
            ports = [free_port() for _ in range(args.processes)]
            servers = [start_server(where, port, args.synchronous, args.ws_impl)
                       for port in ports]
            try:
                result = asyncio.run(asyncio.wait_for(
                    run_size([f"http://127.0.0.1:{port}" for port in ports],
                             [server.pid for server in servers], workload, size, args.rate,
                             args.warmup, args.seconds, args.seed, database),
                    timeout=2 * (args.warmup + args.seconds) + size / args.rate + 180,
                ))
            finally:
                for server in servers:
                    server.terminate()
                for server in servers:
                    server.wait(30)
        results.append(result)
        print(json.dumps(result), flush=True)
    if args.db is not None:
        text = postgres_markdown(results, args.seconds)
    else:
        text = markdown(results, args.seconds, args.synchronous)
    text += (f"\n\nMachine load average when the run started: {busy:.2f} (2 cores; "
             "other work on the machine takes from the server's share).")
    print(text)
    if not args.no_write:
        write_section("server" if args.db is None else f"server-postgres-{args.processes}",
                      text)


if __name__ == "__main__":
    main()
