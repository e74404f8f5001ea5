"""Regret curves with the regret bounds checked on them: the observed regret and the bound
of each (learner, theorem) on the same axes, and observed/bound against t (the fraction of
the bound used, e.g. Hedge against sqrt((T/2) ln N) for several N)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from olbench import schema as col
from olbench.figures.registry import figure
from olbench.figures.style import (
    LABELS,
    PALETTE,
    figure_legend,
    learner_styles,
    panels,
    styled,
    wrap,
)
from olbench.views import display_name, label, natural_key, ok_rows, ordered


def regret_bound_rows(table: pd.DataFrame) -> pd.DataFrame:
    """The checked regret bounds, averaged over seeds: one row per (stream, learner, bound,
    t) with ``observed``, ``bound``, ``ratio`` (means over the seeds) and ``k`` (seeds)."""
    ok = ok_rows(table)
    if col.QUANTITY not in ok:
        return pd.DataFrame()
    rows = ok[ok[col.QUANTITY].eq("regret") & ok[col.BOUND].notna()]
    if rows.empty:
        return pd.DataFrame()
    rows = rows.assign(stream_label=label(rows, col.STREAM).map(display_name),
                       learner_label=label(rows, col.LEARNER).map(display_name),
                       ratio=rows[col.OBSERVED].astype(float) / rows[col.BOUND].astype(float))
    keys = ["stream_label", "learner_label", col.BOUND_NAME, col.T]
    return (rows.groupby(keys)
                .agg(observed=(col.OBSERVED, "mean"), bound=(col.BOUND, "mean"),
                     ratio=("ratio", "mean"), k=(col.SEED, "nunique"))
                .reset_index())


@figure("regret_vs_bound", order=22,
        caption="Regret (solid: mean over seeds, against the comparator the theorem names) and "
                "the theorem's bound (dashed, same colour) vs t, one panel per stream.")
@styled
def regret_vs_bound_figure(table: pd.DataFrame) -> Figure | None:
    """Observed regret and its bound per learner and theorem, one panel per stream."""
    rows = regret_bound_rows(table)
    if rows.empty:
        return None
    streams = ordered(rows["stream_label"])
    styles = learner_styles(ordered(rows["learner_label"]))   # one learner, one colour
    fig, axes = panels(len(streams))
    for ax, stream in zip(axes, streams):
        mine = rows[rows["stream_label"].eq(stream)]
        pairs = sorted(mine.groupby(["learner_label", col.BOUND_NAME]),
                       key=lambda kv: tuple(map(natural_key, kv[0])))
        for (learner, bound), g in pairs:
            color = styles[learner]["color"]
            ax.plot(g[col.T], g["observed"], color=color, label=f"{learner}: regret")
            ax.plot(g[col.T], g["bound"], color=color, linestyle="--",
                    label=f"{learner}: {bound} bound")
        ax.axhline(0, color="0.3", linewidth=0.8)
        ax.set_title(wrap(stream))
        ax.set_xlabel(LABELS[col.T])
        ax.set_ylabel(LABELS[col.REGRET])
    fig.suptitle("Regret against the best fixed point in hindsight, and its bound")
    figure_legend(fig, axes, note="mean over seeds; dashed: the bound checked at each t")
    return fig


@figure("regret_bound_ratio", order=23,
        caption="Observed regret / bound vs t (log t), one panel per theorem, one line per "
                "stream and learner (mean over seeds); 1 is the bound.")
@styled
def regret_bound_ratio_figure(table: pd.DataFrame) -> Figure | None:
    """The fraction of each regret bound used, vs t, one panel per theorem."""
    rows = regret_bound_rows(table)
    if rows.empty:
        return None
    theorems = ordered(rows[col.BOUND_NAME])
    fig, axes = panels(len(theorems))
    for ax, name in zip(axes, theorems):
        mine = rows[rows[col.BOUND_NAME].eq(name)]
        pairs = sorted(mine.groupby(["stream_label", "learner_label"]),
                       key=lambda kv: tuple(map(natural_key, kv[0])))
        for i, ((stream, learner), g) in enumerate(pairs):
            ax.plot(g[col.T], g["ratio"], color=PALETTE[i % len(PALETTE)],
                    label=wrap(f"{learner} on {stream}", 60))
        ax.axhline(1.0, color="0.2", linewidth=1)
        ax.set_xscale("log")
        ax.set_ylim(min(0.0, float(np.nanmin(mine["ratio"])) * 1.1), 1.1)
        ax.set_title(name)
        ax.set_xlabel(LABELS[col.T])
        ax.set_ylabel("regret / bound")
    fig.suptitle("Fraction of the regret bound used")
    figure_legend(fig, axes, note="mean over seeds of observed/bound at each checkpoint")
    return fig
