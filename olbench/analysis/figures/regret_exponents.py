"""The growth exponent of each regret curve: regret ~ c T^a, a fitted on log-log axes with a
95% confidence interval, one bar per (stream, learner). a = 1: linear regret (no learning
against this comparator); a = 0.5: sqrt(T); a near 0: logarithmic."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from scipy import stats

from olbench import schema as col
from olbench.analysis.figures.layout import paged
from olbench.analysis.figures.registry import figure
from olbench.analysis.figures.style import PALETTE, styled, wrap
from olbench.analysis.views import display_name, natural_key, per_checkpoint


def loglog_fit(t, y, tail: float = 0.5) -> tuple[float, float, float, int]:
    """(slope, ci_low, ci_high, points) of the least-squares fit of log y on log t over the
    last ``tail`` fraction of the distinct t (all seeds' points pooled; y <= 0 left out);
    the interval is slope +- t_{0.975, m-2} SE (NaN with fewer than three points).

    >>> t = np.repeat(np.geomspace(1, 1e4, 20), 2)
    >>> slope, low, high, m = loglog_fit(t, 3 * t ** 0.5)
    >>> round(slope, 6), m
    (0.5, 20)
    """
    t, y = np.asarray(t, float), np.asarray(y, float)
    distinct = np.unique(t)
    start = distinct[len(distinct) - int(np.ceil(tail * len(distinct)))]
    keep = (t >= start) & (y > 0) & np.isfinite(y)
    m = int(keep.sum())
    if m < 3 or np.unique(t[keep]).size < 2:
        return float("nan"), float("nan"), float("nan"), m
    fit = stats.linregress(np.log(t[keep]), np.log(y[keep]))
    half = stats.t.ppf(0.975, m - 2) * fit.stderr
    return float(fit.slope), float(fit.slope - half), float(fit.slope + half), m


def exponent_table(table: pd.DataFrame, tail: float = 0.5) -> pd.DataFrame:
    """One row per (stream, learner, comparator) with a regret curve: the fitted exponent,
    its 95% interval, the points used, the seeds, and how many points had regret <= 0."""
    cp = per_checkpoint(table)
    if col.REGRET not in cp or cp[col.REGRET].notna().sum() == 0:
        return pd.DataFrame()
    cp = cp[cp[col.REGRET].notna()]
    rows = []
    for (stream, learner, comparator), g in cp.groupby(
            [col.STREAM_LABEL, col.LEARNER_LABEL, col.COMPARATOR]):
        slope, low, high, m = loglog_fit(g[col.T], g[col.REGRET], tail)
        rows.append({col.STREAM: display_name(stream), col.LEARNER: display_name(learner),
                     col.COMPARATOR: display_name(comparator),
                     "exponent": slope, "ci_low": low, "ci_high": high, "points": m,
                     "seeds": g[col.SEED].nunique(),
                     "non_positive": int((g[col.REGRET] <= 0).sum())})
    out = pd.DataFrame(rows)
    return out.sort_values([col.STREAM, col.LEARNER], key=lambda s: s.map(natural_key)) \
              .reset_index(drop=True)


#: At most this many rows (curves) per page of the figure.
ROWS_PER_PAGE = 24


@figure("regret_exponents", order=24,
        caption="Fitted growth exponent a of regret ~ c T^a per curve (learner against its "
                "comparator, on a stream; log-log least squares over the second half of the "
                "checkpoints, seeds pooled) with its 95% confidence interval; 1 = linear, "
                "0.5 = sqrt(T).")
@styled
def regret_exponents_figure(table: pd.DataFrame) -> Figure | list | None:
    """Horizontal bars: each curve's exponent with its interval, one row per (stream,
    learner, comparator), named by all three, coloured by stream; dotted lines at 0.5 and
    1. More than :data:`ROWS_PER_PAGE` curves are drawn as pages."""
    ex = exponent_table(table)
    ex = ex.dropna(subset=["exponent"]) if not ex.empty else ex
    if ex.empty:
        return None
    streams = list(dict.fromkeys(ex[col.STREAM]))
    colors = dict(zip(streams, (PALETTE[i % len(PALETTE)] for i in range(len(streams)))))
    seeds = int(ex["seeds"].max())

    def page(rows: list[int]) -> Figure:
        part = ex.loc[rows]
        fig = Figure(figsize=(7.5, 1.3 + 0.42 * len(part)), layout="constrained")
        ax = fig.subplots()
        y = np.arange(len(part))[::-1]
        for yi, r in zip(y, part.itertuples()):
            ax.errorbar([r.exponent], [yi], xerr=[[r.exponent - r.ci_low],
                                                  [r.ci_high - r.exponent]],
                        fmt="o", color=colors[r.stream], capsize=3)
        for ref in (0.5, 1.0):
            ax.axvline(ref, color="0.4", linestyle=":", linewidth=1)
        ax.set_yticks(y, [f"{wrap(f'{r.learner} vs {r.comparator}', 62)}\non {wrap(r.stream, 60)}"
                          for r in part.itertuples()], fontsize=7.5)
        ax.set_ylim(-0.6, len(part) - 0.4)
        ax.set_xlabel("exponent a in regret ~ c T^a (95% CI)")
        fig.suptitle(f"How fast regret grows against each curve's comparator ({seeds} "
                     f"seed{'s' if seeds != 1 else ''} pooled)")
        return fig

    return paged(list(ex.index), page, per_page=ROWS_PER_PAGE)
