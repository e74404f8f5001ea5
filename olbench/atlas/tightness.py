"""How close a run comes to a theorem's bound: observed / bound at a horizon T, the quantity
the bound atlas maximises over legal streams (issue 30).

A ratio is computed exactly as a run's bound check is (:mod:`olbench.bounds`): the learner
runs on the stream, the comparators the theorem needs are fitted, and the theorem is
evaluated at T. Its hypotheses are the theorem's own: a stream that breaks one (not
separable, losses out of range, a radius unknown) gives no ratio but the theorem's skip
reason, so a ratio is only ever reported for a stream the theorem speaks of.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from olbench.bounds import THEOREMS, declared
from olbench.bounds.core import RunRecord
from olbench.comparators import make_comparator
from olbench.protocol import run


@dataclass(frozen=True)
class Tightness:
    """One theorem for one learner on one stream at horizon ``T``: the bound, what was
    observed, their ratio (None when the theorem was skipped, with ``skip_reason``)."""

    theorem: str
    learner: str
    stream: str
    T: int
    bound: float | None
    observed: float | None
    skip_reason: str | None = None

    @property
    def ratio(self) -> float | None:
        if self.bound is None or self.observed is None or self.bound == 0:
            return None
        return self.observed / self.bound


def tightness(theorem: str, learner, stream, T: int | None = None) -> Tightness:
    """observed / bound of ``theorem`` (a registered name) for ``learner`` (a fresh or used
    learner: a clone runs) on ``stream`` (any olbench stream) after ``T`` rounds (default:
    all of them). ``theorem`` must be one ``learner`` declares under its parameters."""
    if theorem not in THEOREMS:
        raise ValueError(f"unknown theorem {theorem!r}; registered: {', '.join(sorted(THEOREMS))}")
    chosen = [t for t in declared(learner) if t.name == theorem]
    if not chosen:
        names = ", ".join(t.name for t in declared(learner)) or "none"
        raise ValueError(f"{learner.name} does not declare {theorem!r} under these parameters "
                         f"(it declares: {names})")
    X, y = stream.materialize()
    meta = stream.meta
    T = int(meta.n if T is None else T)
    if not 1 <= T <= meta.n:
        raise ValueError(f"T={T}: the stream has {meta.n} rounds")
    fresh = learner.clone()
    trace = run(fresh, X[:T], y[:T])
    fits = {}
    for spec in chosen[0].needs(fresh.get_params()):
        comparator = make_comparator(spec["key"], **{k: v for k, v in spec.items() if k != "key"})
        fits[comparator.name] = comparator.fit(X, y, meta, checkpoints=[T], cache=None)
    margin = meta.margin if fresh.task == "multiclass" else None
    record = RunRecord.of(trace, fresh, checkpoints=np.array([T]), R=meta.radius, fits=fits,
                          margin=margin)
    (_, check), = chosen[0].checks(record)[-1:]
    return Tightness(theorem, fresh.name, stream.name, T, check.bound, check.observed,
                     check.skip_reason)
