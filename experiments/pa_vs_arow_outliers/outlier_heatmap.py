"""AROW − PA per cell of an outlier-fraction × label-noise grid, marked where significant.

Drawn for tables whose streams have both an ``outlier_fraction`` and a ``flip_rate``
parameter (:class:`~olbench.streams.synthetic.Outliers`) and that hold AROW (full matrix) and
at least one PA variant: one heatmap per setting of the other stream parameters that vary
(e.g. d, standardize, bias_value), two to a row, a page per PA variant. A cell's colour and
number are the mean over seeds of AROW's final mistake rate minus PA's, in percentage
points, against the clean labels when the table has them (negative: AROW errs less); a star
marks a cell where the Wilcoxon signed-rank test over seeds (paired: same seed, same stream)
rejects equality at 5 % after Holm's adjustment over every cell of every PA variant
(:func:`olbench.analysis.stats.paired_cells`). A PA variant within :data:`SAME_PP` percentage points
of the first in every cell is named under the figure rather than drawn again, and when the
seeds are too few for any cell to reach 5 % (three seeds: p >= 0.25) the figure says so.

The study's own figure: it lives with the study and is registered by importing this file,
which the study's config names (``modules:``, :mod:`olbench.harness.studies`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from olbench import schema as col
from olbench.analysis.figures.layout import paged, pages
from olbench.analysis.figures.registry import figure
from olbench.analysis.figures.style import chars, styled, wrap
from olbench.analysis.stats import holm, paired_cells, paired_test, stream_factors
from olbench.analysis.views import display_name, final_rows, one_per_learner, ordered
from olbench.component import parse_name

CELL = ("outlier_fraction", "flip_rate")   # the heatmap's rows and columns
ALPHA = 0.05
#: PA variants whose AROW − PA is within this many percentage points of the first's in
#: every cell are named, not drawn (three near-identical columns say nothing more)
SAME_PP = 1.0
#: At most this many settings (heatmaps) per page
SETTINGS_PER_PAGE = 8


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
    columns of :func:`olbench.analysis.stats.paired_cells` plus ``arow`` and ``pa`` (the learner
    labels); Holm's
    adjustment (``p_holm``) is over all rows. Also returns the metric and the setting
    factors. None when the table has no such grid."""
    fin = one_per_learner(final_rows(table))
    # the cells are found from the streams' and learners' parameters: their full names
    fin = fin.assign(stream_label=fin[col.STREAM_NAME], learner_label=fin[col.LEARNER_NAME])
    metric = (col.CLEAN_MISTAKE_RATE if col.CLEAN_MISTAKE_RATE in fin
              and fin[col.CLEAN_MISTAKE_RATE].notna().any() else col.MISTAKE_RATE)
    if fin.empty or metric not in fin:
        return None
    params = stream_factors(fin[col.STREAM_LABEL])
    if not set(CELL) <= set(params):
        return None
    fin = fin[fin[col.STREAM_LABEL].isin(params.index[params[list(CELL)].notna().all(axis=1)])]
    params = params.loc[ordered(fin[col.STREAM_LABEL])].dropna(axis=1, how="all")
    arow, pas = _learners(fin[col.LEARNER_LABEL])
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


def smallest_p(k: int) -> float:
    """The smallest two-sided p-value :func:`~olbench.analysis.stats.paired_test` can give for ``k``
    pairs: every difference of one sign, all distinct (the exact test: 2 / 2^k) or all tied
    (the normal approximation scipy uses with ties, whose variance the ties shrink).

    >>> smallest_p(3), smallest_p(4), smallest_p(6)
    (0.25, 0.125, 0.03125)
    """
    return min(paired_test(np.arange(1.0, k + 1), np.zeros(k)).p_value,
               paired_test(np.ones(k), np.zeros(k)).p_value)


def star_note(cells: pd.DataFrame, alpha: float = ALPHA) -> str | None:
    """Why no cell can get a star, when none can: with the seeds of the cells, even the
    smallest p-value times the number of cells (Holm's first step) is not below ``alpha``."""
    k, m = int(cells["k"].max()), len(cells)
    floor = smallest_p(k)
    if m * floor < alpha:
        return None
    return (f"no cell can be starred: with {k} seeds the smallest possible Wilcoxon p is "
            f"{floor:.2g}, {min(1.0, m * floor):.2g} after Holm over {m} cells")


