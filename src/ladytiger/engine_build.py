"""Which engine runs: the rules modules compiled by mypyc, or their Python source.

The core and game modules are the one source of the rules. When the package is installed
with a C compiler at hand, setup.py compiles them with mypyc into extension modules that sit
beside the sources (and take precedence on import), and writes a manifest of the sources it
compiled. This module runs first on `import ladytiger` and decides, all or nothing:

- the compiled modules run when every one of them is present and was built from the very
  source now beside it;
- otherwise the Python source runs: nothing was compiled (no compiler, or
  LADYTIGER_PURE_PYTHON=1 at install), LADYTIGER_PURE_PYTHON=1 is set now, or a source was
  edited after the build (a warning says so: reinstall to compile again).

All or nothing because the compiled modules know each other's classes natively: a compiled
game over the Python core would make two different `State` classes.

This file only uses the standard library: setup.py reads COMPILED_MODULES from it before the
package is installed.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

# The rules and the state model: everything a playout runs through; and the tensors a
# learning loop reads at every step (rl.encoders: each game's fast path and the writers it
# is made of, which read the compiled states' fields directly when compiled with them; they
# import numpy, so they load only with the `rl` extra). Left out on purpose:
# errors.py (exceptions that inherit from two builtins), log_parts.py (a str subclass),
# registry.py and playout.py (not on the hot path), game.py (its subclasses are registered
# by a class decorator, which a compiled class cannot take), rl/encoders/__init__.py (a
# frozen dataclass with a cached property).
COMPILED_MODULES: tuple[str, ...] = (
    "ladytiger.core.options",
    "ladytiger.core.words",
    "ladytiger.core.state",
    "ladytiger.games.lady_tiger_cards",
    "ladytiger.games.doors",
    "ladytiger.games.favor",
    "ladytiger.games.hoard",
    "ladytiger.games.labyrinth",
    "ladytiger.games.shady_lady",
    "ladytiger.games.tighee",
    "ladytiger.games.traps",
    "ladytiger.rl.encoders.marks",
    "ladytiger.rl.encoders.doors",
    "ladytiger.rl.encoders.favor",
    "ladytiger.rl.encoders.hoard",
    "ladytiger.rl.encoders.labyrinth",
    "ladytiger.rl.encoders.shady_lady",
    "ladytiger.rl.encoders.tighee",
    "ladytiger.rl.encoders.traps",
)
# Written by setup.py beside this file: module name -> SHA-256 of the source compiled.
MANIFEST_NAME = "compiled_sources.json"
PURE_PYTHON_VARIABLE = "LADYTIGER_PURE_PYTHON"

_PACKAGE_DIR = Path(__file__).resolve().parent


@dataclass(frozen=True)
class EngineChoice:
    compiled: bool
    reason: str  # in words, for `ladytiger info` and the warning


def source_path(module: str, package_dir: Path = _PACKAGE_DIR) -> Path:
    """Where a module's Python source is, under the package directory."""
    parts = module.split(".")[1:]
    return package_dir.joinpath(*parts[:-1], parts[-1] + ".py")


def source_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _extension_present(module: str, package_dir: Path) -> bool:
    source = source_path(module, package_dir)
    return any(
        source.with_name(source.stem + suffix).exists()
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
    )


def decide(
    package_dir: Path = _PACKAGE_DIR,
    modules: Sequence[str] = COMPILED_MODULES,
    environ: dict[str, str] | None = None,
) -> EngineChoice:
    """Compiled or Python source, and why (nothing is imported or installed here)."""
    environ = dict(os.environ) if environ is None else environ
    if environ.get(PURE_PYTHON_VARIABLE, "") not in ("", "0"):
        return EngineChoice(False, f"{PURE_PYTHON_VARIABLE} is set: the Python source runs")
    manifest_path = package_dir / MANIFEST_NAME
    if not manifest_path.exists():
        return EngineChoice(False, "not compiled at install: the Python source runs")
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return EngineChoice(False, f"{MANIFEST_NAME} is unreadable: the Python source runs")
    missing = [m for m in modules if m not in manifest or not _extension_present(m, package_dir)]
    if missing:
        return EngineChoice(
            False, f"{missing[0]} was not compiled at install: the Python source runs"
        )
    changed = [m for m in modules if manifest[m] != source_digest(source_path(m, package_dir))]
    if changed:
        return EngineChoice(
            False,
            f"{changed[0]} was edited after it was compiled: the Python source runs "
            "(reinstall, e.g. pip install -e ., to compile it again)",
        )
    return EngineChoice(True, "compiled by mypyc from the current source")


class _SourceFirst(importlib.abc.MetaPathFinder):
    """Loads the listed modules from their .py files, passing over compiled ones beside them."""

    def __init__(self, modules: Sequence[str], package_dir: Path) -> None:
        self.paths = {module: source_path(module, package_dir) for module in modules}

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        source = self.paths.get(fullname)
        if source is None:
            return None
        return importlib.util.spec_from_file_location(fullname, source)


CHOICE = decide()
if not CHOICE.compiled:
    sys.meta_path.insert(0, _SourceFirst(COMPILED_MODULES, _PACKAGE_DIR))
    if "edited after" in CHOICE.reason:
        warnings.warn(f"ladytiger: {CHOICE.reason}", RuntimeWarning, stacklevel=2)


def engine_is_compiled() -> bool:
    """Whether the rules run compiled in this process (see `CHOICE.reason` for why not)."""
    return CHOICE.compiled and all(
        getattr(sys.modules.get(m), "__file__", "").endswith(
            tuple(importlib.machinery.EXTENSION_SUFFIXES)
        )
        for m in COMPILED_MODULES
        if m in sys.modules
    )
