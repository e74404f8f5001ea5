"""Streams with outliers: points of one class displaced far away, in d dimensions
(:class:`Outliers`, the outlier study's factors) and in the textbook's 2-D sets
(:class:`SugiyamaClusters`, :class:`SugiyamaOutliers`).
"""

from __future__ import annotations

import math

import numpy as np

from olbench.component import Interval, OneOf
from olbench.streams.base import InMemoryStream, margin_of
from olbench.streams.preprocess import Standardizer
from olbench.streams.synthetic.draw import SEED, spawn_rngs
from olbench.streams.synthetic.margin import MarginRadius


class Outliers(MarginRadius, key="outliers"):
    """:class:`Separable` with some points of one class displaced far from their class, and
    optionally label noise, a boundary away from the origin and standardised features.

    ``n_outliers`` points (or ``outlier_fraction`` of the n points, if given) of class
    ``outlier_class``, chosen at random, are moved by ``shift``: along axis ``axis`` (x[axis]
    += shift, the textbook's setup) or, with ``axis=None``, against their own label along u
    (x -= y shift u, so their margin drops by ``shift``). ``meta.extra["outliers"]`` marks
    them; ``meta.margin`` is the realised (usually negative) margin, ``extra["clean_margin"]``
    that before the displacement. See :class:`SugiyamaOutliers` for the textbook's figure.

    The factors of the outlier study (``experiments/pa_vs_arow_outliers``), all off by default:

    * ``flip_rate``: each label is then flipped independently with this probability (as
      :class:`Noisy`; ``meta.flipped`` marks the flipped rounds).
    * ``offset``: every point is translated by ``offset`` u, so the classes' boundary is the
      hyperplane u.x = offset, ``offset`` away from the origin, and a linear model needs its
      bias weight (Sugiyama's 2-D set: classes centred at x1 = -15 and -5, boundary at -10).
    * ``standardize``: each feature is then centred and divided by its standard deviation
      over the whole stream, outliers included (a look-ahead, as ``standardize`` of the file
      streams; :class:`~olbench.streams.preprocess.Standardizer`).
    * ``bias_value``: the value of the constant feature appended with ``bias=True`` (1 by
      default); its scale against the features' sets how fast a learner can move its bias.

    ``meta.clean_y`` holds the clean labels: what the generating rule sign(u.x - offset) says
    about each point as shown (before standardising). That is the label before flipping for
    every point that was not displaced, and for an outlier the side of the boundary it was
    moved to, so the clean mistake rate counts how often the learner disagrees with the
    generating rule. With ``offset`` or ``standardize`` the rule is affine in the streamed
    features, so ``meta.u`` (a direction through the origin) is None and so is the margin.

    >>> int(Outliers(n=200, d=2, n_outliers=3, seed=1).meta.extra["outliers"].sum())
    3
    >>> s = Outliers(n=200, d=2, n_outliers=3, shift=5.0, seed=1)
    >>> int((s.meta.clean_y != s.materialize()[1]).sum())      # the outliers crossed over
    3
    """

    constraints = {**MarginRadius.constraints,
                   "n_outliers": Interval(0, math.inf, integer=True),
                   "outlier_fraction": Interval(0, 1, none_ok=True),
                   "outlier_class": OneOf(1, -1, 1.0, -1.0),
                   "shift": Interval(-math.inf, math.inf),
                   "axis": Interval(0, math.inf, integer=True, none_ok=True),
                   "flip_rate": Interval(0, 0.5, high_open=True),
                   "offset": Interval(-math.inf, math.inf),
                   "standardize": OneOf(True, False),
                   "bias_value": Interval(0, math.inf, low_open=True)}

    def __init__(self, *, n: int = 1000, d: int = 10, gamma: float = 0.1, R: float = 1.0,
                 n_outliers: int = 10, outlier_fraction: float | None = None,
                 outlier_class: int = 1, shift: float = 10.0, axis: int | None = None,
                 flip_rate: float = 0.0, offset: float = 0.0, standardize: bool = False,
                 distribution: str = "ball", seed: int = 0, bias: bool = False,
                 bias_value: float = 1.0):
        self.n, self.d, self.gamma, self.R = n, d, gamma, R
        self.n_outliers, self.outlier_fraction = n_outliers, outlier_fraction
        self.outlier_class, self.shift, self.axis = outlier_class, shift, axis
        self.flip_rate, self.offset, self.standardize = flip_rate, offset, standardize
        self.distribution, self.seed, self.bias, self.bias_value = distribution, seed, bias, \
            bias_value
        self._check_margin_radius()
        if axis is not None and axis >= d:
            raise ValueError(f"Outliers: axis={axis} is not a feature index (d={d})")

    def _build(self):
        u, X_clean, y_clean, (pick_rng, flip_rng, _) = self._clean()
        count = (round(self.outlier_fraction * len(y_clean)) if self.outlier_fraction is not None
                 else int(self.n_outliers))
        candidates = np.flatnonzero(y_clean == self.outlier_class)
        if count > len(candidates):
            raise ValueError(f"Outliers: {count} outliers asked of class {self.outlier_class} "
                             f"but only {len(candidates)} of its points were drawn")
        chosen = np.sort(pick_rng.choice(candidates, size=count, replace=False))
        X = X_clean.copy()
        if self.axis is None:
            X[chosen] -= (self.shift * y_clean[chosen])[:, None] * u
        else:
            X[chosen, int(self.axis)] += self.shift
        mask = np.zeros(len(y_clean), dtype=bool)
        mask[chosen] = True
        clean_y = generating_labels(X @ u, y_clean)
        flipped = flip_rng.random(len(y_clean)) < self.flip_rate
        y = np.where(flipped, -y_clean, y_clean)
        affine = bool(self.offset) or bool(self.standardize)
        if self.offset:
            X += float(self.offset) * u
        if self.standardize:
            X = Standardizer.fit(X).apply(X)
        for arr in (flipped, clean_y):
            arr.flags.writeable = False
        return X, y, {"u": None if affine else u, "flipped": flipped, "clean_y": clean_y,
                      "extra": {"outliers": mask,
                                "clean_margin": margin_of(u, X_clean, y_clean),
                                "gamma": float(self.gamma), "R": float(self.R),
                                "n_flipped": int(flipped.sum())}}


