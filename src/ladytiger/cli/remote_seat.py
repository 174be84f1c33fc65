"""Play a seat of a table on a server yourself, in the terminal (`ladytiger join`).

The friends at the table may be in their browsers: this is the same table, seen through the
same protocol (docs/protocol.md). The board is drawn by the terminal views of
`ladytiger.cli.views` from the seat's observation, as `ladytiger play` draws it; moves are
typed as a number or as their text, and the server, not this client, says whether a move is
legal and why not.

Reading the keyboard must never stop the table's messages: a line is read in a thread of its
own (`LineReader`) while the socket is read here, so a clock that runs out, a chat line or
the end of the game is shown even while a prompt waits.
"""

from __future__ import annotations

import asyncio
import queue
import re
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from rich.console import Console
from rich.markup import escape
from websockets.exceptions import ConnectionClosed, InvalidStatus

from ladytiger.cli.log_lines import print_log
from ladytiger.cli.views import view_for
from ladytiger.web.client import ClientError, TableConnection

Ask = Callable[[str], Awaitable[str]]
Reconnect = Callable[[], Awaitable[TableConnection]]

HINT_WORDS = ("hint", "?")
RESIGN_WORDS = ("resign",)
HELP_WORDS = ("help",)
PROMPT = "your move (number or text; hint, say TEXT, resign): "
WAITING_PROMPT = "waiting for players (say TEXT, start, open, close, leave, help): "
START_LEVELS = ("beginner", "casual", "strong", "expert")
RATING_WAIT = 3.0  # seconds to wait after the end for the new ratings
RECONNECTS = 8  # tries, one to two seconds apart, before a lost connection is given up
SEAT_WORD = re.compile(r"\bSeat (\d+)\b")
MOVE_SEAT = re.compile(r"\bseat (\d+)\b")  # in a move's text: "jack seat 1"


