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
    trivial: float | None = None   # the most the quantity can be, whatever the learner does

    @property
    def ratio(self) -> float | None:
        if self.bound is None or self.observed is None or self.bound == 0:
            return None
        return self.observed / self.bound

    @property
    def vacuous(self) -> bool | None:
        """The bound cannot bind: it is at least the trivial bound (None: either unknown)."""
        if self.bound is None or self.trivial is None:
            return None
        return bool(self.bound >= self.trivial)


def check(bound_name: str, quantity: str, bound: float, observed: float, *,
          rtol: float = 1e-9, atol: float = 1e-9, context: str = "",
          trivial: float | None = None) -> BoundCheck:
    """Compare; a violation emits a :class:`BoundViolation` warning (loud: it means a bug).
    ``trivial``: the most the quantity can be whatever the learner does (:func:`trivial_bound`);
    a bound at or above it is vacuous.

    >>> check("novikoff", "mistakes", 4.0, 3).holds
    True
    >>> check("novikoff", "mistakes", 109631.3, 96, trivial=1000).vacuous
    True
    """
    holds = bool(observed <= bound * (1 + rtol) + atol)
    if not holds:
        source = THEOREMS[bound_name].source if bound_name in THEOREMS else ""
        warnings.warn(f"BOUND VIOLATED{' (' + context + ')' if context else ''}: {bound_name} "
                      f"bounds {quantity} by {bound:.6g} but {observed:.6g} was observed; its "
                      f"assumptions hold, so this is a bug ({source})",
                      BoundViolation, stacklevel=2)
    return BoundCheck(bound_name, quantity, float(bound), float(observed), holds,
                      trivial=None if trivial is None else float(trivial))


def skipped(bound_name: str, quantity: str, reason: str) -> BoundCheck:
    return BoundCheck(bound_name, quantity, None, None, None, reason)


#: the most a counted quantity grows per round whatever the learner does: one mistake, one
#: update (so a mistake bound >= t says nothing about t rounds)
AT_MOST_PER_ROUND = {"mistakes": 1.0, "updates": 1.0}


def trivial_bound(quantity: str, T: int) -> float | None:
    """The most ``quantity`` can be after ``T`` rounds whatever the learner does, when the
    quantity alone says it (:data:`AT_MOST_PER_ROUND`); None otherwise (a theorem that knows
    one for its regret, e.g. on losses in [0, 1], returns it with its rows: :class:`Theorem`).

    >>> trivial_bound("mistakes", 1000), trivial_bound("regret", 1000)
    (1000.0, None)
    """
    per_round = AT_MOST_PER_ROUND.get(quantity)
    return None if per_round is None else per_round * T


def most_regret(T: int, gradient: float, diameter: float) -> float:
    """The regret no learner of K can exceed in T rounds of convex losses: each round's
    f_t(w_t) - f_t(u) <= g_t.(w_t - u) <= ||g_t|| ||w_t - u|| <= G D (dual norms), so a
    regret bound >= G D T is vacuous.

    >>> most_regret(100, gradient=1.0, diameter=2.0)
    200.0
    """
    return float(gradient * diameter * T)


# --------------------------------------------------------------------------- the record
@dataclass(frozen=True)
class RunRecord:
    """What a theorem may look at: the record of one run, never the learner object.

    ``params``: the learner's hyper-parameters; ``margins``, ``y``, ``updated``: per round;
    ``state``: the final state as exported by the run (``trace.state``); ``checkpoints``:
    1-based rounds T to check at; ``R``: the stream radius max ||x_t|| (None: unknown);
    ``fits``: comparator fits by name; ``name``: the learner's name (for messages);
    ``margin``: the stream's margin min_t y_t u.x_t / ||u|| for a fixed generating vector u
    (``StreamMeta.margin`` when ``StreamMeta.u`` is known; None otherwise): it says whether
    the labels are separable by u, so a theorem stated for separable data can say why it
    does not apply without a max-margin fit. ``tie``: the learner's tie rule
    (:attr:`olbench.learners.traits.Traits.tie`), which its mistakes are counted with.
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
    margin: float | None = None
    tie: str = "novikoff"

    @classmethod
    def of(cls, trace, learner, *, checkpoints, R=None, fits=None, margin=None) -> RunRecord:
        """The record of ``trace`` (any object with ``margins``, ``y``, ``updated``,
        ``state``) produced by a learner with ``learner``'s hyper-parameters."""
        return cls(params=learner.get_params(), margins=np.asarray(trace.margins, float),
                   y=np.asarray(trace.y, float), updated=getattr(trace, "updated", None),
                   state=getattr(trace, "state", None) or {},
                   checkpoints=np.asarray(checkpoints, dtype=np.int64), R=R,
                   fits=fits or {}, name=learner.name, margin=margin, tie=learner.tie)

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
        return np.cumsum(mistakes(self.margins, self.y, tie or self.tie))

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
        """The max-margin fit (it supplies gamma and the separable-case u). Without one that
        succeeded, the :class:`Skip` says which hypothesis fails: the stream is not linearly
        separable (the max-margin fit found no separating u, or the stream's own generating
        vector does not separate it and no fit looked for another), else what is missing."""
        for f in self.fits.values():
            if getattr(f, "info", {}).get("gamma") is not None or (
                    getattr(f, "comparator", "").startswith("MaxMargin")):
                if not f.ok:
                    reason = str(f.skip_reason)
                    if reason.startswith("not separable"):
                        reason = ("the stream is not linearly separable (max-margin fit: "
                                  f"{reason.partition(':')[2].strip() or reason})")
                    raise Skip(reason)
                return f
        if self.margin is not None and self.margin <= 0:
            raise Skip(f"the stream is not linearly separable by its generating vector u "
                       f"(min_t y_t u.x_t / ||u|| = {self.margin:.3g}: labels flipped or points "
                       f"moved) and the theorem needs a margin gamma > 0; comparator "
                       f"max_margin would look for another u")
        raise Skip("no max_margin comparator fit given (it supplies the margin gamma)")


