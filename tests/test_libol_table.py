"""The libol_table study: LIBOL's parameter selection (experiments/libol_table/selection.py, run
by olbench.harness.selection), the published column (experiments/libol_table/published.py),
and the experiment end to end."""

from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from naive import TWINS
from olbench_command import ROOT, olbench
from sklearn.datasets import dump_svmlight_file
from test_cli import _only_folder

from olbench.harness.selection import select_grid, without_selection
from olbench.harness.studies import study_module
from olbench.harness.tasks import GridError, child_seed
from olbench.streams import make_stream

#: the study's own files, as its config names them (modules:); importing them registers
#: the selection procedure libol_cv and the report sections
selection = study_module("experiments/libol_table/selection.py")
published = study_module("experiments/libol_table/published.py")
exact_points = study_module("experiments/libol_table/exact_points.py")
coordinate_search, pick = selection.coordinate_search, selection.pick
NOT_AVAILABLE, beside_published = published.NOT_AVAILABLE, published.beside_published
read_published, std_units = published.read_published, published.std_units

DOMAINS = {"C": [0.0625, 0.25, 1.0, 4.0, 16.0], "eta": [0.6, 0.75, 0.9]}
STREAM = {"n": 250, "d": 5, "flip_rate": 0.15}


def libol_mistakes(key: str, X, y, **params) -> int:
    """Mistakes of the plain-numpy twin, counted as LIBOL does: sign(p) with sign(0) = +1."""
    margins, _, _ = TWINS[key](X, y, **params)
    return int(np.sum(np.where(margins >= 0, 1.0, -1.0) != y))


def last_best(domain, counts):
    """Written out again for the test: the last index among the smallest counts."""
    best = min(counts)
    return domain[max(i for i, c in enumerate(counts) if c == best)]


@pytest.fixture(scope="module")
def selected():
    grid = {"streams": [{"key": "noisy", "params": STREAM}],
            "learners": [{"key": "pa", "name": "PA-I", "params": {"variant": "pa1"},
                          "select": {"C": "C"}},
                         {"key": "scw", "name": "SCW-I",
                          "select": {"C": "C", "confidence": "eta"}},
                         {"key": "perceptron", "name": "Perceptron", "select": {"eta": "C"}},
                         {"key": "romma", "name": "ROMMA"}]}
    grids, table, names = select_grid(grid, {"procedure": "libol_cv", "seed": 7,
                                             "domains": DOMAINS})
    X, y = make_stream("noisy", **STREAM, seed=child_seed(7, "stream")).materialize()
    return grids[0], table, names, X, y


def test_selection_picks_the_fewest_mistakes_on_the_selection_order(selected):
    grid, table, _, X, y = selected
    counts = [libol_mistakes("pa", X, y, C=c, variant="pa1") for c in DOMAINS["C"]]
    assert len(set(counts)) > 1, "the test needs C to matter on this stream"
    pa1 = [e for e in grid["learners"] if e["key"] == "pa"][0]["params"]
    assert pa1 == {"variant": "pa1", "C": last_best(DOMAINS["C"], counts)}
    rows = table[table["algorithm"].eq("PA-I")]
    assert rows["mistakes"].tolist() == counts and rows["chosen"].sum() == 1


def test_selection_searches_parameters_one_after_the_other(selected):
    grid, _, _, X, y = selected
    by_c = [libol_mistakes("scw", X, y, C=c) for c in DOMAINS["C"]]   # at its confidence
    c = last_best(DOMAINS["C"], by_c)
    by_eta = [libol_mistakes("scw", X, y, C=c, confidence=e) for e in DOMAINS["eta"]]
    scw = [e for e in grid["learners"] if e["key"] == "scw"][0]["params"]
    assert scw == {"C": c, "confidence": last_best(DOMAINS["eta"], by_eta)}


def test_a_parameter_without_effect_ties_and_the_last_value_wins(selected):
    """From w0 = 0 the Perceptron's predictions do not depend on eta: every value ties, and
    LIBOL's `<=` keeps the last one."""
    grid, table, _, _, _ = selected
    rows = table[table["algorithm"].eq("Perceptron")]
    assert rows["mistakes"].nunique() == 1
    assert [e for e in grid["learners"] if e["key"] == "perceptron"][0]["params"] == {
        "eta": DOMAINS["C"][-1]}


def test_learners_without_search_keep_their_values_and_names_map_to_algorithms(selected):
    grid, table, names, _, _ = selected
    assert [e for e in grid["learners"] if e["key"] == "romma"][0] == {"key": "romma",
                                                                      "params": {}}
    assert "ROMMA" not in set(table["algorithm"])
    assert sorted(names.values()) == ["PA-I", "Perceptron", "ROMMA", "SCW-I"]
    assert all("select" not in e and "name" not in e for e in grid["learners"])


