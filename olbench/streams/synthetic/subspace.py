"""Streams for online PCA (task ``"pca"``): rows of data, no labels (y = 0).

* ``low_rank``: x_t = B' z_t + noise, B a random orthonormal k x d basis, z_t Gaussian with
  standard deviations ``spectrum`` (one per direction: their squares are the top eigenvalues
  of the covariance), noise isotropic of standard deviation ``noise`` (the covariance's
  other eigenvalue, noise^2): the gap between the k-th and the (k+1)-th eigenvalue is
  spectrum[-1]^2 - noise^2.
* ``drifting_subspace``: ``low_rank`` whose basis changes: a new random basis after each of
  ``switch_at`` (``mode="switch"``), or one turning steadily, B_t = cos(theta_t) B +
  sin(theta_t) B_perp, theta_t from 0 to ``angle`` over the stream (``mode="rotate"``; B_perp
  orthonormal rows orthogonal to B, so 2k <= d).
* ``pca_ftl_adversary``: the sequence on which follow the leader for k = 1 loses every round
  while the best fixed direction loses about half of them: linear regret (Warmuth & Kuzmin,
  JMLR 2008, Sec. 1; the alternating sequence of FTL in online linear optimisation).
"""

from __future__ import annotations

import math

import numpy as np

from olbench.component import Interval, OneOf
from olbench.streams.base import InMemoryStream
from olbench.streams.synthetic.draw import COUNT, SEED, spawn_rngs


def orthonormal_rows(rng: np.random.Generator, k: int, d: int) -> np.ndarray:
    """k orthonormal rows in R^d, uniformly distributed (QR of a Gaussian, signs fixed)."""
    Q, R = np.linalg.qr(rng.standard_normal((d, k)))
    return (Q * np.sign(np.diag(R))).T.copy()


class LowRank(InMemoryStream, key="low_rank"):
    """n rows x_t = B' z_t + noise (module docs): ``spectrum`` the standard deviations of
    the k directions of B (largest first), ``noise`` that of every direction; ``meta.u``
    is B, ``meta.extra`` the covariance's top k + 1 eigenvalues and their gap at k.

    >>> s = LowRank(n=50, d=6, spectrum=(3.0, 2.0), noise=0.1, seed=0)
    >>> s.meta.task, s.meta.u.shape, s.meta.extra["gap"]
    ('pca', (2, 6), 3.99)
    """

    task = "pca"
    constraints = {"n": COUNT, "d": Interval(2, math.inf, integer=True),
                   "noise": Interval(0, math.inf), "seed": SEED}
    display_params = ("d", "spectrum", "noise")

    def __init__(self, *, n: int = 2000, d: int = 20, spectrum=(3.0, 2.0, 1.0),
                 noise: float = 0.1, seed: int = 0):
        self.n, self.d, self.noise, self.seed = n, d, noise, seed
        self.spectrum = tuple(float(v) for v in np.atleast_1d(spectrum))
        self.validate()
        values = np.asarray(self.spectrum)
        if values.size == 0 or values.size >= d or not np.all(np.isfinite(values)) \
                or np.any(values <= 0) or np.any(np.diff(values) > 0):
            raise ValueError(f"LowRank: spectrum={list(self.spectrum)!r} must be 1 to d - 1 = "
                             f"{d - 1} positive standard deviations, largest first")

    def _build(self):
        basis_rng, z_rng, noise_rng = spawn_rngs(self.seed, 3)
        k, d, n = len(self.spectrum), int(self.d), int(self.n)
        B = orthonormal_rows(basis_rng, k, d)
        Z = z_rng.standard_normal((n, k)) * np.asarray(self.spectrum)
        X = Z @ B + float(self.noise) * noise_rng.standard_normal((n, d))
        top = [v * v + self.noise ** 2 for v in self.spectrum] + [self.noise ** 2]
        return X, np.zeros(n), {"u": B, "extra": {
            "eigenvalues": top, "gap": round(top[k - 1] - top[k], 12)}}


