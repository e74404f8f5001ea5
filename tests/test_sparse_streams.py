"""Streams at the sparse learners' scale (issue 27): the planted sparse stream, generated
block by block in constant memory, and feature hashing of svmlight files."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
import scipy.sparse as sp

from olbench import make_learner, run
from olbench.streams import make_stream
from olbench.streams.base import fingerprint_chunks
from olbench.streams.hashing import bucket_and_sign, hash_columns


def test_planted_sparse_rows_are_the_same_whatever_the_chunk_size():
    stream = make_stream("planted_sparse", n=5000, d=10**6, nnz=30, active=200, seed=4)
    digests = {fingerprint_chunks(stream.chunks(size)) for size in (100, 4096, 7777)}
    assert digests == {stream.meta.fingerprint}


def test_planted_sparse_labels_are_the_planted_separators_with_the_stated_noise():
    stream = make_stream("planted_sparse", n=20000, d=50000, nnz=20, active=300,
                         informative=3, flip_rate=0.1, seed=1)
    X, y = stream.materialize()
    meta = stream.meta
    u = np.zeros(meta.d)
    u[meta.extra["u_support"]] = meta.extra["u_values"]
    assert np.linalg.norm(u) == pytest.approx(1.0, abs=1e-15)
    scores = X @ u
    np.testing.assert_array_equal(meta.clean_y, np.where(scores >= 0, 1.0, -1.0))
    np.testing.assert_array_equal(y, np.where(meta.flipped, -meta.clean_y, meta.clean_y))
    assert abs(meta.flipped.mean() - 0.1) < 0.01              # 2000 +- 42 flips
    assert meta.margin == pytest.approx(np.min(y * scores), rel=1e-12) and meta.margin < 0
    assert X.getnnz(axis=1).max() <= 20 and X.getnnz(axis=1).mean() > 19
    assert meta.radius == pytest.approx(np.sqrt(X.multiply(X).sum(axis=1)).max(), rel=1e-12)


def test_planted_sparse_is_generated_in_memory_that_does_not_grow_with_d():
    """A pass over 2^24 features holds one block of rows, never a d-vector (128 MiB)."""
    stream = make_stream("planted_sparse", n=20000, d=2**24, nnz=50, seed=2)
    tracemalloc.start()
    try:
        rows = sum(X.shape[0] for X, _ in stream.chunks(1000))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert rows == 20000 and peak < 20e6, peak


def test_a_lazy_learner_runs_over_millions_of_features_touching_only_the_rows_columns():
    stream = make_stream("planted_sparse", n=3000, d=2**22, nnz=20, active=100, seed=3)
    trace = run(make_learner("fobos", eta=0.5, l1=1e-3), stream)
    X, y = stream.materialize()
    seen = np.unique(X.indices)
    assert np.count_nonzero(trace.state["A"]) <= seen.size
    assert set(np.flatnonzero(trace.state["w"])) <= set(seen)
    assert trace.n_mistakes < 0.4 * 3000                 # it learns (chance: 0.5)


@pytest.mark.parametrize("bad,message", [
    ({"nnz": 11, "d": 10}, r"nnz=11 exceeds d = 10"),
    ({"informative": 6, "nnz": 5}, r"informative=6 exceeds min\(nnz, active\) = 5"),
    ({"flip_rate": 0.5}, r"invalid flip_rate=0.5"), ({"d": 0}, r"invalid d=0")])
def test_planted_sparse_refuses_impossible_sizes_by_name(bad, message):
    with pytest.raises(ValueError, match=message):
        make_stream("planted_sparse", **bad)


def _svmlight(tmp_path, text):
    path = tmp_path / "data.svm"
    path.write_text(text)
    return str(path)


def test_hashing_folds_any_index_into_d_signed_buckets(tmp_path):
    path = _svmlight(tmp_path, "+1 1:3 7:1 2000000000:4\n-1 2:1.5\n")
    hashed, _ = make_stream("libsvm", path=path, hash_features=16).materialize()
    plain = sp.csr_matrix(([3.0, 1.0, 4.0, 1.5], [0, 6, 1999999999, 1], [0, 3, 4]),
                          shape=(2, 2000000000))
    assert hashed.shape == (2, 16)
    np.testing.assert_array_equal(hashed.toarray(), hash_columns(plain, 16).toarray())
    buckets, signs = bucket_and_sign(np.array([0, 6, 1999999999, 1]), 16)
    expected = np.zeros((2, 16))
    np.add.at(expected, ([0, 0, 0, 1], buckets), signs * [3.0, 1.0, 4.0, 1.5])
    np.testing.assert_array_equal(hashed.toarray(), expected)


def test_colliding_columns_of_a_row_are_summed_with_their_signs():
    columns = np.arange(64)
    buckets, signs = bucket_and_sign(columns, 4)
    a, b = 0, next(j for j in range(1, 64) if buckets[j] == buckets[0])
    X = sp.csr_matrix(([2.0, 5.0], [a, b], [0, 2]), shape=(1, 64))
    hashed = hash_columns(X, 4)
    assert hashed.nnz == 1
    assert hashed[0, buckets[0]] == signs[a] * 2.0 + signs[b] * 5.0
    assert set(signs) == {-1.0, 1.0}


@pytest.mark.parametrize("bad,message", [
    ({"hash_features": 0}, r"invalid hash_features=0"),
    ({"hash_features": 8, "n_features": 3}, r"give n_features=3 or hash_features=8, not both")])
def test_hashing_refuses_a_bad_dimension_by_name(tmp_path, bad, message):
    with pytest.raises(ValueError, match=message):
        make_stream("libsvm", path=_svmlight(tmp_path, "+1 1:1\n"), **bad)
