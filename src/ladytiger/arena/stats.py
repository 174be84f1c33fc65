"""The arena's statistics: win-rate intervals and Elo ratings from game results."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054
ELO_MEAN = 1500.0


def wilson_interval(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (a shared win counts as its share).

    It stays inside [0, 1] and behaves at 0 and 100% wins, where the normal one does not.
    """
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean and its 95% interval by the normal approximation (sample deviation), kept
    within the values seen.

    Fine for the hundreds of games a balance run plays; one value has no spread to judge.
    Near a bound the approximation spills past it: a count that is 0 in 99 games of 100
    would get an interval reaching below zero, which no designer can read. The lab knows
    no fact's possible values, so the interval is kept within the smallest and largest
    values seen.
    """
    count = len(values)
    if count == 0:
        raise ValueError("the mean of no values")
    mean = math.fsum(values) / count
    if count == 1:
        return mean, mean, mean
    variance = math.fsum((v - mean) ** 2 for v in values) / (count - 1)
    half = z * math.sqrt(variance / count)
    return mean, max(min(values), mean - half), min(max(values), mean + half)


def pairwise_scores(
    lineup: Sequence[int], returns: Sequence[float]
) -> list[tuple[int, int, float]]:
    """A game cut into duels: (bot a, bot b, a's score) for every two seats of different bots.

    A seat scores 1 against a seat whose return is lower, 1/2 on equal returns, 0 otherwise,
    so a 4-player game says who finished above whom.
    """
    duels = []
    for i, a in enumerate(lineup):
        for j in range(i + 1, len(lineup)):
            b = lineup[j]
            if a == b:
                continue
            score = 1.0 if returns[i] > returns[j] else 0.5 if returns[i] == returns[j] else 0.0
            duels.append((a, b, score))
    return duels


def elo_ratings(
    count: int, duels: Sequence[tuple[int, int, float]], iterations: int = 2000
) -> list[float]:
    """Maximum-likelihood Elo ratings (Bradley-Terry) of `count` players from their duels.

    Each pair that met gets one extra virtual draw, so a bot that won every duel still has
    a finite rating. Ratings average ELO_MEAN; bots that never met anyone get ELO_MEAN.
    """
    wins = [[0.0] * count for _ in range(count)]
    for a, b, score in duels:
        wins[a][b] += score
        wins[b][a] += 1.0 - score
    for a in range(count):
        for b in range(count):
            if a != b and (wins[a][b] + wins[b][a]) > 0:
                wins[a][b] += 0.5
    strength = [1.0] * count
    for _ in range(iterations):
        changed = 0.0
        for a in range(count):
            total = sum(wins[a])
            meetings = sum(
                (wins[a][b] + wins[b][a]) / (strength[a] + strength[b])
                for b in range(count)
                if b != a
            )
            if total <= 0 or meetings <= 0:
                continue
            new = total / meetings
            changed = max(changed, abs(new - strength[a]) / strength[a])
            strength[a] = new
        # Only ratios matter; rescaling keeps the numbers tame.
        geometric = math.exp(sum(math.log(s) for s in strength) / count)
        strength = [s / geometric for s in strength]
        if changed < 1e-10:
            break
    ratings = [400.0 * math.log10(s) for s in strength]
    shift = ELO_MEAN - sum(ratings) / count
    return [r + shift for r in ratings]
