"""Every ladytiger game as a PettingZoo AEC environment: `env("doors", players=2)`.

Agents are `player_0`, `player_1`, ... Each observation is a dict with a fixed-size
`observation` vector (the game's encoder applied to `observation(seat)`) and an
`action_mask` over the game's whole action space. Chance is resolved by the environment's
generator, seeded through `reset(seed=...)`. Rewards arrive at the end: the game's returns.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

import ladytiger
from ladytiger.core import CHANCE, IllegalActionError
from ladytiger.rl.encoders import encoder_for


def env(game: str, render_mode: str | None = None, **options: Any) -> LadyTigerAECEnv:
    """A fresh AEC environment for `game` with the given game options."""
    return LadyTigerAECEnv(game, render_mode=render_mode, **options)


class LadyTigerAECEnv(AECEnv):
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(self, game: str, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        self.game = ladytiger.load_game(game, **options)
        self.encoder = encoder_for(self.game)
        self.metadata = {**self.metadata, "name": f"ladytiger_{self.game.info.name}_v0"}
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(self.game.num_players)]
        actions = self.game.num_distinct_actions()
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (actions,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self.np_random, _ = seeding.np_random(None)
        self.state = self.game.new_initial_state()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        self.state = self.game.new_initial_state()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._resolve_chance()
        self.agent_selection = self._agent_to_move()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.game.num_distinct_actions(), np.int8)
        if not self.state.is_terminal() and self.state.current_player() == seat:
            mask[self.state.legal_actions()] = 1
        return {
            "observation": self.encoder.encode(self.state.observation(seat)),
            "action_mask": mask,
        }

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"{agent} must choose an action; the game is not over")
        self._cumulative_rewards[agent] = 0.0
        self.state.apply_action(int(action))
        self._resolve_chance()
        if self.state.is_terminal():
            returns = self.state.returns()
            for seat, name in enumerate(self.agents):
                self.rewards[name] = float(returns[seat])
                self.terminations[name] = True
        else:
            self.agent_selection = self._agent_to_move()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _resolve_chance(self) -> None:
        while self.state.current_player() == CHANCE:
            outcomes = self.state.chance_outcomes()
            index = self.np_random.choice(len(outcomes), p=[p for _, p in outcomes])
            self.state.apply_action(outcomes[index][0])

    def _agent_to_move(self) -> str:
        if self.state.is_terminal():
            return self.agent_selection if hasattr(self, "agent_selection") else self.agents[0]
        return self.possible_agents[self.state.current_player()]

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = "\n".join(self.state.log(None)[-5:])
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
