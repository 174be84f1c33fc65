"""RL adapters: tensor cost, PettingZoo loop speed, OpenSpiel IS-MCTS simulations per second.

The issue's targets (benchmarks, not tests):
- an observation tensor costs at most 20 µs per call, median over a game, for every game;
- a PettingZoo AEC masked random loop runs at least as many steps/s as PettingZoo's own
  `tictactoe_v3` in the same loop (connect_four_v3 reported too; needs `pygame`, PettingZoo's
  classic extra);
- OpenSpiel's Python IS-MCTS: simulations per second for each game.

Tensor costs are the best of a few repeats (the least disturbed by other work on the
machine). The PettingZoo loop runs each of our environments right after each PettingZoo game,
several times over, and quotes medians of runs and of those side-by-side ratios. `--write`
puts the tables into the "rl" section of docs/performance.md: use it only on a quiet machine.

    python benchmarks/rl.py            # print the tables
    python benchmarks/rl.py --write    # and write them
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

import ladytiger
from benchmarks.report import write_section
from ladytiger.core.playout import random_step
from ladytiger.rl.encoders import encoder_for

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("doors", {}),
    ("favor", {"players": 2}),
    ("favor", {"players": 4}),
    ("hoard", {}),
    ("labyrinth", {}),
    ("shady_lady", {"players": 2}),
    ("shady_lady", {"players": 6}),
    ("tighee", {"players": 3}),
    ("tighee", {"players": 4}),
    ("traps", {"players": 2}),
    ("traps", {"players": 6}),
]
SEARCH_GAMES = ["doors", "favor", "shady_lady(turn_limit=30)", "tighee(mode=short)",
                "traps(max_seasons=3)"]


def label(name: str, options: dict[str, Any]) -> str:
    return name + (f" ({', '.join(f'{k}={v}' for k, v in options.items())})" if options else "")


def best_time(call: Any, number: int, repeats: int = 5) -> float:
    """Seconds per call, best of `repeats` batches of `number` calls."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(number):
            call()
        best = min(best, (time.perf_counter() - start) / number)
    return best


def tensor_costs(name: str, options: dict[str, Any], seed: int = 0) -> tuple[float, float]:
    """Median over the positions of a random game of the µs per tensor: fast path, and the
    reference (building the observation with its log, then encoding it)."""
    game = ladytiger.load_game(name, **options)
    encoder = encoder_for(game)
    state = game.new_initial_state()
    rng = random.Random(seed)
    buffer = np.zeros(encoder.size, np.float32)
    fast, reference = [], []
    step = 0
    while not state.is_terminal() and step < 400:
        if step % 4 == 0:
            seat = step % game.num_players
            fast.append(best_time(lambda s=seat: encoder.encode_state(state, s, buffer), 50, 3))
            reference.append(best_time(lambda s=seat: encoder.encode(state.observation(s)), 3, 2))
        state.apply_action(random_step(state, rng))
        step += 1
    return statistics.median(fast) * 1e6, statistics.median(reference) * 1e6


def masked_random_loop(environment: Any, steps: int, seed: int = 0) -> float:
    """Steps per second of PettingZoo's usual masked random loop over `agent_iter`."""
    rng = np.random.default_rng(seed)
    environment.reset(seed=seed)
    done = 0
    start = time.perf_counter()
    while done < steps:
        for _agent in environment.agent_iter():
            observation, _, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            environment.step(action)
            done += 1
            if done >= steps:
                break
        else:
            environment.reset()
    return done / (time.perf_counter() - start)


PAIRED_RUNS = 5


def loop_phases(environment: Any, steps: int, seed: int = 0,
                between: Any = None) -> dict[str, float]:
    """Microseconds per step of each part of the masked random loop: `last` (the
    observation), the choice (numpy's, the same call for every environment) and `step`.
    `between`, when given, runs after each step outside the timed parts (a step of another
    environment, to see what its work does to the timed ones)."""
    clock = time.perf_counter
    rng = np.random.default_rng(seed)
    environment.reset(seed=seed)
    spent = {"last": 0.0, "choice": 0.0, "step": 0.0}
    done = 0
    while done < steps:
        for _agent in environment.agent_iter():
            began = clock()
            observation, _, terminated, truncated, _ = environment.last()
            observed = clock()
            if terminated or truncated:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            chosen = clock()
            environment.step(action)
            stepped = clock()
            spent["last"] += observed - began
            spent["choice"] += chosen - observed
            spent["step"] += stepped - chosen
            if between is not None:
                between()
            done += 1
            if done >= steps:
                break
        else:
            environment.reset()
    return {part: seconds / done * 1e6 for part, seconds in spent.items()}


