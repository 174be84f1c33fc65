"""Server soak: well-behaved play under abuse, a SIGKILL and a restart, then durability checks.

Starts `ladytiger serve` (default settings, bots without a pause) on a fresh database and a
free port of 127.0.0.1, and for `--minutes` runs at the same time:

- the well-behaved load: `--tables` tables of all seven games (short options where a game has
  them, various player counts, some with a random bot seat), each human seat played by a
  WebSocket client that thinks a random short time before each random legal move (together
  about `--rate` moves/s) and follows the table's rematch when a game ends;
- slow readers: spectators that say hello and then stop reading, on busy tables, renewed;
- reconnect storms: bursts of clients that connect with a seat token, say hello and leave;
- spectator swarms: a few hundred spectators joining one table at once, then leaving;
- table-creation floods: bursts of anonymous `POST /api/tables`, as fast as they are answered;
- replay uploads: clients posting a Labyrinth record of some 2,000 moves to `/api/replay`;
- a SIGKILL of the server half-way through, and a restart on the same database and port,
  after which every client reconnects with its token and carries on.

It reports moves acknowledged per second, the move latency of the well-behaved players (from
sending a move to receiving the view it produced, overall and in the minute after the
restart), every outcome of every load counted by kind (HTTP status and error code, WebSocket
error and close codes, connection failures), and the server's resident memory over time.
After stopping the server with SIGTERM it checks, on the database, that every acknowledged
move is there and that every table has ended or still replays through the rules; it exits
with status 1 when a check fails.

Each well-behaved table's clients connect from an address of their own in 127.0.0.0/8 (all
of it is loopback on Linux), and each abusive load from another, so that per-address limits
of the server throttle the abuse, as they would on the internet, and not the players.

    python benchmarks/soak.py                            # 10 minutes, 200 tables
    python benchmarks/soak.py --minutes 1 --tables 40    # a quick look
    python benchmarks/soak.py --replayers 0 --swarm 0    # without some of the abuse (0: off)
    python benchmarks/soak.py --serve-arg=--synchronous --serve-arg=NORMAL   # serve options
    python benchmarks/soak.py --write                    # and update docs/performance.md
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import json
import math
import os
import random
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

import ladytiger
from benchmarks.report import write_section
from benchmarks.server import MY_TURN, VIEW_HEAD, cpu_seconds, free_port, rss_kib
from ladytiger.core import CHANCE
from ladytiger.core.playout import random_step
from ladytiger.core.record import to_record
from ladytiger.web import collector
from ladytiger.web.protocol import MAX_BODY_BYTES

GAMES = ("doors", "favor", "hoard", "labyrinth", "traps", "tighee", "shady_lady")
# The options that shorten a game, where the game has them (as the server tests use them):
# short games bring rematches, and with them new tables, often.
SHORT_OPTIONS = {"gems_to_win": 3, "turn_cap": 40, "max_seasons": 2, "turn_limit": 40}
# Games whose random games last long enough (and whose views are big enough) for a slow
# reader or a swarm to meet a busy table rather than one about to end.
LONG_GAMES = ("favor", "labyrinth", "tighee")
MAX_PLAYERS = 4  # more seats would only add connections of the same kind
BOT_SHARE = 0.3  # tables with one random bot seat
# A human looks at the result a moment before asking for a rematch; without the pause, a table
# of short games would make new tables faster than people ever do.
REMATCH_PAUSE = (2.0, 4.0)
RAMP = 5.0  # seconds over which the well-behaved players first connect
MIN_THINK = 0.2  # seconds a player thinks on average at the least, whatever `--rate` asks
# The long record of the replay uploads: random Labyrinth with a higher turn cap lasts some
# 2,000 history entries, about 62 KB of JSON, just under the server's body limit.
REPLAY_TURN_CAP = 1000
QUIET = ('{"type":"presence"', '{"type":"pong"')
END_HEAD = re.compile(r'\{"type":"end","table":"([^"]*)"')
EXCEPTION_LINE = re.compile(r"^[\w.]*(Error|Exception|Exit)\b.*:")
SLOW_READER_BUFFER = 4096  # bytes of SO_RCVBUF for a spectator that stops reading
LATENCY_WINDOW = 60.0  # seconds after the restart whose latency is reported on its own
ORPHAN_GRACE = 5.0  # seconds a killed server's worker processes get to notice and leave

# One source address per kind of abuse; the well-behaved tables use 127.1.x.y.
ADDRESSES = {
    "flood": "127.0.0.2",
    "replay": "127.0.0.3",
    "storm": "127.0.0.4",
    "swarm": "127.0.0.5",
    "slow": "127.0.0.6",
}
SOURCES = ("players", "slow readers", "storms", "swarms", "floods", "replays", "server")


# ---------------------------------------------------------------------------- the run's state
@dataclass
class Slot:
    """One well-behaved table, followed from rematch to rematch by its seats' clients."""

    index: int
    address: str
    game: str
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    tokens: dict[int, str]
    table_id: str
    asker: int  # the human seat that asks for each rematch
    pace: list[float] = field(default_factory=lambda: [time.perf_counter()])


