"""Streams too large for memory stay out of core: runs keep sums at the checkpoints, comparators
are fitted chunk by chunk (certified) or refused before anything runs, and a run's memory does
not grow with n. Files here are small; the threshold is lowered so that they count as large,
and chunks are small so that every pass reads several."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
from sklearn.datasets import dump_svmlight_file

from olbench import make_learner, run
from olbench.comparators import BestFixed, Generating, _solvers
from olbench.comparators import _chunked as chunked
from olbench.harness import streamed
from olbench.harness.grid import run_grid, run_task
from olbench.harness.tasks import GridError, expand
from olbench.losses import get_loss, mistakes
from olbench.streams import Svmlight

CHUNK = 300


class SmallChunks:
    """A stream read ``CHUNK`` rows at a time (counted), whatever size is asked for."""

    def __init__(self, stream):
        self.stream, self.meta, self.chunks_read = stream, stream.meta, 0

    def chunks(self, chunk_size=None):
        for chunk in self.stream.chunks(CHUNK):
            self.chunks_read += 1
            yield chunk


def write(path, n=2000, d=6, task="classification", seed=0, collinear=False):
    """A svmlight file of n rows: Gaussian features (the last a copy of the first when
    ``collinear``), labels from a noisy linear rule (or real targets)."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    if collinear:
        X[:, -1] = X[:, 0]
    w = rng.standard_normal(d)
    noise = rng.standard_normal(n)
    y = X @ w + noise if task == "regression" else np.where(X @ w + noise > 0, 1, -1)
    dump_svmlight_file(X, y, str(path), zero_based=False)
    return X, y.astype(float)


@pytest.fixture
def out_of_core(monkeypatch):
    """Every file stream of more than 1 KiB counts as out of core."""
    monkeypatch.setattr(streamed, "CACHE_FILES_UP_TO", 1024)


def objective(X, y, u, loss, ridge):
    return float(get_loss(loss)(X @ u, y).sum() + 0.5 * ridge * u @ u)


# ----------------------------------------------------------------------------- the fits
@pytest.mark.parametrize("loss,ridge,task,collinear", [
    ("squared", 0.0, "regression", False), ("squared", 2.0, "regression", True),
    ("logistic", 1.0, "classification", True), ("squared_hinge", 0.5, "classification", False),
    ("logistic", 1e-3, "classification", False)])
