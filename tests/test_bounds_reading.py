"""Bounds people can read (issue 24, point 4): a theorem stated for separable data says that
the stream is not separable, a bound that cannot bind is marked vacuous (table, report.md,
terminal), and the terminal prints each bound's formula, value and observed/bound."""

from __future__ import annotations

import math
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from naive.first_order import perceptron as naive_perceptron
from olbench_command import olbench_here

import olbench
from olbench.analysis.report import bound_checks, summary_table
from olbench.bounds import BoundViolation
from olbench.comparators import BestFixed, make_comparator
from olbench.metrics import metrics_table
from olbench.streams import make_stream

ROOT = Path(__file__).resolve().parents[1]


def _novikoff_rows(table: pd.DataFrame) -> pd.DataFrame:
    return table[table["bound_name"].eq("novikoff")].drop_duplicates(["run_id", "t"])


# --------------------------------------------------------------------------- skip reasons
def test_a_noisy_streams_novikoff_skip_says_it_is_not_separable():
    """Without a max-margin fit (a single cell's default comparator is best_fixed), the
    noisy stream's flipped labels make its generating vector's margin negative: the theorem's
    hypothesis fails, and the reason says so with that margin (computed here from u)."""
    stream = make_stream("noisy", n=400, d=5, gamma=0.1, flip_rate=0.1, seed=3)
    X, y = stream.materialize()
    u = stream.meta.u
    margin = float(np.min(y * (X @ u)) / np.linalg.norm(u))
    assert margin < 0 and stream.meta.flipped.any()
    learner = olbench.make_learner("perceptron")
    trace = olbench.run(learner, X, y)
    fits = {"best": BestFixed(loss="hinge").fit(X, y, cache=None)}
    rows = _novikoff_rows(metrics_table(trace, learner=learner, meta=stream.meta, fits=fits)
                          .assign(run_id="a"))
    reasons = set(rows["skip_reason"])
    assert len(reasons) == 1 and rows["bound"].isna().all()
    reason = reasons.pop()
    assert reason.startswith("the stream is not linearly separable by its generating vector u")
    assert f"{margin:.3g}" in reason and "max_margin" in reason


def test_a_separable_stream_without_a_fit_is_not_called_non_separable():
    """Its generating vector separates it (margin >= gamma): what is missing is the fit."""
    stream = make_stream("separable", n=300, d=5, gamma=0.1, seed=0)
    X, y = stream.materialize()
    learner = olbench.make_learner("perceptron")
    table = metrics_table(olbench.run(learner, X, y), learner=learner, meta=stream.meta,
                          fits={"best": BestFixed(loss="hinge").fit(X, y, cache=None)})
    (reason,) = set(table.loc[table["bound_name"].eq("novikoff"), "skip_reason"])
    assert reason.startswith("no max_margin comparator fit given")
    assert "not linearly separable" not in reason


# --------------------------------------------------------------------------- vacuous bounds
def test_a_mistake_bound_is_vacuous_exactly_where_it_is_at_least_t():
    """Novikoff with the max-margin gamma on a margin-0.1 stream: about (1/0.1)^2 = 100, so
    vacuous at the early checkpoints (t <= bound) and binding at t = 1000."""
    stream = make_stream("separable", n=1000, d=5, gamma=0.1, seed=1)
    X, y = stream.materialize()
    learner = olbench.make_learner("perceptron")
    fits = {"mm": make_comparator("max_margin").fit(X, y, cache=None)}
    rows = _novikoff_rows(metrics_table(olbench.run(learner, X, y), learner=learner,
                                        meta=stream.meta, fits=fits).assign(run_id="a"))
    t, bound = rows["t"].to_numpy(float), rows["bound"].to_numpy(float)
    np.testing.assert_array_equal(rows["trivial_bound"].to_numpy(float), t)
    assert rows["bound_vacuous"].tolist() == (bound >= t).tolist()
    assert rows["bound_vacuous"].iloc[0] and not rows["bound_vacuous"].iloc[-1]


