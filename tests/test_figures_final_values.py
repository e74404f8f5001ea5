"""The figures of final values: one box (or, for few seeds, the points with their mean and
95% interval) per learner and stream, and a final value against each swept parameter, with
95% intervals over seeds."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from figure_reading import SHORT
from synthetic_table import LEARNERS, make_table

from olbench.analysis import figures, views
from olbench.analysis.figures import final


def test_final_boxplots_one_box_per_learner_per_stream(table):
    fig = final.final_boxplot_figure(table, metric="mistake_rate")
    assert len(fig.axes) == 2
    for ax in fig.axes:
        assert sorted(t.get_text() for t in ax.get_yticklabels()) == sorted(SHORT.values())
        dots = [c for c in ax.collections if len(c.get_offsets()) == 3]
        assert len(dots) == len(LEARNERS)        # the three seeds of each learner
    assert final.final_boxplot_figure(table, metric="no_such_metric") is None


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
