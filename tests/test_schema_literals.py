"""No module of olbench/ spells a column of the results table as a string literal: every
column is named once, by a constant of :mod:`olbench.schema` (``col.RUN_ID``, not
``"run_id"``), so that renaming one is one edit and a typo is a NameError, not a silently
empty selection.

The check reads the source (an AST walk over every string literal). A column name with an
underscore (``run_id``, ``stream_label``) is only ever a column: it is looked for in every
module. A name without one is also a word with other meanings (``stream`` and ``learner``
are configuration groups, ``loss`` a parameter, ``mistakes`` a bound's quantity, ``status``
a solver's): it is looked for in the modules that read or write the table, where it can only
mean the column (:data:`TABLE_MODULES`). The literals that remain there mean something else;
each is listed in :data:`ALLOWED` with how many times it occurs and why.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

from olbench import schema

PACKAGE = Path(__file__).resolve().parents[1] / "olbench"

#: every column name schema gives a constant: the stored table's and the views'
COLUMN_NAMES = {value for name, value in vars(schema).items()
                if name.isupper() and isinstance(value, str)
                and (value in schema.COLUMNS or value in schema.VIEW_COLUMNS)}

#: the modules that read or write the results table: the analysis wing, the front door, the
#: run files and the grid's rows, the metrics
TABLE_MODULES = ("analysis/", "cli.py", "api.py", "pipeline.py", "harness/results.py",
                 "harness/checksums.py", "harness/grid.py", "metrics.py")

#: (module, literal) -> (occurrences, what the literal means there instead of a column)
ALLOWED = {
    ("analysis/report.py", "learner"): (1, "a noun of the derived question's sentence"),
    ("analysis/report.py", "stream"): (1, "a noun of the derived question's sentence"),
    ("analysis/report.py", "comparator"): (1, "a noun of the derived question's sentence"),
    ("analysis/report.py", "seed"): (2, "a noun of the derived question's sentence"),
    ("analysis/index.py", "stream"): (1, "a noun of the index's grid description"),
    ("analysis/index.py", "learner"): (1, "a noun of the index's grid description"),
    ("analysis/index.py", "seed"): (1, "a noun of the index's grid description"),
    ("analysis/summary.py", "updates"): (1, "the column title shown to people"),
    ("analysis/summary.py", "regret"): (1, "the column title shown to people"),
    ("analysis/report_bounds.py", "bound"): (2, "report.md's column title for the bound's name"),
    ("analysis/figures/regret_bounds.py", "regret"): (1, "a value of the quantity column"),
    ("analysis/figures/regression.py", "avg_loss"): (1, "the figure's name (its file stem)"),
    ("bounds/core.py", "skip_reason"): (1, "the attribute of a comparator's fit"),
}


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the docstring constants (prose, not code)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def column_literals(source: str, words: bool) -> Counter:
    """How many times each column name is spelled as a string literal in ``source``; the
    names without an underscore only if ``words``."""
    tree = ast.parse(source)
    prose = _docstrings(tree)
    return Counter(node.value for node in ast.walk(tree)
                   if isinstance(node, ast.Constant) and isinstance(node.value, str)
                   and node.value in COLUMN_NAMES and id(node) not in prose
                   and (words or "_" in node.value))


def spelled_columns() -> dict[tuple[str, str], int]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE).as_posix()
        if module == "schema.py":
            continue
        words = module.startswith(TABLE_MODULES)
        for name, count in column_literals(path.read_text(encoding="utf-8"), words).items():
            found[module, name] = count
    return found


def test_the_check_sees_a_column_spelled_in_code_and_not_in_prose():
    source = ('"""A module about run_id."""\n'
              'def f(table):\n    """Reads the stream column."""\n'
              '    return table["run_id"], table.get("stream"), f"{table[\'seed\']}"\n')
    assert column_literals(source, words=False) == Counter({"run_id": 1})
    assert column_literals(source, words=True) == Counter({"run_id": 1, "stream": 1, "seed": 1})


def test_the_names_checked_are_schemas_columns():
    assert {"run_id", "stream", "comparator_skip_reason", "stream_label", "learner_label",
            "t"} <= COLUMN_NAMES
    assert schema.OK not in COLUMN_NAMES   # a status value, not a column


def test_no_module_spells_a_column_name():
    found = spelled_columns()
    unexpected = {key: n for key, n in found.items() if key not in ALLOWED}
    miscounted = {key: (n, ALLOWED[key][0]) for key, n in found.items()
                  if key in ALLOWED and n != ALLOWED[key][0]}
    stale = [key for key in ALLOWED if key not in found]
    assert not unexpected, ("column names spelled as string literals (use the constants of "
                            f"olbench/schema.py): {unexpected}")
    assert not miscounted, f"(module, literal): (found, allowed) {miscounted}"
    assert not stale, f"allowed literals no longer there (remove them from ALLOWED): {stale}"
