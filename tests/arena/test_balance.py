"""The balance lab: statistics against hand-worked examples, turn order, the games' own
facts, determinism across backends and workers, per-game files, plots, report, bad input."""

from __future__ import annotations

import csv
import json
import math
import random
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import ladytiger
from ladytiger.arena.export import BASE_COLUMNS, write_csv, write_jsonl
from ladytiger.arena.lab import (
    Cell,
    CellReport,
    parse_counts,
    parse_mix,
    parse_option_grid,
    play_game,
    run_sweep,
)
from ladytiger.arena.simulate import simulate
from ladytiger.arena.stats import mean_interval, wilson_interval
from ladytiger.cli.main import app
from ladytiger.core import CHANCE, LadyTigerError
from ladytiger.core.playout import random_playout

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------------------- statistics
def test_wilson_interval_matches_a_hand_computed_example():
    # 7 wins in 20: centre (0.35 + z²/40) / (1 + z²/20) = 0.37417, half-width
    # z * sqrt(0.35 * 0.65 / 20 + z²/1600) / (1 + z²/20) = 0.19298.
    low, high = wilson_interval(7, 20)
    assert low == pytest.approx(0.18119, abs=5e-5)
    assert high == pytest.approx(0.56715, abs=5e-5)
    # A shared win counts its share: 6.5 wins in 20 sits between 6 and 7 wins.
    assert wilson_interval(6, 20)[0] < wilson_interval(6.5, 20)[0] < low


def test_mean_interval_matches_a_hand_computed_example():
    # 1, 2, 3, 4: mean 2.5, sample deviation 1.29099, standard error 0.645497.
    mean, low, high = mean_interval([1, 2, 3, 4])
    assert mean == 2.5
    assert low == pytest.approx(2.5 - 1.959964 * 0.645497, abs=1e-5)
    assert high == pytest.approx(2.5 + 1.959964 * 0.645497, abs=1e-5)
    assert mean_interval([3.0]) == (3.0, 3.0, 3.0)


def test_mean_interval_stays_within_the_values_seen():
    # A count that is 0 in 99 games of 100: mean 0.01, standard error 0.01, so the normal
    # approximation alone would reach down to -0.0096.
    mean, low, high = mean_interval([0] * 99 + [1])
    assert mean == pytest.approx(0.01)
    assert low == 0.0
    assert high == pytest.approx(0.01 + 1.959964 * 0.01, abs=1e-5)


def hand_made(outcomes):
    cell = Cell("favor", (("players", 3), ("random_first_player", True)), parse_mix("random"))
    return CellReport(cell, 0, outcomes)


def test_turn_order_counts_from_the_seat_that_played_first():
    facts = lambda first: {"first_player": first, "length": 10, "length_unit": "auctions"}  # noqa: E731
    report = hand_made([
        ([0.0, 0.0, 1.0], [1, 2, 9], 100, facts(2)),  # seat 2 played first and won
        ([1.0, 0.0, 0.0], [9, 2, 1], 100, facts(1)),  # seat 0 played third and won
        ([0.5, 0.5, 0.0], [5, 5, 1], 100, facts(0)),  # seats 0 and 1 (1st, 2nd) share
        ([0.0, 0.0, 0.0], [0, 0, 0], 100, facts(1)),  # nobody won
    ])
    assert [s.win_total for s in report.by_seat] == [1.5, 0.5, 1.0]
    assert [s.win_total for s in report.by_turn] == [1.5, 0.5, 1.0]
    assert [s.label for s in report.by_turn] == ["1st to play", "2nd to play", "3rd to play"]
    # The first to play scored 9, 2, 5, 0 in those games: seat 2, seat 1, seat 0, seat 1.
    assert report.by_turn[0].scores == [9, 2, 5, 0]
    assert report.by_turn[0].sole_wins == 1
    assert report.draws == 1
    edge, low, high = report.first_player_edge()
    # 3 of 4 games were won, so a fair share is a quarter of the games.
    assert edge == pytest.approx(1.5 / 4 - 0.25)
    assert low == pytest.approx(wilson_interval(1.5, 4)[0] - 0.25)
    assert high == pytest.approx(wilson_interval(1.5, 4)[1] - 0.25)