class LineReader:
    """Lines from the keyboard, one per `await reader(prompt)`, read by a daemon thread: a
    prompt still open when the game ends does not keep the program alive."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self._asks: queue.Queue[tuple[str, asyncio.Future[str], asyncio.AbstractEventLoop]]
        self._asks = queue.Queue()
        threading.Thread(target=self._run, name="keyboard", daemon=True).start()

    async def __call__(self, prompt: str) -> str:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[str] = loop.create_future()
        self._asks.put((prompt, future, loop))
        return await future

    def _run(self) -> None:
        while True:
            prompt, future, loop = self._asks.get()
            try:
                line, error = self.console.input(f"[bold]{escape(prompt)}[/]"), None
            except (EOFError, KeyboardInterrupt) as closed:
                line, error = None, EOFError(str(closed))
            try:
                loop.call_soon_threadsafe(_settle, future, line, error)
            except RuntimeError:
                return  # the game is over and its loop closed: nobody waits for this line
            if error is not None:
                return


def _settle(future: asyncio.Future[str], line: str | None, error: BaseException | None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(line or "")


class TerminalSeat:
    """One seat played by a person at the keyboard: what the table says, shown as it comes;
    what the person types, sent when it is theirs to send."""

    def __init__(self, connection: TableConnection, ask: Ask, console: Console,
                 reconnect: Reconnect | None = None,
                 link: Callable[[str], str] | None = None) -> None:
        self.connection = connection
        self.reconnect = reconnect
        self.link = link  # the seat's address at a table, said when the seat moves
        # Chat: who has spoken (their name, folded: their id and name) and whom this
        # terminal mutes, by id, for as long as it runs (the browser keeps its own list).
        self.speakers: dict[str, tuple[str, str]] = {}
        self.muted: set[str] = set()
        self.ask = ask
        self.console = console
        self._seated_at(connection)

    def _seated_at(self, connection: TableConnection) -> None:
        """What this seat knows of the table `connection` says welcome to (again after
        following the game to a new table)."""
        self.seat = connection.seat
        info = connection.welcome["table"]
        self.names = [seat.get("name") or f"Seat {seat['seat']}" for seat in info["seats"]]
        self.seats: list[dict[str, Any]] = info["seats"]  # as the last presence told them
        self.render = view_for(info["game"])
        self.view: dict[str, Any] | None = None
        self.shown = 0  # log lines already printed
        self.prompted: int | None = None  # the version whose moves were listed
        # The version a move of ours was sent at, and its ref: no prompt for that version
        # again unless the move is refused (its ack may come before the view that follows).
        self.moved_at: int | None = None
        self.move_ref: str | None = None
        # The ref of a resign, close or leave on its way: no prompt until it is refused.
        self.quit_ref: str | None = None
        self.said_waiting = False
        self.announced: int | None = None  # whose turn was last said
        # A player's rated game: its new ratings follow the end, and are worth the wait.
        self.rated = bool(info.get("rated", True) and connection.welcome.get("player"))

    # ------------------------------------------------------------------ the loop
    async def play(self) -> dict[str, Any] | None:
        """Until the game ends: its `end` message, or None if the table ended without one
        (a resignation, a closed table) or the keyboard was closed."""
        self._greet()
        receiving: asyncio.Future[dict[str, Any]] = asyncio.ensure_future(
            self.connection.receive())
        reading: asyncio.Future[str] | None = None
        try:
            while True:
                waits: set[asyncio.Future[Any]] = {receiving}
                if reading is None and self._wants_line():
                    waiting = self.view is not None and self.view["status"] == "waiting"
                    reading = asyncio.ensure_future(self.ask(WAITING_PROMPT if waiting
                                                             else PROMPT))
                if reading is not None:
                    waits.add(reading)
                done, _ = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
                if receiving in done:
                    try:
                        message = receiving.result()
                    except ConnectionClosed:
                        await self._connect_again()
                        receiving = asyncio.ensure_future(self.connection.receive())
                        continue
                    receiving = asyncio.ensure_future(self.connection.receive())
                    finished, result = self._receive(message)
                    if finished and self._goes_on_elsewhere():
                        # The table began without its empty seats, at a new table, or moved
                        # there to wait for the lobby: go along.
                        opened = bool(self.view and self.view.get("opened"))
                        receiving.cancel()
                        await self.connection.follow()
                        self._seated_at(self.connection)
                        self.console.print(
                            "[green]The table waits at its new address, its empty seats open "
                            "to anyone in the lobby.[/]" if opened
                            else "[green]The game begins at the new table.[/]")
                        if self.link is not None:
                            new_id = self.connection.welcome["table"]["id"]
                            self.console.print(f"Your seat there: {self.link(new_id)}",
                                               soft_wrap=True)
                        self.connection.pending.clear()  # the old table's last words
                        receiving = asyncio.ensure_future(self.connection.receive())
                        continue
                    if finished:
                        if result is not None and self.rated:
                            await self._show_rating(receiving)
                        return result
                if reading is not None and reading in done:
                    try:
                        line = reading.result()
                    except EOFError:
                        self.console.print("\n[yellow]You left the table. Your seat is kept: "
                                           "its link brings you back.[/]")
                        return None
                    reading = None
                    await self._typed(line.strip())
        finally:
            receiving.cancel()
            if reading is not None:
                reading.cancel()

    def _goes_on_elsewhere(self) -> bool:
        view = self.view
        return (self.seat is not None and view is not None and view["status"] == "abandoned"
                and view.get("restarted") is not None and view.get("rematch") is not None)

    async def _connect_again(self) -> None:
        """The connection dropped (a network blip, a server restarting): come back to the
        seat. Whatever was on its way may or may not have landed; the next view says."""
        if self.reconnect is None:
            raise ClientError("disconnected", "the connection to the table was lost")
        self.console.print("[yellow]Connection lost: coming back…[/]")
        for attempt in range(RECONNECTS):
            await asyncio.sleep(1.0 if attempt else 0.2)
            try:
                self.connection = await self.reconnect()
            except (OSError, TimeoutError, InvalidStatus, ConnectionClosed):
                continue
            self.moved_at = self.move_ref = self.quit_ref = None
            self.prompted = None  # show the board and the moves again
            self.console.print("[green]Back at the table.[/]")
            return
        raise ClientError("disconnected", "the connection to the table was lost, and coming "
                          "back failed; the same link brings you back to your seat")

    def _wants_line(self) -> bool:
        """A prompt is open while the table waits for players (to close it, or to give the
        seat back), and while it is this seat's turn and no move of it is on its way."""
        view = self.view
        if view is None or self.seat is None or self.quit_ref is not None:
            return False
        if view["status"] == "waiting":
            # Not while only this seat's own arrival is missing: the game is about to begin.
            return any(seat["kind"] == "human" and not seat.get("joined")
                       and seat["seat"] != self.seat for seat in self.seats)
        return (view.get("your_turn", False) and view["version"] != self.moved_at
                and view["status"] == "playing")

    # ------------------------------------------------------------------ from the table
    def _greet(self) -> None:
        info = self.connection.welcome["table"]
        if self.seat is None:
            self.console.print(f"Watching {escape(info['title'])} at table {info['id']}.")
            return
        name = self.names[self.seat]
        who = f"seat {self.seat}" if name == f"Seat {self.seat}" else (
            f"[bold]{escape(name)}[/], seat {self.seat},")
        self.console.print(f"You are {who} at {escape(info['title'])} (table {info['id']}). "
                           "Type help for what you can type.")

    def _receive(self, message: dict[str, Any]) -> tuple[bool, dict[str, Any] | None]:
        kind = message["type"]
        if kind == "view":
            return self._show_view(message), None
        if kind == "end":
            self._show_end(message)
            return True, message
        if kind == "presence":
            before = {seat["seat"]: seat.get("joined") for seat in self.seats}
            self.seats = message["seats"]
            self.names = [seat.get("name") or f"Seat {seat['seat']}"
                          for seat in message["seats"]]
            if self.view is not None and self.view["status"] == "waiting":
                self._show_arrivals(before)
        elif kind == "error":
            self._show_error(message)
        elif kind == "timeout":
            who = "Your" if message["seat"] == self.seat else f"{self.names[message['seat']]}'s"
            self.console.print(f"[yellow]{escape(who)} time ran out: a bot moves instead.[/]")
        elif kind == "chat":
            speaker = (message.get("from") or {}).get("player") or {}
            name = speaker.get("name") or "someone"
            if speaker.get("id"):
                self.speakers[name.casefold()] = (speaker["id"], name)
            if speaker.get("id") in self.muted:
                return  # muted in this terminal: by id, so a new name does not slip past
            self.console.print(f"[magenta]{escape(name)}:[/] {escape(message['text'])}")
        elif kind == "hint":
            self.console.print(f"[bold green]hint:[/] {escape(message['text'])}: "
                               f"{escape(message.get('reason') or '')}")
            note = (message.get("search") or {}).get("note")
            if note:
                self.console.print(f"      {escape(note)}")
        elif kind == "unseated":
            self.console.print("[yellow]You gave your seat back: the table goes on without "
                               "you.[/]")
            self.seat = None
            return True, None
        return False, None

    def _show_arrivals(self, before: dict[int, Any]) -> None:
        """While the table waits: who sat down or got up, and how many seats are left."""
        humans = [seat for seat in self.seats if seat["kind"] == "human"]
        changed = False
        for seat in humans:
            number = seat["seat"]
            if number == self.seat or bool(seat.get("joined")) == bool(before.get(number)):
                continue
            changed = True
            verb = "sat down" if seat.get("joined") else "got up"
            self.console.print(f"{escape(self.names[number])} {verb}.")
        missing = sum(not seat.get("joined") for seat in humans)
        if changed and missing:
            self.console.print(f"[dim]Waiting for {missing} more "
                               f"{'player' if missing == 1 else 'players'}.[/]")

    def _show_view(self, view: dict[str, Any]) -> bool:
        self.view = view
        status = view["status"]
        if status == "waiting":
            if not self.said_waiting:
                self.console.print("Waiting for players: the game starts when every seat is "
                                   "taken.")
                self.said_waiting = True
            return False
        observation = view["observation"]
        log = observation.get("log") or []
        print_log(self.console, log[self.shown:], self.named)
        self.shown = len(log)
        if status == "abandoned":
            words = view.get("abandoned") or "the table was closed"
            self.console.print(f"[yellow]{escape(words[0].upper() + words[1:])}.[/]")
            return True
        if status == "finished":
            return False  # the `end` message follows with the result
        player = view["current_player"]
        if view.get("your_turn") and self.prompted != view["version"]:
            self.prompted = view["version"]
            self.announced = player
            self.console.print(self.render(observation))
            for number, move in enumerate(view["legal_actions"], start=1):
                self.console.print(f"  [bold cyan]{number:>2}[/] "
                                   f"{escape(self.move_words(move['text']))}")
        elif not view.get("your_turn") and player != self.announced:
            self.announced = player
            if 0 <= player < len(self.names):
                self.console.print(f"[dim]{escape(self.names[player])} to play…[/]")
        return False

    def move_words(self, text: str) -> str:
        """A move's text with the seats it names: "jack seat 1 (Casual bot)". The text itself
        is what may be typed."""
        def name(match: re.Match[str]) -> str:
            seat = int(match.group(1))
            if not 0 <= seat < len(self.names) or self.names[seat] == f"Seat {seat}":
                return match.group(0)
            return f"{match.group(0)} ({self.names[seat]})"

        return MOVE_SEAT.sub(name, text)

    def named(self, text: str) -> str:
        """The engine's "Seat 1" as the table names that seat (the browser does the same)."""
        def name(match: re.Match[str]) -> str:
            seat = int(match.group(1))
            return self.names[seat] if 0 <= seat < len(self.names) else match.group(0)

        return SEAT_WORD.sub(name, text)

    async def _show_rating(self, receiving: asyncio.Future[dict[str, Any]]) -> None:
        """What the game did to this player's rating: `rated` comes just after `end`."""
        try:
            async with asyncio.timeout(RATING_WAIT):
                while (message := await receiving)["type"] != "rated":
                    receiving = asyncio.ensure_future(self.connection.receive())
        except TimeoutError:
            return
        for change in message["ratings"]:
            if change["seat"] == self.seat:
                before, after = round(change["before"]), round(change["after"])
                self.console.print(f"Your rating: {before} → {after} ({after - before:+d})")

    def _show_error(self, message: dict[str, Any]) -> None:
        if message.get("code") in ("unauthorized", "unknown_table"):
            raise ClientError(message["code"], message["message"], message)
        if message.get("ref") is not None and message.get("ref") == self.move_ref:
            self.moved_at = self.move_ref = None  # refused: the prompt opens again
        if message.get("ref") is not None and message.get("ref") == self.quit_ref:
            self.quit_ref = None
        self.console.print(f"[red]{escape(message.get('message') or 'refused')}[/]")

    def _show_end(self, end: dict[str, Any]) -> None:
        if self.view is not None:
            self.console.print(self.render(self.view["observation"]))
        winners = [seat for seat, share in enumerate(end["returns"]) if share > 0]
        for seat, score in enumerate(end["scores"]):
            you = " (you)" if seat == self.seat and self.names[seat] != "You" else ""
            mark = " [bold green]wins[/]" if seat in winners else ""
            self.console.print(f"{escape(self.names[seat])}{you}: {score}{mark}")

    # ------------------------------------------------------------------ from the keyboard
    async def _typed_while_waiting(self, lowered: str) -> None:
        if lowered == "close":
            sure = await self.ask("Close this table for everyone? Nothing has been dealt. "
                                  "(yes/no): ")
            if sure.strip().lower() in ("y", "yes"):
                self.quit_ref = await self.connection.close_table()
        elif lowered == "leave":
            self.quit_ref = await self.connection.leave()
        elif lowered == "start" or lowered.startswith("start "):
            level = lowered[len("start"):].strip() or "casual"
            if level not in START_LEVELS:
                self.console.print(f"[red]The levels are: {', '.join(START_LEVELS)}.[/]")
                return
            self.quit_ref = await self.connection.fill_with_bots(level)
        elif lowered == "open":
            self.quit_ref = await self.connection.open_seats()
        else:
            self.console.print("[yellow]The game has not begun: it starts when every seat "
                               "is taken.[/] Meanwhile: say TEXT, start [LEVEL] (now, a "
                               "bot in each empty seat: beginner, casual, strong or expert), "
                               "open (the seats your invites have not filled, to anyone in "
                               "the lobby), close (the table, if you set it up), leave (a "
                               "seat you took "
                               "from the lobby).")

    def _mute(self, line: str) -> None:
        """`mute NAME` hides the chat lines of a player who spoke here; `unmute NAME`."""
        word, _, name = line.partition(" ")
        muting = word.lower() == "mute"
        found = self.speakers.get(name.strip().casefold())
        if found is None:
            spoke = ", ".join(sorted(shown for _, shown in self.speakers.values()))
            self.console.print(f"[red]Nobody called {escape(name.strip() or '…')} has said "
                               f"anything here.[/] "
                               + (f"Those who have: {escape(spoke)}." if spoke
                                  else "Nobody has spoken yet."))
            return
        player, shown = found
        if muting:
            self.muted.add(player)
            self.console.print(f"Lines from {escape(shown)} are hidden in this terminal; "
                               f"unmute {escape(shown)} shows them again.")
        else:
            self.muted.discard(player)
            self.console.print(f"Lines from {escape(shown)} are shown again.")

    async def _typed(self, line: str) -> None:
        view = self.view
        lowered = line.lower()
        if not line:
            return
        if lowered.startswith("say "):
            await self.connection.chat(line[4:].strip())
            return
        if lowered.split(" ", 1)[0] in ("mute", "unmute"):
            self._mute(line)
            return
        if view is not None and view["status"] == "waiting":
            await self._typed_while_waiting(lowered)
            return
        if lowered in HELP_WORDS:
            self.console.print("Type a move's number or its text. Also: hint (what would you "
                               "play here?), say TEXT (to the table's chat, for players "
                               "with a name), mute NAME / unmute NAME (hide a player's chat "
                               "lines here), resign (give the game up).")
            return
        if view is None or not view.get("your_turn"):
            self.console.print("[yellow]It is not your turn any more; wait for the next.[/]")
            return
        if lowered in HINT_WORDS:
            await self.connection.send("hint")
            self.console.print("[dim]Asking for a hint: it comes in a few seconds.[/]")
            return
        if lowered in RESIGN_WORDS:
            sure = (await self.ask("Give this game up? It ends for everyone. (yes/no): "))
            if sure.strip().lower() in ("y", "yes"):
                self.quit_ref = await self.connection.resign()
            return
        legal = view["legal_actions"]
        if line.isdigit():
            number = int(line)
            if not 1 <= number <= len(legal):
                self.console.print(f"[red]Choose a number from 1 to {len(legal)}.[/]")
                return
            action: int | str = legal[number - 1]["id"]
        else:
            action = line  # the server reads the text, and says why if it is not a move
        self.moved_at = view["version"]
        self.move_ref = await self.connection.act(view["version"], action)


async def play_in_terminal(base: str, table_id: str, token: str | None, ask: Ask,
                           console: Console, player: str | None = None) -> dict[str, Any] | None:
    """Connect to the table and play the token's seat from the keyboard until the game ends."""
    seats: list[TerminalSeat] = []

    def reconnect() -> Awaitable[TableConnection]:
        # To the table the seat is at now: it may have followed the game to a new one.
        where = seats[0].connection.welcome["table"]["id"] if seats else table_id
        return TableConnection.open(base, where, token, player=player)

    def link(where: str) -> str:
        return f"{base.rstrip('/')}/play/{where}" + (f"#seat={token}" if token else "")

    seat = TerminalSeat(await reconnect(), ask, console, reconnect, link)
    seats.append(seat)
    try:
        return await seat.play()
    finally:
        await seat.connection.close()
