"""The static-against-shifting regret figure, and the regret figures' names and colours."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from in_memory import run_tasks

from olbench.analysis.figures import regret, regret_bounds, regret_shifting
from olbench.comparators.best_shifting import BestShifting
from olbench.harness.tasks import Task


def _lines(ax):
    return [ln for ln in ax.get_lines() if not ln.get_label().startswith("_")]


@pytest.fixture(scope="module")
def drift_runs():
    """PA and the Perceptron on a stream whose target switches at round 200, against
    prefix_best and best_shifting (hinge), 2 seeds."""
    stream = {"_target_": "olbench.streams.Drift", "n": 400, "d": 3, "mode": "switch",
              "switch_at": [200]}
    comps = ({"_target_": "olbench.comparators.PrefixBest", "loss": "hinge"},
             {"_target_": "olbench.comparators.best_shifting.BestShifting", "loss": "hinge"})
    learners = [{"_target_": "olbench.learners.perceptron.Perceptron"},
                {"_target_": "olbench.learners.pa.PA"}]
    tasks = [Task("drift", s, {**stream, "seed": s}, learner, comps, 8, "hinge", None, "linear")
             for s in (0, 1) for learner in learners]
    return run_tasks(tasks)


def test_shifting_figure_draws_both_regrets_from_the_table(drift_runs):
    table, side = drift_runs
    assert (table["status"] == "ok").all()
    assert regret_shifting.SHIFTING == BestShifting.__name__   # the figure knows it by name
    fig = regret_shifting.regret_shifting_figure(table, side)
    (ax,) = [a for a in fig.axes if a.get_visible()]
    lines = {ln.get_label(): ln for ln in _lines(ax)}
    shifting = [k for k in lines if k.startswith("Perceptron") and k.endswith("(shifting)")]
    static = [k for k in lines if k.startswith("Perceptron") and k.endswith("(static)")]
    assert len(shifting) == len(static) == 1
    rows = table[table["learner"].str.startswith("Perceptron")].drop_duplicates(
        ["run_id", "t", "comparator"])
    for key, which in ((shifting[0], True), (static[0], False)):
        mine = rows[rows["comparator"].map(regret_shifting.is_shifting) == which]
        expected = mine.groupby("t")["regret"].mean()
        np.testing.assert_allclose(lines[key].get_ydata(), expected.to_numpy())
        assert lines[key].get_linestyle() == ("--" if which else "-")
    # after the switch no fixed u fits both halves: the shifting regret is the larger one
    assert lines[shifting[0]].get_ydata()[-1] > lines[static[0]].get_ydata()[-1]
    (switch,) = [ln for ln in _lines(ax) if ln.get_label() == "target switches"]
    assert switch.get_xdata()[0] == 200
    assert regret_shifting.regret_shifting_figure(
        table[~table["comparator"].map(regret_shifting.is_shifting)], side) is None


def test_regret_title_names_every_comparator_and_loss(drift_runs):
    table, _ = drift_runs
    title = regret.regret_figure(table).get_suptitle().replace("\n", " ")
    assert "PrefixBest" in title and "BestShifting" in title and "2 comparators" not in title
    assert title.startswith("Regret (hinge loss)")


def test_regret_vs_bound_gives_a_learner_one_colour_in_every_panel():
    rows = []
    for stream, learners in (("S1", ["A", "B"]), ("S2", ["B"])):
        for learner in learners:
            for t in (1, 2):
                rows.append({"status": "ok", "stream": stream, "learner": learner, "t": t,
                             "seed": 0, "quantity": "regret", "bound_name": "b",
                             "bound": 2.0 * t, "observed": 1.0 * t})
    fig = regret_bounds.regret_vs_bound_figure(pd.DataFrame(rows))
    colours = {}
    for ax in fig.axes:
        for ln in _lines(ax):
            colours.setdefault(ln.get_label().split(":")[0], set()).add(ln.get_color())
    assert colours["B"] and len(colours["B"]) == 1 and colours["A"] != colours["B"]
