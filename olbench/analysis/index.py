"""The catalogue of results folders: ``<output_dir>/index.csv`` and ``latest`` pointers.

A results folder is named by a hash of its grid (same command, same folder); the index says
what each one holds: one row per folder with the experiment, the folder name, when it was
first and last written, a summary of the grid that ran and the command that wrote it. It is
rewritten whole under a lock and renamed into place, so concurrent runs (a multirun) never
lose each other's rows and a reader never sees half a file. ``<output_dir>/latest/<experiment>``
points at the experiment's most recently written folder (a symlink; a one-line text file
where symlinks are not allowed); a real folder in its place is someone's and is left alone.
Neither the index nor ``latest`` is committed: in a fresh clone :func:`latest` finds an
experiment's committed ``canonical`` folder.

>>> import tempfile, pandas as pd
>>> root = Path(tempfile.mkdtemp())
>>> table = pd.DataFrame({"run_id": ["a", "b"], "status": ["ok", "ok"], "seed": [0, 1],
...                       "stream": ["S[seed=5]", "S[seed=6]"], "learner": ["PA[C=1.0]"] * 2,
...                       "comparator": [None, None]})
>>> (root / "demo" / "f00").mkdir(parents=True)
>>> table.to_parquet(root / "demo" / "f00" / "results.parquet")
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
import sys
import tempfile
from pathlib import Path

import pandas as pd

from olbench import schema as col
from olbench.analysis.views import display_names, label, sorted_unique
from olbench.harness.results import RESULTS_FILE, SUMMARY_FILE, read_results

INDEX_FILE = "index.csv"
LATEST_DIR = "latest"
#: the committed folder of each study (olbench experiment=<name> run.name=canonical)
CANONICAL = "canonical"
COLUMNS = [col.EXPERIMENT, "name", "created", "updated", "grid", "streams", "learners",
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
    return pd.read_csv(path, dtype={"name": str, col.EXPERIMENT: str}, keep_default_na=False)


def _point_latest(output_dir: Path, experiment: str, folder: Path) -> None:
    """Point ``latest/<experiment>`` at ``folder``: a symlink, or a text file naming it.

    A real folder at that place is someone's, not olbench's pointer: it is left as it is (the
    index still records the run) and a note on stderr says so and how to restore the pointer.
    """
    pointer = output_dir / LATEST_DIR / experiment
    if pointer.is_dir() and not pointer.is_symlink():
        print(f"olbench: {pointer} is a folder, not olbench's pointer to the newest results of "
              f"{experiment!r}: left as it is, and not pointed at {folder} (the index "
              f"records it); move that folder elsewhere to let olbench keep the pointer",
              file=sys.stderr)
        return
    pointer.parent.mkdir(parents=True, exist_ok=True)
    target = os.path.relpath(folder, pointer.parent)
    tmp = pointer.with_name(f".{experiment}.{os.getpid()}.tmp")
    try:
        try:
            os.symlink(target, tmp, target_is_directory=True)
        except OSError:   # no symlinks here: a text file naming the folder
            tmp.write_text(target + "\n", encoding="utf-8")
        os.replace(tmp, pointer)
    finally:   # a pointer that could not be put in place leaves no stray temporary link
        if tmp.is_symlink() or tmp.exists():
            tmp.unlink()


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
        row = {col.EXPERIMENT: experiment, "name": folder.name, "created": created,
               "updated": now, **grid_summary(table), "command": command, "folder": key}
        rows = [r for r in index.to_dict("records") if str(r["folder"]) != key] + [row]
        path = output_dir / INDEX_FILE
        _write_atomic(pd.DataFrame(rows, columns=COLUMNS).to_csv(index=False), path)
        _point_latest(output_dir, experiment, folder)
    return path


def is_results_folder(folder: str | Path) -> bool:
    """A folder olbench wrote: it holds ``results.parquet`` (the whole table), or only
    ``summary.csv`` (the summary, as in the committed ``canonical`` folders)."""
    folder = Path(folder)
    return (folder / RESULTS_FILE).is_file() or (folder / SUMMARY_FILE).is_file()


def read_table(folder: str | Path) -> pd.DataFrame:
    """The whole table of a results folder; a folder that holds only its summary (a
    committed study) or nothing of olbench's is refused saying so."""
    folder = Path(folder)
    if (folder / RESULTS_FILE).is_file():
        return read_results(folder)
    if not (folder / SUMMARY_FILE).is_file():
        raise FileNotFoundError(f"{folder} is not a results folder (it holds no "
                                f"{RESULTS_FILE} nor {SUMMARY_FILE})")
    raise FileNotFoundError(
        f"{folder} holds a summary only ({SUMMARY_FILE}, report.md, figures/; a committed "
        f"study's whole table is not committed): the command that wrote it recreates "
        f"{RESULTS_FILE} (for a study: olbench experiment={folder.parent.name} "
        f"run.name={folder.name})")


