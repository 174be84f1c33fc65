"""A table: one game in play, its seats and tokens, its version, its bots and its clock.

The committed state is `Table.state`. A move is tried on a clone; the clone, with the chance
outcomes that follow the move, is written to the store, and only after the commit does it
become the table's state, get a new version and go out to every connection as views. So a
view, an acknowledgement or a bot's turn never rests on a move the database might not have.
Moves on one table are serialised by its lock; a move for an old version is refused.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from ladytiger.bots import Bot, load_bot
from ladytiger.core import CHANCE, LadyTigerError, State
from ladytiger.core.playout import sample_chance
from ladytiger.core.record import to_record
from ladytiger.core.state import seat_name
from ladytiger.web import store as db
from ladytiger.web.config import Settings
from ladytiger.web.pool import BotPool
from ladytiger.web.protocol import ProtocolError, encode, message
from ladytiger.web.security import hash_token, new_token, seat_for_token
from ladytiger.web.specs import BOT, HUMAN, TableSpec
from ladytiger.web.store import Store, StoredTable

log = logging.getLogger("ladytiger.web.tables")
T = TypeVar("T")

WAITING = "waiting"  # some human seat has not joined yet; nothing has been dealt
PLAYING = "playing"
FINISHED = "finished"


class Listener(Protocol):
    """A connection watching a table: a seat's, or a spectator's (seat None)."""

    seat: int | None

    def send(self, text: str) -> None: ...


@dataclass
class Services:
    """What every table shares: settings, the database, the bot pool, the dealer's rng."""

    settings: Settings
    store: Store
    pool: BotPool
    rng: random.Random


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
    ) -> None:
        self.spec = spec
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
        self.finished_at = finished_at
        self.listeners: dict[int | None, set[Listener]] = {}
        self.lock = asyncio.Lock()
        self.bots: dict[int, Bot] = {
            seat: self._new_bot(plan.bot or "random", plan.options)
            for seat, plan in enumerate(spec.seats)
            if plan.kind == BOT
        }
        self.clock_bots: dict[int, Bot] = {}
        if self.bots or spec.clock is not None:
            services.pool.warm()
        self.deadline: float | None = None
        self.on_finish: Callable[[Table], None] | None = None
        self._views: dict[int | None, str] = {}
        self._end: str | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    # ------------------------------------------------------------------ making and restoring
    @classmethod
    def restore(cls, stored: StoredTable, services: Services) -> Table:
        """Rebuild a table from the database by replaying its moves through the rules."""
        spec = TableSpec.from_json(stored.spec)
        state = spec.make_game().new_initial_state()
        for index, (action, actor) in enumerate(stored.actions):
            if state.current_player() != actor:
                raise RestoreError(f"table {spec.id}: move {index} was stored for another player")
            state.apply_action(action)
        return cls(
            spec,
            services,
            state=state,
            status=stored.status,
            token_hashes=stored.token_hashes,
            joined=stored.joined,
            rematch=stored.rematch,
            finished_at=stored.finished_at,
        )

    def _new_bot(self, name: str, options: dict[str, Any]) -> Bot:
        seed = self.services.rng.getrandbits(32)
        return load_bot(name, self.game, **{"seed": seed, **options})

    # ------------------------------------------------------------------ seats
    def authenticate(self, token: str) -> int | None:
        return seat_for_token(token, self.token_hashes)

    def free_seats(self) -> list[int]:
        """Open human seats nobody has claimed yet."""
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
            if not await self.services.store.call(db.claim_seat, self.id, seat, digest):
                raise ProtocolError("seat_taken", f"seat {seat} is taken", status=409)
            self.token_hashes[seat] = digest
            self._send_all(self.presence())
            return seat, token

    async def join(self, seat: int) -> None:
        """A seat's token was used: the seat has joined, and play starts once all have."""
        if not self.joined[seat]:
            await shielded(self._join(seat))

    async def _join(self, seat: int) -> None:
        async with self.lock:
            if self.joined[seat]:
                return
            humans = self.spec.human_seats()
            if self.status == WAITING and all(self.joined[s] or s == seat for s in humans):
                # The last seat to arrive: its join and the opening deal commit together.
                after = self.state.clone()
                steps: list[tuple[int, int]] = []
                self._deal(after, steps)
                await self._commit(after, steps, starting=True, joined=seat)
                return
            await self.services.store.call(db.mark_joined, self.id, seat)
            self.joined[seat] = True
            self._send_all(self.presence())

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
        await self._commit(after, steps, starting=True)

    def attach(self, listener: Listener) -> None:
        """Start sending views to `listener`, beginning with the current one."""
        listener.send(self.view_text(listener.seat))
        if self.status == FINISHED:
            listener.send(self.end_text())
        self.listeners.setdefault(listener.seat, set()).add(listener)
        self._send_all(self.presence())

    def detach(self, listener: Listener) -> None:
        group = self.listeners.get(listener.seat)
        if group and listener in group:
            group.discard(listener)
            if not group:
                del self.listeners[listener.seat]
            self._send_all(self.presence())

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
        joined: int | None = None,
    ) -> None:
        finished = after.is_terminal()
        status = FINISHED if finished else PLAYING if starting else None
        result = {"returns": after.returns(), "scores": after.scores()} if finished else None
        start = len(self.state.history())
        try:
            await self.services.store.call(
                db.append_actions, self.id, start, steps, status, result, joined
            )
        except Exception:
            log.exception("table %s: a move could not be saved", self.id)
            raise ProtocolError(
                "internal", "the move could not be saved; nothing was played", status=500
            ) from None
        # The moves were tried on a copy so that a failed write leaves the table untouched.
        # Now they are safe on disk, play them on the table's own state: it keeps the
        # per-seat logs it has built, so each view costs one step, not a replay.
        for action, _ in steps:
            self.state.apply_trusted(action)  # each was checked when the copy played it
        self.version += 1
        if status is not None:
            self.status = status
        if finished:
            self.finished_at = time.time()
        if joined is not None:
            self.joined[joined] = True
            self._send_all(self.presence())
        if on_commit is not None:
            on_commit()
        self._changed()

    # ------------------------------------------------------------------ after every change
    def _changed(self) -> None:
        self._views.clear()
        player = self.state.current_player()
        clock = self.spec.clock
        human_to_move = (
            self.status == PLAYING and player >= 0 and self.spec.seats[player].kind == HUMAN
        )
        self.deadline = time.time() + clock.seconds if clock and human_to_move else None
        for seat, group in self.listeners.items():
            text = self.view_text(seat)
            for listener in list(group):
                listener.send(text)
        if self.status == FINISHED:
            self._send_all(self.end_text())
            if self.on_finish is not None:
                self.on_finish(self)
        self._schedule()

    def _schedule(self) -> None:
        if self.status != PLAYING:
            return
        player = self.state.current_player()
        if player < 0:
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

    async def _bot_turn(self, seat: int, version: int) -> None:
        pause = self.spec.bot_pause
        if pause is None:
            pause = self.services.settings.bot_pause
        if pause > 0:
            await asyncio.sleep(pause)
        if self.version == version:
            await self._machine_move(seat, version, self.bots, seat, by="bot")

    async def _clock_turn(self, seat: int, version: int, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - time.time()))
        if self.version != version or self.spec.clock is None:
            return
        self._send_all(message("timeout", table=self.id, seat=seat, version=version))
        if seat not in self.clock_bots:
            self.clock_bots[seat] = self._new_bot(self.spec.clock.bot, self.spec.clock.options)
        await self._machine_move(seat, version, self.clock_bots, seat, by="clock")

    async def _machine_move(
        self, seat: int, version: int, bots: dict[int, Bot], key: int, by: str
    ) -> None:
        """Ask a bot for `seat`'s move and play it; a failing bot gives way to a random move."""
        state = self.state
        try:
            action, bots[key] = await self.services.pool.step(bots[key], state, seat)
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
        seats = []
        for seat, plan in enumerate(self.spec.seats):
            entry: dict[str, Any] = {"seat": seat, "kind": plan.kind}
            if plan.kind == BOT:
                entry.update(bot=plan.bot, options=dict(plan.options))
            else:
                entry.update(
                    open=plan.open,
                    claimed=self.token_hashes[seat] is not None,
                    joined=self.joined[seat],
                    connected=bool(self.listeners.get(seat)),
                )
            seats.append(entry)
        return seats

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
            "public": spec.public,
            "created_at": spec.created_at,
            "finished_at": self.finished_at,
            "rematch_of": spec.rematch_of,
            "rematch": self.rematch,
        }
        if self.status == FINISHED:
            info["result"] = {"returns": self.state.returns(), "scores": self.state.scores()}
        return info

    def _send_all(self, text: str) -> None:
        for group in self.listeners.values():
            for listener in list(group):
                listener.send(text)


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
