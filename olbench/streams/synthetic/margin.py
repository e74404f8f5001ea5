"""Linearly separable streams with a margin and a radius guaranteed by construction.

:class:`Separable`, its noisy twin :class:`Noisy`, and :class:`NovikoffTight`, on which the
Perceptron attains Novikoff's bound exactly. :class:`MarginRadius` is the base of every
stream whose points come from :func:`~olbench.streams.synthetic.draw.separable_points`.
"""

from __future__ import annotations

import math

import numpy as np

from olbench.component import Interval, OneOf
from olbench.streams.base import InMemoryStream, margin_of
from olbench.streams.synthetic.draw import (
    COUNT,
    DISTRIBUTIONS,
    SEED,
    random_unit,
    separable_points,
    spawn_rngs,
)


class MarginRadius(InMemoryStream):
    """Shared parameters and checks of the margin-controlled streams."""

    constraints = {"n": COUNT, "d": COUNT, "gamma": Interval(0, math.inf),
                   "R": Interval(0, math.inf, low_open=True), "distribution": OneOf(*DISTRIBUTIONS),
                   "seed": SEED, "bias": OneOf(True, False)}
    display_params = ("gamma",)

    def _check_margin_radius(self) -> None:
        self.validate()
        if self.gamma > self.R:
            raise ValueError(f"{type(self).__name__}: gamma={self.gamma!r} > R={self.R!r} is "
                             f"impossible (a margin gamma needs points of norm >= gamma)")

    def _clean(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[np.random.Generator]]:
        """u, the clean separable (X, y), and spare generators for the subclass."""
        point_rng, u_rng, *spare = spawn_rngs(self.seed, 5)
        u = random_unit(u_rng, int(self.d))
        X, y = separable_points(point_rng, u, int(self.n), float(self.gamma), float(self.R),
                                self.distribution)
        return u, X, y, spare


class Separable(MarginRadius, key="separable"):
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


class Noisy(MarginRadius, key="noisy"):
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

    constraints = {**MarginRadius.constraints,
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

    constraints = {"k": COUNT, "R": Interval(0, math.inf, low_open=True),
                   "passes": COUNT, "seed": SEED}

    def __init__(self, *, k: int = 100, R: float = 1.0, passes: int = 1, seed: int = 0):
        self.k, self.R, self.passes, self.seed = k, R, passes, seed
        self.validate()

    def _build(self):
        k = int(self.k)
        (rng,) = spawn_rngs(self.seed, 1)
        labels = rng.choice([-1.0, 1.0], size=k)
        X = np.tile(float(self.R) * np.eye(k), (int(self.passes), 1))
        y = np.tile(labels, int(self.passes))
        return X, y, {"u": labels.copy(), "margin": float(self.R) / math.sqrt(k),
                      "extra": {"novikoff_bound": k}}


__all__ = ["MarginRadius", "Noisy", "NovikoffTight", "Separable"]
