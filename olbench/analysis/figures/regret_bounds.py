"""Regret curves with the regret bounds checked on them: the observed regret and the bound
of each (learner, theorem) on the same axes, and observed/bound against t (the fraction of
the bound used, e.g. Hedge against sqrt((T/2) ln N) for several N)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from olbench import schema as col
from olbench.analysis.figures.layout import figure_legend, finish_page, paged, panels
from olbench.analysis.figures.registry import figure
from olbench.analysis.figures.style import (
    LABELS,
    learner_styles,
    line_style,
    seeds_text,
    styled,
    wrap,
)
from olbench.analysis.views import display_name, groups, label, natural_key, ok_rows, ordered


def regret_bound_rows(table: pd.DataFrame) -> pd.DataFrame:
    """The checked regret bounds, averaged over seeds: one row per (stream, learner, bound,
    t) with ``observed``, ``bound``, ``ratio`` (means over the seeds) and ``k`` (seeds)."""
    ok = ok_rows(table)
    if col.QUANTITY not in ok:
        return pd.DataFrame()
    rows = ok[ok[col.QUANTITY].eq("regret") & ok[col.BOUND].notna()]
    if rows.empty:
        return pd.DataFrame()
    rows = rows.assign(stream_label=label(rows, col.STREAM).map(display_name),
                       learner_label=label(rows, col.LEARNER).map(display_name),
                       ratio=rows[col.OBSERVED].astype(float) / rows[col.BOUND].astype(float))
    keys = [col.STREAM_LABEL, col.LEARNER_LABEL, col.BOUND_NAME, col.T]
    return (rows.groupby(keys)
                .agg(observed=(col.OBSERVED, "mean"), bound=(col.BOUND, "mean"),
                     ratio=(col.RATIO, "mean"), k=(col.SEED, "nunique"))
                .reset_index())


#: A panel is drawn on log axes when its largest curve ends more than this many times above
#: its smallest (the smaller ones would be flat lines at zero on a linear axis).
LOG_SPREAD = 20.0


def _log_worthy(finals: list[float], values: np.ndarray) -> bool:
    """Log y for curves whose final values spread over more than :data:`LOG_SPREAD` (all
    drawn values positive: a log axis cannot show the others).

    >>> _log_worthy([10000.0, 20000.0, 60.0], np.array([0.5, 60.0]))
    True
    >>> _log_worthy([5.0, 9.0], np.ones(2)), _log_worthy([1.0, 100.0], np.array([-1.0, 100.0]))
    (False, False)
    """
    finals = np.abs(np.asarray(finals, float))
    return bool(len(finals) > 1 and (values > 0).all() and finals.min() > 0
                and finals.max() > LOG_SPREAD * finals.min())


@figure("regret_vs_bound", order=22,
        caption="Regret (solid with markers: mean over seeds, against the comparator the "
                "theorem names) and the theorem's bound (dashed, same colour) vs t, one panel "
                "per stream; a panel whose curves end more than "
                f"{LOG_SPREAD:g} times apart is drawn on log-log axes.")
@styled
def regret_vs_bound_figure(table: pd.DataFrame) -> Figure | list | None:
    """Observed regret and its bound per learner and theorem, one panel per stream (pages
    beyond six); log-log axes where the curves' scales differ too much for a linear one."""
    rows = regret_bound_rows(table)
    if rows.empty:
        return None
    styles = learner_styles(ordered(rows[col.LEARNER_LABEL]))   # one learner, one look
    seeds = int(rows["k"].max())

    def page(streams: list[str]) -> Figure:
        fig, axes = panels(len(streams))
        logged = {}
        for ax, stream in zip(axes, streams):
            mine = rows[rows[col.STREAM_LABEL].eq(stream)]
            pairs = sorted(mine.groupby([col.LEARNER_LABEL, col.BOUND_NAME]),
                           key=lambda kv: tuple(map(natural_key, kv[0])))
            for (learner, bound), g in pairs:
                ax.plot(g[col.T], g[col.OBSERVED], label=f"{learner}: regret",
                        **{**styles[learner], "linestyle": "-"})   # solid: regret
                ax.plot(g[col.T], g[col.BOUND], label=f"{learner}: {bound} bound",
                        **{**line_style(styles[learner]), "linestyle": "--"})
            finals = [g[c].iloc[-1] for _, g in pairs for c in (col.OBSERVED, col.BOUND)]
            if _log_worthy(finals, mine[[col.OBSERVED, col.BOUND]].to_numpy(float)):
                ax.set_xscale("log")
                ax.set_yscale("log")
                logged[stream] = " (log-log)"
            else:
                ax.axhline(0, color="0.3", linewidth=0.8)
            ax.set_xlabel(LABELS[col.T])
            ax.set_ylabel(wrap(LABELS[col.REGRET], 30))
        return finish_page(fig, axes, streams, "Regret against the best fixed point in "
                           f"hindsight, and its bound (mean over {seeds_text(seeds)})",
                           note="dashed: the bound checked at each t", suffix=logged)

    return paged(ordered(rows[col.STREAM_LABEL]), page)


@figure("regret_bound_ratio", order=23,
        caption="Observed regret / bound vs t (log t), one panel per theorem, one line per "
                "stream and learner (mean over seeds; each in one look in every panel); 1 is "
                "the bound.")
@styled
def regret_bound_ratio_figure(table: pd.DataFrame) -> Figure | list | None:
    """The fraction of each regret bound used, vs t, one panel per theorem; each (learner,
    stream) series has a look of its own (:func:`learner_styles` of the series)."""
    rows = regret_bound_rows(table)
    if rows.empty:
        return None
    rows = rows.assign(series=rows[col.LEARNER_LABEL] + " on " + rows[col.STREAM_LABEL])
    styles = learner_styles(ordered(rows["series"]))

    def page(theorems: list[str]) -> Figure:
        fig, axes = panels(len(theorems))
        for ax, name in zip(axes, theorems):
            mine = rows[rows[col.BOUND_NAME].eq(name)]
            for series, g in groups(mine, "series"):
                ax.plot(g[col.T], g[col.RATIO], label=series, **styles[series])
            ax.axhline(1.0, color="0.2", linewidth=1)
            ax.set_xscale("log")
            ax.set_ylim(min(0.0, float(np.nanmin(mine[col.RATIO])) * 1.1), 1.1)
            ax.set_title(name)
            ax.set_xlabel(LABELS[col.T])
            ax.set_ylabel("regret / bound")
        fig.suptitle("Fraction of the regret bound used")
        figure_legend(fig, axes, note="mean over seeds of observed/bound at each checkpoint")
        return fig

    return paged(ordered(rows[col.BOUND_NAME]), page)
