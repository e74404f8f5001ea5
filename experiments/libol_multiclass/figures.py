"""The libol_multiclass study's figures: every learner's final mistake rate per dataset, the
two families side by side (``families``), and LIBOL's three panels one dataset and one
family at a time (``libol_families``: ``libol_families_<dataset>_<family>``), where LIBOL's
own figure of all 29 learners per dataset would need a legend of 29 entries.

Both are pure functions of the results table, registered by importing this file (the
study's config names it in ``modules:``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from olbench import schema as col
from olbench.analysis.figures.layout import paged
from olbench.analysis.figures.libol import libol_figure
from olbench.analysis.figures.registry import figure
from olbench.analysis.figures.style import styled, wrap
from olbench.analysis.stats import mean_interval
from olbench.analysis.views import final_rows, label, one_per_learner
from olbench.harness.studies import study_module
from olbench.names import display_name

families = study_module("experiments/libol_multiclass/families.py")
COLOURS = {families.NATIVE: "#1f5fa8", families.ONE_VS_REST: "#c8641e"}
MARKERS = {families.NATIVE: "o", families.ONE_VS_REST: "s"}
#: datasets per page, side by side
PER_PAGE = 2


def both_families(table: pd.DataFrame) -> bool:
    """Whether the table has native multiclass and one-vs-rest learners (and mistakes):
    what the two figures compare; other tables draw neither."""
    if col.MISTAKE_RATE not in table or table.empty:
        return False
    names = label(table, col.LEARNER).drop_duplicates()
    found = set(names.map(families.family))
    return found == {families.NATIVE, families.ONE_VS_REST} and \
        names.map(lambda n: n.startswith("Multiclass")).any()


def final_intervals(table: pd.DataFrame) -> tuple[pd.DataFrame, pd.Series]:
    """Per dataset and learner: family, the mean final mistake rate with its 95% t interval
    over the finished runs, and how many runs finished of how many ran; and the runs of the
    (dataset, learner) pairs none of whose runs finished."""
    fin = one_per_learner(final_rows(table))
    asked = families.runs_asked(table)
    rows = []
    for (dataset, learner), sub in fin.groupby(
            [fin[col.STREAM_NAME].map(families.dataset_of), col.LEARNER_NAME], sort=False):
        mean, low, high = mean_interval(sub[col.MISTAKE_RATE])
        rows.append({"dataset": dataset, "learner": learner,
                     "shown": sub[col.LEARNER_LABEL].iloc[0],
                     "family": families.family(learner), "mean": mean, "low": low,
                     "high": high, "finished": len(sub), "runs": int(asked[dataset, learner])})
    out = pd.DataFrame(rows)
    failed = asked[~asked.index.isin(list(zip(out.get("dataset", []), out.get("learner", []))))]
    return out, failed


@figure("families", order=45,
        caption="Final mistake rate (LIBOL's count) of every learner, mean over the orders "
                "with its 95% t interval, native multiclass (circles) and one-vs-rest "
                "(squares), best at the top; a learner none of whose runs finished is named "
                "in its panel's title")
@styled
def families_figure(table: pd.DataFrame) -> Figure | list[Figure] | None:
    """One panel per dataset (two to a page), the learners sorted by their mean final
    mistake rate."""
    if not both_families(table):
        return None
    points, failed = final_intervals(table)
    if points.empty:
        return None
    return paged(list(dict.fromkeys(points["dataset"])),
                 lambda page: _families_page(points, failed, page), per_page=PER_PAGE)


def _families_page(points: pd.DataFrame, failed: pd.Series, datasets: list[str]) -> Figure:
    most = max(int(points["dataset"].eq(d).sum()) for d in datasets)
    fig = Figure(figsize=(10, min(11.5, most * 0.19 + 1.4)), layout="constrained")
    axes = fig.subplots(1, PER_PAGE, squeeze=False).ravel()
    for ax, dataset in zip(axes, datasets):
        sub = points[points["dataset"].eq(dataset)].sort_values("mean", ascending=False)
        ys = np.arange(len(sub))
        for fam in (families.NATIVE, families.ONE_VS_REST):
            mask = sub["family"].eq(fam).to_numpy()
            ax.errorbar(sub["mean"][mask], ys[mask],
                        xerr=[sub["mean"][mask] - sub["low"][mask],
                              sub["high"][mask] - sub["mean"][mask]],
                        fmt=MARKERS[fam], color=COLOURS[fam], ms=4, capsize=2, lw=1)
        ax.set_yticks(ys, [s + ("" if f == r else f" ({f} of {r} runs)")
                           for s, f, r in zip(sub["shown"], sub["finished"], sub["runs"])],
                      fontsize=7)
        ax.set_xlabel("final mistake rate")
        gone = [display_name(learner) for (d, learner) in failed.index if d == dataset]
        ax.set_title(f"{dataset} ({int(sub['runs'].max())} orders)" + (
            "\nno run finished: " + "; ".join(gone) if gone else ""), fontsize=9)
        ax.grid(axis="x", alpha=0.3)
    for ax in axes[len(datasets):]:
        ax.set_visible(False)
    fig.suptitle(wrap("Final mistake rate: native multiclass (blue circles), "
                      "one-vs-rest (orange squares)", 90))
    return fig


@figure("libol_families", order=50,
        caption="LIBOL's panels (cumulative mistake rate, updates, wall time vs t; mean over "
                "the orders with its 95% band, time: median and interquartile range), one "
                "figure per dataset and family (libol_families_<dataset>_<family>)")
def libol_families_figure(table: pd.DataFrame) -> dict[str, Figure] | None:
    """LIBOL's panels (:func:`olbench.analysis.figures.libol.libol_figure`) of each dataset,
    once for the native learners and once for the one-vs-rest ones."""
    if not both_families(table):
        return None
    keys = pd.DataFrame({"dataset": label(table, col.STREAM).map(families.dataset_of),
                         "family": label(table, col.LEARNER).map(families.family)})
    out = {}
    for (dataset, fam), rows in table.groupby([keys["dataset"], keys["family"]], sort=False):
        fig = libol_figure(rows)
        if fig is not None:
            out[f"libol_families_{dataset}_{fam.replace('-', '_')}"] = fig
    return out or None
