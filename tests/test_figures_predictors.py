"""The figures of what a learner ends with, over the data: decision boundaries of 2-D
classification (drawn from the points and weights the runs wrote into side tables), and
regression's average loss and fitted function (from real runs on the sinc stream)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from figure_reading import labelled_lines, learner_lines
from in_memory import run_tasks
from synthetic_table import make_table

from olbench.analysis import figures, views
from olbench.analysis.figures import boundaries


@pytest.mark.parametrize("w", [np.array([1.0, -2.0]), np.array([0.5, 1.0, -0.3]),
                               np.array([0.0, 1.0, 0.2]), np.array([2.0, 0.0, 1.0])])
def test_decision_boundary_is_the_line_w_dot_x_equals_zero(w):
    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 1, (60, 2))
    y = np.where(X @ np.array([1.0, 0.5]) > 0, 1.0, -1.0)
    fig = boundaries.decision_boundaries_figure(X, y, {"A[x=1]": w, "zero": np.zeros(2)},
                                           title="PA vs AROW")
    ax = fig.axes[0]
    assert ax.get_title() == "PA vs AROW"
    line = learner_lines(ax)["A[x=1]"]
    pts = np.column_stack([line.get_xdata(), line.get_ydata()])
    bias = w[2] if len(w) == 3 else 0.0
    np.testing.assert_allclose(pts @ w[:2] + bias, 0.0, atol=1e-9)
    assert any("no boundary" in ln.get_label() for ln in ax.get_lines())
    assert len(ax.collections) == 2                # the two classes
    with pytest.raises(ValueError, match="2 entries"):
        boundaries.decision_boundaries_figure(X, y, {"bad": np.ones(4)})


def test_boundary_figures_draw_the_points_and_weights_the_runs_wrote():
    """One figure per 2-D stream of the first seed, numbered by the stream's place in the
    grid (the side table ``grid``); the points and boundaries are what the runs wrote
    (``points``, ``final_weights``; failed runs and other seeds left out)."""
    from types import SimpleNamespace

    from olbench.harness.side import grid_table

    def spec(d, seed):
        return {"_target_": "olbench.streams.Separable", "n": 40, "d": d, "gamma": 0.1,
                "R": 1.0, "seed": seed}

    def name(d, seed):
        return f"Separable[n=40,d={d},gamma=0.1,R=1.0,seed={seed}]"

    runs = [("b", "ok", 0, 5, "PA[C=1.0,seed=0]", [1.0, 0, 0, 0, 0]),
            ("a", "ok", 0, 2, "PA[C=1.0,seed=0]", [1.0, -0.5]),
            ("c", "error: boom", 0, 2, "AROW[r=1.0]", None),
            ("d", "ok", 1, 2, "OGD[eta=1.0]", [0.0, 1.0])]
    table = pd.DataFrame([(r, status, seed, name(d, seed), learner, 40)
                          for r, status, seed, d, learner, _ in runs],
                         columns=["run_id", "status", "seed", "stream", "learner", "stream_n"])
    tasks = [SimpleNamespace(run_id=r, seed=seed, stream=spec(d, seed))
             for r, _, seed, d, _, _ in runs]
    points = pd.DataFrame({"x1": [0.5, -1.0, 2.0], "x2": [1.0, 0.0, -2.0], "y": [1.0, -1.0, 1.0]})
    side = {"grid": grid_table(tasks),
            "points": pd.concat([points.assign(run_id=r) for r in ("a", "d")]),
            "final_weights": pd.concat([pd.DataFrame({"run_id": r, "w": w})
                                        for r, _, _, _, _, w in runs if w is not None])}
    assert figures.FIGURES["boundaries"].side == ("final_weights", "points", "grid")
    made = boundaries.boundary_figures(table, side)
    assert list(made) == ["boundaries_1"]
    ax = made["boundaries_1"].axes[0]
    assert ax.get_title().replace("\n", " ") == views.display_name(
        views.drop_param(name(2, 0))) + " (first 3 of 40 points)"   # n: the table's
    pa = views.display_name("PA[C=1.0]")               # as every figure names the learner
    line = learner_lines(ax)[pa]
    pts = np.column_stack([line.get_xdata(), line.get_ydata()])
    np.testing.assert_allclose(pts @ np.array([1.0, -0.5]), 0.0, atol=1e-9)
    assert set(learner_lines(ax)) == {pa}
    drawn = np.vstack([c.get_offsets() for c in ax.collections])
    np.testing.assert_array_equal(np.sort(drawn, axis=0), np.sort(points[["x1", "x2"]], axis=0))
    no_weights = {**side, "final_weights": side["final_weights"].iloc[:0]}
    assert boundaries.boundary_figures(table, no_weights) == {}
    assert figures.build_figures(table, None, only=["boundaries"]) == {}   # no side tables
    assert figures.build_figures(table, {}, only=["boundaries"]) == {}     # an older folder's


def test_regression_figures_average_loss_and_the_fitted_sinc_curve():
    """Real PA regression runs on the textbook's sinc stream: the average loss per learner
    against t (the table's mean over seeds), and the final predictor over the data, equal to
    the predictions of the same learner rerun here."""
    from hydra.utils import instantiate

    import olbench
    from olbench.analysis.figures import regression
    from olbench.harness.tasks import Task

    stream = {"_target_": "olbench.streams.Sinc", "n": 60}
    learner = {"_target_": "olbench.learners.pa.PARegressor"}
    tasks = [Task("sinc", s, {**stream, "seed": s}, learner, (), 6) for s in (0, 1)]
    table, side = run_tasks(tasks)
    assert (table["status"] == "ok").all()
    fig = regression.average_loss_figure(table)
    (ax,) = [a for a in fig.axes if a.get_visible()]
    (line,) = labelled_lines(ax)
    rows = table.drop_duplicates(["run_id", "t"])
    assert line.get_ydata() == pytest.approx(rows.groupby("t")["avg_loss"].mean().to_numpy())
    assert regression.average_loss_figure(make_table()) is None   # classification
    (fit,) = regression.fitted_function_figures(table, side).values()
    (ax,) = fit.axes
    curves = {ln.get_label(): ln for ln in labelled_lines(ax)}
    s0 = instantiate({**stream, "seed": 0})
    X, y = s0.materialize()
    w = olbench.run(instantiate(learner), X, y).state["w"]
    order = np.argsort(s0.meta.extra["x"])
    (name,) = [k for k in curves if k.endswith("final $w \\cdot x$")]
    assert curves[name].get_ydata() == pytest.approx((X @ w)[order], abs=1e-12)
    assert curves["noise-free curve"].get_ydata() == pytest.approx(s0.meta.clean_y[order])


def test_no_fitted_function_over_several_passes():
    """A stream of several passes over 1-D inputs (Sugiyama's Fig. 31.9) has one x per input
    but a round per pass: the fitted-function figure leaves it out rather than fail."""
    from olbench.analysis.figures import regression
    from olbench.harness.tasks import Task

    sinc = {"_target_": "olbench.streams.Sinc", "n": 30}
    passes = {"_target_": "olbench.streams.Passes", "stream": sinc, "passes": 3}
    learner = {"_target_": "olbench.learners.pa.PARegressor"}
    tasks = [Task("sinc", 0, stream, learner, (), 6) for stream in (sinc, passes)]
    table, side = run_tasks(tasks)
    assert (table["status"] == "ok").all()
    assert list(regression.fitted_function_figures(table, side)) == ["fit_0"]