def test_a_streamed_fit_is_the_in_memory_fit_within_its_certificate(tmp_path, loss, ridge,
                                                                     task, collinear):
    """Fitted chunk by chunk from the file (several chunks per pass), the same u as the
    in-memory solvers' on the same rows within the two certificates (P is (ridge +
    lambda_min(X^T X) curvature)-strongly convex: ||u - v||^2 <= 2 (gap_u + gap_v) / mu),
    and its objective, cumulative losses and mistakes at the checkpoints are those of its u
    recomputed here with numpy."""
    X, y = write(tmp_path / "data.svm", task=task, collinear=collinear)
    n_rounds = len(y)
    stream = SmallChunks(Svmlight(path=str(tmp_path / "data.svm"), n_features=6, task=task))
    ks = np.array([1, 7, 300, 301, 1999, 2000])
    fit = BestFixed(loss=loss, ridge=ridge).fit_stream(stream, checkpoints=ks, cache=None)
    assert fit.ok and fit.streamed, fit.skip_reason
    assert stream.chunks_read >= 2 * (2000 // CHUNK) and fit.info["passes"] >= 2
    assert fit.margins is None and fit.losses is None          # nothing per round
    assert fit.gap <= 1e-10 * max(1.0, fit.objective)
    assert fit.objective == pytest.approx(objective(X, y, fit.u, loss, ridge), rel=1e-12)
    reference = _solvers.solve(X, y, loss, ridge=ridge)
    assert fit.lower_bound <= reference.objective * (1 + 1e-12)
    mu = ridge + (np.linalg.eigvalsh(X.T @ X)[0] if loss == "squared" else 0.0)
    assert mu > 0
    # a certificate resolves gaps down to the round-off of the objective's sum
    gaps = fit.gap + reference.gap + np.finfo(float).eps * n_rounds * fit.objective
    assert np.linalg.norm(fit.u - reference.u) <= np.sqrt(2 * gaps / mu) + 1e-9
    losses = get_loss(loss)(X @ fit.u, y)
    np.testing.assert_allclose(fit.cum_loss_at(ks), np.cumsum(losses)[ks - 1], rtol=1e-12)
    if task == "classification":
        for tie in ("novikoff", "libol"):
            np.testing.assert_array_equal(fit.mistakes_at(ks, tie),
                                          np.cumsum(mistakes(X @ fit.u, y, tie))[ks - 1])
    with pytest.raises(ValueError, match="not checkpoints of this streamed fit"):
        fit.cum_loss_at([5])


@pytest.mark.parametrize("loss,ridge,radius,why", [
    ("hinge", 0.0, None, "a linear program with one column per round"),
    ("hinge", 1.0, None, "one dual variable per round"),
    ("absolute", 0.0, None, "a linear program"),
    ("logistic", 0.0, None, "set ridge > 0"),
    ("squared", 0.0, 1.0, "a ball constraint"),
])
def test_comparators_that_need_every_row_say_why(tmp_path, loss, ridge, radius, why):
    write(tmp_path / "data.svm")
    comparator = BestFixed(loss=loss, ridge=ridge, radius=radius)
    assert why in comparator.streamed_problem()
    with pytest.raises(ValueError, match="cannot be fitted over a stream read chunk by chunk"):
        comparator.fit_stream(Svmlight(path=str(tmp_path / "data.svm")), checkpoints=[2000],
                              cache=None)


def test_streamed_fits_out_of_limits_are_skips(tmp_path, monkeypatch):
    write(tmp_path / "data.svm")
    stream = Svmlight(path=str(tmp_path / "data.svm"))
    monkeypatch.setenv("OLBENCH_SOLVER_TIME_LIMIT", "0")
    fit = BestFixed(loss="logistic", ridge=1.0).fit_stream(stream, checkpoints=[2000], cache=None)
    assert fit.skip_reason.startswith("time-out: the solver time limit of 0 s")
    monkeypatch.delenv("OLBENCH_SOLVER_TIME_LIMIT")
    monkeypatch.setattr(chunked, "MAX_D", 5)
    fit = BestFixed(loss="squared", ridge=1.0).fit_stream(stream, checkpoints=[2000], cache=None)
    assert fit.skip_reason == ("not certified: a chunked fit takes at most 5 features (a d x d "
                               "Hessian eigendecomposed at every step); this stream has 6")
    assert Generating().fit_stream(stream, checkpoints=[2000], cache=None).skip_reason == \
        "stream has no generating vector (meta.u is None)"


def test_streamed_fits_are_cached_by_fingerprint_and_checkpoints(tmp_path):
    from olbench.comparators._cache import journal

    write(tmp_path / "data.svm")
    stream = Svmlight(path=str(tmp_path / "data.svm"))
    cache = tmp_path / "cache"
    first = BestFixed(loss="squared_hinge", ridge=1.0).fit_stream(stream, checkpoints=[10, 2000],
                                                                  cache=cache)
    again = BestFixed(loss="squared_hinge", ridge=1.0).fit_stream(stream, checkpoints=[10, 2000],
                                                                  cache=cache)
    np.testing.assert_array_equal(first.u, again.u)
    assert len(journal(cache)) == 1 and journal(cache)[0]["data"].startswith("streamed:")


# ----------------------------------------------------------------------------- the runs
@pytest.mark.parametrize("key", ["perceptron", "arow", "kernel_perceptron", "fobos"])
def test_a_streamed_run_sums_are_those_of_the_whole_run(tmp_path, key):
    """Chunk by chunk (the state carried across calls of olbench.run), the learner makes the
    same predictions as in one run over all the rows: the sums at the checkpoints are equal
    bit for bit, and so are the final state and the non-zero weights at the checkpoints."""
    write(tmp_path / "data.svm", n=1000)
    stream = Svmlight(path=str(tmp_path / "data.svm"))
    ks = np.array([1, 2, 299, 300, 301, 650, 1000])
    summary = streamed.run_streamed(make_learner(key), stream, checkpoints=ks,
                                    chunk_size=CHUNK)
    whole = run(make_learner(key), *stream.materialize())
    np.testing.assert_array_equal(summary.cum_loss, np.cumsum(whole.losses)[ks - 1])
    np.testing.assert_array_equal(summary.cum_mistakes, np.cumsum(whole.mistakes)[ks - 1])
    np.testing.assert_array_equal(summary.cum_updates, np.cumsum(whole.updated)[ks - 1])
    np.testing.assert_array_equal(summary.state["w"], whole.state["w"])
    assert summary.n == 1000 and np.all(np.diff(summary.time_at(ks)) >= 0)
    marked = run(make_learner(key), *stream.materialize(), checkpoints=ks)
    np.testing.assert_array_equal(summary.nonzero_at(ks), marked.nonzero_at(ks))


def _grid(path, learners, comparators, task="classification", seeds=(0,)):
    spec = {"key": "libsvm", "params": {"path": str(path), "n_features": 6, "task": task}}
    return expand({"streams": [spec], "learners": learners, "comparators": comparators},
                  seeds=list(seeds), experiment="ooc", checkpoints=6, cache_dir=None)


@pytest.mark.parametrize("learner,comparator,task", [
    ("pa", {"key": "best_fixed", "params": {"loss": "squared_hinge", "ridge": 1.0}},
     "classification"),
    ("rls", {"key": "best_fixed", "params": {"loss": "squared"}}, "regression")])
def test_an_out_of_core_run_has_the_in_memory_table(tmp_path, monkeypatch, learner,
                                                    comparator, task):
    """The same rows and columns as the run held in memory: the learner's numbers equal,
    the comparator's within its certificate, and the bounds as rows saying why they were
    not checked (the theorems read every round's margin)."""
    write(tmp_path / "data.svm", task=task)
    grid_loss = "squared_hinge" if task == "classification" else None
    (task_,) = _grid(tmp_path / "data.svm", [learner], [comparator], task)
    if grid_loss:
        from dataclasses import replace
        task_ = replace(task_, loss=grid_loss)
    held = run_task(task_)
    monkeypatch.setattr(streamed, "CACHE_FILES_UP_TO", 1024)
    streamed_rows = run_task(task_)
    assert set(streamed_rows["status"]) == {"ok"}, streamed_rows.get("traceback")
    assert list(streamed_rows.columns) == list(held.columns)
    exact = ["t", "cum_loss", "avg_loss", "updates"] + (
        ["mistakes", "mistake_rate"] if task == "classification" else [])
    close = ["comparator_loss", "regret"] + (
        ["comparator_mistakes", "mistake_regret"] if task == "classification" else [])
    a, b = (rows.drop_duplicates("t").reset_index(drop=True) for rows in (held, streamed_rows))
    assert a[exact].equals(b[exact])
    np.testing.assert_allclose(b[close].to_numpy(float), a[close].to_numpy(float), rtol=1e-9,
                               atol=1e-9)
    if "bound_name" in held and held["bound_name"].notna().any():
        assert set(b["bound_name"].dropna()) <= set(held["bound_name"].dropna())
        reasons = set(streamed_rows["skip_reason"].dropna())
        assert reasons == {streamed.BOUNDS_NOT_READ}


def test_a_comparator_that_needs_every_row_is_refused_before_anything_runs(tmp_path,
                                                                           out_of_core):
    """best_fixed with the hinge loss (the default for a classifier) is an LP with a column
    per round: on an out-of-core file the grid is refused up front, naming the file, its size,
    the comparator, why, and run.comparators=false; no run is written."""
    write(tmp_path / "data.svm")
    tasks = _grid(tmp_path / "data.svm", ["pa", "perceptron"],
                  [{"key": "best_fixed", "params": {"loss": "hinge"}}, "max_margin",
                   {"key": "best_fixed", "params": {"loss": "squared"}}])   # another task
    with pytest.raises(GridError) as refused:
        run_grid(tasks, tmp_path / "out", n_jobs=1, backend="sequential", progress=False)
    message = str(refused.value)
    assert f"{tmp_path / 'data.svm'} (0 MiB, over the 0 MiB that are held in memory)" in message
    assert "BestFixed[loss=hinge" in message and "MaxMargin" in message
    assert "loss=squared" not in message.split("use run.comparators")[0]
    assert message.count("\n  ") == 3 and "use run.comparators=false" in message
    assert not (tmp_path / "out" / "runs").exists()
    no_comparators = expand({"streams": [{"key": "libsvm", "params": {
        "path": str(tmp_path / "data.svm")}}], "learners": ["pa"], "comparators": []},
        seeds=[0], experiment="ooc", checkpoints=6, cache_dir=None)
    table = run_grid(no_comparators, tmp_path / "out", n_jobs=1, backend="sequential",
                     progress=False)
    assert set(table["status"]) == {"ok"}


def test_a_streamable_comparator_is_fitted_once_for_a_grid(tmp_path, out_of_core):
    write(tmp_path / "data.svm")
    tasks = _grid(tmp_path / "data.svm", ["pa", "perceptron"],
                  [{"key": "best_fixed", "params": {"loss": "logistic", "ridge": 1.0}}],
                  seeds=(0,))
    tasks = [t.__class__(**{**t.__dict__, "cache_dir": str(tmp_path / "cache"),
                            "loss": "logistic"}) for t in tasks]
    table = run_grid(tasks, tmp_path / "out", n_jobs=1, backend="sequential", progress=False)
    assert set(table["status"]) == {"ok"}
    final = table[table["t"] == 2000]
    assert final["regret"].notna().all() and "comparator_skip_reason" not in final
    from olbench.comparators._cache import journal
    assert [e["outcome"] for e in journal(tmp_path / "cache")] == ["ok"]


# ----------------------------------------------------------------------------- memory
def _peak_bytes(path, n_features=3) -> int:
    task = expand({"streams": [{"key": "libsvm", "params": {"path": str(path),
                                                           "n_features": n_features}}],
                   "learners": ["perceptron"], "comparators": []},
                  seeds=[0], experiment="mem", checkpoints=25, cache_dir=None)[0]
    tracemalloc.start()
    rows = run_task(task)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert set(rows["status"]) == {"ok"}, rows.get("traceback")
    return peak


def test_a_streamed_run_holds_nothing_per_round(tmp_path, out_of_core, monkeypatch):
    """A run over an out-of-core file of 4n rows peaks where one of n rows does (the scan,
    the meta pass and the run's pass each hold a block of text and a chunk at a time; blocks
    of 64 KiB so that both files span many). A record of every round, and the metrics
    computed from it, made the larger run peak 0.88 MiB higher (15 bytes a round); now
    3 KiB."""
    from olbench.streams.files import blocks

    monkeypatch.setattr(blocks, "BLOCK_BYTES", 1 << 16)
    write(tmp_path / "small.svm", n=20_000, d=3)
    write(tmp_path / "large.svm", n=80_000, d=3, seed=1)
    _peak_bytes(tmp_path / "small.svm")            # imports and compilation out of the way
    small, large = _peak_bytes(tmp_path / "small.svm"), _peak_bytes(tmp_path / "large.svm")
    assert large - small < 0.25 * 2**20, (small, large)


def test_the_command_refuses_before_writing_anything_and_runs_without_comparators(tmp_path,
                                                                                 monkeypatch):
    """The issue's command on an out-of-core file: exit 2 naming the comparator and the way
    out, with no results folder; with ``run.comparators=false`` it runs, its bounds rows
    saying why they were not checked."""
    import pandas as pd
    from olbench_command import olbench_here

    write(tmp_path / "data.svm")
    monkeypatch.setattr(streamed, "CACHE_FILES_UP_TO", 1024)
    command = ["learner=pa", "stream=libsvm",
               f"stream.path={tmp_path / 'data.svm'}", "stream.n_features=6",
               f"run.output_dir={tmp_path / 'out'}", "run.progress=false", "run.figures=false",
               "run.n_jobs=1"]
    refused = olbench_here(*command, cwd=tmp_path)
    assert refused.returncode == 2, refused.stderr[-2000:]
    assert "comparator BestFixed[loss=hinge," in refused.stderr
    assert "use run.comparators=false" in refused.stderr
    assert not (tmp_path / "out").exists()
    ran = olbench_here(*command, "run.comparators=false", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr[-2000:]
    (table,) = (tmp_path / "out").rglob("results.parquet")
    rows = pd.read_parquet(table)
    assert set(rows["status"]) == {"ok"} and rows["t"].max() == 2000
    assert set(rows["skip_reason"].dropna()) == {streamed.BOUNDS_NOT_READ}


def test_a_file_only_one_run_reads_is_not_cached_whole(tmp_path):
    """A file under the threshold is parsed into the cache whole when several runs read it
    (parsed once per grid); a single run without comparators reads it chunk by chunk
    instead: no other run would read that copy (the issue's command at 10^6 rows held a
    201 MiB file at 786 MiB)."""
    write(tmp_path / "data.svm")
    spec = {"key": "libsvm", "params": {"path": str(tmp_path / "data.svm")}}
    for learners, cached in ((["pa"], 0), (["pa", "perceptron"], 1)):
        cache = tmp_path / f"cache{len(learners)}"
        tasks = expand({"streams": [spec], "learners": learners, "comparators": []},
                       seeds=[0], experiment="one", checkpoints=6, cache_dir=str(cache))
        table = run_grid(tasks, tmp_path / f"out{len(learners)}", n_jobs=1,
                         backend="sequential", progress=False)
        assert set(table["status"]) == {"ok"}
        assert len(list(cache.rglob("output.pkl"))) == cached


def test_parameter_selection_reads_an_out_of_core_file_chunk_by_chunk(tmp_path, out_of_core,
                                                                        monkeypatch):
    """LIBOL's selection stage (one online pass per candidate) on an out-of-core file runs
    chunk by chunk: the same mistakes as on the rows held in memory, and the file is never
    loaded whole."""
    from olbench.harness.selection import select_grid
    from olbench.harness.studies import study_module
    from olbench.harness.tasks import child_seed

    online_mistakes = study_module("experiments/libol_table/selection.py").online_mistakes

    write(tmp_path / "data.svm")
    spec = {"_target_": "olbench.learners.pa.PA", "C": 0.25}
    stream = Svmlight(path=str(tmp_path / "data.svm"), order="permuted", seed=3)
    held = online_mistakes(spec, *stream.materialize())
    assert online_mistakes(spec, stream) == held > 0
    domain = [0.25, 1.0, 4.0]
    expected = [online_mistakes({**spec, "C": c}, *Svmlight(
        path=str(tmp_path / "data.svm"), order="permuted",
        seed=child_seed(7, "stream")).materialize()) for c in domain]
    monkeypatch.setattr(Svmlight, "materialize", lambda self: pytest.fail("loaded whole"))
    grid = {"streams": [{"key": "libsvm", "params": {"path": str(tmp_path / "data.svm"),
                                                      "order": "permuted"}}],
            "learners": [{"key": "pa", "name": "PA-I", "select": {"C": "C"}}]}
    _, table, _ = select_grid(grid, {"procedure": "libol_cv", "seed": 7,
                                     "domains": {"C": domain}})
    assert table["mistakes"].tolist() == expected


def test_the_boundary_figure_of_an_out_of_core_file_reads_its_first_points(tmp_path,
                                                                           out_of_core,
                                                                           monkeypatch):
    """A two-feature file too large for memory: its runs keep its first points, read chunk by
    chunk (the file is not loaded whole), and the decision-boundary figure draws them and
    says so."""
    from olbench.analysis.figures import boundaries
    from olbench.harness import outputs
    from olbench.harness.side import read_side

    write(tmp_path / "data.svm", n=2000, d=2)
    spec = {"key": "libsvm", "params": {"path": str(tmp_path / "data.svm")}}
    tasks = expand({"streams": [spec], "learners": ["pa", "perceptron"], "comparators": []},
                   seeds=[0], experiment="fig", checkpoints=6, cache_dir=None)
    monkeypatch.setattr(Svmlight, "materialize", lambda self: pytest.fail("loaded whole"))
    monkeypatch.setattr(outputs, "MAX_POINTS", 500)
    table = run_grid(tasks, tmp_path / "out", n_jobs=1, backend="sequential", progress=False)
    assert (table["status"] == "ok").all()
    (fig,) = boundaries.boundary_figures(table, read_side(tmp_path / "out")).values()
    title = fig.axes[0].get_title()
    assert "(first 500 of 2,000 points)" in title.replace("\n", " ")
    assert sum(len(c.get_offsets()) for c in fig.axes[0].collections) == 500


@pytest.mark.parametrize("test_start", [None, 40])
def test_the_curve_from_sums_is_the_curve_from_every_round(test_start):
    """sums_curve (sums taken at the checkpoints) gives curve's rows, test part included."""
    import pandas as pd

    from olbench.metrics import curve, sums_curve

    rng = np.random.default_rng(0)
    m, y = rng.normal(size=100), np.sign(rng.normal(size=100))
    updated = rng.random(100) < 0.3
    ks = np.array([5, 40, 60, 100])
    held = curve(m, y, updated, checkpoints=ks, test_start=test_start)
    summed = sums_curve(ks, "hinge", np.cumsum(get_loss("hinge")(m, y))[ks - 1],
                        np.cumsum(mistakes(m, y))[ks - 1], np.cumsum(updated)[ks - 1],
                        test_start=test_start)
    pd.testing.assert_frame_equal(summed, held, check_dtype=False)