class Soak:
    """Everything the loads share: the plan, the server, the clock and the tallies."""

    def __init__(self, args: argparse.Namespace, folder: Path) -> None:
        self.args = args
        self.seconds = args.minutes * 60.0
        self.database = folder / "soak.sqlite3"
        self.log_path = folder / "server.log"
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self.rng = random.Random(args.seed)
        self.spread = addresses_usable()
        self.think = max(args.tables / args.rate, MIN_THINK)
        self.server: subprocess.Popen[bytes] | None = None
        self.started: list[subprocess.Popen[bytes]] = []
        self.server_cpu = 0.0
        self.t0 = time.monotonic()
        self.deadline = self.t0 + self.seconds
        self.stopping = False
        self.down = False
        self.killed_at: float | None = None
        self.listening_again_at: float | None = None
        self.ready_again_at: float | None = None
        self.slots: list[Slot] = []
        self.tasks: set[asyncio.Task[Any]] = set()
        self.outcomes: Counter[tuple[str, str]] = Counter()
        self.latencies: list[tuple[float, float]] = []  # (when received, seconds)
        self.ack_times: list[float] = []
        self.acks: dict[str, dict[int, int]] = {}  # table -> version -> action id
        self.ended: set[str] = set()  # tables whose game ended
        self.rss: list[tuple[float, int, int]] = []  # (seconds into the run, server run, KiB)
        # (when the visit began, seconds until its welcome), of storms and swarms
        self.welcome_times: dict[str, list[tuple[float, float]]] = {"storms": [], "swarms": []}
        self.swarms: list[tuple[str, int, int]] = []  # (game, welcomed, spectators sent)
        self.events: list[tuple[float, str]] = []  # (seconds into the run, what began)
        self.replay_times: list[float] = []

    # ---------------------------------------------------------------- clock
    def now(self) -> float:
        return time.monotonic() - self.t0

    def running(self) -> bool:
        return not self.stopping and time.monotonic() < self.deadline

    def rounds(self, limit: int) -> Iterator[int]:
        """At most `limit` turns of a loop, and none once the run is over."""
        for turn in range(limit):
            if not self.running():
                return
            yield turn

    def address(self, kind: str) -> str:
        return ADDRESSES[kind] if self.spread else "127.0.0.1"

    @property
    def generation(self) -> int:
        """Which run of the server is the current one (1, then 2 after the restart)."""
        return len(self.started)

    # ---------------------------------------------------------------- tallies
    def event(self, what: str) -> None:
        self.events.append((self.now(), what))

    def count(self, source: str, kind: str, since: int | None = None) -> None:
        """Count one outcome; `since` is the server run a failed connection was opened in."""
        # Failures while the server is down, or of connections the killed server held, are
        # the kill's doing, not the server's (a client may only notice after the restart).
        killed = self.down or (since is not None and since != self.generation)
        if killed and is_connection_trouble(kind):
            kind += " (server killed)"
        self.outcomes[source, kind] += 1

    def acknowledged(self, table_id: str, version: int, action: int) -> None:
        self.acks.setdefault(table_id, {})[version] = action
        self.ack_times.append(self.now())

    def spawn(self, work: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            error = task.exception()
            first = str(error).strip().splitlines()[:1]
            self.count("load generator", f"crashed: {type(error).__name__}: {''.join(first)}")

    def long_table(self) -> Slot:
        """A random well-behaved table of a long game (its current table is `table_id`)."""
        chosen = [slot for slot in self.slots if slot.game in LONG_GAMES]
        return self.rng.choice(chosen or self.slots)


def addresses_usable() -> bool:
    """Whether this machine routes all of 127.0.0.0/8 to itself (Linux does)."""
    try:
        with socket.socket() as probe:
            probe.bind(("127.1.0.1", 0))
        return True
    except OSError:
        return False


def slot_address(soak: Soak, index: int) -> str:
    return f"127.1.{index // 250}.{index % 250 + 1}" if soak.spread else "127.0.0.1"


def is_connection_trouble(kind: str) -> bool:
    return kind.startswith(("close", "connect", "handshake", "timeout", "httpx"))


def failure_kind(error: BaseException) -> str:
    """A short name for why a connection or a request failed."""
    if isinstance(error, ConnectionClosed):
        return f"close {error.rcvd.code if error.rcvd is not None else 1006}"
    if isinstance(error, InvalidStatus):
        return f"handshake refused HTTP {error.response.status_code}"
    if isinstance(error, InvalidHandshake):
        return f"handshake failed: {type(error).__name__}"
    if isinstance(error, ConnectionRefusedError):
        return "connect refused"
    if isinstance(error, TimeoutError):
        return "timeout"
    if isinstance(error, OSError):
        return f"connect failed: {errno.errorcode.get(error.errno or 0, error.errno)}"
    if isinstance(error, httpx.HTTPError):
        return f"httpx {type(error).__name__}"
    return f"{type(error).__name__}"


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[int(fraction * (len(ordered) - 1))]


# ---------------------------------------------------------------------------- the server
def launch(soak: Soak) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "ladytiger.cli.main", "serve", "--db", str(soak.database),
               "--host", "127.0.0.1", "--port", str(soak.port), "--bot-pause", "0",
               "--log-level", "warning", *soak.args.serve_arg]
    with soak.log_path.open("ab") as log:
        # A session of its own, so that the bot workers it spawns can be found (and ended)
        # after the server itself is killed.
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    soak.started.append(process)
    return process


async def wait_ready(soak: Soak, process: subprocess.Popen[bytes], timeout: float = 60.0
                     ) -> float:
    """Wait until the server answers; returns when (run time) it first accepted a connection,
    which it does once it has restored its tables."""
    listening = None
    async with httpx.AsyncClient(base_url=soak.base, timeout=1.0) as http:
        for _ in range(int(timeout / 0.05)):
            if process.poll() is not None:
                break
            if listening is None:
                with contextlib.suppress(OSError):
                    _, writer = await asyncio.open_connection("127.0.0.1", soak.port)
                    writer.close()
                    listening = soak.now()
            if listening is not None:
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get("/api")).status_code == 200:
                        return listening
            await asyncio.sleep(0.05)
    raise RuntimeError(f"the server did not start (exit status {process.poll()}); its error is "
                       "under Server log")


