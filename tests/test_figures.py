"""Figures from a synthetic results table: files are valid PNG/PDF, each figure draws what the
table holds (one line per learner, the Novikoff line, violations in red, fitted slopes), and
rows of failed runs never reach a figure."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from in_memory import run_tasks
from synthetic_table import LEARNERS, make_table

from olbench.analysis import figures, views
from olbench.analysis.figures import boundaries, bounds, final, libol, mistakes, regret, style

PNG_MAGIC, PDF_MAGIC = b"\x89PNG\r\n\x1a\n", b"%PDF-"
#: the learners as figures name them (display names; the data keeps the full names)
SHORT = {key: views.display_name(name) for key, name in LEARNERS.items()}


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    return make_table()


def _labelled_lines(ax) -> list:
    return [ln for ln in ax.get_lines() if not ln.get_label().startswith("_")]


def _learner_lines(ax) -> dict[str, object]:
    return {ln.get_label().split("  slope")[0]: ln for ln in _labelled_lines(ax)
            if not ln.get_label().startswith(("Novikoff", "reference"))
            and ": bound" not in ln.get_label()}


# --------------------------------------------------------------------------- figures
def test_regret_figure_one_panel_per_stream_one_line_per_learner(table):
    fig = regret.regret_figure(table)
    axes = [ax for ax in fig.axes if ax.get_visible()]
    assert len(axes) == 2
    for ax in axes:
        assert set(_learner_lines(ax)) == set(SHORT.values())
        assert "seed" not in ax.get_title()
        assert len(ax.collections) == 3          # one band per learner
        assert ax.get_ylim()[1] < 1e6            # the error rows' 1e9 never got in
    assert "BestFixed" in fig.get_suptitle()
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert any("1.96" in s for s in labels)       # the band is explained


def _panels_and_keys(fig) -> list[tuple]:
    """The log-log regret figure's (panel, key) pairs: each panel is followed by the axes
    without axis lines under it that holds its key."""
    return list(zip(*[iter(fig.axes)] * 2))


def _key_entry(key_axes, line) -> str:
    """The text of the entry of a panel's key whose handle looks like ``line``."""
    key = key_axes.get_legend()
    (text,) = [t.get_text() for h, t in zip(key.legend_handles, key.get_texts())
               if (h.get_color(), h.get_marker(), h.get_fillstyle())
               == (line.get_color(), line.get_marker(), line.get_fillstyle())]
    return text


def test_regret_loglog_key_shows_each_curves_fitted_slope(table):
    fig = regret.regret_figure(table, loglog=True)
    for ax, key in _panels_and_keys(fig):
        assert ax.axison and not key.axison
        ogd = _learner_lines(ax)[SHORT["ogd"]]
        slope = re.search(r"slope (-?[\d.]+)", _key_entry(key, ogd)).group(1)
        assert float(slope) == pytest.approx(0.5, abs=0.01)
        assert ax.get_xscale() == ax.get_yscale() == "log"
        # PA's regret starts negative: its first points are not drawn, and the key says so
        assert "≤ 0 not drawn" in key.get_legend().get_title().get_text()
        pa = _learner_lines(ax)[SHORT["pa"]]
        assert (pa.get_ydata() > 0).all()


def test_mistakes_figure_draws_the_novikoff_bound_where_it_exists(table):
    fig = mistakes.mistakes_figure(table)
    by_title = {ax.get_title().replace("\n", ""): ax for ax in fig.axes}
    sep = next(ax for t, ax in by_title.items() if t.startswith("Separable"))
    noisy = next(ax for t, ax in by_title.items() if t.startswith("Noisy"))
    line = [ln for ln in sep.get_lines() if ln.get_label() == "Novikoff bound (R/γ)²"]
    assert len(line) == 1 and line[0].get_ydata()[0] == 100.0
    assert not [ln for ln in noisy.get_lines() if ln.get_label().startswith("Novikoff")]
    assert set(_learner_lines(sep)) == set(SHORT.values())


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
        assert set(_learner_lines(ax)) == set(SHORT.values())


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
        assert sorted(t.get_text() for t in ax.get_yticklabels()) == sorted(SHORT.values())
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
    assert stems == {"regret", "regret_loglog", "mistakes", "novikoff", "bounds", "libol",
                     "final_mistake_rate", "regret_vs_bound", "regret_bound_ratio",
                     "regret_exponents"}
    assert sorted(p.suffix for p in paths) == [".pdf"] * 10 + [".png"] * 10
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

    from olbench.analysis.figures import registry

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
                     "regret_exponents", "mistakes", "novikoff", "bounds", "libol", "n_runs",
                     "final_mistake_rate"]
    assert figures.captions()["n_runs"] == "Runs per stream."
    with pytest.raises(ValueError, match="registered twice"):
        figures.figure("n_runs", order=1)(n_runs)