def test_pick_and_coordinate_search_follow_libol():
    assert pick([1, 2, 3], [2, 1, 1]) == 3 and pick([1, 2, 3], [0, 1, 1]) == 1
    chosen, records = coordinate_search(lambda p: abs(p["a"] - 2) + abs(p["b"] - p["a"]),
                                        {"a": 0, "b": 0}, [("a", [1, 2, 3]), ("b", [1, 2])])
    assert chosen == {"a": 2, "b": 2} and len(records) == 5


def test_selection_refuses_unknown_domains_and_select_with_sweep():
    grid = {"streams": ["noisy"], "learners": [{"key": "pa", "select": {"C": "nope"}}]}
    with pytest.raises(GridError, match="unknown domains"):
        select_grid(grid, {"procedure": "libol_cv", "domains": DOMAINS})
    grid["learners"] = [{"key": "pa", "sweep": {"variant": ["pa1", "pa2"]},
                         "select": {"C": "C"}}]
    with pytest.raises(GridError, match="select and sweep"):
        select_grid(grid, {"procedure": "libol_cv", "domains": DOMAINS})
    assert without_selection(grid)["learners"] == [{"key": "pa",
                                                    "sweep": {"variant": ["pa1", "pa2"]}}]


# ------------------------------------------------------------------ the published column
def test_published_numbers_are_joined_row_by_row_with_std_units():
    summary = pd.DataFrame({
        "stream": ["Dataset[name=svmguide3,order=permuted]"] * 2 + ["Dataset[name=heart]"],
        "learner": ["Perceptron[libol=True]", "PA[C=1.0,variant=pa]", "Perceptron[libol=True]"],
        "mistake_rate_mean": [0.3307, 0.30, 0.25], "mistake_rate_std": [0.005, 0.01, 0.02],
        "updates_mean": [411.0, 700.0, 60.0], "updates_std": [7.0, 9.0, 3.0],
        "time_s_median": [1e-4, 2e-4, 3e-4], "time_s_q1": [9e-5] * 3,
        "time_s_q3": [2e-4] * 3})
    published = pd.DataFrame({
        "dataset": ["svmguide3", "svmguide3", "svmguide3"],
        "algorithm": ["Perceptron", "PA", "AROW"], "source": ["s"] * 3,
        "mistake_rate_mean": [0.3318, None, 0.2], "mistake_rate_std": [0.0118, None, 0.01],
        "updates_mean": [412.45, None, 1000.0], "updates_std": [14.66, None, 10.0],
        "time_s_mean": [0.0516, None, None], "time_s_std": [0.0008, None, None]})
    names = {"Perceptron[libol=True]": "Perceptron", "PA[C=1.0,variant=pa]": "PA"}
    out = beside_published(summary, published, names).set_index(["dataset", "algorithm"])
    row = out.loc[("svmguide3", "Perceptron")]
    assert row["mistake_rate_diff_in_std"] == pytest.approx((0.3307 - 0.3318) / 0.0118)
    assert row["updates_diff_in_std"] == pytest.approx((411 - 412.45) / 14.66)
    assert "time_s_diff_in_std" not in out      # another machine: shown, never compared
    assert row["time_s_median"] == 1e-4 and row["published_time_s_mean"] == 0.0516
    assert out.loc[("svmguide3", "PA"), "time_s_median"] == 2e-4    # ours: the median
    assert math.isnan(out.loc[("svmguide3", "PA"), "mistake_rate_diff_in_std"])  # unpublished
    assert math.isnan(out.loc[("svmguide3", "AROW"), "mistake_rate_mean"])  # published, not run
    assert out.loc[("heart", "Perceptron"), "mistake_rate_mean"] == 0.25   # no published row
    assert out.loc[("heart", "Perceptron"), "source"] == NOT_AVAILABLE        # ... says so
    assert out.loc[("svmguide3", "PA"), "source"] == "s"       # the file's own reason is kept
    assert len(out) == 4
    assert math.isnan(std_units(0.3, 0.3, 0.0)) and math.isnan(std_units(0.3, None, 0.1))


