"""The comparators' fit cache: where it is, what a fit is keyed by, one solve per problem (a
lock per problem), and a journal.

:func:`cached_fit` is what :meth:`~olbench.comparators.base.Comparator.fit` calls when a
cache is given (:func:`get_memory`): the fit from the cache, keyed by the comparator's key
and parameters, the data's key, the checkpoints and :data:`CACHE_VERSION`, else solved by
this process alone and journaled.

Processes that share a cache folder (the workers of one grid, two ``olbench`` commands, the
workers of a Dask cluster on a shared file system) may ask for the same fit at once: the
permutations of one dataset share a fit by content. Without a lock each would solve it
(minutes, for a large LP) and compete for the cores. :func:`solving_alone` holds an advisory
lock (``flock``) on ``<cache>/locks/<problem>.lock`` around the look-up and the solve: the
first caller solves, the others wait and then read its result from the cache; if it gave no
fit (a time-out, say), those that waited for it take its reason rather than trying again with
the same limits (a later run of the grid does try again). The operating system drops the lock
of a process that dies, however it dies. (On a network file system
``flock`` works where the file system supports it: NFSv4, Lustre and GPFS do.)

Every solve (a cache miss, not a read) appends one JSON line to ``<cache>/fits.jsonl``: the
comparator, the data key, when it started, how long it took, the time limit it ran under, the
process, and its outcome (``ok``, the skip reason, or the error). It answers "which fits did
this grid solve, how long did each take, which ran out of time".
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import joblib

from olbench.comparators._duality import Limits, NotCertified, skip_reason

#: bump when solver results change, to invalidate old cache entries (3: order-invariant
#: fits are made on the rows in canonical order, the dual LP and least-norm hinge fits)
CACHE_VERSION = 3

JOURNAL = "fits.jsonl"


def get_memory(cache) -> joblib.Memory | None:
    if cache is None or cache is False:
        return None
    if isinstance(cache, joblib.Memory):
        return cache
    if cache == "default":
        cache = os.environ.get("OLBENCH_CACHE", ".olbench_cache")
    return joblib.Memory(str(cache), verbose=0)


def cached_fit(comparator, memory: joblib.Memory, data: str, checkpoints, solve, **data_args):
    """``comparator``'s fit from the cache, else solved (by ``solve``,
    :func:`~olbench.comparators.base._fit_uncached` or
    :func:`~olbench.comparators.base._fit_stream_uncached`, on ``data_args``) by this
    process alone (:func:`solving_alone`: the others asking for it meanwhile wait, then
    read it) and journaled."""
    data_args = {**data_args, "comparator": comparator}   # solved by this one, not a rebuilt one
    cached = memory.cache(solve, ignore=list(data_args))
    key = (comparator.key, comparator.get_params(), data, checkpoints, CACHE_VERSION)
    if cached.check_call_in_cache(*key, **data_args):
        return cached(*key, **data_args)
    asked, limit = time.time(), Limits.default().time
    with solving_alone(memory, key) as problem:
        if cached.check_call_in_cache(*key, **data_args):   # solved while we waited
            return cached(*key, **data_args)
        failed = problem.failed_since(asked, limit)
        if failed is not None:                 # failed while we waited: so would we
            return comparator._skip(failed, getattr(comparator, "loss", None))
        entry = {"comparator": comparator.name, "data": data, "time_limit": limit,
                 "checkpoints": None if checkpoints is None else len(checkpoints)}
        with journaled(memory, entry) as record:
            try:
                fit = cached(*key, **data_args)
            except NotCertified as e:
                record["outcome"] = skip_reason(e)
                problem.failed(record["outcome"], limit)
                raise
            record["outcome"] = "ok" if fit.ok else fit.skip_reason
            return fit


class Problem:
    """A problem whose lock is held: what a failed solve of it left (``<hash>.failed``), so
    that those who waited for that solve take its outcome instead of trying it again."""

    def __init__(self, folder: Path, name: str):
        self.marker = folder / f"{name}.failed"

    def failed(self, reason: str, time_limit: float) -> None:
        """Record that a solve under ``time_limit`` s gave no fit, for ``reason``."""
        self.marker.write_text(json.dumps({"reason": reason, "time_limit": time_limit,
                                           "at": time.time()}))

    def failed_since(self, moment: float, time_limit: float) -> str | None:
        """The reason of a solve that failed after ``moment`` (while the caller waited for
        the lock) under a time limit of at least ``time_limit`` s: the same attempt would
        fail again. None otherwise (a re-run later, or with more time, tries again)."""
        try:
            record = json.loads(self.marker.read_text())
        except (OSError, ValueError):
            return None
        recent = record["at"] >= moment and record["time_limit"] >= time_limit
        return record["reason"] if recent else None


@contextlib.contextmanager
def solving_alone(memory: joblib.Memory, problem) -> Iterator[Problem]:
    """Hold the lock of ``problem`` (any hashable description: the cache key's arguments) in
    ``memory``'s folder, waiting for whoever holds it."""
    folder = Path(memory.location) / "locks"
    folder.mkdir(parents=True, exist_ok=True)
    name = joblib.hash(problem)
    fd = os.open(folder / f"{name}.lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield Problem(folder, name)
    finally:
        os.close(fd)   # closing the descriptor drops its flock


@contextlib.contextmanager
def journaled(memory: joblib.Memory, entry: dict) -> Iterator[dict]:
    """Time the solve inside the ``with`` block and append ``entry`` with its ``seconds``
    and ``outcome`` (set ``outcome`` in the yielded dict; an exception records its type and
    message) to the cache's journal, one line written at once (``O_APPEND``)."""
    record = {**entry, "started": time.strftime("%Y-%m-%dT%H:%M:%S"), "pid": os.getpid(),
              "outcome": "ok"}
    start = time.perf_counter()
    try:
        yield record
    except BaseException as error:
        if record["outcome"] == "ok":   # the caller did not say what went wrong
            record["outcome"] = f"{type(error).__name__}: {error}"
        raise
    finally:
        record["seconds"] = round(time.perf_counter() - start, 3)
        line = (json.dumps(record, default=str) + "\n").encode()
        fd = os.open(Path(memory.location) / JOURNAL, os.O_WRONLY | os.O_APPEND | os.O_CREAT,
                     0o644)
        try:
            os.write(fd, line)
        finally:
            os.close(fd)


def journal(cache) -> list[dict]:
    """The journal's entries (oldest first) of a cache folder or ``joblib.Memory``; [] if
    nothing was solved there."""
    location = cache.location if isinstance(cache, joblib.Memory) else cache
    path = Path(location) / JOURNAL
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
