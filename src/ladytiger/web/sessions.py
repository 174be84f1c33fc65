"""One WebSocket connection: its hello, its seat, its rate limit and its outbox.

`Session.handle` takes one raw client message and never raises: whatever arrives gets a
reply (an answer or an error naming the problem), and a connection that breaks the rules
(wrong token, oversized or persistently malformed messages, a flood) is closed after its
error is sent. Outgoing messages wait in a bounded outbox; a client that stops reading is
closed rather than allowed to grow the server's memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import unicodedata
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any

from ladytiger.web.config import Settings
from ladytiger.web.hub import Hub
from ladytiger.web.players import Player
from ladytiger.web.protocol import (
    CLOSE_BAD_MESSAGE,
    CLOSE_POLICY,
    CLOSE_SLOW_CONSUMER,
    CLOSE_UNAUTHORIZED,
    CLOSE_UNKNOWN_TABLE,
    MAX_MESSAGE_BYTES,
    PROTOCOL,
    ProtocolError,
    error_message,
    fill_choice,
    message,
    parse_client_message,
    ref_of,
)
from ladytiger.web.security import TokenBucket, hash_token
from ladytiger.web.tables import Table

log = logging.getLogger("ladytiger.web.sessions")

# Errors that mean the client sent something malformed, as opposed to a refused move.
CLOSE_GRACE = 5.0  # seconds the last messages and the close may take to go out
# Chat per connection: bursts of 5 messages, one more every 2 seconds.
CHAT_BURST = 5
CHAT_RATE = 0.5
MALFORMED = {"bad_json", "bad_message", "unknown_type", "unknown_field", "missing_field",
             "bad_field"}


@dataclass(frozen=True)
class Close:
    code: int
    reason: str


STOP = Close(0, "")  # the connection is gone: the pump just ends


class Session:
    def __init__(self, hub: Hub, table: Table, settings: Settings) -> None:
        self.hub = hub
        self.table = table
        self.settings = settings
        self.seat: int | None = None
        # Kept in memory only, so that `follow` can show it to the rematch table.
        self.token: str | None = None
        self.player: Player | None = None
        self.greeted = False
        self.closing: Close | None = None
        self.outbox: asyncio.Queue[str | Close] = asyncio.Queue()
        self.bad_messages = 0
        self.throttled = 0
        self._last_throttle_notice = 0.0
        self.bucket = TokenBucket(settings.messages_per_second, settings.message_burst)
        self.chat_bucket = TokenBucket(CHAT_RATE, CHAT_BURST)
        self._tasks: set[asyncio.Task[None]] = set()  # hints being worked out

    # ------------------------------------------------------------------ outgoing
    def send(self, text: str) -> None:
        if self.closing is not None:
            return
        if self.outbox.qsize() >= self.settings.outbox_limit:
            self.close(CLOSE_SLOW_CONSUMER, "too many unread messages")
            return
        self.outbox.put_nowait(text)

    def close(self, code: int, reason: str) -> None:
        """Send what is queued, then close with `code` (a client that does not read is
        closed at once: what it did not read is dropped)."""
        if self.closing is None:
            if code == CLOSE_SLOW_CONSUMER:
                while not self.outbox.empty():
                    self.outbox.get_nowait()
            self.closing = Close(code, reason[:120])
            self.outbox.put_nowait(self.closing)
            self.table.detach(self)

    def detach(self) -> None:
        self.table.detach(self)

    def unseat(self) -> None:
        """The seat was given back (here or from another connection): watch from now on. The
        token is forgotten too, so that `follow` cannot carry the seat to a rematch."""
        seat, self.seat, self.token = self.seat, None, None
        self.send(message("unseated", table=self.table.id, seat=seat))

    # ------------------------------------------------------------------ incoming
    async def handle(self, raw: str | bytes) -> None:
        if self.closing is not None:
            return
        if not self.bucket.take():
            self._throttle()
            return
        parsed: dict[str, Any] | None = None
        try:
            parsed = parse_client_message(raw)
            await self._dispatch(parsed)
        except ProtocolError as error:
            self._refuse(error, parsed.get("ref") if parsed is not None else _ref_from_raw(raw))
        except Exception:
            log.exception("table %s: a message could not be handled", self.table.id)
            self._refuse(ProtocolError("internal", "the server failed to handle that message",
                                       status=500), None)

    def _refuse(self, error: ProtocolError, ref: str | int | None) -> None:
        self.send(error_message(error, ref))
        if error.close is not None:
            self.close(error.close, error.message)
        elif not self.greeted:
            self.close(CLOSE_BAD_MESSAGE, "the first message must be a valid hello")
        elif error.code in MALFORMED:
            self.bad_messages += 1
            if self.bad_messages > self.settings.bad_message_limit:
                self.close(CLOSE_POLICY, "too many malformed messages")

    def _throttle(self) -> None:
        self.throttled += 1
        if self.throttled > self.settings.throttle_limit:
            self.send(error_message(ProtocolError(
                "rate_limited", "too many messages; closing the connection")))
            self.close(CLOSE_POLICY, "too many messages")
            return
        now = time.monotonic()
        if now - self._last_throttle_notice >= 1.0:
            # One notice a second at most, so a flood is not answered by a flood.
            self._last_throttle_notice = now
            self.send(error_message(ProtocolError(
                "rate_limited",
                f"too many messages: at most {self.settings.messages_per_second:g} a second; "
                "messages over the limit are dropped",
            )))

    async def _dispatch(self, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        ref = msg.get("ref")
        if kind == "hello":
            await self._hello(msg, ref)
            return
        if not self.greeted:
            raise ProtocolError("bad_message", "say hello first", close=CLOSE_BAD_MESSAGE)
        if kind == "ping":
            self.send(message("pong", ref=ref, server_time=time.time()))
            return
        if kind == "follow":
            await self._follow(ref)
            return
        if kind == "chat":
            await self._chat(msg["text"], ref)
            return
        if kind == "seen":
            # Anyone may say it (a spectator's counts when no seat is here to watch), and it
            # has no answer: it only lets a waiting bot go on sooner.
            self.table.seen(self, msg["version"])
            return
        if self.seat is None:
            if kind == "hint":
                raise ProtocolError("spectator", "hints are for the players: a spectator "
                                    "cannot ask for one", status=403)
            raise ProtocolError(
                "spectator", f"a spectator cannot send {kind!r}; connect with a seat token",
                status=403,
            )
        table = self.table
        if kind == "action":
            def acknowledge(result: dict[str, Any]) -> None:
                self.send(message("ack", ref=ref, table=table.id, **result))

            await table.play(self.seat, msg["version"], msg["action"], acknowledge)
        elif kind == "why":
            self.send(message("why", ref=ref, table=table.id,
                              **table.why(self.seat, msg["action"])))
        elif kind == "sample":
            self.send(message("sample", ref=ref, table=table.id, **await table.sample(self.seat)))
        elif kind == "hint":
            # Refused at once, or worked out in the background: the connection's other
            # messages (the move the player makes meanwhile) must not wait behind a search.
            answer = table.ask_hint(self.seat)
            task = asyncio.ensure_future(self._hint(table, answer, ref))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        elif kind == "stand_in":
            table.stand_in(self.seat, msg["seat"])
            self.send(message("ack", ref=ref, table=table.id, stand_in=msg["seat"]))
        elif kind == "leave":
            seat = self.seat  # the seat is no longer this connection's once given back
            await table.leave(seat)
            self.send(message("ack", ref=ref, table=table.id, left=seat))
        elif kind == "fill":
            new = await self.hub.fill_empty_seats(table, self.seat, fill_choice(msg))
            self.send(message("ack", ref=ref, table=table.id, rematch=new.id))
        elif kind == "close":
            await table.close(self.seat)
            self.send(message("ack", ref=ref, table=table.id, closed=self.seat))
        elif kind == "resign":
            await table.resign(self.seat)
            self.send(message("ack", ref=ref, table=table.id, resigned=self.seat))
        elif kind == "rematch":
            new = await self.hub.rematch(table)
            self.send(message("rematch", ref=ref, table=table.id, rematch=new.id))

    async def _hint(self, table: Table, answer: Awaitable[dict[str, Any]],
                    ref: str | int | None) -> None:
        try:
            given = await answer
        except ProtocolError as error:
            self._refuse(error, ref)
            return
        except Exception:
            log.exception("table %s: a hint could not be given", table.id)
            self._refuse(ProtocolError("internal", "the server failed to work out a hint",
                                       status=500), ref)
            return
        self.send(message("hint", ref=ref, table=table.id, **given))

    async def _hello(self, msg: dict[str, Any], ref: str | int | None) -> None:
        if self.greeted:
            raise ProtocolError("bad_message", "hello was already said on this connection")
        token = msg.get("token")
        player = None
        if msg.get("player") is not None:
            try:
                player = await self.hub.players.by_secret(msg["player"])
            except ProtocolError as error:
                error.close = CLOSE_UNAUTHORIZED
                raise
        seat = None
        if token is not None:
            seat = self.table.authenticate(token)
            if seat is None:
                raise ProtocolError(
                    "unauthorized", "that token holds no seat at this table", status=401,
                    close=CLOSE_UNAUTHORIZED,
                )
            if self.table.ended_unplayed() and not self.table.joined[seat]:
                # An invite opened after the table ended unplayed (closed, or moved to a new
                # table without this seat): it holds nothing there, so its bearer watches.
                seat, token = None, None
            elif player is not None:
                # An invite link opened by a player: the seat becomes theirs, if free.
                await self.table.bind(seat, player)
        elif player is not None:
            seat = self.table.seat_of_player(player)
        self.token, self.player = token, player
        self.greeted = True
        await self._enter(self.table, seat, ref)

    async def _follow(self, ref: str | int | None) -> None:
        """Move this connection to the table's rematch: the same token holds the same seat
        there, so a player (or a spectator) goes on to the next game without reconnecting."""
        old = self.table
        if old.rematch is None:
            raise ProtocolError(
                "no_rematch", "this table has no rematch to follow yet; a seat asks for one "
                "with 'rematch' once the game is over", status=409,
            )
        new = await self.hub.require(old.rematch)
        seat = None
        if self.token is not None:
            seat = new.authenticate(self.token)
            if seat is None:
                raise ProtocolError("unauthorized", "that token holds no seat at the rematch",
                                    status=401, close=CLOSE_UNAUTHORIZED)
        elif self.player is not None:
            seat = new.seat_of_player(self.player)
        new.check_room(seat)
        old.detach(self)
        await self._enter(new, seat, ref)

    async def _enter(self, table: Table, seat: int | None, ref: str | int | None) -> None:
        """Take `seat` (None: watch) at `table`: welcome, then its views from now on."""
        table.check_room(seat)
        self.table, self.seat = table, seat
        extra = {"chat": table.chat_tail()} if table.spec.chat else {}
        player = None if self.player is None else self.player.public()
        info = table.info()
        if seat is not None:
            info["seats"][seat]["connected"] = True  # this very connection
        self.send(message("welcome", ref=ref, protocol=PROTOCOL, seat=seat, player=player,
                          table=info, **extra))
        # The token that let this connection in, as a digest: a player without one came in
        # through the seat bound to them, whose token is the one the table holds now.
        digest = hash_token(self.token) if self.token is not None else (
            None if seat is None else table.token_hashes[seat])
        table.attach(self)
        if seat is not None and digest is not None:
            await table.join(seat, digest, self)


    async def _chat(self, text: str, ref: str | int | None) -> None:
        if self.player is None:
            raise ProtocolError("not_a_player", "only players may chat: say hello with your "
                                "player secret", status=403)
        if not self.table.spec.chat:
            raise ProtocolError("chat_off", "chat is off at this table", status=403)
        cleaned = clean_chat(text)
        if not self.chat_bucket.take():
            raise ProtocolError("rate_limited", f"you are chatting too fast: at most "
                                f"{CHAT_BURST} messages in {CHAT_BURST / CHAT_RATE:g} seconds")
        # The speaker's own copy carries its ref, like every answer to a client message.
        await self.table.say(self.seat, self.player, cleaned, speaker=self, ref=ref)


def clean_chat(text: str) -> str:
    """A chat line: trimmed, line breaks kept, no other control or format characters."""
    cleaned = text.strip()
    if not cleaned:
        raise ProtocolError("bad_field", "a chat message must not be empty")
    for char in cleaned:
        if char != "\n" and unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co"):
            raise ProtocolError(
                "bad_field", f"a chat message cannot hold the character U+{ord(char):04X}"
            )
    return cleaned


def _ref_from_raw(raw: str | bytes) -> str | int | None:
    """The `ref` of a message that failed validation, so its error can name it."""
    if len(raw) > MAX_MESSAGE_BYTES:
        return None
    try:
        return ref_of(json.loads(raw))
    except (ValueError, RecursionError):
        return None


async def serve_socket(hub: Hub, settings: Settings, websocket: Any) -> None:
    """Run one table WebSocket: `/api/tables/{table_id}/ws`."""
    from starlette.websockets import WebSocketDisconnect

    await websocket.accept()
    try:
        table = await hub.require(websocket.path_params["table_id"])
    except ProtocolError as error:
        await websocket.send_text(error_message(error))
        await websocket.close(CLOSE_UNKNOWN_TABLE)
        return
    session = Session(hub, table, settings)
    pump = asyncio.create_task(_pump(session, websocket))
    try:
        first = True
        while session.closing is None:
            try:
                if first:
                    incoming = await asyncio.wait_for(websocket.receive(), settings.hello_timeout)
                else:
                    incoming = await websocket.receive()
            except TimeoutError:
                session._refuse(ProtocolError("bad_message", "no hello within "
                                              f"{settings.hello_timeout:g} seconds"), None)
                break
            first = False
            if incoming["type"] == "websocket.disconnect":
                break
            raw = incoming.get("text")
            if raw is None:
                raw = incoming.get("bytes") or b""
            await session.handle(raw)
    except WebSocketDisconnect:
        pass
    finally:
        session.detach()
        if session.closing is None:
            # The pump is told to stop rather than cancelled: a task ended by an exception
            # keeps it, and its traceback ties the connection's objects into a cycle that
            # only a slow full pass of the garbage collector frees.
            session.outbox.put_nowait(STOP)
        # The last messages and the close get a few seconds to go out, no more.
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(pump, CLOSE_GRACE)


async def _pump(session: Session, websocket: Any) -> None:
    """Write the session's outbox to the socket, in order; a Close or STOP ends it.

    A socket the client has gone from refuses writes; the pump then simply ends (the
    receiving side ends the session), without leaving an exception in its task.
    """
    while True:
        item = await session.outbox.get()
        if item is STOP:
            return
        try:
            if isinstance(item, Close):
                await websocket.close(item.code, item.reason)
                return
            await websocket.send_text(item)
        except Exception:
            return
