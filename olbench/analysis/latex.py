"""The LaTeX table of an experiment, ``summary.tex`` (:func:`latex_table`, LIBOL's columns of
the summary): mean ± sample std over seeds, time as the median and quartiles; its cells
(:func:`latex_pm`, :func:`latex_escape`) serve a study's own tables too (LIBOL's
``published.tex``: ``experiments/libol_table/published.py``)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from olbench import schema as col
from olbench.analysis.cells import NONE, fewer_runs, median_quartiles
from olbench.analysis.summary import short_names

_LATEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
          "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\^{}"}


def latex_escape(text: str) -> str:
    """``text`` with LaTeX's special characters escaped.

    >>> print(latex_escape("a_b & 5%"))
    a\\_b \\& 5\\%
    """
    return "".join(_LATEX.get(ch, ch) for ch in text)


def latex_pm(mean: float, std: float, fmt: str) -> str:
    """``$mean \\pm std$`` in ``fmt`` (the mean alone without a std; ``--`` without a mean)."""
    if pd.isna(mean):
        return "--"    # LaTeX's en dash
    return f"${mean:{fmt}}$" if pd.isna(std) else f"${mean:{fmt}} \\pm {std:{fmt}}$"


def _latex_cell(row, metric: str, fmt: str | None) -> str:
    """A metric's LaTeX cell: mean ± std in ``fmt``, or (time) median [q1, q3] with the
    median's 3 significant digits (:func:`median_quartiles`), in text mode so that the
    space and the comma read as written."""
    if metric not in col.MEDIAN_METRICS:
        return latex_pm(row.get(f"{metric}_mean", np.nan), row.get(f"{metric}_std", np.nan),
                         fmt)
    text = median_quartiles(*(row.get(f"{metric}_{s}", np.nan)
                              for s in col.summary_stats(metric)))
    return "--" if text == NONE else text


#: (metric, header, number format) of the LaTeX table: LIBOL's columns (time: significant
#: digits, :func:`_latex_cell`)
LATEX_COLUMNS = ((col.MISTAKE_RATE, "Mistake rate", ".4f"), (col.UPDATES, "Updates", ".1f"),
                 (col.TIME_S, "Time (s)", None))


def _latex_header(metric: str, title: str) -> str:
    return title + (", median [$q_1$, $q_3$]" if metric in col.MEDIAN_METRICS else "")


def latex_table(summary: pd.DataFrame) -> str:
    """A complete LIBOL-style ``tabular``: algorithm (short name), mistake rate and updates
    (mean ± sample std over seeds) and time (median [first, third quartile] over seeds, with
    3 significant digits: never 0.0000 for a fast run); a stream column when there are
    several streams. These metrics do not depend on the comparator, so each learner appears
    once per stream.

    >>> s = pd.DataFrame({"stream": ["S"], "learner": ["PA[C=1.0,variant=pa1]"],
    ...                   "mistake_rate_mean": [0.25], "mistake_rate_std": [0.01],
    ...                   "updates_mean": [120.0], "updates_std": [2.0], "time_s_median":
    ...                   [0.0002], "time_s_q1": [0.000195], "time_s_q3": [0.00021]})
    >>> print(latex_table(s))
    % stream: S; mean ± sample std over seeds at the final round; time: median [quartiles]
    \\begin{tabular}{lrrr}
    \\hline
    Algorithm & Mistake rate & Updates & Time (s), median [$q_1$, $q_3$] \\\\
    \\hline
    PA-I (C=1) & $0.2500 \\pm 0.0100$ & $120.0 \\pm 2.0$ & 0.000200 [0.000195, 0.000210] \\\\
    \\hline
    \\end{tabular}
    """
    rows = summary.drop_duplicates([col.STREAM, col.LEARNER])
    streams = short_names(rows[col.STREAM])
    several = streams.nunique() > 1
    head = (["Stream"] if several else []) + ["Algorithm"] + [_latex_header(m, h)
                                                               for m, h, _ in LATEX_COLUMNS]
    align = ("l" if several else "") + "l" + "r" * len(LATEX_COLUMNS)
    where = "" if several else f"stream: {', '.join(streams.unique())}; "
    lines = [f"% {where}mean ± sample std over seeds at the final round; time: median "
             "[quartiles]",
             f"\\begin{{tabular}}{{{align}}}", "\\hline", " & ".join(head) + " \\\\",
             "\\hline"]
    for (_, r), stream, learner in zip(rows.iterrows(), streams, short_names(rows[col.LEARNER])):
        cells = ([latex_escape(str(stream))] if several else []) + [latex_escape(learner)]
        cells += [_latex_cell(r, m, fmt)
                  + fewer_runs(r.get(f"{m}_runs", np.nan), r.get("runs", np.nan), latex=True)
                  for m, _, fmt in LATEX_COLUMNS]
        lines.append(" & ".join(cells) + " \\\\")
    return "\n".join(lines + ["\\hline", "\\end{tabular}"])