def test_boundary_figures_draw_the_points_and_weights_the_runs_wrote():
    """One figure per 2-D stream of the first seed, numbered by the stream's place in the
    grid (the side table ``grid``); the points and boundaries are what the runs wrote
    (``points``, ``final_weights``; failed runs and other seeds left out)."""
    from types import SimpleNamespace

    from olbench.harness.side import grid_table

    def spec(d, seed):
        return {"_target_": "olbench.streams.Separable", "n": 40, "d": d, "gamma": 0.1,
                "R": 1.0, "seed": seed}

    def name(d, seed):
        return f"Separable[n=40,d={d},gamma=0.1,R=1.0,seed={seed}]"

    runs = [("b", "ok", 0, 5, "PA[C=1.0,seed=0]", [1.0, 0, 0, 0, 0]),
            ("a", "ok", 0, 2, "PA[C=1.0,seed=0]", [1.0, -0.5]),
            ("c", "error: boom", 0, 2, "AROW[r=1.0]", None),
            ("d", "ok", 1, 2, "OGD[eta=1.0]", [0.0, 1.0])]
    table = pd.DataFrame([(r, status, seed, name(d, seed), learner, 40)
                          for r, status, seed, d, learner, _ in runs],
                         columns=["run_id", "status", "seed", "stream", "learner", "stream_n"])
    tasks = [SimpleNamespace(run_id=r, seed=seed, stream=spec(d, seed))
             for r, _, seed, d, _, _ in runs]
    points = pd.DataFrame({"x1": [0.5, -1.0, 2.0], "x2": [1.0, 0.0, -2.0], "y": [1.0, -1.0, 1.0]})
    side = {"grid": grid_table(tasks),
            "points": pd.concat([points.assign(run_id=r) for r in ("a", "d")]),
            "final_weights": pd.concat([pd.DataFrame({"run_id": r, "w": w})
                                        for r, _, _, _, _, w in runs if w is not None])}
    assert figures.FIGURES["boundaries"].side == ("final_weights", "points", "grid")
    made = boundaries.boundary_figures(table, side)
    assert list(made) == ["boundaries_1"]
    ax = made["boundaries_1"].axes[0]
    assert ax.get_title().replace("\n", " ") == views.display_name(
        views.drop_param(name(2, 0))) + " (first 3 of 40 points)"   # n: the table's
    pa = views.display_name("PA[C=1.0]")               # as every figure names the learner
    line = _learner_lines(ax)[pa]
    pts = np.column_stack([line.get_xdata(), line.get_ydata()])
    np.testing.assert_allclose(pts @ np.array([1.0, -0.5]), 0.0, atol=1e-9)
    assert set(_learner_lines(ax)) == {pa}
    drawn = np.vstack([c.get_offsets() for c in ax.collections])
    np.testing.assert_array_equal(np.sort(drawn, axis=0), np.sort(points[["x1", "x2"]], axis=0))
    no_weights = {**side, "final_weights": side["final_weights"].iloc[:0]}
    assert boundaries.boundary_figures(table, no_weights) == {}
    assert figures.build_figures(table, None, only=["boundaries"]) == {}   # no side tables
    assert figures.build_figures(table, {}, only=["boundaries"]) == {}     # an older folder's


# --------------------------------------------------------------------------- a paper's figures
@pytest.fixture(scope="module")
def long_table() -> pd.DataFrame:
    """Rounds up to 20000 and times near 1e-5 s: values that matplotlib's defaults print with
    an offset or a ×10^k multiplier above the axis."""
    return make_table(seeds=(0, 1), n=20000, n_checkpoints=12)


