"""Expand an experiment into tasks and run them: joblib locally, Dask on a cluster.

An experiment's ``grid`` lists streams, learners and comparators; each entry is a registry
key (its defaults come from ``conf/<group>/<key>.yaml``) or a mapping::

    learners:
      - perceptron
      - key: pa
        params: {variant: pa1}            # fixed values
        sweep: {C: [0.1, 1.0, 10.0]}      # one task per value (product over swept params)

A *task* is one (stream, learner, seed), measured against every comparator of the grid
(comparators never rerun a learner). The stream's ``seed`` is a child of the run seed, derived
before dispatch, so the table is the same whatever ``n_jobs`` or backend. Each finished task
is written at once (see :mod:`olbench.results`); re-running skips finished tasks.

>>> tasks = expand({"streams": ["separable"], "learners": [{"key": "pa", "sweep":
...                 {"C": [0.1, 1.0]}}], "comparators": ["best_fixed"]}, seeds=[0, 1])
>>> len(tasks), sorted({t.learner["C"] for t in tasks})
(4, [0.1, 1.0])
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator

import numpy as np
import pandas as pd
from hydra.utils import get_class, instantiate
from omegaconf import DictConfig, ListConfig, OmegaConf

from olbench.results import RunStore, versions

CONF_DIR = Path(__file__).resolve().parents[1] / "conf"
GROUPS = ("streams", "learners", "comparators")
#: runs on streams of at most this many features keep their final weights (``final_w``)
MAX_D_FOR_WEIGHTS = 3


class GridError(ValueError):
    """An experiment grid that cannot run: unknown names, bad parameters (checked up front)."""


# ----------------------------------------------------------------------------- tasks
def _plain(node: Any) -> Any:
    if isinstance(node, (DictConfig, ListConfig)):
        return OmegaConf.to_container(node, resolve=True)
    return node


@dataclass(frozen=True)
class Task:
    """One run: a stream, a learner, the comparators, a seed. Specs are ``_target_`` dicts."""

    experiment: str
    seed: int
    stream: dict
    learner: dict
    comparators: tuple = ()
    checkpoints: int = 25
    loss: str | None = None
    cache_dir: str | None = field(default=None, compare=False)

    @property
    def run_id(self) -> str:
        spec = [self.experiment, self.seed, self.stream, self.learner, list(self.comparators),
                self.checkpoints, self.loss]
        return hashlib.sha256(json.dumps(spec, sort_keys=True, default=str).encode()
                              ).hexdigest()[:16]


def child_seed(seed: int, role: str) -> int:
    """A seed for one ingredient of a run (``"stream"``, ...), derived from the run seed."""
    roles = ("stream", "learner", "comparator")
    state = np.random.SeedSequence(int(seed)).spawn(len(roles))[roles.index(role)]
    return int(state.generate_state(1)[0])


def _group_file(group: str, key: str) -> Path:
    path = CONF_DIR / group / f"{key}.yaml"
    if not path.exists():
        known = sorted(p.stem for p in (CONF_DIR / group).glob("*.yaml"))
        raise GridError(f"unknown {group} {key!r} in the experiment grid; available: "
                        + ", ".join(known))
    return path


def component_specs(group: str, entries: Iterable[Any]) -> list[dict]:
    """Full ``_target_`` specs for grid entries of a group (see the module docs)."""
    specs = []
    for entry in _plain(entries) or []:
        if isinstance(entry, str):
            entry = {"key": entry}
        if not isinstance(entry, dict) or "key" not in entry:
            raise GridError(f"a {group} entry must be a key or a mapping with 'key': {entry!r}")
        unknown = set(entry) - {"key", "params", "sweep"}
        if unknown:
            raise GridError(f"{group} entry {entry['key']!r}: unknown fields {sorted(unknown)};"
                            " use params (fixed values) and sweep (lists of values)")
        base = _plain(OmegaConf.load(_group_file(group, entry["key"])))
        base.update(entry.get("params") or {})
        sweep = entry.get("sweep") or {}
        for name, values in sweep.items():
            if not isinstance(values, list) or not values:
                raise GridError(f"{group} {entry['key']!r}: sweep.{name} must be a non-empty "
                                f"list, got {values!r}")
        for combo in itertools.product(*sweep.values()):
            specs.append({**base, **dict(zip(sweep, combo))})
    return specs


def _with_seed(spec: dict, seed: int) -> dict:
    if "seed" in get_class(spec["_target_"]).param_names():
        return {**spec, "seed": child_seed(seed, "stream")}
    return spec


def expand(grid: Any, *, seeds: Iterable[int], experiment: str = "single",
           checkpoints: int = 25, loss: str | None = None,
           cache_dir: str | None = None) -> list[Task]:
    """The tasks of a grid: streams x learners x seeds, each with all comparators."""
    grid = _plain(grid)
    unknown = set(grid) - {"seeds", *GROUPS}
    if unknown:
        raise GridError(f"unknown grid fields {sorted(unknown)}; a grid has seeds, "
                        + ", ".join(GROUPS))
    streams = component_specs("stream", grid.get("streams"))
    learners = component_specs("learner", grid.get("learners"))
    comparators = tuple(component_specs("comparator", grid.get("comparators")))
    if not streams or not learners:
        raise GridError("an experiment grid needs at least one stream and one learner")
    return [Task(experiment, int(seed), _with_seed(stream, seed), learner, comparators,
                 checkpoints, loss, cache_dir)
            for seed in seeds for stream in streams for learner in learners]


def single_cell(stream: Any, learner: Any, comparator: Any, **kw) -> list[Task]:
    """The tasks of one composed stream x learner x comparator (``olbench learner=pa ...``)."""
    seeds = kw.pop("seeds")
    comparators = (_plain(comparator),) if comparator is not None else ()
    return [Task(kw.get("experiment", "single"), int(s), _with_seed(_plain(stream), s),
                 _plain(learner), comparators, kw.get("checkpoints", 25), kw.get("loss"),
                 kw.get("cache_dir")) for s in seeds]


def validate(tasks: list[Task]) -> None:
    """Build every distinct component once and check its parameters, before any run."""
    seen: set[str] = set()
    for task in tasks:
        for role, spec in [("stream", task.stream), ("learner", task.learner),
                           *[("comparator", c) for c in task.comparators]]:
            key = json.dumps(spec, sort_keys=True, default=str)
            if key in seen:
                continue
            seen.add(key)
            try:
                instantiate(spec, _convert_="all").validate()
            except Exception as error:
                cause = error.__cause__ or error
                raise GridError(f"{role} {_key_of(spec) or spec.get('_target_')}: {cause}"
                                ) from error


# ----------------------------------------------------------------------------- one run
def _flat_params(prefix: str, spec: dict) -> dict[str, Any]:
    out = {}
    for name, value in spec.items():
        if name.startswith("_"):
            continue
        scalar = value is None or isinstance(value, (bool, int, float, str))
        out[f"{prefix}_{name}"] = value if scalar else json.dumps(value)
    return out


def _key_of(spec: dict) -> str | None:
    return getattr(get_class(spec["_target_"]), "key", None)


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
    from olbench.metrics import evaluate, log_checkpoints

    start = time.perf_counter()
    ident: dict[str, Any] = {
        "experiment": task.experiment, "run_id": task.run_id, "seed": task.seed,
        "stream_key": _key_of(task.stream), "learner_key": _key_of(task.learner),
        **_flat_params("stream", task.stream), **_flat_params("learner", task.learner)}
    try:
        stream, whole = load_stream(task.stream, task.cache_dir, bool(task.comparators))
        learner = instantiate(task.learner, _convert_="all")
        ident.update(stream=stream.name, learner=learner.name)
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
        rows = evaluate(trace, learner=learner, meta=meta, fits=fits, checkpoints=ks)
        rows["time_s"] = trace.time_at(rows["t"].to_numpy())
        rows["status"] = "ok"
        ident.update(stream_n=meta.n, stream_d=meta.d, stream_radius=meta.radius,
                     stream_margin=meta.margin, stream_fingerprint=meta.fingerprint)
        if meta.d <= MAX_D_FOR_WEIGHTS:  # small enough to keep: decision-boundary figures
            ident["final_w"] = json.dumps(trace.state["w"].tolist())
    except Exception as error:  # recorded as a row; the grid goes on
        message = f"error: {type(error).__name__}: {error}"
        rows = pd.DataFrame({"status": [message],
                             "traceback": ["".join(traceback.format_exception(error))[-4000:]]})
    for column, value in {**ident, **versions()}.items():
        rows[column] = value
    rows["wall_s"] = time.perf_counter() - start
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
                store.save(rows["run_id"].iloc[0], rows)
    return store.merge([t.run_id for t in tasks])
