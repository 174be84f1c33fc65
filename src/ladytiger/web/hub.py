"""The server's tables: creating them, finding them, restoring them after a restart, and
ending the ones nobody uses.

Unfinished tables live in memory for as long as they play; finished ones stay in a small
cache and are otherwise read back from the database when someone asks for them. A sweep
every `sweep_interval` seconds closes waiting tables nobody filled, abandons games nobody
is at, gives back lobby seats claimed but never used, and deletes ended tables past their
retention: so no client, however busy, can fill the server for good.

On a shared database (PostgreSQL, docs/deploy.md) several hubs, one per process, serve the
same tables. Each unfinished table has one owner process, which holds it in `active` and runs
its bots, clock and sweep; another process that has clients at the table holds a mirror of
it, kept up to date by the database's notices. Every few seconds each process says it is
alive, and takes over the tables of a process that has stopped saying so.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import random
import time
from collections import OrderedDict
from dataclasses import replace
from typing import Any

from ladytiger.core import registered_games
from ladytiger.web import store as db
from ladytiger.web.bot_options import BotLimits
from ladytiger.web.config import Settings
from ladytiger.web.directory import Directory
from ladytiger.web.players import Player, bot_player, seat_label, table_names
from ladytiger.web.pool import BotPool
from ladytiger.web.protocol import ProtocolError, message
from ladytiger.web.quotas import ClientRate, ClientTables
from ladytiger.web.ratings import Skill, rate, shown_rating
from ladytiger.web.replay_service import ReplayService
from ladytiger.web.security import DealerRandom, hash_token, new_token
from ladytiger.web.specs import BOT, HUMAN, SeatPlan, TableSpec, new_table_id, parse_seat
from ladytiger.web.store import WriteConflict
from ladytiger.web.store_postgres import LIGHT_KINDS, read_move_detail
from ladytiger.web.stores import open_store
from ladytiger.web.tables import (
    ABANDONED,
    DESERTED,
    ENDED,
    EXPIRED,
    FINISHED,
    OPENED,
    PLAYING,
    RESTARTED,
    WAITING,
    Services,
    Table,
    closed_seat,
    resign_returns,
    resigned_seat,
    restarted_seat,
    shielded,
    storage_failure,
)

GAME_TITLES = {info.name: info.title for info in registered_games()}
DELETE_BATCH = 500  # ended tables deleted per sweep at most, so a sweep stays short

log = logging.getLogger("ladytiger.web.hub")


class Hub:
    def __init__(self, settings: Settings, rng: random.Random | None = None) -> None:
        self.settings = settings
        store = open_store(settings)
        self.services = Services(
            settings=settings,
            store=store,
            pool=BotPool(settings.bot_pool, settings.bot_workers, settings.bot_move_timeout),
            # The dealer: every chance outcome and every bot seed comes from here.
            rng=rng if rng is not None else DealerRandom(),
            players=Directory(store),
        )
        self.players = self.services.players
        self._background: set[asyncio.Task[Any]] = set()
        self.active: dict[str, Table] = {}
        self.finished: OrderedDict[str, Table] = OrderedDict()
        self.restored = 0
        self.broken: list[str] = []
        self.create_rate = ClientRate(
            settings.creates_per_minute, settings.create_burst, "new tables and seats"
        )
        self.client_tables = ClientTables(settings.tables_per_client)
        self.player_rate = ClientRate(settings.players_per_minute, settings.player_burst,
                                      "new players")
        # Loads of ended tables under way, so that a crowd asking at once shares one.
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        self.replays = ReplayService(settings)
        self._sweeper: asyncio.Task[None] | None = None
        # Shared database only: tables another process owns, held for this one's clients,
        # with when each was last asked for; and the loop that keeps this process alive.
        self.shared = bool(getattr(store, "shared", False))
        self.mirrors: dict[str, Table] = {}
        self._mirror_asked: dict[str, float] = {}
        self._beating: asyncio.Task[None] | None = None
        self._look_now = asyncio.Event()
        self.taken_over = 0

    @property
    def store(self) -> Any:
        return self.services.store

    # ------------------------------------------------------------------ lifecycle
    async def open(self) -> None:
        """Open the database and bring back every unfinished table, bots and all (on a
        shared database: those no live process owns)."""
        await self.store.start()
        if self.shared:
            self.store.on_notice = self._heard
            self.store.on_resync = self._resync
            await self.store.heartbeat()
            await self.store.take_over(self.settings.lease_seconds)
        for stored in await self.store.call(db.load_unfinished):
            try:
                table = Table.restore(stored, self.services)
            except Exception:
                log.exception("table %s cannot be restored; it stays in the database as is",
                              stored.spec.get("id"))
                self.broken.append(str(stored.spec.get("id")))
                continue
            self._keep(table)
            self.restored += 1
        for table in list(self.active.values()):
            table.resume()
        if self.restored:
            log.info("restored %d unfinished tables", self.restored)
        self._sweeper = asyncio.create_task(self._sweep_forever())
        if self.shared:
            self._beating = asyncio.create_task(self._beat_forever())

    async def close(self) -> None:
        for task in (self._sweeper, self._beating):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        for table in [*self.active.values(), *self.mirrors.values(), *self.finished.values()]:
            table.cancel_tasks()
        self.services.pool.close()
        self.replays.close()
        if self.shared:
            try:
                await self.store.let_go()  # the others take this process's tables at once
            except Exception:
                log.exception("could not hand this process's tables over; the others take "
                              "them when its lease runs out")
        await self.store.close()

    # ------------------------------------------------------------------ several processes
    def _heard(self, kind: str, table_id: str, detail: str = "") -> None:
        """Another process changed `table_id` (or, "released", let its tables go)."""
        if kind == "released":
            self._look_now.set()
            return
        table = (self.active.get(table_id) or self.mirrors.get(table_id)
                 or self.finished.get(table_id))
        if table is None:
            return
        move = read_move_detail(detail) if kind == "move" else None
        if move is None or not table.moved_elsewhere(*move):
            table.changed_elsewhere(full=kind not in LIGHT_KINDS)

    def _resync(self) -> None:
        """Notices may have been missed (the listening connection was lost): read every
        table held again."""
        for table in [*self.active.values(), *self.mirrors.values()]:
            table.changed_elsewhere(full=True)

    async def _beat_forever(self) -> None:
        while True:
            try:
                await self.beat()
            except Exception:
                log.exception("the heartbeat failed; it runs again soon")
            self._look_now.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._look_now.wait(), self.settings.heartbeat_interval)

    async def beat(self) -> list[str]:
        """Say this process is alive, and take over the tables of dead ones; the ids taken."""
        if not await self.store.heartbeat():
            # Given up for dead (a long pause): the tables taken from it are not its own.
            mine = await self.store.owned()
            for table in [t for t in self.active.values() if t.id not in mine]:
                log.warning("table %s: another process took it over", table.id)
                self._demote(table)
        taken = await self.store.take_over(self.settings.lease_seconds)
        for table_id in taken:
            try:
                await self._adopt(table_id)
            except Exception:
                log.exception("table %s could not be taken over", table_id)
        if taken:
            log.info("took over %d tables of a stopped process", len(taken))
        return taken

    def _demote(self, table: Table) -> None:
        table.owner = False
        table.cancel_tasks()
        self.active.pop(table.id, None)
        self.client_tables.ended(table.id)
        self.mirrors[table.id] = table
        self._mirror_asked[table.id] = time.time()

    async def _adopt(self, table_id: str) -> None:
        """This process now owns `table_id`: run its bots and clock from where it is."""
        table = self.mirrors.pop(table_id, None)
        self._mirror_asked.pop(table_id, None)
        if table is None:
            table = self.active.get(table_id)
        if table is not None:
            table.owner = True
            async with table.lock:
                await table._catch_up(full=True)
        else:
            stored = await self.store.call(db.load_table, table_id)
            if stored is None:
                return
            table = Table.restore(stored, self.services)
            if table_id in self.mirrors:  # loaded for a client meanwhile
                table = self.mirrors.pop(table_id)
                table.owner = True
        self.taken_over += 1
        self._keep(table)
        if table.status not in ENDED:
            table.resume()

    def _forget_idle_mirrors(self, now: float) -> int:
        """Let go of mirrors nobody has asked for in `mirror_idle` seconds and nobody
        watches: they are read again when asked for."""
        idle = [table_id for table_id, table in self.mirrors.items()
                if not table.listeners and not table.lock.locked()
                and now - self._mirror_asked.get(table_id, 0.0) > self.settings.mirror_idle]
        for table_id in idle:
            del self.mirrors[table_id]
            self._mirror_asked.pop(table_id, None)
        return len(idle)

    # ------------------------------------------------------------------ the sweep
    async def _sweep_forever(self) -> None:
        while True:
            try:
                await self.sweep()
            except Exception:
                log.exception("the sweep of unused tables failed; it runs again later")
            await asyncio.sleep(self.settings.sweep_interval)

    async def sweep(self) -> dict[str, int]:
        """One pass over the tables (see the module's docstring); counts what it did."""
        settings = self.settings
        now = time.time()
        done = {"released": 0, "expired": 0, "abandoned": 0, "deleted": 0}
        for table in list(self.active.values()):
            try:
                if table.status == WAITING:
                    if table.claims:
                        released = await table.release_unused_claims(settings.seat_claim_timeout)
                        done["released"] += len(released)
                    age = now - table.spec.created_at
                    if 0 < settings.waiting_expiry < age and await table.abandon(EXPIRED):
                        done["expired"] += 1
                elif table.status == PLAYING and settings.abandon_after > 0:
                    idle = now - table.last_activity
                    if (not table.humans_connected() and idle > settings.abandon_after
                            and await table.abandon(DESERTED)):
                        done["abandoned"] += 1
            except ProtocolError as error:  # the database refused: the next sweep retries
                log.warning("table %s: the sweep could not end it: %s", table.id, error)
        if self.mirrors:
            done["forgotten"] = self._forget_idle_mirrors(now)
        if settings.finished_retention > 0:
            deleted = await self.store.call(
                db.delete_ended_before, now - settings.finished_retention, DELETE_BATCH
            )
            for table_id in deleted:
                self.finished.pop(table_id, None)
            done["deleted"] = len(deleted)
        if any(done.values()):
            log.info("sweep: %s", ", ".join(f"{n} {what}" for what, n in done.items() if n))
        return done

    # ------------------------------------------------------------------ tables
    def _keep(self, table: Table) -> None:
        table.on_finish = self._ended
        if table.status in ENDED:
            self._cache_finished(table)
        elif not table.owner:
            self.mirrors[table.id] = table
            self._mirror_asked[table.id] = time.time()
            for player in table.players:
                if player is not None:
                    player.tables.add(table.id)
        else:
            self.active[table.id] = table
            for owner in table.spec.owners:  # quotas hold across restarts
                self.client_tables.add(owner, table.id)
            for player in table.players:
                if player is not None:
                    player.tables.add(table.id)
            table.on_finish = self._ended

    def _ended(self, table: Table) -> None:
        """A table in play just ended: file it, and rate its game if it counts."""
        self._cache_finished(table)
        for player in table.players:
            if player is not None:
                player.tables.discard(table.id)
        if not (table.spec.rated and table.finished_here):
            return
        resigned = table.resigned()
        if table.status == FINISHED or resigned is not None:
            returns = (table.state.returns() if resigned is None
                       else resign_returns(len(table.spec.seats), resigned))
            task = asyncio.ensure_future(self._rate(table, returns))
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    async def _rate(self, table: Table, returns: list[float]) -> None:
        """Update the ratings of a finished or resigned game between players (see
        docs/protocol.md)."""
        try:
            seats = table.spec.seats
            if len(seats) < 2:
                return
            rated: list[Player] = []
            for seat, plan in enumerate(seats):
                holder = table.players[seat]
                if plan.kind == BOT:
                    holder = await self.players.bot(plan.bot or "random", dict(plan.options))
                if holder is None:
                    return  # a seat played by token only: nobody to rate
                rated.append(holder)
            if len({player.id for player in rated}) != len(rated):
                return  # one player (or one bot level) on several seats rates nothing
            game = table.spec.game
            known = await self.store.call(db.ratings_of, game, [p.id for p in rated])
            before = [Skill(*known[p.id]) if p.id in known else Skill() for p in rated]
            after = rate(before, returns)
            changes = [
                {"seat": seat, "player": player.id, "before": old.shown, "after": new.shown,
                 "games": new.games}
                for seat, (player, old, new) in enumerate(zip(rated, before, after, strict=True))
            ]
            await self.store.call(db.save_ratings, game, [
                (player.id, skill.mu, skill.sigma, skill.shown, skill.games,
                 won_game(returns, seat))
                for seat, (player, skill) in enumerate(zip(rated, after, strict=True))
            ], table.id, changes)
            table.rated(changes)
        except Exception:
            log.exception("table %s: its ratings could not be updated", table.id)

    async def seat_ratings(self, table: Table) -> list[dict[str, Any] | None]:
        """Each seat's rating on the table's game as it stands now, `{"rating", "games"}`;
        None for a seat no player holds or a player never rated on this game."""
        return (await self.rate_seats([table.info()]))[0]

    async def rate_seats(self, entries: list[dict[str, Any]]) -> list[list[dict[str, Any] | None]]:
        """`seat_ratings` for tables as listed (their `game` and `seats`): one read per game."""
        ids = [[seat_player_id(seat) for seat in entry["seats"]] for entry in entries]
        known: dict[str, dict[str, tuple[float, float, int]]] = {}
        for game in {entry["game"] for entry in entries}:
            wanted = sorted({pid for entry, seats in zip(entries, ids, strict=True)
                             if entry["game"] == game for pid in seats if pid is not None})
            known[game] = (await self.store.call(db.ratings_of, game, wanted)) if wanted else {}
        return [
            [None if pid is None or pid not in known[entry["game"]]
             else {"rating": shown_rating(*known[entry["game"]][pid][:2]),
                   "games": known[entry["game"]][pid][2]}
             for pid in seats]
            for entry, seats in zip(entries, ids, strict=True)
        ]

    def _cache_finished(self, table: Table) -> None:
        self.active.pop(table.id, None)
        self.mirrors.pop(table.id, None)
        self._mirror_asked.pop(table.id, None)
        self.client_tables.ended(table.id)
        self.finished[table.id] = table
        self.finished.move_to_end(table.id)
        while len(self.finished) > self.settings.finished_cache:
            self.finished.popitem(last=False)

    async def create(
        self,
        spec: TableSpec,
        token_hashes: list[str | None] | None = None,
        client: str | None = None,
        player: Player | None = None,
    ) -> tuple[Table, dict[int, str]]:
        """Make a table; returns it with the new token of every invited human seat.

        `client` (the requester's address) and `player` (who asks, if a player) are each
        held to the per-client rate and quota; a rematch, asked for by a seat of a finished
        table, has neither."""
        owners = [key for key in (client, player and f"player:{player.id}") if key]
        for owner in owners:
            self.client_tables.check(owner_key(owner))
        for owner in owners:
            self.create_rate.take(owner)
        if owners:
            spec = replace(spec, owners=tuple(owner_key(owner) for owner in owners))
        table, tokens = await shielded(self._create(spec, token_hashes))
        if table.status not in ENDED:
            for owner in spec.owners:
                self.client_tables.add(owner, table.id)
        return table, tokens

    async def _create(
        self, spec: TableSpec, token_hashes: list[str | None] | None
    ) -> tuple[Table, dict[int, str]]:
        if len(self.active) >= self.settings.max_active_tables:
            raise ProtocolError(
                "server_full",
                f"the server already runs {len(self.active)} tables; try again later",
                status=503,
            )
        tokens: dict[int, str] = {}
        if token_hashes is None:
            token_hashes = []
            for seat, plan in enumerate(spec.seats):
                if plan.kind == HUMAN and not plan.open:
                    tokens[seat] = new_token()
                    token_hashes.append(hash_token(tokens[seat]))
                else:
                    token_hashes.append(None)
        table = Table(
            spec,
            self.services,
            token_hashes=list(token_hashes),
            joined=[False] * len(spec.seats),
        )
        try:
            await self.store.call(db.insert_table, spec.to_json(), token_hashes)
        except WriteConflict:
            raise
        except Exception as error:
            log.error("table %s could not be saved: %s", spec.id, error)
            raise storage_failure("the new table") from None
        self._keep(table)
        await table.start_if_ready()
        return table, tokens

    async def get(self, table_id: str) -> Table | None:
        table = self.active.get(table_id) or self.finished.get(table_id)
        if table is not None:
            return table
        table = self.mirrors.get(table_id)
        if table is not None:
            self._mirror_asked[table_id] = time.time()
            return table
        loading = self._loading.get(table_id)
        if loading is None:
            loading = self._loading[table_id] = asyncio.ensure_future(self._load(table_id))
            loading.add_done_callback(lambda _: self._loading.pop(table_id, None))
        return await asyncio.shield(loading)

    async def _load(self, table_id: str) -> Table | None:
        stored = await self.store.call(db.load_table, table_id)
        if stored is None:
            return None
        try:
            table = Table.restore(stored, self.services)
        except Exception:
            log.exception("table %s cannot be replayed", table_id)
            raise ProtocolError(
                "internal", "this table's moves cannot be replayed", status=500
            ) from None
        held = self.active.get(table_id) or self.mirrors.get(table_id)
        if held is not None:  # taken over while it was read
            return held
        if table.status not in ENDED:
            if not self.shared:
                # An unfinished table not in memory could not be restored at startup.
                raise ProtocolError("internal", "this table could not be restored",
                                    status=500)
            table.owner = False  # another process owns it; this one serves its clients
        self._keep(table)
        return table

    async def require(self, table_id: str) -> Table:
        table = await self.get(table_id)
        if table is None:
            raise ProtocolError("unknown_table", f"there is no table {table_id!r}", status=404)
        return table

    async def rematch(self, table: Table) -> Table:
        """A new table with the same game, options and seats; each seat's token carries over,
        so the same people hold the same seats."""
        if table.status != FINISHED and table.resigned() is None:
            raise ProtocolError("not_finished", "a rematch starts once the game is over",
                                status=409)
        return await shielded(self._rematch(table))

    async def _rematch(self, table: Table) -> Table:
        async with table.lock:
            if table.rematch is None:
                spec = table.spec.rematch(new_table_id())
                try:
                    new, _ = await self.create(spec, token_hashes=list(table.token_hashes))
                except WriteConflict:
                    # Another process made the rematch first: that one is the rematch.
                    await table._catch_up(full=False)
                    if table.rematch is None:
                        raise storage_failure("the rematch") from None
                    return await self.require(table.rematch)
                held = {seat: p.id for seat, p in enumerate(table.players) if p is not None}
                if held:
                    await self.store.call(db.bind_seats, new.id, held)
                    for seat, player in enumerate(table.players):
                        if player is not None:
                            new.players[seat] = player
                            player.tables.add(new.id)
                table.rematch = new.id
                table._send_all(message("rematch", table=table.id, rematch=new.id))
        return await self.require(table.rematch)

    async def fill_empty_seats(self, table: Table, seat: int, bot: str | None) -> Table:
        """`seat` starts a waiting table's game now: a new table with the same game, options
        and terms, bot `bot` in every human seat nobody joined and everyone who did in
        their own seat (their tokens carry over, as in a rematch). The old table ends in
        the same transaction, pointing to the new one, so there is never a game at both.

        `bot` None: instead of bots, the invited seats nobody joined are opened to anyone
        in the lobby, and the new table waits for them (a lobby seat someone took keeps its
        claim)."""
        return await shielded(self._fill_empty_seats(table, seat, bot))

    async def _fill_empty_seats(self, table: Table, seat: int, bot: str | None) -> Table:
        async with table.lock:
            opening = bot is None
            plan = SeatPlan(HUMAN, open=True) if bot is None else parse_seat(
                {"kind": BOT, "bot": bot}, seat, table.spec.make_game(),
                BotLimits.from_settings(self.settings))
            # A second try after someone arrived in another process: the seats still empty
            # are what the asker wants filled (and if none is, the game starts by itself).
            for attempt in range(2):
                absent = table.absent_seats(seat, invited=opening)
                if len(self.active) >= self.settings.max_active_tables:
                    raise ProtocolError("server_full", "the server runs as many tables as it "
                                        "may; try again later", status=503)
                seats = tuple(plan if index in absent else kept
                              for index, kept in enumerate(table.spec.seats))
                spec = replace(table.spec.rematch(new_table_id()), seats=seats,
                               owners=table.spec.owners)
                hashes = [None if index in absent else digest
                          for index, digest in enumerate(table.token_hashes)]
                kind = OPENED if opening else RESTARTED
                what = "the opening of the seats" if opening else "the start with bots"
                if await table._store(db.restart_table, what, table.id, absent,
                                      f"{kind}:{seat}", spec.to_json(), hashes):
                    break
                # Someone arrived, or the table began or ended, in another process just now.
                await table._catch_up(full=True)
                if attempt:
                    table.absent_seats(seat, invited=opening)
                    raise ProtocolError("seats_changed", "the seats changed a moment ago: "
                                        "look again before starting", status=409)
            new = Table(spec, self.services, token_hashes=hashes,
                        joined=[False] * len(spec.seats))
            held = {index: player.id for index, player in enumerate(table.players)
                    if player is not None and index not in absent}
            if held:
                await self.store.call(db.bind_seats, new.id, held)
                for index, player in enumerate(table.players):
                    if index in held and player is not None:
                        new.players[index] = player
                        player.tables.add(new.id)
            self._keep(new)
            table.restarted_at(seat, new.id, kind)
        await new.start_if_ready()
        return new

    # ------------------------------------------------------------------ a player's tables
    async def _gather_player_tables(self, player: Player) -> None:
        """On a shared database: hold every unfinished table of the player's, wherever it
        was made or joined."""
        if not self.shared:
            return
        for table_id in await self.store.unfinished_of_player(player.id):
            player.tables.add(table_id)
            if table_id not in self.active and table_id not in self.mirrors:
                with contextlib.suppress(ProtocolError):
                    await self.get(table_id)

    async def your_turn_tables(self, player: Player) -> list[str]:
        """The ids of the player's tables waiting for their move, the table made first
        first (the tables do not keep when a turn began)."""
        await self._gather_player_tables(player)
        waiting = [table for seat, table in self._player_tables(player)
                   if table.your_turn(seat)]
        waiting.sort(key=lambda table: table.spec.created_at)
        return [table.id for table in waiting]

    def _player_tables(self, player: Player) -> list[tuple[int, Table]]:
        out = []
        for table_id in list(player.tables):
            table = self.active.get(table_id) or self.mirrors.get(table_id)
            seat = None if table is None else table.seat_of_player(player)
            if table is None or seat is None:
                player.tables.discard(table_id)
                continue
            out.append((seat, table))
        return out

    async def tables_of(self, player: Player, limit: int = 50) -> dict[str, list[Any]]:
        """The player's tables: waiting, in play (their turns first), and the latest ended."""
        await self._gather_player_tables(player)
        waiting, playing = [], []
        for seat, table in self._player_tables(player):
            entry = {**table.info(), "seat": seat, "your_turn": table.your_turn(seat)}
            (waiting if table.status == WAITING else playing).append(entry)
        waiting.sort(key=lambda e: e["created_at"], reverse=True)
        playing.sort(key=lambda e: (not e["your_turn"], -e["created_at"]))
        finished = []
        for row in await self.store.call(db.finished_of_player, player.id, limit):
            entry = ended_entry(row, row["status"])
            if "restarted" in entry.get("abandoned", {}):
                continue  # its game went on at the table that follows it, listed itself
            finished.append(entry | {"seat": row["seat"], "your_turn": False})
        return {"waiting": waiting, "playing": playing, "finished": finished}

    async def listing(self, status: str = WAITING, limit: int = 100) -> list[dict[str, Any]]:
        """`lobby`, on a shared database over every process's tables."""
        if self.shared and status in (WAITING, PLAYING):
            for table_id in await self.store.unfinished_ids(status, limit * 2):
                if table_id not in self.active and table_id not in self.mirrors:
                    with contextlib.suppress(ProtocolError):
                        await self.get(table_id)
        return self.lobby(status, limit)

    def lobby(self, status: str = WAITING, limit: int = 100) -> list[dict[str, Any]]:
        """Public tables: by default those waiting with a free seat, newest first."""
        held = [*self.active.values(), *self.mirrors.values()]
        if status == WAITING:
            chosen = [t for t in held if t.status == WAITING and t.free_seats()]
        elif status == PLAYING:
            chosen = [t for t in held if t.status == PLAYING]
        else:
            chosen = []
        chosen = [t for t in chosen if t.spec.public]
        chosen.sort(key=lambda t: t.spec.created_at, reverse=True)
        return [t.info() for t in chosen[:limit]]

    async def recent_finished(
        self, limit: int = 50, status: str = FINISHED
    ) -> list[dict[str, Any]]:
        """Public tables that ended last: finished ones, or abandoned ones."""
        rows = await self.store.call(db.recent_finished, limit * 2, status)
        out = [entry for entry in (ended_entry(row, status) for row in rows
                                   if row["spec"].get("public", True))
               if "restarted" not in entry.get("abandoned", {})]
        return out[:limit]


def owner_key(owner: str) -> str:
    """How a table's creator is remembered for the quota: a player by id, an address only by
    a digest of it (the database keeps no address)."""
    if owner.startswith("player:"):
        return owner
    return "address:" + hashlib.sha256(owner.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def seat_player_id(seat: dict[str, Any]) -> str | None:
    """The rated player of a seat as listed: its bot level's, or the person's holding it."""
    if seat["kind"] == BOT:
        return bot_player(seat.get("bot") or "random", dict(seat.get("options") or {})).id
    held = seat.get("player")
    return None if held is None else str(held["id"])


def ended_entry(row: dict[str, Any], status: str) -> dict[str, Any]:
    """An ended table as listings show it, from its database row."""
    spec = row["spec"]
    holders = row.get("players", {})
    names = table_names([
        seat_label(seat, holders[seat][1] if seat in holders else None,
                  (plan.get("bot") or "random") if plan["kind"] == BOT else None)
        for seat, plan in enumerate(spec["seats"])
    ], bots=[seat for seat, plan in enumerate(spec["seats"]) if plan["kind"] == BOT])
    seats = []
    for seat, plan in enumerate(spec["seats"]):
        entry_seat = {"seat": seat, **plan, "name": names[seat]}
        if plan["kind"] != BOT:
            held = holders.get(seat)
            entry_seat["player"] = None if held is None else {"id": held[0],
                                                              "name": names[seat]}
        seats.append(entry_seat)
    entry = {
        "id": spec["id"],
        "game": spec["game"],
        "title": GAME_TITLES.get(spec["game"], spec["game"]),
        "options": spec["options"],
        "status": status,
        "seats": seats,
        "created_at": spec["created_at"],
        "finished_at": row["finished_at"],
        "rematch": row.get("rematch"),
        "rated": spec.get("rated", True),
        "chat": spec.get("chat", True),
    }
    stored = dict(row["result"] or {})
    # What the game did to each seat's rating, once rated (Hub._rate).
    entry["ratings"] = stored.pop("ratings", None)
    if status == ABANDONED:
        reason = stored.get("abandoned")
        entry["abandoned"] = {"reason": reason}
        if resigned_seat(reason) is not None:
            entry["abandoned"]["resigned"] = resigned_seat(reason)
        if closed_seat(reason) is not None:
            entry["abandoned"]["closed"] = closed_seat(reason)
        if restarted_seat(reason) is not None:
            entry["abandoned"]["restarted"] = restarted_seat(reason)
    else:
        entry["result"] = stored or None
    return entry


def won_game(returns: list[float], seat: int) -> bool:
    """Whether `seat` won the game, alone or sharing the win: its return is the best, and
    not everyone's is (a game everyone ties is nobody's win)."""
    best = max(returns)
    return returns[seat] == best and best > min(returns)
