"""Figures from a synthetic results table: files are valid PNG/PDF, each figure draws what the
table holds (one line per learner, the Novikoff line, violations in red, fitted slopes), and
rows of failed runs never reach a figure."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from synthetic_table import LEARNERS, make_table

from olbench import figures, views
from olbench.figures import boundaries, bounds, final, libol, mistakes, regret, style

PNG_MAGIC, PDF_MAGIC = b"\x89PNG\r\n\x1a\n", b"%PDF-"


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    return make_table()


def _labelled_lines(ax) -> list:
    return [ln for ln in ax.get_lines() if not ln.get_label().startswith("_")]


def _learner_lines(ax) -> dict[str, object]:
    return {ln.get_label().split("  slope")[0]: ln for ln in _labelled_lines(ax)
            if not ln.get_label().startswith("Novikoff")}


# --------------------------------------------------------------------------- figures
def test_regret_figure_one_panel_per_stream_one_line_per_learner(table):
    fig = regret.regret_figure(table)
    axes = [ax for ax in fig.axes if ax.get_visible()]
    assert len(axes) == 2
    for ax in axes:
        assert set(_learner_lines(ax)) == set(LEARNERS.values())
        assert "seed" not in ax.get_title()
        assert len(ax.collections) == 3          # one band per learner
        assert ax.get_ylim()[1] < 1e6            # the error rows' 1e9 never got in
    assert "BestFixed" in fig.get_suptitle()
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert any("1.96" in s for s in labels)       # the band is explained


def test_regret_loglog_legend_shows_the_fitted_slope(table):
    fig = regret.regret_figure(table, loglog=True)
    for ax in fig.axes:
        labels = [ln.get_label() for ln in _labelled_lines(ax)]
        ogd = next(s for s in labels if s.startswith("OGD"))
        assert float(re.search(r"slope (-?[\d.]+)", ogd).group(1)) == pytest.approx(0.5, abs=0.01)
        assert ax.get_xscale() == ax.get_yscale() == "log"
        notes = [t.get_text() for t in ax.texts]  # PA's regret starts negative
        assert any("non-positive" in s for s in notes)
        pa = _learner_lines(ax)[LEARNERS["pa"]]
        assert (pa.get_ydata() > 0).all()


def test_mistakes_figure_draws_the_novikoff_bound_where_it_exists(table):
    fig = mistakes.mistakes_figure(table)
    by_title = {ax.get_title().replace("\n", ""): ax for ax in fig.axes}
    sep = next(ax for t, ax in by_title.items() if t.startswith("Separable"))
    noisy = next(ax for t, ax in by_title.items() if t.startswith("Noisy"))
    line = [ln for ln in sep.get_lines() if ln.get_label() == "Novikoff bound (R/γ)²"]
    assert len(line) == 1 and line[0].get_ydata()[0] == 100.0
    assert not [ln for ln in noisy.get_lines() if ln.get_label().startswith("Novikoff")]
    assert set(_learner_lines(sep)) == set(LEARNERS.values())


def test_mistakes_figure_without_bounds_has_no_novikoff_line():
    fig = mistakes.mistakes_figure(make_table(bounds=False, failures=False))
    assert fig is not None
    assert not [ln for ax in fig.axes for ln in ax.get_lines()
                if ln.get_label().startswith("Novikoff")]


def test_bound_scatter_counts_and_colours_violations(table):
    fig = bounds.bound_scatter_figure(table)
    ax = fig.axes[0]
    fin = views.final_bound_checks(table)
    ok = table[table["status"] == "ok"]
    last = ok[ok["t"] == ok.groupby("run_id")["t"].transform("max")]
    expected = last[last["bound"].notna()]
    violated = expected[expected["bound_holds"].eq(False)]
    assert len(fin) == len(expected) and len(violated) == 1
    assert f"{len(expected)} checks, 1 violation" in ax.get_title()
    red = [c for c in ax.collections
           if c.get_label().startswith("violation") and len(c.get_offsets())]
    assert len(red) == 1 and len(red[0].get_offsets()) == 1
    assert tuple(red[0].get_facecolor()[0][:3]) == pytest.approx((0.839, 0.153, 0.157), abs=1e-3)
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    diag = [ln for ln in ax.get_lines() if ln.get_label().startswith("y = x")][0]
    assert np.array_equal(diag.get_xdata(), diag.get_ydata())


def test_libol_panels_rows_are_streams_columns_are_metrics(table):
    fig = libol.libol_figure(table)
    assert len(fig.axes) == 2 * 3
    ylabels = [ax.get_ylabel() for ax in fig.axes[:3]]
    assert "updates" in ylabels[1] and "(s)" in ylabels[2] and "mistake rate" in ylabels[0]
    for ax in fig.axes:
        assert set(_learner_lines(ax)) == set(LEARNERS.values())


def test_learner_colours_agree_across_figures(table):
    colours = [{k: ln.get_color() for k, ln in _learner_lines(fig.axes[0]).items()}
               for fig in (regret.regret_figure(table), mistakes.mistakes_figure(table),
                           libol.libol_figure(table))]
    assert colours[0] == colours[1] == colours[2]
    assert len(set(colours[0].values())) == len(LEARNERS)
    assert style.VIOLATION not in colours[0].values()


def test_final_boxplots_one_box_per_learner_per_stream(table):
    fig = final.final_boxplot_figure(table, metric="mistake_rate")
    assert len(fig.axes) == 2
    for ax in fig.axes:
        assert sorted(t.get_text() for t in ax.get_yticklabels()) == sorted(LEARNERS.values())
        dots = [c for c in ax.collections if len(c.get_offsets()) == 3]
        assert len(dots) == len(LEARNERS)        # the three seeds of each learner
    assert final.final_boxplot_figure(table, metric="no_such_metric") is None


@pytest.mark.parametrize("w", [np.array([1.0, -2.0]), np.array([0.5, 1.0, -0.3]),
                               np.array([0.0, 1.0, 0.2]), np.array([2.0, 0.0, 1.0])])
def test_decision_boundary_is_the_line_w_dot_x_equals_zero(w):
    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 1, (60, 2))
    y = np.where(X @ np.array([1.0, 0.5]) > 0, 1.0, -1.0)
    fig = boundaries.decision_boundaries_figure(X, y, {"A[x=1]": w, "zero": np.zeros(2)},
                                           title="PA vs AROW")
    ax = fig.axes[0]
    assert ax.get_title() == "PA vs AROW"
    line = _learner_lines(ax)["A[x=1]"]
    pts = np.column_stack([line.get_xdata(), line.get_ydata()])
    bias = w[2] if len(w) == 3 else 0.0
    np.testing.assert_allclose(pts @ w[:2] + bias, 0.0, atol=1e-9)
    assert any("no boundary" in ln.get_label() for ln in ax.get_lines())
    assert len(ax.collections) == 2                # the two classes
    with pytest.raises(ValueError, match="2 entries"):
        boundaries.decision_boundaries_figure(X, y, {"bad": np.ones(4)})


# --------------------------------------------------------------------------- files
def _assert_files(paths):
    for p in paths:
        head = p.read_bytes()[:8]
        assert head.startswith(PNG_MAGIC if p.suffix == ".png" else PDF_MAGIC), p
        assert p.stat().st_size > 1000


def test_make_figures_writes_every_supported_figure(table, tmp_path):
    import matplotlib.pyplot as plt

    before = plt.get_fignums()
    paths = figures.make_figures(table, tmp_path / "figures")
    assert plt.get_fignums() == before           # nothing left open in pyplot
    stems = {p.stem for p in paths}
    assert stems == {"regret", "regret_loglog", "mistakes", "bounds", "libol",
                     "final_mistake_rate", "regret_vs_bound", "regret_bound_ratio",
                     "regret_exponents"}
    assert sorted(p.suffix for p in paths) == [".pdf"] * 9 + [".png"] * 9
    assert all(p.parent == tmp_path / "figures" for p in paths)
    _assert_files(paths)
    assert set(stems) <= set(figures.captions())


def test_build_figures_skips_what_the_table_cannot_support():
    t = make_table(bounds=False, seeds=(0,), n_checkpoints=8)
    t["regret"] = np.nan
    assert set(figures.build_figures(t)) == {"mistakes", "libol", "final_mistake_rate"}
    t = make_table(seeds=(0,), n_checkpoints=8)
    t["regret"] = -1.0                             # nothing to draw on log axes
    assert "regret_loglog" not in figures.build_figures(t)


def test_save_figure_returns_png_and_pdf(tmp_path):
    X = np.array([[0.0, 1.0], [1.0, 0.0], [-1.0, -0.5]])
    fig = boundaries.decision_boundaries_figure(X, np.array([1.0, 1.0, -1.0]),
                                                {"PA": np.array([1.0, 1.0])})
    written = figures.save_figure(fig, tmp_path / "sub" / "d.png")
    assert [p.name for p in written] == ["d.png", "d.pdf"]
    _assert_files(written)
    empty = make_table(failures=False).assign(status="error: boom")
    assert regret.regret_figure(empty) is None
    assert figures.save_figure(regret.regret_figure(empty), tmp_path / "r") == []


# --------------------------------------------------------------------------- the table of builders
def test_a_new_figure_is_one_registered_builder(table, monkeypatch):
    """A builder registered with @figure is drawn by build_figures (in its order) and its
    caption reaches captions(); a stem is registered once."""
    from matplotlib.figure import Figure

    from olbench.figures import registry

    monkeypatch.setattr(registry, "FIGURES", dict(registry.FIGURES))

    @figures.figure("n_runs", order=55, caption="Runs per stream.")
    @figures.figure("nothing_to_show", order=56, draw=False)
    def n_runs(t, *, draw=True):
        if not draw:
            return None
        fig = Figure()
        fig.subplots().bar([0], [t["run_id"].nunique()])
        return fig

    stems = list(figures.build_figures(table))
    assert stems == ["regret", "regret_loglog", "regret_vs_bound", "regret_bound_ratio",
                     "regret_exponents", "mistakes", "bounds", "libol", "n_runs",
                     "final_mistake_rate"]
    assert figures.captions()["n_runs"] == "Runs per stream."
    with pytest.raises(ValueError, match="registered twice"):
        figures.figure("n_runs", order=1)(n_runs)


def test_boundary_figures_rebuild_2d_streams_from_the_tasks(tmp_path):
    """One figure per 2-D stream of the first seed, numbered by the stream's place in the
    grid; the boundaries are the table's final_w (failed runs and other seeds left out)."""
    from types import SimpleNamespace

    from hydra.utils import instantiate

    def spec(d, seed):
        return {"_target_": "olbench.streams.Separable", "n": 40, "d": d, "gamma": 0.1,
                "R": 1.0, "seed": seed}

    tasks = [SimpleNamespace(seed=s, stream=spec(d, s)) for d in (5, 2) for s in (0, 1)]
    names = {(d, s): instantiate(spec(d, s)).name for d in (5, 2) for s in (0, 1)}
    rows = [("a", "ok", names[2, 0], "PA[C=1.0,seed=0]", "[1.0, -0.5]"),
            ("b", "ok", names[5, 0], "PA[C=1.0,seed=0]", "[1.0, 0, 0, 0, 0]"),
            ("c", "error: boom", names[2, 0], "AROW[r=1.0]", "[0.0, 1.0]"),
            ("d", "ok", names[2, 1], "OGD[eta=1.0]", "[0.0, 1.0]")]
    table = pd.DataFrame(rows, columns=["run_id", "status", "stream", "learner", "final_w"])
    assert figures.FIGURES["boundaries"].tasks
    made = boundaries.boundary_figures(table, tasks)
    assert list(made) == ["boundaries_1"]
    ax = made["boundaries_1"].axes[0]
    assert ax.get_title().replace("\n", "") == names[2, 0]
    line = _learner_lines(ax)["PA[C=1.0,seed=0]"]
    pts = np.column_stack([line.get_xdata(), line.get_ydata()])
    np.testing.assert_allclose(pts @ np.array([1.0, -0.5]), 0.0, atol=1e-9)
    assert set(_learner_lines(ax)) == {"PA[C=1.0,seed=0]"}
    assert boundaries.boundary_figures(table.drop(columns="final_w"), tasks) == {}