def leftovers(process: subprocess.Popen[bytes]) -> list[int]:
    """Processes still in a (dead) server's session: bot workers it left behind."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == process.pid and fields[0] != "Z":  # its process group
            found.append(int(entry.name))
    return found


async def kill_and_restart(soak: Soak) -> None:
    """SIGKILL the server in the middle of the run, then start it again on the same
    database and port."""
    await asyncio.sleep(max(0.0, soak.t0 + soak.seconds / 2 - time.monotonic()))
    process = soak.server
    if process is None or soak.stopping:
        return
    soak.server_cpu += cpu_seconds(process.pid)
    soak.down = True
    soak.killed_at = soak.now()
    soak.event("SIGKILL")
    process.kill()
    await asyncio.to_thread(process.wait, 30)
    soak.spawn(look_for_orphans(soak, process, "killed"))
    soak.server = launch(soak)
    soak.listening_again_at = await wait_ready(soak, soak.server)
    soak.ready_again_at = soak.now()
    soak.event("restarted")
    soak.down = False


async def look_for_orphans(soak: Soak, process: subprocess.Popen[bytes], how: str) -> None:
    """A dead server's helper processes (bot workers) should leave by themselves soon."""
    orphans: list[int] = []
    for _ in range(int(ORPHAN_GRACE / 0.25)):
        await asyncio.sleep(0.25)
        orphans = leftovers(process)
        if not orphans:
            return
    names = sorted({command_of(pid) for pid in orphans})
    soak.count("server", f"processes of the {how} server still running {ORPHAN_GRACE:g} s "
               f"later: {len(orphans)} ({'; '.join(names)})")
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


def command_of(pid: int) -> str:
    try:
        words = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return "?"
    return " ".join(w.decode(errors="replace") for w in words if w)[:80]


async def sample_memory(soak: Soak) -> None:
    def sample() -> None:
        process = soak.server
        if process is not None and not soak.down and process.poll() is None:
            with contextlib.suppress(OSError):
                soak.rss.append((soak.now(), len(soak.started), rss_kib(process.pid)))

    for _ in soak.rounds(100_000):
        sample()
        left = soak.deadline - time.monotonic() - 0.5
        if left < soak.args.sample_every:
            await asyncio.sleep(max(0.0, left))
            break
        await asyncio.sleep(soak.args.sample_every)
    sample()  # the last, just before the end


