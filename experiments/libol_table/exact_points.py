"""Which point of LIBOL's parameter grid prints each published row, on LIBOL's own orders:
the report section ``libol_exact_points``.

LIBOL chose each algorithm's parameters on one order of its own (``init_options.m``:
``rand('seed', 0); randperm(n)``, MATLAB's legacy generator, which olbench does not
reproduce), so our selection stage, on another order, may choose another point of the same
grid. This section separates the two causes a gap can have, the search and the rule: on each
stream run in LIBOL's own orders (``order=libol``), it runs every point of each searched
algorithm's grid (the product of the domains the selection stage searched, read from its
table) over the table's seeds, and lists the points whose mean ± std of mistake rate and
updates print as the published row (:func:`published.as_printed`), beside the point the
selection chose. Mistakes are counted as LIBOL counts them (sign(0) = +1).

This section runs learners (about 300 grid points x 20 orders of svmguide3's 1,243 rows, a
few seconds), unlike the report's other sections, which read the results: it is the study's
own experiment, kept beside its report so that a reader sees it where the gap is shown; its
rows are written to ``exact_points.csv``.

The study's own code: ``conf/experiment/libol_table.yaml`` names this file in ``modules:``
and asks for the section with the published file and the table's seeds
(``sections: {libol_exact_points: {file: ..., seeds: ${grid.seeds}}}``).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from olbench.analysis.markdown import markdown_table
from olbench.analysis.study_sections import SectionInputs, report_section
from olbench.harness.run_one import build
from olbench.harness.studies import module_path, study_module
from olbench.harness.tasks import component_specs

published = study_module(Path(__file__).with_name("published.py"))

OPTIONS = ("file", "seeds")
#: LIBOL's orders: the streams this section sweeps
ORDER = "libol"


def _points(selection: pd.DataFrame, stream: str, algorithm: str) -> list[dict]:
    """Every point of the grid the selection stage searched for ``algorithm`` on ``stream``
    (the product of each parameter's candidates, in the order searched); ``[{}]`` if none."""
    rows = selection[selection["stream"].eq(stream) & selection["algorithm"].eq(algorithm)]
    domains = {p: list(dict.fromkeys(g["value"])) for p, g in rows.groupby("param", sort=False)}
    return [dict(zip(domains, combo)) for combo in itertools.product(*domains.values())]


def _chosen(selection: pd.DataFrame, stream: str, algorithm: str) -> dict:
    rows = selection[selection["stream"].eq(stream) & selection["algorithm"].eq(algorithm)
                     & selection["chosen"].astype(bool)]
    return dict(zip(rows["param"], rows["value"]))


def point_stats(learner_entry: dict, point: dict, orders: Sequence[tuple]) -> dict:
    """Mean ± std (n − 1, as MATLAB's ``std``) of the mistake rate and the updates of the
    learner at ``point`` over ``orders`` (``(X, y)`` per run), mistakes counted as LIBOL
    counts them; NaN where a run breaks down numerically."""
    import olbench
    from olbench.breakdown import NumericBreakdownError

    entry = {**learner_entry, "params": {**(learner_entry.get("params") or {}), **point}}
    (spec,) = component_specs("learner", [entry])
    rates, updates = [], []
    for X, y in orders:
        try:
            trace = olbench.run(build(spec), X, y, tie="libol")
        except NumericBreakdownError:
            return dict.fromkeys(("mistake_rate_mean", "mistake_rate_std", "updates_mean",
                                  "updates_std"), np.nan)
        rates.append(trace.n_mistakes / len(y))
        updates.append(trace.n_updates)
    def std(values):   # MATLAB's std of one run is 0; n - 1 = 0 runs give no spread here
        return np.std(values, ddof=1) if len(values) > 1 else np.nan

    return {"mistake_rate_mean": np.mean(rates), "mistake_rate_std": std(rates),
            "updates_mean": np.mean(updates), "updates_std": std(updates)}


def sweep(inputs: SectionInputs) -> pd.DataFrame:
    """One row per (stream in LIBOL's orders, searched algorithm, grid point): its statistics
    over the table's seeds, whether the selection chose it, and whether it prints as the
    published row (None where nothing is published)."""
    from olbench.names import drop_param

    table = published.read_published(module_path(inputs.options["file"]))
    pub = table.set_index(["dataset", "algorithm"])
    names = inputs.selection.algorithms
    records = []
    for grid in inputs.selection.grids:
        (stream_spec,) = component_specs("stream", grid["streams"])
        if stream_spec.get("order") != ORDER:
            continue
        streams = [build({**stream_spec, "seed": int(s)}) for s in inputs.options["seeds"]]
        orders = [s.materialize() for s in streams]
        stream = drop_param(streams[0].name)     # as the selection table names it
        dataset = published.dataset_of(stream)
        for entry in grid["learners"]:
            (spec,) = component_specs("learner", [entry])
            algorithm = names.get(build(spec).name)
            points = _points(inputs.selection.table, stream, algorithm)
            if points == [{}]:      # nothing searched: the table's own row is the only point
                continue
            chosen = _chosen(inputs.selection.table, stream, algorithm)
            row = pub.loc[(dataset, algorithm)] if (dataset, algorithm) in pub.index else None
            for point in points:
                stats = point_stats(entry, point, orders)
                printed = None if row is None else all(
                    published.as_printed(stats[f"{m}_mean"], stats[f"{m}_std"],
                                         row[f"{m}_mean"], row[f"{m}_std"], row[f"{m}_decimals"])
                    for m in published.COMPARED)
                records.append({"dataset": dataset, "algorithm": algorithm,
                                "point": ", ".join(f"{k}={v:g}" for k, v in point.items()),
                                "selected": point == chosen, **stats, "as_printed": printed})
    return pd.DataFrame(records, columns=["dataset", "algorithm", "point", "selected",
                                          "mistake_rate_mean", "mistake_rate_std",
                                          "updates_mean", "updates_std", "as_printed"])


def exact_points_section(points: pd.DataFrame, seeds: int) -> list[str]:
    """Per (dataset, algorithm): the point selected and whether it prints as published, and
    every grid point that does."""
    lines = ["## Which grid point prints the published row", ""]
    if points.empty:
        return lines + ["No algorithm with a searched parameter ran on LIBOL's own orders "
                        "(order=libol).", ""]
    rows = []
    for (dataset, algorithm), g in points.groupby(["dataset", "algorithm"], sort=False):
        selected = g[g["selected"]]
        exact = g[g["as_printed"].eq(True)]
        rows.append({"dataset": dataset, "algorithm": algorithm,
                     "selected point": "; ".join(selected["point"]) or "—",
                     "selected prints as published": ("yes" if selected["as_printed"].eq(True)
                                                      .any() else "no"),
                     "grid points that print as published": "; ".join(exact["point"]) or "none",
                     "of": f"{len(g)} points"})
    shown = pd.DataFrame(rows)
    found = (shown["grid points that print as published"] != "none").sum()
    chosen = (shown["selected prints as published"] == "yes").sum()
    lines += [f"Every point of each searched algorithm's grid, run over LIBOL's own {seeds} "
              f"orders: for **{found} of {len(shown)}** algorithms whose parameters LIBOL "
              "searches, some point prints the "
              f"published row (mistake rate and updates, mean and std, to the printed digit); "
              f"the point our selection chose does for {chosen}. Where a point prints it and "
              "ours does not, the gap is the search order (LIBOL's MATLAB `randperm`, not "
              "reproduced), not the rule. All points: `exact_points.csv`.", "",
              markdown_table(shown), ""]
    return lines


def exact_points_problems(options: dict) -> list[str]:
    """The section's options checked before anything runs."""
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        return [f"{unknown[0]}: unknown option; libol_exact_points has {', '.join(OPTIONS)}"]
    seeds = options.get("seeds")
    if not seeds or not all(isinstance(s, int) and s >= 0 for s in seeds):
        return [f"seeds={seeds!r}: give the table's seeds (LIBOL's run indices), e.g. "
                "${grid.seeds}"]
    return published.published_problems({"file": options.get("file")})


@report_section("libol_exact_points", check=exact_points_problems, needs_selection=True)
def libol_exact_points(inputs: SectionInputs) -> list[str]:
    """:func:`sweep` written to ``exact_points.csv``, and its section."""
    points = sweep(inputs)
    points.to_csv(inputs.folder / "exact_points.csv", index=False)
    return exact_points_section(points, len(inputs.options["seeds"]))
