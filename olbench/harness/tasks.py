"""Expand an experiment into tasks: streams x learners x seeds, each with the comparators.

An experiment's ``grid`` lists streams, learners and comparators; each entry is a registry
key (its defaults come from ``conf/<group>/<key>.yaml``) or a mapping::

    learners:
      - perceptron
      - key: pa
        params: {variant: pa1}            # fixed values
        sweep: {C: [0.1, 1.0, 10.0]}      # one task per value (product over swept params)

A study whose streams need different learners (classification and regression figures of
one chapter, say) lists ``blocks``: sub-grids, each with its own streams and learners (and
comparators, else the grid's; and its own ``loss``, else the run's), expanded one after the
other with the grid's seeds::

    blocks:
      - {streams: [sugiyama_clusters], learners: [pa]}
      - {streams: [sinc], learners: [rls]}

A *task* is one (stream, learner, seed), measured against every comparator of the grid
(comparators never rerun a learner). One loss flows through a task (:func:`run_loss`): the
command's ``loss`` if set, else the learner's own (:attr:`Learner.default_loss`: OGD's
``loss``, otherwise hinge or squared by task); a comparator whose ``loss`` is null takes it
(:func:`with_run_loss`), one that names its own loss keeps it. The stream's ``seed`` is a
child of the run seed, derived here, before dispatch, so the table is the same whatever
``n_jobs`` or backend; so are a learner's random start (``init: randn``) and its own
generator, if it has one (:func:`_with_learner_seed`). Running the tasks is
:mod:`olbench.harness.grid`'s job.

>>> tasks = expand({"streams": ["separable"], "learners": [{"key": "pa", "sweep":
...                 {"C": [0.1, 1.0]}}], "comparators": ["best_fixed"]}, seeds=[0, 1])
>>> len(tasks), sorted({t.learner["C"] for t in tasks})
(4, [0.1, 1.0])
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from hydra.utils import get_class, instantiate
from omegaconf import DictConfig, ListConfig, OmegaConf

from olbench.learners.initial import init_label, is_given
from olbench.learning_task import COMPARATOR_FOR, comparator_mismatch, learner_mismatch

CONF_DIR = Path(__file__).resolve().parents[2] / "conf"
GROUPS = ("streams", "learners", "comparators")


class GridError(ValueError):
    """An experiment grid that cannot run: unknown names, bad parameters (checked up front)."""


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
    checkpoints: int | tuple[int, ...] = 25
    loss: str | None = None
    cache_dir: str | None = field(default=None, compare=False)
    spacing: str = "log"
    #: False: no bound is checked (``run.bounds=false``)
    bounds: bool = True
    #: seconds per comparator solve (``run.solver_time_limit``; None: the solvers' default).
    #: Not part of the run id: a certified fit does not depend on it
    solver_time_limit: float | None = field(default=None, compare=False)
    #: ``(comparator spec as JSON, skip reason)`` of the comparators whose fit was tried
    #: before the runs and gave no fit (:mod:`olbench.harness.prefit`): the run takes the reason
    #: instead of solving again
    known_skips: tuple = field(default=(), compare=False)
    #: the run is refused if its learner's state would need more (``run.memory_limit``:
    #: bytes or a size; None: the memory free), so it changes no result
    memory_limit: int | float | str | None = field(default=None, compare=False)

    @functools.cached_property   # asked for many times per task by the grid
    def run_id(self) -> str:
        spec = [self.experiment, self.seed, self.stream, self.learner, list(self.comparators),
                self.checkpoints, self.loss]
        if self.spacing != "log":   # so that the ids (and resumed results) of log runs stay
            spec.append(self.spacing)
        if not self.bounds:
            spec.append("no bounds")
        init = self.learner.get("init")
        if isinstance(init, str) and is_given(init):   # a file: a new content is a new run
            spec.append(init_label(init))
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
    """The stream spec with its ``seed`` (if it has one) a child of the run seed; a stream
    wrapped by another (``stream: {_target_: ...}``, e.g. ``passes``) gets a child of its
    wrapper's child, so every level varies with the run seed, independently."""
    seed = child_seed(seed, "stream")
    inner = spec.get("stream")
    if isinstance(inner, dict) and "_target_" in inner:
        spec = {**spec, "stream": _with_seed(inner, seed)}
    if _has_seed(spec["_target_"]):
        return {**spec, "seed": seed}
    return spec


