"""The results table's run files: a store of each run's rows (:class:`RunStore`), saved as
runs finish (:class:`RunBatch`), and the merged parquet (:func:`read_results`).

One long table, one row per (run, checkpoint t, bound), whose columns are named and
documented in :mod:`olbench.schema`. Readable with plain ``pandas.read_parquet``.

A run folder ``results/<experiment>/<name>/`` holds ``runs/`` (each run's rows, written
atomically as runs finish: alone in ``<run_id>.parquet``, or, for runs that finish within a
second of each other, together in one ``batch-<hash>.parquet``, :class:`RunBatch`; an
interrupted grid keeps every run that finished), and the merged ``results.parquet``,
``summary.csv``, ``config.yaml``, ``figures/`` and ``report.md``. Each run file has a side
file (``runs/side/``: its runs' declared outputs, merged into ``side/``:
:mod:`olbench.harness.side`), written before it and verified with it.

Every parquet file is written with the sha256 of its bytes in a sidecar and verified when
read (:mod:`olbench.harness.checksums`): a run file that fails is named and recomputed, never
trusted. ``runs/.locks/`` holds one lock per run (:class:`~olbench.harness.locks.RunLocks`,
importable from here with the checksum functions, as the grid and tests use them).

>>> import pandas as pd, tempfile, pathlib
>>> store = RunStore(pathlib.Path(tempfile.mkdtemp()))
>>> store.save("abc", pd.DataFrame({"run_id": ["abc"], "t": [1], "status": ["ok"]}))
>>> store.finished(), store.merge()["t"].tolist()
({'abc'}, [1])
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import threading
import time
from importlib import metadata
from pathlib import Path

import pandas as pd

from olbench.harness.checksums import (
    CorruptResultError,
    checksum_path,
    read_verified,
    verify,
    write_parquet_atomic,
)
from olbench.harness.locks import RunLocks
from olbench.harness.outputs import detach
from olbench.schema import COMPARATOR_SKIP, LEADING_COLUMNS, OK, RUN_ID, STATUS, TIMED_OUT

#: what the grid, the analysis and the tests import from here (the run locks and the
#: checksummed files have modules of their own)
__all__ = ["BATCH_SECONDS", "RESULTS_FILE", "SUMMARY_FILE", "CorruptResultError", "RunBatch",
           "RunLocks", "RunStore", "checksum_path", "order_columns", "read_results",
           "read_verified", "verify", "versions", "write_parquet_atomic"]

RESULTS_FILE = "results.parquet"
SUMMARY_FILE = "summary.csv"


@functools.cache
def versions() -> dict[str, str]:
    """Versions of the libraries a result depends on (stored with every row; looked up once
    per process, not once per task)."""
    out = {}
    for package in ("olbench", "numpy", "numba", "scipy", "scikit-learn"):
        try:
            out[f"{package.replace('-', '_')}_version"] = metadata.version(package)
        except metadata.PackageNotFoundError:  # pragma: no cover - running from a checkout
            out[f"{package.replace('-', '_')}_version"] = "unknown"
    return out


def order_columns(df: pd.DataFrame) -> pd.DataFrame:
    lead = [c for c in LEADING_COLUMNS if c in df.columns]
    return df[lead + sorted(c for c in df.columns if c not in lead)]


def _guarded(method):
    """The method, run holding its store's lock."""
    @functools.wraps(method)
    def guarded(self, *args, **kwargs):
        with self._guard:
            return method(self, *args, **kwargs)
    return guarded


def _every_row_ok(rows: pd.DataFrame) -> dict[str, bool]:
    """``{run_id: whether the run is finished}`` for the runs in ``rows``: every row ok and
    no comparator skipped for a transient reason (a solver time-out, :data:`TIMED_OUT`),
    which a re-run retries.

    >>> _every_row_ok(pd.DataFrame({"run_id": ["a", "a", "b"], "status": "ok",
    ...     "comparator_skip_reason": [None, "time-out: 120 s", "not separable"]}))
    {'a': False, 'b': True}
    """
    good = rows[STATUS].eq(OK)
    if COMPARATOR_SKIP in rows:
        reasons = rows[COMPARATOR_SKIP].astype("string")
        good &= ~reasons.str.startswith(TIMED_OUT).fillna(False).astype(bool)
    return good.groupby(rows[RUN_ID], sort=False).all().to_dict()


