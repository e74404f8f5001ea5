"""The results table: schema, atomic per-run files, and the merged parquet.

One long table, one row per (run, checkpoint t, bound), whose columns are named and
documented in :mod:`olbench.schema`. Readable with plain ``pandas.read_parquet``.

A run folder ``results/<experiment>/<name>/`` holds ``runs/<run_id>.parquet`` (written as
each task finishes, atomically: an interrupted grid loses nothing that finished), and the
merged ``results.parquet``, ``summary.csv``, ``config.yaml``, ``figures/`` and ``report.md``.

Every parquet file is written with the sha256 of its bytes in a sidecar (``<name>.sha256``)
and verified when read: a run file that fails (a flipped byte, a truncated copy, an edit) is
named and recomputed, never trusted. A sidecar rather than the parquet's key-value metadata,
because a checksum inside the file cannot cover the file's own bytes (footer, schema and
pandas metadata included), and checking a sidecar needs no parquet parsing, so a corrupt file
cannot crash the check. ``runs/.locks/`` holds one lock per run (:class:`RunLocks`).

>>> import pandas as pd, tempfile, pathlib
>>> store = RunStore(pathlib.Path(tempfile.mkdtemp()))
>>> store.save("abc", pd.DataFrame({"run_id": ["abc"], "t": [1], "status": ["ok"]}))
>>> store.finished(), store.merge()["t"].tolist()
({'abc'}, [1])
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import os
import tempfile
import time
from importlib import metadata
from pathlib import Path

import pandas as pd

from olbench.schema import LEADING_COLUMNS, OK, STATUS

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


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def checksum_path(path: Path) -> Path:
    """The sidecar holding the sha256 of ``path``'s bytes (``x.parquet`` -> ``x.sha256``)."""
    return path.with_suffix(".sha256")


def _write_tmp(path: Path, write) -> str:
    """``write(tmp)`` a temporary file next to ``path`` (removed on failure); its name."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        write(tmp)
    except BaseException:
        os.unlink(tmp)
        raise
    return tmp


def write_parquet_atomic(df: pd.DataFrame, path: Path) -> None:
    """Write so that a reader (or a crash) never sees a half-written file, with the sha256 of
    its bytes in a sidecar (:func:`checksum_path`) renamed into place just before the file
    itself: a crash in between leaves a file that fails verification (and is recomputed),
    never one that passes it with other bytes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _write_tmp(path, lambda t: df.to_parquet(t, index=False))
    try:
        digest = _sha256(Path(tmp))
        side = checksum_path(path)
        os.replace(_write_tmp(side, lambda t: Path(t).write_text(digest + "\n")), side)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def verify(path: Path) -> str | None:
    """Why the file at ``path`` cannot be trusted (None if its bytes match its checksum)."""
    side = checksum_path(path)
    if not side.exists():
        return "no checksum file (written by an older olbench, or interrupted while written)"
    try:
        expected = side.read_text().strip()
        actual = _sha256(path)
    except OSError as error:
        return f"unreadable ({error})"
    if actual != expected:
        return "its bytes no longer match the checksum written with it (the file was corrupted)"
    return None


def read_verified(path: Path, columns: list[str] | None = None) -> pd.DataFrame:
    """A parquet file whose checksum matches; ``CorruptResultError`` naming it otherwise."""
    problem = verify(path)
    if problem is None:
        try:
            return pd.read_parquet(path, columns=columns)
        except Exception as error:  # any reader error means "cannot trust it"
            problem = f"unreadable ({type(error).__name__}: {error})"
    raise CorruptResultError(f"{path}: {problem}")


class CorruptResultError(ValueError):
    """A results file that fails verification; the message names the file and why."""


class RunStore:
    """The per-run files of one results folder: ``runs/<run_id>.parquet``, each with its
    checksum ``runs/<run_id>.sha256``, verified whenever a file is read. Files that fail
    verification are never used: :meth:`finished` leaves them out (so they are recomputed)
    and :meth:`merge` skips them; both record them in :attr:`rejected` (path -> why)."""

    #: temporary files older than this (s) belong to no live writer: removed
    STALE_TMP_S = 60.0

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.runs = self.folder / "runs"
        self.rejected: dict[Path, str] = {}

    def path(self, run_id: str) -> Path:
        return self.runs / f"{run_id}.parquet"

    def save(self, run_id: str, rows: pd.DataFrame) -> None:
        write_parquet_atomic(rows, self.path(run_id))
        self.rejected.pop(self.path(run_id), None)

    def _read(self, path: Path, columns: list[str] | None = None) -> pd.DataFrame | None:
        try:
            return read_verified(path, columns)
        except CorruptResultError as error:
            self.rejected[path] = str(error).split(": ", 1)[1]
            return None

    def _paths(self) -> list[Path]:
        return sorted(self.runs.glob("*.parquet")) if self.runs.exists() else []

    def is_finished(self, run_id: str) -> bool:
        """A verified stored result whose every row is ok (errors are never reused)."""
        if not self.path(run_id).exists():
            return False
        rows = self._read(self.path(run_id), columns=[STATUS])
        return rows is not None and bool((rows[STATUS] == OK).all())

    def finished(self) -> set[str]:
        """The runs :meth:`is_finished` says are done."""
        return {path.stem for path in self._paths() if self.is_finished(path.stem)}

    def merge(self, run_ids=None) -> pd.DataFrame:
        """All stored runs (or those in ``run_ids``) that pass verification, as one table,
        written to results.parquet."""
        paths = self._paths()
        if run_ids is not None:
            wanted = set(run_ids)
            paths = [p for p in paths if p.stem in wanted]
        frames = [f for f in (self._read(p) for p in paths) if f is not None]
        table = order_columns(pd.concat(frames, ignore_index=True)) if frames else pd.DataFrame()
        if not table.empty:
            write_parquet_atomic(table, self.folder / RESULTS_FILE)
        return table

    def clean_stale_tmp(self) -> list[Path]:
        """Remove temporary files left by writers that died (older than STALE_TMP_S)."""
        removed = []
        now = time.time()
        for folder in (self.folder, self.runs):
            for tmp in folder.glob(".*.tmp") if folder.exists() else []:
                with contextlib.suppress(OSError):
                    if now - tmp.stat().st_mtime > self.STALE_TMP_S:
                        tmp.unlink()
                        removed.append(tmp)
        return removed


class RunLocks:
    """One advisory lock per run (``runs/.locks/<run_id>.lock``, ``flock``), held by the
    process computing the run until its result is saved, so that two ``olbench`` processes
    on one results folder share the work instead of both computing it. The operating system
    releases the locks of a process that dies, however it dies."""

    def __init__(self, store: RunStore):
        self.folder = store.runs / ".locks"
        self._held: dict[str, int] = {}

    def _open(self, run_id: str) -> int:
        self.folder.mkdir(parents=True, exist_ok=True)
        return os.open(self.folder / f"{run_id}.lock", os.O_RDWR | os.O_CREAT, 0o644)

    def acquire(self, run_id: str, wait: bool = False) -> bool:
        """Take the run's lock (waiting for it if ``wait``); False if another process has it."""
        fd = self._open(run_id)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            os.close(fd)
            return False
        self._held[run_id] = fd
        return True

    def release(self, run_id: str) -> None:
        fd = self._held.pop(run_id, None)
        if fd is not None:
            os.close(fd)  # closing the descriptor drops its flock

    def release_all(self) -> None:
        for run_id in list(self._held):
            self.release(run_id)


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
