"""Paired comparisons over seeds: two learners run on the same streams (paired by seed).

Pure functions of numbers and of the results table's final rows (:func:`olbench.analysis.views.
final_rows`); nothing here draws. Used by the outlier study's heatmap
(``experiments/pa_vs_arow_outliers/outlier_heatmap.py``) and its cell table
(``experiments/pa_vs_arow_outliers/cells.py``).

* :func:`paired_test`: mean difference a - b with its t interval, and the two-sided
  Wilcoxon signed-rank test of the differences (``scipy.stats.wilcoxon``).
* :func:`holm`: Holm's step-down adjustment of a family of p-values.
* :func:`stream_factors`: the parameters of each stream name, as columns.
* :func:`paired_cells`: one row per cell (setting of the factors): each learner's mean with
  its t interval over seeds, and the paired test of the two.
* :func:`gap_change`: how the paired gap of two learners changes between two levels of a
  stream parameter (the outlier study's bias column), paired by seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import stats as sps

from olbench import schema as col
from olbench.component import parse_name


class PairedTest(NamedTuple):
    """The paired comparison of a and b over k seeds (see :func:`paired_test`)."""

    k: int
    mean_diff: float
    low: float
    high: float
    p_value: float


def mean_interval(x, confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean of ``x`` and its Student-t ``confidence`` interval (mean ± t sd / sqrt(k)).

    One value, or values that are all equal, give a zero-width interval.

    >>> [round(v, 4) for v in mean_interval([1.0, 2.0, 3.0])]
    [2.0, -0.4841, 4.4841]
    """
    x = np.asarray(x, float)
    mean = float(x.mean())
    if len(x) < 2:
        return mean, mean, mean
    half = float(sps.t.ppf(0.5 + confidence / 2, len(x) - 1) * x.std(ddof=1) / np.sqrt(len(x)))
    return mean, mean - half, mean + half


def paired_test(a, b, confidence: float = 0.95) -> PairedTest:
    """Differences a - b (paired: a[i] and b[i] come from the same seed), their mean with
    its t interval, and the p-value of the two-sided Wilcoxon signed-rank test
    (``scipy.stats.wilcoxon`` with its defaults: zero differences dropped, the exact null
    distribution for small k without ties). When every difference is 0 there is nothing to
    test: p = 1.

    >>> t = paired_test([3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0])
    >>> t.k, t.mean_diff, t.p_value          # all six differences positive: p = 2 / 2**6
    (6, 4.5, 0.03125)
    """
    a, b = np.asarray(a, float), np.asarray(b, float)
    if a.shape != b.shape or a.ndim != 1 or len(a) == 0:
        raise ValueError(f"paired_test needs two 1-D arrays of the same positive length; got "
                         f"shapes {a.shape} and {b.shape}")
    diff = a - b
    mean, low, high = mean_interval(diff, confidence)
    p = 1.0 if not diff.any() else float(sps.wilcoxon(diff).pvalue)
    return PairedTest(len(diff), mean, low, high, p)


def holm(pvalues) -> np.ndarray:
    """Holm's step-down adjusted p-values (Holm 1979): the i-th smallest of m is multiplied by
    (m - i + 1), made monotone, capped at 1. Rejecting where the adjusted p < alpha keeps the
    family-wise error rate at alpha. NaN p-values stay NaN and do not count in m.

    >>> holm([0.01, 0.04, 0.03, float("nan")]).round(2).tolist()
    [0.03, 0.06, 0.06, nan]
    """
    p = np.asarray(pvalues, float)
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    order = ok[np.argsort(p[ok], kind="stable")]
    m = len(order)
    scaled = np.maximum.accumulate(p[order] * (m - np.arange(m)))
    out[order] = np.minimum(scaled, 1.0)
    return out


def stream_factors(names) -> pd.DataFrame:
    """The parameters of each stream name, one column each (index: the names); a name
    without a parameter has NaN there.

    >>> stream_factors(["Outliers[d=5,flip_rate=0.1]", "Outliers[d=50,flip_rate=0.0]"])
    ... # doctest: +NORMALIZE_WHITESPACE
                                   d  flip_rate
    Outliers[d=5,flip_rate=0.1]    5        0.1
    Outliers[d=50,flip_rate=0.0]  50        0.0
    """
    unique = list(dict.fromkeys(names))
    return pd.DataFrame([parse_name(n)[1] for n in unique], index=unique)


