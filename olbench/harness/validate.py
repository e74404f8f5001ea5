"""The whole configuration checked before anything runs: one line per problem.

The components (streams, learners, comparators) check their own parameters
(:func:`olbench.harness.task_checks.validate`); this module checks the rest of a composed
config: the ``run.*`` options, the seeds, the loss, and the folders results and caches are
written to.
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

import re
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from omegaconf import DictConfig, ListConfig, OmegaConf

#: the joblib backends that can return results as they finish (what olbench.harness.grid needs;
#: joblib's "multiprocessing" cannot), plus Dask, set up by olbench.harness.grid
BACKENDS = ("dask", "loky", "sequential", "threading")
MAX_SEED = 2**63 - 1


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _show(value: Any) -> str:
    if isinstance(value, (DictConfig, ListConfig)):
        value = OmegaConf.to_container(value, resolve=False)
    return repr(value) if isinstance(value, str) else str(value)


_RANGE = re.compile(r"range\((\d+)(?:,(\d+))?(?:,(\d+))?\)")


def _range_numbers(seeds: Any) -> list[int] | None:
    found = _RANGE.fullmatch(seeds.replace(" ", "")) if isinstance(seeds, str) else None
    return None if found is None else [int(g) for g in found.groups() if g is not None]


def seed_list(seeds: Any) -> list:
    """Seeds as a list: a list as given, or the text ``range(stop)`` /
    ``range(start,stop[,step])`` as the integers it names (many seeds without a list of that
    length on the command line, which Hydra parses in time quadratic in its length).

    >>> seed_list("range(3)"), seed_list("range(10, 16, 2)"), seed_list([4, 1])
    ([0, 1, 2], [10, 12, 14], [4, 1])
    """
    numbers = _range_numbers(seeds)
    return list(seeds) if numbers is None else list(range(*numbers))


def seeds_problem(seeds: Any) -> str | None:
    """What is wrong with a list of seeds, or a ``range(...)`` of them (None if nothing)."""
    numbers = _range_numbers(seeds)
    if numbers is not None:
        if len(numbers) == 3 and numbers[2] == 0:
            return "range() step must not be zero"
        seeds = range(*numbers)   # distinct by construction; only its ends to check
        if not seeds:
            return "is empty: no run would be made; give at least one seed, e.g. [0]"
        last = max(seeds[0], seeds[-1])
        return None if last <= MAX_SEED else f"seeds must be integers in [0, 2^63 - 1]; " \
                                             f"{last} is not"
    if not isinstance(seeds, (list, tuple, ListConfig)):
        return "must be a list of integers, e.g. [0, 1, 2], or range(N) for seeds 0 .. N-1"
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
    """The option's shape; which names exist is the figures' own check (the analysis wing's
    :func:`olbench.analysis.figures.figure_problems`, called by the front with this one)."""
    if isinstance(v, bool) or (isinstance(v, (list, tuple, ListConfig))
                               and all(isinstance(s, str) for s in v)):
        return None
    return "must be true, false or a list of figure names (file stems)"


def _optional_text(v: Any) -> str | None:
    return None if v is None or isinstance(v, str) else "must be a string or null"


def folder_name_problem(name: Any) -> str | None:
    """Why ``name`` cannot be one folder inside the results folder (None if it can): a
    results name is one path component, so that nothing is written outside
    ``run.output_dir``.

    >>> folder_name_problem("mine"), folder_name_problem("../escaped")
    (None, "must be one folder name, without '/' or '..' (results stay inside run.output_dir)")
    """
    if isinstance(name, (int, float)) and not isinstance(name, bool):
        return (f"must be text, but the command line read {name!r} as a number: quote it, "
                f"e.g. name='\"{name}\"'")
    if not isinstance(name, str) or not name:
        return "must be a non-empty folder name"
    if len(name.encode()) > 255:
        return f"is {len(name.encode())} bytes long; a folder name may have at most 255"
    if (name in (".", "..") or any(c in name for c in "/\\\0")
            or Path(name).is_absolute() or Path(name).name != name):
        return "must be one folder name, without '/' or '..' (results stay inside run.output_dir)"
    return None


def _run_name(v: Any) -> str | None:
    return None if v is None else folder_name_problem(v)


def _cache_dir(v: Any) -> str | None:
    return None if v is None else writable_folder_problem(v)


def _data_dir(v: Any) -> str | None:
    """The folder datasets are looked for first, and downloaded into (made when missing):
    a path that is a file cannot be it (a typo of the folder would otherwise be skipped)."""
    if v is None:
        return None
    if not isinstance(v, (str, Path)) or not str(v):
        return "must be a folder path"
    p = Path(v).expanduser()
    if p.exists() and not p.is_dir():   # (a read-only folder is fine: only read from)
        return f"{str(p)!r} exists and is not a folder"
    return None


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


def _tie(v: Any) -> str | None:
    from olbench.losses import TIE_RULES

    if v is None or v in TIE_RULES:
        return None
    return f"is not a tie rule: null (each learner's own) or one of {', '.join(TIE_RULES)}"


def _seconds(v: Any) -> str | None:
    if v is None:
        return None
    try:
        ok = not isinstance(v, bool) and float(v) >= 0
    except (TypeError, ValueError):
        ok = False
    return None if ok else "must be a number of seconds >= 0"


def _positive_seconds(v: Any) -> str | None:
    ok = not isinstance(v, bool) and isinstance(v, (int, float)) and 0 < v < float("inf")
    return None if ok else "must be a number of seconds > 0"


#: run.<option> -> its check (options a config may lack are skipped)
RUN_CHECKS: dict[str, Callable[[Any], str | None]] = {
    "n_jobs": _n_jobs, "backend": _backend, "batch_size": _batch_size,
    "seeds": seeds_problem, "checkpoints": _checkpoints, "checkpoint_spacing": _spacing,
    "output_dir": writable_folder_problem, "cache_dir": _cache_dir,
    "force": _flag, "progress": _flag, "figures": _figures, "comparators": _flag, "bounds": _flag,
    "scheduler": _optional_text, "name": _run_name, "solver_time_limit": _seconds,
    "scheduler_timeout": _positive_seconds, "memory_limit": _memory_limit, "data_dir": _data_dir,
    "tie": _tie}


def _unknown_keys(cfg: DictConfig) -> list[str]:
    """Keys added with ``+key=value`` that nothing reads (a typo would be ignored silently)."""
    from olbench.harness.tasks import CONF_DIR

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


def invalid_configuration(problems: Sequence[str]) -> str:
    """Problems as one message: one problem as it is; several under ``invalid
    configuration (2 problems):``, one per line."""
    if len(problems) == 1:
        return problems[0]
    return (f"invalid configuration ({len(problems)} problems):\n  "
            + "\n  ".join(p.replace("\n", "\n    ") for p in problems))


#: a component group on the command line -> the grid's list of that group
GRID_LISTS = {"stream": "streams", "learner": "learners", "comparator": "comparators"}


def ignored_cell_overrides(cfg: DictConfig, overrides: Sequence[str]) -> list[str]:
    """``learner=pa`` or ``stream.gamma=0.2`` beside an experiment, which runs its own grid
    and would ignore them: one problem each, with the ``grid.*`` override that would work.

    >>> cfg = OmegaConf.create({"name": "novikoff", "grid": {"learners": ["perceptron"]}})
    >>> print(ignored_cell_overrides(cfg, ["experiment=novikoff", "learner=pa"])[0])
    ... # doctest: +NORMALIZE_WHITESPACE
    learner=pa: experiment novikoff runs its own grid, which this would not change; choose
    its learners with grid.learners=[pa]
    """
    grid = cfg.get("grid")
    choice = {o.split("=", 1)[0].lstrip("+~"): o.split("=", 1)[1] for o in overrides
              if "=" in o and o.split("=", 1)[0].lstrip("+~") in GRID_LISTS}
    problems = []
    for override in overrides:
        key, _, value = override.lstrip("+~").partition("=")
        group, dot, name = key.partition(".")
        if group not in GRID_LISTS:
            continue
        where = (f"grid.blocks.<i>.{GRID_LISTS[group]}" if isinstance(grid, DictConfig)
                 and grid.get("blocks") is not None and group != "comparator"
                 else f"grid.{GRID_LISTS[group]}")
        chosen = choice.get(group) or _registry_key(cfg.get(group)) or "<key>"
        entry = f"{{key: {chosen}, params: {{{name}: {value}}}}}" if dot else value
        problems.append(f"{override}: experiment {cfg.get('name')} runs its own grid, which "
                        f"this would not change; choose its {GRID_LISTS[group]} with "
                        f"{where}=[{entry}]")
    return problems


def _registry_key(spec: Any) -> str | None:
    if not isinstance(spec, DictConfig) or "_target_" not in spec:
        return None
    from olbench.harness.tasks import registry_key

    return registry_key({"_target_": spec._target_})


def config_problems(cfg: DictConfig, overrides: Sequence[str] = (),
                    single_cell: bool = False) -> list[str]:
    """Every problem of the config outside the components, as ``key=value: what is wrong``.

    ``overrides``: the command line's; ``run.seeds`` given there for an experiment that
    declares its own ``grid.seeds`` would be ignored, so it is a problem (unless the command
    runs a single cell, which uses ``run.seeds``)."""
    problems = _unknown_keys(cfg)
    grid = cfg.get("grid")
    given = {o.split("=", 1)[0].lstrip("+~") for o in overrides}
    if not single_cell and isinstance(grid, DictConfig):
        problems += ignored_cell_overrides(cfg, overrides)
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
    if run.get("scheduler") is not None and run.get("backend") != "dask":
        problems.append(f"run.scheduler={_show(run.scheduler)}: only run.backend=dask "
                        f"uses a scheduler (run.backend={_show(run.get('backend'))}); add "
                        f"run.backend=dask, or leave run.scheduler out")
    if "name" in cfg:
        check("name", cfg.name, folder_name_problem)   # the experiment's (or cell's) folder
    if isinstance(grid, DictConfig) and grid.get("seeds") is not None:
        check("grid.seeds", grid.seeds, seeds_problem)
    if "loss" in cfg:
        check("loss", cfg.loss, _loss)
    return problems
