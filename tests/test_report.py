"""The report: summary statistics equal what the table says, violations come first, failed runs
are listed with their messages, figures are embedded by relative path."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from synthetic_table import COMPARATOR, LEARNERS, make_table

from olbench.analysis import report


@pytest.fixture(scope="module")
def summary(table) -> pd.DataFrame:
    return report.summary_table(table)


def _final_values(table, stream_key, learner_key, metric):
    """The metric at each ok run's last checkpoint, straight from the table."""
    ok = table[(table["status"] == "ok") & (table["stream_key"] == stream_key)
               & (table["learner_key"] == learner_key)]
    last = ok[ok["t"] == ok.groupby("run_id")["t"].transform("max")]
    return last.drop_duplicates("run_id")[metric].to_numpy(float)


def _row(summary, stream_prefix, learner):
    sel = summary[summary["stream"].str.startswith(stream_prefix) & (summary["learner"] == learner)]
    assert len(sel) == 1
    return sel.iloc[0]


# --------------------------------------------------------------------------- summary
@pytest.mark.parametrize("metric", ["mistake_rate", "cum_loss", "regret", "updates"])
@pytest.mark.parametrize("learner_key", list(LEARNERS))
def test_summary_mean_and_std_over_seeds(summary, table, metric, learner_key):
    values = _final_values(table, "noisy", learner_key, metric)
    row = _row(summary, "Noisy", LEARNERS[learner_key])
    assert len(values) == 3
    assert row[f"{metric}_mean"] == pytest.approx(values.mean())
    assert row[f"{metric}_std"] == pytest.approx(values.std(ddof=1))


def test_summary_counts_runs_errors_and_names_without_seed(summary):
    assert len(summary) == 2 * 3 + 2                 # + the failed AROW and skipped RLS runs
    assert not summary["stream"].str.contains("seed=").any()
    assert set(summary["n"]) == {1000}
    ogd = _row(summary, "Noisy", LEARNERS["ogd"])
    assert (ogd["runs"], ogd["ok"], ogd["errors"]) == (3, 3, 0)
    arow = _row(summary, "Noisy", "AROW[r=1.0]")
    assert (arow["runs"], arow["ok"], arow["errors"]) == (1, 0, 1)
    assert np.isnan(arow["mistake_rate_mean"])      # the 1e9 of the error row never counts
    rls = _row(summary, "Noisy", "RLS[lam=1.0]")
    assert (rls["runs"], rls["ok"], rls["errors"]) == (1, 0, 0)
    assert set(summary["comparator"]) == {COMPARATOR}


def test_summary_bound_marks(summary):
    assert _row(summary, "Noisy", LEARNERS["ogd"])["bounds_hold"] == "n"        # one violation
    assert _row(summary, "Separable", LEARNERS["ogd"])["bounds_hold"] == "y"
    assert _row(summary, "Separable", LEARNERS["perceptron"])["bounds_hold"] == "y"
    assert _row(summary, "Noisy", LEARNERS["perceptron"])["bounds_hold"] == "—"  # only skipped
    assert _row(summary, "Noisy", LEARNERS["pa"])["bounds_hold"] == "—"          # no bound


def test_summary_of_a_table_without_bounds_or_comparator():
    t = make_table(bounds=False, failures=False).drop(
        columns=["bound_name", "quantity", "bound", "observed", "ratio", "bound_holds",
                 "skip_reason", "regret"]).assign(comparator=None)
    s = report.summary_table(t)
    assert set(s["bounds_hold"]) == {"—"} and set(s["comparator"]) == {"—"}
    assert s["regret_mean"].isna().all() and s["mistake_rate_mean"].notna().all()
    assert "comparator" not in report.display_summary(s)


def test_summary_survives_a_parquet_round_trip(table, summary, tmp_path):
    table.to_parquet(tmp_path / "results.parquet")
    back = report.summary_table(pd.read_parquet(tmp_path / "results.parquet"))
    pd.testing.assert_frame_equal(back, summary, check_dtype=False)
    assert list(report.bound_checks(pd.read_parquet(tmp_path / "results.parquet"))["status"]) \
        == list(report.bound_checks(table)["status"])


