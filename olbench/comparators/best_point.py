"""The best fixed point of a feasible set in hindsight, for online convex optimisation."""

from __future__ import annotations

import math
from typing import ClassVar

import numpy as np
import scipy.sparse as sp

from olbench.comparators.base import Comparator
from olbench.comparators.fit import ComparatorFit
from olbench.component import Interval, OneOf
from olbench.rules.oco import LOSS_CODES
from olbench.rules.sets import SET_CODES, project_numpy


def linear_minimiser(S: np.ndarray, domain: str, radius: float) -> np.ndarray:
    """argmin_{u in K} <S, u>: -D S/||S|| (ball; 0 if S = 0), -D sign(S) (box), the vertex
    e_i of the smallest S_i, the first one on ties (simplex), -D sign(S_i) e_i for the
    largest |S_i| (l1 ball).

    >>> linear_minimiser(np.array([3.0, -4.0]), "ball", 2.0).tolist()
    [-1.2, 1.6]
    >>> linear_minimiser(np.array([3.0, -4.0]), "simplex", 1.0).tolist()
    [0.0, 1.0]
    """
    if domain == "simplex":
        u = np.zeros_like(S)
        u[int(np.argmin(S))] = 1.0
        return u
    if domain == "box":
        return -radius * np.sign(S)
    if domain == "l1":
        u = np.zeros_like(S)
        i = int(np.argmax(np.abs(S)))
        u[i] = -radius * np.sign(S[i])
        return u
    norm = float(np.linalg.norm(S))
    return -radius * S / norm if norm > 0 else np.zeros_like(S)


def linear_minimum(S: np.ndarray, domain: str, radius: float) -> float:
    """min_{u in K} <S, u>: -D ||S||_2 (ball), -D ||S||_1 (box), min_i S_i (simplex),
    -D ||S||_inf (l1 ball).

    >>> linear_minimum(np.array([3.0, -4.0]), "ball", 2.0), linear_minimum(
    ...     np.array([3.0, -4.0]), "box", 1.0)
    (-10.0, -7.0)
    """
    if domain == "simplex":
        return float(S.min())
    if domain == "box":
        return -radius * float(np.abs(S).sum())
    if domain == "l1":
        return -radius * float(np.abs(S).max())
    return -radius * float(np.linalg.norm(S))


def linear_leaders(S: np.ndarray, domain: str, radius: float) -> np.ndarray:
    """Follow the Leader's point for each row of S (a prefix sum of linear losses), with its
    tie rule (:mod:`olbench.rules.ftl`): -D S/||S|| (ball; 0 if S = 0), -D sign(S) (box),
    uniform over the smallest S_i (simplex), -D sign(S_i)/k over the k largest |S_i| > 0 (l1).

    >>> linear_leaders(np.array([[1.0, 1.0, 2.0], [0.0, 0.0, 0.0]]), "simplex", 1.0).tolist()
    [[0.5, 0.5, 0.0], [0.3333333333333333, 0.3333333333333333, 0.3333333333333333]]
    """
    if domain == "ball":
        norm = np.sqrt((S * S).sum(axis=1, keepdims=True))
        return np.where(norm > 0, -radius * S / np.where(norm > 0, norm, 1.0), 0.0)
    if domain == "box":
        return -radius * np.sign(S)
    if domain == "l1":
        high = np.abs(S).max(axis=1, keepdims=True)
        ties = (np.abs(S) == high) & (high > 0)
        return -radius * np.sign(S) * ties / np.maximum(ties.sum(axis=1, keepdims=True), 1)
    ties = S == S.min(axis=1, keepdims=True)
    return ties / ties.sum(axis=1, keepdims=True)


