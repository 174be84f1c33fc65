"""What kind of player each opponent is, judged from the moves the searching seat has seen.

A search bot has to assume something about how the other seats play. Rules of thumb (the
game's heuristic) model a sensible player well and a careless one badly: against a player
who moves at random, a search that expects sensible replies wastes its moves guarding
against threats that never come. So the bot weighs two hypotheses for each opponent, "plays
by the rules of thumb" and "moves at random", by how well each explains that opponent's
moves so far, and the search then draws each opponent's kind with those odds, the way it
draws the hidden cards.

Only what the searching seat saw is used. The past is replayed in worlds drawn by
`resample(seat)`, so an opponent's hidden cards are guesses; and a move is compared with
the rules of thumb by what the seat saw of it (its log lines), so a hidden choice counts
only as far as it showed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Iterator

from ladytiger.bots.heuristics import Moves, Policy
from ladytiger.core import State

# How often a rules-of-thumb player is taken to make some other move (ties broken another
# way, a rule we do not share): one odd move must not condemn a sensible player.
TREMBLE = 0.15
# Before any evidence an opponent is taken to play sensibly: guarding against a random
# player's blunders costs little, ignoring a sensible player's threats costs games.
PRIOR = 0.8
# Worlds replayed per judgement, and how many of each opponent's latest decisions count.
JUDGE_WORLDS = 2
RECENT = 30
# Neither hypothesis is ever taken as certain: a player can change their ways.
FLOOR = 0.02


def seen_by(before: State, action: int, actor: int, after: State, seat: int) -> Hashable:
    """What `seat` sees of `actor` playing `action`: its own moves fully, others' as logged.

    The log lines are the ones `observation(seat)["log"]` is built from, so two moves the
    seat cannot tell apart (a card dealt face down, a secret choice) look the same.
    """
    if actor == seat:
        return action
    return tuple(before._describe(action, actor, seat, after))


def _key(state: State, action: int, actor: int, seat: int) -> Hashable:
    after = state.clone()
    after.apply_trusted(action)
    return seen_by(state, action, actor, after, seat)


def policy_odds(
    state: State,
    seat: int,
    policy: Policy,
    rng: random.Random,
    worlds: int = JUDGE_WORLDS,
    recent: int = RECENT,
    prior: float = PRIOR,
) -> dict[int, float]:
    """For each other seat, the chance it plays by `policy` rather than at random.

    Starts from `prior` and weighs each of the seat's latest `recent` decisions (with
    more than one move) by how likely each hypothesis makes what `seat` saw of it, in
    each of `worlds` replayed worlds (the odds are averaged over them).
    """
    game = state.game
    others = [s for s in range(game.num_players) if s != seat]
    odds = {other: 0.0 for other in others}
    if not others:
        return odds
    start = math.log(prior / (1.0 - prior))
    for _ in range(worlds):
        world = state.resample(seat, rng)
        log_ratio = {other: start for other in others}
        policy_rng = random.Random(0)
        for replay, action, actor, legal in latest_decisions(world, others, recent):
            log_ratio[actor] += _log_ratio(replay, action, actor, seat, legal, policy,
                                           policy_rng)
        for other in others:
            ratio = math.exp(max(-50.0, min(50.0, log_ratio[other])))
            odds[other] += ratio / (1.0 + ratio) / worlds
    return {other: min(1.0 - FLOOR, max(FLOOR, p)) for other, p in odds.items()}


def latest_decisions(
    world: State, seats: list[int], recent: int
) -> Iterator[tuple[State, int, int, list[int]]]:
    """Replay `world` and yield each of the `recent` latest decisions of each of `seats`
    that offered more than one move: (the state before it, the move, who made it, the
    moves there were). The state yielded is the replay's own: read it, do not keep it."""
    history, actors = world.history(), world.actors()
    counted = dict.fromkeys(seats, 0)
    judged: set[int] = set()
    for index in range(len(history) - 1, -1, -1):
        actor = actors[index]
        if actor in counted and counted[actor] < recent:
            counted[actor] += 1
            judged.add(index)
    if not judged:
        return
    replay = world.game.new_initial_state()
    for index, (action, actor) in enumerate(zip(history, actors, strict=True)):
        if index in judged:
            legal = replay.legal_actions()
            if len(legal) > 1:
                yield replay, action, actor, legal
        replay.apply_trusted(action)


