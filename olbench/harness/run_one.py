"""One run of a task, and the one place where specs become objects (:func:`build`).

A task (:mod:`olbench.harness.tasks`) holds ``_target_`` specs, and everything before the run
reads them, or their classes (a learner's task and default loss, a comparator's task): no
stream, learner or comparator is built to plan a grid. The checks made before anything runs
(:mod:`olbench.harness.task_checks`) need the components themselves (a learner's own
``validate``, a stream's known rounds); they build those of the first run of each setting
and hand them to that run (:class:`Prebuilt`), so that a run builds each of its components
once, here: its stream, its learner, each of its comparators. The grid
(:mod:`olbench.harness.grid`) only schedules :func:`run_task`.

Apart from the runs, a stream and its comparators are built once more per stream instance
whose fit several runs share (:mod:`olbench.harness.prefit`), and the selection stage builds
the learners of its candidates (:mod:`olbench.harness.selection`); both through
:func:`build`.
"""

from __future__ import annotations

import json
import time
import traceback
from dataclasses import dataclass, field
from typing import Any

import pandas as pd
from hydra.utils import instantiate

from olbench import schema as col
from olbench.harness.outputs import FinishedRun, attach, run_outputs
from olbench.harness.results import versions
from olbench.harness.tasks import Task, registry_key


def build(spec: dict) -> Any:
    """The component a ``_target_`` spec describes (its parameters not yet checked)."""
    return instantiate(spec, _convert_="all")


def spec_key(spec: Any) -> str:
    """A spec as canonical JSON: the key of a comparator (or a stream) among specs."""
    return json.dumps(spec, sort_keys=True, default=str)


@dataclass
class Prebuilt:
    """Components of one run built before it (by :mod:`olbench.harness.task_checks`): the run
    takes them instead of building its own. ``comparators``: by :func:`spec_key`."""

    stream: Any = None
    learner: Any = None
    comparators: dict[str, Any] = field(default_factory=dict)

    def comparator(self, spec: dict) -> Any:
        found = self.comparators.pop(spec_key(spec), None)
        return build(spec) if found is None else found


def run_task(task: Task, prebuilt: Prebuilt | None = None) -> pd.DataFrame:
    """Run one task and return its rows; an exception becomes one row with status=error."""
    from olbench.comparators._duality import time_limit

    start = time.perf_counter()
    ident = identity(task)
    try:
        with time_limit(task.solver_time_limit):
            rows = _measured(task, ident, prebuilt or Prebuilt())
    except Exception as error:  # recorded as a row; the grid goes on
        message = f"error: {type(error).__name__}: {error}"
        rows = error_frame(message, "".join(traceback.format_exception(error)))
    return identified(rows, ident, start)


def _measured(task: Task, ident: dict[str, Any], prebuilt: Prebuilt) -> pd.DataFrame:
    """The rows of one run (:func:`run_task` without its error handling); fills ``ident``
    with what the run learns about its stream and learner."""
    import olbench
    from olbench.checkpoints import run_checkpoints
    from olbench.harness.streamed import load_stream, out_of_core_bytes, run_streamed
    from olbench.metrics import metrics_table, summary_table

    stream, whole = load_stream(task.stream, task.cache_dir, bool(task.comparators),
                                stream=prebuilt.stream)
    learner = build(task.learner) if prebuilt.learner is None else prebuilt.learner
    ident.update({col.STREAM: stream.name, col.LEARNER: learner.name})
    meta = stream.meta if whole is None else whole[2]
    ks = run_checkpoints(meta, task.checkpoints, task.spacing)
    if out_of_core_bytes(task.stream) is not None:   # sums at the checkpoints, no record
        trace = run_streamed(learner, stream, loss=task.loss, checkpoints=ks,
                             memory_limit=task.memory_limit, tie=task.tie)
        fits = comparator_fits(task, learner.task, stream, meta, ks, prebuilt) \
            if task.comparators else {}
        rows = summary_table(trace, learner=learner, meta=meta, fits=fits, bounds=task.bounds)
    else:
        data = (stream,) if whole is None else whole[:2]
        trace = olbench.run(learner, *data, loss=task.loss, checkpoints=ks,
                            memory_limit=task.memory_limit, tie=task.tie)
        fits = comparator_fits(task, learner.task, whole[:2], meta, ks, prebuilt) \
            if task.comparators else {}
        rows = metrics_table(trace, learner=learner, meta=meta, fits=fits, checkpoints=ks,
                             bounds=task.bounds)
    rows[col.TIME_S] = trace.time_at(rows[col.T].to_numpy())
    rows[col.NONZERO_WEIGHTS] = trace.nonzero_at(rows[col.T].to_numpy())
    rows[col.STATUS] = col.OK
    ident.update({col.STREAM_N: meta.n, col.STREAM_D: meta.d, col.STREAM_RADIUS: meta.radius,
                  col.STREAM_MARGIN: meta.margin, col.STREAM_FINGERPRINT: meta.fingerprint})
    # what figures need of the run besides its rows (final weights, points, switches ...)
    return attach(rows, run_outputs(FinishedRun(stream, meta, trace.state,
                                                None if whole is None else whole[:2],
                                                getattr(trace, "snapshots", ()))))


