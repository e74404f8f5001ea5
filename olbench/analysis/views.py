"""Table views: pure functions from the results table to smaller tables, series and names,
shared by the figures (:mod:`olbench.analysis.figures`) and the summary and report
(:mod:`olbench.analysis.summary`, :mod:`olbench.analysis.report`).

The data flows one way: results table -> views -> figures / report. Nothing here draws (no
matplotlib) or recomputes a metric: views only select, group, label and average the columns
the grid wrote (DESIGN.md section 1).

Conventions: rows with ``status != col.OK`` are ignored; a stream or learner is identified by
its name without the ``seed=`` parameter (seeds are the replicates averaged over); the
per-checkpoint metrics repeat once per bound row, so curves use one row per (run_id, t).

>>> drop_param("Noisy[n=500,d=5,seed=3,bias=False]")
'Noisy[n=500,d=5,bias=False]'
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from olbench import schema as col

# the component-name functions are the engine's (olbench.names); the views' callers find
# them here too
from olbench.names import display_name, display_names, drop_param, natural_key  # noqa: F401


def sorted_unique(values) -> list:
    """The distinct non-null values (as they are), in :func:`natural_key` order.

    >>> sorted_unique([10, 2, None, 2, float("nan")])
    [2, 10]
    """
    return sorted({v for v in _distinct(values) if v is not None and not pd.isna(v)},
                  key=natural_key)


def _distinct(values):
    """The distinct values, found before any per-value work: a column of 100,000 rows holds
    a few distinct names (``pd.unique`` on a column: iterating an Arrow string column is
    slow)."""
    if isinstance(values, (pd.Series, pd.Index, np.ndarray)):
        return pd.unique(values)
    return set(values)


def ordered(values) -> list[str]:
    """The distinct non-null values as strings, in :func:`natural_key` order.

    >>> ordered(["S[k=100]", None, "S[k=25]", "S[k=25]"])
    ['S[k=25]', 'S[k=100]']
    """
    return sorted_unique({str(v) for v in _distinct(values) if v is not None and not pd.isna(v)})


def natural_order(df: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """The rows of ``df`` sorted by the :func:`natural_key` of the ``by`` columns."""
    order = sorted(range(len(df)), key=lambda i: tuple(natural_key(df[c].iloc[i]) for c in by))
    return df.iloc[order].reset_index(drop=True)


def groups(df: pd.DataFrame, col: str):
    """``(value, rows)`` of ``df`` grouped by ``col``, in :func:`natural_key` order."""
    for value in ordered(df[col]):
        yield value, df[df[col].astype(str).eq(value)]


def label(table: pd.DataFrame, concept: str) -> pd.Series:
    """Per row, the ``concept`` ("stream" or "learner") name without ``seed=`` (nor a random
    start's ``init_seed=``, which a grid derives from the run seed: a replicate too), or its
    registry key (``<concept>_key``) when the run failed before the name was known.

    >>> label(pd.DataFrame({"learner": ["PA[C=1.0,seed=3]", None], "learner_key": ["pa", "arow"]}),
    ...       "learner").tolist()
    ['PA[C=1.0]', 'arow']
    >>> label(pd.DataFrame({"learner": ["PA[init=randn,init_seed=7]"]}), "learner").tolist()
    ['PA[init=randn]']
    """
    out = np.full(len(table), "?", dtype=object)
    for column in (f"{concept}_key", concept):  # the name where known, else the key
        if column in table:
            codes, distinct = pd.factorize(table[column])  # each distinct name parsed once
            known = codes >= 0
            out[known] = np.array([drop_param(drop_param(v), "init_seed") for v in distinct],
                                  dtype=object)[codes[known]]
    return pd.Series(out, index=table.index)


# --------------------------------------------------------------------------- rows
def ok_rows(table: pd.DataFrame) -> pd.DataFrame:
    """The rows of successful runs (``status == col.OK``)."""
    return table[table[col.STATUS].eq(col.OK)]


def short_label(rows: pd.DataFrame, concept: str, table: pd.DataFrame | None = None) -> pd.Series:
    """Per row of ``rows``, the display name of its ``concept`` (:func:`label`, then
    :func:`display_names` over every ok run of ``table``, default ``rows``: the same name
    gets the same short name in every view of one table, and two settings never share one).

    >>> tb = pd.DataFrame({"status": "ok", "learner": ["PA[C=1.0,variant=pa1,seed=1]"]})
    >>> short_label(tb, "learner").tolist()
    ['PA-I (C=1)']
    """
    full = label(ok_rows(rows if table is None else table), concept)
    names = display_names(ordered(full))
    # names.get(n, display_name(n)) would parse every row's name (88,000 rows: seconds)
    return label(rows, concept).map(lambda n: names[n] if n in names else display_name(n))


def per_checkpoint(table: pd.DataFrame) -> pd.DataFrame:
    """One row per (run_id, t, comparator) of the ok runs, with ``stream_label`` and
    ``learner_label`` (the display names, :func:`short_label`) and ``stream_name`` and
    ``learner_name`` (the full names without ``seed=``) added; bound columns are dropped.
    Metrics of the learner alone repeat on each comparator's rows: :func:`one_per_learner`
    keeps one."""
    keys = [col.RUN_ID, col.T] + ([col.COMPARATOR] if col.COMPARATOR in table else [])
    ok = ok_rows(table).drop_duplicates(keys)
    bound_cols = [c for c in col.BOUND_COLUMNS if c != col.T]
    return (ok.drop(columns=[c for c in bound_cols if c in ok])
              .assign(**{col.STREAM_LABEL: short_label(ok, col.STREAM, table),
                         col.LEARNER_LABEL: short_label(ok, col.LEARNER, table),
                         col.STREAM_NAME: label(ok, col.STREAM),
                         col.LEARNER_NAME: label(ok, col.LEARNER)})
              .sort_values([col.STREAM_LABEL, col.LEARNER_LABEL, col.SEED, col.T])
              .reset_index(drop=True))


def final_rows(table: pd.DataFrame) -> pd.DataFrame:
    """The last checkpoint of every ok run (one row per run_id and comparator)."""
    cp = per_checkpoint(table)
    return cp[cp[col.T].eq(cp.groupby(col.RUN_ID)[col.T].transform("max"))].reset_index(drop=True)


def one_per_learner(cp: pd.DataFrame) -> pd.DataFrame:
    """For comparator-free metrics (mistakes, updates, time) of :func:`per_checkpoint` rows:
    runs that differ only by comparator count once."""
    return cp.drop_duplicates([col.STREAM_LABEL, col.LEARNER_LABEL, col.SEED, col.T])


def windowed_rate(cp: pd.DataFrame, value: str = col.MISTAKES) -> pd.DataFrame:
    """Per run, the rate of a cumulative ``value`` within each window between consecutive
    checkpoints, (value(t_k) - value(t_{k-1})) / (t_k - t_{k-1}), at t = t_k (the first
    window starts at round 0); ``cp``: :func:`per_checkpoint` rows. Column ``rate``.

    >>> cp = pd.DataFrame({"run_id": "a", "t": [100, 200, 400], "mistakes": [10, 10, 50]})
    >>> windowed_rate(cp)["rate"].tolist()
    [0.1, 0.0, 0.2]
    """
    cp = cp.sort_values([col.RUN_ID, col.T])
    runs = cp.groupby(col.RUN_ID)
    d_value = runs[value].diff().fillna(cp[value])
    d_t = runs[col.T].diff().fillna(cp[col.T])
    return cp.assign(rate=d_value / d_t).reset_index(drop=True)


# --------------------------------------------------------------------------- sweeps
def _number(v) -> bool:
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)


def swept_parameters(cp: pd.DataFrame) -> list[tuple[str, str]]:
    """The numeric parameters a grid swept: ``(concept, param)`` ("stream" or "learner") for
    each parameter that takes several numeric values among the names (seed dropped) of one
    class; ``cp``: :func:`per_checkpoint` rows. The seed is a replicate, never a sweep;
    categorical parameters (PA's variant) make different learners, not a sweep.

    >>> cp = pd.DataFrame({"stream_name": ["S[g=0.1,n=5]", "S[g=0.2,n=5]", "T[k=1]"],
    ...                    "learner_name": ["P[v=a]", "P[v=b]", "P[v=a]"]})
    >>> swept_parameters(cp)
    [('stream', 'g')]
    """
    from olbench.component import parse_name

    found: list[tuple[str, str]] = []
    for concept in (col.STREAM, col.LEARNER):
        values: dict[tuple[str, str], set] = {}
        for name in ordered(cp[f"{concept}_name"]):
            title, params = parse_name(name)
            for param, value in params.items():
                values.setdefault((title, param), set()).add(value)
        for (_, param), seen in values.items():
            if (len(seen) > 1 and all(_number(v) for v in seen)
                    and (concept, param) not in found):
                found.append((concept, param))
    return found


def sweep_rows(fin: pd.DataFrame, concept: str, param: str) -> pd.DataFrame:
    """The final rows of the runs whose ``concept`` name has ``param``, with ``value`` (its
    value), ``series`` (the learner's full name, without ``param`` when the sweep is the
    learner's) and ``panel`` (the stream's, without ``param`` when the sweep is the stream's).

    >>> fin = pd.DataFrame({"stream_name": ["S[g=0.1,n=5]", "S[g=0.2,n=5]", "T[k=1]"],
    ...                     "learner_name": "P"})
    >>> sweep_rows(fin, "stream", "g")[["value", "series", "panel"]].values.tolist()
    [[0.1, 'P', 'S[n=5]'], [0.2, 'P', 'S[n=5]']]
    """
    from olbench.component import parse_name

    names = fin[f"{concept}_name"]
    value = names.map(lambda n: parse_name(n)[1].get(param))
    rows = fin[value.notna() & value.map(_number)].assign(value=value.astype(float))
    swept = rows[f"{concept}_name"].map(lambda n: drop_param(n, param))
    if concept == col.STREAM:
        return rows.assign(series=rows[col.LEARNER_NAME], panel=swept)
    return rows.assign(series=swept, panel=rows[col.STREAM_NAME])


# --------------------------------------------------------------------------- statistics
def mean_band(cp: pd.DataFrame, value: str, by: list[str], z: float = 1.96) -> pd.DataFrame:
    """Mean of ``value`` over seeds at each checkpoint, with a ``z``-sd-of-the-mean band.

    Returns ``by + ["t", "mean", "lo", "hi", "k"]``; one seed gives a zero-width band.

    >>> cp = pd.DataFrame({"g": "a", "t": [1, 1, 2, 2], "v": [1.0, 3.0, 2.0, 2.0]})
    >>> mean_band(cp, "v", ["g"])[["t", "mean", "k"]].values.tolist()
    [[1.0, 2.0, 2.0], [2.0, 2.0, 2.0]]
    """
    g = cp.dropna(subset=[value]).groupby(by + [col.T])[value].agg(["mean", "std", "count"])
    half = z * g["std"].fillna(0.0) / np.sqrt(g["count"])
    return pd.DataFrame({"mean": g["mean"], "lo": g["mean"] - half, "hi": g["mean"] + half,
                         "k": g["count"]}).reset_index()


def median_band(cp: pd.DataFrame, value: str, by: list[str]) -> pd.DataFrame:
    """Median of ``value`` over seeds at each checkpoint, with the interquartile range as the
    band: a robust centre for timings, where one preempted seed must not move the line.

    Returns ``by + ["t", "mean", "lo", "hi", "k"]`` (``mean`` holds the median, so that
    figures draw either band alike).

    >>> cp = pd.DataFrame({"g": "a", "t": 1, "v": [1.0, 2.0, 3.0, 100.0]})
    >>> median_band(cp, "v", ["g"])[["mean", "lo", "hi", "k"]].values.tolist()
    [[2.5, 1.75, 27.25, 4.0]]
    """
    g = cp.dropna(subset=[value]).groupby(by + [col.T])[value]
    out = pd.DataFrame({"mean": g.median(), "lo": g.quantile(0.25), "hi": g.quantile(0.75),
                        "k": g.count()})
    return out.reset_index()


def loglog_fit(t, y, tail: float = 0.5) -> tuple[float, float, float, int]:
    """Least-squares slope of log y vs log t over the last ``tail`` fraction of the points
    (only points with y > 0 count), with the range of t it was fitted over and the number
    of points: ``(slope, t_first, t_last, points)``; NaNs and 0 points if fewer than two.

    >>> t = np.geomspace(1, 1e4, 20); s, a, b, k = loglog_fit(t, 3 * t ** 0.5)
    >>> round(s, 6), round(a), round(b), k
    (0.5, 127, 10000, 10)
    """
    t, y = np.asarray(t, float), np.asarray(y, float)
    start = len(t) - int(np.ceil(tail * len(t)))
    t, y = t[start:], y[start:]
    keep = (y > 0) & (t > 0) & np.isfinite(y)
    if keep.sum() < 2:
        return float("nan"), float("nan"), float("nan"), 0
    slope = float(np.polyfit(np.log(t[keep]), np.log(y[keep]), 1)[0])
    return slope, float(t[keep].min()), float(t[keep].max()), int(keep.sum())


def loglog_slope(t, y, tail: float = 0.5) -> float:
    """The slope of :func:`loglog_fit` (NaN if fewer than two positive points).

    >>> t = np.geomspace(1, 1e4, 20); round(loglog_slope(t, 3 * t ** 0.5), 6)
    0.5
    """
    return loglog_fit(t, y, tail)[0]


# --------------------------------------------------------------------------- bounds
def bound_flag(v) -> bool | None:
    """A ``bound_holds`` cell as True / False / None (None, NaN and pd.NA: no check made).

    >>> bound_flag(True), bound_flag(np.False_), bound_flag(None), bound_flag(pd.NA)
    (True, False, None, None)
    """
    return None if v is None or pd.isna(v) else bool(v)


def final_bound_checks(table: pd.DataFrame) -> pd.DataFrame:
    """One row per (ok run, bound) with a bound value, at the run's final checkpoint."""
    ok = ok_rows(table)
    if col.BOUND_NAME not in ok:
        return ok.iloc[:0]
    last = ok[col.T].eq(ok.groupby(col.RUN_ID)[col.T].transform("max"))
    rows = ok[last & ok[col.BOUND_NAME].notna() & ok[col.BOUND].notna() & ok[col.OBSERVED].notna()]
    rows = rows.drop_duplicates([col.RUN_ID, col.BOUND_NAME])  # repeated once per comparator
    return rows.assign(violated=rows[col.BOUND_HOLDS].map(bound_flag).eq(False),
                       **{col.LEARNER_LABEL: short_label(rows, col.LEARNER, table)}
                       ).reset_index(drop=True)


def bound_curves(table: pd.DataFrame, quantity: str) -> pd.DataFrame:
    """The bounds on ``quantity`` (e.g. "regret") at every checkpoint, averaged over seeds:
    one row per (stream_label, learner_label, bound_name, t) with ``bound``; empty when no
    run checked one.

    >>> tb = pd.DataFrame({"status": "ok", "run_id": ["a", "a", "b"], "t": [1, 2, 2],
    ...     "stream": "S", "learner": "L", "bound_name": "b", "quantity": "regret",
    ...     "bound": [1.0, 2.0, 4.0]})
    >>> bound_curves(tb, "regret")[["t", "bound"]].values.tolist()
    [[1.0, 1.0], [2.0, 3.0]]
    """
    ok = ok_rows(table)
    if col.BOUND_NAME not in ok or col.QUANTITY not in ok:
        return pd.DataFrame(columns=[col.STREAM_LABEL, col.LEARNER_LABEL, col.BOUND_NAME, col.T,
                                     col.BOUND])
    rows = ok[ok[col.QUANTITY].eq(quantity) & ok[col.BOUND].notna()]
    rows = rows.drop_duplicates([col.RUN_ID, col.T, col.BOUND_NAME])
    rows = rows.assign(**{col.STREAM_LABEL: short_label(rows, col.STREAM, table),
                          col.LEARNER_LABEL: short_label(rows, col.LEARNER, table)})
    keys = [col.STREAM_LABEL, col.LEARNER_LABEL, col.BOUND_NAME, col.T]
    return rows.groupby(keys)[col.BOUND].mean().reset_index()


def novikoff_bounds(table: pd.DataFrame) -> pd.Series:
    """The Novikoff bound (R/γ)² per stream label: the median over runs that have one."""
    ok = ok_rows(table)
    if col.BOUND_NAME not in ok:
        return pd.Series(dtype=float)
    rows = ok[ok[col.BOUND_NAME].eq("novikoff") & ok[col.BOUND].notna()]
    return rows.groupby(short_label(rows, col.STREAM, table))[col.BOUND].median()


# --------------------------------------------------------------------------- what numbers mean
def comparator_skips(table: pd.DataFrame) -> pd.DataFrame:
    """Comparators that gave no regret, and why: one row per (stream name without ``seed=``,
    comparator, reason) with the number of ok runs it concerns. Empty when every comparator
    was used.

    >>> t = pd.DataFrame({"run_id": ["a", "a", "b"], "t": [1, 1, 1], "status": "ok",
    ...     "stream": "S[seed=1]", "learner": "L", "comparator": ["B", "M", "B"],
    ...     "comparator_skip_reason": [None, "not separable", None]})
    >>> comparator_skips(t).values.tolist()
    [['S', 'M', 'not separable', 1]]
    """
    columns = [col.STREAM_NAME, col.COMPARATOR, "reason", "runs"]
    if col.COMPARATOR_SKIP not in table:
        return pd.DataFrame(columns=columns)
    rows = ok_rows(table)
    rows = rows[rows[col.COMPARATOR_SKIP].notna()]
    if rows.empty:
        return pd.DataFrame(columns=columns)
    out = (rows.assign(**{col.STREAM_NAME: label(rows, col.STREAM)},
                       reason=rows[col.COMPARATOR_SKIP])
               .groupby([col.STREAM_NAME, col.COMPARATOR, "reason"])[col.RUN_ID].nunique()
               .rename("runs").reset_index())
    return natural_order(out, [col.STREAM_NAME, col.COMPARATOR])[columns]


def scale_dependent(table: pd.DataFrame) -> dict[str, str]:
    """``{learner label: parameter}`` for the learners of the table whose loss-based numbers
    (cumulative loss, regret) depend on a parameter that only rescales w (their mistakes do
    not): each learner class declares it (``Learner.scale_param``).

    >>> scale_dependent(pd.DataFrame({"learner": ["Perceptron[eta=2.0,tie=novikoff]",
    ...     "PA[C=1.0,variant=pa1]"], "learner_key": ["perceptron", "pa"], "status": "ok"}))
    {'Perceptron[eta=2.0,tie=novikoff]': 'eta'}
    """
    from olbench.learners import Learner

    if col.LEARNER_KEY not in table:
        return {}
    rows = ok_rows(table).drop_duplicates(col.LEARNER)
    out = {}
    for name, key in zip(label(rows, col.LEARNER), rows[col.LEARNER_KEY]):
        param = (getattr(Learner.registry.get(key), "scale_param", None)
                 if key in Learner.registry.keys() else None)
        if param:
            out[name] = param
    return out


#: the error rates of :func:`error_rates`: column -> what the labels are
ERROR_RATES = {col.MISTAKE_RATE: "observed labels", col.CLEAN_MISTAKE_RATE: "clean labels",
               col.INLIER_MISTAKE_RATE: "inliers only"}


def error_rates(table: pd.DataFrame) -> pd.DataFrame:
    """The mistake rate against the observed labels, against the clean labels (noisy
    streams: before the flips) and on the inliers only (outlier streams), in long form for
    figures: ``stream_label, learner_label, seed, t, against, rate``, one row per run,
    checkpoint and kind of rate the stream has (comparators do not enter).

    >>> t = pd.DataFrame({"run_id": "a", "t": [10], "status": "ok", "seed": 0, "stream": "S",
    ...     "learner": "L", "mistake_rate": [0.2], "clean_mistake_rate": [0.1]})
    >>> error_rates(t)[["against", "rate"]].values.tolist()
    [['observed labels', 0.2], ['clean labels', 0.1]]
    """
    cp = one_per_learner(per_checkpoint(table))
    present = [c for c in ERROR_RATES if c in cp]
    long = cp.melt(id_vars=[col.STREAM_LABEL, col.LEARNER_LABEL, col.SEED, col.T],
                   value_vars=present, var_name="against", value_name="rate")
    long = long[long["rate"].notna()].assign(against=lambda d: d["against"].map(ERROR_RATES))
    return long.reset_index(drop=True)
