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
