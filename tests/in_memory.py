"""Runs held in memory, as a results folder would hold them: the table and the side tables
(the runs' declared outputs and the grid's order) of ``tasks`` run one by one, without a
folder (figures read both: :mod:`olbench.harness.side`)."""

from __future__ import annotations

import pandas as pd

from olbench.harness.grid import run_task
from olbench.harness.side import side_tables


def run_tasks(tasks) -> tuple[pd.DataFrame, dict[str, pd.DataFrame]]:
    """The results table and the side tables of ``tasks``, each run with ``run_task``."""
    runs = [run_task(task) for task in tasks]
    return pd.concat(runs, ignore_index=True), side_tables(runs, tasks)
