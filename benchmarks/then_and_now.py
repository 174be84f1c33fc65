"""Today's engine against an earlier revision, side by side: clone(), resample(), IS-MCTS.

Issues #21 and #23 set targets relative to the code as it was when they were filed ("clone()
and resample() at least 2x faster than today"; "OpenSpiel's Python ISMCTS ... at least 5x
today's"). Figures copied from an old page were taken on another day under another load, so
this script measures both in one run: it unpacks the earlier revision's `src/` (with `git
archive`) into a temporary directory and, for every configuration, alternates a child process
running that source with a child process running today's engine (compiled where it is
installed so), several times over. Figures are medians of runs; each ratio is the median of
the per-pair ratios, so that both sides of a pair see the same load.

Measured per configuration (the engine benchmark's method and seeds): the cost of `clone()` on
40 mid-game states, of `resample()` for the player to move on 15 of them; and, for the games
that `benchmarks/rl.py` searches, simulations per second of OpenSpiel's Python `ISMCTSBot`
(uct_c 2, 200 simulations, OpenSpiel's `RandomRolloutEvaluator`) on the `ladytiger_<game>`
pyspiel game, plus today's own rollout evaluator (which did not exist before).

    python benchmarks/then_and_now.py                  # against the issues' revision
    python benchmarks/then_and_now.py --rev REV --runs 3
    python benchmarks/then_and_now.py --write          # also write docs/performance.md
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# The last commit before issues #20-#24 were filed: "today" in their texts.
ISSUES_REVISION = "d69bb17"
SEARCH_GAMES = ["doors", "favor", "shady_lady(turn_limit=30)", "tighee(mode=short)",
                "traps(max_seasons=3)"]
SIMULATIONS = 200


# ---------------------------------------------------------------- in a child process
def random_step(state: Any, rng: random.Random) -> int:
    from ladytiger.core import CHANCE

    if state.current_player() == CHANCE:
        outcomes = state.chance_outcomes()
        return rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0]
    return rng.choice(state.legal_actions())


def mid_game_states(game: Any, count: int) -> list[Any]:
    rng = random.Random(11)
    states: list[Any] = []
    while len(states) < count:
        state = game.new_initial_state()
        for _ in range(rng.randrange(10, 80)):
            if state.is_terminal():
                break
            state.apply_action(random_step(state, rng))
        if not state.is_terminal():
            states.append(state)
    return states


def per_call_microseconds(function: Any, items: list[Any], repeat: int, rounds: int) -> float:
    """The median over `repeat` samples of the cost of one call; a sample times `rounds`
    passes over all the items (a few milliseconds), so one interruption moves one sample."""
    gc.collect()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(rounds):
            for item in items:
                function(item)
        samples.append((time.perf_counter() - start) / (rounds * len(items)))
    return statistics.median(samples) * 1e6


def copying_costs(name: str, options: dict[str, Any]) -> dict[str, float]:
    import ladytiger

    game = ladytiger.load_game(name, **options)
    states = mid_game_states(game, 40)
    rng = random.Random(3)

    def seat(state: Any) -> int:
        player = state.current_player()
        return player if player >= 0 else 0

    for state in states[:3]:  # first-use set-up is not charged to the timed calls
        state.clone()
        state.resample(seat(state), rng)
    return {
        "clone_us": per_call_microseconds(lambda s: s.clone(), states, repeat=15, rounds=100),
        "resample_us": per_call_microseconds(
            lambda s: s.resample(seat(s), rng), states[:15], repeat=9, rounds=10
        ),
    }


def search_position(game: Any, seed: int) -> Any:
    import numpy as np

    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    plies = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0])
        elif plies >= 6 and len(state.legal_actions()) > 1:
            return state
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            plies += 1
    return search_position(game, seed + 1)


def search_rate(game_string: str, evaluator_kind: str) -> float:
    """Simulations per second, the best of three positions (the least disturbed)."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    import ladytiger.rl.openspiel as adapter

    game = pyspiel.load_game(adapter.PREFIX + game_string)
    best = 0.0
    for seed in range(3):
        state = search_position(game, seed)
        rng = np.random.RandomState(seed)
        # "ours" on a revision that had no evaluator of its own measures OpenSpiel's there:
        # the gain is then that of offering the faster evaluator at all.
        if evaluator_kind == "ours" and hasattr(adapter, "RolloutEvaluator"):
            evaluator: Any = adapter.RolloutEvaluator(1, seed)
        else:
            evaluator = mcts.RandomRolloutEvaluator(1, rng)
        bot = ismcts.ISMCTSBot(game, evaluator, 2.0, max_simulations=SIMULATIONS,
                               random_state=rng)
        start = time.perf_counter()
        bot.step(state)
        best = max(best, SIMULATIONS / (time.perf_counter() - start))
    return best


