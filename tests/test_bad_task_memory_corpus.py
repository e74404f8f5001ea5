"""The bad-input corpus of issue 31's up-front checks: a learner given another task's data
(through olbench.run, a grid, a comparator), infinite features for the learners whose
output would not show them, and runs whose memory would not fit, each refused before a
round runs (or before the state is allocated) with a message naming what is wrong. Never
an 18 GiB array here: the refusals come first, and the tests give a small memory_limit."""

from __future__ import annotations

import math
import re
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from olbench import make_learner, run
from olbench.comparators import make_comparator
from olbench.learners import Learner
from olbench.resources import (
    RECORD_BYTES_PER_ROUND,
    NotEnoughMemory,
    capped_jobs,
    parse_size,
    usable_cores,
)
from olbench.streams import make_stream

X = np.array([[1.0, -0.5], [-1.0, 0.2], [0.8, 1.0], [0.1, -0.3]])
Y = np.array([1.0, -1.0, 1.0, -1.0])
LOSSES = np.array([[0.0, 1.0], [1.0, 0.0], [0.5, 0.5], [0.0, 0.0]])


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
        r"stream separable " + CLASSIFICATION + r"; learners for classification: alma, .*"
        r"ogd \(loss=hinge or logistic\)"),
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
        r"arow_regression, kernel_pa_regression, kernel_rls, ogd \(loss=squared\)"),
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


# ------------------------------------------------------------------ infinite features
#: the learners whose output can stay finite on a NaN/inf row, so that olbench.run checks
#: each chunk's rows first (the trait non_finite_rows_show_in_output, olbench.learners.traits)
ROWS_CHECKED_FIRST = [key for key, cls in Learner.registry.items()
                      if not cls.non_finite_rows_show_in_output]


def _labels(learner, n):
    if learner.task == "oco":
        return np.zeros(n)
    return np.where(np.arange(n) % 2 == 0, 1.0, -1.0)


@pytest.mark.parametrize("fmt", ["dense", "csr"])
@pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan])
@pytest.mark.parametrize("key", Learner.registry.keys())
def test_every_learner_refuses_a_non_finite_feature_naming_its_row(key, value, fmt):
    """The seven kernel learners ran on with +-inf features (the first row meets no support
    vector; a Gaussian of an infinite distance is 0), and the weighted majority even on
    NaN (its output is a 0/1 indicator): every learner now names the row, whether its
    loop's output shows it or a pass over the rows finds it first."""
    learner = make_learner(key)
    rows = np.full((6, 3), 0.25)
    rows[3, 1] = value
    with pytest.raises(ValueError, match=r"a feature is NaN or infinite in row 3$"):
        run(learner, sp.csr_matrix(rows) if fmt == "csr" else rows, _labels(learner, 6))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(ROWS_CHECKED_FIRST), row=st.integers(0, 7),
       value=st.sampled_from([math.inf, -math.inf, math.nan]), chunk=st.integers(1, 8))
def test_learners_checking_rows_first_name_the_first_bad_row_of_any_chunking(key, row, value,
                                                                             chunk):
    learner = make_learner(key)
    rows = np.random.default_rng(row).random((8, 2))     # in [0, 1]: experts' losses too
    rows[row, row % 2] = value
    with pytest.raises(ValueError, match=rf"a feature is NaN or infinite in row {row}$"):
        run(learner, rows, _labels(learner, 8), chunk_size=chunk)


# ------------------------------------------------------------------ memory, up front
def _rows(n, d=20):
    return np.zeros((n, d)), np.zeros(n)


def _sparse(n, d, k, seed=0):
    """n rows with k non-zeros among d features (text-like: news20 has 1.35 x 10^6)."""
    rng = np.random.default_rng(seed)
    cols = np.concatenate([np.sort(rng.choice(d, k, replace=False)) for _ in range(n)])
    return sp.csr_matrix((rng.random(n * k), (np.repeat(np.arange(n), k), cols)), shape=(n, d))


NEWS20_LIKE = _sparse(50, 1_355_191, 300)
WIDE = sp.csr_matrix((3, 20_000))      # three empty rows of 20,000 features

