"""Windowed mistake rate vs t on drifting streams, with the rounds where the target switches
marked: a cumulative rate hides a switch late in a stream, the rate per window shows it.

The windows are the intervals between consecutive checkpoints (``run.checkpoint_spacing=
linear`` makes them equal); the switch rounds are what the runs wrote (the side table
``switches``: ``meta.extra["switch_times"]`` of their stream): no stream is rebuilt.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from olbench import schema as col
from olbench.analysis.figures.layout import finish_page, paged, panels
from olbench.analysis.figures.per_run import switch_times
from olbench.analysis.figures.registry import figure
from olbench.analysis.figures.style import BAND, LABELS, learner_styles, seeds_text, styled
from olbench.analysis.views import (
    drop_param,
    groups,
    mean_band,
    one_per_learner,
    per_checkpoint,
    windowed_rate,
)
from olbench.component import parse_name

SWITCH_COLOR = "0.3"


def drifting_streams(table: pd.DataFrame, side) -> dict[str, list[int]]:
    """``{stream label: switch rounds}`` of the drifting streams of the grid (those with a
    ``switch_at`` parameter: never a dataset; [] for one that drifts without switching), in
    the grid's order."""
    names = table[col.STREAM].dropna().unique() if col.STREAM in table else []
    drifting = {drop_param(name) for name in names if "switch_at" in parse_name(name)[1]}
    return switch_times(table, side, streams=drifting)


@figure("windowed_mistake_rate", order=55, side=("switches", "grid"),
        caption="Mistake rate within each window between consecutive checkpoints vs t on "
                f"drifting streams, mean over seeds ({BAND}); dotted vertical lines: the "
                "rounds where the target switches.")
@styled
def windowed_mistake_rate_figure(table: pd.DataFrame, side) -> Figure | list | None:
    """Windowed mistake rate (mistakes per round between consecutive checkpoints) vs t, one
    panel per drifting stream, one line per learner (mean over seeds, 95% band), the switch
    rounds as vertical lines; ``None`` without drifting streams or mistakes."""
    cp = per_checkpoint(table)
    if col.MISTAKES not in cp or cp[col.MISTAKES].notna().sum() == 0:
        return None
    switches = drifting_streams(table, side)
    cp = one_per_learner(cp[cp[col.STREAM_NAME].isin(list(switches))])
    if cp.empty:
        return None
    rates = windowed_rate(cp.dropna(subset=[col.MISTAKES]))
    styles = learner_styles(table)
    streams = [s for s in switches if s in set(rates[col.STREAM_NAME])]
    seeds = cp[col.SEED].nunique()

    def page(chosen: list[str]) -> Figure:
        fig, axes = panels(len(chosen), ncols=2, size=(6.0, 3.6))
        for ax, stream in zip(axes, chosen):
            _draw_windows(ax, rates[rates[col.STREAM_NAME].eq(stream)], styles, switches[stream])
        labels = [rates.loc[rates[col.STREAM_NAME].eq(s), col.STREAM_LABEL].iloc[0] for s in chosen]
        return finish_page(fig, axes, labels, "Windowed mistake rate on drifting streams (mean "
                           f"over {seeds_text(seeds)})", note=BAND, ncols=2)

    return paged(streams, page, per_page=4)


def _draw_windows(ax, sub: pd.DataFrame, styles: dict, switches: list[int]) -> None:
    """One panel of :func:`windowed_mistake_rate_figure`: ``sub``, one stream's windows."""
    band = mean_band(sub, "rate", [col.LEARNER_LABEL])
    for learner, g in groups(band, col.LEARNER_LABEL):
        # a window's rate holds over (t_{k-1}, t_k]: a step drawn up to t_k, from t = 0
        t = np.concatenate([[0.0], g[col.T].to_numpy(float)])
        mean, lo, hi = (np.concatenate([g[c].to_numpy(float)[:1], g[c].to_numpy(float)])
                        for c in ("mean", "lo", "hi"))
        ax.step(t, mean, where="pre", label=learner, **styles[learner])
        ax.fill_between(t, np.maximum(lo, 0), hi, step="pre",
                        color=styles[learner]["color"], alpha=0.18, linewidth=0)
    for i, t in enumerate(switches):
        ax.axvline(t, color=SWITCH_COLOR, linestyle=":", linewidth=1.2,
                   label="target switches" if i == 0 else None)
        ax.annotate(f"t = {t}", (t, 1.0), xycoords=("data", "axes fraction"),
                    xytext=(3, -10), textcoords="offset points", fontsize=7,
                    color=SWITCH_COLOR)
    top = float(np.nanmax(band["hi"])) if len(band) else 1.0
    ax.set_ylim(0, min(1.0, 1.1 * top) if top > 0 else 1.0)
    ax.set_xlim(0, float(band[col.T].max()) if len(band) else None)
    ax.set_xlabel(LABELS[col.T])
    ax.set_ylabel("mistake rate in the window\n(mistakes / rounds since last checkpoint)")
