"""The outlier study's numbers, per cell, from a results folder's table (no learner is rerun).

    python experiments/pa_vs_arow_outliers/cells.py [results/pa_vs_arow_outliers/canonical]

writes into that folder

* ``cells.csv``: AROW (full) against each PA variant per cell (setting x outlier fraction x
  noise rate): both means with their 95 % t intervals over seeds, the mean paired difference
  with its interval, the Wilcoxon signed-rank p-value and its Holm adjustment over all rows
  (what the ``outlier_heatmap`` figure draws: ``heatmap_cells`` of this folder's
  ``outlier_heatmap.py``);
* ``learners.csv``: every learner's mean final clean mistake rate per cell with its 95 % t
  interval over seeds,
* ``bias.csv`` (when the grid varies the bias column's value): per PA variant and cell, the
  gap AROW − PA at bias 1 and at the other bias value, and how it changes (paired by seed:
  the same seed draws the same points at both values; Wilcoxon, Holm over all rows;
  :func:`olbench.analysis.stats.gap_change`),

and prints the summaries the study's README quotes.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

from olbench.analysis.stats import gap_change, holm, mean_interval, stream_factors
from olbench.analysis.views import display_name, final_rows, one_per_learner
from olbench.harness.results import read_results
from olbench.harness.studies import study_module

heatmap_cells = study_module(Path(__file__).with_name("outlier_heatmap.py")).heatmap_cells


def learner_cells(final: pd.DataFrame, metric: str, factors: list[str]) -> pd.DataFrame:
    """Mean of ``metric`` over seeds per cell and learner, with its 95 % t interval."""
    params = stream_factors(final["stream_label"])
    rows = final.join(params[factors], on="stream_label")
    out = [{**dict(zip(factors, key[:-1])), "learner": display_name(key[-1]), "k": len(sub),
            **dict(zip(("mean", "low", "high"), mean_interval(sub[metric])))}
           for key, sub in rows.groupby([*factors, "learner_label"])]
    return pd.DataFrame(out)


def bias_changes(fin: pd.DataFrame, metric: str, cells: pd.DataFrame,
                 factors: list[str], base: float = 1.0) -> pd.DataFrame:
    """Per PA variant and cell: AROW − PA at bias ``base`` and at each other bias value, and
    the change (:func:`olbench.analysis.stats.gap_change`), Holm-adjusted over all rows."""
    others = sorted(v for v in cells["bias_value"].unique() if v != base)
    rest = [f for f in factors if f != "bias_value"]
    parts = [gap_change(fin, metric, arow, pa, rest, "bias_value", base, other)
             .assign(bias_base=base, bias_other=other, arow=display_name(arow),
                     pa=display_name(pa))
             for arow, pa in cells[["arow_name", "pa_name"]].drop_duplicates().itertuples(
                 index=False) for other in others]
    out = pd.concat(parts, ignore_index=True)
    out["p_holm"] = holm(out["p_value"])
    return out


def main(folder: str = "results/pa_vs_arow_outliers/canonical") -> None:
    folder = Path(folder)
    table = read_results(folder)
    cells, metric, varying = heatmap_cells(table)
    names = cells[["arow", "pa"]].rename(columns=lambda c: f"{c}_name")
    cells["pa"] = cells["pa"].map(display_name)
    cells["arow"] = cells["arow"].map(display_name)
    cells.to_csv(folder / "cells.csv", index=False, float_format="%.6g")
    fin = one_per_learner(final_rows(table))
    # cells are read from the streams' parameters: their full names, not the display labels
    fin = fin.assign(stream_label=fin["stream_name"], learner_label=fin["learner_name"])
    fin = fin[fin["stream_label"].str.startswith("Outliers[")]
    factors = [*varying, "outlier_fraction", "flip_rate"]
    learners = learner_cells(fin, metric, factors)
    learners.to_csv(folder / "learners.csv", index=False, float_format="%.6g")
    bias = None
    if "bias_value" in varying:
        bias = bias_changes(fin, metric, cells.join(names), factors)
        bias.to_csv(folder / "bias.csv", index=False, float_format="%.6g")

    pd.set_option("display.width", 200)
    cells["significant"] = cells["p_holm"] < 0.05
    cells["arow_wins"] = cells["significant"] & (cells["diff"] < 0)
    cells["arow_loses"] = cells["significant"] & (cells["diff"] > 0)
    print(f"metric: {metric}; {len(cells)} paired cells; seeds per cell: "
          f"{sorted(cells['k'].unique())}")
    print(cells.groupby(["pa", *varying])[["arow_wins", "arow_loses", "diff"]]
          .agg({"arow_wins": "sum", "arow_loses": "sum", "diff": ["mean", "min", "max"]})
          .round(3).to_string())
    wide = learners.pivot_table(index=factors, columns="learner", values="mean")
    print(wide.round(3).to_string())
    print(learners.groupby([*varying, "learner"])["mean"].mean().unstack().round(3).to_string())
    if bias is not None:
        bias["significant"] = bias["p_holm"] < 0.05
        print(f"AROW − PA at bias {bias['bias_base'].iloc[0]:g} and at the other value, and "
              "the change (paired by seed, Holm over all rows):")
        rest = [f for f in varying if f != "bias_value"]
        print(bias.groupby(["pa", "bias_other", *rest])
              .agg(gap_base=("gap_base", "mean"), gap_other=("gap_other", "mean"),
                   change=("change", "mean"), change_min=("change", "min"),
                   change_max=("change", "max"), significant=("significant", "sum"),
                   cells=("change", "size")).round(3).to_string())


if __name__ == "__main__":
    main(*sys.argv[1:])
