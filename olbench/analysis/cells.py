"""How one summary number is written for people (terminal, report.md, comparisons): mean ±
std rounded where the std's second significant digit is, or, for the metrics of
:data:`olbench.schema.MEDIAN_METRICS` (time), the median with its quartiles, with enough
significant digits that a fast run never reads 0.0000.

>>> mean_pm(0.12345, 0.0123), median_quartiles(0.000132, 0.000128, 0.00014)
('0.123 ± 0.012', '0.000132 [0.000128, 0.000140]')
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from olbench import schema as col

#: a cell with no value
NONE = "—"


def mean_pm(mean: float, std: float) -> str:
    """``mean ± std``, both rounded where the std's second significant digit is (4 significant
    digits for the mean alone when the std is unknown).

    >>> mean_pm(0.12345, 0.0123), mean_pm(54.0, 1.65), mean_pm(3.0, float("nan"))
    ('0.123 ± 0.012', '54.0 ± 1.6', '3')
    >>> mean_pm(float("nan"), 1.0), mean_pm(2.5, 0.0)
    ('—', '2.5 ± 0')
    """
    if pd.isna(mean):
        return NONE
    if pd.isna(std) or not np.isfinite(std) or std <= 0:
        return f"{mean:.4g}" + ("" if pd.isna(std) else " ± 0")
    digits = min(12, max(0, 1 - int(np.floor(np.log10(std)))))
    return f"{mean:.{digits}f} ± {std:.{digits}f}"


def _decimals(value: float, significant: int = 3) -> int:
    """Decimals that show ``value`` with ``significant`` digits (never 0.0000 for 0.0002)."""
    if not np.isfinite(value) or value == 0:
        return 0
    return min(12, max(0, significant - 1 - int(np.floor(np.log10(abs(value))))))


def median_quartiles(median: float, q1: float, q3: float) -> str:
    """``median [q1, q3]``, all with the decimals of the median's 3 significant digits; the
    median alone when the quartiles equal it (one seed).

    >>> median_quartiles(0.000132, 0.000128, 0.00014), median_quartiles(12.34, 12.1, 12.6)
    ('0.000132 [0.000128, 0.000140]', '12.3 [12.1, 12.6]')
    >>> median_quartiles(0.0002, 0.0002, 0.0002), median_quartiles(float("nan"), 1.0, 2.0)
    ('0.000200', '—')
    """
    if pd.isna(median):
        return NONE
    d = _decimals(median)
    if pd.isna(q1) or pd.isna(q3) or q1 == q3 == median:
        return f"{median:.{d}f}"
    return f"{median:.{d}f} [{q1:.{d}f}, {q3:.{d}f}]"


def fewer_runs(covered, runs, latex: bool = False) -> str:
    """`` (k of n runs)`` after a statistic that covers k < n of its row's runs (some runs
    failed, or their comparator gave no fit: a time-out); empty when it covers all of them
    or none (no value at all).

    >>> fewer_runs(2, 5), fewer_runs(5, 5), fewer_runs(0, 5)
    (' (2 of 5 runs)', '', '')
    """
    if pd.isna(covered) or pd.isna(runs) or not 0 < int(covered) < int(runs):
        return ""
    text = f"({int(covered)} of {int(runs)} runs)"
    return f" {{\\footnotesize {text}}}" if latex else f" {text}"


def summary_cells(summary: pd.DataFrame, metric: str) -> list[str]:
    """``metric``'s cell of every summary row for people: mean ± std, or median [q1, q3] for
    the metrics of :data:`olbench.schema.MEDIAN_METRICS` (:func:`olbench.schema.summary_stats`
    names the columns), followed by ``(k of n runs)`` where it covers fewer than the row's
    runs (``<metric>_runs``; a summary written before that column existed: all of them).

    >>> s = pd.DataFrame({"runs": [5, 5], "regret_mean": [2715.0, 10.0],
    ...                   "regret_std": [68.0, 1.0], "regret_runs": [2, 5]})
    >>> summary_cells(s, "regret")
    ['2715 ± 68 (2 of 5 runs)', '10.0 ± 1.0']
    """
    stats = [summary.get(f"{metric}_{s}", pd.Series(np.nan, index=summary.index))
             for s in col.summary_stats(metric)]
    show = median_quartiles if metric in col.MEDIAN_METRICS else mean_pm
    runs = summary.get("runs", pd.Series(np.nan, index=summary.index))
    covered = summary.get(f"{metric}_runs", runs)
    return [show(*values) + fewer_runs(k, n) for *values, k, n in zip(*stats, covered, runs)]
