"""Random linear losses (the row is the gradient), or centres of quadratic losses."""

from __future__ import annotations

import math
from typing import ClassVar

import numpy as np

from olbench.component import Interval
from olbench.streams.base import InMemoryStream


class LinearLosses(InMemoryStream, key="linear_losses"):
    """Rows x_t = G (b e_1 + z_t)/||b e_1 + z_t|| with z_t ~ N(0, I_d): i.i.d. gradients of
    norm exactly G, tilted towards e_1 by ``tilt`` b (b = 0: no direction is better in
    expectation; b > 0: the best point of the ball is near -D e_1). Read by the OCO learners
    as linear losses f_t(w) = <x_t, w> (``loss="linear"``) or as the centres of quadratic
    losses (1/2)||w - x_t||^2 (``loss="quadratic"``). The labels are 0 (unused).

    >>> s = LinearLosses(n=3, d=2, G=2.0, seed=0)
    >>> np.linalg.norm(s.materialize()[0], axis=1).round(12).tolist()
    [2.0, 2.0, 2.0]
    """

    task: ClassVar[str] = "oco"
    constraints = {"n": Interval(1, math.inf, integer=True),
                   "d": Interval(1, math.inf, integer=True),
                   "G": Interval(0, math.inf, low_open=True), "tilt": Interval(0, math.inf),
                   "seed": Interval(0, 2**63 - 1, integer=True)}

    def __init__(self, *, n: int = 1000, d: int = 5, G: float = 1.0, tilt: float = 0.5,
                 seed: int = 0):
        self.n = n
        self.d = d
        self.G = G
        self.tilt = tilt
        self.seed = seed

    def value_range(self) -> tuple[float, float]:
        """Every entry is a gradient coordinate in [-G, G]."""
        return (-float(self.G), float(self.G))

    def _build(self):
        rng = np.random.default_rng(np.random.SeedSequence(int(self.seed)))
        V = rng.standard_normal((int(self.n), int(self.d)))
        V[:, 0] += self.tilt
        norms = np.linalg.norm(V, axis=1)
        norms[norms == 0] = 1.0                 # probability 0; keeps the row finite
        return self.G * V / norms[:, None], np.zeros(int(self.n)), {}
