"""The mistake figures from a synthetic results table (and real runs on a drifting stream):
mistakes with the Novikoff bound where it exists, the bound checks with violations in red,
Novikoff's bound against the mistakes over margins, LIBOL's panels (mistake rate, updates,
time) with seed bands and median times, and the windowed mistake rate around a switch."""

from __future__ import annotations

import numpy as np
import pytest
from figure_reading import SHORT, labelled_lines, learner_lines
from in_memory import run_tasks
from synthetic_table import LEARNERS, make_table

from olbench.analysis import views
from olbench.analysis.figures import bounds, libol, mistakes
from olbench.analysis.figures.lint import _drawn_ticks
from olbench.analysis.figures.style import STYLE


def test_mistakes_figure_draws_the_novikoff_bound_where_it_exists(table):
    fig = mistakes.mistakes_figure(table)
    by_title = {ax.get_title().replace("\n", ""): ax for ax in fig.axes}
    sep = next(ax for t, ax in by_title.items() if t.startswith("Separable"))
    noisy = next(ax for t, ax in by_title.items() if t.startswith("Noisy"))
    line = [ln for ln in sep.get_lines() if ln.get_label() == "Novikoff bound (R/γ)²"]
    assert len(line) == 1 and line[0].get_ydata()[0] == 100.0
    assert not [ln for ln in noisy.get_lines() if ln.get_label().startswith("Novikoff")]
    assert set(learner_lines(sep)) == set(SHORT.values())


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


def test_novikoff_figure_puts_every_margin_on_one_log_log_axis(table):
    from olbench.analysis.figures import novikoff

    fig = novikoff.novikoff_figure(table)
    (ax,) = fig.axes
    assert ax.get_xscale() == ax.get_yscale() == "log"
    (diag,) = [ln for ln in labelled_lines(ax) if ln.get_label().startswith("y = x")]
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


def test_libol_panels_rows_are_streams_columns_are_metrics(table):
    fig = libol.libol_figure(table)
    assert len(fig.axes) == 2 * 3
    ylabels = [ax.get_ylabel() for ax in fig.axes[:3]]
    assert "updates" in ylabels[1] and "wall time" in ylabels[2] and "mistake rate" in ylabels[0]
    for ax in fig.axes:
        assert set(learner_lines(ax)) == set(SHORT.values())


def test_libol_time_ticks_are_seconds_with_a_prefix_and_stay_narrow(table):
    """Times of microseconds (the synthetic table's: 2e-6 s a round) are labelled "20 µs", not
    "0.000020", whose width ran into the title of the panel beside it on a slow machine."""
    for scale in (1.0, 1e3, 1e6):                   # microseconds, milliseconds, seconds
        fig = libol.libol_figure(table.assign(time_s=table["time_s"] * scale))
        time_ax = fig.axes[2]
        fig.canvas.draw()
        labels = [t.get_text() for t in time_ax.get_yticklabels() if t.get_text()]
        assert labels and all(len(label) <= 7 for label in labels), labels
        assert all(label.endswith("s") for label in labels), labels
        assert any({1.0: "µs", 1e3: "ms", 1e6: " s"}[scale] in label for label in labels)


def test_libol_panels_have_seed_bands_median_time_and_rate_axes_scaled_to_the_data(table):
    slow = table.copy()
    preempted = slow["seed"].eq(0) & slow["learner_key"].eq("pa")
    slow.loc[preempted, "time_s"] *= 1000          # one preempted seed of PA
    fig = libol.libol_figure(slow)
    rate_ax, _, time_ax = fig.axes[:3]
    assert len(rate_ax.collections) == len(time_ax.collections) == len(LEARNERS)  # bands
    pa = learner_lines(time_ax)[SHORT["pa"]]
    rows = slow[slow["status"].eq("ok") & slow["learner_key"].eq("pa")
                & slow["stream"].str.startswith("Noisy")].drop_duplicates(["run_id", "t"])
    median = rows.groupby("t")["time_s"].median().to_numpy()
    assert pa.get_ydata() == pytest.approx(median)  # not the mean, 300x larger
    assert rows.groupby("t")["time_s"].mean().to_numpy()[-1] > 100 * median[-1]
    # the rates fall from 1 at t = 1 to about 1.5/sqrt(t): the axis follows the later curve
    late = rows[rows["t"] >= 0.05 * rows["t"].max()]["mistake_rate"]
    low, high = rate_ax.get_ylim()
    assert high < 0.5 and high >= late.max() and low <= late.min()


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
    (step,) = [ln for ln in labelled_lines(ax) if ln.get_label().startswith("Perceptron")]
    per_seed = []
    for _, run in table.drop_duplicates(["run_id", "t"]).groupby("run_id"):
        t, m = np.r_[0, run["t"]], np.r_[0, run["mistakes"]]
        per_seed.append(np.diff(m) / np.diff(t))
    expected = np.mean(per_seed, axis=0)
    assert step.get_xdata().tolist() == [0, 50, 100, 150, 200, 250, 300, 350, 400]
    assert step.get_ydata()[1:] == pytest.approx(expected)
    assert expected[4] > expected[3]               # the window after the switch: new mistakes
    (switch,) = [ln for ln in labelled_lines(ax) if ln.get_label() == "target switches"]
    assert switch.get_xdata()[0] == 200
    assert drift.windowed_mistake_rate_figure(table.assign(stream="Other"), side) is None



def test_libol_row_titles_clear_the_top_tick_labels_beside_them(table):
    """Each row's title (its stream) is centred over the middle panel and wider than it; a top
    tick label of a panel beside it, drawn at the axes' top edge, reached to within half a
    pixel of the title and overlapped it for some run times (the lint failed at random)."""
    long = "Outliers (n=1000, d=2, margin=0.1, radius=1, outlier rate=0.2, flip rate=0.05)"
    wide = table.assign(stream=table["stream"].where(~table["stream"].str.startswith("Noisy"),
                                                     long))
    fig = libol.libol_figure(wide)
    fig.set_dpi(STYLE["savefig.dpi"])
    rows = np.reshape(fig.axes, (-1, 3))
    for ax in rows.ravel():                       # a tick exactly at each panel's top
        ax.set_ylim(0, ax.get_yticks()[-2])
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    clearance = 3 * fig.dpi / 72                  # 3 points
    titles = [row[1].title.get_window_extent(renderer) for row in rows]
    assert max(t.width - row[1].get_window_extent(renderer).width
               for t, row in zip(titles, rows)) > 0   # a title reaches over its neighbours
    for title, row in zip(titles, rows):
        tops = [tick.label1.get_window_extent(renderer).y1 for ax in row
                for tick in _drawn_ticks(ax.yaxis)]
        assert title.y0 >= max(tops) + clearance
