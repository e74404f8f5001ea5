"""The machinery every theorem shares: the run record a bound sees, checks, and the table.

A *theorem* is a small pure function of a :class:`RunRecord` (the run's margins, labels and
update flags, its final state, the stream's radius and the comparator fits -- never the live
learner object), registered with :func:`theorem` under a name, the quantity it bounds and its
source. A learner *declares* the theorems that apply to it beside its update rule::

    class Perceptron(Learner, key="perceptron"):
        bounds = (NOVIKOFF, FREUND_SCHAPIRE)

and :func:`bound_table` evaluates the declared ones at every checkpoint. Adding a theorem is
one function here (or in a family module of this package) and one entry in a ``bounds``
declaration; nothing dispatches on learner names.

>>> import numpy as np
>>> rec = RunRecord(params={}, margins=np.array([0.0, 1.0]), y=np.array([1.0, 1.0]),
...                 checkpoints=np.array([1, 2]), R=1.0)
>>> rec.cum_mistakes().tolist()
[1, 1]
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from olbench.losses import get_loss, mistakes
from olbench.schema import BOUND_COLUMNS

if TYPE_CHECKING:
    import pandas as pd

#: every registered theorem by name (filled by :func:`theorem`)
THEOREMS: dict[str, Theorem] = {}


class BoundViolation(UserWarning):
    """A bound whose assumptions hold was exceeded: a bug somewhere. Never silence it."""


class Skip(Exception):
    """Raised by a theorem whose assumptions cannot be checked on this run; the reason is
    recorded (at every checkpoint, or at the final one for final-round theorems)."""


# --------------------------------------------------------------------------- checks
@dataclass
class BoundCheck:
    """One bound at one horizon: its value, what was observed, and whether it held."""

    bound_name: str
    quantity: str                  # what is bounded: "mistakes", "sum_sq_hinge", "regret"
    bound: float | None
    observed: float | None
    holds: bool | None
    skip_reason: str | None = None

    @property
    def ratio(self) -> float | None:
        if self.bound is None or self.observed is None or self.bound == 0:
            return None
        return self.observed / self.bound


def check(bound_name: str, quantity: str, bound: float, observed: float, *,
          rtol: float = 1e-9, atol: float = 1e-9, context: str = "") -> BoundCheck:
    """Compare; a violation emits a :class:`BoundViolation` warning (loud: it means a bug).

    >>> check("novikoff", "mistakes", 4.0, 3).holds
    True
    """
    holds = bool(observed <= bound * (1 + rtol) + atol)
    if not holds:
        source = THEOREMS[bound_name].source if bound_name in THEOREMS else ""
        warnings.warn(f"BOUND VIOLATED{' (' + context + ')' if context else ''}: {bound_name} "
                      f"bounds {quantity} by {bound:.6g} but {observed:.6g} was observed; its "
                      f"assumptions hold, so this is a bug ({source})",
                      BoundViolation, stacklevel=2)
    return BoundCheck(bound_name, quantity, float(bound), float(observed), holds)


def skipped(bound_name: str, quantity: str, reason: str) -> BoundCheck:
    return BoundCheck(bound_name, quantity, None, None, None, reason)


# --------------------------------------------------------------------------- the record
@dataclass(frozen=True)
class RunRecord:
    """What a theorem may look at: the record of one run, never the learner object.

    ``params``: the learner's hyper-parameters; ``margins``, ``y``, ``updated``: per round;
    ``state``: the final state as exported by the run (``trace.state``); ``checkpoints``:
    1-based rounds T to check at; ``R``: the stream radius max ||x_t|| (None: unknown);
    ``fits``: comparator fits by name; ``name``: the learner's name (for messages).
    """

    params: Mapping[str, Any]
    margins: np.ndarray
    y: np.ndarray
    checkpoints: np.ndarray
    R: float | None = None
    updated: np.ndarray | None = None
    state: Mapping[str, np.ndarray] = field(default_factory=dict)
    fits: Mapping[str, Any] = field(default_factory=dict)
    name: str = ""

    @classmethod
    def of(cls, trace, learner, *, checkpoints, R=None, fits=None) -> RunRecord:
        """The record of ``trace`` (any object with ``margins``, ``y``, ``updated``,
        ``state``) produced by a learner with ``learner``'s hyper-parameters."""
        return cls(params=learner.get_params(), margins=np.asarray(trace.margins, float),
                   y=np.asarray(trace.y, float), updated=getattr(trace, "updated", None),
                   state=getattr(trace, "state", None) or {},
                   checkpoints=np.asarray(checkpoints, dtype=np.int64), R=R,
                   fits=fits or {}, name=learner.name)

    # -- views theorems share ----------------------------------------------------------
    @property
    def n(self) -> int:
        return int(self.y.shape[0])

    def require_radius(self) -> float:
        if self.R is None:
            raise Skip("R (stream radius) unknown")
        return float(self.R)

    def cum_mistakes(self, tie: str | None = None) -> np.ndarray:
        """Cumulative mistakes per round under ``tie`` (default: the learner's tie rule)."""
        return np.cumsum(mistakes(self.margins, self.y, tie or self.params.get("tie",
                                                                               "novikoff")))

    def cum_loss(self, loss: str) -> np.ndarray:
        """Cumulative per-round ``loss`` of the learner's outputs."""
        return np.cumsum(get_loss(loss)(self.margins, self.y))

    def fits_with_u(self) -> list:
        """Every successful comparator fit with a fixed predictor u (each is a candidate for
        the data-dependent bounds: any u gives a valid bound, the smallest is reported)."""
        fits = [f for f in self.fits.values() if getattr(f, "ok", False) and f.u is not None]
        if not fits:
            raise Skip(self.why_no_fit() or "no comparator with a u")
        return fits

    def why_no_fit(self) -> str | None:
        """The skip reasons of the comparators that were asked for and gave no fit (a
        time-out says so), each with its comparator; None if none was skipped.

        >>> from olbench.comparators import ComparatorFit
        >>> fit = ComparatorFit("BestFixed[loss='hinge']", "hinge", skip_reason="time-out: 1 s")
        >>> rec = RunRecord(params={}, margins=np.zeros(1), y=np.ones(1),
        ...                 checkpoints=np.array([1]), fits={"b": fit})
        >>> rec.why_no_fit()
        "time-out: 1 s (comparator BestFixed[loss='hinge'])"
        """
        reasons = [f"{f.skip_reason} (comparator {f.comparator})" for f in self.fits.values()
                   if getattr(f, "skip_reason", None)]
        return "; ".join(reasons) or None

    def separable_fit(self):
        """The max-margin fit (it supplies gamma and the separable-case u)."""
        for f in self.fits.values():
            if getattr(f, "info", {}).get("gamma") is not None or (
                    getattr(f, "comparator", "").startswith("MaxMargin")):
                if not f.ok:
                    raise Skip(f.skip_reason)
                return f
        raise Skip("no max_margin comparator fit given")


