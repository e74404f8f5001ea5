"""The random ingredients of the synthetic streams: seeded generators, unit vectors, points.

One child generator per random ingredient (:func:`spawn_rngs`), so that e.g. a stream with
noise has the same clean points as the one without; :func:`separable_points` is the
construction that guarantees a margin and a radius.

>>> rng, = spawn_rngs(0, 1)
>>> X, y = separable_points(rng, np.array([1.0, 0.0]), n=100, gamma=0.2, R=1.0)
>>> bool((y * X[:, 0]).min() >= 0.2), bool(np.linalg.norm(X, axis=1).max() <= 1.0)
(True, True)
"""

from __future__ import annotations

import math

import numpy as np

from olbench.component import Interval
from olbench.features import row_norms

#: the constraint on a count (n, d, k, passes): a positive integer
COUNT = Interval(1, math.inf, integer=True)
SEED = Interval(0, 2**63 - 1, integer=True)
DISTRIBUTIONS = ("ball", "gaussian")
_SLACK = 1e-12   # relative safety margin that turns "exact in real arithmetic" into "exact"


def spawn_rngs(seed: int, k: int) -> list[np.random.Generator]:
    """k independent generators derived from one seed (one per random ingredient).

    Always children of ``SeedSequence(seed)``, never ``seed + 1`` and the like: seeds s and
    s + 1 then give independent streams (child i does not depend on k).
    """
    return [np.random.default_rng(s) for s in np.random.SeedSequence(int(seed)).spawn(k)]


def random_unit(rng: np.random.Generator, d: int) -> np.ndarray:
    while True:
        u = rng.standard_normal(d)
        norm = np.linalg.norm(u)
        if norm > 0:
            return u / norm


def draw_points(rng: np.random.Generator, n: int, d: int, R: float, distribution: str):
    if distribution == "ball":      # uniform in the ball of radius R
        X = rng.standard_normal((n, d))
        X /= np.maximum(row_norms(X), 1e-300)[:, None]
        return X * (R * rng.random(n) ** (1.0 / d))[:, None]
    # isotropic Gaussian, per-coordinate std R / (2 sqrt(d)): typical norm R/2
    return rng.standard_normal((n, d)) * (R / (2.0 * math.sqrt(d)))


def separable_points(rng: np.random.Generator, U: np.ndarray, n: int, gamma: float, R: float,
                     distribution: str = "ball") -> tuple[np.ndarray, np.ndarray]:
    """n points and labels with y_t u_t.x_t >= gamma and ||x_t|| <= R for unit rows u_t of U.

    ``U`` is one unit vector (d,) or one per round (n, d). Construction: draw x; shrink it
    onto the sphere of radius R if outside; split x = a u + x_perp; label y = sign(a) (a fair
    coin if a = 0); move the component along u to y (gamma + |a| (R - gamma) / R), an affine
    map of [0, R] onto [gamma, R], so no point sits inside the slab and none leaves the ball
    along u; finally shrink x_perp where needed so that a^2 + ||x_perp||^2 <= R^2.
    Both guarantees hold exactly in real arithmetic; to make them hold in floating point too
    (rounding errors are ~1e-16 R), the construction aims at gamma + 1e-12 R and R (1 - 1e-12).
    When gamma is within 2e-12 R of R, both aim at (gamma + R) / 2 instead, and then hold up
    to rounding only (~1e-15 R).
    """
    gamma_aim, R_aim = gamma + _SLACK * R, R * (1.0 - _SLACK)
    if gamma_aim > R_aim:
        gamma_aim = R_aim = 0.5 * (gamma + R)
    gamma, R = gamma_aim, R_aim
    d = U.shape[-1]
    X = draw_points(rng, n, d, R, distribution)
    norms = row_norms(X)
    over = norms > R
    X[over] *= (R / norms[over])[:, None]
    a = X @ U if U.ndim == 1 else np.einsum("ij,ij->i", X, U)
    y = np.sign(a)
    ties = y == 0
    y[ties] = rng.choice([-1.0, 1.0], size=int(ties.sum()))
    Ub = np.broadcast_to(U, X.shape)
    perp = X - a[:, None] * Ub
    a_new = y * (gamma + np.abs(a) * (R - gamma) / R)
    room = np.sqrt(np.maximum(R * R - a_new * a_new, 0.0))
    pn = row_norms(perp)
    shrink = pn > room
    perp[shrink] *= (room[shrink] / pn[shrink])[:, None]
    return a_new[:, None] * Ub + perp, y


__all__ = ["COUNT", "DISTRIBUTIONS", "SEED", "draw_points", "random_unit", "separable_points",
           "spawn_rngs"]
