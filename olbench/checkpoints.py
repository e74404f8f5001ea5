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


def run_checkpoints(meta, num: int = 25) -> np.ndarray:
    """The checkpoints of a run over a stream: :func:`log_checkpoints`, plus the train/test
    boundary ``meta.extra["test_start"]`` of a ``split=train_then_test`` stream (so the test
    part is measured from exactly where it starts).

    >>> from types import SimpleNamespace as NS
    >>> run_checkpoints(NS(n=1000, extra={"test_start": 700}), num=5).tolist()
    [1, 6, 32, 178, 700, 1000]
    """
    ks = log_checkpoints(meta.n, num)
    start = train_test_boundary(meta)
    return ks if start is None else np.union1d(ks, [start])


def train_test_boundary(meta) -> int | None:
    """The number of training rounds before the test part (None: no test part)."""
    start = (getattr(meta, "extra", None) or {}).get("test_start")
    return None if start is None or not 0 < int(start) < meta.n else int(start)
