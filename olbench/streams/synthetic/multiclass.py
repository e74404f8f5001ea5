"""Multiclass streams with a multiclass margin and a radius guaranteed by construction.

The multiclass margin of a point x of class y under a matrix W* (one row per class) is
W*_y . x - max_{r != y} W*_r . x (Crammer & Singer 2003); a stream is separable with margin
gamma when every point has it >= gamma for a W* with ||W*||_F = 1, and then the multiclass
Perceptron makes at most 2 (R / gamma)^2 mistakes (:mod:`olbench.bounds.multiclass`).
"""

from __future__ import annotations

import math

import numpy as np

from olbench.component import Interval
from olbench.streams.base import InMemoryStream
from olbench.streams.synthetic.draw import COUNT, SEED, draw_points, spawn_rngs

#: draws of candidate points before a margin too wide for the classes is refused
MOST_DRAWS = 2_000_000


def multiclass_margins(W: np.ndarray, X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """W_y . x_t - max_{r != y_t} W_r . x_t for every row (y: class indices 0..k-1).

    >>> multiclass_margins(np.eye(2), np.array([[2.0, 0.5]]), np.array([0])).tolist()
    [1.5]
    """
    scores = X @ W.T
    rows = np.arange(len(y))
    own = scores[rows, y]
    scores[rows, y] = -np.inf
    return own - scores.max(axis=1)


class MulticlassSeparable(InMemoryStream, key="multiclass_separable"):
    """k classes, separable with a multiclass margin >= ``gamma`` and radius <= ``R``.

    A random W* (Gaussian, scaled to ||W*||_F = 1; ``meta.u``), points drawn uniformly in the
    ball of radius R, each labelled with its top-scoring class, and the points whose margin
    W*_y . x - max_{r != y} W*_r . x is below gamma left out (drawn again): every point has
    it >= gamma, and ``meta.margin`` is the realised minimum (>= gamma), ``meta.radius`` the
    realised max ||x|| (<= R). Labels are the class codes 1..k. A gamma too wide for the
    classes to leave room (fewer than n points kept of 2,000,000 drawn) is refused.

    >>> s = MulticlassSeparable(n=300, d=5, k=3, gamma=0.05, seed=0)
    >>> s.meta.classes.tolist(), bool(s.meta.margin >= 0.05), bool(s.meta.radius <= 1.0)
    ([1.0, 2.0, 3.0], True, True)
    """

    task = "multiclass"
    constraints = {"n": COUNT, "d": COUNT, "k": Interval(2, math.inf, integer=True),
                   "gamma": Interval(0, math.inf), "R": Interval(0, math.inf, low_open=True),
                   "seed": SEED}
    display_params = ("k", "gamma")

    def __init__(self, *, n: int = 1000, d: int = 10, k: int = 4, gamma: float = 0.05,
                 R: float = 1.0, seed: int = 0):
        self.n, self.d, self.k, self.gamma, self.R, self.seed = n, d, k, gamma, R, seed
        self.validate()
        if gamma > R:
            raise ValueError(f"MulticlassSeparable: gamma={gamma!r} > R={R!r} is impossible")

    def _build(self):
        matrix_rng, point_rng = spawn_rngs(self.seed, 2)
        W = matrix_rng.standard_normal((int(self.k), int(self.d)))
        W /= np.linalg.norm(W)
        kept_X, kept_y, kept, drawn = [], [], 0, 0
        batch = max(1024, 2 * int(self.n))
        while kept < self.n:
            if drawn >= MOST_DRAWS:
                raise ValueError(
                    f"MulticlassSeparable: only {kept} of {drawn:,} points drawn had a margin "
                    f">= gamma={self.gamma!r} with k={self.k} classes in d={self.d} (R="
                    f"{self.R!r}); n={self.n} needs a smaller gamma")
            X = draw_points(point_rng, batch, int(self.d), float(self.R), "ball")
            y = np.argmax(X @ W.T, axis=1)
            ok = multiclass_margins(W, X, y) >= self.gamma
            kept_X.append(X[ok]), kept_y.append(y[ok])
            kept += int(ok.sum())
            drawn += batch
        X = np.concatenate(kept_X)[: self.n]
        y = np.concatenate(kept_y)[: self.n]
        margin = float(multiclass_margins(W, X, y).min())
        return X, 1.0 + y, {"u": W, "margin": margin,
                            "classes": np.arange(1.0, self.k + 1.0),
                            "extra": {"gamma": float(self.gamma), "R": float(self.R),
                                      "acceptance": kept / drawn}}


class MulticlassTight(InMemoryStream, key="multiclass_tight"):
    """x_t = R e_t (t = 1..m, d = m) with labels drawn uniformly from k classes: every
    round is a new coordinate, so the multiclass Perceptron, from W = 0, scores every class
    0 there and errs on all m rounds (under the ``"novikoff"`` tie rule).

    The widest margin (||W*||_F = 1) is gamma = R sqrt(k / ((k - 1) m)), attained by W* with
    W*_y = c e_t and W*_r = -c e_t / (k - 1) on coordinate t, so Crammer & Singer's bound
    2 (R / gamma)^2 = 2 m (k - 1) / k: attained exactly (= m) for k = 2, and at a ratio
    k / (2 (k - 1)) for k > 2 (``meta.extra["perceptron_bound"]``), where the bound's factor 2
    (a mistake adds 2 ||x||^2 to ||W||_F^2) is not met by this stream: the uniform update's
    ||x||^2 (1 + 1/|E|) is.

    >>> s = MulticlassTight(m=8, k=2, R=2.0, seed=0)
    >>> s.meta.extra["perceptron_bound"]
    8.0
    """

    task = "multiclass"
    constraints = {"m": COUNT, "k": Interval(2, math.inf, integer=True),
                   "R": Interval(0, math.inf, low_open=True), "seed": SEED}
    display_params = ("m", "k")

    def __init__(self, *, m: int = 100, k: int = 2, R: float = 1.0, seed: int = 0):
        self.m, self.k, self.R, self.seed = m, k, R, seed
        self.validate()

    def _build(self):
        (rng,) = spawn_rngs(self.seed, 1)
        m, k = int(self.m), int(self.k)
        y = rng.integers(0, k, size=m)
        X = float(self.R) * np.eye(m)
        W = np.full((k, m), -1.0 / (k - 1))
        W[y, np.arange(m)] = 1.0
        W /= np.linalg.norm(W)
        margin = float(multiclass_margins(W, X, y).min())
        return X, 1.0 + y, {"u": W, "margin": margin, "classes": np.arange(1.0, k + 1.0),
                            "extra": {"perceptron_bound": 2.0 * m * (k - 1) / k}}
