"""The compiled parts of the build; everything else is in pyproject.toml.

Both are optional, and the pure-Python package (the one source of the rules) always installs:
- the core and game modules compiled by mypyc, when a C compiler and Python's headers are
  present and LADYTIGER_PURE_PYTHON is not set; a manifest of the compiled sources goes
  beside them, so that an edited source is never shadowed by an old build
  (see src/ladytiger/engine_build.py);
- the hand-written C Tighee engine (opt-in, `load_compiled_tighee`).

`ladytiger info` says which engine runs.
"""

from __future__ import annotations

import json
import os
import runpy
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
ENGINE = runpy.run_path(str(HERE / "src" / "ladytiger" / "engine_build.py"), run_name="build")
MODULES: tuple[str, ...] = ENGINE["COMPILED_MODULES"]


def say(message: str) -> None:
    # pip shows a build's output with -v, and always when the build fails.
    print(f"ladytiger build: {message}", file=sys.stderr, flush=True)


def sources() -> list[str]:
    return [f"src/{module.replace('.', '/')}.py" for module in MODULES]


def why_not_compiled() -> str | None:
    if os.environ.get(ENGINE["PURE_PYTHON_VARIABLE"], "") not in ("", "0"):
        return f"{ENGINE['PURE_PYTHON_VARIABLE']} is set"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(os.environ.get("CC", compiler).split()[0]) is None:
        return f"no C compiler ({compiler}) found"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "Python's C headers (Python.h) are not installed"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc (part of mypy) is not installed"
    return None


def engine_extensions() -> list[Extension]:
    reason = why_not_compiled()
    if reason is not None:
        say(f"the rules are not compiled ({reason}): the pure-Python engine will run")
        return []
    from mypyc.build import mypycify

    try:
        # The type check covers the compiled modules; what they import is read, not judged.
        options = ["--follow-imports=silent", "--ignore-missing-imports"]
        extensions = mypycify([*options, *sources()], opt_level="3", group_name="ladytiger")
    except (Exception, SystemExit) as error:  # mypyc exits on a type error
        say(f"mypyc could not compile the rules ({error}): the pure-Python engine will run")
        return []
    say(f"compiling {len(MODULES)} rules modules with mypyc")
    return list(extensions)


class BuildWithManifest(build_ext):
    """Builds the extensions, then records which sources the compiled modules came from."""

    def finalize_options(self) -> None:
        # Here rather than in setup(): pip runs setup.py for metadata several times, and
        # mypyc's type check and code generation are wanted only once, for the build.
        # Listing the sources (egg_info, sdist) finalizes this command too: no build then.
        listing = {"egg_info", "dist_info", "sdist"} & set(sys.argv[1:])
        modules = self.distribution.ext_modules
        if not listing and not any(ext.name == MODULES[0] for ext in modules):
            modules[:0] = engine_extensions()
        super().finalize_options()

    def run(self) -> None:
        package_dir = Path(self.get_ext_fullpath(MODULES[0])).parent.parent
        # An old manifest must not vouch for modules this build leaves uncompiled.
        (package_dir / ENGINE["MANIFEST_NAME"]).unlink(missing_ok=True)
        super().run()
        if not any(ext.name == MODULES[0] for ext in self.extensions):
            return
        digests = {
            module: ENGINE["source_digest"](HERE / path)
            for module, path in zip(MODULES, sources(), strict=True)
        }
        manifest = package_dir / ENGINE["MANIFEST_NAME"]
        manifest.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")
        self._manifest = str(manifest)

    def get_outputs(self) -> list[str]:
        manifest = getattr(self, "_manifest", None)
        return [*super().get_outputs(), *([manifest] if manifest else [])]


setup(
    ext_modules=[
        Extension(
            "ladytiger.games._tighee_engine",
            sources=["src/ladytiger/games/_tighee_engine.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
    ],
    cmdclass={"build_ext": BuildWithManifest},
)
