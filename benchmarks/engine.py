"""Engine speed: the compiled and the pure-Python engine side by side, with OpenSpiel, in one run.

For every game and every player count or mode, random playouts from the initial state to the
end (chance sampled from `chance_outcomes()`, moves uniform over `legal_actions()`); games and
steps per second (chance steps counted) as the median of several runs; the cost of `clone()`
and `resample()`; the memory of one state; IS-MCTS iterations per second on a few mid-game
decisions. OpenSpiel's C++ `hearts` is driven by the very same loop, each run of a game paired
with a run of hearts just before it.

Each configuration is measured twice, interleaved: first by a child process of this script
that runs the pure-Python source (LADYTIGER_PURE_PYTHON=1: the "before"), then by this process
with the rules compiled by mypyc (the "after"). When this process does not run the compiled
engine, the configuration is measured once, by this process. The opt-in hand-written C Tighee
engine and OpenSpiel's references are measured by this process.

    python benchmarks/engine.py              # full run (many minutes), printed only
    python benchmarks/engine.py --quick      # a couple of minutes, for the smoke test
    python benchmarks/engine.py --write      # also write docs/performance.md and the chart
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ladytiger
from benchmarks.report import PERFORMANCE_PAGE, write_section
from ladytiger.core.playout import random_step
from ladytiger.engine_build import CHOICE, PURE_PYTHON_VARIABLE, engine_is_compiled

CHART = PERFORMANCE_PAGE.parent / "engine_steps.png"
# Said on stdout (and in the report) when only the pure-Python engine could be measured.
NOT_COMPILED = "the mypyc-compiled engine is not running in this process"


def playouts(new_state: Any, seconds: float, seed: int) -> tuple[int, int, float]:
    """Random games for about `seconds`; the same loop drives ours and OpenSpiel's states."""
    rng = random.Random(seed)
    games = steps = 0
    start = time.perf_counter()
    while True:
        state = new_state()
        while not state.is_terminal():
            if state.current_player() == -1:  # chance, in both libraries
                outcomes = state.chance_outcomes()
                point, total, action = rng.random(), 0.0, outcomes[-1][0]
                for outcome, probability in outcomes:
                    total += probability
                    if point < total:
                        action = outcome
                        break
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            steps += 1
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games, steps, elapsed


def measure_playouts(
    new_state: Any, runs: int, seconds: float, paired: Any = None
) -> dict[str, float]:
    """Median figures of `runs` runs; with `paired` (hearts), each run follows a run of it.

    The machine may be shared, so its load drifts during a long benchmark: a ratio to
    hearts taken from runs made seconds apart is steadier than one to a figure measured
    minutes earlier.
    """
    results, ratios = [], []
    for seed in range(runs):
        if paired is not None:
            _, reference_steps, reference_time = playouts(paired, seconds, seed)
        games, steps, elapsed = playouts(new_state, seconds, seed)
        results.append((games, steps, elapsed))
        if paired is not None:
            ratios.append((steps / elapsed) / (reference_steps / reference_time))
    figures = {
        "games_per_s": statistics.median(g / t for g, _, t in results),
        "steps_per_s": statistics.median(s / t for _, s, t in results),
        "steps_per_game": statistics.median(s / g for g, s, _ in results),
    }
    if ratios:
        figures["vs_hearts"] = statistics.median(ratios)
    return figures


def mid_game_states(game: Any, count: int) -> list[Any]:
    rng = random.Random(11)
    states = []
    while len(states) < count:
        state = game.new_initial_state()
        target = rng.randrange(10, 80)
        for _ in range(target):
            if state.is_terminal():
                break
            state.apply_action(random_step(state, rng))
        if not state.is_terminal():
            states.append(state)
    return states


def decision_states(game: Any, count: int) -> list[Any]:
    """Mid-game states where a player (not chance) chooses among two moves or more.

    Seeded, so both engines search from the very same positions.
    """
    rng = random.Random(17)
    states: list[Any] = []
    for _ in range(50 * count):
        if len(states) == count:
            break
        state = game.new_initial_state()
        for _ in range(rng.randrange(5, 60)):
            if state.is_terminal():
                break
            state.apply_action(random_step(state, rng))
        # Walk on to the next real choice of a player.
        while not state.is_terminal() and (
            state.current_player() < 0 or len(state.legal_actions()) < 2
        ):
            state.apply_action(random_step(state, rng))
        if not state.is_terminal():
            states.append(state)
    return states


