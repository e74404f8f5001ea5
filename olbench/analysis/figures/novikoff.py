"""Novikoff's theorem on one axis, as a textbook prints it: the Perceptron's mistakes M_T
against the bound (R/γ)² for every run of every margin, log-log, with the line y = x (the
bound; points on it attain it, points above it would violate it)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, NullFormatter

from olbench import schema as col
from olbench.analysis.figures.layout import figure_legend
from olbench.analysis.figures.registry import figure
from olbench.analysis.figures.style import MARKERS, PALETTE, VIOLATION, styled
from olbench.analysis.views import drop_param, final_bound_checks, ordered
from olbench.component import parse_name

NOVIKOFF = "novikoff"


@figure("novikoff", order=35,
        caption="Perceptron mistakes M_T at the final round against Novikoff's bound (R/γ)², "
                "one small point per run and the mean over seeds per stream (95% error bars), "
                "log-log; on y = x the bound is attained, above it violated.")
@styled
def novikoff_figure(table: pd.DataFrame) -> Figure | None:
    """M_T against (R/γ)² for every run with a Novikoff check, across all streams and
    margins, on log-log axes with y = x; ``None`` without Novikoff checks."""
    checks = final_bound_checks(table)
    if checks.empty:
        return None
    checks = checks[checks[col.BOUND_NAME].eq(NOVIKOFF) & (checks[col.BOUND] > 0)]
    if checks.empty:
        return None
    checks = checks.drop_duplicates([col.RUN_ID])
    checks = checks.assign(family=checks[col.STREAM].map(lambda n: parse_name(n)[0]),
                           label=checks[col.STREAM].map(drop_param))
    x, y = checks[col.BOUND].to_numpy(float), checks[col.OBSERVED].to_numpy(float)
    floor = y <= 0
    positive = np.concatenate([x, y[~floor]])
    lo = 10 ** np.floor(np.log10(positive.min() / 1.5))
    hi = 10 ** np.ceil(np.log10(positive.max() * 1.5))
    fig = Figure(figsize=(6.2, 5.6), layout="constrained")
    ax = fig.subplots()
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.plot([lo, hi], [lo, hi], color="0.15", linewidth=1.2,
            label="y = x: M_T = (R/γ)² (the bound)")
    ax.fill_between([lo, hi], [lo, hi], hi, color=VIOLATION, alpha=0.05, linewidth=0)
    for i, family in enumerate(ordered(checks["family"])):
        colour, marker = PALETTE[i % len(PALETTE)], MARKERS[i % len(MARKERS)]
        sel = checks["family"].eq(family).to_numpy()
        ax.scatter(x[sel], np.where(floor[sel], lo * 1.3, y[sel]), s=12, alpha=0.35,
                   color=colour, marker=marker, linewidths=0)
        fam = checks[sel]
        stats = fam.groupby("label").agg(bound=(col.BOUND, "mean"), mean=(col.OBSERVED, "mean"),
                                         sd=(col.OBSERVED, "std"), k=(col.OBSERVED, "size"))
        half = 1.96 * stats["sd"].fillna(0.0) / np.sqrt(stats["k"])
        ax.errorbar(stats[col.BOUND], stats["mean"].clip(lower=lo * 1.3), yerr=half, fmt=marker,
                    color=colour, markersize=6, capsize=3, markeredgecolor="white",
                    label=f"{family}: mean over seeds per stream ({len(stats)} streams)")
    violated = checks["violated"].to_numpy(bool)
    if violated.any():
        ax.scatter(x[violated], y[violated], color=VIOLATION, marker="X", s=60, zorder=4,
                   label="violation (M_T > (R/γ)²)")
    if floor.any():
        ax.scatter([], [], color="0.4", marker="v", label="M_T = 0 (drawn at the floor)")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        axis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("Novikoff bound $(R/\\gamma)^2$ ($R = \\max_t \\|x_t\\|$, "
                  "γ: the data's max margin)")
    ax.set_ylabel("Perceptron mistakes $M_T$ at the final round")
    runs, seeds = len(checks), checks[col.SEED].nunique()
    ax.set_title(f"Novikoff's bound across all margins: {runs} runs, {seeds} seeds, "
                 f"{int(violated.sum())} above the bound")
    figure_legend(fig, [ax])
    return fig

