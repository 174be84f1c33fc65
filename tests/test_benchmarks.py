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
