"""The results table: schema, atomic per-run files, and the merged parquet.

One long table, one row per (run, checkpoint t, bound), whose columns are named and
documented in :mod:`olbench.schema`. Readable with plain ``pandas.read_parquet``.

A run folder ``results/<experiment>/<name>/`` holds ``runs/<run_id>.parquet`` (written as
each task finishes, atomically: an interrupted grid loses nothing that finished), and the
merged ``results.parquet``, ``summary.csv``, ``config.yaml``, ``figures/`` and ``report.md``.

>>> import pandas as pd, tempfile, pathlib
>>> store = RunStore(pathlib.Path(tempfile.mkdtemp()))
>>> store.save("abc", pd.DataFrame({"run_id": ["abc"], "t": [1], "status": ["ok"]}))
>>> store.finished(), store.merge()["t"].tolist()
({'abc'}, [1])
"""

from __future__ import annotations

import functools
import os
import tempfile
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


def write_parquet_atomic(df: pd.DataFrame, path: Path) -> None:
    """Write so that a reader (or a crash) never sees a half-written file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        df.to_parquet(tmp, index=False)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


class RunStore:
    """The per-run files of one results folder."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.runs = self.folder / "runs"

    def path(self, run_id: str) -> Path:
        return self.runs / f"{run_id}.parquet"

    def save(self, run_id: str, rows: pd.DataFrame) -> None:
        write_parquet_atomic(rows, self.path(run_id))

    def finished(self) -> set[str]:
        """Runs with a stored result whose every row is ok (errors are never reused)."""
        done = set()
        for path in self.runs.glob("*.parquet") if self.runs.exists() else []:
            try:
                status = pd.read_parquet(path, columns=[STATUS])[STATUS]
            except Exception:  # an unreadable file is recomputed, not trusted
                continue
            if (status == OK).all():
                done.add(path.stem)
        return done

    def merge(self, run_ids=None) -> pd.DataFrame:
        """All stored runs (or those in ``run_ids``) as one table, written to results.parquet."""
        paths = sorted(self.runs.glob("*.parquet")) if self.runs.exists() else []
        if run_ids is not None:
            wanted = set(run_ids)
            paths = [p for p in paths if p.stem in wanted]
        frames = [pd.read_parquet(p) for p in paths]
        table = order_columns(pd.concat(frames, ignore_index=True)) if frames else pd.DataFrame()
        if not table.empty:
            write_parquet_atomic(table, self.folder / RESULTS_FILE)
        return table


def read_results(folder: str | Path) -> pd.DataFrame:
    """The merged table of a results folder."""
    return pd.read_parquet(Path(folder) / RESULTS_FILE)
