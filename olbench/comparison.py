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

import pandas as pd

from olbench import schema as col
from olbench.figures.style import styled
from olbench.index import resolve
from olbench.report import NONE, format_summary, mean_cells, short_names, summary_table
from olbench.results import read_results
from olbench.views import mean_band, natural_order, one_per_learner, ordered, per_checkpoint

KEYS = [col.STREAM, col.LEARNER, col.COMPARATOR]


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
    cells = table.assign(cell=mean_cells(table, metric))   # (k of n runs) where fewer
    wide = cells.set_index(KEYS + ["source"])["cell"].unstack("source")
    wide = wide.reindex(columns=list(dict.fromkeys(table["source"]))).fillna(NONE)
    wide.columns = [f"{metric} [{s}]" for s in wide.columns]
    wide = natural_order(wide.reset_index(), KEYS)
    for c in KEYS:
        wide[c] = short_names(wide[c])
    if wide[col.COMPARATOR].nunique() <= 1:
        wide = wide.drop(columns=col.COMPARATOR)
    return wide


@styled   # the figures' look: no offset or ×10^k notation on any axis
def _figure(tables: dict[str, pd.DataFrame], metric: str, path: Path) -> Path | None:
    """``metric`` against t: one panel per stream, a colour per learner, a line style per
    source (mean over seeds)."""
    from matplotlib.figure import Figure

    cps = {s: one_per_learner(per_checkpoint(t)) for s, t in tables.items()}
    cps = {s: cp for s, cp in cps.items() if metric in cp and cp[metric].notna().any()}
    if not cps:
        return None
    streams = ordered(pd.concat([cp["stream_label"] for cp in cps.values()]))
    learners = ordered(pd.concat([cp["learner_label"] for cp in cps.values()]))
    short = dict(zip(learners, short_names(pd.Series(learners))))
    colours = {name: f"C{i % 10}" for i, name in enumerate(learners)}
    styles = dict(zip(cps, ["-", "--", ":", "-."] * len(cps)))
    fig = Figure(figsize=(max(6.0, 4.4 * len(streams)), 3.6 + 0.22 * len(learners) * len(cps)),
                 layout="constrained")
    axes = fig.subplots(1, len(streams), squeeze=False)[0]
    for ax, stream in zip(axes, streams):
        for source, cp in cps.items():
            band = mean_band(cp[cp["stream_label"].eq(stream)], metric, ["learner_label"])
            for learner, g in band.groupby("learner_label", sort=False):
                ax.plot(g[col.T], g["mean"], color=colours[learner], linestyle=styles[source],
                        label=f"{short[learner]} [{source}]")
        ax.set_title(short_names(pd.Series([stream]))[0], fontsize=10)
        ax.set_xlabel("t")
        ax.set_ylabel(metric.replace("_", " "))
        ax.ticklabel_format(axis="y", useOffset=False, style="plain")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", fontsize=8,
               ncols=min(len(cps), 3), title="learner [source]", title_fontsize=8)
    fig.suptitle(f"{metric.replace('_', ' ').capitalize()} by source (mean over seeds)",
                 fontsize=11)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
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
