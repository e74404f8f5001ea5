"""The look shared by every figure: one matplotlib style (:data:`STYLE`), the learners'
colours (:func:`learner_styles`, the same learner in the same colour everywhere), axis labels
(:data:`LABELS`), panel grids, the figure-wide legend, text wrapping and saving (PNG + PDF).

Figures are built with :class:`matplotlib.figure.Figure` directly (no pyplot state: no backend
to choose, nothing to close) inside :data:`STYLE` (:func:`styled`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from pathlib import Path

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from olbench import schema as col
from olbench.views import ok_rows, ordered, short_label

#: Learner colours: tab10 without its red, which is reserved for bound violations.
PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
           "#bcbd22", "#17becf"]
LINESTYLES = ["-", "--", "-.", ":"]
#: Learner markers: with the line styles, curves that lie on top of each other stay apart.
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "<", ">"]
#: Markers at about every 10th of the axis (in display space: also on log axes).
MARK_EVERY = 0.1
VIOLATION = "#d62728"

#: The one style every figure is drawn and saved in.
STYLE = {
    "font.size": 10, "axes.titlesize": 10, "axes.labelsize": 10, "figure.titlesize": 11,
    "legend.fontsize": 8, "xtick.labelsize": 9, "ytick.labelsize": 9,
    "axes.grid": True, "grid.alpha": 0.3, "grid.linewidth": 0.6,
    "axes.spines.top": False, "axes.spines.right": False,
    "lines.linewidth": 1.6, "lines.markersize": 4.5, "legend.frameon": False,
    # no "1e4" offset or "×10⁴" multiplier above an axis: tick labels carry their own value
    "axes.formatter.useoffset": False, "axes.formatter.limits": (-9, 9),
    "savefig.dpi": 150,
    "axes.prop_cycle": mpl.cycler(color=PALETTE),
}

#: What the shaded bands are, said once (legend notes and the figures' captions use it).
BAND = "band: mean ± 1.96·sd/√k over k seeds (95% normal CI of the mean)"

#: Axis labels: the conventions behind each metric column.
LABELS = {
    col.T: "round t (examples seen)",
    col.REGRET: "regret $R_t$ = cum. loss − comparator's",
    col.MISTAKES: "cumulative mistakes $M_t$",
    col.MISTAKE_RATE: "cumulative mistake rate $M_t / t$",
    col.CLEAN_MISTAKE_RATE: "mistake rate vs noise-free labels",
    col.UPDATES: "cumulative updates",
    col.TIME_S: "cumulative wall time (s)",
    col.CUM_LOSS: "cumulative loss $L_t = \\ell_1(w_1) + \\dots + \\ell_t(w_t)$",
    col.AVG_LOSS: "average loss $L_t / t$",
}


def styled(fn: Callable) -> Callable:
    """Run ``fn`` inside :data:`STYLE` (artists read rcParams when created and saved)."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with mpl.rc_context(STYLE):
            return fn(*args, **kwargs)
    return wrapper


def learner_styles(names: Iterable[str] | pd.DataFrame) -> dict[str, dict]:
    """Colour, line style and marker per learner label, by sorted name: the same in every
    figure, and no two learners alike in all three (curves that coincide stay visible).

    ``names``: learner labels, or a results table (its ok rows' learners' display names,
    :func:`~olbench.views.short_label`, as the views label them).

    >>> s = learner_styles(["b", "a"]); s["a"]["color"] == PALETTE[0], s["b"]["color"] == PALETTE[1]
    (True, True)
    >>> s["a"]["linestyle"], s["b"]["linestyle"], s["a"]["marker"], s["b"]["marker"]
    ('-', '--', 'o', 's')
    """
    if isinstance(names, pd.DataFrame):
        names = short_label(ok_rows(names), col.LEARNER)
    return {n: {"color": PALETTE[i % len(PALETTE)],
                "linestyle": LINESTYLES[i % len(LINESTYLES)],
                "marker": MARKERS[i % len(MARKERS)], "markevery": MARK_EVERY}
            for i, n in enumerate(ordered(names))}


def line_style(style: dict) -> dict:
    """A learner's style without its marker (for artists that take no markers)."""
    return {k: v for k, v in style.items() if k not in ("marker", "markevery")}


# --------------------------------------------------------------------------- text
def wrap(text: str, width: int = 52) -> str:
    """Break ``text`` after commas or spaces so that no line exceeds ``width`` (where it can):
    long ``Name[a=1,b=2,...]`` names and prose alike.

    >>> print(wrap("Noisy[n=500,d=5,gamma=0.1]", width=14))
    Noisy[n=500,
    d=5,gamma=0.1]
    >>> print(wrap("regret against u = B[a=1,b=2]", width=16))
    regret against
    u = B[a=1,b=2]
    """
    lines, line = [], ""
    for token in re.findall(r"[^, ]+[, ]?|[, ]", str(text)):
        if line.strip() and len(line.rstrip()) + len(token.rstrip()) > width:
            lines.append(line.rstrip())
            line = ""
        line += token
    return "\n".join(lines + [line.rstrip()])


def chars(fig: Figure, fontsize: float) -> int:
    """About how many characters of ``fontsize`` points fit across ``fig``."""
    return max(20, int(fig.get_figwidth() * 72 / (0.58 * fontsize)))


# --------------------------------------------------------------------------- layout, saving
def panels(n: int, *, ncols: int = 3, size=(4.8, 3.4), sharex=False) -> tuple[Figure, list]:
    """A figure of ``n`` panels, ``ncols`` to a row (spare cells hidden); its visible axes."""
    ncols = max(1, min(ncols, n))
    nrows = int(np.ceil(n / ncols))
    fig = Figure(figsize=(size[0] * ncols, size[1] * nrows + 0.6), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False, sharex=sharex).ravel()
    for ax in axes[n:]:
        ax.set_visible(False)
    return fig, list(axes[:n])


def figure_legend(fig: Figure, axes: list, note: str | None = None) -> None:
    """One legend for the whole figure, below it: every label once, in drawing order. The
    figure grows by the legend's height, so that a long legend (sixteen learners) does not
    squash the panels above it."""
    seen: dict[str, object] = {}
    for ax in axes:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            seen.setdefault(lab, h)
    if not seen:
        return
    # the columns are sized by the entries; the note, last, may make its own column wider
    longest = max(len(text) for text in seen) + 8        # + the handle and the gap
    if note:
        seen[note] = Patch(color="0.5", alpha=0.25)
    ncols = max(1, min(3, len(seen), chars(fig, STYLE["legend.fontsize"]) // longest))
    fig.legend(list(seen.values()), list(seen), loc="outside lower center", ncols=ncols)
    rows = -(-len(seen) // ncols)
    fig.set_figheight(fig.get_figheight() + rows * 1.5 * STYLE["legend.fontsize"] / 72)


@styled
def save_figure(fig: Figure | None, path) -> list[Path]:
    """Write ``fig`` as ``<path>.png`` and ``<path>.pdf`` (a .png/.pdf suffix on ``path`` is
    replaced); returns the two paths, or ``[]`` when ``fig`` is None."""
    if fig is None:
        return []
    path = Path(path)
    stem = path.with_suffix("") if path.suffix in (".png", ".pdf") else path
    stem.parent.mkdir(parents=True, exist_ok=True)
    out = [stem.parent / f"{stem.name}.png", stem.parent / f"{stem.name}.pdf"]
    for p in out:
        fig.savefig(p)
    return out
