"""The bound checks as people read them: one row per (stream, learner, bound) for report.md
(:func:`bound_checks`, :func:`bounds_section`) and one line each for the terminal
(:func:`bound_lines`), with the bound's value and formula at the final round, what was
observed, observed/bound, and whether the bound could bind at all.

A (stream, learner, bound) is ``violated`` (some check failed: a bug in a learner, a
comparator or a bound), ``holds``, ``vacuous`` (every check held, but at every run's final
round the bound was at least ``trivial_bound``, the most the quantity can be whatever the
learner does -- a mistake bound >= the number of rounds: it could not have failed) or
``skipped`` (no check; the reason says which hypothesis fails or what is missing).

>>> t = pd.DataFrame({"run_id": "a", "t": [10, 1000], "status": "ok", "seed": 0,
...     "stream": "S", "learner": "L", "bound_name": "novikoff", "quantity": "mistakes",
...     "bound": 109631.3, "observed": [5.0, 96.0], "bound_holds": True,
...     "trivial_bound": [10.0, 1000.0], "bound_vacuous": True, "skip_reason": None})
>>> print(bound_lines(bound_checks(t))[1])   # doctest: +NORMALIZE_WHITESPACE
  L on S: novikoff (R/γ)² = 109,631, mistakes = 96, observed/bound = 0.00088: vacuous (the
  bound is >= 1,000, the most mistakes can be in 1,000 rounds)
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from olbench import schema as col
from olbench.analysis.cells import NONE
from olbench.analysis.markdown import markdown_table
from olbench.analysis.views import (
    bound_flag,
    display_names,
    final_bound_checks,
    label,
    natural_order,
    ok_rows,
    sorted_unique,
)

VACUOUS = "vacuous"
STATUS_ORDER = {"violated": 0, "holds": 1, VACUOUS: 2, "skipped": 3}
#: bound rows the terminal prints before it refers to report.md for the rest
TERMINAL_ROWS = 12


def formula(bound_name: str) -> str:
    """The theorem's formula as people write it (``(R/γ)²``), empty when it declares none.

    >>> formula("novikoff"), formula("no such theorem")
    ('(R/γ)²', '')
    """
    from olbench.bounds import THEOREMS

    theorem = THEOREMS.get(str(bound_name))
    return theorem.formula if theorem is not None else ""


def number(v) -> str:
    """A bound or an observed value: whole and with thousands separated from 1,000, else 4
    significant digits.

    >>> number(109631.34), number(1000), number(400.0), number(0.123456), number(float("nan"))
    ('109,631', '1,000', '400', '0.1235', '—')
    """
    if v is None or pd.isna(v):
        return NONE
    return f"{v:,.0f}" if abs(v) >= 1e3 else f"{v:.4g}"


def _final(table: pd.DataFrame) -> pd.DataFrame:
    """The final checked row of every (ok run, bound), with names without ``seed=`` and a
    ``vacuous`` flag (False where the table does not say)."""
    fin = final_bound_checks(table)
    vacuous = (fin[col.BOUND_VACUOUS].map(bound_flag).eq(True) if col.BOUND_VACUOUS in fin
               else pd.Series(False, index=fin.index))
    trivial = fin[col.TRIVIAL_BOUND] if col.TRIVIAL_BOUND in fin else np.nan
    return fin.assign(stream=label(fin, col.STREAM), learner=label(fin, col.LEARNER),
                      vacuous=vacuous, trivial=trivial)


def vacuous_cells(table: pd.DataFrame) -> set[tuple[str, str]]:
    """The (stream, learner) names (without ``seed=``) whose every checked bound was vacuous
    at every run's final round: their checks held, but none could have failed."""
    fin = _final(table)
    if fin.empty:
        return set()
    every = fin.groupby([col.STREAM, col.LEARNER])["vacuous"].all()
    return set(every[every].index)


