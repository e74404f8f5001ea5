"""report.md: a pure function of the results table (+ figure paths and their captions).

:func:`write_report` puts together the question, the grid that ran, the configuration, the
summary (:mod:`olbench.analysis.summary`) with the notes to read it by, the sections given by
the caller (a study's own: :mod:`olbench.analysis.study_sections`), the
bound checks (:mod:`olbench.analysis.report_bounds`, violations first), the failed runs, the
figures with their captions and the LaTeX table (:mod:`olbench.analysis.latex`, also written
as ``summary.tex``).

The report imports only the table views (:mod:`olbench.analysis.views`), never the figure
code: the figures arrive as file paths and their captions as a mapping (:func:`write_report`).
The summary's, LaTeX and section functions are importable from here too (the front door and
notebooks call them as the report's).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd

from olbench import schema as col
from olbench.analysis.cells import NONE, mean_pm, summary_cells
from olbench.analysis.latex import latex_table
from olbench.analysis.markdown import markdown_table
from olbench.analysis.report_bounds import bound_checks, bounds_section
from olbench.analysis.report_sections import failed_runs, failed_runs_section
from olbench.analysis.summary import (
    METRICS,
    display_summary,
    format_summary,
    labelled,
    reading_notes,
    short_names,
    summary_table,
)
from olbench.analysis.views import display_names, ok_rows, sorted_unique

#: the report's functions, with those of the summary, LaTeX and sections it is written from
__all__ = ["METRICS", "NONE", "bound_checks", "derived_question", "display_summary",
           "failed_runs", "figure_caption", "format_summary", "latex_table", "markdown_table",
           "mean_pm", "reading_notes", "short_names", "summary_cells", "summary_table",
           "write_report"]


def _grid_lines(table: pd.DataFrame) -> list[str]:
    lab = labelled(table)
    runs = lab.drop_duplicates(col.RUN_ID)
    n = (runs.groupby(col.STREAM)[col.STREAM_N].max().to_dict() if col.STREAM_N in runs
         else {})  # a dict: looked up once per stream, a thousand times in a 1,000-seed grid
    status = runs[col.STATUS].astype(str)
    ok = lab[lab[col.STATUS].eq(col.OK)]
    streams = [f"`{s}` (n = {int(n[s])})" if s in n and pd.notna(n[s]) else f"`{s}`"
               for s in sorted_unique(runs[col.STREAM])]
    comps = [c for c in sorted_unique(lab[col.COMPARATOR]) if c != NONE] or ["none"]
    seeds = sorted_unique(runs[col.SEED])
    lines = [f"- **Streams** ({len(streams)}): " + ", ".join(streams),
             f"- **Learners** ({runs[col.LEARNER].nunique()}): "
             + ", ".join(f"`{x}`" for x in sorted_unique(runs[col.LEARNER])),
             "- **Comparators**: " + ", ".join(f"`{c}`" if c != "none" else c for c in comps),
             f"- **Seeds** ({len(seeds)}): " + ", ".join(map(str, seeds)),
             f"- **Runs**: {len(runs)} ({int(status.eq('ok').sum())} ok, "
             f"{int(status.str.startswith('error').sum())} failed, "
             f"{int(status.str.startswith('skipped').sum())} skipped)"]
    if col.LOSS in ok and ok[col.LOSS].notna().any():
        lines.append("- **Loss**: " + ", ".join(map(str, sorted_unique(ok[col.LOSS]))))
    if len(ok):
        per_run = ok.drop_duplicates([col.RUN_ID, col.T]).groupby(col.RUN_ID)[col.T].size()
        lines.append(f"- **Checkpoints per run**: {int(per_run.min())}"
                     + (f" to {int(per_run.max())}" if per_run.max() != per_run.min() else "")
                     + " (log-spaced, plus the final round)")
    return lines


def _listed(names: list[str], most: int = 8) -> str:
    """``a``, ``a and b``, ``a, b and c``; past ``most`` names, how many more.

    >>> _listed(["PA"]), _listed(["PA", "AROW", "OGD"]), _listed(list("abcd"), most=2)
    ('PA', 'PA, AROW and OGD', 'a, b and 2 more')
    """
    shown = names[:most] + ([f"{len(names) - most} more"] if len(names) > most else [])
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + "s" * (n != 1)


def derived_question(table: pd.DataFrame, *, experiment: str, overrides: Sequence[str]) -> str:
    """The question of a grid that ``overrides`` changed from ``experiment``'s own: what ran
    (learners x streams x comparators x seeds, read from the table) and where it came from.
    The experiment's own question is about the grid it declares, so it is not repeated."""
    named = labelled(table)
    runs = named.drop_duplicates(col.RUN_ID)   # one row per run and comparator before

    def names(column):
        return list(display_names(sorted_unique(named[column])).values())

    learners, streams = names(col.LEARNER), names(col.STREAM)
    comparators = [c for c in names(col.COMPARATOR) if c != NONE]
    seeds = sorted_unique(runs[col.SEED])
    against = f", against {_listed(comparators)}" if comparators else ", with no comparator"
    factors = [_count(len(learners), "learner"), _count(len(streams), "stream")]
    factors += [_count(len(comparators), "comparator")] if comparators else []
    factors += [_count(len(seeds), "seed")]
    verb = "does" if len(learners) == 1 else "do"
    return (f"How {verb} {_listed(learners)} fare on {_listed(streams)}{against}, over "
            f"{_count(len(seeds), 'seed')}? ({', '.join(factors)}: "
            f"{_count(len(runs), 'run')}.) This grid is the experiment `{experiment}` changed "
            "by " + ", ".join(f"`{o}`" for o in overrides) + f"; `{experiment}`'s own question "
            "is about the grid it declares, not this one.")


