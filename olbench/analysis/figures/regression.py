"""Regression: the average loss L_t / t against t per learner (one panel per stream), and for
streams of 1-D inputs (``meta.extra["x"]``, e.g. sinc) the function each learner fitted,
drawn over the data and the noise-free curve.

The fitted function is what each run wrote of it (the side table ``fit``: the inputs, the
targets, the noise-free targets and the final predictor's value at each input): no stream is
rebuilt, no learner rerun.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from olbench import schema as col
from olbench.analysis.figures.layout import figure_legend, finish_page, paged, panels
from olbench.analysis.figures.per_run import first_seed_streams
from olbench.analysis.figures.registry import figure
from olbench.analysis.figures.style import (
    BAND,
    LABELS,
    draw_bands,
    learner_styles,
    line_style,
    seeds_text,
    styled,
    wrap,
)
from olbench.analysis.views import (
    display_name,
    drop_param,
    mean_band,
    one_per_learner,
    ordered,
    per_checkpoint,
    short_label,
)


def _regression(cp: pd.DataFrame) -> bool:
    """A table of regression runs: average losses and no mistake counts."""
    def has(column: str) -> bool:
        return column in cp and bool(cp[column].notna().any())

    return has(col.AVG_LOSS) and not has(col.MISTAKES)


@figure("avg_loss", order=25,
        caption=f"Regression: average loss L_t / t vs t per learner; {BAND}.")
@styled
def average_loss_figure(table: pd.DataFrame) -> Figure | list | None:
    """Average loss vs t (mean over seeds, 95% band), one panel per stream, log t; for
    regression tables (classification tables show mistakes instead)."""
    cp = per_checkpoint(table)
    if not _regression(cp):
        return None
    cp = one_per_learner(cp)   # the loss is the learner's: the same on every comparator's rows
    styles = learner_styles(table)
    loss = ", ".join(ordered(cp[col.LOSS])) if col.LOSS in cp else "?"
    seeds = cp[col.SEED].nunique()

    def page(streams: list[str]) -> Figure:
        fig, axes = panels(len(streams))
        for ax, stream in zip(axes, streams):
            draw_bands(ax, mean_band(cp[cp[col.STREAM_LABEL].eq(stream)], col.AVG_LOSS,
                                     [col.LEARNER_LABEL]), styles)
            ax.set_xscale("log")
            ax.set_ylim(bottom=0)
            ax.set_xlabel(LABELS[col.T] + ", log scale")
            ax.set_ylabel(LABELS[col.AVG_LOSS])
        return finish_page(fig, axes, streams,
                           f"Average {loss} loss (mean over {seeds_text(seeds)})", note=BAND)

    return paged(ordered(cp[col.STREAM_LABEL]), page)


@styled
def fitted_function_figure(x, y, predictions: dict[str, np.ndarray], *, clean=None,
                           title: str | None = None, styles: dict | None = None) -> Figure:
    """The data (x_t, y_t), the noise-free curve (if given) and each learner's predictions
    at the data's inputs, as curves in increasing x."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    order = np.argsort(x)
    styles = styles if styles is not None else learner_styles(predictions)
    fig = Figure(figsize=(6.4, 4.6), layout="constrained")
    ax = fig.subplots()
    ax.scatter(x, y, s=14, color="0.3", label="data $(x_t, y_t)$", zorder=3)
    if clean is not None:
        ax.plot(x[order], np.asarray(clean, float)[order], color="0.15", linestyle=":",
                linewidth=1.2, label="noise-free curve")
    for name, p in predictions.items():
        style = line_style(styles.get(name) or {"color": "k"})
        ax.plot(x[order], np.asarray(p, float)[order], label=f"{name}: final $w \\cdot x$",
                **style)
    ax.set_xlabel("input $x$")
    ax.set_ylabel("target $y$ / prediction")
    ax.set_title(wrap(title or "Fitted functions"))
    figure_legend(fig, [ax])
    return fig


@figure("fit", order=92, side=("fit", "grid"),
        caption="Regression on 1-D inputs: the data, the noise-free curve (dotted) and each "
                "learner's final predictor over the inputs (first seed).")
def fitted_function_figures(table: pd.DataFrame, side) -> dict[str, Figure]:
    """``fit_<i>``: the final predictors of every learner on the i-th stream of the grid
    whose inputs are 1-D (``meta.extra["x"]``), first seed: what its runs wrote of their
    fit (the side table ``fit``)."""
    styles = learner_styles(table)
    figures: dict[str, Figure] = {}
    for number, runs, fits in first_seed_streams(table, side, "fit"):
        names = short_label(runs, col.LEARNER, table)
        predictions = {names[i]: fits[r]["prediction"].to_numpy()
                       for i, r in runs[col.RUN_ID].items()}
        data = fits[runs[col.RUN_ID].iloc[0]]   # the stream's data: any of its runs'
        clean = data["clean_y"].to_numpy()
        seed = int(runs[col.SEED].min())
        figures[f"fit_{number}"] = fitted_function_figure(
            data["x"].to_numpy(), data["y"].to_numpy(), predictions,
            clean=None if np.isnan(clean).all() else clean,
            title=f"{display_name(drop_param(runs[col.STREAM].iloc[0]))} (seed {seed})",
            styles=styles)
    return figures
