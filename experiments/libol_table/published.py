"""LIBOL's published numbers beside ours: a table of (dataset, algorithm, mean, std) per
metric, joined row by row with the experiment's summary, with the difference in units of the
published std; the report section ``libol_published`` that shows it and writes it as
``published.csv`` and ``published.tex``.

A published file is a CSV with columns ``dataset``, ``algorithm``, ``source`` and, per metric
of :data:`METRICS`, ``<metric>_mean`` / ``<metric>_std`` (empty where the source's number
could not be read here: the row then says so instead of inventing one). A run with no row in
the file gets the source :data:`NOT_AVAILABLE` (never a silent blank), and the report prints
"not available offline" where a published number is missing. ``dataset`` is the stream's
``name=`` parameter (``stream=dataset``); ``algorithm`` the learner's name in the selection
stage (:func:`olbench.harness.selection.select_grid`), e.g. LIBOL's ``PA-I``.

The study's own code: ``conf/experiment/libol_table.yaml`` names this file in ``modules:``
and asks for its section with the file of published numbers
(``sections: {libol_published: {file: experiments/libol_table/published.csv}}``, a path
relative to the repository or absolute), which is read and checked before anything runs.

>>> ours = pd.DataFrame({"stream": ["Dataset[name=s,bias=False]"], "learner": ["PA[C=1.0]"],
...                      "mistake_rate_mean": [0.30], "mistake_rate_std": [0.01],
...                      "updates_mean": [400.0], "updates_std": [10.0]})
>>> pub = pd.DataFrame({"dataset": ["s"], "algorithm": ["PA"], "source": ["x"],
...                     "mistake_rate_mean": [0.33], "mistake_rate_std": [0.012],
...                     "updates_mean": [None], "updates_std": [None]})
>>> row = beside_published(ours, pub, {"PA[C=1.0]": "PA"}).iloc[0]
>>> float(round(row["mistake_rate_diff_in_std"], 6)), bool(pd.isna(row["updates_diff_in_std"]))
(-2.5, True)
>>> beside_published(ours, pub.iloc[:0], {"PA[C=1.0]": "PA"}).loc[0, "source"]
'not available offline: no published number for this dataset and algorithm in the file'
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from olbench import schema as col
from olbench.analysis.cells import NONE, mean_pm, summary_cells
from olbench.analysis.latex import LATEX_COLUMNS, latex_escape, latex_pm
from olbench.analysis.markdown import markdown_table
from olbench.analysis.study_sections import SectionInputs, report_section
from olbench.component import parse_name
from olbench.harness.studies import module_path

METRICS = (col.MISTAKE_RATE, col.UPDATES, col.TIME_S)
#: the metrics compared in std units; time is shown beside, never compared: another machine
#: and language (LIBOL's MATLAB) make its difference meaningless
COMPARED = (col.MISTAKE_RATE, col.UPDATES)
REQUIRED = ("dataset", "algorithm", "source")
#: the source of a run that the published file has no row for: the file holds only what could
#: be read here (no network, LIBOL's manual a PDF without text), so say so rather than blank
NOT_AVAILABLE = ("not available offline: no published number for this dataset and algorithm "
                 "in the file")
#: a cell whose published number is missing (the file holds only what could be read here)
OFFLINE = "not available offline"
#: the section's options: the file of published numbers
OPTIONS = ("file",)


def decimals(text) -> float:
    """The decimals a number is printed with (NaN for no number): the precision a
    comparison "to the printed digit" rounds ours to.

    >>> decimals("0.230"), decimals("412.45"), decimals("15"), decimals(float("nan"))
    (3, 2, 0, nan)
    """
    if pd.isna(text) or not str(text).strip():
        return float("nan")
    whole, _, fraction = str(text).strip().partition(".")
    return len(fraction)


def read_published(path: str | Path) -> pd.DataFrame:
    """The published table at ``path``, checked: the columns named, numbers where given;
    with ``<metric>_decimals``, the decimals each mean and std is printed with (the larger
    of the two), read from the file's text."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"published numbers: no file {path}")
    text = pd.read_csv(path, comment="#", dtype=str)   # as printed: its digits are compared
    missing = [c for c in (*REQUIRED, *(f"{m}_{s}" for m in METRICS for s in ("mean", "std")))
               if c not in text]
    if missing:
        raise ValueError(f"{path}: missing columns {missing}")
    table = text.copy()
    for column in text.columns.difference(REQUIRED):
        table[column] = pd.to_numeric(text[column], errors="coerce")
        bad = table[column].isna() & text[column].notna()
        if bad.any():
            line = int(np.flatnonzero(bad)[0]) + 2   # header is line 1
            raise ValueError(f"{path}: column {column} is not a number: "
                             f"{text[column][bad].iloc[0]!r} (row {line})")
    for m in METRICS:
        table[f"{m}_decimals"] = [max(decimals(a), decimals(b)) if not pd.isna(a) else np.nan
                                  for a, b in zip(text[f"{m}_mean"], text[f"{m}_std"])]
    return table


