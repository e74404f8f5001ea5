"""Synthetic streams whose properties hold by construction: margin, radius, noise, drift.

Every stream here is deterministic in its ``seed`` (numpy ``default_rng``; one child
generator per random ingredient, so e.g. :class:`Noisy` with any noise level has the same
clean points as :class:`Separable` with the same seed) and is built in memory on first use.

* :class:`Separable`: linearly separable, margin >= gamma and radius <= R *guaranteed*.
* :class:`NovikoffTight`: x_t = R e_t with random labels; the Perceptron makes exactly
  (R/gamma)^2 mistakes, so Novikoff's bound (Novikoff 1962) is tight.
* :class:`Noisy`: :class:`Separable` with label flips (rate p) and Gaussian feature noise.
* :class:`Outliers`: :class:`Separable` with a few points of one class displaced far away.
* :class:`SugiyamaClusters`, :class:`SugiyamaOutliers`: the two-Gaussian 2-D sets of the
  PA and PA-vs-AROW figures (Sugiyama 2015, *Introduction to Statistical Machine Learning*,
  ch. 31), with and without outliers.
* :class:`Drift`: the generating vector rotates gradually or switches at chosen rounds.
* :class:`LinearRegression`, :class:`Sinc`: regression streams (Sinc: the textbook's curve
  y = sin(pi x)/(pi x) + 0.1 x + noise).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from olbench.component import Interval, IsInstance, OneOf
from olbench.features import row_norms
from olbench.streams.base import InMemoryStream, margin_of

_N = Interval(1, math.inf, integer=True)
_SEED = Interval(0, 2**63 - 1, integer=True)
DISTRIBUTIONS = ("ball", "gaussian")
_SLACK = 1e-12   # relative safety margin that turns "exact in real arithmetic" into "exact"


def _rngs(seed: int, k: int) -> list[np.random.Generator]:
    """k independent generators derived from one seed (one per random ingredient).

    Always children of ``SeedSequence(seed)``, never ``seed + 1`` and the like: seeds s and
    s + 1 then give independent streams (child i does not depend on k).
    """
    return [np.random.default_rng(s) for s in np.random.SeedSequence(int(seed)).spawn(k)]


def _unit(rng: np.random.Generator, d: int) -> np.ndarray:
    while True:
        u = rng.standard_normal(d)
        norm = np.linalg.norm(u)
        if norm > 0:
            return u / norm


def _draw_points(rng: np.random.Generator, n: int, d: int, R: float, distribution: str):
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
    X = _draw_points(rng, n, d, R, distribution)
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


class _MarginRadius(InMemoryStream):
    """Shared parameters and checks of the margin-controlled streams."""

    constraints = {"n": _N, "d": _N, "gamma": Interval(0, math.inf),
                   "R": Interval(0, math.inf, low_open=True), "distribution": OneOf(*DISTRIBUTIONS),
                   "seed": _SEED, "bias": OneOf(True, False)}
    display_params = ("gamma",)

    def _check_margin_radius(self) -> None:
        self.validate()
        if self.gamma > self.R:
            raise ValueError(f"{type(self).__name__}: gamma={self.gamma!r} > R={self.R!r} is "
                             f"impossible (a margin gamma needs points of norm >= gamma)")

    def _clean(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[np.random.Generator]]:
        """u, the clean separable (X, y), and spare generators for the subclass."""
        point_rng, u_rng, *spare = _rngs(self.seed, 5)
        u = _unit(u_rng, int(self.d))
        X, y = separable_points(point_rng, u, int(self.n), float(self.gamma), float(self.R),
                                self.distribution)
        return u, X, y, spare


class Separable(_MarginRadius, key="separable"):
    """Linearly separable stream with a guaranteed margin ``gamma`` and radius ``R``.

    A random unit vector u (the generating vector, ``meta.u``) and n points drawn uniformly in
    the ball of radius R (``distribution="ball"``) or from an isotropic Gaussian with typical
    norm R/2 (``"gaussian"``), then pushed out of the slab |u.x| < gamma and kept inside the
    ball (see :func:`separable_points`). Every point has y u.x >= gamma and ||x|| <= R;
    ``meta.margin`` and ``meta.radius`` report the realised values (margin >= gamma, radius <=
    R), which is what Novikoff's bound (R/gamma)^2 (Novikoff 1962) should be evaluated at.
    With ``bias=True`` a constant 1 is appended (u gets a 0 there; radius grows to <=
    sqrt(R^2 + 1)).

    >>> s = Separable(n=500, d=5, gamma=0.1, R=1.0, seed=0)
    >>> s.meta.n, s.meta.margin >= 0.1, s.meta.radius <= 1.0
    (500, True, True)
    """

    def __init__(self, *, n: int = 1000, d: int = 10, gamma: float = 0.1, R: float = 1.0,
                 distribution: str = "ball", seed: int = 0, bias: bool = False):
        self.n, self.d, self.gamma, self.R = n, d, gamma, R
        self.distribution, self.seed, self.bias = distribution, seed, bias
        self._check_margin_radius()

    def _build(self):
        u, X, y, _ = self._clean()
        return X, y, {"u": u, "extra": {"gamma": float(self.gamma), "R": float(self.R)}}


class Noisy(_MarginRadius, key="noisy"):
    """:class:`Separable` with label noise and feature noise (the agnostic setting).

    Each label is flipped independently with probability ``flip_rate`` (in [0, 0.5));
    N(0, sigma^2) noise is added to every feature. ``meta.flipped`` marks the flipped rounds
    and ``meta.clean_y`` holds the labels before flipping, so metrics can score against
    either. ``meta.margin`` is the realised margin of the noisy stream w.r.t. u (negative as
    soon as a label is flipped); ``meta.extra["clean_margin"]`` the margin of the clean
    points and labels (>= gamma). The clean points are those of ``Separable`` with the same
    seed.

    >>> s = Noisy(n=1000, d=5, gamma=0.1, flip_rate=0.1, seed=0)
    >>> int(s.meta.flipped.sum())
    89
    """

    constraints = {**_MarginRadius.constraints,
                   "flip_rate": Interval(0, 0.5, high_open=True), "sigma": Interval(0, math.inf)}

    def __init__(self, *, n: int = 1000, d: int = 10, gamma: float = 0.1, R: float = 1.0,
                 flip_rate: float = 0.1, sigma: float = 0.0, distribution: str = "ball",
                 seed: int = 0, bias: bool = False):
        self.n, self.d, self.gamma, self.R = n, d, gamma, R
        self.flip_rate, self.sigma = flip_rate, sigma
        self.distribution, self.seed, self.bias = distribution, seed, bias
        self._check_margin_radius()

    def _build(self):
        u, X_clean, y_clean, (flip_rng, noise_rng, _) = self._clean()
        flipped = flip_rng.random(len(y_clean)) < self.flip_rate
        y = np.where(flipped, -y_clean, y_clean)
        X = X_clean + self.sigma * noise_rng.standard_normal(X_clean.shape) if self.sigma \
            else X_clean
        flipped.flags.writeable = False
        y_clean.flags.writeable = False
        return X, y, {"u": u, "flipped": flipped, "clean_y": y_clean,
                      "extra": {"clean_margin": margin_of(u, X_clean, y_clean),
                                "gamma": float(self.gamma), "R": float(self.R),
                                "n_flipped": int(flipped.sum())}}


class Outliers(_MarginRadius, key="outliers"):
    """:class:`Separable` with some points of one class displaced far from their class.

    ``n_outliers`` points (or ``outlier_fraction`` of the n points, if given) of class
    ``outlier_class``, chosen at random, are moved by ``shift``: along axis ``axis`` (x[axis]
    += shift, the textbook's setup) or, with ``axis=None``, against their own label along u
    (x -= y shift u, so their margin drops by ``shift``). ``meta.extra["outliers"]`` marks
    them; ``meta.margin`` is the realised (usually negative) margin, ``extra["clean_margin"]``
    that before the displacement. See :class:`SugiyamaOutliers` for the textbook's figure.

    >>> int(Outliers(n=200, d=2, n_outliers=3, seed=1).meta.extra["outliers"].sum())
    3
    """

    constraints = {**_MarginRadius.constraints,
                   "n_outliers": Interval(0, math.inf, integer=True),
                   "outlier_fraction": Interval(0, 1, none_ok=True),
                   "outlier_class": OneOf(1, -1, 1.0, -1.0),
                   "shift": Interval(-math.inf, math.inf),
                   "axis": Interval(0, math.inf, integer=True, none_ok=True)}

    def __init__(self, *, n: int = 1000, d: int = 10, gamma: float = 0.1, R: float = 1.0,
                 n_outliers: int = 10, outlier_fraction: float | None = None,
                 outlier_class: int = 1, shift: float = 10.0, axis: int | None = None,
                 distribution: str = "ball", seed: int = 0, bias: bool = False):
        self.n, self.d, self.gamma, self.R = n, d, gamma, R
        self.n_outliers, self.outlier_fraction = n_outliers, outlier_fraction
        self.outlier_class, self.shift, self.axis = outlier_class, shift, axis
        self.distribution, self.seed, self.bias = distribution, seed, bias
        self._check_margin_radius()
        if axis is not None and axis >= d:
            raise ValueError(f"Outliers: axis={axis} is not a feature index (d={d})")

    def _build(self):
        u, X_clean, y, (pick_rng, _, _) = self._clean()
        count = (round(self.outlier_fraction * len(y)) if self.outlier_fraction is not None
                 else int(self.n_outliers))
        candidates = np.flatnonzero(y == self.outlier_class)
        if count > len(candidates):
            raise ValueError(f"Outliers: {count} outliers asked of class {self.outlier_class} "
                             f"but only {len(candidates)} of its points were drawn")
        chosen = np.sort(pick_rng.choice(candidates, size=count, replace=False))
        X = X_clean.copy()
        if self.axis is None:
            X[chosen] -= (self.shift * y[chosen])[:, None] * u
        else:
            X[chosen, int(self.axis)] += self.shift
        mask = np.zeros(len(y), dtype=bool)
        mask[chosen] = True
        return X, y, {"u": u, "extra": {"outliers": mask,
                                        "clean_margin": margin_of(u, X_clean, y),
                                        "gamma": float(self.gamma), "R": float(self.R)}}


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
                   "shift": Interval(-math.inf, math.inf), "seed": _SEED,
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
        point_rng, order_rng = _rngs(self.seed, 2)
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


class NovikoffTight(InMemoryStream, key="novikoff_tight"):
    """The stream on which the Perceptron attains Novikoff's bound (R/gamma)^2 exactly.

    x_t = R e_t for t = 1..k in d = k dimensions, with random labels y_t. For u = sum_t y_t e_t
    every round has y_t u.x_t / ||u|| = R / sqrt(k) = gamma, so (R/gamma)^2 = k; the
    Perceptron started at w = 0 sees w.x_t = 0 on each new coordinate, so (counting a zero
    margin as a mistake, the ``"novikoff"`` tie rule) it errs on every one of the k rounds.
    With ``passes > 1`` the k examples repeat; after the first pass no more mistakes are made.
    (Under the ``"libol"`` tie rule sign(0) = +1, so only the rounds with y_t = -1 err.)
    ``meta.extra["novikoff_bound"]`` = k.

    >>> s = NovikoffTight(k=16, R=2.0, seed=0)
    >>> s.meta.margin, (s.meta.radius / s.meta.margin) ** 2
    (0.5, 16.0)
    """

    display_params = ("k",)

    constraints = {"k": _N, "R": Interval(0, math.inf, low_open=True),
                   "passes": _N, "seed": _SEED}

    def __init__(self, *, k: int = 100, R: float = 1.0, passes: int = 1, seed: int = 0):
        self.k, self.R, self.passes, self.seed = k, R, passes, seed
        self.validate()

    def _build(self):
        k = int(self.k)
        (rng,) = _rngs(self.seed, 1)
        labels = rng.choice([-1.0, 1.0], size=k)
        X = np.tile(float(self.R) * np.eye(k), (int(self.passes), 1))
        y = np.tile(labels, int(self.passes))
        return X, y, {"u": labels.copy(), "margin": float(self.R) / math.sqrt(k),
                      "extra": {"novikoff_bound": k}}


class Drift(_MarginRadius, key="drift"):
    """A separable stream whose generating vector u_t moves: rotation or abrupt switches.

    ``mode="rotate"``: u_t = cos(theta_t) u_0 + sin(theta_t) v with v a random unit vector
    orthogonal to u_0 and theta_t growing linearly from 0 to ``angle`` degrees over the
    stream. ``mode="switch"``: u_t is constant between switches and a fresh random unit
    vector from each round listed in ``switch_at`` (0-based rounds; default: one switch at
    n // 2). Every round has y_t u_t.x_t >= gamma and ||x_t|| <= R (as :class:`Separable`, per
    round). There is no single generating vector: ``meta.u`` is None, ``meta.margin`` the
    realised min_t y_t u_t.x_t; :meth:`generating_vectors` gives all u_t, and
    ``meta.extra`` has ``switch_times`` (rounds where a new segment starts, [] for rotate).

    >>> s = Drift(n=400, d=3, mode="switch", switch_at=[100, 300], seed=0)
    >>> s.meta.extra["switch_times"], s.meta.margin >= 0.1
    ([100, 300], True)
    """

    constraints = {**_MarginRadius.constraints, "mode": OneOf("rotate", "switch"),
                   "angle": Interval(-math.inf, math.inf),
                   "switch_at": IsInstance(Sequence, none_ok=True)}

    def __init__(self, *, n: int = 1000, d: int = 10, gamma: float = 0.1, R: float = 1.0,
                 mode: str = "rotate", angle: float = 90.0, switch_at: Sequence[int] | None = None,
                 distribution: str = "ball", seed: int = 0, bias: bool = False):
        self.n, self.d, self.gamma, self.R = n, d, gamma, R
        self.mode, self.angle, self.switch_at = mode, angle, switch_at
        self.distribution, self.seed, self.bias = distribution, seed, bias
        self._check_margin_radius()
        times = self._switch_times()
        fractional = any(float(t) != int(t) for t in (switch_at or []) if mode == "switch")
        if fractional or any(not 0 < t < n for t in times) or times != sorted(set(times)):
            raise ValueError(f"Drift: switch_at={list(switch_at or [])} must be increasing "
                             f"rounds strictly between 0 and n={n}")
        if d < 2 and mode == "rotate":
            raise ValueError("Drift: mode='rotate' needs d >= 2")

    def _switch_times(self) -> list[int]:
        if self.mode == "rotate":
            return []
        if self.switch_at is None:
            return [int(self.n) // 2]
        return [int(t) for t in self.switch_at]

    def generating_vectors(self) -> np.ndarray:
        """u_t for every round t, shape (n, d) (with a 0 appended for the bias feature)."""
        n, d = int(self.n), int(self.d)
        _, u_rng = _rngs(self.seed, 2)       # the points use child 0 of the same seed
        if self.mode == "rotate":
            u0 = _unit(u_rng, d)
            v = _unit(u_rng, d)
            v -= (v @ u0) * u0
            v /= np.linalg.norm(v)
            theta = np.radians(float(self.angle)) * np.arange(n) / max(n - 1, 1)
            U = np.cos(theta)[:, None] * u0 + np.sin(theta)[:, None] * v
        else:
            bounds = [0, *self._switch_times(), n]
            U = np.concatenate([np.tile(_unit(u_rng, d), (hi - lo, 1))
                                for lo, hi in zip(bounds[:-1], bounds[1:])])
        U /= row_norms(U)[:, None]
        if self.bias:
            U = np.hstack([U, np.zeros((n, 1))])
        return U

    def _build(self):
        U = self.generating_vectors()[:, :int(self.d)]
        point_rng, _ = _rngs(self.seed, 2)
        X, y = separable_points(point_rng, U, int(self.n), float(self.gamma), float(self.R),
                                self.distribution)
        margin = float(np.min(y * np.einsum("ij,ij->i", X, U)))
        return X, y, {"margin": margin,
                      "extra": {"switch_times": self._switch_times(), "gamma": float(self.gamma),
                                "R": float(self.R), "mode": self.mode}}


class LinearRegression(InMemoryStream, key="linear_regression"):
    """Regression stream y_t = u.x_t + noise, x_t uniform in the ball of radius R.

    u is a random unit vector (``meta.u``, with a 0 for the bias feature); the noise is
    N(0, noise^2); ``meta.clean_y`` holds the noise-free targets u.x_t.

    >>> s = LinearRegression(n=100, d=3, noise=0.0, seed=0)
    >>> X, y = s.materialize()
    >>> float(np.abs(X @ s.meta.u - y).max())
    0.0
    """

    task = "regression"
    constraints = {"n": _N, "d": _N, "R": Interval(0, math.inf, low_open=True),
                   "noise": Interval(0, math.inf), "seed": _SEED, "bias": OneOf(True, False)}

    def __init__(self, *, n: int = 1000, d: int = 10, R: float = 1.0, noise: float = 0.1,
                 seed: int = 0, bias: bool = False):
        self.n, self.d, self.R, self.noise, self.seed, self.bias = n, d, R, noise, seed, bias
        self.validate()

    def _build(self):
        point_rng, u_rng, noise_rng = _rngs(self.seed, 3)
        u = _unit(u_rng, int(self.d))
        X = _draw_points(point_rng, int(self.n), int(self.d), float(self.R), "ball")
        clean = X @ u
        y = clean + self.noise * noise_rng.standard_normal(len(clean))
        return X, y, {"u": u, "clean_y": clean, "extra": {"noise": float(self.noise)}}


def sinc_target(x: np.ndarray) -> np.ndarray:
    """sin(pi x) / (pi x) + 0.1 x, the textbook's regression curve (value 1 at x = 0)."""
    return np.sinc(x) + 0.1 * x


class Sinc(InMemoryStream, key="sinc"):
    """The textbook's 1-D regression curve y = sin(pi x)/(pi x) + 0.1 x + N(0, noise^2).

    (Sugiyama 2015, *Introduction to Statistical Machine Learning*, the running example of
    the regression chapters: n = 50 inputs on [-3, 3], noise 0.05.) Inputs are drawn
    uniformly at random (``design="uniform"``) or evenly spaced in increasing order
    (``"grid"``). Features: ``"raw"`` is x itself; ``"rbf"`` are Gaussian bumps
    exp(-(x - c_j)^2 / (2 h^2)) at ``n_centers`` evenly spaced centres c_j on [low, high]
    with width ``h`` (the textbook's Gaussian kernel model), so a linear learner can fit the
    curve. ``meta.extra["x"]`` holds the inputs, ``meta.clean_y`` the noise-free curve.

    >>> s = Sinc(design="grid", n=7, noise=0.0, features="raw")
    >>> float(s.materialize()[1][3])
    1.0
    """

    task = "regression"
    constraints = {"n": _N, "low": Interval(-math.inf, math.inf),
                   "high": Interval(-math.inf, math.inf), "noise": Interval(0, math.inf),
                   "design": OneOf("uniform", "grid"), "features": OneOf("raw", "rbf"),
                   "n_centers": _N, "h": Interval(0, math.inf, low_open=True), "seed": _SEED,
                   "bias": OneOf(True, False)}

    def __init__(self, *, n: int = 50, low: float = -3.0, high: float = 3.0,
                 noise: float = 0.05, design: str = "uniform", features: str = "rbf",
                 n_centers: int = 50, h: float = 0.3, seed: int = 0, bias: bool = True):
        self.n, self.low, self.high, self.noise = n, low, high, noise
        self.design, self.features, self.n_centers, self.h = design, features, n_centers, h
        self.seed, self.bias = seed, bias
        self.validate()
        if not low < high:
            raise ValueError(f"Sinc: low={low!r} must be < high={high!r}")

    def _build(self):
        x_rng, noise_rng = _rngs(self.seed, 2)
        n = int(self.n)
        x = (np.linspace(self.low, self.high, n) if self.design == "grid"
             else x_rng.uniform(self.low, self.high, n))
        clean = sinc_target(x)
        y = clean + self.noise * noise_rng.standard_normal(n)
        if self.features == "raw":
            X = x[:, None]
        else:
            centers = np.linspace(self.low, self.high, int(self.n_centers))
            X = np.exp(-((x[:, None] - centers[None, :]) ** 2) / (2.0 * self.h ** 2))
        return X, y, {"clean_y": clean, "extra": {"x": x}}

