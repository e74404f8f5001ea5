"""Static against shifting regret: on a stream whose target switches, each learner's regret
against the best fixed predictor of every prefix (static) and against the best sequence
with k switches (``best_shifting``), with the switch rounds marked. Static regret turns
negative after a switch (no fixed predictor fits both concepts, the learner tracks the new
one); the shifting comparator may switch too, so its regret says what the learner lost."""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from olbench import schema as col
from olbench.analysis.figures.drift import SWITCH_COLOR
from olbench.analysis.figures.layout import finish_page, paged, panels
from olbench.analysis.figures.per_run import switch_times
from olbench.analysis.figures.registry import figure
from olbench.analysis.figures.regret import seeds_per_curve
from olbench.analysis.figures.style import BAND, LABELS, learner_styles, seeds_text, styled, variant
from olbench.analysis.views import display_name, mean_band, natural_key, per_checkpoint
from olbench.component import parse_name

#: the class name of the shifting comparator (:class:`olbench.comparators.BestShifting`),
#: as its runs' ``comparator`` column names it
SHIFTING = "BestShifting"


def is_shifting(name) -> bool:
    """Is ``name`` a shifting comparator's name (:data:`SHIFTING`)?

    >>> is_shifting("BestShifting[k=1,loss=hinge]"), is_shifting("PrefixBest[loss=hinge]")
    (True, False)
    """
    return isinstance(name, str) and parse_name(name)[0] == SHIFTING


@figure("regret_shifting", order=24, side=("switches", "grid"),
        caption="Regret vs t on streams measured against a shifting comparator: solid, against "
                "the best fixed predictor of every prefix (static regret); dashed with hollow "
                "markers, against the best sequence with at most k switches (shifting "
                f"regret); mean over seeds, {BAND}; dotted vertical lines: the rounds where the "
                "target switches.")
@styled
def regret_shifting_figure(table: pd.DataFrame, side) -> Figure | list | None:
    """One panel per stream that has ``best_shifting`` rows: each learner in its colour,
    solid against the other comparators, dashed against the shifting one."""
    cp = per_checkpoint(table)
    if col.COMPARATOR not in cp or col.REGRET not in cp:
        return None
    every, cp = cp, cp[cp[col.REGRET].notna()]
    shifting = cp[col.COMPARATOR].map(is_shifting)
    # only the (stream, learner) pairs measured against a shifting comparator
    pairs = set(zip(cp.loc[shifting, col.STREAM_NAME], cp.loc[shifting, col.LEARNER_LABEL]))
    cp = cp[[pair in pairs for pair in zip(cp[col.STREAM_NAME], cp[col.LEARNER_LABEL])]]
    streams = list(dict.fromkeys(name for name, _ in sorted(pairs)))
    if not streams:
        return None
    switches = switch_times(table, side, streams)
    styles = learner_styles(table)
    seeds = seeds_per_curve(every, cp)
    same = len(set(seeds.values())) == 1 and all(k == n for k, n in seeds.values())
    over = seeds_text(next(iter(seeds.values()))[0]) if same else "the seeds each entry states"

    def page(chosen: list[str]) -> Figure:
        fig, axes = panels(len(chosen), ncols=2, size=(6.0, 4.0))
        for ax, stream in zip(axes, chosen):
            mine = cp[cp[col.STREAM_NAME].eq(stream)]
            band = mean_band(mine, col.REGRET, [col.LEARNER_LABEL, col.COMPARATOR])
            curves = sorted(band.groupby([col.LEARNER_LABEL, col.COMPARATOR]),
                            key=lambda kv: tuple(map(natural_key, kv[0])))
            for (learner, comp), g in curves:
                # against the shifting comparator: hollow markers, dashed (its variant)
                style = variant({**styles[learner], "linestyle": "-"}, int(is_shifting(comp)))
                kind = "shifting" if is_shifting(comp) else "static"
                k, n = seeds[(mine[col.STREAM_LABEL].iloc[0], learner, comp)]
                kind += "" if same else f", {k} of {n} seeds" if k < n else f", {seeds_text(k)}"
                ax.plot(g[col.T], g["mean"], label=f"{learner} vs {display_name(comp)} ({kind})",
                        **style)
                ax.fill_between(g[col.T], g["lo"], g["hi"], color=style["color"], alpha=0.15,
                                linewidth=0)
            for i, t in enumerate(switches.get(stream, [])):
                ax.axvline(t, color=SWITCH_COLOR, linestyle=":", linewidth=1.2,
                           label="target switches" if i == 0 else None)
            ax.axhline(0, color="0.3", linewidth=0.8)
            ax.set_xlabel(LABELS[col.T])
            ax.set_ylabel(LABELS[col.REGRET])
        losses = ", ".join(sorted(cp.loc[cp[col.STREAM_NAME].isin(chosen), col.LOSS]
                                  .dropna().unique()))
        labels = [cp.loc[cp[col.STREAM_NAME].eq(s), col.STREAM_LABEL].iloc[0] for s in chosen]
        return finish_page(fig, axes, labels, f"Static and shifting regret ({losses} loss), "
                           f"mean over {over}", note=BAND, ncols=2)

    return paged(streams, page, per_page=4)
