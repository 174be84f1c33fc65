"""Shared fixtures: every registered game in every configuration it declares."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

import ladytiger

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=25
)
settings.register_profile(
    "ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=25,
    derandomize=True,
)
settings.load_profile("ci" if os.environ.get("CI") else "default")


def all_configurations() -> list[tuple[str, dict[str, object]]]:
    return [
        (info.name, config)
        for info in ladytiger.registered_games()
        for config in info.configurations()
    ]


def config_id(value: object) -> str:
    if isinstance(value, dict):
        return ",".join(f"{k}={v}" for k, v in value.items())
    return str(value)


def pytest_generate_tests(metafunc):  # type: ignore[no-untyped-def]
    if "game_config" in metafunc.fixturenames:
        configs = all_configurations()
        metafunc.parametrize(
            "game_config",
            configs,
            ids=[f"{name}[{config_id(options)}]" for name, options in configs],
        )
