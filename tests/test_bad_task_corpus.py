"""The bad-input corpus of issue 31's up-front checks of the learning task: a learner given
another task's data (through olbench.run, a grid, a comparator, the configuration's choice of
comparator) and arrays whose labels say they are not the learner's task, each refused before
a round runs with a message naming what is wrong (and the learners or comparator that fit)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from task_rows import LOSSES, X, Y

from olbench import make_learner, run
from olbench.comparators import make_comparator
from olbench.learners import Learner
from olbench.streams import make_stream


def _svmlight(tmp_path, task):
    """A small LIBSVM file of classification labels or real targets."""
    labels = ["+1", "-1", "+1", "-1"] if task == "classification" else ["0.5", "-1.5", "2", "1"]
    path = tmp_path / f"{task}.svm"
    path.write_text("".join(f"{label} 1:{i + 1} 2:0.5\n" for i, label in enumerate(labels)))
    return make_stream("libsvm", path=str(path), task=task)


CLASSIFICATION = r"is a classification stream \(rows of features, labels in \{-1, \+1\}\)"
OCO = r"is an online convex optimisation stream \(each row is a loss\)"


# ------------------------------------------------------------------ the learning task (API)
TASK_CASES = {
    "hedge on classification arrays": (
        lambda tmp: run(make_learner("hedge"), X, Y),
        r"takes each row of X as a loss .* but y holds labels \[-1.0, 1.0\] \(first at row 0\): "
        r"these arrays look like a classification or regression dataset"),
    "weighted majority with negative losses": (
        lambda tmp: run(make_learner("weighted_majority"), -LOSSES, np.zeros(4)),
        r"weighted_majority learns from losses in \[0, 1\] .* row 0 has -1 in column 1"),
    "weighted majority, a loss above 1 in a sparse row": (
        lambda tmp: run(make_learner("weighted_majority"), sp.csr_matrix(2 * LOSSES),
                        np.zeros(4)),
        r"row 0 has 2 in column 1"),
    "hedge one step at a time": (
        lambda tmp: make_learner("hedge").learn_one([0.5, -3.0], 0),
        r"hedge learns from losses in \[0, 1\] .* row 0 has -3 in column 1"),
    "hedge on linear losses of both signs": (
        lambda tmp: run(make_learner("hedge"), make_stream("linear_losses", n=50, d=3)),
        r"hedge learns from losses in \[0, 1\] .* row \d+ has -"),
    "ons on a separable stream": (
        lambda tmp: run(make_learner("ons"), make_stream("separable", n=50, d=3)),
        r"learner ons does online convex optimisation \(task oco: each row is a loss\) but "
        r"stream separable " + CLASSIFICATION + r"; learners for classification: adagrad "
        r"\(loss=hinge or logistic\), alma, .*ogd \(loss=hinge or logistic\), pa, pegasos .*"
        r"truncated_gradient \(loss=hinge or logistic\)"),
    "romma on an experts stream": (
        lambda tmp: run(make_learner("romma"), make_stream("experts", n=50)),
        r"learner romma does classification but stream experts " + OCO + r"; learners for "
        r"online convex optimisation: eg, egpm, ftl, ftrl, hedge, ogd \(loss=linear or "
        r"quadratic\), ons, weighted_majority"),
    "kernel rls on an experts stream": (
        lambda tmp: run(make_learner("kernel_rls"), make_stream("experts", n=50)),
        r"learner kernel_rls does regression but stream experts " + OCO),
    "eg on a regression stream": (
        lambda tmp: run(make_learner("eg"), make_stream("linear_regression", n=50)),
        r"learner eg does online convex optimisation .* but stream linear_regression is a "
        r"regression stream \(rows of features, real targets\); learners for regression: "
        r"adagrad \(loss=squared\), arow_regression, fobos \(loss=squared\), ftrl_proximal "
        r"\(loss=squared\), kernel_pa_regression, kernel_rls, ogd \(loss=squared\), pa_regression, "
        r"pegasos \(loss=squared\), rda \(loss=squared\), rls, truncated_gradient "
        r"\(loss=squared\)"),
    "kernel rls on a classification file": (
        lambda tmp: run(make_learner("kernel_rls"), _svmlight(tmp, "classification")),
        r"learner kernel_rls does regression but stream libsvm " + CLASSIFICATION
        + r".*\(or set the stream's task\)"),
    "a classification learner on a regression file": (
        lambda tmp: run(make_learner("pa"), _svmlight(tmp, "regression")),
        r"learner pa does classification but stream libsvm is a regression stream"),
    "ogd made an oco learner by its loss, on a separable stream": (
        lambda tmp: run(make_learner("ogd", loss="linear"), make_stream("separable", n=20)),
        r"learner ogd does online convex optimisation .* but stream separable"),
    "ogd made a regressor by its loss, on an experts stream": (
        lambda tmp: run(make_learner("ogd", loss="squared"), make_stream("experts", n=20)),
        r"learner ogd does regression but stream experts"),
    "the weighted majority on a stream passed twice": (
        lambda tmp: run(make_learner("weighted_majority"),
                        make_stream("passes", stream=make_stream("separable", n=20), passes=2)),
        r"learner weighted_majority does online convex optimisation .* but stream passes "
        + CLASSIFICATION),
    "best_point fitted on a classification stream": (
        lambda tmp: _fit("best_point", make_stream("separable", n=30)),
        r"comparator best_point measures online convex optimisation runs \(each row is a "
        r"loss\) but Separable\[.*\] " + CLASSIFICATION + "; use comparator=best_fixed"),
    "best_fixed fitted on an experts stream": (
        lambda tmp: _fit("best_fixed", make_stream("experts", n=30)),
        r"comparator best_fixed measures classification or regression runs but "
        r"Experts\[.*\] " + OCO + "; use comparator=best_point"),
    "max_margin (hinge) fitted on a regression stream": (
        lambda tmp: _fit("max_margin", make_stream("linear_regression", n=30), loss="hinge"),
        r"comparator max_margin measures classification runs .* but LinearRegression\[.*\] "
        r"is a regression stream"),
}


def _fit(key, stream, **params):
    X_all, y_all = stream.materialize()
    return make_comparator(key, **params).fit(X_all, y_all, stream.meta, cache=None)


@pytest.mark.parametrize("case", TASK_CASES)
def test_a_learner_or_comparator_of_another_task_is_refused(case, tmp_path):
    call, message = TASK_CASES[case]
    with pytest.raises(ValueError, match=message):
        call(tmp_path)


@pytest.mark.needs_datasets("a1a")
@pytest.mark.parametrize("key", ["ons", "weighted_majority", "kernel_rls"])
def test_learners_of_another_task_on_a1a(key):
    """a1a is a classification set of the catalogue (its card says so, not its class)."""
    a1a = make_stream("dataset", name="a1a")
    with pytest.raises(ValueError, match=rf"learner {key} does .* but dataset a1a "
                                         + CLASSIFICATION):
        run(make_learner(key), a1a)
    with pytest.raises(ValueError, match=r"comparator best_point .* but Dataset\[name=a1a"):
        _fit("best_point", a1a)


def test_the_grid_and_run_apply_the_same_rule():
    """The command line's check (olbench.harness.task_checks.validate) is the API's: same
    sentence."""
    from olbench.harness.task_checks import validate
    from olbench.harness.tasks import GridError, single_cell

    stream = {"_target_": "olbench.streams.Experts", "n": 20}
    learner = {"_target_": "olbench.learners.romma.ROMMA"}
    with pytest.raises(GridError) as grid_error:
        validate(single_cell(stream, learner, None, seeds=[0]))
    with pytest.raises(ValueError) as api_error:
        run(make_learner("romma"), make_stream("experts", n=20))
    assert str(grid_error.value) == str(api_error.value)


def test_right_task_still_runs():
    assert run(make_learner("hedge"), LOSSES, np.zeros(4)).n == 4
    # least squares on labels +-1 is a classifier: a regression comparator may measure it
    assert _fit("best_fixed", make_stream("separable", n=30), loss="squared").ok
    assert run(make_learner("ogd", loss="squared"), make_stream("linear_regression", n=20)).n \
        == 20


# ------------------------------------------------------------------ the command line's comparator
def _compose(overrides):
    from hydra import compose, initialize_config_dir

    from olbench.harness.tasks import CONF_DIR

    with initialize_config_dir(config_dir=str(CONF_DIR), version_base=None):
        return compose("config", overrides=overrides)


@pytest.mark.parametrize("learner, comparator", [
    (["learner=hedge"], {"_target_": "olbench.comparators.best_point.BestPoint",
                         "loss": "linear", "domain": "simplex", "radius": 1.0}),
    (["learner=ons", "learner.radius=2.0"], {"_target_": "olbench.comparators.best_point."
                                             "BestPoint", "loss": "quadratic",
                                             "domain": "ball", "radius": 2.0}),
    (["learner=egpm", "learner.U=3.0"], {"_target_": "olbench.comparators.best_point.BestPoint",
                                         "loss": "linear", "domain": "l1", "radius": 3.0}),
])
def test_an_oco_cell_is_measured_against_the_best_point_of_its_set(learner, comparator):
    """``olbench learner=hedge stream=experts`` was refused by the default comparator
    (best_fixed: "invalid loss='suffered'"); the comparator not chosen is the one of the
    learner's task, on its feasible set, and the config (report, config.yaml) says so."""
    from olbench.harness.experiment import build_tasks

    overrides = [*learner, "stream=experts", "stream.n=50"]
    cfg = _compose(overrides)
    _, (task,) = build_tasks(cfg, overrides)
    assert task.comparators == (comparator,)
    assert cfg.comparator._target_ == comparator["_target_"]


