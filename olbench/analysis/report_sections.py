"""The report's section on the failed runs (:func:`failed_runs_section`: Markdown lines). A
study's own sections (LIBOL's parameter selection and published numbers, say) are the
study's, registered in :mod:`olbench.analysis.study_sections`."""

from __future__ import annotations

import pandas as pd

from olbench import schema as col
from olbench.analysis.failures import distinct_failures
from olbench.analysis.markdown import markdown_table
from olbench.analysis.summary import labelled


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
