"""Metrics: from margins + labels (+ comparator) to losses, mistakes, updates, regret, bounds.

Everything here is a pure, vectorised function of arrays recorded by a run -- nothing reruns a
learner:

* ``margins``: float64 per round, the learner's output p_t = w_t.x_t recorded *before* y_t was
  revealed; ``y``: labels in {-1, +1} (or real targets); ``updated``: bool per round.
* A *trace* (the engine's record of a run) may be passed instead of the arrays: any object with
  attributes ``margins``, ``y`` and optionally ``updated``, ``tie``, ``mistakes``.
* Checkpoints are 1-based round counts T (:mod:`olbench.checkpoints`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from olbench import schema as col
from olbench.checkpoints import log_checkpoints, train_test_boundary
from olbench.losses import get_loss, mistakes


def _arrays(margins, y, updated, tie):
    """Accept arrays or a trace-like object (duck typing on ``margins``/``y``/``updated``)."""
    if hasattr(margins, "margins"):
        trace = margins
        y = trace.y if y is None else y
        updated = getattr(trace, "updated", None) if updated is None else updated
        tie = getattr(trace, "tie", None) or tie
        margins = trace.margins
    if y is None:
        raise ValueError("labels y are required (or pass a trace with .y)")
    margins, y = np.asarray(margins, dtype=float), np.asarray(y, dtype=float)
    if margins.shape != y.shape:
        raise ValueError(f"margins {margins.shape} and y {y.shape} differ in shape")
    return margins, y, (None if updated is None else np.asarray(updated, bool)), tie


def comparator_cum_loss(comparator, checkpoints, y=None, *, loss=None, epsilon=0.1):
    """Comparator's cumulative loss at the checkpoints.

    ``comparator``: a :class:`~olbench.comparators.ComparatorFit` (its own loss, or ``loss``
    re-evaluated from its margins for a fixed u), per-round losses (length n), or values
    already at the checkpoints (same length as ``checkpoints``, when that differs from n).
    """
    ks = np.asarray(checkpoints, dtype=np.int64)
    if hasattr(comparator, "cum_loss_at"):
        if loss is None or loss == comparator.loss:
            return comparator.cum_loss_at(ks)
        if comparator.prefix_loss is not None:
            raise ValueError(f"{comparator.comparator} minimises {comparator.loss}; a prefix fit "
                             f"cannot be re-evaluated under {loss}")
        return np.cumsum(comparator.loss_of(loss, y, epsilon=epsilon))[ks - 1]
    arr = np.asarray(comparator, dtype=float)
    n = len(y) if y is not None else None
    if n is not None and arr.shape[0] == n:
        return np.cumsum(arr)[ks - 1]
    if arr.shape[0] == len(ks):
        return arr
    raise ValueError(f"comparator losses have length {arr.shape[0]}; expected n or one per "
                     f"checkpoint ({len(ks)})")


def curve(margins, y=None, updated=None, *, loss: str = "hinge", epsilon: float = 0.1,
          tie: str = "novikoff", comparator=None, checkpoints=None, clean_y=None,
          test_start: int | None = None) -> pd.DataFrame:
    """One row per checkpoint T: cumulative loss, mistakes, updates, regret.

    Columns: ``t``, ``loss`` (its name), ``cum_loss``, ``avg_loss``, ``mistakes``,
    ``mistake_rate`` (against the observed labels, classification only), ``clean_mistakes``,
    ``clean_mistake_rate`` (against ``clean_y`` if given), ``updates`` (if ``updated`` known),
    ``comparator_loss`` and ``regret`` = cum_loss - comparator_loss (if a comparator is given).
    Any loss can be asked for: it is evaluated from the recorded margins. ``test_start``
    (a ``split=train_then_test`` stream's training length): ``test_mistakes``,
    ``test_mistake_rate`` and ``test_avg_loss`` over rounds test_start+1..t, empty up to it.

    >>> m = np.array([0.0, 0.5, -1.0, 2.0]); y = np.array([1.0, 1.0, 1.0, 1.0])
    >>> df = curve(m, y, np.array([True, True, True, False]), comparator=np.zeros(4),
    ...            checkpoints=[2, 4])
    >>> df[["t", "cum_loss", "mistakes", "updates", "regret"]].values.tolist()
    [[2.0, 1.5, 1.0, 2.0, 1.5], [4.0, 3.5, 2.0, 3.0, 3.5]]
    """
    margins, y, updated, tie = _arrays(margins, y, updated, tie)
    n = len(y)
    ks = log_checkpoints(n) if checkpoints is None else np.asarray(checkpoints, dtype=np.int64)
    L = get_loss(loss, epsilon=epsilon)
    cum_all = np.cumsum(L(margins, y))
    cum = cum_all[ks - 1]
    df = pd.DataFrame({col.T: ks, col.LOSS: loss, col.CUM_LOSS: cum, col.AVG_LOSS: cum / ks})
    if L.task == "classification":
        mis = np.cumsum(mistakes(margins, y, tie))[ks - 1]
        df[col.MISTAKES], df[col.MISTAKE_RATE] = mis, mis / ks
        if clean_y is not None:
            cm = np.cumsum(mistakes(margins, np.asarray(clean_y, float), tie))[ks - 1]
            df[col.CLEAN_MISTAKES], df[col.CLEAN_MISTAKE_RATE] = cm, cm / ks
    if test_start is not None:
        _test_part(df, ks, int(test_start), cum_all,
                   np.cumsum(mistakes(margins, y, tie)) if L.task == "classification" else None)
    if updated is not None:
        df[col.UPDATES] = np.cumsum(updated)[ks - 1]
    if comparator is not None:
        comp = comparator_cum_loss(comparator, ks, y, loss=loss, epsilon=epsilon)
        df[col.COMPARATOR_LOSS] = comp
        df[col.REGRET] = cum - comp
    return df


def _test_part(df: pd.DataFrame, ks, start: int, cum_loss, cum_mistakes) -> None:
    """The test part's columns: differences of cumulative counts past the boundary."""
    after = ks > start
    rounds = np.where(after, ks - start, 1)
    before = cum_loss[start - 1] if start > 0 else 0.0
    df[col.TEST_AVG_LOSS] = np.where(after, (cum_loss[ks - 1] - before) / rounds, np.nan)
    if cum_mistakes is not None:
        m0 = cum_mistakes[start - 1] if start > 0 else 0
        tm = np.where(after, cum_mistakes[ks - 1] - m0, np.nan)
        df[col.TEST_MISTAKES], df[col.TEST_MISTAKE_RATE] = tm, tm / rounds


def metrics_table(trace, *, learner=None, meta=None, fits: dict | None = None,
                  loss: str | None = None, epsilon: float = 0.1, comparator: str | None = None,
                  checkpoints=None, R: float | None = None) -> pd.DataFrame:
    """The metrics table of one run: :func:`curve` rows merged with the bound rows of every
    theorem ``learner`` declares (:func:`olbench.bounds.bound_table`).

    ``trace``: the engine's Trace (or any object with ``margins``, ``y``, ``updated``, ``tie``,
    ``loss_name``, ``state``). ``fits``: comparator fits by name; ``comparator`` names the one
    used for the regret columns (default: the first that fits the loss). ``R`` defaults to
    ``meta.radius``. Long form: one row per (checkpoint, bound); bound columns are empty when
    no bound applies.
    """
    from olbench.bounds import bound_table

    margins, y, updated, tie = _arrays(trace, None, None, "novikoff")
    loss = loss or getattr(trace, "loss_name", None) or "hinge"
    ks = log_checkpoints(len(y)) if checkpoints is None else np.asarray(checkpoints, np.int64)
    fits = fits or {}
    if comparator is not None:
        comp = fits[comparator]
    else:
        comp = next((f for f in fits.values() if f.ok and f.loss == loss
                     and (f.prefix_loss is None or np.isin(ks, f.checkpoints).all())), None)
    df = curve(margins, y, updated, loss=loss, epsilon=epsilon, tie=tie,
               comparator=comp if comp is not None and comp.ok else None, checkpoints=ks,
               clean_y=getattr(meta, "clean_y", None),
               test_start=None if meta is None else train_test_boundary(meta))
    df[col.COMPARATOR] = comp.comparator if comp is not None else None
    if learner is None:
        return df
    R = getattr(meta, "radius", None) if R is None else R
    bt = bound_table(learner, trace, checkpoints=ks, R=R, fits=fits)
    if bt.empty:
        return df
    return df.merge(bt, on=col.T, how="left")
