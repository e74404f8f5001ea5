"""The notebook API: one call runs what the ``olbench`` command runs and returns its results.

:func:`run_experiment` takes what the command line takes (an experiment, seeds, Hydra
overrides, or the same as keyword arguments), runs it through the same pipeline
(:func:`olbench.pipeline.run`: same results folder, so a re-run resumes, same report, same
index entry; the command line is not involved) and returns a :class:`Results`:
the tidy table, the summary, the figures, the LaTeX table and the folder. :func:`load_results`
opens a folder written earlier (by path, or an experiment's latest).

>>> import tempfile
>>> res = run_experiment(learner="pa", stream="separable", seeds=[0, 1], quiet=True,
...                      output_dir=tempfile.mkdtemp(), figures=False, n_jobs=1,
...                      **{"stream.n": 200, "learner.C": 0.5})
>>> res.status, res.table["run_id"].nunique(), res.summary["learner"].tolist()
(0, 2, ['PA[C=0.5,variant=pa1]'])
>>> res.latex.splitlines()[5].startswith("PA-I (C=0.5) & $")
True
"""

from __future__ import annotations

import contextlib
import io
import numbers
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from olbench.analysis.index import resolve
from olbench.harness.experiment import is_single_cell
from olbench.pipeline import Results

__all__ = ["Results", "argument_problems", "load_results", "overrides_for", "run_experiment"]


def _literal(value: Any) -> str:
    """A Python value as a Hydra override value.

    >>> _literal(True), _literal(None), _literal([0, 1]), _literal(0.5), _literal("pa")
    ('true', 'null', '[0,1]', '0.5', 'pa')
    """
    if isinstance(value, bool):
        return str(value).lower()
    if value is None:
        return "null"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(map(_literal, value)) + "]"
    return str(value)


def _flatten(params: Mapping[str, Any], prefix: str = "") -> list[str]:
    """Keyword arguments as overrides; a group's mapping may choose its config with ``key``.

    >>> _flatten({"stream": {"key": "noisy", "n": 300}, "learner": {"C": 2}, "loss": "hinge"})
    ['stream=noisy', 'stream.n=300', 'learner.C=2', 'loss=hinge']
    """
    out = []
    for key, value in params.items():
        if isinstance(value, Mapping):
            value = dict(value)
            if not prefix and "key" in value:
                out.append(f"{key}={value.pop('key')}")
            out += _flatten(value, f"{prefix}{key}.")
        else:
            out.append(f"{prefix}{key}={_literal(value)}")
    return out


def overrides_for(experiment: str | None = None, *, seeds: Iterable[int] | None = None,
                  overrides: Iterable[str] = (), **params: Any) -> list[str]:
    """The command-line overrides of a :func:`run_experiment` call: ``olbench`` + these
    is the same run. Seeds go to the experiment's grid (``grid.seeds``), or to ``run.seeds``
    for a single cell.

    >>> overrides_for("novikoff", seeds=[0, 1], run={"n_jobs": 1})
    ['experiment=novikoff', 'run.n_jobs=1', 'grid.seeds=[0,1]']
    >>> overrides_for(learner="pa", seeds=[3], overrides=["learner.C=2"])
    ['learner=pa', 'learner.C=2', 'run.seeds=[3]']
    """
    out = ([f"experiment={experiment}"] if experiment else []) + _flatten(params)
    out += list(overrides)
    if seeds is not None:
        where = "run" if is_single_cell(out) else "grid"
        out.append(f"{where}.seeds={_seeds_literal(seeds)}")
    return out


def _seeds_literal(seeds: Iterable[int]) -> str:
    """Seeds as an override value: many evenly spaced seeds as ``range(...)`` (a list of
    20,000 takes Hydra's parser minutes; :func:`olbench.harness.validate.seed_list` reads it).

    >>> _seeds_literal([3, 1]), _seeds_literal(range(20000)), _seeds_literal(range(0, 40, 2))
    ('[3,1]', 'range(0,20000,1)', 'range(0,40,2)')
    """
    seeds = [int(s) for s in seeds]
    step = seeds[1] - seeds[0] if len(seeds) > 1 else 0
    if len(seeds) > 10 and step > 0 and seeds == list(range(seeds[0], seeds[-1] + 1, step)):
        return f"range({seeds[0]},{seeds[-1] + step},{step})"
    return _literal(seeds)


