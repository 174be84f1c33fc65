"""Bot levels: the ladder (beginner, casual, strong, expert) in every game and player count,
the expert's strength targets, and the levels against scripted exploit players.

- ladder: every level against every other, seats rotated over every seating; Elo by maximum
  likelihood (Bradley-Terry over the decisive duels of each game: of two seats of different
  levels, the one with the higher return wins), with 95% intervals from a bootstrap over
  games; the target is each level at least
  150 Elo above the one below. Hoard is a solitaire: its ladder is each level's win rate on
  the same deals, with Wilson intervals.
- targets: the expert against random and against casual in the two-player games (95% and
  65%), and one expert seat against beginner and against casual seats at 4 players (twice
  the fair share, and more than it).
- exploits: casual, strong and expert against each scripted exploit player of the game
  (ladytiger.bots.exploits), target 60% (in a table of more than two, the share of duels
  won against the exploit seats).

The full run takes many CPU hours, so it is made in parts over several sittings: each table,
as soon as it is finished, is recorded in a results file (benchmarks/results/levels.json by
default, kept in the repository) with the command, revision, date and machine load of its
run, replacing an earlier record of the same table. `--write` renders docs/bots.md's
`levels` section from everything recorded so far and lists what is still unmeasured; with
`--parts` and nothing after it, it only renders. A ladder too long for one sitting keeps
each finished game in a journal (benchmarks/results/journal/); the same command in a later
sitting plays only the games still missing, and the record says which came from where.

    python benchmarks/levels.py --write                      # everything: many CPU hours
    python benchmarks/levels.py --write --parts ladder --only doors favor:2   # one sitting
    python benchmarks/levels.py --write --parts              # render the records only
    python benchmarks/levels.py --games 12 --only doors --parts ladder --results /tmp/x.json
"""

from __future__ import annotations

import argparse
import datetime
import fcntl
import itertools
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ladytiger
from benchmarks.journal import play_journaled, resumed_note, revision
from benchmarks.report import write_section
from ladytiger.arena.backends import game_rng, run_games
from ladytiger.arena.stats import elo_ratings, pairwise_scores, wilson_interval
from ladytiger.arena.tournament import (
    ArenaGame,
    parse_bots,
    play_arena_game,
    run_arena,
    seatings,
)
from ladytiger.bots import load_bot
from ladytiger.bots.exploits import EXPLOITERS, load_exploiter
from ladytiger.bots.levels import LEVELS, plan_for
from ladytiger.core import CHANCE, Game
from ladytiger.core.playout import sample_chance

BOTS_PAGE = Path(__file__).resolve().parent.parent / "docs" / "bots.md"
RESULTS = Path(__file__).resolve().parent / "results" / "levels.json"
PARTS = ("ladder", "targets", "exploits")
GAP = 150.0
BOOTSTRAP = 200
TWO_PLAYER_TARGETS = [("doors", 2), ("labyrinth", 2), ("favor", 2), ("traps", 2),
                      ("shady_lady", 2)]
MULTI_PLAYER_TARGETS = [("shady_lady", 4), ("favor", 4), ("traps", 4), ("tighee", 4)]


# ---------------------------------------------------------------------------- tables
def tables(only: list[str] | None) -> list[tuple[str, int]]:
    """(game, players) for every game and player count, or those `only` names
    (`favor` for every count, `favor:3` for one)."""
    found = []
    for info in ladytiger.registered_games():
        for players in range(info.min_players, info.max_players + 1):
            if only is None or info.name in only or f"{info.name}:{players}" in only:
                found.append((info.name, players))
    return found


def load(game: str, players: int) -> Game:
    info = ladytiger.load_game(game).info
    options = {"players": players} if info.min_players != info.max_players else {}
    return ladytiger.load_game(game, **options)


