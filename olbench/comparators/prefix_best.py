"""The best fixed predictor of every prefix: the comparator of the true regret curve."""

from __future__ import annotations

import numpy as np

from olbench.comparators import _solvers
from olbench.comparators.best_fixed import BestFixed
from olbench.comparators.fit import ComparatorFit


class PrefixBest(BestFixed, key="prefix_best"):
    """min_u sum_{t <= T_k} loss_t(u) re-fitted at each checkpoint T_k (warm-started).

    Regret curves against it are the true regret R(T) = sum_{t<=T} loss_t(w_t) -
    min_u sum_{t<=T} loss_t(u), not the regret against the final comparator (which can be
    negative early on). Parameters as :class:`BestFixed`; ``checkpoints`` default to
    :func:`olbench.checkpoints.log_checkpoints`. ``fit.u`` / ``fit.losses`` are those of the last
    prefix (the whole stream); ``fit.prefix_loss[k]`` is the loss part of the k-th optimum.
    Warm starts: previous u for L-BFGS, previous dual variables for the dual solvers (HiGHS LPs
    start cold: scipy does not expose bases).

    >>> import numpy as np
    >>> X = np.ones((4, 1)); y = np.array([1.0, 1.0, 5.0, 5.0])
    >>> fit = PrefixBest(loss="squared").fit(X, y, checkpoints=[1, 2, 3, 4], cache=None)
    >>> fit.prefix_loss.round(6).tolist()    # 0, 0, then the spread around each prefix mean
    [0.0, 0.0, 5.333333, 8.0]
    """

    order_invariant = False  # each prefix is a different set of rows

    def _fit(self, X, y, meta, checkpoints) -> ComparatorFit:
        from olbench.checkpoints import log_checkpoints

        n = X.shape[0]
        ks = log_checkpoints(n) if checkpoints is None else checkpoints
        prefix_loss, lower, gaps = np.empty(len(ks)), np.empty(len(ks)), []
        warm, s = None, None
        for i, T in enumerate(ks):
            try:
                s = self.solve(X[:T], y[:T], warm=warm)
            except _solvers.NoMinimizer as e:
                return self._skip(f"prefix T={T}: {e}", self.loss)
            prefix_loss[i] = _solvers.total_loss(X[:T], y[:T], s.u, self.loss, self.epsilon)
            lower[i] = np.nan if s.lower_bound is None else s.lower_bound
            gaps.append(s.gap)
            warm = s
        if ks[-1] != n:                       # u of the whole stream, for margins/losses
            s = self.solve(X, y, warm=warm)
        return self._result(X, y, s.u, self.loss, self.epsilon, checkpoints=np.asarray(ks),
                            prefix_loss=prefix_loss, objective=s.objective,
                            lower_bound=s.lower_bound,
                            info={**s.info, "prefix_lower_bound": lower})
