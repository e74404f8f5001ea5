"""The Markdown report of an experiment: a pure function of the results table (+ figure paths
and their captions).

:func:`summary_table` (learner x stream at the final checkpoint, mean ± std over seeds; time
as the median and quartiles) feeds ``summary.csv``, the terminal (:func:`format_summary`) and
the report; :func:`~olbench.analysis.report_bounds.bound_checks` aggregates the bound rows
(violations first); :func:`write_report` writes ``report.md``.

Conventions (those of :mod:`olbench.analysis.views`, shared with the figures): only
``status == "ok"`` rows enter the statistics; streams and learners are named without
``seed=`` (seeds are the replicates); std is the sample standard deviation (ddof = 1) over
seeds; the metrics of :data:`olbench.schema.MEDIAN_METRICS` (time) are given as the median
and quartiles instead, as one preempted seed must not move them; "bounds hold" looks at every
checkpoint of every ok run (y: all checks held, n: at least one violation, vacuous: all held
but no bound could bind at a run's final round, —: no check).

The report imports only the table views (:mod:`olbench.analysis.views`), never the figure code: the
figures arrive as file paths and their captions as a mapping (:func:`write_report`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from olbench import schema as col
from olbench.analysis.cells import NONE, fewer_runs, mean_pm, median_quartiles, summary_cells
from olbench.analysis.failures import distinct_failures
from olbench.analysis.published import NOT_AVAILABLE
from olbench.analysis.report_bounds import VACUOUS, bound_checks, bounds_section, vacuous_cells
from olbench.analysis.views import (
    bound_flag,
    comparator_skips,
    display_names,
    final_rows,
    label,
    natural_order,
    ok_rows,
    scale_dependent,
    sorted_unique,
)

KEYS = [col.STREAM, col.LEARNER, col.COMPARATOR]
METRICS = (col.MISTAKE_RATE, col.CUM_LOSS, col.REGRET, col.UPDATES, col.TIME_S,
           col.MISTAKE_REGRET, col.CLEAN_MISTAKE_RATE, col.INLIER_MISTAKE_RATE,
           col.TEST_MISTAKE_RATE, col.TEST_AVG_LOSS)
#: where a published number is missing: the published file holds only what could be read here
OFFLINE = "not available offline"
#: the title suffix of a metric given as median [first quartile, third quartile]
QUARTILES = ", median [q1, q3]"
#: (metric, column title) of the summary shown to people, LIBOL's columns first
SUMMARY_COLUMNS = ((col.MISTAKE_RATE, "mistake rate"), (col.UPDATES, "updates"),
                   (col.TIME_S, "time (s)" + QUARTILES),
                   (col.CLEAN_MISTAKE_RATE, "clean mistake rate"),
                   (col.INLIER_MISTAKE_RATE, "inlier mistake rate"),
                   (col.CUM_LOSS, "cumulative loss"), (col.REGRET, "regret"),
                   (col.MISTAKE_REGRET, "mistake regret"),
                   (col.TEST_MISTAKE_RATE, "test mistake rate"),
                   (col.TEST_AVG_LOSS, "test avg loss"))
#: columns shown only when some row has a value (a noisy stream, an outlier stream, a
#: split=train_then_test stream, ...)
OPTIONAL_COLUMNS = (col.CLEAN_MISTAKE_RATE, col.INLIER_MISTAKE_RATE, col.MISTAKE_REGRET,
                    col.TEST_MISTAKE_RATE, col.TEST_AVG_LOSS)


# --------------------------------------------------------------------------- small helpers
def _labelled(table: pd.DataFrame) -> pd.DataFrame:
    """Names without ``seed=``, and a comparator label (``—`` when there is none)."""
    comp = table[col.COMPARATOR] if col.COMPARATOR in table else pd.Series(None, index=table.index)
    return table.assign(stream=label(table, col.STREAM), learner=label(table, col.LEARNER),
                        comparator=comp.map(lambda c: NONE if c is None or pd.isna(c) else str(c)))


def holds_mark(values) -> str:
    """``n`` if any check failed, ``y`` if all held, ``—`` if there was no check.

    >>> holds_mark([True, None, True]), holds_mark([True, False]), holds_mark([None])
    ('y', 'n', '—')
    """
    flags = [f for f in map(bound_flag, values) if f is not None]
    return NONE if not flags else ("y" if all(flags) else "n")


# --------------------------------------------------------------------------- summary
def summary_table(table: pd.DataFrame) -> pd.DataFrame:
    """Learner x stream (x comparator) at the final checkpoint of each run.

    Columns: ``stream``, ``learner``, ``comparator``, ``n`` (stream length), ``runs`` (all
    statuses), ``ok``, ``errors``, ``<metric>_mean`` / ``<metric>_std`` over the ok runs for
    each metric of :data:`METRICS` (NaN when the table lacks it) but time, which has
    ``time_s_median`` / ``time_s_q1`` / ``time_s_q3`` (:func:`olbench.schema.summary_stats`),
    ``bounds_hold`` (y/n/vacuous/—), ``comparator_skip_reason`` (why the comparator gave no
    regret; empty when it did), and ``<metric>_runs``, the number of ok runs the statistic
    covers (fewer than ``runs`` where runs failed or a comparator gave no fit).
    :data:`olbench.schema.SUMMARY_COLUMNS` documents each.
    """
    lab = _labelled(table)
    runs = lab.drop_duplicates([col.RUN_ID, col.COMPARATOR])  # each comparator has its rows
    status = runs[col.STATUS].astype(str)
    counts = runs.assign(ok=status.eq(col.OK), errors=status.str.startswith("error"),
                         n=runs[col.STREAM_N] if col.STREAM_N in runs else np.nan
                         ).groupby(KEYS).agg(n=("n", "max"), runs=(col.RUN_ID, "size"),
                                             ok=("ok", "sum"), errors=("errors", "sum"))
    fin = _labelled(final_rows(table)).reindex(columns=KEYS + list(METRICS))
    by = fin.groupby(KEYS)
    quantiles = {"median": 0.5, "q1": 0.25, "q3": 0.75}
    stats = pd.DataFrame({f"{m}_{s}": by[m].agg(s) if s in ("mean", "std", "count") else
                          by[m].quantile(quantiles[s])
                          for m in METRICS for s in (*col.summary_stats(m), "count")})
    stats.columns = [c[:-len("count")] + "runs" if c.endswith("_count") else c
                     for c in stats.columns]
    ok = lab[lab[col.STATUS].eq(col.OK)].reindex(columns=KEYS + [col.BOUND_HOLDS])
    holds = ok.groupby(KEYS)[col.BOUND_HOLDS].agg(holds_mark).rename("bounds_hold")
    reasons = lab[lab[col.STATUS].eq(col.OK)].reindex(columns=KEYS + [col.COMPARATOR_SKIP])
    skips = (reasons.rename(columns={col.COMPARATOR_SKIP: "reason"})
               .groupby(KEYS)["reason"].agg(lambda r: "; ".join(sorted_unique(r)) or None)
               .rename(col.COMPARATOR_SKIP))
    out = counts.join(stats).join(holds).join(skips)
    out["bounds_hold"] = out["bounds_hold"].fillna(NONE)
    vacuous = vacuous_cells(table)
    never_binds = [(s, lrn) in vacuous for s, lrn, _ in out.index]
    out.loc[out["bounds_hold"].eq("y") & np.array(never_binds, bool), "bounds_hold"] = VACUOUS
    return natural_order(out.reset_index(), KEYS)


def short_names(values: pd.Series) -> pd.Series:
    """The column's names as display names (:func:`olbench.analysis.views.display_names`)."""
    return values.map(display_names(values.astype(str)), na_action="ignore").fillna(values)