@pytest.mark.parametrize(
    ("name", "options", "first_move"),
    [
        ("favor", {"players": 3, "random_first_player": True}, lambda a: True),
        ("shady_lady", {"players": 4, "random_first_player": True}, lambda a: True),
        # Everyone puts cards out in seat order first; the first lead is who plays first.
        ("tighee", {"players": 3, "random_first_lead": True}, lambda a: a >= 60),
    ],
)
def test_a_random_first_player_is_found_from_the_game(name, options, first_move):
    game = ladytiger.load_game(name, **options)
    firsts = set()
    for seed in range(12):
        state = random_playout(game.new_initial_state(), random.Random(seed))
        moves = [
            (actor, action) for actor, action in zip(state.actors(), state.history(), strict=True)
            if actor != CHANCE and first_move(action)
        ]
        first = state.balance_facts()["first_player"]
        assert first == moves[0][0]
        firsts.add(first)
    assert len(firsts) > 1  # the draw really varies, so the mapping is exercised


# ---------------------------------------------------------------------------- facts
def finished_games(name, options, count=6):
    game = ladytiger.load_game(name, **options)
    return [random_playout(game.new_initial_state(), random.Random(seed)) for seed in range(count)]


def test_doors_counts_every_contest_by_how_it_ended():
    for state in finished_games("doors", {"gems_to_win": 6}):
        facts = state.balance_facts()
        ways = ("guess right", "guess wrong", "set claimed", "collector set", "deck out")
        assert sum(facts[w] for w in ways) == facts["length"] == len(state.past_contests)
        assert facts["length_unit"] == "contests"


def test_traps_counts_seasons_and_how_they_ended():
    for state in finished_games("traps", {"players": 3, "max_seasons": 4}):
        facts = state.balance_facts()
        ends = sum(v for k, v in facts.items() if k.startswith("season ends: "))
        assert ends == facts["length"] <= 4
        assert facts["ending"] == ("season cap" if not any(state.returns()) else "5 gems")


def test_tighee_counts_every_seats_round():
    for state in finished_games("tighee", {"players": 3}, 3):
        facts = state.balance_facts()
        kinds = ("tighee of 4", "tighee of 8", "tighee of 12", "no trick", "missed")
        assert sum(facts[k] for k in kinds) == 3 * 3  # 3 rounds of 3 seats
        assert facts["length"] == 3 * 15  # 15 tricks a round at 3 players


def test_shady_lady_splits_points_between_try_and_jack():
    for state in finished_games("shady_lady", {"players": 3}):
        facts = state.balance_facts()
        points = sum(facts[f"{call} points to {whom}"]
                     for call in ("Try!", "Jack!") for whom in ("caller", "others"))
        assert points == sum(state.scores())


def test_every_game_declares_its_unit_and_a_first_player():
    for info in ladytiger.registered_games():
        for options in info.configurations()[:2]:
            state = finished_games(info.name, options, 1)[0]
            facts = state.balance_facts()
            assert facts["length_unit"] != "moves", info.name  # each game has its own
            assert 0 <= facts["first_player"] < state.num_players()
            assert all(isinstance(v, int | float | str) for v in facts.values())


# ---------------------------------------------------------------------------- runs
def small_sweep(jobs, backend="local"):
    return run_sweep("doors", options={"gems_to_win": [3, 5]}, bots="heuristic,random/heuristic",
                     games=5, seed=4, jobs=jobs, backend=backend)


def test_a_sweep_gives_the_same_games_on_any_number_of_workers():
    one = small_sweep(jobs=1)
    assert [c.cell.label for c in one.cells] == [
        "2p gems_to_win=3 heuristic", "2p gems_to_win=3 random/heuristic",
        "2p gems_to_win=5 heuristic", "2p gems_to_win=5 random/heuristic",
    ]
    assert one.outcome_key() == small_sweep(jobs=2).outcome_key()


def test_a_cell_plays_the_same_games_alone_as_inside_a_sweep():
    sweep = small_sweep(jobs=1)
    game = ladytiger.load_game("doors", gems_to_win=5)
    alone = simulate(game, 5, seed=4, players="random/heuristic")
    assert alone.cell is not None and alone.cell.outcomes == sweep.cells[3].outcomes
    assert alone.players == ["random", "heuristic"]
    assert set(alone.cell.by_player) == {"random", "heuristic"}


@pytest.fixture(scope="module")
def local_ray():
    import os

    os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"  # loopback only, before import
    ray = pytest.importorskip("ray", reason="the ray extra is not installed")
    if not ray.is_initialized():
        ray.init(address="local", num_cpus=2, include_dashboard=False,
                 log_to_driver=False, configure_logging=False)
    yield ray
    ray.shutdown()


def test_ray_gives_the_same_sweep_as_the_local_pool(local_ray):
    assert small_sweep(jobs=2, backend="ray").outcome_key() == small_sweep(jobs=1).outcome_key()


