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
comparators, else the grid's; its own ``loss``, else the run's; its own ``seeds``, else the
grid's), expanded one after the other::

    blocks:
      - {streams: [sugiyama_clusters], learners: [pa]}
      - {streams: [sinc], learners: [rls]}

A *task* is one (stream, learner, seed), measured against every comparator of the grid
(comparators never rerun a learner). A task holds specs: what it needs of its components
is read from their classes (:func:`component_class`), none is built here (that is
:mod:`olbench.harness.run_one`'s). One loss flows through a task (:func:`run_loss`): the
command's ``loss`` if set, else the learner's own (:meth:`Learner.default_loss_for`: OGD's
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
from hydra.utils import get_class
from omegaconf import DictConfig, ListConfig, OmegaConf

from olbench.harness.validate import seed_list, seeds_problem
from olbench.learners.initial import init_label, is_given
from olbench.learning_task import COMPARATOR_FOR, comparator_mismatch

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
    #: the tie rule mistakes are counted with (``run.tie``; None: the learner's own)
    tie: str | None = None
    #: seconds per comparator solve (``run.solver_time_limit``; None: the solvers' default;
    #: not in the run id: a certified fit does not depend on it)
    solver_time_limit: float | None = field(default=None, compare=False)
    #: ``(comparator spec as JSON, skip reason)`` of the fits tried before the runs that gave
    #: none (:mod:`olbench.harness.prefit`): the run takes the reason, never solving again
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
        if self.tie is not None:   # (runs counted by their learners' rules keep their ids)
            spec.append(f"tie {self.tie}")
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
    """The stream spec with its ``seed`` (if it has one) a child of the run seed, or what the
    stream's class asks for instead (:meth:`~olbench.streams.base.Stream.seed_in_run`: the
    run seed itself for LIBOL's orders); a stream wrapped by another (``stream: {_target_:
    ...}``, e.g. ``passes``) gets a child of its wrapper's child, so every level varies with
    the run seed, independently."""
    child = child_seed(seed, "stream")
    inner = spec.get("stream")
    if isinstance(inner, dict) and "_target_" in inner:
        spec = {**spec, "stream": _with_seed(inner, child)}
    if _has_seed(spec["_target_"]):
        return {**spec, "seed": component_class(spec["_target_"]).seed_in_run(spec, seed, child)}
    return spec


@functools.cache   # per class, not per seed (inspect.signature: 0.1 ms a call)
def _has_seed(target: str) -> bool:
    return "seed" in component_class(target).param_names()


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


@functools.cache   # per class, not per run (a grid of 20,000 seeds asks 20,000 times)
def component_class(target: str) -> type:
    """The class a ``_target_`` names: what a task reads of its components, never built."""
    return get_class(target)


def params_of(spec: dict) -> dict:
    """The hyper-parameters of a ``_target_`` spec."""
    return {k: v for k, v in spec.items() if not k.startswith("_")}


def learner_task(spec: dict) -> str | None:
    """The task the learner of ``spec`` does (:meth:`~olbench.learners.base.Learner.
    task_for`), read from its class; None when the class cannot be found (the checks name
    the problem)."""
    try:
        return component_class(spec["_target_"]).task_for(params_of(spec))
    except Exception:
        return None


def comparator_problem(spec: dict, task: str | None) -> str | None:
    """Why the comparator of ``spec`` cannot measure the runs of a learner of ``task``
    (:meth:`~olbench.comparators.Comparator.problem_with`, read from its class)."""
    return component_class(spec["_target_"]).problem_with(task, spec.get("loss"))


def run_loss(loss: str | None, learner: dict) -> str | None:
    """The loss a run measures: ``loss`` (the command's) if given, else the learner's
    (:meth:`~olbench.learners.base.Learner.default_loss_for` its parameters, read from its
    class; None when the class cannot be found: the checks name the problem).

    >>> run_loss(None, {"_target_": "olbench.learners.ogd.OGD", "loss": "logistic"})
    'logistic'
    >>> run_loss(None, {"_target_": "olbench.learners.pa.PARegressor"}), run_loss("hinge", {})
    ('squared', 'hinge')
    """
    if loss is not None:
        return loss
    try:
        return component_class(learner["_target_"]).default_loss_for(params_of(learner))
    except Exception:
        return None


def with_run_loss(comparator: dict, loss: str | None) -> dict:
    """The comparator spec with ``loss: null`` replaced by the run's loss.

    >>> [with_run_loss({"loss": given}, "logistic")["loss"] for given in (None, "hinge")]
    ['logistic', 'hinge']
    """
    if "loss" in comparator and comparator["loss"] is None and loss is not None:
        return {**comparator, "loss": loss}
    return comparator


def with_run_rank(comparator: dict, learner: dict) -> dict:
    """The spec with ``k: null`` (an online PCA comparator's rank) made the learner's ``k``.

    >>> with_run_rank({"key": "best_subspace", "k": None}, {"k": 3})["k"]
    3
    """
    if "k" in comparator and comparator["k"] is None and learner.get("k") is not None:
        return {**comparator, "k": learner["k"]}
    return comparator


def _task(experiment: str, seed: int, stream: dict, learner: dict, comparators, *,
          checkpoints, loss: str | None, cache_dir: str | None, spacing: str,
          bounds: bool, solver_time_limit: float | None = None, memory_limit=None,
          tie: str | None = None) -> Task:
    """One task; ``loss`` is the run's (:func:`run_loss`, resolved once per learner)."""
    return Task(experiment, int(seed), _with_seed(stream, seed),
                _with_learner_seed(learner, seed),
                tuple(with_run_rank(with_run_loss(c, loss), learner) for c in comparators),
                checkpoints, loss,
                cache_dir, spacing, bounds, tie=tie, solver_time_limit=solver_time_limit,
                memory_limit=memory_limit)


def expand(grid: Any, *, seeds: Iterable[int], experiment: str = "single",
           checkpoints: int | tuple[int, ...] = 25, loss: str | None = None,
           cache_dir: str | None = None, spacing: str = "log", comparators: bool = True,
           bounds: bool = True, solver_time_limit: float | None = None,
           memory_limit=None, tie: str | None = None) -> list[Task]:
    """The tasks of a grid: streams x learners x seeds, each with all comparators (none with
    ``comparators=False``; no bound checks with ``bounds=False``; each solve limited to
    ``solver_time_limit`` s; mistakes counted with ``tie``, None: each learner's rule)."""
    grid = _plain(grid)
    unknown = set(grid) - {"seeds", "blocks", *GROUPS}
    if unknown:
        raise GridError(f"unknown grid fields {sorted(unknown)}; a grid has seeds, "
                        + ", ".join(GROUPS) + " (or blocks of them)")
    if grid.get("blocks") is not None:
        return _expand_blocks(grid, seeds=seeds, experiment=experiment,
                              checkpoints=checkpoints, loss=loss, cache_dir=cache_dir,
                              spacing=spacing, comparators=comparators, bounds=bounds,
                              solver_time_limit=solver_time_limit, memory_limit=memory_limit,
                              tie=tie)
    streams = component_specs("stream", grid.get("streams"))
    learners = component_specs("learner", grid.get("learners"))
    comps = component_specs("comparator", grid.get("comparators")) if comparators else []
    if not streams or not learners:
        raise GridError("an experiment grid needs at least one stream and one learner")
    losses = [run_loss(loss, learner) for learner in learners]
    return [_task(experiment, seed, stream, learner, comps, checkpoints=checkpoints,
                  loss=learner_loss, cache_dir=cache_dir, spacing=spacing, bounds=bounds,
                  solver_time_limit=solver_time_limit, memory_limit=memory_limit, tie=tie)
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
        if not isinstance(block, dict) or set(block) - {*GROUPS, "loss", "seeds"}:
            raise GridError(f"grid.blocks[{number}] must be a mapping of "
                            f"{', '.join(GROUPS)} (and loss, seeds); got {block!r}")
        block = dict(block)
        # a block may set its own per-round loss (logistic OGD beside hinge OGD, say) and
        # seeds (one, for a stream that draws nothing: a bound-atlas witness)
        own = {k: block.pop(k) for k in ("loss", "seeds") if k in block}
        if "seeds" in own:
            if problem := seeds_problem(own["seeds"]):
                raise GridError(f"grid.blocks[{number}].seeds={own['seeds']!r}: {problem}")
            own["seeds"] = seed_list(own["seeds"])
        tasks += expand({"comparators": grid.get("comparators"), **block}, **{**common, **own})
    return tasks


def single_cell(stream: Any, learner: Any, comparator: Any, *, seeds: Iterable[int],
                experiment: str = "single", checkpoints: int | tuple[int, ...] = 25,
                loss: str | None = None, cache_dir: str | None = None, spacing: str = "log",
                comparators: bool = True, bounds: bool = True,
                solver_time_limit: float | None = None, memory_limit=None,
                tie: str | None = None) -> list[Task]:
    """The tasks of one composed stream x learner x comparator (``olbench learner=pa ...``)."""
    comps = [_plain(comparator)] if comparator is not None and comparators else []
    stream, learner = _plain(stream), _plain(learner)   # once, not once per seed
    loss = run_loss(loss, learner)
    return [_task(experiment, s, stream, learner, comps, checkpoints=checkpoints,
                  loss=loss, cache_dir=cache_dir, spacing=spacing, bounds=bounds,
                  solver_time_limit=solver_time_limit, memory_limit=memory_limit, tie=tie)
            for s in seeds]


def registry_key(spec: dict) -> str | None:
    """The registry key of the class a ``_target_`` spec builds (None if it has none)."""
    return getattr(component_class(spec["_target_"]), "key", None)


def _described(spec: dict) -> tuple[type, dict] | None:
    """The class of a spec and its hyper-parameters, defaults filled in; None when the spec
    describes no component (the checks of the configuration name the problem)."""
    try:
        cls = component_class(spec["_target_"])
    except Exception:
        return None
    params = params_of(spec)
    if set(params) - set(cls.param_names()):
        return None
    return cls, {**cls.param_defaults(), **params}


def cell_comparator(learner_spec: Any, comparator_spec: Any, *, chosen: bool) -> Any:
    """The comparator of a single cell (``olbench learner=hedge stream=experts``): the one
    chosen on the command line (``chosen``), refused naming the one to use if it measures
    another task than the learner's; otherwise the one that measures the learner's task
    (:data:`~olbench.learning_task.COMPARATOR_FOR`: the configured default for
    classification and regression, ``multiclass_best_fixed``, ``best_point`` on an OCO
    learner's feasible set and loss). Specs are ``_target_`` mappings or configs, read with
    their classes (nothing built); one describing no component is left to the checks."""
    if comparator_spec is None:
        return None
    learner_spec, comparator_spec = _plain(learner_spec), _plain(comparator_spec)
    learner, comparator = _described(learner_spec), _described(comparator_spec)
    if learner is None or comparator is None:
        return comparator_spec
    (cls, params), (comparator_cls, comparator_params) = learner, comparator
    task = cls.task_for(params)
    if chosen:
        problem = comparator_mismatch(comparator_cls, task, f"learner {cls.key}", "learner",
                                      loss=comparator_params.get("loss"))
        if problem:
            raise GridError(problem)
        return comparator_spec
    wanted = COMPARATOR_FOR.get(task)
    if wanted is None or registry_key(comparator_spec) == wanted \
            or task in ("classification", "regression"):
        return comparator_spec
    if task != "oco":      # multiclass: its own comparator, in place of the configured one
        return component_specs("comparator", [{"key": wanted, "params": {}}])[0]
    loss, domain, radius = cls.feasible_set(params)
    if radius is None:   # OGD without projection plays in all of R^d
        raise GridError(f"learner {cls.key} with radius=null plays anywhere in R^d: no "
                        f"point of a bounded set to compare with; set learner.radius (the "
                        f"ball best_point compares with) or run.comparators=false")
    return component_specs("comparator", [{"key": wanted, "params": {
        "loss": loss if loss in ("linear", "quadratic") else "linear",
        "domain": domain, "radius": float(radius)}}])[0]