def figure_caption(stem: str, captions: Mapping[str, str]) -> str:
    """The caption of the figure file ``stem``: its own, else that of the figure kind it is
    one of (``sweep_gamma`` is a ``sweep``, ``fit_0`` a ``fit``), else the stem in words.

    >>> caps = {"sweep": "Against a swept parameter.", "regret_loglog": "Log-log."}
    >>> figure_caption("sweep_gamma", caps), figure_caption("regret_loglog", caps)
    ('Against a swept parameter.', 'Log-log.')
    >>> figure_caption("mistakes", caps)
    'mistakes'
    """
    if stem in captions:
        return captions[stem]
    kinds = [k for k in captions if stem.startswith(k + "_")]
    return captions[max(kinds, key=len)] if kinds else stem.replace("_", " ")


def _figure_lines(figures, out_dir: Path, captions: Mapping[str, str]) -> list[str]:
    if figures is None:
        figures = sorted((out_dir / "figures").glob("*.png"))
    pngs = [Path(f) for f in figures if Path(f).suffix == ".png"]
    lines = []
    for f in pngs:
        rel = Path(os.path.relpath(f, out_dir)).as_posix()
        caption = figure_caption(f.stem, captions)
        lines += [f"### {f.stem.replace('_', ' ')}", "", f"![{f.stem}]({rel})", "",
                  f"*{caption}*", ""]
    return lines or ["No figures."]


def write_report(table: pd.DataFrame, out_dir, *, experiment: str, question: str | None = None,
                 config_text: str | None = None, figures=None,
                 captions: Mapping[str, str] | None = None,
                 sections: list[str] | None = None,
                 derived_from: tuple[str, Sequence[str]] | None = None) -> Path:
    """Write ``out_dir/report.md`` and return its path.

    ``derived_from``: (experiment, overrides) when overrides changed that experiment's grid;
    the question is then :func:`derived_question` (what ran), never ``question``.

    ``figures``: paths of the figure files (PNGs are embedded, relative to ``out_dir``; PDFs
    are ignored); default: every PNG in ``out_dir/figures``. ``captions``: the line written
    under each figure, by file stem (the CLI passes :func:`olbench.analysis.figures.captions`); a
    figure without one is captioned by its stem. ``config_text``: the composed
    configuration, shown verbatim. ``sections``: Markdown lines put after the summary (a
    study's own: :func:`olbench.analysis.study_sections.study_sections`).
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    versions = sorted_unique(table["olbench_version"]) if "olbench_version" in table else []
    finished = bool(table[col.STATUS].eq(col.OK).any()) if col.STATUS in table else False
    summary = summary_table(table) if finished else None
    checks = bound_checks(table) if finished else None
    names = (col.STREAM, col.LEARNER, col.COMPARATOR)
    parts = [f"# {experiment}", ""]
    if versions:
        parts += [f"_olbench {', '.join(map(str, versions))}_", ""]
    if derived_from is not None:
        question = derived_question(table, experiment=derived_from[0],
                                    overrides=derived_from[1])
    if question:
        parts += ["## Question", "", question.strip(), ""]
    parts += ["## Grid", "", *_grid_lines(table), ""]
    if config_text:
        parts += ["## Configuration", "", "```yaml", config_text.rstrip(), "```", ""]
    if not finished:  # nothing to summarise or check: what went wrong is the whole report
        return _write_markdown(out_dir / "report.md", parts + failed_runs_section(table))
    parts += ["## Summary at the final checkpoint", "",
              "Mean ± sample std (ddof = 1) over the ok runs (seeds) at each run's final round; "
              "time: the median [first quartile, third quartile] over them (one slow seed "
              "does not move it); *(k of n runs)*: this statistic covers only k of the row's "
              "n runs (the others failed, or their comparator gave no fit: see the notes); "
              "*bounds hold*: y if every bound check at every checkpoint held, n if any was "
              "violated, vacuous if all held but no bound could bind at a "
              "run's final round (each was at least the most its quantity can be), — if no "
              "bound applies.", "",
              markdown_table(display_summary(summary), code=names), ""]
    notes = reading_notes(table)
    if notes:
        losses = " / ".join(map(str, sorted_unique(ok_rows(table).get(col.LOSS, [])))) or "?"
        parts += [f"**Reading these numbers.** Regret = the learner's cumulative {losses} loss "
                  "− the comparator's; mistake regret = the learner's mistakes − the "
                  "comparator's fixed u's.", "", *[f"- {n}" for n in notes], ""]
    parts += list(sections or [])
    parts += bounds_section(checks)
    parts += failed_runs_section(table)
    parts += ["## Figures", "", *_figure_lines(figures, out_dir, captions or {}), ""]
    if "mistake_rate_mean" in summary and summary["mistake_rate_mean"].notna().any():
        latex = latex_table(summary)
        (out_dir / "summary.tex").write_text(latex + "\n", encoding="utf-8")
        parts += ["## LaTeX table", "",
                  "LIBOL-style, in `summary.tex`: mistake rate and updates, mean ± std over "
                  "seeds; time, median [first, third quartile] (single seed: the value "
                  "alone).", "",
                  "```latex", latex, "```"]
    return _write_markdown(out_dir / "report.md", parts)


def _write_markdown(path: Path, parts: list[str]) -> Path:
    path.write_text("\n".join(parts).rstrip() + "\n", encoding="utf-8")
    return path
