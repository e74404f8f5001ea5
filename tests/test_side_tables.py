"""The runs' side tables (olbench/harness/outputs.py, olbench/harness/side.py): each run writes
what figures need of it besides its rows (final weights, points, switch rounds, fits, its
boundary's separation of the inliers) into a checksummed side file, before its rows file;
the merge puts them in ``side/<table>.parquet`` of the results folder with the grid's order;
a run file whose side file is missing or damaged is recomputed; and a study's own files are
imported once, by the path its config names (olbench/harness/studies.py)."""

from __future__ import annotations

import naive
import numpy as np
import pandas as pd
import pytest
from hydra.utils import instantiate
from in_memory import run_tasks

from olbench import schema as col
from olbench.harness import side as side_files
from olbench.harness.grid import run_grid
from olbench.harness.outputs import FinishedRun, run_outputs
from olbench.harness.results import RunStore
from olbench.harness.side import read_side
from olbench.harness.tasks import expand

#: a 2-D stream with a bias column (points and boundaries) and a drifting one (switches)
GRID = {"blocks": [
    {"streams": [{"key": "separable", "params": {"n": 60, "d": 2, "bias": True}}],
     "learners": ["perceptron"]},
    {"streams": [{"key": "drift", "params": {"n": 80, "d": 3, "mode": "switch",
                                             "switch_at": [30, 50]}}],
     "learners": ["perceptron"]}]}


def _grid(folder, seeds=(0, 1)):
    tasks = expand(GRID, seeds=list(seeds), checkpoints=3)
    table = run_grid(tasks, folder, n_jobs=1, backend="sequential", progress=False)
    assert (table[col.STATUS] == col.OK).all()
    return table, tasks


def _rows_of(frame: pd.DataFrame, run_id: str) -> pd.DataFrame:
    return frame[frame[col.RUN_ID].eq(run_id)]


def test_each_run_writes_its_outputs_beside_the_table(tmp_path):
    table, tasks = _grid(tmp_path)
    assert "final_w" not in table            # no longer a JSON column on every row
    side = read_side(tmp_path)
    assert set(side) == {"final_weights", "points", "switches", "grid"}
    for task in tasks:
        stream = instantiate(task.stream)
        X, y = stream.materialize()
        *_, state = naive.TWINS["perceptron"](X, y)   # the plain-numpy Perceptron
        weights = _rows_of(side["final_weights"], task.run_id)["w"].to_numpy()
        np.testing.assert_allclose(weights, state["w"], rtol=1e-12, atol=1e-12)
        points = _rows_of(side["points"], task.run_id)
        switches = _rows_of(side["switches"], task.run_id)["t"].tolist()
        if task.stream["_target_"].endswith("Separable"):
            np.testing.assert_array_equal(points[["x1", "x2"]].to_numpy(), X[:, :2])
            np.testing.assert_array_equal(points["y"].to_numpy(), y)
            assert switches == []
        else:   # d = 3 features, no bias column: no 2-D picture
            assert points.empty and switches == [30, 50]
    grid = side["grid"]
    assert grid[col.RUN_ID].tolist() == [t.run_id for t in tasks]
    assert grid["position"].tolist() == [0, 1, 2, 3]
    assert grid["stream_number"].tolist() == [0, 0, 1, 1]   # per seed, in the grid's order
    files = sorted(p.name for p in (tmp_path / "runs").glob("*.parquet"))
    assert files == sorted(p.name for p in (tmp_path / "runs" / "side").glob("*.parquet"))


def test_the_side_tables_of_runs_in_memory_are_the_folders(tmp_path):
    _, tasks = _grid(tmp_path)
    _, in_memory = run_tasks(tasks)
    stored = read_side(tmp_path)
    assert set(in_memory) == set(stored)
    for name in stored:
        pd.testing.assert_frame_equal(in_memory[name].reset_index(drop=True),
                                      stored[name].reset_index(drop=True))


