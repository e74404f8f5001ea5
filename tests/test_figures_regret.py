"""The regret figures from a synthetic results table: one panel per stream and one line per
learner with its band, the log-log figure's key with each curve's fitted slope, the checked
bound and the reference rates, and curves without a positive mean left out and named."""

from __future__ import annotations

import re

import numpy as np
import pytest
from figure_reading import SHORT, drawn, labelled_lines, learner_lines
from synthetic_table import make_table

from olbench.analysis.figures import regret


def test_regret_figure_one_panel_per_stream_one_line_per_learner(table):
    fig = regret.regret_figure(table)
    axes = [ax for ax in fig.axes if ax.get_visible()]
    assert len(axes) == 2
    for ax in axes:
        assert set(learner_lines(ax)) == set(SHORT.values())
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
        ogd = learner_lines(ax)[SHORT["ogd"]]
        slope = re.search(r"slope (-?[\d.]+)", _key_entry(key, ogd)).group(1)
        assert float(slope) == pytest.approx(0.5, abs=0.01)
        assert ax.get_xscale() == ax.get_yscale() == "log"
        # PA's regret starts negative: its first points are not drawn, and the key says so
        assert "≤ 0 not drawn" in key.get_legend().get_title().get_text()
        pa = learner_lines(ax)[SHORT["pa"]]
        assert (pa.get_ydata() > 0).all()


def test_regret_figures_draw_the_checked_bound_and_the_reference_rates(table):
    for loglog in (False, True):
        fig = regret.regret_figure(table, loglog=loglog)
        for ax in (a for a in fig.axes if a.axison):
            ogd = next(ln for ln in labelled_lines(ax) if ln.get_label().startswith("OGD")
                       and ": bound" not in ln.get_label())
            bound = next(ln for ln in labelled_lines(ax)
                         if ln.get_label() == f"{SHORT['ogd']}: bound ogd_regret")
            t = bound.get_xdata()
            # the synthetic table's bound is 3 sqrt(t), except one seed's last checkpoint
            assert bound.get_ydata()[:-1] == pytest.approx(3 * np.sqrt(t[:-1]))
            assert bound.get_color() == ogd.get_color() and bound.get_linestyle() == ":"
    fig = regret.regret_figure(table, loglog=True)
    for ax, key in _panels_and_keys(fig):
        refs = {ln.get_label(): ln for ln in labelled_lines(ax)}
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


def test_regret_loglog_draws_only_curves_with_a_positive_mean():
    """Some runs above zero, every mean below (a learner beating the comparator on drift):
    nothing to draw on log axes, and no error; a stream without a positive mean gets no
    (empty) panel and is named under the figure."""
    t = make_table(seeds=(0, 1), n_checkpoints=8, failures=False)
    t["regret"] = np.where(t["seed"].eq(0), 1.0, -5.0)
    assert regret.regret_figure(t, loglog=True) is None
    t.loc[t["stream_key"].eq("separable"), "regret"] = 2.0
    fig = regret.regret_figure(t, loglog=True)
    drawn(fig)
    titles = [ax.get_title() for ax in fig.axes if ax.axison]
    assert len(titles) == 1 and titles[0].startswith("Separable")
    note = fig.get_supxlabel().replace("\n", " ")
    assert note.startswith("not drawn (no positive mean regret): Noisy")