# ---------------------------------------------------------------------------- tables
def table_plan(soak: Soak, index: int) -> tuple[str, dict[str, Any], list[dict[str, Any]]]:
    """The game, options and seats of well-behaved table `index`: the games in turn, each
    with its player counts in turn, and a random bot in some seats."""
    game = GAMES[index % len(GAMES)]
    info = next(i for i in ladytiger.registered_games() if i.name == game)
    names = {option.name for option in info.all_options()}
    options = {name: value for name, value in SHORT_OPTIONS.items() if name in names}
    counts = list(range(info.min_players, min(info.max_players, MAX_PLAYERS) + 1))
    players = counts[(index // len(GAMES)) % len(counts)]
    options["players"] = players
    seats: list[dict[str, Any]] = [{"kind": "human"} for _ in range(players)]
    if players > 1 and soak.rng.random() < BOT_SHARE:
        seats[soak.rng.randrange(1, players)] = {"kind": "bot", "bot": "random"}
    return game, options, seats


async def create_slots(soak: Soak) -> None:
    """Create every well-behaved table, each from its own address, before any abuse."""
    gate = asyncio.Semaphore(8)

    async def create(index: int) -> Slot:
        game, options, seats = table_plan(soak, index)
        address = slot_address(soak, index)
        transport = httpx.AsyncHTTPTransport(local_address=address)
        async with gate, httpx.AsyncClient(base_url=soak.base, timeout=30,
                                           transport=transport) as http:
            response = await http.post("/api/tables",
                                       json={"game": game, "options": options, "seats": seats})
        if response.status_code != 201:
            raise RuntimeError(f"table {index} ({game}) was refused: {response.status_code} "
                               f"{response.text}; pass serve options with --serve-arg")
        made = response.json()
        tokens = {int(seat): token for seat, token in made["tokens"].items()}
        return Slot(index, address, game, options, seats, tokens, made["table"]["id"],
                    asker=min(tokens))

    soak.slots = list(await asyncio.gather(*(create(i) for i in range(soak.args.tables))))


# ---------------------------------------------------------------------------- players
async def play_seat(soak: Soak, slot: Slot, seat: int, rng: random.Random) -> None:
    """Play one seat of a well-behaved table, from rematch to rematch, reconnecting with the
    seat's token whenever the connection is lost, until the run ends."""
    table_id = slot.table_id
    failures = 0
    # Players arrive over the first seconds, as people do, rather than in one storm.
    await asyncio.sleep(rng.uniform(0.0, min(RAMP, soak.seconds / 10)))
    for _ in soak.rounds(100_000):
        since = soak.generation
        try:
            async with connect(f"{soak.ws_base}/api/tables/{table_id}/ws", compression=None,
                               max_size=1 << 23, open_timeout=15, close_timeout=2,
                               local_addr=(slot.address, 0)) as socket_:
                await socket_.send(json.dumps({"type": "hello", "token": slot.tokens[seat]}))
                table_id = await play_connection(soak, slot, seat, rng, socket_, table_id)
                failures = 0
                if table_id is None:
                    return
                if soak.running():
                    soak.count("players", f"close {socket_.close_code}", since)
        except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as error:
            if not soak.running():
                return
            soak.count("players", failure_kind(error), since)
            failures += 1
        # Clients back off, with jitter, so a restarted server is not met by a stampede.
        await asyncio.sleep(rng.uniform(0.5, 1.0) * min(2.0, 0.1 * 2 ** min(failures, 5)))


async def play_connection(soak: Soak, slot: Slot, seat: int, rng: random.Random,
                          socket_: ClientConnection, table_id: str) -> str | None:
    """Read one connection's messages and answer them; returns the table to reconnect to
    (None: stop playing this seat)."""
    sent_at: dict[int, float] = {}
    following = False
    retries = 0  # of refused rematches and follows on this connection
    async for raw in socket_:
        if not soak.running():
            return None
        assert isinstance(raw, str)
        # The load generator shares the cores with the server: a message is read whole only
        # when it must be (its own turn, or a rare message), as benchmarks/server.py does.
        if raw.startswith(QUIET):
            continue
        head = VIEW_HEAD.match(raw)
        if head is not None:
            version = int(head.group(1))
            started = sent_at.pop(version - 1, None)
            if started is not None:
                soak.latencies.append((soak.now(), time.perf_counter() - started))
            if MY_TURN in raw:
                move = rng.choice(json.loads(raw)["legal_actions"])
                await think(soak, slot, rng)
                if not soak.running():
                    return None
                sent_at[version] = time.perf_counter()
                await socket_.send(json.dumps(
                    {"type": "action", "version": version, "action": move["id"]}))
            continue
        end = END_HEAD.match(raw)
        if end is not None:
            # A reconnection to a finished table whose rematch exists is followed at once:
            # that table's end, which comes after, asks for nothing.
            if end.group(1) != table_id or following:
                continue
            soak.ended.add(table_id)
            if seat == slot.asker:
                await asyncio.sleep(rng.uniform(*REMATCH_PAUSE))
                await socket_.send('{"type":"rematch","ref":"again"}')
            continue
        message = json.loads(raw)
        kind = message["type"]
        if kind == "ack":
            soak.acknowledged(message["table"], message["version"], message["action"])
        elif kind == "welcome":
            info = message["table"]
            table_id = slot.table_id = info["id"]
            following = False
            sent_at.clear()
            if info["status"] == "finished" and info.get("rematch"):
                # Back after losing the connection: the rematch was announced meanwhile.
                following = True
                await socket_.send('{"type":"follow","ref":"follow"}')
        elif kind == "rematch":
            if message["table"] == table_id and not following:
                following = True
                await socket_.send('{"type":"follow","ref":"follow"}')
        elif kind == "error":
            code = message.get("code")
            soak.count("players", f"error {code}")
            if code in ("unauthorized", "unknown_table"):
                return None  # the server lost the seat or the table: the checks will tell
            ref = message.get("ref")
            if ref in ("again", "follow") and retries < 20:
                # A refused rematch or follow is asked again a little later, as a person
                # would press the button again.
                retries += 1
                await asyncio.sleep(rng.uniform(1.0, 3.0))
                kind = "rematch" if ref == "again" else "follow"
                await socket_.send(json.dumps({"type": kind, "ref": ref}))
    return table_id


async def think(soak: Soak, slot: Slot, rng: random.Random) -> None:
    """Wait until this table's next move falls due. The moves of a table fall due on a clock
    of their own, a random think time apart whatever the latency, so the offered rate does
    not sink as latency grows (at most a second of backlog is kept)."""
    now = time.perf_counter()
    slot.pace[0] = max(slot.pace[0] + rng.uniform(0.0, 2.0 * soak.think), now - 1.0)
    if slot.pace[0] > now:
        await asyncio.sleep(slot.pace[0] - now)


# ---------------------------------------------------------------------------- abuse
async def slow_readers(soak: Soak) -> None:
    """Keep `--slow-readers` spectators on busy tables that say hello and never read again;
    each is replaced when its life is over."""
    life = min(60.0, soak.seconds / 3)
    alive = [0]

    async def one(table_id: str) -> None:
        alive[0] += 1
        try:
            await slow_reader(soak, table_id, soak.rng.uniform(0.5, 1.0) * life)
        finally:
            alive[0] -= 1

    # Newcomers arrive about as fast as readers' lives end, so some are always fresh.
    for _ in soak.rounds(100_000):
        if alive[0] < soak.args.slow_readers:
            soak.spawn(one(soak.long_table().table_id))
        await asyncio.sleep(life / 2 / max(1, soak.args.slow_readers))


async def slow_reader(soak: Soak, table_id: str, life: float) -> None:
    loop = asyncio.get_running_loop()
    since = soak.generation
    raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    # A small receive window: the server's writes back up after a few messages.
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, SLOW_READER_BUFFER)
    raw.setblocking(False)
    try:
        raw.bind((soak.address("slow"), 0))
        await asyncio.wait_for(loop.sock_connect(raw, ("127.0.0.1", soak.port)), 10)
        # One message held at most: beyond it the client stops reading from the socket, and
        # it sends no pings (whose answers it would not read).
        socket_ = await connect(f"{soak.ws_base}/api/tables/{table_id}/ws", sock=raw,
                                compression=None, max_queue=1, ping_interval=None,
                                open_timeout=10, close_timeout=1, max_size=1 << 23)
    except (OSError, InvalidHandshake, TimeoutError) as error:
        raw.close()
        soak.count("slow readers", failure_kind(error), since)
        return
    try:
        await socket_.send('{"type":"hello"}')
        await asyncio.sleep(max(0.0, min(life, soak.deadline - time.monotonic())))
        soak.count("slow readers", await drained(socket_, 5.0), since)
    except ConnectionClosed as error:
        soak.count("slow readers", failure_kind(error), since)
    finally:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(socket_.close(), 2)


async def drained(socket_: ClientConnection, seconds: float) -> str:
    """Read what is waiting to learn whether the server closed the connection meanwhile."""
    end = time.monotonic() + seconds
    try:
        for _ in range(100_000):
            remaining = end - time.monotonic()
            if remaining <= 0:
                break
            await asyncio.wait_for(socket_.recv(), remaining)
    except TimeoutError:
        pass
    except ConnectionClosed as error:
        return failure_kind(error)
    return "still open at the end of its life"


async def reconnect_storms(soak: Soak) -> None:
    """Every so often, bursts of clients that connect with a seat token, say hello, get
    their welcome and view, and leave."""
    period = min(20.0, soak.seconds / 5)
    await asyncio.sleep(period / 2)
    gate = asyncio.Semaphore(50)

    async def one(slot: Slot) -> None:
        async with gate:
            seat = soak.rng.choice(list(slot.tokens))
            await visit(soak, "storms", slot.table_id, slot.tokens[seat], hold=0.0)

    for _ in soak.rounds(10_000):
        soak.event("storm")
        for _ in range(soak.args.storm_rounds):
            if not soak.running():
                return
            chosen = [soak.rng.choice(soak.slots) for _ in range(soak.args.storm)]
            await asyncio.gather(*(one(slot) for slot in chosen))
        await asyncio.sleep(period)


async def spectator_swarms(soak: Soak) -> None:
    """Every so often, a few hundred spectators join one busy table at once, watch a few
    seconds, and leave."""
    period = min(60.0, soak.seconds / 3)
    await asyncio.sleep(period / 3)
    for _ in soak.rounds(10_000):
        slot = soak.long_table()
        hold = min(5.0, period / 4)
        before = soak.outcomes["swarms", "welcomed"]
        soak.event("swarm")
        await asyncio.gather(*(visit(soak, "swarms", slot.table_id, None, hold)
                               for _ in range(soak.args.swarm)))
        welcomed = soak.outcomes["swarms", "welcomed"] - before
        soak.swarms.append((f"{slot.game} {slot.options['players']}p", welcomed,
                            soak.args.swarm))
        await asyncio.sleep(period)


async def visit(soak: Soak, source: str, table_id: str, token: str | None, hold: float) -> None:
    """Connect, say hello, wait for the welcome, read for `hold` seconds, leave."""
    hello: dict[str, Any] = {"type": "hello"}
    if token is not None:
        hello["token"] = token
    started = time.perf_counter()
    began = soak.now()
    since = soak.generation
    address = soak.address("storm" if source == "storms" else "swarm")
    try:
        async with connect(f"{soak.ws_base}/api/tables/{table_id}/ws", compression=None,
                           max_size=1 << 23, open_timeout=15, close_timeout=2,
                           local_addr=(address, 0)) as socket_:
            await socket_.send(json.dumps(hello))
            first = json.loads(await asyncio.wait_for(socket_.recv(), 15))
            if first.get("type") != "welcome":
                soak.count(source, f"error {first.get('code')}", since)
                return
            soak.welcome_times[source].append((began, time.perf_counter() - started))
            await asyncio.wait_for(socket_.recv(), 15)  # the view
            end = time.monotonic() + hold
            with contextlib.suppress(TimeoutError):
                for _ in range(100_000):
                    if time.monotonic() >= end:
                        break
                    await asyncio.wait_for(socket_.recv(), max(0.0, end - time.monotonic()))
            soak.count(source, "welcomed")
    except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as error:
        soak.count(source, failure_kind(error), since)


def http_client(soak: Soak, kind: str, connections: int) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(
        local_address=soak.address(kind),
        limits=httpx.Limits(max_connections=connections, max_keepalive_connections=connections),
    )
    return httpx.AsyncClient(base_url=soak.base, timeout=30, transport=transport)


def answer_kind(response: httpx.Response) -> str:
    code = None
    with contextlib.suppress(ValueError, AttributeError):
        code = response.json().get("error", {}).get("code")
    return f"HTTP {response.status_code}" + (f" {code}" if code else "")


async def creation_floods(soak: Soak) -> None:
    """Every so often, a burst of anonymous table creations, as fast as they are answered
    (16 at a time), for a few seconds or `--flood` requests."""
    period = min(30.0, soak.seconds / 4)
    await asyncio.sleep(period / 4)
    body = {"game": "doors"}
    async with http_client(soak, "flood", 16) as http:

        async def worker(until: float, budget: list[int]) -> None:
            for _ in range(soak.args.flood):
                if budget[0] <= 0 or time.monotonic() >= until or not soak.running():
                    return
                budget[0] -= 1
                since = soak.generation
                try:
                    response = await http.post("/api/tables", json=body)
                    soak.count("floods", answer_kind(response))
                except httpx.HTTPError as error:
                    soak.count("floods", failure_kind(error), since)
                    await asyncio.sleep(0.1)

        for _ in soak.rounds(10_000):
            until = time.monotonic() + min(3.0, period / 3)
            soak.event("flood")
            budget = [soak.args.flood]
            await asyncio.gather(*(worker(until, budget) for _ in range(16)))
            await asyncio.sleep(period)


def long_record(seed: int) -> dict[str, Any]:
    """A random Labyrinth game of about 2,000 history entries, as a record that fits in one
    request body."""
    turn_cap = REPLAY_TURN_CAP
    for _ in range(20):
        rng = random.Random(seed)
        state = ladytiger.load_game("labyrinth", turn_cap=turn_cap).new_initial_state()
        for _ in range(100_000):
            if state.is_terminal():
                break
            state.apply_action(random_step(state, rng))
        record = to_record(state, {"soak": True})
        if len(json.dumps({"record": record, "step": 0, "viewer": None})) < MAX_BODY_BYTES:
            return record
        turn_cap = turn_cap * 9 // 10
    raise RuntimeError("no Labyrinth record fits in a request body")


async def replay_uploads(soak: Soak, record: dict[str, Any]) -> None:
    """`--replayers` clients posting the long record to /api/replay, one request after
    another: the whole list of steps, or one seat's view at a random step."""
    moves = len(record["history"])
    async with http_client(soak, "replay", soak.args.replayers) as http:

        async def client(rng: random.Random) -> None:
            for _ in soak.rounds(1_000_000):
                body: dict[str, Any] = {"record": record}
                if rng.random() < 0.5:
                    body.update(step=rng.randrange(moves + 1), viewer=rng.choice([None, 0, 1]))
                started = time.perf_counter()
                since = soak.generation
                try:
                    response = await http.post("/api/replay", json=body)
                except httpx.HTTPError as error:
                    soak.count("replays", failure_kind(error), since)
                    await asyncio.sleep(0.2)
                    continue
                soak.count("replays", answer_kind(response))
                if response.status_code == 200:
                    soak.replay_times.append(time.perf_counter() - started)
                else:
                    # A refused client does not hammer: it would only cost this machine's
                    # cores, which the server shares.
                    await asyncio.sleep(0.2)

        await asyncio.gather(*(client(random.Random(soak.rng.getrandbits(32)))
                               for _ in range(soak.args.replayers)))


# ---------------------------------------------------------------------------- the run
async def run(soak: Soak) -> None:
    soak.server = launch(soak)
    await wait_ready(soak, soak.server)
    record = long_record(soak.args.seed)
    await create_slots(soak)
    soak.t0 = time.monotonic()
    soak.deadline = soak.t0 + soak.seconds
    for slot in soak.slots:
        for seat in slot.tokens:
            soak.spawn(play_seat(soak, slot, seat, random.Random(soak.rng.getrandbits(32))))
    args = soak.args
    loads: list[tuple[float, Callable[[], Coroutine[Any, Any, None]]]] = [
        (1, lambda: sample_memory(soak)),
        (1, lambda: kill_and_restart(soak)),
        (args.slow_readers, lambda: slow_readers(soak)),
        (args.storm * args.storm_rounds, lambda: reconnect_storms(soak)),
        (args.swarm, lambda: spectator_swarms(soak)),
        (args.flood, lambda: creation_floods(soak)),
        (args.replayers, lambda: replay_uploads(soak, record)),
    ]
    for size, load in loads:
        if size > 0:  # a load can be left out (0), to see what the others cost
            soak.spawn(load())
    await asyncio.sleep(max(0.0, soak.deadline - time.monotonic()))
    soak.stopping = True
    # Connections end by themselves at their next message; whatever still waits (a table
    # whose players went quiet, a slow reader) is cancelled after a moment.
    await asyncio.sleep(1.0)
    pending = list(soak.tasks)
    for task in pending:
        task.cancel()
    if pending:
        await asyncio.wait(pending, timeout=15)
    await stop_server(soak)


async def stop_server(soak: Soak) -> None:
    process = soak.server
    if process is None:
        return
    if process.poll() is not None:
        soak.count("server", f"exited by itself with status {process.returncode}")
    else:
        soak.server_cpu += cpu_seconds(process.pid)
        process.terminate()
        try:
            await asyncio.to_thread(process.wait, 30)
        except subprocess.TimeoutExpired:
            soak.count("server", "did not stop within 30 s of SIGTERM")
            process.kill()
            await asyncio.to_thread(process.wait, 30)
        await look_for_orphans(soak, process, "stopped")
    for started in soak.started:
        # Bot workers outliving their server are ended with it (they are this run's).
        with contextlib.suppress(ProcessLookupError, PermissionError):
            if leftovers(started):
                os.killpg(started.pid, signal.SIGKILL)


# ---------------------------------------------------------------------------- the checks
def check_database(soak: Soak) -> list[tuple[str, bool, str]]:
    """(check, passed, detail) of each check on the database the server left."""
    connection = sqlite3.connect(f"file:{soak.database}?mode=ro", uri=True)
    try:
        tables = connection.execute("SELECT id, spec, status FROM tables").fetchall()
        moves: dict[str, list[tuple[int, int]]] = {}
        for table_id, action, actor in connection.execute(
                "SELECT table_id, action, actor FROM actions ORDER BY table_id, idx"):
            moves.setdefault(table_id, []).append((action, actor))
    finally:
        connection.close()
    results = []

    lost = []
    for table_id, versions in soak.acks.items():
        played = [action for action, actor in moves.get(table_id, []) if actor >= 0]
        for version, action in versions.items():
            # Version v is the table after its (v - 1)th player's move.
            if len(played) < version - 1 or played[version - 2] != action:
                lost.append(f"{table_id} v{version}")
    acked = sum(len(v) for v in soak.acks.values())
    results.append(("every acknowledged move is in the database", not lost and acked > 0,
                    f"{acked} moves on {len(soak.acks)} tables"
                    + (f"; missing or different: {', '.join(lost[:10])}" if lost else "")))

    statuses = Counter(status for _, _, status in tables)
    broken = []
    unfinished = 0
    for table_id, spec_text, status in tables:
        if status in ("finished", "abandoned"):
            continue
        unfinished += 1
        problem = replay_problem(json.loads(spec_text), status, moves.get(table_id, []))
        if problem is not None:
            broken.append(f"{table_id} ({status}): {problem}")
    results.append(("every game is finished, abandoned or replays through the rules",
                     not broken,
                     f"{len(tables)} tables ({', '.join(f'{n} {s}' for s, n in statuses.items())}"
                     f"); {unfinished} replayed" + (f"; {'; '.join(broken[:10])}" if broken
                                                     else "")))

    after = [t for t in soak.ack_times if soak.ready_again_at and t > soak.ready_again_at]
    results.append(("play resumed after the restart", bool(after),
                    f"{len(after)} moves acknowledged after the restart"))
    server_faults = [f"{kind}: {n}" for (source, kind), n in soak.outcomes.items()
                     if source in ("server", "load generator")]
    internal = [f"{source} {kind}: {n}" for (source, kind), n in soak.outcomes.items()
                if "internal" in kind or "HTTP 500" in kind]
    logged = server_log_errors(soak)
    if logged:
        server_faults.append(f"{len(logged)} error lines in its log")
    results.append(("the server never failed (no 500, no error logged, no crash, no hang on "
                    "SIGTERM)", not server_faults and not internal,
                    "; ".join(server_faults + internal) or "none"))
    return results


def replay_problem(spec: dict[str, Any], status: str, steps: list[tuple[int, int]]) -> str | None:
    """Why a stored unfinished table would not replay through the rules (None if it does)."""
    try:
        state = ladytiger.load_game(spec["game"], **spec["options"]).new_initial_state()
        for index, (action, actor) in enumerate(steps):
            if state.current_player() != actor:
                return f"entry {index} was stored for {actor}, but {state.current_player()} moves"
            if actor == CHANCE:
                if action not in {outcome for outcome, _ in state.chance_outcomes()}:
                    return f"entry {index} is not a chance outcome here"
            elif state.illegal_reason(action) is not None:
                return f"entry {index} is illegal: {state.illegal_reason(action)}"
            state.apply_action(action)
    except Exception as error:
        return f"{type(error).__name__}: {error}"
    if status == "waiting" and steps:
        return "waiting, yet moves are stored"
    if state.is_terminal():
        return "the game is over, but the table is not marked finished"
    return None


def server_log_errors(soak: Soak) -> list[str]:
    """The server's own error lines (its log level is warning), and the last line of each
    traceback (the exception)."""
    if not soak.log_path.exists():
        return []
    lines = soak.log_path.read_text(errors="replace").splitlines()
    return [line.strip() for line in lines
            if line.startswith(("ERROR", "CRITICAL")) or EXCEPTION_LINE.match(line)]


# ---------------------------------------------------------------------------- the report
def report(soak: Soak, checks: list[tuple[str, bool, str]], load_average: float) -> str:
    args = soak.args
    seconds = soak.seconds
    latencies = [seconds_ for _, seconds_ in soak.latencies]
    after = []
    restart_moves = 0
    window = 0.0
    if soak.ready_again_at is not None:
        start = soak.ready_again_at
        window = min(LATENCY_WINDOW, seconds - start)
        after = [s for at, s in soak.latencies if start <= at < start + window]
        restart_moves = sum(start <= at < start + window for at in soak.ack_times)
    humans = sum(len(slot.tokens) for slot in soak.slots)
    bots = sum(len(slot.seats) - len(slot.tokens) for slot in soak.slots)
    mixture = Counter(f"{slot.game} {slot.options['players']}p" for slot in soak.slots)
    moves_per_second = len(soak.ack_times) / seconds if seconds else 0.0
    ms = 1000.0
    lines = [
        "## Server soak",
        "",
        f"`benchmarks/soak.py --minutes {args.minutes:g} --tables {args.tables} --rate "
        f"{args.rate:g} --seed {args.seed}`: the real server (`ladytiger serve`, default "
        "settings but bots without a pause"
        + (f" and `{' '.join(args.serve_arg)}`" if args.serve_arg else "")
        + ") on 127.0.0.1 and one load-generator process on "
        "the same 2 cores. Well-behaved tables: random players that think before each move "
        f"(a table offers a move every {soak.think:.2f} s on average) and follow every "
        "rematch; latency is from sending a move to receiving the view it produced. At the "
        f"same time: {args.slow_readers} slow readers (spectators that stop reading), "
        f"reconnect storms ({args.storm_rounds} x {args.storm} clients), spectator swarms "
        f"({args.swarm} at once on one table), table-creation floods (up to {args.flood} "
        f"anonymous creations a burst), {args.replayers} clients uploading a "
        "2,000-move Labyrinth record to `/api/replay` back to back, and a SIGKILL of the "
        "server half-way, restarted on the same database and port.",
        "",
        f"- Well-behaved tables: {len(soak.slots)} ({humans} player connections, {bots} bot "
        f"seats): " + ", ".join(f"{name} x{n}" for name, n in sorted(mixture.items())),
        f"- Moves acknowledged per second: {moves_per_second:.1f} "
        f"({len(soak.ack_times)} moves in {seconds:g} s; {len(soak.ended)} games ended)",
        f"- Move latency of the well-behaved players: p50 {percentile(latencies, 0.5) * ms:.1f} "
        f"ms, p99 {percentile(latencies, 0.99) * ms:.1f} ms ({len(latencies)} moves)",
    ]
    if soak.killed_at is not None and soak.ready_again_at is not None:
        lines += [
            f"- SIGKILL at {soak.killed_at:.1f} s; the restarted server listened again at "
            f"{soak.listening_again_at or float('nan'):.1f} s (its tables restored) and "
            f"answered a request at {soak.ready_again_at:.1f} s "
            f"({soak.ready_again_at - soak.killed_at:.1f} s down)",
            f"- In the {window:.0f} s after the restart: "
            f"{restart_moves / window if window > 0 else 0.0:.1f} moves/s, latency p50 "
            f"{percentile(after, 0.5) * ms:.1f} ms, p99 {percentile(after, 0.99) * ms:.1f} ms "
            f"({len(after)} moves)",
        ]
    for source, timed in soak.welcome_times.items():
        times = [seconds_ for _, seconds_ in timed]
        if times:
            lines.append(f"- Time to welcome, {source}: p50 {percentile(times, 0.5) * ms:.0f} "
                         f"ms, p99 {percentile(times, 0.99) * ms:.0f} ms ({len(times)})")
    if soak.swarms:
        lines.append("- Spectator swarms, welcomed of those sent: " + ", ".join(
            f"{welcomed}/{sent} ({game})" for game, welcomed, sent in soak.swarms))
    if soak.replay_times:
        lines.append(f"- Replay answers: p50 {percentile(soak.replay_times, 0.5) * ms:.0f} ms, "
                     f"p99 {percentile(soak.replay_times, 0.99) * ms:.0f} ms "
                     f"({len(soak.replay_times)} answered)")
    cpu_share = soak.server_cpu / seconds if seconds else 0.0
    lines += [
        f"- Server CPU: {cpu_share:.0%} of a core (its bot workers not counted); load "
        f"average when the run started: {load_average:.2f}",
        "",
        f"Over time, by {args.sample_every:g} s: the well-behaved players' moves and latency, "
        "the longest wait for a welcome of the storms' and swarms' clients that began then, "
        "the server's resident memory (VmRSS, sampled in the interval) and what began:",
        "",
        *timeline(soak),
    ]
    lines += ["", "Outcomes by load (connection failures while the server was down are "
              "marked \"server killed\"; refusals by the server's limits are expected):",
              "",
              "| load | outcome | count |", "| --- | --- | ---: |"]
    order = {name: i for i, name in enumerate(SOURCES)}
    for (source, kind), n in sorted(soak.outcomes.items(),
                                    key=lambda item: (order.get(item[0][0], 99), item[0][1])):
        lines.append(f"| {source} | {kind} | {n} |")
    errors = server_log_errors(soak)
    lines += ["", f"Server log: {len(errors)} error lines"
              + (": " + " / ".join(sorted(set(errors))[:5]) if errors else "."), ""]
    lines += [f"- Check: {name}: {'passed' if ok else 'FAILED'} ({detail})"
              for name, ok, detail in checks]
    lines.append("- All checks passed." if all(ok for _, ok, _ in checks)
                 else "- Some checks FAILED.")
    return "\n".join(lines)


def timeline(soak: Soak) -> list[str]:
    step = soak.args.sample_every
    rows = ["| s | moves/s | p50 ms | p99 ms | max ms | welcome max ms | RSS MiB | began |",
            "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    visits = [entry for timed in soak.welcome_times.values() for entry in timed]
    for index in range(max(1, math.ceil(soak.seconds / step - 1e-9))):
        start, end = index * step, min(soak.seconds, (index + 1) * step)
        latencies = [s * 1000.0 for at, s in soak.latencies if start <= at < end]
        moves = sum(start <= at < end for at in soak.ack_times)
        rss = [kib for at, _, kib in soak.rss if start <= at < end]
        welcomes = [s * 1000.0 for at, s in visits if start <= at < end]
        began = Counter(what for at, what in soak.events if start <= at < end)
        rows.append(
            f"| {start:.0f} | {moves / max(end - start, 1e-9):.0f} | "
            f"{whole(percentile(latencies, 0.5))} | {whole(percentile(latencies, 0.99))} | "
            f"{whole(max(latencies, default=math.nan))} | "
            f"{whole(max(welcomes, default=math.nan))} | "
            + (f"{rss[-1] / 1024:.1f}" if rss else "-") + " | "
            + ", ".join(what if n == 1 else f"{what} x{n}" for what, n in began.items())
            + " |")
    return rows


def whole(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="length of the run")
    parser.add_argument("--tables", type=int, default=200, help="well-behaved tables")
    parser.add_argument("--rate", type=float, default=300.0,
                        help=f"moves/s the well-behaved players offer in all (each table at "
                        f"most one every {MIN_THINK:g} s on average)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--slow-readers", type=int, default=30,
                        help="spectators that stop reading, at any time")
    parser.add_argument("--storm", type=int, default=100, help="clients per storm round")
    parser.add_argument("--storm-rounds", type=int, default=3, help="rounds per storm")
    parser.add_argument("--swarm", type=int, default=300, help="spectators per swarm")
    parser.add_argument("--flood", type=int, default=300, help="creations per flood at most")
    parser.add_argument("--replayers", type=int, default=2, help="replay-uploading clients")
    parser.add_argument("--sample-every", type=float, default=10.0,
                        help="seconds between memory samples")
    parser.add_argument("--serve-arg", action="append", default=[],
                        help="an extra option for `ladytiger serve` (repeatable)")
    parser.add_argument("--write", action="store_true",
                        help="write the figures into docs/performance.md (default: print)")
    args = parser.parse_args()
    if args.minutes <= 0 or args.tables <= 0 or args.rate <= 0:
        parser.error("--minutes, --tables and --rate must be positive")
    load_average = os.getloadavg()[0]
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    # The load generator holds as many connections as the server: untuned, its own
    # collector pauses would be counted as the server's latency.
    collector.tune_for_server()
    with tempfile.TemporaryDirectory(prefix="ladytiger-soak-") as folder:
        soak = Soak(args, Path(folder))
        try:
            asyncio.run(asyncio.wait_for(run(soak), timeout=soak.seconds + 300))
        finally:
            for process in soak.started:
                if process.poll() is None:
                    process.kill()
                    process.wait(30)
        checks = check_database(soak)
        text = report(soak, checks, load_average)
    print(text, flush=True)
    if args.write:
        write_section("soak", text)
    if not all(ok for _, ok, _ in checks):
        sys.exit(1)


if __name__ == "__main__":
    main()
