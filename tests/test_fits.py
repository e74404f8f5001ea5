"""Comparator fits in a grid (issue 24, "regret over fewer seeds than the table says"): each
distinct problem solved once, before the runs, never twice at once; a solver time-out named
as such wherever it surfaces, counted in the summary and retried on re-run; the time limit a
run option that reaches the solvers in the worker processes."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pandas as pd
import pytest

from olbench.analysis.report import display_summary, format_summary, summary_table, write_report
from olbench.comparators import Comparator
from olbench.harness.grid import run_grid
from olbench.harness.results import RunStore
from olbench.harness.tasks import expand


@pytest.fixture
def counting():
    """tests/counting.py's comparator, registered while the test runs (a key no config
    file has must not stay in the registry for the tests that check every comparator)."""
    import counting

    Comparator.registry.add("counting_best_fixed", counting.CountingBestFixed)
    yield counting
    Comparator.registry._classes.pop("counting_best_fixed", None)


def _noisy_data(n: int = 400, d: int = 5, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = np.where(X @ rng.standard_normal(d) + 0.8 * rng.standard_normal(n) > 0, 1.0, -1.0)
    return X, y


def test_a_two_job_grid_over_permutations_solves_the_comparator_once(tmp_path, counting):
    """Two learners x three permutations of one dataset on two workers: one solve (the
    instrumented comparator writes down each), taken by every run. Before, the first two
    runs solved it side by side (two solves), as a9a's LP was solved in every worker."""
    from sklearn.datasets import dump_svmlight_file

    X, y = _noisy_data()
    path = tmp_path / "data.svm"
    dump_svmlight_file(X, y, str(path))
    solves = tmp_path / "solves.txt"
    spec = {"_target_": "counting.CountingBestFixed", "journal": str(solves), "pause": 3.0,
            "loss": "hinge", "ridge": 0.0, "radius": None, "epsilon": 0.1}
    grid = {"streams": [{"key": "libsvm", "params": {"path": str(path), "order": "permuted"}}],
            "learners": ["perceptron", "pa"]}
    tasks = [dataclasses.replace(t, comparators=(spec,))
             for t in expand(grid, seeds=[0, 1, 2], checkpoints=5,
                             cache_dir=str(tmp_path / "cache"))]
    table = run_grid(tasks, tmp_path / "out", n_jobs=2, backend="loky", progress=False)
    assert len(counting.solves(solves)) == 1
    final = table[table["t"] == 400].drop_duplicates("run_id")
    assert len(final) == 6 and final["regret"].notna().all()
    # the one fit, in each permutation's row order: the same total loss for all
    assert np.ptp(final["comparator_loss"]) < 1e-9 * final["comparator_loss"].abs().max()
    from olbench.comparators._cache import journal

    entries = journal(tmp_path / "cache")   # the cache's own journal says the same
    assert [e["outcome"] for e in entries] == ["ok"]


def test_two_processes_on_one_cache_solve_a_problem_once(tmp_path, counting):
    """Two processes (two olbench commands, or two workers) ask for fits of two
    permutations of one dataset at once: one solves it, the other waits and reads it."""
    from joblib import Parallel, delayed

    X, y = _noisy_data()
    solves, cache = str(tmp_path / "solves.txt"), str(tmp_path / "cache")
    losses = Parallel(n_jobs=2, backend="loky")(
        delayed(counting.fit_a_permutation)(seed, X, y, solves, cache) for seed in (1, 2))
    assert len(counting.solves(solves)) == 1
    assert losses[0] == pytest.approx(losses[1], rel=1e-12)


def test_those_waiting_for_a_solve_that_times_out_take_its_reason(tmp_path, counting):
    """The same two processes under a 0 s limit: the one that got the lock tried (and ran
    out of time), the other, which waited for it, takes its time-out instead of trying
    again under the same limit."""
    from joblib import Parallel, delayed

    from olbench.comparators._cache import journal

    X, y = _noisy_data()
    solves, cache = str(tmp_path / "solves.txt"), str(tmp_path / "cache")
    reasons = Parallel(n_jobs=2, backend="loky")(
        delayed(counting.fit_a_permutation)(seed, X, y, solves, cache, 0.0) for seed in (1, 2))
    assert len(counting.solves(solves)) == 1 and len(journal(cache)) == 1
    assert reasons[0] == reasons[1]
    assert reasons[0].startswith("time-out: the solver time limit of 0 s")


