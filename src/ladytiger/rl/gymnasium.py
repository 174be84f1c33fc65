"""Hoard, the solo game, as a Gymnasium environment: `gymnasium.make("ladytiger/Hoard-v0")`.

Import this module to register the id. Options: `difficulty` (easy, moderate, hard,
impossible) and `reward`:
- "win" (default): 1.0 when the tenth Treasure is collected, else 0.0; the game's returns.
- "treasure": 0.1 for every Treasure collected, plus the 1.0 for a win; a denser signal for
  learning, with the same best policy.

Observations are `{"observation": float32 vector, "action_mask": int8 vector}` built from
`observation(0)`; chance is drawn from the environment's generator. An action the rules
forbid changes nothing, earns nothing and is reported in `info["illegal"]` with the engine's
reason, so agents that ignore the mask still run; episodes are cut at 2,000 steps.
The environment pickles (for vector environments that start workers with `spawn`).
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces

import ladytiger
from ladytiger.core import CHANCE
from ladytiger.rl.encoders import encoder_for

ENV_ID = "ladytiger/Hoard-v0"
MAX_EPISODE_STEPS = 2000
TREASURE_REWARD = 0.1


class HoardEnv(gymnasium.Env):
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"]}

    def __init__(
        self, difficulty: str = "easy", reward: str = "win", render_mode: str | None = None
    ) -> None:
        if reward not in ("win", "treasure"):
            raise ValueError(f"reward must be 'win' or 'treasure', not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.game = ladytiger.load_game("hoard", difficulty=difficulty)
        self.encoder = encoder_for(self.game)
        self.reward_kind = reward
        self.render_mode = render_mode
        actions = self.game.num_distinct_actions()
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (actions,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(actions)
        self.state = self.game.new_initial_state()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        self.state = self.game.new_initial_state()
        self._resolve_chance()
        return self._observe(), {}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict]:
        reason = self.state.illegal_reason(int(action))
        if reason is not None:
            return self._observe(), 0.0, False, False, {"illegal": reason}
        before = self._treasure()
        self.state.apply_action(int(action))
        self._resolve_chance()
        reward = 0.0
        if self.reward_kind == "treasure":
            reward += TREASURE_REWARD * (self._treasure() - before)
        terminated = self.state.is_terminal()
        if terminated:
            reward += self.state.returns()[0]
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, terminated, False, {"score": self.state.scores()[0]}

    def _treasure(self) -> int:
        collected = self.state.observation(0, with_log=False)["collected"]
        return int(collected["red"] + collected["blue"])

    def _resolve_chance(self) -> None:
        while self.state.current_player() == CHANCE:
            outcomes = self.state.chance_outcomes()
            index = self.np_random.choice(len(outcomes), p=[p for _, p in outcomes])
            self.state.apply_action(outcomes[index][0])

    def _observe(self) -> dict[str, np.ndarray]:
        mask = np.zeros(self.game.num_distinct_actions(), np.int8)
        mask[self.state.legal_actions()] = 1
        return {
            "observation": self.encoder.encode_state(self.state, 0),
            "action_mask": mask,
        }

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = "\n".join(self.state.log(0)[-6:])
        if self.render_mode == "human":
            print(text)
            return None
        return text


if ENV_ID not in gymnasium.registry:
    gymnasium.register(
        id=ENV_ID, entry_point=HoardEnv, max_episode_steps=MAX_EPISODE_STEPS
    )
