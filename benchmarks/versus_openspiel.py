"""Our search against OpenSpiel's Python IS-MCTS, given the same simulations a move.

Item 4 of the bot levels' issue: in each imperfect-information game, our level's search
(`ismcts` with the level's iterations, no time cap) plays OpenSpiel's `ISMCTSBot` (uct_c 2,
the same number of simulations a move, random rollouts played on the ladytiger state by
`ladytiger.rl.openspiel.RolloutEvaluator`, the same estimate as OpenSpiel's
`RandomRolloutEvaluator` at a fraction of its cost). Two-player Doors, Favor, Traps and
Shady Lady; Tighee at three players, our seat against two OpenSpiel seats (the share of
duels won). Seats alternate game by game; a tie is half a win. Target: at least 60%.

The expert level (2,000 to 12,000 iterations a move) takes about a second a move on our
side and several on OpenSpiel's (its Python search runs 300 simulations in about 0.14 s in
Doors): 40 games of every game is many hours of CPU. The strong level is the quick check.

    python benchmarks/versus_openspiel.py --level strong --games 40
    python benchmarks/versus_openspiel.py --level expert --games 40 --write   # quiet machine
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.report import write_section
from ladytiger.arena.backends import game_rng, run_games
from ladytiger.arena.stats import wilson_interval
from ladytiger.bots.levels import SEARCH_ITERATIONS

TABLES = [("doors", 2), ("favor", 2), ("traps", 2), ("shady_lady", 2), ("tighee", 3)]
TARGET = 0.6


def play_one(payload: dict[str, Any], index: int) -> dict[str, Any]:
    """One game (a worker, so module-level): our search in seat `index mod players`,
    OpenSpiel's IS-MCTS in every other seat, both with `payload["simulations"]` a move."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts

    import ladytiger
    from ladytiger.rl.openspiel import RolloutEvaluator, SpielBot

    name, players, simulations = payload["game"], payload["players"], payload["simulations"]
    info = ladytiger.load_game(name).info
    params = {"players": players} if info.min_players != info.max_players else {}
    game = pyspiel.load_game(f"ladytiger_{name}", params)
    rng = game_rng(payload["seed"], index)
    ours = index % players
    bots: list[Any] = []
    for seat in range(players):
        seed = rng.randrange(2**31)
        if seat == ours:
            bots.append(SpielBot("ismcts", game, seat, iterations=simulations, seed=seed))
        else:
            evaluator = RolloutEvaluator(1, seed)
            bots.append(ismcts.ISMCTSBot(game, evaluator, 2.0, max_simulations=simulations,
                                         random_state=np.random.RandomState(seed)))
    thinking = [0.0] * players
    moves = [0] * players
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, odds = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, odds)[0])
            continue
        seat = state.current_player()
        began = time.perf_counter()
        action = bots[seat].step(state)
        thinking[seat] += time.perf_counter() - began
        moves[seat] += 1
        state.apply_action(action)
    returns = state.returns()
    duels = [1.0 if returns[ours] > returns[other] else 0.5 if returns[ours] == returns[other]
             else 0.0 for other in range(players) if other != ours]
    theirs = [seat for seat in range(players) if seat != ours]
    return {"duels": duels,
            "ours_seconds": thinking[ours], "ours_moves": moves[ours],
            "theirs_seconds": sum(thinking[s] for s in theirs),
            "theirs_moves": sum(moves[s] for s in theirs)}


def measure(name: str, players: int, level: str, games: int, seed: int,
            jobs: int | None) -> dict[str, Any]:
    simulations = SEARCH_ITERATIONS[name][0 if level == "strong" else 1]
    payload = {"game": name, "players": players, "simulations": simulations, "seed": seed}
    began = time.perf_counter()
    results = run_games(play_one, payload, games, jobs=jobs, chunk_size=1)
    duels = [d for result in results for d in result["duels"]]
    score = sum(duels)

    def per_move(side: str) -> float:
        moves = sum(r[f"{side}_moves"] for r in results)
        return sum(r[f"{side}_seconds"] for r in results) / max(moves, 1)

    return {"game": name, "players": players, "level": level, "simulations": simulations,
            "games": games, "duels": len(duels), "score": score,
            "share": score / len(duels), "share_95": wilson_interval(score, len(duels)),
            "ours_per_move": per_move("ours"), "theirs_per_move": per_move("theirs"),
            "seconds": time.perf_counter() - began}


def markdown(rows: list[dict[str, Any]], command: str) -> str:
    lines = ["## Against OpenSpiel's IS-MCTS at equal simulations", "",
             f"`{command}`. Our `ismcts` at the level's iterations a move (no time cap) "
             "against OpenSpiel's Python `ISMCTSBot` (uct_c 2) given as many simulations, "
             "with random rollouts on the ladytiger state; seats alternated, a tie half a "
             "win; at 3 players the share of duels our seat won. Target: 60%.", "",
             "| game | players | simulations/move | games | ours won (95%) | met | "
             "s/move ours, OpenSpiel |", "|---|---:|---:|---:|---|:---:|---|"]
    for row in rows:
        low, high = row["share_95"]
        lines.append(
            f"| {row['game']} | {row['players']} | {row['simulations']:,} | {row['games']} | "
            f"{row['score']:g}/{row['duels']} = {100 * row['share']:.0f}% "
            f"({100 * low:.0f}-{100 * high:.0f}) | {'yes' if row['share'] >= TARGET else 'no'}"
            f" | {row['ours_per_move']:.2f}, {row['theirs_per_move']:.2f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--level", choices=("strong", "expert"), default="expert")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--only", nargs="*", help="games to play (default: all five)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=None, help="workers (default: all cores)")
    parser.add_argument("--write", action="store_true",
                        help="write the table into docs/performance.md")
    args = parser.parse_args()
    random.seed(args.seed)
    rows = []
    for name, players in TABLES:
        if args.only and name not in args.only:
            continue
        row = measure(name, players, args.level, args.games, args.seed, args.jobs)
        rows.append(row)
        low, high = row["share_95"]
        print(f"{name} {players}p {args.level}: {row['score']:g}/{row['duels']} "
              f"({100 * low:.0f}-{100 * high:.0f}%), {row['ours_per_move']:.2f} s/move ours, "
              f"{row['theirs_per_move']:.2f} theirs, {row['seconds']:.0f} s", flush=True)
    command = "python benchmarks/versus_openspiel.py " + " ".join(sys.argv[1:])
    text = markdown(rows, command.strip())
    print(text)
    if args.write:
        write_section("versus_openspiel", text)


if __name__ == "__main__":
    main()
