"""The best *shifting* comparator: the best sequence of fixed predictors with at most k switches.

Static regret compares a learner with one fixed predictor; on a drifting stream no fixed
predictor fits every segment, and the learner can beat it (negative regret). The shifting
comparator of Herbster & Warmuth ("Tracking the best expert", Machine Learning 32, 1998)
may change its predictor up to k times; regret against it is the *shifting* (k-switch)
regret.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp

from olbench.comparators import _solvers
from olbench.comparators.base import Comparator
from olbench.comparators.fit import ComparatorFit
from olbench.component import Interval, OneOf
from olbench.losses import get_loss


def best_expert_sequence(L: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Exact best sequence of experts with at most ``k`` switches, by dynamic programming.

    ``L``: the experts' losses, T x N. Returns (``prefix``, ``path``): ``prefix[t]`` is the
    smallest total loss over rounds 1..t+1 of a sequence of experts with at most k switches
    (its own best sequence for every prefix), and ``path[t]`` the expert the best sequence
    of the whole horizon follows on round t+1. V[j, i] = the least loss of a sequence with at
    most j switches that ends on expert i; V_t[j] = L_t + min(V_{t-1}[j], min V_{t-1}[j-1]).
    O(T N (k+1)) time; the switch decisions are stored to recover the path (T (k+1) N bytes).

    >>> L = np.array([[0.0, 1.0], [0.0, 1.0], [1.0, 0.0], [1.0, 0.0]])
    >>> prefix, path = best_expert_sequence(L, 1)
    >>> prefix.tolist(), path.tolist()
    ([0.0, 0.0, 0.0, 0.0], [0, 0, 1, 1])
    >>> best_expert_sequence(L, 0)[0].tolist()   # no switch: the best expert of each prefix
    [0.0, 0.0, 1.0, 2.0]
    """
    L = np.asarray(L, dtype=float)
    T, N = L.shape
    V = np.repeat(L[:1], k + 1, axis=0)
    switched = np.zeros((T, k + 1, N), dtype=bool)
    came_from = np.zeros((T, k + 1), dtype=np.int64)
    prefix = np.empty(T)
    prefix[0] = V[k].min()
    for t in range(1, T):
        leaders = np.argmin(V[:-1], axis=1)             # best end of each budget, one less
        lead = V[np.arange(k), leaders]
        switch = np.full_like(V, np.inf)
        switch[1:] = lead[:, None]
        switched[t] = switch < V
        came_from[t, 1:] = leaders
        V = np.minimum(V, switch) + L[t]
        prefix[t] = V[k].min()
    path = np.empty(T, dtype=np.int64)
    j, i = k, int(np.argmin(V[k]))
    for t in range(T - 1, -1, -1):
        path[t] = i
        if switched[t, j, i]:
            i, j = int(came_from[t, j]), j - 1
    return prefix, path


def declared_switches(meta) -> list:
    """The switch rounds a stream declares (``meta.extra["switch_times"]``), or []."""
    return (getattr(meta, "extra", None) or {}).get("switch_times") or []


def best_segmentation(cost: dict, starts: list[int], ends: list[int], k: int):
    """Least total cost of at most k+1 consecutive segments covering [0, e), for every end e.

    ``cost[(a, b)]``: the cost of the segment of rows a..b-1 (a in ``starts``, b in ``ends``,
    a < b); segments start at 0 or at a later start that is also an end. Returns
    {e: (total, [(a, b), ...])}. F_j(e) = min(F_{j-1}(e), min_{a < e} F_{j-1}(a) + cost(a, e)).

    >>> cost = {(0, 1): 0.0, (0, 2): 3.0, (1, 2): 1.0}
    >>> best_segmentation(cost, [0, 1], [1, 2], 1)[2]
    (1.0, [(0, 1), (1, 2)])
    >>> best_segmentation(cost, [0, 1], [1, 2], 0)[2]
    (3.0, [(0, 2)])
    """
    best = {e: (cost[(0, e)], [(0, e)]) for e in ends}
    for _ in range(k):
        nxt = dict(best)
        for e in ends:
            for a in starts:
                if 0 < a < e and a in best:
                    total = best[a][0] + cost[(a, e)]
                    if total < nxt[e][0]:
                        nxt[e] = (total, best[a][1] + [(a, e)])
        best = nxt
    return best


