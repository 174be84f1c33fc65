"""Every ladytiger game as an OpenSpiel Python game: `pyspiel.load_game("ladytiger_doors")`.

Importing this module registers one pyspiel game per ladytiger game, taking the game's
options (player count included) as parameters, plus `zero_sum` for games that two can
play. States wrap ours; strings and tensors hold only what the seat knows (see
`ladytiger.rl.encoders` and `ladytiger.rl.infostate`). Games, states and observers pickle,
so they cross process boundaries (vector environments, Ray workers).
"""

from __future__ import annotations

import base64
import functools
import json
import pickle
import random
import sys
from typing import Any

import numpy as np
import pyspiel

import ladytiger
from ladytiger.bots.base import Bot
from ladytiger.core import CHANCE, TERMINAL, Game, GameInfo, LadyTigerError
from ladytiger.core import State as CoreState
from ladytiger.rl.encoders import Encoder, chance_outcome, encoder_for
from ladytiger.rl.infostate import InfoStateEncoder, history_key, info_state_encoder

PREFIX = "ladytiger_"
ZERO_SUM = "zero_sum"

# pyspiel asks for the player to move several times a step, so ours is passed through as is.
if (int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)) != (CHANCE, TERMINAL):
    raise ImportError("ladytiger's CHANCE and TERMINAL no longer match pyspiel's player ids")


def _offers_zero_sum(info: GameInfo) -> bool:
    return info.min_players <= 2 <= info.max_players


