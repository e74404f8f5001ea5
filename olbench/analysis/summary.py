"""The summary of an experiment: learner x stream (x comparator) at the final checkpoint, the
one table behind ``summary.csv``, the terminal (:func:`format_summary`), report.md's summary
and the LaTeX table (:mod:`olbench.analysis.latex`); a pure function of the results table.

Conventions (those of :mod:`olbench.analysis.views`, shared with the figures): only
``status == "ok"`` rows enter the statistics; streams and learners are named without
``seed=`` (seeds are the replicates); std is the sample standard deviation (ddof = 1) over
seeds; the metrics of :data:`olbench.schema.MEDIAN_METRICS` (time) are given as the median
and quartiles instead, as one preempted seed must not move them; "bounds hold" looks at every
checkpoint of every ok run (y: all checks held, n: at least one violation, vacuous: all held
but no bound could bind at a run's final round, —: no check).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from olbench import schema as col
from olbench.analysis.cells import NONE, summary_cells
from olbench.analysis.report_bounds import VACUOUS, vacuous_cells
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


# --------------------------------------------------------------------------- names and marks
def labelled(table: pd.DataFrame) -> pd.DataFrame:
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
    lab = labelled(table)
    runs = lab.drop_duplicates([col.RUN_ID, col.COMPARATOR])  # each comparator has its rows
    status = runs[col.STATUS].astype(str)
    counts = runs.assign(ok=status.eq(col.OK), errors=status.str.startswith("error"),
                         n=runs[col.STREAM_N] if col.STREAM_N in runs else np.nan
                         ).groupby(KEYS).agg(n=("n", "max"), runs=(col.RUN_ID, "size"),
                                             ok=("ok", "sum"), errors=("errors", "sum"))
    fin = labelled(final_rows(table)).reindex(columns=KEYS + list(METRICS))
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
    ok = ok_rows(table)
    per_stream = ok.groupby(label(ok, col.STREAM))[col.RUN_ID].nunique()
    for comparator, stream, reason, runs in comparator_skips(table)[
            [col.COMPARATOR, col.STREAM_NAME, "reason", "runs"]].itertuples(index=False):
        retry = (" Running the same command again retries the fit and recomputes those runs "
                 "(run.solver_time_limit gives it more time)."
                 if str(reason).startswith(col.TIMED_OUT) else "")
        notes.append(f"Comparator {display_names([comparator])[comparator]} on "
                     f"{display_names([stream])[stream]} gave no regret "
                     f"({runs} of {per_stream.get(stream, runs)} runs): "
                     f"{str(reason).rstrip('.')}.{retry}")
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
