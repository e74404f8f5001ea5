"""Metrics: from margins + labels (+ comparator) to losses, mistakes, updates, regret, bounds.

Everything here is a pure, vectorised function of arrays recorded by a run -- nothing reruns a
learner:

* ``margins``: float64 per round, the learner's output p_t = w_t.x_t recorded *before* y_t was
  revealed; ``y``: labels in {-1, +1} (or real targets); ``updated``: bool per round.
* A *trace* (the engine's record of a run) may be passed instead of the arrays: any object with
  attributes ``margins``, ``y`` and optionally ``updated``, ``tie``, ``mistakes``.
* Checkpoints are 1-based round counts T: :func:`log_checkpoints` gives log-spaced unique
  integers in [1, n] plus n.

>>> import numpy as np
>>> log_checkpoints(1000, num=5).tolist()
[1, 6, 32, 178, 1000]
"""

from __future__ import annotations

import numpy as np


def log_checkpoints(n: int, num: int = 25) -> np.ndarray:
    """Log-spaced unique integers in [1, n], always including 1 and n."""
    if n < 1:
        raise ValueError(f"n must be >= 1; got {n}")
    pts = np.unique(np.round(np.geomspace(1, n, num=max(num, 2))).astype(np.int64))
    return np.unique(np.concatenate([pts, [n]]))