class BestShifting(Comparator, key="best_shifting"):
    """The best sequence of at most k+1 fixed predictors (at most ``k`` switches) in hindsight,
    on every prefix.

    Two cases, by the loss:

    * ``loss="suffered"`` (expert advice: the rows are the experts' loss vectors in [0, 1],
      as for Hedge; other OCO rows are a skip): min over sequences of experts i_1, ..., i_T
      with at most k rounds where i_t != i_{t-1} of sum_t x_{t, i_t}. **Exact**, switches
      allowed on every round, by dynamic programming (:func:`best_expert_sequence`), for
      every prefix.
    * a loss of classification or regression (``hinge``, ``squared``, ...): the sequence may
      switch only at *boundaries*: the stream's declared switch rounds
      (``meta.extra["switch_times"]``, e.g. of ``drift`` and ``experts``) with
      ``segments="declared"`` (the checkpoints when a stream declares none, recorded in
      ``fit.info["boundaries_from"]``), or the checkpoints with ``segments="checkpoints"``.
      Each segment's predictor is the certified best fixed u of its rows
      (:func:`olbench.comparators._solvers.solve`, in the ball of ``radius`` if given), and
      the segmentation is the best of at most k+1 segments by dynamic programming over the
      boundaries (:func:`best_segmentation`), for every checkpoint's prefix. Restricting the
      switches to boundaries makes its loss an **upper bound** on the true k-switch optimum
      (which may switch on any round), so regret against it is a lower bound on the true
      shifting regret; the two coincide when the optimum switches only at boundaries. The
      certificate is the same dynamic program on the solvers' lower bounds:
      ``fit.lower_bound`` <= the optimum over the allowed segmentations <= ``objective``.

    ``k=None``: as many switches as the stream declares (0 if it declares none). ``fit.u``
    is None (no single u: the comparator is piecewise); ``fit.margins`` are the outputs of
    the whole-stream sequence (its losses for experts);
    ``fit.info``: ``segments`` (1-based first and last round and u of each) or ``experts``
    (the expert of every round) and the number of switches used.

    >>> X = np.array([[0.0, 1.0], [0.0, 1.0], [1.0, 0.0], [1.0, 0.0]])
    >>> fit = BestShifting(k=1, loss="suffered").fit(X, np.zeros(4), checkpoints=[2, 4],
    ...                                             cache=None)
    >>> fit.prefix_loss.tolist(), fit.info["experts"]
    ([0.0, 0.0], [0, 0, 1, 1])
    """

    constraints = {"k": Interval(0, math.inf, integer=True, none_ok=True),
                   "loss": OneOf(None, "hinge", "squared_hinge", "logistic", "squared",
                                 "absolute", "epsilon_insensitive", "suffered"),
                   "radius": Interval(0, math.inf, low_open=True, none_ok=True),
                   "epsilon": Interval(0, math.inf),
                   "segments": OneOf("declared", "checkpoints")}
    minimises_loss = True
    order_invariant = False    # a segment is a run of consecutive rows
    linear = False             # one u per segment, not one u of the input space

    def __init__(self, *, k=None, loss=None, radius=None, epsilon=0.1, segments="declared"):
        self.k = k
        self.loss = loss
        self.radius = radius
        self.epsilon = epsilon
        self.segments = segments

    def switches(self, meta) -> int:
        return len(declared_switches(meta)) if self.k is None else int(self.k)

    def _fit(self, X, y, meta, checkpoints) -> ComparatorFit:
        from olbench.checkpoints import log_checkpoints

        ks = np.asarray(log_checkpoints(X.shape[0]) if checkpoints is None else checkpoints)
        if self.loss == "suffered":
            return self._experts(X, ks, self.switches(meta))
        return self._segments(X, y, meta, ks, self.switches(meta))

    def _experts(self, X, ks, k) -> ComparatorFit:
        L = X.toarray() if sp.issparse(X) else np.asarray(X)
        if L.size and (L.min() < 0 or L.max() > 1):
            return self._skip(f"rows are read as experts' loss vectors in [0, 1], but entries "
                              f"range from {L.min():.3g} to {L.max():.3g}: not an expert-advice "
                              f"stream", "suffered")
        prefix, path = best_expert_sequence(L, k)
        losses = L[np.arange(L.shape[0]), path]
        total = float(prefix[-1])
        return ComparatorFit(self.name, "suffered", margins=losses, losses=losses,
                             checkpoints=ks, prefix_loss=prefix[ks - 1], objective=total,
                             lower_bound=total,
                             info={"experts": path.tolist(), "k": k,
                                   "switches_used": int((np.diff(path) != 0).sum())})

    def boundaries(self, meta, ks, n) -> tuple[list[int], str]:
        """The rows where a segment may start (after 0), and where they come from."""
        declared = declared_switches(meta)
        if self.segments == "declared" and len(declared):
            return sorted({int(b) for b in declared if 0 < int(b) < n}), "declared"
        return sorted({int(b) for b in ks if 0 < int(b) < n}), "checkpoints"

    def _segments(self, X, y, meta, ks, k) -> ComparatorFit:
        n = X.shape[0]
        inner, origin = self.boundaries(meta, ks, n)
        starts = [0, *inner]
        ends = sorted({*inner, *(int(T) for T in ks), n})
        cost, lower, solutions = {}, {}, {}
        for a in starts:
            warm = None
            for b in (e for e in ends if e > a):
                try:
                    s = _solvers.solve(X[a:b], y[a:b], self.loss, epsilon=self.epsilon,
                                       radius=self.radius, warm=warm)
                except _solvers.NoMinimizer as e:
                    return self._skip(f"segment of rounds {a + 1}..{b}: {e}", self.loss)
                cost[(a, b)] = _solvers.total_loss(X[a:b], y[a:b], s.u, self.loss, self.epsilon)
                lower[(a, b)] = -math.inf if s.lower_bound is None else s.lower_bound
                solutions[(a, b)] = s
                warm = s
        best = best_segmentation(cost, starts, ends, k)
        bound = best_segmentation(lower, starts, ends, k)
        total, parts = best[n]
        margins = np.concatenate([_solvers.matvec(X[a:b], solutions[(a, b)].u)
                                  for a, b in parts])
        low = bound[n][0]
        return ComparatorFit(
            self.name, self.loss, self.epsilon, margins=margins,
            losses=get_loss(self.loss, epsilon=self.epsilon)(margins, y),
            checkpoints=ks, prefix_loss=np.array([best[int(T)][0] for T in ks]),
            objective=total, lower_bound=None if math.isinf(low) else low,
            info={"segments": [(a + 1, b, solutions[(a, b)].u.tolist()) for a, b in parts],
                  "k": k, "switches_used": len(parts) - 1, "boundaries": inner,
                  "boundaries_from": origin,
                  "prefix_lower_bound": np.array([bound[int(T)][0] for T in ks])})