def level_seatings(levels: int, seats: int) -> list[tuple[int, ...]]:
    """Every level in every seat equally often. Up to as many seats as levels: every order of
    every group (the arena's round robin). More seats: every order of the levels, repeated
    round the table."""
    if seats == 1:
        return [(level,) for level in range(levels)]
    if seats <= levels:
        return seatings(levels, seats)
    return [tuple(order[i % levels] for i in range(seats))
            for order in itertools.permutations(range(levels))]


# ---------------------------------------------------------------------------- the ladder
def elo_with_interval(count: int, results: list[ArenaGame], rng: random.Random
                      ) -> tuple[list[float], list[tuple[float, float]]]:
    """Elo of each bot and its 95% interval from a bootstrap over games.

    Only decisive duels count: two seats with equal returns are left out, since in a game of
    many players they are mostly two players who both lost, which says nothing about which
    was stronger (counted as draws they would pull every rating toward the mean, the more so
    the more players)."""
    duels_per_game = [[duel for duel in pairwise_scores(r.lineup, r.returns) if duel[2] != 0.5]
                      for r in results]
    point = elo_ratings(count, [d for duels in duels_per_game for d in duels])
    samples: list[list[float]] = [[] for _ in range(count)]
    for _ in range(BOOTSTRAP):
        drawn = [duels_per_game[rng.randrange(len(results))] for _ in results]
        ratings = elo_ratings(count, [d for duels in drawn for d in duels], iterations=300)
        for bot, rating in enumerate(ratings):
            samples[bot].append(rating)
    intervals = []
    for values in samples:
        values.sort()
        intervals.append((values[int(0.025 * (len(values) - 1))],
                          values[int(0.975 * (len(values) - 1))]))
    return point, intervals


def ladder(game: str, players: int, levels: list[str], games: int, seed: int,
           jobs: int | None, journal: Path | None = None) -> dict[str, Any]:
    loaded = load(game, players)
    seats = level_seatings(len(levels), players)
    payload = {"game": game, "options": dict(loaded.options),
               "bots": [(level, {}) for level in levels], "seatings": seats, "seed": seed}
    resumed: dict[str, Any] = {}
    if players == 1:
        # The same deals for every level: game i of each level's run is deal i.
        results = []
        for number in range(len(levels)):
            alone = {**payload, "seatings": [(number,)]}
            results += run_games(play_arena_game, alone, games, jobs=jobs, chunk_size=1)
    else:
        results, resumed = play_journaled(play_arena_game, payload, games, jobs, journal,
                                          arena_game)
    rows = []
    count = len(levels)
    seat_games = [0] * count
    wins = [0.0] * count
    think = [0.0] * count
    moves = [0] * count
    for result in results:
        for seat, bot in enumerate(result.lineup):
            seat_games[bot] += 1
            wins[bot] += result.returns[seat]
            think[bot] += result.think_seconds[seat]
            moves[bot] += result.moves[seat]
    if players > 1:
        elo, intervals = elo_with_interval(count, results, random.Random(seed))
    else:
        elo, intervals = [None] * count, [None] * count  # type: ignore[list-item]
    for bot, level in enumerate(levels):
        rows.append({
            "level": level,
            "plan": plan_for(game, level).describe(),
            "seat_games": seat_games[bot],
            "win_rate": wins[bot] / seat_games[bot] if seat_games[bot] else 0.0,
            "win_rate_95": wilson_interval(wins[bot], seat_games[bot]),
            "elo": elo[bot],
            "elo_95": intervals[bot],
            "seconds_per_move": think[bot] / moves[bot] if moves[bot] else 0.0,
            "max_think": max((r.think_seconds[s] / max(1, r.moves[s]) for r in results
                              for s, b in enumerate(r.lineup) if b == bot), default=0.0),
        })
    return {"game": game, "players": players, "games": len(results), "rows": rows,
            "seatings": len(seats), **({"resumed": resumed} if resumed else {})}


