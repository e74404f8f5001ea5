"""Two (or more) results folders side by side: one table, one figure.

A source is a folder path, ``experiment/name`` under the output folder, or an experiment's
name (its latest folder, see :mod:`olbench.index`). Rows are matched by stream and learner
(names without ``seed=``) and comparator, so two runs of one grid with other seeds, or one
study before and after a change, line up; a row only one source has shows ``—`` elsewhere.

``olbench --compare results/a/x results/b/y`` prints the table and writes
``<output_dir>/comparisons/<a>_vs_<b>/`` with ``compare.csv`` and ``compare.png``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from olbench import schema as col
from olbench.figures.layout import finish_page, paged, panels
from olbench.figures.libol import rate_limits
from olbench.figures.registry import page_stems
from olbench.figures.style import LABELS, LINESTYLES, learner_styles, styled, variant
from olbench.index import resolve
from olbench.report import NONE, format_summary, mean_pm, short_names, summary_table
from olbench.results import read_results
from olbench.views import mean_band, natural_order, one_per_learner, ordered, per_checkpoint

KEYS = [col.STREAM, col.LEARNER, col.COMPARATOR]
#: Metrics in [0, 1] whose axis is scaled to the curves past the first rounds.
RATES = (col.MISTAKE_RATE, col.CLEAN_MISTAKE_RATE)


@dataclass
class Comparison:
    """``table``: the summaries of the sources, one block per source (column ``source``);
    ``text``: the side-by-side table people read; ``figure``: the PNG (None if not drawn)."""

    table: pd.DataFrame
    text: str
    figure: Path | None


def source_label(folder: Path, output_dir: str | Path) -> str:
    """``experiment/name`` of a folder under ``output_dir``, else its last two parts."""
    folder = Path(folder).resolve()
    try:
        return folder.relative_to(Path(output_dir).resolve()).as_posix()
    except ValueError:
        return "/".join(folder.parts[-2:])


def side_by_side(table: pd.DataFrame, metric: str = col.MISTAKE_RATE) -> pd.DataFrame:
    """One row per (stream, learner, comparator), one ``mean ± std`` column of ``metric``
    per source (short names; ``—`` where a source lacks the row)."""
    cells = table.assign(cell=[mean_pm(m, s) for m, s in
                               zip(table[f"{metric}_mean"], table[f"{metric}_std"])])
    wide = cells.set_index(KEYS + ["source"])["cell"].unstack("source")
    wide = wide.reindex(columns=list(dict.fromkeys(table["source"]))).fillna(NONE)
    wide.columns = [f"{metric} [{s}]" for s in wide.columns]
    wide = natural_order(wide.reset_index(), KEYS)
    for c in KEYS:
        wide[c] = short_names(wide[c])
    if wide[col.COMPARATOR].nunique() <= 1:
        wide = wide.drop(columns=col.COMPARATOR)
    return wide


@styled
def compare_figure(tables: dict[str, pd.DataFrame], metric: str) -> Figure | list | None:
    """``metric`` against t: one panel per stream, one colour and marker per learner, a
    marker fill (:func:`~olbench.figures.style.variant`) and a line style per source, mean
    over seeds; a mistake-rate axis scaled to the curves past the first rounds
    (:func:`~olbench.figures.libol.rate_limits`)."""
    cps = {s: one_per_learner(per_checkpoint(t)) for s, t in tables.items()}
    cps = {s: cp for s, cp in cps.items() if metric in cp and cp[metric].notna().any()}
    if not cps:
        return None
    streams = ordered(pd.concat([cp.loc[cp[metric].notna(), "stream_label"]
                                 for cp in cps.values()]))
    learners = ordered(pd.concat([cp["learner_label"] for cp in cps.values()]))
    short = dict(zip(learners, short_names(pd.Series(learners))))
    styles = learner_styles(learners)
    sources = list(cps)

    def page(chosen: list[str]) -> Figure:
        fig, axes = panels(len(chosen))
        for ax, stream in zip(axes, chosen):
            bands = []
            for k, (source, cp) in enumerate(cps.items()):
                band = mean_band(cp[cp["stream_label"].eq(stream)], metric, ["learner_label"])
                bands.append(band)
                for learner, g in band.groupby("learner_label", sort=False):
                    ax.plot(g[col.T], g["mean"], label=f"{short[learner]} [{source}]",
                            **{**variant(styles[learner], k),
                               "linestyle": LINESTYLES[k % len(LINESTYLES)]})
            band = pd.concat(bands)
            if metric in RATES and len(band) and np.isfinite(band["hi"]).any():
                ax.set_ylim(*rate_limits(band))
            ax.set_xlabel(LABELS[col.T])
            ax.set_ylabel(LABELS.get(metric, metric.replace("_", " ")))
        return finish_page(fig, axes, chosen, f"{metric.replace('_', ' ').capitalize()} by "
                           f"source (mean over seeds): {', '.join(sources)}",
                           note="learner [source]; a source's curves share a marker fill and "
                           "line style")

    return paged(streams, page)


def _figure(tables: dict[str, pd.DataFrame], metric: str, path: Path) -> Path | None:
    """Save :func:`compare_figure` as ``path`` (further pages beside it, ``<stem>_2`` ...)."""
    made = compare_figure(tables, metric)
    if made is None:
        return None
    pages = made if isinstance(made, list) else [made]
    path.parent.mkdir(parents=True, exist_ok=True)
    for stem, fig in page_stems(path.stem, pages).items():
        fig.savefig(path.with_name(f"{stem}{path.suffix}"), dpi=120)
    return path


def compare(*sources: str | Path, output_dir: str | Path = "results",
            out_dir: str | Path | None = None, metric: str = col.MISTAKE_RATE,
            figure: bool = True) -> Comparison:
    """Compare results folders (or experiments' latest folders) in one table and one figure.

    ``out_dir``: where ``compare.csv`` and ``compare.png`` go (default
    ``<output_dir>/comparisons/<a>_vs_<b>``); ``metric``: the column compared (any final
    metric of the summary: mistake_rate, regret, updates, time_s, cum_loss).
    """
    if len(sources) < 2:
        raise ValueError("compare needs at least two results folders or experiments")
    folders = {}
    for spec in sources:
        folder = resolve(spec, output_dir)
        folders.setdefault(source_label(folder, output_dir), folder)
    if len(folders) < 2:
        raise ValueError(f"compare needs two different results folders; {sources} are one")
    tables = {label: read_results(folder) for label, folder in folders.items()}
    summary = pd.concat([summary_table(t).assign(source=label) for label, t in tables.items()],
                        ignore_index=True)
    summary = summary[["source"] + [c for c in summary if c != "source"]]
    if f"{metric}_mean" not in summary:
        raise ValueError(f"no metric {metric!r} in these results")
    slug = "_vs_".join(re.sub(r"[^\w.-]+", "-", s) for s in tables)
    out_dir = Path(out_dir) if out_dir is not None else Path(output_dir) / "comparisons" / slug
    out_dir.mkdir(parents=True, exist_ok=True)
    summary.to_csv(out_dir / "compare.csv", index=False)
    text = format_summary(side_by_side(summary, metric))
    png = _figure(tables, metric, out_dir / "compare.png") if figure else None
    return Comparison(summary, text, png)