def display_summary(summary: pd.DataFrame) -> pd.DataFrame:
    """The summary as strings for people: short names (the full ones are in ``summary.csv``
    and the report's grid), ``mean ± std`` cells as LIBOL's tables give them (mistake rate,
    updates) and the loss-based ones, time as ``median [q1, q3]`` (:func:`summary_cells`),
    counts, the bound mark; the comparator column only when it says something."""
    cols = {col.STREAM: short_names(summary[col.STREAM]),
            col.LEARNER: short_names(summary[col.LEARNER])}
    if summary[col.COMPARATOR].nunique() > 1:      # a single one is named in the grid
        cols[col.COMPARATOR] = short_names(summary[col.COMPARATOR])
    cols["n"] = summary["n"].map(lambda v: NONE if pd.isna(v) else str(int(v)))
    cols["runs"] = summary["runs"].astype(int).astype(str)
    cols["errors"] = summary["errors"].astype(int).astype(str)
    for metric, title in SUMMARY_COLUMNS:
        if metric in OPTIONAL_COLUMNS and not summary[f"{metric}_mean"].notna().any():
            continue
        cols[title] = summary_cells(summary, metric)
    cols["bounds hold"] = summary["bounds_hold"]
    return pd.DataFrame(cols)


def reading_notes(table: pd.DataFrame) -> list[str]:
    """What the summary's numbers depend on, one sentence each (terminal and report.md): the
    learners whose loss-based numbers depend on a scale parameter
    (:func:`olbench.analysis.views.scale_dependent`) and every comparator that gave no regret, with
    its reason and how many runs it concerns (:func:`olbench.analysis.views.comparator_skips`).

    >>> t = pd.DataFrame({"run_id": ["a", "a"], "t": 5, "status": "ok", "stream": "S",
    ...     "learner": "Perceptron[eta=1.0,tie=novikoff]", "learner_key": "perceptron",
    ...     "comparator": ["B", "M"], "comparator_skip_reason": [None, "not separable"]})
    >>> notes = reading_notes(t)
    >>> notes[0].startswith("Perceptron: its cumulative loss and regret scale with eta")
    True
    >>> notes[1]
    'Comparator M on S gave no regret (1 of 1 runs): not separable.'
    """
    notes = []
    scaled = scale_dependent(table)
    for param in sorted_unique(scaled.values()):
        names = [n for n, p in scaled.items() if p == param]
        shown = ", ".join(display_names(names).values())
        notes.append(f"{shown}: its cumulative loss and regret scale with {param} (which "
                     f"rescales w without changing a prediction); its mistakes, mistake rate "
                     f"and mistake regret do not: compare it by those.")
    runs = ok_rows(table).assign(stream_label=label(ok_rows(table), col.STREAM))
    per_stream = runs.groupby("stream_label")[col.RUN_ID].nunique()
    for row in comparator_skips(table).itertuples(index=False):
        retry = (" Running the same command again retries the fit and recomputes those runs "
                 "(run.solver_time_limit gives it more time)."
                 if str(row.reason).startswith(col.TIMED_OUT) else "")
        notes.append(f"Comparator {display_names([row.comparator])[row.comparator]} on "
                     f"{display_names([row.stream_label])[row.stream_label]} gave no regret "
                     f"({row.runs} of {per_stream.get(row.stream_label, row.runs)} runs): "
                     f"{str(row.reason).rstrip('.')}.{retry}")
    return notes


