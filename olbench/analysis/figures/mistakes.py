"""Cumulative mistakes vs t per learner, one panel per stream, with the Novikoff bound where
the table has one."""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from olbench import schema as col
from olbench.analysis.figures.layout import finish_page, paged, panels
from olbench.analysis.figures.registry import figure
from olbench.analysis.figures.style import (
    BAND,
    LABELS,
    draw_bands,
    learner_styles,
    seeds_text,
    styled,
)
from olbench.analysis.views import (
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
def mistakes_figure(table: pd.DataFrame) -> Figure | list | None:
    """Cumulative mistakes vs t per learner (mean over seeds, 95% band), one panel per
    stream that counts mistakes (not the regression streams; pages beyond six), with the
    Novikoff bound as a horizontal line where the table has one."""
    cp = per_checkpoint(table)
    if col.MISTAKES not in cp or cp[col.MISTAKES].notna().sum() == 0:
        return None
    cp = one_per_learner(cp[cp[col.MISTAKES].notna()])
    styles = learner_styles(table)
    novikoff = novikoff_bounds(table)
    seeds = cp[col.SEED].nunique()

    def page(streams: list[str]) -> Figure:
        fig, axes = panels(len(streams))
        for ax, stream in zip(axes, streams):
            draw_bands(ax, mean_band(cp[cp[col.STREAM_LABEL].eq(stream)], col.MISTAKES,
                                     [col.LEARNER_LABEL]), styles)
            if stream in novikoff.index:
                ax.axhline(novikoff[stream], color="0.15", linestyle="--", linewidth=1.2,
                           label="Novikoff bound (R/γ)²")
            ax.set_ylim(bottom=0)
            ax.set_xlabel(LABELS[col.T])
            ax.set_ylabel(LABELS[col.MISTAKES])
        return finish_page(fig, axes, streams,
                           f"Cumulative mistakes (mean over {seeds_text(seeds)})", note=BAND)

    return paged(ordered(cp[col.STREAM_LABEL]), page)
