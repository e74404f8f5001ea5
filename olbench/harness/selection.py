"""An experiment's parameter-selection stage: run once before the grid (by
:func:`olbench.pipeline.plan`), it chooses parameters of the grid's learners on each stream,
and the grid then runs each stream with the values chosen on it.

How the values are chosen belongs to a study: a *selection procedure* registered with
:func:`selection_procedure` by a file under ``experiments/<study>/`` that the experiment's
config names in ``modules:`` (:mod:`olbench.harness.studies`), e.g. LIBOL's ``CV_algorithm.m``
(``experiments/libol_table/selection.py``, procedure ``libol_cv``). The experiment's
``select:`` block names the procedure and gives its options; its learner entries may carry
two fields besides ``key``, ``params`` and ``sweep``: ``name`` (the study's name for the
learner, e.g. LIBOL's ``PA-I``) and ``select`` (what the procedure searches, in its own
terms)::

    modules: [experiments/libol_table/selection.py]
    select: {procedure: libol_cv, seed: 1000, domains: {C: [0.0625, ..., 16.0]}}
    grid:
      learners:
        - {key: pa, name: PA-I, params: {variant: pa1}, select: {C: C}}

A procedure is called once per stream, ``choose(stream, learners, options)``: the stream's
spec, the learner entries (mappings, in the grid's order) and the ``select:`` block without
``procedure``; it returns a :class:`Choice` (per learner, the values it chose and one row
per candidate it tried, in the columns it registered). :func:`select_grid` does the rest,
the same for every procedure: the values put into each learner's ``params``, the selection
fields removed (so :func:`olbench.harness.tasks.expand` sees only ``key``/``params``/
``sweep``), one grid per stream, each learner's name, and the selection table (``stream``,
``algorithm``, then the procedure's columns), which the results folder keeps as
``selection.csv``.

>>> selection_problems({"procedure": "no_such_procedure"})  # doctest: +ELLIPSIS
["select.procedure='no_such_procedure': unknown selection procedure; registered: ..."]
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import pandas as pd

from olbench import schema as col
from olbench.harness.run_one import build
from olbench.harness.studies import same_code
from olbench.harness.tasks import GridError, _plain, component_specs

#: fields a learner entry may carry for the selection stage (removed before ``expand``)
ENTRY_FIELDS = ("name", "select")
#: the selection table's first columns, the procedure's own after them
TABLE_COLUMNS = (col.STREAM, "algorithm")


class Choice(NamedTuple):
    """What a procedure chose on one stream: the stream's name as the selection table gives
    it, per learner entry (in the grid's order) the values chosen (``{parameter: value}``;
    empty: nothing searched) and the candidates tried (one tuple per candidate, in the
    procedure's registered ``columns``)."""

    stream: str
    values: list[dict]
    candidates: list[list[tuple]]


class Selection(NamedTuple):
    """The stage's result: one grid per stream with the chosen values in its learners'
    ``params``; the selection table; ``{learner name: the study's name for it}`` (an entry's
    ``name``, else the learner's own)."""

    grids: list[dict]
    table: pd.DataFrame
    algorithms: dict[str, str]


@dataclass(frozen=True)
class SelectionProcedure:
    """A registered procedure: its ``name`` (what ``select.procedure`` says), ``choose``
    (called per stream, module docs) and the ``columns`` of its candidate rows."""

    name: str
    choose: Callable[[dict, list[dict], dict], Choice]
    columns: tuple[str, ...]


#: every registered procedure, by name
SELECTION_PROCEDURES: dict[str, SelectionProcedure] = {}


def selection_procedure(name: str, *, columns: Sequence[str]) -> Callable:
    """Register the decorated ``choose(stream, learners, options) -> Choice`` as the
    selection procedure ``name`` whose candidate rows have ``columns``; the function is
    returned unchanged."""
    def register(choose: Callable) -> Callable:
        known = SELECTION_PROCEDURES.get(name)
        if known is not None and not same_code(known.choose, choose):
            raise ValueError(f"selection procedure {name!r} is registered twice")
        SELECTION_PROCEDURES[name] = SelectionProcedure(name, choose, tuple(columns))
        return choose
    return register


def _registered() -> str:
    return (", ".join(sorted(SELECTION_PROCEDURES)) or "none") + (
        " (a study registers its own with @selection_procedure in a file its config names "
        "in modules:)")


def selection_problems(select: Any) -> list[str]:
    """The problems of a ``select:`` block, as the other problems of a configuration are
    said: not a mapping, no ``procedure``, or one that no imported study file registered
    (the files of ``modules:`` are imported before this is asked). None without a block."""
    select = _plain(select)
    if select is None:
        return []
    if not isinstance(select, Mapping):
        return [f"select={select!r}: must be a mapping: procedure: <name>, and that "
                f"procedure's options; registered procedures: {_registered()}"]
    if select.get("procedure") is None:
        return [f"select: no procedure (select.procedure: <name>); registered: {_registered()}"]
    if select["procedure"] not in SELECTION_PROCEDURES:
        return [f"select.procedure={select['procedure']!r}: unknown selection procedure; "
                f"registered: {_registered()}"]
    return []


def with_param(params: Mapping, name: str, value: Any) -> dict:
    """``params`` with ``name`` set to ``value``; a dotted name sets a parameter of a nested
    mapping (``binary_params.C``: one-vs-rest's binary learner's C), created where absent.

    >>> with_param({"binary": "pa", "binary_params": {"variant": "pa1"}}, "binary_params.C", 2)
    {'binary': 'pa', 'binary_params': {'variant': 'pa1', 'C': 2}}
    >>> with_param({"C": 1, "binary_params": None}, "binary_params.C", 2)
    {'C': 1, 'binary_params': {'C': 2}}
    """
    outer, _, inner = name.partition(".")
    if not inner:
        return {**params, name: value}
    nested = params.get(outer) or {}
    if not isinstance(nested, Mapping):
        raise GridError(f"select: {name} sets a parameter inside {outer}, which is "
                        f"{nested!r}, not a mapping")
    return {**params, outer: with_param(nested, inner, value)}


def param_value(params: Mapping, name: str) -> Any:
    """The value of a parameter named as :func:`with_param` names it.

    >>> param_value({"binary_params": {"C": 2}}, "binary_params.C")
    2
    """
    for part in name.split("."):
        params = params[part]
    return params


def select_fields(select: Any, prefix: str = "") -> dict[str, Any]:
    """A learner entry's ``select`` mapping as ``{dotted parameter: domain name}``: a nested
    mapping names the parameters of a nested one (``{binary_params: {C: C}}``:
    ``binary_params.C``, one-vs-rest's binary learner's C), in the order given.

    >>> select_fields({"C": "C", "binary_params": {"C": "C", "confidence": "eta"}})
    {'C': 'C', 'binary_params.C': 'C', 'binary_params.confidence': 'eta'}
    """
    fields = {}
    for name, domain in (_plain(select) or {}).items():
        if isinstance(domain, Mapping):
            fields.update(select_fields(domain, f"{prefix}{name}."))
        else:
            fields[f"{prefix}{name}"] = domain
    return fields


def _entry(entry: Any) -> dict:
    return {"key": entry} if isinstance(entry, str) else dict(entry)


def _without_fields(entry: dict) -> dict:
    return {k: v for k, v in entry.items() if k not in ENTRY_FIELDS}


def learner_spec(entry: Any) -> dict:
    """The full spec of a learner entry at its configured values (selection fields
    removed), what a procedure starts its search from."""
    return component_specs("learner", [_without_fields(_entry(entry))])[0]


def without_selection(grid: Any) -> dict:
    """The grid with the selection fields of its learner entries removed (each learner at its
    configured values): what composes and validates without running anything."""
    grid = _plain(grid)
    learners = [_without_fields(_entry(e)) for e in grid.get("learners") or []]
    return {**grid, "learners": learners}


def select_grid(grid: Any, select: Any, cache_dir: str | None = None) -> Selection:
    """Run the selection stage of ``grid`` with the procedure ``select`` names (module docs)
    on each of its streams; with a ``cache_dir``, the result is kept on disk
    (joblib.Memory, keyed by the grid and the select block), so a re-run of the same
    experiment does not search again. A run of the command asks once
    (:func:`olbench.pipeline.plan`)."""
    grid, select = _plain(grid), _plain(select)
    problems = selection_problems(select)
    if problems:
        raise GridError(problems[0])
    if cache_dir:
        from joblib import Memory

        return Memory(str(cache_dir), verbose=0).cache(_select_grid)(grid, select)
    return _select_grid(grid, select)


def _select_grid(grid: dict, select: dict) -> Selection:
    procedure = SELECTION_PROCEDURES[select["procedure"]]
    options = {k: v for k, v in select.items() if k != "procedure"}
    entries = [_entry(e) for e in grid.get("learners") or []]
    grids, records, names = [], [], {}
    for stream_entry in grid.get("streams") or []:
        stream_spec = component_specs("stream", [stream_entry])[0]
        choice = procedure.choose(stream_spec, entries, options)
        learners = []
        for entry, values, candidates in zip(entries, choice.values, choice.candidates,
                                             strict=True):
            plain = _without_fields(entry)
            plain["params"] = dict(plain.get("params") or {})
            for name, value in values.items():
                plain["params"] = with_param(plain["params"], name, value)
            learners.append(plain)
            for spec in component_specs("learner", [plain]):
                learner_name = build(spec).name   # the entry's name: the study's, else its own
                algorithm = names[learner_name] = entry.get("name") or learner_name
            records += [(choice.stream, algorithm, *row) for row in candidates]
        grids.append({**copy.deepcopy(grid), "streams": [stream_entry], "learners": learners})
    table = pd.DataFrame(records, columns=[*TABLE_COLUMNS, *procedure.columns])
    return Selection(grids, table, names)
