"""Run tasks (:mod:`olbench.harness.tasks`): joblib locally, Dask on a cluster; resumable.

Each finished task is written within a second, with those finishing in that second (see
:mod:`olbench.harness.results`); re-running skips finished tasks, and a task that fails becomes a
row with ``status = "error: ..."`` (retried next time, as is a run whose comparator fit ran out
of time). The comparators are fitted before the runs, each distinct problem once
(:mod:`olbench.harness.prefit`). A task that kills its worker process (a
crash in native code) becomes such a row too: the runs the dead pool held are re-run one per
process, and the grid goes on (:func:`_compute`).
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import pandas as pd

from olbench import schema as col
from olbench.harness.interrupt import exit_with_parent
from olbench.harness.prefit import fit_before_runs
from olbench.harness.results import RunBatch, RunLocks, RunStore
from olbench.harness.run_one import Prebuilt, error_frame, identified, identity, run_task
from olbench.harness.side import write_grid
from olbench.harness.streamed import cache_only_shared, refuse_unstreamable
from olbench.harness.tasks import Task
from olbench.resources import capped_jobs


# ----------------------------------------------------------------------------- crashed workers
def _worker_died(error: BaseException) -> bool:
    """Did a worker process die under a task (segfault, abort, out of memory), as opposed
    to a task raising? loky: TerminatedWorkerError (a BrokenProcessPool); Dask: KilledWorker."""
    from concurrent.futures.process import BrokenProcessPool

    return isinstance(error, BrokenProcessPool) or type(error).__name__ == "KilledWorker"


def _exit_codes(error: BaseException) -> str:
    """The dead worker's exit status as loky reports it (``SIGABRT(-6)``), else the error."""
    found = re.search(r"exit codes of the workers are \{(.*?)\}", str(error))
    return found.group(1) if found else f"{type(error).__name__}: {str(error)[:200]}"


def run_alone(tasks: list[Task]) -> Iterator[pd.DataFrame]:
    """Run each task alone in a worker process of its own pool (replaced after a death), so
    that if the process dies, the run that killed it is known: it becomes an error row
    naming the exit status (signal), and the others still run. Not joblib's shared pool:
    that one belongs to the grid."""
    from joblib.externals.loky import ProcessPoolExecutor

    executor = None
    try:
        for task in tasks:
            start = time.perf_counter()
            if executor is None:
                executor = ProcessPoolExecutor(max_workers=1, initializer=exit_with_parent,
                                               initargs=(os.getpid(),))
            try:
                yield executor.submit(run_task, task).result()
            except Exception as error:
                if not _worker_died(error):
                    raise
                executor.shutdown(wait=False, kill_workers=True)
                executor = None
                message = (f"error: WorkerDied: the worker process running this run died "
                           f"({_exit_codes(error)}), also when re-run alone: a crash in native "
                           "code (segmentation fault, abort) or the memory limit")
                yield identified(error_frame(message, str(error)), identity(task), start)
    finally:  # nothing runs after the last result; on an interrupt, stop it now
        if executor is not None:
            executor.shutdown(wait=True, kill_workers=True)


# ----------------------------------------------------------------------------- the grid
class SchedulerUnreachable(RuntimeError):
    """No Dask scheduler answered at ``run.scheduler`` within ``run.scheduler_timeout``."""


def dask_client(scheduler: str, timeout: float):
    """A client of the Dask scheduler at ``scheduler``, or :class:`SchedulerUnreachable`
    after ``timeout`` seconds (Dask's own default is 30 s, then a traceback)."""
    from dask.distributed import Client

    try:
        return Client(scheduler, timeout=f"{timeout}s")
    except (OSError, ValueError) as error:   # refused, timed out, a bad address
        raise SchedulerUnreachable(f"no Dask scheduler at run.scheduler={scheduler} within "
                                   f"{timeout:g} s ({error}); start one there (dask "
                                   f"scheduler), fix the address, or leave run.scheduler "
                                   f"out for a local cluster") from None


