"""Failed runs, grouped by what went wrong: the terminal's closing lines and report.md's
"Failed runs" section both come from :func:`distinct_failures`.

A run that fails is stored as one row with ``status = "error: <type>: <message>"`` (see
:mod:`olbench.harness.grid`); a grid whose runs all fail for one reason (a missing file, a bad loss)
should say that reason once, with how many runs it hit and where to look, not list the same
line a hundred times. Runs that failed before their stream or learner was built are named by
their registry keys (``pa on libsvm``), never ``nan``.

>>> import pandas as pd
>>> table = pd.DataFrame({"run_id": ["b2", "a1", "c3"], "seed": [1, 0, 0],
...     "status": ["error: ValueError: x", "error: ValueError: x", "ok"],
...     "learner_key": ["pa", "pa", "pa"], "stream_key": ["csv", "csv", "csv"]})
>>> print("\\n".join(failure_lines(table)))
2 of 3 runs FAILED (1 distinct error):
  2 x error: ValueError: x
      first: run a1 (pa on csv, seed 0)
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from olbench import schema as col
from olbench.analysis.views import label

#: columns of :func:`distinct_failures`
FAILURE_COLUMNS = [col.STATUS, "runs", "first_run", "where"]


def distinct_failures(table: pd.DataFrame) -> pd.DataFrame:
    """One row per distinct non-ok status: how many runs it hit, the first (smallest) run id
    and which learner / stream / seed that run was; most frequent first, then by message."""
    if table.empty or col.STATUS not in table:
        return pd.DataFrame(columns=FAILURE_COLUMNS)
    runs = table.drop_duplicates(col.RUN_ID)
    bad = runs[~runs[col.STATUS].eq(col.OK)].sort_values(col.RUN_ID)
    if bad.empty:
        return pd.DataFrame(columns=FAILURE_COLUMNS)
    where = (label(bad, col.LEARNER) + " on " + label(bad, col.STREAM)
             + bad[col.SEED].map(lambda s: "" if pd.isna(s) else f", seed {int(s)}")
             if col.SEED in bad else label(bad, col.LEARNER) + " on " + label(bad, col.STREAM))
    bad = bad.assign(where=where, status=bad[col.STATUS].astype(str))
    out = (bad.groupby(col.STATUS, sort=False)
              .agg(runs=(col.RUN_ID, "size"), first_run=(col.RUN_ID, "first"),
                   where=("where", "first"))
              .reset_index())
    return (out.sort_values(["runs", col.STATUS], ascending=[False, True])
               .reset_index(drop=True)[FAILURE_COLUMNS])


def failure_lines(table: pd.DataFrame, limit: int = 10) -> list[str]:
    """The terminal's report of failed runs (empty when every run succeeded)."""
    failures = distinct_failures(table)
    if failures.empty:
        return []
    total = table[col.RUN_ID].nunique()
    n_failed = int(failures["runs"].sum())
    lines = [f"{n_failed} of {total} runs FAILED ({len(failures)} distinct "
             f"error{'s' if len(failures) > 1 else ''}):"]
    for row in failures.head(limit).itertuples(index=False):
        lines += [f"  {row.runs} x {row.status}",
                  f"      first: run {row.first_run} ({row.where})"]
    if len(failures) > limit:
        lines.append(f"  ... and {len(failures) - limit} more distinct errors: see report.md")
    return lines


class ResultsNotWritten(OSError):
    """Writing a results folder failed (a full disk, a read-only folder): one line naming
    the folder, the cause and how many runs are kept (saved runs stay in its ``runs/``, and
    the same command resumes from them)."""

    def __init__(self, folder: Path, error: OSError, run_ids: list[str]):
        from olbench.harness.results import RunStore

        try:
            saved = len(RunStore(folder).finished() & set(run_ids)) \
                if (folder / "runs").is_dir() else 0
        except OSError:   # the folder's own path is what failed (a name too long)
            saved = 0
        where = f" ({error.filename})" if error.filename else ""
        super().__init__(f"cannot write the results in {folder}: {error.strerror or error}"
                         f"{where}; {saved} of {len(run_ids)} runs are saved there: make room "
                         f"or make it writable, then run the same command again to finish")
