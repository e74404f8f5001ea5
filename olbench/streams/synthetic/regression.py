"""Synthetic regression streams: a noisy linear model, and the textbook's sinc curve."""

from __future__ import annotations

import math

import numpy as np

from olbench.component import Interval, OneOf
from olbench.streams.base import InMemoryStream
from olbench.streams.synthetic.draw import COUNT, SEED, draw_points, random_unit, spawn_rngs


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
    constraints = {"n": COUNT, "d": COUNT, "R": Interval(0, math.inf, low_open=True),
                   "noise": Interval(0, math.inf), "seed": SEED, "bias": OneOf(True, False)}

    def __init__(self, *, n: int = 1000, d: int = 10, R: float = 1.0, noise: float = 0.1,
                 seed: int = 0, bias: bool = False):
        self.n, self.d, self.R, self.noise, self.seed, self.bias = n, d, R, noise, seed, bias
        self.validate()

    def _build(self):
        point_rng, u_rng, noise_rng = spawn_rngs(self.seed, 3)
        u = random_unit(u_rng, int(self.d))
        X = draw_points(point_rng, int(self.n), int(self.d), float(self.R), "ball")
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
    constraints = {"n": COUNT, "low": Interval(-math.inf, math.inf),
                   "high": Interval(-math.inf, math.inf), "noise": Interval(0, math.inf),
                   "design": OneOf("uniform", "grid"), "features": OneOf("raw", "rbf"),
                   "n_centers": COUNT, "h": Interval(0, math.inf, low_open=True), "seed": SEED,
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
        x_rng, noise_rng = spawn_rngs(self.seed, 2)
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



__all__ = ["LinearRegression", "Sinc", "sinc_target"]
