"""The libol_multiclass study: LIBOL's selection procedure on multiclass learners and on
one-vs-rest ones (a parameter of the binary learner inside, ``select: {binary_params: ...}``),
the report section that sets the native family against one-vs-rest
(experiments/libol_multiclass/families.py), and the experiment end to end on a small file."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from olbench_command import QUIET, olbench
from sklearn.datasets import dump_svmlight_file
from test_cli import _only_folder

import olbench as ob
from olbench.harness.selection import param_value, select_fields, select_grid, with_param
from olbench.harness.studies import study_module
from olbench.harness.tasks import GridError, child_seed
from olbench.learners import make_learner
from olbench.paths import shared_data_dir
from olbench.streams import make_stream

selection = study_module("experiments/libol_table/selection.py")   # registers libol_cv
families = study_module("experiments/libol_multiclass/families.py")

DOMAINS = {"C": [0.0625, 0.5, 4.0], "eta": [0.6, 0.9]}


def noisy_multiclass_file(path, n=240, d=6, k=4, flip=0.25, seed=3):
    """A k-class file whose labels are argmax W*x, a share ``flip`` of them replaced at
    random (so that C matters)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.argmax(X @ rng.normal(size=(d, k)), axis=1) + 1
    noisy = rng.random(n) < flip
    y[noisy] = rng.integers(1, k + 1, noisy.sum())
    dump_svmlight_file(X, y, str(path), zero_based=False)
    return path


def libol_count(learner, X, y) -> int:
    """Mistakes as LIBOL counts them, by the learner's own run (hat_y != y)."""
    return ob.run(learner, X, y, tie="libol").n_mistakes


def last_best(domain, counts):
    best = min(counts)
    return domain[max(i for i, c in enumerate(counts) if c == best)]


def test_nested_parameters_are_set_and_read_by_dotted_names():
    assert with_param({"binary": "pa"}, "binary_params.C", 0.5) == {
        "binary": "pa", "binary_params": {"C": 0.5}}
    base = {"binary_params": {"variant": "pa2"}}
    assert with_param(base, "binary_params.C", 2.0) == {"binary_params": {"variant": "pa2",
                                                                           "C": 2.0}}
    assert base == {"binary_params": {"variant": "pa2"}}, "the spec given is not changed"
    assert param_value(with_param(base, "binary_params.C", 2.0), "binary_params.C") == 2.0
    assert select_fields({"r": "C", "binary_params": {"C": "C", "confidence": "eta"}}) == {
        "r": "C", "binary_params.C": "C", "binary_params.confidence": "eta"}
    with pytest.raises(GridError, match="not a mapping"):
        with_param({"binary_params": 3}, "binary_params.C", 1.0)


def test_the_procedure_searches_a_one_vs_rest_learners_binary_parameters(tmp_path):
    """select: {binary_params: {C: C, confidence: eta}} on one-vs-rest SCW: C first (at the
    default confidence), then the confidence at the C chosen, each value's count being the
    one-vs-rest learner's own LIBOL mistakes on the selection order; the native learner
    beside it is searched as in the binary study."""
    path = noisy_multiclass_file(tmp_path / "train.svm")
    stream = {"key": "libsvm", "params": {"path": str(path), "task": "multiclass",
                                          "order": "permuted"}}
    grid = {"streams": [stream],
            "learners": [{"key": "one_vs_rest", "name": "OvR SCW-I",
                          "params": {"binary": "scw"},
                          "select": {"binary_params": {"C": "C", "confidence": "eta"}}},
                         {"key": "multiclass_pa", "name": "M_PA1", "params": {"variant": "pa1"},
                          "select": {"C": "C"}}]}
    grids, table, names = select_grid(grid, {"procedure": "libol_cv", "seed": 5,
                                             "domains": DOMAINS})
    X, y = make_stream("libsvm", path=str(path), task="multiclass", order="permuted",
                       seed=child_seed(5, "stream")).materialize()

    by_c = [libol_count(make_learner("one_vs_rest", binary="scw", binary_params={"C": c}), X, y)
            for c in DOMAINS["C"]]
    c = last_best(DOMAINS["C"], by_c)
    by_eta = [libol_count(make_learner("one_vs_rest", binary="scw",
                                       binary_params={"C": c, "confidence": e}), X, y)
              for e in DOMAINS["eta"]]
    assert len(set(by_c)) > 1, "the test needs C to matter on this stream"
    ovr = grids[0]["learners"][0]
    assert ovr["params"] == {"binary": "scw", "binary_params": {
        "C": c, "confidence": last_best(DOMAINS["eta"], by_eta)}}
    rows = table[table["algorithm"].eq("OvR SCW-I")]
    assert rows["param"].tolist() == ["binary_params.C"] * 3 + ["binary_params.confidence"] * 2
    assert rows["mistakes"].tolist() == by_c + by_eta

    pa1 = [libol_count(make_learner("multiclass_pa", variant="pa1", C=v), X, y)
           for v in DOMAINS["C"]]
    assert grids[0]["learners"][1]["params"] == {"variant": "pa1",
                                                 "C": last_best(DOMAINS["C"], pa1)}
    assert sorted(names.values()) == ["M_PA1", "OvR SCW-I"]