@functools.cache   # per class, not per seed (inspect.signature: 0.1 ms a call)
def _has_seed(target: str) -> bool:
    return "seed" in get_class(target).param_names()


def _with_learner_seed(spec: dict, seed: int) -> dict:
    """The learner spec with the seeds of its random parts children of the run seed, so that
    a spread over seeds includes their variation: the draw of ``init: randn``
    (``init_seed``), and a generator of the learner's own (``seed``: the budget perceptron's
    evictions). Every other learner's spec, hence its run ids and stored runs, is unchanged.
    (No learner has both: one with a generator of its own keeps dual coefficients in w and
    refuses ``init: randn``.)

    >>> _with_learner_seed({"init": "zeros"}, 3), _with_learner_seed({"init": "randn"}, 0)
    ({'init': 'zeros'}, {'init': 'randn', 'init_seed': 673228719})
    """
    derived = {}
    init = spec.get("init")
    if isinstance(init, str) and init == "randn":    # (a vector compares elementwise)
        derived["init_seed"] = child_seed(seed, "learner")
    if "_target_" in spec and _has_seed(spec["_target_"]):
        derived["seed"] = child_seed(seed, "learner")
    return {**spec, **derived} if derived else spec


def run_loss(loss: str | None, learner: dict) -> str | None:
    """The loss a run measures: ``loss`` (the command's) if given, else the learner's
    :attr:`~olbench.learners.base.Learner.default_loss`.

    >>> run_loss(None, {"_target_": "olbench.learners.ogd.OGD", "loss": "logistic"})
    'logistic'
    >>> run_loss(None, {"_target_": "olbench.learners.pa.PARegressor"}), run_loss("hinge", {})
    ('squared', 'hinge')
    """
    if loss is not None:
        return loss
    key = json.dumps(learner, sort_keys=True, default=str)
    if key not in _DEFAULT_LOSS:  # built once per setting, not once per seed
        try:
            _DEFAULT_LOSS[key] = instantiate(learner, _convert_="all").default_loss
        except Exception:  # a learner that cannot be built: validate() names the problem
            _DEFAULT_LOSS[key] = None
    return _DEFAULT_LOSS[key]


_DEFAULT_LOSS: dict[str, str | None] = {}


def with_run_loss(comparator: dict, loss: str | None) -> dict:
    """The comparator spec with ``loss: null`` replaced by the run's loss.

    >>> with_run_loss({"key": "best_fixed", "loss": None}, "logistic")["loss"]
    'logistic'
    >>> with_run_loss({"key": "best_fixed", "loss": "hinge"}, "logistic")["loss"]
    'hinge'
    """
    if "loss" in comparator and comparator["loss"] is None and loss is not None:
        return {**comparator, "loss": loss}
    return comparator


def _task(experiment: str, seed: int, stream: dict, learner: dict, comparators, *,
          checkpoints, loss: str | None, cache_dir: str | None, spacing: str,
          bounds: bool, solver_time_limit: float | None = None, memory_limit=None) -> Task:
    """One task; ``loss`` is the run's (:func:`run_loss`, resolved once per learner)."""
    return Task(experiment, int(seed), _with_seed(stream, seed),
                _with_learner_seed(learner, seed),
                tuple(with_run_loss(c, loss) for c in comparators), checkpoints, loss,
                cache_dir, spacing, bounds, solver_time_limit, memory_limit=memory_limit)


