"""The dataset stream: a dataset's splits (train, test, both concatenated, online then
evaluated on the test part), the same bytes as the file stream, and its task: multiclass
labels kept until a binarisation is stated, a regression set's targets kept.

No test reaches the internet: every test runs with ``OLBENCH_OFFLINE=1`` and a private cache.
"""

from __future__ import annotations

import numpy as np
import pytest
from toy_dataset import TEST, TRAIN, put, sha

from olbench.datasets import CARDS, Card, DataFile
from olbench.streams import Dataset, Svmlight

pytestmark = pytest.mark.usefixtures("no_network")


def test_splits_concatenation_and_online_then_evaluate(toy):
    card, d = toy
    put(d["mine"], "toy.svm", TRAIN)
    put(d["mine"], "toy.svm.t", TEST)
    kw = dict(name="toy", data_dir=str(d["mine"]))
    train = Dataset(**kw).materialize()
    test = Dataset(**kw, split="test").materialize()
    assert Dataset(**kw, split="test").meta.d == 3   # the test file's indices reach 3 only
    both = Dataset(**kw, split="train+test")
    X, y = both.materialize()
    np.testing.assert_array_equal(X.toarray(), np.vstack([train[0].toarray(),
                                                          test[0].toarray()]))
    np.testing.assert_array_equal(y, np.concatenate([train[1], test[1]]))
    then = Dataset(**kw, split="train_then_test")
    assert then.meta.extra["test_start"] == 4 and then.meta.n == 6
    assert then.meta.fingerprint == both.meta.fingerprint     # same rows, same order
    pooled = Dataset(**kw, split="train+test", order="permuted", seed=1)
    Xp, yp = pooled.materialize()
    assert sorted(map(tuple, Xp.toarray().tolist())) == sorted(map(tuple, X.toarray().tolist()))
    assert pooled.meta.n == 6 and pooled.meta.fingerprint != both.meta.fingerprint
    assert [len(c[1]) for c in both.chunks(4)] == [4, 2]
    with pytest.raises(ValueError, match="'mushrooms' has no test part"):
        Dataset(name="mushrooms", split="test")
    with pytest.raises(ValueError, match="standardize=True with split='train\\+test'"):
        Dataset(**kw, split="train+test", standardize=True)


def test_train_then_test_reports_the_test_part_on_its_own(toy, tmp_path):
    """A run over split=train_then_test has a checkpoint at the train/test boundary (t = 4)
    and the test part's mistake rate as its own column, in the table and the summary. The
    Perceptron on the toy rows by hand: w = 0 -> mistake on 1 (+1, w = x1 = (1, 0, 2)),
    2: w.x = 0 -> mistake (w = (1, -1, 2)), 3: 0.5 + -0.5 + 1 = 1 > 0, 4: w.x = 8 on y = -1
    -> mistake (w = (1, -1, -2)); test rows 5: (2, 0, 0) -> 2 on y = -1: mistake,
    6: (0, 3, 1) -> -5 on y = +1: mistake. Test part: 2 mistakes in 2 rounds."""
    import olbench

    card, d = toy
    put(d["mine"], "toy.svm", TRAIN)
    put(d["mine"], "toy.svm.t", TEST)
    res = olbench.run_experiment(
        learner="perceptron", comparator="generating", seeds=[0], output_dir=tmp_path,
        n_jobs=1, figures=False, quiet=True,
        stream={"key": "dataset", "name": "toy", "split": "train_then_test",
                "data_dir": str(d["mine"])})
    t = res.table.drop_duplicates("t").set_index("t")
    assert 4 in t.index and t.loc[4, "mistakes"] == 3 and np.isnan(t.loc[4, "test_mistakes"])
    assert (t.loc[6, "mistakes"], t.loc[6, "test_mistakes"], t.loc[6, "test_mistake_rate"]) \
        == (5, 2, 1.0)
    assert res.summary["test_mistake_rate_mean"].tolist() == [1.0]
    assert "test mistake rate" in res.summary_text


def test_same_bytes_as_the_file_stream(toy):
    card, d = toy
    path = put(d["mine"], "toy.svm", TRAIN)
    ours = Dataset(name="toy", data_dir=str(d["mine"]), order="permuted", seed=3, bias=True)
    plain = Svmlight(path=str(path), n_features=3, order="permuted", seed=3, bias=True)
    assert ours.meta.fingerprint == plain.meta.fingerprint
    assert ours.meta.extra["dataset"] == "toy" and ours.clone().name == ours.name


def test_multiclass_keeps_labels_and_needs_a_stated_binarisation(toy, monkeypatch):
    card, d = toy
    data = b"1 1:1\n2 2:1\n3 1:1 2:1\n2 1:2\n"
    multi = Card("toy3", "libsvm", "multiclass", 2, DataFile("toy3.svm", 4, 5, sha(data)),
                 classes=3, labels="1..3", verified=True)
    monkeypatch.setitem(CARDS, "toy3", multi)
    put(d["mine"], "toy3.svm", data)
    with pytest.raises(ValueError, match=r"multiclass \(3 classes, labels 1..3\).*"
                                         r"stream.positive_label=<class>.*"
                                         r"stream.negative_label=<class> for a pair"):
        Dataset(name="toy3", data_dir=str(d["mine"]))
    rest = Dataset(name="toy3", positive_label=2, data_dir=str(d["mine"]))
    np.testing.assert_array_equal(rest.materialize()[1], [-1, 1, -1, 1])
    assert rest.meta.extra["labels_seen"] == [1.0, 2.0, 3.0]
    pair = Dataset(name="toy3", positive_label=2, negative_label=3, data_dir=str(d["mine"]))
    np.testing.assert_array_equal(pair.materialize()[1], [1, -1, 1])


def test_regression_set_keeps_targets(toy, monkeypatch):
    card, d = toy
    data = b"1.5 1:1\n-0.25 2:1\n"
    reg = Card("toyr", "libsvm", "regression", 2, DataFile("toyr.svm", 2), classes=None,
               labels="real", verified=True)
    monkeypatch.setitem(CARDS, "toyr", reg)
    put(d["mine"], "toyr.svm", data)
    stream = Dataset(name="toyr", data_dir=str(d["mine"]))
    assert stream.task == "regression" and stream.meta.task == "regression"
    np.testing.assert_array_equal(stream.materialize()[1], [1.5, -0.25])
    with pytest.raises(ValueError, match="regression set"):
        Dataset(name="toyr", positive_label=1)