def read_summary(folder: str | Path) -> pd.DataFrame:
    """The summary of a results folder (:func:`olbench.analysis.summary.summary_table` of its
    table), or its ``summary.csv`` where only the summary is kept (a committed canonical
    folder)."""
    folder = Path(folder)
    if (folder / SUMMARY_FILE).is_file() and not (folder / RESULTS_FILE).is_file():
        return pd.read_csv(folder / SUMMARY_FILE)
    from olbench.analysis.summary import summary_table

    return summary_table(read_table(folder))


def _pointed(pointer: Path) -> Path | None:
    """The folder a ``latest`` pointer names (None: no pointer, a dangling one, or a real
    folder, which is someone's and not olbench's pointer)."""
    if pointer.is_symlink():
        folder = pointer.resolve()
    elif pointer.is_file():
        folder = (pointer.parent / pointer.read_text(encoding="utf-8").strip()).resolve()
    else:
        return None
    return folder if is_results_folder(folder) else None


def _newest_indexed(experiment: str, output_dir: Path) -> Path | None:
    """The most recently updated folder of ``experiment`` in the index that still exists."""
    rows = read_index(output_dir)
    rows = rows[rows[col.EXPERIMENT].astype(str).eq(experiment)]
    for key in rows.sort_values("updated", kind="stable")["folder"].astype(str)[::-1]:
        if is_results_folder(output_dir / key):
            return (output_dir / key).resolve()
    return None


def latest(experiment: str, output_dir: str | Path = "results") -> Path:
    """The newest results folder of ``experiment`` under ``output_dir``: the one
    ``latest/<experiment>`` points at; without a usable pointer (a fresh clone has none, it
    is not committed), the most recently updated folder of that experiment in ``index.csv``;
    without one, the committed ``<experiment>/canonical`` folder."""
    output_dir = Path(output_dir)
    canonical = output_dir / experiment / CANONICAL
    found = (_pointed(output_dir / LATEST_DIR / experiment)
             or _newest_indexed(experiment, output_dir)
             or (canonical.resolve() if is_results_folder(canonical) else None))
    if found is None:
        raise FileNotFoundError(f"no results of experiment {experiment!r} under {output_dir} "
                                f"(no {LATEST_DIR}/{experiment}, no row in {INDEX_FILE}, no "
                                f"{experiment}/{CANONICAL}); run olbench "
                                f"experiment={experiment} first")
    return found


def resolve(spec: str | Path, output_dir: str | Path = "results") -> Path:
    """A results folder (:func:`is_results_folder`) from a path to it (absolute, or relative
    to the working directory), a path relative to ``output_dir`` (``novikoff/canonical``) or
    an experiment's name (its newest folder, :func:`latest`). A folder that is not a results
    folder is refused as such, never read as an experiment's name."""
    path = Path(spec).expanduser()
    candidates = [path] if path.is_absolute() else [path, Path(output_dir) / path]
    for candidate in candidates:
        if is_results_folder(candidate):
            return candidate.resolve()
    if len(path.parts) == 1 and not path.is_absolute() and path.name not in (".", ".."):
        return latest(str(spec), output_dir)
    existing = next((c for c in candidates if c.is_dir()), None)
    if existing is not None:
        raise FileNotFoundError(f"{existing} is not a results folder (it holds no "
                                f"{RESULTS_FILE} nor {SUMMARY_FILE})")
    where = "" if path.is_absolute() else f" (nor {Path(output_dir) / path})"
    raise FileNotFoundError(f"no folder {path}{where}")
