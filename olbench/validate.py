"""The whole configuration checked before anything runs: one line per problem.

The components (streams, learners, comparators) check their own parameters
(:func:`olbench.tasks.validate`); this module checks the rest of a composed config: the
``run.*`` options, the seeds, the loss, and the folders results and caches are written to.
Every problem is reported at once, so one invocation shows everything to fix.

>>> from omegaconf import OmegaConf
>>> cfg = OmegaConf.create({"loss": None, "grid": None, "run": {
...     "n_jobs": 0, "backend": "loky", "batch_size": "auto", "seeds": [0, -1],
...     "checkpoints": 25, "output_dir": "results", "cache_dir": None}})
>>> for line in config_problems(cfg): print(line)
run.n_jobs=0: must be a non-zero integer (-1: all cores, k > 0: k workers)
run.seeds=[0, -1]: seeds must be integers in [0, 2^63 - 1]; -1 is not
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from omegaconf import DictConfig, ListConfig, OmegaConf

#: the joblib backends that can return results as they finish (what olbench.grid needs;
#: joblib's "multiprocessing" cannot), plus Dask, set up by olbench.grid
BACKENDS = ("dask", "loky", "sequential", "threading")
MAX_SEED = 2**63 - 1


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _show(value: Any) -> str:
    if isinstance(value, (DictConfig, ListConfig)):
        value = OmegaConf.to_container(value, resolve=False)
    return repr(value) if isinstance(value, str) else str(value)


def seeds_problem(seeds: Any) -> str | None:
    """What is wrong with a list of seeds (None if nothing)."""
    if not isinstance(seeds, (list, tuple, ListConfig)):
        return "must be a list of integers, e.g. [0, 1, 2]"
    if len(seeds) == 0:
        return "is empty: no run would be made; give at least one seed, e.g. [0]"
    bad = [s for s in seeds if not _is_int(s) or not 0 <= s <= MAX_SEED]
    if bad:
        return f"seeds must be integers in [0, 2^63 - 1]; {_show(bad[0])} is not"
    if len(set(seeds)) < len(seeds):
        return "lists a seed twice (the same runs would be made twice)"
    return None


def writable_folder_problem(path: Any) -> str | None:
    """Why ``path`` cannot be used as (or created as) a folder to write into, or None."""
    if not isinstance(path, (str, Path)) or not str(path):
        return "must be a folder path"
    p = Path(path).expanduser()
    if p.exists() and not p.is_dir():
        return f"{str(p)!r} exists and is not a folder"
    existing = next(q for q in (p, *p.parents) if q.exists())
    if not existing.is_dir():
        return f"{str(existing)!r} is a file, so {str(p)!r} cannot be created"
    try:  # the real test (os.access says yes to root even where writing fails)
        with tempfile.TemporaryFile(dir=existing):
            pass
    except OSError as error:
        return f"cannot write in {str(existing)!r} ({error.strerror or error})"
    return None


def _n_jobs(v: Any) -> str | None:
    if not _is_int(v) or v == 0:
        return "must be a non-zero integer (-1: all cores, k > 0: k workers)"
    return None


def _backend(v: Any) -> str | None:
    return None if v in BACKENDS else "must be one of " + ", ".join(BACKENDS)


def _batch_size(v: Any) -> str | None:
    if v == "auto" or (_is_int(v) and v >= 1):
        return None
    return "must be 'auto' or an integer >= 1 (runs sent to a worker at a time)"


def _checkpoints(v: Any) -> str | None:
    from olbench.checkpoints import checkpoints_problem

    return checkpoints_problem(OmegaConf.to_container(v) if isinstance(v, ListConfig) else v)


def _spacing(v: Any) -> str | None:
    from olbench.checkpoints import spacing_problem

    return spacing_problem(v)


def _flag(v: Any) -> str | None:
    return None if isinstance(v, bool) else "must be true or false"


def _figures(v: Any) -> str | None:
    if isinstance(v, bool):
        return None
    from olbench.figures import FIGURES

    if isinstance(v, (list, tuple, ListConfig)) and all(isinstance(s, str) for s in v):
        unknown = sorted(set(v) - set(FIGURES))
        return (f"unknown figures {unknown}; registered: {', '.join(sorted(FIGURES))}"
                if unknown else None)
    return "must be true, false or a list of figure names (file stems)"


def _optional_text(v: Any) -> str | None:
    return None if v is None or isinstance(v, str) else "must be a string or null"


def _cache_dir(v: Any) -> str | None:
    return None if v is None else writable_folder_problem(v)


def _memory_limit(v: Any) -> str | None:
    from olbench.resources import size_problem

    return size_problem(v)


def _loss(v: Any) -> str | None:
    if v is None:
        return None
    from olbench.losses import get_loss

    try:
        get_loss(v)
    except (ValueError, TypeError) as error:
        return str(error)
    return None


#: run.<option> -> its check (options a config may lack are skipped)
RUN_CHECKS: dict[str, Callable[[Any], str | None]] = {
    "n_jobs": _n_jobs, "backend": _backend, "batch_size": _batch_size,
    "seeds": seeds_problem, "checkpoints": _checkpoints, "checkpoint_spacing": _spacing,
    "output_dir": writable_folder_problem, "cache_dir": _cache_dir,
    "force": _flag, "progress": _flag, "figures": _figures, "comparators": _flag, "bounds": _flag,
    "scheduler": _optional_text, "name": _optional_text, "memory_limit": _memory_limit}


def _unknown_keys(cfg: DictConfig) -> list[str]:
    """Keys added with ``+key=value`` that nothing reads (a typo would be ignored silently)."""
    from olbench.tasks import CONF_DIR

    known_top = {*OmegaConf.load(CONF_DIR / "config.yaml"), "stream", "learner", "comparator",
                 "run"} - {"defaults", "hydra"}
    known_run = set(OmegaConf.load(CONF_DIR / "run" / "default.yaml"))
    lines = [f"{key}={_show(cfg[key])}: unknown option; options: {', '.join(sorted(known_top))}"
             for key in cfg if key not in known_top]
    run = cfg.get("run")
    if isinstance(run, DictConfig):
        lines += [f"run.{key}={_show(run[key])}: unknown option; run options: "
                  f"{', '.join(sorted(known_run))}" for key in run if key not in known_run]
    return lines


def config_problems(cfg: DictConfig, overrides: Sequence[str] = (),
                    single_cell: bool = False) -> list[str]:
    """Every problem of the config outside the components, as ``key=value: what is wrong``.

    ``overrides``: the command line's; ``run.seeds`` given there for an experiment that
    declares its own ``grid.seeds`` would be ignored, so it is a problem (unless the command
    runs a single cell, which uses ``run.seeds``)."""
    problems = _unknown_keys(cfg)
    grid = cfg.get("grid")
    given = {o.split("=", 1)[0].lstrip("+~") for o in overrides}
    if ("run.seeds" in given and not single_cell and isinstance(grid, DictConfig)
            and grid.get("seeds") is not None):
        problems.append(f"run.seeds={_show(cfg.run.seeds)}: this experiment declares its own "
                        f"grid.seeds={_show(grid.seeds)}, which is what would run; override "
                        f"grid.seeds instead")

    def check(key: str, value: Any, rule: Callable[[Any], str | None]) -> None:
        problem = rule(value)
        if problem:
            problems.append(f"{key}={_show(value)}: {problem}")

    run = cfg.get("run") or {}
    for option, rule in RUN_CHECKS.items():
        if option in run:
            check(f"run.{option}", run[option], rule)
    if isinstance(grid, DictConfig) and grid.get("seeds") is not None:
        check("grid.seeds", grid.seeds, seeds_problem)
    if "loss" in cfg:
        check("loss", cfg.loss, _loss)
    return problems
