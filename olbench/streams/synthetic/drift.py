"""A separable stream whose generating vector moves: gradual rotation or abrupt switches."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from olbench.component import Interval, IsInstance, OneOf
from olbench.features import row_norms
from olbench.streams.synthetic.draw import random_unit, separable_points, spawn_rngs
from olbench.streams.synthetic.margin import MarginRadius


class Drift(MarginRadius, key="drift"):
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

    constraints = {**MarginRadius.constraints, "mode": OneOf("rotate", "switch"),
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
        _, u_rng = spawn_rngs(self.seed, 2)       # the points use child 0 of the same seed
        if self.mode == "rotate":
            u0 = random_unit(u_rng, d)
            v = random_unit(u_rng, d)
            v -= (v @ u0) * u0
            v /= np.linalg.norm(v)
            theta = np.radians(float(self.angle)) * np.arange(n) / max(n - 1, 1)
            U = np.cos(theta)[:, None] * u0 + np.sin(theta)[:, None] * v
        else:
            bounds = [0, *self._switch_times(), n]
            U = np.concatenate([np.tile(random_unit(u_rng, d), (hi - lo, 1))
                                for lo, hi in zip(bounds[:-1], bounds[1:])])
        U /= row_norms(U)[:, None]
        if self.bias:
            U = np.hstack([U, np.zeros((n, 1))])
        return U

    def _build(self):
        U = self.generating_vectors()[:, :int(self.d)]
        point_rng, _ = spawn_rngs(self.seed, 2)
        X, y = separable_points(point_rng, U, int(self.n), float(self.gamma), float(self.R),
                                self.distribution)
        margin = float(np.min(y * np.einsum("ij,ij->i", X, U)))
        return X, y, {"margin": margin,
                      "extra": {"switch_times": self._switch_times(), "gamma": float(self.gamma),
                                "R": float(self.R), "mode": self.mode}}


__all__ = ["Drift"]
