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

With `--seconds S` the match is at equal time instead: both searches get S seconds for every
real choice (ours to its deadline; OpenSpiel's, which counts only simulations, as many as it
ran in S seconds on its previous choice), and the table goes to its own section.

    python benchmarks/versus_openspiel.py --level strong --games 40
    python benchmarks/versus_openspiel.py --seconds 0.2 --games 40 --write   # equal time
    python benchmarks/versus_openspiel.py --level expert --games 40 --write   # quiet machine

The expert's tables take hours each, so they are made over several sittings: each finished
game is kept in a journal (benchmarks/journal.py), a sitting cut short loses nothing, and the
same command later plays only the games still missing. Each finished expert table is
recorded in benchmarks/results/versus_openspiel.json with when, where and how it ran;
`--write` at the expert level renders its own section from every record so far and lists
the tables still missing (`--only` with nothing after it renders without playing).
"""

from __future__ import annotations

import argparse
import datetime
import fcntl
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.journal import JOURNALS, play_journaled, resumed_note, revision
from benchmarks.report import write_section
from ladytiger.arena.backends import game_rng
from ladytiger.arena.stats import wilson_interval
from ladytiger.bots.levels import SEARCH_ITERATIONS

TABLES = [("doors", 2), ("favor", 2), ("traps", 2), ("shady_lady", 2), ("tighee", 3)]
TARGET = 0.6
RESULTS = Path(__file__).resolve().parent / "results" / "versus_openspiel.json"


def play_one(payload: dict[str, Any], index: int) -> dict[str, Any]:
    """One game (a worker, so module-level): our search in seat `index mod players`,
    OpenSpiel's IS-MCTS in every other seat, both with `payload["simulations"]` a move."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts

    import ladytiger
    from ladytiger.rl.openspiel import RolloutEvaluator, SpielBot

    name, players, simulations = payload["game"], payload["players"], payload["simulations"]
    seconds = payload.get("seconds")
    info = ladytiger.load_game(name).info
    params = {"players": players} if info.min_players != info.max_players else {}
    game = pyspiel.load_game(f"ladytiger_{name}", params)
    rng = game_rng(payload["seed"], index)
    ours = index % players
    # With a time budget OpenSpiel's bot, which counts only simulations, is given as many
    # as it ran in `seconds` on its latest real choice (its tree starts afresh every move, so
    # a new bot each move loses nothing); the first choice starts from a low guess.
    budgets = [simulations if seconds is None else max(10, int(1000 * seconds))] * players
    theirs_kit: dict[int, tuple[Any, Any]] = {}  # seat: (rollout evaluator, move chooser)
    for seat in range(players):
        seed = rng.randrange(2**31)
        if seat == ours:
            budget = {"iterations": simulations} if seconds is None else {"seconds": seconds}
            if payload.get("rollout"):
                budget["rollout"] = payload["rollout"]
            our_bot = SpielBot("ismcts", game, seat, seed=seed, **budget)
        else:
            theirs_kit[seat] = (RolloutEvaluator(1, seed), np.random.RandomState(seed))
    thinking = [0.0] * players
    moves = [0] * players
    searched = [0] * players
    choosing = [0.0] * players  # the time and count of real choices (more than one move)
    choices = [0] * players
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, odds = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, odds)[0])
            continue
        seat = state.current_player()
        choice = len(state.legal_actions()) > 1
        began = time.perf_counter()
        if seat == ours:
            bot = our_bot
        else:
            evaluator, chooser = theirs_kit[seat]
            bot = ismcts.ISMCTSBot(game, evaluator, 2.0, max_simulations=budgets[seat],
                                   random_state=chooser)
        action = bot.step(state)
        took = time.perf_counter() - began
        thinking[seat] += took
        moves[seat] += 1
        if choice:
            choosing[seat] += took
            choices[seat] += 1
            if seat != ours:
                searched[seat] += budgets[seat]
                if seconds is not None and took > 0:
                    budgets[seat] = max(10, int(budgets[seat] * seconds / took))
        state.apply_action(action)
    returns = state.returns()
    duels = [1.0 if returns[ours] > returns[other] else 0.5 if returns[ours] == returns[other]
             else 0.0 for other in range(players) if other != ours]
    theirs = [seat for seat in range(players) if seat != ours]
    return {"duels": duels,
            "ours_seconds": thinking[ours], "ours_moves": moves[ours],
            "theirs_seconds": sum(thinking[s] for s in theirs),
            "theirs_moves": sum(moves[s] for s in theirs),
            "theirs_simulations": sum(searched[s] for s in theirs),
            "ours_choosing": choosing[ours], "ours_choices": choices[ours],
            "theirs_choosing": sum(choosing[s] for s in theirs),
            "theirs_choices": sum(choices[s] for s in theirs)}