def format_summary(df: pd.DataFrame) -> str:
    """A compact aligned text table of a :func:`summary_table` (or any frame of strings).

    >>> print(format_summary(pd.DataFrame({"learner": ["PA", "Perceptron"], "runs": [3, 12]})))
    learner     runs
    ----------  ----
    PA             3
    Perceptron    12
    """
    if "mistake_rate_mean" in df:
        df = display_summary(df)
    cells = df.astype(str)
    numeric = {c: pd.api.types.is_numeric_dtype(df[c]) or c in ("n", "runs", "errors")
               for c in df}
    widths = {c: max([len(str(c))] + [len(v) for v in cells[c]]) for c in df}

    def line(values):
        return "  ".join(v.rjust(widths[c]) if numeric[c] else v.ljust(widths[c])
                         for c, v in zip(df.columns, values)).rstrip()

    rows = [line([str(c) for c in df]), line(["-" * widths[c] for c in df])]
    return "\n".join(rows + [line(list(r)) for r in cells.itertuples(index=False)])


_LATEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
          "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\^{}"}


def _latex_escape(text: str) -> str:
    return "".join(_LATEX.get(ch, ch) for ch in text)


def _latex_pm(mean: float, std: float, fmt: str) -> str:
    if pd.isna(mean):
        return "--"    # LaTeX's en dash
    return f"${mean:{fmt}}$" if pd.isna(std) else f"${mean:{fmt}} \\pm {std:{fmt}}$"


