"""The catalogue of results folders: ``<output_dir>/index.csv`` and ``latest`` pointers.

A results folder is named by a hash of its grid (same command, same folder); the index says
what each one holds: one row per folder with the experiment, the folder name, when it was
first and last written, a summary of the grid that ran and the command that wrote it. It is
rewritten whole under a lock and renamed into place, so concurrent runs (a multirun) never
lose each other's rows and a reader never sees half a file. ``<output_dir>/latest/<experiment>``
points at the experiment's most recently written folder (a symlink; a one-line text file
where symlinks are not allowed).

>>> import tempfile, pandas as pd
>>> root = Path(tempfile.mkdtemp())
>>> table = pd.DataFrame({"run_id": ["a", "b"], "status": ["ok", "ok"], "seed": [0, 1],
...                       "stream": ["S[seed=5]", "S[seed=6]"], "learner": ["PA[C=1.0]"] * 2,
...                       "comparator": [None, None]})
>>> _ = record(root / "demo" / "f00", experiment="demo", table=table, command="olbench x=1")
>>> read_index(root)[["experiment", "name", "grid", "command"]].values.tolist()
[['demo', 'f00', '1 stream x 1 learner x 2 seeds = 2 runs (2 ok)', 'olbench x=1']]
>>> resolve("demo", root) == (root / "demo" / "f00").resolve()
True
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import tempfile
from pathlib import Path

import pandas as pd

from olbench import schema as col
from olbench.views import display_names, label, sorted_unique

INDEX_FILE = "index.csv"
LATEST_DIR = "latest"
COLUMNS = ["experiment", "name", "created", "updated", "grid", "streams", "learners",
           "comparators", "runs", "ok", "failed", "command", "folder"]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def grid_summary(table: pd.DataFrame) -> dict:
    """What ran, in a few cells: counts, and the short names of streams, learners and
    comparators (the full names are in the folder's report and table)."""
    runs = table.drop_duplicates(col.RUN_ID)
    status = runs[col.STATUS].astype(str)
    names = {c: sorted_unique(label(runs, c)) for c in (col.STREAM, col.LEARNER)}
    comps = sorted_unique(table[col.COMPARATOR]) if col.COMPARATOR in table else []
    ok = int(status.eq(col.OK).sum())
    seeds = runs[col.SEED].nunique() if col.SEED in runs else 0
    grid = (f"{_plural(len(names[col.STREAM]), 'stream')} x "
            f"{_plural(len(names[col.LEARNER]), 'learner')} x {_plural(seeds, 'seed')} = "
            f"{_plural(len(runs), 'run')} ({ok} ok)")
    short = {c: "; ".join(display_names(v).values()) for c, v in names.items()}
    return {"grid": grid, "streams": short[col.STREAM], "learners": short[col.LEARNER],
            "comparators": "; ".join(display_names(comps).values()), "runs": len(runs),
            "ok": ok, "failed": int(status.str.startswith("error").sum())}


@contextlib.contextmanager
def _locked(path: Path):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as handle:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - Windows: the atomic rename still protects
            yield
            return
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _write_atomic(text: str, path: Path) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def read_index(output_dir: str | Path = "results") -> pd.DataFrame:
    """The index of ``output_dir`` (empty, with its columns, if there is none)."""
    path = Path(output_dir) / INDEX_FILE
    if not path.exists():
        return pd.DataFrame(columns=COLUMNS)
    return pd.read_csv(path, dtype={"name": str, "experiment": str}, keep_default_na=False)


def _point_latest(output_dir: Path, experiment: str, folder: Path) -> None:
    pointer = output_dir / LATEST_DIR / experiment
    pointer.parent.mkdir(parents=True, exist_ok=True)
    target = os.path.relpath(folder, pointer.parent)
    tmp = pointer.with_name(f".{experiment}.{os.getpid()}.tmp")
    try:
        os.symlink(target, tmp, target_is_directory=True)
    except OSError:   # no symlinks here: a text file naming the folder
        tmp.write_text(target + "\n", encoding="utf-8")
    os.replace(tmp, pointer)


def record(folder: str | Path, *, experiment: str, table: pd.DataFrame, command: str) -> Path:
    """Add or update the index row of ``folder`` (``<output_dir>/<experiment>/<name>``) and
    point ``latest/<experiment>`` at it; returns the index's path."""
    folder = Path(folder)
    output_dir = folder.parent.parent
    now = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    with _locked(output_dir / f".{INDEX_FILE}.lock"):
        index = read_index(output_dir)
        key = folder.relative_to(output_dir).as_posix()
        old = index[index["folder"].astype(str).eq(key)]
        created = old["created"].iloc[0] if len(old) else now
        row = {"experiment": experiment, "name": folder.name, "created": created,
               "updated": now, **grid_summary(table), "command": command, "folder": key}
        rows = [r for r in index.to_dict("records") if str(r["folder"]) != key] + [row]
        path = output_dir / INDEX_FILE
        _write_atomic(pd.DataFrame(rows, columns=COLUMNS).to_csv(index=False), path)
        _point_latest(output_dir, experiment, folder)
    return path


def latest(experiment: str, output_dir: str | Path = "results") -> Path:
    """The most recently written folder of ``experiment``."""
    pointer = Path(output_dir) / LATEST_DIR / experiment
    if pointer.is_symlink():
        return pointer.resolve()
    if pointer.is_file():
        return (pointer.parent / pointer.read_text(encoding="utf-8").strip()).resolve()
    raise FileNotFoundError(f"no results of experiment {experiment!r} under {output_dir}; "
                            f"run olbench experiment={experiment} first")


def resolve(spec: str | Path, output_dir: str | Path = "results") -> Path:
    """A results folder from a path (``results/novikoff/canonical``), a path relative to
    ``output_dir`` (``novikoff/canonical``) or an experiment name (its latest folder)."""
    for candidate in (Path(spec), Path(output_dir) / spec):
        if (candidate / "results.parquet").exists():
            return candidate.resolve()
    return latest(str(spec), output_dir)
