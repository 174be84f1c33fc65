"""Ratings per game, with the Plackett-Luce model of the `openskill` library.

Plackett-Luce rates games of any number of players from their finishing order, which suits
games of one to six seats better than a two-player system such as Elo or Glicko-2. Each
(player, game) has a skill estimate `mu` and an uncertainty `sigma`; what is shown is
`1000 + 40 * (mu - 3 sigma)`: 1000 for a new player, rising as the model grows sure of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
START_MU = MODEL.mu
START_SIGMA = MODEL.sigma


@dataclass(frozen=True)
class Skill:
    mu: float = START_MU
    sigma: float = START_SIGMA
    games: int = 0

    @property
    def shown(self) -> float:
        return shown_rating(self.mu, self.sigma)


def shown_rating(mu: float, sigma: float) -> float:
    return round(1000.0 + 40.0 * (mu - 3.0 * sigma), 1)


def ranks_from_returns(returns: Sequence[float]) -> list[int]:
    """1 for the best return, equal returns sharing a rank."""
    ordered = sorted(set(returns), reverse=True)
    return [ordered.index(value) + 1 for value in returns]


def rate(skills: Sequence[Skill], returns: Sequence[float]) -> list[Skill]:
    """Each seat's skill after one game with these returns (seat order kept)."""
    if len(skills) != len(returns) or len(skills) < 2:
        raise ValueError("a rated game has two or more seats, each with a return")
    teams = [[MODEL.rating(mu=skill.mu, sigma=skill.sigma)] for skill in skills]
    updated = MODEL.rate(teams, ranks=ranks_from_returns(returns))
    return [
        Skill(team[0].mu, team[0].sigma, skill.games + 1)
        for team, skill in zip(updated, skills, strict=True)
    ]