def paired_cells(final: pd.DataFrame, metric: str, learner_a: str, learner_b: str,
                 factors: Sequence[str], confidence: float = 0.95) -> pd.DataFrame:
    """One row per setting of ``factors`` (stream parameters) where both learners ran: the
    mean of ``metric`` over seeds of each learner with its t interval (``a_mean``, ``a_low``,
    ``a_high``, ``b_...``), and :func:`paired_test` of a - b over the seeds both ran
    (``k``, ``diff``, ``diff_low``, ``diff_high``, ``p_value``), plus ``p_holm``: Holm's
    adjustment over all the rows returned.

    ``final``: :func:`olbench.analysis.views.final_rows` of a results table (columns
    ``stream_label``, ``learner_label``, ``seed`` and ``metric``); ``learner_a`` and ``learner_b``
    are learner labels (names without the seed). Streams that differ only in parameters outside
    ``factors`` (other than the seed) would be merged into one cell: refused.
    """
    rows = final[final[col.LEARNER_LABEL].isin([learner_a, learner_b])].dropna(subset=[metric])
    params = stream_factors(rows[col.STREAM_LABEL])
    missing = [f for f in factors if f not in params]
    if missing:
        raise ValueError(f"paired_cells: factors {missing} are not stream parameters; the "
                         f"streams have {sorted(params)}")
    rows = rows.join(params[list(factors)], on=col.STREAM_LABEL)
    if (rows.groupby(list(factors))[col.STREAM_LABEL].nunique() > 1).any():
        raise ValueError(f"paired_cells: streams differ in parameters outside {list(factors)}"
                         "; add them to the factors")
    wide = rows.pivot_table(index=[*factors, col.SEED], columns=col.LEARNER_LABEL, values=metric)
    out = []
    for cell, sub in wide.groupby(level=list(range(len(factors)))):
        a = sub.get(learner_a, pd.Series(dtype=float)).dropna()
        b = sub.get(learner_b, pd.Series(dtype=float)).dropna()
        both = sub[[learner_a, learner_b]].dropna() if len(a) and len(b) else sub.iloc[:0]
        if both.empty:
            continue
        cell = cell if isinstance(cell, tuple) else (cell,)
        test = paired_test(both[learner_a], both[learner_b], confidence)
        out.append({**dict(zip(factors, cell)),
                    **dict(zip(("a_mean", "a_low", "a_high"), mean_interval(a, confidence))),
                    **dict(zip(("b_mean", "b_low", "b_high"), mean_interval(b, confidence))),
                    "k": test.k, "diff": test.mean_diff, "diff_low": test.low,
                    "diff_high": test.high, "p_value": test.p_value})
    table = pd.DataFrame(out)
    if not table.empty:
        table["p_holm"] = holm(table["p_value"])
    return table


def gap_change(final: pd.DataFrame, metric: str, learner_a: str, learner_b: str,
               factors: Sequence[str], factor: str, base, other,
               confidence: float = 0.95) -> pd.DataFrame:
    """How the paired gap a - b changes when the stream parameter ``factor`` goes from
    ``base`` to ``other``, per setting of ``factors``: the mean gap over seeds at each level
    (``gap_base``, ``gap_other``) and :func:`paired_test` of gap(other) - gap(base) over the
    seeds that have both learners at both levels (``k``, ``change``, ``change_low``,
    ``change_high``, ``p_value``), plus ``p_holm`` over the rows returned. Pairing across
    the two levels by seed needs streams that draw the same data from the same seed at both
    levels (``bias_value`` of :class:`~olbench.streams.synthetic.Outliers` only sets the
    constant column). Columns as :func:`paired_cells`: ``final`` has ``stream_label``,
    ``learner_label``, ``seed`` and ``metric``.

    >>> rows = pd.DataFrame([{"stream_label": f"S[b={b},f=0]", "learner_label": name,
    ...                       "seed": s, "rate": rate + 0.01 * s}
    ...                      for s in range(6) for b, gap in [(1, -0.3), (10, -0.1)]
    ...                      for name, rate in [("A", 0.4 + gap), ("B", 0.4)]])
    >>> row = gap_change(rows, "rate", "A", "B", ["f"], "b", 1, 10).iloc[0]
    >>> [round(float(row[c]), 9) for c in ("gap_base", "gap_other", "change", "k")]
    [-0.3, -0.1, 0.2, 6.0]
    """
    rows = final[final[col.LEARNER_LABEL].isin([learner_a, learner_b])].dropna(subset=[metric])
    names = [*factors, factor]
    params = stream_factors(rows[col.STREAM_LABEL])
    missing = [f for f in names if f not in params]
    if missing:
        raise ValueError(f"gap_change: {missing} are not stream parameters; the streams have "
                         f"{sorted(params)}")
    rows = rows.join(params[names], on=col.STREAM_LABEL)
    if (rows.groupby(names)[col.STREAM_LABEL].nunique() > 1).any():
        raise ValueError(f"gap_change: streams differ in parameters outside {names}; add them "
                         "to the factors")
    wide = rows.pivot_table(index=[*names, col.SEED], columns=col.LEARNER_LABEL, values=metric)
    gaps = (wide[learner_a] - wide[learner_b]).dropna().unstack(factor)
    out = []
    for cell, sub in gaps.groupby(level=list(range(len(factors)))):
        both = sub[[base, other]].dropna() if {base, other} <= set(sub) else sub.iloc[:0]
        if both.empty:
            continue
        cell = cell if isinstance(cell, tuple) else (cell,)
        test = paired_test(both[other], both[base], confidence)
        out.append({**dict(zip(factors, cell)), "gap_base": float(both[base].mean()),
                    "gap_other": float(both[other].mean()), "k": test.k, "change": test.mean_diff,
                    "change_low": test.low, "change_high": test.high, "p_value": test.p_value})
    table = pd.DataFrame(out)
    if not table.empty:
        table["p_holm"] = holm(table["p_value"])
    return table
