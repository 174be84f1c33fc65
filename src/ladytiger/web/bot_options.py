"""The bot options a table's creator may set: for each bot, which ones, of what JSON type, and
within what bounds.

Every bot option is a way to spend the server's CPU, so every number has a ceiling: a
budget (`seconds` or `iterations` per move) is capped server-wide by `Settings.bot_max_seconds`
and `Settings.bot_max_iterations`, and the bots' other numbers by the bounds below. Strings are
refused where numbers are meant (a bot would happily turn "100000000" into a budget), so are
true/false and non-finite numbers. The per-move deadline (`Settings.bot_move_timeout`) stops
whatever these bounds let through: 10,000 IS-MCTS iterations of a long card game can take
longer than it.

Two things are never a creator's to choose:

- `seed`: the server's dealer seeds every bot, so nobody can fix a bot's random stream and
  replay its choices;
- `hoard_clairvoyant`: it is told the order of the deck, which no player may know.

`check_options` refuses a request that breaks a rule; `lenient_options` is for what is
already in the database (tables stored before these rules, or under larger caps): it keeps
what the rules allow, clamps numbers into their bounds and drops the rest.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ladytiger.bots.levels import LEVELS
from ladytiger.web.config import Settings
from ladytiger.web.protocol import ProtocolError

REFUSED_BOTS = {
    "hoard_clairvoyant": "it sees the order of the deck, which no player may know",
}
REFUSED_OPTIONS = {
    "seed": "the server seeds every bot itself, so that nobody can fix a bot's random stream",
}


@dataclass(frozen=True)
class BotLimits:
    """The server-wide caps on a bot's budget per move."""

    max_seconds: float = Settings.bot_max_seconds
    max_iterations: int = Settings.bot_max_iterations

    @classmethod
    def from_settings(cls, settings: Settings) -> BotLimits:
        return cls(settings.bot_max_seconds, settings.bot_max_iterations)


DEFAULT_LIMITS = BotLimits()


# ---------------------------------------------------------------------------- kinds of option
@dataclass(frozen=True)
class Whole:
    """A JSON whole number (not 3.0, not "3", not true) from `low` to `high`."""

    low: int
    high: int

    def describe(self) -> str:
        return f"a whole number from {self.low} to {self.high}"

    def fits(self, value: Any) -> bool:
        return type(value) is int and self.low <= value <= self.high

    def clamp(self, value: Any) -> Any:
        if type(value) is not int:
            return None
        return min(self.high, max(self.low, value))


@dataclass(frozen=True)
class Number:
    """A finite JSON number between `low` and `high`; an open end excludes the bound itself."""

    low: float
    high: float
    low_open: bool = False
    high_open: bool = False

    def describe(self) -> str:
        if not (self.low_open or self.high_open):
            return f"a number from {self.low:g} to {self.high:g}"
        low = f"above {self.low:g}" if self.low_open else f"at least {self.low:g}"
        high = f"below {self.high:g}" if self.high_open else f"at most {self.high:g}"
        return f"a number {low} and {high}"

    def fits(self, value: Any) -> bool:
        if not is_number(value):
            return False
        low_ok = value > self.low if self.low_open else value >= self.low
        high_ok = value < self.high if self.high_open else value <= self.high
        return low_ok and high_ok

    def clamp(self, value: Any) -> Any:
        if not is_number(value):
            return None
        if self.fits(value):
            return value
        # An open end has no nearest allowed value to clamp to: the option is dropped.
        if value > self.high:
            return None if self.high_open else self.high
        return None if self.low_open else self.low


@dataclass(frozen=True)
class Choice:
    """One of a few words."""

    words: tuple[str, ...]

    def describe(self) -> str:
        return "one of " + ", ".join(self.words)

    def fits(self, value: Any) -> bool:
        return type(value) is str and value in self.words

    def clamp(self, value: Any) -> Any:
        return value if self.fits(value) else None


Rule = Whole | Number | Choice