MEMORY_CASES = {
    "kernel_rls at n = 50,000": (
        lambda: run(make_learner("kernel_rls"), *_rows(50_000), memory_limit="16GiB"),
        r"kernel_rls keeps an n x n matrix and n support vectors: 18.6 GiB for 50,000 rows, "
        r"but memory_limit is 16 GiB; use norma, forgetron or budget_perceptron \(a fixed "
        r"budget of support vectors\), or fewer rows"),
    "kernel_rls at n = 200,000": (
        lambda: run(make_learner("kernel_rls"), *_rows(200_000), memory_limit="64GiB"),
        r"kernel_rls keeps an n x n matrix .*: 298 GiB for 200,000 rows"),
    "kernel_rls on a stream of 200,000 rows, refused before its first chunk": (
        lambda: run(make_learner("kernel_rls"), make_stream("linear_regression", n=200_000),
                    memory_limit="64GiB"),
        r"298 GiB for 200,000 rows"),
    "ons at d = 20,000": (
        lambda: run(make_learner("ons"), WIDE, np.zeros(3), memory_limit="4GiB"),
        r"ons keeps two d x d matrices \(A_t and its inverse\): 14.9 GiB for 20,000 features, "
        r"but memory_limit is 4 GiB; use ogd or ftrl \(no matrix\), or fewer dimensions"),
    "sop at d = 20,000": (
        lambda: run(make_learner("sop"), WIDE, np.ones(3), memory_limit="4GiB"),
        r"sop keeps a d x d matrix .*: 5.96 GiB for 20,000 features, but memory_limit is 4 "
        r"GiB; use arow or cw with diagonal=true"),
    "cw at d = 20,000": (
        lambda: run(make_learner("cw"), WIDE, np.ones(3), memory_limit="4GiB"),
        r"cw keeps a d x d covariance matrix: 5.96 GiB for 20,000 features, but memory_limit "
        r"is 4 GiB; use diagonal=true \(a diagonal covariance: d numbers\), or fewer features"),
    "kernel_perceptron on news20-like rows": (
        lambda: run(make_learner("kernel_perceptron"), NEWS20_LIKE, np.ones(50),
                    memory_limit="100KiB"),
        r"kernel_perceptron keeps up to n support vectors, one per update \(602 numbers each, "
        r"1,355,191 features kept as the non-zeros\): 721 KiB for 50 rows, but memory_limit "
        r"is 100 KiB"),
    "budget_perceptron budget=1e9": (
        lambda: run(make_learner("budget_perceptron", budget=10**9), X, Y,
                    memory_limit="16GiB"),
        r"budget_perceptron keeps budget support vectors \(3 numbers each\): 59.6 GiB for "
        r"budget=1,000,000,000 and 2 features, but memory_limit is 16 GiB; use a smaller "
        r"budget"),
    "forgetron budget=2**62": (
        lambda: run(make_learner("forgetron", budget=2**62), X, Y),
        r"forgetron keeps budget support vectors .*: 2.62e\+05 PiB for "
        r"budget=4611686018427387904 and 2 features, but this machine has .* free"),
    "norma tau=1e300": (
        lambda: run(make_learner("norma", tau=1e300), X, Y),
        r"norma keeps tau support vectors .* for tau=1e\+300 and 2 features, but this machine "
        r"has .* free; use a smaller tau"),
}


@pytest.mark.parametrize("case", MEMORY_CASES)
def test_a_run_that_would_not_fit_is_refused_before_it_allocates(case):
    call, message = MEMORY_CASES[case]
    with pytest.raises(NotEnoughMemory, match=message):
        call()


@pytest.mark.parametrize("limit", ["lots", -1, 0, True, "8XB", math.nan, "1e400GiB", [8]])
def test_a_memory_limit_that_is_no_size_is_refused(limit):
    with pytest.raises(ValueError, match=re.escape(f"memory_limit={limit!r}: must be a "
                                                   "positive number of bytes or a size")):
        run(make_learner("pa"), X, Y, memory_limit=limit)


def test_memory_limit_units():
    assert [parse_size(v) for v in ("16GiB", "16g", "500MB", "2 KiB", 4096, "1.5GiB")] == \
        [16 * 2**30, 16 * 2**30, 500 * 10**6, 2048, 4096, 1.5 * 2**30]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(Learner.registry.keys()), n=st.integers(5, 60),
       d=st.integers(1, 30), fits=st.booleans())