# --------------------------------------------------------------------------- theorems
Rows = Iterable[tuple[int, float, float]]


@dataclass(frozen=True)
class Theorem:
    """A registered bound: ``evaluate(record)`` returns ``(T, bound, observed)`` rows or raises
    :class:`Skip`. ``when``: hyper-parameter values under which it applies (a PA-I bound
    applies to ``variant="pa1"`` only); ``final_only``: it needs the final state, so it is
    checked (or skipped) at the last checkpoint only; ``needs(params)``: the comparators
    (``{"key": ..., **params}``) whose fits make it checkable for a learner with these
    hyper-parameters."""

    name: str
    quantity: str
    source: str
    evaluate: Callable[[RunRecord], Rows]
    needs: Callable[[Mapping[str, Any]], list[dict]]
    when: Mapping[str, Any] = field(default_factory=dict)
    final_only: bool = False

    def where(self, **conditions: Any) -> Theorem:
        """The same theorem, declared to apply only under these hyper-parameter values."""
        return replace(self, when={**self.when, **conditions})

    def applies(self, params: Mapping[str, Any]) -> bool:
        return all(params.get(k) == v for k, v in self.when.items())

    def checks(self, record: RunRecord, context: str = "") -> list[tuple[int, BoundCheck]]:
        """Evaluate on ``record``: one (T, check) per checkpoint (or the final one)."""
        ks = record.checkpoints[-1:] if self.final_only else record.checkpoints
        start = record.params.get("init", "zeros")
        if start != "zeros":   # every theorem here is stated for runs that start at w_1 = 0
            reason = f"the theorem assumes w_1 = 0; this run started at init={start}"
            return [(int(T), skipped(self.name, self.quantity, reason)) for T in ks]
        try:
            rows = list(self.evaluate(record))
        except Skip as why:
            return [(int(T), skipped(self.name, self.quantity, str(why))) for T in ks]
        ctx = f"{context} {record.name}".strip()
        return [(int(T), check(self.name, self.quantity, bound, observed,
                               context=f"{ctx} T={int(T)}")) for T, bound, observed in rows]


def theorem(name: str, quantity: str, *, source: str,
            needs: Callable[[Mapping[str, Any]], list[dict]], final_only: bool = False):
    """Register ``fn(record) -> rows`` as the theorem ``name`` (see :class:`Theorem`)."""
    def register(fn: Callable[[RunRecord], Rows]) -> Theorem:
        if name in THEOREMS:
            raise ValueError(f"theorem {name!r} is registered twice")
        THEOREMS[name] = Theorem(name, quantity, source, fn, needs, final_only=final_only)
        return THEOREMS[name]
    return register


def max_margin(params: Mapping[str, Any]) -> list[dict]:
    """``needs`` of the theorems stated for separable data: the max-margin comparator."""
    return [{"key": "max_margin"}]


def any_u(params: Mapping[str, Any]) -> list[dict]:
    """``needs`` of the theorems that hold for every u: the best fixed hinge predictor."""
    return [{"key": "best_fixed", "loss": "hinge"}]


def declared(learner) -> tuple[Theorem, ...]:
    """The theorems a learner declares that apply to its hyper-parameters."""
    params = learner.get_params()
    return tuple(t for t in learner.bounds if t.applies(params))


def bound_table(learner, trace, *, checkpoints, R: float | None = None,
                fits: Mapping[str, Any] | None = None, context: str = "") -> pd.DataFrame:
    """Every bound ``learner`` declares, evaluated on ``trace`` at every checkpoint.

    ``learner`` supplies the declaration and the hyper-parameters (nothing else is read from
    it); ``trace`` supplies the record (margins, y, updated, final state). ``fits``:
    comparator fits by name. Long form with :data:`BOUND_COLUMNS`.
    """
    import pandas as pd

    record = RunRecord.of(trace, learner, checkpoints=checkpoints, R=R, fits=fits)
    rows = [row for t in declared(learner) for row in t.checks(record, context)]
    return pd.DataFrame([(T, c.bound_name, c.quantity, c.bound, c.observed, c.ratio, c.holds,
                          c.skip_reason) for T, c in rows], columns=BOUND_COLUMNS)
