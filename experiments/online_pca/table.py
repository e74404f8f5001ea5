"""The online_pca study's report section ``online_pca_table`` (and ``online_pca.csv``): per
stream and learner, what the study asks in one row.

* **regret** against the best fixed rank-k projection of the whole stream (comparator
  ``best_subspace``) at the last round: the mean over seeds with its 95% Student-t interval;
* **slope**: the least-squares slope of log(mean regret against every prefix's best
  projection, ``prefix_best_subspace``) against log t over the second half of the
  checkpoints (1: linear regret; "—" where that regret is not positive throughout);
* **bound**: the declared theorem's observed/bound at the last round (median over seeds);
* **µs/row**: the loop's time per row (median over seeds; :attr:`olbench.protocol.Trace.
  time_s`, compiled, without the comparators);
* **sin Θ** at the last round: ‖sin Θ‖₂ between the subspace played next and the top-k
  eigenvectors of all the rows (mean over seeds; side table ``subspace_error``), and the
  relative eigengap (λ_k − λ_k+1)/λ_k of the rows, which says whether that subspace is
  defined at all.

Registered by importing this file (the config names it in ``modules:``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

import olbench
from olbench import schema as col
from olbench.analysis.markdown import markdown_table
from olbench.analysis.stats import mean_interval
from olbench.analysis.study_sections import SectionInputs, report_section
from olbench.analysis.views import final_rows, loglog_fit, per_checkpoint
from olbench.harness.side import read_side

WHOLE, PREFIX = "BestSubspace", "PrefixBestSubspace"


def slope(t: np.ndarray, regret: np.ndarray) -> float:
    """The figures' log-log slope (:func:`~olbench.analysis.views.loglog_fit`: the second
    half of the checkpoints), NaN where the regret there is not positive throughout (the fit
    would leave those points out and describe the rest).

    >>> round(slope(np.array([1, 10, 100, 1000]), np.array([3.0, 5.0, 50.0, 500.0])), 6)
    1.0
    """
    fitted, _, _, points = loglog_fit(t, regret)
    return fitted if points == int(np.ceil(len(t) / 2)) else float("nan")


def _comparator(rows: pd.DataFrame, name: str) -> pd.DataFrame:
    return rows[rows[col.COMPARATOR].astype(str).str.startswith(name + "[")]


def pca_table(table: pd.DataFrame, side: dict) -> pd.DataFrame:
    """The section's table (module docs), one row per stream and learner, in their order."""
    final = final_rows(table)
    curves = _comparator(per_checkpoint(table), PREFIX)
    bounds = table[table[col.BOUND_NAME].notna()] if col.BOUND_NAME in table else table[:0]
    bounds = bounds[bounds[col.T].eq(bounds.groupby(col.RUN_ID)[col.T].transform("max"))]
    errors = side.get("subspace_error", pd.DataFrame(columns=[col.RUN_ID, col.T]))
    errors = errors[errors[col.T].eq(errors.groupby(col.RUN_ID)[col.T].transform("max"))]
    rows = []
    for (stream, learner), runs in _comparator(final, WHOLE).groupby(
            [col.STREAM_LABEL, col.LEARNER_LABEL], sort=False):
        mean, lo, hi = mean_interval(runs[col.REGRET])
        curve = curves[curves[col.RUN_ID].isin(runs[col.RUN_ID])].groupby(col.T)[col.REGRET]
        curve = curve.mean()
        ratio = bounds[bounds[col.RUN_ID].isin(runs[col.RUN_ID])]
        error = errors[errors[col.RUN_ID].isin(runs[col.RUN_ID])]
        rows.append({
            "stream": stream, "learner": learner, "runs": len(runs),
            "comparator_loss": runs[col.COMPARATOR_LOSS].mean(),
            "regret": mean, "regret_lo": lo, "regret_hi": hi,
            "slope": slope(curve.index.to_numpy(float), curve.to_numpy(float)),
            "bound": ratio[col.BOUND_NAME].iloc[0] if len(ratio) else "",
            "bound_ratio": ratio[col.RATIO].median() if len(ratio) else float("nan"),
            "us_per_row": (runs[col.TIME_S] / runs[col.T]).median() * 1e6,
            "sin_theta": error["sin_theta"].mean() if len(error) else float("nan"),
            "relative_gap": error["relative_gap"].mean() if len(error) else float("nan")})
    return pd.DataFrame(rows)


def _lines(frame: pd.DataFrame) -> list[str]:
    lines = []
    for stream, part in frame.groupby("stream", sort=False):
        shown = pd.DataFrame({
            "learner": part["learner"],
            "regret [95% CI]": [f"{m:,.1f} [{lo:,.1f}, {hi:,.1f}]" for m, lo, hi in
                                zip(part["regret"], part["regret_lo"], part["regret_hi"])],
            "slope": part["slope"].map(lambda v: "—" if np.isnan(v) else f"{v:.2f}"),
            "observed/bound": [f"{r:.2f} ({b})" if b else "—"
                               for r, b in zip(part["bound_ratio"], part["bound"])],
            "µs/row": part["us_per_row"].map(lambda v: f"{v:.2f}"),
            "‖sin Θ‖₂ at T": part["sin_theta"].map(lambda v: f"{v:.2g}")})
        first = part.iloc[0]
        lines += [f"**{stream}**: best rank-k loss L* = {first['comparator_loss']:,.1f}, "
                  f"relative eigengap of all the rows {first['relative_gap']:.3f}, "
                  f"{int(part['runs'].max())} seeds.", "",
                  markdown_table(shown, code=("learner",)), ""]
    return lines


@report_section("online_pca_table")
def online_pca_table(inputs: SectionInputs) -> list[str]:
    """The module's table in the report, and all its numbers in ``online_pca.csv``."""
    frame = pca_table(olbench.load_results(inputs.folder).table, read_side(inputs.folder))
    frame.to_csv(inputs.folder / "online_pca.csv", index=False)
    return ["## Online PCA: regret, cost and the subspace played", "",
            "Regret against the best fixed rank-k projection of the whole stream "
            "(`best_subspace`, compression loss) at the last round, mean over seeds with its "
            "95% Student-t interval; slope: log-log least squares of the mean regret against "
            "every prefix's best projection over the second half of the checkpoints "
            "(1 = linear); observed/bound of the declared theorem at the last round (median); "
            "µs/row: the compiled loop's time per row (median); ‖sin Θ‖₂ at T: the distance "
            "from the subspace played next to the top-k eigenvectors of all the rows (mean). "
            "All numbers: `online_pca.csv`.", ""] + _lines(frame)