def bound_checks(table: pd.DataFrame) -> pd.DataFrame:
    """One row per (stream, learner, bound) over all checkpoints of the ok runs (a bound does
    not depend on the comparator a row's regret is measured against).

    ``status``: see the module; ``runs``: runs with a check; ``violations``: runs with a
    failed check; ``vacuous``: runs whose bound was vacuous at their final round;
    ``final_bound``, ``final_observed``, ``final_ratio``, ``final_trivial``: the bound, the
    observed value, observed/bound and the trivial bound at each run's final round (median
    over the runs); ``max_ratio``: the largest observed/bound at any checkpoint, ``worst``:
    where it occurred. Sorted: violations first, then holds, vacuous and skipped.
    """
    keys = [col.STREAM, col.LEARNER]
    at_end = ["final_bound", "final_observed", "final_ratio", "final_trivial"]
    cols = keys + [col.BOUND_NAME, col.QUANTITY, col.STATUS, "runs", "violations", VACUOUS,
                   *at_end, "max_ratio", "worst", col.SKIP_REASON]
    ok = ok_rows(table)
    if col.BOUND_NAME not in ok:
        return pd.DataFrame(columns=cols)
    rows = ok[ok[col.BOUND_NAME].notna()].drop_duplicates([col.RUN_ID, col.T, col.BOUND_NAME])
    rows = rows.assign(stream=label(rows, col.STREAM), learner=label(rows, col.LEARNER),
                       flag=rows[col.BOUND_HOLDS].map(bound_flag),
                       r=rows[col.OBSERVED].astype(float) / rows[col.BOUND].astype(float))
    fin = _final(table)
    fin = fin.assign(bound=fin[col.BOUND].astype(float), observed=fin[col.OBSERVED].astype(float),
                     trivial=pd.to_numeric(fin["trivial"], errors="coerce"))
    ends = (fin.assign(r=fin[col.OBSERVED] / fin[col.BOUND])
               .groupby(keys + [col.BOUND_NAME])
               .agg(vacuous=("vacuous", "sum"), ended=(col.RUN_ID, "size"),
                    final_bound=(col.BOUND, "median"), final_observed=(col.OBSERVED, "median"),
                    final_ratio=("r", "median"), final_trivial=("trivial", "median")))
    out = []
    for key, g in rows.groupby(keys + [col.BOUND_NAME], sort=True):
        checked = g[g["flag"].notna()]
        failed = checked[checked["flag"].eq(False)]
        end = ends.loc[key] if key in ends.index else None
        vacuous = 0 if end is None else int(end["vacuous"])
        never_binds = end is not None and 0 < vacuous == end["ended"]
        status = ("violated" if len(failed) else VACUOUS if len(checked) and never_binds else
                  "holds" if len(checked) else "skipped")
        worst = checked.loc[checked["r"].idxmax()] if checked["r"].notna().any() else None
        out.append((*key, sorted_unique(g[col.QUANTITY])[0] if g[col.QUANTITY].notna().any()
                    else NONE, status, checked[col.RUN_ID].nunique(),
                    failed[col.RUN_ID].nunique(), vacuous,
                    *(np.nan if end is None else end[c] for c in at_end),
                    np.nan if worst is None else worst["r"],
                    NONE if worst is None else f"seed={worst[col.SEED]}, t={int(worst[col.T])}",
                    "; ".join(map(str, sorted_unique(g[col.SKIP_REASON]))) or NONE))
    df = natural_order(pd.DataFrame(out, columns=cols), keys + [col.BOUND_NAME])
    return (df.assign(_o=df[col.STATUS].map(STATUS_ORDER)).sort_values("_o", kind="stable")
              .drop(columns="_o").reset_index(drop=True))


def _value_text(row) -> str:
    """``novikoff (R/γ)² = 400, mistakes = 91, observed/bound = 0.23``"""
    name = f"{row[col.BOUND_NAME]} {formula(row[col.BOUND_NAME])}".rstrip()
    ratio = row["final_ratio"]
    return (f"{name} = {number(row['final_bound'])}, {row[col.QUANTITY]} = "
            f"{number(row['final_observed'])}, observed/bound = "
            f"{NONE if pd.isna(ratio) else f'{ratio:.2g}'}")


