"""Parameter selection before an experiment's table, as LIBOL does it (``CV_algorithm.m``).

LIBOL (Hoi, Wang, Zhao, JMLR 2014; ``demo.m``) chooses each algorithm's parameters before it
runs the 20 permutations of its table: ``CV_algorithm(y, X, options)`` makes one online pass
per candidate value over the *whole* dataset in one fixed order (``init_options.m``:
``rand('seed', 0); randperm(n)``, an order other than the table's), and keeps the value with
the fewest online mistakes; a tie goes to the later value of the domain (its test is
``err_count <= best``). Several parameters are searched one after the other, each with the
earlier ones fixed at their chosen values (PA-I: C; SCW: C then eta; ALMA: C then alpha;
LIBOL's names: ours are SCW's C then confidence, ALMA's eta then alpha).
LIBOL's domains are C in 2^-4 .. 2^4, eta (alpha) in 0.55 .. 0.95 by 0.05, IELLIP's b in
0.1 .. 0.9 by 0.1; the experiment config states them (``select.domains``) and each learner
entry of the grid says which of its parameters is searched over which domain::

    select:
      seed: 1000                  # the selection order: a permutation not among the table's
      domains: {C: [0.0625, ..., 16.0], eta: [0.55, ..., 0.95]}
    grid:
      learners:
        - key: scw
          name: SCW-I             # the algorithm's name in LIBOL's tables (the join key)
          select: {C: C, confidence: eta}   # our parameter: LIBOL's domain, in this order

:func:`select_grid` runs the search per stream and returns, per stream, the grid with the
chosen values fixed (so ``olbench.harness.tasks.expand`` sees only ``key``/``params``/``sweep``),
plus the selection table (every candidate's mistakes, the chosen one marked), which the
results folder keeps as ``selection.csv``.

>>> pick([0.5, 1.0, 2.0], [30, 20, 20])
2.0
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd

from olbench.harness.run_one import build
from olbench.harness.streamed import out_of_core_bytes
from olbench.harness.tasks import GridError, _plain, child_seed, component_specs
from olbench.names import drop_param

#: fields a learner entry may carry for the selection stage (stripped before ``expand``)
ENTRY_FIELDS = ("name", "select")
SELECTION_COLUMNS = ("stream", "algorithm", "step", "param", "value", "mistakes", "chosen",
                     "breakdown")


def pick(values: Sequence[Any], mistakes: Sequence[int]) -> Any:
    """The value with the fewest mistakes; of equal counts the later one (LIBOL's ``<=``).

    >>> pick([1, 2, 3], [5, 4, 6]), pick([1, 2, 3], [4, 4, 4])
    (2, 3)
    """
    if len(values) != len(mistakes) or not values:
        raise ValueError(f"pick needs one mistake count per value, got {len(values)} values "
                         f"and {len(mistakes)} counts")
    best = min(mistakes)
    return [v for v, m in zip(values, mistakes) if m == best][-1]


def coordinate_search(mistakes_of: Callable[[dict], int], base: dict,
                      searches: Sequence[tuple[str, Sequence[Any]]]) -> tuple[dict, list]:
    """Search each ``(param, domain)`` in order, the others at their current (earlier chosen,
    else ``base``) values; returns the chosen parameters and one record per candidate
    ``(step, param, value, mistakes, chosen, breakdown)``.

    A candidate whose pass stops on a numeric breakdown (:mod:`olbench.breakdown`: the rule's
    arithmetic left float64, as CW's covariance does at eta = 0.9 on svmguide3) has no
    mistake count: it is never chosen, and ``breakdown`` says where it stopped (LIBOL's
    MATLAB code would run on with NaN or complex numbers, which count nothing meaningful).

    >>> counts = {(1, 10): 3, (2, 10): 1, (2, 20): 0, (2, 30): 0}
    >>> chosen, records = coordinate_search(lambda p: counts.get((p["a"], p["b"]), 9),
    ...                                     {"a": 1, "b": 10}, [("a", [1, 2]), ("b", [10, 20, 30])])
    >>> chosen, [r[2:4] for r in records]
    ({'a': 2, 'b': 30}, [(1, 3), (2, 1), (10, 1), (20, 0), (30, 0)])
    """
    from olbench.breakdown import NumericBreakdownError

    params, records = dict(base), []
    for step, (name, domain) in enumerate(searches):
        counts, stops = [], []
        for value in domain:
            try:
                counts.append(int(mistakes_of({**params, name: value})))
                stops.append(None)
            except NumericBreakdownError as error:
                counts.append(None)
                stops.append(str(error).split(", although")[0])
        usable = [(v, m) for v, m in zip(domain, counts) if m is not None]
        if not usable:
            raise GridError(f"select: every candidate of {name} broke down numerically "
                            f"({stops[0]}); the selection has nothing to choose from")
        params[name] = pick([v for v, _ in usable], [m for _, m in usable])
        records += [(step, name, value, m, value == params[name], stop)
                    for value, m, stop in zip(domain, counts, stops)]
    return params, records


def online_mistakes(learner_spec: dict, X, y=None) -> int:
    """LIBOL's ``err_count`` of one online pass from w0 = 0: rounds whose predicted label
    sign(p), with sign(0) = +1, differs from y. ``X`` alone: a stream too large for memory,
    run chunk by chunk (:func:`olbench.harness.streamed.run_streamed`)."""
    import olbench
    from olbench.harness.streamed import run_streamed

    learner = build(learner_spec)
    if y is None:
        return int(run_streamed(learner, X, checkpoints=[X.meta.n], tie="libol").cum_mistakes[-1])
    return olbench.run(learner, X, y, tie="libol").n_mistakes


def _selection_stream(stream_spec: dict, seed: int) -> dict:
    if "seed" not in stream_spec:
        raise GridError(f"select: stream {stream_spec.get('name', stream_spec['_target_'])} "
                        "has no seed, so it has no selection order of its own")
    return {**stream_spec, "seed": child_seed(seed, "stream")}


def _entry(entry: Any) -> dict:
    return {"key": entry} if isinstance(entry, str) else dict(entry)


def _searches(entry: dict, domains: dict) -> list[tuple[str, list]]:
    select = entry.get("select") or {}
    if select and entry.get("sweep"):
        raise GridError(f"learner {entry['key']!r}: select and sweep together; give each swept "
                        "value its own entry")
    unknown = sorted(set(select.values()) - set(domains))
    if unknown:
        raise GridError(f"learner {entry['key']!r}: select uses unknown domains {unknown}; "
                        f"select.domains has {sorted(domains)}")
    return [(param, list(domains[domain])) for param, domain in select.items()]


def without_selection(grid: Any) -> dict:
    """The grid with the selection fields of its learner entries removed (each learner at its
    configured values): what composes and validates without running anything."""
    grid = _plain(grid)
    learners = [{k: v for k, v in _entry(e).items() if k not in ENTRY_FIELDS}
                for e in grid.get("learners") or []]
    return {**grid, "learners": learners}


def select_grid(grid: Any, select: Any, cache_dir: str | None = None
                ) -> tuple[list[dict], pd.DataFrame, dict[str, str]]:
    """Run the selection stage of ``grid`` (module docs) on each of its streams; with a
    ``cache_dir``, the result is kept on disk (joblib.Memory, keyed by the grid and the
    select block), so a re-run of the same experiment does not search again.

    Returns the per-stream grids with the chosen values in each learner's ``params``, the
    selection table (:data:`SELECTION_COLUMNS`), and ``{learner name: algorithm name}``.
    A run of the command asks once (:func:`olbench.pipeline.plan`).
    """
    grid, select = _plain(grid), _plain(select) or {}
    if cache_dir:
        from joblib import Memory

        return Memory(str(cache_dir), verbose=0).cache(_select_grid)(grid, select)
    return _select_grid(grid, select)


def _select_grid(grid: dict, select: dict) -> tuple[list[dict], pd.DataFrame, dict[str, str]]:
    unknown = set(select) - {"seed", "domains"}
    if unknown:
        raise GridError(f"unknown select fields {sorted(unknown)}; select has seed, domains")
    domains = select.get("domains") or {}
    seed = int(select.get("seed", 0))
    entries = [_entry(e) for e in grid.get("learners") or []]
    grids, records, names = [], [], {}
    for stream_entry in grid.get("streams") or []:
        stream_spec = component_specs("stream", [stream_entry])[0]
        selection_spec = _selection_stream(stream_spec, seed)
        stream = build(selection_spec)
        X, y = (stream, None) if out_of_core_bytes(selection_spec) else stream.materialize()
        learners = []
        for entry in entries:
            plain = {k: v for k, v in entry.items() if k not in ENTRY_FIELDS}
            searches = _searches(entry, domains)
            base = component_specs("learner", [plain])[0]
            chosen, found = (base, []) if not searches else coordinate_search(
                functools.partial(online_mistakes, X=X, y=y), base, searches)
            plain["params"] = {**(plain.get("params") or {}),
                               **{name: chosen[name] for name, _ in searches}}
            learners.append(plain)
            for spec in component_specs("learner", [plain]):
                learner_name = build(spec).name   # the entry's name: LIBOL's, else its own
                algorithm = names[learner_name] = entry.get("name") or learner_name
            records += [(drop_param(stream.name), algorithm, *r) for r in found]
        grids.append({**copy.deepcopy(grid), "streams": [stream_entry], "learners": learners})
    table = pd.DataFrame(records, columns=list(SELECTION_COLUMNS))
    return grids, table, names