def test_format_summary_is_an_aligned_text_table(summary):
    text = report.format_summary(summary)
    lines = text.splitlines()
    assert len(lines) == len(summary) + 2
    assert set(lines[1].replace(" ", "")) == {"-"}
    # Every column starts at the same place on every line (two-space gutters of the rule).
    starts = [m.start() for m in re.finditer(r"-+", lines[1])]
    header = lines[0]
    assert [header[s - 1] if s else " " for s in starts] == [" "] * len(starts)
    assert any("PA-I (C=1)" in line for line in lines)     # short names for people
    values = _final_values(make_table(), "separable", "ogd", "mistake_rate")
    assert report.mean_pm(values.mean(), values.std(ddof=1)) in text


def test_terminal_summary_has_libols_columns_with_std_and_short_names(summary, table):
    shown = report.display_summary(summary)
    assert list(shown.columns[5:11]) == ["mistake rate", "updates", "time (s), median [q1, q3]",
                                         "clean mistake rate", "cumulative loss", "regret"]
    row = shown[shown["learner"].eq("PA-I (C=1)") & shown["stream"].str.startswith("Noisy")]
    assert len(row) == 1
    values = _final_values(table, "noisy", "pa", "updates")
    assert row["updates"].iloc[0] == report.mean_pm(values.mean(), values.std(ddof=1))
    assert " ± " in row["updates"].iloc[0]
    assert LEARNERS["pa"] in set(summary["learner"])          # the data keeps the full name


def test_latex_table_is_a_complete_tabular_with_short_labels_and_std(summary, table):
    latex = report.latex_table(summary)
    lines = latex.splitlines()
    assert lines[1] == "\\begin{tabular}{llrrr}" and lines[-1] == "\\end{tabular}"
    assert lines[2] == lines[4] == lines[-2] == "\\hline"
    assert lines[3] == ("Stream & Algorithm & Mistake rate & Updates & "
                        "Time (s), median [$q_1$, $q_3$] \\\\")
    rows = lines[5:-2]
    # one row per (stream, learner): the metrics do not depend on the comparator
    assert len(rows) == len(summary.drop_duplicates(["stream", "learner"]))
    assert all(r.endswith(" \\\\") and r.count(" & ") == 4 for r in rows)
    pa = [r for r in rows if r.startswith("Noisy") and " & PA-I (C=1) & " in r]
    assert len(pa) == 1
    rate, upd = (_final_values(table, "noisy", "pa", m) for m in ("mistake_rate", "updates"))
    assert f"${rate.mean():.4f} \\pm {rate.std(ddof=1):.4f}$" in pa[0]
    assert f"${upd.mean():.1f} \\pm {upd.std(ddof=1):.1f}$" in pa[0]
    s = pd.DataFrame({"stream": ["S"], "learner": ["A_b&c"], "mistake_rate_mean": [np.nan]})
    assert report.latex_table(s).splitlines()[5] == "A\\_b\\&c & -- & -- & -- \\\\"


# --------------------------------------------------------------------------- bound checks
def test_bound_checks_violations_first_then_holds_then_skipped(table):
    checks = report.bound_checks(table)
    order = checks["status"].map({"violated": 0, "holds": 1, "skipped": 2}).tolist()
    assert order == sorted(order)
    assert checks["status"].iloc[0] == "violated"
    first = checks.iloc[0]
    assert (first["learner"], first["bound_name"], first["violations"]) == (
        LEARNERS["ogd"], "ogd_regret", 1)
    assert first["worst"] == "seed=2, t=1000"
    assert first["max_ratio"] == pytest.approx(2.0)
    skipped = checks[checks["status"] == "skipped"]
    assert list(skipped["skip_reason"]) == ["stream not linearly separable"]
    assert set(checks["status"]) == {"violated", "holds", "skipped"}


def test_failed_runs_lists_errors_before_skips(table):
    failed = report.failed_runs(table)
    assert list(failed["run_id"]) == ["noisy-arow-0", "noisy-rls-0"]
    assert failed["status"].iloc[0] == "error: LinAlgError: singular matrix"


