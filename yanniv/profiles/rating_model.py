"""The openskill model and the rating arithmetic; no database here so tests can mirror it."""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

from yanniv.profiles.models import MU0, SIGMA0

#: PlackettLuce handles free-for-all matches of any size, which is what a YANNIV table is.
MODEL = PlackettLuce(mu=MU0, sigma=SIGMA0)


def ordinal(mu: float, sigma: float) -> float:
    """Conservative skill estimate mu - 3 sigma (openskill's `ordinal`): what the board sorts by."""
    return MODEL.rating(mu=mu, sigma=sigma).ordinal()


def rate(ratings: Sequence[tuple[float, float]], ranks: Sequence[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) for each player of one match; `ranks` 1 = winner, equal ranks = tie."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    new = MODEL.rate(teams, ranks=list(ranks))
    return [(team[0].mu, team[0].sigma) for team in new]
