"""The multiclass task (olbench.learners.multiclass, olbench.rules.multiclass): classes,
ties, the multiclass margin, mistakes under both tie rules, and bad input named."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from olbench import make_learner, run
from olbench.metrics import curve
from olbench.protocol import predict


def _stream(seed=0, n=200, d=5, k=4):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    return X, 1.0 + np.argmax(X @ rng.standard_normal((k, d)).T, axis=1)


def test_the_first_round_is_a_tie_that_goes_to_the_lowest_index():
    X, y = np.array([[1.0, 2.0], [1.0, 0.0]]), np.array([3, 1])
    trace = run(make_learner("multiclass_perceptron"), X, y)
    assert trace.predicted[0] == 0 and trace.predictions[0] == 1.0   # all scores 0
    assert trace.margins[0] == 0.0 and trace.mistakes[0]


def test_margins_are_the_score_of_y_less_the_best_other_score():
    X, y = _stream()
    learner = make_learner("multiclass_pa", classes=4)
    run(learner, X[:100], y[:100])
    scores = predict(learner, X[100:])
    trace = run(learner, X[100:], y[100:], reset=False)
    first = trace.margins[0]
    label = int(y[100]) - 1
    others = np.delete(scores[0], label)
    assert first == pytest.approx(scores[0, label] - others.max(), abs=1e-12)
    assert trace.predicted[0] == int(np.argmax(scores[0]))


@pytest.mark.parametrize("tie", ["novikoff", "libol"])
def test_mistakes_follow_the_tie_rule(tie):
    X, y = _stream(1)
    trace = run(make_learner("multiclass_perceptron", libol=tie == "libol"), X, y)
    wrong = trace.predicted != trace.y if tie == "libol" else trace.margins <= 0
    np.testing.assert_array_equal(trace.mistakes, wrong)
    np.testing.assert_array_equal(trace.updated, wrong)   # mistake-driven, max scheme
    assert curve(trace, loss="multiclass_hinge", checkpoints=[200])["mistakes"].item() == \
        wrong.sum()
    np.testing.assert_allclose(trace.losses, np.maximum(0.0, 1.0 - trace.margins))


def test_the_tie_rules_differ_exactly_where_y_wins_a_tie_by_its_index():
    X, y = np.zeros((3, 2)), np.array([1, 2, 1])           # zero rows: every score 0
    novikoff = run(make_learner("multiclass_perceptron"), X, y)
    libol = run(make_learner("multiclass_perceptron", libol=True), X, y)
    assert novikoff.mistakes.tolist() == [True, True, True]
    assert libol.mistakes.tolist() == [False, True, False]


def test_class_codes_are_kept_and_ordered():
    X, y = _stream(2)
    codes = np.array([10.0, 20.0, 30.0, 40.0])[(y - 1).astype(int)]
    coded = run(make_learner("multiclass_arow"), X, codes)
    plain = run(make_learner("multiclass_arow"), X, y)
    np.testing.assert_array_equal(coded.margins, plain.margins)
    np.testing.assert_array_equal(coded.predictions, 10.0 * plain.predictions)
    assert coded.classes.tolist() == [10.0, 20.0, 30.0, 40.0]


def test_sparse_and_dense_rows_give_the_same_run():
    X, y = _stream(3)
    X[np.abs(X) < 0.8] = 0.0
    for key in ("multiclass_scw", "multiclass_romma", "multiclass_ogd"):
        dense, csr = (run(make_learner(key), A, y) for A in (X, sp.csr_matrix(X)))
        np.testing.assert_allclose(dense.margins, csr.margins, rtol=1e-12, atol=1e-12)
        np.testing.assert_array_equal(dense.predicted, csr.predicted)


# ------------------------------------------------------------------------------ bad input
X4 = np.eye(4)


@pytest.mark.parametrize("labels,classes,message", [
    ([1, 2, 9, 1], 3, r"label 9 at row 2 is not one of the 3 classes \{1, 2, 3\}"),
    ([1, 1, 1, 1], None, r"needs k >= 2 classes, but the labels hold 1 \(\[1.0\]\)"),
    ([1, -1, 1, -1], None, r"labels are \{-1, \+1\}, a binary coding"),
    ([1.5, 2, 1, 2], None, r"whole numbers .* found \[1.5\]"),
    ([1, 2, np.nan, 1], 2, r"label nan at row 2 is not one of the 2 classes"),
    ([1, 2, 1, 2], 1, r"needs k >= 2 classes, got k = 1"),
])
def test_bad_labels_are_named(labels, classes, message):
    with pytest.raises(ValueError, match=message):
        run(make_learner("multiclass_pa"), X4, np.array(labels, float), classes=classes)


def test_classes_given_twice_must_agree():
    with pytest.raises(ValueError, match=r"run\(classes=3\) are \{1, 2, 3\} but "
                                         r"multiclass_pa's classes option are \{1, 2\}"):
        run(make_learner("multiclass_pa", classes=2), X4, np.array([1, 2, 1, 2]), classes=3)


def test_a_continued_run_refuses_a_class_it_was_not_set_up_with():
    learner = make_learner("multiclass_perceptron")
    run(learner, X4, np.array([1, 2, 1, 2]))
    with pytest.raises(ValueError, match=r"label 3 at row 0 is not one of the 2 classes"):
        run(learner, X4, np.array([3, 1, 2, 1]), reset=False)


def test_multiclass_labels_given_to_a_binary_learner_are_refused():
    with pytest.raises(ValueError, match=r"found labels not allowed: \[2, 3\]"):
        run(make_learner("perceptron"), X4, np.array([1, 2, 3, 1]))


def test_a_single_step_needs_the_classes_declared():
    with pytest.raises(ValueError, match=r"needs k >= 2 classes.*give the classes"):
        make_learner("multiclass_pa").learn_one([1.0, 0.0], 2)
    learner = make_learner("multiclass_pa", classes=3).learn_one([1.0, 0.0], 2)
    assert learner.predict_one([1.0, 0.0]) == 2.0


def test_an_initial_vector_is_refused_for_a_weight_matrix():
    with pytest.raises(ValueError, match=r"sets the d = 4 weights of the w slot, but this "
                                         r"learner's w has shape \(2, 4\)"):
        run(make_learner("multiclass_pa", init="randn"), X4, np.array([1, 2, 1, 2]))


def test_bad_classes_option_is_refused_by_name():
    with pytest.raises(ValueError, match=r"invalid classes=\[1, 1\]"):
        run(make_learner("multiclass_pa", classes=[1, 1]), X4, np.array([1, 1, 1, 1]))