def leader_losses(X, domain: str, radius: float, block: int = 1 << 20):
    """(f_t(v_t), f_t(v_{t+1})) on every round for linear losses f_t = <x_t, .>, v_t the point
    Follow the Leader plays on round t (:func:`linear_leaders` of S_{t-1}; v_1 = that of 0):
    the terms of the follow-the-leader / be-the-leader lemma. Rows are read in blocks of
    about ``block`` entries (memory O(block), not O(T d)).

    >>> played, following = leader_losses(np.array([[0.5], [-1.0], [1.0]]), "box", 1.0)
    >>> played.tolist(), following.tolist()
    ([0.0, 1.0, 1.0], [-0.5, -1.0, -1.0])
    """
    n, d = X.shape
    rows = max(1, block // max(d, 1))
    played, following = np.empty(n), np.empty(n)
    carry = np.zeros(d)
    for a in range(0, n, rows):
        chunk = X[a:a + rows]
        chunk = chunk.toarray() if sp.issparse(chunk) else np.asarray(chunk, dtype=float)
        S = carry + np.cumsum(chunk, axis=0)             # S_t for the rounds of the chunk
        before = np.vstack([carry[None, :], S[:-1]])     # S_{t-1}
        played[a:a + len(chunk)] = (chunk * linear_leaders(before, domain, radius)).sum(1)
        following[a:a + len(chunk)] = (chunk * linear_leaders(S, domain, radius)).sum(1)
        carry = S[-1]
    return played, following


def quadratic_total(u: np.ndarray, T: int, S: np.ndarray, Q: float) -> float:
    """sum_{t<=T} (1/2)||u - z_t||^2 = Q/2 - <u, S> + (T/2)||u||^2, S = sum z_t, Q = sum ||z_t||^2.

    >>> quadratic_total(np.array([1.0]), 2, np.array([1.0]), 5.0)   # z = 2, -1: (1 + 4)/2
    2.5
    """
    return 0.5 * Q - float(u @ S) + 0.5 * T * float(u @ u)


class BestPoint(Comparator, key="best_point"):
    """min_{u in K} sum_{t<=T} f_t(u) at every checkpoint T, in closed form (exact: gap 0).

    The losses are those of the OCO learners (:mod:`olbench.rules.oco`): ``loss="linear"``
    f_t(u) = <x_t, u>, minimised at a vertex of the simplex (the best expert), on the
    ball's boundary at -D S/||S||, at a corner -D sign(S) of the box (S = sum of the rows);
    ``"quadratic"`` f_t(u) = (1/2)||u - x_t||^2, minimised at P_K(mean of the rows), since
    the sum is (T/2)||u - S/T||^2 + const. ``domain`` and ``radius`` are the learner's K.
    The fit reports f_t(u) as its outputs under the loss ``suffered`` (what OCO learners
    record), its prefix minima at the checkpoints, the final u, and in ``info`` the range of
    the loss entries (``entry_min``, ``entry_max``) that the expert-advice theorems assume
    and, for linear losses, Follow the Leader's terms f_t(v_t) and f_t(v_{t+1}) on every
    round (``leader_losses``, ``next_leader_losses``: :func:`leader_losses`).

    >>> X = np.array([[0.5], [-1.0], [1.0], [-1.0]])
    >>> fit = BestPoint(domain="box").fit(X, np.zeros(4), checkpoints=[1, 2, 4], cache=None)
    >>> fit.prefix_loss.tolist(), fit.u.tolist()
    ([-0.5, -0.5, -0.5], [1.0])
    """

    task: ClassVar[str] = "oco"
    cacheable: ClassVar[bool] = False        # closed forms: cheaper than a cache lookup
    constraints = {"loss": OneOf(*LOSS_CODES), "domain": OneOf(*SET_CODES),
                   "radius": Interval(0, math.inf, low_open=True)}

    def __init__(self, *, loss="linear", domain="simplex", radius=1.0):
        self.loss = loss
        self.domain = domain
        self.radius = radius

    def minimise(self, T: int, S: np.ndarray, Q: float) -> tuple[np.ndarray, float]:
        """(u, its total loss) for a prefix of T rows with row sum S and squared norms Q."""
        if self.loss == "linear":
            return linear_minimiser(S, self.domain, self.radius), linear_minimum(
                S, self.domain, self.radius)
        u = project_numpy(S / T, self.domain, self.radius)
        return u, quadratic_total(u, T, S, Q)

    def losses_of(self, X, u: np.ndarray) -> np.ndarray:
        """f_t(u) on every round."""
        inner = np.asarray(X @ u, dtype=float).ravel()
        if self.loss == "linear":
            return inner
        sq = np.asarray(X.multiply(X).sum(axis=1)).ravel() if sp.issparse(X) else (X * X).sum(1)
        return 0.5 * (float(u @ u) - 2 * inner + sq)

    def _fit(self, X, y, meta, checkpoints) -> ComparatorFit:
        from olbench.checkpoints import log_checkpoints

        n = X.shape[0]
        ks = np.asarray(log_checkpoints(n) if checkpoints is None else checkpoints)
        S, Q, start = np.zeros(X.shape[1]), 0.0, 0
        prefix = np.empty(len(ks))
        for i, T in enumerate(ks):
            block = X[start:T]
            S = S + np.asarray(block.sum(axis=0)).ravel()
            Q += float(block.multiply(block).sum() if sp.issparse(block) else (block ** 2).sum())
            start = T
            prefix[i] = self.minimise(int(T), S, Q)[1]
        if start < n:
            block = X[start:]
            S = S + np.asarray(block.sum(axis=0)).ravel()
            Q += float(block.multiply(block).sum() if sp.issparse(block) else (block ** 2).sum())
        u, total = self.minimise(n, S, Q)
        losses = self.losses_of(X, u)
        entries = X.data if sp.issparse(X) else X
        implicit_zero = sp.issparse(X) and X.nnz < X.shape[0] * X.shape[1]
        low, high = float(entries.min(initial=np.inf)), float(entries.max(initial=-np.inf))
        if implicit_zero:
            low, high = min(low, 0.0), max(high, 0.0)
        info = {"entry_min": low, "entry_max": high}
        if self.loss == "linear":
            info["leader_losses"], info["next_leader_losses"] = leader_losses(
                X, self.domain, self.radius)
        return ComparatorFit(self.name, "suffered", u=u, margins=losses, losses=losses,
                             checkpoints=ks, prefix_loss=prefix, objective=total,
                             lower_bound=total, info=info)