def measure(name: str, players: int, level: str, games: int, seed: int,
            jobs: int | None, seconds: float | None = None,
            rollout: str | None = None) -> dict[str, Any]:
    simulations = SEARCH_ITERATIONS[name][0 if level == "strong" else 1]
    payload = {"game": name, "players": players, "simulations": simulations, "seed": seed,
               "seconds": seconds, "rollout": rollout}
    began = time.perf_counter()
    code = revision()  # now: the tree may move on while the table plays
    kind = f"{seconds:g}s" if seconds is not None else f"{simulations}sims"
    journal = JOURNALS / (f"versus-{name}-{players}p-{level}-{kind}-{rollout or 'own'}-"
                          f"{games}games-seed{seed}.jsonl")
    results, resumed = play_journaled(play_one, payload, games, jobs, journal)
    duels = [d for result in results for d in result["duels"]]
    score = sum(duels)

    def per_move(side: str) -> float:
        moves = sum(r[f"{side}_moves"] for r in results)
        return sum(r[f"{side}_seconds"] for r in results) / max(moves, 1)

    return {"game": name, "players": players, "level": level, "simulations": simulations,
            "games": games, "duels": len(duels), "score": score,
            "share": score / len(duels), "share_95": wilson_interval(score, len(duels)),
            "ours_per_move": per_move("ours"), "theirs_per_move": per_move("theirs"),
            "seconds_a_move": seconds,
            "ours_per_choice": sum(r["ours_choosing"] for r in results)
            / max(sum(r["ours_choices"] for r in results), 1),
            "theirs_per_choice": sum(r["theirs_choosing"] for r in results)
            / max(sum(r["theirs_choices"] for r in results), 1),
            "theirs_simulations": sum(r["theirs_simulations"] for r in results)
            / max(sum(r["theirs_choices"] for r in results), 1),
            "seconds": time.perf_counter() - began, "revision": code,
            **({"resumed": resumed} if resumed else {})}


def keep(path: Path, row: dict[str, Any], command: str, load: float) -> None:
    """Record one finished expert table, replacing an earlier record of it; the file is read
    again under a lock, so sittings may run side by side."""
    when = datetime.datetime.now(datetime.UTC) - datetime.timedelta(seconds=row["seconds"])
    record = {**row, "run": {"command": command, "revision": row.get("revision") or revision(),
                             "date": when.strftime("%Y-%m-%d %H:%M UTC"),
                             "load_at_start": load, "minutes": round(row["seconds"] / 60, 1)}}
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        data = json.loads(path.read_text()) if path.exists() else {}
        data[f"{row['game']}:{row['players']}"] = record
        scratch = path.with_suffix(".partial")
        scratch.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        scratch.replace(path)


def expert_markdown(data: dict[str, Any]) -> str:
    """The expert's section: every recorded table in order, how each ran, what is missing."""
    rows = [data[f"{name}:{players}"] for name, players in TABLES
            if f"{name}:{players}" in data]
    missing = [f"{name} {players}p" for name, players in TABLES
               if f"{name}:{players}" not in data]
    lines = ["## The expert against OpenSpiel's IS-MCTS at equal simulations", "",
             "Written by `python benchmarks/versus_openspiel.py --level expert --write` from "
             "`benchmarks/results/versus_openspiel.json`, where each table is recorded when "
             "its last game is played (a table may span several sittings; its note says so). "
             "Our `ismcts` at the expert level's iterations a move (no time cap) against "
             "OpenSpiel's Python `ISMCTSBot` (uct_c 2) given as many simulations, with random "
             "rollouts on the ladytiger state; seats alternated, a tie half a win; at 3 "
             "players the share of duels our seat won. Target: 60%."]
    if rows:
        lines += ["", "| game | players | simulations/move | games | ours won (95%) | met | "
                  "s/move ours, OpenSpiel |", "|---|---:|---:|---:|---|:---:|---|"]
        for row in rows:
            lines.append(f"| {row['game']} | {row['players']} | {row['simulations']:,} | "
                         f"{row['games']} | {won(row)} | "
                         f"{row['ours_per_move']:.2f}, {row['theirs_per_move']:.2f} |")
        lines.append("")
        for row in rows:
            run = row["run"]
            lines.append(f"- {row['game']} {row['players']}p: run {run['date']} at revision "
                         f"`{run['revision']}`, load {run['load_at_start']:.2f} at the start, "
                         f"{run['minutes']:g} minutes: `{run['command']}`."
                         + resumed_note(row.get("resumed"), row["games"]))
    if missing:
        lines += ["", f"Not measured yet: {', '.join(missing)}."]
    return "\n".join(lines)