def test_a_script_without_a_main_guard_can_use_workers(tmp_path):
    script = tmp_path / "study.py"
    script.write_text(
        "import ladytiger\n"
        "from ladytiger.arena.simulate import simulate\n"
        "report = simulate(ladytiger.load_game('doors'), 24, seed=3, jobs=2)\n"
        "print('shares', report.win_share)\n"
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=180, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("shares") == 1  # the workers did not run the script again
    game = ladytiger.load_game("doors")
    assert f"shares {simulate(game, 24, seed=3, jobs=1).win_share}" in done.stdout


# ---------------------------------------------------------------------------- files
def test_per_game_rows_hold_everything_to_reanalyse_a_game(tmp_path):
    report = run_sweep("traps", players="2,3", options={"max_seasons": [3]}, bots="random",
                       games=8, seed=2, jobs=1)
    csv_path, jsonl_path = tmp_path / "rows.csv", tmp_path / "rows.jsonl"
    assert write_csv(report, csv_path) == 16
    assert write_jsonl(report, jsonl_path) == 16
    with csv_path.open() as handle:
        reader = csv.DictReader(handle)
        rows = list(reader)
    columns = reader.fieldnames
    assert columns[: len(BASE_COLUMNS)] == list(BASE_COLUMNS)
    seat_columns = [f"{p}_{s}" for p in ("player", "score", "return") for s in range(3)]
    assert columns[len(BASE_COLUMNS) : len(BASE_COLUMNS) + 9] == seat_columns
    assert "fact:season ends: stop" in columns and "fact:ending" in columns
    assert rows[0]["score_2"] == "" and rows[8]["score_2"] != ""  # 2p rows leave seat 2 empty
    lines = [json.loads(line) for line in jsonl_path.read_text().splitlines()]
    for row, flat in zip(lines, rows, strict=True):
        assert row["game_seed"] == f"2:{row['index']}" == flat["game_seed"]
        assert row["players"] == ["random"] * row["num_players"]
        assert row["turn_order"][0] == row["first_player"]
        # The seed and index replay the very game.
        game = ladytiger.load_game("traps", players=row["num_players"], **row["options"])
        returns, scores, actions, facts = play_game(game, None, row["seed"], row["index"])
        assert (scores, actions, facts["length"]) == (row["scores"], row["actions"],
                                                      row["length"])
        winners = [s for s, r in enumerate(returns) if r > 0]
        assert row["winner"] == (winners[0] if len(winners) == 1 else winners or None)
        assert flat["winner"] == ("" if not winners else str(winners[0]))


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_plots_and_report_are_written_with_their_content(tmp_path):
    pytest.importorskip("matplotlib")
    from ladytiger.arena.plots import write_plots
    from ladytiger.arena.report import write_report

    report = run_sweep("doors", options={"gems_to_win": [3, 4, 5]}, bots="random", games=30,
                       seed=1, jobs=1)
    paths = write_plots(report, tmp_path / "plots")
    sizes = {p.name: png_size(p) for p in paths}
    # 1200 px wide; 360 px per row of panels (3 to a row) plus the title band.
    assert sizes == {
        "doors_win_share.png": (1200, 420),
        "doors_scores.png": (1200, 420),
        "doors_length.png": (1200, 420),
        "doors_facts.png": (1200, 780),  # five facts: two rows
    }
    page = write_report(report, tmp_path / "report.html", "ladytiger balance doors -n 30")
    text = page.read_text()
    assert text.count("data:image/png;base64,") == 4
    assert text.count("<table>") == 2  # the cells, the facts (no mixed tables)
    assert "ladytiger balance doors -n 30" in text
    assert "2p gems_to_win=4 random" in text and "guess right" in text
    assert "run seed 1" in text and "python:" in text


def test_plots_survive_shares_of_nothing_and_facts_that_never_vary(tmp_path):
    pytest.importorskip("matplotlib")
    from ladytiger.arena.plots import write_plots

    # Random Hoard never wins, and several of its facts are the same in every game.
    report = run_sweep("hoard", bots="random", games=20, seed=1, jobs=1)
    assert report.cells[0].by_seat[0].win_total == 0
    assert all(png_size(p)[0] == 1200 for p in write_plots(report, tmp_path))


# ---------------------------------------------------------------------------- bad input
def test_grids_and_players_are_parsed_or_refused_with_the_reason():
    assert parse_counts("2-4") == [2, 3, 4] and parse_counts("2,4") == [2, 4]
    assert parse_option_grid(["max_seasons=3,10"]) == {"max_seasons": ["3", "10"]}
    for pairs, words in [(["max_seasons"], "NAME=VALUE"), (["max_seasons=3,,4"], "empty value"),
                         (["a=1", "a=2"], "given twice"), (["players=2"], "--players"),
                         (["a=1,1"], "twice")]:
        with pytest.raises(LadyTigerError, match=words):
            parse_option_grid(pairs)
    with pytest.raises(LadyTigerError, match="2,3,4 or 2-4"):
        parse_counts("two")
    with pytest.raises(LadyTigerError, match="every seat"):
        parse_mix("heuristic//random")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--bots", "wizard"], "no bot called 'wizard'"),
        (["--bots", "ismcts:fast"], "NAME=VALUE"),
        (["--bots", "random/random/random"], "name 3 seats, but the game has 2"),
        (["--bots", "hoard_planner"], "plays only Hoard"),
        (["-o", "gems_to_win"], "NAME=VALUE"),
        (["-o", "gems_to_win=3,,4"], "empty value"),
        (["-o", "colour=red"], "has no option 'colour'"),
        (["-o", "gems_to_win=0,3"], "gems_to_win"),
        (["--players", "3"], "players"),
        (["-n", "0"], "at least 1"),
    ],
)
def test_the_balance_command_explains_bad_requests(args, words):
    result = runner.invoke(app, ["balance", "doors", "-n", "2", "--jobs", "1", *args])
    assert result.exit_code == 2, result.output
    assert words in " ".join(result.output.split()), result.output


