"""The `olbench` command, end to end, as a user runs it (real processes, real files; the
refusals and listings call its entry point in this process: tests/olbench_command.py)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pandas as pd
import pytest
from olbench_command import OLBENCH, ROOT, environment, olbench, olbench_here

from olbench.harness.results import RunStore


def _only_folder(parent: Path) -> Path:
    (folder,) = [p for p in parent.iterdir() if p.is_dir()]
    return folder


def test_help_lists_groups_options_and_examples():
    out = olbench_here("--help", cwd=ROOT)
    assert out.returncode == 0, out.stderr
    for text in ("learner: ", "stream: ", "comparator: ", "experiment: ", "run.n_jobs",
                 "run.checkpoint_spacing (log | linear",
                 "olbench experiment=novikoff", "perceptron", "pa_vs_arow_outliers",
                 "olbench --list [learner | learner=pa]"):
        assert text in out.stdout, text


def test_list_shows_parameters_with_defaults_and_ranges():
    out = olbench_here("--list", "learner=pa", cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[1].split() == ["C", "1.0", "a", "number", "in", "(0,", "inf)"]
    assert "<olbench.component" not in out.stdout


def test_unknown_parameter_says_which_parameters_the_learner_has(tmp_path):
    out = olbench_here("learner=pa", "learner.Cc=2", f"run.output_dir={tmp_path}", cwd=ROOT)
    assert out.returncode == 2
    assert out.stderr.startswith("olbench: learner pa has no parameter 'Cc' (did you mean C?)")
    assert re.search(r"variant +pa1 +one of 'pa', 'pa1', 'pa2'", out.stderr)
    assert "+learner.Cc" not in out.stderr
    assert not any(tmp_path.iterdir())  # nothing ran


def test_unknown_learner_lists_the_choices():
    out = olbench_here("learner=perceptrn", cwd=ROOT)
    assert out.returncode == 2     # a usage error, found before Hydra composes
    assert "learner=perceptrn: no learner 'perceptrn' (did you mean perceptron?)" in out.stderr
    assert "arow" in out.stderr


def test_invalid_value_names_parameter_and_range(tmp_path):
    out = olbench_here("learner=pa", "learner.C=-1", f"run.output_dir={tmp_path}", cwd=ROOT)
    assert out.returncode == 2
    assert "olbench: learner pa: PA: invalid C=-1; C must be a number in (0, inf)" in out.stderr
    assert not any(tmp_path.iterdir())  # nothing ran


def test_single_cell_writes_table_summary_report_and_figures(tmp_path):
    out = olbench_here("learner=pa", "stream=noisy", "stream.flip_rate=0.1", "stream.n=400",
                       "run.seeds=[0,1]", "run.n_jobs=1", f"run.output_dir={tmp_path}", cwd=ROOT)
    assert out.returncode == 0, out.stderr
    folder = _only_folder(tmp_path / "single")
    table = pd.read_parquet(folder / "results.parquet")
    assert table["run_id"].nunique() == 2 and (table["status"] == "ok").all()
    assert set(table["stream_flip_rate"]) == {0.1} and set(table["stream_n"]) == {400}
    assert table["learner"].iloc[0] == "PA[C=1.0,variant=pa1]"
    summary = pd.read_csv(folder / "summary.csv")
    final = table[table["t"] == 400].drop_duplicates("run_id")
    assert summary["mistake_rate_mean"].iloc[0] == pytest.approx(final["mistake_rate"].mean())
    report = (folder / "report.md").read_text()
    assert "PA[C=1.0,variant=pa1]" in report and "![" in report
    assert "\nPA-I (C=1) & $" in report  # the LaTeX table, with short names
    assert "\\begin{tabular}" in (folder / "summary.tex").read_text()
    assert "## Question" not in report and "How do the Perceptron" not in report
    assert "flip_rate: 0.1" in report.split("## Configuration")[1]   # the cell that ran
    pngs = sorted(p.name for p in (folder / "figures").glob("*.png"))
    assert {"mistakes.png", "regret.png", "libol.png"} <= set(pngs)
    assert "PA-I (C=1)" in out.stdout and "updates" in out.stdout  # the summary at the end
    assert "single: 2 runs (2 ok, 0 failed); " in out.stdout
    index = pd.read_csv(tmp_path / "index.csv")
    assert index[["experiment", "name"]].values.tolist() == [["single", folder.name]]
    assert index["command"].iloc[0].startswith("olbench learner=pa stream=noisy ")
    assert (tmp_path / "latest" / "single").resolve() == folder.resolve()
    out = olbench("--compare", str(folder), "single/nothing", f"--output-dir={tmp_path}")
    assert out.returncode == 2 and "olbench --compare: " in out.stderr


def test_showcase_default_run_from_cold_cache(tmp_path):
    """`olbench` with no arguments (here only the output folders moved) runs the showcase."""
    start = time.perf_counter()
    out = olbench(f"run.output_dir={tmp_path}", f"run.cache_dir={tmp_path / 'cache'}")
    elapsed = time.perf_counter() - start
    assert out.returncode == 0, out.stderr[-2000:]
    folder = _only_folder(tmp_path / "showcase")
    table = pd.read_parquet(folder / "results.parquet")
    assert table["run_id"].nunique() == 24 and (table["status"] == "ok").all()
    checks = table.dropna(subset=["bound"]).drop_duplicates(["run_id", "t", "bound_name"])
    assert len(checks) and checks["bound_holds"].astype(bool).all()
    assert (folder / "report.md").exists() and (folder / "figures" / "libol.pdf").exists()
    print(f"showcase: {elapsed:.1f} s")


def test_interrupted_grid_resumes_without_losing_or_redoing_work(tmp_path):
    """Kill `olbench` mid-grid (SIGKILL: no clean-up), run it again: saved runs are kept
    as they were, the rest is completed, nothing is duplicated."""
    args = ["experiment=novikoff", "grid.seeds=[0,1,2,3,4,5]", "run.n_jobs=1",
            "run.figures=false", f"run.output_dir={tmp_path}", "run.progress=false",
            "run.cache_dir=null"]
    process = subprocess.Popen([*OLBENCH, *args], cwd=ROOT, env=environment(),
                               stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    runs = None
    deadline = time.time() + 240
    try:
        while time.time() < deadline:
            found = list(tmp_path.glob("novikoff/*/runs"))
            if found and len(RunStore(found[0].parent).finished()) >= 3:
                runs = found[0]
                break
            if process.poll() is not None:
                pytest.fail("olbench finished before it could be interrupted")
            time.sleep(0.05)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    assert runs is not None, "no run finished in time"
    before = {p.name: p.stat().st_mtime_ns for p in runs.glob("*.parquet")}
    assert 3 <= len(RunStore(runs.parent).finished()) < 36
    out = olbench(*args)
    assert out.returncode == 0, out.stderr[-2000:]
    after = {p.name: p.stat().st_mtime_ns for p in runs.glob("*.parquet")}
    assert len(RunStore(runs.parent).finished()) == 36
    assert all(after[name] == mtime for name, mtime in before.items())
    table = pd.read_parquet(runs.parent / "results.parquet")
    assert table["run_id"].nunique() == 36 and (table["status"] == "ok").all()
    assert not list(runs.glob(".*.tmp"))  # no half-written file was left behind or read


@pytest.mark.needs_datasets("svmguide3")
def test_libol_study_on_real_data(tmp_path):
    out = olbench_here("experiment=libol_svmguide3", "grid.seeds=[0,1]", "run.figures=false",
                       f"run.output_dir={tmp_path}", f"run.cache_dir={tmp_path / 'cache'}",
                       cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    table = pd.read_parquet(_only_folder(tmp_path / "libol_svmguide3") / "results.parquet")
    final = table[table["t"] == 1243].drop_duplicates("run_id")
    assert len(final) == 12 and set(final["stream_d"]) == {21}
    arow = final[final["learner_key"] == "arow"]["mistake_rate"]
    perceptron = final[final["learner_key"] == "perceptron"]["mistake_rate"]
    assert arow.max() < perceptron.min()  # the second-order learner wins, as in LIBOL
    assert len(list((tmp_path / "cache").rglob("output.pkl"))) >= 2  # each permutation parsed once


def test_multirun_sweeps_cells(tmp_path):
    out = olbench_here("-m", "learner=pa,perceptron", "stream.n=200", "run.figures=false",
                       "run.n_jobs=1", f"run.output_dir={tmp_path}", "run.progress=false", cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    tables = [pd.read_parquet(p) for p in tmp_path.glob("single/*/results.parquet")]
    assert sorted(t["learner_key"].iloc[0] for t in tables) == ["pa", "perceptron"]


def test_ctrl_c_keeps_finished_runs_and_says_how_to_resume(tmp_path):
    # enough runs that the grid is still running when its first batch of runs is saved
    args = ["experiment=novikoff", "grid.seeds=[0,1,2,3,4,5,6,7,8,9,10,11]", "run.n_jobs=1",
            "run.figures=false", f"run.output_dir={tmp_path}", "run.progress=false",
            "run.cache_dir=null"]
    # a shell that starts jobs in the background (as CI may) ignores SIGINT in them, and
    # Python keeps an ignored SIGINT ignored: give the child the terminal's default back
    process = subprocess.Popen([*OLBENCH, *args], cwd=ROOT, env=environment(),
                               stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.time() + 240
    while time.time() < deadline and not list(tmp_path.glob("novikoff/*/runs/*.parquet")):
        assert process.poll() is None, "olbench finished before it could be interrupted"
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr[-2000:]
    saved = len(RunStore(next(tmp_path.glob("novikoff/*"))).finished())
    assert 0 < saved < 72 and f"interrupted: {saved} of 72 runs are saved" in stderr
    assert "run the same command again" in stderr
