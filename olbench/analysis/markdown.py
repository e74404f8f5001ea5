"""Markdown for report.md: a table of a frame (:func:`markdown_table`), cells escaped so
that a name holding ``|`` or a newline cannot break a row."""

from __future__ import annotations

import pandas as pd

from olbench.analysis.cells import NONE


def _cell(v) -> str:
    text = NONE if v is None or (not isinstance(v, str) and pd.isna(v)) else str(v)
    return text.replace("|", "\\|").replace("\n", " ")


def markdown_table(df: pd.DataFrame, code: tuple[str, ...] = ()) -> str:
    """A GitHub Markdown table; the ``code`` columns are set in backticks (names).

    >>> print(markdown_table(pd.DataFrame({"a": ["x|y"], "b": [1.5]}), code=("a",)))
    | a | b |
    | --- | --- |
    | `x\\|y` | 1.5 |
    """
    def fmt(c, v):
        s = _cell(v)
        return f"`{s}`" if c in code and s != NONE else s
    head = ["| " + " | ".join(map(str, df.columns)) + " |",
            "| " + " | ".join("---" for _ in df.columns) + " |"]
    return "\n".join(head + ["| " + " | ".join(fmt(c, v) for c, v in zip(df.columns, r)) + " |"
                             for r in df.itertuples(index=False)])