def test_the_committed_published_file_reads_and_states_its_sources():
    """LIBOL's Table 3, both datasets, every number given; the Perceptron's svmguide3 row at
    the demo output's finer digits; the precision each row is printed with kept."""
    table = read_published(ROOT / "experiments" / "libol_table" / "published.csv")
    assert table["source"].notna().all()
    for dataset in ("svmguide3", "ijcnn1"):
        rows = table[table["dataset"].eq(dataset)].set_index("algorithm")
        assert len(rows) == 16 and rows[["mistake_rate_mean", "updates_std"]].notna().all().all()
        assert rows.loc["PA-I", "source"].endswith("printed as PA1")
    svmguide3 = table[table["dataset"].eq("svmguide3")].set_index("algorithm")
    perceptron = svmguide3.loc["Perceptron"]
    assert (perceptron["mistake_rate_mean"], perceptron["mistake_rate_std"]) == (0.3318, 0.0118)
    assert (perceptron["mistake_rate_decimals"], perceptron["updates_decimals"]) == (4, 2)
    assert (svmguide3.loc["ALMA", "mistake_rate_decimals"],
            svmguide3.loc["ALMA", "updates_decimals"]) == (3, 1)        # 0.230, 592.9


def test_a_bad_published_file_names_the_column_and_row(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("dataset,algorithm,source,mistake_rate_mean,mistake_rate_std,updates_mean,"
                    "updates_std,time_s_mean,time_s_std\ns,A,x,0.3,oops,,,,\n")
    with pytest.raises(ValueError, match=r"mistake_rate_std.*'oops' \(row 2\)"):
        read_published(path)


# ------------------------------------------------------------------ the command
DATA = Path(os.environ.get("OLBENCH_DATA") or ROOT.parent / "shared" / "data")


@pytest.mark.needs_datasets("svmguide3")
def test_the_command_prints_libols_rows_on_libols_orders(tmp_path):
    """The study's LIBOL-exact part on two algorithms: svmguide3 in LIBOL's 20 orders,
    mistakes counted as LIBOL counts them; the Perceptron's row prints as LIBOL's demo, and
    the sweep of PA-I's grid finds the point that prints Table 3's row."""
    learners = ("[{key: perceptron, name: Perceptron, params: {libol: true}},"
                " {key: pa, name: PA-I, params: {variant: pa1}, select: {C: C}}]")
    out = olbench("experiment=libol_table", "run.figures=false", "run.n_jobs=1",
                  "grid.streams=[{key: dataset, params: {name: svmguide3, order: libol}}]",
                  f"grid.learners={learners}", f"run.data_dir={DATA}",
                  f"run.output_dir={tmp_path}", f"run.cache_dir={tmp_path / 'cache'}")
    assert out.returncode == 0, out.stderr[-2000:]
    folder = _only_folder(tmp_path / "libol_table")
    beside = pd.read_csv(folder / "published.csv")
    assert beside[beside["dataset"].ne("svmguide3")]["mistake_rate_mean"].isna().all()
    beside = beside[beside["dataset"].eq("svmguide3")].set_index("algorithm")
    assert (beside["order"].dropna() == "libol").all()
    perceptron = beside.loc["Perceptron"]
    assert perceptron["published_mistake_rate_mean"] == 0.3318
    assert perceptron["mistake_rate_as_printed"] and perceptron["updates_as_printed"]
    assert f"{perceptron['updates_mean']:.2f} ± {perceptron['updates_std']:.2f}" == \
        "412.45 ± 14.66"
    assert math.isnan(beside.loc["ROMMA", "mistake_rate_mean"])     # published, not run
    chosen = pd.read_csv(folder / "selection.csv")
    assert set(chosen["algorithm"]) == {"PA-I"} and chosen["chosen"].sum() == 1
    points = pd.read_csv(folder / "exact_points.csv")
    assert points["algorithm"].eq("PA-I").all() and len(points) == 9
    assert points.loc[points["as_printed"].astype(bool), "point"].tolist() == ["C=0.0625"]
    report = (folder / "report.md").read_text()
    for section in ("## Parameter selection", "## Published numbers beside ours",
                    "## Which grid point prints the published row"):
        assert section in report
    assert "On LIBOL's own orders (order=libol), **" in report
    tex = (folder / "published.tex").read_text()
    assert "\\begin{tabular}" in tex and "ijcnn1 & -- & AROW & -- & $0.082 \\pm 0.000$" in tex
    perceptron_tex = next(line for line in tex.splitlines() if "& Perceptron &" in line)
    assert perceptron_tex.startswith("svmguide3 & libol & Perceptron & $0.3318 \\pm 0.0118$ & "
                                     "$0.3318 \\pm 0.0118$ & $+0.00$ & $412.45 \\pm 14.66$ & "
                                     "$412.45 \\pm 14.66$ & $+0.00$ & =")


def test_the_sweep_finds_the_grid_points_that_print_a_published_row(tmp_path):
    """A file stream in LIBOL's orders, PA-I's C searched over three values: the published
    file holds the statistics of C = 0.25 printed to 3 and 1 decimals; the sweep marks that
    point (and any other that prints the same) and no point that prints otherwise."""
    from olbench.analysis.study_sections import SectionInputs

    rng = np.random.default_rng(3)
    X = rng.standard_normal((120, 4))
    y = np.where(X @ [1.0, -1.0, 0.5, 0.0] + 0.8 * rng.standard_normal(120) > 0, 1.0, -1.0)
    path = tmp_path / "toy.svm"
    dump_svmlight_file(X, y, str(path))
    stream = {"key": "libsvm", "params": {"path": str(path), "order": "libol"}}
    grid = {"streams": [stream], "learners": [{"key": "pa", "name": "PA-I",
                                               "params": {"variant": "pa1"},
                                               "select": {"C": "C"}}]}
    chosen = select_grid(grid, {"procedure": "libol_cv", "seed": 5,
                                "domains": {"C": [0.0625, 0.25, 4.0]}})
    seeds = [1, 2, 3, 4]
    orders = [make_stream("libsvm", path=str(path), order="libol", seed=s).materialize()
              for s in seeds]
    stats = exact_points.point_stats({"key": "pa", "params": {"variant": "pa1"}}, {"C": 0.25},
                                     orders)
    from olbench.names import drop_param

    dataset = published.dataset_of(drop_param(make_stream("libsvm", path=str(path),
                                                          order="libol").name))
    pub = tmp_path / "pub.csv"
    pub.write_text("dataset,algorithm,mistake_rate_mean,mistake_rate_std,updates_mean,"
                   "updates_std,time_s_mean,time_s_std,source\n"
                   f'"{dataset}",PA-I,{stats["mistake_rate_mean"]:.3f},'
                   f"{stats['mistake_rate_std']:.3f},{stats['updates_mean']:.1f},"
                   f"{stats['updates_std']:.1f},,,test\n")
    inputs = SectionInputs(summary=pd.DataFrame(), folder=tmp_path,
                           options={"file": str(pub), "seeds": seeds}, selection=chosen)
    points = exact_points.sweep(inputs).set_index("point")
    assert list(points.index) == ["C=0.0625", "C=0.25", "C=4"]
    assert points.loc["C=0.25", "as_printed"] and not points["as_printed"].all()
    for point, row in points.iterrows():
        same = all(f"{row[f'{m}_mean']:.{k}f}|{row[f'{m}_std']:.{k}f}" ==
                   f"{points.loc['C=0.25', f'{m}_mean']:.{k}f}|"
                   f"{points.loc['C=0.25', f'{m}_std']:.{k}f}"
                   for m, k in (("mistake_rate", 3), ("updates", 1)))
        assert row["as_printed"] == same, point
    assert points["selected"].sum() == 1
    lines = exact_points.exact_points_section(points.reset_index(), len(seeds))
    assert "for **1 of 1** algorithms" in lines[2]


def test_a_missing_published_file_is_refused_before_anything_runs(tmp_path):
    out = olbench("experiment=libol_table",
                  f"sections.libol_published.file={tmp_path / 'nope.csv'}",
                  f"run.output_dir={tmp_path}")
    assert out.returncode == 2 and "nope.csv" in out.stderr and "no file" in out.stderr
    assert not (tmp_path / "libol_table").exists()


def test_a_candidate_that_breaks_down_is_recorded_and_never_chosen():
    """CW at confidence = 0.9 on svmguide3 loses its covariance's positive definiteness: that
    candidate has no mistake count, the others are compared as LIBOL compares them."""
    from olbench.breakdown import NumericBreakdownError

    def mistakes_of(params):
        if params["confidence"] == 0.9:
            raise NumericBreakdownError("CW[confidence=0.9]: the output is NaN or infinite at "
                                        "row 7, although the data are finite: ...")
        return {0.8: 5, 0.85: 4}[params["confidence"]]

    chosen, records = coordinate_search(mistakes_of, {"confidence": 0.8},
                                        [("confidence", [0.8, 0.85, 0.9])])
    assert chosen == {"confidence": 0.85}
    assert records[2] == (0, "confidence", 0.9, None, False,
                          "CW[confidence=0.9]: the output is NaN or infinite at row 7")
    # every candidate breaks down: nothing chosen, the configured value kept
    kept, records = coordinate_search(mistakes_of, {"confidence": 0.8, "C": 1.0},
                                      [("confidence", [0.9]), ("C", [0.5, 2.0])])
    assert kept == {"confidence": 0.8, "C": 2.0}
    assert [r[4] for r in records] == [False, False, True]
    table = pd.DataFrame([("S[a=1]", "CW", *r) for r in records],
                         columns=["stream", "algorithm", *selection.CANDIDATE_COLUMNS])
    text = "\n".join(selection.selection_section(table, {"CW[x]": "CW", "P[x]": "P"}))
    assert "Nothing to choose (every candidate broke down" in text
    assert "CW confidence on S[a=1]." in text and "them): P." in text
