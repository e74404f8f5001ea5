"""Native multiclass learners against one-vs-rest: the ``libol_multiclass`` study's report
section ``multiclass_families`` and its two files.

The study runs LIBOL's thirteen multiclass algorithms (one weight matrix W, one update of at
most two rows, or all errorful rows, per round) beside LIBOL's sixteen binary algorithms run
one-vs-rest (k binary learners, one per class, each on its own +-1 labels, the class of the
largest margin predicted), every learner on the same LIBOL orders (``order=libol``: seed i
is LIBOL's run i, the same permutation for every learner), so any two learners are compared
order by order (paired by seed).

The section answers "which family wins on which data, and by how much" twice:

* **family** (``families.csv``): per dataset, the best learner of each family (the lowest
  mean mistake rate over the orders; only learners whose every run finished compete, the
  others are named), and the paired difference one-vs-rest minus native over the orders
  with its t interval, the Wilcoxon signed-rank p-value and the orders won by each side. The
  best of a family is chosen on the same runs it is scored on, and the one-vs-rest family
  has more members: the difference of the two bests leans toward one-vs-rest, which the
  second view does not.
* **algorithm by algorithm** (``pairs.csv``): each native algorithm against the one-vs-rest
  form of the same binary algorithm (the config's ``pairs``, e.g. M_AROW against OvR AROW),
  per dataset: the paired difference native minus one-vs-rest with its t interval and
  Holm-adjusted p-value over all the pairs and datasets of the study.

Mistake rates are LIBOL's (hat_y != y, hat_y the first index of the top score). A row whose
runs did not all finish (LIBOL's M_CW, whose Sigma can lose positive definiteness) is
compared on the orders where both finished, and says on how many.
"""

from __future__ import annotations

import pandas as pd

import olbench
from olbench import schema as col
from olbench.analysis.markdown import markdown_table
from olbench.analysis.stats import holm, paired_test
from olbench.analysis.study_sections import SectionInputs, report_section
from olbench.analysis.views import final_rows, label
from olbench.component import parse_name
from olbench.harness.studies import study_module

#: the metric compared (LIBOL's mistake rate at the last round)
METRIC = col.MISTAKE_RATE
NATIVE, ONE_VS_REST = "native", "one-vs-rest"
#: the families' prefix in families.csv's columns
PREFIX = {NATIVE: "native", ONE_VS_REST: "ovr"}
#: the name= of a dataset stream's full name (libol_table's published.py)
dataset_of = study_module("experiments/libol_table/published.py").dataset_of


def family(learner: str) -> str:
    """``one-vs-rest`` for a one-vs-rest learner's full name, else ``native``.

    >>> family("OneVsRest[binary=pa,binary_params=(variant=pa)]"), family("MulticlassPA[C=1.0]")
    ('one-vs-rest', 'native')
    """
    return ONE_VS_REST if parse_name(learner)[0] == "OneVsRest" else NATIVE


def runs_asked(table: pd.DataFrame) -> pd.Series:
    """How many runs the grid asked of each (dataset, learner full name), failed ones
    included."""
    every = table.drop_duplicates(col.RUN_ID)
    return (pd.DataFrame({"dataset": label(every, col.STREAM).map(dataset_of),
                          "learner": label(every, col.LEARNER)})
            .groupby(["dataset", "learner"]).size().rename("runs"))


def per_run(table: pd.DataFrame, algorithms: dict[str, str]) -> pd.DataFrame:
    """One row per finished run: dataset, algorithm (the study's name), family, seed, the
    metric, and how many runs the grid asked of that algorithm on that dataset (``runs``,
    failed ones included)."""
    asked = (runs_asked(table).rename(index=algorithms, level="learner")
             .rename_axis(["dataset", "algorithm"]))
    final = final_rows(table)
    out = pd.DataFrame({"dataset": final[col.STREAM_NAME].map(dataset_of),
                        "algorithm": final[col.LEARNER_NAME].map(algorithms),
                        "family": final[col.LEARNER_NAME].map(family),
                        col.SEED: final[col.SEED], METRIC: final[METRIC]})
    if out["algorithm"].isna().any():
        unnamed = sorted(set(final.loc[out["algorithm"].isna(), col.LEARNER_NAME]))
        raise ValueError(f"multiclass_families: learners without an algorithm name: {unnamed}")
    return out.join(asked, on=["dataset", "algorithm"])


def _wide(runs: pd.DataFrame, dataset: str) -> pd.DataFrame:
    return runs[runs["dataset"].eq(dataset)].pivot(index=col.SEED, columns="algorithm",
                                                    values=METRIC)


def _difference(a: pd.Series, b: pd.Series) -> dict:
    both = pd.concat([a, b], axis=1).dropna()
    test = paired_test(both.iloc[:, 0], both.iloc[:, 1])
    diff = both.iloc[:, 0] - both.iloc[:, 1]
    return {"orders": test.k, "difference": test.mean_diff, "low": test.low,
            "high": test.high, "p_value": test.p_value, "first_better": int((diff < 0).sum()),
            "ties": int((diff == 0).sum()), "second_better": int((diff > 0).sum())}


