"""The sparsity trade-off: the final mistake rate against the fraction of the weights that
are not zero, one line per learner through the strengths of its sparsity parameter (L1,
gravity), one panel per stream: the figure SOL's paper draws for its sparse learners.

Drawn when the table records ``nonzero_weights`` and the grid swept a parameter of a learner
(:func:`olbench.analysis.views.swept_parameters`) that changed a density (PA's C, which
leaves every weight non-zero, draws nothing); learners the grid did not sweep (OGD,
Pegasos: no L1) are single points, at the density they end with.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from olbench import schema as col
from olbench.analysis.figures.layout import finish_page, paged, panels
from olbench.analysis.figures.registry import figure
from olbench.analysis.figures.style import learner_styles, seeds_text, styled
from olbench.analysis.views import (
    final_rows,
    one_per_learner,
    ordered,
    per_checkpoint,
    swept_parameters,
)
from olbench.names import display_names, drop_param

#: what the bars are
INTERVAL = ("bars: mean ± 1.96·sd/√k over k seeds in both directions (95% normal CI of the "
            "mean)")


def tradeoff(table: pd.DataFrame) -> pd.DataFrame:
    """Per (stream, learner series, swept value): the mean and the 95% half-width over seeds
    of the final mistake rate and of the density nonzero_weights / d. ``series`` is the
    learner's name without its swept parameter (learners without one: their name, value
    NaN)."""
    from olbench.component import parse_name

    fin = one_per_learner(final_rows(table))
    if col.MISTAKE_RATE not in fin:                    # regression, online convex optimisation
        return fin.iloc[:0]
    fin = fin[fin[col.NONZERO_WEIGHTS].notna() & fin[col.MISTAKE_RATE].notna()]
    if fin.empty:
        return fin
    swept = [p for concept, p in swept_parameters(per_checkpoint(table)) if concept == col.LEARNER]
    # each learner class's sparsity strength: of the parameters the grid swept, the one its
    # names take the most values of (FOBOS at two step sizes and six l1: l1)
    values: dict[tuple[str, str], set] = {}
    for name in fin[col.LEARNER_NAME].unique():
        title, params = parse_name(name)
        for param in swept:
            if param in params:
                values.setdefault((title, param), set()).add(params[param])
    strength = {}
    for (title, param), seen in values.items():
        if len(seen) > 1 and len(seen) > len(values.get((title, strength.get(title)), ())):
            strength[title] = param

    def series_and_value(name: str) -> tuple[str, float]:
        title, params = parse_name(name)
        param = strength.get(title)
        if param is None:
            return name, np.nan
        return drop_param(name, param), float(params[param])

    pairs = fin[col.LEARNER_NAME].map(series_and_value)
    fin = fin.assign(series=pairs.str[0], value=pairs.str[1],
                     density=fin[col.NONZERO_WEIGHTS] / fin[col.STREAM_D].astype(float))
    keys = [col.STREAM_NAME, "series", "value"]
    stats = fin.groupby(keys, dropna=False).agg(
        error=(col.MISTAKE_RATE, "mean"), error_sd=(col.MISTAKE_RATE, "std"),
        density=("density", "mean"), density_sd=("density", "std"),
        k=(col.SEED, "nunique")).reset_index()
    for name in ("error", "density"):
        stats[f"{name}_half"] = 1.96 * stats.pop(f"{name}_sd").fillna(0.0) / np.sqrt(stats["k"])
    return stats


@figure("sparsity", order=47,
        caption="Final mistake rate against the fraction of non-zero weights, one line per "
                "learner through its sparsity strengths; " + INTERVAL + ".")
@styled
def sparsity_figure(table: pd.DataFrame) -> Figure | list | None:
    if col.NONZERO_WEIGHTS not in table:
        return None
    stats = tradeoff(table)
    if stats.empty or not stats["value"].notna().any():
        return None                                   # no sparsity parameter was swept
    if stats.groupby([col.STREAM_NAME, "series"])["density"].nunique().max() < 2:
        return None                # a sweep that never changed a density (PA's C): not sparsity
    stats = stats.assign(series=stats["series"].map(display_names(ordered(stats["series"]))),
                         panel=stats[col.STREAM_NAME].map(
                             display_names(ordered(stats[col.STREAM_NAME]))))
    styles = learner_styles(ordered(stats["series"]))
    seeds = int(stats["k"].max())

    def page(names: list[str]) -> Figure:
        fig, axes = panels(len(names), ncols=2, size=(5.2, 3.8))
        empty = []
        for ax, name in zip(axes, names):
            sub = stats[stats["panel"].eq(name)]
            # every weight 0 at the end (a mistake on every round under y p <= 0): no place on
            # a log axis, so said in the note instead of dropped
            none_left = sub[sub["density"] <= 0]
            sub = sub[sub["density"] > 0]
            if len(none_left):
                counts = none_left.groupby("series", sort=False).size()
                empty.append(f"{name}: " + ", ".join(f"{series} ({count})"
                                                     for series, count in counts.items()))
            for series in ordered(sub["series"]):
                g = sub[sub["series"].eq(series)].sort_values("value")
                ax.errorbar(g["density"], g["error"], xerr=g["density_half"],
                            yerr=g["error_half"], label=series, capsize=2,
                            **{k: v for k, v in styles[series].items() if k != "markevery"})
            ax.set_xscale("log")
            ax.set_xlabel("fraction of non-zero weights at the final round")
            ax.set_ylabel("mistake rate (online, all rounds)")
            ax.set_ylim(bottom=0)
        note = INTERVAL + ("; strengths that left no weight, not on the log axis: "
                           + "; ".join(empty) if empty else "")
        return finish_page(fig, axes, names, f"Error against density (mean over "
                                             f"{seeds_text(seeds)})", note=note, ncols=2)

    return paged(ordered(stats["panel"]), page, per_page=4)