def _latex_cell(row, metric: str, fmt: str | None) -> str:
    """A metric's LaTeX cell: mean ± std in ``fmt``, or (time) median [q1, q3] with the
    median's 3 significant digits (:func:`median_quartiles`), in text mode so that the
    space and the comma read as written."""
    if metric not in col.MEDIAN_METRICS:
        return _latex_pm(row.get(f"{metric}_mean", np.nan), row.get(f"{metric}_std", np.nan),
                         fmt)
    text = median_quartiles(*(row.get(f"{metric}_{s}", np.nan)
                              for s in col.summary_stats(metric)))
    return "--" if text == NONE else text


#: (metric, header, number format) of the LaTeX table: LIBOL's columns (time: significant
#: digits, :func:`_latex_cell`)
LATEX_COLUMNS = ((col.MISTAKE_RATE, "Mistake rate", ".4f"), (col.UPDATES, "Updates", ".1f"),
                 (col.TIME_S, "Time (s)", None))


def _latex_header(metric: str, title: str) -> str:
    return title + (", median [$q_1$, $q_3$]" if metric in col.MEDIAN_METRICS else "")


def latex_table(summary: pd.DataFrame) -> str:
    """A complete LIBOL-style ``tabular``: algorithm (short name), mistake rate and updates
    (mean ± sample std over seeds) and time (median [first, third quartile] over seeds, with
    3 significant digits: never 0.0000 for a fast run); a stream column when there are
    several streams. These metrics do not depend on the comparator, so each learner appears
    once per stream.

    >>> s = pd.DataFrame({"stream": ["S"], "learner": ["PA[C=1.0,variant=pa1]"],
    ...                   "mistake_rate_mean": [0.25], "mistake_rate_std": [0.01],
    ...                   "updates_mean": [120.0], "updates_std": [2.0], "time_s_median":
    ...                   [0.0002], "time_s_q1": [0.000195], "time_s_q3": [0.00021]})
    >>> print(latex_table(s))
    % stream: S; mean ± sample std over seeds at the final round; time: median [quartiles]
    \\begin{tabular}{lrrr}
    \\hline
    Algorithm & Mistake rate & Updates & Time (s), median [$q_1$, $q_3$] \\\\
    \\hline
    PA-I (C=1) & $0.2500 \\pm 0.0100$ & $120.0 \\pm 2.0$ & 0.000200 [0.000195, 0.000210] \\\\
    \\hline
    \\end{tabular}
    """
    rows = summary.drop_duplicates([col.STREAM, col.LEARNER])
    streams = short_names(rows[col.STREAM])
    several = streams.nunique() > 1
    head = (["Stream"] if several else []) + ["Algorithm"] + [_latex_header(m, h)
                                                               for m, h, _ in LATEX_COLUMNS]
    align = ("l" if several else "") + "l" + "r" * len(LATEX_COLUMNS)
    where = "" if several else f"stream: {', '.join(streams.unique())}; "
    lines = [f"% {where}mean ± sample std over seeds at the final round; time: median "
             "[quartiles]",
             f"\\begin{{tabular}}{{{align}}}", "\\hline", " & ".join(head) + " \\\\",
             "\\hline"]
    for (_, r), stream, learner in zip(rows.iterrows(), streams, short_names(rows[col.LEARNER])):
        cells = ([_latex_escape(str(stream))] if several else []) + [_latex_escape(learner)]
        cells += [_latex_cell(r, m, fmt)
                  + fewer_runs(r.get(f"{m}_runs", np.nan), r.get("runs", np.nan), latex=True)
                  for m, _, fmt in LATEX_COLUMNS]
        lines.append(" & ".join(cells) + " \\\\")
    return "\n".join(lines + ["\\hline", "\\end{tabular}"])


