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
from olbench.losses import LABELLED_TASKS, get_loss, mistakes


def _arrays(margins, y, updated, tie, predicted=None):
    """Accept arrays or a trace-like object (duck typing on ``margins``/``y``/``updated``;
    a multiclass trace's ``predicted`` classes come with them)."""
    if hasattr(margins, "margins"):
        trace = margins
        y = trace.y if y is None else y
        updated = getattr(trace, "updated", None) if updated is None else updated
        tie = getattr(trace, "tie", None) or tie
        predicted = getattr(trace, "predicted", None)
        margins = trace.margins
    if y is None:
        raise ValueError("labels y are required (or pass a trace with .y)")
    margins, y = np.asarray(margins, dtype=float), np.asarray(y, dtype=float)
    if margins.shape != y.shape:
        raise ValueError(f"margins {margins.shape} and y {y.shape} differ in shape")
    return margins, y, (None if updated is None else np.asarray(updated, bool)), tie, predicted


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
          test_start: int | None = None, outliers=None, predicted=None) -> pd.DataFrame:
    """One row per checkpoint T: cumulative loss, mistakes, updates, regret.

    Columns: ``t``, ``loss`` (its name), ``cum_loss``, ``avg_loss``, ``mistakes``,
    ``mistake_rate`` (against the observed labels, classification only), ``clean_mistakes``,
    ``clean_mistake_rate`` (against ``clean_y`` if given), ``inlier_mistakes``,
    ``inlier_mistake_rate`` (on the rounds ``outliers`` does not mark, if given), ``updates``
    (if ``updated`` known), and with a comparator the columns of :func:`comparator_columns`.
    Any loss can be asked for: it is evaluated from the recorded margins. ``test_start``
    (a ``split=train_then_test`` stream's training length): ``test_mistakes``,
    ``test_mistake_rate`` and ``test_avg_loss`` over rounds test_start+1..t, empty up to it.
    ``predicted``: a multiclass run's predicted classes (``margins`` its multiclass margins,
    ``y`` its class indices; :mod:`olbench.losses`).

    >>> m = np.array([0.0, 0.5, -1.0, 2.0]); y = np.array([1.0, 1.0, 1.0, 1.0])
    >>> df = curve(m, y, np.array([True, True, True, False]), comparator=np.zeros(4),
    ...            checkpoints=[2, 4], outliers=np.array([False, False, True, False]))
    >>> df[["t", "cum_loss", "mistakes", "updates", "regret"]].values.tolist()
    [[2.0, 1.5, 1.0, 2.0, 1.5], [4.0, 3.5, 2.0, 3.0, 3.5]]
    >>> df["inlier_mistake_rate"].tolist()   # 1 mistake in 2 inliers, then 1 in 3
    [0.5, 0.3333333333333333]
    """
    margins, y, updated, tie, predicted = _arrays(margins, y, updated, tie, predicted)
    n = len(y)
    ks = log_checkpoints(n) if checkpoints is None else np.asarray(checkpoints, dtype=np.int64)
    L = get_loss(loss, epsilon=epsilon)
    cum_all = np.cumsum(L(margins, y))
    cum = cum_all[ks - 1]
    df = _frame(ks, loss, cum)
    wrong = mistakes(margins, y, tie, predicted) if L.task in LABELLED_TASKS else None
    if wrong is not None:
        mis = np.cumsum(wrong)[ks - 1]
        df[col.MISTAKES], df[col.MISTAKE_RATE] = mis, mis / ks
        if clean_y is not None:
            if predicted is not None:
                raise ValueError("clean labels (noise) of a multiclass run are not supported")
            cm = np.cumsum(mistakes(margins, np.asarray(clean_y, float), tie))[ks - 1]
            df[col.CLEAN_MISTAKES], df[col.CLEAN_MISTAKE_RATE] = cm, cm / ks
        if outliers is not None:
            inlier = ~np.asarray(outliers, bool)
            im = np.cumsum(wrong & inlier)[ks - 1]
            seen = np.cumsum(inlier)[ks - 1]
            df[col.INLIER_MISTAKES] = im
            df[col.INLIER_MISTAKE_RATE] = np.divide(im, seen, out=np.full(len(ks), np.nan),
                                                    where=seen > 0)
    if test_start is not None:
        start = int(test_start)
        cum_mis = None if wrong is None else np.cumsum(wrong)
        _test_part(df, ks, start, (cum, cum_all[start - 1] if start > 0 else 0.0),
                   None if cum_mis is None else
                   (cum_mis[ks - 1], cum_mis[start - 1] if start > 0 else 0))
    if updated is not None:
        df[col.UPDATES] = np.cumsum(updated)[ks - 1]
    if comparator is not None:
        for name, values in comparator_columns(comparator, ks, y, loss=loss, epsilon=epsilon,
                                               tie=tie, cum_loss=cum).items():
            df[name] = values
    return df


