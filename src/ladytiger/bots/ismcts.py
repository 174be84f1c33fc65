"""Information-set Monte Carlo tree search: one generic search bot for every game.

Single-observer IS-MCTS (Cowling, Powley and Whitehouse, 2012): each iteration draws one
determinisation of the hidden state with `state.resample(seat, rng)`, walks a tree of the
searching seat's information sets with UCT, expands one node, plays the rest of the game out
at random and backs up every seat's return. Chance is sampled by its probabilities. Other
seats' moves and chance outcomes are merged by what the searching seat sees of them (the log
lines its observation would show), so an opponent's secret card or secret choice does not
split the tree; each seat's choices are scored with that seat's own return.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Hashable

from ladytiger.bots.base import Bot
from ladytiger.bots.heuristics import (
    Moves,
    Policy,
    evaluation_for,
    policy_for,
    round_points,
    search_defaults,
)
from ladytiger.bots.opponent_model import (
    BELIEF_WORLDS,
    JUDGE_WORLDS,
    PRIOR,
    policy_odds,
    seen_by,
    weighted_worlds,
)
from ladytiger.bots.registry import register_bot
from ladytiger.core import CHANCE, Game, LadyTigerError, State
from ladytiger.core.playout import random_step, sample_chance

DEFAULT_EXPLORATION = 0.7
DEFAULT_ROLLOUT_LIMIT = 400
DEFAULT_MARGIN = 0.05
# How many standard errors the search's move must beat the rules of thumb's move by, on top
# of the margin: the most visited of a dozen noisy averages is often merely the luckiest.
DEFAULT_CONFIDENCE = 2.0
ROLLOUTS = ("auto", "heuristic", "random")


class Node:
    """One information set of the searching seat.

    `edges[(player, action)]` holds [visits, total return to that player, availability];
    `children` maps what the searching seat sees of a step to the next information set.
    """

    __slots__ = ("children", "edges")

    def __init__(self) -> None:
        self.children: dict[Hashable, Node] = {}
        self.edges: dict[tuple[int, int], list[float]] = {}


def standing(scores: list[int]) -> list[float]:
    """An estimate of each seat's return from the scores, for a playout cut short.

    Each seat gets the share of the other seats it is ahead of (ties count half), scaled so
    the shares add up to 1 like returns do.
    """
    n = len(scores)
    if n == 1:
        return [0.5]
    shares = []
    for seat, mine in enumerate(scores):
        beaten = sum(
            1.0 if mine > other else 0.5 if mine == other else 0.0
            for o, other in enumerate(scores)
            if o != seat
        )
        shares.append(2.0 * beaten / ((n - 1) * n))
    return shares


@register_bot(
    "ismcts",
    "information-set Monte Carlo tree search (generic; budget in iterations or seconds)",
)
class IsmctsBot(Bot):
    name = "ismcts"

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        iterations: int | None = None,
        seconds: float | None = None,
        exploration: float = DEFAULT_EXPLORATION,
        rollout_limit: int | None = None,
        rollout: str | None = None,
        rollout_epsilon: float = 0.0,
        opponents: str = "auto",
        margin: float = DEFAULT_MARGIN,
        worlds: int | None = None,
        horizon: str = "auto",
        depth: int | None = None,
        confidence: float = DEFAULT_CONFIDENCE,
        prior: float | None = None,
        judges: int | None = None,
    ) -> None:
        super().__init__(game, seed, iterations, seconds)
        # Settings left unset take the game's own defaults where its rules of thumb name
        # some (`SEARCH_DEFAULTS`), the general ones otherwise.
        suited = search_defaults(game.info.name)
        if worlds is None:
            worlds = int(suited.get("worlds", BELIEF_WORLDS))
        if depth is None:
            depth = int(suited.get("depth", 0))
        if rollout is None:
            rollout = str(suited.get("rollout", "auto"))
        if rollout_limit is None:
            rollout_limit = int(suited.get("rollout_limit", DEFAULT_ROLLOUT_LIMIT))
        if prior is None:
            prior = float(suited.get("prior", PRIOR))
        if judges is None:
            judges = int(suited.get("judges", JUDGE_WORLDS))
        # Where the rules of thumb can judge a position, a playout cut short is scored by
        # them rather than by the bare standings.
        self.evaluate = evaluation_for(game.info.name)
        self._seat = 0
        self.exploration = float(exploration)
        self.rollout_limit = int(rollout_limit)
        if self.exploration < 0 or self.rollout_limit < 0:
            raise LadyTigerError("exploration and rollout_limit must not be negative")
        if rollout not in ROLLOUTS:
            raise LadyTigerError(
                f"rollout must be one of {', '.join(ROLLOUTS)}, not {rollout!r}"
            )
        # Playouts by each game's rules of thumb rather than at random: slower, but random
        # play can be a poor judge (in Doors a random Guesser guesses wildly). "auto" uses the
        # game's rules of thumb when it has some, random playouts otherwise.
        self.policy: Policy | None = None
        if rollout == "heuristic":
            self.policy = policy_for(game.info.name)
        elif rollout == "auto":
            try:
                self.policy = policy_for(game.info.name)
            except LadyTigerError:
                self.policy = None
        self.rollout = rollout
        # The share of playout moves made at random even with a rules-of-thumb policy: a
        # mixture hedges between opponents who play well and opponents who do not.
        self.rollout_epsilon = float(rollout_epsilon)
        if not 0.0 <= self.rollout_epsilon <= 1.0:
            raise LadyTigerError("rollout_epsilon must be between 0 and 1")
        # How other seats choose inside the tree: by UCT on their own returns ("search"), or by
        # the playout policy ("policy"). A searched opponent is scored on determinisations in
        # which the searching seat's own cards are always the true ones, so it plays as if it
        # could see them; the policy sees only its own observation.
        # "random": every other seat moves at random, in the tree and in playouts.
        # "infer" (what "auto" takes when the playouts follow rules of thumb): each other seat
        # plays by the policy or at random, drawn in each iteration with the odds its moves so
        # far give (ladytiger.bots.opponent_model). With random playouts, "auto" searches.
        if opponents not in ("auto", "search", "policy", "random", "infer"):
            raise LadyTigerError(
                f"opponents must be auto, search, policy, random or infer, not {opponents!r}"
            )
        if opponents == "auto":
            opponents = "infer" if self.policy is not None else "search"
        if opponents in ("policy", "infer") and self.policy is None:
            raise LadyTigerError(f"{game.info.title} has no rules of thumb to model opponents")
        self.opponents = opponents
        # How sure the bot is, before any evidence, that an opponent plays sensibly, and
        # in how many replayed worlds its moves are judged (opponents=infer).
        self.prior = float(prior)
        self.judges = int(judges)
        if not 0.0 < self.prior < 1.0:
            raise LadyTigerError(f"prior must lie strictly between 0 and 1, not {prior!r}")
        if self.judges < 1:
            raise LadyTigerError("judges must be at least 1")
        # Per other seat, the chance it plays by the policy (set at each step).
        self.policy_odds: dict[int, float] = {}
        self._random_seats: frozenset[int] = frozenset()
        # The searched move replaces the rules of thumb's only when its average return is
        # better by more than `margin`: a few hundred noisy playouts should not overrule a
        # sensible move on a difference they cannot measure. 0 trusts the search alone.
        self.margin = float(margin)
        self.confidence = float(confidence)
        if self.margin < 0 or self.confidence < 0:
            raise LadyTigerError("margin and confidence must not be negative")
        # With opponents modelled by the policy, each decision first draws `worlds` worlds
        # and weighs them by how well they explain the opponents' latest moves; iterations
        # then draw from those by weight (ladytiger.bots.opponent_model.weighted_worlds).
        # 0 draws every iteration's world afresh with `resample`, unweighted.
        self.worlds = int(worlds)
        if self.worlds < 0:
            raise LadyTigerError("worlds must not be negative")
        self._pool: tuple[list[State], list[float]] | None = None
        # How far an iteration looks: to the end of the game ("game"), or only until the
        # scores next change ("round"), valued by the points each seat gained against the
        # others. In a game of many short rounds (Doors' contests), a move's effect on the
        # round's few gems drowns in the noise of the rounds after it when only the final
        # win counts; the round's gems are the same signal without that noise. "auto" takes
        # "round" where the rules of thumb give a round's largest swing (`ROUND_POINTS`).
        if horizon not in ("auto", "game", "round"):
            raise LadyTigerError(f"horizon must be auto, game or round, not {horizon!r}")
        self.round_points = round_points(game.info.name)
        if horizon == "auto":
            horizon = "round" if self.round_points else "game"
        if horizon == "round" and not self.round_points:
            raise LadyTigerError(f"{game.info.title} has no rounds to stop at")
        self.horizon = horizon
        self.depth = int(depth)
        if self.depth < 0:
            raise LadyTigerError("depth must not be negative")
        self.last_iterations = 0

    def step(self, state: State, seat: int) -> int:
        self.check_turn(state, seat)
        legal = state.legal_actions()
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        root = Node()
        self._seat = seat
        clock = self.budget.start()
        rng = self.rng
        others = [other for other in range(self.game.num_players) if other != seat]
        if self.opponents == "infer":
            assert self.policy is not None
            self.policy_odds = policy_odds(state, seat, self.policy, rng, worlds=self.judges,
                                           prior=self.prior)
        else:
            sure = 0.0 if self.opponents == "random" else 1.0
            self.policy_odds = {other: sure for other in others}
        self._pool = None
        if (
            self.worlds
            and self.policy is not None
            and self.opponents in ("policy", "infer")
            and self.game.info.imperfect_information
            and others
        ):
            worlds, weights = weighted_worlds(state, seat, self.policy, self.policy_odds, rng,
                                              self.worlds)
            self._pool = (worlds, list(itertools.accumulate(weights)))
        while clock.more():
            self._iterate(state, root, seat, rng)
            clock.tick()
        self.last_iterations = clock.done
        best = self.best_action(root, seat, legal)
        if (self.margin or self.confidence) and self.policy is not None:
            sensible = self._policy_move(state, seat, legal, rng)
            if sensible != best and not self._clearly_better(root, seat, best, sensible):
                return sensible
        return best

    def _by_policy(self, player: int, seat: int, searched: int) -> bool:
        """Whether `player` moves by the rules of thumb at this point of the tree: a
        modelled opponent always, the searching seat past its searched `depth`."""
        if player != seat:
            return self.opponents in ("policy", "infer")
        return bool(self.depth) and searched >= self.depth

    def _clearly_better(self, root: Node, seat: int, best: int, sensible: int) -> bool:
        """Whether the search's move beats the rules of thumb's by more than `margin` and by
        more than `confidence` standard errors of the difference. Returns lie in [0, 1], so
        a move's variance is at most mean * (1 - mean)."""
        difference = self._mean(root, seat, best) - self._mean(root, seat, sensible)
        if difference <= self.margin:
            return False
        spread = 0.0
        for action in (best, sensible):
            visits = root.edges.get((seat, action), (0,))[0]
            mean = self._mean(root, seat, action)
            # A move the search never tried is as uncertain as a move can be.
            spread += mean * (1.0 - mean) / visits if visits else 0.25
        return difference > self.confidence * math.sqrt(spread)

    @staticmethod
    def _mean(root: Node, seat: int, action: int) -> float:
        visits, total, _ = root.edges.get((seat, action), (0, 0.0, 0))
        return total / visits if visits else 0.0

    def best_action(self, root: Node, seat: int, legal: list[int]) -> int:
        """The most visited move; among equals the better average, then the lower number."""

        def rank(action: int) -> tuple[float, float]:
            return (root.edges.get((seat, action), (0,))[0], self._mean(root, seat, action))

        return max(legal, key=rank)

    # ------------------------------------------------------------------ one iteration
    def _iterate(self, state: State, root: Node, seat: int, rng: random.Random) -> None:
        if self._pool is None:
            world = state.resample(seat, rng)
        else:
            worlds, cumulative = self._pool
            world = rng.choices(worlds, cum_weights=cumulative)[0].clone()
        # Each opponent's kind is drawn like its cards: random with the odds against the policy.
        self._random_seats = frozenset(
            other for other, odds in self.policy_odds.items() if rng.random() >= odds
        )
        node = root
        path: list[tuple[list[float], int]] = []
        start = world.scores() if self.horizon == "round" else None
        ended = False
        searched = 0
        while not world.is_terminal():
            player = world.current_player()
            if player == CHANCE:
                action = sample_chance(world, rng)
            else:
                legal = world.legal_actions()
                if len(legal) == 1:
                    action = legal[0]
                elif player in self._random_seats:
                    action = rng.choice(legal)
                elif self._by_policy(player, seat, searched):
                    action = self._policy_move(world, player, legal, rng)
                else:
                    action, edge = self._select(node, player, legal, rng)
                    path.append((edge, player))
                    searched += player == seat
            if player == seat:
                world.apply_trusted(action)
                key: Hashable = action
            else:
                before = world.clone()
                world.apply_trusted(action)
                key = seen_by(before, action, player, world, seat)
            if start is not None and world.scores() != start:
                ended = True
            child = node.children.get(key)
            if child is None:
                node.children[key] = Node()
                break
            if ended:
                break
            node = child
        if start is None:
            value = self._playout(world, rng, None)
        elif ended:
            value = self._ended_value(world, start)
        else:
            value = self._playout(world, rng, start)
        for edge, player in path:
            edge[0] += 1
            edge[1] += value[player]

    def _select(
        self, node: Node, player: int, legal: list[int], rng: random.Random
    ) -> tuple[int, list[float]]:
        """UCT over the moves available in this determinisation (availability counts)."""
        edges = node.edges
        untried: list[tuple[int, list[float]]] = []
        best: tuple[int, list[float]] | None = None
        best_score = -math.inf
        c = self.exploration
        for action in legal:
            edge = edges.get((player, action))
            if edge is None:
                edge = edges[(player, action)] = [0, 0.0, 0]
            edge[2] += 1
            visits = edge[0]
            if visits == 0:
                untried.append((action, edge))
                continue
            if untried:
                continue
            score = edge[1] / visits + c * math.sqrt(math.log(edge[2]) / visits)
            if score > best_score:
                best_score = score
                best = (action, edge)
        if untried:
            return untried[0] if len(untried) == 1 else rng.choice(untried)
        assert best is not None
        return best

    def _policy_move(
        self, world: State, player: int, legal: list[int], rng: random.Random
    ) -> int:
        if self.policy is None:
            return rng.choice(legal)
        texts = [world.action_to_string(action) for action in legal]
        return self.policy(world.observation(player, with_log=False), Moves(legal, texts), rng)

    def _round_value(self, world: State, start: list[int]) -> list[float]:
        """Each seat's gain in the round against the others' mean, mapped onto [0, 1]."""
        gains = [after - before for after, before in zip(world.scores(), start, strict=True)]
        n = len(gains)
        total = sum(gains)
        scale = 2.0 * self.round_points
        return [
            min(1.0, max(0.0, 0.5 + (gain - (total - gain) / max(1, n - 1)) / scale))
            for gain in gains
        ]

    def _playout(self, world: State, rng: random.Random, start: list[int] | None
                 ) -> list[float]:
        steps = 0
        limit = self.rollout_limit
        policy = self.policy
        epsilon = self.rollout_epsilon
        while not world.is_terminal():
            if steps >= limit:
                if start is not None:
                    return self._round_value(world, start)
                if self.evaluate is not None:
                    return self.evaluate(world.observation(self._seat, with_log=False))
                return standing(world.scores())
            player = world.current_player()
            if (
                policy is None
                or player == CHANCE
                or player in self._random_seats
                or (epsilon and rng.random() < epsilon)
            ):
                world.apply_trusted(random_step(world, rng))
            else:
                legal = world.legal_actions()
                if len(legal) == 1:
                    world.apply_trusted(legal[0])
                else:
                    world.apply_trusted(self._policy_move(world, player, legal, rng))
            steps += 1
            if start is not None and world.scores() != start:
                return self._ended_value(world, start)
        return world.returns()

    def _ended_value(self, world: State, start: list[int]) -> list[float]:
        """A round that ends the game is worth the game's result, not the round's points."""
        return world.returns() if world.is_terminal() else self._round_value(world, start)
