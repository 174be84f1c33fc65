"""Build of the optional compiled Tighee engine; everything else is in pyproject.toml.

The extension is optional: without a C compiler the install still succeeds and the
pure-Python engines (the reference) are used. CI checks that it was built.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "ladytiger.games._tighee_engine",
            sources=["src/ladytiger/games/_tighee_engine.c"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ]
)
