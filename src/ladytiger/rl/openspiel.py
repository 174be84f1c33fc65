"""Every ladytiger game as an OpenSpiel Python game: `pyspiel.load_game("ladytiger_doors")`.

Importing this module registers one pyspiel game per ladytiger game, taking the game's
options (player count included) as parameters. States wrap ours; observations, strings and
tensors come only from `observation(seat)`.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

import ladytiger
from ladytiger.core import CHANCE, TERMINAL, Game, GameInfo
from ladytiger.core import State as CoreState
from ladytiger.rl.encoders import Encoder, encoder_for

PREFIX = "ladytiger_"


def game_type(info: GameInfo) -> pyspiel.GameType:
    information = (
        pyspiel.GameType.Information.IMPERFECT_INFORMATION
        if info.imperfect_information
        else pyspiel.GameType.Information.PERFECT_INFORMATION
    )
    return pyspiel.GameType(
        short_name=PREFIX + info.name,
        long_name=f"ladytiger {info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information,
        # Returns are 1 to the winner (1/k on a tie) and 0 to all on a draw or a solo loss,
        # so they do not always sum to the same constant.
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={o.name: o.default for o in info.all_options()},
    )


class LadyTigerSpielGame(pyspiel.Game):
    """A pyspiel game wrapping one ladytiger game with fixed options."""

    info: GameInfo

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.inner: Game = ladytiger.load_game(self.info.name, **(params or {}))
        self.encoder: Encoder = encoder_for(self.inner)
        game_info = pyspiel.GameInfo(
            num_distinct_actions=self.inner.num_distinct_actions(),
            max_chance_outcomes=self.inner.max_chance_outcomes(),
            num_players=self.inner.num_players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=self.inner.max_game_length(),
        )
        super().__init__(game_type(self.info), game_info, dict(self.inner.options))

    def new_initial_state(self) -> LadyTigerSpielState:
        return LadyTigerSpielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> LadyTigerObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return LadyTigerObserver(self.encoder, perfect_recall)


class LadyTigerSpielState(pyspiel.State):
    """A pyspiel state holding a ladytiger state; every verb forwards to it."""

    def __init__(self, game: LadyTigerSpielGame, inner: CoreState | None = None) -> None:
        super().__init__(game)
        self.inner = inner if inner is not None else game.inner.new_initial_state()

    def current_player(self) -> int:
        player = self.inner.current_player()
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        if player == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        return player

    def _legal_actions(self, player: int) -> list[int]:
        return self.inner.legal_actions() if player == self.inner.current_player() else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.inner.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.inner.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.inner.action_to_string(action, CHANCE if player < 0 else player)

    def is_terminal(self) -> bool:
        return self.inner.is_terminal()

    def returns(self) -> list[float]:
        return self.inner.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state drawn among those `player_id` cannot tell apart from this one."""
        seed = int(probability_sampler() * 2**52)
        drawn = self.inner.resample(player_id, random.Random(seed))
        replay = self.get_game().new_initial_state()
        for action in drawn.history():
            replay.apply_action(action)
        return replay

    def __str__(self) -> str:
        return json.dumps(self.inner.observation(None), sort_keys=True)


class LadyTigerObserver:
    """OpenSpiel's PyObserver: a tensor and strings built from `observation(player)`."""

    def __init__(self, encoder: Encoder, perfect_recall: bool) -> None:
        self.encoder = encoder
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(encoder.size, np.float32)
        self.dict = encoder.views(self.tensor)

    def set_from(self, state: LadyTigerSpielState, player: int) -> None:
        self.tensor[:] = self.encoder.encode(state.inner.observation(player))

    def string_from(self, state: LadyTigerSpielState, player: int) -> str:
        view = state.inner.observation(player)
        if not self.perfect_recall:
            # The log is the seat's memory of the past; an observation is the present.
            view.pop("log")
        return json.dumps(view, sort_keys=True, separators=(",", ":"))


def register_all() -> list[str]:
    """Register every ladytiger game with pyspiel (idempotent); return their short names."""
    names = []
    registered = set(pyspiel.registered_names())
    for info in ladytiger.registered_games():
        short_name = PREFIX + info.name
        if short_name not in registered:
            game_class = type(
                f"{info.title.replace(' ', '')}SpielGame", (LadyTigerSpielGame,), {"info": info}
            )
            pyspiel.register_game(game_type(info), game_class)
        names.append(short_name)
    return names


register_all()
