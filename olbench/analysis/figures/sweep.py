"""The final metric against each parameter the grid swept (γ, k, C, η, the noise rate, the
outlier fraction): one line per learner, mean over seeds with 95% intervals, one panel per
stream (the stream named without the swept parameter when the sweep is the stream's).

Drawn automatically: a parameter is swept when it takes several numeric values among the
names of one stream or learner class (:func:`olbench.analysis.views.swept_parameters`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from olbench import schema as col
from olbench.analysis.figures.layout import finish_page, paged, panels
from olbench.analysis.figures.registry import figure, page_stems
from olbench.analysis.figures.style import LABELS, learner_styles, seeds_text, styled
from olbench.analysis.views import (
    display_names,
    final_rows,
    one_per_learner,
    ordered,
    sweep_rows,
    swept_parameters,
)

#: Interval of the mean over k seeds drawn as error bars.
INTERVAL = "error bars: mean ± 1.96·sd/√k over k seeds (95% normal CI of the mean)"


def sweep_metric(fin: pd.DataFrame) -> str | None:
    """The final metric a sweep shows: the mistake rate, else (regression) the average loss."""
    for metric in (col.MISTAKE_RATE, col.AVG_LOSS):
        if metric in fin and fin[metric].notna().any():
            return metric
    return None


@styled
def sweep_figure(table: pd.DataFrame, concept: str, param: str) -> Figure | list | None:
    """The final metric (mean over seeds, 95% error bars) against ``param`` of the
    ``concept`` ("stream" or "learner"), one line per learner, one panel per stream."""
    fin = final_rows(table)
    metric = sweep_metric(fin)
    if metric is None:
        return None
    rows = sweep_rows(one_per_learner(fin).dropna(subset=[metric]), concept, param)
    # a panel where the parameter takes one value has nothing to show against it
    rows = rows[rows.groupby("panel")["value"].transform("nunique") > 1]
    if rows.empty:
        return None
    # the full names (parameter dropped) shown as display names, distinct ones kept apart
    rows = rows.assign(series=rows["series"].map(display_names(ordered(rows["series"]))),
                       panel=rows["panel"].map(display_names(ordered(rows["panel"]))))
    stats = rows.groupby(["panel", "series", "value"])[metric].agg(["mean", "std", "count"])
    stats = stats.reset_index()
    stats["half"] = 1.96 * stats["std"].fillna(0.0) / np.sqrt(stats["count"])
    # the learners' looks of the other figures, unless a series is named otherwise (without
    # the swept parameter): then a look per series, so that no two of them are alike
    styles, names = learner_styles(table), ordered(stats["series"])
    series_styles = (styles if set(names) <= set(styles) else learner_styles(names))
    values = stats["value"].to_numpy(float)
    log_x = values.min() > 0 and values.max() / values.min() >= 20
    seeds = rows[col.SEED].nunique()

    def page(names: list[str]) -> Figure:
        fig, axes = panels(len(names), ncols=2, size=(5.2, 3.6))
        for ax, name in zip(axes, names):
            sub = stats[stats["panel"].eq(name)]
            for series in ordered(sub["series"]):
                g = sub[sub["series"].eq(series)].sort_values("value")
                ax.errorbar(g["value"], g["mean"], yerr=g["half"], label=series, capsize=3,
                            **{k: v for k, v in series_styles[series].items()
                               if k != "markevery"})
            if log_x:
                ax.set_xscale("log")
            ax.set_xticks(sorted(set(sub["value"])))
            ax.set_xticklabels([f"{v:g}" for v in sorted(set(sub["value"]))])
            ax.set_xlabel(f"{param} ({concept} parameter, swept)")
            ax.set_ylabel(LABELS.get(metric, metric) + "\nat the final round")
            if metric == col.MISTAKE_RATE:
                ax.set_ylim(bottom=0)
        return finish_page(fig, axes, names, f"Final {metric.replace('_', ' ')} against {param} "
                           f"(mean over {seeds_text(seeds)})", note=INTERVAL, ncols=2)

    return paged(ordered(stats["panel"]), page, per_page=4)


@figure("sweep", order=45,
        caption="Final metric against each swept parameter, one line per learner; "
                + INTERVAL + ".")
def sweep_figures(table: pd.DataFrame) -> dict[str, Figure]:
    """``sweep_<param>`` (``sweep_<concept>_<param>`` when a stream and a learner parameter
    share a name): :func:`sweep_figure` of each parameter the grid swept."""
    from olbench.analysis.views import per_checkpoint

    swept = swept_parameters(per_checkpoint(table))
    params = [p for _, p in swept]
    out: dict[str, Figure] = {}
    for concept, param in swept:
        stem = f"sweep_{param}" if params.count(param) == 1 else f"sweep_{concept}_{param}"
        fig = sweep_figure(table, concept, param)
        if isinstance(fig, list):
            out.update(page_stems(stem, fig))
        elif fig is not None:
            out[stem] = fig
    return out