# ---------------------------------------------------------------------------- the whitelist
# Bounds beyond each bot's defaults, wide enough for every setting the docs and the arena use.
ISMCTS_OPTIONS: dict[str, Rule] = {
    # UCT's exploration constant (default 0.7); past 10 the tree is a uniform sweep.
    "exploration": Number(0.0, 10.0),
    # Playout steps before a playout is cut short and judged (default 400, Labyrinth 8): each
    # iteration costs up to this many steps, so it multiplies the iterations budget.
    "rollout_limit": Whole(0, 1000),
    "rollout": Choice(("auto", "heuristic", "random")),
    "rollout_epsilon": Number(0.0, 1.0),
    "opponents": Choice(("auto", "search", "policy", "random", "infer")),
    # Returns lie in [0, 1], so a margin above 1 could never be met.
    "margin": Number(0.0, 1.0),
    # Standard errors (default 2).
    "confidence": Number(0.0, 10.0),
    # Worlds drawn and weighed before each decision, outside the budget (default 48; 200
    # take about a tenth of a second).
    "worlds": Whole(0, 200),
    "horizon": Choice(("auto", "game", "round")),
    # Searched plies of the seat's own before the policy takes over (0: no limit).
    "depth": Whole(0, 64),
    # A probability strictly between 0 and 1 (default 0.8, Doors 0.5).
    "prior": Number(0.0, 1.0, low_open=True, high_open=True),
    # Replayed worlds per judged opponent move, outside the budget (default 2, Doors 8).
    "judges": Whole(1, 32),
}
EXTRA_OPTIONS: dict[str, dict[str, Rule]] = {
    "random": {},
    "heuristic": {},
    "ismcts": ISMCTS_OPTIONS,
    "hoard_planner": {},
    # Plies of iterative deepening (default 8); the node budget ends the search sooner.
    "labyrinth_search": {"max_depth": Whole(1, 32)},
    # The levels take no options at all, not even a budget (see `allowed_options`).
    **{level: {} for level in LEVELS},
}


def budget_options(limits: BotLimits) -> dict[str, Rule]:
    # Bots that do not search take a budget too and ignore it (so the arena can hand every
    # bot the same options), so every listed bot accepts these.
    return {
        "iterations": Whole(1, limits.max_iterations),
        "seconds": Number(0.0, limits.max_seconds, low_open=True),
    }


def allowed_options(bot: str, limits: BotLimits = DEFAULT_LIMITS) -> dict[str, Rule]:
    """The options a creator may give `bot`. A bot the whitelist does not know (a bot
    registered by a plug-in, say) plays with its defaults: it takes no options. Nor does a
    level (ladytiger.bots.levels): a level is its budget, and an expert told to think for 5 s
    would no longer be the expert the ladder measured."""
    if bot in REFUSED_BOTS or bot in LEVELS or bot not in EXTRA_OPTIONS:
        return {}
    return {**budget_options(limits), **EXTRA_OPTIONS[bot]}


# ---------------------------------------------------------------------------- checking
def check_options(
    bot: str, options: Mapping[str, Any], where: str, limits: BotLimits = DEFAULT_LIMITS
) -> None:
    """Refuse a bot no creator may seat, or an option outside the whitelist."""
    if bot in REFUSED_BOTS:
        raise ProtocolError(
            "bot_not_allowed",
            f"{where}: the {bot} bot cannot be seated at a table: {REFUSED_BOTS[bot]}",
        )
    rules = allowed_options(bot, limits)
    for name, value in options.items():
        if name in REFUSED_OPTIONS:
            problem = f"{name!r} cannot be set: {REFUSED_OPTIONS[name]}"
        elif name not in rules:
            takes = ", ".join(rules) if rules else "none"
            problem = f"it takes no option {name!r}; the options it takes: {takes}"
        elif not rules[name].fits(value):
            problem = f"{name!r} must be {rules[name].describe()}, not {shown(value)}"
        else:
            continue
        raise ProtocolError("bad_bot_options", f"{where}: bad options for the {bot} bot: {problem}")


def lenient_options(
    bot: str, options: Mapping[str, Any], limits: BotLimits = DEFAULT_LIMITS
) -> tuple[dict[str, Any], list[str]]:
    """What of `options` the rules allow, numbers clamped into bounds; and a note per option
    dropped or changed."""
    rules = allowed_options(bot, limits)
    kept: dict[str, Any] = {}
    notes: list[str] = []
    for name, value in options.items():
        rule = None if name in REFUSED_OPTIONS else rules.get(name)
        if rule is None:
            notes.append(f"{name} dropped (not allowed)")
            continue
        fixed = rule.clamp(value)
        if fixed is None:
            notes.append(f"{name}={shown(value)} dropped (must be {rule.describe()})")
            continue
        if fixed != value or type(fixed) is not type(value):
            notes.append(f"{name}={shown(value)} clamped to {fixed!r}")
        kept[name] = fixed
    return kept, notes


def is_number(value: Any) -> bool:
    # Not `isinstance`: true and false are ints to Python but not numbers to a creator. And
    # no float conversion of an int: JSON allows whole numbers too large for a float.
    return type(value) is int or (type(value) is float and math.isfinite(value))


def shown(value: Any) -> str:
    """A value as an error message quotes it: its JSON kind when that is what is wrong."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        text = value if len(value) <= 20 else value[:20] + "..."
        return f"the string {text!r}"
    if isinstance(value, int | float):
        text = repr(value)
        return text if len(text) <= 24 else f"{value:.3g}"
    return type(value).__name__
