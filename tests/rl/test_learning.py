"""The learning example runs end to end on a tiny budget: curve printed, plot written."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("matplotlib")

from ladytiger.rl import learn_doors


def test_the_doors_learning_example_prints_a_curve_and_writes_a_plot(tmp_path, capsys):
    plot = tmp_path / "curve.png"
    curve = learn_doors.main(["--episodes", "60", "--every", "30", "--eval-games", "10",
                              "--plot", str(plot)])
    assert [episodes for episodes, _ in curve] == [0, 30, 60]
    assert all(0.0 <= rate <= 1.0 for _, rate in curve)
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "episodes      60: greedy win rate" in capsys.readouterr().out
