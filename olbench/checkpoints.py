"""Checkpoints: the 1-based rounds T at which runs are measured and bounds checked.

>>> log_checkpoints(1000, num=5).tolist()
[1, 6, 32, 178, 1000]
"""

from __future__ import annotations

import numpy as np


def log_checkpoints(n: int, num: int = 25) -> np.ndarray:
    """Log-spaced unique integers in [1, n], always including 1 and n."""
    if n < 1:
        raise ValueError(f"n must be >= 1; got {n}")
    if isinstance(num, bool) or not isinstance(num, (int, np.integer)) or num < 1:
        raise ValueError(f"checkpoints must be an integer >= 1 (how many log-spaced "
                         f"checkpoints per run), got {num!r}")
    pts = np.unique(np.round(np.geomspace(1, n, num=max(num, 2))).astype(np.int64))
    return np.unique(np.concatenate([pts, [n]]))