def test_hedge_regret_bound_is_vacuous_where_it_exceeds_t():
    """On losses in [0, 1] no regret exceeds t: Hedge's anytime bound 2 sqrt((t/2) ln N) +
    sqrt(ln N / 8) is vacuous at t = 1 (3.06 for N = 20) and binds at t = 2000 (110)."""
    stream = make_stream("experts", n=2000, N=20, mode="adversarial", seed=3)
    X, y = stream.materialize()
    ks = np.array([1, 5, 2000])
    learner = olbench.make_learner("hedge")
    fit = make_comparator("best_point", loss="linear", domain="simplex", radius=1.0).fit(
        X, y, stream.meta, checkpoints=ks, cache=None)
    table = metrics_table(olbench.run(learner, X, y), learner=learner, meta=stream.meta,
                          fits={fit.comparator: fit}, checkpoints=ks)
    rows = table[table["bound_name"].eq("hedge_anytime")].drop_duplicates("t")
    expected = 2 * np.sqrt(ks / 2 * math.log(20)) + math.sqrt(math.log(20) / 8)
    np.testing.assert_allclose(rows["bound"], expected)
    np.testing.assert_array_equal(rows["trivial_bound"], ks)
    assert rows["bound_vacuous"].tolist() == [True, True, False]


def test_ogd_regret_bound_is_vacuous_at_the_first_round_and_binds_later():
    """Each round's regret is at most G D (gradient norm times the ball's diameter), so the
    bound at t = 1, D^2/(2 eta) + G^2 eta / 2 >= G D, can never bind; at t = 1000 it does."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(1000, 5))
    X /= np.maximum(1, np.linalg.norm(X, axis=1))[:, None]
    y = np.sign(X @ rng.normal(size=5))
    R = float(np.linalg.norm(X, axis=1).max())
    learner = olbench.make_learner("ogd", loss="logistic", eta=2.0 / R, schedule="sqrt",
                                   radius=1.0)
    fit = BestFixed(loss="logistic", radius=1.0).fit(X, y, cache=None)
    with warnings.catch_warnings():
        warnings.simplefilter("error", BoundViolation)
        table = metrics_table(olbench.run(learner, X, y), learner=learner, loss="logistic",
                              fits={"best": fit}, checkpoints=[1, 1000], R=R)
    rows = table[table["bound_name"].eq("ogd_regret")]
    np.testing.assert_allclose(rows["trivial_bound"], R * 2.0 * np.array([1, 1000]))
    assert rows["bound_vacuous"].tolist() == [True, False]


def test_summary_and_bound_checks_mark_a_bound_that_never_binds():
    """A synthetic table: one learner whose only bound is >= t at its final round (vacuous),
    one whose bound binds there."""
    rows = []
    for learner, bound in (("Perceptron[eta=1.0,libol=False]", 5000.0),
                           ("ROMMA[libol=False]", 50.0)):
        for seed in (0, 1):
            for t in (10, 1000):
                rows.append({"run_id": f"{learner}{seed}", "seed": seed, "t": t, "status": "ok",
                             "stream": "S", "learner": learner, "comparator": "C",
                             "mistake_rate": 0.01, "bound_name": "novikoff",
                             "quantity": "mistakes", "bound": bound, "observed": 10.0,
                             "bound_holds": True, "skip_reason": None, "trivial_bound": t,
                             "bound_vacuous": bound >= t})
    table = pd.DataFrame(rows)
    summary = summary_table(table).set_index("learner")["bounds_hold"]
    assert summary.to_dict() == {"Perceptron[eta=1.0,libol=False]": "vacuous",
                                 "ROMMA[libol=False]": "y"}
    checks = bound_checks(table).set_index("learner")
    assert checks.loc["Perceptron[eta=1.0,libol=False]", "status"] == "vacuous"
    assert checks.loc["ROMMA[libol=False]", "status"] == "holds"
    assert checks.loc["ROMMA[libol=False]", "final_ratio"] == 10.0 / 50.0
    from olbench.analysis.report_bounds import bound_lines

    lines = bound_lines(bound_checks(table))
    assert lines[0] == "bounds at the final round (median over runs):"
    assert any("(R/γ)² = 5,000" in line and ": vacuous (" in line for line in lines)
    assert any("(R/γ)² = 50, mistakes = 10, observed/bound = 0.2: holds" in line
               for line in lines)


# --------------------------------------------------------------------------- end to end
def test_the_command_prints_the_bound_its_ratio_and_that_it_is_vacuous(tmp_path):
    """``olbench learner=perceptron stream.gamma=0 comparator=max_margin``: (R/γ)² is far
    above the 1000 rounds, so the terminal, report.md and the table say vacuous; the
    terminal gives the bound, the mistakes (counted here by a plain-numpy Perceptron on the
    same stream) and observed/bound."""
    out = olbench_here("learner=perceptron", "stream=separable", "stream.gamma=0",
                       "stream.n=1000", "comparator=max_margin", "run.n_jobs=1",
                       "run.figures=false", "run.progress=false", f"run.output_dir={tmp_path}",
                       f"run.cache_dir={tmp_path / 'cache'}", cwd=ROOT)
    assert out.returncode == 0, out.stderr
    (folder,) = (tmp_path / "single").iterdir()
    table = pd.read_parquet(folder / "results.parquet")
    final = _novikoff_rows(table).iloc[-1]
    stream = make_stream("separable", n=1000, d=10, gamma=0.0, R=1.0,
                         seed=int(table["stream_seed"].iloc[0]))
    X, y = stream.materialize()
    assert stream.meta.fingerprint == table["stream_fingerprint"].iloc[0]
    mistakes = int(naive_perceptron(X, y)[1].sum())         # it updates on each mistake
    R = float(np.linalg.norm(X, axis=1).max())
    u_margin = float(np.min(y * (X @ stream.meta.u)))     # ||u|| = 1; the max margin is larger
    bound = float(final["bound"])
    assert 1000 <= bound <= (R / u_margin) ** 2 and final["observed"] == mistakes
    assert final["bound_vacuous"] == True      # noqa: E712
    line = next(x for x in out.stdout.splitlines() if "novikoff" in x)
    assert f"novikoff (R/γ)² = {bound:,.0f}, mistakes = {mistakes}, " in line
    assert f"observed/bound = {mistakes / bound:.2g}: vacuous" in line
    report = (folder / "report.md").read_text(encoding="utf-8")
    assert "| `novikoff` | (R/γ)² | mistakes | vacuous |" in report


def test_terminal_lines_put_violations_first_give_skip_reasons_and_stop_at_the_limit():
    """The synthetic table: OGD's regret bound is violated in 1 of its 3 noisy runs, the
    Perceptron's Novikoff check is skipped on the noisy stream."""
    from synthetic_table import make_table

    from olbench.analysis.report_bounds import bound_lines

    checks = bound_checks(make_table())
    lines = bound_lines(checks)
    assert lines[1].startswith("  OGD (eta=0.5, radius=1) on Noisy")
    assert lines[1].endswith(": VIOLATED in 1 of 3 runs")
    assert lines[-1].endswith(": novikoff skipped: stream not linearly separable")
    assert len(lines) == 1 + len(checks)
    short = bound_lines(checks, limit=2)
    assert short[-1] == f"  ... and {len(checks) - 2} more in report.md" and len(short) == 4


def test_a_regret_bound_vacuous_in_some_runs_only_still_holds_and_says_where():
    rows = [{"run_id": f"r{seed}", "seed": seed, "t": 100, "status": "ok", "stream": "S",
             "learner": "L", "bound_name": "hedge_anytime", "quantity": "regret",
             "bound": bound, "observed": 3.0, "bound_holds": True, "skip_reason": None,
             "trivial_bound": 100.0, "bound_vacuous": bound >= 100}
            for seed, bound in ((0, 150.0), (1, 50.0), (2, 40.0))]
    (row,) = bound_checks(pd.DataFrame(rows)).to_dict("records")
    assert (row["status"], row["vacuous"], row["final_bound"]) == ("holds", 1, 50.0)
    from olbench.analysis.report_bounds import bound_lines

    assert bound_lines(pd.DataFrame([row]))[1].endswith(": holds (vacuous in 1 of 3 runs)")
    every = pd.DataFrame(rows).assign(bound=150.0, bound_vacuous=True)
    assert bound_lines(bound_checks(every))[1].endswith(
        ": vacuous (the bound is >= 100, the most the regret can be)")