# --------------------------------------------------------------------------- selection
def selection_section(selection: pd.DataFrame, algorithms: Mapping[str, str]) -> list[str]:
    """The report's account of the selection stage: per stream and algorithm, the values
    chosen (in search order) with their mistakes on the selection pass, and which learner
    (full name) ran the table."""
    lines = ["## Parameter selection", "",
             "Before the table, each parameter was chosen as LIBOL's `CV_algorithm.m` does: "
             "one online pass per candidate over the whole dataset in one fixed order (not one "
             "of the table's), the value with the fewest mistakes kept (ties: the later "
             "value); several parameters one after the other. All candidates: "
             "`selection.csv`.", ""]
    if selection.empty:
        return lines + ["No learner searches a parameter.", ""]
    chosen = selection[selection["chosen"].astype(bool)]
    rows = (chosen.groupby(["stream", "algorithm"], sort=False)
            .apply(lambda g: ", ".join(f"{p}={v:g} ({int(m)} mistakes)"
                                       for p, v, m in zip(g["param"], g["value"], g["mistakes"])),
                   include_groups=False).rename("chosen").reset_index())
    rows["stream"] = short_names(rows["stream"])
    searched = set(rows["algorithm"])
    fixed = sorted({a for a in algorithms.values() if a not in searched})
    lines += [markdown_table(rows), "", "No parameter searched (LIBOL searches none for "
              "them): " + (", ".join(fixed) or NONE) + ".", ""]
    broken = selection[selection["breakdown"].notna()] if "breakdown" in selection else []
    if len(broken):
        lines += ["Candidates whose selection pass broke down numerically (the rule's "
                  "arithmetic left float64; never chosen): " + "; ".join(
                      f"{a} {p}={v:g} on {s} ({why})" for s, a, p, v, why in zip(
                          short_names(broken["stream"]), broken["algorithm"], broken["param"],
                          broken["value"], broken["breakdown"])) + ".", ""]
    return lines


def published_section(beside: pd.DataFrame, folder: Path, source: str) -> list[str]:
    """Published numbers beside ours (:func:`olbench.analysis.published.beside_published`): one row
    per (dataset, algorithm), our mean ± std, the published one, and the difference in published
    std units; also written as ``published.tex``."""
    rows = beside
    shown = pd.DataFrame({"dataset": rows["dataset"], "algorithm": rows["algorithm"]})
    for m, title, _ in LATEX_COLUMNS:
        shown[f"{title} (ours)"] = summary_cells(rows, m)
        shown[f"{title} (published)"] = [OFFLINE if pd.isna(a) else mean_pm(a, s) for a, s in
                                         zip(rows[f"published_{m}_mean"],
                                             rows[f"published_{m}_std"])]
        if f"{m}_diff_in_std" in rows:
            shown[f"{title}: diff / published std"] = rows[f"{m}_diff_in_std"].map(
                lambda d: NONE if pd.isna(d) else f"{d:+.2f}")
    has = rows["published_mistake_rate_mean"].notna()
    missing = rows.loc[~has, "source"].fillna(NOT_AVAILABLE).value_counts(sort=False)
    lines = ["## Published numbers beside ours", "",
             f"From `{source}`: {has.sum()} of {len(rows)} rows have a published mistake rate; "
             f"the other {(~has).sum()} have none available offline (the table says *{OFFLINE}*; "
             "their `source` in `published.csv` says why):", "",
             *[f"- {n} rows: {why}" for why, n in missing.items()], "",
             "*diff / published std* = (ours − published) / published std. Times are shown, "
             "not compared: LIBOL's are MATLAB on another machine (ours: median [quartiles] "
             "over seeds; LIBOL's: mean ± std). Also in `published.csv` and "
             "`published.tex`.", "", markdown_table(shown), ""]
    tex = ["% ours vs published: mean ± std; diff in units of the published std;",
           f"% n/a: published number {OFFLINE} (published.csv's source column says why)",
           "\\begin{tabular}{llrrrr}", "\\hline",
           "Dataset & Algorithm & Mistake rate & Published & Diff/std & Updates \\\\", "\\hline"]
    for r in rows.itertuples(index=False):
        d = r.mistake_rate_diff_in_std
        tex.append(" & ".join([_latex_escape(str(r.dataset)), _latex_escape(str(r.algorithm)),
                               _latex_pm(r.mistake_rate_mean, r.mistake_rate_std, ".4f"),
                               "n/a" if pd.isna(r.published_mistake_rate_mean) else
                               _latex_pm(r.published_mistake_rate_mean,
                                         r.published_mistake_rate_std, ".4f"),
                               "--" if pd.isna(d) else f"${d:+.2f}$",
                               _latex_pm(r.updates_mean, r.updates_std, ".1f")]) + " \\\\")
    (Path(folder) / "published.tex").write_text(
        "\n".join(tex + ["\\hline", "\\end{tabular}"]) + "\n", encoding="utf-8")
    return lines


