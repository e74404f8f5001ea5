"""A metric at the final checkpoint per learner over seeds, one panel per stream: the mistake
rate, or the average loss for tables without one (regression). With few seeds (fewer than
:data:`FEW_SEEDS`) every seed is a point and the mean carries its 95% interval; a box plot of
three points would draw quartiles that do not exist. With many seeds, box plots."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from olbench import schema as col
from olbench.analysis.figures.layout import PAGE, paged, panels, title_panels, with_shared
from olbench.analysis.figures.registry import figure
from olbench.analysis.figures.style import LABELS, learner_styles, seeds_text, styled
from olbench.analysis.views import final_rows, one_per_learner, ordered

#: below this many seeds per learner, points with mean ± 95% CI instead of box plots
FEW_SEEDS = 10


def _has(fin: pd.DataFrame, metric: str) -> bool:
    return metric in fin and fin[metric].notna().any()


@figure("final_mistake_rate", order=60, metric=col.MISTAKE_RATE,
        caption="Final-checkpoint mistake rate per learner over seeds (dots: seeds; with fewer "
                f"than {FEW_SEEDS} seeds, the mean ± 1.96·sd/√k (95% CI), else box plots: "
                "quartiles, whiskers 1.5 IQR).")
@styled
def final_boxplot_figure(table: pd.DataFrame, *,
                         metric: str = col.MISTAKE_RATE) -> Figure | list | None:
    """``metric`` at the final checkpoint over seeds, per learner, one panel per stream
    (horizontal: learner names are long): seeds as dots, with the mean ± 95% CI when there
    are fewer than :data:`FEW_SEEDS` of them, else box plots."""
    fin = final_rows(table)
    if not _has(fin, metric):
        return None
    if metric not in (col.REGRET, col.COMPARATOR_LOSS):
        fin = one_per_learner(fin)
    fin = fin.dropna(subset=[metric])
    styles = learner_styles(table)
    streams = ordered(fin[col.STREAM_LABEL])
    learners = ordered(fin[col.LEARNER_LABEL])
    # a row per learner, as tall as the page allows for them all (tick labels stay apart)
    size = (7.5, max(0.2, min(0.45, (PAGE[1] - 2.5) / len(learners))) * len(learners) + 1.4)
    seeds = fin[col.SEED].nunique()
    few = fin.groupby([col.STREAM_LABEL, col.LEARNER_LABEL]).size().max() < FEW_SEEDS

    def page(chosen: list[str]) -> Figure:
        fig, axes = panels(len(chosen), ncols=1, size=size)
        for ax, stream in zip(axes, chosen):
            _draw_final(ax, fin[fin[col.STREAM_LABEL].eq(stream)], metric, learners, styles, few)
        how = "mean ± 95% CI" if few else "box plots"
        shared = title_panels(fig, axes, chosen, 1)
        fig.suptitle(with_shared(f"Final {metric.replace('_', ' ')} over {seeds_text(seeds)} "
                                 f"(dots: seeds; {how})", shared, fig))
        return fig

    return paged(streams, page, per_page=max(1, int((PAGE[1] - 0.6) // size[1])))


def _draw_final(ax, sub: pd.DataFrame, metric: str, learners: list[str], styles: dict,
                few: bool) -> None:
    """One panel of :func:`final_boxplot_figure`: ``sub``, one stream's final rows."""
    rng = np.random.default_rng(0)                 # jitter of the seed dots only
    names = [n for n in learners if n in set(sub[col.LEARNER_LABEL])]
    data = [sub.loc[sub[col.LEARNER_LABEL].eq(n), metric].to_numpy(float) for n in names]
    pos = np.arange(1, len(names) + 1)
    if few:
        for p, d, n in zip(pos, data, names):
            half = 1.96 * d.std(ddof=1) / np.sqrt(len(d)) if len(d) > 1 else 0.0
            ax.errorbar([d.mean()], [p], xerr=[half], fmt="|", markersize=14, capsize=4,
                        color=styles[n]["color"], markeredgewidth=2, zorder=4)
        ax.set_yticks(pos, names)
        ax.set_ylim(len(names) + 0.6, 0.4)
    else:
        box = ax.boxplot(data, positions=pos, orientation="horizontal", widths=0.55,
                         tick_labels=names, patch_artist=True, showfliers=False,
                         medianprops={"color": "0.1"})
        for patch, n in zip(box["boxes"], names):
            patch.set(facecolor=styles[n]["color"], alpha=0.35)
    for p, d, n in zip(pos, data, names):
        ax.scatter(d, p + rng.uniform(-0.12, 0.12, len(d)), s=14, zorder=3,
                   color=styles[n]["color"])
    if not few:
        ax.invert_yaxis()
    ax.grid(axis="y", visible=False)
    ax.set_xlabel(LABELS.get(metric, metric) + " at the final round")


@figure("final_avg_loss", order=61,
        caption="Final-checkpoint average loss per learner over seeds (regression tables; dots: "
                f"seeds; with fewer than {FEW_SEEDS} seeds, the mean ± 1.96·sd/√k (95% CI), "
                "else box plots: quartiles, whiskers 1.5 IQR).")
def final_loss_figure(table: pd.DataFrame) -> Figure | None:
    """:func:`final_boxplot_figure` of the average loss, for tables without a mistake rate
    (regression); ``None`` when the mistake-rate box plots are drawn instead."""
    if _has(final_rows(table), col.MISTAKE_RATE):
        return None
    return final_boxplot_figure(table, metric=col.AVG_LOSS)