def fit_on(comparator, data, meta, ks, cache):
    """``comparator``'s fit on ``data``: the rows ``(X, y)`` held in memory, or a stream
    read chunk by chunk (an out-of-core file: :meth:`~olbench.comparators.Comparator.
    fit_stream`)."""
    if isinstance(data, tuple):
        return comparator.fit(*data, meta, checkpoints=ks, cache=cache)
    return comparator.fit_stream(data, meta, checkpoints=ks, cache=cache)


def comparator_fits(task: Task, learner_task: str, data, meta, ks,
                    prebuilt: Prebuilt | None = None) -> dict[str, Any]:
    """A run's comparator fits by name (its stream's ``data`` as :func:`fit_on` takes them,
    ``meta`` and checkpoints ``ks``): from the cache (:func:`olbench.harness.prefit.
    fit_before_runs` fitted them), a skip that stage found, or fitted here (no cache); a
    comparator of another task than the learner's (:meth:`~olbench.comparators.Comparator.
    problem_with`) is a skip saying so. Each comparator is built here, unless ``prebuilt``
    has it."""
    fits = {}
    known = dict(task.known_skips)
    prebuilt = prebuilt or Prebuilt()
    for spec in task.comparators:
        comparator = prebuilt.comparator(spec)
        other_task = comparator.problem_with(learner_task, spec.get("loss"))
        if other_task:
            fit = comparator._skip(other_task, spec.get("loss"))
        elif spec_key(spec) in known:
            fit = comparator._skip(known[spec_key(spec)], spec.get("loss"))
        else:
            fit = fit_on(comparator, data, meta, ks, task.cache_dir)
        fits[comparator.name] = fit
    return fits


def _flat_params(prefix: str, spec: dict) -> dict[str, Any]:
    out = {}
    for name, value in spec.items():
        if name.startswith("_"):
            continue
        scalar = value is None or isinstance(value, (bool, int, float, str))
        out[f"{prefix}_{name}"] = value if scalar else json.dumps(value)
    return out


def identity(task: Task) -> dict[str, Any]:
    """The columns that say which run a row belongs to, known before anything is built."""
    return {col.EXPERIMENT: task.experiment, col.RUN_ID: task.run_id, col.SEED: task.seed,
            col.STREAM_KEY: registry_key(task.stream),
            col.LEARNER_KEY: registry_key(task.learner),
            **_flat_params(col.STREAM, task.stream), **_flat_params(col.LEARNER, task.learner)}


def error_frame(message: str, detail: str) -> pd.DataFrame:
    return pd.DataFrame({col.STATUS: [message], col.TRACEBACK: [detail[-4000:]]})


def identified(rows: pd.DataFrame, ident: dict[str, Any], start: float) -> pd.DataFrame:
    for column, value in {**ident, **versions()}.items():
        rows[column] = value
    rows[col.WALL_S] = time.perf_counter() - start
    return rows
