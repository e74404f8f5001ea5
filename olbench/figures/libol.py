"""LIBOL-style panels: cumulative mistake rate, updates and wall time vs t, one row per
stream, one line per learner (mean over seeds)."""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from olbench import schema as col
from olbench.figures.registry import figure
from olbench.figures.style import LABELS, figure_legend, learner_styles, styled, wrap
from olbench.views import groups, mean_band, one_per_learner, ordered, per_checkpoint

LIBOL_METRICS = (col.MISTAKE_RATE, col.UPDATES, col.TIME_S)


@figure("libol", order=50,
        caption="LIBOL-style panels: cumulative mistake rate, cumulative updates and wall time "
                "vs t (mean over seeds), one row per stream.")
@styled
def libol_figure(table: pd.DataFrame) -> Figure | None:
    """LIBOL-style rows of three panels (mistake rate, updates, time vs t), one row per
    stream, one line per learner (mean over seeds)."""
    cp = per_checkpoint(table)
    metrics = [m for m in LIBOL_METRICS if m in cp and cp[m].notna().any()]
    if not metrics:
        return None
    cp = one_per_learner(cp)
    styles = learner_styles(table)
    streams = ordered(cp["stream_label"])
    fig = Figure(figsize=(4.2 * len(metrics), 3.1 * len(streams) + 0.8), layout="constrained")
    grid = fig.subplots(len(streams), len(metrics), squeeze=False)
    for row, stream in zip(grid, streams):
        sub = cp[cp["stream_label"].eq(stream)]
        for ax, metric in zip(row, metrics):
            band = mean_band(sub, metric, ["learner_label"])
            for learner, g in groups(band, "learner_label"):
                ax.plot(g[col.T], g["mean"], label=learner, **styles[learner])
            ax.set_xlabel(LABELS[col.T])
            ax.set_ylabel(LABELS[metric])
            ax.set_ylim(bottom=0)
        row[1 if len(row) > 1 else 0].set_title(wrap(stream, width=90))
    fig.suptitle("Online performance (mean over seeds)")
    figure_legend(fig, list(grid.ravel()))
    return fig
