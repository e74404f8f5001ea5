"""AROW − PA per cell of an outlier-fraction × label-noise grid, marked where significant.

Drawn for tables whose streams have both an ``outlier_fraction`` and a ``flip_rate``
parameter (:class:`~olbench.streams.synthetic.Outliers`) and that hold AROW (full matrix) and
at least one PA variant: one heatmap per (PA variant, setting of the other stream parameters
that vary, e.g. d, standardize, bias_value). A cell's colour and number are the mean over
seeds of AROW's final mistake rate minus PA's, in percentage points, against the clean labels
when the table has them (negative: AROW errs less); a star marks a cell where the
Wilcoxon signed-rank test over seeds (paired: same seed, same stream) rejects equality at
5 % after Holm's adjustment over every cell of the figure (:func:`olbench.stats.paired_cells`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from olbench import schema as col
from olbench.component import parse_name
from olbench.figures.registry import figure
from olbench.figures.style import styled
from olbench.stats import holm, paired_cells, stream_factors
from olbench.views import display_name, final_rows, one_per_learner, ordered

CELL = ("outlier_fraction", "flip_rate")   # the heatmap's rows and columns
ALPHA = 0.05


def _learners(labels) -> tuple[str | None, list[str]]:
    """The full-matrix AROW and the PA variants (pa, pa1, pa2 order) among the labels."""
    parsed = {name: parse_name(name) for name in ordered(labels)}
    arow = [n for n, (cls, p) in parsed.items() if cls == "AROW" and not p.get("diagonal")]
    variant_order = {"pa": 0, "pa1": 1, "pa2": 2}
    pas = sorted((n for n, (cls, _) in parsed.items() if cls == "PA"),
                 key=lambda n: variant_order.get(parsed[n][1].get("variant"), 3))
    return (arow[0] if arow else None), pas


def _setting_title(setting: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in setting.items()) or "all streams"


def heatmap_cells(table: pd.DataFrame) -> tuple[pd.DataFrame, str, list[str]] | None:
    """The paired cells behind the figure: one row per (PA variant, setting, cell) with the
    columns of :func:`olbench.stats.paired_cells` plus ``arow`` and ``pa`` (the learner
    labels); Holm's
    adjustment (``p_holm``) is over all rows. Also returns the metric and the setting
    factors. None when the table has no such grid."""
    fin = one_per_learner(final_rows(table))
    # the cells are found from the streams' and learners' parameters: their full names
    fin = fin.assign(stream_label=fin["stream_name"], learner_label=fin["learner_name"])
    metric = (col.CLEAN_MISTAKE_RATE if col.CLEAN_MISTAKE_RATE in fin
              and fin[col.CLEAN_MISTAKE_RATE].notna().any() else col.MISTAKE_RATE)
    if fin.empty or metric not in fin:
        return None
    params = stream_factors(fin["stream_label"])
    if not set(CELL) <= set(params):
        return None
    fin = fin[fin["stream_label"].isin(params.index[params[list(CELL)].notna().all(axis=1)])]
    params = params.loc[ordered(fin["stream_label"])].dropna(axis=1, how="all")
    arow, pas = _learners(fin["learner_label"])
    if arow is None or not pas:
        return None
    varying = [c for c in params if c not in CELL and c != col.SEED
               and params[c].astype(str).nunique() > 1]
    factors = [*varying, *CELL]
    cells = pd.concat([paired_cells(fin, metric, arow, pa, factors).assign(arow=arow, pa=pa)
                       for pa in pas], ignore_index=True)
    if cells.empty:
        return None
    cells["p_holm"] = holm(cells["p_value"])
    return cells, metric, varying


@figure("outlier_heatmap", order=55,
        caption="AROW − PA per cell (outlier fraction × label-noise rate): mean over seeds of "
                "the difference in final mistake rate against the clean labels, in percentage "
                "points (blue: AROW errs less); * = Wilcoxon signed-rank test over seeds "
                "(paired by seed) significant at 5 % after Holm's adjustment over all cells.")
@styled
def outlier_heatmap_figure(table: pd.DataFrame) -> Figure | None:
    """One heatmap per (PA variant, setting): see the module docstring."""
    found = heatmap_cells(table)
    if found is None:
        return None
    cells, metric, varying = found
    settings = (cells[varying].drop_duplicates().to_dict("records") if varying else [{}])
    pas = list(dict.fromkeys(cells["pa"]))
    rows_v, cols_v = (sorted(cells[c].unique()) for c in CELL)
    limit = max(float(np.nanmax(np.abs(cells["diff"]))) * 100, 1e-9)
    fig = Figure(figsize=(3.0 * len(pas) + 0.8, 2.5 * len(settings) + 1.0), layout="constrained")
    axes = np.atleast_2d(fig.subplots(len(settings), len(pas), squeeze=False))
    image = None
    for i, setting in enumerate(settings):
        for j, pa in enumerate(pas):
            ax = axes[i, j]
            mask = cells["pa"].eq(pa)
            for key, value in setting.items():
                mask &= cells[key].eq(value)
            sub = cells[mask].set_index(list(CELL))
            grid = np.full((len(rows_v), len(cols_v)), np.nan)
            for (r, c), row in sub.iterrows():
                grid[rows_v.index(r), cols_v.index(c)] = row["diff"] * 100
                star = "*" if row["p_holm"] < ALPHA else ""
                ax.text(cols_v.index(c), rows_v.index(r), f"{row['diff'] * 100:+.1f}{star}",
                        ha="center", va="center", fontsize=6.5)
            image = ax.imshow(grid, cmap="RdBu_r", vmin=-limit, vmax=limit, aspect="auto")
            ax.set_xticks(range(len(cols_v)), [f"{v:g}" for v in cols_v])
            ax.set_yticks(range(len(rows_v)), [f"{v:g}" for v in rows_v])
            ax.grid(False)
            if i == 0:
                ax.set_title(f"{display_name(cells['arow'].iloc[0])} − {display_name(pa)}")
            if i == len(settings) - 1:
                ax.set_xlabel("label-noise rate (flip_rate)")
            if j == 0:
                ax.set_ylabel(f"{_setting_title(setting)}\noutlier fraction", fontsize=8)
    fig.colorbar(image, ax=axes, shrink=0.4, label=f"AROW − PA, {metric} (percentage points)")
    fig.suptitle(f"AROW − PA: {metric} at the final round, mean over seeds (blue: AROW errs "
                 f"less)\n* Wilcoxon signed-rank over seeds, paired by seed, Holm-adjusted 5 %")
    return fig