def test_simulate_refuses_unknown_players_and_zero_games():
    unknown = runner.invoke(app, ["simulate", "doors", "--bots", "oracle"])
    assert unknown.exit_code == 2 and "no bot called 'oracle'" in unknown.output
    none = runner.invoke(app, ["simulate", "doors", "-n", "0"])
    assert none.exit_code == 2 and "at least 1" in none.output


# ---------------------------------------------------------------------------- commands
def test_the_balance_command_prints_a_row_per_cell_and_writes_files(tmp_path, monkeypatch):
    # The CLI's console takes its width from COLUMNS when it is made, at import: a test
    # runner's worker may have set that already, so the width is set here directly.
    from ladytiger.cli.main import console

    monkeypatch.setattr(console, "_width", 250)
    result = runner.invoke(app, [
        "balance", "favor", "--players", "2,3", "-o", "random_first_player=true",
        "--bots", "random,heuristic", "-n", "4", "--seed", "5", "--jobs", "1",
        "--jsonl", str(tmp_path / "g.jsonl"), "--json", str(tmp_path / "s.json"),
    ], env={"COLUMNS": "250"})  # a designer's wide terminal: no header is folded
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    for words in ("first player edge", "win share by turn order", "length (auctions)",
                  "lots taken", "1st:", "3rd:"):
        assert words in text
    summary = json.loads((tmp_path / "s.json").read_text())
    assert [c["label"] for c in summary["cells"]] == [
        "2p random", "2p heuristic", "3p random", "3p heuristic"]
    assert summary["command"].startswith("ladytiger balance favor --players 2,3")
    cell = summary["cells"][3]
    assert cell["players"] == ["heuristic"] * 3 and len(cell["by_turn"]) == 3
    low, high = cell["by_turn"][0]["win_share_95"]
    assert low <= cell["by_turn"][0]["win_share"] <= high
    assert len((tmp_path / "g.jsonl").read_text().splitlines()) == 16


def test_simulate_takes_players_and_reports_turn_order(tmp_path):
    out = tmp_path / "sim.json"
    result = runner.invoke(app, ["simulate", "traps", "--players", "3", "--bots", "heuristic",
                                 "-n", "3", "--jobs", "1", "--json", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["players"] == ["heuristic"] * 3
    assert math.isclose(sum(data["win_share"]) + data["draws"] / 3, 1.0)
    assert data["balance"]["length_unit"] == "seasons"
    assert [t["label"] for t in data["balance"]["by_turn"]] == [
        "1st to play", "2nd to play", "3rd to play"]


def test_the_benchmark_runs_and_prints_its_figures():
    done = subprocess.run(
        [sys.executable, "benchmarks/balance.py", "--quick", "--games", "400",
         "--seconds", "0.05", "--only", "doors", "traps"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "sweep: 400 random doors games in" in done.stdout
    assert "| doors 2p |" in done.stdout and "| traps 6p |" in done.stdout
    assert ("| game | random games/s | heuristic games/s | games/s ratio | met | moves/game "
            "random, heuristic | moves/s ratio | met | floor |") in done.stdout
