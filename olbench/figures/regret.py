"""Regret vs t per learner, one panel per stream: linear axes, and log-log axes with the
fitted slope of each curve (√t regret has slope 0.5)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from olbench import schema as col
from olbench.figures.registry import figure
from olbench.figures.style import (
    BAND,
    LABELS,
    LINESTYLES,
    chars,
    figure_legend,
    learner_styles,
    panels,
    styled,
    wrap,
)
from olbench.views import loglog_slope, mean_band, natural_key, ordered, per_checkpoint


def _single(series: pd.Series, what: str) -> str:
    vals = series.dropna().unique()
    return str(vals[0]) if len(vals) == 1 else f"{len(vals)} {what}s" if len(vals) else "none"


@figure("regret_loglog", order=20, loglog=True,
        caption="Regret vs t on log-log axes; the slope is a least-squares fit of log regret vs "
                "log t over the second half of the checkpoints (√t regret has slope 0.5). "
                "Non-positive regret cannot be drawn and is left out.")
@figure(col.REGRET, order=10,
        caption=f"Regret vs t per learner (one panel per stream); line: mean over seeds, {BAND}.")
@styled
def regret_figure(table: pd.DataFrame, *, loglog: bool = False) -> Figure | None:
    """Regret vs t per learner, one panel per stream, mean over seeds with a 95% band.

    With ``loglog``, log-log axes and each learner's fitted slope (second half of the
    checkpoints) in its legend entry; non-positive means are left out with a note."""
    cp = per_checkpoint(table)
    if col.REGRET not in cp or cp[col.REGRET].notna().sum() == 0:
        return None
    cp = cp[cp[col.REGRET].notna()]
    if loglog and not (cp[col.REGRET] > 0).any():
        return None
    styles = learner_styles(table)
    comparators = ordered(cp[col.COMPARATOR])
    many = len(comparators) > 1
    cp = cp.assign(comparator=cp[col.COMPARATOR].fillna("none").astype(str))
    streams = ordered(cp["stream_label"])
    fig, axes = panels(len(streams))
    for ax, stream in zip(axes, streams):
        band = mean_band(cp[cp["stream_label"].eq(stream)], col.REGRET,
                         ["learner_label", col.COMPARATOR])
        dropped = 0
        for (learner, comp), g in sorted(band.groupby(["learner_label", col.COMPARATOR]),
                                         key=lambda kv: tuple(map(natural_key, kv[0]))):
            style = dict(styles[learner])
            if many:
                style["linestyle"] = LINESTYLES[comparators.index(comp) % len(LINESTYLES)]
            label = f"{learner} vs {comp}" if many else learner
            t, m, lo, hi = (g[c].to_numpy(float) for c in (col.T, "mean", "lo", "hi"))
            if loglog:
                pos = m > 0
                dropped += int((~pos).sum())
                slope = loglog_slope(t, m)
                label += f"  slope {slope:.2f}" if np.isfinite(slope) else "  slope n/a"
                t, m, lo, hi = t[pos], m[pos], np.where(lo[pos] > 0, lo[pos], m[pos]), hi[pos]
            ax.plot(t, m, label=label, **style)
            ax.fill_between(t, lo, hi, color=style["color"], alpha=0.18, linewidth=0)
        if loglog:
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.legend(loc="upper left")
            if dropped:
                ax.text(0.98, 0.02, f"{dropped} non-positive mean regret point(s) not shown",
                        transform=ax.transAxes, ha="right", va="bottom", fontsize=7,
                        color="0.35")
        else:
            ax.axhline(0, color="0.3", linewidth=0.8)
        ax.set_title(wrap(stream))
        ax.set_xlabel(LABELS[col.T])
        ax.set_ylabel(LABELS[col.REGRET])
    loss = _single(cp[col.LOSS], col.LOSS) if col.LOSS in cp else "?"
    comp = _single(cp.loc[cp[col.COMPARATOR].ne("none"), col.COMPARATOR], col.COMPARATOR)
    fig.suptitle(wrap(f"Regret ({loss} loss) against comparator u = {comp}", chars(fig, 11)))
    if not loglog:
        figure_legend(fig, axes, note=BAND)
    else:
        fig.supxlabel(wrap(BAND + "; slope: least-squares fit of log regret vs log t over "
                           "the second half of the checkpoints", chars(fig, 8)),
                      fontsize=8, color="0.3")
    return fig
