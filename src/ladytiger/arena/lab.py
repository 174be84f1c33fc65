"""The balance lab: games played by chosen players, over a grid of player counts, options
and player mixes, with the statistics a designer asks for.

A *mix* names the player of each seat: `heuristic` (every seat), or seats separated by `/`,
`ismcts:iterations=200/heuristic` (seat 0 searches, the last named player fills the other
seats). A *cell* is one game configuration played by one mix; a *sweep* is every cell of a
grid. Game `i` of a cell draws all its chance and its bots' seeds from `(seed, i)` alone, so
a cell gives the same games alone or inside a sweep, on any backend and any number of
workers (bots with a budget in seconds excepted: their moves depend on the machine).
"""

from __future__ import annotations

import itertools
import math
import statistics
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ladytiger.arena.backends import Progress, game_rng, run_games
from ladytiger.arena.stats import mean_interval, wilson_interval
from ladytiger.arena.tournament import BotSpec, parse_bot_spec
from ladytiger.bots import load_bot
from ladytiger.core import CHANCE, Game, LadyTigerError, State, load_game
from ladytiger.core.playout import random_playout, sample_chance

# The keys of State.balance_facts shared by every game; the rest are the game's own facts.
SHARED_FACTS = ("first_player", "length", "length_unit")
# Bots cheap enough to be handed many games per task; any other bot gets one game per task,
# which keeps the workers evenly loaded when a game takes seconds.
CHEAP_BOTS = ("random", "heuristic", "beginner", "casual")


# ---------------------------------------------------------------------------- players
@dataclass(frozen=True)
class Mix:
    """The players of a table, seat by seat; the last one fills the remaining seats."""

    label: str
    specs: tuple[BotSpec, ...]

    def seats(self, count: int) -> tuple[BotSpec, ...]:
        if len(self.specs) > count:
            raise LadyTigerError(
                f"the players {self.label!r} name {len(self.specs)} seats, but the game has "
                f"{count}"
            )
        return (*self.specs, *[self.specs[-1]] * (count - len(self.specs)))

    def seat_labels(self, count: int) -> list[str]:
        return [spec.label for spec in self.seats(count)]

    @property
    def all_random(self) -> bool:
        return all(spec.name == "random" and not spec.options for spec in self.specs)


def parse_mix(text: str) -> Mix:
    """`heuristic` or `ismcts:iterations=100/heuristic`: a player per seat, `/` between."""
    parts = [part.strip() for part in text.split("/")]
    if not text.strip() or not all(parts):
        raise LadyTigerError(
            f"{text!r} does not name a player for every seat; write players as "
            "random, heuristic, ismcts:iterations=200, or one per seat: ismcts/heuristic"
        )
    return Mix(label="/".join(parts), specs=tuple(parse_bot_spec(part) for part in parts))


def parse_mixes(text: str) -> list[Mix]:
    """Mixes separated by commas (a sweep's `--bots random,heuristic`)."""
    mixes = [parse_mix(part) for part in text.split(",") if part.strip()]
    if not mixes:
        raise LadyTigerError("name at least one player, e.g. --bots heuristic")
    labels = [mix.label for mix in mixes]
    if len(set(labels)) != len(labels):
        raise LadyTigerError(f"a player mix is listed twice in {text!r}")
    return mixes


# ---------------------------------------------------------------------------- the grid
def parse_counts(text: str) -> list[int]:
    """Player counts: `2,3,4` or `2-4`."""
    counts: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        low, dash, high = part.partition("-")
        try:
            span = range(int(low), int(high) + 1) if dash else [int(part)]
        except ValueError:
            raise LadyTigerError(
                f"--players takes counts such as 2,3,4 or 2-4, not {text!r}"
            ) from None
        counts.extend(span)
    if not counts:
        raise LadyTigerError(f"--players {text!r} names no player count")
    if len(set(counts)) != len(counts):
        raise LadyTigerError(f"--players {text!r} names a count twice")
    return counts


def parse_option_grid(pairs: Sequence[str]) -> dict[str, list[str]]:
    """`name=v1,v2` pairs: the values each option takes in a sweep (checked by the game)."""
    grid: dict[str, list[str]] = {}
    for pair in pairs:
        name, sep, values = pair.partition("=")
        name = name.strip()
        if not sep or not name:
            raise LadyTigerError(f"option {pair!r} is not NAME=VALUE or NAME=V1,V2,...")
        if name == "players":
            raise LadyTigerError("give player counts with --players, not as an option")
        if name in grid:
            raise LadyTigerError(f"option {name!r} is given twice; list its values once: "
                                 f"{name}=V1,V2")
        listed = [value.strip() for value in values.split(",")]
        if not all(listed):
            raise LadyTigerError(f"option {pair!r} has an empty value")
        if len(set(listed)) != len(listed):
            raise LadyTigerError(f"option {pair!r} lists a value twice")
        grid[name] = listed
    return grid


