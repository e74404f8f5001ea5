"""LIBOL-style panels: cumulative mistake rate, updates and wall time vs t, one row per
stream, one line per learner: the mean over seeds with its 95% band for the mistake rate and
the updates; for the time the median with the interquartile range (one preempted seed must
not dominate). The mistake-rate axis is scaled to the data past the first rounds (where a
rate of 0 or 1 from a handful of examples would flatten every curve)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from olbench import schema as col
from olbench.figures.registry import figure
from olbench.figures.style import BAND, LABELS, figure_legend, learner_styles, styled, wrap
from olbench.views import groups, mean_band, median_band, one_per_learner, ordered, per_checkpoint

LIBOL_METRICS = (col.MISTAKE_RATE, col.UPDATES, col.TIME_S)
#: the mistake-rate axis is scaled to the curves from this fraction of the rounds on
RATE_FROM = 0.05
TIME_BAND = "time: median over seeds, band: interquartile range"


def rate_limits(band: pd.DataFrame, from_fraction: float = RATE_FROM) -> tuple[float, float]:
    """y-limits of a mistake-rate panel: the bands' range over t >= ``from_fraction`` of
    the last round, padded by 5%, within [0, 1].

    >>> b = pd.DataFrame({"t": [1, 50, 100], "lo": [0.0, 0.2, 0.1], "hi": [1.0, 0.3, 0.2]})
    >>> [round(v, 3) for v in rate_limits(b)]
    [0.09, 0.31]
    """
    late = band[band[col.T] >= from_fraction * band[col.T].max()]
    lo, hi = float(late["lo"].min()), float(late["hi"].max())
    pad = 0.05 * max(hi - lo, 1e-3)
    return max(0.0, lo - pad), min(1.0, hi + pad)


@figure("libol", order=50,
        caption="LIBOL-style panels: cumulative mistake rate and cumulative updates vs t (mean "
                f"over seeds, {BAND}); wall time vs t (median over seeds, band: interquartile "
                "range); one row per stream. The mistake-rate axis is scaled to the curves from "
                f"{RATE_FROM:.0%} of the rounds on.")
@styled
def libol_figure(table: pd.DataFrame) -> Figure | None:
    """LIBOL-style rows of three panels (mistake rate, updates, time vs t), one row per
    stream, one line per learner with its band over seeds."""
    cp = per_checkpoint(table)
    metrics = [m for m in LIBOL_METRICS if m in cp and cp[m].notna().any()]
    if not metrics:
        return None
    cp = one_per_learner(cp)
    styles = learner_styles(table)
    streams = ordered(cp["stream_label"])
    fig = Figure(figsize=(4.2 * len(metrics), 3.1 * len(streams) + 1.0), layout="constrained")
    grid = fig.subplots(len(streams), len(metrics), squeeze=False)
    for row, stream in zip(grid, streams):
        sub = cp[cp["stream_label"].eq(stream)]
        for ax, metric in zip(row, metrics):
            centre = median_band if metric == col.TIME_S else mean_band
            band = centre(sub, metric, ["learner_label"])
            for learner, g in groups(band, "learner_label"):
                ax.plot(g[col.T], g["mean"], label=learner, **styles[learner])
                ax.fill_between(g[col.T], g["lo"], g["hi"], color=styles[learner]["color"],
                                alpha=0.18, linewidth=0)
            ax.set_xlabel(LABELS[col.T])
            ax.set_ylabel(LABELS[metric] + (" (median)" if metric == col.TIME_S else ""))
            if metric == col.MISTAKE_RATE and len(band) and np.isfinite(band["hi"]).any():
                ax.set_ylim(*rate_limits(band))
            else:
                ax.set_ylim(bottom=0)
        row[1 if len(row) > 1 else 0].set_title(wrap(stream, width=90))
    seeds = cp[col.SEED].nunique()
    fig.suptitle(f"Online performance over {seeds} seed{'s' if seeds != 1 else ''}")
    figure_legend(fig, list(grid.ravel()), note=BAND + "; " + TIME_BAND)
    return fig