def markdown(rows: list[dict[str, Any]], command: str) -> str:
    lines = ["## Against OpenSpiel's IS-MCTS at equal simulations", "",
             f"`{command}`. Our `ismcts` at the level's iterations a move (no time cap) "
             "against OpenSpiel's Python `ISMCTSBot` (uct_c 2) given as many simulations, "
             "with random rollouts on the ladytiger state; seats alternated, a tie half a "
             "win; at 3 players the share of duels our seat won. Target: 60%.", "",
             "| game | players | simulations/move | games | ours won (95%) | met | "
             "s/move ours, OpenSpiel |", "|---|---:|---:|---:|---|:---:|---|"]
    for row in rows:
        lines.append(f"| {row['game']} | {row['players']} | {row['simulations']:,} | "
                     f"{row['games']} | {won(row)} | "
                     f"{row['ours_per_move']:.2f}, {row['theirs_per_move']:.2f} |")
    return "\n".join(lines)


def won(row: dict[str, Any]) -> str:
    """The table cells of our score with its interval, and whether it meets the target."""
    low, high = row["share_95"]
    return (f"{row['score']:g}/{row['duels']} = {100 * row['share']:.0f}% "
            f"({100 * low:.0f}-{100 * high:.0f}) | {'yes' if row['share'] >= TARGET else 'no'}")


def time_markdown(rows: list[dict[str, Any]], command: str, load: float) -> str:
    seconds = rows[0]["seconds_a_move"] if rows else 0
    lines = [f"## Against OpenSpiel's IS-MCTS at equal time ({seconds:g} s a choice)", "",
             f"`{command}`. Both searches get the same time for every real choice (more "
             "than one legal move): ours stops at its deadline; OpenSpiel's Python "
             "`ISMCTSBot` (uct_c 2, random rollouts on the ladytiger state), which counts "
             "only simulations, is given before each choice as many as it ran in that time "
             "on its previous one. Seats alternated, a tie half a win; at 3 players the "
             "share of duels our seat won. Both are held to the clock, so load on the machine "
             "takes from both alike. Target: 60%.", "",
             "| game | players | games | ours won (95%) | met | s/choice ours, OpenSpiel | "
             "OpenSpiel's simulations/choice |", "|---|---:|---:|---|:---:|---|---:|"]
    for row in rows:
        lines.append(f"| {row['game']} | {row['players']} | {row['games']} | {won(row)} | "
                     f"{row['ours_per_choice']:.2f}, {row['theirs_per_choice']:.2f} | "
                     f"{row['theirs_simulations']:,.0f} |")
    minutes = sum(row["seconds"] for row in rows) / 60
    lines += ["", f"Machine load average when the run started: {load:.2f} (2 cores); "
              f"{minutes:.0f} minutes."]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--level", choices=("strong", "expert"), default="expert")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--only", nargs="*", help="games to play (default: all five)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=None, help="workers (default: all cores)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="equal time: both searches get this many seconds a choice "
                        "(default: equal simulations, the level's iterations)")
    parser.add_argument("--rollout", choices=("random", "heuristic", "auto"), default=None,
                        help="our search's playouts (default: the game's own, as the level "
                        "plays); OpenSpiel's are random in any case")
    parser.add_argument("--write", action="store_true",
                        help="write the table into docs/performance.md")
    parser.add_argument("--results", type=Path, default=RESULTS,
                        help="the file each finished expert table is recorded in")
    parser.add_argument("--page", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    random.seed(args.seed)
    load = os.getloadavg()[0]
    expert = args.level == "expert" and args.seconds is None
    rows = []
    for name, players in TABLES:
        if args.only is not None and name not in args.only:
            continue
        row = measure(name, players, args.level, args.games, args.seed, args.jobs,
                      args.seconds, args.rollout)
        rows.append(row)
        if expert:
            keep(args.results, row, f"python benchmarks/versus_openspiel.py --level expert "
                 f"--games {args.games} --seed {args.seed} --only {name}"
                 + (f" --rollout {args.rollout}" if args.rollout else ""), load)
            load = os.getloadavg()[0]
        low, high = row["share_95"]
        print(f"{name} {players}p {args.level}: {row['score']:g}/{row['duels']} "
              f"({100 * low:.0f}-{100 * high:.0f}%), {row['ours_per_move']:.2f} s/move ours, "
              f"{row['theirs_per_move']:.2f} theirs, {row['seconds']:.0f} s", flush=True)
    command = "python benchmarks/versus_openspiel.py " + " ".join(sys.argv[1:])
    page = {} if args.page is None else {"page": args.page}
    if expert:
        text = expert_markdown(json.loads(args.results.read_text())
                               if args.results.exists() else {})
        print(text)
        if args.write:
            write_section("versus_openspiel_expert", text, **page)
        return
    if args.seconds is None:
        text = markdown(rows, command.strip())
    else:
        text = time_markdown(rows, command.strip(), load)
    print(text)
    if args.write:
        write_section("versus_openspiel" if args.seconds is None else "versus_openspiel_time",
                      text, **page)


if __name__ == "__main__":
    main()
