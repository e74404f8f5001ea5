"""A paper's figures: each learner has one colour and look across figures, no two learners
alike; no axis uses offset or multiplier notation; titles fit the page and legends stay off
the data."""

from __future__ import annotations

import pandas as pd
import pytest
from figure_reading import drawn, learner_lines
from synthetic_table import LEARNERS, make_table

from olbench.analysis import figures
from olbench.analysis.figures import libol, mistakes, regret, style


def test_learner_colours_agree_across_figures(table):
    colours = [{k: ln.get_color() for k, ln in learner_lines(fig.axes[0]).items()}
               for fig in (regret.regret_figure(table), mistakes.mistakes_figure(table),
                           libol.libol_figure(table))]
    assert colours[0] == colours[1] == colours[2]
    assert len(set(colours[0].values())) == len(LEARNERS)
    assert style.VIOLATION not in colours[0].values()


@pytest.fixture(scope="module")
def long_table() -> pd.DataFrame:
    """Rounds up to 20000 and times near 1e-5 s: values that matplotlib's defaults print with
    an offset or a ×10^k multiplier above the axis."""
    return make_table(seeds=(0, 1), n=20000, n_checkpoints=12)


def test_lines_of_different_learners_differ_in_style_and_marker(table):
    styles = style.learner_styles([f"L{i}" for i in range(12)])
    looks = {(s["color"], s["linestyle"], s["marker"]) for s in styles.values()}
    assert len(looks) == 12                       # no two learners alike
    lines = learner_lines(mistakes.mistakes_figure(table).axes[0])
    assert len({ln.get_linestyle() for ln in lines.values()}) == len(LEARNERS)
    assert len({ln.get_marker() for ln in lines.values()}) == len(LEARNERS)


def test_no_axis_of_any_figure_uses_offset_or_multiplier_notation(long_table):
    made = figures.build_figures(long_table)
    assert {"regret", "libol", "mistakes"} <= set(made)
    for stem, fig in made.items():
        drawn(fig)
        for ax in fig.axes:
            for axis in (ax.xaxis, ax.yaxis):
                assert axis.get_offset_text().get_text() == "", (stem, axis.get_offset_text())


def test_titles_fit_and_legends_stay_off_the_data(long_table):
    for stem, fig in figures.build_figures(long_table).items():
        renderer = drawn(fig)
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
