"""LIBOL-style panels: cumulative mistake rate (a regression stream: average loss), updates
and wall time vs t, one row per stream (three to a page), one line per learner: the mean
over seeds with its 95% band for the mistake rate and the updates; for the time the median
with the interquartile range (one preempted seed must not dominate). The mistake-rate axis
is scaled to the data past the first rounds (where a rate of 0 or 1 from a handful of
examples would flatten every curve)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import EngFormatter

from olbench import schema as col
from olbench.analysis.figures.layout import PAGE, few_ticks, finish_page, paged
from olbench.analysis.figures.registry import figure
from olbench.analysis.figures.style import (
    BAND,
    LABELS,
    draw_bands,
    learner_styles,
    seeds_text,
    styled,
    wrap,
)
from olbench.analysis.views import mean_band, median_band, one_per_learner, ordered, per_checkpoint

LIBOL_METRICS = (col.MISTAKE_RATE, col.UPDATES, col.TIME_S)
#: the mistake-rate axis is scaled to the curves from this fraction of the rounds on
RATE_FROM = 0.05
TIME_BAND = "time: median over seeds, band: interquartile range"
#: the time panel's axis label: its ticks carry the unit (:func:`seconds_ticks`)
TIME_LABEL = "cumulative wall time (median)"


def seconds_ticks(ax) -> None:
    """Label the y axis in seconds with an SI prefix ("30 µs", "1.5 ms", "2 s"): the labels
    stay a few characters wide whatever the magnitude, where plain decimals of microsecond
    times ("0.000030") are wide enough to run into the title of the panel beside them."""
    ax.yaxis.set_major_formatter(EngFormatter(unit="s", sep=" "))


def rate_limits(band: pd.DataFrame, from_fraction: float = RATE_FROM) -> tuple[float, float]:
    """y-limits of a mistake-rate panel: the bands' range over t >= ``from_fraction`` of
    the last round, padded by 5% of it and by 0.01 at least (a rate constant at 1, as on
    a stream built to make a mistake every round, gets [0.99, 1], not five-decimal ticks),
    within [0, 1].

    >>> b = pd.DataFrame({"t": [1, 50, 100], "lo": [0.0, 0.2, 0.1], "hi": [1.0, 0.3, 0.2]})
    >>> [round(v, 3) for v in rate_limits(b)]
    [0.09, 0.31]
    >>> rate_limits(pd.DataFrame({"t": [1, 2], "lo": [1.0, 1.0], "hi": [1.0, 1.0]}))
    (0.99, 1.0)
    """
    late = band[band[col.T] >= from_fraction * band[col.T].max()]
    lo, hi = float(late["lo"].min()), float(late["hi"].max())
    pad = max(0.05 * (hi - lo), 0.01)
    return max(0.0, lo - pad), min(1.0, hi + pad)


#: At most this many streams (rows of three panels) per page of the figure.
ROWS_PER_PAGE = 3


def _first_metric(sub: pd.DataFrame) -> str:
    """The first panel's metric of a stream: the mistake rate, or for a regression stream
    (no mistakes) the average loss."""
    has_rate = col.MISTAKE_RATE in sub and sub[col.MISTAKE_RATE].notna().any()
    return col.MISTAKE_RATE if has_rate or col.AVG_LOSS not in sub else col.AVG_LOSS


@figure("libol", order=50,
        caption="LIBOL-style panels: cumulative mistake rate (average loss on regression "
                f"streams) and cumulative updates vs t (mean over seeds, {BAND}); wall time vs "
                "t (median over seeds, band: interquartile range); one row per stream, three "
                "streams to a page. The mistake-rate axis is scaled to the curves from "
                f"{RATE_FROM:.0%} of the rounds on.")
@styled
def libol_figure(table: pd.DataFrame) -> Figure | list | None:
    """LIBOL-style rows of three panels (mistake rate, updates, time vs t), one row per
    stream (:data:`ROWS_PER_PAGE` to a page), one line per learner with its band over
    seeds; a regression stream's first panel is its average loss."""
    cp = per_checkpoint(table)
    # the first panel is the mistake rate, or the average loss where a stream has no mistakes
    # (regression, OCO, online PCA): a table with none at all keeps its three panels
    first = [m for m in (col.MISTAKE_RATE, col.AVG_LOSS) if m in cp and cp[m].notna().any()]
    metrics = [col.MISTAKE_RATE] * bool(first) + [
        m for m in LIBOL_METRICS[1:] if m in cp and cp[m].notna().any()]
    if not metrics:
        return None
    cp = one_per_learner(cp)
    styles = learner_styles(table)
    seeds = cp[col.SEED].nunique()

    def page(streams: list[str]) -> Figure:
        fig = Figure(figsize=(PAGE[0], 2.7 * len(streams) + 0.8), layout="constrained")
        grid = fig.subplots(len(streams), len(metrics), squeeze=False)
        for row, stream in zip(grid, streams):
            sub = cp[cp[col.STREAM_LABEL].eq(stream)]
            for ax, metric in zip(row, metrics):
                few_ticks(ax)
                if metric == col.MISTAKE_RATE:
                    metric = _first_metric(sub)
                centre = median_band if metric == col.TIME_S else mean_band
                band = centre(sub, metric, [col.LEARNER_LABEL])
                draw_bands(ax, band, styles)
                ax.set_xlabel(LABELS[col.T])
                if metric == col.TIME_S:
                    seconds_ticks(ax)
                    ax.set_ylabel(wrap(TIME_LABEL, 28))
                else:
                    ax.set_ylabel(wrap(LABELS[metric], 28))
                if metric == col.MISTAKE_RATE and len(band) and np.isfinite(band["hi"]).any():
                    ax.set_ylim(*rate_limits(band))
                else:
                    ax.set_ylim(bottom=0)
        middle = [row[1 if len(row) > 1 else 0] for row in grid]
        return finish_page(fig, middle, streams, f"Online performance over {seeds_text(seeds)}",
                           note=BAND + "; " + TIME_BAND, legend_axes=list(grid.ravel()),
                           row_titles=True)

    return paged(ordered(cp[col.STREAM_LABEL]), page, per_page=ROWS_PER_PAGE)
