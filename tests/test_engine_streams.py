"""olbench.run over stream objects: chunk by chunk, state carried across chunks."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from olbench import make_learner, run
from olbench.streams import make_stream


@pytest.mark.parametrize("key", ["perceptron", "pa", "arow"])
def test_stream_chunks_equal_whole_arrays(key):
    stream = make_stream("noisy", n=700, d=8, gamma=0.05, R=1.0, flip_rate=0.1, seed=3)
    X, y = stream.materialize()
    whole = run(make_learner(key), X, y)
    for chunk_size in (None, 64, 1000):
        chunked = run(make_learner(key), stream, chunk_size=chunk_size)
        np.testing.assert_array_equal(chunked.margins, whole.margins)
        np.testing.assert_array_equal(chunked.state["w"], whole.state["w"])


def test_sparse_file_stream_runs_in_chunks(tmp_path):
    from sklearn.datasets import dump_svmlight_file, load_svmlight_file

    rng = np.random.default_rng(0)
    X = sp.random(500, 40, density=0.1, random_state=1, format="csr")
    y = np.where(rng.random(500) < 0.5, -1, 1)
    path = tmp_path / "tiny.svm"
    dump_svmlight_file(X, y, str(path), zero_based=True)
    stream = make_stream("libsvm", path=str(path), n_features=40, zero_based=True)
    trace = run(make_learner("pa"), stream, chunk_size=37)
    X_read, y_read = load_svmlight_file(str(path), n_features=40, zero_based=True)
    reference = run(make_learner("pa"), X_read, y_read)
    np.testing.assert_array_equal(trace.margins, reference.margins)
    assert trace.n == 500 and trace.n_updates > 100


def test_labels_inside_streams_only():
    stream = make_stream("separable", n=10, d=2, gamma=0.1, R=1.0, seed=0)
    with pytest.raises(ValueError, match="pass labels inside the stream"):
        run(make_learner("pa"), stream, np.ones(10))


def test_timing_is_recorded_at_checkpoints_without_changing_results():
    stream = make_stream("separable", n=1000, d=5, gamma=0.05, R=1.0, seed=1)
    plain = run(make_learner("pa"), stream)
    timed = run(make_learner("pa"), stream, checkpoints=[1, 10, 100, 1000], chunk_size=300)
    np.testing.assert_array_equal(plain.margins, timed.margins)
    assert timed.time_rows.tolist() == [1, 10, 100, 300, 600, 900, 1000]
    at = timed.time_at([1, 10, 100, 1000])
    assert (np.diff(at) >= 0).all() and at[-1] == pytest.approx(timed.time_s)
