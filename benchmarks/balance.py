"""Balance lab speed: a big random sweep, and heuristic self-play against random play.

The issue's targets:
- a sweep of 100,000 random Doors games (`ladytiger balance doors --bots random -n 100000`,
  the local process pool on every core) finishes in under a minute;
- for every game, heuristic self-play runs at no less than a third of random play's games
  per second (one process each, measured in alternating runs so both see the same load).

Games per second also measures how long games are: a Doors game between heuristics has about
three times the moves of a random one, so there even a heuristic that cost nothing would miss
the games-per-second ratio. Each row therefore also gives the moves (actions, chance included)
per game and per second: the moves-per-second ratio is what the heuristic itself costs.
Beside it, the floor: a player that reads its observation and the texts of its moves, as every
rule-of-thumb player must, and then moves at random. No heuristic can be cheaper than that.

Prints its figures; `--write` also puts them into docs/performance.md (section "balance").
Run it on a quiet machine: on a shared one, the sweep's time measures the other work too.

    python benchmarks/balance.py                 # the full run (a few minutes)
    python benchmarks/balance.py --quick         # a smoke run, well under a minute
    python benchmarks/balance.py --write         # and update docs/performance.md
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ladytiger
from benchmarks.report import write_section
from ladytiger.arena.backends import default_jobs, game_rng
from ladytiger.arena.lab import play_game, run_sweep
from ladytiger.core import CHANCE
from ladytiger.core.playout import sample_chance

SWEEP_TARGET_SECONDS = 60.0
RATIO_TARGET = 1 / 3


def configurations() -> list[tuple[str, dict[str, Any]]]:
    """Each game at each player count (the option variants play alike)."""
    return [
        (info.name, {"players": count})
        for info in ladytiger.registered_games()
        for count in info.player_counts()
    ]


def games_per_second(name: str, options: dict[str, Any], players: str, seconds: float,
                     start: int) -> tuple[float, float]:
    """Games and moves per second of one process playing games start, start+1, ... for
    `seconds`."""
    game = ladytiger.load_game(name, **options)
    seats = None if players == "random" else [(players, {})] * game.num_players
    began = time.perf_counter()
    played = moves = 0
    while True:
        moves += play_game(game, seats, 0, start + played)[2]
        played += 1
        elapsed = time.perf_counter() - began
        if elapsed >= seconds:
            return played / elapsed, moves / elapsed


def floor_moves_per_second(name: str, options: dict[str, Any], seconds: float,
                           start: int) -> float:
    """Moves per second of players that read what a heuristic must read (the observation,
    without its log, and the texts of the legal moves) and then move at random."""
    game = ladytiger.load_game(name, **options)
    began = time.perf_counter()
    played = moves = 0
    while True:
        rng = game_rng(0, start + played)
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state.apply_action(sample_chance(state, rng))
                continue
            legal = state.legal_actions()
            state.observation(player, with_log=False)
            [state.action_to_string(action) for action in legal]
            state.apply_action(legal[rng.randrange(len(legal))])
        moves += len(state.history())
        played += 1
        elapsed = time.perf_counter() - began
        if elapsed >= seconds:
            return moves / elapsed


def measure_ratio(name: str, options: dict[str, Any], runs: int, seconds: float) -> dict[str, Any]:
    random_rates, heuristic_rates, ratios, move_ratios = [], [], [], []
    random_lengths, heuristic_lengths, floor_ratios = [], [], []
    for run in range(runs):
        # Alternate the two, each run on fresh games, so load on a shared machine hits both.
        rate_r, moves_r = games_per_second(name, options, "random", seconds, run * 100_000)
        rate_h, moves_h = games_per_second(name, options, "heuristic", seconds, run * 100_000)
        random_rates.append(rate_r)
        heuristic_rates.append(rate_h)
        ratios.append(rate_h / rate_r)
        move_ratios.append(moves_h / moves_r)
        floor_ratios.append(floor_moves_per_second(name, options, seconds, run * 100_000)
                            / moves_r)
        random_lengths.append(moves_r / rate_r)
        heuristic_lengths.append(moves_h / rate_h)
    return {
        "random": statistics.median(random_rates),
        "heuristic": statistics.median(heuristic_rates),
        "ratio": statistics.median(ratios),
        "random_length": statistics.median(random_lengths),
        "heuristic_length": statistics.median(heuristic_lengths),
        "move_ratio": statistics.median(move_ratios),
        "floor_ratio": statistics.median(floor_ratios),
    }


def measure_sweep(games: int, jobs: int | None) -> dict[str, Any]:
    began = time.perf_counter()
    report = run_sweep("doors", bots="random", games=games, seed=0, jobs=jobs)
    seconds = time.perf_counter() - began
    return {"games": games, "seconds": seconds, "jobs": jobs or default_jobs(),
            "first_share": report.cells[0].by_turn[0].win_share}


def render(sweep: dict[str, Any], rows: list[tuple[str, dict[str, Any]]], runs: int,
           seconds: float, load: float) -> str:
    met = sweep["seconds"] < SWEEP_TARGET_SECONDS
    lines = [
        "## Balance lab",
        "",
        f"`benchmarks/balance.py`. The sweep: {sweep['games']:,} random Doors games with the "
        f"balance lab (`run_sweep`, the `ladytiger balance` code), local process pool of "
        f"{sweep['jobs']} workers, start-up and summaries included: "
        f"**{sweep['seconds']:.1f} s** ({sweep['games'] / sweep['seconds']:,.0f} games/s); "
        f"target under {SWEEP_TARGET_SECONDS:.0f} s: {'met' if met else '**not met**'}.",
        "",
        f"Self-play speed, one process: every game at every player count, random players "
        f"against heuristic players, median of {runs} alternating runs of {seconds:g} s each "
        f"(the lab's own game loop, statistics facts included). Target: heuristic at least a "
        f"third of random. Games per second also measure game length: *moves* are a game's "
        f"actions, chance included, and the moves-per-second ratio is what the heuristic "
        f"itself costs. *Floor*: the moves-per-second ratio of players that read their "
        f"observation and the texts of their moves, as every heuristic must, then move at "
        f"random; no heuristic can do better than its floor.",
        "",
        "| game | random games/s | heuristic games/s | games/s ratio | met | moves/game "
        "random, heuristic | moves/s ratio | met | floor |",
        "| --- | ---: | ---: | ---: | :---: | ---: | ---: | :---: | ---: |",
    ]
    for label, figures in rows:
        ok = figures["ratio"] >= RATIO_TARGET
        moves_ok = figures["move_ratio"] >= RATIO_TARGET
        lines.append(
            f"| {label} | {figures['random']:,.1f} | {figures['heuristic']:,.1f} | "
            f"{figures['ratio']:.2f} | {'yes' if ok else '**no**'} | "
            f"{figures['random_length']:,.0f}, {figures['heuristic_length']:,.0f} | "
            f"{figures['move_ratio']:.2f} | {'yes' if moves_ok else '**no**'} | "
            f"{figures['floor_ratio']:.2f} |"
        )
    lines += ["", f"Machine load average when the run started: {load:.2f} "
              f"({os.cpu_count()} cores)."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run")
    parser.add_argument("--games", type=int, default=None, help="games in the Doors sweep")
    parser.add_argument("--runs", type=int, default=None, help="runs per speed figure")
    parser.add_argument("--seconds", type=float, default=None, help="seconds per run")
    parser.add_argument("--jobs", type=int, default=None, help="sweep workers (default: all)")
    parser.add_argument("--only", nargs="*", help="games to measure (default: all)")
    parser.add_argument("--write", action="store_true",
                        help="write the figures into docs/performance.md (default: print)")
    args = parser.parse_args(argv)
    games = args.games or (2_000 if args.quick else 100_000)
    runs = args.runs or (1 if args.quick else 3)
    seconds = args.seconds or (0.3 if args.quick else 2.0)
    load = os.getloadavg()[0]

    sweep = measure_sweep(games, args.jobs)
    print(f"sweep: {games:,} random doors games in {sweep['seconds']:.1f} s "
          f"({games / sweep['seconds']:,.0f} games/s)", flush=True)
    rows = []
    for name, options in configurations():
        if args.only and name not in args.only:
            continue
        label = f"{name} {options['players']}p"
        figures = measure_ratio(name, options, runs, seconds)
        rows.append((label, figures))
        print(f"{label:16s} random {figures['random']:>9,.1f} games/s  heuristic "
              f"{figures['heuristic']:>8,.1f} games/s  ratio {figures['ratio']:.2f}  "
              f"moves/game {figures['random_length']:,.0f} / {figures['heuristic_length']:,.0f}"
              f"  moves/s ratio {figures['move_ratio']:.2f}  floor {figures['floor_ratio']:.2f}",
              flush=True)
    text = render(sweep, rows, runs, seconds, load)
    print(text)
    if args.write:
        write_section("balance", text)
    return {"sweep": sweep, "rows": rows}


if __name__ == "__main__":
    main()
