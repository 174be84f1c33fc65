"""Simulation with outcome statistics, for designers' balance questions.

`simulate` plays one configuration with random players (the default) or any players
(`players="heuristic"`, `players="ismcts:iterations=200/heuristic"`); the balance lab
(`ladytiger.arena.lab`) plays whole grids of them. Works from a script without a
`__main__` guard and from a notebook: the workers never import the caller's script.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ladytiger.arena.backends import game_rng
from ladytiger.arena.lab import (
    Cell,
    CellReport,
    check_players,
    parse_mix,
    play_game,
    run_cells,
)
from ladytiger.core import Game, LadyTigerError

__all__ = ["SimulationReport", "game_rng", "play_random_game", "simulate"]


@dataclass
class SimulationReport:
    game: str
    options: dict[str, Any]
    games: int
    seed: int
    win_share: list[float]  # per seat: sum of returns / games (a tie counts 1/k)
    sole_wins: list[int]
    draws: int  # games whose returns are all zero (a turn cap was reached, or a solo loss)
    lengths: list[int] = field(repr=False)  # in actions
    scores: list[list[int]] = field(repr=False)  # per seat, one entry per game
    players: list[str] = field(default_factory=list)  # per seat
    cell: CellReport | None = field(default=None, repr=False)  # every statistic of the lab

    def length_summary(self) -> dict[str, float]:
        return _summary(self.lengths)

    def score_summary(self, seat: int) -> dict[str, float]:
        return _summary(self.scores[seat])

    def score_histogram(self, seat: int) -> dict[int, int]:
        return dict(sorted(Counter(self.scores[seat]).items()))

    def to_json(self) -> dict[str, Any]:
        seats = range(len(self.win_share))
        data = {
            "game": self.game,
            "options": self.options,
            "games": self.games,
            "seed": self.seed,
            "players": self.players,
            "win_share": self.win_share,
            "sole_wins": self.sole_wins,
            "draws": self.draws,
            "length": self.length_summary(),
            "scores": [self.score_summary(seat) for seat in seats],
            "score_histograms": [
                {str(k): v for k, v in self.score_histogram(seat).items()} for seat in seats
            ],
        }
        if self.cell is not None:
            data["balance"] = self.cell.to_json()
        return data


def _summary(values: list[int]) -> dict[str, float]:
    return {
        "mean": statistics.fmean(values),
        "median": statistics.median(values),
        "min": min(values),
        "max": max(values),
        "stdev": statistics.pstdev(values),
    }


def play_random_game(game: Game, seed: int, index: int) -> tuple[list[float], list[int], int]:
    returns, scores, actions, _ = play_game(game, None, seed, index)
    return returns, scores, actions


def simulate(
    game: Game,
    games: int,
    seed: int = 0,
    on_progress: Callable[[int], None] | None = None,
    jobs: int | None = 1,
    backend: str = "local",
    address: str | None = None,
    players: str = "random",
) -> SimulationReport:
    """Play `games` games of `game` and gather statistics. Deterministic in `seed`.

    `players` names the player of every seat (`heuristic`) or of each seat in turn
    (`ismcts:iterations=100/heuristic`; the last fills the remaining seats). `jobs`
    workers (None: every core) on the `backend` ("local" process pool or "ray") play the
    games; the figures are the same whichever backend and however many jobs.
    """
    if games < 1:
        raise LadyTigerError(f"simulate needs at least one game, not {games}")
    mix = parse_mix(players)
    cell = Cell(game.info.name, tuple(game.options.items()), mix)
    check_players(cell, game)
    report = run_cells([cell], games, seed, jobs=jobs, backend=backend, address=address,
                       on_progress=on_progress).cells[0]
    return report_from_cell(game, report)


def report_from_cell(game: Game, cell: CellReport) -> SimulationReport:
    """The simulation report of one cell of the balance lab."""
    n = game.num_players
    return SimulationReport(
        game=game.info.name,
        options=dict(game.options),
        games=cell.games,
        seed=cell.seed,
        win_share=[s.win_share for s in cell.by_seat],
        sole_wins=[s.sole_wins for s in cell.by_seat],
        draws=cell.draws,
        lengths=cell.actions,
        scores=[cell.by_seat[seat].scores for seat in range(n)],
        players=cell.cell.seat_labels(),
        cell=cell,
    )
