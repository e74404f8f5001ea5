"""The sections of report.md that tell what ran besides the summary: the parameter selection
stage (:func:`selection_section`), published numbers beside ours (:func:`published_section`)
and the failed runs (:func:`failed_runs_section`). Each returns Markdown lines."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from olbench import schema as col
from olbench.analysis.cells import NONE, OFFLINE, mean_pm, summary_cells
from olbench.analysis.failures import distinct_failures
from olbench.analysis.latex import LATEX_COLUMNS, published_latex
from olbench.analysis.markdown import markdown_table
from olbench.analysis.published import NOT_AVAILABLE
from olbench.analysis.summary import labelled, short_names


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
    rows = (chosen.groupby([col.STREAM, "algorithm"], sort=False)
            .apply(lambda g: ", ".join(f"{p}={v:g} ({int(m)} mistakes)"
                                       for p, v, m in zip(g["param"], g["value"], g[col.MISTAKES])),
                   include_groups=False).rename("chosen").reset_index())
    rows[col.STREAM] = short_names(rows[col.STREAM])
    searched = set(rows["algorithm"])
    fixed = sorted({a for a in algorithms.values() if a not in searched})
    lines += [markdown_table(rows), "", "No parameter searched (LIBOL searches none for "
              "them): " + (", ".join(fixed) or NONE) + ".", ""]
    broken = selection[selection["breakdown"].notna()] if "breakdown" in selection else []
    if len(broken):
        lines += ["Candidates whose selection pass broke down numerically (the rule's "
                  "arithmetic left float64; never chosen): " + "; ".join(
                      f"{a} {p}={v:g} on {s} ({why})" for s, a, p, v, why in zip(
                          short_names(broken[col.STREAM]), broken["algorithm"], broken["param"],
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
    (Path(folder) / "published.tex").write_text(published_latex(beside) + "\n",
                                               encoding="utf-8")
    return lines


# --------------------------------------------------------------------------- failed runs
def failed_runs(table: pd.DataFrame) -> pd.DataFrame:
    """One row per run whose status is not ``ok``: errors first, then skips."""
    bad = table[~table[col.STATUS].eq(col.OK)].drop_duplicates(col.RUN_ID)
    bad = labelled(bad)[[col.RUN_ID, col.STREAM, col.LEARNER, col.SEED, col.STATUS]]
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