# --------------------------------------------------------------------------- failed runs
def failed_runs(table: pd.DataFrame) -> pd.DataFrame:
    """One row per run whose status is not ``ok``: errors first, then skips."""
    bad = table[~table[col.STATUS].eq(col.OK)].drop_duplicates(col.RUN_ID)
    bad = _labelled(bad)[[col.RUN_ID, col.STREAM, col.LEARNER, col.SEED, col.STATUS]]
    return (bad.assign(_o=~bad[col.STATUS].astype(str).str.startswith("error"))
               .sort_values(["_o", col.RUN_ID]).drop(columns="_o").reset_index(drop=True))


def failed_runs_section(table: pd.DataFrame) -> list[str]:
    """report.md's "Failed runs": each distinct error once, with how many runs it hit and
    the first of them (:func:`olbench.analysis.failures.distinct_failures`), then every failed
    run."""
    failures = distinct_failures(table)
    if failures.empty:
        return ["## Failed runs", "", "None: every run finished.", ""]
    shown = failures.rename(columns={"first_run": "first run", "where": "first run is"})
    return ["## Failed runs", "",
            f"{int(failures['runs'].sum())} of {table[col.RUN_ID].nunique()} runs failed, "
            f"{len(failures)} distinct error(s); each run's traceback is in the `traceback` "
            "column of results.parquet.", "",
            markdown_table(shown, code=("first run",)), "",
            markdown_table(failed_runs(table), code=(col.RUN_ID, col.STREAM, col.LEARNER)), ""]


# --------------------------------------------------------------------------- markdown
def _cell(v) -> str:
    text = NONE if v is None or (not isinstance(v, str) and pd.isna(v)) else str(v)
    return text.replace("|", "\\|").replace("\n", " ")


def markdown_table(df: pd.DataFrame, code: tuple[str, ...] = ()) -> str:
    """A GitHub Markdown table; the ``code`` columns are set in backticks (names).

    >>> print(markdown_table(pd.DataFrame({"a": ["x|y"], "b": [1.5]}), code=("a",)))
    | a | b |
    | --- | --- |
    | `x\\|y` | 1.5 |
    """
    def fmt(c, v):
        s = _cell(v)
        return f"`{s}`" if c in code and s != NONE else s
    head = ["| " + " | ".join(map(str, df.columns)) + " |",
            "| " + " | ".join("---" for _ in df.columns) + " |"]
    return "\n".join(head + ["| " + " | ".join(fmt(c, v) for c, v in zip(df.columns, r)) + " |"
                             for r in df.itertuples(index=False)])


def _grid_lines(table: pd.DataFrame) -> list[str]:
    lab = _labelled(table)
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
             f"- **Learners** ({runs['learner'].nunique()}): "
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
    labelled = _labelled(table)
    runs = labelled.drop_duplicates(col.RUN_ID)   # one row per run and comparator before

    def names(column):
        return list(display_names(sorted_unique(labelled[column])).values())

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
    configuration, shown verbatim. ``sections``: Markdown lines put after the summary (the
    selection stage and published numbers: :func:`selection_section`,
    :func:`published_section`).
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
