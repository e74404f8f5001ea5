"""The listings of Sugiyama (2015), *Introduction to Statistical Machine Learning*, ch. 31,
drawn as the book draws them, from the results table of the study ``textbook_sugiyama``.

The chapter's four programs are the listings of Fig. 31.3, 31.5, 31.7 and 31.9
(``sample31_3.m`` ...); the book prints the output of two of them, Fig. 31.4 and 31.8. One
panel per listing whose recipe is in the grid (a panel is found by its stream and learner,
not by the experiment's name), plus the control of Fig. 31.8 (its stream without the
outliers), drawn like the listings' plots: class +1 as blue circles, class -1 as red crosses,
the final boundary w.(x1, x2, 1) = 0 as a black line; regression points as blue circles, the
fitted kernel model f(x) = sum_j w_j k_j(x) as a green curve over 1,000 points; the listings'
axis ranges. Several learners in one panel get one line style each. Everything drawn is what
the runs wrote beside the results table (:mod:`olbench.harness.outputs`): the first seed's
points (``points``, ``kernel_data``), the final weights (``final_weights``), the fitted kernel
model over the grid (``kernel_curve``); no stream is rebuilt, no learner rerun. A last panel
counts, over every seed, how often each boundary of Fig. 31.8 separates the clean clusters,
with the outliers and without (:func:`separation_counts`: each run's ``separation``).

The study's own figure, so it lives with the study and is registered by importing this file,
which the study's config names (``modules:``, :mod:`olbench.harness.studies`); so does the
config of ``pa_vs_arow_outliers``, whose grid holds Fig. 31.8's recipe.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from olbench import schema as col
from olbench.analysis.figures.boundaries import crosses
from olbench.analysis.figures.per_run import by_run, runs_in_grid_order
from olbench.analysis.figures.registry import figure
from olbench.analysis.figures.style import LINESTYLES, styled
from olbench.analysis.views import display_name, ok_rows
from olbench.component import parse_name
from olbench.harness.side import side_table

BOOK = "Sugiyama (2015), ch. 31"


@dataclass(frozen=True)
class Panel:
    """One panel: which runs it shows and the listing's axis range. ``when``: a condition on
    the stream's parameters (as its name gives them), for panels whose stream class is
    shared."""

    title: str
    kind: str                                  # "boundary" or "fit"
    stream: str                                # class name of the (outer) stream
    learners: tuple[str, ...]                  # learner class names, drawn in this order
    axis: tuple[float, float, float, float]
    when: Callable[[dict], bool] = lambda params: True


def _has_outliers(params: dict) -> bool:
    return int(params["n_outliers"]) > 0


def _no_outliers(params: dict) -> bool:
    return int(params["n_outliers"]) == 0


#: In the book's order; the control panels sit under the Fig. 31.8 they control.
PANELS = (
    Panel("Fig. 31.4 (listing of Fig. 31.3): PA", "boundary", "SugiyamaClusters", ("PA",),
          (-10, 10, -10, 10)),
    Panel("Listing of Fig. 31.5: PA regression", "fit", "Passes", ("PARegressor",),
          (-2.8, 2.8, -0.5, 1.2), lambda params: int(params["passes"]) == 1),
    Panel("Fig. 31.8 (a) (listing of Fig. 31.7): PA", "boundary", "SugiyamaOutliers", ("PA",),
          (-20, 0, -2, 2), _has_outliers),
    Panel("Fig. 31.8 (b) (listing of Fig. 31.7): AROW", "boundary", "SugiyamaOutliers",
          ("AROW",), (-20, 0, -2, 2), _has_outliers),
    Panel("Control of (a): the same points, no outliers", "boundary", "SugiyamaOutliers",
          ("PA",), (-20, 0, -2, 2), _no_outliers),
    Panel("Control of (b): the same points, no outliers", "boundary", "SugiyamaOutliers",
          ("AROW",), (-20, 0, -2, 2), _no_outliers),
    Panel("Listing of Fig. 31.9: AROW regression, 100 passes", "fit", "Passes",
          ("RLS", "AROWRegressor"), (-2.8, 2.8, -0.5, 1.2),
          lambda params: int(params["passes"]) > 1),
)
_STREAMS = {panel.stream for panel in PANELS}
#: Black lines (the listings' ``k-``) then grey ones, one per learner of a panel.
_LINE_STYLES = [(color, ls) for color in ("k", "0.5") for ls in LINESTYLES]


def _runs(table: pd.DataFrame, side) -> pd.DataFrame:
    """The ok runs that wrote their final weights, one row each in the grid's order, with
    their stream's and learner's class names (``stream_class``, ``learner_class``) and the
    stream's parameters (``stream_params``), as their names give them."""
    ok = ok_rows(table)
    weights = side_table(side, "final_weights")[col.RUN_ID].unique()
    runs = runs_in_grid_order(ok[ok[col.RUN_ID].isin(weights)], side)
    streams = [parse_name(name) for name in runs[col.STREAM]] if len(runs) else []
    return runs.assign(stream_class=[name for name, _ in streams],
                       stream_params=[params for _, params in streams],
                       learner_class=[parse_name(name)[0] for name in runs.get(col.LEARNER, [])])


