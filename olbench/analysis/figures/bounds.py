"""Observed quantity vs its theoretical bound at the final checkpoint, one point per (run,
bound), on log axes with y = x; violations in red."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, NullFormatter

from olbench import schema as col
from olbench.analysis.figures.layout import figure_legend
from olbench.analysis.figures.registry import figure
from olbench.analysis.figures.style import PALETTE, VIOLATION, styled
from olbench.analysis.views import final_bound_checks, ordered


@figure("bounds", order=40,
        caption="Observed quantity vs its theoretical bound at the final checkpoint, one point "
                "per (run, bound); points above y = x (red) violate the bound.")
@styled
def bound_scatter_figure(table: pd.DataFrame) -> Figure | None:
    """Observed vs bound at the final checkpoint for every (run, bound) with a value, on log
    axes with y = x; violations in red (counted in the title, labelled when few)."""
    checks = final_bound_checks(table)
    if checks.empty:
        return None
    x, y = checks[col.BOUND].to_numpy(float), checks[col.OBSERVED].to_numpy(float)
    positive = np.concatenate([x[x > 0], y[y > 0]])
    lo, hi = ((10 ** np.floor(np.log10(positive.min() / 1.5)),
               10 ** np.ceil(np.log10(positive.max() * 1.5))) if len(positive) else (0.1, 10.0))
    floor = y <= 0
    y = np.where(floor, lo * 1.3, y)
    fig = Figure(figsize=(6.4, 5.4), layout="constrained")
    ax = fig.subplots()
    ax.set_xscale("log")
    ax.set_yscale("log")
    diag = np.array([lo, hi])
    ax.fill_between(diag, diag, hi, color=VIOLATION, alpha=0.05, linewidth=0)
    ax.plot(diag, diag, color="0.2", linewidth=1, label="y = x (observed = bound)")
    viol = checks["violated"].to_numpy(bool)
    markers = "osD^v<>p"
    for i, name in enumerate(ordered(checks[col.BOUND_NAME])):
        sel = checks[col.BOUND_NAME].eq(name).to_numpy() & ~viol
        for is_floor, mk in ((False, markers[i % len(markers)]), (True, "v")):
            s = sel & (floor == is_floor)
            if s.any():
                ax.scatter(x[s], y[s], facecolors="none", edgecolors=PALETTE[i % len(PALETTE)],
                           marker=mk, s=30, linewidths=1.2, label=name if not is_floor else None,
                           zorder=3)
    if viol.any():
        ax.scatter(x[viol], y[viol], color=VIOLATION, marker="X", s=60, zorder=4,
                   label="violation (observed > bound)")
        if viol.sum() <= 6:
            for xi, yi, (_, r) in zip(x[viol], y[viol], checks[viol].iterrows()):
                ax.annotate(f"{r[col.LEARNER_LABEL]} {r[col.BOUND_NAME]} seed={r[col.SEED]}",
                            (xi, yi), fontsize=7, color=VIOLATION, xytext=(4, 4),
                            textcoords="offset points")
    if floor.any():
        ax.scatter([], [], color="0.4", marker="v", label="observed ≤ 0 (drawn at the floor)")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    for axis in (ax.xaxis, ax.yaxis):             # decades labelled as plain numbers
        axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        axis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("bound value (log scale)")
    ax.set_ylabel("observed quantity (log scale)")
    figure_legend(fig, [ax])
    n, v = len(checks), int(viol.sum())
    ax.set_title(f"Observed vs bound at the final checkpoint: {n} checks, "
                 f"{v} violation{'s' if v != 1 else ''}")
    return fig
