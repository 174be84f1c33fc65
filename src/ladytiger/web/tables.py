"""A table: one game in play, its seats and tokens, its version, its bots and its clock.

The committed state is `Table.state`. A move is tried on a clone; the clone, with the chance
outcomes that follow the move, is written to the store, and only after the commit does it
become the table's state, get a new version and go out to every connection as views. So a
view, an acknowledgement or a bot's turn never rests on a move the database might not have.
Moves on one table are serialised by its lock; a move for an old version is refused.

On a shared database (PostgreSQL, several processes) another process may change a table this
one holds: the database refuses a write that raced one of theirs (`WriteConflict`), the
table catches up from the database (`changed_elsewhere`) and the move is refused as stale.
Only the table's owner runs its bots and clock; any process serves its clients.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from ladytiger.bots import Bot, load_bot
from ladytiger.bots.advice import hint_job
from ladytiger.core import CHANCE, LadyTigerError, State
from ladytiger.core.playout import sample_chance
from ladytiger.core.record import to_record
from ladytiger.core.state import seat_name
from ladytiger.web import store as db
from ladytiger.web.bot_options import REFUSED_BOTS, BotLimits, lenient_options
from ladytiger.web.config import Settings
from ladytiger.web.directory import Directory
from ladytiger.web.players import Player, seat_label, table_names
from ladytiger.web.pool import BotPool, BotTimeout
from ladytiger.web.protocol import CLOSE_TRY_AGAIN_LATER, ProtocolError, encode, message
from ladytiger.web.security import TokenBucket, hash_token, new_token, seat_for_token
from ladytiger.web.specs import BOT, HUMAN, TableSpec
from ladytiger.web.store import StoredTable, TableDelta, WriteConflict

log = logging.getLogger("ladytiger.web.tables")
T = TypeVar("T")
BOT_RETRY_FIRST = 1.0  # seconds before a bot's failed move is tried again, doubling
BOT_RETRY_MOST = 30.0
# A moment's words are the engine's; these bounds only keep a faulty hook from sending a
# novel to every connection with every view.
MOMENT_LINES = 40
MOMENT_TEXT = 500
# Seconds a hint's worker may run past the search's own limit (`Settings.hint_seconds`)
# before it is stopped: the draw of a state, the rules of thumb and the trip to the worker.
HINT_GRACE = 10.0

WAITING = "waiting"  # some human seat has not joined yet; nothing has been dealt
PLAYING = "playing"
FINISHED = "finished"
# Ended without a result: nobody came (a waiting table that expired) or nobody stayed (no
# human seat connected for a long time). No more moves; the record stays in the database.
ABANDONED = "abandoned"
ENDED = (FINISHED, ABANDONED)
EXPIRED = "expired"  # why a table was abandoned: it never filled
DESERTED = "deserted"  # why a table was abandoned: its humans left it
# Why a table was abandoned: a player resigned (Table.resign); the reason names the seat,
# "resigned:2", so that every process and a restart learn it from the stored reason alone.
RESIGNED = "resigned"
# Why a table was abandoned: a seat closed it before the game began (Table.close), "closed:0".
CLOSED = "closed"
# "restarted:SEAT": that seat started the game at a new table, bots in the empty seats.
RESTARTED = "restarted"
# "opened:SEAT": that seat moved the table to a new one whose empty invited seats are open to
# anyone in the lobby. Like RESTARTED, the table goes on elsewhere.
OPENED = "opened"
STAND_IN_BOT = "casual"  # the level that plays for a player who left (Table.stand_in)


class Listener(Protocol):
    """A connection watching a table: a seat's, or a spectator's (seat None)."""

    seat: int | None

    def send(self, text: str) -> None: ...

    def unseat(self) -> None:
        """Its seat was given back (Table.leave): from now on it only watches."""


@dataclass
class Services:
    """What every table shares: settings, the database, the bot pool, the dealer's rng."""

    settings: Settings
    store: Any  # ladytiger.web.stores.TableStore
    pool: BotPool
    rng: random.Random
    players: Directory


class RestoreError(LadyTigerError):
    pass