def _frame(ks: np.ndarray, loss: str, cum: np.ndarray) -> pd.DataFrame:
    return pd.DataFrame({col.T: ks, col.LOSS: loss, col.CUM_LOSS: cum, col.AVG_LOSS: cum / ks})


def sums_curve(ks, loss: str, cum_loss, cum_mistakes=None, cum_updates=None,
               test_start: int | None = None) -> pd.DataFrame:
    """The rows of :func:`curve` from cumulative sums already taken at the checkpoints ``ks``
    (a run over an out-of-core stream keeps no per-round record:
    :class:`olbench.harness.streamed.StreamSummary`); ``test_start`` must be one of ``ks``.

    >>> sums_curve(np.array([2, 4]), "hinge", np.array([1.5, 3.5]), np.array([1, 2]),
    ...            np.array([2, 3]))[["t", "avg_loss", "mistake_rate", "updates"]].values.tolist()
    [[2.0, 0.75, 0.5, 2.0], [4.0, 0.875, 0.5, 3.0]]
    """
    ks = np.asarray(ks, dtype=np.int64)
    df = _frame(ks, loss, np.asarray(cum_loss, float))
    if cum_mistakes is not None:
        df[col.MISTAKES], df[col.MISTAKE_RATE] = cum_mistakes, cum_mistakes / ks
    if test_start is not None:
        start = int(test_start)
        if start > 0 and start not in ks:
            raise ValueError(f"the test part starts after round {start}, not a checkpoint")
        i = int(np.searchsorted(ks, start))
        _test_part(df, ks, start, (cum_loss, cum_loss[i] if start else 0.0),
                   None if cum_mistakes is None else
                   (cum_mistakes, cum_mistakes[i] if start else 0))
    if cum_updates is not None:
        df[col.UPDATES] = cum_updates
    return df


def _test_part(df: pd.DataFrame, ks, start: int, cum_loss, cum_mistakes) -> None:
    """The test part's columns: differences of cumulative counts past the boundary.
    ``cum_loss``, ``cum_mistakes``: (values at ``ks``, value at round ``start``)."""
    after = ks > start
    rounds = np.where(after, ks - start, 1)
    df[col.TEST_AVG_LOSS] = np.where(after, (cum_loss[0] - cum_loss[1]) / rounds, np.nan)
    if cum_mistakes is not None:
        tm = np.where(after, cum_mistakes[0] - cum_mistakes[1], np.nan)
        df[col.TEST_MISTAKES], df[col.TEST_MISTAKE_RATE] = tm, tm / rounds


