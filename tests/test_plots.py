"""Figures from a synthetic results table: files are valid PNG/PDF, each figure draws what the
table holds (one line per learner, the Novikoff line, violations in red, fitted slopes), and
rows of failed runs never reach a figure."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from olbench import plots

PNG_MAGIC, PDF_MAGIC = b"\x89PNG\r\n\x1a\n", b"%PDF-"

STREAMS = {
    "separable": ("Separable[n={n},d=2,gamma=0.1,R=1.0,seed={seed}]", 0.1),
    "noisy": ("Noisy[n={n},d=5,gamma=0.1,R=1.0,flip_rate=0.05,seed={seed}]", 0.1),
}
LEARNERS = {
    "perceptron": "Perceptron[tie=novikoff]",
    "pa": "PA[C=1.0,variant=pa1]",
    "ogd": "OGD[eta=0.5,radius=1.0,schedule=sqrt]",
}
COMPARATOR = "BestFixed[loss=hinge,radius=1.0]"
BOUND_COLS = ["bound_name", "quantity", "bound", "observed", "ratio", "bound_holds",
              "skip_reason"]


def _bounds(stream_key: str, learner_key: str, seed: int, ts, mistakes, regret) -> list[dict]:
    """The bound rows of one run at every checkpoint (a list per bound name)."""
    if learner_key == "perceptron" and stream_key == "separable":
        return [{"bound_name": "novikoff", "quantity": "mistakes", "bound": 100.0,
                 "observed": mistakes},
                {"bound_name": "freund_schapire", "quantity": "mistakes",
                 "bound": 100.0 + 0 * ts, "observed": mistakes}]
    if learner_key == "perceptron":
        return [{"bound_name": "novikoff", "quantity": "mistakes",
                 "skip_reason": "stream not linearly separable"}]
    if learner_key == "pa" and stream_key == "separable":
        return [{"bound_name": "pa1_mistakes", "quantity": "mistakes",
                 "bound": 2 * mistakes + 10.0, "observed": mistakes}]
    if learner_key == "ogd":
        # The regret bound 3 sqrt(t) holds, but on the noisy stream's seed 2 it is made
        # too small at the last checkpoint: exactly one violated (run, bound).
        bound = 3.0 * np.sqrt(ts)
        if stream_key == "noisy" and seed == 2:
            bound[-1] = 0.5 * regret[-1]
        return [{"bound_name": "ogd_regret", "quantity": "regret", "bound": bound,
                 "observed": regret}]
    return []                                      # PA on the noisy stream: no bound applies


def make_table(seeds=(0, 1, 2), n: int = 1000, n_checkpoints: int = 20, *, bounds: bool = True,
               failures: bool = True, rng_seed: int = 7) -> pd.DataFrame:
    """A results table shaped like the grid's, built from formulas.

    Regret of every run is c * t**0.5 (c > 0 random per run; PA's is shifted down so that it
    starts negative); mistakes are increasing and below 100 on the separable stream. With
    ``failures``, one error run and one skipped run (NaN metrics) are added."""
    rng = np.random.default_rng(rng_seed)
    ts = np.unique(np.round(np.geomspace(1, n, n_checkpoints)).astype(int)).astype(float)
    rows = []
    for s_key, (fmt, gamma) in STREAMS.items():
        for l_key, learner in LEARNERS.items():
            for seed in seeds:
                c = rng.uniform(0.9, 1.1)
                regret = 2 * c * ts ** 0.5 - (8.0 if l_key == "pa" else 0.0)
                mistakes = np.minimum(ts, np.ceil(1.5 * c * ts ** 0.5))
                updates = mistakes if l_key == "perceptron" else np.ceil(0.6 * ts)
                cum_loss = 1.2 * mistakes + 1.0
                base = {"run_id": f"{s_key}-{l_key}-{seed}", "experiment": "synthetic",
                        "seed": seed, "stream": fmt.format(n=n, seed=seed),
                        "stream_key": s_key, "stream_n": n, "stream_d": 2, "stream_radius": 1.0,
                        "stream_margin": gamma, "stream_gamma": gamma,
                        "stream_fingerprint": f"fp{seed}", "learner": learner,
                        "learner_key": l_key, "comparator": COMPARATOR, "status": "ok",
                        "olbench_version": "0.1.0"}
                metrics = pd.DataFrame({
                    "t": ts, "loss": "hinge", "cum_loss": cum_loss, "avg_loss": cum_loss / ts,
                    "mistakes": mistakes, "mistake_rate": mistakes / ts,
                    "clean_mistakes": mistakes, "clean_mistake_rate": mistakes / ts,
                    "updates": updates, "comparator_loss": cum_loss - regret,
                    "regret": regret, "time_s": 2e-6 * c * ts})
                run_bounds = _bounds(s_key, l_key, seed, ts, mistakes, regret) if bounds else []
                for b in run_bounds or [{}]:
                    part = metrics.assign(**base)
                    for col in BOUND_COLS:
                        part[col] = b.get(col, None)
                    if "bound" in b:
                        part["ratio"] = part["observed"] / part["bound"]
                        part["bound_holds"] = list(part["observed"] <= part["bound"])
                    rows.append(part)
    table = pd.concat(rows, ignore_index=True)
    if failures:
        bad = []
        for run_id, status, learner in (
                ("noisy-arow-0", "error: LinAlgError: singular matrix", "AROW[r=1.0]"),
                ("noisy-rls-0", "skipped: regression learner on a classification stream",
                 "RLS[lam=1.0]")):
            row = table[table["seed"] == 0].iloc[-1].copy()
            row[["run_id", "status", "learner", "seed"]] = [run_id, status, learner, 0]
            metric_cols = ["t", "cum_loss", "avg_loss", "mistakes", "mistake_rate", "updates",
                           "comparator_loss", "regret", "time_s"]
            row[metric_cols] = 1e9                 # garbage: a figure showing it is wrong
            row[BOUND_COLS] = None
            bad.append(row)
        table = pd.concat([table, pd.DataFrame(bad)], ignore_index=True)
    return table


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    return make_table()


def _labelled_lines(ax) -> list:
    return [ln for ln in ax.get_lines() if not ln.get_label().startswith("_")]


def _learner_lines(ax) -> dict[str, object]:
    return {ln.get_label().split("  slope")[0]: ln for ln in _labelled_lines(ax)
            if not ln.get_label().startswith("Novikoff")}


# --------------------------------------------------------------------------- table views
def test_per_checkpoint_one_row_per_run_and_t_without_failed_runs(table):
    cp = plots.per_checkpoint(table)
    assert not cp.duplicated(["run_id", "t"]).any()
    assert set(cp["status"]) == {"ok"}
    assert cp["run_id"].nunique() == 2 * 3 * 3
    assert set(cp["stream_label"]) == {"Separable[n=1000,d=2,gamma=0.1,R=1.0]",
                                       "Noisy[n=1000,d=5,gamma=0.1,R=1.0,flip_rate=0.05]"}


def test_mean_band_is_the_normal_interval_over_seeds(table):
    cp = plots.per_checkpoint(table)
    band = plots.mean_band(cp, "regret", ["stream_label", "learner_label"])
    t_last = cp["t"].max()
    sel = cp[(cp["learner_key"] == "ogd") & (cp["stream_key"] == "noisy") & (cp["t"] == t_last)]
    row = band[(band["learner_label"] == LEARNERS["ogd"]) & (band["t"] == t_last)
               & band["stream_label"].str.startswith("Noisy")].iloc[0]
    values = sel["regret"].to_numpy()
    half = 1.96 * values.std(ddof=1) / np.sqrt(len(values))
    assert row["k"] == 3
    assert row["mean"] == pytest.approx(values.mean())
    assert (row["lo"], row["hi"]) == pytest.approx((values.mean() - half, values.mean() + half))


@pytest.mark.parametrize("power", [0.5, 1.0, 0.25])
def test_loglog_slope_of_a_power_law(power):
    t = np.unique(np.round(np.geomspace(1, 5000, 25)))
    y = 3.0 * t ** power * (1 + 0.01 * np.sin(t))
    assert plots.loglog_slope(t, y) == pytest.approx(power, abs=0.01)


def test_loglog_slope_fits_only_the_second_half_and_positive_values():
    t = np.arange(1.0, 21.0)
    y = np.where(t <= 10, -5.0, t ** 2)            # the first half would ruin a fit
    assert plots.loglog_slope(t, y) == pytest.approx(2.0)
    assert np.isnan(plots.loglog_slope([1.0, 2.0], [-1.0, -2.0]))


# --------------------------------------------------------------------------- figures
def test_regret_figure_one_panel_per_stream_one_line_per_learner(table):
    fig = plots.regret_figure(table)
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
    fig = plots.regret_figure(table, loglog=True)
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
    fig = plots.mistakes_figure(table)
    by_title = {ax.get_title().replace("\n", ""): ax for ax in fig.axes}
    sep = next(ax for t, ax in by_title.items() if t.startswith("Separable"))
    noisy = next(ax for t, ax in by_title.items() if t.startswith("Noisy"))
    line = [ln for ln in sep.get_lines() if ln.get_label() == "Novikoff bound (R/γ)²"]
    assert len(line) == 1 and line[0].get_ydata()[0] == 100.0
    assert not [ln for ln in noisy.get_lines() if ln.get_label().startswith("Novikoff")]
    assert set(_learner_lines(sep)) == set(LEARNERS.values())


def test_mistakes_figure_without_bounds_has_no_novikoff_line():
    fig = plots.mistakes_figure(make_table(bounds=False, failures=False))
    assert fig is not None
    assert not [ln for ax in fig.axes for ln in ax.get_lines()
                if ln.get_label().startswith("Novikoff")]


def test_bound_scatter_counts_and_colours_violations(table):
    fig = plots.bound_scatter_figure(table)
    ax = fig.axes[0]
    fin = plots.final_bound_checks(table)
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
    fig = plots.libol_figure(table)
    assert len(fig.axes) == 2 * 3
    ylabels = [ax.get_ylabel() for ax in fig.axes[:3]]
    assert "updates" in ylabels[1] and "(s)" in ylabels[2] and "mistake rate" in ylabels[0]
    for ax in fig.axes:
        assert set(_learner_lines(ax)) == set(LEARNERS.values())


def test_learner_colours_agree_across_figures(table):
    colours = [{k: ln.get_color() for k, ln in _learner_lines(fig.axes[0]).items()}
               for fig in (plots.regret_figure(table), plots.mistakes_figure(table),
                           plots.libol_figure(table))]
    assert colours[0] == colours[1] == colours[2]
    assert len(set(colours[0].values())) == len(LEARNERS)
    assert plots.VIOLATION not in colours[0].values()


def test_final_boxplots_one_box_per_learner_per_stream(table):
    fig = plots.final_boxplot_figure(table, metric="mistake_rate")
    assert len(fig.axes) == 2
    for ax in fig.axes:
        assert sorted(t.get_text() for t in ax.get_yticklabels()) == sorted(LEARNERS.values())
        dots = [c for c in ax.collections if len(c.get_offsets()) == 3]
        assert len(dots) == len(LEARNERS)        # the three seeds of each learner
    assert plots.final_boxplot_figure(table, metric="no_such_metric") is None


@pytest.mark.parametrize("w", [np.array([1.0, -2.0]), np.array([0.5, 1.0, -0.3]),
                               np.array([0.0, 1.0, 0.2]), np.array([2.0, 0.0, 1.0])])
def test_decision_boundary_is_the_line_w_dot_x_equals_zero(w):
    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 1, (60, 2))
    y = np.where(X @ np.array([1.0, 0.5]) > 0, 1.0, -1.0)
    fig = plots.decision_boundaries_figure(X, y, {"A[x=1]": w, "zero": np.zeros(2)},
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
        plots.decision_boundaries_figure(X, y, {"bad": np.ones(4)})


# --------------------------------------------------------------------------- files
def _assert_files(paths):
    for p in paths:
        head = p.read_bytes()[:8]
        assert head.startswith(PNG_MAGIC if p.suffix == ".png" else PDF_MAGIC), p
        assert p.stat().st_size > 1000


def test_make_figures_writes_every_supported_figure(table, tmp_path):
    import matplotlib.pyplot as plt

    before = plt.get_fignums()
    paths = plots.make_figures(table, tmp_path / "figures")
    assert plt.get_fignums() == before           # nothing left open in pyplot
    stems = {p.stem for p in paths}
    assert stems == {"regret", "regret_loglog", "mistakes", "bounds", "libol",
                     "final_mistake_rate"}
    assert sorted(p.suffix for p in paths) == [".pdf"] * 6 + [".png"] * 6
    assert all(p.parent == tmp_path / "figures" for p in paths)
    _assert_files(paths)
    assert set(stems) <= set(plots.CAPTIONS)


def test_build_figures_skips_what_the_table_cannot_support():
    t = make_table(bounds=False, seeds=(0,), n_checkpoints=8)
    t["regret"] = np.nan
    assert set(plots.build_figures(t)) == {"mistakes", "libol", "final_mistake_rate"}
    t = make_table(seeds=(0,), n_checkpoints=8)
    t["regret"] = -1.0                             # nothing to draw on log axes
    assert "regret_loglog" not in plots.build_figures(t)


def test_writers_return_png_and_pdf(tmp_path):
    X = np.array([[0.0, 1.0], [1.0, 0.0], [-1.0, -0.5]])
    written = plots.decision_boundaries(X, np.array([1.0, 1.0, -1.0]),
                                        {"PA": np.array([1.0, 1.0])}, tmp_path / "sub" / "d.png")
    assert [p.name for p in written] == ["d.png", "d.pdf"]
    _assert_files(written)
    empty = make_table(failures=False).assign(status="error: boom")
    assert plots.regret_curves(empty, tmp_path / "r") == []