def stepper(environment: Any, seed: int = 1) -> Any:
    """One masked random step of `environment` per call (a new game after each end)."""
    rng = np.random.default_rng(seed)
    environment.reset(seed=seed)

    def step() -> None:
        agent = environment.agent_selection
        if environment.terminations[agent] or environment.truncations[agent]:
            environment.reset()
            return
        mask = environment.observe(agent)["action_mask"]
        environment.step(int(rng.choice(np.flatnonzero(mask))))

    return step


def phase_table(steps: int) -> list[str]:
    """Where a step's time goes, for tictactoe_v3 and each of our environments (median of
    three runs of each part), and tictactoe_v3 again with a step of one of ours between its
    steps."""
    try:
        from pettingzoo.classic import tictactoe_v3
    except ImportError:
        return []
    from ladytiger.rl.pettingzoo import env

    def median_phases(make: Any, between: Any = None) -> dict[str, float]:
        runs = [loop_phases(make(), steps, run, between() if between else None)
                for run in range(3)]
        return {part: statistics.median(r[part] for r in runs) for part in runs[0]}

    rows = [("PettingZoo tictactoe_v3", median_phases(tictactoe_v3.env))]
    for name, options in GAMES:
        rows.append((label(name, options),
                     median_phases(lambda name=name, options=options: env(name, **options))))
        rows.append((f"tictactoe_v3, a step of {label(name, options)} between steps",
                     median_phases(tictactoe_v3.env,
                                   lambda name=name, options=options: stepper(
                                       env(name, **options)))))
    lines = ["| loop | `last` µs | choice µs | `step` µs | total µs |",
             "| --- | ---: | ---: | ---: | ---: |"]
    for name, phases in rows:
        lines.append(f"| {name} | {phases['last']:.1f} | {phases['choice']:.1f} | "
                     f"{phases['step']:.1f} | {sum(phases.values()):.1f} |")
    return lines


def pettingzoo_rates(steps: int) -> tuple[list[tuple[str, float, dict[str, float]]],
                                           dict[str, float]]:
    """Steps per second of every environment and of PettingZoo's own classic games, and each
    of ours over each peer: every run of ours comes right after a run of each peer, and a
    ratio is the median of those pairs (the machine may be shared: both sides of a pair then
    see the same load); a rate is the median of its runs."""
    from ladytiger.rl.pettingzoo import env

    makers: dict[str, Any] = {}
    try:
        from pettingzoo.classic import connect_four_v3, tictactoe_v3

        makers = {"tictactoe_v3": tictactoe_v3.env, "connect_four_v3": connect_four_v3.env}
    except ImportError as missing:  # the classic extra needs pygame
        print(f"PettingZoo classic games unavailable ({missing}); no peer figures",
              file=sys.stderr)
    peer_runs: dict[str, list[float]] = {name: [] for name in makers}
    ours = []
    for name, options in GAMES:
        rates, ratios = [], {peer: [] for peer in makers}
        for run in range(PAIRED_RUNS):
            peer_rates = {peer: masked_random_loop(make(), steps, run)
                          for peer, make in makers.items()}
            rate = masked_random_loop(env(name, **options), steps, run)
            rates.append(rate)
            for peer, peer_rate in peer_rates.items():
                peer_runs[peer].append(peer_rate)
                ratios[peer].append(rate / peer_rate)
        ours.append((label(name, options), statistics.median(rates),
                     {peer: statistics.median(values) for peer, values in ratios.items()}))
    peers = {peer: statistics.median(runs) for peer, runs in peer_runs.items()}
    return ours, peers


def ismcts_rates(simulations: int) -> list[tuple[str, float, float]]:
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from ladytiger.rl.openspiel import RolloutEvaluator

    def position(game: Any, seed: int) -> Any:
        rng = np.random.RandomState(seed)
        state = game.new_initial_state()
        plies = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(
                    outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0])
            elif plies >= 6 and len(state.legal_actions()) > 1:
                return state
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                plies += 1
        return position(game, seed + 1)

    rows = []
    for name in SEARCH_GAMES:
        game = pyspiel.load_game("ladytiger_" + name)
        rates: dict[str, float] = {"openspiel": 0.0, "ours": 0.0}
        for seed in range(3):
            state = position(game, seed)
            for kind in rates:
                rng = np.random.RandomState(seed)
                evaluator = (mcts.RandomRolloutEvaluator(1, rng) if kind == "openspiel"
                             else RolloutEvaluator(1, seed))
                bot = ismcts.ISMCTSBot(game, evaluator, 2.0, max_simulations=simulations,
                                       random_state=rng)
                start = time.perf_counter()
                bot.step(state)
                rates[kind] = max(rates[kind], simulations / (time.perf_counter() - start))
        rows.append((name, rates["openspiel"], rates["ours"]))
    return rows