def _runs(values: dict[str, list[float]], asked: int = 4) -> pd.DataFrame:
    rows = [{"dataset": "toy", "algorithm": a, "family": "one-vs-rest" if a.startswith("OvR")
             else "native", "seed": s + 1, "mistake_rate": v, "runs": asked}
            for a, vs in values.items() for s, v in enumerate(vs) if v is not None]
    return pd.DataFrame(rows)


def test_the_family_view_ranks_complete_learners_and_pairs_by_order():
    runs = _runs({"M_A": [0.30, 0.32, 0.31, 0.33], "M_B": [0.10, None, None, None],
                  "OvR A": [0.28, 0.33, 0.29, 0.30], "OvR B": [0.40, 0.41, 0.42, 0.43]})
    table = families.family_table(runs)
    row = table.iloc[0]
    # M_B is best on its one finished run but is left out: it did not finish the others
    assert (row["best_native"], row["best_ovr"]) == ("M_A", "OvR A")
    diff = np.array([0.28, 0.33, 0.29, 0.30]) - np.array([0.30, 0.32, 0.31, 0.33])
    assert row["difference"] == pytest.approx(diff.mean(), abs=1e-15)
    half = 3.182446305284263 * diff.std(ddof=1) / 2      # t_{0.975, 3} sd / sqrt(4)
    assert (row["low"], row["high"]) == pytest.approx((diff.mean() - half, diff.mean() + half))
    assert (row["first_better"], row["ties"], row["second_better"]) == (3, 0, 1)
    assert row["left_out"] == "M_B (1 of 4 runs)"


def test_the_pair_view_compares_on_the_orders_both_finished_and_adjusts_over_the_table():
    runs = _runs({"M_A": [0.30, 0.32, None, 0.33], "OvR A": [0.28, 0.33, 0.29, 0.30],
                  "M_B": [0.5, 0.5, 0.5, 0.5], "OvR B": [0.4, 0.41, 0.42, 0.43]})
    pairs = families.pair_table(runs, {"M_A": "OvR A", "M_B": "OvR B", "M_C": "OvR C"})
    assert pairs["native"].tolist() == ["M_A", "M_B"], "a pair that did not run is left out"
    a = pairs.iloc[0]
    assert a["orders"] == 3
    assert a["difference"] == pytest.approx(np.mean([0.02, -0.01, 0.03]))
    assert a["native_mean"] == pytest.approx(np.mean([0.30, 0.32, 0.33]))
    assert (pairs["p_holm"] >= pairs["p_value"]).all()
    assert families.family("OneVsRest[binary=pa,binary_params=None]") == "one-vs-rest"


def test_the_study_runs_end_to_end_on_a_file(tmp_path):
    """The committed config with a small file for its streams and four of its learners: the
    selection (a one-vs-rest learner's binary C among it), the family section and its two
    files."""
    path = noisy_multiclass_file(tmp_path / "train.svm")
    learners = ("[{key: multiclass_pa, name: M_PA1, params: {variant: pa1}, select: {C: C}},"
                " {key: multiclass_perceptron, name: M_PerceptronM,"
                "  params: {scheme: max, libol: true}},"
                " {key: one_vs_rest, name: OvR PA-I, params: {binary: pa,"
                "  binary_params: {variant: pa1}}, select: {binary_params: {C: C}}},"
                " {key: one_vs_rest, name: OvR Perceptron,"
                "  params: {binary: perceptron, binary_params: {libol: true}}}]")
    out = olbench("experiment=libol_multiclass", *QUIET, "grid.seeds=[1,2,3,4,5]",
                  f"grid.streams=[{{key: libsvm, params: {{path: {path}, task: multiclass,"
                  " order: libol}}]", f"grid.learners={learners}",
                  f"run.output_dir={tmp_path}", f"run.cache_dir={tmp_path / 'cache'}")
    assert out.returncode == 0, out.stderr[-2000:]
    folder = _only_folder(tmp_path / "libol_multiclass")
    chosen = pd.read_csv(folder / "selection.csv")
    assert set(chosen["algorithm"]) == {"M_PA1", "OvR PA-I"}
    assert chosen.loc[chosen["algorithm"].eq("OvR PA-I"), "param"].eq("binary_params.C").all()
    fam = pd.read_csv(folder / "families.csv")
    assert len(fam) == 1 and fam.loc[0, "orders"] == 5
    assert fam.loc[0, "best_native"] in {"M_PA1", "M_PerceptronM"}
    pairs = pd.read_csv(folder / "pairs.csv")
    assert pairs["native"].tolist() == ["M_PerceptronM", "M_PA1"]
    report = (folder / "report.md").read_text()
    assert "## Native multiclass against one-vs-rest" in report
    assert "M_PA1 − OvR PA-I" in report and "## Parameter selection" in report


@pytest.mark.skipif(not (shared_data_dir() / "libsvm" / "segment.scale").exists()
                    or not (shared_data_dir() / "libol" / "segment.mat").exists(),
                    reason="needs ../shared/data (LIBOL's segment.mat and LIBSVM's segment.scale)")
def test_segment_scale_is_libols_segment_so_the_study_runs_it_once():
    X1, y1 = make_stream("dataset", name="segment", task="multiclass").materialize()
    X2, y2 = make_stream("dataset", name="segment.scale", task="multiclass").materialize()
    dense = [X.toarray() if hasattr(X, "toarray") else np.asarray(X) for X in (X1, X2)]
    np.testing.assert_array_equal(y1, y2)
    np.testing.assert_allclose(dense[0], dense[1], rtol=0, atol=1e-6)