def test_a_run_that_failed_before_its_names_were_known(table):
    # The grid writes such a row: identification keys and the message, no names, no t.
    row = pd.DataFrame({"run_id": ["early"], "seed": [4], "stream_key": ["noisy"],
                        "learner_key": ["pa"], "status": ["error: ValueError: C must be > 0"],
                        "traceback": ["..."]})
    t = pd.concat([table, row], ignore_index=True)
    failed = report.failed_runs(t)
    assert failed.iloc[0][["run_id", "stream", "learner"]].tolist() == ["early", "noisy", "pa"]
    s = report.summary_table(t)
    assert s[s["learner"] == "pa"][["runs", "ok", "errors"]].values.tolist() == [[1, 0, 1]]
    pd.testing.assert_frame_equal(s[s["learner"] != "pa"].reset_index(drop=True),
                                  report.summary_table(table), check_dtype=False)


# --------------------------------------------------------------------------- report.md
def test_write_report(table, tmp_path):
    figs = tmp_path / "figures"
    figs.mkdir()
    paths = [figs / "regret.png", figs / "regret.pdf", figs / "mistakes.png",
             figs / "sweep_gamma.png"]
    for p in paths:
        p.write_bytes(b"")
    path = report.write_report(table, tmp_path, experiment="novikoff_check",
                               question="Does the Perceptron stay under (R/γ)²?",
                               config_text="learner: perceptron\nseeds: 3\n", figures=paths,
                               captions={"regret": "Regret vs t.", "libol": "Not drawn.",
                                         "sweep": "Against a swept parameter."})
    assert path == tmp_path / "report.md"
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# novikoff_check\n")
    assert "Does the Perceptron stay under (R/γ)²?" in text
    assert "```yaml\nlearner: perceptron\nseeds: 3\n```" in text
    sections = re.findall(r"^## (.+)$", text, flags=re.M)
    assert sections == ["Question", "Grid", "Configuration", "Summary at the final checkpoint",
                        "Bound checks", "Failed runs", "Figures", "LaTeX table"]
    # The grid, derived from the table.
    assert "- **Seeds** (3): 0, 1, 2" in text
    assert "`Noisy[n=1000,d=5,gamma=0.1,R=1.0,flip_rate=0.05]` (n = 1000)" in text
    assert f"`{COMPARATOR}`" in text
    # Bound checks: the violation is the first row of its table.
    bounds = text.split("## Bound checks")[1].split("## Failed runs")[0]
    rows = [line for line in bounds.splitlines() if line.startswith("| ") and "---" not in line]
    assert rows[1].startswith("| `Noisy") and "| violated |" in rows[1]
    assert "| skipped |" in rows[-1] and "stream not linearly separable" in rows[-1]
    # Failed runs with their messages.
    failed = text.split("## Failed runs")[1].split("## Figures")[0]
    assert "error: LinAlgError: singular matrix" in failed
    assert "skipped: regression learner on a classification stream" in failed
    # Figures: PNGs only, relative paths, with captions.
    assert "![regret](figures/regret.png)" in text
    assert "![mistakes](figures/mistakes.png)" in text
    assert "![regret](figures/regret.png)\n\n*Regret vs t.*" in text
    assert "![mistakes](figures/mistakes.png)\n\n*mistakes*" in text   # no caption: the stem
    # one of several figures of a kind (sweep_<param>) takes the kind's caption
    assert "![sweep_gamma](figures/sweep_gamma.png)\n\n*Against a swept parameter.*" in text
    assert "Not drawn." not in text
    assert "regret.pdf" not in text
    assert str(tmp_path) not in text
    # The LaTeX table, also written on its own.
    assert (tmp_path / "summary.tex").read_text(encoding="utf-8").rstrip() in text
    assert "\\begin{tabular}" in (tmp_path / "summary.tex").read_text(encoding="utf-8")


def test_write_report_finds_figures_and_handles_a_clean_run(tmp_path):
    t = make_table(bounds=False, failures=False, seeds=(0,), n_checkpoints=6)
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "libol.png").write_bytes(b"")
    text = report.write_report(t, tmp_path, experiment="x").read_text(encoding="utf-8")
    assert "## Question" not in text and "## Configuration" not in text
    assert "None: every run finished." in text
    assert "No bound applies" in text
    assert "![libol](figures/libol.png)" in text
