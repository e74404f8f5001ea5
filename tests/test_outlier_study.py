"""The PA-vs-AROW outlier study: the paired test against scipy, the Outliers stream's study
parameters (label noise, offset, standardising, bias value) and clean labels, the clean-label
mistake rate against a hand count, the experiment's grid, and its heatmap on a small grid."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from olbench import schema as col
from olbench.harness.studies import study_module
from olbench.streams import Outliers, Separable

#: the study's own figure module (experiments/pa_vs_arow_outliers/), as its config names it
HEATMAP_FILE = "experiments/pa_vs_arow_outliers/outlier_heatmap.py"
heatmap_cells = study_module(HEATMAP_FILE).heatmap_cells

# --------------------------------------------------------------------------- the statistics


def test_paired_test_is_scipys_wilcoxon_on_the_differences():
    from olbench.analysis.stats import paired_test

    rng = np.random.default_rng(3)
    a = rng.random(20)
    b = a - 0.05 + 0.1 * rng.random(20)
    test = paired_test(a, b)
    assert test.k == 20
    assert test.p_value == sps.wilcoxon(a, b).pvalue
    assert test.mean_diff == pytest.approx(np.mean(a - b), abs=1e-15)
    low, high = sps.t.interval(0.95, 19, loc=np.mean(a - b), scale=sps.sem(a - b))
    assert (test.low, test.high) == pytest.approx((low, high), abs=1e-12)


def test_paired_test_exact_p_values_by_counting_sign_patterns():
    from olbench.analysis.stats import paired_test

    # all 8 differences positive and distinct: of the 2^8 equally likely sign patterns
    # under H0, only all-plus and all-minus are as extreme: p = 2 / 256
    assert paired_test(np.arange(1.0, 9.0) + 10, np.full(8, 10.0)).p_value == 2 / 256
    # ranks 1..4, the smallest negative: W+ = 9, W- = 1; patterns with W- <= 1: {}, {1};
    # two-sided p = 2 * 2 / 16
    assert paired_test([-1.0, 2.0, 3.0, 4.0], [0.0] * 4).p_value == pytest.approx(0.25)
    assert paired_test([0.2, 0.3], [0.2, 0.3]).p_value == 1.0      # nothing to test
    with pytest.raises(ValueError, match="same positive length"):
        paired_test([1.0, 2.0], [1.0])


def test_holm_by_hand():
    from olbench.analysis.stats import holm

    # sorted 0.01, 0.02, 0.04, 0.30 times 4, 3, 2, 1 = 0.04, 0.06, 0.08, 0.30 (monotone already)
    assert holm([0.04, 0.30, 0.01, 0.02]).tolist() == pytest.approx([0.08, 0.30, 0.04, 0.06])
    # step-down: 0.02 * 2 = 0.04, then 0.03 * 1 = 0.03 is raised to 0.04 (monotone)
    assert holm([0.03, 0.02]).tolist() == pytest.approx([0.04, 0.04])
    assert holm([0.5, 0.9]).max() == 1.0


def test_paired_cells_pairs_by_seed_per_cell():
    from olbench.analysis.stats import paired_cells

    rows = []
    for seed in range(6):
        for flip in (0.0, 0.1):
            stream = f"Outliers[d=5,flip_rate={flip}]"
            rows += [{"stream_label": stream, "learner_label": "A", col.SEED: seed,
                      "rate": 0.1 + 0.01 * seed + flip},
                     {"stream_label": stream, "learner_label": "B", col.SEED: seed,
                      "rate": 0.1 + 0.01 * seed + flip + (0.05 if flip else 0.0)}]
    cells = paired_cells(pd.DataFrame(rows), "rate", "A", "B", ["flip_rate"])
    assert cells["flip_rate"].tolist() == [0.0, 0.1]
    assert cells["diff"].tolist() == pytest.approx([0.0, -0.05])
    assert cells["p_value"].tolist() == pytest.approx([1.0, 2 / 64])   # 6 of one sign
    assert cells["k"].tolist() == [6, 6]
    assert cells["a_mean"].iloc[1] == pytest.approx(0.125 + 0.1)
    with pytest.raises(ValueError, match="not stream parameters"):
        paired_cells(pd.DataFrame(rows), "rate", "A", "B", ["offset"])
    with pytest.raises(ValueError, match="outside"):
        paired_cells(pd.DataFrame(rows), "rate", "A", "B", ["d"])   # flip_rate differs


# --------------------------------------------------------------------------- the stream
KW = dict(n=300, d=4, gamma=0.1, outlier_fraction=0.05, shift=2.0, seed=7)


def test_study_parameters_off_keep_the_outliers_stream_as_it_was():
    base = Outliers(**KW)
    X, y = base.materialize()
    clean_X, clean_y = Separable(n=300, d=4, gamma=0.1, seed=7).materialize()
    mask = base.meta.extra["outliers"]
    np.testing.assert_array_equal(y, clean_y)                # no label is flipped
    np.testing.assert_array_equal(X[~mask], clean_X[~mask])  # only outliers move
    np.testing.assert_allclose(X[mask] - clean_X[mask],
                               -2.0 * clean_y[mask, None] * base.meta.u, atol=1e-15)


def test_label_noise_flips_labels_only_and_clean_labels_follow_the_rule():
    base, noisy = Outliers(**KW), Outliers(**KW, flip_rate=0.2)
    (X0, y0), (X1, y1) = base.materialize(), noisy.materialize()
    flipped = noisy.meta.flipped
    np.testing.assert_array_equal(X0, X1)
    np.testing.assert_array_equal(y1, np.where(flipped, -y0, y0))
    assert 0.1 < flipped.mean() < 0.3
    outliers = noisy.meta.extra["outliers"]
    # by hand: an inlier's clean label is its label before flipping; an outlier (moved by 2
    # radii against its label) sits on the other side of the boundary
    expected = np.where(outliers, -y0, y0)
    np.testing.assert_array_equal(noisy.meta.clean_y, expected)
    np.testing.assert_array_equal(base.meta.clean_y, expected)


def test_offset_standardize_and_bias_value():
    u = Outliers(**KW).meta.u
    X0 = Outliers(**KW).materialize()[0]
    shifted = Outliers(**KW, offset=10.0, bias=True, bias_value=10.0)
    X = shifted.materialize()[0]
    np.testing.assert_allclose(X[:, :-1] - X0, np.tile(10.0 * u, (300, 1)), atol=1e-12)
    assert (X[:, -1] == 10.0).all()
    assert shifted.meta.u is None and shifted.meta.margin is None      # the rule is affine
    np.testing.assert_array_equal(shifted.meta.clean_y, Outliers(**KW).meta.clean_y)
    Z = Outliers(**KW, offset=10.0, standardize=True).materialize()[0]
    np.testing.assert_allclose(Z, (X[:, :-1] - X[:, :-1].mean(0)) / X[:, :-1].std(0), atol=1e-12)
    with pytest.raises(ValueError, match="bias_value"):
        Outliers(**KW, bias=True, bias_value=0.0)
    with pytest.raises(ValueError, match="flip_rate"):
        Outliers(**KW, flip_rate=0.5)


def test_clean_mistake_rate_against_a_hand_count():
    import olbench
    from olbench.metrics import metrics_table

    stream = Outliers(n=60, d=2, gamma=0.1, outlier_fraction=0.1, shift=2.0, flip_rate=0.2,
                      seed=1)
    X, y = stream.materialize()
    trace = olbench.run(olbench.make_learner("perceptron"), X, y, checkpoints=[30, 60])
    row = metrics_table(trace, meta=stream.meta, checkpoints=[30, 60]).iloc[-1]
    clean = np.where(stream.meta.extra["outliers"], -1.0, 1.0) * \
        np.where(stream.meta.flipped, -y, y)
    count = sum(1 for t in range(60) if clean[t] * trace.margins[t] <= 0)
    observed = sum(1 for t in range(60) if y[t] * trace.margins[t] <= 0)
    assert row[col.CLEAN_MISTAKES] == count and row[col.MISTAKES] == observed
    assert row[col.CLEAN_MISTAKE_RATE] == count / 60
    assert count != observed           # the two rates measure different things here


# --------------------------------------------------------------------------- the experiment
def test_the_experiment_composes_into_the_full_design():
    from hydra import compose, initialize_config_dir

    from olbench.analysis.stats import stream_factors
    from olbench.harness.tasks import CONF_DIR, component_specs
    from olbench.harness.validate import config_problems

    with initialize_config_dir(config_dir=str(CONF_DIR), version_base=None):
        cfg = compose("config", overrides=["experiment=pa_vs_arow_outliers"])
    assert config_problems(cfg) == [] and cfg.name == "pa_vs_arow_outliers"
    learners = component_specs("learner", cfg.grid.learners)
    streams = [s for s in component_specs("stream", cfg.grid.streams)
               if s["_target_"].endswith(".Outliers")]
    assert len(set(cfg.grid.seeds)) >= 20 and len(learners) == 10
    assert {s["_target_"].rsplit(".", 1)[1] for s in learners} == {
        "PA", "AROW", "SCW", "SCW2", "CW", "NAROW", "NHERD"}
    factors = pd.DataFrame(streams).drop_duplicates(
        ["outlier_fraction", "flip_rate", "d", "standardize", "bias_value"])
    assert sorted(factors["outlier_fraction"].unique()) == [0.0, 0.01, 0.02, 0.05, 0.1]
    assert sorted(factors["flip_rate"].unique()) == [0.0, 0.05, 0.1, 0.2, 0.3]
    assert factors["d"].nunique() >= 2 and set(factors["standardize"]) == {False, True}
    # the bias column's scale: the textbook's 1 and the raw features' norm (offset 10)
    assert set(factors["bias_value"]) == {1.0, factors["offset"].iloc[0]} == {1.0, 10.0}
    assert factors["bias"].all()
    assert len(factors) == 5 * 5 * factors["d"].nunique() * 2 * 2      # a full cross
    assert list(cfg.run.figures) == ["outlier_heatmap", "boundaries", "textbook"]
    assert list(cfg.modules) == [HEATMAP_FILE, "experiments/textbook_sugiyama/textbook.py"]
    assert stream_factors(["Outliers[d=5]"]).loc["Outliers[d=5]", "d"] == 5


def test_unknown_figure_names_are_refused():
    from omegaconf import OmegaConf

    from olbench.analysis.figures import figure_problems
    from olbench.harness.validate import config_problems

    cfg = OmegaConf.create({"modules": [HEATMAP_FILE],
                            "run": {"figures": ["outlier_heatmap", "heatmapp"]}})
    (problem,) = figure_problems(cfg)   # the study's own figure is known once its file is named
    assert "unknown figures ['heatmapp']" in problem and "outlier_heatmap" in problem
    assert config_problems(cfg) == []   # the shape is right; the names are the figures' check
    assert figure_problems(OmegaConf.create({"run": {"figures": ["boundaries"]}})) == []
    (missing,) = figure_problems(OmegaConf.create({"modules": ["experiments/nothing.py"]}))
    assert missing.startswith("modules: no file experiments/nothing.py")


def test_a_small_grid_draws_the_heatmap_from_the_table(tmp_path):
    from olbench.analysis.figures import build_figures
    from olbench.analysis.views import final_rows
    from olbench.harness.grid import run_grid
    from olbench.harness.tasks import expand

    grid = {"streams": [{"key": "outliers", "params": {"n": 80, "d": 3, "shift": 2.0,
                                                       "offset": 3.0, "bias": True},
                         "sweep": {"outlier_fraction": [0.0, 0.1], "flip_rate": [0.0, 0.2]}}],
            "learners": [{"key": "pa", "params": {"variant": "pa1"}}, "arow"]}
    tasks = expand(grid, seeds=range(6), checkpoints=3)
    table = run_grid(tasks, tmp_path / "out", n_jobs=1, backend="sequential", progress=False)
    drawn = build_figures(table, only=["outlier_heatmap"])
    assert list(drawn) == ["outlier_heatmap"]
    cells, metric, varying = heatmap_cells(table)
    assert metric == col.CLEAN_MISTAKE_RATE and varying == [] and len(cells) == 4
    panel = drawn["outlier_heatmap"].axes[0]        # 1 PA variant x 1 setting: one heatmap
    texts = sorted(t.get_text() for t in panel.texts)
    assert texts == sorted(f"{d * 100:+.1f}" + "*" * (p < 0.05)
                           for d, p in zip(cells["diff"], cells["p_holm"]))
    fin = final_rows(table)
    for cell in cells.itertuples():
        sub = fin[fin["stream_name"].str.contains(f"outlier_fraction={cell.outlier_fraction},")
                  & fin["stream_name"].str.contains(f"flip_rate={cell.flip_rate},")]
        arow = sub[sub["learner_name"].str.startswith("AROW")].sort_values(col.SEED)
        pa = sub[sub["learner_name"].str.startswith("PA")].sort_values(col.SEED)
        diff = arow[metric].to_numpy() - pa[metric].to_numpy()
        assert cell.diff == pytest.approx(diff.mean(), abs=1e-12)
        expected_p = sps.wilcoxon(diff).pvalue if diff.any() else 1.0
        assert cell.p_value == pytest.approx(expected_p, abs=1e-12)


def test_the_bias_column_is_a_factor_of_the_heatmap_and_of_the_gap_change(tmp_path):
    from olbench.analysis.figures import build_figures
    from olbench.analysis.stats import gap_change
    from olbench.analysis.views import final_rows
    from olbench.harness.grid import run_grid
    from olbench.harness.tasks import expand

    grid = {"streams": [{"key": "outliers", "params": {"n": 60, "d": 3, "shift": 2.0,
                                                       "offset": 3.0, "bias": True,
                                                       "flip_rate": 0.1},
                         "sweep": {"bias_value": [1.0, 3.0], "outlier_fraction": [0.0, 0.1]}}],
            "learners": [{"key": "pa", "params": {"variant": "pa1"}}, "arow"]}
    tasks = expand(grid, seeds=range(6), checkpoints=2)
    table = run_grid(tasks, tmp_path / "out", n_jobs=1, backend="sequential", progress=False)
    cells, metric, varying = heatmap_cells(table)
    assert varying == ["bias_value"] and sorted(set(cells["bias_value"])) == [1.0, 3.0]
    assert len(cells) == 4
    figure = build_figures(table, only=["outlier_heatmap"])["outlier_heatmap"]
    titles = [ax.get_title() for ax in figure.axes if ax.get_title().startswith("bias")]
    assert titles == ["bias_value=1.0", "bias_value=3.0"]     # a heatmap per bias value

    fin = final_rows(table)
    fin = fin.assign(stream_label=fin["stream_name"], learner_label=fin["learner_name"])
    arow, pa = (next(n for n in fin["learner_name"].unique() if n.startswith(p))
                for p in ("AROW", "PA"))
    changes = gap_change(fin, metric, arow, pa, ["outlier_fraction"], "bias_value", 1.0, 3.0)
    assert changes["outlier_fraction"].tolist() == [0.0, 0.1]
    for row in changes.itertuples():
        def gaps(bias, fraction=row.outlier_fraction):
            sub = fin[fin["stream_name"].str.contains(f"outlier_fraction={fraction},")
                      & fin["stream_name"].str.contains(f"bias_value={bias}]")]
            by_seed = sub.pivot_table(index=col.SEED, columns="learner_name", values=metric)
            return (by_seed[arow] - by_seed[pa]).to_numpy()
        change = gaps(3.0) - gaps(1.0)                 # paired: the same seed, the same points
        assert row.k == 6 and row.gap_base == pytest.approx(gaps(1.0).mean(), abs=1e-12)
        assert row.change == pytest.approx(change.mean(), abs=1e-12)
        expected_p = sps.wilcoxon(change).pvalue if change.any() else 1.0
        assert row.p_value == pytest.approx(expected_p, abs=1e-12)
