"""Side tables: the runs' declared outputs besides the results table
(:mod:`olbench.harness.outputs`), and the grid's order, stored in the results folder.

A results folder holds, beside ``results.parquet``, ``side/<table>.parquet``: one long table
per output (``final_weights``, ``points``, ``switches`` ...), each with a ``run_id`` column
joining it to the results table, and ``side/grid.parquet``, the grid's runs in its order
(``run_id``, ``position``, ``stream_number``: the stream's place among the distinct streams
of its seed, which numbers the per-stream figures ``boundaries_<i>``). Figures read these
and the results table, nothing else (:func:`read_side`).

A run's outputs are written as its rows are, and for the same reasons
(:mod:`olbench.harness.results`): each batch of runs ``runs/<stem>.parquet`` has its side file
``runs/side/<stem>.parquet`` (every output of those runs in one long table, a ``side``
column naming the table of each row), written atomically with its sha256 beside it and
*before* the rows file, so that a rows file on disk always has its outputs (an interrupted
write leaves outputs without rows, which nothing reads: the runs are recomputed). A rows
file whose side file is missing or fails its checksum is not trusted (:func:`problem`): its
runs are recomputed, as for a damaged rows file; resuming a grid resumes its outputs with its
rows. One side file per batch, not per run and table, for the reason batches exist: a grid
of thousands of small runs writes a few files. Not columns of the results table: an output is
a vector or a few thousand points per run, which the table would repeat on each of the run's
rows (the final weights were JSON on every row), and no table view wants them.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> outputs = {"switches": pd.DataFrame({"t": [200, 600]})}
>>> len(write_batch(folder / "runs" / "a.parquet", {"a": outputs}))
2
>>> problem(folder / "runs" / "a.parquet") is None
True
>>> write_merged(folder, [read_batch(folder / "runs" / "a.parquet")])
>>> read_side(folder)["switches"]["t"].tolist()
[200, 600]
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

import pandas as pd

from olbench.harness.outputs import SIDE_OUTPUTS
from olbench.harness.results import (
    CorruptResultError,
    checksum_path,
    read_verified,
    verify,
    write_parquet_atomic,
)
from olbench.schema import RUN_ID

SIDE_DIR = "side"
#: the grid's order (written by the grid, not by a run), and its columns besides run_id
GRID = "grid"
GRID_COLUMNS = {"position": "int64", "stream_number": "int64"}
#: the column of a batch side file naming each row's side table
TABLE = "side"


# ----------------------------------------------------------------------------- run files
def side_path(rows_path: Path) -> Path:
    """The side file of a run file (``runs/x.parquet`` -> ``runs/side/x.parquet``)."""
    return rows_path.parent / SIDE_DIR / rows_path.name


def long_table(outputs: Mapping[str, Mapping[str, pd.DataFrame]]) -> pd.DataFrame:
    """``{run_id: {table: rows}}`` as one long table: every output's rows with their
    ``run_id`` and the ``side`` table they belong to (the union of the outputs' columns)."""
    parts = [frame.assign(**{RUN_ID: run_id, TABLE: table})
             for run_id in sorted(outputs) for table, frame in outputs[run_id].items()]
    if not parts:
        return pd.DataFrame({RUN_ID: pd.Series(dtype=str), TABLE: pd.Series(dtype=str)})
    return pd.concat(parts, ignore_index=True)


def write_batch(rows_path: Path, outputs: Mapping[str, Mapping[str, pd.DataFrame]]
                ) -> pd.DataFrame:
    """Write the side file of the run file ``rows_path`` (call before writing the rows):
    ``outputs`` is ``{run_id: {table: rows}}``, stored as :func:`long_table`, returned."""
    table = long_table(outputs)
    write_parquet_atomic(table, side_path(rows_path))
    return table


def problem(rows_path: Path) -> str | None:
    """Why the side file of run file ``rows_path`` cannot be trusted (None if it can)."""
    path = side_path(rows_path)
    if not path.exists():
        return (f"no side file {path.parent.name}/{path.name} (written by an older olbench, "
                "or interrupted between the two files)")
    why = verify(path)
    return None if why is None else f"its side file {path.parent.name}/{path.name}: {why}"


def read_batch(rows_path: Path) -> pd.DataFrame:
    """The verified side file of run file ``rows_path`` (:class:`CorruptResultError`
    naming it otherwise)."""
    return read_verified(side_path(rows_path))


def remove(rows_path: Path, suffix: str | None = None) -> None:
    """Remove the side file of a superseded run file (with ``suffix``: rename it so, as a
    damaged run file is set aside)."""
    path = side_path(rows_path)
    if suffix is not None:
        if path.exists():
            path.rename(path.with_suffix(suffix))
        return
    for file in (path, checksum_path(path)):
        with contextlib.suppress(OSError):
            file.unlink()


# ----------------------------------------------------------------------------- the folder
def split(batches: Iterable[pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """Long batch side tables (:func:`write_batch`) as one table per output, ``run_id``
    first and the output's declared columns (in their dtypes) after, rows in run id order
    (a run's own rows in the order it wrote them)."""
    frames = [b for b in batches if len(b)]
    if not frames:
        return {}
    every = pd.concat(frames, ignore_index=True)
    out = {}
    for table, rows in every.groupby(TABLE, sort=True):
        columns = SIDE_OUTPUTS[table].columns if table in SIDE_OUTPUTS else {}
        rows = rows.sort_values(RUN_ID, kind="stable", ignore_index=True)
        out[table] = rows[[RUN_ID, *columns]].astype(columns)
    return out


def write_merged(folder: Path, batches: Iterable[pd.DataFrame]) -> None:
    """Write ``side/<table>.parquet`` of the merged runs (each checksummed), removing the
    output tables no merged run has (the grid's own table is left alone)."""
    tables = split(batches)
    where = Path(folder) / SIDE_DIR
    for table, rows in tables.items():
        write_parquet_atomic(rows, where / f"{table}.parquet")
    for stale in SIDE_OUTPUTS.keys() - tables.keys():
        for path in (where / f"{stale}.parquet", checksum_path(where / f"{stale}.parquet")):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()


def grid_table(tasks) -> pd.DataFrame:
    """The grid's runs in its order: ``run_id``, ``position`` and ``stream_number`` (the
    place of the task's stream among the distinct streams of its seed, in the grid's order:
    what numbers ``boundaries_<i>``).

    >>> from types import SimpleNamespace as T
    >>> tasks = [T(run_id=r, seed=s, stream={"n": n}) for r, s, n in
    ...          [("a", 0, 5), ("b", 0, 5), ("c", 0, 7), ("d", 1, 7)]]
    >>> grid_table(tasks)["stream_number"].tolist()
    [0, 0, 1, 0]
    """
    import json

    numbers: dict[int, dict[str, int]] = {}
    rows = []
    for position, task in enumerate(tasks):
        seen = numbers.setdefault(task.seed, {})
        key = json.dumps(task.stream, sort_keys=True, default=str)
        rows.append((task.run_id, position, seen.setdefault(key, len(seen))))
    return pd.DataFrame(rows, columns=[RUN_ID, *GRID_COLUMNS])


def write_grid(folder: Path, tasks) -> None:
    """Write ``side/grid.parquet`` (:func:`grid_table`)."""
    write_parquet_atomic(grid_table(tasks), Path(folder) / SIDE_DIR / f"{GRID}.parquet")


class SideTables(Mapping):
    """The side tables of a results folder, by name, each read (and verified) when first
    asked for; ``name in tables`` says whether the folder has it."""

    def __init__(self, folder: Path):
        self.folder = Path(folder) / SIDE_DIR
        self._read: dict[str, pd.DataFrame] = {}

    def _names(self) -> list[str]:
        return sorted(p.stem for p in self.folder.glob("*.parquet")) \
            if self.folder.is_dir() else []

    def __getitem__(self, name: str) -> pd.DataFrame:
        if name not in self._read:
            path = self.folder / f"{name}.parquet"
            if not path.exists():
                raise KeyError(name)
            try:
                self._read[name] = read_verified(path)
            except CorruptResultError as error:
                raise CorruptResultError(f"{error}; run the same command again to rebuild it "
                                         "from the verified run files") from None
        return self._read[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())

    def __contains__(self, name: object) -> bool:
        return (self.folder / f"{name}.parquet").exists()


def read_side(folder: str | Path) -> SideTables:
    """The side tables of the results folder ``folder`` (none for a folder written before
    olbench had them: the figures that need them are left out)."""
    return SideTables(Path(folder))


def side_table(side: Mapping[str, pd.DataFrame], name: str) -> pd.DataFrame:
    """The side table ``name`` of ``side`` (:func:`read_side`, or a mapping), or, when it has
    none (no run wrote that output), an empty one with the output's declared columns.

    >>> side_table({}, "switches").columns.tolist()
    ['run_id', 't']
    """
    if name in side:
        return side[name]
    columns = GRID_COLUMNS if name == GRID else SIDE_OUTPUTS[name].columns
    return pd.DataFrame({RUN_ID: pd.Series(dtype=str),
                         **{c: pd.Series(dtype=t) for c, t in columns.items()}})


def side_tables(runs: Iterable[pd.DataFrame], tasks=None) -> dict[str, pd.DataFrame]:
    """The side tables of runs held in memory (``run_task``'s rows, each carrying its outputs:
    :func:`olbench.harness.outputs.attach`), and with ``tasks`` the grid's order: what
    :func:`read_side` gives of a folder, for runs that were never written to one."""
    from olbench.harness.outputs import ATTRS_KEY

    tables = split([long_table({rows[RUN_ID].iloc[0]: rows.attrs.get(ATTRS_KEY) or {}
                                for rows in runs})])
    if tasks is not None:
        tables[GRID] = grid_table(tasks)
    return tables
