"""Bad input fails early, with a message that names the problem and the row."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from olbench import make_learner, predict, run


def _xy(n=6, d=3):
    rng = np.random.default_rng(0)
    return rng.standard_normal((n, d)), np.where(rng.random(n) < 0.5, -1.0, 1.0)


@pytest.mark.parametrize("row", [0, 4])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_feature_names_the_row(bad, row, as_format):
    X, y = _xy()
    X[row, 1] = bad
    for key in ("pa", "perceptron", "arow"):
        with pytest.raises(ValueError, match=rf"a feature is NaN or infinite in row {row}$"):
            run(make_learner(key), as_format(X), y)


def test_overflowing_prediction_is_an_error_not_a_number():
    X = np.full((3, 2), 1e200)
    # every parameter at its default: the data's scale is named as the cause
    with pytest.raises(ValueError, match=r"the output is NaN or infinite at row 1, although the "
                                         r"data are finite: .* Every parameter is within a "
                                         r"factor 10 of its default, so the data took it "
                                         r"there: their scale \(the largest \|x\| of these "
                                         r"rows is 1e\+200\)"):
        run(make_learner("perceptron"), X, np.array([1.0, -1.0, 1.0]))


def test_non_finite_rows_counted_and_offset_by_chunk():
    X, y = _xy(n=10)
    X[[6, 8], 0] = np.nan
    with pytest.raises(ValueError, match=r"row 6 \(and 1 more rows\)"):
        run(make_learner("pa"), X, y, chunk_size=5)


def test_non_finite_regression_target():
    X, y = _xy()
    y[2] = np.nan
    with pytest.raises(ValueError, match="target is NaN or infinite in row 2"):
        run(make_learner("pa_regression"), X, y)


def test_labels_outside_the_accepted_sets_are_listed():
    X, _ = _xy()
    with pytest.raises(ValueError, match=r"found labels not allowed: \[2, 3\]"):
        run(make_learner("perceptron"), X, np.array([1, 2, 3, 1, -1, 2]))


def test_zero_one_and_bool_labels_are_mapped():
    X, y = _xy()
    reference = run(make_learner("pa"), X, y).margins
    np.testing.assert_array_equal(run(make_learner("pa"), X, (y > 0).astype(int)).margins,
                                  reference)
    np.testing.assert_array_equal(run(make_learner("pa"), X, y > 0).margins, reference)


def test_mixed_label_sets_are_refused_even_across_chunks():
    X, _ = _xy()
    with pytest.raises(ValueError, match="labels mix -1 and 0"):
        run(make_learner("pa"), X, np.array([-1, 0, 1, 1, 0, -1]))
    with pytest.raises(ValueError, match=r"labels switch from \{0, 1\} to \{-1, \+1\}"):
        run(make_learner("pa"), X, np.array([0, 1, 1, -1, 1, 1]), chunk_size=3)


def test_string_labels_are_refused():
    X, _ = _xy()
    with pytest.raises(ValueError, match="must be numbers"):
        run(make_learner("pa"), X, np.array(["a"] * 6))


def test_label_count_mismatch():
    X, y = _xy()
    with pytest.raises(ValueError, match=r"labels have shape \(5,\) but the features have 6 rows"):
        run(make_learner("pa"), X, y[:5])


def test_dimension_mismatch_between_chunks_and_in_predict():
    X, y = _xy()
    learner = make_learner("arow")
    run(learner, X, y)
    with pytest.raises(ValueError, match="have 4 features but the learner was set up for 3"):
        run(learner, np.ones((2, 4)), np.ones(2), reset=False)
    with pytest.raises(ValueError, match="X has 2 features but the learner was set up for 3"):
        predict(learner, np.ones((1, 2)))
    with pytest.raises(ValueError, match="has 2 features but the learner was set up for 3"):
        learner.predict_one(np.ones(2))


def test_features_must_be_two_dimensional_numbers():
    with pytest.raises(ValueError, match=r"must be a 2-D array .* got shape \(3,\)"):
        run(make_learner("pa"), np.ones(3), np.ones(3))
    with pytest.raises(ValueError, match="features must be numbers"):
        run(make_learner("pa"), np.array([["a", "b"]]), np.ones(1))


def test_empty_stream():
    with pytest.raises(ValueError, match="empty stream"):
        run(make_learner("pa"), np.empty((0, 3)), np.empty(0))
    with pytest.raises(ValueError, match="empty stream"):
        run(make_learner("pa"), sp.csr_matrix((0, 3)), np.empty(0))


def test_missing_labels_and_continuing_a_fresh_learner():
    with pytest.raises(ValueError, match="labels y are required"):
        run(make_learner("pa"), np.ones((2, 2)))
    with pytest.raises(ValueError, match="reset=False needs a learner that has already seen"):
        run(make_learner("pa"), np.ones((2, 2)), np.ones(2), reset=False)


def test_single_example_must_be_one_dimensional():
    with pytest.raises(ValueError, match=r"single example must be 1-D, got an array of shape"):
        make_learner("pa").learn_one(np.ones((2, 2)), 1)


def test_unknown_loss():
    with pytest.raises(ValueError, match="unknown loss 'hinj'; known losses: "):
        run(make_learner("pa"), np.ones((2, 2)), np.ones(2), loss="hinj")