def journal_path(results: Path, game: str, players: int, levels: list[str], games: int,
                 seed: int) -> Path:
    """Where a ladder too long for one sitting keeps its finished games (benchmarks.journal)."""
    name = f"ladder-{game}-{players}p-{'-'.join(levels)}-{games}games-seed{seed}.jsonl"
    return results.parent / "journal" / name


def arena_game(kept: dict[str, Any]) -> ArenaGame:
    return ArenaGame(**{**kept, "lineup": tuple(kept["lineup"])})


def ladder_markdown(entry: dict[str, Any]) -> str:
    game, players = entry["game"], entry["players"]
    solo = players == 1
    lines = [f"**{game}, {players} player{'s' if players > 1 else ''}** "
             f"({entry['games']} games, {entry['seatings']} seatings)", ""]
    if solo:
        lines += ["| level | bot | deals | win rate (95%) | s/move |", "|---|---|---|---|---|"]
    else:
        lines += ["| level | bot | seat-games | Elo (95%) | gap below | win rate (95%) | "
                  "s/move |", "|---|---|---|---|---|---|---|"]
    below = None
    for row in entry["rows"]:
        low, high = row["win_rate_95"]
        rate = f"{100 * row['win_rate']:.0f}% ({100 * low:.0f}-{100 * high:.0f})"
        pace = f"{row['seconds_per_move']:.2f}"
        if solo:
            lines.append(f"| {row['level']} | {row['plan']} | {row['seat_games']} | {rate} | "
                         f"{pace} |")
            continue
        e_low, e_high = row["elo_95"]
        gap = "" if below is None else f"{row['elo'] - below:+.0f}"
        if below is not None:
            gap += " (met)" if row["elo"] - below >= GAP else " (missed)"
        below = row["elo"]
        lines.append(f"| {row['level']} | {row['plan']} | {row['seat_games']} | "
                     f"{row['elo']:.0f} ({e_low:.0f} to {e_high:.0f}) | {gap} | {rate} | "
                     f"{pace} |")
    return "\n".join(lines)


# ---------------------------------------------------------------------------- targets
def target_pairs() -> list[tuple[str, int, str]]:
    pairs = [(g, n, opponent) for g, n in TWO_PLAYER_TARGETS for opponent in ("random", "casual")]
    return pairs + [(g, n, opponent) for g, n in MULTI_PLAYER_TARGETS
                    for opponent in ("beginner", "casual")]


def targets(games: int, seed: int, jobs: int | None, only: list[str] | None,
            keep: Any, against: list[str] | None = None) -> list[dict]:
    found = []
    for game, players, opponent in target_pairs():
        if only is not None and game not in only and f"{game}:{players}" not in only:
            continue
        if against is not None and opponent not in against:
            continue
        started = start()
        report = run_arena(load(game, players), parse_bots(f"expert,{opponent}"), games, seed,
                           jobs=jobs)
        expert = report.standings[0]
        fair = 1.0 / players
        if players == 2:
            goal = 0.95 if opponent == "random" else 0.65
            met = expert.win_rate >= goal
        else:
            # Twice the fair share against beginners; above it against casual seats.
            goal = 2 * fair if opponent == "beginner" else fair
            met = expert.win_rate >= goal if opponent == "beginner" else expert.win_rate > goal
        found.append({"game": game, "players": players, "opponent": opponent,
                      "games": games, "wins": expert.win_total, "win_rate": expert.win_rate,
                      "win_rate_95": expert.interval, "goal": goal,
                      "met": met,
                      "seconds": time.perf_counter() - started[0]})
        keep("targets", f"{game}:{players}:{opponent}", found[-1], started)
        print(f"  target {game} {players}p expert vs {opponent}: "
              f"{expert.win_total:g}/{games}", flush=True)
    return found