def drawn_variants(cells: pd.DataFrame, factors: list[str],
                   tolerance: float = SAME_PP) -> tuple[list[str], str]:
    """The PA variants to draw: the first (PA, PA-I, PA-II order) and each one whose AROW − PA
    differs from the first's by more than ``tolerance`` percentage points in some cell; and
    a note naming the others and by how much at most they differ."""
    pas = list(dict.fromkeys(cells["pa"]))
    first = cells[cells["pa"].eq(pas[0])].set_index(factors)["diff"]
    drawn, alike = [pas[0]], []
    for pa in pas[1:]:
        gap = float((cells[cells["pa"].eq(pa)].set_index(factors)["diff"] - first)
                    .abs().max()) * 100
        if gap <= tolerance:
            alike.append(f"{display_name(pa)} within {gap:.1f} pp")
        else:
            drawn.append(pa)
    note = (f"{', '.join(alike)} of {display_name(pas[0])} in every cell (not drawn)"
            if alike else "")
    return drawn, note


@figure("outlier_heatmap", order=55,
        caption="AROW − PA per cell (outlier fraction × label-noise rate), one heatmap per "
                "setting of the other stream parameters: mean over seeds of the difference in "
                "final mistake rate against the clean labels, in percentage points (blue: AROW "
                "errs less); * = Wilcoxon signed-rank test over seeds (paired by seed) "
                "significant at 5 % after Holm's adjustment over all cells of every PA "
                "variant. A PA variant within 1 pp of PA in every cell is named, not drawn; "
                "the figure says when the seeds are too few for any star.")
@styled
def outlier_heatmap_figure(table: pd.DataFrame) -> Figure | list | None:
    """One page per PA variant drawn (:func:`drawn_variants`), one heatmap per setting (at
    most :data:`SETTINGS_PER_PAGE` to a page): see the module docstring."""
    found = heatmap_cells(table)
    if found is None:
        return None
    cells, metric, varying = found
    settings = (cells[varying].drop_duplicates().to_dict("records") if varying else [{}])
    pas, alike = drawn_variants(cells, [*varying, *CELL])
    notes = [n for n in (alike, star_note(cells)) if n]
    limit = max(float(np.nanmax(np.abs(cells["diff"]))) * 100, 1e-9)
    seeds = int(cells["k"].max())
    sheets = [(pa, chunk) for pa in pas for chunk in pages(settings, SETTINGS_PER_PAGE)]

    def page(key: list) -> Figure:
        ((pa, chosen),) = key
        return _heatmap_page(cells[cells["pa"].eq(pa)], chosen, metric, limit, seeds, notes)

    return paged(sheets, page, per_page=1)


def _heatmap_page(cells: pd.DataFrame, settings: list[dict], metric: str, limit: float,
                  seeds: int, notes: list[str]) -> Figure:
    """The heatmaps of one PA variant's ``cells``, one per setting, two to a row."""
    rows_v, cols_v = (sorted(cells[c].unique()) for c in CELL)
    ncols = min(2, len(settings))
    nrows = -(-len(settings) // ncols)
    fig = Figure(figsize=(3.6 * ncols + 1.2, 2.45 * nrows + 1.4), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False)
    image = None
    for i, setting in enumerate(settings):
        ax = axes.flat[i]
        mask = pd.Series(True, index=cells.index)
        for key, value in setting.items():
            mask &= cells[key].eq(value)
        sub = cells[mask].set_index(list(CELL))
        grid = np.full((len(rows_v), len(cols_v)), np.nan)
        for (r, c), row in sub.iterrows():
            grid[rows_v.index(r), cols_v.index(c)] = row["diff"] * 100
            star = "*" if row["p_holm"] < ALPHA else ""
            ax.text(cols_v.index(c), rows_v.index(r), f"{row['diff'] * 100:+.1f}{star}",
                    ha="center", va="center", fontsize=7.5)
        image = ax.imshow(grid, cmap="RdBu_r", vmin=-limit, vmax=limit, aspect="auto")
        ax.set_xticks(range(len(cols_v)), [f"{v:g}" for v in cols_v])
        ax.set_yticks(range(len(rows_v)), [f"{v:g}" for v in rows_v])
        ax.grid(False)
        ax.set_title(wrap(_setting_title(setting), 44), fontsize=9)
        if i % ncols == 0:
            ax.set_ylabel("outlier fraction")
        if i >= len(settings) - ncols:
            ax.set_xlabel("label-noise rate")
    for ax in axes.flat[len(settings):]:
        ax.set_visible(False)
    fig.colorbar(image, ax=axes, shrink=0.5, label=wrap(f"AROW − PA, {metric} (pp)", 30))
    arow, pa = display_name(cells["arow"].iloc[0]), display_name(cells["pa"].iloc[0])
    fig.suptitle(wrap(f"{arow} − {pa}: {metric.replace('_', ' ')} at the final round, "
                      f"mean over {seeds} seeds (blue: AROW errs less)", chars(fig, 11)))
    foot = "* Wilcoxon signed-rank over seeds, paired by seed, Holm-adjusted 5 %"
    fig.supxlabel(wrap("; ".join([foot, *notes]) + ".", chars(fig, 8)), fontsize=8,
                  color="0.3")
    return fig