def argument_problems(experiment: Any = None, seeds: Any = None, overrides: Any = (),
                      **options: Any) -> list[str]:
    """What is wrong with the types of :func:`run_experiment`'s arguments (one line each).

    >>> for line in argument_problems(seeds=5, overrides="learner.C=2", output_dir=3):
    ...     print(line)         # doctest: +NORMALIZE_WHITESPACE
    seeds=5: must be a list of seeds (integers), e.g. [5] for seed 5 or range(5) for seeds 0
      to 4
    overrides='learner.C=2': must be a list of override strings, e.g. ['learner.C=2']
    output_dir=3: must be a folder path (a str or a pathlib.Path) or None
    """
    problems = []
    if experiment is not None and not isinstance(experiment, str):
        problems.append(f"experiment={experiment!r}: must be an experiment's name (a str) or "
                        f"None (a single cell)")
    if seeds is not None:
        if isinstance(seeds, (str, bytes, Mapping)) or not isinstance(seeds, Iterable):
            problems.append(f"seeds={seeds!r}: must be a list of seeds (integers), e.g. "
                            f"[{seeds!r}] for seed {seeds!r} or range({seeds!r}) for seeds 0 "
                            f"to {seeds - 1}" if _is_integer(seeds) else
                            f"seeds={seeds!r}: must be a list of seeds (integers), e.g. [0, 1]"
                            f" or range(10)")
        else:
            bad = [s for s in seeds if not _is_integer(s)]
            if bad:
                problems.append(f"seeds: must be integers; {bad[0]!r} is a "
                                f"{type(bad[0]).__name__}")
    if isinstance(overrides, (str, bytes)) or not isinstance(overrides, Iterable) or any(
            not isinstance(o, str) for o in overrides):
        problems.append(f"overrides={overrides!r}: must be a list of override strings, e.g. "
                        f"['learner.C=2']")
    for name in ("output_dir", "cache_dir"):
        value = options.get(name)
        if value is not None and not isinstance(value, (str, Path)):
            problems.append(f"{name}={value!r}: must be a folder path (a str or a "
                            f"pathlib.Path) or None")
    value = options.get("n_jobs")
    if value is not None and not _is_integer(value):
        problems.append(f"n_jobs={value!r}: must be an integer (-1: all cores) or None")
    for name in ("quiet", "comparators", "bounds", "figures"):
        value = options.get(name)
        listed = name == "figures" and isinstance(value, (list, tuple))
        if value is not None and not isinstance(value, bool) and not listed:
            problems.append(f"{name}={value!r}: must be True, False or None"
                            + (" (or a list of figure names)" if name == "figures" else ""))
    return problems


def _is_integer(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def run_experiment(experiment: str | None = None, *, seeds: Iterable[int] | None = None,
                   overrides: Iterable[str] = (), output_dir: str | Path | None = None,
                   cache_dir: str | Path | None = None, n_jobs: int | None = None,
                   figures: bool | None = None, quiet: bool = False,
                   comparators: bool | None = None, bounds: bool | None = None,
                   **params: Any) -> Results:
    """Run an experiment (``"novikoff"``), or a single cell (``learner="pa", stream="noisy"``),
    as ``olbench`` would, and return its :class:`Results`.

    ``overrides``: Hydra overrides as on the command line (``["learner.eta=0.5"]``);
    ``params``: the same as keywords: a config per group (``learner="pa"``), a mapping per
    group that may name the config (``stream={"key": "noisy", "n": 500}``), or dotted
    (``**{"stream.n": 500}``); ``seeds``: the experiment's seeds (or the cell's);
    ``output_dir``, ``cache_dir``, ``n_jobs``, ``figures``, ``comparators``, ``bounds``:
    ``run.output_dir``, ``run.cache_dir``, ``run.n_jobs``, ``run.figures`` (None: the
    experiment's choice, by default every figure), ``run.comparators``, ``run.bounds``;
    ``quiet``: do not print the summary. Everything is written under ``output_dir`` (default
    ``results``): the results folder, the index, ``latest/`` and, unless ``cache_dir`` says
    otherwise, the cache of comparator fits (``<output_dir>/.olbench_cache``). Bad names or
    parameters raise ``ValueError`` before anything runs (every problem at once), arguments
    of the wrong type (``seeds=5``: give ``[5]`` or ``range(5)``) ``TypeError``. The
    progress bar is off.
    """
    from hydra import compose, initialize_config_dir

    from olbench import pipeline
    from olbench.harness.listing import check_overrides, with_option_appends
    from olbench.harness.overrides import prepared
    from olbench.harness.tasks import CONF_DIR
    from olbench.harness.validate import invalid_configuration

    problems = argument_problems(experiment, seeds, overrides, output_dir=output_dir,
                                 cache_dir=cache_dir, n_jobs=n_jobs, figures=figures,
                                 quiet=quiet, comparators=comparators, bounds=bounds)
    if problems:
        raise TypeError(f"run_experiment: {len(problems)} argument{'s' * (len(problems) > 1)} "
                        f"of the wrong type:\n  " + "\n  ".join(problems))
    run = {"progress": False} | ({"figures": figures} if figures is not None else {})
    run |= {k: str(v) for k, v in (("output_dir", output_dir), ("cache_dir", cache_dir))
            if v is not None}
    run |= {k: v for k, v in (("n_jobs", n_jobs), ("comparators", comparators),
                              ("bounds", bounds)) if v is not None}
    args = overrides_for(experiment, seeds=seeds, overrides=overrides, **params)
    args += [o for o in _flatten({"run": run}) if o.split("=")[0] not in
             {a.split("=")[0] for a in args}]
    args, problems = prepared(with_option_appends(args), pipeline.problems_of)
    unknown = check_overrides(args)
    problems += [unknown] if unknown else []
    if problems:
        raise ValueError(invalid_configuration(problems))
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base=None):
        cfg = compose("config", overrides=args)
    out = io.StringIO()
    with contextlib.redirect_stdout(out) if quiet else contextlib.nullcontext():
        return pipeline.run(cfg, args)


def load_results(spec: str | Path, output_dir: str | Path = "results") -> Results:
    """The results of a folder (a path, or ``experiment/name`` under ``output_dir``) or of
    an experiment's newest folder (:func:`olbench.analysis.index.latest`: the ``latest`` pointer,
    else the newest folder of the index, else the committed ``<experiment>/canonical``, so
    ``load_results("novikoff")`` works in a fresh clone). A committed folder holds the
    summary only: ``summary``, ``latex``, ``report`` and ``figures`` work, ``table`` says how
    to recreate it."""
    return Results(resolve(spec, output_dir))