def _status_text(row) -> str:
    from olbench.bounds.core import AT_MOST_PER_ROUND  # as formula: the theory on demand

    if row[col.STATUS] == VACUOUS:
        trivial = row["final_trivial"]
        if row[col.QUANTITY] in AT_MOST_PER_ROUND:   # a count: at most t after t rounds
            return (f"vacuous (the bound is >= {number(trivial)}, the most "
                    f"{row[col.QUANTITY]} can be in {number(trivial)} rounds)")
        return f"vacuous (the bound is >= {number(trivial)}, the most the regret can be)"
    if row[col.STATUS] == "violated":
        return f"VIOLATED in {row['violations']} of {row['runs']} runs"
    if row[VACUOUS]:
        return f"holds (vacuous in {row[VACUOUS]} of {row['runs']} runs)"
    return str(row[col.STATUS])


def bound_lines(checks: pd.DataFrame, limit: int = TERMINAL_ROWS) -> list[str]:
    """The terminal's account of :func:`bound_checks`: a heading, then per (stream, learner,
    bound) the bound's formula and value, the observed value and observed/bound at the final
    round (medians over runs), and its status; a skipped bound gives its reason. At most
    ``limit`` rows (violations first), then where the rest are."""
    if checks.empty:
        return []
    several = bool((checks["runs"] > 1).any())
    lines = ["bounds at the final round" + (" (median over runs)" if several else "") + ":"]
    learners = display_names(checks[col.LEARNER])
    streams = display_names(checks[col.STREAM])
    for _, row in checks.head(limit).iterrows():
        where = f"{learners[row[col.LEARNER]]} on {streams[row[col.STREAM]]}"
        if row[col.STATUS] == "skipped":
            lines.append(f"  {where}: {row[col.BOUND_NAME]} skipped: {row[col.SKIP_REASON]}")
        else:
            lines.append(f"  {where}: {_value_text(row)}: {_status_text(row)}")
    if len(checks) > limit:
        lines.append(f"  ... and {len(checks) - limit} more in report.md")
    return lines


def bounds_section(checks: pd.DataFrame) -> list[str]:
    """report.md's "Bound checks": the counts, then :func:`bound_checks` as a table with the
    bound's formula and value at the final round."""
    if checks.empty:
        return ["## Bound checks", "", "No bound applies to these learners.", ""]
    count = checks[col.STATUS].value_counts()
    shown = pd.DataFrame({
        col.STREAM: checks[col.STREAM], col.LEARNER: checks[col.LEARNER],
        "bound": checks[col.BOUND_NAME], "formula": checks[col.BOUND_NAME].map(formula),
        col.QUANTITY: checks[col.QUANTITY], col.STATUS: checks[col.STATUS],
        "runs": checks["runs"], "violations": checks["violations"],
        "vacuous runs": checks[VACUOUS],
        "bound at T": checks["final_bound"].map(number),
        "observed at T": checks["final_observed"].map(number),
        "observed/bound at T": checks["final_ratio"].map(
            lambda r: NONE if pd.isna(r) else f"{r:.3g}"),
        "max observed/bound": checks["max_ratio"].map(
            lambda r: NONE if pd.isna(r) else f"{r:.3g}"),
        "worst at": checks["worst"], "skip reason": checks[col.SKIP_REASON]})
    return ["## Bound checks", "",
            f"{count.get('violated', 0)} violated, {count.get('holds', 0)} holding, "
            f"{count.get(VACUOUS, 0)} vacuous, {count.get('skipped', 0)} skipped (violations "
            "first; a violation means a bug in a learner, a comparator or a bound). *At T*: at "
            "each run's final round T, the median over runs. *Vacuous*: the bound was at "
            "least the most the quantity can be whatever the learner does (a mistake bound "
            ">= T), so it could not have failed; *vacuous runs* counts the runs where it was "
            "at T.", "",
            markdown_table(shown, code=(col.STREAM, col.LEARNER, "bound")), ""]