class Table:
    def __init__(
        self,
        spec: TableSpec,
        services: Services,
        *,
        state: State | None = None,
        status: str = WAITING,
        token_hashes: list[str | None],
        joined: list[bool],
        rematch: str | None = None,
        finished_at: float | None = None,
        ended_reason: str | None = None,
        last_activity: float | None = None,
        players: list[Player | None] | None = None,
        chat: list[dict[str, Any]] | None = None,
        chat_count: int = 0,
        ratings: list[dict[str, Any]] | None = None,
    ) -> None:
        self.spec = spec
        # What the game did to each seat's rating, once rated (Hub._rate): shown at its end.
        self.ratings = ratings
        self.id = spec.id
        self.services = services
        self.game = spec.make_game()
        self.state: State = state if state is not None else self.game.new_initial_state()
        self.status = status
        # The version counts changes the seats can see: 1 when play starts, +1 per move.
        # Chance outcomes ride along with the move before them, so the version never tells
        # how many hidden draws there were.
        self.version = 0 if status == WAITING else 1 + sum(
            actor != CHANCE for actor in self.state.actors()
        )
        self.token_hashes = token_hashes
        self.joined = joined
        self.rematch = rematch
        self.finished_at = finished_at  # when the game ended, finished or abandoned
        self.ended_reason = ended_reason
        # The last time a human seat was connected or anyone moved: an unfinished game idle
        # for too long is abandoned (Hub.sweep).
        self.last_activity = last_activity if last_activity is not None else time.time()
        # Open seats claimed from the lobby but not yet connected to, with when: a claim
        # nobody uses is given back (Hub.sweep). After a restart the wait starts again.
        self.claims: dict[int, float] = {
            seat: self.last_activity
            for seat, plan in enumerate(spec.seats)
            if plan.kind == HUMAN and plan.open and token_hashes[seat] is not None
            and not joined[seat]
        }
        # The player holding each seat (None: nobody, a bot, or a seat played by token only).
        self.players: list[Player | None] = players or [None] * len(spec.seats)
        self.chat: list[dict[str, Any]] = list(chat or [])
        self.chat_count = chat_count
        self.listeners: dict[int | None, set[Listener]] = {}
        self.lock = asyncio.Lock()
        self.bots: dict[int, Bot] = {
            seat: self._new_bot(plan.bot or "random", plan.options)
            for seat, plan in enumerate(spec.seats)
            if plan.kind == BOT
        }
        self.clock_bots: dict[int, Bot] = {}
        # Since when each human seat has had no connection here (as presence, this process's
        # view; a restart starts the wait again), and the seats whose turns a stand-in bot
        # plays while their human is away: asked for by another player (`stand_in`), ended
        # when the human comes back. Not kept in the database: after a restart, ask again.
        now = time.time()
        self.away_since: dict[int, float] = {seat: now for seat in spec.human_seats()}
        self.stand_ins: set[int] = set()
        self.stand_in_bots: dict[int, Bot] = {}
        if self.bots or spec.clock is not None:
            services.pool.warm()
        self.deadline: float | None = None
        self.on_finish: Callable[[Table], None] | None = None
        self._views: dict[int | None, str] = {}
        self._end: str | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        # Presence goes out at most once per `presence_interval`: a swarm of spectators
        # arriving costs one message per connection per interval, not one per arrival.
        self._presence_timer: asyncio.TimerHandle | None = None
        self._presence_sent = 0.0
        # The last moment (a contest or trick scored, secrets revealed) and the version whose
        # views show it. Not kept in the database: `restore` works it out again.
        self.moment: dict[str, Any] | None = None
        self.moment_version = -1
        # The connections that said they have seen it, and a wake-up for the bot waiting on
        # them (set whenever that may have changed: a `seen`, a connection come or gone).
        self._seen: set[Listener] = set()
        self._seen_changed = asyncio.Event()
        # Per seat: the hint being worked out or given for one version (asking again about
        # the same position gets the same answer, uncounted), and its rate of asking.
        self._hints: dict[int, tuple[int, asyncio.Future[dict[str, Any]]]] = {}
        self._hint_buckets: dict[int, TokenBucket] = {}
        # Whether this process runs the table's bots and clock: always alone on SQLite; on a
        # shared database, the one process the database names (the hub sets it).
        self.owner = True
        # Whether the move that finished the game was committed here: that process alone
        # rates it, so a game is rated once however many processes hold it.
        self.finished_here = False
        # Catching up with other processes' changes: 0 nothing asked, 1 the history and
        # status, 2 everything (seats, players, chat too).
        self._wanted = 0
        self._catching_up: asyncio.Future[None] | None = None

    # ------------------------------------------------------------------ making and restoring
    @classmethod
    def restore(cls, stored: StoredTable, services: Services) -> Table:
        """Rebuild a table from the database by replaying its moves through the rules."""
        spec = TableSpec.from_json(stored.spec)
        state = spec.make_game().new_initial_state()
        # The state before the last player's move, kept to tell the current version's
        # moment again: it is not stored, and a restart must not change what a view shows.
        last_move = max((index for index, (_, actor) in enumerate(stored.actions)
                         if actor != CHANCE), default=None)
        before: State | None = None
        for index, (action, actor) in enumerate(stored.actions):
            if state.current_player() != actor:
                raise RestoreError(f"table {spec.id}: move {index} was stored for another player")
            if index == last_move:
                before = state.clone()
            state.apply_action(action)
        table = cls(
            spec,
            services,
            state=state,
            status=stored.status,
            token_hashes=stored.token_hashes,
            joined=stored.joined,
            rematch=stored.rematch,
            finished_at=stored.finished_at,
            ended_reason=stored.ended_reason,
            last_activity=stored.last_activity,
            players=[
                None if held is None else services.players.intern(*held)
                for held in (stored.players or [None] * len(spec.seats))
            ],
            chat=stored.chat,
            chat_count=stored.chat_count,
            ratings=stored.ratings,
        )
        if before is not None and table.status != WAITING:
            table.moment = table._moment_between(before, state)
            table.moment_version = table.version if table.moment is not None else -1
        return table

    def _new_bot(self, name: str, options: dict[str, Any]) -> Bot:
        """A bot for a seat or the clock, under today's rules (ladytiger.web.bot_options).

        The spec may come from the database, stored before those rules or under larger caps,
        and a table must come back after a restart: so what the rules no longer allow is
        dropped or clamped, with a warning, rather than refused. The seed always comes from
        the dealer, never from the options.
        """
        if name in REFUSED_BOTS:
            log.warning("table %s: the %s bot is not allowed (%s); the random bot plays "
                        "instead", self.id, name, REFUSED_BOTS[name])
            name, options = "random", {}
        limits = BotLimits.from_settings(self.services.settings)
        kept, notes = lenient_options(name, options, limits)
        if notes:
            log.warning("table %s: options of the %s bot changed to fit the limits: %s",
                        self.id, name, "; ".join(notes))
        seed = self.services.rng.getrandbits(32)
        try:
            return load_bot(name, self.game, **kept, seed=seed)
        except (LadyTigerError, TypeError, ValueError) as error:
            if not kept:
                raise
            # Options each fine alone may still clash (a budget in iterations and seconds).
            log.warning("table %s: the %s bot refused its options %s (%s); it plays with "
                        "its defaults", self.id, name, kept, error)
            return load_bot(name, self.game, seed=seed)

    # ------------------------------------------------------------------ seats
    def authenticate(self, token: str) -> int | None:
        return seat_for_token(token, self.token_hashes)

    def ended_unplayed(self) -> bool:
        """Whether the table ended before anything was dealt (closed, moved, never full)."""
        return self.status in ENDED and not self.state.history()

    # ------------------------------------------------------------------ players
    def seat_of_player(self, player: Player) -> int | None:
        for seat, holder in enumerate(self.players):
            if holder is player:
                return seat
        return None

    async def bind(self, seat: int, player: Player) -> bool:
        """Give `seat` to `player` if nobody holds it and they hold no other seat here. Not
        at a table that ended before the deal: an old invite opened late names nobody."""
        if self.players[seat] is not None or self.spec.seats[seat].kind != HUMAN:
            return False
        if self.ended_unplayed():
            return False
        return await shielded(self._bind(seat, player))

    async def _bind(self, seat: int, player: Player) -> bool:
        async with self.lock:
            if self.players[seat] is not None or self.seat_of_player(player) is not None:
                return False
            if not await self._store(db.bind_seat, "your seat", self.id, seat, player.id):
                return False
            self.players[seat] = player
            if self.status not in ENDED:
                player.tables.add(self.id)
            self.presence_changed()
            return True

    def seat_names(self) -> list[str]:
        """Each seat's name at this table: its player's (told apart by a suffix), its bot's,
        or "Seat N" for a seat no player holds."""
        return table_names([
            seat_label(seat, holder.name if holder is not None else None,
                      (plan.bot or "random") if plan.kind == BOT else None)
            for seat, (plan, holder) in enumerate(zip(self.spec.seats, self.players,
                                                      strict=True))
        ], bots=[seat for seat, plan in enumerate(self.spec.seats) if plan.kind == BOT])

    async def say(self, seat: int | None, player: Player, text: str,
                  speaker: Listener | None = None, ref: str | int | None = None
                  ) -> dict[str, Any]:
        """Add a chat line from `player` (at `seat`, or watching) and send it to everyone;
        the `speaker`'s own copy carries `ref`."""
        return await shielded(self._say(seat, player, text, speaker, ref))

    async def _say(self, seat: int | None, player: Player, text: str,
                   speaker: Listener | None, ref: str | int | None) -> dict[str, Any]:
        async with self.lock:
            index, at = self.chat_count, time.time()
            try:
                await self._store(db.add_chat, "your message", self.id, index, seat,
                                  player.id, text, at)
            except WriteConflict:  # another process's line took the index: catch up, go on
                await self._catch_up(full=True)
                index = self.chat_count
                await self._store(db.add_chat, "your message", self.id, index, seat,
                                  player.id, text, at)
            self.chat_count += 1
            line = {"index": index, "seat": seat, "player": player.id, "name": player.name,
                    "text": text, "at": at}
            self.chat.append(line)
            del self.chat[:-db.CHAT_KEPT]
            fields = chat_fields(line)
            text_out = message("chat", table=self.id, **fields)
            for group in list(self.listeners.values()):
                for listener in list(group):
                    if listener is speaker and ref is not None:
                        self._deliver(listener, message("chat", ref=ref, table=self.id,
                                                        **fields))
                    else:
                        self._deliver(listener, text_out)
            return line

    def chat_tail(self) -> list[dict[str, Any]]:
        return [chat_fields(line) for line in self.chat]

    def your_turn(self, seat: int) -> bool:
        return self.status == PLAYING and self.state.current_player() == seat

    def humans_connected(self) -> bool:
        return any(seat is not None and group for seat, group in self.listeners.items())

    def free_seats(self) -> list[int]:
        """Open human seats nobody has claimed yet (none once the game is under way)."""
        if self.status != WAITING:
            return []
        return [
            seat
            for seat, plan in enumerate(self.spec.seats)
            if plan.kind == HUMAN and plan.open and self.token_hashes[seat] is None
        ]

    async def claim(self, seat: int | None) -> tuple[int, str]:
        """Hand an open seat's token to whoever asks first."""
        return await shielded(self._claim(seat))

    async def _claim(self, seat: int | None) -> tuple[int, str]:
        async with self.lock:
            if self.status == ABANDONED:
                raise ProtocolError("game_abandoned", self.abandoned_words(), status=409)
            free = self.free_seats()
            if seat is None:
                if not free:
                    raise ProtocolError("no_free_seat", "this table has no free seat", status=409)
                seat = free[0]
            elif not 0 <= seat < len(self.spec.seats):
                raise ProtocolError("bad_field", f"there is no seat {seat} at this table")
            elif seat not in free:
                plan = self.spec.seats[seat]
                why = "is taken" if plan.kind == HUMAN and plan.open else "is not an open seat"
                raise ProtocolError("seat_taken", f"seat {seat} {why}", status=409)
            token = new_token()
            digest = hash_token(token)
            claimed = await self._store(db.claim_seat, "the seat", self.id, seat, digest)
            if not claimed:
                raise ProtocolError("seat_taken", f"seat {seat} is taken", status=409)
            self.token_hashes[seat] = digest
            self.claims[seat] = time.time()
            self.presence_changed()
            return seat, token

    async def release_unused_claims(self, timeout: float) -> list[int]:
        """Give back lobby seats claimed more than `timeout` seconds ago and never joined."""
        now = time.time()
        if not any(now - at > timeout for at in self.claims.values()):
            return []
        return await shielded(self._release_unused_claims(now - timeout))

    async def _release_unused_claims(self, before: float) -> list[int]:
        released = []
        async with self.lock:
            for seat, at in list(self.claims.items()):
                if at > before or self.joined[seat] or self.status != WAITING:
                    continue
                digest = self.token_hashes[seat]
                if digest is not None:
                    await self._store(db.release_seat, "the seat", self.id, seat, digest)
                self.token_hashes[seat] = None
                del self.claims[seat]
                released.append(seat)
            if released:
                self.presence_changed()
        return released

    async def join(self, seat: int, digest: str, listener: Listener | None = None) -> None:
        """A seat's token was used: the seat has joined, and play starts once all have.
        `digest` is the token's, as it was when `listener` (the connection that came with
        it) was let in: should the seat be given back meanwhile, here or in another
        process, the arrival does not count and the listener only watches."""
        if not self.joined[seat]:
            await shielded(self._join(seat, digest, listener))

    async def _join(self, seat: int, digest: str, listener: Listener | None) -> None:
        async with self.lock:
            if self.status in ENDED:
                return  # nothing waits for an arrival any more
            if self.token_hashes[seat] != digest:
                self._unseat(listener)
                return
            if self.joined[seat]:
                return
            humans = self.spec.human_seats()
            if self.status == WAITING and all(self.joined[s] or s == seat for s in humans):
                # The last seat to arrive: its join and the opening deal commit together.
                after = self.state.clone()
                steps: list[tuple[int, int]] = []
                self._deal(after, steps)
                try:
                    await self._commit(after, steps, starting=True, joined=(seat, digest))
                    return
                except ProtocolError as error:
                    if error.code != "stale_version":
                        raise
                # Another process started the game first, or the seat was given back there:
                # this copy has caught up, and the arrival is recorded if it still counts.
                if self.token_hashes[seat] != digest:
                    self._unseat(listener)
                    return
                if self.joined[seat]:
                    return
            if not await self._store(db.mark_joined, "your arrival", self.id, seat, digest):
                await self._catch_up(full=True)
                self._unseat(listener)
                return
            self.joined[seat] = True
            self.claims.pop(seat, None)
            self.presence_changed()

    async def start_if_ready(self) -> None:
        async def start() -> None:
            async with self.lock:
                await self._start_if_ready()

        await shielded(start())

    async def _start_if_ready(self) -> None:
        if self.status != WAITING:
            return
        if not all(self.joined[seat] for seat in self.spec.human_seats()):
            return
        after = self.state.clone()
        steps: list[tuple[int, int]] = []
        self._deal(after, steps)
        try:
            await self._commit(after, steps, starting=True)
        except ProtocolError as error:
            if error.code != "stale_version":
                raise  # else another process started it first: this copy has caught up

    def check_room(self, seat: int | None) -> None:
        """Refuse a spectator beyond the table's cap (seats always get in)."""
        limit = self.services.settings.max_spectators
        if seat is None and len(self.listeners.get(None, ())) >= limit:
            raise ProtocolError(
                "too_many_spectators",
                f"this table already has {limit} spectators, the most it takes; "
                "try again later",
                status=503,
                close=CLOSE_TRY_AGAIN_LATER,
            )

    def attach(self, listener: Listener) -> None:
        """Start sending views to `listener`, beginning with the current one."""
        self.check_room(listener.seat)
        if listener.seat in self.stand_ins:
            # The player is back: their seat is theirs again, and everyone is told. On their
            # turn at a table with a clock, the clock starts for them now.
            self.stand_ins.discard(listener.seat)
            clock = self.spec.clock
            if clock is not None and self.your_turn(listener.seat):
                self.deadline = time.time() + clock.seconds
                if self.owner:
                    self.spawn(self._clock_turn(listener.seat, self.version, self.deadline))
            self._views.clear()
            self._send_all_views()
        listener.send(self.view_text(listener.seat))
        if self.status == FINISHED:
            listener.send(self.end_text())
        self.listeners.setdefault(listener.seat, set()).add(listener)
        if listener.seat is not None:
            self.last_activity = time.time()
            self.away_since.pop(listener.seat, None)
        self._seen_changed.set()  # one more reader a waiting bot may have to wait for
        self.presence_changed()

    def detach(self, listener: Listener) -> None:
        """Stop sending to `listener`. Safe at any moment, even while a broadcast runs:
        broadcasts go over copies, and presence goes out later (`presence_changed`)."""
        group = self.listeners.get(listener.seat)
        if group and listener in group:
            group.discard(listener)
            if not group:
                del self.listeners[listener.seat]
                if listener.seat is not None and self.spec.seats[listener.seat].kind == HUMAN:
                    self.away_since[listener.seat] = time.time()
            if listener.seat is not None:
                self.last_activity = time.time()
            self._seen.discard(listener)
            self._seen_changed.set()  # the bot may have been waiting for this one only
            self.presence_changed()

    # ------------------------------------------------------------------ moves
    async def play(
        self,
        seat: int,
        version: int,
        action: int | str,
        on_commit: Callable[[dict[str, Any]], None] | None = None,
    ) -> dict[str, Any]:
        """Play `action` for `seat` if the table is at `version`; refuse with the reason."""
        return await shielded(self._play(seat, version, action, on_commit))

    async def _play(
        self,
        seat: int,
        version: int,
        action: int | str,
        on_commit: Callable[[dict[str, Any]], None] | None,
    ) -> dict[str, Any]:
        async with self.lock:
            self._check_turn(seat, version)
            action_id = self._resolve(action)
            reason = self.state.illegal_reason(action_id)
            if reason is not None:
                raise ProtocolError(
                    "illegal_action", reason, action=action_id, text=self._text(action_id)
                )
            text = self.state.action_to_string(action_id)
            after = self.state.clone()
            after.apply_trusted(action_id)  # just found legal
            steps = [(action_id, seat)]
            self._deal(after, steps)
            result = {"version": self.version + 1, "action": action_id, "text": text}
            await self._commit(after, steps, on_commit=lambda: on_commit and on_commit(result))
            return result

    def _check_turn(self, seat: int, version: int) -> None:
        if self.status == WAITING:
            missing = [s for s in self.spec.human_seats() if not self.joined[s]]
            raise ProtocolError(
                "not_started",
                "the game has not started: waiting for "
                + ", ".join(seat_name(s) for s in missing),
                status=409,
            )
        if self.status == FINISHED:
            raise ProtocolError("game_over", "the game is over; no more moves can be made",
                                status=409)
        if self.status == ABANDONED:
            raise ProtocolError("game_abandoned", self.abandoned_words() + "; no more moves "
                                "can be made", status=409)
        if version != self.version:
            raise ProtocolError(
                "stale_version",
                f"your view is out of date: you sent version {version} but the table is at "
                f"version {self.version}; nothing was played",
                status=409,
                version=self.version,
            )
        player = self.state.current_player()
        if player != seat:
            raise ProtocolError(
                "not_your_turn", f"it is {seat_name(player)}'s turn, not yours", status=409
            )

    def _resolve(self, action: int | str) -> int:
        if isinstance(action, str):
            try:
                return self.state.string_to_action(action)
            except LadyTigerError as error:
                raise ProtocolError("unknown_action", str(error)) from None
        return action

    def _text(self, action: int) -> str | None:
        try:
            return self.state.action_to_string(action)
        except (LadyTigerError, IndexError, KeyError, TypeError, ValueError):
            return None

    def _deal(self, state: State, steps: list[tuple[int, int]]) -> None:
        """Play every chance outcome up to the next decision (or the end)."""
        rng = self.services.rng
        while state.current_player() == CHANCE:
            outcome = sample_chance(state, rng)  # drawn from the listed outcomes
            state.apply_trusted(outcome)
            steps.append((outcome, CHANCE))

    async def _commit(
        self,
        after: State,
        steps: list[tuple[int, int]],
        *,
        starting: bool = False,
        on_commit: Callable[[], Any] | None = None,
        joined: tuple[int, str] | None = None,
    ) -> None:
        finished = after.is_terminal()
        status = FINISHED if finished else PLAYING if starting else None
        result = {"returns": after.returns(), "scores": after.scores()} if finished else None
        start = len(self.state.history())
        what = "the move" if not starting else "the start of the game"
        try:
            await self._store(db.append_actions, what, self.id, start, steps, status, result,
                              joined)
        except WriteConflict:
            # Another process moved first: learn what it played, and refuse this one.
            await self._catch_up(full=True)
            raise ProtocolError(
                "stale_version",
                "your view is out of date: another move was played first; nothing was "
                f"played (the table is at version {self.version})",
                status=409, version=self.version,
            ) from None
        # Asked while the table's own state is still the one before the move. The opening
        # deal is no moment: nothing was played yet.
        moment = None if starting else self._moment_between(self.state, after)
        # The moves were tried on a copy so that a failed write leaves the table untouched.
        # Now they are safe on disk, play them on the table's own state: it keeps the
        # per-seat logs it has built, so each view costs one step, not a replay.
        for action, _ in steps:
            self.state.apply_trusted(action)  # each was checked when the copy played it
        self.version += 1
        self.last_activity = time.time()
        if moment is not None:
            self.moment, self.moment_version = moment, self.version
            self._seen.clear()
        if status is not None:
            self.status = status
        if finished:
            self.finished_at = time.time()
            self.finished_here = True
        if joined is not None:
            self.joined[joined[0]] = True
            self.claims.pop(joined[0], None)
            self.presence_changed()
        # Nothing after the commit may fail: the move is in the database, so the table must
        # go on (its views, its bot's turn) whatever a listener or a callback does.
        if on_commit is not None:
            try:
                on_commit()
            except Exception:
                log.exception("table %s: acknowledging a move failed", self.id)
        self._changed()

    def _moment_between(self, before: State, after: State) -> dict[str, Any] | None:
        """The engine's account of what the move just committed scored or revealed, if any.

        Games without the hook have no moments. The move is already in the database, so a
        failing hook costs the moment, never the move.
        """
        hook = getattr(before, "moment", None)
        if not callable(hook):
            return None
        try:
            return clean_moment(hook(after))
        except Exception:
            log.exception("table %s: the game could not say what the move scored", self.id)
            return None

    async def _store(self, job: Callable[..., T], what: str, *args: Any) -> T:
        """Run a database job; a failing database becomes a clear refusal that says nothing
        was changed (the table's memory is only touched after the job succeeds)."""
        try:
            return await self.services.store.call(job, *args)
        except WriteConflict:
            raise
        except Exception as error:
            log.error("table %s: %s could not be saved: %s", self.id, what, error)
            raise storage_failure(what) from None

    # ------------------------------------------------------------------ other processes
    def changed_elsewhere(self, full: bool) -> None:
        """Another process changed this table (a notice said so): read what changed and
        show it here. Notices that arrive meanwhile are answered by one more read."""
        self._wanted = max(self._wanted, 2 if full else 1)
        if self._catching_up is None:
            self._catching_up = asyncio.ensure_future(self._catch_up_soon())

    def moved_elsewhere(self, start: int, at: float, steps: list[tuple[int, int]]) -> bool:
        """Another process played `steps` from history index `start` (its notice said so):
        apply them here without reading the database, if this copy is exactly where they
        start and nothing else is under way on it. False when it is not (the caller then
        reads the change back)."""
        if (self._catching_up is not None or self.lock.locked() or self.status != PLAYING
                or start != len(self.state.history())):
            return False
        try:
            self._apply(TableDelta(status=self.status, finished_at=None, ended_reason=None,
                                   rematch=self.rematch, actions=steps, last_activity=at))
        except Exception:
            log.exception("table %s: a move from another process could not be applied; "
                          "reading it back", self.id)
            return False
        return True

    async def _catch_up_soon(self) -> None:
        try:
            while self._wanted:
                full = self._wanted == 2
                self._wanted = 0
                async with self.lock:
                    await self._catch_up(full)
        except Exception:
            log.exception("table %s: catching up with another process failed; the next "
                          "notice tries again", self.id)
        finally:
            self._catching_up = None

    async def _catch_up(self, full: bool) -> None:
        """Read this table's changes since this copy last saw it and apply them (the table's
        lock held)."""
        delta = await self.services.store.call(
            db.table_delta, self.id, len(self.state.history()), self.chat_count, full)
        if delta is not None:
            self._apply(delta)
            if self.owner and self.status == WAITING:
                await self._start_if_ready()  # the last seat may have joined elsewhere

    def _apply(self, delta: TableDelta) -> None:
        """Bring this copy up to `delta`; then send views, and hand the turn on, as after a
        commit of its own."""
        moved = new_moment = False
        if delta.actions:
            state = self.state
            last_move = max((index for index, (_, actor) in enumerate(delta.actions)
                             if actor != CHANCE), default=None)
            before: State | None = None
            for index, (action, actor) in enumerate(delta.actions):
                if state.current_player() != actor:
                    raise RestoreError(f"table {self.id}: a move read back was stored for "
                                       "another player")
                if index == last_move:
                    before = state.clone()
                state.apply_action(action)
            moved = True
            self.last_activity = delta.last_activity or time.time()
            if before is not None:
                moment = self._moment_between(before, state)
                if moment is not None:
                    self.moment = moment
                    self._seen.clear()
                    new_moment = True
        ended = delta.status != self.status and delta.status in ENDED
        if delta.status != self.status:
            self.status = delta.status
            moved = True
        if self.status != WAITING:
            self.version = 1 + sum(actor != CHANCE for actor in self.state.actors())
            if new_moment:
                self.moment_version = self.version
        if ended:
            self.finished_at = delta.finished_at
            self.ended_reason = delta.ended_reason
            if self.status == ABANDONED:
                self.deadline = None
                self.cancel_tasks()
        if delta.ratings is not None and delta.ratings != self.ratings:
            # Rated by the process that ended the game: tell those here too.
            self.ratings = delta.ratings
            self._send_all(message("rated", table=self.id, ratings=delta.ratings))
        if delta.rematch is not None and delta.rematch != self.rematch:
            self.rematch = delta.rematch
            self._send_all(message("rematch", table=self.id, rematch=delta.rematch))
        if delta.token_hashes is not None and delta.joined is not None:
            self._apply_seats(delta)
        if delta.chat:
            for line in delta.chat:
                if line["index"] < self.chat_count:
                    continue
                self.chat.append(line)
                self._send_all(message("chat", table=self.id, **chat_fields(line)))
            del self.chat[:-db.CHAT_KEPT]
        if delta.chat_count is not None:
            self.chat_count = max(self.chat_count, delta.chat_count)
        if moved:
            self._changed()

    def _apply_seats(self, delta: TableDelta) -> None:
        assert delta.token_hashes is not None and delta.joined is not None
        for seat, held in enumerate(delta.token_hashes):
            # Given back in another process (Table.leave), and maybe taken again by someone
            # else since: whoever is here with the old token holds the seat no more.
            known = self.token_hashes[seat]
            if self.status == WAITING and known is not None and held != known:
                self._vacate(seat)
        if delta.token_hashes != self.token_hashes or delta.joined != self.joined:
            self.token_hashes = list(delta.token_hashes)
            self.joined = list(delta.joined)
            now = time.time()
            self.claims = {
                seat: self.claims.get(seat, now)
                for seat, plan in enumerate(self.spec.seats)
                if plan.kind == HUMAN and plan.open and self.token_hashes[seat] is not None
                and not self.joined[seat]
            }
            self.presence_changed()
        for seat, held in enumerate(delta.players or []):
            if held is None:
                continue
            current = self.players[seat]
            if current is None or current.id != held[0]:
                player = self.services.players.intern(*held)
                self.players[seat] = player
                if self.status not in ENDED:
                    player.tables.add(self.id)
                self.presence_changed()

    # ------------------------------------------------------------------ after every change
    def _changed(self) -> None:
        """Send every listener its new view, then give the turn to a bot or the clock.

        Runs after a commit: every step is guarded, and the turn is handed on even if
        sending failed, so a broken listener can never stop the game."""
        try:
            self._views.clear()
            player = self.state.current_player()
            clock = self.spec.clock
            human_to_move = (
                self.status == PLAYING and player >= 0 and self.spec.seats[player].kind == HUMAN
                and player not in self.stand_ins
            )
            self.deadline = time.time() + clock.seconds if clock and human_to_move else None
            self._send_all_views()
            if self.status == FINISHED:
                self._send_all(self.end_text())
        except Exception:
            log.exception("table %s: sending the new position failed", self.id)
        if self.status in ENDED and self.on_finish is not None:
            try:
                self.on_finish(self)
            except Exception:
                log.exception("table %s: filing the ended table failed", self.id)
        self._schedule()

    def _deliver(self, listener: Listener, text: str) -> None:
        try:
            listener.send(text)
        except Exception:
            log.exception("table %s: a listener failed to take a message", self.id)

    def presence_changed(self) -> None:
        """Say who is here, soon: at most once per `presence_interval`, and never from
        inside a broadcast (a presence that closes a slow reader would detach it, which
        would send presence again, and so on)."""
        if self._presence_timer is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a table used outside the server): say it now
            self._send_all(self.presence())
            return
        wait = self._presence_sent + self.services.settings.presence_interval - loop.time()
        self._presence_timer = loop.call_later(max(0.0, wait), self._send_presence)

    def _send_presence(self) -> None:
        self._presence_timer = None
        self._presence_sent = asyncio.get_running_loop().time()
        try:
            self._send_all(self.presence())
        except Exception:
            log.exception("table %s: sending presence failed", self.id)

    async def abandon(self, reason: str) -> bool:
        """End an unfinished table without a result (see ABANDONED); False if it ended
        meanwhile."""
        return await shielded(self._abandon(reason))

    async def _abandon(self, reason: str) -> bool:
        async with self.lock:
            if self.status in ENDED:
                return False
            await self._store(db.abandon_table, "the end of the table", self.id, reason)
            self.status = ABANDONED
            self.ended_reason = reason
            self.finished_at = time.time()
            self.deadline = None
            self.cancel_tasks()
            log.info("table %s abandoned (%s)", self.id, reason)
            self._changed()
            return True

    async def resign(self, seat: int) -> None:
        """`seat` gives up: the game ends at once, as lost by that seat and won by every
        other (docs/protocol.md, Resigning). Refused, naming why, unless the game is on."""
        await shielded(self._resign(seat))

    async def _resign(self, seat: int) -> None:
        async with self.lock:
            if self.status != PLAYING:
                if self.status == WAITING:
                    raise ProtocolError("not_started", "the game has not started: there is "
                                        "nothing to resign yet", status=409)
                self._check_turn(seat, self.version)  # says how the game ended
            if self.spec.seats[seat].kind != HUMAN:
                raise ProtocolError("bad_field", f"{seat_name(seat)} is a bot's seat")
            reason = f"{RESIGNED}:{seat}"
            if not await self._store(db.abandon_table, "the resignation", self.id, reason):
                # Another process ended the game first: learn how, and say so.
                await self._catch_up(full=True)
                self._check_turn(seat, self.version)
                raise storage_failure("the resignation")
            self.status = ABANDONED
            self.ended_reason = reason
            self.finished_at = time.time()
            self.finished_here = True  # rated by the process it was asked of, and only there
            self.deadline = None
            self.stand_ins.discard(seat)
            self.cancel_tasks()
            log.info("table %s: seat %d resigned", self.id, seat)
            self._changed()

    async def leave(self, seat: int) -> None:
        """`seat`, taken from the lobby, is given back before the game begins: it is open
        again for anyone, and whoever held it only watches from now on."""
        await shielded(self._leave(seat))

    async def _leave(self, seat: int) -> None:
        async with self.lock:
            self._check_leave(seat)
            digest = self.token_hashes[seat]
            if digest is None or not await self._store(
                    db.leave_seat, "the giving back of your seat", self.id, seat, digest):
                # The game began, or the table ended, in another process a moment ago.
                await self._catch_up(full=True)
                self._check_leave(seat)
                raise storage_failure("the giving back of your seat")
            self._vacate(seat)
            log.info("table %s: seat %d given back to the lobby", self.id, seat)

    def _check_waiting(self, seat: int) -> None:
        """Refuse what only a table still waiting for players allows, saying why."""
        if self.status == PLAYING:
            raise ProtocolError("already_started", "the game has begun: a player who wants "
                                "to stop may resign instead", status=409)
        if self.status != WAITING:
            self._check_turn(seat, self.version)  # says how the table ended

    def _check_leave(self, seat: int) -> None:
        self._check_waiting(seat)
        if not self.spec.seats[seat].open:
            raise ProtocolError("not_lobby_seat", "this seat came with the table's own "
                                "links, not from the lobby, so it cannot be given back; "
                                "the table can be closed instead", status=403)

    def _vacate(self, seat: int) -> None:
        """Forget who held `seat` (given back here or in another process): its listeners
        become spectators, and it is open in the lobby again."""
        self.token_hashes[seat] = None
        self.joined[seat] = False
        self.claims.pop(seat, None)
        self.away_since.pop(seat, None)
        holder = self.players[seat]
        if holder is not None:
            holder.tables.discard(self.id)
            self.players[seat] = None
        for listener in list(self.listeners.get(seat, ())):
            self._unseat(listener)
        self.presence_changed()

    def _unseat(self, listener: Listener | None) -> None:
        """`listener` no longer holds its seat (given back): it watches from now on. Nothing
        to do if that was already seen to (the seat was vacated while it arrived)."""
        if listener is None:
            return
        seat = listener.seat
        group = self.listeners.get(seat) if seat is not None else None
        if not group or listener not in group:
            return
        group.discard(listener)
        if not group:
            del self.listeners[seat]
        self._seen.discard(listener)
        listener.unseat()
        self.listeners.setdefault(None, set()).add(listener)
        listener.send(self.view_text(None))
        self.presence_changed()

    async def close(self, seat: int) -> None:
        """`seat` closes a table still waiting for players: nothing was dealt, so nobody
        wins or loses, and the table leaves the lobby and its makers' quota."""
        await shielded(self._close(seat))

    async def _close(self, seat: int) -> None:
        async with self.lock:
            self._check_waiting(seat)
            if self.spec.seats[seat].open:
                # Whoever took a seat from the lobby may not cancel the table for the rest.
                raise ProtocolError("not_table_maker", "you took this seat from the lobby: "
                                    "only the player who set the table up can close it",
                                    status=403)
            reason = f"{CLOSED}:{seat}"
            if not await self._store(db.abandon_table, "the closing of the table", self.id,
                                     reason):
                # The game began, or the table ended, in another process a moment ago.
                await self._catch_up(full=True)
                self._check_waiting(seat)
                raise storage_failure("the closing of the table")
            self.status = ABANDONED
            self.ended_reason = reason
            self.finished_at = time.time()
            self.cancel_tasks()
            log.info("table %s: closed by seat %d before it began", self.id, seat)
            self._changed()

    def absent_seats(self, seat: int, invited: bool = False) -> list[int]:
        """The human seats `seat` may hand to bots to start now: those nobody has joined,
        while the table waits. The same right as closing it (not a seat from the lobby).
        `invited`: only the seats given out with the table's links (to open to the lobby;
        a lobby seat someone took keeps its claim)."""
        self._check_waiting(seat)
        if self.spec.seats[seat].open:
            raise ProtocolError("not_table_maker", "you took this seat from the lobby: only "
                                "the player who set the table up can start it with bots",
                                status=403)
        # The asker is here, whether or not it has connected yet (an HTTP client).
        absent = [s for s in self.spec.human_seats() if not self.joined[s] and s != seat]
        if not absent:
            raise ProtocolError("nobody_missing", "every seat is taken: the game starts by "
                                "itself", status=409)
        if invited:
            absent = [s for s in absent if not self.spec.seats[s].open]
            if not absent:
                raise ProtocolError("already_open", "every empty seat is open to anyone in "
                                    "the lobby already", status=409)
        return absent

    def restarted_at(self, seat: int, new_id: str, kind: str = RESTARTED) -> None:
        """This table ended because `seat` moved it to `new_id` (ladytiger.web.hub.Hub.
        fill_empty_seats): with bots in the empty seats (RESTARTED), or with them open to the
        lobby (OPENED). Everyone here follows."""
        self.status = ABANDONED
        self.ended_reason = f"{kind}:{seat}"
        self.finished_at = time.time()
        self.rematch = new_id
        self.cancel_tasks()
        log.info("table %s: moved by seat %d to table %s (%s)", self.id, seat, new_id, kind)
        self._send_all(message("rematch", table=self.id, rematch=new_id))
        self._changed()

    def restarted(self) -> int | None:
        """The seat that moved the table to a new one (with bots or open seats), if it ended
        that way."""
        return restarted_seat(self.ended_reason) if self.status == ABANDONED else None

    def opened(self) -> bool:
        """Whether the table moved to a new one with its empty seats open to the lobby."""
        return self.restarted() is not None and (self.ended_reason or "").startswith(OPENED)

    def rated(self, changes: list[dict[str, Any]]) -> None:
        """The game's ratings are saved: keep what they did, and tell everyone here."""
        self.ratings = changes
        self._send_all(message("rated", table=self.id, ratings=changes))

    def closed(self) -> int | None:
        """The seat that closed the table before the game began, if it ended that way."""
        return closed_seat(self.ended_reason) if self.status == ABANDONED else None

    def resigned(self) -> int | None:
        """The seat that resigned, if the game ended that way."""
        return resigned_seat(self.ended_reason) if self.status == ABANDONED else None

    def abandoned_words(self) -> str:
        if self.ended_reason == EXPIRED:
            return "this table was closed: not every seat was taken in time"
        closer = self.closed()
        if closer is not None:
            return f"{self.seat_names()[closer]} closed this table before the game began"
        starter = self.restarted()
        if starter is not None and self.opened():
            return (f"{self.seat_names()[starter]} opened the empty seats to anyone in the "
                    "lobby: the table waits for players at a new address")
        if starter is not None:
            return (f"{self.seat_names()[starter]} started the game with bots in the empty "
                    "seats: it goes on at a new table")
        quitter = self.resigned()
        if quitter is not None:
            names = self.seat_names()
            others = [name for seat, name in enumerate(names) if seat != quitter]
            if not others:
                return f"{names[quitter]} gave the game up"
            if len(others) == 1:
                return f"{names[quitter]} resigned: {others[0]} wins"
            return f"{names[quitter]} resigned, so the game is over: the others share the win"
        return "this game was abandoned: no player was connected for a long time"

    def _schedule(self) -> None:
        if self.status != PLAYING:
            return
        player = self.state.current_player()
        if player < 0:
            return
        if player in self.stand_ins:
            # Run by the process that was asked, owner or not: a move may be committed by
            # any process, and only this one knows of the stand-in.
            self.spawn(self._stand_in_turn(player, self.version))
            return
        if not self.owner:
            return
        if self.spec.seats[player].kind == BOT:
            self.spawn(self._bot_turn(player, self.version))
        elif self.deadline is not None:
            self.spawn(self._clock_turn(player, self.version, self.deadline))

    def resume(self) -> None:
        """After a restart: start a ready table, or let its bot or clock move again."""
        self._changed()
        if self.status == WAITING:
            self.spawn(self.start_if_ready())

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("table %s: background work failed", self.id, exc_info=task.exception())

    def cancel_tasks(self) -> None:
        for task in list(self._tasks):
            task.cancel()

    def bot_pause(self) -> float:
        """Seconds a bot of this table waits before its move: the table's own, or the
        server's default."""
        pause = self.spec.bot_pause
        return self.services.settings.bot_pause if pause is None else pause

    async def _bot_pace(self, version: int) -> None:
        """Wait as a bot of this table waits before its move at `version`."""
        pause = self.bot_pause()
        # A table whose bots do not pause is played for machines (tests, benchmarks):
        # nobody there is following, so it does not wait on moments either.
        if pause > 0:
            if self.moment_version == version:
                await self._moment_wait(version)
            # After the moment, the usual pause: the next move does not land the instant
            # the result is closed.
            await asyncio.sleep(pause)

    async def _bot_turn(self, seat: int, version: int) -> None:
        await self._bot_pace(version)
        # A move that could not be made (the database refused it, say) is tried again, less
        # and less often: a bot's turn must never be lost.
        retry = BOT_RETRY_FIRST
        while self.version == version and self.status == PLAYING:
            try:
                await self._machine_move(seat, version, self.bots, seat, by="bot")
            except Exception:
                log.exception("table %s: the bot for seat %d could not move", self.id, seat)
            if self.version != version or self.status != PLAYING:
                return
            await asyncio.sleep(retry)
            retry = min(retry * 2, BOT_RETRY_MOST)

    async def _stand_in_turn(self, seat: int, version: int) -> None:
        """A stand-in bot's move for `seat`, at the table's pace, unless its human came back
        meanwhile."""
        await self._bot_pace(version)
        if seat not in self.stand_ins or self.version != version or self.status != PLAYING:
            return
        if seat not in self.stand_in_bots:
            self.stand_in_bots[seat] = self._new_bot(STAND_IN_BOT, {})
        await self._machine_move(seat, version, self.stand_in_bots, seat, by="stand-in")

    def stand_in(self, asker: int, seat: int) -> None:
        """Let a bot play `seat`'s turns while its human is away, as `asker` (another human
        seat of the table) asks. Refused, naming why, unless the game is on, `seat` is a
        human seat other than the asker's, and it has had no connection for `away_grace`."""
        grace = self.services.settings.away_grace
        if self.status != PLAYING:
            self._check_turn(asker, self.version)  # names what the game is waiting for
        if not 0 <= seat < len(self.spec.seats):
            raise ProtocolError("bad_field", f"there is no seat {seat} at this table")
        if self.spec.seats[asker].kind != HUMAN or seat == asker:
            raise ProtocolError("no_stand_in", "a bot can stand in only for another player",
                                status=409)
        if self.spec.seats[seat].kind != HUMAN:
            raise ProtocolError("no_stand_in", f"{seat_name(seat)} is a bot already",
                                status=409)
        if seat in self.stand_ins:
            return  # asked twice (two players at once): it is done
        if grace <= 0:
            raise ProtocolError("no_stand_in", "this server lets no bot stand in for a "
                                "player (its away_grace setting is 0)", status=409)
        since = self.away_since.get(seat)
        if since is None:
            raise ProtocolError("no_stand_in", f"{seat_name(seat)} is here: a bot may stand "
                                "in only for a player who has left", status=409)
        away = time.time() - since
        if away < grace:
            raise ProtocolError(
                "no_stand_in",
                f"{seat_name(seat)} has been away for {away:.0f} s; a bot may stand in after "
                f"{grace:g} s away",
                status=409, retry_after=round(grace - away, 1),
            )
        self.stand_ins.add(seat)
        if self.state.current_player() == seat:
            self.deadline = None  # the stand-in moves at the bot's pace, not the clock's
        log.info("table %s: a bot stands in for seat %d, away for %.0f s", self.id, seat, away)
        self._views.clear()
        self._send_all_views()
        self.presence_changed()
        if self.state.current_player() == seat:
            self.spawn(self._stand_in_turn(seat, self.version))

    async def _moment_wait(self, version: int) -> None:
        """Until everyone watching has seen the moment of `version`, `moment_pause` at most."""
        loop = asyncio.get_running_loop()
        until = loop.time() + self.services.settings.moment_pause
        while self.version == version and not self.moment_seen():
            left = until - loop.time()
            if left <= 0:
                return
            self._seen_changed.clear()
            try:
                await asyncio.wait_for(self._seen_changed.wait(), left)
            except TimeoutError:
                return

    def moment_seen(self) -> bool:
        """Whether everyone the table waits for has seen the current moment: each human seat
        with a connection (one of its connections is enough), or, with none, each spectator.
        With nobody watching at all, there is nobody to wait for."""
        seats = [seat for seat, group in self.listeners.items()
                 if seat is not None and group and self.spec.seats[seat].kind == HUMAN]
        if seats:
            return all(not self._seen.isdisjoint(self.listeners[seat]) for seat in seats)
        return all(listener in self._seen for listener in self.listeners.get(None, ()))

    def seen(self, listener: Listener, version: int) -> None:
        """`listener` has seen the moment shown with `version` (any other version: nothing
        to do, the table has moved on or never showed it)."""
        if version != self.moment_version or version != self.version:
            return
        if listener not in self.listeners.get(listener.seat, ()):
            return
        self._seen.add(listener)
        self._seen_changed.set()

    async def _clock_turn(self, seat: int, version: int, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - time.time()))
        # A clock set again meanwhile (its player came back after a stand-in) runs its own.
        if self.version != version or self.spec.clock is None or self.deadline != deadline:
            return
        self._send_all(message("timeout", table=self.id, seat=seat, version=version))
        if seat not in self.clock_bots:
            self.clock_bots[seat] = self._new_bot(self.spec.clock.bot, self.spec.clock.options)
        await self._machine_move(seat, version, self.clock_bots, seat, by="clock")

    async def _machine_move(
        self, seat: int, version: int, bots: dict[int, Bot], key: int, by: str
    ) -> None:
        """Ask a bot for `seat`'s move and play it; a failing bot, or one still thinking at
        the move deadline, gives way to a random move."""
        state = self.state
        bot = bots[key]
        try:
            action, bots[key] = await self.services.pool.step(
                bot, state, seat, timeout=self.services.settings.bot_move_timeout
            )
        except BotTimeout as overrun:
            log.warning("table %s: seat %d's %s (the %s bot) overran its move: %s; a random "
                        "legal move is played instead", self.id, seat, by,
                        getattr(bot, "name", type(bot).__name__), overrun)
            plan = self.spec.clock if by == "clock" else self.spec.seats[seat]
            if not overrun.stopped and by == "stand-in":
                bots[key] = self._new_bot(STAND_IN_BOT, {})
            elif not overrun.stopped and plan is not None:
                # The old bot still thinks in its thread and would change under a new move.
                bots[key] = self._new_bot(plan.bot or "random", plan.options)
            action = None
        except Exception:
            log.exception("table %s: the %s for seat %d failed", self.id, by, seat)
            action = None
        if self.version != version:
            return
        if not isinstance(action, int) or state.illegal_reason(action) is not None:
            if action is not None:
                log.warning("table %s: the %s chose %r, which is illegal", self.id, by, action)
            action = self.services.rng.choice(state.legal_actions())
        try:
            await self.play(seat, version, action)
        except ProtocolError as error:
            if error.code != "stale_version":
                log.warning("table %s: the %s's move was refused: %s", self.id, by, error)

    # ------------------------------------------------------------------ questions
    def why(self, seat: int, action: int | str) -> dict[str, Any]:
        """Whether `seat` may play `action` now, and if not, the rule that forbids it.

        Only the seat to move is answered from the rules: an explanation given to anyone
        else could speak of the mover's hidden cards.
        """
        player = self.state.current_player()
        if self.status != PLAYING or player != seat:
            if self.status == WAITING:
                reason = "the game has not started"
            elif self.status == FINISHED:
                reason = "the game is over; no more moves can be made"
            elif self.status == ABANDONED:
                reason = self.abandoned_words()
            else:
                reason = f"it is not your turn: {seat_name(player)} is to move"
            return {"action": action if isinstance(action, int) else None, "text": None,
                    "legal": False, "reason": reason, "version": self.version}
        action_id = self._resolve(action)
        reason = self.state.illegal_reason(action_id)
        return {"action": action_id, "text": self._text(action_id), "legal": reason is None,
                "reason": reason, "version": self.version}

    async def sample(self, seat: int) -> dict[str, Any]:
        """A made-up history consistent with all `seat` knows, drawn by `resample(seat)`:
        what a remote bot needs to think. Its hidden parts are guesses, not the truth."""
        if self.status != PLAYING:
            raise ProtocolError("not_playing", "samples are drawn only while the game is on",
                                status=409)
        version = self.version
        seed = self.services.rng.getrandbits(64)
        try:
            guess = await self.services.pool.run(_sample_history, self.state.clone(), seat, seed)
        except LadyTigerError as error:
            raise ProtocolError("no_sample", str(error), status=500) from None
        return {"version": version, "history": guess}

    async def hint(self, seat: int) -> dict[str, Any]:
        """A suggested move for `seat` on its own turn: the move, the rule of thumb behind
        it and the search's note (ladytiger.bots.advice), worked out in the bot workers from
        what the seat may know."""
        return await self.ask_hint(seat)

    def ask_hint(self, seat: int) -> Coroutine[Any, Any, dict[str, Any]]:
        """Refuse the hint at once where the table does not allow hints, off turn, and past
        the seat's rate (`hints_per_minute`, `hint_burst`); otherwise the answer to await.
        Asking again about the same position shares the first answer and is not counted."""
        if not self.spec.allows_hints():
            raise ProtocolError("hints_off", "hints are off at this table: its creator did "
                                "not allow them", status=403)
        version = self.version
        self._check_turn(seat, version)
        asked = self._hints.get(seat)
        if asked is None or asked[0] != version:
            self._count_hint(seat)
            work = asyncio.ensure_future(self._work_out_hint(self.state.clone(), seat))
            work.add_done_callback(_consume_error)
            asked = self._hints[seat] = (version, work)
        return self._hint_answer(seat, asked)

    async def _hint_answer(
        self, seat: int, asked: tuple[int, asyncio.Future[dict[str, Any]]]
    ) -> dict[str, Any]:
        version, work = asked
        try:
            answer = await asyncio.shield(work)
        except Exception:
            if self._hints.get(seat) is asked:
                del self._hints[seat]  # a failure is not kept: asking again tries again
            raise
        if self.version != version:
            raise ProtocolError(
                "stale_version", "the table moved on while the hint was worked out; ask "
                "again", status=409, version=self.version,
            )
        return {"version": version, **answer}

    def _count_hint(self, seat: int) -> None:
        settings = self.services.settings
        bucket = self._hint_buckets.get(seat)
        if bucket is None:
            bucket = TokenBucket(settings.hints_per_minute / 60.0, settings.hint_burst)
            self._hint_buckets[seat] = bucket
        if not bucket.take():
            wait = math.ceil((1.0 - bucket.level) / bucket.rate) if bucket.rate > 0 else None
            after = f"; the next one in {wait} s" if wait is not None else ""
            raise ProtocolError(
                "rate_limited",
                f"too many hints: at most {settings.hint_burst:g} in a row and "
                f"{settings.hints_per_minute:g} a minute{after}",
                status=429, retry_after=wait,
            )

    async def _work_out_hint(self, state: State, seat: int) -> dict[str, Any]:
        """The hint, searched in a bot worker; should the search fail or overrun, the rules
        of thumb alone answer."""
        settings = self.services.settings
        pool = self.services.pool
        seed = self.services.rng.getrandbits(64)
        try:
            return await pool.compute(settings.hint_seconds + HINT_GRACE, hint_job, state,
                                      seat, seed, settings.hint_iterations,
                                      settings.hint_seconds)
        except Exception as error:
            log.warning("table %s: the hint for seat %d could not be searched (%s); the "
                        "rules of thumb answer alone", self.id, seat, error)
        try:
            return await pool.compute(HINT_GRACE, hint_job, state, seat, seed, 0, None)
        except Exception:
            log.exception("table %s: no hint could be worked out for seat %d", self.id, seat)
            raise ProtocolError("hint_failed", "no hint could be worked out for this "
                                "position; try again later", status=500) from None

    def record(self) -> dict[str, Any]:
        if self.status != FINISHED:
            raise ProtocolError(
                "not_finished", "the record is given out only when the game is over", status=409
            )
        return to_record(
            self.state,
            {
                "table": self.id,
                "seats": [plan.to_json() for plan in self.spec.seats],
                "finished_at": self.finished_at,
            },
        )

    # ------------------------------------------------------------------ messages
    def view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` (None: a spectator) is shown now: its observation and, on its turn,
        its legal moves with their texts and structured descriptions."""
        state = self.state
        player = state.current_player()
        mine = self.status == PLAYING and seat is not None and player == seat
        deadline = None
        if self.deadline is not None and self.spec.clock is not None:
            deadline = {"seat": player, "at": self.deadline, "seconds": self.spec.clock.seconds}
        return {
            "type": "view",
            "table": self.id,
            "version": self.version,
            "status": self.status,
            "seat": seat,
            "current_player": player,
            "your_turn": mine,
            "deadline": deadline,
            "observation": state.observation(seat),
            "legal_actions": [state.describe_action(a) for a in state.legal_actions()]
            if mine
            else [],
            # The same for every reader: the engine builds it from public information only.
            "moment": self.moment if self.moment_version == self.version else None,
            # Seats whose turns a bot plays while their human is away (Table.stand_in).
            "stand_ins": sorted(self.stand_ins),
            **({"abandoned": self.abandoned_words(),
                # False: it ended before the deal (closed, or never full): no board to show.
                "began": bool(state.actors())} if self.status == ABANDONED else {}),
            **({"resigned": self.resigned()} if self.resigned() is not None else {}),
            **({"closed": self.closed()} if self.closed() is not None else {}),
            # It goes on at table `rematch`, bots in the seats nobody had joined.
            **({"restarted": self.restarted(), "rematch": self.rematch}
               if self.restarted() is not None else {}),
            **({"opened": True} if self.opened() else {}),
        }

    def view_text(self, seat: int | None) -> str:
        text = self._views.get(seat)
        if text is None:
            text = self._views[seat] = encode(self.view(seat))
        return text

    def end_text(self) -> str:
        """The end of the game with its record (kept: a finished table never changes)."""
        if self._end is None:
            self._end = self._end_message()
        return self._end

    def _end_message(self) -> str:
        return message(
            "end",
            table=self.id,
            version=self.version,
            returns=self.state.returns(),
            scores=self.state.scores(),
            record=self.record(),
        )

    def presence(self) -> str:
        return message(
            "presence",
            table=self.id,
            seats=self.seats_info(),
            spectators=len(self.listeners.get(None, ())),
        )

    def seats_info(self) -> list[dict[str, Any]]:
        names = self.seat_names()
        grace = self.services.settings.away_grace
        now = time.time()
        seats = []
        for seat, plan in enumerate(self.spec.seats):
            entry: dict[str, Any] = {"seat": seat, "kind": plan.kind}
            if plan.kind == BOT:
                entry.update(bot=plan.bot, options=dict(plan.options), name=names[seat])
            else:
                holder = self.players[seat]
                entry.update(
                    open=plan.open,
                    claimed=self.token_hashes[seat] is not None,
                    joined=self.joined[seat],
                    connected=bool(self.listeners.get(seat)),
                    # Since when (server time) the seat has had nobody here; None: here.
                    away_since=self.away_since.get(seat),
                    # Seconds from now until `stand_in` may be asked for this seat (None:
                    # its player is here, or the server allows none): counted by the reader
                    # from when it read this, so no clock needs to agree with the server's.
                    stand_in_wait=self._stand_in_wait(seat, grace, now),
                    stand_in=seat in self.stand_ins,
                    name=names[seat],
                    player=None if holder is None else {"id": holder.id, "name": names[seat]},
                )
            seats.append(entry)
        return seats

    def _stand_in_wait(self, seat: int, grace: float, now: float) -> float | None:
        since = self.away_since.get(seat)
        if since is None or grace <= 0:
            return None
        return round(max(0.0, grace - (now - since)), 1)

    def info(self) -> dict[str, Any]:
        """The table as the lobby and the waiting room show it: nothing secret."""
        spec = self.spec
        info: dict[str, Any] = {
            "id": self.id,
            "game": spec.game,
            "title": self.game.info.title,
            "options": dict(spec.options),
            "status": self.status,
            "version": self.version,
            "current_player": self.state.current_player() if self.status == PLAYING else None,
            "seats": self.seats_info(),
            "free_seats": self.free_seats(),
            "spectators": len(self.listeners.get(None, ())),
            "clock": spec.clock.to_json() if spec.clock else None,
            "bot_pause": spec.bot_pause,
            "pace": spec.pace,
            "public": spec.public,
            "created_at": spec.created_at,
            "finished_at": self.finished_at,
            "rematch_of": spec.rematch_of,
            "rematch": self.rematch,
            "chat": spec.chat,
            "rated": spec.rated,
            "hints": spec.allows_hints(),
            "ratings": self.ratings,
        }
        if self.status == FINISHED:
            info["result"] = {"returns": self.state.returns(), "scores": self.state.scores()}
        elif self.status == ABANDONED:
            info["abandoned"] = {"reason": self.ended_reason, "words": self.abandoned_words()}
            if self.resigned() is not None:
                info["abandoned"]["resigned"] = self.resigned()
            if self.closed() is not None:
                info["abandoned"]["closed"] = self.closed()
            if self.restarted() is not None:
                info["abandoned"]["restarted"] = self.restarted()
            if self.opened():
                info["abandoned"]["opened"] = True
        return info

    def _send_all_views(self) -> None:
        """Send every listener the view of its seat (built once per seat)."""
        for seat, group in list(self.listeners.items()):
            text = self.view_text(seat)
            for listener in list(group):
                self._deliver(listener, text)

    def _send_all(self, text: str) -> None:
        # Over copies: sending may close a slow reader, which leaves its group.
        for group in list(self.listeners.values()):
            for listener in list(group):
                self._deliver(listener, text)


def resigned_seat(reason: str | None) -> int | None:
    """The seat named by a RESIGNED reason ("resigned:2"), else None."""
    kind, _, seat = (reason or "").partition(":")
    return int(seat) if kind == RESIGNED and seat.isdigit() else None


def restarted_seat(reason: str | None) -> int | None:
    """The seat named by a RESTARTED or OPENED reason ("restarted:0", "opened:0"): the
    table went on at a new one. Else None."""
    kind, _, seat = (reason or "").partition(":")
    return int(seat) if kind in (RESTARTED, OPENED) and seat.isdigit() else None


def closed_seat(reason: str | None) -> int | None:
    """The seat named by a CLOSED reason ("closed:0"), else None."""
    kind, _, seat = (reason or "").partition(":")
    return int(seat) if kind == CLOSED and seat.isdigit() else None


def resign_returns(players: int, seat: int) -> list[float]:
    """A resigned game's result: the seat that resigned lost, every other seat won."""
    return [0.0 if other == seat else 1.0 for other in range(players)]


def chat_fields(line: dict[str, Any]) -> dict[str, Any]:
    """A chat line as the protocol shows it."""
    return {"index": line["index"], "at": line["at"], "text": line["text"],
            "from": {"seat": line["seat"], "player": {"id": line["player"],
                                                      "name": line["name"]}}}


def clean_moment(found: Any) -> dict[str, Any] | None:
    """A moment as views carry it, `{"kind", "title", "lines"}`, or None for none.

    What the hook returns goes to every connection, so only those three fields go, as text:
    anything else it may hold is left behind rather than sent unchecked.
    """
    if found is None:
        return None
    if not isinstance(found, dict):
        raise TypeError(f"a moment must be a dict, not {type(found).__name__}")
    kind, title, lines = found.get("kind"), found.get("title"), found.get("lines", [])
    if not isinstance(kind, str) or not isinstance(title, str) or not isinstance(lines, list):
        raise TypeError(f"a moment needs a text kind and title and a list of lines: {found!r}")
    return {
        "kind": kind[:64],
        "title": title[:MOMENT_TEXT],
        "lines": [str(line)[:MOMENT_TEXT] for line in lines[:MOMENT_LINES]],
    }


def storage_failure(what: str) -> ProtocolError:
    return ProtocolError(
        "storage_unavailable",
        f"{what} could not be saved: the server's storage is full or failing; nothing was "
        "changed, try again later",
        status=503,
    )


def _sample_history(state: State, seat: int, seed: int) -> list[str]:
    guess = state.resample(seat, random.Random(seed))
    return to_record(guess)["history"]


async def shielded(work: Coroutine[Any, Any, T]) -> T:
    """Run `work` in its own task that the caller's cancellation cannot stop.

    Every change of a table writes the database, then memory. A caller that goes away while
    the write is under way (a client that disconnects) must not leave memory behind the
    database, so the change finishes on its own.
    """
    task = asyncio.ensure_future(work)
    task.add_done_callback(_consume_error)
    return await asyncio.shield(task)


def _consume_error(task: asyncio.Task[Any]) -> None:
    # The caller of `play` may have gone; its task's error must not be reported as lost.
    if not task.cancelled():
        task.exception()
