"""The rule the figure lint (olbench/analysis/figures/lint.py) enforces: every registered figure
kind, and compare.png, drawn from the tables of small real grids run here, passes it, every
page of it (the lint's own checks: tests/test_figure_lint_checks.py). A new figure kind
without a table here fails the coverage test; the studies' own figures (the files the
experiments' configs name in ``modules:``) are registered here, so they are held to it too.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from olbench.analysis import figures
from olbench.analysis.figures.lint import lint
from olbench.harness.studies import experiment_modules, study_module

#: every study's own figures registered beside the package's, so the lint sees them all
STUDIES = {path: study_module(path) for path in experiment_modules()}
HEATMAP = STUDIES["experiments/pa_vs_arow_outliers/outlier_heatmap.py"]


# --------------------------------------------------------------------------- real tables
def _run(grid: dict, seeds, tmp: Path, checkpoints=8, spacing: str = "log") -> tuple:
    from olbench.harness.grid import run_grid
    from olbench.harness.side import read_side
    from olbench.harness.tasks import expand

    tasks = expand(grid, seeds=seeds, checkpoints=checkpoints, spacing=spacing)
    table = run_grid(tasks, tmp, n_jobs=1, backend="sequential", progress=False)
    assert (table["status"] == "ok").all(), table.loc[table["status"] != "ok", "status"].iloc[0]
    return table, dict(read_side(tmp))


MIXED = {"blocks": [
    # classification: margins swept (sweep_gamma), 2-D (boundaries), Novikoff's bound
    {"streams": [{"key": "separable", "params": {"n": 300, "d": 2},
                  "sweep": {"gamma": [0.1, 0.2]}},
                 {"key": "noisy", "params": {"n": 300, "d": 2, "flip_rate": 0.1}}],
     "learners": ["perceptron", {"key": "pa", "params": {"variant": "pa1"}}, "arow",
                  {"key": "ogd", "params": {"loss": "hinge", "radius": 1.0}}],
     "comparators": ["max_margin", {"key": "best_fixed", "params": {"loss": "hinge"}}]},
    # regression among them (no mistakes: no empty panel for it) and an OCO block of other
    # horizons (each regret panel's axis follows its own stream)
    {"streams": [{"key": "linear_regression", "params": {"n": 200, "d": 3}}],
     "learners": [{"key": "ogd", "params": {"loss": "squared", "radius": 1.0, "eta": 0.1}}],
     "comparators": [{"key": "prefix_best", "params": {"loss": "squared", "radius": 1.0}}]},
    {"streams": [{"key": "alternating", "params": {"n": 2000}}],
     "learners": [{"key": "ftl", "params": {"domain": "box"}},
                  {"key": "ftrl", "params": {"domain": "box", "schedule": "sqrt"}}],
     "comparators": [{"key": "best_point",
                      "params": {"loss": "linear", "domain": "box", "radius": 1.0}}]},
    {"streams": [{"key": "experts", "params": {"n": 3000}, "sweep": {"N": [2, 10]}}],
     "learners": [{"key": "hedge", "params": {"schedule": "anytime"}},
                  {"key": "hedge", "params": {"schedule": "horizon", "horizon": 3000}}],
     "comparators": [{"key": "best_point", "params": {"loss": "linear", "domain": "simplex"}}]},
]}

DRIFT = {"streams": [{"key": "drift", "params": {"n": 400, "d": 3, "mode": "switch",
                                                  "switch_at": [200]}}],
         "learners": ["perceptron", {"key": "pa", "params": {"variant": "pa1"}}],
         "comparators": [{"key": "prefix_best", "params": {"loss": "hinge"}},
                         {"key": "best_shifting", "params": {"loss": "hinge"}}]}

REGRESSION = {"streams": [{"key": "sinc", "params": {"n": 60}}],
              "learners": ["pa_regression", {"key": "pa_regression", "params": {"C": 0.1}}]}

OUTLIERS = {"streams": [{"key": "outliers",
                         "params": {"n": 80, "d": 3, "shift": 2.0, "offset": 3.0, "bias": True},
                         "sweep": {"bias_value": [1.0, 3.0], "outlier_fraction": [0.0, 0.1],
                                   "flip_rate": [0.0, 0.2]}}],
            "learners": [{"key": "pa", "sweep": {"variant": ["pa", "pa1"]}}, "arow"]}

#: LIBOL's sixteen binary learners (conf/experiment/libol_table.yaml), on one small stream
SIXTEEN = {"streams": [{"key": "noisy", "params": {"n": 150, "d": 5, "flip_rate": 0.1}}],
           "learners": ["perceptron", "romma", "aromma", "alma", "ogd",
                        {"key": "pa", "sweep": {"variant": ["pa", "pa1", "pa2"]}}, "sop", "cw",
                        "iellip", "arow", "narow", "nherd", "scw", "scw2"]}

#: sparse learners with their L1 strength swept (the sparsity trade-off figure)
SPARSE = {"streams": [{"key": "planted_sparse", "params": dict(n=400, d=2000, nnz=10, active=50)}],
          "learners": [{"key": k, "sweep": {"l1": [1e-4, 1e-2]}} for k in ("fobos", "rda")]}

#: native multiclass learners beside one-vs-rest ones (the libol_multiclass study's figures)
MULTICLASS = {"streams": [{"key": "multiclass_separable", "params": {"n": 150, "d": 4, "k": 3}}],
              "learners": ["multiclass_perceptron", "multiclass_pa",
                           {"key": "one_vs_rest", "sweep": {"binary": ["perceptron", "pa"]}}]}

#: online PCA learners on a fixed and a switching subspace (the online_pca study's figure)
PCA = {"streams": [{"key": "low_rank", "params": {"n": 300, "d": 6, "spectrum": [2.0, 1.0]}},
                   {"key": "drifting_subspace",
                    "params": {"n": 300, "d": 6, "spectrum": [2.0, 1.0]}}],
       "learners": [{"key": "pca_ftl", "params": {"k": 2}}, {"key": "oja", "params": {"k": 2}},
                    {"key": "pca_meg", "params": {"k": 2, "eta": 0.1}}],
       "comparators": [{"key": "best_subspace", "params": {"k": None}},
                       {"key": "prefix_best_subspace", "params": {"k": None}}]}

#: the bound atlas's figure: witnesses (run once each: their block's own seeds) beside random
#: streams of the same horizons
ATLAS_FIGURES = ("bound_atlas", "bounds")
ATLAS_COMPARATORS = ["max_margin", {"key": "best_fixed", "params": {"loss": "hinge"}}]
ATLAS = {"blocks": [
    {"streams": [{"key": "witness", "params": {
        "file": f"experiments/bound_atlas/witnesses/novikoff__perceptron__T{T}.json"}}
        for T in (30, 100)],
     "learners": ["perceptron"], "seeds": [0], "comparators": ATLAS_COMPARATORS},
    {"streams": [{"key": "separable", "params": {"n": T, "d": 5}} for T in (30, 100)],
     "learners": ["perceptron"], "comparators": ATLAS_COMPARATORS}]}


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, tuple]:
    """The small real grids, by name: (table, side tables)."""
    from hydra import compose, initialize_config_dir
    from in_memory import run_tasks

    from olbench.harness.experiment import build_tasks

    tmp = tmp_path_factory.mktemp("lint")
    out = {"mixed": _run(MIXED, (0, 1, 2), tmp / "mixed"),
           "drift": _run(DRIFT, (0, 1), tmp / "drift", spacing="linear"),
           "regression": _run(REGRESSION, (0, 1), tmp / "regression"),
           "outliers": _run(OUTLIERS, (0, 1, 2), tmp / "outliers", checkpoints=2),
           "sixteen": _run(SIXTEEN, (0,), tmp / "sixteen"),
           "sparse": _run(SPARSE, (0, 1), tmp / "sparse"),
           "multiclass": _run(MULTICLASS, (0, 1), tmp / "multiclass"),
           "pca": _run(PCA, (0, 1), tmp / "pca"),
           "atlas": _run(ATLAS, (0, 1), tmp / "atlas", checkpoints=(30,))}
    conf = Path(__file__).resolve().parents[1] / "conf"
    with initialize_config_dir(config_dir=str(conf), version_base=None):
        cfg = compose(config_name="config",
                      overrides=["experiment=textbook_sugiyama", "grid.seeds=[0,1]"])
    _, tasks = build_tasks(cfg, ["experiment=textbook_sugiyama"])
    tasks = [dataclasses.replace(t, comparators=(), checkpoints=2) for t in tasks]
    out["textbook"] = run_tasks(tasks)
    return out


@pytest.fixture(scope="module")
def drawn(runs) -> dict[str, tuple[str, Figure]]:
    """Every figure each table supports, by file stem: (table name, figure)."""
    out = {}
    for name, (table, side) in runs.items():
        # the atlas's table: the figures its study draws (a regret figure of blocks run over
        # different numbers of seeds labels one learner's curves twice, "(1 seed)" and "(2
        # seeds)", in one style: the lint's "alike")
        only = ATLAS_FIGURES if name == "atlas" else None
        for stem, fig in figures.build_figures(table, side, only=only).items():
            out[f"{name}/{stem}"] = (stem, fig)
    return out


def _kind_of(stem: str) -> str:
    """The registered figure kind a file stem belongs to (sweep_gamma -> sweep, regret_2 ->
    regret, regret_loglog -> regret_loglog)."""
    kinds = [k for k in figures.FIGURES if stem == k or stem.startswith(k + "_")]
    return max(kinds, key=len)


def test_every_registered_figure_kind_is_drawn_from_a_real_table(drawn):
    assert set(figures.FIGURES) <= {_kind_of(stem) for stem, _ in drawn.values()}


def test_every_figure_kind_has_a_caption():
    assert set(figures.captions()) == set(figures.FIGURES)




@pytest.mark.parametrize("case", ["mixed", "drift", "regression", "outliers", "sixteen",
                                  "textbook", "multiclass", "pca", "atlas"])
def test_every_figure_of_the_table_passes_the_lint(case, drawn):
    problems = {key: lint(fig) for key, (_, fig) in drawn.items() if key.startswith(case + "/")}
    assert problems
    assert {key: p for key, p in problems.items() if p} == {}


def test_compare_png_passes_the_lint_with_its_rate_axis_on_the_curves(runs, tmp_path):
    """Two runs of the classification block (seeds 0 and 1 against seed 2), compared: the
    mistake-rate axis is scaled to the curves past the first rounds, not 0 to 1."""
    from olbench.analysis.comparison import compare_figure
    from olbench.analysis.figures.libol import RATE_FROM

    table, _ = runs["mixed"]
    tables = {"a/first": table[table["seed"] < 2], "b/second": table[table["seed"] == 2]}
    fig = compare_figure(tables, "mistake_rate")
    assert lint(fig) == []
    ok = table[table["status"].eq("ok") & table["mistake_rate"].notna()]
    late = ok[ok["t"] >= RATE_FROM * ok.groupby("stream")["t"].transform("max")]
    for ax in fig.axes:
        low, high = ax.get_ylim()
        assert high < 0.9 and high - low < 1.0 - 0.2      # not the whole 0-1 range
        assert low <= late["mistake_rate"].min() + 1e-9 or low > 0


# --------------------------------------------------------------------------- beyond the lint
def test_each_regret_panel_spans_its_own_streams_rounds(runs):
    """The √t and log t references follow each stream's own rounds: a panel of a 300-round
    stream does not run to the 3000 rounds of another."""
    from olbench.analysis.figures import regret

    table, _ = runs["mixed"]
    made = regret.regret_figure(table, loglog=True)
    pages = made if isinstance(made, list) else [made]
    n = {r.stream_label: r.t for r in views_final(table).itertuples()}
    for fig in pages:
        for ax in fig.axes:
            if ax.axison and ax.get_title():
                stream = ax.get_title().replace("\n", " ")
                assert ax.get_xlim()[1] <= 2.0 * n[stream], stream


def views_final(table: pd.DataFrame) -> pd.DataFrame:
    from olbench.analysis.views import per_checkpoint

    cp = per_checkpoint(table)
    return cp.groupby("stream_label", as_index=False)["t"].max()


def test_regret_against_its_bound_keeps_the_small_curve_readable(runs):
    """FTL's regret grows like T, FTRL's like √T: on one linear axis FTRL is a flat line at
    zero. Its panel is drawn on log axes, where FTRL's curve spans a good part of the
    height; the Experts panels name N."""
    from olbench.analysis.figures import regret_bounds

    table, _ = runs["mixed"]
    made = regret_bounds.regret_vs_bound_figure(table)
    axes = [ax for fig in (made if isinstance(made, list) else [made]) for ax in fig.axes]
    titles = {ax.get_title().replace("\n", " "): ax for ax in axes}
    alternating = next(ax for t, ax in titles.items() if t.startswith("Alternating"))
    ftrl = next(ln for ln in alternating.get_lines() if ln.get_label().startswith("FTRL")
                and ln.get_label().endswith(": regret"))
    points = np.column_stack([np.asarray(v, float) for v in ftrl.get_data()])
    pixels = alternating.transData.transform(points)
    assert np.ptp(pixels[:, 1]) > 0.3 * alternating.bbox.height
    experts = sorted(t for t in titles if t.startswith("Experts"))
    assert [t.split(" (log-log)")[0] for t in experts] == [
        "Experts (n=3000, N=10)", "Experts (n=3000, N=2)"]


def test_exponent_rows_name_learner_comparator_and_stream_once_each(runs):
    from olbench.analysis.figures.regret_exponents import exponent_table, regret_exponents_figure

    table, _ = runs["drift"]
    ex = exponent_table(table).dropna(subset=["exponent"])
    fig = regret_exponents_figure(table)
    (ax,) = fig.axes
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert len(labels) == len(set(labels)) == len(ex)
    for r in ex.itertuples():      # each curve's row names its comparator
        assert sum(r.comparator in s.replace("\n", " ") and r.learner in s for s in labels) == 1


def test_the_heatmap_says_when_three_seeds_cannot_give_a_star(runs):
    heatmap_cells, smallest_p, star_note = (HEATMAP.heatmap_cells, HEATMAP.smallest_p,
                                            HEATMAP.star_note)

    table, _ = runs["outliers"]
    cells, _, _ = heatmap_cells(table)
    assert cells["k"].max() == 3 and cells["p_holm"].min() >= 0.25
    assert smallest_p(3) == 0.25                     # 2 / 2^3: all three of one sign
    note = star_note(cells)
    assert note.startswith("no cell can be starred: with 3 seeds")
    fig = figures.build_figures(table, only=["outlier_heatmap"])["outlier_heatmap"]
    assert "no cell can be starred" in fig.get_supxlabel().replace("\n", " ")
    # 10 seeds: 2 / 2^10 times the cells of this grid is below 5 %; a star is possible
    assert len(cells) * 2 / 2**10 < 0.05 and star_note(cells.assign(k=10)) is None


def test_sixteen_learners_and_more_differ_in_colour_and_marker():
    """LIBOL's sixteen (and up to 81 learners): no two alike in colour and marker, so the
    line style is never all that tells two curves apart."""
    from olbench.analysis.figures.style import learner_styles

    for count in (16, 81):
        styles = learner_styles([f"learner {i:02d}" for i in range(count)])
        assert len({(s["color"], s["marker"]) for s in styles.values()}) == count
        assert len({(s["color"], s["marker"], s["linestyle"]) for s in styles.values()}) == count


def test_a_pa_variant_near_pa_in_every_cell_is_named_not_drawn(runs):
    """PA-I is drawn beside PA only where some cell's AROW − PA differs by more than the
    tolerance; the largest difference, from the table's final rows, decides."""
    from olbench.analysis.views import final_rows

    CELL, drawn_variants, heatmap_cells = (HEATMAP.CELL, HEATMAP.drawn_variants,
                                           HEATMAP.heatmap_cells)

    table, _ = runs["outliers"]
    cells, _, varying = heatmap_cells(table)
    fin = final_rows(table)
    rates = fin.pivot_table(index=["stream_name", "seed"], columns="learner_name",
                            values="clean_mistake_rate")
    pa = next(n for n in rates if n.startswith("PA[") and "variant=pa]" in n)
    pa1 = next(n for n in rates if n.startswith("PA[") and "variant=pa1]" in n)
    # AROW − PA and AROW − PA-I differ by PA-I − PA: its largest mean over a cell's seeds
    gap = (rates[pa1] - rates[pa]).groupby(level="stream_name").mean().abs().max() * 100
    drawn, note = drawn_variants(cells, [*varying, *CELL], tolerance=gap + 1e-6)
    assert len(drawn) == 1 and note == f"PA-I (C=1) within {gap:.1f} pp of PA in every cell " \
        "(not drawn)"
    drawn, note = drawn_variants(cells, [*varying, *CELL], tolerance=gap - 1e-6)
    assert len(drawn) == 2 and note == ""
