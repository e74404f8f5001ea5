"""The figures of Sugiyama (2015), *Introduction to Statistical Machine Learning*, ch. 31,
drawn as the book draws them, from the results table of the study ``textbook_sugiyama``.

One panel per book figure whose recipe is in the grid (a panel is found by its stream and
learner, not by the experiment's name), drawn like the listings' plots: class +1 as blue
circles, class -1 as red crosses, the final boundary w.(x1, x2, 1) = 0 as a black line;
regression points as blue circles, the fitted kernel model f(x) = sum_j w_j k_j(x) as a
green curve over 1,000 points; the listings' axis ranges. The points are the first seed's
(the stream is rebuilt from its task's spec), the weights the table's ``final_w``: no
learner is rerun. A last panel counts, over every seed, how often each boundary of
Fig. 31.8 separates the clean clusters (:func:`separation_counts`).
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
from olbench.figures.boundaries import crosses
from olbench.figures.registry import figure
from olbench.figures.style import styled
from olbench.streams.preprocess import gaussian_kernel_features
from olbench.views import display_name, ok_rows

BOOK = "Sugiyama (2015), ch. 31"
GRID_POINTS = 1000          # the listings' N = 1000 points of the fitted curve


@dataclass(frozen=True)
class Panel:
    """One book figure: which runs it shows and the listing's axis range."""

    title: str
    kind: str                                  # "boundary" or "fit"
    stream: str                                # class name of the (outer) stream
    learners: tuple[str, ...]                  # learner class names, drawn in this order
    axis: tuple[float, float, float, float]
    passes: Callable[[int], bool] = lambda passes: True


PANELS = (
    Panel("Fig. 31.4: PA classification", "boundary", "SugiyamaClusters", ("PA",),
          (-10, 10, -10, 10)),
    Panel("Fig. 31.8 (a): PA, two outliers", "boundary", "SugiyamaOutliers", ("PA",),
          (-20, 0, -2, 2)),
    Panel("Fig. 31.8 (b): AROW, two outliers", "boundary", "SugiyamaOutliers", ("AROW",),
          (-20, 0, -2, 2)),
    Panel("Fig. 31.5: PA regression, Gaussian kernel model", "fit", "Passes",
          ("PARegressor",), (-2.8, 2.8, -0.5, 1.2), lambda passes: passes == 1),
    Panel("Fig. 31.9: AROW regression, 100 passes", "fit", "Passes",
          ("RLS", "AROWRegressor"), (-2.8, 2.8, -0.5, 1.2), lambda passes: passes > 1),
)
_STREAMS = {panel.stream for panel in PANELS}


def _class_name(spec: dict) -> str:
    return get_class(spec["_target_"]).__name__


def _matches(panel: Panel, task) -> bool:
    if _class_name(task.stream) != panel.stream or _class_name(task.learner) not in panel.learners:
        return False
    if panel.kind == "fit":
        inner = task.stream.get("stream") or {}
        return (_class_name(inner) == "KernelMap" if "_target_" in inner else False) \
            and panel.passes(int(task.stream.get("passes", 1)))
    return True


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
    """For the outlier streams (Fig. 31.8's recipe): per learner, over every seed, in how many
    runs the final boundary separates the clean clusters (the points that were not moved);
    columns learner, separated, runs. Runs that failed or lack ``final_w`` are not counted
    (``runs`` says how many were)."""
    ok = ok_rows(table) if col.FINAL_W in table else table.iloc[:0]
    ok = ok[ok[col.FINAL_W].notna()].drop_duplicates(col.RUN_ID) if len(ok) else ok
    counts: dict[str, list[int]] = {}
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
        tally = counts.setdefault(display_name(learner.name), [0, 0])
        tally[0] += separates(w, X[clean], y[clean])
        tally[1] += 1
    return pd.DataFrame([(name, s, n) for name, (s, n) in counts.items()],
                        columns=["learner", "separated", "runs"])


def _draw_boundary(ax, stream, weights: dict[str, np.ndarray], axis) -> None:
    X, y = stream.materialize()
    ax.plot(X[y > 0, 0], X[y > 0, 1], "o", color="blue", mfc="none", label="y = +1")
    ax.plot(X[y <= 0, 0], X[y <= 0, 1], "x", color="red", label="y = −1")
    ends = np.array(axis[:2], dtype=float)
    for name, w in weights.items():
        label = display_name(name)
        if not crosses(w, axis):     # said, not silently missing
            label += f" (boundary outside this view: w = {np.round(w, 3).tolist()})"
        if w[1] != 0:   # the listings' line: x2 = -(w3 + w1 x1) / w2 at the axis ends
            ax.plot(ends, -(w[2] + ends * w[0]) / w[1], "k-", label=label)
        else:
            ax.plot([], [], "k-", label=f"{label} (w2 = 0: vertical or none)")


def _unwrap(stream, cls_name: str):
    while type(stream).__name__ != cls_name:
        stream = stream.stream
    return stream


def _draw_fit(ax, stream, weights: dict[str, np.ndarray], axis) -> None:
    mapped = _unwrap(stream, "KernelMap")
    _, y = mapped.materialize()
    meta = mapped.meta
    inputs, centers, hh = meta.extra["inputs"], meta.extra["centers"], meta.extra["hh"]
    grid = np.linspace(inputs.min(), inputs.max(), GRID_POINTS)[:, None]
    K = gaussian_kernel_features(grid, centers, hh)
    for name, w in weights.items():
        F = K @ w[:K.shape[1]] + (w[-1] if meta.bias else 0.0)
        ax.plot(grid[:, 0], F, "g-", label=display_name(name))
    ax.plot(inputs[:, 0], y, "o", color="blue", mfc="none", label="data")


@styled
def textbook_figure(table: pd.DataFrame, tasks) -> Figure | None:
    """The panels of :data:`PANELS` found in the grid, plus the separation counts of
    Fig. 31.8 over every seed; None when no panel's recipe is in the grid."""
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
    n_axes = len(drawn) + (not counts.empty)
    ncols = min(3, n_axes)
    nrows = -(-n_axes // ncols)
    fig = Figure(figsize=(4.4 * ncols, 3.9 * nrows), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
    for ax, (panel, stream, weights) in zip(axes, drawn):
        (_draw_boundary if panel.kind == "boundary" else _draw_fit)(ax, stream, weights,
                                                                    panel.axis)
        ax.set_xlim(panel.axis[0], panel.axis[1])
        ax.set_ylim(panel.axis[2], panel.axis[3])
        ax.set_title(panel.title, fontsize=10)
        ax.legend(fontsize=7, loc="best")
        ax.grid(False)
    if not counts.empty:
        ax = axes[len(drawn)]
        rate = counts["separated"] / counts["runs"]
        ax.bar(counts["learner"], rate, color="0.6")
        for i, row in counts.iterrows():
            ax.text(i, rate[i] + 0.02, f"{row.separated} / {row.runs}", ha="center")
        ax.set_ylim(0, 1.1)
        ax.set_ylabel("runs separating the clean clusters")
        ax.set_title(f"Fig. 31.8's recipe over {int(counts['runs'].max())} seeds", fontsize=10)
    for ax in axes[n_axes:]:
        ax.set_visible(False)
    fig.suptitle(f"{BOOK}, reproduced (first seed's data; parameters in the legends)",
                 fontsize=11)
    return fig


figure("textbook", order=95, tasks=True,
       caption=f"The figures of {BOOK}, one panel per book figure, drawn as the listings draw "
               "them, and how often each boundary of Fig. 31.8 separates the clean clusters "
               "over all seeds.")(textbook_figure)
