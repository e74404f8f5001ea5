"""Checkpoints: the 1-based rounds T at which runs are measured and bounds checked.

``run.checkpoints`` is a count k, spaced by ``run.checkpoint_spacing``: ``log`` (the default:
dense early, where regret curves bend) or ``linear`` (even in t: what a drift switch at
t = 2000 of 4000 needs to be drawn as it happened); or an explicit list of rounds. The final
round n is always a checkpoint.

>>> log_checkpoints(1000, num=5).tolist()
[1, 6, 32, 178, 1000]
>>> make_checkpoints(1000, 4, "linear").tolist(), make_checkpoints(1000, [10, 500]).tolist()
([250, 500, 750, 1000], [10, 500, 1000])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

#: how ``run.checkpoints = k`` is spread over the n rounds of a run
SPACINGS = ("log", "linear")


def _is_count(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool) and v >= 1


def log_checkpoints(n: int, num: int = 25) -> np.ndarray:
    """Log-spaced unique integers in [1, n], always including 1 and n."""
    if n < 1:
        raise ValueError(f"n must be >= 1; got {n}")
    if not _is_count(num):
        raise ValueError(f"checkpoints must be an integer >= 1 (how many log-spaced "
                         f"checkpoints per run), got {num!r}")
    pts = np.unique(np.round(np.geomspace(1, n, num=max(num, 2))).astype(np.int64))
    return np.unique(np.concatenate([pts, [n]]))


def linear_checkpoints(n: int, num: int = 25) -> np.ndarray:
    """``num`` evenly spaced rounds n/num, 2n/num, ..., n (rounded, unique; at most n).

    >>> linear_checkpoints(10, 4).tolist(), linear_checkpoints(3, 10).tolist()
    ([2, 5, 8, 10], [1, 2, 3])
    """
    if n < 1:
        raise ValueError(f"n must be >= 1; got {n}")
    if not _is_count(num):
        raise ValueError(f"checkpoints must be an integer >= 1 (how many evenly spaced "
                         f"checkpoints per run), got {num!r}")
    pts = np.round(np.arange(1, num + 1) * (n / num)).astype(np.int64)
    return np.unique(np.clip(pts, 1, n))


def checkpoints_problem(spec: Any) -> str | None:
    """What is wrong with a ``run.checkpoints`` value (None if nothing); checked before
    anything runs.

    >>> checkpoints_problem(25) is None, checkpoints_problem([1, 50]) is None
    (True, True)
    >>> checkpoints_problem([100, 0])
    '0 is not a round (rounds are integers >= 1)'
    """
    if _is_count(spec):
        return None
    if isinstance(spec, Sequence) and not isinstance(spec, str):
        values = list(spec)
        if not values:
            return "is empty; give a count (e.g. 25) or at least one round"
        bad = next((v for v in values if not _is_count(v)), None)
        return None if bad is None else f"{bad!r} is not a round (rounds are integers >= 1)"
    return ("must be an integer >= 1 (how many checkpoints per run, spaced by "
            "run.checkpoint_spacing, plus the final round) or a list of rounds, e.g. "
            "[500, 1000, 2000]")


def spacing_problem(spacing: Any) -> str | None:
    """What is wrong with a ``run.checkpoint_spacing`` value (None if nothing).

    >>> spacing_problem("linear") is None, spacing_problem("cubic")
    (True, 'must be one of log, linear')
    """
    return None if spacing in SPACINGS else f"must be one of {', '.join(SPACINGS)}"


def make_checkpoints(n: int, spec: int | Sequence[int] = 25, spacing: str = "log") -> np.ndarray:
    """The checkpoints of a run of ``n`` rounds: ``spec`` of them spaced by ``spacing``, or
    the rounds listed in ``spec``; the final round n is always added.

    >>> make_checkpoints(100, [300])
    Traceback (most recent call last):
    ...
    ValueError: run.checkpoints lists round 300, beyond this stream's n=100 rounds
    """
    for option, value, problem in (("checkpoints", spec, checkpoints_problem(spec)),
                                   ("checkpoint_spacing", spacing, spacing_problem(spacing))):
        if problem:
            raise ValueError(f"run.{option}={value!r}: {problem}")
    if _is_count(spec):
        return (log_checkpoints if spacing == "log" else linear_checkpoints)(n, int(spec))
    rounds = np.asarray(list(spec), dtype=np.int64)
    if rounds.max() > n:
        raise ValueError(f"run.checkpoints lists round {int(rounds.max())}, beyond this "
                         f"stream's n={n} rounds")
    return np.unique(np.concatenate([rounds, [n]]))


def run_checkpoints(meta, spec: int | Sequence[int] = 25, spacing: str = "log") -> np.ndarray:
    """The checkpoints of a run over a stream: :func:`make_checkpoints`, plus the train/test
    boundary ``meta.extra["test_start"]`` of a ``split=train_then_test`` stream (so the test
    part is measured from exactly where it starts).

    >>> from types import SimpleNamespace as NS
    >>> run_checkpoints(NS(n=1000, extra={"test_start": 700}), 5).tolist()
    [1, 6, 32, 178, 700, 1000]
    """
    ks = make_checkpoints(meta.n, spec, spacing)
    start = train_test_boundary(meta)
    return ks if start is None else np.union1d(ks, [start])


def train_test_boundary(meta) -> int | None:
    """The number of training rounds before the test part (None: no test part)."""
    start = (getattr(meta, "extra", None) or {}).get("test_start")
    return None if start is None or not 0 < int(start) < meta.n else int(start)


class RunningSums:
    """Cumulative sums of per-round values at the checkpoints, fed chunk by chunk: what the
    metrics need of a stream too long to keep every round (an out-of-core file). Each sum is
    carried across chunks as the first term of the next chunk's ``np.cumsum``, so it is the
    same number, bit for bit, as ``np.cumsum`` over all rounds at once.

    >>> sums = RunningSums([2, 3, 5])
    >>> sums.add(loss=np.array([0.5, 1.0]), mistakes=np.array([True, False]))
    >>> sums.add(loss=np.array([0.25, 0.0, 2.0]), mistakes=np.array([True, True, False]))
    >>> sums.at["loss"].tolist(), sums.at["mistakes"].tolist(), sums.rounds
    ([1.5, 1.75, 3.75], [1, 2, 3], 5)
    """

    def __init__(self, checkpoints: Any):
        self.checkpoints = np.unique(np.asarray(checkpoints, dtype=np.int64))
        self.at: dict[str, np.ndarray] = {}      # name -> its sums at the checkpoints
        self._total: dict[str, Any] = {}
        self.rounds = 0

    def add(self, **values: np.ndarray) -> None:
        """The per-round values of the next rounds (one array per name, all of one length;
        booleans are counted in integers)."""
        rows = len(next(iter(values.values())))
        before, after = self.rounds, self.rounds + rows
        first, last = np.searchsorted(self.checkpoints, [before, after], side="right")
        local = self.checkpoints[first:last] - before   # rounds within this chunk, 1-based
        for name, value in values.items():
            value = np.asarray(value)
            if len(value) != rows:
                raise ValueError(f"{name}: {len(value)} values for {rows} rounds")
            kind = np.int64 if value.dtype == bool or value.dtype.kind in "iu" else np.float64
            if name not in self.at:
                self.at[name] = np.zeros(len(self.checkpoints), dtype=kind)
                self._total[name] = kind(0)
            running = np.cumsum(np.concatenate([[self._total[name]], value.astype(kind)]))
            self.at[name][first:last] = running[local]
            self._total[name] = running[-1]
        self.rounds += rows

    def total(self, name: str):
        """The sum over every round added so far."""
        return self._total[name]