@pytest.mark.parametrize("overrides, message", [
    (["learner=hedge", "stream=experts", "comparator=best_fixed"],
     r"comparator best_fixed measures classification or regression runs but learner hedge is "
     r"an online convex optimisation learner \(each row is a loss\); use comparator="
     r"best_point"),
    (["learner=pa", "comparator=best_point"],
     r"comparator best_point measures online convex optimisation runs .* but learner pa is a "
     r"classification learner .*; use comparator=best_fixed"),
    (["learner=ogd", "learner.loss=linear", "stream=linear_losses"],
     r"learner ogd with radius=null plays anywhere in R\^d: .* set learner.radius"),
])
def test_a_chosen_comparator_of_another_task_is_refused(overrides, message):
    from olbench.harness.experiment import build_tasks
    from olbench.harness.tasks import GridError

    with pytest.raises(GridError, match=message):
        build_tasks(_compose(overrides), overrides)


# --------------------------------------------------------------------------- arrays of a task
OCO_LEARNERS = [key for key, cls in Learner.registry.items() if cls.task == "oco"]


@pytest.mark.parametrize("key", OCO_LEARNERS)
@pytest.mark.parametrize("data", ["classification", "regression", "a1a-like"])
def test_oco_learners_refuse_arrays_that_carry_labels(key, data):
    """Arrays declare no task, but their y does: an OCO learner's rows are losses and y is
    unused (0), so labels or targets mean a dataset of features (issue 31: EG, ONS, FTL,
    FTRL ran on separable arrays, Hedge and the weighted majority on a1a's 0/1 features)."""
    rows = {"classification": (np.abs(X) / 2, Y),
            "regression": (np.abs(X) / 2, np.array([0.5, -1.5, 2.0, 1.0])),
            "a1a-like": ((X > 0).astype(float), Y)}[data]
    with pytest.raises(ValueError, match="takes each row of X as a loss .* but y holds labels"):
        run(make_learner(key), *rows)


