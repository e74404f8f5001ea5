"""The comparator fits of a grid: each distinct problem fitted once, before the runs are
dispatched (:func:`fit_before_runs`); each run then takes its fits
(:func:`olbench.harness.run_one.comparator_fits`).

A comparator's fit depends on the stream's data, not on the learner: the runs of four
learners on one stream need one fit, and so do the permutations of one dataset (fits are
cached by the data's content, :func:`olbench.comparators.base.content_key`). Left to the
runs, the first runs of a grid would all miss the cache at once and solve the same problem
side by side (a9a's hinge LP in every worker, each running out of time on the shared
cores). So :func:`fit_before_runs` first fits, in parallel on the grid's backend (one job
per stream instance with several runs: :class:`FitJob`), every cacheable comparator the
runs will ask for; a problem two jobs share (two permutations) is solved by one of them
while the other waits for it (:mod:`olbench.comparators._cache`: a lock per problem in the
cache folder, which also holds off a second ``olbench`` on the same cache). The runs then
read their fits from the cache. A fit that gave none (a time-out, an uncertified gap) is
handed to the runs as a *known skip* with its reason, so that no run tries the same solve
again.

A stream instance with a single run (one learner) fits in that run, under the same lock:
one solve per problem at a time, a failure met while waiting is taken, not retried.
Without a cache (``run.cache_dir=null``) there is nowhere to keep a fit between processes:
each run fits its own comparators. Errors here (a stream that cannot be read) are left to
the runs, which record them as error rows.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace
from typing import Any

from olbench.harness.run_one import build, fit_on, spec_key
from olbench.harness.tasks import Task, comparator_problem, component_class, learner_task


@dataclass(frozen=True)
class FitJob:
    """The comparator fits of one stream instance (a stream spec with its seed): the specs
    of the cacheable comparators that the runs on it will ask for."""

    key: str
    stream: dict
    comparators: tuple
    checkpoints: Any
    spacing: str
    cache_dir: str
    solver_time_limit: float | None


def _group(task: Task) -> str:
    """What the fits of a task depend on besides the comparator: its stream instance, its
    checkpoints (prefix comparators), its cache and its time limit."""
    return spec_key([task.stream, task.checkpoints, task.spacing, task.cache_dir,
                     task.solver_time_limit])


def fit_jobs(tasks: list[Task]) -> list[FitJob]:
    """One :class:`FitJob` per stream instance of ``tasks`` that has a cache, several runs
    and a cacheable comparator fitted for one of its learners (one of the learner's task: a
    hinge comparator is not fitted for a regressor).

    A stream instance with a single run fits in that run: there is nothing to share, the
    job would only build its synthetic stream once more (novikoff's 60 one-learner runs
    took 12.2 s with such jobs, 10.6 s without), and the lock still keeps a second process
    from solving the same problem (a permutation of the same data) at the same time."""
    jobs: dict[str, dict[str, dict]] = {}
    first: dict[str, Task] = {}
    runs: dict[str, int] = {}
    for task in tasks:
        if not task.cache_dir or not task.comparators:
            continue
        group = _group(task)
        runs[group] = runs.get(group, 0) + 1
        wanted = jobs.setdefault(group, {})
        first.setdefault(group, task)
        for spec in task.comparators:
            if not component_class(spec["_target_"]).cacheable:
                continue
            if comparator_problem(spec, learner_task(task.learner)) is None:
                wanted.setdefault(spec_key(spec), spec)
    return [FitJob(g, first[g].stream, tuple(specs.values()), first[g].checkpoints,
                   first[g].spacing, first[g].cache_dir, first[g].solver_time_limit)
            for g, specs in jobs.items() if specs and runs[g] > 1]


def run_fit_job(job: FitJob) -> tuple[str, list[tuple[str, str]]]:
    """Fit the job's comparators (into the cache); returns the job's key and ``(comparator
    key, skip reason)`` for each that gave no fit. Any error is left to the runs."""
    from olbench.checkpoints import run_checkpoints
    from olbench.comparators._duality import time_limit
    from olbench.harness.streamed import load_stream

    skips = []
    with time_limit(job.solver_time_limit):
        try:
            stream, whole = load_stream(job.stream, job.cache_dir, whole=True)
            meta = stream.meta if whole is None else whole[2]   # None: out of core
            ks = run_checkpoints(meta, job.checkpoints, job.spacing)
        except Exception:
            return job.key, skips
        for spec in job.comparators:
            try:
                fit = fit_on(build(spec), stream if whole is None
                             else whole[:2], meta, ks, job.cache_dir)
            except Exception:
                continue
            if not fit.ok:
                skips.append((spec_key(spec), fit.skip_reason))
    return job.key, skips


def fit_before_runs(tasks: list[Task], progress: bool = True) -> list[Task]:
    """Run the :func:`fit_jobs` of ``tasks`` on the current joblib backend and return the
    tasks, each with the skips of its stream's fits (:attr:`Task.known_skips`). Called by
    :func:`olbench.harness.grid.run_grid` inside its backend, before the runs."""
    from joblib import Parallel, delayed
    from tqdm.auto import tqdm

    from olbench.harness.grid import _worker_died

    jobs = fit_jobs(tasks)
    if not jobs:
        return tasks
    skips: dict[str, tuple] = {}
    results = Parallel(return_as="generator_unordered")(delayed(run_fit_job)(j) for j in jobs)
    try:
        with tqdm(total=len(jobs), disable=not progress, unit="stream",
                  desc=f"comparator fits of {len(jobs)} stream(s)") as bar:
            for group, found in results:
                if found:
                    skips[group] = tuple(found)
                bar.update()
    except Exception as error:
        if not _worker_died(error):
            raise
        # the runs have the machinery to name a run that kills its process: leave it to them
        print("olbench: a worker process died while fitting the comparators; the runs fit "
              "them instead", file=sys.stderr)
        return tasks
    finally:
        results.close()
    return [replace(t, known_skips=skips[_group(t)]) if skips and _group(t) in skips else t
            for t in tasks]
