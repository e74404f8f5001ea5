"""The online_pca study: the subspace a PCA learner plays, kept at every checkpoint
(Trace.snapshots), its distance to the batch SVD's (side output ``subspace_error``), the
study's table (experiments/online_pca/table.py), and what the study config asks for."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from olbench import make_learner, run
from olbench.harness.outputs import FinishedRun, run_outputs
from olbench.harness.studies import study_module
from olbench.streams import make_stream

table_module = study_module("experiments/online_pca/table.py")
ROOT = Path(__file__).resolve().parents[1]


def _sin_theta(U, V):
    """||sin Theta||_2 between the row spaces of orthonormal U and V, from the principal
    angles (the smallest singular value of U V' is cos of the largest)."""
    cosines = np.linalg.svd(U @ V.T, compute_uv=False)
    return float(np.sqrt(max(0.0, 1.0 - cosines.min() ** 2)))


@pytest.mark.parametrize("key,params", [("oja", {"eta": 0.5}), ("brand_svd", {"max_rank": 2}),
                                        ("pca_meg", {"eta": 0.05}), ("pca_ftl", {})])
def test_each_checkpoint_keeps_the_subspace_played_and_its_distance_to_the_batch_svd(key,
                                                                                      params):
    stream = make_stream("low_rank", n=400, d=6, spectrum=[2.0, 1.5, 1.0], noise=0.1, seed=3)
    X, y = stream.materialize()
    checkpoints = [5, 40, 400]
    trace = run(make_learner(key, k=2, **params), X, checkpoints=checkpoints)
    assert [t for t, _ in trace.snapshots] == checkpoints
    for t, basis in trace.snapshots:              # what a run over the first t rows ends with
        alone = make_learner(key, k=2, **params)
        run(alone, X[:t])
        np.testing.assert_array_equal(basis, alone.basis())
    errors = run_outputs(FinishedRun(stream, stream.meta, trace.state, (X, y),
                                     trace.snapshots))["subspace_error"]
    assert errors["t"].tolist() == checkpoints
    for (t, basis), sin_theta, gap in zip(trace.snapshots, errors["sin_theta"],
                                          errors["relative_gap"]):
        values, vectors = np.linalg.eigh(X[:t].T @ X[:t])
        assert sin_theta == pytest.approx(_sin_theta(basis, vectors[:, -2:].T), abs=1e-7)
        assert gap == pytest.approx((values[-2] - values[-3]) / values[-2], rel=1e-12)
    if key == "pca_ftl":                          # FTL plays the batch SVD's subspace
        assert errors["sin_theta"].max() < 1e-10


def test_only_online_pca_runs_keep_snapshots():
    X = np.random.default_rng(0).standard_normal((50, 3))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    trace = run(make_learner("perceptron"), X, y, checkpoints=[10, 50])
    assert trace.snapshots == ()
    stream = make_stream("separable", n=50, d=3)
    assert "subspace_error" not in run_outputs(FinishedRun(stream, stream.meta, trace.state,
                                                           (X, y), trace.snapshots))


def test_the_study_table_is_the_runs_regret_slope_bound_and_cost(tmp_path):
    from olbench.analysis.study_sections import SectionInputs
    from olbench.harness.grid import run_grid
    from olbench.harness.tasks import expand

    grid = {"streams": [{"key": "low_rank", "params": {"n": 600, "d": 6,
                                                       "spectrum": [2.0, 1.0]}}],
            "learners": [{"key": "pca_ftl", "params": {"k": 2}},
                         {"key": "pca_meg", "params": {"k": 2, "eta": 0.05}}],
            "comparators": [{"key": "best_subspace", "params": {"k": None}},
                            {"key": "prefix_best_subspace", "params": {"k": None}}]}
    table = run_grid(expand(grid, seeds=(0, 1, 2), checkpoints=8), tmp_path, n_jobs=1,
                     backend="sequential", progress=False)
    lines = table_module.online_pca_table(SectionInputs(summary=None, folder=tmp_path))
    frame = pd.read_csv(tmp_path / "online_pca.csv")
    assert list(frame["learner"]) == ["FTLPCA (k=2)", "PCAMEG (k=2, eta=0.05)"]
    final = table[table["comparator"].str.startswith("BestSubspace[")
                  & table["t"].eq(600)].drop_duplicates("run_id")
    for learner, key in zip(frame.itertuples(), ["pca_ftl", "pca_meg"]):
        runs = final[final["learner_key"].eq(key)]
        assert learner.runs == 3
        assert learner.regret == pytest.approx(runs["regret"].mean(), rel=1e-12)
        assert learner.regret_lo < learner.regret < learner.regret_hi
        assert learner.us_per_row == pytest.approx(
            (runs["time_s"] / 600).median() * 1e6, rel=1e-9)
    assert np.isnan(frame["bound_ratio"][0]) and frame["bound"][1] == "pca_meg_regret"
    assert 0 < frame["bound_ratio"][1] <= 1
    assert frame["sin_theta"][0] < 1e-10 and 0.9 < frame["relative_gap"][0] <= 1
    assert any("PCAMEG" in line for line in lines)


def test_slope_is_the_loglog_fit_over_the_second_half():
    t = np.array([1.0, 10, 100, 1000, 10000])
    assert table_module.slope(t, 3.0 * t ** 0.5) == pytest.approx(0.5, abs=1e-12)
    assert np.isnan(table_module.slope(t, np.array([1.0, 2, 3, -1, 5])))


def test_the_study_config_asks_for_its_section_and_figure():
    """What `olbench experiment=online_pca` checks before it runs: its modules import, its
    section is registered, every figure it names exists (the canonical run is regenerated by
    hand: experiments/online_pca/README.md)."""
    from hydra import compose, initialize_config_dir

    from olbench.analysis.figures.registry import FIGURES
    from olbench.analysis.study_sections import section_problems
    from olbench.harness.studies import module_problems

    with initialize_config_dir(config_dir=str(ROOT / "conf"), version_base=None):
        cfg = compose(config_name="config", overrides=["experiment=online_pca"])
    assert module_problems(list(cfg.modules)) == []
    assert section_problems(cfg) == [] and "online_pca_table" in cfg.sections
    assert "subspace_error" in cfg.run.figures and set(cfg.run.figures) <= set(FIGURES)
