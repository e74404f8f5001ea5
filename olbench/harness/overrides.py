"""The command line's overrides checked before Hydra composes them: every problem at once.

Hydra finds some mistakes only while composing, one at a time, with a traceback-like text
and exit status 1: a config name that does not exist (``learner=percepton``), several values
without ``-m`` (``experiment=novikoff,regret``), a grid path that does not exist
(``grid.blocks.9.learners=[pa]``: "list index out of range", ``full_key: grid.blocks[9]``),
a parameter a grid entry does not have (``grid.blocks.0.learners.0.params.Cc=1``: "Key 'Cc'
is not in struct"). :func:`prepared` finds them all first, each named with what would work,
so that ``olbench`` says them together and exits 2 (a usage error), as for the rest of the
configuration (:mod:`olbench.harness.validate`). It also rewrites what Hydra would refuse but means
one thing: ``run.seeds=range(20000)`` outside a multirun (the seeds 0 .. 19999, given as the
text ``'range(20000)'``: :func:`olbench.harness.validate.seed_list`), and a parameter a grid entry's
``params`` leaves out but its component has (``grid.learners.0.params.init=randn``: appended
with ``+``, as :func:`olbench.harness.listing.with_option_appends` does for a single cell).

>>> prepared(["learner=percepton", "experiment=novikoff,regret"])[1]  # doctest: +ELLIPSIS
["learner=percepton: no learner 'percepton' (did you mean perceptron?); ...", ...]
>>> prepared(["run.seeds=range(3)"])[0]
["run.seeds='range(3)'"]
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from olbench.harness.listing import _default_choice, _parse, choices, parameters, unknown_parameter

#: groups chosen by name on the command line (``learner=pa``)
CHOSEN_GROUPS = ("learner", "stream", "comparator", "run", "experiment")
#: a grid's lists of components -> the group of their entries
ENTRY_GROUPS = {"streams": "stream", "learners": "learner", "comparators": "comparator"}
SEED_KEYS = ("run.seeds", "grid.seeds")
#: the checks of a composed configuration and its overrides -> the problems found
ProblemsOf = Callable[[Any, list[str]], list[str]]


def is_multirun(arguments: Sequence[str]) -> bool:
    return any(a in ("-m", "--multirun") for a in arguments)


def prepared(arguments: Sequence[str], problems_of: ProblemsOf | None = None
             ) -> tuple[list[str], list[str]]:
    """The arguments as Hydra should get them, and the problems found (empty: none); with
    problems, those of the rest of the configuration too (:func:`problems_without`), where
    the caller gives the checks of a composed configuration (``problems_of``: the front's,
    which knows every wing's checks)."""
    out, problems, wrong = _prepared(arguments)
    if problems and problems_of is not None and not is_multirun(arguments):
        problems += [p for p in problems_without(out, wrong, problems_of) if p not in problems]
    return out, problems


def problems_without(arguments: Sequence[str], wrong: set[str], problems_of: ProblemsOf
                     ) -> list[str]:
    """The problems of the configuration the arguments compose without those found wrong
    before composing (and without the parameters of a group whose name was wrong), so that
    one invocation says them all; none where it does not compose even so."""
    from hydra import compose, initialize_config_dir

    from olbench.harness.tasks import CONF_DIR

    groups = {a.split("=", 1)[0] for a in wrong if "." not in a.split("=", 1)[0]}
    kept = [a for a in arguments if a not in wrong and not a.startswith("-")
            and a.lstrip("+~").split("=", 1)[0].split(".")[0] not in groups]
    try:
        with initialize_config_dir(config_dir=str(CONF_DIR), version_base=None):
            cfg = compose("config", overrides=kept)
        return problems_of(cfg, kept)
    except Exception:   # e.g. an experiment of the user's own folder: said when composed
        return []


def _prepared(arguments: Sequence[str]) -> tuple[list[str], list[str], set[str]]:
    multirun = is_multirun(arguments)
    out, problems, wrong = [], [], set()
    experiments = _chosen_experiments(arguments)
    folders = config_folders(arguments)
    for argument in arguments:
        o = _parse(argument)
        if o is None or argument.startswith("-"):   # flags, and text Hydra reports itself
            out.append(argument)
            continue
        key = o.key_or_group
        if key in SEED_KEYS and o.is_sweep_override() and not multirun \
                and o.value_type.name == "RANGE_SWEEP":
            out.append(f"{key}='{argument.split('=', 1)[1].replace(' ', '')}'")
            continue
        found = len(problems)
        if o.is_sweep_override() and not multirun:
            problems.append(f"{argument}: several values run only as a multirun: add -m "
                            f"(olbench -m {argument} ...), one job per value")
        if key in CHOSEN_GROUPS and o.type.name in ("CHANGE", "ADD") and folders is not None:
            problems += _unknown_choices(argument, key, o, folders)
        if key.startswith("grid.") and o.type.name == "CHANGE":
            problem, append = _grid_path_problem(key, experiments)
            if problem:
                problems.append(f"{argument}: {problem}")
            argument = "+" + argument if append else argument
        if len(problems) > found:
            wrong.add(argument)
        out.append(argument)
    return out, problems, wrong


def _values(o) -> list[str]:
    return list(o.sweep_string_iterator()) if o.is_sweep_override() else [str(o.value())]


def config_folders(arguments: Sequence[str]) -> list[Path] | None:
    """The config folders a command adds to ``conf/`` (``--config-dir``/``-cd``, and
    ``hydra.searchpath``'s ``file://`` entries), where a user's own experiment may be; None
    when one is not a folder here (a ``pkg://`` entry), so choices cannot be listed."""
    folders = []
    for i, argument in enumerate(arguments):
        if argument in ("--config-dir", "-cd") and i + 1 < len(arguments):
            folders.append(Path(arguments[i + 1]))
        elif argument.startswith("--config-dir="):
            folders.append(Path(argument.split("=", 1)[1]))
        o = None if argument.startswith("-") else _parse(argument)
        if o is not None and o.key_or_group == "hydra.searchpath" and o.type.name == "CHANGE":
            for entry in o.value() if isinstance(o.value(), list) else [o.value()]:
                if not str(entry).startswith("file://"):
                    return None
                folders.append(Path(str(entry)[len("file://"):]))
    return folders


def _unknown_choices(argument: str, group: str, o, folders: list[Path]) -> list[str]:
    known = sorted({*choices(group), *(p.stem for f in folders
                                       for p in (f / group).glob("*.yaml"))})
    lines = []
    for value in _values(o):
        if value in known or value == "None":   # experiment=null: no experiment
            continue
        close = difflib.get_close_matches(value, known, n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        lines.append(f"{argument}: no {group} {value!r}{hint}; the {group}s: "
                     f"{', '.join(known)} (olbench --list {group})")
    return lines


def _chosen_experiments(arguments: Sequence[str]) -> list[str]:
    chosen = [_default_choice("experiment")]
    for o in filter(None, map(_parse, arguments)):
        if o.key_or_group == "experiment" and o.type.name == "CHANGE":
            chosen = _values(o)
    return [e for e in chosen if e in choices("experiment")]


def _grid_of(experiment: str) -> Any:
    from olbench.harness.listing import _read_config

    return _read_config("experiment", experiment).get("grid")


def _grid_path_problem(key: str, experiments: list[str]) -> tuple[str | None, bool]:
    """What is wrong with the path ``grid.<...>`` in each chosen experiment's grid (None if
    nothing), and whether the override must be an append (a parameter a grid entry's
    ``params`` leaves out, that its component has)."""
    append = False
    for experiment in experiments:
        problem, adds = _walk(_grid_of(experiment), key.split(".")[1:], "grid", experiment)
        if problem:
            return f"experiment {experiment}: {problem}", False
        append = append or adds
    return None, append


def _walk(node: Any, path: list[str], where: str, experiment: str,
          group: str | None = None, entry: Any = None) -> tuple[str | None, bool]:
    if not path:
        return None, False
    step, rest = path[0], path[1:]
    if isinstance(node, list):
        if not step.isdigit() or int(step) >= len(node):
            return (f"{where} has {len(node)} entr{'y' if len(node) == 1 else 'ies'} "
                    f"(indices 0 to {len(node) - 1}), so {where}.{step} does not exist; "
                    f"give the whole list, {where}=[...]"), False
        item = node[int(step)]
        return _walk(item, rest, f"{where}.{step}", experiment, group, item)
    if isinstance(node, dict):
        if where.endswith(".params") and group is not None:
            key = entry.get("key") if isinstance(entry, dict) else None
            if step in node:
                return None, False
            if key in choices(group) and step in {p.name for p in parameters(group, key)}:
                return None, not rest          # a parameter its params leave out: append
            return unknown_parameter(group, key, step), False
        if step not in node:
            if step == "params" and isinstance(entry, dict):   # an entry with no params yet
                return _walk({}, rest, f"{where}.params", experiment, group, entry)
            return (f"{where} has no {step!r}; it has {', '.join(map(str, node)) or 'nothing'}"
                    ), False
        return _walk(node[step], rest, f"{where}.{step}", experiment,
                     ENTRY_GROUPS.get(step, group), entry)
    if isinstance(node, str) and group is not None:   # an entry given by its key alone
        return (f"{where} is {node!r}, which has no {'.'.join(path)}; set the entry whole, "
                f"e.g. {where}={{key: {node}, params: {{...}}}}"), False
    return f"{where} is {node!r}, which has no {'.'.join(path)}", False