class RunStore:
    """The run files of one results folder, each with its checksum (``.sha256``), verified
    whenever a file is read. A run is saved alone in ``runs/<run_id>.parquet``, or with the
    other runs that finished within :data:`BATCH_SECONDS` in one ``runs/batch-<hash>.parquet``
    (:class:`RunBatch`: a grid of thousands of small runs writes a few files, not thousands).
    A run saved twice (``run.force=true``) is taken from the newer file; a file whose runs
    all live in newer files is removed. Files that fail verification are never used:
    :meth:`finished` leaves their runs out (so they are recomputed) and :meth:`merge` skips
    them; both record them in :attr:`rejected` (path -> why)."""

    #: temporary files older than this (s) belong to no live writer: removed
    STALE_TMP_S = 60.0

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.runs = self.folder / "runs"
        self.rejected: dict[Path, str] = {}
        self._stat: dict[Path, tuple[int, int]] = {}      # file -> (mtime_ns, size) read
        self._ok: dict[Path, dict[str, bool]] = {}        # file -> {run_id: every row ok}
        self._where: dict[str, Path] = {}                 # run_id -> newest file holding it
        self._written: dict[Path, pd.DataFrame] = {}      # file -> the rows saved in it here
        self._written_side: dict[Path, pd.DataFrame] = {}  # file -> its runs' side outputs
        self._guard = threading.RLock()  # RunBatch saves from a timer thread

    def _own_path(self, run_id: str) -> Path:
        return self.runs / f"{run_id}.parquet"

    @_guarded
    def path(self, run_id: str) -> Path:
        """The file holding the run (its own file, or the batch it was saved in)."""
        self.refresh()
        return self._where.get(run_id, self._own_path(run_id))

    def save(self, run_id: str, rows: pd.DataFrame) -> None:
        """Save one run in its own file."""
        self.save_batch({run_id: rows})

    @_guarded
    def save_batch(self, batch: dict[str, pd.DataFrame]) -> Path:
        """Save runs (``{run_id: rows}``) in one file, atomically; returns its path."""
        from olbench.harness import side  # side files build on this module's primitives

        self.refresh()
        ids = sorted(batch)
        if len(ids) == 1:
            path = self._own_path(ids[0])
        else:
            digest = hashlib.sha256(" ".join(ids).encode()).hexdigest()[:16]
            path = self.runs / f"batch-{digest}.parquet"
        outputs = {i: detach(batch[i]) for i in ids}   # the runs' side outputs, if any
        rows = pd.concat([batch[i] for i in ids], ignore_index=True)
        # first: a run file on disk always has its outputs
        self._written_side[path] = side.write_batch(path, outputs)
        write_parquet_atomic(rows, path)
        self.rejected.pop(path, None)
        self._written[path] = rows  # merge() takes them from memory, not from the disk
        older = {self._where[i] for i in ids if self._where.get(i, path) != path}
        stat = path.stat()
        self._stat[path] = (stat.st_mtime_ns, stat.st_size)
        self._ok[path] = _every_row_ok(rows)
        self._where.update(dict.fromkeys(ids, path))
        for old in older:  # superseded: every run it holds was saved again since
            if all(self._where.get(i) != old for i in self._ok.get(old, {})):
                self._forget(old)
                for gone in (old, checksum_path(old)):
                    with contextlib.suppress(OSError):
                        gone.unlink()
                side.remove(old)
        return path

    def _forget(self, path: Path) -> None:
        self._stat.pop(path, None)
        self._ok.pop(path, None)
        self._written.pop(path, None)
        self._written_side.pop(path, None)

    def _read(self, path: Path, columns: list[str] | None = None,
              optional: tuple[str, ...] = ()) -> pd.DataFrame | None:
        """The verified rows of a run file whose side file verifies too (else None, and
        why in :attr:`rejected`)."""
        from olbench.harness import side

        try:
            rows = read_verified(path, columns, optional)
        except CorruptResultError as error:
            self.rejected[path] = str(error).split(": ", 1)[1]
            return None
        problem = side.problem(path)
        if problem is not None:
            self.rejected[path] = problem
            return None
        return rows

    def _paths(self) -> dict[Path, tuple[int, int]]:
        """The run files now on disk, oldest first, with their (mtime_ns, size)."""
        found = {}
        for path in self.runs.glob("*.parquet") if self.runs.exists() else []:
            with contextlib.suppress(OSError):  # removed meanwhile (superseded)
                stat = path.stat()
                found[path] = (stat.st_mtime_ns, stat.st_size)
        return dict(sorted(found.items(), key=lambda item: (item[1][0], item[0].name)))

    @_guarded
    def refresh(self) -> None:
        """Learn which runs the files on disk hold, reading (the run ids and statuses of) only
        files that are new or changed since last looked at."""
        on_disk = self._paths()
        if on_disk == self._stat and list(on_disk) == list(self._stat):
            return
        for gone in set(self._stat) - set(on_disk):
            self._forget(gone)
        for path, stat in on_disk.items():
            if self._stat.get(path) != stat:  # new, or rewritten by another process
                self._written.pop(path, None)
                self._written_side.pop(path, None)
                rows = self._read(path, columns=[RUN_ID, STATUS], optional=(COMPARATOR_SKIP,))
                self._stat[path] = stat
                self._ok[path] = {} if rows is None else _every_row_ok(rows)
        self._stat = {path: self._stat[path] for path in on_disk}  # oldest first
        self._where = {run_id: path for path in on_disk for run_id in self._ok[path]}

    def _refresh_if_new_files(self) -> None:
        """:meth:`refresh` if files appeared or went since last looked at: one listing of
        names, where a refresh stats every file (per task, a folder of 10,000 runs' files)."""
        try:
            names = {n for n in os.listdir(self.runs) if n.endswith(".parquet")}
        except FileNotFoundError:
            names = set()
        if names != {path.name for path in self._stat}:
            self.refresh()

    @_guarded
    def is_finished(self, run_id: str) -> bool:
        """A verified stored result whose every row is ok (errors are never reused) and
        whose comparators did not time out (retried: :func:`_every_row_ok`)."""
        self._refresh_if_new_files()
        path = self._where.get(run_id)
        return path is not None and self._ok[path][run_id]

    @_guarded
    def finished(self) -> set[str]:
        """The runs :meth:`is_finished` says are done."""
        self.refresh()
        return {run_id for run_id, path in self._where.items() if self._ok[path][run_id]}

    @_guarded
    def merge(self, run_ids=None) -> pd.DataFrame:
        """All stored runs (or those in ``run_ids``) that pass verification, as one table
        ordered by run id, written to results.parquet. Files this store saved (and nobody
        changed since) are taken from memory: their bytes were checksummed as written."""
        from olbench.harness import side

        self.refresh()
        wanted = set(self._where) if run_ids is None else set(run_ids) & set(self._where)
        frames, outputs = [], []
        for path in sorted({self._where[run_id] for run_id in wanted}):
            rows = self._written[path] if path in self._written else self._read(path)
            found = self._written_side.get(path) if rows is not None else None
            if rows is not None and found is None:
                try:
                    found = side.read_batch(path)
                except CorruptResultError as error:
                    self.rejected[path] = str(error).split(": ", 1)[1]
            if found is not None:  # without its runs saved again in newer files
                keep = {i for i in self._ok[path] if i in wanted and self._where[i] == path}
                frames.append(rows[rows[RUN_ID].isin(keep)])
                outputs.append(found[found[RUN_ID].isin(keep)])
        table = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
        if not table.empty:
            table = order_columns(table.sort_values(RUN_ID, kind="stable", ignore_index=True))
            write_parquet_atomic(table, self.folder / RESULTS_FILE)
            side.write_merged(self.folder, outputs)
        return table

    @_guarded
    def set_aside(self, paths) -> list[Path]:
        """Rename files that still fail verification to ``<name>.corrupt`` (kept for a look,
        no longer read): their runs have been recomputed into other files."""
        from olbench.harness import side

        moved = []
        for path in paths:
            if path.exists() and (verify(path) or side.problem(path)) is not None:
                path.rename(path.with_suffix(".corrupt"))
                side.remove(path, ".corrupt")
                self._forget(path)
                moved.append(path)
        return moved

    def clean_stale_tmp(self) -> list[Path]:
        """Remove temporary files left by writers that died (older than STALE_TMP_S)."""
        removed = []
        now = time.time()
        for folder in (self.folder, self.runs, self.folder / "side", self.runs / "side"):
            for tmp in folder.glob(".*.tmp") if folder.exists() else []:
                with contextlib.suppress(OSError):
                    if now - tmp.stat().st_mtime > self.STALE_TMP_S:
                        tmp.unlink()
                        removed.append(tmp)
        return removed


