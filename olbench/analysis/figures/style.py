"""The look shared by every figure: one matplotlib style (:data:`STYLE`), the learners'
looks (:func:`learner_styles`: colour, marker and line style, no two learners of a table
alike; :func:`variant` for one learner against other comparators or from other sources),
axis labels (:data:`LABELS`), text wrapping and saving (PNG + PDF); how figures fit a page
is :mod:`olbench.analysis.figures.layout`.

Figures are built with :class:`matplotlib.figure.Figure` directly (no pyplot state: no backend
to choose, nothing to close) inside :data:`STYLE` (:func:`styled`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from pathlib import Path

import matplotlib as mpl
import pandas as pd
from matplotlib.figure import Figure

from olbench import schema as col
from olbench.analysis.views import groups, ok_rows, ordered, short_label

#: Learner colours: tab10 without its red, which is reserved for bound violations.
PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
           "#bcbd22", "#17becf"]
LINESTYLES = ["-", "--", "-.", ":"]
#: Learner markers: with the line styles, curves that lie on top of each other stay apart.
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "<", ">"]
#: Marker fills of a learner's variants (other comparators, other sources): its colour and
#: marker say which learner, the fill (and the line style) which variant.
FILLS = ["full", "none", "top", "bottom", "left", "right"]
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


def style_of(i: int) -> dict:
    """The ``i``-th look of the style table: colour ``i mod 9``, marker ``(i + i // 9) mod
    9`` (the marker moves on by one at each round of the colours, so no colour and marker
    pair repeats for the first 81 looks) and line style ``i mod 4``.

    >>> looks = {(style_of(i)["color"], style_of(i)["marker"]) for i in range(81)}
    >>> len(looks), style_of(9)["color"] == style_of(0)["color"], style_of(9)["marker"]
    (81, True, 's')
    """
    return {"color": PALETTE[i % len(PALETTE)], "linestyle": LINESTYLES[i % len(LINESTYLES)],
            "marker": MARKERS[(i + i // len(PALETTE)) % len(MARKERS)], "markevery": MARK_EVERY}


def learner_styles(names: Iterable[str] | pd.DataFrame) -> dict[str, dict]:
    """Colour, line style and marker per learner label, by sorted name (:func:`style_of`):
    the same in every figure of a table, and no two learners alike in colour and marker
    (curves that coincide stay visible; sixteen learners and more are told apart).

    ``names``: learner labels, or a results table (its ok rows' learners' display names,
    :func:`~olbench.analysis.views.short_label`, as the views label them).

    >>> s = learner_styles(["b", "a"]); s["a"]["color"] == PALETTE[0], s["b"]["color"] == PALETTE[1]
    (True, True)
    >>> s["a"]["linestyle"], s["b"]["linestyle"], s["a"]["marker"], s["b"]["marker"]
    ('-', '--', 'o', 's')
    """
    if isinstance(names, pd.DataFrame):
        names = short_label(ok_rows(names), col.LEARNER)
    return {n: style_of(i) for i, n in enumerate(ordered(names))}


def variant(style: dict, k: int) -> dict:
    """The ``k``-th variant of a learner's ``style`` (k = 0: the style itself): the same
    colour and marker, the ``k``-th marker fill of :data:`FILLS` and the line style ``k``
    places on (the learner against its ``k``-th comparator, or from the ``k``-th source).

    >>> v = variant(style_of(0), 1); v["color"] == PALETTE[0], v["fillstyle"], v["linestyle"]
    (True, 'none', '--')
    """
    if k == 0:
        return dict(style)
    start = LINESTYLES.index(style["linestyle"]) if style.get("linestyle") in LINESTYLES else 0
    return {**style, "fillstyle": FILLS[k % len(FILLS)],
            "linestyle": LINESTYLES[(start + k) % len(LINESTYLES)]}


def draw_bands(ax, band: pd.DataFrame, styles: dict[str, dict]) -> None:
    """Each learner's curve of ``band`` (columns ``t``, ``mean``, ``lo``, ``hi`` per
    ``learner_label``, as :func:`~olbench.analysis.views.mean_band` gives them) in its look, its
    band shaded in its colour."""
    for learner, g in groups(band, col.LEARNER_LABEL):
        ax.plot(g[col.T], g["mean"], label=learner, **styles[learner])
        ax.fill_between(g[col.T], g["lo"], g["hi"], color=styles[learner]["color"],
                        alpha=0.18, linewidth=0)


def line_style(style: dict) -> dict:
    """A learner's style without its marker (for artists that take no markers)."""
    return {k: v for k, v in style.items() if k not in ("marker", "markevery", "fillstyle")}


# --------------------------------------------------------------------------- text
def wrap(text: str, width: int = 52) -> str:
    """Break ``text`` after commas or spaces so that no line exceeds ``width`` (where it can):
    long ``Name[a=1,b=2,...]`` names and prose alike; never inside ``$...$`` (mathtext
    broken over two lines would be drawn as its source).

    >>> print(wrap("Noisy[n=500,d=5,gamma=0.1]", width=14))
    Noisy[n=500,
    d=5,gamma=0.1]
    >>> print(wrap("regret against u = B[a=1,b=2]", width=16))
    regret against
    u = B[a=1,b=2]
    >>> print(wrap("cumulative mistake rate $M_t / t$", width=26))
    cumulative mistake rate
    $M_t / t$
    """
    lines, line = [], ""
    for token in re.findall(r"\$[^$]*\$[, ]?|[^, ]+[, ]?|[, ]", str(text)):
        if line.strip() and len(line.rstrip()) + len(token.rstrip()) > width:
            lines.append(line.rstrip())
            line = ""
        if line or token.strip():          # no line starts with the space after a comma
            line += token
    return "\n".join(lines + [line.rstrip()])


def chars(fig: Figure, fontsize: float) -> int:
    """About how many characters of ``fontsize`` points fit across ``fig``."""
    return max(20, int(fig.get_figwidth() * 72 / (0.58 * fontsize)))


def seeds_text(count: int) -> str:
    """``"3 seeds"``, ``"1 seed"``."""
    return f"{count} seed{'s' if count != 1 else ''}"


# --------------------------------------------------------------------------- saving
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
