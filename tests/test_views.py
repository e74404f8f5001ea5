"""Table views: one row per run and checkpoint without failed runs, the normal band over
seeds, log-log slopes, final bound checks."""

from __future__ import annotations

import numpy as np
import pytest
from synthetic_table import LEARNERS

from olbench.analysis import views


# --------------------------------------------------------------------------- table views
def test_per_checkpoint_one_row_per_run_and_t_without_failed_runs(table):
    cp = views.per_checkpoint(table)
    assert not cp.duplicated(["run_id", "t"]).any()
    assert set(cp["status"]) == {"ok"}
    assert cp["run_id"].nunique() == 2 * 3 * 3
    full = {"Separable[n=1000,d=2,gamma=0.1,R=1.0]",
            "Noisy[n=1000,d=5,gamma=0.1,R=1.0,flip_rate=0.05]"}
    assert set(cp["stream_name"]) == full                 # the seed is a replicate
    assert set(cp["stream_label"]) == {views.display_name(n) for n in full}  # as figures say


def test_mean_band_is_the_normal_interval_over_seeds(table):
    cp = views.per_checkpoint(table)
    band = views.mean_band(cp, "regret", ["stream_label", "learner_label"])
    t_last = cp["t"].max()
    sel = cp[(cp["learner_key"] == "ogd") & (cp["stream_key"] == "noisy") & (cp["t"] == t_last)]
    ogd = views.display_name(LEARNERS["ogd"])
    row = band[(band["learner_label"] == ogd) & (band["t"] == t_last)
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
    assert views.loglog_slope(t, y) == pytest.approx(power, abs=0.01)


def test_loglog_slope_fits_only_the_second_half_and_positive_values():
    t = np.arange(1.0, 21.0)
    y = np.where(t <= 10, -5.0, t ** 2)            # the first half would ruin a fit
    assert views.loglog_slope(t, y) == pytest.approx(2.0)
    assert np.isnan(views.loglog_slope([1.0, 2.0], [-1.0, -2.0]))




def test_data_flows_one_way_views_and_report_never_load_figure_code():
    """table -> views -> figures / report: neither the views nor the report import matplotlib
    or olbench.analysis.figures (the report receives figure files and captions as data)."""
    import subprocess
    import sys

    code = ("import sys, olbench.analysis.views, olbench.analysis.report; "
            "print(sorted(m for m in sys.modules "
            "if m.split('.')[0] == 'matplotlib' or m.startswith('olbench.analysis.figures')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