def game_type(
    info: GameInfo, zero_sum: bool = False, info_state_tensor: bool = False
) -> pyspiel.GameType:
    """The game's type. The registered type has both flags off; a loaded game carries its
    own, since both depend on its parameters (player count, length bound, zero_sum)."""
    information = (
        pyspiel.GameType.Information.IMPERFECT_INFORMATION
        if info.imperfect_information
        else pyspiel.GameType.Information.PERFECT_INFORMATION
    )
    parameters: dict[str, Any] = {o.name: o.default for o in info.all_options()}
    if _offers_zero_sum(info):
        parameters[ZERO_SUM] = False
    return pyspiel.GameType(
        short_name=PREFIX + info.name,
        long_name=f"ladytiger {info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information,
        # By default returns are 1 to the winner (1/k on a tie) and 0 to all on a draw or a
        # solo loss, so they do not always sum to the same constant; zero_sum=True turns a
        # two-player game into +1 / -1 (0 on a tie or a draw).
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM if zero_sum
            else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=info_state_tensor,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


class LadyTigerSpielGame(pyspiel.Game):
    """A pyspiel game wrapping one ladytiger game with fixed options."""

    info: GameInfo

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        options = dict(params or {})
        self.zero_sum = bool(options.pop(ZERO_SUM, False))
        self.inner: Game = ladytiger.load_game(self.info.name, **options)
        if self.zero_sum and self.inner.num_players != 2:
            raise LadyTigerError(
                f"zero_sum returns need two players; this game of {self.info.title} has "
                f"{self.inner.num_players}"
            )
        self.encoder: Encoder = encoder_for(self.inner)
        self.info_state: InfoStateEncoder | None = info_state_encoder(self.inner, self.encoder)
        game_info = pyspiel.GameInfo(
            num_distinct_actions=self.inner.num_distinct_actions(),
            max_chance_outcomes=self.inner.max_chance_outcomes(),
            num_players=self.inner.num_players,
            min_utility=-1.0 if self.zero_sum else 0.0,
            max_utility=1.0,
            utility_sum=0.0 if self.zero_sum else None,
            max_game_length=self.inner.max_game_length(),
        )
        parameters = dict(self.inner.options)
        if _offers_zero_sum(self.info):
            parameters[ZERO_SUM] = self.zero_sum
        kind = game_type(self.info, self.zero_sum, self.info_state is not None)
        super().__init__(kind, game_info, parameters)

    def new_initial_state(self) -> LadyTigerSpielState:
        return LadyTigerSpielState(self)

    def __reduce__(self) -> tuple[Any, ...]:
        # pyspiel's own pickling rebuilds the C++ side only and loses the Python fields.
        return (_load_game, (self.get_type().short_name, self.get_parameters()))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> LadyTigerObserver:
        if params:
            raise ValueError(f"ladytiger observers take no parameters, not {params!r}")
        if iig_obs_type is None:
            return LadyTigerObserver(self, perfect_recall=False, private=True)
        if not iig_obs_type.public_info:
            raise ValueError(
                "ladytiger observers always include the public information "
                "(public_info=False is not offered)"
            )
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError(
                "ladytiger observers show one seat's private information or none; "
                "ALL_PLAYERS is not offered"
            )
        return LadyTigerObserver(
            self,
            perfect_recall=bool(iig_obs_type.perfect_recall),
            private=iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER,
        )


class LadyTigerSpielState(pyspiel.State):
    """A pyspiel state holding a ladytiger state; every verb forwards to it."""

    def __init__(self, game: LadyTigerSpielGame, inner: CoreState | None = None) -> None:
        super().__init__(game)
        self.inner = inner if inner is not None else game.inner.new_initial_state()
        self._zero_sum = game.zero_sum
        # While a resampled state catches up on its history (see resample_from_infostate),
        # pyspiel records the actions and the inner state, already there, skips them: this
        # is the step being recorded, None otherwise.
        self._catching_up: int | None = None
        # Strings already built for the present position, by (observer kind, player):
        # searches ask for a node's key several times (OpenSpiel's IS-MCTS three times per
        # node), and every ask would otherwise walk the whole history again.
        self._strings: dict[tuple[bool, bool, int], str] = {}
        self._strings_of: CoreState | None = None
        self._strings_at = -1

    def strings(self) -> dict[tuple[bool, bool, int], str]:
        """The strings kept for the present position (emptied when the position changes)."""
        inner = self.inner
        length = len(inner._history)
        if self._strings_of is not inner or self._strings_at != length:
            self._strings = {}
            self._strings_of = inner
            self._strings_at = length
        return self._strings

    def current_player(self) -> int:
        # Our CHANCE and TERMINAL are pyspiel's ids (checked on import): no translation.
        index = self._catching_up
        if index is None:
            return self.inner.current_player()
        # pyspiel records who took each step it is given: the actor of that step.
        return self.inner._actors[index]

    def _legal_actions(self, player: int) -> list[int]:
        return self.inner.legal_actions() if player == self.inner.current_player() else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.inner.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        if self._catching_up is None:
            self.inner.apply_action(action)
        else:
            self._catching_up += 1

    def _action_to_string(self, player: int, action: int) -> str:
        return self.inner.action_to_string(action, player=CHANCE if player < 0 else player)

    def is_terminal(self) -> bool:
        return self.inner.is_terminal()

    def returns(self) -> list[float]:
        returns = self.inner.returns()
        if self._zero_sum:
            return [returns[0] - returns[1], returns[1] - returns[0]]
        return returns

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state drawn among those `player_id` cannot tell apart from this one."""
        if not 0 <= player_id < self.inner.num_players():
            raise pyspiel.SpielError(
                f"resample_from_infostate draws for a seat (0 to "
                f"{self.inner.num_players() - 1}), not for player {player_id}"
            )
        seed = int(probability_sampler() * 2**52)
        drawn = self.inner.resample(player_id, random.Random(seed))
        game = self.get_game()
        if _takes_history_text(game):
            # pyspiel keeps its own record of the steps (who took each, and what): it is
            # handed the drawn one whole, in pyspiel's own serialised form, rather than
            # step by step (two calls back into Python per step, a fifth of a search).
            replay = game.deserialize_state(_history_text(drawn))
            replay.inner = drawn
        else:
            replay = LadyTigerSpielState(game, drawn)
            replay._catching_up = 0
            for action in drawn.history():
                replay.apply_action(action)
            replay._catching_up = None
        # What `player_id` knows is the same in the drawn state (resample's contract, which
        # the tests check on freshly built strings), so are its strings: they are carried
        # over rather than built again for every simulation of a search.
        mine = self.strings()
        carried = replay.strings()
        for key, text in mine.items():
            if key[2] == player_id:
                carried[key] = text
        return replay

    # OpenSpiel's Python algorithms ask these from Python at every node: answered here
    # directly, where pyspiel's C++ would call back into Python one to three times. They
    # give pyspiel's answers exactly (a test compares both ways over every game); C++
    # callers go the usual way.
    def legal_actions(self, player: int | None = None) -> list[int]:
        inner = self.inner
        current = inner.current_player()
        if current == TERMINAL:
            return []
        if current == CHANCE:
            return [action for action, _ in inner.chance_outcomes()]
        if player is None or player == current:
            return inner.legal_actions()
        if player < 0:
            return pyspiel.State.legal_actions(self, player)  # pyspiel's own error
        return []

    def is_chance_node(self) -> bool:
        return self.inner.current_player() == CHANCE

    def information_state_string(self, player: int | None = None) -> str:
        if player is None:
            player = self.inner.current_player()
        text = self.strings().get((True, True, player)) if player >= 0 else None
        if text is None:  # built (and kept) the usual way, checks included
            text = pyspiel.State.information_state_string(self, player)
        return text

    def __str__(self) -> str:
        return json.dumps(self.inner.observation(None, with_log=False), sort_keys=True)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_replay, (self.get_game(), self.inner.history()))


class LadyTigerObserver:
    """OpenSpiel's PyObserver.

    - private, no perfect recall: the observation tensor (`observation(player)`);
    - no private information: the spectator's tensor (`observation(None)`, seats in seat
      order), whichever player asks, so it holds only public information;
    - perfect recall: the information-state tensor (observation, then the course of the
      game as the viewer knows it), where the game offers one; `set_from` raises otherwise.
    Strings follow the same split: the observation as JSON (no log); with perfect recall,
    the course of the game as the viewer knows it ("c" chance, "?" a step it does not know)
    and the observation tensor in hex.
    """

    def __init__(self, game: LadyTigerSpielGame, perfect_recall: bool, private: bool) -> None:
        self.perfect_recall = perfect_recall
        self.private = private
        self.encoder = game.encoder
        self.info_state = game.info_state
        self.game_title = game.info.title
        if perfect_recall:
            size = self.info_state.size if self.info_state is not None else 0
            pieces = self.info_state.pieces if self.info_state is not None else ()
        else:
            size, pieces = self.encoder.size, self.encoder.pieces
        self.tensor = np.zeros(size, np.float32)
        self._present = np.zeros(self.encoder.size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        start = 0
        for name, shape, _ in pieces:
            count = int(np.prod(shape))
            self.dict[name] = self.tensor[start : start + count].reshape(shape)
            start += count

    def _viewer(self, player: int) -> int | None:
        return player if self.private else None

    def set_from(self, state: LadyTigerSpielState, player: int) -> None:
        viewer = self._viewer(player)
        if not self.perfect_recall:
            self.encoder.encode_state(state.inner, viewer, self.tensor)
        elif self.info_state is None:
            raise pyspiel.SpielError(
                f"{self.game_title} with these options offers no information-state tensor "
                "(the game type's provides_information_state_tensor is False); use "
                "information_state_string, or the observation tensor"
            )
        else:
            self.info_state.encode_state(state.inner, viewer, self.tensor)

    def string_from(self, state: LadyTigerSpielState, player: int) -> str:
        strings = state.strings()
        key = (self.perfect_recall, self.private, player)
        text = strings.get(key)
        if text is None:
            text = strings[key] = self.build_string(state, player)
        return text

    def build_string(self, state: LadyTigerSpielState, player: int) -> str:
        """The string, built afresh (string_from keeps it for the position)."""
        viewer = self._viewer(player)
        if not self.perfect_recall:
            return json.dumps(
                state.inner.observation(viewer, with_log=False),
                sort_keys=True,
                separators=(",", ":"),
            )
        # Searches key their trees on this string, so it is built for speed: the course
        # of the game as the viewer knows it, then the present observation tensor (which
        # carries what the viewer learnt of a step it did not see, a revealed hand) as its
        # nonzero entries, places and values in hex: exact, and short, as tensors are sparse.
        present = self.encoder.encode_state(state.inner, viewer, self._present)
        places = np.flatnonzero(present)
        return (
            f"{history_key(state.inner, viewer)} | {places.astype(np.uint16).tobytes().hex()}"
            f" {present[places].tobytes().hex()}"
        )


class SpielBot(pyspiel.Bot):
    """Any ladytiger bot as a `pyspiel.Bot`, for OpenSpiel's evaluators and arenas.

    `SpielBot("heuristic", game, player_id=1, seed=3)` with a pyspiel game of ours; the
    bot sees `state.inner` through the same verbs as at a ladytiger table.
    """

    def __init__(self, bot: str | Bot, game: Any, player_id: int, **options: Any) -> None:
        super().__init__()
        if isinstance(bot, str):
            bot = ladytiger.load_bot(bot, game, **options)
        elif options:
            raise ValueError("options go with a bot name, not with a bot already made")
        self.bot = bot
        self.player_id = player_id

    def step(self, state: LadyTigerSpielState) -> int:
        return self.bot.step(state.inner, self.player_id)

    def restart_at(self, state: LadyTigerSpielState) -> None:
        pass  # our bots read the state they are handed and keep nothing between moves

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        pass

    def provides_policy(self) -> bool:
        return False

    def __repr__(self) -> str:
        return f"SpielBot({self.bot!r}, player {self.player_id})"


class RolloutEvaluator:
    """OpenSpiel's MCTS/IS-MCTS evaluator interface (`evaluate`, `prior`) with random
    rollouts played on the ladytiger state itself, not through the pyspiel wrapper: the
    same estimate as `mcts.RandomRolloutEvaluator(1, ...)`, for a fraction of the cost in
    long games, where the rollouts are nearly all of a search's time."""

    def __init__(self, n_rollouts: int = 1, seed: int | None = None) -> None:
        self.n_rollouts = n_rollouts
        self.rng = random.Random(seed)

    def evaluate(self, state: LadyTigerSpielState) -> np.ndarray:
        total = np.zeros(state.num_players())
        for _ in range(self.n_rollouts):
            world = state.inner.clone()
            draw = self.rng.random
            while True:
                player = world.current_player()
                if player == TERMINAL:
                    break
                if player == CHANCE:
                    # One uniform number walked along the probabilities: the same law as a
                    # weighted choice, without building two lists at every chance node.
                    action = chance_outcome(world.chance_outcomes(), draw())
                else:
                    legal = world.legal_actions()
                    action = legal[int(draw() * len(legal))]
                world.apply_trusted(action)
            returns = world.returns()
            if state._zero_sum:
                returns = [returns[0] - returns[1], returns[1] - returns[0]]
            total += returns
        return total / self.n_rollouts

    def prior(self, state: LadyTigerSpielState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(legal)) for action in legal]


