"""Players: a name and a secret, no sign-up form (docs/protocol.md, "Players").

A player's secret is drawn from the operating system's randomness and shown once; the server
keeps only its SHA-256 digest, and finds a player by that digest. The player's id is public:
it names their page. A bot level (a bot with its options) is a player too, so that it can be
rated; it has no secret.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
import unicodedata
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from ladytiger.web.protocol import ProtocolError

SECRET_BYTES = 32  # 256 bits, 43 URL-safe characters
MAX_SECRET_LENGTH = 128
MAX_NAME = 24

# A friendly default name: an adjective and an animal, in plain words.
ADJECTIVES = (
    "Amber", "Brisk", "Calm", "Clever", "Daring", "Eager", "Gentle", "Golden", "Happy",
    "Jolly", "Keen", "Lucky", "Merry", "Nimble", "Patient", "Quick", "Quiet", "Royal",
    "Sly", "Steady", "Sunny", "Swift", "Tidy", "Witty",
)
ANIMALS = (
    "Badger", "Crane", "Dolphin", "Falcon", "Fox", "Hare", "Heron", "Ibex", "Jackal", "Koala",
    "Lynx", "Marten", "Newt", "Otter", "Owl", "Panda", "Puffin", "Raven", "Robin", "Seal",
    "Stoat", "Swan", "Tiger", "Wren",
)

BOT_NAMES = {
    # The four levels a player picks from (docs/bots.md).
    "beginner": "Beginner bot",
    "casual": "Casual bot",
    "strong": "Strong bot",
    "expert": "Expert bot",
    "random": "Random bot",
    "heuristic": "Rule-of-thumb bot",
    "ismcts": "Search bot",
    "labyrinth_search": "Labyrinth search bot",
    "hoard_planner": "Hoard planner bot",
}


@dataclass
class Player:
    """A player as the server holds it; shared by every table they sit at, so a new name
    shows everywhere at once."""

    id: str
    name: str
    bot: str | None = None  # for a bot level: its bot's name
    created_at: float = 0.0
    tables: set[str] = field(default_factory=set)  # unfinished tables with a seat of theirs

    def public(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"id": self.id, "name": self.name}
        if self.bot is not None:
            entry["bot"] = self.bot
        return entry


def new_secret() -> str:
    return secrets.token_urlsafe(SECRET_BYTES)


def new_player_id() -> str:
    return "p_" + secrets.token_urlsafe(9)


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def friendly_name() -> str:
    return f"{secrets.choice(ADJECTIVES)} {secrets.choice(ANIMALS)}"


def clean_name(value: Any) -> str:
    """A display name: trimmed, 1 to 24 characters of any script, no control or format
    characters (they could hide or reorder text around the name)."""
    if not isinstance(value, str):
        raise ProtocolError("bad_name", "a name must be text")
    name = " ".join(unicodedata.normalize("NFC", value).split())
    if not name:
        raise ProtocolError("bad_name", "a name must not be empty")
    if len(name) > MAX_NAME:
        raise ProtocolError("bad_name", f"a name is at most {MAX_NAME} characters; this one "
                                        f"has {len(name)}")
    for char in name:
        if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn"):
            raise ProtocolError(
                "bad_name", f"a name cannot hold the character U+{ord(char):04X}"
            )
    return name


def bot_player(bot: str, options: dict[str, Any]) -> Player:
    """The rated player standing for `bot` with `options` (one per bot level)."""
    if options:
        canonical = json.dumps(options, sort_keys=True, separators=(",", ":"))
        digest = hashlib.sha256(canonical.encode()).hexdigest()[:10]
        pid = f"bot_{bot}_{digest}"
        detail = ", ".join(f"{k}={v}" for k, v in sorted(options.items()))
        name = f"{BOT_NAMES.get(bot, bot + ' bot')} ({detail})"
    else:
        pid = f"bot_{bot}"
        name = BOT_NAMES.get(bot, f"{bot} bot")
    return Player(pid, name[:60], bot=bot, created_at=time.time())


def bot_name(bot: str | None) -> str:
    """What a bot seat is called at a table ("Random bot")."""
    return BOT_NAMES.get(bot or "random", f"{bot} bot")


def seat_label(seat: int, holder: str | None, bot: str | None) -> str:
    """A seat's name before names are told apart: its player's, its bot's, or "Seat N"."""
    if holder is not None:
        return holder
    if bot is not None:
        return bot_name(bot)
    return f"Seat {seat}"


def table_names(raw: list[str], bots: Collection[int] = ()) -> list[str]:
    """Names at one table, told apart when two are the same: people by a count ("Sam",
    "Sam (2)"), several bots of one kind by a letter each ("Casual bot A", "Casual bot B"),
    which nobody can take for a seat number (the page counts seats from 1, the engine
    from 0, and "Casual bot (2)" in seat 3 read as either)."""
    bot_seats = set(bots)
    shared = Counter(name.casefold() for seat, name in enumerate(raw) if seat in bot_seats)
    lettered: dict[str, int] = {}
    seen: dict[str, int] = {}
    out = []
    for seat, name in enumerate(raw):
        key = name.casefold()
        if seat in bot_seats and shared[key] > 1:
            letter = lettered.get(key, 0)
            lettered[key] = letter + 1
            out.append(f"{name} {chr(ord('A') + letter)}")
            continue
        count = seen.get(key, 0) + 1
        seen[key] = count
        out.append(name if count == 1 else f"{name} ({count})")
    return out
