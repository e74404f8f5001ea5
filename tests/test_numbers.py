"""Numbers that cannot mislead: one loss per run, regret against every comparator (or the
reason there is none), scale-free mistake regret, clean-label error, visible resume, failures
that speak, and the switches and caches that keep large data fast (issue 9)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from omegaconf import OmegaConf

import olbench
from olbench.analysis.report import summary_table
from olbench.comparators import make_comparator
from olbench.harness.grid import run_grid, run_task
from olbench.harness.tasks import CONF_DIR, expand
from olbench.streams import make_stream


def _run(tmp_path, capsys=None, **kw):
    kw.setdefault("output_dir", tmp_path / "results")
    res = olbench.run_experiment(n_jobs=1, figures=False, quiet=capsys is None,
                                 overrides=[f"run.cache_dir={tmp_path / 'cache'}",
                                            *kw.pop("overrides", [])], **kw)
    out = capsys.readouterr() if capsys is not None else None
    return res, out


def _final(table: pd.DataFrame) -> pd.DataFrame:
    return table[table["t"].eq(table.groupby("run_id")["t"].transform("max"))]


# --------------------------------------------------------------------------- one loss
def test_the_learners_loss_flows_to_the_runs_and_the_comparator(tmp_path):
    """The issue's command: OGD on the logistic loss against a logistic comparator gives a
    logistic regret (it printed "—": the runs were measured in hinge)."""
    res, _ = _run(tmp_path, learner="ogd", stream="noisy",
                  overrides=["learner.loss=logistic", "comparator.loss=logistic",
                             "stream.n=300", "learner.radius=2.0"])
    fin = _final(res.table).iloc[0]
    assert fin["loss"] == "logistic" and fin["comparator"].startswith("BestFixed[loss=logistic")
    assert fin["regret"] == pytest.approx(fin["cum_loss"] - fin["comparator_loss"])
    # the same without comparator.loss: the comparator takes the run's loss
    res2, _ = _run(tmp_path, learner="ogd", stream="noisy",
                   overrides=["learner.loss=logistic", "stream.n=300", "learner.radius=2.0"])
    assert _final(res2.table).iloc[0]["regret"] == pytest.approx(fin["regret"], rel=1e-9)
    # the logistic comparator is the best fixed logistic predictor: regret of its own u is 0
    X, y = make_stream("noisy", n=300, seed=int(fin["stream_seed"])).materialize()
    u = make_comparator("best_fixed", loss="logistic").fit(X, y, cache=None)
    assert u.cum_loss == pytest.approx(fin["comparator_loss"], rel=1e-6)


def test_a_regressor_with_the_default_comparator_gets_its_regret(tmp_path):
    res, _ = _run(tmp_path, learner="rls", stream="linear_regression",
                  overrides=["stream.n=200"])
    fin = _final(res.table).iloc[0]
    assert fin["loss"] == "squared" and fin["comparator"].startswith("BestFixed[loss=squared")
    X, y = make_stream("linear_regression", n=200, seed=int(fin["stream_seed"])).materialize()
    u, *_ = np.linalg.lstsq(X, y, rcond=None)          # least squares: the best fixed u
    assert fin["comparator_loss"] == pytest.approx(0.5 * np.sum((X @ u - y) ** 2), rel=1e-8)
    assert fin["regret"] == pytest.approx(fin["cum_loss"] - fin["comparator_loss"])


def test_a_comparator_that_cannot_be_used_says_why_in_terminal_and_report(tmp_path, capsys):
    res, out = _run(tmp_path, capsys, learner="perceptron", stream="noisy",
                    overrides=["comparator.loss=logistic", "stream.n=200"])
    assert res.table["regret"].isna().all()
    why = "minimises the logistic loss but the runs measure the hinge loss"
    assert set(res.table["comparator_skip_reason"]) == {
        why + ": leave the comparator's loss null (it then takes the run's) or set loss=logistic"}
    line = next(x for x in out.out.splitlines() if x.startswith("note: Comparator"))
    assert "(1 of 1 runs): " + why in line
    assert why in res.report.read_text()
    assert why in pd.read_csv(res.folder / "summary.csv")["comparator_skip_reason"].iloc[0]


# --------------------------------------------------------------------------- comparators
def test_regret_against_every_comparator_of_the_grid(tmp_path):
    """Each comparator of the grid has its own rows, regret and summary line (only the
    first had a regret); novikoff's comparators both have margin >= 1 on every point, so
    the regret is the Perceptron's own hinge loss, >= 0 (it was -2963 against the unscaled
    generating vector)."""
    grid = OmegaConf.to_container(OmegaConf.load(CONF_DIR / "experiment" / "novikoff.yaml").grid)
    grid["streams"] = [{"key": "separable", "params": {"n": 400, "d": 5, "gamma": 0.1}}]
    (task,) = expand(grid, seeds=[0], cache_dir=str(tmp_path))
    rows = run_task(task)
    fin = _final(rows).drop_duplicates("comparator")
    assert len(fin) == 2 and fin["comparator"].str.startswith("MaxMargin").any()
    assert fin["comparator"].str.contains("scale=unit_margin").any()
    np.testing.assert_allclose(fin["comparator_loss"], 0.0, atol=1e-9)
    np.testing.assert_allclose(fin["regret"], fin["cum_loss"])
    assert (fin["regret"] >= 0).all() and (fin["mistake_regret"] == fin["mistakes"]).all()
    summary = summary_table(rows)
    assert len(summary) == 2 and summary["regret_mean"].notna().all()
    assert (summary["runs"] == 1).all()
    # bounds are checked once per run, not once per comparator
    from olbench.analysis.report import bound_checks

    checks = bound_checks(rows)
    assert checks["bound_name"].is_unique and (checks["runs"] == 1).all()


# --------------------------------------------------------------------------- scale
def test_mistake_regret_is_scale_free_and_the_report_says_what_is_not(tmp_path):
    """The Perceptron's step size rescales w: the same mistakes, another hinge loss. The
    mistake regret (learner's mistakes - the comparator's) does not move; the notes say the
    loss-based numbers do."""
    res = {}
    for eta in (0.1, 10.0):
        r, _ = _run(tmp_path, learner="perceptron", stream="noisy",
                    overrides=[f"learner.eta={eta}", "stream.n=400", "comparator=max_margin",
                               "stream.flip_rate=0.0"])
        res[eta] = _final(r.table).iloc[0]
    assert res[0.1]["mistakes"] == res[10.0]["mistakes"] > 0
    assert res[0.1]["mistake_regret"] == res[10.0]["mistake_regret"] == res[0.1]["mistakes"]
    assert res[0.1]["regret"] != pytest.approx(res[10.0]["regret"])
    text = r.report.read_text()
    assert "scale with eta" in text and "mistake regret" in text


# --------------------------------------------------------------------------- clean labels
def test_clean_label_and_inlier_error_in_table_summary_and_view(tmp_path, capsys):
    res, out = _run(tmp_path, capsys, learner="perceptron", stream="noisy",
                    overrides=["stream.n=500", "stream.flip_rate=0.2"])
    fin = _final(res.table).iloc[0]
    s = make_stream("noisy", n=500, flip_rate=0.2, seed=int(fin["stream_seed"]))
    X, y = s.materialize()
    trace = olbench.run(olbench.make_learner("perceptron"), X, y)
    clean_wrong = (s.meta.clean_y * trace.margins <= 0).sum()   # against the true labels
    assert fin["clean_mistakes"] == clean_wrong < fin["mistakes"]
    assert "clean mistake rate" in out.out
    summary = pd.read_csv(res.folder / "summary.csv")
    assert summary["clean_mistake_rate_mean"].iloc[0] == pytest.approx(clean_wrong / 500)
    assert "clean mistake rate" in res.report.read_text()

    from olbench.analysis.views import error_rates

    rates = error_rates(res.table)
    assert set(rates["against"]) == {"observed labels", "clean labels"}
    # outliers: the mistakes made on the rows that are not outliers, over those rows
    (task,) = expand({"streams": [{"key": "outliers", "params": {"n": 300, "n_outliers": 30}}],
                      "learners": ["perceptron"]}, seeds=[0])
    rows = run_task(task)
    last = rows.iloc[-1]
    so = make_stream("outliers", n=300, n_outliers=30, seed=int(last["stream_seed"]))
    Xo, yo = so.materialize()
    m = olbench.run(olbench.make_learner("perceptron"), Xo, yo).margins
    inlier = ~so.meta.extra["outliers"]
    assert last["inlier_mistakes"] == ((yo * m <= 0) & inlier).sum()
    assert last["inlier_mistake_rate"] == pytest.approx(last["inlier_mistakes"] / 270)
    assert "inliers only" in set(error_rates(rows)["against"])


# --------------------------------------------------------------------------- resume
def test_a_rerun_says_how_many_runs_it_reused(tmp_path, capsys):
    args = dict(learner="pa", stream="separable", seeds=[0, 1], overrides=["stream.n=100"])
    _run(tmp_path, capsys, **args)
    _, out = _run(tmp_path, capsys, **{**args, "overrides": ["stream.n=100",
                                                             "run.backend=dask"]})
    assert "olbench: 2 of 2 runs reused from " in out.out
    assert "(run.force=true recomputes)" in out.out


# --------------------------------------------------------------------------- failures
def test_each_distinct_failure_is_printed_with_count_and_first_run(tmp_path):
    from olbench.analysis.failures import distinct_failures
    from olbench.analysis.report import write_report
    from olbench.pipeline import closing_lines

    grid = {"streams": [{"key": "separable", "params": {"n": 60}},
                        {"key": "libsvm", "params": {"path": str(tmp_path / "a.svm")}},
                        {"key": "libsvm", "params": {"path": str(tmp_path / "b.svm")}}],
            "learners": ["perceptron"]}
    tasks = expand(grid, seeds=[0, 1, 2])
    table = run_grid(tasks, tmp_path / "out", n_jobs=1, backend="sequential", progress=False)
    failures = distinct_failures(table)
    assert failures["runs"].tolist() == [3, 3]
    report = write_report(table, tmp_path / "out", experiment="mixed")
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        assert closing_lines(table, tmp_path / "out", report) == 1
    text = report.read_text()
    assert "6 of 9 runs FAILED (2 distinct errors):" in err.getvalue()
    for name in ("a.svm", "b.svm"):
        row = failures[failures["status"].str.contains(name)].iloc[0]
        first = sorted(t.run_id for t in tasks if name in str(t.stream.get("path")))[0]
        assert row["first_run"] == first
        assert f"  3 x {row['status']}\n      first: run {first} (" in err.getvalue()
        assert f"| {row['status']} | 3 | `{first}` |" in text


# --------------------------------------------------------------------------- speed
def test_order_invariant_fits_are_shared_by_permutations(tmp_path):
    from olbench.comparators.base import content_key

    X, y = make_stream("noisy", n=300, d=4, seed=5).materialize()
    order = np.random.default_rng(0).permutation(len(y))
    assert content_key(X, y) == content_key(X[order], y[order])
    assert content_key(X, y) != content_key(X[order], y)
    cache = tmp_path / "fits"
    best = make_comparator("best_fixed", loss="hinge")
    first = best.fit(X, y, cache=cache)
    again = best.fit(X[order], y[order], cache=cache)
    assert len(list(cache.rglob("output.pkl"))) == 1          # one fit for both orders
    fresh = best.fit(X[order], y[order], cache=None)
    np.testing.assert_array_equal(again.u, first.u)
    np.testing.assert_allclose(again.margins, X[order] @ again.u, rtol=0, atol=0)
    np.testing.assert_allclose(again.losses, fresh.losses, atol=1e-9)
    # prefix fits depend on the order: never shared
    ks = np.array([50, 300])
    make_comparator("prefix_best", loss="hinge").fit(X, y, checkpoints=ks, cache=cache)
    make_comparator("prefix_best", loss="hinge").fit(X[order], y[order], checkpoints=ks,
                                                     cache=cache)
    assert len(list(cache.rglob("output.pkl"))) == 3


def test_a_fit_is_the_same_for_every_row_order_where_the_minimiser_is_not(tmp_path):
    """Binary features, noisy labels: the hinge loss's minimisers form a face, and the LP's
    vertex depended on the row order (u spread 1.0 over six permutations here; on a9a three
    permutations gave comparator mistakes 4880, 4882, 4883). Fitted on the rows in canonical
    order, every permutation gets one u, cached or not, with its margins in its own order."""
    from olbench.comparators import _solvers

    rng = np.random.default_rng(0)
    X = (rng.random((200, 6)) < 0.3).astype(float)
    y = np.where(X @ rng.standard_normal(6) + 0.7 * rng.standard_normal(200) > 0.2, 1.0, -1.0)
    orders = [np.random.default_rng(s).permutation(200) for s in range(6)]
    vertices = [_solvers.solve(X[o], y[o], "hinge").u for o in orders]   # the LP alone
    assert np.ptp(np.array(vertices), axis=0).max() > 0.1      # the face is not a point
    best = make_comparator("best_fixed", loss="hinge")
    fits = [best.fit(X[o], y[o], cache=None) for o in orders]
    fits.append(best.fit(X[orders[1]], y[orders[1]], cache=tmp_path / "fits"))
    for o, fit in zip(orders + [orders[1]], fits):
        np.testing.assert_array_equal(fit.u, fits[0].u)
        np.testing.assert_allclose(fit.margins, X[o] @ fit.u, rtol=0, atol=1e-15)
        assert fit.cum_loss == pytest.approx(fits[0].cum_loss, rel=1e-12)


def test_a_cached_kernel_fit_has_its_margins_in_the_run_order(tmp_path):
    """A kernel max-margin fit has no u to recompute margins from: one read from the cache
    for a second permutation must still give each round its own margin."""
    X, y = make_stream("separable", n=60, d=2, gamma=0.2, seed=1).materialize()
    order = np.random.default_rng(3).permutation(60)
    kernel = make_comparator("kernel_max_margin", h=1.0)
    kernel.fit(X, y, cache=tmp_path)
    cached = kernel.fit(X[order], y[order], cache=tmp_path)
    fresh = kernel.fit(X[order], y[order], cache=None)
    np.testing.assert_allclose(cached.margins, fresh.margins, rtol=1e-9, atol=1e-9)
    assert (y[order] * cached.margins >= 1 - 1e-9).all()


def test_switches_skip_comparators_and_bounds_and_are_validated(tmp_path):
    res, _ = _run(tmp_path, learner="perceptron", stream="separable", comparators=False,
                  overrides=["stream.n=100", "run.bounds=false"])
    table = res.table
    assert table["comparator"].isna().all() and "regret" not in table
    assert "bound_name" not in table
    res2, _ = _run(tmp_path, learner="perceptron", stream="separable", overrides=["stream.n=100"])
    assert res2.table["bound_name"].eq("novikoff").any() and res2.table["regret"].notna().all()
    from olbench.harness.validate import config_problems

    cfg = OmegaConf.create({"run": {"comparators": "no", "bounds": 1}})
    assert config_problems(cfg) == ["run.comparators='no': must be true or false",
                                    "run.bounds=1: must be true or false"]
    from olbench.harness.listing import listing

    text = listing("run")
    assert "comparators" in text and "bounds" in text