def _drawn(fig):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig).draw()
    return fig.canvas.get_renderer()


def test_lines_of_different_learners_differ_in_style_and_marker(table):
    styles = style.learner_styles([f"L{i}" for i in range(12)])
    looks = {(s["color"], s["linestyle"], s["marker"]) for s in styles.values()}
    assert len(looks) == 12                       # no two learners alike
    lines = _learner_lines(mistakes.mistakes_figure(table).axes[0])
    assert len({ln.get_linestyle() for ln in lines.values()}) == len(LEARNERS)
    assert len({ln.get_marker() for ln in lines.values()}) == len(LEARNERS)


def test_no_axis_of_any_figure_uses_offset_or_multiplier_notation(long_table):
    made = figures.build_figures(long_table)
    assert {"regret", "libol", "mistakes"} <= set(made)
    for stem, fig in made.items():
        _drawn(fig)
        for ax in fig.axes:
            for axis in (ax.xaxis, ax.yaxis):
                assert axis.get_offset_text().get_text() == "", (stem, axis.get_offset_text())


def test_titles_fit_and_legends_stay_off_the_data(long_table):
    for stem, fig in figures.build_figures(long_table).items():
        renderer = _drawn(fig)
        page = fig.bbox
        texts = [fig._suptitle] + [ax.title for ax in fig.axes]
        for text in filter(None, texts):
            box = text.get_window_extent(renderer)
            assert page.x0 - 1 <= box.x0 and box.x1 <= page.x1 + 1, (stem, text.get_text())
        legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend()]
        for legend in legends:
            box = legend.get_window_extent(renderer)
            for ax in fig.axes:
                if ax.get_visible() and ax.axison:     # a panel (not a key under it)
                    assert not box.overlaps(ax.bbox), (stem, "legend over the data")