def _matches(panel: Panel, run, curves) -> bool:
    if run.stream_class != panel.stream or run.learner_class not in panel.learners:
        return False
    if panel.kind == "fit" and run.run_id not in curves:   # a kernel model over the inputs
        return False
    return panel.when(run.stream_params)


def separation_counts(table: pd.DataFrame, side) -> pd.DataFrame:
    """For the streams of Fig. 31.8's recipe, with its outliers and without (the control): per
    learner and stream, over every seed, in how many runs the final boundary separates the
    clean clusters (the points that were not moved; without outliers, all of them: each run's
    ``separation``). Columns learner, outliers (how many points the stream moved), separated,
    runs; learners in the grid's order, the stream with outliers first. Runs that failed or
    wrote no final weights are not counted (``runs`` says how many were)."""
    separated = side_table(side, "separation").set_index(col.RUN_ID)["separates_inliers"]
    runs = _runs(table, side)
    runs = runs[runs["stream_class"].eq("SugiyamaOutliers")
                & runs[col.RUN_ID].isin(separated.index)]
    counts: dict[tuple[str, int], list[int]] = {}
    for run in runs.itertuples():
        tally = counts.setdefault((display_name(run.learner), int(run.stream_params["n_outliers"])),
                                  [0, 0])
        tally[0] += bool(separated[run.run_id])
        tally[1] += 1
    rows = pd.DataFrame([(name, k, s, n) for (name, k), (s, n) in counts.items()],
                        columns=[col.LEARNER, "outliers", "separated", "runs"])
    first_seen = {name: i for i, name in enumerate(dict.fromkeys(rows[col.LEARNER]))}
    return (rows.assign(rank=rows[col.LEARNER].map(first_seen))
            .sort_values(["rank", "outliers"], ascending=[True, False], ignore_index=True)
            .drop(columns="rank"))


def _line_styles(drawn) -> dict[tuple[tuple[str, ...], str], tuple[str, str]]:
    """(colour, line style) per learner of the panels showing its class: the first learner
    of a panel is the listings' black solid line; a learner keeps its style in every panel
    (with and without outliers)."""
    names: dict[tuple[str, ...], list[str]] = {}
    for panel, _, weights in drawn:
        seen = names.setdefault(panel.learners, [])
        seen += [name for name in weights if name not in seen]
    return {(key, name): _LINE_STYLES[i % len(_LINE_STYLES)]
            for key, seen in names.items() for i, name in enumerate(seen)}


def _draw_boundary(ax, points: pd.DataFrame, weights: dict[str, np.ndarray], axis,
                   styles) -> None:
    X, y = points[["x1", "x2"]].to_numpy(), points["y"].to_numpy()
    ax.plot(X[y > 0, 0], X[y > 0, 1], "o", color="blue", mfc="none", label="y = +1")
    ax.plot(X[y <= 0, 0], X[y <= 0, 1], "x", color="red", label="y = −1")
    ends = np.array(axis[:2], dtype=float)
    for name, w in weights.items():
        color, ls = styles[name]
        label = display_name(name)
        if not crosses(w, axis):     # said, not silently missing
            label += f" (outside this view: w = [{', '.join(f'{v:.2g}' for v in w)}])"
        if w[1] != 0:   # the listings' line: x2 = -(w3 + w1 x1) / w2 at the axis ends
            ax.plot(ends, -(w[2] + ends * w[0]) / w[1], color=color, ls=ls, label=label)
        else:
            ax.plot([], [], color=color, ls=ls, label=f"{label} (w2 = 0: vertical or none)")


def _draw_fit(ax, data: pd.DataFrame, curves: dict[str, pd.DataFrame], axis, styles) -> None:
    """The kernel model each run fitted, over the grid of its inputs (``kernel_curve``), and
    the stream's inputs and targets (``kernel_data``)."""
    for name, curve in curves.items():
        ax.plot(curve["x"].to_numpy(), curve["prediction"].to_numpy(), color="g",
                ls=styles[name][1], label=display_name(name))
    ax.plot(data["x"].to_numpy(), data["y"].to_numpy(), "o", color="blue", mfc="none",
            label="data")