@contextlib.contextmanager
def _backend(backend: str, n_jobs: int, scheduler: str | None,
             scheduler_timeout: float = 5.0) -> Iterator[None]:
    import joblib

    if backend != "sequential" and not scheduler:   # a remote cluster has its own workers
        n_jobs = capped_jobs(n_jobs)

    if backend == "loky":  # every worker ends when olbench does, even after a kill -9
        with joblib.parallel_config(backend=backend, n_jobs=n_jobs,
                                    initializer=exit_with_parent, initargs=(os.getpid(),)):
            yield
        return
    if backend != "dask":
        with joblib.parallel_config(backend=backend, n_jobs=n_jobs):
            yield
        return
    from dask.distributed import Client, LocalCluster

    if scheduler:
        client = dask_client(scheduler, scheduler_timeout)
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
             progress: bool = True, batch_size: int | str = "auto",
             scheduler_timeout: float = 5.0, prebuilt: dict[str, Prebuilt] | None = None
             ) -> pd.DataFrame:
    """Run the tasks not yet finished in ``folder`` and return the merged table of all.

    First the comparators the runs need are fitted, each distinct problem once, into the
    cache (:func:`olbench.harness.prefit.fit_before_runs`); the runs read them from there. Results
    are saved as tasks finish (those finishing within a second together,
    :class:`olbench.harness.results.RunBatch`), so an interrupted grid resumes where it stopped;
    ``force=True`` recomputes everything; failed tasks are always recomputed, and so are
    runs whose comparator fit ran out of time (``time-out``, transient) and runs whose
    stored file fails its checksum (named on stderr; a damaged file of several
    runs is then renamed ``*.corrupt``). Each run is locked
    while it is computed (:class:`olbench.harness.results.RunLocks`): a second ``olbench`` on the
    same folder takes the runs nobody holds, then waits for the others (and says so).
    ``prebuilt``: components the checks built, by run id (:mod:`olbench.harness.run_one`),
    each given to its run.
    """
    refuse_unstreamable(tasks)   # before anything runs or is written
    store = RunStore(Path(folder))
    store.clean_stale_tmp()
    done = set() if force else store.finished()
    damaged = list(store.rejected)
    _report_rejected(store, "recomputed")
    todo = cache_only_shared([t for t in tasks if t.run_id not in done])
    reused = len(tasks) - len(todo)
    if reused:  # say so: a grid that is all reused computes nothing and shows no progress
        print(f"olbench: {reused} of {len(tasks)} runs reused from {store.runs} "
              "(run.force=true recomputes)")
    if todo:
        locks, busy = RunLocks(store), []
        desc = f"{tasks[0].experiment}: {len(todo)} runs" + (
            f" ({reused} done before)" if reused else "")
        try:
            with _backend(backend, n_jobs, scheduler, scheduler_timeout):
                todo = fit_before_runs(todo, progress)   # each distinct fit once, first
                prebuilt = dict(prebuilt or {})   # each handed over once, then dropped
                _compute(_claimed(todo, store, locks, force, busy), store, locks, len(todo),
                         batch_size, progress, desc, prebuilt)
                pending = [t for t in busy if force or not store.is_finished(t.run_id)]
                store.rejected.clear()  # a file read mid-write by its owner is not corrupt
                if pending:
                    print(f"olbench: waiting for {len(pending)} run(s) that another olbench "
                          f"process is computing in {store.folder}", file=sys.stderr)
                    _compute(_claimed(pending, store, locks, force, wait=True), store, locks,
                             len(pending), batch_size, progress, f"{desc}: after waiting",
                             prebuilt)
        finally:
            locks.release_all()
    store.set_aside(damaged)  # their runs are in new files now
    write_grid(store.folder, tasks)   # the grid's order, for the figures (side/grid.parquet)
    table = store.merge([t.run_id for t in tasks])
    _report_rejected(store, "left out of results.parquet; run again to recompute it")
    return table


def _claimed(tasks: list[Task], store: RunStore, locks: RunLocks, force: bool,
             busy: list | None = None, wait: bool = False) -> Iterator[Task]:
    """The tasks this process takes, in order, each holding its lock: those another process
    holds go to ``busy`` (or, with ``wait``, are waited for); those another process finished
    meanwhile are skipped. Lazy: joblib draws tasks as workers free up."""
    for task in tasks:
        if not locks.acquire(task.run_id, wait=wait):
            busy.append(task)
            continue
        if not force and store.is_finished(task.run_id):
            locks.release(task.run_id)
            continue
        yield task


def _compute(tasks: Iterator[Task], store: RunStore, locks: RunLocks, total: int,
             batch_size: int | str, progress: bool, desc: str,
             prebuilt: dict[str, Prebuilt] | None = None) -> None:
    from joblib import Parallel, delayed
    from tqdm.auto import tqdm

    sent: dict[str, Task] = {}   # claimed and given to a worker, not yet saved

    def dispatch(source: Iterator[Task]) -> Iterator[Task]:
        for task in source:
            sent[task.run_id] = task
            yield task

    def save(rows: pd.DataFrame) -> None:
        run_id = rows[col.RUN_ID].iloc[0]
        batch.add(run_id, rows)   # its lock is released once the batch is on disk
        sent.pop(run_id, None)    # finished: not re-run if the pool dies later
        bar.update()

    source = iter(tasks)
    with warnings.catch_warnings(), tqdm(total=total, disable=not progress, unit="run",
                                         desc=desc) as bar, \
            RunBatch(store, saved=locks.release) as batch:  # saved on any exit
        # an interrupt cancels the runs in progress: we know
        warnings.filterwarnings("ignore", message=".*still being processed by the workers")
        while True:
            results = Parallel(return_as="generator_unordered", batch_size=batch_size)(
                delayed(run_task)(task, (prebuilt or {}).pop(task.run_id, None))
                for task in dispatch(source))
            try:
                for rows in results:
                    save(rows)
                return
            except Exception as error:
                if not _worker_died(error):
                    raise
                # The pool is gone with every run it held. Re-run those alone, one process
                # each, so that the one that kills its process is named (an error row) and
                # the others finish; then the rest of the grid goes on in a fresh pool.
                print(f"olbench: a worker process died ({_exit_codes(error)}); re-running "
                      f"its {len(sent)} unfinished run(s) one by one", file=sys.stderr)
                for rows in run_alone(list(sent.values())):
                    save(rows)
            finally:  # on an interrupt: stop the workers now, not when it is collected
                results.close()


def _report_rejected(store: RunStore, action: str) -> None:
    for path, why in sorted(store.rejected.items()):
        print(f"olbench: {path}: {why}; not used: {action}", file=sys.stderr)
    store.rejected.clear()