def test_regret_figures_draw_the_checked_bound_and_the_reference_rates(table):
    for loglog in (False, True):
        fig = regret.regret_figure(table, loglog=loglog)
        for ax in (a for a in fig.axes if a.axison):
            ogd = next(ln for ln in _labelled_lines(ax) if ln.get_label().startswith("OGD")
                       and ": bound" not in ln.get_label())
            bound = next(ln for ln in _labelled_lines(ax)
                         if ln.get_label() == f"{SHORT['ogd']}: bound ogd_regret")
            t = bound.get_xdata()
            # the synthetic table's bound is 3 sqrt(t), except one seed's last checkpoint
            assert bound.get_ydata()[:-1] == pytest.approx(3 * np.sqrt(t[:-1]))
            assert bound.get_color() == ogd.get_color() and bound.get_linestyle() == ":"
    fig = regret.regret_figure(table, loglog=True)
    for ax, key in _panels_and_keys(fig):
        refs = {ln.get_label(): ln for ln in _labelled_lines(ax)}
        sqrt_t, log_t = refs["reference ∝ √t"], refs["reference ∝ log t"]
        x, y = sqrt_t.get_xdata(), sqrt_t.get_ydata()
        assert y / np.sqrt(x) == pytest.approx(np.full(len(x), y[0] / np.sqrt(x[0])))
        x, y = log_t.get_xdata(), log_t.get_ydata()
        assert y / np.log1p(x) == pytest.approx(np.full(len(x), y[0] / np.log1p(x[0])))
        ogd = refs[SHORT["ogd"]]
        lo, hi = map(float, re.search(r"t = ([\d.]+)–([\d.]+)", _key_entry(key, ogd)).groups())
        ts = np.sort(ogd.get_xdata())             # the fit is over the second half of them
        assert (lo, hi) == (ts[len(ts) // 2], 1000)


def test_a_slope_is_stated_only_where_it_is_readable():
    t = np.geomspace(1, 1e4, 9)
    assert regret.slope_text(t, t ** 0.5).startswith("slope 0.50 (t = ")
    assert regret.slope_text(t, -t) == "slope n/a"            # nothing positive to fit
    assert regret.slope_text(np.array([99.0, 100.0]), np.array([1.0, 2.0])) == "slope n/a"


def test_windowed_mistake_rate_marks_the_switch_of_a_drifting_stream():
    """Real runs of the Perceptron on a stream whose target switches at round 200: the
    figure's steps are the mistakes per round within each window (computed here from the
    cumulative counts), and the switch is a vertical line at t = 200."""
    from olbench.analysis.figures import drift
    from olbench.harness.tasks import Task

    stream = {"_target_": "olbench.streams.Drift", "n": 400, "d": 3, "mode": "switch",
              "switch_at": [200]}
    learner = {"_target_": "olbench.learners.perceptron.Perceptron"}
    tasks = [Task("drift", s, {**stream, "seed": s}, learner, (), 8, None, None, "linear")
             for s in (0, 1)]
    table, side = run_tasks(tasks)
    fig = drift.windowed_mistake_rate_figure(table, side)
    (ax,) = fig.axes
    (step,) = [ln for ln in _labelled_lines(ax) if ln.get_label().startswith("Perceptron")]
    per_seed = []
    for _, run in table.drop_duplicates(["run_id", "t"]).groupby("run_id"):
        t, m = np.r_[0, run["t"]], np.r_[0, run["mistakes"]]
        per_seed.append(np.diff(m) / np.diff(t))
    expected = np.mean(per_seed, axis=0)
    assert step.get_xdata().tolist() == [0, 50, 100, 150, 200, 250, 300, 350, 400]
    assert step.get_ydata()[1:] == pytest.approx(expected)
    assert expected[4] > expected[3]               # the window after the switch: new mistakes
    (switch,) = [ln for ln in _labelled_lines(ax) if ln.get_label() == "target switches"]
    assert switch.get_xdata()[0] == 200
    assert drift.windowed_mistake_rate_figure(table.assign(stream="Other"), side) is None


def _swept_table() -> pd.DataFrame:
    """The synthetic separable runs at gamma 0.1, and again at 0.2 and 0.4 with the
    mistakes (and mistake rates) halved and quartered; and PA at C = 1 and C = 10."""
    base = make_table(failures=False)
    base = base[base["stream_key"].eq("separable")]
    parts = []
    for gamma, scale in ((0.1, 1.0), (0.2, 0.5), (0.4, 0.25)):
        part = base.assign(stream=base["stream"].str.replace("gamma=0.1", f"gamma={gamma}"),
                           run_id=base["run_id"] + f"-g{gamma}",
                           mistakes=base["mistakes"] * scale,
                           mistake_rate=base["mistake_rate"] * scale)
        parts.append(part)
    pa = base[base["learner_key"].eq("pa")]
    parts.append(pa.assign(learner="PA[C=10.0,variant=pa1]", run_id=pa["run_id"] + "-C10",
                           mistake_rate=pa["mistake_rate"] + 0.5))
    return pd.concat(parts, ignore_index=True)


def test_sweep_figure_is_drawn_for_every_swept_parameter_with_95_intervals():
    from olbench.analysis.figures import sweep

    table = _swept_table()
    made = figures.FIGURES["sweep"].build(table)      # as build_figures draws it
    assert set(made) == {"sweep_gamma", "sweep_C"}
    assert figures.FIGURES["sweep"].build(make_table()) == {}   # nothing swept
    (ax,) = [a for a in made["sweep_gamma"].axes if a.get_visible()]
    assert "gamma" in ax.get_xlabel() and "mistake rate" in ax.get_ylabel()
    bars = {c.get_label(): c for c in ax.containers}      # errorbar: line, caps, bars
    full = {views.display_name(n): n for n in [*LEARNERS.values(), "PA[C=10.0,variant=pa1]"]}
    assert set(bars) == set(full)
    last = table[table["t"].eq(table["t"].max())].drop_duplicates("run_id")
    for learner, container in bars.items():
        runs = last[last["learner"].eq(full[learner])]
        x, y = container.lines[0].get_data()
        assert x.tolist() == ([0.1] if "C=10" in full[learner] else [0.1, 0.2, 0.4])
        (yerr,) = container.lines[2]                     # the vertical bars
        for gamma, mean, bar in zip(x, y, yerr.get_segments()):
            rates = runs.loc[runs["stream"].str.contains(f"gamma={gamma},"), "mistake_rate"]
            assert mean == pytest.approx(rates.mean())
            half = 1.96 * rates.std(ddof=1) / np.sqrt(len(rates))   # 3 seeds
            assert bar[:, 1] == pytest.approx([rates.mean() - half, rates.mean() + half])
    assert "95%" in " ".join(t.get_text() for t in made["sweep_gamma"].legends[0].get_texts())
    (ax,) = [a for a in made["sweep_C"].axes if a.get_visible()]
    (pa,) = ax.containers
    assert pa.get_label() == views.display_name("PA[variant=pa1]")  # named without C
    assert "C=" not in pa.get_label()
    assert pa.lines[0].get_xdata().tolist() == [1.0, 10.0]
    assert sweep.sweep_figure(make_table(), "stream", "gamma") is None


def test_novikoff_figure_puts_every_margin_on_one_log_log_axis(table):
    from olbench.analysis.figures import novikoff

    fig = novikoff.novikoff_figure(table)
    (ax,) = fig.axes
    assert ax.get_xscale() == ax.get_yscale() == "log"
    (diag,) = [ln for ln in _labelled_lines(ax) if ln.get_label().startswith("y = x")]
    assert np.array_equal(diag.get_xdata(), diag.get_ydata())
    last = table[table["status"].eq("ok") & table["bound_name"].eq("novikoff")
                 & table["bound"].notna()]
    last = last[last["t"].eq(last["t"].max())]
    (means,) = ax.containers                        # one stream family: Separable
    x, y = means.lines[0].get_data()
    assert x.tolist() == [100.0]                    # the synthetic table's (R/γ)²
    assert y.tolist() == pytest.approx([last["observed"].mean()])
    runs = [c for c in ax.collections if len(c.get_offsets()) == len(last)]
    assert len(runs) == 1                           # every run drawn as its own point
    assert f"{len(last)} runs" in ax.get_title()
    assert novikoff.novikoff_figure(make_table(bounds=False)) is None


def test_regression_figures_average_loss_and_the_fitted_sinc_curve():
    """Real PA regression runs on the textbook's sinc stream: the average loss per learner
    against t (the table's mean over seeds), and the final predictor over the data, equal to
    the predictions of the same learner rerun here."""
    from hydra.utils import instantiate

    import olbench
    from olbench.analysis.figures import regression
    from olbench.harness.tasks import Task

    stream = {"_target_": "olbench.streams.Sinc", "n": 60}
    learner = {"_target_": "olbench.learners.pa.PARegressor"}
    tasks = [Task("sinc", s, {**stream, "seed": s}, learner, (), 6) for s in (0, 1)]
    table, side = run_tasks(tasks)
    assert (table["status"] == "ok").all()
    fig = regression.average_loss_figure(table)
    (ax,) = [a for a in fig.axes if a.get_visible()]
    (line,) = _labelled_lines(ax)
    rows = table.drop_duplicates(["run_id", "t"])
    assert line.get_ydata() == pytest.approx(rows.groupby("t")["avg_loss"].mean().to_numpy())
    assert regression.average_loss_figure(make_table()) is None   # classification
    (fit,) = regression.fitted_function_figures(table, side).values()
    (ax,) = fit.axes
    curves = {ln.get_label(): ln for ln in _labelled_lines(ax)}
    s0 = instantiate({**stream, "seed": 0})
    X, y = s0.materialize()
    w = olbench.run(instantiate(learner), X, y).state["w"]
    order = np.argsort(s0.meta.extra["x"])
    (name,) = [k for k in curves if k.endswith("final $w \\cdot x$")]
    assert curves[name].get_ydata() == pytest.approx((X @ w)[order], abs=1e-12)
    assert curves["noise-free curve"].get_ydata() == pytest.approx(s0.meta.clean_y[order])


def test_no_fitted_function_over_several_passes():
    """A stream of several passes over 1-D inputs (Sugiyama's Fig. 31.9) has one x per input
    but a round per pass: the fitted-function figure leaves it out rather than fail."""
    from olbench.analysis.figures import regression
    from olbench.harness.tasks import Task

    sinc = {"_target_": "olbench.streams.Sinc", "n": 30}
    passes = {"_target_": "olbench.streams.Passes", "stream": sinc, "passes": 3}
    learner = {"_target_": "olbench.learners.pa.PARegressor"}
    tasks = [Task("sinc", 0, stream, learner, (), 6) for stream in (sinc, passes)]
    table, side = run_tasks(tasks)
    assert (table["status"] == "ok").all()
    assert list(regression.fitted_function_figures(table, side)) == ["fit_0"]


def test_libol_panels_have_seed_bands_median_time_and_rate_axes_scaled_to_the_data(table):
    slow = table.copy()
    preempted = slow["seed"].eq(0) & slow["learner_key"].eq("pa")
    slow.loc[preempted, "time_s"] *= 1000          # one preempted seed of PA
    fig = libol.libol_figure(slow)
    rate_ax, _, time_ax = fig.axes[:3]
    assert len(rate_ax.collections) == len(time_ax.collections) == len(LEARNERS)  # bands
    pa = _learner_lines(time_ax)[SHORT["pa"]]
    rows = slow[slow["status"].eq("ok") & slow["learner_key"].eq("pa")
                & slow["stream"].str.startswith("Noisy")].drop_duplicates(["run_id", "t"])
    median = rows.groupby("t")["time_s"].median().to_numpy()
    assert pa.get_ydata() == pytest.approx(median)  # not the mean, 300x larger
    assert rows.groupby("t")["time_s"].mean().to_numpy()[-1] > 100 * median[-1]
    # the rates fall from 1 at t = 1 to about 1.5/sqrt(t): the axis follows the later curve
    late = rows[rows["t"] >= 0.05 * rows["t"].max()]["mistake_rate"]
    low, high = rate_ax.get_ylim()
    assert high < 0.5 and high >= late.max() and low <= late.min()


def test_final_values_with_few_seeds_are_points_with_mean_and_95_ci(table):
    fig = final.final_boxplot_figure(table, metric="mistake_rate")
    last = table[table["status"].eq("ok")]
    last = last[last["t"].eq(last["t"].max())].drop_duplicates("run_id")
    for ax in fig.axes:
        assert not ax.patches                      # no boxes of three points
        bars = {c.lines[0].get_ydata()[0]: c for c in ax.containers}
        assert len(bars) == len(LEARNERS)
        full = {SHORT[k]: LEARNERS[k] for k in LEARNERS}
        names = {t.get_position()[1]: full[t.get_text()] for t in ax.get_yticklabels()}
        stream = "Separable" if ax.get_title().startswith("Separable") else "Noisy"
        for pos, container in bars.items():
            rates = last.loc[last["learner"].eq(names[pos])
                             & last["stream"].str.startswith(stream), "mistake_rate"]
            (seg,) = container.lines[2][0].get_segments()
            half = 1.96 * rates.std(ddof=1) / np.sqrt(3)
            assert container.lines[0].get_xdata()[0] == pytest.approx(rates.mean())
            assert seg[:, 0] == pytest.approx([rates.mean() - half, rates.mean() + half])
    many = final.final_boxplot_figure(make_table(seeds=tuple(range(12)), n_checkpoints=5))
    assert all(ax.patches for ax in many.axes)     # 12 seeds: box plots


def test_regret_loglog_draws_only_curves_with_a_positive_mean():
    """Some runs above zero, every mean below (a learner beating the comparator on drift):
    nothing to draw on log axes, and no error; a stream without a positive mean gets no
    (empty) panel and is named under the figure."""
    t = make_table(seeds=(0, 1), n_checkpoints=8, failures=False)
    t["regret"] = np.where(t["seed"].eq(0), 1.0, -5.0)
    assert regret.regret_figure(t, loglog=True) is None
    t.loc[t["stream_key"].eq("separable"), "regret"] = 2.0
    fig = regret.regret_figure(t, loglog=True)
    _drawn(fig)
    titles = [ax.get_title() for ax in fig.axes if ax.axison]
    assert len(titles) == 1 and titles[0].startswith("Separable")
    note = fig.get_supxlabel().replace("\n", " ")
    assert note.startswith("not drawn (no positive mean regret): Noisy")
