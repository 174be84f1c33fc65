"""Tournaments between bots: fair seatings, many games, win rates, scores and Elo.

Game `i` of a run is played by seating `i mod S` of the `S` seatings, with its chance and
its bots' seeds drawn from the run's seed and `i` alone, so a run gives the same figures on
any backend and any number of workers (for bots whose budget is in iterations).
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import Any

from ladytiger.arena.backends import Progress, game_rng, run_games
from ladytiger.arena.stats import elo_ratings, pairwise_scores, wilson_interval
from ladytiger.bots import load_bot, registered_bots
from ladytiger.core import CHANCE, Game, LadyTigerError, load_game
from ladytiger.core.playout import sample_chance


@dataclass(frozen=True)
class BotSpec:
    """A bot as the arena names it: `ismcts:iterations=200:exploration=0.5`."""

    label: str
    name: str
    options: tuple[tuple[str, Any], ...] = ()

    def options_dict(self) -> dict[str, Any]:
        return dict(self.options)


def parse_value(text: str) -> Any:
    """An option value from the command line: a number or true/false, else the text."""
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text.strip()


def parse_bot_spec(text: str) -> BotSpec:
    name, *pairs = [part.strip() for part in text.strip().split(":")]
    if not name:
        raise LadyTigerError(f"{text!r} does not name a bot")
    if name not in registered_bots():
        raise LadyTigerError(
            f"there is no bot called {name!r}; the bots are: {', '.join(registered_bots())}"
        )
    options = []
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise LadyTigerError(f"bot option {pair!r} in {text!r} is not NAME=VALUE")
        options.append((key.strip(), parse_value(value)))
    return BotSpec(label=text.strip(), name=name, options=tuple(options))


def parse_bots(text: str) -> list[BotSpec]:
    """Bots separated by commas; the same bot twice needs different options to tell apart."""
    specs = [parse_bot_spec(part) for part in text.split(",") if part.strip()]
    if not specs:
        raise LadyTigerError("name at least one bot, e.g. --bots ismcts,random")
    labels = [spec.label for spec in specs]
    if len(set(labels)) != len(labels):
        raise LadyTigerError("each bot may be listed once (give copies different options)")
    return specs


def seatings(bots: int, seats: int) -> list[tuple[int, ...]]:
    """Every arrangement of the bots (by number) around the table, each once.

    As many bots as seats: every permutation. More bots than seats: every permutation of
    every group of `seats` bots (a round robin). Fewer: each bot but the last takes one seat
    and the last fills the others (`ismcts,random` at 4 players is one ismcts against three
    randoms), in every distinct order.
    """
    if bots < 1 or seats < 1:
        raise LadyTigerError("a tournament needs at least one bot and one seat")
    if bots >= seats:
        groups = itertools.combinations(range(bots), seats)
        return [order for group in groups for order in itertools.permutations(group)]
    table = [*range(bots - 1), *[bots - 1] * (seats - bots + 1)]
    return sorted(set(itertools.permutations(table)))


@dataclass
class ArenaGame:
    """One game's result; `lineup` numbers the bots seat by seat."""

    seating: int
    lineup: tuple[int, ...]
    returns: list[float]
    scores: list[int]
    length: int
    think_seconds: list[float]
    moves: list[int]


def play_arena_game(payload: dict[str, Any], index: int) -> ArenaGame:
    """Play game `index` of the tournament `payload` (a worker, so module-level)."""
    game = load_game(payload["game"], **payload["options"])
    seats = payload["seatings"]
    number = index % len(seats)
    lineup = tuple(seats[number])
    rng = game_rng(payload["seed"], index)
    bots = []
    for bot_index in lineup:
        name, options = payload["bots"][bot_index]
        bots.append(load_bot(name, game, seed=rng.randrange(2**32), **options))
    for bot in bots:
        # A clairvoyant bot (the Hoard solver) is told the chance to come, by design.
        foresee = getattr(bot, "foresee", None)
        if foresee is not None:
            foresee(rng)
    n = game.num_players
    think = [0.0] * n
    moves = [0] * n
    state = game.new_initial_state()
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            state.apply_action(sample_chance(state, rng))
            continue
        started = time.perf_counter()
        action = bots[player].step(state, player)
        think[player] += time.perf_counter() - started
        moves[player] += 1
        state.apply_action(action)
    return ArenaGame(
        seating=number,
        lineup=lineup,
        returns=state.returns(),
        scores=state.scores(),
        length=len(state.history()),
        think_seconds=think,
        moves=moves,
    )