class DriftingSubspace(LowRank, key="drifting_subspace"):
    """:class:`LowRank` with a moving basis (module docs); ``meta.u`` is the last basis and
    ``meta.extra["bases"]`` every basis in force (switch: one per segment; rotate: the first
    and the last), ``meta.extra["switch_times"]`` the first round (1-based) of each new one.
    ``switch_at=None``: one switch, halfway.

    >>> s = DriftingSubspace(n=40, d=4, spectrum=(2.0,), noise=0.0, switch_at=(20,), seed=0)
    >>> X, _ = s.materialize(); B1, B2 = s.meta.extra["bases"]
    >>> bool(np.allclose(X[:20] - X[:20] @ B1.T @ B1, 0)), s.meta.extra["switch_times"]
    (True, [21])
    """

    constraints = {**LowRank.constraints, "mode": OneOf("switch", "rotate"),
                   "angle": Interval(0, math.inf)}
    display_params = ("d", "spectrum", "mode")

    def __init__(self, *, n: int = 2000, d: int = 20, spectrum=(3.0, 2.0, 1.0),
                 noise: float = 0.1, mode: str = "switch", switch_at=None,
                 angle: float = math.pi / 2, seed: int = 0):
        self.mode, self.angle = mode, angle
        self.switch_at = None if switch_at is None else tuple(
            int(t) for t in np.atleast_1d(switch_at))
        super().__init__(n=n, d=d, spectrum=spectrum, noise=noise, seed=seed)
        if mode == "switch" and self.switch_at is not None and (
                list(self.switch_at) != sorted(set(self.switch_at))
                or any(not 0 < t < n for t in self.switch_at)):
            raise ValueError(f"DriftingSubspace: switch_at={list(self.switch_at)!r} must be "
                             f"increasing rounds strictly between 0 and n={n}")
        if mode == "rotate" and 2 * len(self.spectrum) > d:
            raise ValueError(f"DriftingSubspace: mode='rotate' turns the k={len(self.spectrum)} "
                             f"directions towards k others orthogonal to them: 2k <= d={d}")

    def _build(self):
        basis_rng, z_rng, noise_rng = spawn_rngs(self.seed, 3)
        k, d, n = len(self.spectrum), int(self.d), int(self.n)
        Z = z_rng.standard_normal((n, k)) * np.asarray(self.spectrum)
        noise = float(self.noise) * noise_rng.standard_normal((n, d))
        if self.mode == "switch":
            at = self.switch_at if self.switch_at is not None else (n // 2,) if n > 1 else ()
            starts = [0, *at, n]
            bases = [orthonormal_rows(basis_rng, k, d) for _ in starts[:-1]]
            X = np.concatenate([Z[a:b] @ B for a, b, B in zip(starts, starts[1:], bases)])
            switches = [t + 1 for t in at]
        else:
            both = orthonormal_rows(basis_rng, 2 * k, d)
            B, away = both[:k], both[k:]
            theta = float(self.angle) * np.arange(n) / max(n - 1, 1)
            X = np.cos(theta)[:, None] * (Z @ B) + np.sin(theta)[:, None] * (Z @ away)
            bases = [B, np.cos(theta[-1]) * B + np.sin(theta[-1]) * away]
            switches = []
        return X + noise, np.zeros(n), {"u": bases[-1], "extra": {
            "bases": bases, "switch_times": switches}}


class PCAFTLAdversary(InMemoryStream, key="pca_ftl_adversary"):
    """x_1 = scale e_1 / sqrt(2), then x_t = scale e_2 for even t and scale e_1 for odd t > 1
    (d = 2): C_t's top eigenvector is always the direction just seen more often, so follow
    the leader (k = 1) plays the other one at every round from t = 2 on and loses scale^2 each
    time, while the best fixed direction loses about half the rounds: regret about
    scale^2 n / 2, linear in n.

    >>> s = PCAFTLAdversary(n=4)
    >>> s.materialize()[0].round(4).tolist()
    [[0.7071, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.0]]
    """

    task = "pca"
    constraints = {"n": COUNT, "scale": Interval(0, math.inf, low_open=True)}
    display_params = ("n",)

    def __init__(self, *, n: int = 1000, scale: float = 1.0):
        self.n, self.scale = n, scale
        self.validate()

    def _build(self):
        n = int(self.n)
        X = np.zeros((n, 2))
        X[0, 0] = 1.0 / math.sqrt(2.0)
        X[1::2, 1] = 1.0
        X[2::2, 0] = 1.0
        return float(self.scale) * X, np.zeros(n), {"extra": {}}
