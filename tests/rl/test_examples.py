"""Each example script runs; the Hoard agent beats random play."""

import runpy
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize(
    ("script", "args", "expected"),
    [
        ("openspiel_example.py", ["2"], "OpenSpiel IS-MCTS"),
        ("pettingzoo_example.py", ["favor", "1"], "episode 0: rewards"),
    ],
)
def test_example_runs(script, args, expected):
    result = subprocess.run([sys.executable, str(EXAMPLES / script), *args],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert expected in result.stdout


def test_the_trained_hoard_agent_beats_random_play():
    example = runpy.run_path(str(EXAMPLES / "train_hoard.py"))
    _, agent, random_play = example["train"](generations=5)
    assert agent > 2 * random_play
