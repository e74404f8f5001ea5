"""LIBOL's parameter selection (``CV_algorithm.m``): the selection procedure ``libol_cv`` and
the report's section on it, ``libol_selection``.

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
      procedure: libol_cv         # this file's procedure
      seed: 1000                  # the selection order: a permutation not among the table's
      domains: {C: [0.0625, ..., 16.0], eta: [0.55, ..., 0.95]}
    grid:
      learners:
        - key: scw
          name: SCW-I             # the algorithm's name in LIBOL's tables (the join key)
          select: {C: C, confidence: eta}   # our parameter: LIBOL's domain, in this order

The study's own code: ``conf/experiment/libol_table.yaml`` names this file in ``modules:``,
which registers the procedure with the harness's selection stage
(:mod:`olbench.harness.selection`: the stage puts the chosen values into each stream's grid
and keeps every candidate's mistakes as ``selection.csv``) and the section with the report
(:mod:`olbench.analysis.study_sections`).

>>> pick([0.5, 1.0, 2.0], [30, 20, 20])
2.0
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pandas as pd

from olbench import schema as col
from olbench.analysis.cells import NONE
from olbench.analysis.markdown import markdown_table
from olbench.analysis.study_sections import SectionInputs, report_section
from olbench.analysis.summary import short_names
from olbench.harness.run_one import build
from olbench.harness.selection import (
    Choice,
    learner_spec,
    param_value,
    select_fields,
    selection_procedure,
    with_param,
)
from olbench.harness.streamed import out_of_core_bytes
from olbench.harness.tasks import GridError, child_seed
from olbench.names import drop_param

#: the columns of a candidate's row in the selection table (after its stream and algorithm)
CANDIDATE_COLUMNS = ("step", "param", "value", "mistakes", "chosen", "breakdown")
#: the select: block's options (besides procedure)
OPTIONS = ("seed", "domains")


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
    When every candidate of a parameter breaks down there is nothing to choose: the parameter
    keeps its configured value (the learner's default, LIBOL's default where the config
    follows LIBOL), no record is marked chosen, and the report says so; the table's runs
    then meet the same breakdown and end as failed runs that name it.

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
                counts.append(int(mistakes_of(with_param(params, name, value))))
                stops.append(None)
            except NumericBreakdownError as error:
                counts.append(None)
                stops.append(str(error).split(", although")[0])
        usable = [(v, m) for v, m in zip(domain, counts) if m is not None]
        chosen = pick([v for v, _ in usable], [m for _, m in usable]) if usable else None
        if usable:
            params = with_param(params, name, chosen)
        records += [(step, name, value, m, bool(usable) and value == chosen, stop)
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


def _searches(entry: dict, domains: dict) -> list[tuple[str, list]]:
    select = select_fields(entry.get("select"))
    if select and entry.get("sweep"):
        raise GridError(f"learner {entry['key']!r}: select and sweep together; give each swept "
                        "value its own entry")
    unknown = sorted(set(select.values()) - set(domains))
    if unknown:
        raise GridError(f"learner {entry['key']!r}: select uses unknown domains {unknown}; "
                        f"select.domains has {sorted(domains)}")
    return [(param, list(domains[domain])) for param, domain in select.items()]


@selection_procedure("libol_cv", columns=CANDIDATE_COLUMNS)
def libol_cv(stream: dict, learners: list[dict], options: dict) -> Choice:
    """``CV_algorithm.m`` on one stream (module docs): the stream in the selection order of
    ``options["seed"]``, each learner's ``select`` fields searched one after the other over
    ``options["domains"]``."""
    unknown = set(options) - set(OPTIONS)
    if unknown:
        raise GridError(f"unknown select fields {sorted(unknown)}; select (procedure "
                        f"libol_cv) has {', '.join(OPTIONS)}")
    domains = options.get("domains") or {}
    selection_spec = _selection_stream(stream, int(options.get("seed", 0)))
    built = build(selection_spec)
    X, y = (built, None) if out_of_core_bytes(selection_spec) else built.materialize()
    values, candidates = [], []
    for entry in learners:
        searches = _searches(entry, domains)
        base = learner_spec(entry)
        chosen, found = (base, []) if not searches else coordinate_search(
            functools.partial(online_mistakes, X=X, y=y), base, searches)
        values.append({name: param_value(chosen, name) for name, _ in searches})
        candidates.append(found)
    return Choice(drop_param(built.name), values, candidates)


# --------------------------------------------------------------------------- the report
def selection_section(selection: pd.DataFrame, algorithms: Mapping[str, str]) -> list[str]:
    """The report's account of the selection stage: per stream and algorithm, the values
    chosen (in search order) with their mistakes on the selection pass, and which learner
    (full name) ran the table."""
    lines = ["## Parameter selection", "",
             "Before the table, each parameter was chosen as LIBOL's `CV_algorithm.m` does: "
             "one online pass per candidate over the whole dataset in one fixed order (not one "
             "of the table's), the value with the fewest mistakes kept (ties: the later "
             "value); several parameters one after the other. All candidates: "
             "`selection.csv`.", ""]
    if selection.empty:
        return lines + ["No learner searches a parameter.", ""]
    chosen = selection[selection["chosen"].astype(bool)]
    rows = (chosen.groupby([col.STREAM, "algorithm"], sort=False)
            .apply(lambda g: ", ".join(f"{p}={v:g} ({int(m)} mistakes)"
                                       for p, v, m in zip(g["param"], g["value"], g[col.MISTAKES])),
                   include_groups=False).rename("chosen").reset_index())
    rows[col.STREAM] = short_names(rows[col.STREAM])
    searched = set(selection["algorithm"])
    fixed = sorted({a for a in algorithms.values() if a not in searched})
    lines += [markdown_table(rows), "", "No parameter searched (LIBOL searches none for "
              "them): " + (", ".join(fixed) or NONE) + ".", ""]
    steps = selection.groupby([col.STREAM, "algorithm", "param"], sort=False)["chosen"]
    unchosen = steps.apply(lambda c: not c.astype(bool).any())
    unchosen = unchosen[unchosen].index.to_frame(index=False)
    if len(unchosen):
        lines += ["Nothing to choose (every candidate broke down numerically; the parameter "
                  "kept its configured value, and a run of the table that meets the same "
                  "breakdown is a failed run naming it): " + "; ".join(
                      f"{a} {p} on {s}" for s, a, p in zip(
                          short_names(unchosen[col.STREAM]), unchosen["algorithm"],
                          unchosen["param"])) + ".", ""]
    broken = selection[selection["breakdown"].notna()] if "breakdown" in selection else []
    if len(broken):
        lines += ["Candidates whose selection pass broke down numerically (the rule's "
                  "arithmetic left float64; never chosen): " + "; ".join(
                      f"{a} {p}={v:g} on {s} ({why})" for s, a, p, v, why in zip(
                          short_names(broken[col.STREAM]), broken["algorithm"], broken["param"],
                          broken["value"], broken["breakdown"])) + ".", ""]
    return lines


@report_section("libol_selection", needs_selection=True)
def libol_selection(inputs: SectionInputs) -> list[str]:
    """:func:`selection_section` of the run's selection stage."""
    return selection_section(inputs.selection.table, inputs.selection.algorithms)
