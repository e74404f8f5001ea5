"""What figures read of the runs besides the results table: their side tables
(:mod:`olbench.harness.side`: final weights, points, switch rounds ..., each keyed by run id)
joined with the table's runs in the grid's order (the ``grid`` side table). Nothing here
builds a stream or a learner: a figure draws what the runs wrote.

>>> import pandas as pd
>>> table = pd.DataFrame({"run_id": ["b", "a"], "status": "ok", "seed": [0, 0],
...                       "stream": ["Drift[seed=0]", "Drift[seed=0]"]})
>>> side = {"grid": pd.DataFrame({"run_id": ["a", "b"], "position": [0, 1],
...                               "stream_number": [0, 0]}),
...         "switches": pd.DataFrame({"run_id": ["a", "a"], "t": [200, 600]})}
>>> switch_times(table, side)
{'Drift': [200, 600]}
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import pandas as pd

from olbench import schema as col
from olbench.analysis.views import label, ok_rows
from olbench.harness.side import GRID, side_table


def by_run(rows: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """A side table's rows per run id (each run's rows in the order it wrote them)."""
    return {run_id: part for run_id, part in rows.groupby(col.RUN_ID, sort=False)}


def runs_in_grid_order(table: pd.DataFrame, side: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """One row per run of the table (its first), with its ``position`` in the grid and its
    ``stream_number`` (:func:`olbench.harness.side.grid_table`), in the grid's order."""
    runs = table.drop_duplicates(col.RUN_ID)
    grid = side_table(side, GRID)
    return (runs.merge(grid, on=col.RUN_ID, how="inner", validate="one_to_one")
                .sort_values("position", kind="stable", ignore_index=True))


def first_seed_streams(table: pd.DataFrame, side: Mapping[str, pd.DataFrame],
                       output: str) -> Iterator[tuple[int, pd.DataFrame, dict]]:
    """Per stream of the grid's first seed, numbered in the grid's order (what numbers the
    figures ``<stem>_<i>``): ``(number, runs, outputs)``, where ``runs`` are the table's ok
    runs of that stream (one row each, in the table's order) that wrote ``output``, and
    ``outputs`` their rows of it by run id; streams none of whose runs wrote it are left
    out."""
    written = by_run(side_table(side, output))
    every = runs_in_grid_order(table, side)
    if every.empty:
        return
    first = every[every[col.SEED].eq(every[col.SEED].min())]
    ok = ok_rows(table).drop_duplicates(col.RUN_ID)
    ok = ok[ok[col.RUN_ID].isin(list(written))]
    for number, runs in first.groupby("stream_number", sort=True):
        names = runs[col.STREAM].dropna() if col.STREAM in runs else []
        if len(names) == 0:   # every run of it failed before its stream was built
            continue
        mine = ok[ok[col.STREAM].eq(names.iloc[0])]
        if not mine.empty:
            yield int(number), mine, {r: written[r] for r in mine[col.RUN_ID]}


def switch_times(table: pd.DataFrame, side: Mapping[str, pd.DataFrame],
                 streams=None) -> dict[str, list[int]]:
    """``{stream label: switch rounds}`` (:func:`~olbench.analysis.views.label`: the name
    without ``seed=``) of the streams whose runs wrote their switch rounds, or of the labels
    ``streams`` whether or not they did ([] then: a stream that drifts without switching),
    in the grid's order; each stream's rounds are those of its first run, in the grid's
    order, that wrote them."""
    runs = runs_in_grid_order(table, side)
    labels = label(runs, col.STREAM)
    written = by_run(side_table(side, "switches"))
    out: dict[str, list[int]] = {}
    for stream, run_id in zip(labels, runs[col.RUN_ID]):
        if streams is not None and stream not in streams:
            continue
        if run_id in written and not out.get(stream):
            out[stream] = [int(t) for t in written[run_id][col.T]]
        elif streams is not None:
            out.setdefault(stream, [])
    return out