@dataclass(frozen=True)
class Cell:
    """One configuration of a sweep: a game with its options, played by a mix."""

    game: str
    options: tuple[tuple[str, Any], ...]  # as the game resolved them, players included
    mix: Mix
    varied: tuple[str, ...] = ()  # the option names the sweep varies, for short labels

    @property
    def players(self) -> int:
        return int(dict(self.options)["players"])

    def options_dict(self) -> dict[str, Any]:
        return dict(self.options)

    def seat_labels(self) -> list[str]:
        return self.mix.seat_labels(self.players)

    @property
    def label(self) -> str:
        options = self.options_dict()
        shown = [f"{self.players}p"]
        shown += [f"{name}={options[name]}" for name in self.varied if name != "players"]
        return " ".join([*shown, self.mix.label])


def build_cells(
    game_name: str,
    counts: Sequence[int] | None,
    grid: dict[str, list[str]],
    mixes: Sequence[Mix],
    fixed: dict[str, Any] | None = None,
) -> list[Cell]:
    """Every combination of counts, option values and mixes, each checked by the game and
    its bots before any game is played."""
    base = dict(fixed or {})
    if counts is None:
        counts = [load_game(game_name, **base).num_players]
    varied = tuple(
        [*(["players"] if len(counts) > 1 else []),
         *(name for name, values in grid.items() if len(values) > 1)]
    )
    cells = []
    names = list(grid)
    for count in counts:
        for values in itertools.product(*(grid[name] for name in names)):
            options = {**base, "players": count, **dict(zip(names, values, strict=True))}
            game = load_game(game_name, **options)
            for mix in mixes:
                cell = Cell(game.info.name, tuple(game.options.items()), mix, varied)
                check_players(cell, game)
                cells.append(cell)
    return cells


def check_players(cell: Cell, game: Game) -> None:
    """Make each of the cell's bots once, so a bad bot or option fails before any game."""
    for spec in dict.fromkeys(cell.mix.seats(game.num_players)):
        load_bot(spec.name, game, seed=0, **spec.options_dict())


# ---------------------------------------------------------------------------- one game
# (returns, scores, actions, facts): what a worker sends back for each game.
Outcome = tuple[list[float], list[int], int, dict[str, Any]]

_GAMES: dict[tuple[str, tuple[tuple[str, Any], ...]], Game] = {}


def cached_game(name: str, options: tuple[tuple[str, Any], ...]) -> Game:
    # Workers play many games of a few configurations; load each once per process.
    key = (name, options)
    if key not in _GAMES:
        _GAMES[key] = load_game(name, **dict(options))
    return _GAMES[key]


def finished(state: State) -> Outcome:
    return state.returns(), state.scores(), len(state.history()), state.balance_facts()


def play_game(
    game: Game, seats: Sequence[tuple[str, dict[str, Any]]] | None, seed: int, index: int
) -> Outcome:
    """Game `index` of a run with `seed`: random play when `seats` is None, else bots.

    Bots are seeded from the game's generator in seat order and then play with it for
    chance, as the arena does, so a table seated alike plays the arena's very games.
    """
    rng = game_rng(seed, index)
    if seats is None:
        return finished(random_playout(game.new_initial_state(), rng))
    bots = [load_bot(name, game, seed=rng.randrange(2**32), **options) for name, options in seats]
    for bot in bots:
        foresee = getattr(bot, "foresee", None)  # the Hoard clairvoyant, told the chance
        if foresee is not None:
            foresee(rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(bots[player].step(state, player))
    return finished(state)


def _sweep_worker(payload: dict[str, Any], index: int) -> Outcome:
    cell, number = divmod(index, payload["games"])
    name, options, seats = payload["cells"][cell]
    return play_game(cached_game(name, options), seats, payload["seed"], number)


# ---------------------------------------------------------------------------- statistics
@dataclass
class Standing:
    """Results of one seat, one turn position or one player over a cell's games."""

    label: str
    games: int = 0
    win_total: float = 0.0  # a k-way shared win counts 1/k
    sole_wins: int = 0
    scores: list[int] = field(default_factory=list, repr=False)

    def add(self, share: float, score: int) -> None:
        self.games += 1
        self.win_total += share
        self.sole_wins += share == 1.0
        self.scores.append(score)

    @property
    def win_share(self) -> float:
        return self.win_total / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.win_total, self.games)

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "label": self.label,
            "games": self.games,
            "win_share": self.win_share,
            "win_share_95": [low, high],
            "sole_wins": self.sole_wins,
            "score": summary(self.scores),
            "score_histogram": {str(k): v for k, v in sorted(Counter(self.scores).items())},
        }


