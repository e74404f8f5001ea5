"""A stream whose building kills its process on one seed: a stand-in for a crash in native
code (a segfault or abort in a solver), for the grid's crash tests. Not registered (no key):
tests name it by its ``_target_`` path, with tests/ on PYTHONPATH."""

from __future__ import annotations

import os

from olbench.streams.synthetic import Separable


class AbortingSeparable(Separable):
    """:class:`Separable`, except that building the data with ``seed == abort_seed`` calls
    ``os.abort()`` (SIGABRT: no Python exception, no cleanup, as a native crash)."""

    def __init__(self, *, abort_seed: int = -1, n: int = 1000, d: int = 10,
                 gamma: float = 0.1, R: float = 1.0, distribution: str = "ball", seed: int = 0,
                 bias: bool = False):       # named one by one: the grid seeds a ``seed`` param
        super().__init__(n=n, d=d, gamma=gamma, R=R, distribution=distribution, seed=seed,
                         bias=bias)
        self.abort_seed = abort_seed

    def _build(self):
        if self.seed == self.abort_seed:
            os.abort()
        return super()._build()
