"""Final decision boundaries w·x = 0 of every learner over the points of each 2-D stream.

The points come from rebuilding the stream from its task's spec (deterministic in the spec),
the boundaries from the table's ``final_w`` column: no learner is rerun.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from olbench import schema as col
from olbench.analysis.figures.layout import figure_legend
from olbench.analysis.figures.registry import figure, streams_with_final_weights
from olbench.analysis.figures.style import learner_styles, line_style, styled, wrap
from olbench.analysis.views import display_name, drop_param, short_label
from olbench.harness.streamed import first_rows


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


#: the most points a boundary figure draws (the first ones of a longer stream)
MAX_POINTS = 20_000


@figure("boundaries", order=90, tasks=True,
        caption="Final decision boundaries w·x = 0 of every learner (its colour and line "
                "style of the other figures) over the points of a 2-D stream (its first "
                "20,000 of a longer one), first seed's data; filled: y = +1, hollow: y = −1.")
def boundary_figures(table: pd.DataFrame, tasks) -> dict[str, Figure]:
    """``boundaries_<i>``: the final decision boundaries of every learner on the i-th stream of
    the grid's ``tasks`` (first seed's data), for the streams with two features (plus a
    bias); none when the table has no ``final_w`` column."""
    figures: dict[str, Figure] = {}
    for number, stream, rows, _ in streams_with_final_weights(table, tasks):
        if stream.meta.d - int(stream.meta.bias) != 2:
            continue
        X, y = first_rows(stream, MAX_POINTS)   # a file of any length is not loaded whole
        X = X[:, :2]  # the points; a bias column (last) is part of w, not of the picture
        X = X.toarray() if hasattr(X, "toarray") else X   # a svmlight file's rows are CSR
        names = short_label(rows, col.LEARNER, table)
        weights = {names[i]: np.asarray(json.loads(w)) for i, w in rows[col.FINAL_W].items()}
        title = display_name(drop_param(stream.name)) + (
            f" (first {len(y):,} of {stream.meta.n:,} points)" if len(y) < stream.meta.n
            else "")
        figures[f"boundaries_{number}"] = decision_boundaries_figure(
            X, y, weights, title=title, colors=learner_styles(table))
    return figures
