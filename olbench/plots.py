"""Figures: pure functions of the results table (DESIGN.md section 1: plots never recompute
metrics, they only read the columns the grid wrote).

Each figure has a builder ``*_figure(table, ...) -> Figure | None`` (``None`` when the table
has nothing to show) and a writer ``name(table, path, ...) -> list[Path]`` that saves it as PNG
and PDF. :func:`make_figures` writes every figure the table supports. Figures are built with
:class:`matplotlib.figure.Figure` directly (no pyplot state: no backend to choose, nothing to
close) inside one style, :data:`STYLE`; each learner keeps its colour in every figure
(:func:`learner_styles`, by sorted learner name).

Conventions: rows with ``status != "ok"`` are ignored; a stream is identified by its name
without the ``seed=`` parameter (seeds are the replicates averaged over); the per-checkpoint
metrics repeat once per bound row, so curves use one row per (run_id, t).

>>> drop_param("Noisy[n=500,d=5,seed=3,bias=False]")
'Noisy[n=500,d=5,bias=False]'
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Patch
from matplotlib.ticker import FuncFormatter, NullFormatter

# --------------------------------------------------------------------------- style
#: Learner colours: tab10 without its red, which is reserved for bound violations.
PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
           "#bcbd22", "#17becf"]
LINESTYLES = ["-", "--", "-.", ":"]
VIOLATION = "#d62728"

#: The one style every figure is drawn and saved in.
STYLE = {
    "font.size": 10, "axes.titlesize": 10, "axes.labelsize": 10, "figure.titlesize": 11,
    "legend.fontsize": 8, "xtick.labelsize": 9, "ytick.labelsize": 9,
    "axes.grid": True, "grid.alpha": 0.3, "grid.linewidth": 0.6,
    "axes.spines.top": False, "axes.spines.right": False,
    "lines.linewidth": 1.6, "legend.frameon": False, "axes.formatter.limits": (-2, 4),
    "savefig.dpi": 150,
    "axes.prop_cycle": mpl.cycler(color=PALETTE),
}

#: What the shaded bands are, said once (legend notes and the report's captions use it).
BAND = "band: mean ± 1.96·sd/√k over k seeds (95% normal CI of the mean)"

#: Axis labels: the conventions behind each metric column.
LABELS = {
    "t": "round t (examples seen)",
    "regret": "regret $R_t$ = cum. loss − comparator's",
    "mistakes": "cumulative mistakes $M_t$",
    "mistake_rate": "cumulative mistake rate $M_t / t$",
    "clean_mistake_rate": "mistake rate vs noise-free labels",
    "updates": "cumulative updates",
    "time_s": "cumulative wall time (s)",
    "cum_loss": "cumulative loss $L_t = \\ell_1(w_1) + \\dots + \\ell_t(w_t)$",
    "avg_loss": "average loss $L_t / t$",
}

#: One-line captions by file stem (used by the report under each embedded figure).
CAPTIONS = {
    "regret": f"Regret vs t per learner (one panel per stream); line: mean over seeds, {BAND}.",
    "regret_loglog": "Regret vs t on log-log axes; the slope is a least-squares fit of log "
                     "regret vs log t over the second half of the checkpoints (√t regret has "
                     "slope 0.5). Non-positive regret cannot be drawn and is left out.",
    "mistakes": f"Cumulative mistakes vs t; {BAND}. Dashed: the Novikoff bound (R/γ)² where "
                "it applies.",
    "bounds": "Observed quantity vs its theoretical bound at the final checkpoint, one point "
              "per (run, bound); points above y = x (red) violate the bound.",
    "libol": "LIBOL-style panels: cumulative mistake rate, cumulative updates and wall time "
             "vs t (mean over seeds), one row per stream.",
    "final_mistake_rate": "Final-checkpoint mistake rate per learner over seeds (box: "
                          "quartiles, whiskers: 1.5 IQR, dots: seeds).",
}


def _styled(fn: Callable) -> Callable:
    """Run ``fn`` inside the module style (artists read rcParams when created and saved)."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with mpl.rc_context(STYLE):
            return fn(*args, **kwargs)
    return wrapper


