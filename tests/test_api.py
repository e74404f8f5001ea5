"""The notebook API, the results index and `latest` pointers, and comparing folders: run as a
user would from Python (real runs, real files), small enough to take seconds."""

from __future__ import annotations

import os
import threading

import pandas as pd
import pytest

import olbench
from olbench.analysis import index
from olbench.analysis.report import latex_table, summary_table

CELL = dict(learner="pa", stream="noisy", seeds=[0, 1], n_jobs=1, quiet=True, figures=False)


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    return tmp_path_factory.mktemp("results")


@pytest.fixture(scope="module")
def first(out):
    return olbench.run_experiment(**CELL, output_dir=out, overrides=["stream.n=300"])


@pytest.fixture(scope="module")
def second(out, first):
    cell = {**CELL, "stream": {"key": "noisy", "n": 300}}
    return olbench.run_experiment(**cell, output_dir=out, **{"learner.C": 0.1})


def test_run_experiment_returns_table_summary_figures_latex_and_folder(first):
    assert first.status == 0
    table = first.table
    assert table["run_id"].nunique() == 2 and set(table["status"]) == {"ok"}
    assert set(table["learner"]) == {"PA[C=1.0,variant=pa1]"} and set(table["stream_n"]) == {300}
    final = table[table["t"].eq(300)].drop_duplicates("run_id")
    assert first.summary["mistake_rate_mean"].iloc[0] == pytest.approx(
        final["mistake_rate"].mean())
    assert first.latex == latex_table(summary_table(table))
    assert first.latex.splitlines()[5].startswith("PA-I (C=1) & $")
    assert first.figures == []          # figures=False (the CLI tests draw them)
    assert first.folder.parent.name == "single" and first.report.exists()
    assert "PA-I (C=1)" in first.summary_text and "updates" in first.summary_text


def test_a_single_cells_report_describes_the_cell_that_ran(first):
    text = first.report.read_text(encoding="utf-8")
    assert "## Question" not in text                     # not the showcase's question
    config = text.split("## Configuration")[1].split("## Summary")[0]
    assert "olbench.streams.Noisy" in config and "'n': 300" in config
    assert "olbench.learners.pa.PA" in config and "seeds:\n- 0\n- 1" in config
    assert "Separable" not in text and "OGD" not in text and "AROW" not in text


def test_the_index_has_one_row_per_folder_and_latest_points_at_the_newest(out, first, second):
    rows = index.read_index(out)
    assert list(rows["folder"]) == [f"single/{first.folder.name}", f"single/{second.folder.name}"]
    row = rows.iloc[1]
    assert row["grid"] == "1 stream x 1 learner x 2 seeds = 2 runs (2 ok)"
    assert (row["learners"], row["streams"]) == ("PA-I (C=0.1)", "Noisy (n=300, gamma=0.1)")
    assert row["command"] == second.command and "learner.C=0.1" in row["command"]
    assert index.latest("single", out) == second.folder.resolve()
    assert os.path.islink(out / "latest" / "single")
    # a re-run resumes into the same folder: its row is updated, not duplicated
    again = olbench.run_experiment(**CELL, output_dir=out, overrides=["stream.n=300"])
    assert again.folder == first.folder
    rows2 = index.read_index(out)
    assert len(rows2) == 2 and rows2.iloc[1]["folder"] == f"single/{first.folder.name}"
    assert rows2.iloc[1]["created"] == rows.iloc[0]["created"]
    assert index.latest("single", out) == first.folder.resolve()
    assert olbench.load_results("single", out).folder == first.folder.resolve()


def test_concurrent_records_lose_no_row(tmp_path, first):
    folders = [tmp_path / "exp" / f"f{i}" for i in range(8)]
    threads = [threading.Thread(target=index.record, args=(f,),
                                kwargs=dict(experiment="exp", table=first.table, command="c"))
               for f in folders]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(index.read_index(tmp_path)["name"]) == [f"f{i}" for i in range(8)]
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_compare_two_folders_in_one_table_and_one_figure(out, first, second, tmp_path):
    result = olbench.compare(first.folder, second.folder, output_dir=out, out_dir=tmp_path)
    a, b = (f"single/{r.folder.name}" for r in (first, second))
    assert list(dict.fromkeys(result.table["source"])) == [a, b]
    assert len(result.table) == 2
    header, _, *lines = result.text.splitlines()
    assert f"mistake_rate [{a}]" in header and f"mistake_rate [{b}]" in header
    assert [line.split("  ")[1].strip() for line in lines] == ["PA-I (C=0.1)", "PA-I (C=1)"]
    assert result.figure == tmp_path / "compare.png" and result.figure.stat().st_size > 0
    assert callable(olbench.compare)     # still the function once its module is loaded
    csv = pd.read_csv(tmp_path / "compare.csv")
    assert csv["mistake_rate_mean"].tolist() == pytest.approx(
        result.table["mistake_rate_mean"].tolist())


def test_unknown_parameters_raise_before_anything_runs(tmp_path):
    with pytest.raises(ValueError, match="learner pa has no parameter 'Cc'"):
        olbench.run_experiment(learner="pa", output_dir=tmp_path, overrides=["learner.Cc=2"])
    assert not any(tmp_path.iterdir())