def summary(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {}
    mean, low, high = mean_interval(values)
    return {
        "mean": mean,
        "mean_95": [low, high],  # type: ignore[dict-item]
        "median": statistics.median(values),
        "min": min(values),
        "max": max(values),
        "stdev": statistics.pstdev(values),
    }


def ordinal(position: int) -> str:
    """1st, 2nd, 3rd... for turn positions counted from 0."""
    number = position + 1
    teens = 10 <= number % 100 <= 20
    suffix = "th" if teens else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


@dataclass
class CellReport:
    """Everything a cell's games say: by seat, by turn position, by player, and per game."""

    cell: Cell
    seed: int
    outcomes: list[Outcome] = field(repr=False)

    def __post_init__(self) -> None:
        n = self.cell.players
        labels = self.cell.seat_labels()
        self.by_seat = [Standing(f"seat {s} ({labels[s]})") for s in range(n)]
        self.by_turn = [Standing(f"{ordinal(p)} to play") for p in range(n)]
        self.by_player = {label: Standing(label) for label in dict.fromkeys(labels)}
        self.draws = 0
        self.lengths: list[int] = []
        self.actions: list[int] = []
        self.unit = "moves"
        self.numbers: dict[str, list[float]] = {}
        self.texts: dict[str, Counter[str]] = {}
        for returns, scores, actions, facts in self.outcomes:
            first = int(facts.get("first_player", 0))
            for seat in range(n):
                self.by_seat[seat].add(returns[seat], scores[seat])
                self.by_turn[(seat - first) % n].add(returns[seat], scores[seat])
                self.by_player[labels[seat]].add(returns[seat], scores[seat])
            self.draws += not any(returns)
            self.actions.append(actions)
            self.lengths.append(int(facts.get("length", actions)))
            self.unit = str(facts.get("length_unit", self.unit))
            for key, value in facts.items():
                if key in SHARED_FACTS:
                    continue
                if isinstance(value, str):
                    self.texts.setdefault(key, Counter())[value] += 1
                else:
                    self.numbers.setdefault(key, []).append(float(value))

    @property
    def games(self) -> int:
        return len(self.outcomes)

    @property
    def solo(self) -> bool:
        return self.cell.players == 1

    @property
    def draw_interval(self) -> tuple[float, float]:
        return wilson_interval(self.draws, self.games)

    def first_player_edge(self) -> tuple[float, float, float]:
        """The first player's win share minus the fair share, with its 95% interval."""
        first = self.by_turn[0]
        low, high = first.interval
        fair = (1.0 - self.draws / self.games) / self.cell.players
        return first.win_share - fair, low - fair, high - fair

    def to_json(self) -> dict[str, Any]:
        low, high = self.draw_interval
        return {
            "game": self.cell.game,
            "options": self.cell.options_dict(),
            "players": self.cell.seat_labels(),
            "mix": self.cell.mix.label,
            "label": self.cell.label,
            "games": self.games,
            "seed": self.seed,
            "by_seat": [s.to_json() for s in self.by_seat],
            "by_turn": [s.to_json() for s in self.by_turn],
            "by_player": [s.to_json() for s in self.by_player.values()],
            "draws": self.draws,
            "draw_rate": self.draws / self.games,
            "draw_rate_95": [low, high],
            "length_unit": self.unit,
            "length": summary(self.lengths),
            "length_histogram": {str(k): v for k, v in sorted(Counter(self.lengths).items())},
            "actions": summary(self.actions),
            "facts": {
                **{key: summary(values) for key, values in self.numbers.items()},
                **{
                    key: {value: count / self.games for value, count in sorted(counts.items())}
                    for key, counts in self.texts.items()
                },
            },
        }

    def rows(self, cell_number: int = 0, width: int | None = None) -> Iterable[dict[str, Any]]:
        """One dict per game, for CSV and JSONL: everything needed to reanalyse a game."""
        n = self.cell.players
        width = width or n
        labels = self.cell.seat_labels()
        for index, (returns, scores, actions, facts) in enumerate(self.outcomes):
            first = int(facts.get("first_player", 0))
            winners = [s for s in range(n) if returns[s] > 0]
            row: dict[str, Any] = {
                "cell": cell_number,
                "game": self.cell.game,
                "options": {k: v for k, v in self.cell.options if k != "players"},
                "num_players": n,
                "mix": self.cell.mix.label,
                "seed": self.seed,
                "index": index,
                "game_seed": f"{self.seed}:{index}",
                "first_player": first,
                "turn_order": [(first + k) % n for k in range(n)],
                "players": labels,
                "scores": scores,
                "returns": returns,
                "winner": winners[0] if len(winners) == 1 else (winners or None),
                "actions": actions,
                "length": int(facts.get("length", actions)),
                "length_unit": str(facts.get("length_unit", "moves")),
                "facts": {k: v for k, v in facts.items() if k not in SHARED_FACTS},
            }
            yield row


@dataclass
class SweepReport:
    game: str
    games: int
    seed: int
    cells: list[CellReport]
    seconds: float
    backend: str
    jobs: int | None

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "games_per_cell": self.games,
            "seed": self.seed,
            "seconds": self.seconds,
            "cells": [cell.to_json() for cell in self.cells],
        }

    def rows(self) -> Iterable[dict[str, Any]]:
        width = max(cell.cell.players for cell in self.cells)
        for number, cell in enumerate(self.cells):
            yield from cell.rows(number, width)

    def outcome_key(self) -> list[Any]:
        """Everything the games decided, to compare two runs."""
        return [list(cell.outcomes) for cell in self.cells]


