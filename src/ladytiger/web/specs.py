"""What a table is made of before any move: game, options, seat plan, clock and pace.

A create-table request is validated here into a `TableSpec`, which is also the form kept in
the database, so a table restored after a restart is built from exactly what was accepted.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from ladytiger.bots import load_bot, registered_bots
from ladytiger.core import Game, LadyTigerError, UnknownGameError, load_game
from ladytiger.core.game import GameInfo
from ladytiger.core.registry import game_class
from ladytiger.web.bot_options import DEFAULT_LIMITS, BotLimits, check_options
from ladytiger.web.protocol import (
    MAX_NAME_LENGTH,
    Field,
    ProtocolError,
    number_between,
    option_map,
    text_up_to,
    validate,
)

HUMAN = "human"
BOT = "bot"
MAX_CLOCK_SECONDS = 24 * 3600.0
MAX_BOT_PAUSE = 30.0
# The paces a table may be created at: seconds a bot waits before each move. "normal" is
# about how long a person takes to see what changed; a table without a pace takes the
# server's default (`Settings.bot_pause`), which is the normal pace unless changed.
PACES = {"fast": 0.3, "normal": 1.0, "slow": 2.0}

SEAT_SCHEMA = {
    "kind": Field((str,)),
    "open": Field((bool,), required=False),
    "bot": Field((str,), required=False, check=text_up_to(MAX_NAME_LENGTH)),
    "options": Field((dict,), required=False, check=option_map),
}
CLOCK_SCHEMA = {
    "seconds": Field((float,), check=number_between(0.05, MAX_CLOCK_SECONDS)),
    "bot": Field((str,), required=False, check=text_up_to(MAX_NAME_LENGTH)),
    "options": Field((dict,), required=False, check=option_map),
}
CREATE_SCHEMA = {
    "game": Field((str,), check=text_up_to(MAX_NAME_LENGTH)),
    "options": Field((dict,), required=False, check=option_map),
    "seats": Field((list,), required=False),
    "clock": Field((dict, type(None)), required=False),
    "bot_pause": Field((float, type(None)), required=False, check=lambda v: (
        None if v is None else number_between(0.0, MAX_BOT_PAUSE)(v)
    )),
    "pace": Field((str, type(None)), required=False, check=lambda v: (
        None if v is None or v in PACES else f"must be one of {', '.join(map(repr, PACES))}"
    )),
    "public": Field((bool,), required=False),
    "chat": Field((bool,), required=False),
    "rated": Field((bool,), required=False),
    "hints": Field((bool, type(None)), required=False),
}


@dataclass(frozen=True)
class SeatPlan:
    """A seat: a human (by invite link, or `open` to anyone from the lobby) or a bot."""

    kind: str
    open: bool = False
    bot: str | None = None
    options: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        if self.kind == BOT:
            return {"kind": BOT, "bot": self.bot, "options": dict(self.options)}
        return {"kind": HUMAN, "open": self.open}


@dataclass(frozen=True)
class ClockPlan:
    """A move clock for human seats: after `seconds`, bot `bot` moves for the seat."""

    seconds: float
    bot: str = "random"
    options: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"seconds": self.seconds, "bot": self.bot, "options": dict(self.options)}


@dataclass(frozen=True)
class TableSpec:
    """Everything fixed when a table is created."""

    id: str
    game: str
    options: dict[str, Any]
    seats: tuple[SeatPlan, ...]
    clock: ClockPlan | None = None
    bot_pause: float | None = None  # None: the server's default pause
    # The pace the table was made at ("fast", "normal", "slow"), kept to be shown; its seconds
    # are in `bot_pause`. None when the creator gave a number (which wins over a pace) or
    # neither.
    pace: str | None = None
    public: bool = True
    created_at: float = 0.0
    rematch_of: str | None = None
    chat: bool = True  # whether its seats and watching players may talk
    rated: bool = True  # whether its result changes ratings
    # Whether its human seats may ask for hints (ladytiger.bots.advice); None leaves it to the
    # seats (`allows_hints`): allowed at a table with a bot and in a solo game, not at a
    # table of people only unless the creator says so.
    hints: bool | None = None
    # Who created it, for the per-client quota (ladytiger.web.hub.owner_key); never shown.
    owners: tuple[str, ...] = ()

    def make_game(self) -> Game:
        return load_game(self.game, **self.options)

    def allows_hints(self) -> bool:
        if self.hints is not None:
            return self.hints
        return len(self.human_seats()) <= 1 or any(plan.kind == BOT for plan in self.seats)

    def human_seats(self) -> list[int]:
        return [seat for seat, plan in enumerate(self.seats) if plan.kind == HUMAN]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "options": dict(self.options),
            "seats": [plan.to_json() for plan in self.seats],
            "clock": self.clock.to_json() if self.clock else None,
            "bot_pause": self.bot_pause,
            "pace": self.pace,
            "public": self.public,
            "created_at": self.created_at,
            "rematch_of": self.rematch_of,
            "chat": self.chat,
            "rated": self.rated,
            "hints": self.hints,
            "owners": list(self.owners),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableSpec:
        clock = data.get("clock")
        return cls(
            id=data["id"],
            game=data["game"],
            options=dict(data["options"]),
            seats=tuple(
                SeatPlan(
                    kind=seat["kind"],
                    open=seat.get("open", False),
                    bot=seat.get("bot"),
                    options=dict(seat.get("options", {})),
                )
                for seat in data["seats"]
            ),
            clock=ClockPlan(clock["seconds"], clock["bot"], dict(clock["options"]))
            if clock
            else None,
            bot_pause=data.get("bot_pause"),
            pace=data.get("pace") if data.get("pace") in PACES else None,
            public=data.get("public", True),
            created_at=data.get("created_at", 0.0),
            rematch_of=data.get("rematch_of"),
            chat=data.get("chat", True),
            rated=data.get("rated", True),
            hints=data.get("hints") if isinstance(data.get("hints"), bool) else None,
            owners=tuple(data.get("owners", ())),
        )

    def rematch(self, new_id: str) -> TableSpec:
        return TableSpec(
            id=new_id,
            game=self.game,
            options=dict(self.options),
            seats=self.seats,
            clock=self.clock,
            bot_pause=self.bot_pause,
            pace=self.pace,
            public=self.public,
            created_at=time.time(),
            rematch_of=self.id,
            chat=self.chat,
            rated=self.rated,
            hints=self.hints,
        )


def new_table_id() -> str:
    return secrets.token_urlsafe(9)


def check_bot(
    name: str,
    game: Game,
    options: dict[str, Any],
    where: str,
    limits: BotLimits = DEFAULT_LIMITS,
) -> None:
    """Refuse an unknown bot, a bot no creator may seat, or options outside the whitelist
    (ladytiger.web.bot_options); then build the bot, which refuses what only it can judge
    (a bot for another game, a budget in both iterations and seconds)."""
    if name not in registered_bots():
        raise ProtocolError(
            "unknown_bot",
            f"{where}: there is no bot called {name!r}; the bots are: "
            f"{', '.join(registered_bots())}",
        )
    check_options(name, options, where, limits)
    try:
        load_bot(name, game, **options, seed=0)
    except (LadyTigerError, TypeError, ValueError) as error:
        raise ProtocolError("bad_bot_options", f"{where}: {error}") from None


def refuse_unknown_options(info: GameInfo, options: dict[str, Any]) -> None:
    """Refuse option names the game does not declare, before they reach its constructor.

    They become keyword arguments there, and a name such as `self` or `name` collides with a
    parameter of the constructor or of `load_game` and raises TypeError, not a game error.
    """
    known = [option.name for option in info.all_options()]
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise ProtocolError(
            "bad_options",
            f"the table request: 'options' has {', '.join(map(repr, unknown))}, which "
            f"{info.title} does not take; its options are: {', '.join(known)} "
            "(GET /api/games describes each)",
        )


def parse_create_request(body: Any, limits: BotLimits = DEFAULT_LIMITS) -> TableSpec:
    """Validate a create-table request into a spec (the game and bots are built to check)."""
    request = validate(body, CREATE_SCHEMA, "the table request")
    options = dict(request.get("options", {}))
    seats_given = request.get("seats")
    if seats_given is not None and "players" not in options:
        # A seat plan fixes the player count unless the options already do.
        options["players"] = len(seats_given)
    try:
        info = game_class(request["game"]).info
    except UnknownGameError as error:
        raise ProtocolError("unknown_game", str(error), status=404) from None
    refuse_unknown_options(info, options)
    try:
        game = load_game(info.name, **options)
    except LadyTigerError as error:
        raise ProtocolError("bad_options", str(error)) from None
    if seats_given is None:
        seats_given = [{"kind": HUMAN} for _ in range(game.num_players)]
    if len(seats_given) != game.num_players:
        raise ProtocolError(
            "bad_seats",
            f"the seat plan has {len(seats_given)} seats but this {game.info.title} game "
            f"has {game.num_players} players",
        )
    seats = tuple(
        parse_seat(entry, seat, game, limits) for seat, entry in enumerate(seats_given)
    )
    clock = None
    if request.get("clock") is not None:
        given = validate(request["clock"], CLOCK_SCHEMA, "the clock")
        clock = ClockPlan(
            seconds=float(given["seconds"]),
            bot=given.get("bot", "random"),
            options=dict(given.get("options", {})),
        )
        check_bot(clock.bot, game, clock.options, "the clock", limits)
    pause = request.get("bot_pause")
    pace = request.get("pace")
    if pause is not None:
        pace = None  # the number wins; the table is not shown at a pace it does not keep
    elif pace is not None:
        pause = PACES[pace]
    return TableSpec(
        id=new_table_id(),
        game=game.info.name,
        options=dict(game.options),
        seats=seats,
        clock=clock,
        bot_pause=None if pause is None else float(pause),
        pace=pace,
        public=request.get("public", True),
        created_at=time.time(),
        chat=request.get("chat", True),
        rated=request.get("rated", True),
        hints=request.get("hints"),
    )


def parse_seat(
    entry: Any, seat: int, game: Game, limits: BotLimits = DEFAULT_LIMITS
) -> SeatPlan:
    where = f"seat {seat}"
    given = validate(entry, SEAT_SCHEMA, where)
    kind = given["kind"]
    if kind == HUMAN:
        if "bot" in given or "options" in given:
            raise ProtocolError("bad_seats", f"{where}: a human seat takes no bot or options")
        return SeatPlan(HUMAN, open=given.get("open", False))
    if kind == BOT:
        if "open" in given:
            raise ProtocolError("bad_seats", f"{where}: only a human seat can be open")
        name = given.get("bot", "random")
        options = dict(given.get("options", {}))
        check_bot(name, game, options, where, limits)
        return SeatPlan(BOT, bot=name, options=options)
    raise ProtocolError("bad_seats", f"{where}: kind must be 'human' or 'bot', not {kind!r}")