@pytest.mark.parametrize("damage", ["missing", "flipped"])
def test_a_run_file_without_its_side_file_is_recomputed(tmp_path, capsys, damage):
    _, tasks = _grid(tmp_path)
    before = read_side(tmp_path)["final_weights"]
    victim = next((tmp_path / "runs" / "side").glob("*.parquet"))
    if damage == "missing":
        victim.unlink()
    else:
        data = bytearray(victim.read_bytes())
        data[len(data) // 2] ^= 0xFF
        victim.write_bytes(bytes(data))
    assert RunStore(tmp_path).finished() < {t.run_id for t in tasks}   # not trusted
    capsys.readouterr()
    _grid(tmp_path)
    err = capsys.readouterr().err
    said = "no side file" if damage == "missing" else "no longer match"
    assert said in err and victim.name in err and "recomputed" in err
    assert RunStore(tmp_path).finished() == {t.run_id for t in tasks}
    pd.testing.assert_frame_equal(read_side(tmp_path)["final_weights"], before)


def test_the_outputs_are_written_before_the_rows(tmp_path, monkeypatch):
    """A side file that cannot be written leaves no run file: the run is not finished (its
    outputs can never be missing from a run that is)."""
    def full_disk(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(side_files, "write_batch", full_disk)
    store = RunStore(tmp_path)
    with pytest.raises(OSError, match="No space"):
        store.save("abc", pd.DataFrame({col.RUN_ID: ["abc"], col.STATUS: [col.OK]}))
    assert store.finished() == set() and not list(tmp_path.glob("runs/*.parquet"))


# --------------------------------------------------------------------------- the outputs
def _outputs(stream, w) -> dict[str, pd.DataFrame]:
    return run_outputs(FinishedRun(stream, stream.meta, {"w": np.asarray(w, dtype=float)}))


def test_the_separation_is_of_the_points_that_are_not_outliers():
    from olbench.streams import SugiyamaOutliers

    stream = SugiyamaOutliers(n=50, n_outliers=2, seed=3)
    X, y = stream.materialize()
    moved = stream.meta.extra["outliers"]
    # the line x1 = -10 splits the clusters at x1 = -15 and -5; the two points moved by +10
    # (class +1, from -15 to about -5) fall on the wrong side of it
    w = np.array([-1.0, 0.0, -10.0])
    assert np.all(y[~moved] * (X[~moved] @ w) > 0) and not np.all(y * (X @ w) > 0)
    assert _outputs(stream, w)["separation"]["separates_inliers"].tolist() == [True]
    assert _outputs(stream, -w)["separation"]["separates_inliers"].tolist() == [False]


def test_the_kernel_curve_is_the_kernel_model_over_the_inputs_range():
    from olbench.streams import KernelMap, Passes, Sinc

    inner = Sinc(n=20, low=-3.0, high=3.0, design="grid", features="raw", bias=False)
    stream = Passes(stream=KernelMap(stream=inner, hh=0.18), passes=3)
    w = np.random.default_rng(0).normal(size=20)
    out = _outputs(stream, w)
    x = np.linspace(-3, 3, 20)
    grid = np.linspace(-3, 3, 1000)
    expected = np.exp(-(grid[:, None] - x[None, :]) ** 2 / 0.18) @ w
    np.testing.assert_allclose(out["kernel_curve"]["x"], grid, rtol=1e-14)
    np.testing.assert_allclose(out["kernel_curve"]["prediction"], expected, rtol=1e-10,
                               atol=1e-12)
    np.testing.assert_allclose(out["kernel_data"]["x"], x, rtol=1e-14)
    assert "fit" not in out            # 60 rounds over 20 inputs: no prediction per round


# --------------------------------------------------------------------------- study files
def test_a_study_file_is_imported_once_and_registers_its_figure(tmp_path):
    from olbench.analysis.figures import FIGURES, build_figures
    from olbench.harness.studies import module_problems, study_module

    path = tmp_path / "study_figure.py"
    path.write_text("from olbench.analysis.figures import figure\n"
                    "@figure('study_only_test_figure', order=999, caption='c')\n"
                    "def draw(table):\n    return None\n")
    try:
        assert module_problems([str(path)]) == []
        assert study_module(path) is study_module(str(path))     # not registered twice
        assert "study_only_test_figure" in FIGURES
        assert build_figures(pd.DataFrame(), only=["study_only_test_figure"]) == {}
    finally:
        FIGURES.pop("study_only_test_figure", None)
    broken = tmp_path / "broken.py"
    broken.write_text("1 / 0\n")
    (problem,) = module_problems([str(broken)])
    assert problem.startswith(f"modules: {broken}: ZeroDivisionError")


def test_every_study_file_the_configs_name_is_there_and_imports():
    from olbench.harness.studies import experiment_modules, module_problems

    assert experiment_modules() == ["experiments/bound_atlas/atlas.py",
                                    "experiments/libol_table/selection.py",
                                    "experiments/libol_multiclass/families.py",
                                    "experiments/libol_multiclass/figures.py",
                                    "experiments/libol_table/published.py",
                                    "experiments/libol_table/exact_points.py",
                                    "experiments/online_pca/figures.py",
                                    "experiments/online_pca/table.py",
                                    "experiments/pa_vs_arow_outliers/outlier_heatmap.py",
                                    "experiments/textbook_sugiyama/textbook.py"]
    assert module_problems(experiment_modules()) == []


def test_the_study_files_examples_hold():
    """Their doctests, which the package's test command does not collect (it reads tests/ and
    olbench/)."""
    import doctest

    from olbench.harness.studies import experiment_modules, study_module

    for path in experiment_modules():
        failed, tried = doctest.testmod(study_module(path), optionflags=doctest.ELLIPSIS)
        assert failed == 0, path