def run_cells(
    cells: Sequence[Cell],
    games: int,
    seed: int = 0,
    *,
    jobs: int | None = None,
    backend: str = "local",
    address: str | None = None,
    on_progress: Progress | None = None,
) -> SweepReport:
    """Play `games` games of every cell (all in one run of the backend) and summarise."""
    if games < 1:
        raise LadyTigerError(f"a balance run needs at least one game per cell, not {games}")
    if not cells:
        raise LadyTigerError("the sweep has no cells")
    payload = {
        "games": games,
        "seed": seed,
        "cells": [
            (
                cell.game,
                cell.options,
                None if cell.mix.all_random
                else [(spec.name, spec.options_dict()) for spec in cell.mix.seats(cell.players)],
            )
            for cell in cells
        ],
    }
    cheap = all(spec.name in CHEAP_BOTS for cell in cells for spec in cell.mix.specs)
    started = time.perf_counter()
    outcomes: list[Outcome] = run_games(
        _sweep_worker,
        payload,
        games * len(cells),
        jobs=jobs,
        backend=backend,
        address=address,
        chunk_size=None if cheap else 1,
        on_progress=on_progress,
    )
    seconds = time.perf_counter() - started
    reports = [
        CellReport(cell, seed, outcomes[number * games : (number + 1) * games])
        for number, cell in enumerate(cells)
    ]
    return SweepReport(cells[0].game, games, seed, reports, seconds, backend, jobs)


def run_sweep(
    game_name: str,
    *,
    players: str | Sequence[int] | None = None,
    options: Sequence[str] | dict[str, Sequence[Any]] = (),
    bots: str | Sequence[str] = "heuristic",
    games: int = 100,
    seed: int = 0,
    jobs: int | None = None,
    backend: str = "local",
    address: str | None = None,
    on_progress: Progress | None = None,
) -> SweepReport:
    """The Python face of `ladytiger balance`:

        run_sweep("favor", players="2,3,4", options={"random_first_player": [True]},
                  bots="heuristic", games=500)
    """
    counts = parse_counts(players) if isinstance(players, str) else (
        list(players) if players is not None else None
    )
    grid = (
        {name: [str(v) for v in values] for name, values in options.items()}
        if isinstance(options, dict) else parse_option_grid(options)
    )
    mixes = parse_mixes(bots) if isinstance(bots, str) else [parse_mix(b) for b in bots]
    if games < 1:
        raise LadyTigerError(f"a balance run needs at least one game per cell, not {games}")
    cells = build_cells(game_name, counts, grid, mixes)
    return run_cells(cells, games, seed, jobs=jobs, backend=backend, address=address,
                     on_progress=on_progress)


def format_share(standing: Standing) -> str:
    low, high = standing.interval
    return f"{100 * standing.win_share:.1f}% ({100 * low:.1f}–{100 * high:.1f})"


def format_mean(values: Sequence[float]) -> str:
    if not values:
        return "–"
    mean, low, high = mean_interval(values)
    if math.isclose(low, high):
        return f"{mean:.3g}"
    return f"{mean:.3g} ({low:.3g}–{high:.3g})"