def report(steps: int, simulations: int) -> str:
    lines = ["## RL adapters", "",
             "Written by `benchmarks/rl.py`, every ratio from the same run.", "",
             "### Observation tensors", "",
             "Median over the positions of a random game (every 4th step) of the cost of one "
             "tensor: `encode_state` (the fast path, into a reused buffer) and the reference "
             "(`observation(seat)` with its log, then `encode`). Target: at most 20 µs.", "",
             "| game | fast µs | reference µs | speed-up |", "| --- | ---: | ---: | ---: |"]
    for name, options in GAMES:
        fast, reference = tensor_costs(name, options)
        lines.append(f"| {label(name, options)} | {fast:.1f} | {reference:.0f} | "
                     f"x{reference / fast:.0f} |")
    ours, peers = pettingzoo_rates(steps)
    lines += ["", "### PettingZoo AEC masked random loop", "",
              f"{steps:,} steps of `agent_iter` / `last` / a uniform choice among the mask's "
              "legal actions / `step`, the same loop for every environment, all wrapped as "
              "PettingZoo classic wraps its own. Each of our environments ran "
              f"{PAIRED_RUNS} times, each run right after a run of each PettingZoo game: "
              "steps/s are medians of runs, ratios medians of those pairs. Target: at least "
              "`tictactoe_v3`.", ""]
    peer_names = list(peers)
    lines.append("| environment | steps/s | " + " | ".join(f"vs {p}" for p in peer_names) + " |")
    lines.append("| --- | ---: |" + " ---: |" * len(peer_names))
    for peer, rate in peers.items():
        ratios = " | ".join(f"x{rate / peers[p]:.2f}" for p in peer_names)
        lines.append(f"| PettingZoo {peer} (median of all its runs) | {rate:,.0f} | {ratios} |")
    for name, rate, paired in ours:
        ratios = " | ".join(f"x{paired[p]:.2f}" for p in peer_names)
        lines.append(f"| {name} | {rate:,.0f} | {ratios} |")
    if "tictactoe_v3" in peers:
        below = [name for name, _, paired in ours if paired["tictactoe_v3"] < 1.0]
        lines += ["", "At or above `tictactoe_v3`: "
                  f"{len(ours) - len(below)} of {len(ours)} environments"
                  + (f"; below: {', '.join(below)}." if below else ".")]
    phases = phase_table(steps)
    if phases:
        lines += ["", "#### Where a step's time goes", "",
                  "The same loop with a clock around each part, median of 3 runs of "
                  f"{steps:,} steps (the clocks add about the same to every row). The choice "
                  "is the same numpy call in every row, on a mask of the same kind; the rows "
                  "marked *between steps* run tictactoe_v3's loop with one step of one of "
                  "our environments after each of its steps, outside the clocks, to show "
                  "what that work does to the parts timed.", "", *phases]
    lines += ["", "### OpenSpiel IS-MCTS", "",
              f"OpenSpiel's Python `ISMCTSBot` (uct_c 2, {simulations} simulations, one move "
              "from a position a few moves in): simulations per second with OpenSpiel's "
              "`RandomRolloutEvaluator` and with `ladytiger.rl.openspiel.RolloutEvaluator` "
              "(the same random rollouts played on the ladytiger state).", "",
              "| game | sims/s (OpenSpiel evaluator) | sims/s (ours) |",
              "| --- | ---: | ---: |"]
    for name, openspiel_rate, our_rate in ismcts_rates(simulations):
        lines.append(f"| {name} | {openspiel_rate:,.0f} | {our_rate:,.0f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--write", action="store_true",
                        help="write the section of docs/performance.md (quiet machine only)")
    args = parser.parse_args()
    markdown = report(args.steps, args.simulations)
    print(markdown)
    if args.write:
        write_section("rl", markdown)


if __name__ == "__main__":
    main()