def child_main(spec_text: str) -> None:
    spec = json.loads(spec_text)
    import ladytiger

    where = Path(ladytiger.__file__).resolve()
    if not str(where).startswith(spec["source"]):
        raise SystemExit(f"the child imported ladytiger from {where}, not {spec['source']}")
    if spec["kind"] == "copying":
        figures: dict[str, Any] = copying_costs(spec["name"], spec["options"])
    else:
        figures = {"sims_per_s": search_rate(spec["game"], spec["evaluator"])}
    try:
        from ladytiger.engine_build import engine_is_compiled

        figures["compiled"] = engine_is_compiled()
    except ImportError:  # revisions older than the compiled build
        figures["compiled"] = False
    print(json.dumps(figures))


# ---------------------------------------------------------------- in the parent
def run_child(spec: dict[str, Any], source: Path, environment: dict[str, str]) -> dict | None:
    spec = {**spec, "source": str(source.resolve())}
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", json.dumps(spec)],
        env=environment, capture_output=True, text=True, check=False,
    )
    if done.returncode != 0:
        print(f"  (not measured: {done.stderr.strip().splitlines()[-1:]})", file=sys.stderr)
        return None
    return json.loads(done.stdout.strip().splitlines()[-1])


def paired(specs: list[dict[str, Any]], runs: int, then_src: Path, now_src: Path,
           keys: list[str]) -> list[dict[str, Any]]:
    then_env = {**os.environ, "PYTHONPATH": str(then_src)}
    now_env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    now_env["PYTHONPATH"] = str(now_src)
    rows = []
    for spec in specs:
        then_runs: list[dict] = []
        now_runs: list[dict] = []
        compiled = False
        for _ in range(runs):
            before = run_child(spec, then_src, then_env)
            after = run_child(spec, now_src, now_env)
            if before is None or after is None:
                continue
            then_runs.append(before)
            now_runs.append(after)
            compiled = compiled or after["compiled"]
        row: dict[str, Any] = {"spec": spec, "runs": len(then_runs), "compiled": compiled}
        for key in keys:
            if not then_runs:
                break
            row[f"then_{key}"] = statistics.median(r[key] for r in then_runs)
            row[f"now_{key}"] = statistics.median(r[key] for r in now_runs)
            # Costs (µs) improve downward, rates upward: a ratio above 1 is always better.
            ratios = [
                (b[key] / a[key]) if key.endswith("_us") else (a[key] / b[key])
                for b, a in zip(then_runs, now_runs, strict=True)
            ]
            row[f"gain_{key}"] = statistics.median(ratios)
        rows.append(row)
        print(progress(row), flush=True)
    return rows


def label(spec: dict[str, Any]) -> str:
    if spec["kind"] == "search":
        return f"{spec['game']} ({spec['evaluator']} evaluator)"
    options = spec["options"]
    players = options.get("players")
    extras = ", ".join(f"{k}={v}" for k, v in options.items() if k != "players")
    text = spec["name"] + (f" {players}p" if players else "")
    return text + (f" ({extras})" if extras else "")


def progress(row: dict[str, Any]) -> str:
    text = f"{label(row['spec']):55s}"
    if "gain_clone_us" in row:
        text += (f" clone {row['then_clone_us']:.2f} -> {row['now_clone_us']:.2f} µs "
                 f"x{row['gain_clone_us']:.2f}  resample {row['then_resample_us']:.1f} -> "
                 f"{row['now_resample_us']:.1f} µs x{row['gain_resample_us']:.2f}")
    elif "gain_sims_per_s" in row:
        text += (f" {row['then_sims_per_s']:,.0f} -> {row['now_sims_per_s']:,.0f} sims/s "
                 f"x{row['gain_sims_per_s']:.2f}")
    else:
        text += " not measured (the earlier revision lacks it)"
    return text


def copying_specs() -> list[dict[str, Any]]:
    sys.path.insert(0, str(ROOT / "src"))
    import ladytiger

    return [
        {"kind": "copying", "name": info.name, "options": options}
        for info in ladytiger.registered_games()
        for options in info.configurations()
    ]