@dataclass
class BotStanding:
    label: str
    seat_games: int  # games times seats the bot held (a bot filling 3 seats counts 3)
    win_total: float  # sum of its returns: a shared win counts its share
    sole_wins: int
    score_total: float
    elo: float
    think_seconds: float
    moves: int

    @property
    def win_rate(self) -> float:
        return self.win_total / self.seat_games if self.seat_games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.win_total, self.seat_games)

    @property
    def mean_score(self) -> float:
        return self.score_total / self.seat_games if self.seat_games else 0.0

    @property
    def seconds_per_move(self) -> float:
        return self.think_seconds / self.moves if self.moves else 0.0

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "bot": self.label,
            "seat_games": self.seat_games,
            "win_rate": self.win_rate,
            "win_rate_95": [low, high],
            "sole_wins": self.sole_wins,
            "mean_score": self.mean_score,
            "elo": self.elo,
            "seconds_per_move": self.seconds_per_move,
            "moves": self.moves,
        }


@dataclass
class ArenaReport:
    game: str
    options: dict[str, Any]
    bots: list[str]
    games: int
    seed: int
    seatings: list[tuple[int, ...]]
    standings: list[BotStanding]
    draws: int  # games nobody won (a turn cap, or a solo loss)
    results: list[ArenaGame] = field(repr=False)

    @property
    def players(self) -> int:
        return len(self.seatings[0])

    @property
    def fair_share(self) -> float:
        return 1.0 / self.players

    def seating_table(self) -> list[dict[str, Any]]:
        """Per seating: games and each seat's mean return (shows a first-seat advantage)."""
        rows = []
        for number, lineup in enumerate(self.seatings):
            games = [g for g in self.results if g.seating == number]
            if not games:
                continue
            rows.append({
                "seats": [self.bots[b] for b in lineup],
                "games": len(games),
                "mean_returns": [
                    sum(g.returns[s] for g in games) / len(games) for s in range(len(lineup))
                ],
            })
        return rows

    def outcome_key(self) -> list[tuple[Any, ...]]:
        """Everything a run decides (not how long it thought), to compare two runs."""
        return [(g.seating, tuple(g.returns), tuple(g.scores), g.length) for g in self.results]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "options": self.options,
            "bots": self.bots,
            "games": self.games,
            "seed": self.seed,
            "players": self.players,
            "fair_share": self.fair_share,
            "draws": self.draws,
            "standings": [standing.to_json() for standing in self.standings],
            "seatings": self.seating_table(),
        }


def run_arena(
    game: Game,
    bots: list[BotSpec],
    games: int,
    seed: int = 0,
    *,
    budget: dict[str, Any] | None = None,
    jobs: int | None = None,
    backend: str = "local",
    address: str | None = None,
    on_progress: Progress | None = None,
) -> ArenaReport:
    """Play `games` games between `bots`, rotating them over the seats.

    `budget` ({"iterations": N} or {"seconds": S}) goes to every bot that names no budget
    of its own. `jobs` (None: every core) and `backend` say where the games run.
    """
    if games < 1:
        raise LadyTigerError("an arena needs at least one game")
    seats = seatings(len(bots), game.num_players)
    bot_options = []
    for spec in bots:
        options = spec.options_dict()
        if budget and not ({"iterations", "seconds"} & options.keys()):
            options.update(budget)
        bot_options.append((spec.name, options))
    for name, options in bot_options:  # a bad option fails here, not in a worker
        load_bot(name, game, seed=0, **options)
    payload = {
        "game": game.info.name,
        "options": dict(game.options),
        "bots": bot_options,
        "seatings": seats,
        "seed": seed,
    }
    results: list[ArenaGame] = run_games(
        play_arena_game,
        payload,
        games,
        jobs=jobs,
        backend=backend,
        address=address,
        chunk_size=1,
        on_progress=on_progress,
    )
    return summarise(game, bots, games, seed, seats, results)


def summarise(
    game: Game,
    bots: list[BotSpec],
    games: int,
    seed: int,
    seats: list[tuple[int, ...]],
    results: list[ArenaGame],
) -> ArenaReport:
    count = len(bots)
    seat_games = [0] * count
    win_total = [0.0] * count
    sole_wins = [0] * count
    score_total = [0.0] * count
    think = [0.0] * count
    moves = [0] * count
    duels = []
    draws = 0
    for result in results:
        for seat, bot in enumerate(result.lineup):
            seat_games[bot] += 1
            win_total[bot] += result.returns[seat]
            sole_wins[bot] += result.returns[seat] == 1.0
            score_total[bot] += result.scores[seat]
            think[bot] += result.think_seconds[seat]
            moves[bot] += result.moves[seat]
        duels.extend(pairwise_scores(result.lineup, result.returns))
        draws += not any(result.returns)
    elo = elo_ratings(count, duels)
    standings = [
        BotStanding(
            label=spec.label,
            seat_games=seat_games[b],
            win_total=win_total[b],
            sole_wins=sole_wins[b],
            score_total=score_total[b],
            elo=elo[b],
            think_seconds=think[b],
            moves=moves[b],
        )
        for b, spec in enumerate(bots)
    ]
    return ArenaReport(
        game=game.info.name,
        options=dict(game.options),
        bots=[spec.label for spec in bots],
        games=games,
        seed=seed,
        seatings=seats,
        standings=standings,
        draws=draws,
        results=results,
    )
