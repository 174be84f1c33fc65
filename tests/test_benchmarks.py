"""The engine benchmark runs end to end (its figures are reported, never asserted here)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_quick_engine_benchmark_runs_and_prints_figures():
    done = subprocess.run(
        [sys.executable, "benchmarks/engine.py", "--quick", "--no-write"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    rows = re.findall(r"^(\S+ \dp.*?)\s+([\d,]+) steps/s", done.stdout, re.MULTILINE)
    assert rows, done.stdout
    assert all(int(figure.replace(",", "")) > 0 for _, figure in rows)
    assert "| game | steps/s |" in done.stdout


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