def render(revision: str, runs: int, copying: list[dict], search: list[dict],
           compiled: bool, load: float) -> str:
    engine = "compiled by mypyc" if compiled else "pure Python (no compiled build installed)"
    lines = [
        "## Then and now: clone, resample and OpenSpiel's IS-MCTS",
        "",
        f"`benchmarks/then_and_now.py`: today's engine ({engine}) against revision "
        f"`{revision}` (the code when issues #21 and #23 were filed, pure Python then), side by "
        f"side in one run: for each configuration {runs} pairs of child processes, the earlier "
        "source then today's, each on the same seeded positions. Figures are medians of runs, "
        "a gain is the median of the per-pair ratios (above 1: faster now). Copying: "
        "`clone()` over 40 mid-game states, `resample()` for the player to move over 15 of "
        "them. Search: OpenSpiel's Python `ISMCTSBot` (uct_c 2, 200 simulations, best of three "
        "positions) with OpenSpiel's `RandomRolloutEvaluator`; the last rows use "
        "`ladytiger.rl.openspiel.RolloutEvaluator`, which the earlier revision did not have, "
        "against the earlier revision with OpenSpiel's evaluator.",
        "",
        "| configuration | clone µs then | now | gain | resample µs then | now | gain |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in copying:
        if "gain_clone_us" not in row:
            lines.append(f"| {label(row['spec'])} | not in `{revision}` | | | | | |")
            continue
        lines.append(
            f"| {label(row['spec'])} | {row['then_clone_us']:.2f} | {row['now_clone_us']:.2f} | "
            f"x{row['gain_clone_us']:.2f} | {row['then_resample_us']:.1f} | "
            f"{row['now_resample_us']:.1f} | x{row['gain_resample_us']:.2f} |"
        )
    measured = [row for row in copying if "gain_clone_us" in row]
    if measured:
        for key, word in (("clone_us", "clone()"), ("resample_us", "resample()")):
            gains = [row[f"gain_{key}"] for row in measured]
            short = [label(row["spec"]) for row in measured if row[f"gain_{key}"] < 2.0]
            lines += ["", f"{word}: gains x{min(gains):.2f} to x{max(gains):.2f} "
                      f"(median x{statistics.median(gains):.2f}); target x2: "
                      + ("met in every configuration." if not short
                         else f"**not met** in {len(short)} of {len(gains)}: "
                         + ", ".join(short) + ".")]
    if search:
        lines += ["", "| search | sims/s then | now | gain |", "| --- | ---: | ---: | ---: |"]
        for row in search:
            if "gain_sims_per_s" not in row:
                lines.append(f"| {label(row['spec'])} | not in `{revision}` | | |")
                continue
            lines.append(
                f"| {label(row['spec'])} | {row['then_sims_per_s']:,.0f} | "
                f"{row['now_sims_per_s']:,.0f} | x{row['gain_sims_per_s']:.2f} |"
            )
    lines += ["", f"Machine load average when the run started: {load:.2f} (2 cores)."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", default=ISSUES_REVISION, help="the earlier revision")
    parser.add_argument("--runs", type=int, default=5, help="pairs per configuration")
    parser.add_argument("--only", help="measure only configurations whose label contains this")
    parser.add_argument("--no-search", action="store_true", help="skip the IS-MCTS rows")
    parser.add_argument("--write", action="store_true", help="write docs/performance.md")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child_main(args.child)
        return
    load = os.getloadavg()[0]
    now_src = ROOT / "src"
    with tempfile.TemporaryDirectory(prefix="then-and-now-") as folder:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.rev, "src"],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)
        then_src = Path(folder) / "src"
        specs = copying_specs()
        if args.only:
            specs = [spec for spec in specs if args.only in label(spec)]
        copying = paired(specs, args.runs, then_src, now_src, ["clone_us", "resample_us"])
        search: list[dict] = []
        if not args.no_search:
            for game in SEARCH_GAMES:
                if args.only and args.only not in game:
                    continue
                for kind in ("openspiel", "ours"):
                    spec = {"kind": "search", "game": game, "evaluator": kind}
                    rows = paired([spec], args.runs, then_src, now_src, ["sims_per_s"])
                    search += rows
    compiled = any(row["compiled"] for row in copying + search)
    markdown = render(args.rev, args.runs, copying, search, compiled, load)
    print()
    print(markdown)
    if args.write:
        sys.path.insert(0, str(ROOT))
        from benchmarks.report import write_section

        write_section("then_and_now", markdown)


if __name__ == "__main__":
    main()