def _policy_choice(state: State, actor: int, legal: list[int], policy: Policy,
                   rng: random.Random) -> int:
    texts = [state.action_to_string(move) for move in legal]
    return policy(state.observation(actor, with_log=False), Moves(legal, texts), rng)


def _log_ratio(
    state: State,
    action: int,
    actor: int,
    seat: int,
    legal: list[int],
    policy: Policy,
    rng: random.Random,
) -> float:
    """log P(what seat saw | rules of thumb) - log P(what seat saw | random), one decision."""
    choice = _policy_choice(state, actor, legal, policy, rng)
    seen = _key(state, action, actor, seat)
    alike = {move for move in legal if move == action or _key(state, move, actor, seat) == seen}
    at_random = len(alike) / len(legal)
    by_policy = (1.0 - TREMBLE) * (choice in alike) + TREMBLE * at_random
    return math.log(by_policy) - math.log(at_random)


# Worlds drawn per decision for the belief over hidden cards, and how many of each
# opponent's latest decisions weigh them.
BELIEF_WORLDS = 48
BELIEF_RECENT = 8


def weighted_worlds(
    state: State,
    seat: int,
    policy: Policy,
    odds: dict[int, float],
    rng: random.Random,
    count: int = BELIEF_WORLDS,
    recent: int = BELIEF_RECENT,
) -> tuple[list[State], list[float]]:
    """Worlds drawn by `resample(seat)`, each weighted by how well it explains what the
    other seats were seen to do.

    `resample` draws the hidden cards uniformly among those the seat's observation allows;
    but a sensible player's choices say more. One who declares as soon as their hand can,
    and has not, probably holds no such hand; one who kept two cards over a third probably
    holds cards that go with them. Each world is replayed and each opponent's latest
    `recent` decisions are judged in it, under both hypotheses about that opponent: it
    plays by `policy` (with its tremble), with the odds `odds` gives, or at random. A world's
    weight is, for each opponent, the chance of all those decisions under the first
    hypothesis and under the second, mixed by those odds. The mixture is taken over the
    whole run of decisions, not decision by decision: a random player's moves agree with
    the policy in some worlds now and then, and only a world that explains all of a
    sensible player's moves should stand out.
    """
    worlds: list[State] = []
    log_weights: list[float] = []
    policy_rng = random.Random(0)
    for _ in range(count):
        world = state.resample(seat, rng)
        by_policy = dict.fromkeys(odds, 0.0)
        at_random = dict.fromkeys(odds, 0.0)
        for replay, action, actor, legal in latest_decisions(world, list(odds), recent):
            agrees = _agrees(replay, action, actor, seat, legal, policy, policy_rng)
            chance = 1.0 / len(legal)
            by_policy[actor] += math.log((1.0 - TREMBLE) * agrees + TREMBLE * chance)
            at_random[actor] += math.log(chance)
        log_weight = 0.0
        for other, sensible in odds.items():
            log_weight += _log_mix(sensible, by_policy[other], at_random[other])
        worlds.append(world)
        log_weights.append(log_weight)
    top = max(log_weights)
    return worlds, [math.exp(w - top) for w in log_weights]


def _log_mix(share: float, log_a: float, log_b: float) -> float:
    """log(share * exp(log_a) + (1 - share) * exp(log_b)), without underflow."""
    terms = [math.log(p) + x for p, x in ((share, log_a), (1.0 - share, log_b)) if p > 0.0]
    top = max(terms)
    return top + math.log(sum(math.exp(t - top) for t in terms))


def _agrees(
    state: State,
    action: int,
    actor: int,
    seat: int,
    legal: list[int],
    policy: Policy,
    rng: random.Random,
) -> bool:
    """Whether the policy, playing `actor` in `state`, makes a move `seat` would see as
    `action`."""
    choice = _policy_choice(state, actor, legal, policy, rng)
    return choice == action or _key(state, choice, actor, seat) == _key(state, action, actor,
                                                                          seat)