def make_bot(name: str, game: Any, player_id: int, **options: Any) -> SpielBot:
    """`load_bot`'s bot named `name` as a pyspiel.Bot playing seat `player_id` of `game`."""
    return SpielBot(name, game, player_id, **options)


def _load_game(short_name: str, parameters: dict[str, Any]) -> LadyTigerSpielGame:
    return pyspiel.load_game(short_name, parameters)  # type: ignore[no-any-return]


def _replay(game: LadyTigerSpielGame, history: list[int]) -> LadyTigerSpielState:
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


_EMPTY_FIELDS = base64.b64encode(pickle.dumps({})).decode("ascii")
_HISTORY_TEXT_WORKS: list[bool] = []


@functools.cache
def _step_text(actor: int, action: int) -> str:
    return f"{actor}:{action}"


def _history_text(inner: CoreState) -> str:
    """`inner`'s steps in the form pyspiel's Python-game states serialise to (the Python
    fields left empty: the caller sets them)."""
    steps = inner._history
    return (
        f"history={','.join(map(_step_text, inner._actors, steps))}\n"
        f"move_number={len(steps)}\n__dict__={_EMPTY_FIELDS}"
    )


def _takes_history_text(game: LadyTigerSpielGame) -> bool:
    """Whether this pyspiel reads a state's record of steps from `_history_text` (checked
    once on a short game against steps applied one by one; if not, resampled states catch
    up step by step)."""
    if not _HISTORY_TEXT_WORKS:
        works = False
        try:
            played = game.new_initial_state()
            for _ in range(3):
                if played.is_terminal():
                    break
                played.apply_action(played.legal_actions()[0])
            read = game.deserialize_state(_history_text(played.inner))
            works = isinstance(read, LadyTigerSpielState) and (
                [(s.player, s.action) for s in read.full_history()]
                == [(s.player, s.action) for s in played.full_history()]
                and read.move_number() == played.move_number()
            )
        except (pyspiel.SpielError, RuntimeError, ValueError):
            works = False
        _HISTORY_TEXT_WORKS.append(works)
    return _HISTORY_TEXT_WORKS[0]


def _class_name(info: GameInfo) -> str:
    return f"{info.title.replace(' ', '')}SpielGame"


def register_all() -> list[str]:
    """Register every ladytiger game with pyspiel (idempotent); return their short names.

    Each game's class is made a named attribute of this module, so pickle finds it.
    """
    names = []
    registered = set(pyspiel.registered_names())
    module = sys.modules[__name__]
    for info in ladytiger.registered_games():
        short_name = PREFIX + info.name
        class_name = _class_name(info)
        game_class = getattr(module, class_name, None)
        if game_class is None:
            game_class = type(class_name, (LadyTigerSpielGame,), {"info": info,
                                                                  "__module__": __name__})
            setattr(module, class_name, game_class)
        if short_name not in registered:
            pyspiel.register_game(game_type(info), game_class)
        names.append(short_name)
    return names


register_all()
