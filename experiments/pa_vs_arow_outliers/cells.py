"""The outlier study's numbers, per cell, from a results folder's table (no learner is rerun).

    python experiments/pa_vs_arow_outliers/cells.py [results/pa_vs_arow_outliers/canonical]

writes into that folder

* ``cells.csv``: AROW (full) against each PA variant per cell (setting x outlier fraction x
  noise rate): both means with their 95 % t intervals over seeds, the mean paired difference
  with its interval, the Wilcoxon signed-rank p-value and its Holm adjustment over all rows
  (what the ``outlier_heatmap`` figure draws; :func:`olbench.figures.outlier_heatmap.
  heatmap_cells`);
* ``learners.csv``: every learner's mean final clean mistake rate per cell with its 95 % t
  interval over seeds,

and prints the summaries the study's README quotes.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

from olbench.figures.outlier_heatmap import heatmap_cells
from olbench.results import read_results
from olbench.stats import mean_interval, stream_factors
from olbench.views import display_name, final_rows, one_per_learner


def learner_cells(final: pd.DataFrame, metric: str, factors: list[str]) -> pd.DataFrame:
    """Mean of ``metric`` over seeds per cell and learner, with its 95 % t interval."""
    params = stream_factors(final["stream_label"])
    rows = final.join(params[factors], on="stream_label")
    out = [{**dict(zip(factors, key[:-1])), "learner": display_name(key[-1]), "k": len(sub),
            **dict(zip(("mean", "low", "high"), mean_interval(sub[metric])))}
           for key, sub in rows.groupby([*factors, "learner_label"])]
    return pd.DataFrame(out)


def main(folder: str = "results/pa_vs_arow_outliers/canonical") -> None:
    folder = Path(folder)
    table = read_results(folder)
    cells, metric, varying = heatmap_cells(table)
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


if __name__ == "__main__":
    main(*sys.argv[1:])