def comparator_columns(comparator, checkpoints, y, *, loss: str, epsilon: float = 0.1,
                       tie: str = "novikoff", cum_loss=None) -> dict[str, np.ndarray]:
    """The comparator's columns at the checkpoints: ``comparator_loss`` and ``regret``
    (= ``cum_loss`` - comparator_loss) and, for a fixed u on a classification loss,
    ``comparator_mistakes`` (u's mistakes, same tie rule) and ``mistake_regret`` (the
    learner's mistakes - u's: a scale-free regret, unchanged when a learner's w is rescaled).

    >>> from olbench.comparators import ComparatorFit
    >>> y = np.array([1.0, -1.0, 1.0]); fit = ComparatorFit("U", "hinge",
    ...     margins=np.array([2.0, 0.5, 1.0]), losses=np.array([0.0, 1.5, 0.0]), u=np.ones(1))
    >>> cols = comparator_columns(fit, [3], y, loss="hinge", cum_loss=np.array([2.0]))
    >>> {k: v.tolist() for k, v in cols.items()}
    {'comparator_loss': [1.5], 'regret': [0.5], 'comparator_mistakes': [1]}
    """
    ks = np.asarray(checkpoints, dtype=np.int64)
    comp = comparator_cum_loss(comparator, ks, y, loss=loss, epsilon=epsilon)
    out = {col.COMPARATOR_LOSS: comp}
    if cum_loss is not None:
        out[col.REGRET] = np.asarray(cum_loss) - comp
    mistakes_at = getattr(comparator, "mistakes_at", None)   # a fit with a fixed u
    if mistakes_at is not None and get_loss(loss).task in LABELLED_TASKS:
        wrong = mistakes_at(ks, tie, y)
        if wrong is not None:
            out[col.COMPARATOR_MISTAKES] = wrong
    return out


def regret_problem(fit, loss: str, checkpoints) -> str | None:
    """Why regret against ``fit`` cannot be measured in ``loss`` (None: it can).

    A skipped fit gives its reason; a comparator that minimises another loss than the run's
    (``best_fixed`` with ``loss=logistic`` against hinge runs) would give a regret against
    a predictor that is not the best in the measured loss, so it is not used; a comparator
    of the other task (a hinge comparator for a regressor) measures nothing.

    >>> from olbench.comparators import ComparatorFit
    >>> fit = ComparatorFit("B", "logistic", params={"key": "best_fixed"})
    >>> print(regret_problem(fit, "hinge", [1]))   # doctest: +NORMALIZE_WHITESPACE
    minimises the logistic loss but the runs measure the hinge loss: leave the comparator's
    loss null (it then takes the run's) or set loss=logistic
    """
    from olbench.comparators import Comparator

    if not fit.ok:
        return fit.skip_reason
    if fit.loss == loss:
        by_checkpoint = "prefix" if fit.prefix_loss is not None else \
            "streamed" if fit.streamed else None
        if by_checkpoint and not np.isin(checkpoints, fit.checkpoints).all():
            return f"the {by_checkpoint} fit lacks some of the run's checkpoints"
        return None
    if fit.streamed:
        return (f"fitted chunk by chunk over an out-of-core stream, it knows its {fit.loss} "
                f"loss only, not the {loss} loss the runs measure")
    other_task = Comparator.problem_with(None, fit.loss, run_loss=loss)
    if other_task:
        return other_task
    key = fit.params.get("key")
    minimises = fit.prefix_loss is not None or (
        key in Comparator.registry.keys() and Comparator.registry.get(key).minimises_loss)
    if minimises:
        return (f"minimises the {fit.loss} loss but the runs measure the {loss} loss: leave the "
                f"comparator's loss null (it then takes the run's) or set loss={fit.loss}")
    return None


