"""Random-play simulation with outcome statistics, for designers' balance questions."""

from __future__ import annotations

import random
import statistics
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ladytiger.arena.backends import run_games
from ladytiger.core import Game, load_game
from ladytiger.core.playout import random_playout


def game_rng(seed: int, index: int) -> random.Random:
    """The generator for game `index` of a run: independent of how games are split up."""
    return random.Random(f"{seed}:{index}")


@dataclass
class SimulationReport:
    game: str
    options: dict[str, Any]
    games: int
    seed: int
    win_share: list[float]  # per seat: sum of returns / games (a tie counts 1/k)
    sole_wins: list[int]
    draws: int  # games whose returns are all zero (a turn cap was reached, or a solo loss)
    lengths: list[int] = field(repr=False)
    scores: list[list[int]] = field(repr=False)  # per seat, one entry per game

    def length_summary(self) -> dict[str, float]:
        return _summary(self.lengths)

    def score_summary(self, seat: int) -> dict[str, float]:
        return _summary(self.scores[seat])

    def score_histogram(self, seat: int) -> dict[int, int]:
        return dict(sorted(Counter(self.scores[seat]).items()))

    def to_json(self) -> dict[str, Any]:
        seats = range(len(self.win_share))
        return {
            "game": self.game,
            "options": self.options,
            "games": self.games,
            "seed": self.seed,
            "win_share": self.win_share,
            "sole_wins": self.sole_wins,
            "draws": self.draws,
            "length": self.length_summary(),
            "scores": [self.score_summary(seat) for seat in seats],
            "score_histograms": [
                {str(k): v for k, v in self.score_histogram(seat).items()} for seat in seats
            ],
        }


def _summary(values: list[int]) -> dict[str, float]:
    return {
        "mean": statistics.fmean(values),
        "median": statistics.median(values),
        "min": min(values),
        "max": max(values),
        "stdev": statistics.pstdev(values),
    }


def play_random_game(game: Game, seed: int, index: int) -> tuple[list[float], list[int], int]:
    state = random_playout(game.new_initial_state(), game_rng(seed, index))
    return state.returns(), state.scores(), len(state.history())


def _random_game_worker(
    payload: tuple[str, dict[str, Any], int], index: int
) -> tuple[list[float], list[int], int]:
    name, options, seed = payload
    return play_random_game(_game(name, options), seed, index)


_GAME_CACHE: dict[tuple[str, str], Game] = {}


def _game(name: str, options: dict[str, Any]) -> Game:
    # Workers play many games of one configuration; load it once per process.
    key = (name, repr(sorted(options.items())))
    if key not in _GAME_CACHE:
        _GAME_CACHE[key] = load_game(name, **options)
    return _GAME_CACHE[key]


def simulate(
    game: Game,
    games: int,
    seed: int = 0,
    on_progress: Callable[[int], None] | None = None,
    jobs: int | None = 1,
    backend: str = "local",
    address: str | None = None,
) -> SimulationReport:
    """Play `games` random games of `game` and gather statistics. Deterministic in `seed`.

    `jobs` workers (None: every core) on the `backend` ("local" process pool or "ray") play
    the games; the figures are the same whichever backend and however many jobs.
    """
    if games < 1:
        raise ValueError("simulate needs at least one game")
    n = game.num_players
    win_share = [0.0] * n
    sole_wins = [0] * n
    draws = 0
    lengths: list[int] = []
    scores: list[list[int]] = [[] for _ in range(n)]
    outcomes = run_games(
        _random_game_worker,
        (game.info.name, dict(game.options), seed),
        games,
        jobs=jobs,
        backend=backend,
        address=address,
        on_progress=on_progress,
    )
    for returns, final_scores, length in outcomes:
        for seat in range(n):
            win_share[seat] += returns[seat]
            scores[seat].append(final_scores[seat])
            if returns[seat] == 1.0:
                sole_wins[seat] += 1
        if not any(returns):
            draws += 1
        lengths.append(length)
    return SimulationReport(
        game=game.info.name,
        options=dict(game.options),
        games=games,
        seed=seed,
        win_share=[w / games for w in win_share],
        sole_wins=sole_wins,
        draws=draws,
        lengths=lengths,
        scores=scores,
    )