# --------------------------------------------------------------------------- names
def drop_param(name: str, param: str = "seed") -> str:
    """``name`` without its ``param=value`` entry (the seed is a replicate, not a setting).

    >>> drop_param("X[seed=1]"), drop_param("X[a=1,seed=2]"), drop_param("X[a=1]")
    ('X', 'X[a=1]', 'X[a=1]')
    """
    out = re.sub(rf"(?<=[\[,]){re.escape(param)}=[^,\]]*(,|(?=\]))", "", str(name))
    return out.replace(",]", "]").replace("[]", "")


def natural_key(name) -> tuple:
    """Sort key that orders the numbers inside names by value (k=25 before k=100).

    >>> sorted(["S[k=100]", "S[k=25]", "S[g=0.1]", "S[g=0.05]"], key=natural_key)
    ['S[g=0.05]', 'S[g=0.1]', 'S[k=25]', 'S[k=100]']
    """
    parts = re.split(r"(\d+(?:\.\d+)?(?:e[-+]?\d+)?)", str(name))
    return tuple(float(p) if i % 2 else p for i, p in enumerate(parts))


def ordered(values) -> list[str]:
    """The distinct non-null values as strings, in :func:`natural_key` order."""
    return sorted({str(v) for v in values if v is not None and not pd.isna(v)}, key=natural_key)


def _groups(df: pd.DataFrame, col: str):
    """``(value, rows)`` of ``df`` grouped by ``col``, in :func:`natural_key` order."""
    for value in ordered(df[col]):
        yield value, df[df[col].astype(str).eq(value)]


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


def _chars(fig: Figure, fontsize: float) -> int:
    """About how many characters of ``fontsize`` points fit across ``fig``."""
    return max(20, int(fig.get_figwidth() * 72 / (0.58 * fontsize)))


def label(table: pd.DataFrame, concept: str) -> pd.Series:
    """Per row, the ``concept`` ("stream" or "learner") name without ``seed=``, or its registry
    key (``<concept>_key``) when the run failed before the name was known.

    >>> label(pd.DataFrame({"learner": ["PA[C=1.0,seed=3]", None], "learner_key": ["pa", "arow"]}),
    ...       "learner").tolist()
    ['PA[C=1.0]', 'arow']
    """
    missing = pd.Series(None, index=table.index, dtype=object)
    names = table[concept] if concept in table else missing
    keys = table[f"{concept}_key"] if f"{concept}_key" in table else missing
    return names.astype(object).where(names.notna(), keys).map(
        lambda v: "?" if v is None or pd.isna(v) else drop_param(v))


