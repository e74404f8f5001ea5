"""Final decision boundaries w·x = 0 of every learner over the points of each 2-D stream.

The points and the final weights are what the runs wrote (the side tables ``points`` and
``final_weights``): no stream is rebuilt, no learner rerun.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from olbench import schema as col
from olbench.analysis.figures.layout import figure_legend
from olbench.analysis.figures.per_run import by_run, first_seed_streams
from olbench.analysis.figures.registry import figure
from olbench.analysis.figures.style import learner_styles, line_style, styled, wrap
from olbench.analysis.views import display_name, drop_param, short_label
from olbench.harness.side import side_table


def _boundary_segment(w: np.ndarray, box: tuple[float, float, float, float]):
    """Two points of the line w.(x1, x2[, 1]) = 0 spanning ``box``; None if w[:2] == 0."""
    w = np.asarray(w, float)
    a, b = w[0], w[1]
    c = w[2] if len(w) == 3 else 0.0
    norm2 = a * a + b * b
    if norm2 == 0:
        return None
    x0, x1, y0, y1 = box
    p = -c * np.array([a, b]) / norm2              # the point of the line nearest the origin
    d = np.array([-b, a]) / np.sqrt(norm2)
    span = 2 * (abs(x1 - x0) + abs(y1 - y0) + np.linalg.norm(p))
    return [p[0] - span * d[0], p[0] + span * d[0]], [p[1] - span * d[1], p[1] + span * d[1]]


def crosses(w: np.ndarray, box: tuple[float, float, float, float]) -> bool:
    """Does the line w.(x1, x2[, 1]) = 0 pass through the box (corners on both sides)?"""
    x0, x1, y0, y1 = box
    corners = np.array([[x0, y0], [x0, y1], [x1, y0], [x1, y1]])
    values = corners @ w[:2] + (w[2] if len(w) == 3 else 0.0)
    return bool(values.min() <= 0 <= values.max())


@styled
def decision_boundaries_figure(X, y, learners_w: Mapping[str, np.ndarray], *,
                               title: str | None = None,
                               colors: Mapping[str, dict] | None = None) -> Figure:
    """2-D points by class and each learner's final boundary w.x = 0 (w of length 2, or 3
    with a bias: x = (x1, x2, 1)). ``colors``: :func:`learner_styles` of the table, to keep
    the learners' colours of the other figures (default: by sorted name)."""
    X, y = np.asarray(X, float), np.asarray(y, float)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"decision boundaries need 2-D points; got X of shape {X.shape}")
    styles = dict(colors) if colors is not None else learner_styles(learners_w)
    fig = Figure(figsize=(5.6, 5.0), layout="constrained")
    ax = fig.subplots()
    ax.scatter(*X[y > 0].T, marker="o", s=22, color="0.25", label="y = +1")
    ax.scatter(*X[y <= 0].T, marker="o", s=22, facecolors="none", edgecolors="0.45",
               label="y = −1")
    pad = 0.05 * (np.ptp(X, axis=0) + 1e-12)
    box = (X[:, 0].min() - pad[0], X[:, 0].max() + pad[0],
           X[:, 1].min() - pad[1], X[:, 1].max() + pad[1])
    for name, w in learners_w.items():
        w = np.asarray(w, float)
        if w.shape not in ((2,), (3,)):
            raise ValueError(f"{name}: w must have 2 entries (or 3 with a bias); got {w.shape}")
        seg = _boundary_segment(w, box)
        style = styles.get(name) or styles.get(drop_param(name)) or {"color": "k"}
        if seg is None:
            ax.plot([], [], label=f"{name} (w = 0: no boundary)", **line_style(style))
        elif not crosses(w, box):
            ax.plot([], [], label=f"{name} (boundary outside this view)", **line_style(style))
        else:
            ax.plot(*seg, label=name, **line_style(style))
    ax.set_xlim(box[0], box[1])
    ax.set_ylim(box[2], box[3])
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    ax.set_title(wrap(title) if title else "Final decision boundaries $w \\cdot x = 0$")
    ax.grid(False)
    figure_legend(fig, [ax])
    return fig


@figure("boundaries", order=90, side=("final_weights", "points", "grid"),
        caption="Final decision boundaries w·x = 0 of every learner (its colour and line "
                "style of the other figures) over the points of a 2-D stream (its first "
                "20,000 of a longer one), first seed's data; filled: y = +1, hollow: y = −1.")
def boundary_figures(table: pd.DataFrame, side) -> dict[str, Figure]:
    """``boundaries_<i>``: the final decision boundaries of every learner on the i-th stream of
    the grid (first seed's data), for the streams with two features (plus a bias), whose
    runs wrote their points (the first 20,000) and final weights."""
    weights_of = by_run(side_table(side, "final_weights"))
    figures: dict[str, Figure] = {}
    for number, runs, points in first_seed_streams(table, side, "points"):
        runs = runs[runs[col.RUN_ID].isin(list(weights_of))]
        if runs.empty:
            continue
        drawn = points[runs[col.RUN_ID].iloc[0]]   # the stream's points: any of its runs'
        X, y = drawn[["x1", "x2"]].to_numpy(), drawn["y"].to_numpy()
        names = short_label(runs, col.LEARNER, table)
        weights = {names[i]: weights_of[r]["w"].to_numpy() for i, r in runs[col.RUN_ID].items()}
        stream, n = runs[col.STREAM].iloc[0], int(runs[col.STREAM_N].iloc[0])
        title = display_name(drop_param(stream)) + (
            f" (first {len(y):,} of {n:,} points)" if len(y) < n else "")
        figures[f"boundaries_{number}"] = decision_boundaries_figure(
            X, y, weights, title=title, colors=learner_styles(table))
    return figures