def expand(grid: Any, *, seeds: Iterable[int], experiment: str = "single",
           checkpoints: int | tuple[int, ...] = 25, loss: str | None = None,
           cache_dir: str | None = None, spacing: str = "log", comparators: bool = True,
           bounds: bool = True, solver_time_limit: float | None = None,
           memory_limit=None) -> list[Task]:
    """The tasks of a grid: streams x learners x seeds, each with all comparators
    (none with ``comparators=False``; no bound checks with ``bounds=False``; each solve
    limited to ``solver_time_limit`` seconds)."""
    grid = _plain(grid)
    unknown = set(grid) - {"seeds", "blocks", *GROUPS}
    if unknown:
        raise GridError(f"unknown grid fields {sorted(unknown)}; a grid has seeds, "
                        + ", ".join(GROUPS) + " (or blocks of them)")
    if grid.get("blocks") is not None:
        return _expand_blocks(grid, seeds=seeds, experiment=experiment,
                              checkpoints=checkpoints, loss=loss, cache_dir=cache_dir,
                              spacing=spacing, comparators=comparators, bounds=bounds,
                              solver_time_limit=solver_time_limit, memory_limit=memory_limit)
    streams = component_specs("stream", grid.get("streams"))
    learners = component_specs("learner", grid.get("learners"))
    comps = component_specs("comparator", grid.get("comparators")) if comparators else []
    if not streams or not learners:
        raise GridError("an experiment grid needs at least one stream and one learner")
    losses = [run_loss(loss, learner) for learner in learners]
    return [_task(experiment, seed, stream, learner, comps, checkpoints=checkpoints,
                  loss=learner_loss, cache_dir=cache_dir, spacing=spacing, bounds=bounds,
                  solver_time_limit=solver_time_limit, memory_limit=memory_limit)
            for seed in seeds for stream in streams
            for learner, learner_loss in zip(learners, losses)]


def _expand_blocks(grid: dict, **common) -> list[Task]:
    blocks = grid["blocks"]
    if not isinstance(blocks, list) or not blocks:
        raise GridError(f"grid.blocks must be a non-empty list of sub-grids, got {blocks!r}")
    if grid.get("streams") or grid.get("learners"):
        raise GridError("a grid with blocks lists its streams and learners inside the blocks")
    tasks = []
    for number, block in enumerate(blocks):
        if not isinstance(block, dict) or set(block) - {*GROUPS, "loss"}:
            raise GridError(f"grid.blocks[{number}] must be a mapping of "
                            f"{', '.join(GROUPS)} (and loss); got {block!r}")
        block = dict(block)
        # a block may set its own per-round loss (logistic OGD beside hinge OGD, say)
        own = {"loss": block.pop("loss")} if "loss" in block else {}
        tasks += expand({"comparators": grid.get("comparators"), **block}, **{**common, **own})
    return tasks


def single_cell(stream: Any, learner: Any, comparator: Any, *, seeds: Iterable[int],
                experiment: str = "single", checkpoints: int | tuple[int, ...] = 25,
                loss: str | None = None, cache_dir: str | None = None, spacing: str = "log",
                comparators: bool = True, bounds: bool = True,
                solver_time_limit: float | None = None, memory_limit=None) -> list[Task]:
    """The tasks of one composed stream x learner x comparator (``olbench learner=pa ...``)."""
    comps = [_plain(comparator)] if comparator is not None and comparators else []
    stream, learner = _plain(stream), _plain(learner)   # once, not once per seed
    loss = run_loss(loss, learner)
    return [_task(experiment, s, stream, learner, comps, checkpoints=checkpoints,
                  loss=loss, cache_dir=cache_dir, spacing=spacing, bounds=bounds,
                  solver_time_limit=solver_time_limit, memory_limit=memory_limit)
            for s in seeds]


def validate(tasks: list[Task]) -> None:
    """Raise :class:`GridError` naming every problem of :func:`task_problems`, if any."""
    problems = task_problems(tasks)
    if problems:
        raise GridError("\n".join(problems))


