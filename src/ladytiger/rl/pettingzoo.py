"""Every ladytiger game as a PettingZoo AEC environment: `env("doors", players=2)`.

Wrapped as PettingZoo's classic environments are: `env(...)` is the raw environment inside
PettingZoo's `TerminateIllegalWrapper` (by default), `AssertOutOfBoundsWrapper` and
`OrderEnforcingWrapper`; `raw_env(...)` is the bare one.

Agents are `player_0`, `player_1`, ... Each observation is a dict with a fixed-size
`observation` vector (the game's tensor, built straight from the state, see
`ladytiger.rl.encoders`) and an `action_mask` over the game's whole action space (all zero
for an agent not to move). Chance is resolved by the environment's generator, seeded
through `reset(seed=...)`. Rewards arrive at the end: the game's returns, or with
`zero_sum=True` in a two-player game +1 to the winner and -1 to the loser (0 each on a tie
or a draw), PettingZoo classic's convention.

An illegal action (one the mask rules out):
- `illegal="terminate"` (the default, as in PettingZoo classic): the game ends at once,
  the agent that played it gets `illegal_reward` (-1) and the others 0, with a warning;
- `illegal="raise"`: `IllegalActionError` naming the rule, and nothing changes.

Environments pickle, so they can be built in one process and used in another.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import ladytiger
from ladytiger.core import IllegalActionError, LadyTigerError
from ladytiger.rl.encoders import encoder_for
from ladytiger.rl.encoders.marks import advance, mask_for, observation_of, play_chance

ILLEGAL_MODES = ("terminate", "raise")


def env(
    game: str,
    render_mode: str | None = None,
    illegal: str = "terminate",
    illegal_reward: float = -1.0,
    **options: Any,
) -> AECEnv:
    """A fresh AEC environment for `game`, wrapped like PettingZoo's classic games."""
    if illegal not in ILLEGAL_MODES:
        raise ValueError(f"illegal must be one of {ILLEGAL_MODES}, not {illegal!r}")
    wrapped: AECEnv = raw_env(game, render_mode=render_mode, **options)
    if illegal == "terminate":
        wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=illegal_reward)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def raw_env(game: str, render_mode: str | None = None, **options: Any) -> LadyTigerAECEnv:
    """The environment without PettingZoo's wrappers; illegal actions raise."""
    return LadyTigerAECEnv(game, render_mode=render_mode, **options)


DRAW_BLOCK = 256  # uniform numbers drawn at once for chance nodes


class LadyTigerAECEnv(AECEnv):
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        render_mode: str | None = None,
        zero_sum: bool = False,
        **options: Any,
    ) -> None:
        super().__init__()
        self.game = ladytiger.load_game(game, **options)
        if zero_sum and self.game.num_players != 2:
            raise LadyTigerError(
                f"zero_sum rewards need two players; this game has {self.game.num_players}"
            )
        self.zero_sum = zero_sum
        self.encoder = encoder_for(self.game)
        self.metadata = {**self.metadata, "name": f"ladytiger_{self.game.info.name}_v0"}
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(self.game.num_players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._actions = self.game.num_distinct_actions()
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (self._actions,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(self._actions) for agent in self.possible_agents
        }
        self.np_random, _ = seeding.np_random(None)
        self._draws: list[float] = []
        self.state = self.game.new_initial_state()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
            self._draws = []
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
        seat = self._seat[agent]
        state = self.state
        fast = self.encoder.fast
        if fast is not None:
            found = observation_of(fast, state, seat, self.encoder.size, self._actions)
            if found is not None:
                return found
        return {
            "observation": self.encoder.encode_state(state, seat),
            "action_mask": mask_for(state, seat, self._actions),
        }

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"{agent} must choose an action; the game is not over")
        self._cumulative_rewards[agent] = 0.0
        state = self.state
        to_move = advance(state, int(action), self._draws, self._refill_draws)
        if to_move < 0:  # chance is resolved: only the end is left
            returns = state.returns()
            if self.zero_sum:
                returns = [returns[0] - returns[1], returns[1] - returns[0]]
            for seat, name in enumerate(self.agents):
                self.rewards[name] = float(returns[seat])
                self.terminations[name] = True
            # Rewards come only at the end: before it, every step's rewards are zero and
            # there is nothing to accumulate.
            self._accumulate_rewards()
        else:
            self.agent_selection = self.possible_agents[to_move]
        if self.render_mode == "human":
            self.render()

    def _resolve_chance(self) -> None:
        play_chance(self.state, self._draws, self._refill_draws)

    def _refill_draws(self) -> None:
        """Put the next uniform numbers of `np_random`'s stream in `_draws`, the next one last.
        Drawn 256 at a time: one scalar draw from numpy costs as much as a whole chance node,
        and a block gives the very same numbers in the same order."""
        block = self.np_random.random(DRAW_BLOCK).tolist()
        block.reverse()
        self._draws.extend(block)

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