def as_printed(mean: float, std: float, published_mean: float, published_std: float,
               places: float) -> bool | None:
    """Whether our mean and std print as the published ones at the published precision
    (``places`` decimals); None where nothing is published.

    >>> as_printed(0.33182, 0.01179, 0.3318, 0.0118, 4), as_printed(0.2184, 0.004, 0.222, 0.004, 3)
    (True, False)
    """
    if pd.isna(published_mean) or pd.isna(places) or pd.isna(mean):
        return None
    k = int(places)
    same = f"{mean:.{k}f}" == f"{published_mean:.{k}f}"
    return same and (pd.isna(published_std) or f"{std:.{k}f}" == f"{published_std:.{k}f}")


def std_units(ours: float, published: float, published_std: float) -> float:
    """(ours − published) / published std; NaN when either number or a positive std is
    missing.

    >>> round(std_units(0.30, 0.33, 0.01), 9), std_units(1.0, 1.0, 0.0)
    (-3.0, nan)
    """
    if any(pd.isna(v) for v in (ours, published, published_std)) or published_std <= 0:
        return float("nan")
    return (ours - published) / published_std


def order_of(stream: str) -> str:
    """The row order of a dataset stream (``file`` when its name does not say).

    >>> order_of("Dataset[name=svmguide3,order=libol,seed=3]"), order_of("Noisy[n=5]")
    ('libol', 'file')
    """
    return str(parse_name(stream)[1].get("order", "file"))


def dataset_of(stream: str) -> str:
    """The ``name=`` of a dataset stream's full name (else the name itself).

    >>> dataset_of("Dataset[name=svmguide3,order=permuted]"), dataset_of("Noisy[n=5]")
    ('svmguide3', 'Noisy[n=5]')
    """
    return str(parse_name(stream)[1].get("name", stream))


