"""Two (or more) results folders side by side: one table, one figure.

A source is a results folder given by its path (absolute, or relative to the working
directory), ``experiment/name`` under the output folder, or an experiment's name (its newest
folder, :func:`olbench.analysis.index.latest`); a folder that is not a results folder is refused as
such. A committed ``canonical`` folder holds a summary only: it is in the table, not in the
figure.

Rows are paired by stream and learner (names without ``seed=``), and by comparator only when
every source that has the stream and learner has that comparator: a run measured against a
comparator lines up with the same run measured against another one, or none (the comparator
column then says which each source used); two runs of one grid with other seeds, or one study
before and after a change, line up too. A row only one source has shows ``—`` elsewhere.

``olbench --compare results/a/x results/b/y`` prints the table and writes ``compare.csv`` and
``compare.png`` into ``--out=DIR`` when given, else ``<output folder>/comparisons/<a>_vs_<b>/``:
the output folder is ``run.output_dir`` when given, else the results folder holding the first
source (``results`` for ``results/a/x``), whatever the working directory.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from olbench import schema as col
from olbench.analysis.cells import NONE, summary_cells
from olbench.analysis.figures.layout import finish_page, paged, panels
from olbench.analysis.figures.libol import rate_limits
from olbench.analysis.figures.registry import page_stems
from olbench.analysis.figures.style import LABELS, LINESTYLES, learner_styles, styled, variant
from olbench.analysis.index import read_summary, read_table, resolve
from olbench.analysis.summary import format_summary, short_names, summary_table
from olbench.analysis.views import (
    mean_band,
    median_band,
    natural_order,
    one_per_learner,
    ordered,
    per_checkpoint,
)
from olbench.harness.results import RESULTS_FILE

KEYS = [col.STREAM, col.LEARNER, col.COMPARATOR]
PAIR = "pair"          # the pairing key: a shared comparator, or the rank of an unshared one
COMPARISONS = "comparisons"
#: Metrics in [0, 1] whose axis is scaled to the curves past the first rounds.
RATES = (col.MISTAKE_RATE, col.CLEAN_MISTAKE_RATE)


@dataclass
class Comparison:
    """``table``: the summaries of the sources, one block per source (column ``source``);
    ``text``: the side-by-side table people read; ``figure``: the PNG (None if not drawn);
    ``csv``: where ``table`` was written."""

    table: pd.DataFrame
    text: str
    figure: Path | None
    csv: Path | None = None


def source_labels(folders: list[Path]) -> list[str]:
    """Each folder's ``experiment/name`` (its last two parts), longer where two would be
    the same.

    >>> source_labels([Path("/a/results/x/canonical"), Path("/b/results/x/canonical"),
    ...                Path("/b/results/y/f00")])
    ['a/results/x/canonical', 'b/results/x/canonical', 'y/f00']
    """
    parts = [Path(f).resolve().parts for f in folders]
    labels = ["/".join(p[-2:]) for p in parts]
    for depth in range(3, max(map(len, parts)) + 1):
        twins = {x for x in labels if labels.count(x) > 1}
        if not twins:
            break
        labels = ["/".join(p[-depth:]) if x in twins else x for p, x in zip(parts, labels)]
    return labels


def pairing(summary: pd.DataFrame) -> pd.Series:
    """The pairing key of each summary row (see the module's docstring): its comparator when
    every source with the row's stream and learner has that comparator, else the rank of the
    row among its source's unshared comparators (so the k-th pairs with the k-th)."""
    key = pd.Series(index=summary.index, dtype=object)
    for _, rows in summary.groupby([col.STREAM, col.LEARNER], sort=False):
        by_source = [list(g[col.COMPARATOR]) for _, g in rows.groupby("source", sort=False)]
        shared = set.intersection(*map(set, by_source))
        for _, g in rows.groupby("source", sort=False):
            unshared = iter(range(len(g)))
            key[g.index] = [c if c in shared else f"#{next(unshared)}"
                            for c in g[col.COMPARATOR]]
    return key


def _comparators(rows: pd.DataFrame) -> str:
    """The comparator column of one paired row: one name, or each source's."""
    names = dict(zip(rows["source"], short_names(rows[col.COMPARATOR].astype(str))))
    if len(set(names.values())) == 1:
        return next(iter(names.values()))
    return "; ".join(f"{name} [{source}]" for source, name in names.items())


def side_by_side(table: pd.DataFrame, metric: str = col.MISTAKE_RATE) -> pd.DataFrame:
    """One row per paired (stream, learner, comparator), one ``mean ± std`` column of
    ``metric`` (time: ``median [q1, q3]``) per source (short names; ``—`` where a source
    lacks the row)."""
    table = table.reset_index(drop=True)
    cells = table.assign(cell=summary_cells(table, metric), **{PAIR: pairing(table)})
    pairs = [col.STREAM, col.LEARNER, PAIR]
    wide = cells.set_index(pairs + ["source"])["cell"].unstack("source")
    wide = wide.reindex(columns=list(dict.fromkeys(table["source"]))).fillna(NONE)
    wide.columns = [f"{metric} [{s}]" for s in wide.columns]
    comparators = {key: _comparators(rows) for key, rows in cells.groupby(pairs, sort=False)}
    wide.insert(0, col.COMPARATOR, [comparators[key] for key in wide.index])
    wide = natural_order(wide.reset_index(), KEYS).drop(columns=PAIR)
    for c in (col.STREAM, col.LEARNER):
        wide[c] = short_names(wide[c])
    if table[col.COMPARATOR].nunique() <= 1:
        wide = wide.drop(columns=col.COMPARATOR)
    return wide[[col.STREAM, col.LEARNER] + [c for c in wide if c not in
                                             (col.STREAM, col.LEARNER)]]


@styled
def compare_figure(tables: dict[str, pd.DataFrame], metric: str) -> Figure | list | None:
    """``metric`` against t: one panel per stream, one colour and marker per learner, a
    marker fill (:func:`~olbench.analysis.figures.style.variant`) and a line style per source, mean
    over seeds; a mistake-rate axis scaled to the curves past the first rounds
    (:func:`~olbench.analysis.figures.libol.rate_limits`)."""
    cps = {s: one_per_learner(per_checkpoint(t)) for s, t in tables.items()}
    cps = {s: cp for s, cp in cps.items() if metric in cp and cp[metric].notna().any()}
    if not cps:
        return None
    streams = ordered(pd.concat([cp.loc[cp[metric].notna(), col.STREAM_LABEL]
                                 for cp in cps.values()]))
    learners = ordered(pd.concat([cp[col.LEARNER_LABEL] for cp in cps.values()]))
    short = dict(zip(learners, short_names(pd.Series(learners))))
    styles = learner_styles(learners)
    sources = list(cps)
    robust = metric in col.MEDIAN_METRICS     # time: the median, as in the summary

    def page(chosen: list[str]) -> Figure:
        fig, axes = panels(len(chosen))
        for ax, stream in zip(axes, chosen):
            bands = []
            for k, (source, cp) in enumerate(cps.items()):
                band = (median_band if robust else mean_band)(
                    cp[cp[col.STREAM_LABEL].eq(stream)], metric, [col.LEARNER_LABEL])
                bands.append(band)
                for learner, g in band.groupby(col.LEARNER_LABEL, sort=False):
                    ax.plot(g[col.T], g["mean"], label=f"{short[learner]} [{source}]",
                            **{**variant(styles[learner], k),
                               "linestyle": LINESTYLES[k % len(LINESTYLES)]})
            band = pd.concat(bands)
            if metric in RATES and len(band) and np.isfinite(band["hi"]).any():
                ax.set_ylim(*rate_limits(band))
            ax.set_xlabel(LABELS[col.T])
            ax.set_ylabel(LABELS.get(metric, metric.replace("_", " ")))
        return finish_page(fig, axes, chosen, f"{metric.replace('_', ' ').capitalize()} by "
                           f"source ({'median' if robust else 'mean'} over seeds): "
                           f"{', '.join(sources)}",
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


def compare(*sources: str | Path, output_dir: str | Path | None = None,
            out_dir: str | Path | None = None, metric: str = col.MISTAKE_RATE,
            figure: bool = True) -> Comparison:
    """Compare results folders (or experiments' newest folders) in one table and one figure.

    ``output_dir``: where experiment names and ``experiment/name`` are looked up (default
    ``results``) and, when given, where the comparison goes
    (``<output_dir>/comparisons/<a>_vs_<b>``); ``out_dir``: the folder for ``compare.csv``
    and ``compare.png`` instead (default: under ``output_dir`` when given, else under the
    results folder holding the first source); ``metric``: the column compared (any final
    metric of the summary: mistake_rate, regret, updates, time_s, cum_loss).
    """
    if len(sources) < 2:
        raise ValueError("compare needs at least two results folders or experiments")
    looked_up = Path(output_dir) if output_dir is not None else Path("results")
    folders = list(dict.fromkeys(resolve(spec, looked_up) for spec in sources))
    if len(folders) < 2:
        raise ValueError(f"compare needs two different results folders; {sources} are one")
    labels = source_labels(folders)
    tables = {label: read_table(f) for label, f in zip(labels, folders)
              if (f / RESULTS_FILE).is_file()}   # a committed folder holds its summary only
    summary = pd.concat([(summary_table(tables[label]) if label in tables else read_summary(f)
                          ).assign(source=label) for label, f in zip(labels, folders)],
                        ignore_index=True)
    summary = summary[["source"] + [c for c in summary if c != "source"]]
    if f"{metric}_{col.summary_stats(metric)[0]}" not in summary:
        raise ValueError(f"no metric {metric!r} in these results")
    slug = "_vs_".join(re.sub(r"[^\w.-]+", "-", s) for s in labels)
    if out_dir is None:
        root = Path(output_dir) if output_dir is not None else folders[0].parent.parent
        out_dir = root / COMPARISONS / slug
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    summary.to_csv(out_dir / "compare.csv", index=False)
    text = format_summary(side_by_side(summary, metric))
    only_summary = [label for label in labels if label not in tables]
    if only_summary:
        text += (f"\n(summary only, so not in the figure: {', '.join(only_summary)}; the "
                 "command that wrote a folder recreates its whole table)")
    png = _figure(tables, metric, out_dir / "compare.png") if figure and tables else None
    return Comparison(summary, text, png, out_dir / "compare.csv")