def targets_markdown(found: list[dict]) -> str:
    lines = ["| game | players | expert against | games | expert's wins | win rate (95%) | "
             "target | met |", "|---|---|---|---|---|---|---|---|"]
    for row in found:
        low, high = row["win_rate_95"]
        lines.append(
            f"| {row['game']} | {row['players']} | {row['opponent']} | {row['games']} | "
            f"{row['wins']:g} | {100 * row['win_rate']:.0f}% ({100 * low:.0f}-{100 * high:.0f})"
            f" | {100 * row['goal']:.0f}% | {'yes' if row['met'] else 'no'} |")
    return "\n".join(lines)


# ---------------------------------------------------------------------------- exploits
def play_exploit_game(payload: dict[str, Any], index: int) -> dict[str, Any]:
    """One game of a level against an exploit player (a worker, so module-level): the level
    takes seat `index mod players`, the exploit player every other seat."""
    game = load(payload["game"], payload["players"])
    rng = game_rng(payload["seed"], index)
    level_seat = index % game.num_players
    players = [
        load_bot(payload["level"], game, seed=rng.randrange(2**32)) if seat == level_seat
        else load_exploiter(payload["exploiter"], game, seed=rng.randrange(2**32))
        for seat in range(game.num_players)
    ]
    state = game.new_initial_state()
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(players[seat].step(state, seat))
    returns = state.returns()
    duels = [1.0 if returns[level_seat] > returns[other] else
             0.5 if returns[level_seat] == returns[other] else 0.0
             for other in range(game.num_players) if other != level_seat]
    return {"return": returns[level_seat], "duels": duels}


def exploits(games: int, seed: int, jobs: int | None, only: list[str] | None,
             levels: list[str], keep: Any, scripts_wanted: list[str] | None = None) -> list[dict]:
    found = []
    for game, scripts in EXPLOITERS.items():
        if only is not None and game not in only:
            continue
        players = exploit_players(game)
        for script, level in itertools.product(scripts, levels):
            if scripts_wanted is not None and script not in scripts_wanted:
                continue
            payload = {"game": game, "players": players, "level": level, "exploiter": script,
                       "seed": seed}
            started = start()
            results = run_games(play_exploit_game, payload, games, jobs=jobs, chunk_size=1)
            duels = [d for r in results for d in r["duels"]]
            score = sum(duels)
            found.append({"game": game, "players": players, "exploiter": script,
                          "level": level, "games": games, "duels": len(duels),
                          "score": score, "share": score / len(duels),
                          "share_95": wilson_interval(score, len(duels)),
                          "seconds": time.perf_counter() - started[0]})
            keep("exploits", f"{game}:{players}:{script}:{level}", found[-1], started)
            print(f"  exploit {game} {level} vs {script}: {score:g}/{len(duels)}", flush=True)
    return found


def exploits_markdown(found: list[dict]) -> str:
    lines = ["| game | players | exploit player | level | games | duels won (95%) | "
             "60% met |", "|---|---|---|---|---|---|---|"]
    for row in found:
        low, high = row["share_95"]
        lines.append(
            f"| {row['game']} | {row['players']} | {row['exploiter']} | {row['level']} | "
            f"{row['games']} | {row['score']:g}/{row['duels']} = {100 * row['share']:.0f}% "
            f"({100 * low:.0f}-{100 * high:.0f}) | {'yes' if row['share'] >= 0.6 else 'no'} |")
    return "\n".join(lines)


# ---------------------------------------------------------------------------- records
Started = tuple[float, float]  # when a table began (perf_counter) and the load average then


def start() -> Started:
    return time.perf_counter(), os.getloadavg()[0]


