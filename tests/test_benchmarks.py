"""The engine benchmark runs end to end (its figures are reported, never asserted here)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

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