# --------------------------------------------------------------------------- theorems
Rows = Iterable[tuple[int, float, float]]


@dataclass(frozen=True)
class Theorem:
    """A registered bound: ``evaluate(record)`` returns ``(T, bound, observed)`` rows, or
    ``(T, bound, observed, trivial)`` when the theorem knows the most its quantity can be
    after T rounds whatever the learner does (default: :func:`trivial_bound`), or raises
    :class:`Skip`. ``when``: hyper-parameter values under which it applies (a PA-I bound
    applies to ``variant="pa1"`` only); ``final_only``: it needs the final state, so it is
    checked (or skipped) at the last checkpoint only; ``needs(params)``: the comparators
    (``{"key": ..., **params}``) whose fits make it checkable for a learner with these
    hyper-parameters; ``formula``: the bound as people write it, e.g. ``(R/γ)²`` (the
    terminal and report.md print it beside the value; empty: the name alone)."""

    name: str
    quantity: str
    source: str
    evaluate: Callable[[RunRecord], Rows]
    needs: Callable[[Mapping[str, Any]], list[dict]]
    when: Mapping[str, Any] = field(default_factory=dict)
    final_only: bool = False
    formula: str = ""

    def where(self, **conditions: Any) -> Theorem:
        """The same theorem, declared to apply only under these hyper-parameter values."""
        return replace(self, when={**self.when, **conditions})

    def applies(self, params: Mapping[str, Any]) -> bool:
        return all(params.get(k) == v for k, v in self.when.items())

    def checks(self, record: RunRecord, context: str = "") -> list[tuple[int, BoundCheck]]:
        """Evaluate on ``record``: one (T, check) per checkpoint (or the final one)."""
        ks = record.checkpoints[-1:] if self.final_only else record.checkpoints
        start = record.params.get("init", "zeros")
        # every theorem here is stated for runs that start at w_1 = 0 (an array init compares
        # elementwise, hence no plain !=)
        if not (isinstance(start, str) and start == "zeros"):
            from olbench.learners.initial import init_label  # learners import bounds

            reason = f"the theorem assumes w_1 = 0; this run started at init={init_label(start)}"
            return [(int(T), skipped(self.name, self.quantity, reason)) for T in ks]
        try:
            rows = list(self.evaluate(record))
        except Skip as why:
            return [(int(T), skipped(self.name, self.quantity, str(why))) for T in ks]
        ctx = f"{context} {record.name}".strip()
        return [(int(row[0]), check(self.name, self.quantity, row[1], row[2],
                                    context=f"{ctx} T={int(row[0])}",
                                    trivial=row[3] if len(row) > 3 else
                                    trivial_bound(self.quantity, int(row[0]))))
                for row in rows]


def theorem(name: str, quantity: str, *, source: str,
            needs: Callable[[Mapping[str, Any]], list[dict]], final_only: bool = False,
            formula: str = ""):
    """Register ``fn(record) -> rows`` as the theorem ``name`` (see :class:`Theorem`)."""
    def register(fn: Callable[[RunRecord], Rows]) -> Theorem:
        if name in THEOREMS:
            raise ValueError(f"theorem {name!r} is registered twice")
        THEOREMS[name] = Theorem(name, quantity, source, fn, needs, final_only=final_only,
                                 formula=formula)
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
                fits: Mapping[str, Any] | None = None, context: str = "",
                margin: float | None = None) -> pd.DataFrame:
    """Every bound ``learner`` declares, evaluated on ``trace`` at every checkpoint.

    ``learner`` supplies the declaration and the hyper-parameters (nothing else is read from
    it); ``trace`` supplies the record (margins, y, updated, final state). ``fits``:
    comparator fits by name; ``margin``: see :class:`RunRecord`. Long form with
    :data:`BOUND_COLUMNS`.
    """
    record = RunRecord.of(trace, learner, checkpoints=checkpoints, R=R, fits=fits,
                          margin=margin)
    return _table([row for t in declared(learner) for row in t.checks(record, context)])


def skipped_table(learner, *, checkpoints, reason: str) -> pd.DataFrame:
    """:func:`bound_table`'s rows for a run no theorem can read (one that kept no per-round
    record: :mod:`olbench.harness.streamed`): every theorem ``learner`` declares, skipped for
    ``reason`` at each checkpoint it would be checked at.

    >>> from olbench import make_learner
    >>> table = skipped_table(make_learner("perceptron"), checkpoints=[10, 20], reason="r")
    >>> sorted(set(table["bound_name"])), table["skip_reason"].unique().tolist()
    (['freund_schapire', 'novikoff'], ['r'])
    """
    ks = np.asarray(checkpoints, dtype=np.int64)
    return _table([(int(T), skipped(t.name, t.quantity, reason)) for t in declared(learner)
                   for T in (ks[-1:] if t.final_only else ks)])


def _table(rows: list[tuple[int, BoundCheck]]) -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame([(T, c.bound_name, c.quantity, c.bound, c.observed, c.ratio, c.holds,
                          c.skip_reason, c.trivial, c.vacuous) for T, c in rows],
                        columns=BOUND_COLUMNS)
