"""Engine speed: random playouts of every game, side by side with OpenSpiel in one run.

For every game and every player count or mode, random playouts from the initial state to the
end (chance sampled from `chance_outcomes()`, moves uniform over `legal_actions()`); games and
steps per second (chance steps counted) as the median of several runs; the cost of `clone()`
and `resample()`; the memory of one state. OpenSpiel's C++ `hearts` and pure-Python
`python_kuhn_poker` are driven by the very same loop, and each of our games is given as a
ratio to both. Writes its tables and a bar chart into docs/performance.md.

    python benchmarks/engine.py            # full run (several minutes)
    python benchmarks/engine.py --quick    # under a minute, for the smoke test
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ladytiger
from benchmarks.report import PERFORMANCE_PAGE, write_section
from ladytiger.core.playout import random_step

CHART = PERFORMANCE_PAGE.parent / "engine_steps.png"


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
) -> dict:
    game = (loader or ladytiger.load_game)(name, **options)
    figures = measure_playouts(game.new_initial_state, runs, seconds, paired=hearts)
    states = mid_game_states(game, 40)
    rng = random.Random(3)
    figures["clone_us"] = per_call_microseconds(lambda s: s.clone(), states, repeat=5)
    figures["resample_us"] = per_call_microseconds(
        lambda s: s.resample(resample_seat(s), rng), states[:15], repeat=3
    )
    figures["state_bytes"] = state_memory_bytes(states)
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


def compiled_loader() -> Any:
    """The loader of the compiled engines (Tighee's), or None when the extension is not built."""
    from ladytiger.games.tighee_compiled import compiled_available, load_compiled_tighee

    if not compiled_available():
        print("the compiled Tighee extension is not built (pip install -e .): no compiled rows")
        return None
    return lambda name, **options: load_compiled_tighee(**options)


COMPILED_GAMES = ("tighee",)


def configuration_label(name: str, options: dict[str, Any]) -> str:
    extras = ", ".join(f"{k}={v}" for k, v in options.items() if k != "players")
    return f"{name} {options['players']}p" + (f" ({extras})" if extras else "")


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run (under a minute)")
    parser.add_argument("--runs", type=int, default=None, help="runs per figure (median)")
    parser.add_argument("--seconds", type=float, default=None, help="seconds per run")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args(argv)
    runs = args.runs or (3 if args.quick else 5)
    seconds = args.seconds or (0.15 if args.quick else 1.0)

    references = openspiel_references(runs, seconds)
    hearts = hearts_state_maker()
    rows = []
    for info in ladytiger.registered_games():
        for options in info.configurations():
            label = configuration_label(info.name, options)
            figures = measure_game(info.name, options, runs, seconds, hearts=hearts)
            rows.append((label, figures))
            print(f"{label:40s} {figures['steps_per_s']:>10,.0f} steps/s "
                  f"{figures['games_per_s']:>8,.0f} games/s")
    # Opt-in compiled engines, as extra rows next to their pure-Python reference.
    loader = compiled_loader()
    for info in ladytiger.registered_games():
        if loader is None or info.name not in COMPILED_GAMES:
            continue
        for options in info.configurations():
            label = configuration_label(info.name, options) + " [compiled]"
            figures = measure_game(info.name, options, runs, seconds, loader, hearts)
            rows.append((label, figures))
            print(f"{label:40s} {figures['steps_per_s']:>10,.0f} steps/s "
                  f"{figures['games_per_s']:>8,.0f} games/s")
    report = render(rows, references, runs, seconds)
    print(report)
    if not args.no_write:
        chart(rows, references)
        write_section("engine", report)
    return {"rows": rows, "references": references}


def render(rows: list, references: dict, runs: int, seconds: float) -> str:
    hearts = references.get("hearts", {}).get("steps_per_s")
    kuhn = references.get("python_kuhn_poker", {}).get("steps_per_s")
    lines = [
        "## Engine: random playouts",
        "",
        f"Median of {runs} runs of {seconds:g} s each, one process, the same driving loop for "
        "every game (chance sampled from `chance_outcomes()`, moves uniform over "
        "`legal_actions()`, every step counted, chance included). Rows marked [compiled] use "
        "the opt-in C engine (`ladytiger.games.tighee_compiled`); the others are the default "
        "pure-Python engines. The ratio to hearts is the median of per-run ratios, each run of "
        "a game paired with a run of hearts just before it (the machine may be shared: both "
        "sides of a ratio then see the same load); the OpenSpiel rows below are separate runs "
        "at the start. Written by `benchmarks/engine.py`.",
        "",
        "| game | steps/s | games/s | steps/game | vs hearts (C++) | vs kuhn (Python) "
        "| clone µs | resample µs | state bytes |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for label, f in rows:
        if "vs_hearts" in f:
            ratio_h = f"{f['vs_hearts']:.2f}x"
        else:
            ratio_h = f"{f['steps_per_s'] / hearts:.2f}x" if hearts else "n/a"
        ratio_k = f"{f['steps_per_s'] / kuhn:.2f}x" if kuhn else "n/a"
        lines.append(
            f"| {label} | {f['steps_per_s']:,.0f} | {f['games_per_s']:,.0f} | "
            f"{f['steps_per_game']:.0f} | {ratio_h} | {ratio_k} | {f['clone_us']:.1f} | "
            f"{f['resample_us']:.0f} | {f['state_bytes']:,.0f} |"
        )
    for name, f in references.items():
        lines.append(
            f"| OpenSpiel {name} | {f['steps_per_s']:,.0f} | {f['games_per_s']:,.0f} | "
            f"{f['steps_per_game']:.0f} | | | | | |"
        )
    if not references:
        lines.append("\nOpenSpiel was not installed: no reference figures in this run.")
    lines += ["", f"![steps per second]({CHART.name})"]
    return "\n".join(lines)


def chart(rows: list, references: dict) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no chart")
        return
    labels = [label for label, _ in rows] + [f"OpenSpiel {n}" for n in references]
    values = [f["steps_per_s"] for _, f in rows] + [f["steps_per_s"] for f in references.values()]
    colours = ["#4c72b0"] * len(rows) + ["#c44e52"] * len(references)
    figure, axis = plt.subplots(figsize=(9, 0.32 * len(labels) + 1.2))
    axis.barh(labels[::-1], values[::-1], color=colours[::-1])
    axis.set_xlabel("steps per second (random playouts, median)")
    axis.set_title("ladytiger engine speed, with OpenSpiel's references in red")
    figure.tight_layout()
    figure.savefig(CHART, dpi=110)
    plt.close(figure)


if __name__ == "__main__":
    main()
