"""The listings of Sugiyama (2015), *Introduction to Statistical Machine Learning*, ch. 31,
drawn as the book draws them, from the results table of the study ``textbook_sugiyama``.

The chapter's four programs are the listings of Fig. 31.3, 31.5, 31.7 and 31.9
(``sample31_3.m`` ...); the book prints the output of two of them, Fig. 31.4 and 31.8. One
panel per listing whose recipe is in the grid (a panel is found by its stream and learner,
not by the experiment's name), plus the control of Fig. 31.8 (its stream without the
outliers), drawn like the listings' plots: class +1 as blue circles, class -1 as red crosses,
the final boundary w.(x1, x2, 1) = 0 as a black line; regression points as blue circles, the
fitted kernel model f(x) = sum_j w_j k_j(x) as a green curve over 1,000 points; the listings'
axis ranges. Several learners in one panel get one line style each. The points are the first
seed's (the stream is rebuilt from its task's spec), the weights the table's ``final_w``: no
learner is rerun. A last panel counts, over every seed, how often each boundary of Fig. 31.8
separates the clean clusters, with the outliers and without (:func:`separation_counts`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
from hydra.utils import get_class, instantiate
from matplotlib.figure import Figure

from olbench import schema as col
from olbench.analysis.figures.boundaries import crosses
from olbench.analysis.figures.registry import figure
from olbench.analysis.figures.style import LINESTYLES, styled
from olbench.analysis.views import display_name, ok_rows
from olbench.streams.preprocess import gaussian_kernel_features

BOOK = "Sugiyama (2015), ch. 31"
GRID_POINTS = 1000          # the listings' N = 1000 points of the fitted curve


@dataclass(frozen=True)
class Panel:
    """One panel: which runs it shows and the listing's axis range. ``when``: a condition on
    the (instantiated) stream, for panels whose stream class is shared."""

    title: str
    kind: str                                  # "boundary" or "fit"
    stream: str                                # class name of the (outer) stream
    learners: tuple[str, ...]                  # learner class names, drawn in this order
    axis: tuple[float, float, float, float]
    when: Callable[[object], bool] = lambda stream: True


def _has_outliers(stream) -> bool:
    return int(stream.n_outliers) > 0


def _no_outliers(stream) -> bool:
    return int(stream.n_outliers) == 0


#: In the book's order; the control panels sit under the Fig. 31.8 they control.
PANELS = (
    Panel("Fig. 31.4 (listing of Fig. 31.3): PA", "boundary", "SugiyamaClusters", ("PA",),
          (-10, 10, -10, 10)),
    Panel("Listing of Fig. 31.5: PA regression", "fit", "Passes", ("PARegressor",),
          (-2.8, 2.8, -0.5, 1.2), lambda stream: int(stream.passes) == 1),
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
          lambda stream: int(stream.passes) > 1),
)
_STREAMS = {panel.stream for panel in PANELS}
#: Black lines (the listings' ``k-``) then grey ones, one per learner of a panel.
_LINE_STYLES = [(color, ls) for color in ("k", "0.5") for ls in LINESTYLES]


def _class_name(spec: dict) -> str:
    return get_class(spec["_target_"]).__name__


def _matches(panel: Panel, task) -> bool:
    if _class_name(task.stream) != panel.stream or _class_name(task.learner) not in panel.learners:
        return False
    if panel.kind == "fit":
        inner = task.stream.get("stream") or {}
        if "_target_" not in inner or _class_name(inner) != "KernelMap":
            return False
    return panel.when(instantiate(task.stream, _convert_="all"))


def _final_w(rows: pd.DataFrame, stream_name: str, learner_name: str) -> np.ndarray | None:
    hit = rows[(rows[col.STREAM] == stream_name) & (rows[col.LEARNER] == learner_name)]
    return None if hit.empty else np.asarray(json.loads(hit[col.FINAL_W].iloc[0]))


def separates(w: np.ndarray, X: np.ndarray, y: np.ndarray) -> bool:
    """Does w.x = 0 put every point on its own side (y w.x > 0 for all rows)?

    >>> separates(np.array([1.0, 0.0]), np.array([[1.0, 5.0], [-2.0, 0.0]]), np.array([1, -1]))
    True
    """
    return bool(np.all(y * (X @ w) > 0))


def separation_counts(table: pd.DataFrame, tasks) -> pd.DataFrame:
    """For the streams of Fig. 31.8's recipe, with its outliers and without (the control): per
    learner and stream, over every seed, in how many runs the final boundary separates the
    clean clusters (the points that were not moved; without outliers, all of them). Columns
    learner, outliers (how many points the stream moved), separated, runs; learners in the
    grid's order, the stream with outliers first. Runs that failed or lack ``final_w`` are
    not counted (``runs`` says how many were)."""
    ok = ok_rows(table) if col.FINAL_W in table else table.iloc[:0]
    ok = ok[ok[col.FINAL_W].notna()].drop_duplicates(col.RUN_ID) if len(ok) else ok
    counts: dict[tuple[str, int], list[int]] = {}
    for task in tasks:
        if _class_name(task.stream) != "SugiyamaOutliers":
            continue
        stream = instantiate(task.stream, _convert_="all")
        learner = instantiate(task.learner, _convert_="all")
        w = _final_w(ok, stream.name, learner.name) if len(ok) else None
        if w is None:
            continue
        X, y = stream.materialize()
        clean = ~stream.meta.extra["outliers"]
        tally = counts.setdefault((display_name(learner.name), int(stream.n_outliers)), [0, 0])
        tally[0] += separates(w, X[clean], y[clean])
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


def _draw_boundary(ax, stream, weights: dict[str, np.ndarray], axis, styles) -> None:
    X, y = stream.materialize()
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


def _unwrap(stream, cls_name: str):
    while type(stream).__name__ != cls_name:
        stream = stream.stream
    return stream


def _draw_fit(ax, stream, weights: dict[str, np.ndarray], axis, styles) -> None:
    mapped = _unwrap(stream, "KernelMap")
    _, y = mapped.materialize()
    meta = mapped.meta
    inputs, centers, hh = meta.extra["inputs"], meta.extra["centers"], meta.extra["hh"]
    grid = np.linspace(inputs.min(), inputs.max(), GRID_POINTS)[:, None]
    K = gaussian_kernel_features(grid, centers, hh)
    for name, w in weights.items():
        F = K @ w[:K.shape[1]] + (w[-1] if meta.bias else 0.0)
        ax.plot(grid[:, 0], F, color="g", ls=styles[name][1], label=display_name(name))
    ax.plot(inputs[:, 0], y, "o", color="blue", mfc="none", label="data")


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
def textbook_figure(table: pd.DataFrame, tasks) -> Figure | None:
    """The panels of :data:`PANELS` found in the grid, plus the separation counts of
    Fig. 31.8 (and its control) over every seed; None when no panel's recipe is in the
    grid. Two panels a row, at most 9.6 x 11.4 inches (seven panels and the counts)."""
    tasks = [t for t in tasks if _class_name(t.stream) in _STREAMS]
    if col.FINAL_W not in table or not tasks:
        return None
    ok = ok_rows(table)
    ok = ok[ok[col.FINAL_W].notna()].drop_duplicates(col.RUN_ID)
    first_seed = min(t.seed for t in tasks)
    drawn = []
    for panel in PANELS:
        chosen = [t for t in tasks if t.seed == first_seed and _matches(panel, t)]
        if not chosen:
            continue
        stream = instantiate(chosen[0].stream, _convert_="all")
        weights = {}
        for task in chosen:
            name = instantiate(task.learner, _convert_="all").name
            w = _final_w(ok, stream.name, name)
            if w is not None:
                weights[name] = w
        if weights:
            drawn.append((panel, stream, weights))
    counts = separation_counts(table, tasks)
    if not drawn:
        return None
    styles = _line_styles(drawn)
    n_axes = len(drawn) + (not counts.empty)
    ncols = min(2, n_axes)
    nrows = -(-n_axes // ncols)
    fig = Figure(figsize=(4.8 * ncols, 2.85 * nrows), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
    for ax, (panel, stream, weights) in zip(axes, drawn):
        draw = _draw_boundary if panel.kind == "boundary" else _draw_fit
        draw(ax, stream, weights, panel.axis,
             {name: styles[panel.learners, name] for name in weights})
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


figure("textbook", order=95, tasks=True,
       caption=f"The listings of {BOOK}, one panel each, drawn as the listings draw them "
               "(Fig. 31.4 and 31.8 are the book's printed figures; 31.5 and 31.9 are "
               "listings whose output the book does not print), the control of Fig. 31.8 "
               "(its points without the two outliers), and how often each boundary of "
               "Fig. 31.8 separates the clean clusters over all seeds, with the outliers "
               "and without.")(textbook_figure)
