"""Cumulative mistakes vs t per learner, one panel per stream, with the Novikoff bound where
the table has one."""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from olbench import schema as col
from olbench.figures.registry import figure
from olbench.figures.style import BAND, LABELS, figure_legend, learner_styles, panels, styled, wrap
from olbench.views import (
    groups,
    mean_band,
    novikoff_bounds,
    one_per_learner,
    ordered,
    per_checkpoint,
)


@figure(col.MISTAKES, order=30,
        caption=f"Cumulative mistakes vs t; {BAND}. Dashed: the Novikoff bound (R/γ)² where it "
                "applies.")
@styled
def mistakes_figure(table: pd.DataFrame) -> Figure | None:
    """Cumulative mistakes vs t per learner (mean over seeds, 95% band), one panel per
    stream, with the Novikoff bound as a horizontal line where the table has one."""
    cp = per_checkpoint(table)
    if col.MISTAKES not in cp or cp[col.MISTAKES].notna().sum() == 0:
        return None
    cp = one_per_learner(cp)
    styles = learner_styles(table)
    novikoff = novikoff_bounds(table)
    streams = ordered(cp["stream_label"])
    fig, axes = panels(len(streams))
    for ax, stream in zip(axes, streams):
        band = mean_band(cp[cp["stream_label"].eq(stream)], col.MISTAKES, ["learner_label"])
        for learner, g in groups(band, "learner_label"):
            ax.plot(g[col.T], g["mean"], label=learner, **styles[learner])
            ax.fill_between(g[col.T], g["lo"], g["hi"], color=styles[learner]["color"],
                            alpha=0.18, linewidth=0)
        if stream in novikoff.index:
            ax.axhline(novikoff[stream], color="0.15", linestyle="--", linewidth=1.2,
                       label="Novikoff bound (R/γ)²")
        ax.set_ylim(bottom=0)
        ax.set_title(wrap(stream))
        ax.set_xlabel(LABELS[col.T])
        ax.set_ylabel(LABELS[col.MISTAKES])
    seeds = cp[col.SEED].nunique()
    fig.suptitle(f"Cumulative mistakes (mean over {seeds} seed{'s' if seeds != 1 else ''})")
    figure_legend(fig, axes, note=BAND)
    return fig