def _draw_counts(ax, counts: pd.DataFrame) -> None:
    """One horizontal bar per learner and stream (outliers: dark; control: light), its
    count written at its end, the learners named on the axis (no label can collide)."""
    rate = counts["separated"] / counts["runs"]
    rows = np.arange(len(counts))
    shade = counts["outliers"].map(lambda k: "0.35" if k else "0.75")
    ax.barh(rows, rate, color=shade, height=0.7)
    for row, value, n_sep, n_runs in zip(rows, rate, counts["separated"], counts["runs"]):
        ax.text(value + 0.02, row, f"{n_sep} / {n_runs}", va="center", fontsize=8)
    ax.set_yticks(rows, [f"{name}, {f'{k} outliers' if k else 'no outliers'}"
                         for name, k in zip(counts[col.LEARNER], counts["outliers"])],
                  fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, 1.3)
    ax.set_xticks([0, 0.25, 0.5, 0.75, 1])
    ax.set_xlabel("share of seeds whose boundary separates\nthe clean clusters")
    ax.set_title(f"Fig. 31.8's data over {int(counts['runs'].max())} seeds", fontsize=9)
    ax.grid(axis="y", visible=False)


@styled
def textbook_figure(table: pd.DataFrame, side) -> Figure | None:
    """The panels of :data:`PANELS` found in the grid, plus the separation counts of
    Fig. 31.8 (and its control) over every seed; None when no panel's recipe is in the
    grid. Two panels a row, at most 9.6 x 11.4 inches (seven panels and the counts)."""
    runs = _runs(table, side)
    runs = runs[runs["stream_class"].isin(_STREAMS)]
    if runs.empty:
        return None
    weights = by_run(side_table(side, "final_weights"))
    pictures = {"boundary": by_run(side_table(side, "points")),
                "fit": by_run(side_table(side, "kernel_data"))}
    curves = by_run(side_table(side, "kernel_curve"))
    first = runs[runs[col.SEED].eq(runs[col.SEED].min())]
    drawn = []
    for panel in PANELS:
        chosen = [run for run in first.itertuples() if _matches(panel, run, curves)]
        picture = pictures[panel.kind].get(chosen[0].run_id) if chosen else None
        if picture is None:
            continue
        # the learners' runs on the panel's stream (that of its first run), in the grid's order
        series = {run.learner: (weights[run.run_id]["w"].to_numpy() if panel.kind == "boundary"
                                else curves[run.run_id])
                  for run in chosen if run.stream == chosen[0].stream}
        drawn.append((panel, picture, series))
    counts = separation_counts(table, side)
    if not drawn:
        return None
    styles = _line_styles(drawn)
    n_axes = len(drawn) + (not counts.empty)
    ncols = min(2, n_axes)
    nrows = -(-n_axes // ncols)
    fig = Figure(figsize=(4.8 * ncols, 2.85 * nrows), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
    for ax, (panel, picture, series) in zip(axes, drawn):
        draw = _draw_boundary if panel.kind == "boundary" else _draw_fit
        draw(ax, picture, series, panel.axis,
             {name: styles[panel.learners, name] for name in series})
        ax.set_xlim(panel.axis[0], panel.axis[1])
        ax.set_ylim(panel.axis[2], panel.axis[3])
        ax.set_title(panel.title, fontsize=9)
        # framed: where no corner is free of points, the legend hides them rather than
        # printing over them
        ax.legend(fontsize=7, loc="best", frameon=True, framealpha=0.9, edgecolor="0.8")
        ax.grid(False)
    if not counts.empty:
        _draw_counts(axes[len(drawn)], counts)
    for ax in axes[n_axes:]:
        ax.remove()    # an odd count leaves one slot: no empty panel
    fig.suptitle(f"{BOOK}, reproduced (first seed's data; parameters in the legends)",
                 fontsize=10)
    return fig


figure("textbook", order=95,
       side=("final_weights", "points", "kernel_data", "kernel_curve", "separation", "grid"),
       caption=f"The listings of {BOOK}, one panel each, drawn as the listings draw them "
               "(Fig. 31.4 and 31.8 are the book's printed figures; 31.5 and 31.9 are "
               "listings whose output the book does not print), the control of Fig. 31.8 "
               "(its points without the two outliers), and how often each boundary of "
               "Fig. 31.8 separates the clean clusters over all seeds, with the outliers "
               "and without.")(textbook_figure)