def task_problems(tasks: list[Task]) -> list[str]:
    """Every problem of the tasks, found before any run: each distinct component built once
    and its parameters checked; each learner doing the task (classification, regression,
    ...) of its stream; listed checkpoints within each stream's rounds, where the stream's
    parameters say how many (:meth:`~olbench.streams.base.Stream.known_rounds`). The
    tasks of many seeds of one setting share their components (a stream's seed is derived,
    valid by construction: :func:`_seedless`), so 20,000 seeds are checked as one."""
    problems: list[str] = []
    built: dict[str, Any] = {}
    settings: set[tuple] = set()
    for task in tasks:
        # one JSON text per spec object: the tasks of many seeds share their learner spec
        setting = (_seedless_key(task.stream), _spec_key(task.learner),
                   tuple(map(_spec_key, task.comparators)), task.checkpoints)
        if setting in settings:
            continue
        settings.add(setting)
        components = [("stream", setting[0], task.stream), ("learner", setting[1], task.learner),
                      *[("comparator", k, c) for k, c in zip(setting[2], task.comparators)]]
        for role, key, spec in components:
            if (role, key) not in built:
                built[role, key] = _built(role, spec, problems)
        stream, learner = built["stream", setting[0]], built["learner", setting[1]]
        if stream is None or learner is None:
            continue
        problems += [p for p in [_same_task_problem(task, stream, learner),
                                  _rounds_problem(task, stream),
                                  _memory_problem(task, stream, learner),
                                  _init_problem(task, stream, learner),
                                  _range_problem(task, stream, learner)]
                     if p is not None and p not in problems]
    return problems


def _range_problem(task: Task, stream: Any, learner: Any) -> str | None:
    """A learner of losses in a range (Hedge, the weighted majority: [0, 1]) on a stream
    whose parameters put its entries outside it (linear losses in [-G, G])."""
    needed, given = getattr(learner, "loss_range", None), stream.value_range()
    if needed is None or given is None or needed[0] <= given[0] and given[1] <= needed[1]:
        return None
    from olbench.learning_task import learners_for

    others = [k for k in learners_for("oco") if k.split(" ")[0] not in
              {registry_key(task.learner), "hedge", "weighted_majority"}]
    return (f"learner {registry_key(task.learner)} learns from losses in "
            f"[{needed[0]:g}, {needed[1]:g}] but stream {registry_key(task.stream)} has entries "
            f"in [{given[0]:g}, {given[1]:g}]; use stream=experts, or a learner of such "
            f"losses: {', '.join(others)}")


def _init_problem(task: Task, stream: Any, learner: Any) -> str | None:
    """A given initial vector (``learner.init=[...]`` or a file) of another length than the
    stream's rows, where the stream's parameters say how long they are."""
    from olbench.learners.initial import initial_weights, is_given

    init, d = getattr(learner, "init", "zeros"), stream.known_features()
    if d is None or not is_given(init):
        return None
    try:
        initial_weights(init, 0, d)
    except ValueError as error:
        return (f"learner {registry_key(task.learner)}: {error} (stream "
                f"{registry_key(task.stream)})")
    return None


def _memory_problem(task: Task, stream: Any, learner: Any) -> str | None:
    """A run that could not fit whatever the data hold: the learner's footprint at the
    fewest rows and features the stream's parameters allow (1 where they do not say)
    already exceeds the memory free or ``run.memory_limit``. What only the data tell is
    checked again by :func:`olbench.run` before it allocates."""
    from olbench.resources import memory_problem

    try:
        problem = memory_problem(learner, n=stream.known_rounds() or 1,
                                 d=stream.known_features() or 1, limit=task.memory_limit)
    except (ValueError, TypeError):   # a bad memory_limit: the configuration check names it
        return None
    return None if problem is None else (f"learner {registry_key(task.learner)} on stream "
                                         f"{registry_key(task.stream)}: {problem}")


def _spec_key(spec: dict) -> str:
    return json.dumps(spec, sort_keys=True, default=str)


