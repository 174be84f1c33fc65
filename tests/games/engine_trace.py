"""A fingerprint of seeded games, step by step, for comparing two builds of the engine.

Run as a script it prints the fingerprints as JSON (the equality test runs it in a process
that loads the Python source, and compares with its own process, which runs compiled).

Every step of every game records: whose turn it is, the legal actions, the chance outcomes
with their probabilities, the chosen action's text, the observation (with its log) of the
player to move and of a spectator, every seat's observation every few steps, a resampled
history for the player to move every few steps, and the returns and scores at the end.
Where numpy is installed (the `rl` extra), also the RL tensors of the player to move and of
a spectator, which are compiled with the rules.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

import ladytiger
from ladytiger.core import CHANCE

try:
    from ladytiger.rl.encoders import encoder_for
except ImportError:  # no numpy: the rules alone
    encoder_for = None  # type: ignore[assignment]

EVERY_SEAT_EVERY = 5  # steps between full rounds of observations and resamples


def configurations() -> list[tuple[str, dict[str, Any]]]:
    return [
        (info.name, config)
        for info in ladytiger.registered_games()
        for config in info.configurations()
    ]


def _digest(record: Any) -> str:
    text = json.dumps(record, sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def trace_game(name: str, config: dict[str, Any], seed: int, max_steps: int) -> list[str]:
    """One fingerprint per step of a seeded random game (chance drawn by its odds)."""
    game = ladytiger.load_game(name, **config)
    state = game.new_initial_state()
    rng = random.Random(seed)
    encoder = encoder_for(game) if encoder_for is not None else None
    prints: list[str] = []
    for step in range(max_steps):
        if state.is_terminal():
            break
        player = state.current_player()
        record: dict[str, Any] = {
            "player": player,
            "legal": state.legal_actions(),
            "spectator": state.observation(None),
        }
        if encoder is not None:
            record["tensors"] = [
                encoder.encode_state(state, seat).tobytes().hex()
                for seat in (None, player if player >= 0 else None)
            ]
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            record["chance"] = outcomes
            actions, odds = zip(*outcomes, strict=True)
            action = rng.choices(actions, odds)[0]
        else:
            record["own"] = state.observation(player)
            action = rng.choice(record["legal"])
            if step % EVERY_SEAT_EVERY == 0:
                drawn = state.resample(player, random.Random(seed * 1000 + step))
                record["resampled"] = drawn.history()
        if step % EVERY_SEAT_EVERY == 0:
            record["seats"] = [state.observation(seat) for seat in range(game.num_players)]
        record["text"] = state.action_to_string(action)
        prints.append(_digest(record))
        state.apply_action(action)
    prints.append(_digest({"returns": state.returns(), "scores": state.scores(),
                           "history": state.history()}))
    return prints


def trace_all(games_per_config: int, max_steps: int) -> dict[str, list[list[str]]]:
    return {
        f"{name} {json.dumps(config, sort_keys=True)}": [
            trace_game(name, config, seed, max_steps) for seed in range(games_per_config)
        ]
        for name, config in configurations()
    }


if __name__ == "__main__":
    games, steps = int(sys.argv[1]), int(sys.argv[2])
    compiled = ladytiger.engine_build.engine_is_compiled()
    json.dump({"compiled": compiled, "traces": trace_all(games, steps)}, sys.stdout)