def test_a_limit_below_the_declared_footprint_refuses_and_one_above_runs(key, n, d, fits):
    """For any learner and size: memory_limit below what the run declares is a refusal
    naming the learner, at or above it the run goes through."""
    learner = make_learner(key)
    rows = np.random.default_rng(n).random((n, d))
    need = learner.footprint(n, d).nbytes + RECORD_BYTES_PER_ROUND * n
    limit = need if fits else need / 2
    if fits:
        assert run(learner, rows, _labels(learner, n), memory_limit=limit).n == n
    else:
        with pytest.raises(NotEnoughMemory, match=rf"^{key} keeps .* for .* but memory_limit"):
            run(learner, rows, _labels(learner, n), memory_limit=limit)


def test_kernel_learners_keep_news20_like_rows_sparse():
    """1.35 x 10^6 features, 300 non-zeros a row: each support vector takes 602 numbers,
    not 1,355,192 (the whole run 10^7 times less than densified: 202 GiB on news20)."""
    learner = make_learner("kernel_perceptron")
    trace = run(learner, NEWS20_LIKE, np.where(np.arange(50) % 2, 1.0, -1.0))
    assert learner.state_.A.shape == (trace.n_updates, 602)
    assert sp.issparse(trace.state["A"]) and trace.state["A"].shape == (trace.n_updates,
                                                                         1_355_191)


# ------------------------------------------------------------------ the command line
def test_run_memory_limit_reaches_every_run_of_a_grid():
    from olbench.harness.grid import run_task
    from olbench.harness.tasks import single_cell

    stream = {"_target_": "olbench.streams.LinearRegression", "n": 3000, "d": 5}
    learner = {"_target_": "olbench.learners.kernel.KernelRLS"}
    (task,) = single_cell(stream, learner, None, seeds=[0], memory_limit="1MiB")
    rows = run_task(task)
    assert rows["status"].iloc[0].startswith(
        "error: NotEnoughMemory: kernel_rls keeps an n x n matrix and n support vectors: "
        "68.9 MiB for 3,000 rows, but memory_limit is 1 MiB")
    assert task.run_id == single_cell(stream, learner, None, seeds=[0])[0].run_id


def test_run_memory_limit_is_checked_with_the_configuration():
    from omegaconf import OmegaConf

    from olbench.harness.validate import config_problems

    cfg = OmegaConf.create({"loss": None, "grid": None, "run": {"memory_limit": "lots"}})
    assert config_problems(cfg) == ["run.memory_limit='lots': must be a positive number of "
                                    "bytes or a size with a unit, e.g. 8GiB, 512MiB, 2GB"]


def test_n_jobs_beyond_the_cores_is_capped_with_a_warning(capsys):
    cores = usable_cores()
    assert capped_jobs(100_000) == cores and capped_jobs(-1) == -1
    assert capsys.readouterr().err == (f"olbench: run.n_jobs=100000 is more than the {cores} "
                                       f"cores this process may use; running {cores} workers\n")
    assert capped_jobs(cores) == cores and capsys.readouterr().err == ""


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


def test_an_address_space_limit_is_memory_not_free(tmp_path):
    """Under ``ulimit -v`` an allocation fails however much the machine has free: the
    refusal counts the limit (issue 31's probe: kernel RLS at n = 50,000 was a MemoryError
    under a 4 GiB limit)."""
    import subprocess
    import sys

    script = tmp_path / "limited.py"
    script.write_text(
        "import resource\n"
        "resource.setrlimit(resource.RLIMIT_AS, (4 << 30, resource.RLIM_INFINITY))\n"
        "import olbench\nimport olbench.streams\nimport olbench.resources\n"
        "from olbench.resources import available_memory\n"
        "assert available_memory() <= 4 << 30, available_memory()\n"
        "try:\n"
        "    olbench.run(olbench.make_learner('kernel_rls'), olbench.streams.make_stream("
        "'linear_regression', n=50000, d=5, seed=0))\n"
        "except olbench.resources.NotEnoughMemory as error:\n"
        "    print(error)\n")
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "18.6 GiB for 50,000 rows, but this process may allocate" in out.stdout
    assert "ulimit -v" in out.stdout


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