def beside_published(summary: pd.DataFrame, published: pd.DataFrame,
                     algorithms: dict[str, str]) -> pd.DataFrame:
    """Every summary row whose learner has an algorithm name, with the published numbers of
    its (dataset, algorithm) beside (NaN where none are published) and, per metric of
    :data:`COMPARED`, ``<metric>_diff_in_std``. Rows of the published table with no run are
    kept too (ours NaN), so nothing published is dropped silently. Rows come in the order
    of the summary's streams and of ``algorithms``. Our statistics keep the summary's
    columns (time: ``time_s_median``, ``time_s_q1``, ``time_s_q3``)."""
    rows = summary.drop_duplicates([col.STREAM, col.LEARNER])
    ours = pd.DataFrame({"dataset": rows[col.STREAM].map(dataset_of),
                         "order": rows[col.STREAM].map(order_of),
                         "algorithm": rows[col.LEARNER].map(algorithms),
                         col.LEARNER: rows[col.LEARNER]})
    for m in METRICS:
        for s in col.summary_stats(m):   # time: our median and quartiles (LIBOL's: mean, std)
            ours[f"{m}_{s}"] = rows.get(f"{m}_{s}", np.nan)
    ours = ours[ours["algorithm"].notna()]
    pub = published.rename(columns={f"{m}_{s}": f"published_{m}_{s}"
                                    for m in METRICS for s in ("mean", "std", "decimals")})
    out = ours.merge(pub, on=["dataset", "algorithm"], how="outer", sort=False)
    rank = {a: i for i, a in enumerate(dict.fromkeys(algorithms.values()))}
    # the datasets that ran first, in the summary's order; then those only published
    datasets = {d: i for i, d in enumerate(dict.fromkeys([*ours["dataset"], *out["dataset"]]))}
    out["source"] = out["source"].astype(object).where(out["source"].notna(), NOT_AVAILABLE)
    # LIBOL's own orders first (the rows compared digit for digit), then the summary's order;
    # algorithms in the order of ``algorithms`` (the grid's: the study lists Table 3's)
    out = out.assign(_o=~out["order"].eq("libol"), _d=out["dataset"].map(datasets),
                     _a=out["algorithm"].map(rank)
                     ).sort_values(["_o", "_d", "_a"], kind="stable"
                                   ).drop(columns=["_o", "_d", "_a"])
    for m in COMPARED:
        out[f"{m}_diff_in_std"] = [std_units(a, b, s) for a, b, s in zip(
            out[f"{m}_mean"], out[f"published_{m}_mean"], out[f"published_{m}_std"])]
        out[f"{m}_as_printed"] = [as_printed(*v) for v in zip(
            out[f"{m}_mean"], out[f"{m}_std"], out[f"published_{m}_mean"],
            out[f"published_{m}_std"],
            out[f"published_{m}_decimals"] if f"published_{m}_decimals" in out
            else [np.nan] * len(out))]
    return out.reset_index(drop=True)


# --------------------------------------------------------------------------- the report
def published_latex(beside: pd.DataFrame) -> str:
    """The ``tabular`` of :func:`beside_published`: per (dataset, order, algorithm), our
    mistake rate and updates, the published ones and the differences in published std units
    (n/a: no published number), at the published row's decimals where it has one; the last
    column marks the rows that print as published."""
    tex = ["% ours vs published: mean ± std; diff in units of the published std;",
           f"% n/a: published number {OFFLINE} (published.csv's source column says why);",
           "% =: our mistake rate and updates print as the published ones (same digits)",
           "\\begin{tabular}{lllrrrrrrc}", "\\hline",
           "Dataset & Order & Algorithm & Mistake rate & Published & Diff/std & Updates & "
           "Published & Diff/std & \\\\", "\\hline"]
    printed = printed_equal(beside)
    for r, equal in zip(beside.itertuples(index=False), printed):
        cells = [latex_escape(str(r.dataset)), "--" if pd.isna(r.order) else latex_escape(r.order),
                 latex_escape(str(r.algorithm))]
        for m, fmt in ((col.MISTAKE_RATE, ".4f"), (col.UPDATES, ".1f")):
            mean, std = getattr(r, f"{m}_mean"), getattr(r, f"{m}_std")
            pub, pub_std = getattr(r, f"published_{m}_mean"), getattr(r, f"published_{m}_std")
            diff = getattr(r, f"{m}_diff_in_std")
            places = getattr(r, f"published_{m}_decimals", np.nan)
            fmt = fmt if pd.isna(places) else f".{int(places)}f"   # the digits compared
            cells += ["--" if pd.isna(mean) else latex_pm(mean, std, fmt),
                      "n/a" if pd.isna(pub) else latex_pm(pub, pub_std, fmt),
                      "--" if pd.isna(diff) else f"${diff:+.2f}$"]
        cells.append("=" if equal is True else "")
        tex.append(" & ".join(cells) + " \\\\")
    return "\n".join(tex + ["\\hline", "\\end{tabular}"])


def printed_equal(beside: pd.DataFrame) -> pd.Series:
    """Per row: True where our mistake rate and updates (mean and std) print as the
    published ones at the published precision, False where one differs, NaN where nothing
    is published."""
    parts = [beside[f"{m}_as_printed"] for m in COMPARED if f"{m}_as_printed" in beside]
    out = pd.Series(np.nan, index=beside.index, dtype=object)
    for i in beside.index:
        values = [p[i] for p in parts if p[i] is not None and not pd.isna(p[i])]
        if values:
            out[i] = all(values)
    return out


