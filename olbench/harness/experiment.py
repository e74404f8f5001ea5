"""What a composed configuration runs: an experiment's grid or a single cell, its tasks, its
results folder, and how its report describes it.

``olbench experiment=novikoff`` runs the experiment's own grid (``grid:``, its ``grid.*``
overrides included); ``olbench learner=pa stream=noisy`` (any override of the stream,
learner or comparator group, or a configuration without a grid) runs the single cell of the
composed stream, learner and comparator. :func:`build_tasks` makes the tasks of either
(:mod:`olbench.harness.tasks`), :func:`results_folder` names their folder (same grid, same
folder, so that a re-run resumes).
"""

from __future__ import annotations

import hashlib
import shlex
from collections.abc import Sequence
from pathlib import Path

from omegaconf import DictConfig, ListConfig, OmegaConf, open_dict

from olbench import schema as col
from olbench.harness.tasks import Task, cell_comparator, expand, single_cell
from olbench.harness.validate import seed_list

CELL_GROUPS = (col.STREAM, col.LEARNER, col.COMPARATOR)


def override_keys(overrides: Sequence[str]) -> list[str]:
    """The keys the overrides set (``+learner.C=1`` -> ``learner.C``)."""
    return [o.split("=", 1)[0].lstrip("+~") for o in overrides]


def is_single_cell(overrides: Sequence[str]) -> bool:
    """Do the overrides ask for a single cell (a stream, learner or comparator group set, no
    experiment chosen)?"""
    keys = override_keys(overrides)
    if any(k == col.EXPERIMENT for k in keys):
        return False
    return any(k.split(".", 1)[0] in CELL_GROUPS for k in keys)


def runs_single_cell(cfg: DictConfig, overrides: Sequence[str]) -> bool:
    return is_single_cell(overrides) or cfg.grid is None


def needs_selection(cfg: DictConfig, overrides: Sequence[str] = ()) -> bool:
    """Does what runs have a parameter-selection stage (an experiment's ``select:`` block)?"""
    return not runs_single_cell(cfg, overrides) and cfg.get("select") is not None


def selection_stage(cfg: DictConfig):
    """Run an experiment's parameter-selection stage (its ``select:`` block names the
    procedure, registered by a study file: :mod:`olbench.harness.selection`): per-stream
    grids with the chosen values, the selection table and ``{learner name: algorithm
    name}`` (a :class:`~olbench.harness.selection.Selection`)."""
    from olbench.harness.selection import select_grid

    return select_grid(cfg.grid, cfg.select, cache_dir=cfg.run.cache_dir)


def task_checkpoints(value) -> int | tuple[int, ...]:
    """``run.checkpoints`` as a task holds it: a count, or a sorted tuple of rounds."""
    if isinstance(value, (ListConfig, list, tuple)):
        return tuple(sorted({int(v) for v in value}))
    return int(value)


def solver_time_limit(value) -> float | None:
    """``run.solver_time_limit`` as seconds (a number, or the text of one from the
    environment variable its default reads; null: the solvers' default).

    >>> solver_time_limit(30), solver_time_limit("2.5"), solver_time_limit(None)
    (30.0, 2.5, None)
    """
    return None if value is None else float(value)


def build_tasks(cfg: DictConfig, overrides: Sequence[str] = (), grids: list | None = None
                ) -> tuple[str, list[Task]]:
    """The experiment's name and its tasks, from a composed config. An experiment with a
    ``select:`` block runs the ``grids`` its selection stage chose (:func:`selection_stage`);
    without them, its learners at their configured values (nothing is run here)."""
    common = dict(checkpoints=task_checkpoints(cfg.run.checkpoints), loss=cfg.loss,
                  cache_dir=cfg.run.cache_dir, spacing=cfg.run.get("checkpoint_spacing", "log"),
                  comparators=cfg.run.get("comparators", True), bounds=cfg.run.get("bounds", True),
                  solver_time_limit=solver_time_limit(cfg.run.get("solver_time_limit")),
                  memory_limit=cfg.run.get("memory_limit"), tie=cfg.run.get("tie"))
    if runs_single_cell(cfg, overrides):
        chosen = any(k.split(".")[0] == col.COMPARATOR for k in override_keys(overrides))
        comparator = cell_comparator(cfg.learner, cfg.get("comparator"), chosen=chosen)
        configured = cfg.get("comparator")
        if comparator is not None and comparator != OmegaConf.to_container(configured,
                                                                             resolve=True):
            with open_dict(cfg):   # what the report and config.yaml say ran
                cfg.comparator = comparator
        # name=... names a single cell's folder too (else "single", not the default
        # experiment's name, which the composed config carries)
        name = cfg.name if "name" in override_keys(overrides) else "single"
        return name, single_cell(cfg.stream, cfg.learner, comparator, experiment=name,
                                 seeds=seed_list(cfg.run.seeds), **common)
    seeds = seed_list(cfg.grid.get("seeds") or cfg.run.seeds)  # an experiment's own seeds
    if cfg.get("select") is None:
        return cfg.name, expand(cfg.grid, experiment=cfg.name, seeds=seeds, **common)
    from olbench.harness.selection import without_selection

    grids = [without_selection(cfg.grid)] if grids is None else grids
    return cfg.name, [t for g in grids
                      for t in expand(g, experiment=cfg.name, seeds=seeds, **common)]


def results_folder(cfg: DictConfig, name: str, tasks: list[Task]) -> Path:
    """Same grid, same folder (so a re-run resumes); ``run.name`` overrides the hash."""
    digest = hashlib.sha256("".join(sorted(t.run_id for t in tasks)).encode()).hexdigest()[:10]
    return Path(cfg.run.output_dir) / name / (cfg.run.name or digest)


def changed_grid(cfg: DictConfig, overrides: Sequence[str] = ()
                 ) -> tuple[str, list[str]] | None:
    """The experiment whose grid ``overrides`` changed (``grid.*``) and those overrides;
    None when an experiment runs its own grid, and for a single cell."""
    from olbench.harness.listing import _default_choice

    if runs_single_cell(cfg, overrides):
        return None
    keys = override_keys(overrides)
    changes = [o for o, k in zip(overrides, keys) if k.split(".", 1)[0] == "grid"]
    chosen = [o.split("=", 1)[1] for o, k in zip(overrides, keys) if k == col.EXPERIMENT]
    experiment = chosen[-1] if chosen else _default_choice(col.EXPERIMENT) or str(cfg.name)
    return (experiment, changes) if changes else None


def described_grid(cfg: DictConfig, overrides: Sequence[str] = ()) -> tuple[str | None, str]:
    """The question and the configuration text of what runs: an experiment's own (no
    question when overrides changed its grid: :func:`changed_grid`), or for a single cell
    its stream, learner, comparator, seeds and loss (never the default experiment's question
    and grid, which did not run)."""
    if not runs_single_cell(cfg, overrides):
        question = None if changed_grid(cfg, overrides) else cfg.question
        return question, OmegaConf.to_yaml(cfg.grid)
    cell = {g: cfg.get(g) for g in CELL_GROUPS} | {"seeds": cfg.run.seeds, "loss": cfg.loss}
    return None, OmegaConf.to_yaml(OmegaConf.create(cell))


def command_line(overrides: Sequence[str]) -> str:
    """The ``olbench`` command that reruns this grid (into the same folder)."""
    return " ".join(["olbench", *map(shlex.quote, overrides)])
