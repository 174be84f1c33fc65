"""The engine benchmark runs end to end (its figures are reported, never asserted here)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_quick_engine_benchmark_runs_and_prints_figures():
    # Printed only (no --write): the figures of a quick run on a busy machine are not kept.
    done = subprocess.run(
        [sys.executable, "benchmarks/engine.py", "--quick"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    # One progress line per configuration: the compiled engine's figure (when this install
    # runs it), then the pure-Python engine's, measured in a child process.
    rows = re.findall(
        r"^(\S+ \dp.*?)\s+(?:compiled\s+([\d,]+) steps/s\s+[\d,]+ games/s\s+)?"
        r"python\s+([\d,]+) steps/s",
        done.stdout,
        re.MULTILINE,
    )
    assert rows, done.stdout
    assert all(int(python.replace(",", "")) > 0 for _, _, python in rows)
    compiled = [figure for _, figure, _ in rows if figure]
    if "compiled engine is not running" in done.stdout:
        assert not compiled
        assert "| game | Python steps/s |" in done.stdout
    else:
        assert len(compiled) == len(rows)
        assert all(int(figure.replace(",", "")) > 0 for figure in compiled)
        assert "| game | compiled steps/s | vs hearts | Python steps/s |" in done.stdout
    assert "IS-MCTS it/s" in done.stdout


def test_a_short_soak_runs_kills_and_restarts_the_server_and_passes_its_checks():
    done = subprocess.run(
        [sys.executable, "benchmarks/soak.py", "--minutes", "0.4", "--tables", "8"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    rate = re.search(r"^- Moves acknowledged per second: ([\d.]+)", done.stdout, re.MULTILINE)
    assert rate is not None and float(rate.group(1)) > 0, done.stdout
    assert "- SIGKILL at " in done.stdout
    checks = re.findall(r"^- Check: (.*): (passed|FAILED) ", done.stdout, re.MULTILINE)
    assert len(checks) == 4 and all(verdict == "passed" for _, verdict in checks), checks
    assert "- All checks passed." in done.stdout


def test_levels_records_each_table_and_renders_every_record(tmp_path):
    results, page = tmp_path / "levels.json", tmp_path / "bots.md"

    def run(*args: str) -> None:
        done = subprocess.run(
            [sys.executable, "benchmarks/levels.py", "--results", str(results),
             "--page", str(page), "--jobs", "1", *args],
            cwd=ROOT, capture_output=True, text=True, timeout=600,
        )
        assert done.returncode == 0, done.stderr

    # Two sittings, each one table: the second must keep the first's record.
    run("--parts", "ladder", "--levels", "beginner,casual", "--games", "2", "--only", "doors")
    run("--parts", "ladder", "--levels", "beginner,casual", "--games", "2",
        "--only", "favor:2", "--write")
    recorded = json.loads(results.read_text())
    assert set(recorded["ladder"]) == {"doors:2", "favor:2"}
    run_info = recorded["ladder"]["favor:2"]["run"]
    assert run_info["command"] == ("python benchmarks/levels.py --parts ladder --games 2 "
                                   "--seed 0 --levels beginner,casual --only favor:2")
    assert {"date", "revision", "load_at_start", "minutes", "jobs"} <= set(run_info)
    text = page.read_text()
    assert "**doors, 2 players** (2 games" in text and "**favor, 2 players** (2 games" in text
    # Two levels are not the ladder: every table is still listed as unmeasured.
    assert "- The ladder (all four levels): doors 2p, favor 2p, favor 3p," in text
    assert "- The expert's targets: doors 2p against random," in text
    # Rendering alone runs nothing and changes no record.
    before = results.read_text()
    run("--parts", "--write")
    assert results.read_text() == before


def test_a_journaled_table_resumes_with_the_same_games(tmp_path):
    sys.path.insert(0, str(ROOT))
    from benchmarks import journal as journals
    from benchmarks import levels

    from ladytiger.arena.tournament import play_arena_game

    payload = {"game": "favor", "options": {"players": 2},
               "bots": [("beginner", {}), ("casual", {})],
               "seatings": levels.level_seatings(2, 2), "seed": 3}
    whole, nothing = journals.play_journaled(play_arena_game, payload, 3, 1, None)
    assert nothing == {}
    journal = levels.journal_path(tmp_path / "levels.json", "favor", 2,
                                  ["beginner", "casual"], 3, 3)
    journal.parent.mkdir(parents=True)
    # An earlier sitting finished game 1, then was killed while writing another line.
    journals.journaled_game({"worker": play_arena_game, "inner": payload, "missing": [1],
                             "journal": str(journal), "revision": "abc1234"}, 0)
    with open(journal, "a") as out:
        out.write('{"index": 2, "revis')
    resumed_games, resumed = journals.play_journaled(play_arena_game, payload, 3, 1, journal,
                                                     levels.arena_game)
    assert [(g.lineup, g.returns, g.scores, g.moves) for g in resumed_games] == [
        (g.lineup, g.returns, g.scores, g.moves) for g in whole]
    assert resumed["games"] == 1 and resumed["revisions"] == ["abc1234"]
    assert not journal.exists()
    note = levels.run_note({"games": 3, "resumed": resumed, "run": {
        "date": "2026-12-07 20:00 UTC", "revision": "def5678", "jobs": 1, "load_at_start": 0.5,
        "minutes": 1.0, "command": "python benchmarks/levels.py"}})
    assert "1 of its 3 games were played in earlier sittings" in note


def test_versus_openspiel_records_expert_tables_and_lists_the_missing(tmp_path, monkeypatch):
    pytest.importorskip("pyspiel")
    sys.path.insert(0, str(ROOT))
    from benchmarks import versus_openspiel as versus

    monkeypatch.setattr(versus, "JOURNALS", tmp_path / "journal")
    monkeypatch.setitem(versus.SEARCH_ITERATIONS, "doors", (4, 6))
    row = versus.measure("doors", 2, "expert", 2, 0, 1)
    assert row["simulations"] == 6 and row["games"] == 2 and row["duels"] == 2
    assert not list((tmp_path / "journal").iterdir())  # the whole table: journal removed
    results = tmp_path / "versus.json"
    versus.keep(results, row, "python benchmarks/versus_openspiel.py --level expert", 0.5)
    text = versus.expert_markdown(json.loads(results.read_text()))
    assert "| doors | 2 | 6 | 2 |" in text
    assert "Not measured yet: favor 2p, traps 2p, shady_lady 2p, tighee 3p." in text


def test_a_script_worker_reaches_spawned_processes_by_its_module_name(monkeypatch):
    """A benchmark run as a script (`python benchmarks/levels.py`) defines its worker in
    `__main__`; the journal hands its pool the same function from `benchmarks.<script>`,
    which a spawned process can import (`--jobs 2` once failed on this)."""
    import pickle
    import types

    from benchmarks import journal, levels

    script = types.ModuleType("__main__")
    script.__file__ = levels.__file__

    def play_exploit_game(payload, index):  # what the script's own copy looks like
        raise AssertionError("the script's copy must not be the one sent")

    play_exploit_game.__module__ = "__main__"
    monkeypatch.setitem(sys.modules, "__main__", script)
    found = journal.importable(play_exploit_game)
    assert found is levels.play_exploit_game
    assert pickle.loads(pickle.dumps(found)) is levels.play_exploit_game
    # A worker of the package itself is sent as it is.
    assert journal.importable(levels.play_arena_game) is levels.play_arena_game