#: runs that finish within this many seconds of the first unsaved one are saved together in
#: one file (:class:`RunBatch`); a run longer than this is saved alone as soon as it ends
BATCH_SECONDS = 1.0


class RunBatch:
    """Finished runs waiting to be saved together: :meth:`add` a run's rows, and the batch is
    written (one file, :meth:`RunStore.save_batch`) :data:`BATCH_SECONDS` after its first
    run was added (by a timer thread, so a run followed by a long one is not held back), and
    when the ``with`` block ends, however it ends (an interrupt saves what finished).
    ``saved(run_id)`` is called for each run once it is on disk (to release its lock). A
    kill -9 loses at most the runs finished in the last ``BATCH_SECONDS``.

    >>> import pandas as pd, tempfile, pathlib
    >>> store = RunStore(pathlib.Path(tempfile.mkdtemp()))
    >>> with RunBatch(store, saved=print) as batch:
    ...     for run in ("a", "b"):
    ...         batch.add(run, pd.DataFrame({"run_id": [run], "status": ["ok"]}))
    a
    b
    >>> sorted(store.finished()), len(list(store.runs.glob("*.parquet")))
    (['a', 'b'], 1)
    """

    def __init__(self, store: RunStore, saved=lambda run_id: None,
                 seconds: float | None = None):
        self.store, self.saved = store, saved
        self.seconds = BATCH_SECONDS if seconds is None else seconds
        self.pending: dict[str, pd.DataFrame] = {}
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self._failed: OSError | None = None

    def add(self, run_id: str, rows: pd.DataFrame) -> None:
        with self._lock:
            self.pending[run_id] = rows
            if self.seconds <= 0 or self._failed is not None:
                self._failed = None
                self._save()   # after a failed save in the background: again, here, so a
                #                full disk stops the grid in its own thread (not a traceback)
            elif self._timer is None:
                self._timer = threading.Timer(self.seconds, self._flush_in_background)
                self._timer.daemon = True
                self._timer.start()

    def _flush_in_background(self) -> None:
        try:
            self.flush()
        except OSError as error:   # the runs stay pending; the next add tries again
            self._failed = error

    def flush(self) -> None:
        """Save the runs waiting (now)."""
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            self._save()

    def _save(self) -> None:
        if self.pending:
            self.store.save_batch(self.pending)  # if this fails, the runs stay pending
            batch, self.pending = self.pending, {}
            for run_id in batch:
                self.saved(run_id)

    def __enter__(self) -> RunBatch:
        return self

    def __exit__(self, *exc) -> None:
        self.flush()



def read_results(folder: str | Path) -> pd.DataFrame:
    """The merged table of a results folder (verified against its checksum when it has one;
    re-run the command to rebuild a corrupted one from ``runs/``)."""
    path = Path(folder) / RESULTS_FILE
    if not checksum_path(path).exists():
        return pd.read_parquet(path)
    try:
        return read_verified(path)
    except CorruptResultError as error:
        raise CorruptResultError(f"{error}; run the same command again to rebuild it from the "
                                 f"verified files in {Path(folder) / 'runs'}") from None