def generating_labels(scores: np.ndarray, fallback: np.ndarray) -> np.ndarray:
    """sign(scores), the generating rule's labels, with ``fallback`` where a score is 0.

    >>> generating_labels(np.array([2.0, -0.5, 0.0]), np.array([1.0, 1.0, -1.0]))
    array([ 1., -1., -1.])
    """
    return np.where(scores == 0, fallback, np.sign(scores))


class SugiyamaClusters(InMemoryStream, key="sugiyama_clusters"):
    """Two Gaussian clusters in 2-D, as the listings of Sugiyama (2015), *Introduction to
    Statistical Machine Learning*, ch. 31 build them (Fig. 31.3/31.4; 31.7/31.8 with outliers).

    The first n/2 points (class +1) have x1 ~ N(``center_pos``, 1), the other n/2 (class -1)
    x1 ~ N(``center_neg``, 1); x2 ~ N(0, ``spread``^2) for all. Then the first ``n_outliers``
    points of class +1 are moved by ``shift`` along x1 (the listing's ``x(1:2,1) += 10``), a
    constant 1 is appended (``bias=True``: the listings' ``x(:,3) = 1``), and the rows are
    shuffled with ``seed`` (the listings' ``randperm``). ``meta.extra["outliers"]`` marks the
    moved points. Defaults: Fig. 31.4's recipe (n = 200, centres -5 and +5, spread 5).

    >>> s = SugiyamaClusters(seed=1)
    >>> s.meta.n, s.meta.d, int((s.materialize()[1] > 0).sum())
    (200, 3, 100)
    """

    constraints = {"n": Interval(2, math.inf, integer=True),
                   "center_pos": Interval(-math.inf, math.inf),
                   "center_neg": Interval(-math.inf, math.inf),
                   "spread": Interval(0, math.inf),
                   "n_outliers": Interval(0, math.inf, integer=True),
                   "shift": Interval(-math.inf, math.inf), "seed": SEED,
                   "bias": OneOf(True, False)}

    def __init__(self, *, n: int = 200, center_pos: float = -5.0, center_neg: float = 5.0,
                 spread: float = 5.0, n_outliers: int = 0, shift: float = 10.0,
                 seed: int = 0, bias: bool = True):
        self.n, self.center_pos, self.center_neg, self.spread = n, center_pos, center_neg, spread
        self.n_outliers, self.shift, self.seed, self.bias = n_outliers, shift, seed, bias
        self.validate()
        if n_outliers > n // 2:
            raise ValueError(f"{type(self).__name__}: n_outliers={n_outliers} must be at most "
                             f"n/2 = {n // 2} (the points of class +1)")

    def _build(self):
        n = int(self.n)
        half = n // 2
        point_rng, order_rng = spawn_rngs(self.seed, 2)
        X = point_rng.standard_normal((n, 2))
        X[:half, 0] += self.center_pos
        X[half:, 0] += self.center_neg
        X[:, 1] *= self.spread
        moved = np.arange(int(self.n_outliers))
        X[moved, 0] += self.shift
        y = np.where(np.arange(n) < half, 1.0, -1.0)
        mask = np.zeros(n, dtype=bool)
        mask[moved] = True
        order = order_rng.permutation(n)
        return X[order], y[order], {"extra": {"outliers": mask[order]}}


class SugiyamaOutliers(SugiyamaClusters, key="sugiyama_outliers"):
    """The 2-D outlier set of the PA-vs-AROW figure (Sugiyama 2015, ch. 31, Fig. 31.7/31.8):
    :class:`SugiyamaClusters` with the listing's constants, n = 50, class +1 at x1 = -15,
    class -1 at x1 = -5, spread 1, and its first two points moved by +10 along x1 (into the
    other class).

    >>> s = SugiyamaOutliers(seed=1)
    >>> s.meta.n, s.meta.d, int(s.meta.extra["outliers"].sum())
    (50, 3, 2)
    """

    def __init__(self, *, n: int = 50, center_pos: float = -15.0, center_neg: float = -5.0,
                 spread: float = 1.0, n_outliers: int = 2, shift: float = 10.0,
                 seed: int = 0, bias: bool = True):
        super().__init__(n=n, center_pos=center_pos, center_neg=center_neg, spread=spread,
                         n_outliers=n_outliers, shift=shift, seed=seed, bias=bias)


__all__ = ["Outliers", "SugiyamaClusters", "SugiyamaOutliers", "generating_labels"]
