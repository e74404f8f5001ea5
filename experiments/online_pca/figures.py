"""The online_pca study's figure ``subspace_error``: how far the subspace each learner plays
lies from the batch SVD's of the rows seen so far, over time, beside how well that batch
subspace is defined (the relative eigengap of the rows seen). Both come from the runs' side
table ``subspace_error`` (:mod:`olbench.harness.outputs`), written at the checkpoints; no
stream is rebuilt. Registered by importing this file (the config names it in ``modules:``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from olbench import schema as col
from olbench.analysis.figures.layout import finish_page, paged, panels
from olbench.analysis.figures.registry import figure
from olbench.analysis.figures.style import BAND, LABELS, learner_styles, seeds_text, styled
from olbench.analysis.views import groups, mean_band, one_per_learner, per_checkpoint

#: distances below this (the batch SVD's own round-off) are drawn at it
FLOOR = 1e-14
GAP_STYLE = {"color": "0.45", "linestyle": ":", "linewidth": 1.4}


def subspace_errors(table: pd.DataFrame, side) -> pd.DataFrame:
    """The checkpoints of the ok runs (one row per run and t) joined with their
    ``sin_theta`` and ``relative_gap``; empty without the side table."""
    errors = (side or {}).get("subspace_error")
    if errors is None or errors.empty or table.empty:
        return pd.DataFrame()
    cp = one_per_learner(per_checkpoint(table))
    return cp.merge(errors, on=[col.RUN_ID, col.T], how="inner")


@figure("subspace_error", order=46, side=("subspace_error",),
        caption="Distance ‖sin Θ‖₂ from the subspace each online PCA learner plays next to "
                "the top-k eigenvectors of the rows seen so far (the batch SVD's) vs t, "
                f"mean over seeds ({BAND}; below {FLOOR:g} drawn at it); dotted grey: the "
                "relative eigengap (λ_k − λ_k+1)/λ_k of the rows seen, mean over seeds: "
                "where it is near 0 the batch subspace is barely defined and any distance "
                "is as good.")
@styled
def subspace_error_figure(table: pd.DataFrame, side) -> Figure | list | None:
    """One panel per stream, one line per learner; ``None`` without online PCA runs."""
    errors = subspace_errors(table, side)
    if errors.empty:
        return None
    styles = learner_styles(table)
    streams = list(dict.fromkeys(errors.sort_values(col.STREAM_LABEL)[col.STREAM_LABEL]))
    seeds = errors[col.SEED].nunique()

    def page(chosen: list[str]) -> Figure:
        fig, axes = panels(len(chosen), ncols=2, size=(6.0, 3.8))
        for ax, stream in zip(axes, chosen):
            _draw_stream(ax, errors[errors[col.STREAM_LABEL].eq(stream)], styles)
        return finish_page(fig, axes, chosen, "Subspace played vs the batch SVD of the rows "
                           f"seen (mean over {seeds_text(seeds)})", note=BAND, ncols=2)

    return paged(streams, page, per_page=4)


def _draw_stream(ax, sub: pd.DataFrame, styles: dict) -> None:
    band = mean_band(sub, "sin_theta", [col.LEARNER_LABEL])
    for learner, g in groups(band, col.LEARNER_LABEL):
        t = g[col.T].to_numpy(float)
        ax.plot(t, np.clip(g["mean"], FLOOR, None), label=learner, **styles[learner])
        ax.fill_between(t, np.clip(g["lo"], FLOOR, None), np.clip(g["hi"], FLOOR, None),
                        color=styles[learner]["color"], alpha=0.15, linewidth=0)
    gap = sub.drop_duplicates([col.SEED, col.T]).groupby(col.T)["relative_gap"].mean()
    ax.plot(gap.index.to_numpy(float), np.clip(gap.to_numpy(), FLOOR, None),
            label="relative eigengap of the rows seen", **GAP_STYLE)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylim(FLOOR / 3, 3.0)
    ax.set_xlabel(LABELS[col.T])
    ax.set_ylabel("‖sin Θ‖₂ to the batch top-k")