def metrics_table(trace, *, learner=None, meta=None, fits: dict | None = None,
                  loss: str | None = None, epsilon: float = 0.1, comparator: str | None = None,
                  checkpoints=None, R: float | None = None, bounds: bool = True
                  ) -> pd.DataFrame:
    """The metrics table of one run: :func:`curve` rows, once per comparator fit (the
    ``comparator`` column names it; regret columns against it, or its
    ``comparator_skip_reason`` when it cannot be used: :func:`regret_problem`), merged with
    the bound rows of every theorem ``learner`` declares (:func:`olbench.bounds.bound_table`;
    none with ``bounds=False``).

    ``trace``: the engine's Trace (or any object with ``margins``, ``y``, ``updated``, ``tie``,
    ``loss_name``, ``state``). ``fits``: comparator fits by name; ``comparator`` restricts the
    regret columns to that one. ``R`` defaults to ``meta.radius``. Long form: one row per
    (checkpoint, comparator, bound); bound columns are empty when no bound applies. The
    stream's margin w.r.t. its generating vector (``meta.margin``, when ``meta.u`` is known)
    lets theorems for separable data say that the stream is not separable.
    """
    from olbench.bounds import bound_table

    margins, y, updated, tie, predicted = _arrays(trace, None, None, "novikoff")
    loss = loss or getattr(trace, "loss_name", None) or "hinge"
    ks = log_checkpoints(len(y)) if checkpoints is None else np.asarray(checkpoints, np.int64)
    fits = fits or {}
    outliers = (getattr(meta, "extra", None) or {}).get("outliers")
    base = curve(margins, y, updated, loss=loss, epsilon=epsilon, tie=tie, checkpoints=ks,
                 clean_y=getattr(meta, "clean_y", None), outliers=outliers,
                 test_start=None if meta is None else train_test_boundary(meta),
                 predicted=predicted)
    chosen = [fits[comparator]] if comparator is not None else list(fits.values())
    df = _against(base, chosen, ks, y, loss=loss, epsilon=epsilon, tie=tie)
    if learner is None or not bounds:
        return df
    R = getattr(meta, "radius", None) if R is None else R
    # a margin says whether the labels are separable only with respect to one fixed vector
    # (a drifting stream's is w.r.t. the moving u_t, and it has no meta.u)
    margin = getattr(meta, "margin", None) if getattr(meta, "u", None) is not None else None
    bt = bound_table(learner, trace, checkpoints=ks, R=R, fits=fits, margin=margin)
    if bt.empty:
        return df
    return df.merge(bt, on=col.T, how="left")


def _against(base: pd.DataFrame, fits: list, ks, y, *, loss: str, epsilon: float, tie: str
             ) -> pd.DataFrame:
    """``base`` (the curve) once per comparator fit, with the regret columns against it or
    its ``comparator_skip_reason`` when it cannot be used (:func:`regret_problem`)."""
    blocks = []
    for fit in fits:
        block = base.assign(**{col.COMPARATOR: fit.comparator})
        problem = regret_problem(fit, loss, ks)
        if problem is None:
            cols = comparator_columns(fit, ks, y, loss=loss, epsilon=epsilon, tie=tie,
                                      cum_loss=base[col.CUM_LOSS].to_numpy())
            if col.COMPARATOR_MISTAKES in cols and col.MISTAKES in base:
                cols[col.MISTAKE_REGRET] = base[col.MISTAKES].to_numpy() - cols[
                    col.COMPARATOR_MISTAKES]
            block = block.assign(**cols)
        else:  # no regret against it, and the reason in its place
            block = block.assign(**{col.COMPARATOR_LOSS: np.nan, col.REGRET: np.nan,
                                    col.COMPARATOR_SKIP: problem})
        blocks.append(block)
    return pd.concat(blocks, ignore_index=True) if blocks else base.assign(
        **{col.COMPARATOR: None})


def summary_table(summary, *, learner=None, meta=None, fits: dict | None = None,
                  bounds: bool = True) -> pd.DataFrame:
    """:func:`metrics_table` of a run over an out-of-core stream, from its
    :class:`olbench.harness.streamed.StreamSummary` (cumulative sums at the checkpoints, no
    per-round record): the same columns, the comparators' from their streamed fits. The
    theorems read every round's margin, so each one the learner declares is a row saying it
    was not checked, and why."""
    from olbench.bounds import skipped_table

    ks = summary.checkpoints
    base = sums_curve(ks, summary.loss_name, summary.cum_loss, summary.cum_mistakes,
                      summary.cum_updates,
                      test_start=None if meta is None else train_test_boundary(meta))
    df = _against(base, list((fits or {}).values()), ks, None, loss=summary.loss_name,
                  epsilon=0.1, tie=summary.tie)
    if learner is None or not bounds:
        return df
    bt = skipped_table(learner, checkpoints=ks, reason=summary.bounds_skipped)
    return df if bt.empty else df.merge(bt, on=col.T, how="left")