class Records:
    """The results file: every finished table by part and key, each with how it was run.
    Written after every table, so a sitting cut short keeps all it finished; each write
    reads the file again under a lock and adds its table, so sittings may run side by side."""

    def __init__(self, path: Path, jobs: int | None, commands: dict[str, str]) -> None:
        self.path = path
        self.data = self.read()
        self.commands = commands
        self.run = {"revision": revision(), "jobs": jobs or os.cpu_count()}

    def keep(self, part: str, key: str, entry: dict[str, Any], started: Started) -> None:
        began, load = started
        elapsed = time.perf_counter() - began
        when = datetime.datetime.now(datetime.UTC) - datetime.timedelta(seconds=elapsed)
        game, players = key.split(":")[:2]
        command = self.commands[part].format(table=f"{game}:{players}", game=game)
        record = {**entry, "run": {
            **self.run, "command": f"python benchmarks/levels.py {command}",
            "date": when.strftime("%Y-%m-%d %H:%M UTC"), "load_at_start": load,
            "minutes": round(elapsed / 60, 1)}}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path.with_suffix(".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            self.data = self.read()
            self.data[part][key] = record
            scratch = self.path.with_suffix(".partial")
            scratch.write_text(json.dumps(self.data, indent=1, sort_keys=True, default=list)
                               + "\n")
            scratch.replace(self.path)

    def read(self) -> dict[str, dict[str, Any]]:
        data: dict[str, dict[str, Any]] = {part: {} for part in PARTS}
        if self.path.exists():
            for part, entries in json.loads(self.path.read_text()).items():
                data.setdefault(part, {}).update(entries)
        return data


def run_note(entry: dict[str, Any]) -> str:
    run = entry["run"]
    return (f"Run {run['date']} at revision `{run['revision']}`, {run['jobs']} worker"
            f"{'s' if run['jobs'] != 1 else ''}, load {run['load_at_start']:.2f} at the "
            f"start, {run['minutes']:g} minutes: `{run['command']}`."
            + resumed_note(entry.get("resumed"), entry.get("games", 0)))


def recorded(data: dict[str, dict[str, Any]], part: str, missing: dict[str, list[str]],
             wanted: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """The records of `part` under the keys wanted, in order; the label of each key not
    recorded goes to `missing`."""
    found = []
    for key, label in wanted:
        entry = data.get(part, {}).get(key)
        if entry is None:
            missing[part].append(label)
        else:
            found.append(entry)
    return found


def exploit_players(game: str) -> int:
    return max(2, ladytiger.load_game(game).info.min_players)


def render(data: dict[str, dict[str, Any]], levels: list[str]) -> str:
    """docs/bots.md's section: every recorded table in a fixed order, then what is missing."""
    out = ["Written by `python benchmarks/levels.py --write` from "
           "`benchmarks/results/levels.json`, where each table is recorded as soon as it is "
           "finished. Each table says when, at which revision and under which machine load it "
           "ran (the search levels stop at their deadline on a loaded machine, so load "
           "matters). A table too long for one sitting keeps its finished games in a journal "
           "and is recorded when its last game is played; its note then says which games "
           "came from earlier sittings."]
    missing: dict[str, list[str]] = {part: [] for part in PARTS}
    ladders = []
    for game, players in tables(None):
        entry = data.get("ladder", {}).get(f"{game}:{players}")
        if entry is None or [row["level"] for row in entry["rows"]] != levels:
            missing["ladder"].append(f"{game} {players}p")
        if entry is not None:
            ladders.append(ladder_markdown(entry) + "\n\n" + run_note(entry))
    if ladders:
        out += ["### The ladder", *ladders]
    found = recorded(data, "targets", missing, [
        (f"{game}:{players}:{opponent}", f"{game} {players}p against {opponent}")
        for game, players, opponent in target_pairs()])
    if found:
        out += ["### The expert's targets", targets_markdown(found),
                *[f"{row['game']} {row['players']}p against {row['opponent']}: "
                  + run_note(row) for row in found]]
    done = recorded(data, "exploits", missing, [
        (f"{game}:{exploit_players(game)}:{script}:{level}", f"{game}: {level} against {script}")
        for game, scripts in EXPLOITERS.items()
        for script, level in itertools.product(scripts, levels[1:])])
    if done:
        out += ["### Against the exploit players", exploits_markdown(done),
                *[f"{row['game']} {row['level']} against {row['exploiter']}: " + run_note(row)
                  for row in done]]
    titles = {"ladder": "The ladder (all four levels)", "targets": "The expert's targets",
              "exploits": "Against the exploit players"}
    if any(missing.values()):
        out += ["### Not measured yet", "\n".join(
            f"- {titles[part]}: {', '.join(items)}." for part, items in missing.items() if items)]
    return "\n\n".join(out)


# ---------------------------------------------------------------------------- main
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=96,
                        help="games per table of the ladder (a multiple of its seatings "
                        "seats every level in every seat equally often)")
    parser.add_argument("--target-games", type=int, default=100)
    parser.add_argument("--exploit-games", type=int, default=40)
    parser.add_argument("--against", nargs="*",
                        help="targets: only these opponents (random, casual, beginner), so a "
                        "sitting can run the one row still missing")
    parser.add_argument("--scripts", nargs="*",
                        help="exploits: only these exploit players (e.g. low), so a sitting "
                        "can run the one row still missing")
    parser.add_argument("--levels", default=",".join(LEVELS),
                        help="the levels of the ladder, lowest first")
    parser.add_argument("--parts", nargs="*", default=list(PARTS),
                        help="which parts to run (none: only render the records)")
    parser.add_argument("--only", nargs="*", help="games (doors) or tables (favor:3)")
    parser.add_argument("--jobs", type=int, default=None, help="workers (default: all cores)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--results", type=Path, default=RESULTS,
                        help="the results file each finished table is recorded in")
    parser.add_argument("--write", action="store_true",
                        help="render docs/bots.md's section from the results file")
    parser.add_argument("--page", type=Path, default=BOTS_PAGE, help=argparse.SUPPRESS)
    args = parser.parse_args()
    unknown = set(args.parts) - set(PARTS)
    if unknown:
        parser.error(f"unknown part(s) {', '.join(sorted(unknown))}; the parts are "
                     f"{', '.join(PARTS)}")
    if args.against and set(args.against) - {"random", "casual", "beginner"}:
        parser.error("--against takes random, casual or beginner")
    known_scripts = {name for scripts in EXPLOITERS.values() for name in scripts}
    if args.scripts and set(args.scripts) - known_scripts:
        parser.error(f"--scripts takes exploit players' names: {', '.join(sorted(known_scripts))}")
    levels = [level.strip() for level in args.levels.split(",") if level.strip()]
    common = f"--seed {args.seed}" + ("" if levels == list(LEVELS) else f" --levels {args.levels}")
    records = Records(args.results, jobs=args.jobs, commands={
        "ladder": f"--parts ladder --games {args.games} {common} --only {{table}}",
        "targets": f"--parts targets --target-games {args.target_games} {common} "
                   "--only {table}" + (f" --against {' '.join(args.against)}"
                                       if args.against else ""),
        "exploits": f"--parts exploits --exploit-games {args.exploit_games} {common} "
                    "--only {game}" + (f" --scripts {' '.join(args.scripts)}"
                                       if args.scripts else ""),
    })
    if "ladder" in args.parts:
        for game, players in tables(args.only):
            began = start()
            entry = ladder(game, players, levels, args.games, args.seed, args.jobs,
                           journal_path(args.results, game, players, levels, args.games,
                                        args.seed))
            entry["seconds"] = time.perf_counter() - began[0]
            records.keep("ladder", f"{game}:{players}", entry, began)
            print(ladder_markdown(entry), f"\n({entry['seconds']:.0f} s)\n", flush=True)
    if "targets" in args.parts:
        print(targets_markdown(targets(args.target_games, args.seed, args.jobs, args.only,
                                       records.keep, args.against)), flush=True)
    if "exploits" in args.parts:
        print(exploits_markdown(exploits(args.exploit_games, args.seed, args.jobs, args.only,
                                         levels[1:], records.keep, args.scripts)), flush=True)
    if args.write:
        write_section("levels", render(records.data, list(LEVELS)), page=args.page)
        print(f"written to {args.page}")


if __name__ == "__main__":
    main()
