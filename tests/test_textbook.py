"""The study textbook_sugiyama: its experiment composes into the book's recipes, and the
figure module draws one panel per book figure from a small grid, with the curves and lines
the listings would draw from the runs' final weights; the separation counts of Fig. 31.8
agree with the listing's AROW and PA transcribed in tests/naive.py."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import naive
import numpy as np
import pandas as pd
import pytest
from hydra import compose, initialize_config_dir
from hydra.utils import instantiate

from olbench import schema as col
from olbench.cli import build_tasks
from olbench.figures.textbook import PANELS, separation_counts, textbook_figure
from olbench.grid import run_task

CONF = Path(__file__).resolve().parents[1] / "conf"


@pytest.fixture(scope="module")
def small_study():
    """The study's grid with two seeds, run without comparators (the figure needs none)."""
    with initialize_config_dir(config_dir=str(CONF), version_base=None):
        cfg = compose(config_name="config",
                      overrides=["experiment=textbook_sugiyama", "grid.seeds=[0,1]"])
    _, tasks = build_tasks(cfg, ["experiment=textbook_sugiyama"])
    tasks = [dataclasses.replace(t, comparators=(), checkpoints=2) for t in tasks]
    return pd.concat([run_task(t) for t in tasks], ignore_index=True), tasks


def test_the_experiment_is_the_listings_recipes(small_study):
    table, tasks = small_study
    assert len(tasks) == 2 * 5 and set(table[col.STATUS]) == {col.OK}
    n = {(t.stream["_target_"].rsplit(".", 1)[1], t.learner["_target_"].rsplit(".", 1)[1]):
         instantiate(t.stream).meta.n for t in tasks if t.seed == 0}
    assert n == {("SugiyamaClusters", "PA"): 200, ("SugiyamaOutliers", "PA"): 50,
                 ("SugiyamaOutliers", "AROW"): 50, ("Passes", "PARegressor"): 50,
                 ("Passes", "RLS"): 50 * 100}
    lam = 1.0
    pa = [t.learner for t in tasks if t.learner["_target_"].endswith(".PA")]
    assert all(s["variant"] == "pa2" and s["C"] == 1 / (2 * lam) for s in pa)
    rls = next(t.learner for t in tasks if t.learner["_target_"].endswith(".RLS"))
    assert (rls["r"], rls["a"], rls["init"]) == (lam, 1.0, "randn")


def test_the_figure_draws_one_panel_per_book_figure(small_study):
    table, tasks = small_study
    fig = textbook_figure(table, tasks)
    axes = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in axes] == [p.title for p in PANELS] + [
        "Fig. 31.8's recipe over 2 seeds"]
    for ax, panel in zip(axes, PANELS):
        assert (*ax.get_xlim(), *ax.get_ylim()) == panel.axis
    first = table[table[col.SEED] == 0].drop_duplicates(col.RUN_ID)
    # Fig. 31.9: the green curve is the listing's F = K m over X = linspace(-3, 3, 1000)
    rls = first[first[col.LEARNER].str.startswith("RLS")]
    m = np.asarray(json.loads(rls[col.FINAL_W].iloc[0]))
    x = np.linspace(-3, 3, 50)
    X = np.linspace(-3, 3, 1000)
    F = np.exp(-(X[:, None] - x[None, :]) ** 2 / (2 * 0.3 ** 2)) @ m
    curve = axes[4].get_lines()[0]
    np.testing.assert_allclose(curve.get_xdata(), X, rtol=1e-14)
    np.testing.assert_allclose(curve.get_ydata(), F, rtol=1e-10, atol=1e-12)
    # Fig. 31.4: the black line is x2 = -(t3 + x1 t1) / t2 at x1 = -10, 10
    pa = first[first[col.STREAM].str.startswith("SugiyamaClusters")]
    t = np.asarray(json.loads(pa[col.FINAL_W].iloc[0]))
    line = [ln for ln in axes[0].get_lines() if ln.get_color() == "k"][0]
    np.testing.assert_allclose(line.get_ydata(), -(t[2] + np.array([-10, 10]) * t[0]) / t[1])


def test_separation_counts_agree_with_the_listings(small_study):
    table, tasks = small_study
    expected = {"PA-II (C=0.5)": 0, "AROW (r=1)": 0}
    for task in tasks:
        if not task.stream["_target_"].endswith("SugiyamaOutliers") or \
                not task.learner["_target_"].endswith(".AROW"):
            continue
        stream = instantiate(task.stream)
        X, y = stream.materialize()
        clean = ~stream.meta.extra["outliers"]
        arow = naive.sugiyama_arow_classification(X, y, lam=1.0)
        pa = naive.sugiyama_pa_classification(X, y, lam=1.0)
        expected["AROW (r=1)"] += bool(np.all(y[clean] * (X[clean] @ arow) > 0))
        expected["PA-II (C=0.5)"] += bool(np.all(y[clean] * (X[clean] @ pa) > 0))
    counts = separation_counts(table, tasks).set_index("learner")
    assert counts["runs"].to_dict() == {"PA-II (C=0.5)": 2, "AROW (r=1)": 2}
    assert counts["separated"].to_dict() == expected


def test_no_textbook_figure_for_other_grids(small_study):
    table, tasks = small_study
    others = [dataclasses.replace(t, stream={"_target_": "olbench.streams.Separable"})
              for t in tasks]
    assert textbook_figure(table, others) is None
