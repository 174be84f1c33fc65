"""The arena: fair seatings, statistics, and the same results on every backend."""

from __future__ import annotations

import json
import math
from collections import Counter

import pytest
from typer.testing import CliRunner

import ladytiger
from ladytiger.arena.backends import run_games
from ladytiger.arena.simulate import simulate
from ladytiger.arena.stats import elo_ratings, pairwise_scores, wilson_interval
from ladytiger.arena.tournament import parse_bots, run_arena, seatings
from ladytiger.cli.main import app
from ladytiger.core import LadyTigerError

runner = CliRunner()


# ---------------------------------------------------------------------------- seatings
def test_as_many_bots_as_seats_play_every_order():
    assert sorted(seatings(3, 3)) == sorted(
        [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
    )


def test_more_bots_than_seats_play_a_round_robin_with_both_seatings():
    assert seatings(3, 2) == [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]


def test_fewer_bots_than_seats_let_the_last_bot_fill_the_table():
    tables = seatings(2, 4)
    assert tables == [(0, 1, 1, 1), (1, 0, 1, 1), (1, 1, 0, 1), (1, 1, 1, 0)]
    three = seatings(3, 4)
    assert len(three) == 12 and all(Counter(t) == {0: 1, 1: 1, 2: 2} for t in three)


@pytest.mark.parametrize(("bots", "seats"), [(2, 2), (3, 2), (2, 4), (3, 4), (4, 4), (1, 3)])
def test_every_bot_sits_in_every_seat_equally_often(bots, seats):
    tables = seatings(bots, seats)
    for bot in range(bots):
        per_seat = [sum(t[seat] == bot for t in tables) for seat in range(seats)]
        assert len(set(per_seat)) == 1


def test_bot_lists_are_parsed_with_their_options():
    specs = parse_bots("ismcts:iterations=200:exploration=0.5, random")
    assert [s.label for s in specs] == ["ismcts:iterations=200:exploration=0.5", "random"]
    assert specs[0].options_dict() == {"iterations": 200, "exploration": 0.5}
    with pytest.raises(LadyTigerError, match="no bot called 'wizard'"):
        parse_bots("wizard")
    with pytest.raises(LadyTigerError, match="listed once"):
        parse_bots("random,random")
    with pytest.raises(LadyTigerError, match="NAME=VALUE"):
        parse_bots("ismcts:fast")


# ---------------------------------------------------------------------------- statistics
def test_wilson_interval_ends_where_the_score_test_just_rejects():
    # Wilson's interval is every rate p0 with |p - p0| <= z * sqrt(p0 (1 - p0) / n).
    wins, games, z = 81, 263, 1.959963984540054
    p = wins / games
    for end in wilson_interval(wins, games):
        assert math.isclose(abs(p - end), z * math.sqrt(end * (1 - end) / games), rel_tol=1e-9)
    assert wilson_interval(0, 10)[0] == 0.0
    assert math.isclose(wilson_interval(10, 10)[1], 1.0)


def test_a_game_is_cut_into_duels_between_different_bots():
    duels = pairwise_scores((0, 1, 1), [0.0, 1.0, 0.0])
    assert duels == [(0, 1, 0.0), (0, 1, 0.5)]


def test_elo_is_even_for_even_results_and_spreads_for_lopsided_ones():
    even = elo_ratings(2, [(0, 1, 1.0), (0, 1, 0.0)] * 10)
    assert math.isclose(even[0], even[1], abs_tol=1e-6)
    assert math.isclose(sum(even) / 2, 1500.0)
    lopsided = elo_ratings(3, [(0, 1, 1.0)] * 30 + [(1, 2, 1.0)] * 30 + [(0, 2, 1.0)] * 30)
    assert lopsided[0] > lopsided[1] > lopsided[2]
    # 3 wins in 4 duels is about 191 Elo points.
    pair = elo_ratings(2, [(0, 1, 1.0)] * 299 + [(0, 1, 0.0)] * 101)
    assert 170 < pair[0] - pair[1] < 200


# ---------------------------------------------------------------------------- runs
def arena(jobs: int, backend: str = "local", games: int = 12):
    game = ladytiger.load_game("doors", gems_to_win=4)
    return run_arena(game, parse_bots("heuristic,random,ismcts:iterations=8:rollout_limit=30"),
                     games, seed=11, jobs=jobs, backend=backend)


def test_an_arena_counts_every_seat_and_rotates_seatings():
    report = arena(jobs=1)
    assert len(report.seatings) == 6
    assert sum(s.seat_games for s in report.standings) == 2 * 12
    assert all(s.seat_games == 8 for s in report.standings)
    shares = sum(s.win_total for s in report.standings)
    assert math.isclose(shares, 12 - report.draws)
    for standing in report.standings:
        low, high = standing.interval
        assert low <= standing.win_rate <= high
    data = report.to_json()
    assert json.loads(json.dumps(data)) == data
    assert data["players"] == 2 and len(data["seatings"]) == 6


def test_the_process_pool_gives_the_same_results_as_one_process():
    assert arena(jobs=2).outcome_key() == arena(jobs=1).outcome_key()


def test_simulate_gives_the_same_figures_on_any_number_of_jobs():
    game = ladytiger.load_game("doors")
    one = simulate(game, 40, seed=5, jobs=1)
    two = simulate(game, 40, seed=5, jobs=2)
    assert one.to_json() == two.to_json()


def test_results_come_back_in_game_order_whatever_the_chunking():
    values = run_games(_square, None, 23, jobs=1, chunk_size=5)
    assert values == [i * i for i in range(23)]


def _square(_payload: object, index: int) -> int:
    return index * index


def test_unknown_backend_and_lonely_address_are_refused():
    with pytest.raises(LadyTigerError, match="no backend 'spark'"):
        run_games(_square, None, 3, backend="spark")
    with pytest.raises(LadyTigerError, match="--backend ray"):
        run_games(_square, None, 3, address="10.0.0.1:6379")


# ---------------------------------------------------------------------------- ray
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


def test_ray_gives_the_same_arena_and_simulation_as_the_local_backend(local_ray):
    assert arena(jobs=2, backend="ray").outcome_key() == arena(jobs=1).outcome_key()
    game = ladytiger.load_game("doors")
    assert (simulate(game, 30, seed=2, jobs=2, backend="ray").to_json()
            == simulate(game, 30, seed=2, jobs=1).to_json())


# ---------------------------------------------------------------------------- command line
def test_the_arena_command_prints_the_table_and_writes_json(tmp_path):
    out = tmp_path / "arena.json"
    result = runner.invoke(app, ["arena", "doors", "--bots", "heuristic,random", "-n", "4",
                                 "-o", "gems_to_win=3", "--jobs", "1", "--json", str(out)])
    assert result.exit_code == 0, result.output
    for words in ("win rate", "95% CI", "Elo", "mean score", "heuristic", "random"):
        assert words in result.output
    data = json.loads(out.read_text())
    assert data["games"] == 4 and {s["bot"] for s in data["standings"]} == {"heuristic",
                                                                            "random"}


def test_the_arena_command_explains_bad_requests():
    result = runner.invoke(app, ["arena", "doors", "--bots", "oracle", "-n", "2"])
    assert result.exit_code == 2 and "no bot called 'oracle'" in result.output
    both = runner.invoke(app, ["arena", "doors", "--iterations", "5", "--seconds", "1"])
    assert both.exit_code == 2 and "not both" in both.output


def test_simulate_takes_jobs_and_backend(tmp_path):
    out = tmp_path / "sim.json"
    result = runner.invoke(app, ["simulate", "doors", "-n", "20", "--jobs", "2",
                                 "--backend", "local", "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["games"] == 20
    bad = runner.invoke(app, ["simulate", "doors", "-n", "5", "--backend", "spark"])
    assert bad.exit_code == 2 and "no backend 'spark'" in bad.output
