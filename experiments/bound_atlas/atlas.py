"""The bound_atlas study's report section ``bound_atlas`` (and ``bound_atlas.csv``) and its
figure ``bound_atlas``: for every theorem and learner setting, the best observed / bound a
search found at each horizon (the witnesses, each run once by the grid) beside the ratios
of random streams (the task's generators at their stated parameters, ten seeds, checked at
the same horizons), with the literature's lower bound and the verdict.

Both read the results table only (the witness runs' rows are found by their stream, key
``witness``, and the theorem by the witness file's name, ``<theorem>__...``); the section
also reads each witness file, to compare the ratio it recorded with the run's (a witness
the run does not reproduce to 1e-12 is flagged in the table, never dropped). Registered by
importing this file (the config names it in ``modules:``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

import olbench
from olbench import schema as col
from olbench.analysis.figures.layout import finish_page, paged, panels
from olbench.analysis.figures.registry import figure
from olbench.analysis.figures.style import learner_styles, styled
from olbench.analysis.markdown import markdown_table
from olbench.analysis.study_sections import SectionInputs, report_section
from olbench.analysis.views import ok_rows, short_label
from olbench.atlas.literature import lower_bound
from olbench.atlas.witness import load
from olbench.paths import REPO_ROOT

#: a ratio at least this is the bound attained (rounding aside); at least NEARLY: nearly
ATTAINED, NEARLY = 1 - 1e-6, 0.9
WITNESS_FILE = f"{col.STREAM}_file"     # the witness stream's parameter, as a column


def verdict(ratio: float, random_max: float = float("nan")) -> str:
    """attained, nearly or gap; a bound random streams attain too is said to be (it binds
    wherever it is evaluated: a tautology there, not a tight worst case).

    >>> verdict(1.0), verdict(0.95), verdict(0.5), verdict(1.0, random_max=1.0)
    ('attained', 'nearly', 'gap', 'attained, by random streams too')
    """
    if ratio >= ATTAINED and random_max >= ATTAINED:
        return "attained, by random streams too"
    return "attained" if ratio >= ATTAINED else "nearly" if ratio >= NEARLY else "gap"


def atlas_rows(table: pd.DataFrame) -> pd.DataFrame:
    """One row per (ok run, theorem) with a ratio at the run's last round T: ``kind``
    "witness" (the witness's own theorem only, ``witness`` its file) or "random"."""
    ok = ok_rows(table)
    if col.BOUND_NAME not in ok or ok.empty:
        return pd.DataFrame(columns=[col.BOUND_NAME, col.LEARNER_LABEL, col.T, col.RATIO,
                                     "kind", "witness", col.SEED])
    rows = ok[ok[col.BOUND_NAME].notna() & ok[col.RATIO].notna()]
    rows = rows.drop_duplicates([col.RUN_ID, col.T, col.BOUND_NAME])
    files = rows[WITNESS_FILE] if WITNESS_FILE in rows else pd.Series("", index=rows.index)
    is_witness = rows[col.STREAM_KEY].eq("witness")
    stem = files.fillna("").map(lambda f: Path(str(f)).stem)
    # every run at its last round (a random stream is drawn T rows long for each horizon
    # T, as a witness is); a witness for its own theorem only
    keep = rows[col.T].eq(rows[col.STREAM_N]) & (
        ~is_witness | stem.str.split("__").str[0].eq(rows[col.BOUND_NAME]))
    rows = rows.assign(kind=np.where(is_witness, "witness", "random"),
                       witness=files.where(is_witness, ""),
                       **{col.LEARNER_LABEL: short_label(rows, col.LEARNER, table)})[keep]
    return rows[[col.BOUND_NAME, col.LEARNER_LABEL, col.T, col.RATIO, "kind", "witness",
                 col.SEED]].reset_index(drop=True)


def atlas_table(table: pd.DataFrame, folder: str | Path) -> pd.DataFrame:
    """One row per witness file of ``folder``: theorem, learner, T, the ratio the run
    measured and the one the witness recorded (``reproduced``: within 1e-12), how it was
    found, the literature's lower bound and the ratio of its construction where olbench
    generates it, the random streams' mean and max at T (and how many runs), the verdict."""
    rows = atlas_rows(table)
    witnesses = rows[rows["kind"].eq("witness")]
    names = witnesses["witness"].map(lambda f: Path(str(f)).name)   # once, not per file
    random = rows[rows["kind"].eq("random")]
    out = []
    base = Path(folder) if Path(folder).is_absolute() else REPO_ROOT / folder
    for file in sorted(base.glob("*.json")):
        w = load(file)
        run = witnesses[names.eq(file.name)]
        ratio = float(run[col.RATIO].iloc[0]) if len(run) else float("nan")
        learner = run[col.LEARNER_LABEL].iloc[0] if len(run) else w.learner["key"]
        contrast = random[random[col.BOUND_NAME].eq(w.theorem)
                          & random[col.LEARNER_LABEL].eq(learner) & random[col.T].eq(w.T)]
        search = w.extra.get("search", {})
        built = [search["starts"][name] for name in search.get("constructions", [])]
        known, source = lower_bound(w.theorem)
        out.append({
            "theorem": w.theorem, "learner": learner, "T": w.T, "ratio": ratio,
            "witness_ratio": w.ratio, "reproduced": bool(abs(ratio - w.ratio) <= 1e-12),
            "how": w.how, "witness": f"{Path(folder).as_posix()}/{file.name}",
            "lower_bound": known, "lower_bound_source": source,
            "construction_ratio": max((r for r in built if r is not None), default=np.nan),
            "random_mean": contrast[col.RATIO].mean(), "random_max": contrast[col.RATIO].max(),
            "random_runs": len(contrast),
            "verdict": verdict(ratio, contrast[col.RATIO].max()) if len(run) else "not run"})
    return pd.DataFrame(out)


def _per_theorem(frame: pd.DataFrame) -> pd.DataFrame:
    best = frame.loc[frame.groupby("theorem")["ratio"].idxmax()]
    return pd.DataFrame({
        "theorem": best["theorem"], "verdict": best["verdict"],
        "best ratio": [f"{r:.4f} ({learner}, T={t})" for r, learner, t in
                       zip(best["ratio"], best["learner"], best["T"])],
        "random streams at that T: mean / max": [
            f"{m:.3f} / {x:.3f}" if n else "—" for m, x, n in
            zip(best["random_mean"], best["random_max"], best["random_runs"])],
        "literature": [f"{k} ({s})" if s else k for k, s in
                       zip(best["lower_bound"], best["lower_bound_source"])],
        "its construction here": best["construction_ratio"].map(
            lambda v: "—" if np.isnan(v) else f"{v:.4f}")})


def _per_setting(frame: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for (theorem, learner), part in frame.groupby(["theorem", "learner"], sort=True):
        part = part.sort_values("T")
        last = part.iloc[-1]
        rows.append({"theorem": theorem, "learner": learner,
                     "best found (T = " + ", ".join(map(str, part["T"])) + ")":
                         " / ".join(f"{r:.3f}" for r in part["ratio"]),
                     "random max": " / ".join("—" if np.isnan(r) else f"{r:.3f}"
                                              for r in part["random_max"]),
                     "how (largest T)": last["how"],
                     "reproduced": "yes" if part["reproduced"].all() else "**NO**"})
    return pd.DataFrame(rows)


@report_section("bound_atlas",
                check=lambda o: [] if "witnesses" in o else ["witnesses: the witness folder "
                                                             "is required"])
def bound_atlas_section(inputs: SectionInputs) -> list[str]:
    """The verdict per theorem, the best ratio per learner setting and horizon; every number
    in ``bound_atlas.csv``."""
    frame = atlas_table(olbench.load_results(inputs.folder).table,
                        inputs.options["witnesses"])
    frame.to_csv(inputs.folder / "bound_atlas.csv", index=False)
    if frame.empty:
        return ["## The bound atlas", "", "No witness was found in "
                f"`{inputs.options['witnesses']}`.", ""]
    failed = frame[~frame["reproduced"]]
    lines = ["## The bound atlas: how close a legal stream comes to each theorem", "",
             "Per theorem, the largest observed / bound found by the search over every "
             "learner setting declaring it and every horizon (the witness run once: a witness "
             "draws nothing), the verdict (attained: >= 1 - 1e-6; nearly: >= 0.9; else a gap "
             "the search did not close), the random streams (the task's generators at their "
             "stated parameters, 10 seeds) at that horizon, and the literature's lower bound. "
             f"{len(frame)} witnesses; all numbers: `bound_atlas.csv`.", "",
             markdown_table(_per_theorem(frame), code=("theorem",)), ""]
    if len(failed):
        lines += [f"**{len(failed)} witnesses were not reproduced to 1e-12**: "
                  + ", ".join(f"`{w}`" for w in failed["witness"]), ""]
    return lines + ["Per learner setting: the best ratio found at each horizon and the "
                    "random streams' largest there.", "",
                    markdown_table(_per_setting(frame), code=("theorem", "learner")), ""]


@figure("bound_atlas", order=47,
        caption="Per theorem: the largest observed / bound found by the bound atlas's search "
                "at each horizon T (solid, one line per learner setting declaring it; each "
                "point one witness run once) and, for contrast, the same learner on its "
                "task's generators at their stated parameters: largest (dashed) and mean "
                "(dotted) over the seeds and generators. 1 = the bound attained.")
@styled
def bound_atlas_figure(table: pd.DataFrame) -> Figure | list | None:
    """One panel per theorem; ``None`` without witness runs."""
    rows = atlas_rows(table)
    if not rows["kind"].eq("witness").any():
        return None
    styles = learner_styles(rows[col.LEARNER_LABEL])
    theorems = sorted(rows.loc[rows["kind"].eq("witness"), col.BOUND_NAME].unique())
    seeds = rows.loc[rows["kind"].eq("random"), col.SEED].nunique()

    def page(chosen: list[str]) -> Figure:
        fig, axes = panels(len(chosen), ncols=3, size=(4.2, 3.2))
        for ax, theorem in zip(axes, chosen):
            _draw_theorem(ax, rows[rows[col.BOUND_NAME].eq(theorem)], styles)
        key = [Line2D([], [], color="0.3", linestyle=s, label=text) for s, text in
               (("-", "best found (a witness, run once)"),
                ("--", f"random streams: largest over {seeds} seeds"),
                (":", "random streams: mean"))]
        for handle in key:     # last in the legend, after the learners
            axes[-1].add_line(handle)
        return finish_page(fig, axes, chosen, "Bound atlas: observed / bound, the worst "
                           "stream found vs random streams")

    return paged(theorems, page, per_page=6, fit=True)


def _draw_theorem(ax, rows: pd.DataFrame, styles: dict) -> None:
    found = rows[rows["kind"].eq("witness")]
    for learner, part in found.groupby(col.LEARNER_LABEL, sort=True):
        style = {k: v for k, v in styles[learner].items() if k != "markevery"}
        best = part.groupby(col.T)[col.RATIO].max()
        ax.plot(best.index, best.to_numpy(), **{**style, "linestyle": "-"}, label=learner)
        random = rows[rows["kind"].eq("random") & rows[col.LEARNER_LABEL].eq(learner)
                      & rows[col.T].isin(best.index)].groupby(col.T)[col.RATIO]
        if len(random.size()):
            ax.plot(random.max().index, random.max().to_numpy(), color=style["color"],
                    linestyle="--", linewidth=1.0)
            ax.plot(random.mean().index, random.mean().to_numpy(), color=style["color"],
                    linestyle=":", linewidth=1.0)
    ax.axhline(1.0, color="0.5", linewidth=0.8)
    ax.set_xscale("log")
    horizons = sorted(rows[col.T].unique())
    ax.set_xticks(horizons, [f"{t:g}" for t in horizons])
    ax.minorticks_off()
    # a negative ratio (a regret below the comparator's) is drawn, not cut off
    ax.set_ylim(min(0.0, float(rows[col.RATIO].min()) - 0.05), 1.08)
    ax.set_xlabel("horizon T (rounds)")
    ax.set_ylabel("observed / bound")