def _seedless_key(spec: dict) -> str:
    return _spec_key(_seedless(spec))


def _built(role: str, spec: dict, problems: list[str]) -> Any:
    """The component of a spec, its parameters checked; None (and a problem) if it fails."""
    try:
        component = instantiate(spec, _convert_="all")
        component.validate()
        return component
    except Exception as error:
        cause = error.__cause__ or error
        problems.append(f"{role} {registry_key(spec) or spec.get('_target_')}: {cause}")
        return None


def _rounds_problem(task: Task, stream: Any) -> str | None:
    rounds = stream.known_rounds()
    if rounds is None or not isinstance(task.checkpoints, tuple) \
            or max(task.checkpoints) <= rounds:
        return None
    return (f"run.checkpoints={list(task.checkpoints)}: round {max(task.checkpoints)} is "
            f"beyond the {rounds} rounds of stream {registry_key(task.stream)}")


def _seedless(spec: dict) -> dict:
    """A stream spec without its seeds, which :func:`_with_seed` derived from the run seed
    (valid by construction): the streams of 1,000 seeds of one setting are checked once.

    >>> _seedless({"n": 5, "seed": 7, "stream": {"seed": 8, "d": 2}})
    {'n': 5, 'stream': {'d': 2}}
    """
    return {k: _seedless(v) if isinstance(v, dict) else v for k, v in spec.items()
            if k != "seed"}


def _same_task_problem(task: Task, stream: Any, learner: Any) -> str | None:
    """The learner does its stream's task: the rule :func:`olbench.run` applies
    (:func:`olbench.learning_task.learner_mismatch`), on the built components, so that a
    task decided by a parameter (OGD's loss, a dataset's card, a file's ``task``) counts."""
    return learner_mismatch(learner, stream)


def registry_key(spec: dict) -> str | None:
    """The registry key of the class a ``_target_`` spec builds (None if it has none)."""
    return getattr(get_class(spec["_target_"]), "key", None)


def cell_comparator(learner_spec: Any, comparator_spec: Any, *, chosen: bool) -> Any:
    """The comparator of a single cell (``olbench learner=hedge stream=experts``): the one
    chosen on the command line (``chosen``), refused naming the one to use if it measures
    another task than the learner's; otherwise the one that measures the learner's task
    (:data:`~olbench.learning_task.COMPARATOR_FOR`): the configured default for classification
    and regression,
    ``best_point`` on the learner's feasible set and loss for online convex optimisation.
    Specs are ``_target_`` mappings (or configs); a component that cannot be built is left
    to the checks of the configuration, which name the problem."""
    from hydra.utils import instantiate

    if comparator_spec is None:
        return None
    learner_spec, comparator_spec = _plain(learner_spec), _plain(comparator_spec)
    try:
        learner = instantiate(learner_spec, _convert_="all")
        comparator = instantiate(comparator_spec, _convert_="all")
    except Exception:
        return comparator_spec
    task = getattr(learner, "task", None)
    if chosen:
        problem = comparator_mismatch(comparator, task, f"learner {learner.key}", "learner")
        if problem:
            raise GridError(problem)
        return comparator_spec
    wanted = COMPARATOR_FOR.get(task)
    if wanted is None or registry_key(comparator_spec) == wanted or task != "oco":
        return comparator_spec
    radius = getattr(learner, "radius", 1.0)
    if radius is None:   # OGD without projection plays in all of R^d
        raise GridError(f"learner {learner.key} with radius=null plays anywhere in R^d: no "
                        f"point of a bounded set to compare with; set learner.radius (the "
                        f"ball best_point compares with) or run.comparators=false")
    loss = getattr(learner, "loss", "linear")
    return component_specs("comparator", [{"key": wanted, "params": {
        "loss": loss if loss in ("linear", "quadratic") else "linear",
        "domain": getattr(learner, "domain", "ball"), "radius": float(radius)}}])[0]