def family_table(runs: pd.DataFrame) -> pd.DataFrame:
    """Per dataset: each family's best complete learner (mean and std of the metric over its
    runs), the paired difference best one-vs-rest minus best native (module docs), and the
    learners left out of the ranking for unfinished runs."""
    rows = []
    for dataset, sub in runs.groupby("dataset", sort=False):
        stats = sub.groupby(["family", "algorithm"])[METRIC].agg(["mean", "std", "count"])
        stats = stats.join(sub.groupby("algorithm")["runs"].first(), on="algorithm")
        complete = stats[stats["count"].eq(stats["runs"])]
        best = {fam: complete.loc[fam]["mean"].idxmin() for fam in (NATIVE, ONE_VS_REST)
                if fam in complete.index.get_level_values(0)}
        if len(best) < 2:
            continue
        wide = _wide(sub, dataset)
        row = {"dataset": dataset}
        for fam, name in best.items():
            short = PREFIX[fam]
            row[f"best_{short}"] = name
            row[f"{short}_mean"], row[f"{short}_std"] = complete.loc[(fam, name), ["mean", "std"]]
        row.update(_difference(wide[best[ONE_VS_REST]], wide[best[NATIVE]]))
        row["left_out"] = "; ".join(f"{a} ({int(s['count'])} of {int(s['runs'])} runs)"
                                    for (_, a), s in stats.iterrows() if s["count"] < s["runs"])
        rows.append(row)
    return pd.DataFrame(rows)


def pair_table(runs: pd.DataFrame, pairs: dict[str, str]) -> pd.DataFrame:
    """Per dataset and pair (native algorithm, its one-vs-rest form): the paired difference
    native minus one-vs-rest over the orders both finished, Holm-adjusted over the table."""
    rows = []
    for dataset, sub in runs.groupby("dataset", sort=False):
        wide = _wide(sub, dataset)
        for native, ovr in pairs.items():
            if native in wide and ovr in wide:
                rows.append({"dataset": dataset, "native": native, "one_vs_rest": ovr,
                             "native_mean": wide[native].mean(), "ovr_mean": wide[ovr].mean(),
                             **_difference(wide[native], wide[ovr])})
    table = pd.DataFrame(rows)
    if not table.empty:
        table["p_holm"] = holm(table["p_value"])
    return table


def _interval(row, digits: int = 3) -> str:
    return (f"{row['difference']:+.{digits}f} [{row['low']:+.{digits}f}, "
            f"{row['high']:+.{digits}f}]")


def _family_lines(families: pd.DataFrame) -> list[str]:
    shown = pd.DataFrame({
        "dataset": families["dataset"],
        "best native": [f"{r.best_native} {r.native_mean:.3f} ± {r.native_std:.3f}"
                        for r in families.itertuples()],
        "best one-vs-rest": [f"{r.best_ovr} {r.ovr_mean:.3f} ± {r.ovr_std:.3f}"
                             for r in families.itertuples()],
        "one-vs-rest − native [95% t]": [_interval(r) for _, r in families.iterrows()],
        "orders won (OvR / tie / native)": [f"{r.first_better} / {r.ties} / {r.second_better}"
                                            for r in families.itertuples()],
        "Wilcoxon p": [f"{p:.2g}" for p in families["p_value"]],
    })
    lines = [markdown_table(shown), ""]
    left = families[families["left_out"].ne("")]
    if len(left):
        lines += ["Left out of the ranking (not every run finished): " + "; ".join(
            f"{d}: {why}" for d, why in zip(left["dataset"], left["left_out"])) + ".", ""]
    return lines


def _pair_lines(pairs: pd.DataFrame) -> list[str]:
    datasets = list(dict.fromkeys(pairs["dataset"]))
    cells = pairs.assign(cell=[
        _interval(r) + (" *" if r["p_holm"] < 0.05 else "") +
        (f" ({r['orders']} orders)" if r["orders"] < pairs["orders"].max() else "")
        for _, r in pairs.iterrows()])
    wide = cells.pivot(index=["native", "one_vs_rest"], columns="dataset", values="cell")
    wide = wide.reindex(columns=datasets).reindex(
        list(dict.fromkeys(zip(pairs["native"], pairs["one_vs_rest"])))).fillna("—")
    wide.index = [f"{n} − {o}" for n, o in wide.index]
    wide = wide.rename_axis("native − one-vs-rest").reset_index()
    return [markdown_table(wide), ""]


def _pairs_problems(options: dict) -> list[str]:
    pairs = options.get("pairs")
    if not isinstance(pairs, dict) or not pairs:
        return [f"pairs={pairs!r}: give {{native algorithm: its one-vs-rest algorithm}}, by "
                "the learner entries' names"]
    return []


@report_section("multiclass_families", check=_pairs_problems, needs_selection=True)
def multiclass_families(inputs: SectionInputs) -> list[str]:
    """The two views of the module docs, written to ``families.csv`` and ``pairs.csv``."""
    runs = per_run(olbench.load_results(inputs.folder).table, inputs.selection.algorithms)
    families = family_table(runs)
    pairs = pair_table(runs, dict(inputs.options["pairs"]))
    families.to_csv(inputs.folder / "families.csv", index=False)
    pairs.to_csv(inputs.folder / "pairs.csv", index=False)
    lines = ["## Native multiclass against one-vs-rest", "",
             "Mistake rate at the last round, LIBOL's count (hat_y != y); every learner on the "
             "same LIBOL orders, so differences are paired by order: mean difference with its "
             "95% Student-t interval over the orders, the Wilcoxon signed-rank p-value, the "
             "orders each side won. The best of each family is the learner with the lowest "
             "mean among those whose every run finished; it is chosen on the runs it is "
             "scored on, and one-vs-rest has 16 members to native's 13. All numbers: "
             "`families.csv`.", ""]
    lines += _family_lines(families) if len(families) else ["No dataset has both families.", ""]
    lines += ["Algorithm by algorithm: each native algorithm against the one-vs-rest form of "
              "the same binary algorithm, native minus one-vs-rest (negative: native makes "
              "fewer mistakes), 95% t interval over the orders; * where the Holm-adjusted "
              "Wilcoxon p over the whole table is below 0.05. All numbers: `pairs.csv`.", ""]
    lines += _pair_lines(pairs) if len(pairs) else ["No pair ran.", ""]
    return lines