def _timeout_grid(tmp_path):
    grid = {"streams": [{"key": "noisy", "params": {"n": 300, "d": 4}}],
            "learners": [{"key": "pa", "params": {"variant": "pa1"}}],
            "comparators": [{"key": "best_fixed", "params": {"loss": "hinge"}}]}
    return expand(grid, seeds=[0, 1, 2], checkpoints=5, cache_dir=str(tmp_path / "cache"))


def test_a_time_out_is_named_counted_flagged_and_retried(tmp_path, monkeypatch):
    """Seed 0 runs first; seeds 1 and 2 then run under a 0 s solver time limit (the
    environment variable): their comparator skip and PA-I's bound skip say time-out; the
    summary's regret is the mean of seed 0 alone and says so (regret_runs = 1 of 3 runs) in
    the terminal and report.md; those two runs are not finished, and the next run of the
    grid (default limit) fits and recomputes them only."""
    tasks = _timeout_grid(tmp_path)
    folder = tmp_path / "out"
    run_grid([t for t in tasks if t.seed == 0], folder, n_jobs=1, backend="sequential",
             progress=False)
    monkeypatch.setenv("OLBENCH_SOLVER_TIME_LIMIT", "0")
    run_grid([t for t in tasks if t.seed != 0], folder, n_jobs=1, backend="sequential",
             progress=False)
    monkeypatch.delenv("OLBENCH_SOLVER_TIME_LIMIT")
    table = RunStore(folder).merge([t.run_id for t in tasks])
    assert (table["status"] == "ok").all() and table["run_id"].nunique() == 3
    final = table[table["t"] == 300]
    timed_out = final[final["seed"] != 0]
    assert timed_out["regret"].isna().all()
    assert timed_out["comparator_skip_reason"].str.startswith(
        "time-out: the solver time limit of 0 s (run.solver_time_limit) ran out in").all()
    bound = timed_out[timed_out["bound_name"] == "pa1_mistakes"]
    assert len(bound) == 2 and bound["skip_reason"].str.startswith("time-out: ").all()
    assert final.loc[final["seed"] == 0, "regret"].notna().all()

    summary = summary_table(table)
    row = summary.iloc[0]
    assert (row["runs"], row["ok"], row["regret_runs"], row["mistake_rate_runs"]) == (3, 3, 1, 3)
    seed0 = final[final["seed"] == 0].drop_duplicates("run_id")["regret"].iloc[0]
    assert row["regret_mean"] == pytest.approx(seed0)
    shown = display_summary(summary).iloc[0]
    assert shown["regret"].endswith("(1 of 3 runs)")
    assert "of 3 runs" not in shown["mistake rate"]
    assert "(1 of 3 runs)" in format_summary(summary)
    report = write_report(table, tmp_path / "report", experiment="t").read_text()
    assert "(1 of 3 runs)" in report and "time-out: the solver time limit" in report
    assert "Running the same command again retries the fit" in report

    store = RunStore(folder)
    assert store.finished() == {t.run_id for t in tasks if t.seed == 0}
    kept = {p.name: p.stat().st_mtime_ns for p in store.runs.glob("*.parquet")}
    again = run_grid(tasks, folder, n_jobs=1, backend="sequential", progress=False)
    assert again[again["t"] == 300]["regret"].notna().all()
    assert RunStore(folder).finished() == {t.run_id for t in tasks}
    assert summary_table(again).iloc[0]["regret_runs"] == 3
    assert all(p.stat().st_mtime_ns == kept[p.name] for p in store.runs.glob("*.parquet")
               if p.name in kept and not p.name.startswith("batch-"))  # seed 0 not redone