@pytest.mark.parametrize("key", OCO_LEARNERS)
def test_oco_learners_on_arrays_need_no_y(key):
    """y = None on an OCO learner's arrays is y = 0, the same run."""
    none, zeros = run(make_learner(key), LOSSES), run(make_learner(key), LOSSES, np.zeros(4))
    np.testing.assert_array_equal(none.losses, zeros.losses)
    np.testing.assert_array_equal(none.state["w"], zeros.state["w"])


def test_best_point_refuses_labelled_arrays():
    with pytest.raises(ValueError, match="comparator best_point .* but y holds labels"):
        make_comparator("best_point").fit(np.abs(X), Y)
    fit = make_comparator("best_point").fit(LOSSES, np.zeros(4))
    assert fit.u is not None


def test_a_classification_learner_on_all_zero_labels_warns():
    """All-zero y is one class of a {0, 1} coding -- or an OCO stream's unused y, which a
    classification learner read as labels without a word (ROMMA on experts arrays)."""
    with pytest.warns(UserWarning, match="every label is 0: read as the {0, 1} coding"):
        run(make_learner("romma"), LOSSES, np.zeros(4))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run(make_learner("romma"), X, (Y > 0).astype(int))   # both classes: no warning


def test_a_classification_comparator_reads_01_labels_as_run_does():
    """best_fixed (hinge) on arrays scored a label 0 as y = 0 (every margin 0); it maps
    {0, 1} to {-1, +1} as olbench.run does, and refuses other labels."""
    pm1 = make_comparator("best_fixed", loss="hinge").fit(X, Y)
    zero_one = make_comparator("best_fixed", loss="hinge").fit(X, (Y > 0).astype(int))
    np.testing.assert_allclose(zero_one.u, pm1.u)
    with pytest.warns(UserWarning, match="every label is 0: read as the {0, 1} coding"):
        make_comparator("best_fixed", loss="hinge").fit(LOSSES, np.zeros(4))
    with pytest.raises(ValueError, match="found labels not allowed: \\[2.0\\]"):
        make_comparator("best_fixed", loss="hinge").fit(X, np.array([1.0, 2.0, 1.0, 0.0]))
