"""ROMMA's mistake bound on separable data (Li & Long 2002), for ROMMA and aggressive ROMMA.

>>> romma_separable(R=2.0, gamma=0.5)
16.0
"""

from __future__ import annotations

from olbench.bounds.core import RunRecord, Skip, max_margin, theorem


def romma_separable(R: float, gamma: float) -> float:
    """ROMMA's and aggressive ROMMA's mistakes <= (R / gamma)^2, the Perceptron's bound.

    Source: Li & Long (2002), The relaxed online maximum margin algorithm, Machine Learning 46,
    who prove this bound for both algorithms (the theorem's number could not be checked here,
    hence the proof below). Assumptions: a unit u with
    y_t u.x_t >= gamma > 0 for all t, ||x_t|| <= R, w_1 = 0, and the paper's steps (the
    shortest vector y x / ||x||^2 from w = 0: ``libol=False``).

    Proof (re-derived here, so that what is checked is what is proved): let u* = u / gamma, so
    y_t u*.x_t >= 1 for all t. (i) By induction u* lies in every constraint set ROMMA
    minimises over: it satisfies each new constraint, and w_t, the shortest vector of a convex
    set containing u*, has u*.w_t >= ||w_t||^2 (the projection inequality), so ||w_t|| <= ||u*||
    = 1/gamma. (ii) A step keeps w_{t+1}.w_t >= ||w_t||^2, hence ||w_{t+1}||^2 >=
    ||w_t||^2 + ||w_{t+1} - w_t||^2, and ||w_{t+1} - w_t|| is at least the distance from w_t to
    {w : y_t w.x_t = 1}, (1 - y_t w_t.x_t)/||x_t|| >= 1/R on a mistake (y_t w_t.x_t <= 0);
    the first step has ||w_2||^2 = 1/||x_1||^2 >= 1/R^2. Margin steps of aggressive ROMMA and
    skipped steps do not shrink ||w||. So after M mistakes M / R^2 <= ||w||^2 <= 1/gamma^2.

    >>> romma_separable(R=1.0, gamma=0.1) == 100.0
    True
    """
    return (R / gamma) ** 2


@theorem("romma_separable", "mistakes", needs=max_margin, formula="(R/γ)²",
         source="Li & Long (2002), The relaxed online maximum margin algorithm, Machine "
                "Learning 46:361-387, mistake bound for separable data (derived in "
                "olbench.bounds.romma.romma_separable)")
def ROMMA_SEPARABLE(rec: RunRecord):
    """(R/gamma)^2 with gamma the max-margin comparator's margin, at every checkpoint."""
    if rec.params.get("libol"):
        raise Skip("the proof needs the paper's first step y x / ||x||^2 (libol=True)")
    R = rec.require_radius()
    bound = romma_separable(R, rec.separable_fit().info["gamma"])
    mistakes = rec.cum_mistakes()
    return [(T, bound, mistakes[T - 1]) for T in rec.checkpoints]