def test_the_time_limit_is_a_run_option_that_reaches_the_workers(tmp_path):
    """``run.solver_time_limit`` (shown by ``olbench --list run``, checked up front) is the
    limit the solvers in loky workers run under: at 0 s every fit is a time-out naming it."""
    from olbench import run_experiment
    from olbench.harness.listing import listing

    assert "solver_time_limit" in listing("run")
    res = run_experiment(learner="pa", stream="noisy", seeds=[0, 1], n_jobs=2, figures=False,
                         quiet=True, output_dir=tmp_path / "out",
                         overrides=["stream.n=200", "run.solver_time_limit=0",
                                    f"run.cache_dir={tmp_path / 'cache'}"])
    reasons = res.table.drop_duplicates("run_id")["comparator_skip_reason"]
    assert len(reasons) == 2
    assert reasons.str.startswith("time-out: the solver time limit of 0 s "
                                  "(run.solver_time_limit) ran out in").all()
    from olbench.comparators._cache import journal

    entries = journal(tmp_path / "cache")      # tried once per stream (in its one run)
    assert len(entries) == 2 and all(e["time_limit"] == 0 for e in entries)
    assert all(e["outcome"].startswith("time-out") for e in entries)
    with pytest.raises(ValueError, match=r"run.solver_time_limit=-1: must be a number of "
                                         r"seconds >= 0"):
        run_experiment(learner="pa", stream="noisy", seeds=[0], quiet=True,
                       output_dir=tmp_path / "out", overrides=["run.solver_time_limit=-1"])


def test_the_latex_table_flags_a_mean_over_fewer_runs():
    """A row whose mistake rate covers 2 of its 3 runs (one run failed) says so in LaTeX."""
    from olbench.analysis.report import latex_table

    summary = pd.DataFrame({"stream": ["S"], "learner": ["PA[C=1.0,variant=pa1]"], "runs": [3],
                            "mistake_rate_mean": [0.25], "mistake_rate_std": [0.01],
                            "mistake_rate_runs": [2], "updates_mean": [120.0],
                            "updates_std": [2.0], "updates_runs": [2],
                            "time_s_median": [0.01], "time_s_q1": [0.009],
                            "time_s_q3": [0.011], "time_s_runs": [3]})
    row = latex_table(summary).splitlines()[5]
    assert row.count("(2 of 3 runs)") == 2 and row.endswith("0.0100 [0.0090, 0.0110] \\\\")


def test_the_regret_figure_states_the_runs_of_each_curve(tmp_path):
    """Two learners, three seeds, PA-I with the regret of seed 0 only (its comparator timed
    out on the others): its legend entry says 1 of 3 seeds, the Perceptron's 3, and the title
    does not claim one count for all."""
    from olbench.analysis.figures.regret import regret_figure

    grid = {"streams": [{"key": "noisy", "params": {"n": 300, "d": 4}}],
            "learners": ["perceptron", {"key": "pa", "params": {"variant": "pa1"}}],
            "comparators": [{"key": "best_fixed", "params": {"loss": "hinge"}}]}
    tasks = expand(grid, seeds=[0, 1, 2], checkpoints=5, cache_dir=None)
    table = run_grid(tasks, tmp_path / "out", n_jobs=1, backend="sequential", progress=False)
    lost = table["learner"].str.startswith("PA[") & table["seed"].ne(0)
    table.loc[lost, ["regret", "comparator_loss"]] = np.nan
    table.loc[lost, "comparator_skip_reason"] = "time-out: the solver time limit of 0 s ran out"
    fig = regret_figure(table)
    labels = [t.get_text() for leg in fig.legends for t in leg.get_texts()]
    assert any(label.startswith("PA-I") and label.endswith("(1 of 3 seeds)") for label in labels)
    assert any(label.startswith("Perceptron") and label.endswith("(3 seeds)") for label in labels)
    assert "mean over the seeds each entry states" in fig._suptitle.get_text()
    perceptron = regret_figure(table[~table["learner"].str.startswith("PA[")])
    assert "mean over 3 seeds" in perceptron._suptitle.get_text()   # one count, said once


def test_the_journal_records_solves_not_reads(tmp_path):
    """A second fit of the same data reads the cache: one journal entry, with its time."""
    from olbench.comparators import BestFixed
    from olbench.comparators._cache import journal

    X, y = _noisy_data(200, 3)
    for _ in range(2):
        BestFixed(loss="hinge").fit(X, y, cache=tmp_path)
    (entry,) = journal(tmp_path)
    assert entry["outcome"] == "ok" and entry["seconds"] >= 0
    assert entry["comparator"].startswith("BestFixed[loss=hinge,")
    assert json.loads(json.dumps(entry)) == entry
