"""The sparsity trade-off figure: final mistake rate against the fraction of non-zero
weights, one line per learner through its swept sparsity strength, 95% intervals over seeds
in both directions; single points for learners the grid did not sweep; nothing without a
sweep or without the column."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from synthetic_table import make_table

from olbench import schema as col
from olbench.analysis.figures.sparsity import sparsity_figure, tradeoff


def _table() -> pd.DataFrame:
    """The synthetic separable runs: OGD as it is (all 2 weights non-zero), and PA renamed
    FOBOS at l1 = 0.01, 0.1, 1 with 2 - k non-zero weights and mistake rates scaled up."""
    base = make_table(failures=False)
    base = base[base[col.STREAM_KEY].eq("separable")]
    ogd = base[base[col.LEARNER_KEY].eq("ogd")].assign(**{col.NONZERO_WEIGHTS: 2.0})
    pa = base[base[col.LEARNER_KEY].eq("pa")]
    parts = [ogd]
    for k, l1 in enumerate((0.01, 0.1, 1.0)):
        parts.append(pa.assign(**{
            col.LEARNER: f"FOBOS[loss=hinge,eta=0.5,schedule=sqrt,l1={l1},l2=0.0]",
            col.LEARNER_KEY: "fobos", col.RUN_ID: pa[col.RUN_ID] + f"-l1{l1}",
            col.NONZERO_WEIGHTS: 2.0 - 0.5 * k - 0.25 * pa[col.SEED],
            col.MISTAKE_RATE: pa[col.MISTAKE_RATE] * (1 + k)}))
    return pd.concat(parts, ignore_index=True)


def test_each_point_is_the_mean_over_seeds_of_density_and_error_with_95_intervals():
    table = _table()
    stats = tradeoff(table)
    fobos = stats[stats["series"].str.startswith("FOBOS")].sort_values("value")
    assert fobos["value"].tolist() == [0.01, 0.1, 1.0]
    assert set(fobos["series"]) == {"FOBOS[loss=hinge,eta=0.5,schedule=sqrt,l2=0.0]"}
    last = table[table[col.T].eq(table[col.T].max())]
    for _, row in fobos.iterrows():
        runs = last[last[col.LEARNER].str.contains(f"l1={row['value']}")]
        density = runs[col.NONZERO_WEIGHTS] / 2.0
        assert row["density"] == pytest.approx(density.mean())
        assert row["density_half"] == pytest.approx(1.96 * density.std() / np.sqrt(3))
        assert row["error"] == pytest.approx(runs[col.MISTAKE_RATE].mean())
        assert row["k"] == 3
    ogd = stats[stats["series"].str.startswith("OGD")]
    assert len(ogd) == 1 and np.isnan(ogd["value"].iloc[0]) and ogd["density"].iloc[0] == 1.0


def test_the_figure_draws_a_line_per_learner_and_a_point_for_the_unswept():
    fig = sparsity_figure(_table())
    fig = fig[0] if isinstance(fig, list) else fig
    ax = fig.axes[0]
    assert ax.get_xscale() == "log"
    lines = {c.get_label(): c.lines[0] for c in ax.containers}
    assert len(lines["FOBOS (eta=0.5)"].get_xdata()) == 3
    assert len(lines["OGD (eta=0.5, radius=1)"].get_xdata()) == 1


def test_no_figure_without_the_column_or_without_a_swept_strength():
    table = _table()
    assert sparsity_figure(table.drop(columns=[col.NONZERO_WEIGHTS])) is None
    assert sparsity_figure(table[~table[col.LEARNER_KEY].eq("fobos")]) is None
    dense = table.assign(**{col.NONZERO_WEIGHTS: 2.0})     # a sweep that kept every weight
    assert sparsity_figure(dense) is None


def test_a_strength_that_left_no_weight_is_named_in_the_note_not_dropped():
    table = _table()
    table.loc[table[col.LEARNER].str.contains("l1=1.0"), col.NONZERO_WEIGHTS] = 0.0
    fig = sparsity_figure(table)
    fig = fig[0] if isinstance(fig, list) else fig
    lines = {c.get_label(): c.lines[0] for c in fig.axes[0].containers}
    assert len(lines["FOBOS (eta=0.5)"].get_xdata()) == 2
    texts = " ".join(t.get_text() for t in fig.legends[0].get_texts())
    assert "strengths that left no weight, not on the log axis" in texts
    assert "FOBOS (eta=0.5) (1)" in texts
