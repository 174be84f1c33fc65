"""The compiled rules and their Python source play the same games, step for step.

The equality test needs the compiled build (pip install -e . with a C compiler); on CI it
must have been built, and a missing build fails rather than skips. Under
LADYTIGER_PURE_PYTHON=1 (CI's pure-Python run) there is nothing to compare it with.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ladytiger import engine_build
from ladytiger.engine_build import (
    COMPILED_MODULES,
    MANIFEST_NAME,
    PURE_PYTHON_VARIABLE,
    decide,
    source_digest,
    source_path,
)
from tests.games import engine_trace

ROOT = Path(__file__).resolve().parents[2]
GAMES_PER_CONFIG = 3
MAX_STEPS = 5000  # every game of the suite ends long before


def _pure_python_env() -> dict[str, str]:
    return {**os.environ, PURE_PYTHON_VARIABLE: "1"}


def test_the_compiled_and_python_engines_agree_step_by_step() -> None:
    if not engine_build.engine_is_compiled():
        if os.environ.get("CI") and not os.environ.get(PURE_PYTHON_VARIABLE):
            pytest.fail(f"the rules were not compiled on CI: {engine_build.CHOICE.reason}")
        pytest.skip(f"nothing to compare: {engine_build.CHOICE.reason}")
    run = subprocess.run(
        [sys.executable, "-m", "tests.games.engine_trace", str(GAMES_PER_CONFIG), str(MAX_STEPS)],
        cwd=ROOT, env=_pure_python_env(), capture_output=True, text=True, check=True,
    )
    python = json.loads(run.stdout)
    assert python["compiled"] is False
    compiled = engine_trace.trace_all(GAMES_PER_CONFIG, MAX_STEPS)
    assert compiled.keys() == python["traces"].keys()
    for config, games in compiled.items():
        for seed, (ours, theirs) in enumerate(zip(games, python["traces"][config], strict=True)):
            first = next(
                (step for step, pair in enumerate(zip(ours, theirs, strict=False))
                 if pair[0] != pair[1]),
                None,
            )
            assert first is None and len(ours) == len(theirs), (
                f"{config}, seed {seed}: the engines part at step {first} "
                f"(lengths {len(ours)} and {len(theirs)})"
            )


def test_the_variable_makes_every_rules_module_load_from_its_source() -> None:
    # The RL tensors load only with numpy (the `rl` extra); the rules always.
    probe = (
        "import importlib, importlib.util, sys, ladytiger, ladytiger.games\n"
        "from ladytiger.engine_build import COMPILED_MODULES, engine_is_compiled\n"
        "wanted = [m for m in COMPILED_MODULES if '.rl.' not in m"
        " or importlib.util.find_spec('numpy')]\n"
        "loaded = [importlib.import_module(m) for m in wanted]\n"
        "print(engine_is_compiled(), all(m.__file__.endswith('.py') for m in loaded))"
    )
    run = subprocess.run([sys.executable, "-c", probe], env=_pure_python_env(),
                         capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["False", "True"]


# ---------------------------------------------------------------------------- the choice
def _package(tmp_path: Path, compiled: tuple[str, ...] = COMPILED_MODULES) -> Path:
    """A package tree with the listed modules' sources, fake extensions and a manifest."""
    package = tmp_path / "ladytiger"
    digests = {}
    for module in COMPILED_MODULES:
        source = source_path(module, package)
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text(f"# {module}\n")
        if module in compiled:
            source.with_name(source.stem + ".cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
            digests[module] = source_digest(source)
    (package / MANIFEST_NAME).write_text(json.dumps(digests))
    return package


def test_a_complete_current_build_is_chosen(tmp_path: Path) -> None:
    choice = decide(_package(tmp_path), environ={})
    assert choice.compiled, choice.reason


def test_the_variable_chooses_the_source_over_a_good_build(tmp_path: Path) -> None:
    choice = decide(_package(tmp_path), environ={PURE_PYTHON_VARIABLE: "1"})
    assert not choice.compiled
    assert PURE_PYTHON_VARIABLE in choice.reason
    assert decide(_package(tmp_path), environ={PURE_PYTHON_VARIABLE: "0"}).compiled


def test_a_source_edited_after_the_build_runs_as_source_with_a_reason(tmp_path: Path) -> None:
    package = _package(tmp_path)
    source_path("ladytiger.games.traps", package).write_text("# a new rule\n")
    choice = decide(package, environ={})
    assert not choice.compiled
    assert "ladytiger.games.traps was edited after it was compiled" in choice.reason


def test_one_module_left_uncompiled_means_none_is_used(tmp_path: Path) -> None:
    package = _package(tmp_path, compiled=COMPILED_MODULES[:-1])
    choice = decide(package, environ={})
    assert not choice.compiled
    assert f"{COMPILED_MODULES[-1]} was not compiled" in choice.reason


def test_no_manifest_or_a_corrupt_one_means_not_compiled(tmp_path: Path) -> None:
    package = _package(tmp_path)
    (package / MANIFEST_NAME).write_text("{not json")
    assert "unreadable" in decide(package, environ={}).reason
    (package / MANIFEST_NAME).unlink()
    assert decide(package, environ={}).reason.startswith("not compiled at install")