def learner_styles(names: Iterable[str] | pd.DataFrame) -> dict[str, dict]:
    """Colour and line style per learner label, by sorted name: the same in every figure.

    ``names``: learner labels, or a results table (its ok rows' learners, seed dropped).

    >>> s = learner_styles(["b", "a"]); s["a"]["color"] == PALETTE[0], s["b"]["color"] == PALETTE[1]
    (True, True)
    """
    if isinstance(names, pd.DataFrame):
        names = label(ok_rows(names), "learner")
    return {n: {"color": PALETTE[i % len(PALETTE)],
                "linestyle": LINESTYLES[(i // len(PALETTE)) % len(LINESTYLES)]}
            for i, n in enumerate(ordered(names))}


# --------------------------------------------------------------------------- table views
def ok_rows(table: pd.DataFrame) -> pd.DataFrame:
    """The rows of successful runs (``status == "ok"``)."""
    return table[table["status"].eq("ok")]


def per_checkpoint(table: pd.DataFrame) -> pd.DataFrame:
    """One row per (run_id, t) of the ok runs, with ``stream_label`` and ``learner_label``
    (the names without ``seed=``) added; bound columns are dropped."""
    ok = ok_rows(table).drop_duplicates(["run_id", "t"])
    bound_cols = ["bound_name", "quantity", "bound", "observed", "ratio", "bound_holds",
                  "skip_reason"]
    return (ok.drop(columns=[c for c in bound_cols if c in ok])
              .assign(stream_label=label(ok, "stream"), learner_label=label(ok, "learner"))
              .sort_values(["stream_label", "learner_label", "seed", "t"])
              .reset_index(drop=True))


def final_rows(table: pd.DataFrame) -> pd.DataFrame:
    """The last checkpoint of every ok run (one row per run_id)."""
    cp = per_checkpoint(table)
    return cp[cp["t"].eq(cp.groupby("run_id")["t"].transform("max"))].reset_index(drop=True)


def _one_per_learner(cp: pd.DataFrame) -> pd.DataFrame:
    """For comparator-free metrics: runs that differ only by comparator count once."""
    return cp.drop_duplicates(["stream_label", "learner_label", "seed", "t"])


def mean_band(cp: pd.DataFrame, value: str, by: list[str], z: float = 1.96) -> pd.DataFrame:
    """Mean of ``value`` over seeds at each checkpoint, with a ``z``-sd-of-the-mean band.

    Returns ``by + ["t", "mean", "lo", "hi", "k"]``; one seed gives a zero-width band.

    >>> cp = pd.DataFrame({"g": "a", "t": [1, 1, 2, 2], "v": [1.0, 3.0, 2.0, 2.0]})
    >>> mean_band(cp, "v", ["g"])[["t", "mean", "k"]].values.tolist()
    [[1.0, 2.0, 2.0], [2.0, 2.0, 2.0]]
    """
    g = cp.dropna(subset=[value]).groupby(by + ["t"])[value].agg(["mean", "std", "count"])
    half = z * g["std"].fillna(0.0) / np.sqrt(g["count"])
    return pd.DataFrame({"mean": g["mean"], "lo": g["mean"] - half, "hi": g["mean"] + half,
                         "k": g["count"]}).reset_index()


def loglog_slope(t, y, tail: float = 0.5) -> float:
    """Least-squares slope of log y vs log t over the last ``tail`` fraction of the points
    (only points with y > 0 count; NaN if fewer than two remain).

    >>> t = np.geomspace(1, 1e4, 20); round(loglog_slope(t, 3 * t ** 0.5), 6)
    0.5
    """
    t, y = np.asarray(t, float), np.asarray(y, float)
    start = len(t) - int(np.ceil(tail * len(t)))
    t, y = t[start:], y[start:]
    keep = (y > 0) & (t > 0) & np.isfinite(y)
    if keep.sum() < 2:
        return float("nan")
    return float(np.polyfit(np.log(t[keep]), np.log(y[keep]), 1)[0])


# --------------------------------------------------------------------------- layout, saving
def _panels(n: int, *, ncols: int = 3, size=(4.8, 3.4), sharex=False) -> tuple[Figure, list]:
    ncols = max(1, min(ncols, n))
    nrows = int(np.ceil(n / ncols))
    fig = Figure(figsize=(size[0] * ncols, size[1] * nrows + 0.6), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False, sharex=sharex).ravel()
    for ax in axes[n:]:
        ax.set_visible(False)
    return fig, list(axes[:n])


def _figure_legend(fig: Figure, axes: list, note: str | None = None) -> None:
    """One legend for the whole figure, below it: every label once, in drawing order."""
    seen: dict[str, object] = {}
    for ax in axes:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            seen.setdefault(lab, h)
    if note:
        seen[note] = Patch(color="0.5", alpha=0.25)
    if seen:
        longest = max(len(text) for text in seen) + 8        # + the handle and the gap
        ncols = max(1, min(3, len(seen), _chars(fig, STYLE["legend.fontsize"]) // longest))
        fig.legend(list(seen.values()), list(seen), loc="outside lower center", ncols=ncols)


@_styled
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


def _single(series: pd.Series, what: str) -> str:
    vals = series.dropna().unique()
    return str(vals[0]) if len(vals) == 1 else f"{len(vals)} {what}s" if len(vals) else "none"


# --------------------------------------------------------------------------- 1. regret
@_styled
def regret_figure(table: pd.DataFrame, *, loglog: bool = False) -> Figure | None:
    """Regret vs t per learner, one panel per stream, mean over seeds with a 95% band.

    With ``loglog``, log-log axes and each learner's fitted slope (second half of the
    checkpoints) in its legend entry; non-positive means are left out with a note."""
    cp = per_checkpoint(table)
    if "regret" not in cp or cp["regret"].notna().sum() == 0:
        return None
    cp = cp[cp["regret"].notna()]
    if loglog and not (cp["regret"] > 0).any():
        return None
    styles = learner_styles(table)
    comparators = ordered(cp["comparator"])
    many = len(comparators) > 1
    cp = cp.assign(comparator=cp["comparator"].fillna("none").astype(str))
    streams = ordered(cp["stream_label"])
    fig, axes = _panels(len(streams))
    for ax, stream in zip(axes, streams):
        band = mean_band(cp[cp["stream_label"].eq(stream)], "regret",
                         ["learner_label", "comparator"])
        dropped = 0
        for (learner, comp), g in sorted(band.groupby(["learner_label", "comparator"]),
                                         key=lambda kv: tuple(map(natural_key, kv[0]))):
            style = dict(styles[learner])
            if many:
                style["linestyle"] = LINESTYLES[comparators.index(comp) % len(LINESTYLES)]
            label = f"{learner} vs {comp}" if many else learner
            t, m, lo, hi = (g[c].to_numpy(float) for c in ("t", "mean", "lo", "hi"))
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
        ax.set_xlabel(LABELS["t"])
        ax.set_ylabel(LABELS["regret"])
    loss = _single(cp["loss"], "loss") if "loss" in cp else "?"
    comp = _single(cp.loc[cp["comparator"].ne("none"), "comparator"], "comparator")
    fig.suptitle(wrap(f"Regret ({loss} loss) against comparator u = {comp}", _chars(fig, 11)))
    if not loglog:
        _figure_legend(fig, axes, note=BAND)
    else:
        fig.supxlabel(wrap(BAND + "; slope: least-squares fit of log regret vs log t over "
                           "the second half of the checkpoints", _chars(fig, 8)),
                      fontsize=8, color="0.3")
    return fig


def regret_curves(table: pd.DataFrame, path, *, loglog: bool = False) -> list[Path]:
    """Write :func:`regret_figure` to ``path`` (.png and .pdf); returns the files."""
    return save_figure(regret_figure(table, loglog=loglog), path)


# --------------------------------------------------------------------------- 2. mistakes
def novikoff_bounds(table: pd.DataFrame) -> pd.Series:
    """The Novikoff bound (R/γ)² per stream label: the median over runs that have one."""
    ok = ok_rows(table)
    if "bound_name" not in ok:
        return pd.Series(dtype=float)
    rows = ok[ok["bound_name"].eq("novikoff") & ok["bound"].notna()]
    return rows.groupby(label(rows, "stream"))["bound"].median()


@_styled
def mistakes_figure(table: pd.DataFrame) -> Figure | None:
    """Cumulative mistakes vs t per learner (mean over seeds, 95% band), one panel per
    stream, with the Novikoff bound as a horizontal line where the table has one."""
    cp = per_checkpoint(table)
    if "mistakes" not in cp or cp["mistakes"].notna().sum() == 0:
        return None
    cp = _one_per_learner(cp)
    styles = learner_styles(table)
    novikoff = novikoff_bounds(table)
    streams = ordered(cp["stream_label"])
    fig, axes = _panels(len(streams))
    for ax, stream in zip(axes, streams):
        band = mean_band(cp[cp["stream_label"].eq(stream)], "mistakes", ["learner_label"])
        for learner, g in _groups(band, "learner_label"):
            ax.plot(g["t"], g["mean"], label=learner, **styles[learner])
            ax.fill_between(g["t"], g["lo"], g["hi"], color=styles[learner]["color"],
                            alpha=0.18, linewidth=0)
        if stream in novikoff.index:
            ax.axhline(novikoff[stream], color="0.15", linestyle="--", linewidth=1.2,
                       label="Novikoff bound (R/γ)²")
        ax.set_ylim(bottom=0)
        ax.set_title(wrap(stream))
        ax.set_xlabel(LABELS["t"])
        ax.set_ylabel(LABELS["mistakes"])
    fig.suptitle("Cumulative mistakes")
    _figure_legend(fig, axes, note=BAND)
    return fig


def mistakes_curves(table: pd.DataFrame, path) -> list[Path]:
    """Write :func:`mistakes_figure` to ``path`` (.png and .pdf); returns the files."""
    return save_figure(mistakes_figure(table), path)


# --------------------------------------------------------------------------- 3. bounds
def bound_flag(v) -> bool | None:
    """A ``bound_holds`` cell as True / False / None (None, NaN and pd.NA: no check made).

    >>> bound_flag(True), bound_flag(np.False_), bound_flag(None), bound_flag(pd.NA)
    (True, False, None, None)
    """
    return None if v is None or pd.isna(v) else bool(v)


def final_bound_checks(table: pd.DataFrame) -> pd.DataFrame:
    """One row per (ok run, bound) with a bound value, at the run's final checkpoint."""
    ok = ok_rows(table)
    if "bound_name" not in ok:
        return ok.iloc[:0]
    last = ok["t"].eq(ok.groupby("run_id")["t"].transform("max"))
    rows = ok[last & ok["bound_name"].notna() & ok["bound"].notna() & ok["observed"].notna()]
    return rows.assign(violated=rows["bound_holds"].map(bound_flag).eq(False),
                       learner_label=label(rows, "learner")).reset_index(drop=True)


@_styled
def bound_scatter_figure(table: pd.DataFrame) -> Figure | None:
    """Observed vs bound at the final checkpoint for every (run, bound) with a value, on log
    axes with y = x; violations in red (counted in the title, labelled when few)."""
    checks = final_bound_checks(table)
    if checks.empty:
        return None
    x, y = checks["bound"].to_numpy(float), checks["observed"].to_numpy(float)
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
    for i, name in enumerate(ordered(checks["bound_name"])):
        sel = checks["bound_name"].eq(name).to_numpy() & ~viol
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
                ax.annotate(f"{r['learner_label']} {r['bound_name']} seed={r['seed']}",
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
    ax.legend(loc="upper left")
    n, v = len(checks), int(viol.sum())
    ax.set_title(f"Observed vs bound at the final checkpoint: {n} checks, "
                 f"{v} violation{'s' if v != 1 else ''}")
    return fig


def bound_scatter(table: pd.DataFrame, path) -> list[Path]:
    """Write :func:`bound_scatter_figure` to ``path`` (.png and .pdf); returns the files."""
    return save_figure(bound_scatter_figure(table), path)


# --------------------------------------------------------------------------- 4. LIBOL panels
LIBOL_METRICS = ("mistake_rate", "updates", "time_s")


@_styled
def libol_figure(table: pd.DataFrame) -> Figure | None:
    """LIBOL-style rows of three panels (mistake rate, updates, time vs t), one row per
    stream, one line per learner (mean over seeds)."""
    cp = per_checkpoint(table)
    metrics = [m for m in LIBOL_METRICS if m in cp and cp[m].notna().any()]
    if not metrics:
        return None
    cp = _one_per_learner(cp)
    styles = learner_styles(table)
    streams = ordered(cp["stream_label"])
    fig = Figure(figsize=(4.2 * len(metrics), 3.1 * len(streams) + 0.8), layout="constrained")
    grid = fig.subplots(len(streams), len(metrics), squeeze=False)
    for row, stream in zip(grid, streams):
        sub = cp[cp["stream_label"].eq(stream)]
        for ax, metric in zip(row, metrics):
            band = mean_band(sub, metric, ["learner_label"])
            for learner, g in _groups(band, "learner_label"):
                ax.plot(g["t"], g["mean"], label=learner, **styles[learner])
            ax.set_xlabel(LABELS["t"])
            ax.set_ylabel(LABELS[metric])
            ax.set_ylim(bottom=0)
        row[1 if len(row) > 1 else 0].set_title(wrap(stream, width=90))
    fig.suptitle("Online performance (mean over seeds)")
    _figure_legend(fig, list(grid.ravel()))
    return fig


def libol_panels(table: pd.DataFrame, path) -> list[Path]:
    """Write :func:`libol_figure` to ``path`` (.png and .pdf); returns the files."""
    return save_figure(libol_figure(table), path)


# --------------------------------------------------------------------------- 5. boundaries
def _boundary_segment(w: np.ndarray, box: tuple[float, float, float, float]):
    """Two points of the line w.(x1, x2[, 1]) = 0 spanning ``box``; None if w[:2] == 0."""
    w = np.asarray(w, float)
    a, b = w[0], w[1]
    c = w[2] if len(w) == 3 else 0.0
    norm2 = a * a + b * b
    if norm2 == 0:
        return None
    x0, x1, y0, y1 = box
    p = -c * np.array([a, b]) / norm2              # the point of the line nearest the origin
    d = np.array([-b, a]) / np.sqrt(norm2)
    span = 2 * (abs(x1 - x0) + abs(y1 - y0) + np.linalg.norm(p))
    return [p[0] - span * d[0], p[0] + span * d[0]], [p[1] - span * d[1], p[1] + span * d[1]]


def _crosses(w: np.ndarray, box: tuple[float, float, float, float]) -> bool:
    """Does the line w.(x1, x2[, 1]) = 0 pass through the box (corners on both sides)?"""
    x0, x1, y0, y1 = box
    corners = np.array([[x0, y0], [x0, y1], [x1, y0], [x1, y1]])
    values = corners @ w[:2] + (w[2] if len(w) == 3 else 0.0)
    return bool(values.min() <= 0 <= values.max())


@_styled
def decision_boundaries_figure(X, y, learners_w: Mapping[str, np.ndarray], *,
                               title: str | None = None,
                               colors: Mapping[str, dict] | None = None) -> Figure:
    """2-D points by class and each learner's final boundary w.x = 0 (w of length 2, or 3
    with a bias: x = (x1, x2, 1)). ``colors``: :func:`learner_styles` of the table, to keep
    the learners' colours of the other figures (default: by sorted name)."""
    X, y = np.asarray(X, float), np.asarray(y, float)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"decision_boundaries needs 2-D points; got X of shape {X.shape}")
    styles = dict(colors) if colors is not None else learner_styles(learners_w)
    fig = Figure(figsize=(5.6, 5.0), layout="constrained")
    ax = fig.subplots()
    ax.scatter(*X[y > 0].T, marker="o", s=22, color="0.25", label="y = +1")
    ax.scatter(*X[y <= 0].T, marker="o", s=22, facecolors="none", edgecolors="0.45",
               label="y = −1")
    pad = 0.05 * (np.ptp(X, axis=0) + 1e-12)
    box = (X[:, 0].min() - pad[0], X[:, 0].max() + pad[0],
           X[:, 1].min() - pad[1], X[:, 1].max() + pad[1])
    for name, w in learners_w.items():
        w = np.asarray(w, float)
        if w.shape not in ((2,), (3,)):
            raise ValueError(f"{name}: w must have 2 entries (or 3 with a bias); got {w.shape}")
        seg = _boundary_segment(w, box)
        style = styles.get(name) or styles.get(drop_param(name)) or {"color": "k"}
        if seg is None:
            ax.plot([], [], label=f"{name} (w = 0: no boundary)", **style)
        elif not _crosses(w, box):
            ax.plot([], [], label=f"{name} (boundary outside this view)", **style)
        else:
            ax.plot(*seg, label=name, **style)
    ax.set_xlim(box[0], box[1])
    ax.set_ylim(box[2], box[3])
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    ax.set_title(wrap(title) if title else "Final decision boundaries $w \\cdot x = 0$")
    ax.grid(False)
    _figure_legend(fig, [ax])
    return fig


def decision_boundaries(X, y, learners_w: Mapping[str, np.ndarray], path, *,
                        title: str | None = None,
                        colors: Mapping[str, dict] | None = None) -> list[Path]:
    """Write :func:`decision_boundaries_figure` to ``path`` (.png and .pdf)."""
    return save_figure(decision_boundaries_figure(X, y, learners_w, title=title,
                                                  colors=colors), path)


# --------------------------------------------------------------------------- 6. box plots
@_styled
def final_boxplot_figure(table: pd.DataFrame, *, metric: str = "mistake_rate") -> Figure | None:
    """Box plots over seeds of ``metric`` at the final checkpoint, per learner, one panel
    per stream (horizontal boxes: learner names are long)."""
    fin = final_rows(table)
    if metric not in fin or fin[metric].notna().sum() == 0:
        return None
    if metric not in ("regret", "comparator_loss"):
        fin = _one_per_learner(fin)
    fin = fin.dropna(subset=[metric])
    styles = learner_styles(table)
    streams = ordered(fin["stream_label"])
    learners = ordered(fin["learner_label"])
    fig, axes = _panels(len(streams), ncols=1, size=(7.5, 0.45 * len(learners) + 1.4))
    rng = np.random.default_rng(0)                 # jitter of the seed dots only
    for ax, stream in zip(axes, streams):
        sub = fin[fin["stream_label"].eq(stream)]
        names = [n for n in learners if n in set(sub["learner_label"])]
        data = [sub.loc[sub["learner_label"].eq(n), metric].to_numpy(float) for n in names]
        pos = np.arange(1, len(names) + 1)
        box = ax.boxplot(data, positions=pos, orientation="horizontal", widths=0.55,
                         tick_labels=names, patch_artist=True, showfliers=False,
                         medianprops={"color": "0.1"})
        for patch, n in zip(box["boxes"], names):
            patch.set(facecolor=styles[n]["color"], alpha=0.35)
        for p, d, n in zip(pos, data, names):
            ax.scatter(d, p + rng.uniform(-0.12, 0.12, len(d)), s=14, zorder=3,
                       color=styles[n]["color"])
        ax.invert_yaxis()
        ax.grid(axis="y", visible=False)
        ax.set_xlabel(LABELS.get(metric, metric) + " at the final round")
        ax.set_title(wrap(stream, width=90))
    fig.suptitle(f"Final {metric.replace('_', ' ')} over seeds")
    return fig


def final_boxplots(table: pd.DataFrame, path, *, metric: str = "mistake_rate") -> list[Path]:
    """Write :func:`final_boxplot_figure` to ``path`` (.png and .pdf); returns the files."""
    return save_figure(final_boxplot_figure(table, metric=metric), path)


# --------------------------------------------------------------------------- all of them
def build_figures(table: pd.DataFrame) -> dict[str, Figure]:
    """Every figure the table supports, by file stem (the keys of :data:`CAPTIONS`); figures
    without data are left out (no regret -> no regret figures, no bound values -> no scatter,
    no Novikoff rows -> a mistakes figure without the Novikoff line)."""
    fin = final_rows(table)
    box = ("mistake_rate" if "mistake_rate" in fin and fin["mistake_rate"].notna().any()
           else "avg_loss")
    figures = {"regret": regret_figure(table),
               "regret_loglog": regret_figure(table, loglog=True),
               "mistakes": mistakes_figure(table),
               "bounds": bound_scatter_figure(table),
               "libol": libol_figure(table),
               f"final_{box}": final_boxplot_figure(table, metric=box)}
    return {stem: fig for stem, fig in figures.items() if fig is not None}


def make_figures(table: pd.DataFrame, out_dir) -> list[Path]:
    """Write :func:`build_figures` into ``out_dir`` (created) as PNG + PDF; returns the files
    written, PNG then PDF of each figure."""
    return [p for stem, fig in build_figures(table).items()
            for p in save_figure(fig, Path(out_dir) / stem)]
