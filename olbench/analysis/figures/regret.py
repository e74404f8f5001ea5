"""Regret vs t per learner, one panel per stream, with its theory: the regret bound where one
was checked (dotted, the learner's colour); linear axes, and log-log axes with √t and log t
reference lines and each curve's fitted slope over a stated range of t (√t regret has slope
0.5)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from olbench import schema as col
from olbench.analysis.figures.layout import (
    figure_legend,
    keyed_panels,
    paged,
    panels,
    title_panels,
    with_shared,
)
from olbench.analysis.figures.registry import figure
from olbench.analysis.figures.style import (
    BAND,
    LABELS,
    chars,
    learner_styles,
    line_style,
    seeds_text,
    styled,
    variant,
    wrap,
)
from olbench.analysis.views import (
    bound_curves,
    display_name,
    loglog_fit,
    mean_band,
    natural_key,
    ordered,
    per_checkpoint,
)

#: A fitted slope is stated only over at least this many points spanning this factor in t.
MIN_FIT_POINTS, MIN_FIT_SPAN = 3, 3.0


def _any_positive_mean(cp: pd.DataFrame) -> bool:
    """Does any curve of the figure (mean regret over seeds) have a positive point?"""
    keys = [col.STREAM_LABEL, col.LEARNER_LABEL, col.COMPARATOR, col.T]
    return bool((cp.groupby(keys, dropna=False)[col.REGRET].mean() > 0).any())


def seeds_per_curve(every: pd.DataFrame, cp: pd.DataFrame) -> dict[tuple, tuple[int, int]]:
    """``(stream, learner, comparator) -> (k, n)``: a regret curve's mean covers the k runs
    (seeds) of ``cp`` (rows with a regret) out of the n ok runs of that learner on that
    stream in ``every`` (a comparator that gave no fit for some runs leaves k < n).

    >>> every = pd.DataFrame({"stream_label": "S", "learner_label": "L", "run_id": ["a", "b"],
    ...                       "comparator": "B", "regret": [1.0, None]})
    >>> seeds_per_curve(every, every.dropna())
    {('S', 'L', 'B'): (1, 2)}
    """
    keys = [col.STREAM_LABEL, col.LEARNER_LABEL]
    runs = every.groupby(keys)[col.RUN_ID].nunique()
    covered = cp.groupby(keys + [col.COMPARATOR])[col.RUN_ID].nunique()
    return {key: (int(k), int(runs[key[:2]])) for key, k in covered.items()}


def slope_text(t, mean) -> str:
    """The fitted log-log slope of a mean curve over its second half, with the range of t it
    was fitted over; "slope n/a" where too few positive points or too short a range.

    >>> t = np.array([1.0, 10, 100, 1000, 10000]); slope_text(t, 2 * np.sqrt(t))
    'slope 0.50 (t = 100–10000)'
    >>> slope_text(t[:2], t[:2])
    'slope n/a'
    """
    slope, lo, hi, points = loglog_fit(t, mean)
    if points < MIN_FIT_POINTS or not hi >= MIN_FIT_SPAN * lo:
        return "slope n/a"
    return f"slope {slope:.2f} (t = {lo:g}–{hi:g})"


def _reference_lines(ax, t: np.ndarray, top: float) -> None:
    """c·√t and c·log t through (t_max, ``top``) over the rounds ``t`` of the panel's own
    stream: the two rates regret bounds promise."""
    t = np.geomspace(max(t.min(), 1.0), t.max(), 50)
    end = t[-1]
    ax.plot(t, top * np.sqrt(t / end), color="0.55", linestyle=(0, (1, 2)), linewidth=1.0,
            label="reference ∝ √t")
    log_end = np.log1p(end)
    ax.plot(t, top * np.log1p(t) / log_end, color="0.55", linestyle=(0, (5, 2, 1, 2)),
            linewidth=1.0, label="reference ∝ log t")


@figure("regret_loglog", order=20, loglog=True,
        caption="Regret vs t on log-log axes with √t and log t reference lines (grey) and the "
                "regret bound where one was checked (dotted); each panel's key gives each "
                "curve's slope, a least-squares fit of log regret vs log t over the second half "
                "of the checkpoints, over the range of t stated (√t regret has slope 0.5). "
                "Non-positive regret cannot be drawn and is left out.")
@figure(col.REGRET, order=10,
        caption="Regret vs t per learner (one panel per stream); line: mean over seeds (each "
                f"legend entry says over how many where the curves differ), {BAND}"
                "; dotted: the regret bound where one was checked.")
@styled
def regret_figure(table: pd.DataFrame, *, loglog: bool = False) -> Figure | list | None:
    """Regret vs t per learner, one panel per stream (pages of :func:`paged` beyond six),
    mean over seeds with a 95% band, and the regret bound (mean over seeds) of the learners
    that have one checked. A learner keeps its colour and marker in every panel; against a
    second comparator it is drawn in its :func:`variant` (hollow markers, another line).

    With ``loglog``, log-log axes, √t and log t reference lines over each stream's own rounds
    and each curve's fitted slope (second half of the checkpoints, range stated) in the
    panel's key; non-positive means are left out (counted in the key's title), and streams
    without a positive mean are not drawn (named under the figure)."""
    every = per_checkpoint(table)
    if col.REGRET not in every or every[col.REGRET].notna().sum() == 0:
        return None
    cp = every[every[col.REGRET].notna()]
    if loglog and not _any_positive_mean(cp):
        return None   # nothing to draw on log axes (e.g. a learner that beats the comparator)
    styles = learner_styles(table)
    comparators = ordered(cp[col.COMPARATOR])
    cp = cp.assign(comparator=cp[col.COMPARATOR].fillna("none").astype(str))
    seeds = seeds_per_curve(every, cp)
    streams = ordered(cp[col.STREAM_LABEL])
    left_out = [s for s in streams if loglog and not _any_positive_mean(
        cp[cp[col.STREAM_LABEL].eq(s)])]
    streams = [s for s in streams if s not in left_out]

    def page(chosen: list[str]) -> Figure:
        return _regret_page(table, cp, chosen, styles, comparators, loglog, left_out, seeds)

    made = paged(streams, page, fit=True)
    for fig in made if isinstance(made, list) else ():
        _shorten_title(fig)
    return made


def _shorten_title(fig: Figure) -> None:
    """A page's title that the " (part i of n)" of :func:`paged` took to a third line names
    the comparators in the key entries instead of in the title."""
    title = fig._suptitle
    text = title.get_text().replace("\n", " ")
    if title.get_text().count("\n") >= 2:
        text = re.sub(r" against .*?, mean over ", " against the comparator in each key entry, "
                      "mean over ", text, count=1)
        title.set_text(wrap(text, chars(fig, title.get_fontsize())))


def _regret_page(table, cp, streams, styles, comparators, loglog, left_out, seeds) -> Figure:
    """One page of :func:`regret_figure`: the panels of ``streams``; ``seeds``: each curve's
    (k, n) of :func:`seeds_per_curve`, stated per legend entry where the curves differ."""
    same = len(set(seeds.values())) == 1 and all(k == n for k, n in seeds.values())
    bounds = bound_curves(table, col.REGRET)
    many = len(comparators) > 1
    if loglog:   # each panel's slopes in a key of its own under it
        curves = cp[cp[col.STREAM_LABEL].isin(streams)].groupby(col.STREAM_LABEL)[
            [col.LEARNER_LABEL, col.COMPARATOR]].value_counts().groupby(level=0).size()
        fig, axes, keys = keyed_panels(len(streams), int(curves.max()) + 1)
    else:
        fig, axes = panels(len(streams))
        keys = [None] * len(axes)
    for ax, key, stream in zip(axes, keys, streams):
        mine = cp[cp[col.STREAM_LABEL].eq(stream)]
        band = mean_band(mine, col.REGRET, [col.LEARNER_LABEL, col.COMPARATOR])
        dropped, top, slopes = 0, 0.0, []
        for (learner, comp), g in sorted(band.groupby([col.LEARNER_LABEL, col.COMPARATOR]),
                                         key=lambda kv: tuple(map(natural_key, kv[0]))):
            # the learner's k-th comparator (of the table): its k-th variant in every panel
            theirs = ordered(cp.loc[cp[col.LEARNER_LABEL].eq(learner), col.COMPARATOR])
            style = variant(styles[learner], theirs.index(comp))
            label = f"{learner} vs {display_name(comp)}" if many else learner
            if not same:   # the curves' means cover different numbers of seeds: say which
                k, n = seeds[(stream, learner, comp)]
                label += f" ({k} of {n} seeds)" if k < n else f" ({seeds_text(k)})"
            t, m, lo, hi = (g[c].to_numpy(float) for c in (col.T, "mean", "lo", "hi"))
            slope = slope_text(t, m) if loglog else ""
            if loglog:
                pos = m > 0
                dropped += int((~pos).sum())
                t, m, lo, hi = t[pos], m[pos], np.where(lo[pos] > 0, lo[pos], m[pos]), hi[pos]
                top = max(top, m[-1]) if len(m) else top
            (line,) = ax.plot(t, m, label=label, **style)
            ax.fill_between(t, lo, hi, color=style["color"], alpha=0.18, linewidth=0)
            slopes.append((line, slope))
        drawn = bounds[bounds[col.STREAM_LABEL].eq(stream)]
        for (learner, name), g in drawn.groupby([col.LEARNER_LABEL, col.BOUND_NAME]):
            t, b = g[col.T].to_numpy(float), g[col.BOUND].to_numpy(float)
            keep = b > 0 if loglog else np.isfinite(b)
            ax.plot(t[keep], b[keep], label=f"{learner}: bound {name}",
                    **{**line_style(styles.get(learner, {"color": "0.2"})), "linestyle": ":",
                       "linewidth": 1.3})
        if loglog:
            ax.set_xscale("log")
            ax.set_yscale("log")
            _reference_lines(ax, mine[col.T].to_numpy(float), top)
            note = f"{dropped} point(s) ≤ 0 not drawn" if dropped else None
            key.legend([h for h, _ in slopes], [s for _, s in slopes], title=note,
                       loc="upper center", fontsize=7.5, title_fontsize=7.5,
                       handlelength=1.8, borderaxespad=0)
        else:
            ax.axhline(0, color="0.3", linewidth=0.8)
        ax.set_xlabel(LABELS[col.T])
        ax.set_ylabel(wrap(LABELS[col.REGRET], 30))
    loss = (", ".join(ordered(cp[col.LOSS])) or "?") if col.LOSS in cp else "?"
    named = [display_name(c) for c in comparators if c != "none"]
    over = seeds_text(next(iter(seeds.values()))[0]) if same else "the seeds each entry states"
    shared = title_panels(fig, axes, streams, min(3, len(streams)))
    for against in (f"comparator u = {named[0]}" if len(named) == 1 else
                    ", ".join(named[:-1]) + f" and {named[-1]}" if named else "no comparator",
                    "the comparator in each key entry"):   # when the list is too long
        title = with_shared(f"Regret ({loss} loss) against {against}, mean over "
                            f"{over}", shared, fig)
        if title.count("\n") < 2:
            break
    fig.suptitle(title)
    if not loglog:
        figure_legend(fig, axes, note=BAND)
    else:
        figure_legend(fig, axes, note=BAND + "; slope in each panel: least-squares fit of log "
                      "regret vs log t over the second half of the checkpoints")
        if left_out:
            fig.supxlabel(wrap("not drawn (no positive mean regret): " + "; ".join(left_out),
                               chars(fig, 8)), fontsize=8, color="0.3")
    return fig
