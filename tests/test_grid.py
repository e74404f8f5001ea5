"""The grid: expansion, end-to-end runs, error rows, resume, and the same table on every backend."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from olbench.harness.grid import run_grid, run_task
from olbench.harness.results import RunStore, read_results
from olbench.harness.task_checks import validate
from olbench.harness.tasks import GridError, child_seed, expand

GRID = {
    "streams": [{"key": "separable", "params": {"n": 300, "d": 4, "gamma": 0.1, "R": 1.0}},
                {"key": "noisy", "params": {"n": 300, "d": 4, "gamma": 0.1, "R": 1.0,
                                            "flip_rate": 0.1}}],
    "learners": ["perceptron", {"key": "pa", "sweep": {"C": [0.1, 1.0]}}],
    "comparators": [{"key": "best_fixed", "params": {"loss": "hinge"}}, "max_margin"],
}
#: columns that measure the machine, not the computation
TIMING = ["time_s", "wall_s"]


def _tasks(seeds=(0, 1), grid=GRID, **kw):
    return expand(grid, seeds=list(seeds), experiment="test", checkpoints=8, cache_dir=None,
                  **kw)


def _comparable(table: pd.DataFrame) -> pd.DataFrame:
    cols = [c for c in table.columns if c not in TIMING]
    keys = ["run_id", "t", "bound_name"]
    return table[cols].sort_values(keys, na_position="first").reset_index(drop=True)


def test_expand_is_a_product_with_derived_seeds():
    tasks = _tasks()
    assert len(tasks) == 2 * 2 * 3
    assert len({t.run_id for t in tasks}) == 12
    assert {t.stream["seed"] for t in tasks} == {child_seed(0, "stream"), child_seed(1, "stream")}
    assert sorted({t.learner.get("C") for t in tasks if "C" in t.learner}) == [0.1, 1.0]
    assert all(len(t.comparators) == 2 for t in tasks)
    assert [t.run_id for t in _tasks()] == [t.run_id for t in tasks]  # deterministic ids


@pytest.mark.parametrize("grid,message", [
    ({**GRID, "learners": ["perceptrn"]}, r"unknown learner 'perceptrn'.*available: .*perceptron"),
    ({**GRID, "learners": [{"key": "pa", "sweep": {"C": 1.0}}]}, r"sweep.C must be a non-empty"),
    ({**GRID, "learners": [{"key": "pa", "grid": {}}]}, r"unknown fields \['grid'\]"),
    ({**GRID, "learners": []}, r"at least one stream and one learner"),
])
def test_bad_grids_are_refused_with_a_clear_message(grid, message):
    with pytest.raises(GridError, match=message):
        _tasks(grid=grid)


def test_bad_parameter_is_refused_before_any_run():
    tasks = _tasks(grid={**GRID, "learners": [{"key": "pa", "params": {"C": -1.0}}]})
    with pytest.raises(GridError, match=r"learner pa: PA: invalid C=-1.0"):
        validate(tasks)


def test_a_task_yields_tidy_rows_with_metrics_and_bounds():
    task = next(t for t in _tasks() if t.learner["_target_"].endswith("Perceptron")
                and t.stream["_target_"].endswith("Separable"))
    rows = run_task(task)
    assert (rows["status"] == "ok").all()
    final = rows[rows["t"] == 300]
    assert set(final["bound_name"]) >= {"novikoff"}
    novikoff = final[final["bound_name"] == "novikoff"].iloc[0]
    assert novikoff["bound_holds"] and novikoff["observed"] == final["mistakes"].iloc[0]
    # the max-margin comparator gives the tightest gamma: at most (R/gamma_stream)^2
    R, gamma = rows["stream_radius"].iloc[0], rows["stream_margin"].iloc[0]
    assert novikoff["observed"] <= novikoff["bound"] <= (R / gamma) ** 2 * (1 + 1e-9)
    assert rows["learner"].iloc[0] == "Perceptron[eta=1.0,libol=False]"
    assert rows["stream_key"].iloc[0] == "separable" and rows["stream_gamma"].iloc[0] == 0.1
    np.testing.assert_allclose(final["regret"], final["cum_loss"] - final["comparator_loss"])
    assert (np.diff(rows.drop_duplicates("t")["time_s"]) >= 0).all()


def test_failing_task_is_an_error_row_and_the_grid_goes_on(tmp_path):
    bad = tmp_path / "bad.svm"
    bad.write_text("1 1:0.5 2:1.0\n-1 1:0.2 2:x\n")
    grid = {**GRID, "streams": [GRID["streams"][0],
                                {"key": "libsvm", "params": {"path": str(bad)}}]}
    tasks = _tasks(seeds=[0], grid=grid)
    table = run_grid(tasks, tmp_path / "out", n_jobs=1, backend="sequential", progress=False)
    per_run = table.drop_duplicates("run_id")
    errors = per_run[per_run["status"] != "ok"]
    assert len(errors) == 3 and len(per_run) == 6
    assert errors["status"].str.contains(r"bad.svm:2: not a number", regex=True).all()
    assert RunStore(tmp_path / "out").finished() == set(per_run[per_run["status"] == "ok"]
                                                        ["run_id"])  # errors are not reused


def test_resume_skips_finished_and_completes_the_rest(tmp_path):
    tasks = _tasks(seeds=[0])
    folder = tmp_path / "out"
    run_grid(tasks[:4], folder, n_jobs=1, backend="sequential", progress=False)  # "killed"
    store = RunStore(folder)
    before = {p.name: p.stat().st_mtime_ns for p in store.runs.glob("*.parquet")}
    assert store.finished() == {t.run_id for t in tasks[:4]}
    table = run_grid(tasks, folder, n_jobs=1, backend="sequential", progress=False)
    after = {p.name: p.stat().st_mtime_ns for p in store.runs.glob("*.parquet")}
    assert store.finished() == {t.run_id for t in tasks}
    assert table["run_id"].nunique() == len(tasks)
    assert all(after[name] == mtime for name, mtime in before.items())  # nothing recomputed
    forced = run_grid(tasks[:1], folder, n_jobs=1, backend="sequential", progress=False,
                      force=True)
    assert store.path(tasks[0].run_id).name not in after  # saved again, in a new file
    assert forced["run_id"].nunique() == 1
    pd.testing.assert_frame_equal(_comparable(read_results(folder)), _comparable(forced))
    everything = run_grid(tasks, folder, n_jobs=1, backend="sequential", progress=False)
    # the run's older copy, still in the first batch file, is not merged beside the new one
    assert (everything["run_id"] == tasks[0].run_id).sum() == len(forced)


def test_same_table_sequential_loky_and_dask(tmp_path):
    pytest.importorskip("dask.distributed")
    tasks = _tasks(seeds=[0, 1])
    sequential = run_grid(tasks, tmp_path / "seq", n_jobs=1, backend="sequential",
                          progress=False)
    loky = run_grid(tasks, tmp_path / "loky", n_jobs=2, backend="loky", progress=False)
    dask = run_grid(tasks, tmp_path / "dask", n_jobs=2, backend="dask", progress=False)
    assert (sequential["status"] == "ok").all()
    pd.testing.assert_frame_equal(_comparable(sequential), _comparable(loky))
    pd.testing.assert_frame_equal(_comparable(sequential), _comparable(dask))


def test_file_streams_are_parsed_once_per_grid_and_reparsed_when_the_file_changes(
        tmp_path, monkeypatch):
    from sklearn.datasets import dump_svmlight_file

    from olbench.harness import streamed
    from olbench.harness.streamed import load_stream

    rng = np.random.default_rng(0)
    X = rng.standard_normal((200, 3))
    path = tmp_path / "data.svm"
    dump_svmlight_file(X, np.where(X[:, 0] > 0, 1, -1), str(path))
    spec = {"_target_": "olbench.streams.Svmlight", "path": str(path)}
    cache = tmp_path / "cache"
    first = load_stream(spec, str(cache), whole=True)[1]
    assert len(list(cache.rglob("output.pkl"))) == 1
    again = load_stream(spec, str(cache), whole=True)[1]
    assert len(list(cache.rglob("output.pkl"))) == 1  # a hit, not a second entry
    assert (first[0] != again[0]).nnz == 0 and first[2].fingerprint == again[2].fingerprint
    dump_svmlight_file(X[:100], np.ones(100), str(path))  # the file changes: parsed again
    changed = load_stream(spec, str(cache), whole=True)[1]
    assert changed[0].shape[0] == 100
    # no comparators: a small file is still cached whole (parsed once per grid, not once per
    # learner); a file over the threshold, or no cache, streams in constant memory
    assert load_stream(spec, str(cache), whole=False)[1][0].shape[0] == 100
    assert len(list(cache.rglob("output.pkl"))) == 2
    assert load_stream(spec, None, whole=False)[1] is None
    monkeypatch.setattr(streamed, "CACHE_FILES_UP_TO", path.stat().st_size - 1)
    stream, whole = load_stream(spec, str(cache), whole=False)
    assert whole is None and hasattr(stream, "chunks")
    # out of core: never loaded whole, even for comparators (they are fitted chunk by chunk)
    assert load_stream(spec, str(cache), whole=True)[1] is None


def test_comparators_of_the_other_task_are_not_fitted_and_say_why():
    grid = {"streams": [{"key": "linear_regression", "params": {"n": 200, "d": 3}}],
            "learners": ["rls"],
            "comparators": [{"key": "best_fixed", "params": {"loss": "hinge"}},
                            {"key": "best_fixed", "params": {"loss": "squared"}}]}
    (task,) = _tasks(seeds=[0], grid=grid)
    rows = run_task(task)
    assert (rows["status"] == "ok").all()
    hinge = rows[rows["comparator"].str.contains("loss=hinge")]
    assert hinge["regret"].isna().all()
    assert hinge["comparator_skip_reason"].eq(
        "a classification loss (hinge) cannot measure a regression learner").all()
    rows = rows[rows["comparator"].eq("BestFixed[loss=squared,ridge=0.0,radius=None,epsilon=0.1]")]
    final = rows[rows["t"] == 200].iloc[0]
    assert final["regret"] == pytest.approx(final["cum_loss"] - final["comparator_loss"])
    assert final["comparator_loss"] <= final["cum_loss"]  # the best fixed is best in hindsight


def test_every_column_of_a_real_table_is_named_in_the_schema(tmp_path):
    """A column written by any module is a documented name of olbench.schema."""
    from olbench.schema import is_documented

    tasks = expand({"streams": [{"key": "noisy", "params": {"n": 200, "d": 3}}],
                    "learners": ["pa", "arow"], "comparators": ["best_fixed"]}, seeds=[0],
                   cache_dir=str(tmp_path / "cache"))
    table = run_grid(tasks, tmp_path / "out", n_jobs=1, progress=False)
    failed = run_task(dataclasses.replace(tasks[0], learner={
        "_target_": "olbench.learners.pa.PA", "C": -1.0}))
    undocumented = [c for c in [*table.columns, *failed.columns] if not is_documented(c)]
    assert not undocumented, f"add these to olbench.schema.COLUMNS: {undocumented}"


def test_a_run_that_kills_its_worker_is_an_error_row_and_the_grid_goes_on(tmp_path):
    """A native crash (os.abort() in one run's worker) on a 2-job loky grid: the other runs
    finish, the crashed one is an error row naming the signal, the CLI exits 1 and says so."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    seeds = [0, 1, 2, 3]
    abort_seed = child_seed(2, "stream")      # the stream seed of run seed 2
    cmd = [sys.executable, "-c", "from olbench.cli import main; main()", "learner=perceptron",
           "stream._target_=crashing.AbortingSeparable", f"+stream.abort_seed={abort_seed}",
           "stream.n=200", "stream.d=4", "~comparator", f"run.seeds=[{','.join(map(str, seeds))}]",
           "run.n_jobs=2", "run.backend=loky", "run.figures=false", "run.progress=false",
           "run.cache_dir=null", f"run.output_dir={tmp_path}"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), str(root / "tests")])}
    done = subprocess.run(cmd, cwd=root, capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 1, done.stderr[-3000:]
    assert "1 of 4 runs FAILED" in done.stderr, done.stderr[-3000:]
    assert "worker process running this run died (SIGABRT(-6))" in done.stderr
    assert "seed 2)" in done.stderr                  # the failure summary names the run
    folder = next(tmp_path.glob("single/*/results.parquet")).parent
    runs = read_results(folder).drop_duplicates("run_id").set_index("seed")
    assert sorted(runs.index) == seeds
    assert (runs.drop(index=2)["status"] == "ok").all()
    assert runs.loc[2, "status"].startswith("error: WorkerDied:")
    assert RunStore(folder).finished() == set(runs.drop(index=2)["run_id"])  # retried next time
