"""A best-fixed comparator that writes down every solve it makes: the instrument of the tests
that count how often (and when) a grid solves a comparator problem. Registered under the key
``counting_best_fixed`` only while a test uses it (the ``counting`` fixture of
tests/test_fits.py); named in specs by its ``_target_`` path, with tests/ on the path."""

from __future__ import annotations

import os
import time

import numpy as np

from olbench.comparators import BestFixed


class CountingBestFixed(BestFixed, key="counting_best_fixed"):
    """:class:`BestFixed` whose every solve (not a cache read) appends ``pid start end`` to
    the file ``journal``, after a ``pause`` of that many seconds (so that two workers that
    would solve one problem side by side do overlap)."""

    def __init__(self, *, journal: str = "", pause: float = 0.0, loss=None, ridge=0.0,
                 radius=None, epsilon=0.1):
        super().__init__(loss=loss, ridge=ridge, radius=radius, epsilon=epsilon)
        self.journal = journal
        self.pause = pause

    def _fit(self, X, y, meta, checkpoints):
        start = time.time()
        time.sleep(self.pause)
        try:
            return super()._fit(X, y, meta, checkpoints)
        finally:
            with open(self.journal, "a") as out:
                out.write(f"{os.getpid()} {start} {time.time()}\n")


def solves(journal) -> list[tuple[int, float, float]]:
    """The solves written to ``journal``: (pid, start, end) each."""
    if not os.path.exists(journal):
        return []
    with open(journal) as lines:
        return [(int(p), float(a), float(b)) for p, a, b in (line.split() for line in lines)]


def fit_a_permutation(seed: int, X, y, journal: str, cache: str, time_limit=None):
    """Fit the rows of (X, y) in the order of permutation ``seed`` (what one worker of a
    grid over permutations of a dataset does) under ``time_limit`` seconds per solve (None:
    the default); the fit's cumulative loss, or its skip reason."""
    from contextlib import nullcontext

    order = np.random.default_rng(seed).permutation(len(y))
    comparator = CountingBestFixed(loss="hinge", journal=journal, pause=2.0)
    if time_limit is None:
        limited = nullcontext()
    else:
        from olbench.comparators._duality import time_limit as limit

        limited = limit(time_limit)
    with limited:
        fit = comparator.fit(X[order], y[order], cache=cache)
    return fit.cum_loss if fit.ok else fit.skip_reason