def exact_sentence(beside: pd.DataFrame) -> str:
    """The section's first line: on LIBOL's own orders, how many rows print as published.

    >>> b = pd.DataFrame({"order": ["libol", "libol", "permuted"],
    ...                   "mistake_rate_as_printed": [True, True, True],
    ...                   "updates_as_printed": [True, False, True]})
    >>> exact_sentence(b).split(" rows")[0]
    "On LIBOL's own orders (order=libol), **1 of 2**"
    """
    libol = beside[beside["order"].eq("libol")]
    if libol.empty:
        return ("No run used LIBOL's own orders (stream order=libol): the rows below compare "
                "statistics over other permutations, which can agree only in distribution.")
    printed = printed_equal(libol)
    compared = printed.notna()
    return (f"On LIBOL's own orders (order=libol), **{int(printed[compared].sum())} of "
            f"{int(compared.sum())}** rows print as the published table to its printed digit "
            "(mistake rate and updates, mean and std).")


def published_section(beside: pd.DataFrame, folder: Path, source: str) -> list[str]:
    """Published numbers beside ours (:func:`beside_published`): one row per (dataset,
    algorithm), our mean ± std, the published one, and the difference in published std
    units; also written as ``published.tex``."""
    rows = beside
    shown = pd.DataFrame({"dataset": rows["dataset"], "order": rows["order"],
                          "algorithm": rows["algorithm"]})
    for m, title, _ in LATEX_COLUMNS:
        shown[f"{title} (ours)"] = summary_cells(rows, m)
        shown[f"{title} (published)"] = [OFFLINE if pd.isna(a) else mean_pm(a, s) for a, s in
                                         zip(rows[f"published_{m}_mean"],
                                             rows[f"published_{m}_std"])]
        if f"{m}_diff_in_std" in rows:
            shown[f"{title}: diff / published std"] = rows[f"{m}_diff_in_std"].map(
                lambda d: NONE if pd.isna(d) else f"{d:+.2f}")
    printed = printed_equal(rows)
    shown["as printed"] = printed.map({True: "equal", False: "differs"}).fillna(NONE)
    has = rows["published_mistake_rate_mean"].notna()
    missing = rows.loc[~has, "source"].fillna(NOT_AVAILABLE).value_counts(sort=False)
    counts = (f"From `{source}`: {has.sum()} of {len(rows)} rows have a published mistake "
              "rate" + (f"; the other {(~has).sum()} have none available offline (the table "
                        f"says *{OFFLINE}*; their `source` in `published.csv` says why):"
                        if (~has).any() else "."))
    lines = ["## Published numbers beside ours", "", exact_sentence(rows), "", counts, "",
             *[f"- {n} rows: {why}" for why, n in missing.items()], *([""] if len(missing) else []),
             "*diff / published std* = (ours − published) / published std. Times are shown, "
             "not compared: LIBOL's are MATLAB on another machine (ours: median [quartiles] "
             "over seeds; LIBOL's: mean ± std). Also in `published.csv` and "
             "`published.tex`.", "", markdown_table(shown), ""]
    (Path(folder) / "published.tex").write_text(published_latex(beside) + "\n",
                                               encoding="utf-8")
    return lines


def published_problems(options: dict) -> list[str]:
    """The section's options checked before anything runs: the ``file`` given, there and
    readable (:func:`read_published`)."""
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        return [f"{unknown[0]}: unknown option; libol_published has {', '.join(OPTIONS)}"]
    if not options.get("file"):
        return ["file: no file of published numbers given"]
    try:
        read_published(module_path(options["file"]))
    except (OSError, ValueError) as error:
        return [f"file={options['file']}: {error}"]
    return []


@report_section("libol_published", check=published_problems, needs_selection=True)
def libol_published(inputs: SectionInputs) -> list[str]:
    """Our summary beside the numbers of the section's ``file`` (``published.csv``,
    ``published.tex`` and the report's section), joined by the selection stage's algorithm
    names."""
    published = read_published(module_path(inputs.options["file"]))
    beside = beside_published(inputs.summary, published, inputs.selection.algorithms)
    beside.to_csv(inputs.folder / "published.csv", index=False)
    return published_section(beside, inputs.folder, source=str(inputs.options["file"]))