def ismcts_iterations_per_second(game: Any, iterations: int, count: int) -> float | None:
    """Total IS-MCTS iterations over the time of `count` decisions, each of `iterations`."""
    states = decision_states(game, count)
    if not states:
        return None
    # One small untimed search first, so that lazy imports and first-use set-up of the bot's
    # modules are not charged to the first timed decision.
    warm_up = ladytiger.load_bot("ismcts", game, seed=1, iterations=5)
    warm_up.step(states[0].clone(), states[0].current_player())
    bot: Any = ladytiger.load_bot("ismcts", game, seed=0, iterations=iterations)
    done, spent = 0, 0.0
    for state in states:
        start = time.perf_counter()
        bot.step(state, state.current_player())
        spent += time.perf_counter() - start
        done += bot.last_iterations
    return done / spent if spent > 0 else None


def per_call_microseconds(function: Any, items: list[Any], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        for item in items:
            function(item)
        samples.append((time.perf_counter() - start) / len(items))
    return statistics.median(samples) * 1e6


def state_memory_bytes(states: list[Any]) -> float:
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    copies = [s.clone() for s in states]
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    del copies
    return grown / len(states)


def resample_seat(state: Any) -> int | None:
    player = state.current_player()
    return player if player >= 0 else 0


def measure_game(
    name: str,
    options: dict[str, Any],
    runs: int,
    seconds: float,
    loader: Any = None,
    hearts: Any = None,
    ismcts: tuple[int, int] | None = None,
) -> dict[str, Any]:
    """The figures of one configuration in this process; `ismcts` is (iterations, states)."""
    game = (loader or ladytiger.load_game)(name, **options)
    figures: dict[str, Any] = measure_playouts(
        game.new_initial_state, runs, seconds, paired=hearts
    )
    states = mid_game_states(game, 40)
    rng = random.Random(3)
    figures["clone_us"] = per_call_microseconds(lambda s: s.clone(), states, repeat=5)
    figures["resample_us"] = per_call_microseconds(
        lambda s: s.resample(resample_seat(s), rng), states[:15], repeat=3
    )
    figures["state_bytes"] = state_memory_bytes(states)
    if ismcts is not None:
        figures["ismcts_per_s"] = ismcts_iterations_per_second(game, *ismcts)
    return figures


def hearts_state_maker() -> Any:
    """OpenSpiel's hearts `new_initial_state`, to pair with each game's runs (None if absent)."""
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel.load_game("hearts").new_initial_state


def openspiel_references(runs: int, seconds: float) -> dict[str, dict[str, float]]:
    try:
        import pyspiel
    except ImportError:
        print("OpenSpiel is not installed (pip install open_spiel): skipping its reference")
        return {}
    references = {}
    for name in ("hearts", "python_kuhn_poker"):
        if name == "python_kuhn_poker":
            import open_spiel.python.games  # noqa: F401  (registers the Python games)
        game = pyspiel.load_game(name)
        references[name] = measure_playouts(game.new_initial_state, runs, seconds)
    return references


def c_engine_loader() -> Any:
    """The loader of the hand-written C Tighee engine, or None when it is not built."""
    from ladytiger.games.tighee_compiled import compiled_available, load_compiled_tighee

    if not compiled_available():
        print("the hand-written C Tighee engine is not built (pip install -e .): no C rows")
        return None
    return lambda name, **options: load_compiled_tighee(**options)


C_ENGINE_GAMES = ("tighee",)


def configuration_label(name: str, options: dict[str, Any]) -> str:
    extras = ", ".join(f"{k}={v}" for k, v in options.items() if k != "players")
    return f"{name} {options['players']}p" + (f" ({extras})" if extras else "")


def child_main(spec_text: str) -> None:
    """Measure one configuration (as the parent asked) and print its figures as JSON."""
    spec = json.loads(spec_text)
    figures = measure_game(
        spec["name"],
        spec["options"],
        spec["runs"],
        spec["seconds"],
        hearts=hearts_state_maker(),
        ismcts=(spec["ismcts_iterations"], spec["ismcts_states"]),
    )
    figures["compiled"] = engine_is_compiled()
    print(json.dumps(figures))


def measure_pure_python(spec: dict[str, Any]) -> dict[str, Any]:
    """The figures of one configuration from a child process running the Python source."""
    environment = dict(os.environ)
    environment[PURE_PYTHON_VARIABLE] = "1"
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", json.dumps(spec)],
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(
            f"the pure-Python measurement of {spec['name']} {spec['options']} failed:\n"
            + done.stderr
        )
    lines = done.stdout.strip().splitlines()
    figures: dict[str, Any] = json.loads(lines[-1])
    if figures.pop("compiled"):
        raise RuntimeError(
            f"the child process ran the compiled engine despite {PURE_PYTHON_VARIABLE}=1"
        )
    return figures


def progress_line(label: str, compiled: dict | None, python: dict) -> str:
    text = f"{label:58s}"
    if compiled is not None:
        text += (f" compiled {compiled['steps_per_s']:>10,.0f} steps/s "
                 f"{compiled['games_per_s']:>7,.0f} games/s ")
    text += (f" python {python['steps_per_s']:>10,.0f} steps/s "
             f"{python['games_per_s']:>7,.0f} games/s")
    if compiled is not None:
        text += f"  speed-up {compiled['steps_per_s'] / python['steps_per_s']:.2f}x"
    return text


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run (a couple of minutes)")
    parser.add_argument("--runs", type=int, default=None, help="runs per figure (median)")
    parser.add_argument("--seconds", type=float, default=None, help="seconds per run")
    parser.add_argument("--write", action="store_true",
                        help="write the section of docs/performance.md and the chart "
                        "(default: print only)")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child is not None:
        child_main(args.child)
        return {}
    runs = args.runs or (3 if args.quick else 5)
    seconds = args.seconds or (0.15 if args.quick else 1.0)
    ismcts = (40, 4) if args.quick else (300, 8)

    games = ladytiger.registered_games()
    compiled = engine_is_compiled()
    if not compiled:
        print(f"{NOT_COMPILED} ({CHOICE.reason}): the pure-Python engine is measured alone")
    references = openspiel_references(runs, seconds)
    hearts = hearts_state_maker()
    rows = []
    for info in games:
        for options in info.configurations():
            label = configuration_label(info.name, options)
            row: dict[str, Any] = {"label": label, "compiled": None}
            if compiled:
                # Interleaved: the "before" then the "after", seconds apart.
                spec = {"name": info.name, "options": options, "runs": runs,
                        "seconds": seconds, "ismcts_iterations": ismcts[0],
                        "ismcts_states": ismcts[1]}
                row["python"] = measure_pure_python(spec)
                row["compiled"] = measure_game(
                    info.name, options, runs, seconds, hearts=hearts, ismcts=ismcts
                )
            else:
                row["python"] = measure_game(
                    info.name, options, runs, seconds, hearts=hearts, ismcts=ismcts
                )
            rows.append(row)
            print(progress_line(label, row["compiled"], row["python"]), flush=True)
    # The opt-in hand-written C engine, next to the same configurations above.
    c_rows = []
    loader = c_engine_loader()
    for info in games:
        if loader is None or info.name not in C_ENGINE_GAMES:
            continue
        for options in info.configurations():
            label = configuration_label(info.name, options) + " [C engine]"
            figures = measure_game(info.name, options, runs, seconds, loader, hearts)
            c_rows.append({"label": label,
                           "python_label": configuration_label(info.name, options),
                           "figures": figures})
            print(f"{label:58s} C {figures['steps_per_s']:>10,.0f} steps/s "
                  f"{figures['games_per_s']:>7,.0f} games/s", flush=True)
    report = render(rows, c_rows, references, runs, seconds, ismcts, compiled)
    print(report)
    if args.write:
        chart(rows, c_rows, references)
        write_section("engine", report)
    return {"rows": rows, "c_rows": c_rows, "references": references, "compiled": compiled}


def ratio_text(figures: dict | None) -> str:
    if figures is None or "vs_hearts" not in figures:
        return "n/a"
    return f"{figures['vs_hearts']:.2f}x"


def pair_text(compiled: dict, python: dict, key: str, digits: int) -> str:
    def one(figures: dict) -> str:
        value = figures.get(key)
        return "n/a" if value is None else f"{value:,.{digits}f}"

    return f"{one(compiled)} / {one(python)}"


def method_paragraph(runs: int, seconds: float, ismcts: tuple[int, int], compiled: bool) -> str:
    text = (
        f"Median of {runs} runs of {seconds:g} s each, the same driving loop for every game "
        "(chance sampled from `chance_outcomes()`, moves uniform over `legal_actions()`, "
        "every step counted, chance included). The ratio to OpenSpiel's C++ hearts is the "
        "median of per-run ratios, each run of a game paired with a run of hearts just before "
        "it in the same process (the machine may be shared: both sides of a ratio then see "
        f"the same load). IS-MCTS: `load_bot(\"ismcts\", game, seed=0, iterations={ismcts[0]})` "
        f"deciding on {ismcts[1]} seeded mid-game states where a player has two moves or "
        "more; iterations per second are the total iterations over the total time. "
    )
    if compiled:
        text += (
            "The compiled engine (the rules modules compiled by mypyc) and the pure-Python "
            "engine (the same install run with `LADYTIGER_PURE_PYTHON=1`, in a child process) "
            "were measured side by side in one run, interleaved per configuration: the "
            "pure-Python figures, the \"before\", just ahead of the compiled ones, the "
            "\"after\", on the same seeds. Speed-up is compiled steps/s over Python steps/s. "
            "Rows marked [C engine] are the opt-in hand-written C Tighee engine "
            "(`ladytiger.games.tighee_compiled`); their speed-up is over the pure-Python "
            "engine of the same configuration. The OpenSpiel rows are separate runs at the "
            "start. Written by `benchmarks/engine.py`."
        )
    else:
        text += (
            f"The compiled engine was not built or not current in this install "
            f"({CHOICE.reason}), so only the pure-Python engine was measured: there is no "
            "before/after comparison in this run. Rows marked [C engine] are the opt-in "
            "hand-written C Tighee engine (`ladytiger.games.tighee_compiled`). The OpenSpiel "
            "rows are separate runs at the start. Written by `benchmarks/engine.py`."
        )
    return text


def render(
    rows: list[dict],
    c_rows: list[dict],
    references: dict,
    runs: int,
    seconds: float,
    ismcts: tuple[int, int],
    compiled: bool,
) -> str:
    lines = ["## Engine: random playouts", "", method_paragraph(runs, seconds, ismcts, compiled),
             ""]
    python_speed = {row["label"]: row["python"]["steps_per_s"] for row in rows}
    if compiled:
        lines += [
            "| game | compiled steps/s | vs hearts | Python steps/s | vs hearts | speed-up "
            "| clone µs compiled / Python | resample µs compiled / Python "
            "| IS-MCTS it/s compiled / Python | state bytes compiled / Python |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for row in rows:
            c, p = row["compiled"], row["python"]
            lines.append(
                f"| {row['label']} | {c['steps_per_s']:,.0f} | {ratio_text(c)} | "
                f"{p['steps_per_s']:,.0f} | {ratio_text(p)} | "
                f"{c['steps_per_s'] / p['steps_per_s']:.2f}x | "
                f"{pair_text(c, p, 'clone_us', 1)} | {pair_text(c, p, 'resample_us', 0)} | "
                f"{pair_text(c, p, 'ismcts_per_s', 0)} | {pair_text(c, p, 'state_bytes', 0)} |"
            )
        for row in c_rows:
            f = row["figures"]
            before = python_speed.get(row["python_label"])
            speed_up = f"{f['steps_per_s'] / before:.2f}x" if before else ""
            lines.append(
                f"| {row['label']} | {f['steps_per_s']:,.0f} | {ratio_text(f)} | | | "
                f"{speed_up} | {f['clone_us']:.1f} | {f['resample_us']:.0f} | | "
                f"{f['state_bytes']:,.0f} |"
            )
        for name, f in references.items():
            lines.append(f"| OpenSpiel {name} | {f['steps_per_s']:,.0f} | | | | | | | | |")
    else:
        lines += [
            "| game | Python steps/s | vs hearts | clone µs | resample µs | IS-MCTS it/s "
            "| state bytes |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for row in rows + [{"label": r["label"], "python": r["figures"]} for r in c_rows]:
            p = row["python"]
            searched = p.get("ismcts_per_s")
            lines.append(
                f"| {row['label']} | {p['steps_per_s']:,.0f} | {ratio_text(p)} | "
                f"{p['clone_us']:.1f} | {p['resample_us']:.0f} | "
                f"{'' if searched is None else f'{searched:,.0f}'} | "
                f"{p['state_bytes']:,.0f} |"
            )
        for name, f in references.items():
            lines.append(f"| OpenSpiel {name} | {f['steps_per_s']:,.0f} | | | | | |")
    lines += ["", summary_line(rows, compiled)]
    if compiled and c_rows:
        lines += ["", c_engine_line(rows, c_rows)]
    if not references:
        lines.append("\nOpenSpiel was not installed: no reference figures in this run.")
    lines += ["", f"![steps per second]({CHART.name})"]
    return "\n".join(lines)


def summary_line(rows: list[dict], compiled: bool) -> str:
    engine = "compiled" if compiled else "pure Python"
    ratios = [(row["label"], row["compiled" if compiled else "python"].get("vs_hearts"))
              for row in rows]
    ratios = [(label, ratio) for label, ratio in ratios if ratio is not None]
    if not ratios:
        return "No ratio to hearts in this run (OpenSpiel is not installed)."
    # Judged on the ratio as the table shows it (two decimals).
    level = [label for label, ratio in ratios if round(ratio, 2) >= 1.0]
    lowest_label, lowest = min(ratios, key=lambda item: item[1])
    reached = ", ".join(level) if level else "none"
    return (
        f"At or above 1.0x hearts ({engine}): {reached} ({len(level)} of {len(ratios)} "
        f"configurations); the lowest ratio is {lowest:.2f}x ({lowest_label})."
    )


def c_engine_line(rows: list[dict], c_rows: list[dict]) -> str:
    """How the hand-written C Tighee engine compares with the compiled one (issue #23 keeps
    it only while it is faster, and asks by how much)."""
    compiled = {row["label"]: row["compiled"]["steps_per_s"] for row in rows}
    pairs = [
        (row["python_label"], row["figures"]["steps_per_s"] / compiled[row["python_label"]])
        for row in c_rows
        if row["python_label"] in compiled
    ]
    figures = ", ".join(f"{label} x{ratio:.2f}" for label, ratio in pairs)
    faster = all(ratio > 1.0 for _, ratio in pairs)
    verdict = (
        "it stays, opt-in, with its equality test against the Python rules"
        if faster
        else "the compiled engine is as fast somewhere, so the C engine could be retired"
    )
    return (
        f"The C Tighee engine over the compiled one, steps/s in this run: {figures}: "
        f"{verdict}."
    )


def chart(rows: list[dict], c_rows: list[dict], references: dict) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no chart")
        return
    # One group per configuration, from the top down: its compiled bar (when measured) over
    # its Python bar; then the C engine's rows and OpenSpiel's, one bar each.
    groups: list[tuple[str, list[tuple[float, str]]]] = []
    for row in rows:
        bars = [] if row["compiled"] is None else [(row["compiled"]["steps_per_s"], "#4c72b0")]
        bars.append((row["python"]["steps_per_s"], "#a6a6a6"))
        groups.append((row["label"], bars))
    for row in c_rows:
        groups.append((row["label"], [(row["figures"]["steps_per_s"], "#55a868")]))
    for name, figures in references.items():
        groups.append((f"OpenSpiel {name}", [(figures["steps_per_s"], "#c44e52")]))
    figure, axis = plt.subplots(figsize=(10, 0.3 * len(groups) + 1.4))
    positions = []
    for index, (_, bars) in enumerate(groups):
        centre = len(groups) - 1 - index
        positions.append(centre)
        height = 0.8 / len(bars)
        for slot, (value, colour) in enumerate(bars):
            offset = 0.4 - height * (slot + 0.5)
            axis.barh(centre + offset, value, height=height, color=colour)
    axis.set_yticks(positions, [label for label, _ in groups], fontsize=7)
    axis.set_ylim(-0.6, len(groups) - 0.4)
    axis.set_xlabel("steps per second (random playouts, median)")
    axis.set_title("ladytiger engine speed: compiled (blue) over pure Python (grey), "
                   "C Tighee (green), OpenSpiel (red)", fontsize=9)
    figure.tight_layout()
    figure.savefig(CHART, dpi=110)
    plt.close(figure)


if __name__ == "__main__":
    main()
