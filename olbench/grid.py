"""Run tasks (:mod:`olbench.tasks`): joblib locally, Dask on a cluster; resumable.

Each finished task is written at once (see :mod:`olbench.results`); re-running skips finished
tasks, and a task that fails becomes a row with ``status = "error: ..."`` (retried next time).
"""

from __future__ import annotations

import contextlib
import json
import time
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
from hydra.utils import get_class, instantiate

from olbench import schema as col
from olbench.results import RunStore, versions
from olbench.tasks import Task, registry_key

#: runs on streams of at most this many features keep their final weights (``final_w``)
MAX_D_FOR_WEIGHTS = 3


# ----------------------------------------------------------------------------- one run
def _flat_params(prefix: str, spec: dict) -> dict[str, Any]:
    out = {}
    for name, value in spec.items():
        if name.startswith("_"):
            continue
        scalar = value is None or isinstance(value, (bool, int, float, str))
        out[f"{prefix}_{name}"] = value if scalar else json.dumps(value)
    return out


def _file_stamp(spec: dict) -> tuple | None:
    """(resolved path, size, mtime) of a file-backed stream: part of its cache key."""
    own = getattr(get_class(spec["_target_"]), "file_stamp", None)  # e.g. stream=dataset
    if own is not None:
        return own(spec)
    if "path" not in spec:
        return None
    from olbench.streams.files import resolve_path

    path = resolve_path(spec["path"])
    stat = path.stat()
    return str(path), stat.st_size, stat.st_mtime_ns


def _materialize(spec: dict, stamp: tuple | None):
    stream = instantiate(spec, _convert_="all")
    X, y = stream.materialize()
    return X, y, stream.meta


def load_stream(spec: dict, cache_dir: str | None, whole: bool):
    """The stream of a task: ``(stream, None)`` to run chunk by chunk in constant memory, or
    with ``whole=True`` (comparators need all the data anyway) ``(stream, (X, y, meta))``.
    Parsed file streams are cached on disk (joblib.Memory, keyed by the spec and the file's
    size and mtime), so a grid parses each file once, not once per learner."""
    stream = instantiate(spec, _convert_="all")
    if not whole:
        return stream, None
    stamp = _file_stamp(spec)
    if cache_dir and stamp is not None:
        from joblib import Memory

        cached = Memory(str(cache_dir), verbose=0).cache(_materialize)
        return stream, cached(spec, stamp)
    X, y = stream.materialize()
    return stream, (X, y, stream.meta)


def _loss_task(loss: str | None) -> str | None:
    from olbench.losses import get_loss

    return None if loss is None else get_loss(loss).task


def run_task(task: Task) -> pd.DataFrame:
    """Run one task and return its rows; an exception becomes one row with status=error."""
    import olbench
    from olbench.checkpoints import log_checkpoints
    from olbench.metrics import metrics_table

    start = time.perf_counter()
    ident: dict[str, Any] = {
        col.EXPERIMENT: task.experiment, col.RUN_ID: task.run_id, col.SEED: task.seed,
        col.STREAM_KEY: registry_key(task.stream), col.LEARNER_KEY: registry_key(task.learner),
        **_flat_params(col.STREAM, task.stream), **_flat_params(col.LEARNER, task.learner)}
    try:
        stream, whole = load_stream(task.stream, task.cache_dir, bool(task.comparators))
        learner = instantiate(task.learner, _convert_="all")
        ident.update({col.STREAM: stream.name, col.LEARNER: learner.name})
        meta = stream.meta if whole is None else whole[2]
        ks = log_checkpoints(meta.n, task.checkpoints)
        data = (stream,) if whole is None else whole[:2]
        trace = olbench.run(learner, *data, loss=task.loss, checkpoints=ks)
        fits = {}
        if task.comparators:
            X, y, _ = whole
            for spec in task.comparators:
                if _loss_task(spec.get("loss")) not in (None, learner.task):
                    continue  # e.g. a hinge comparator for a regressor: nothing to compare
                comparator = instantiate(spec, _convert_="all")
                fits[comparator.name] = comparator.fit(X, y, meta, checkpoints=ks,
                                                       cache=task.cache_dir)
        rows = metrics_table(trace, learner=learner, meta=meta, fits=fits, checkpoints=ks)
        rows[col.TIME_S] = trace.time_at(rows[col.T].to_numpy())
        rows[col.STATUS] = col.OK
        ident.update({col.STREAM_N: meta.n, col.STREAM_D: meta.d, col.STREAM_RADIUS: meta.radius,
                      col.STREAM_MARGIN: meta.margin, col.STREAM_FINGERPRINT: meta.fingerprint})
        if meta.d <= MAX_D_FOR_WEIGHTS:  # small enough to keep: decision-boundary figures
            ident[col.FINAL_W] = json.dumps(trace.state["w"].tolist())
    except Exception as error:  # recorded as a row; the grid goes on
        message = f"error: {type(error).__name__}: {error}"
        rows = pd.DataFrame({col.STATUS: [message],
                             col.TRACEBACK: ["".join(traceback.format_exception(error))[-4000:]]})
    for column, value in {**ident, **versions()}.items():
        rows[column] = value
    rows[col.WALL_S] = time.perf_counter() - start
    return rows


# ----------------------------------------------------------------------------- the grid
@contextlib.contextmanager
def _backend(backend: str, n_jobs: int, scheduler: str | None) -> Iterator[None]:
    import joblib

    if backend != "dask":
        with joblib.parallel_config(backend=backend, n_jobs=n_jobs):
            yield
        return
    from dask.distributed import Client, LocalCluster

    if scheduler:
        client = Client(scheduler)
        cluster = None
    else:
        workers = joblib.cpu_count() if n_jobs in (None, -1) else max(1, n_jobs)
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    try:
        with joblib.parallel_config(backend="dask"):
            yield
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def run_grid(tasks: list[Task], folder: str | Path, *, n_jobs: int = -1,
             backend: str = "loky", scheduler: str | None = None, force: bool = False,
             progress: bool = True, batch_size: int | str = "auto") -> pd.DataFrame:
    """Run the tasks not yet finished in ``folder`` and return the merged table of all.

    Results are saved task by task as they finish, so an interrupted grid resumes where it
    stopped; ``force=True`` recomputes everything; failed tasks are always recomputed.
    """
    from joblib import Parallel, delayed
    from tqdm.auto import tqdm

    store = RunStore(Path(folder))
    done = set() if force else store.finished()
    todo = [t for t in tasks if t.run_id not in done]
    if todo:
        with _backend(backend, n_jobs, scheduler):
            results = Parallel(return_as="generator_unordered", batch_size=batch_size)(
                delayed(run_task)(task) for task in todo)
            bar = tqdm(results, total=len(todo), disable=not progress, unit="run",
                       desc=f"{tasks[0].experiment}: {len(todo)} runs"
                            + (f" ({len(done & {t.run_id for t in tasks})} done before)"
                               if done else ""))
            for rows in bar:
                store.save(rows[col.RUN_ID].iloc[0], rows)
    return store.merge([t.run_id for t in tasks])
