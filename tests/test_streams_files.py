"""File streams: chunked == whole-file, label codings, errors naming file:line, orderings,
transforms, constant memory, and the shared LIBSVM/LIBOL files (skipped when absent)."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import dump_svmlight_file, load_svmlight_file

import olbench.streams.files.blocks as blocks
from olbench.features import row_norms
from olbench.paths import shared_data_dir
from olbench.streams.base import fingerprint_chunks
from olbench.streams.files import Csv, MatFile, Svmlight
from olbench.streams.real import permutation

LIBSVM = shared_data_dir() / "libsvm"
LIBOL = shared_data_dir() / "libol"
needs_libsvm = pytest.mark.skipif(not LIBSVM.is_dir(), reason=f"shared LIBSVM folder {LIBSVM} "
                                  "is absent (it lives next to the repository, never inside)")
needs_libol = pytest.mark.skipif(not LIBOL.is_dir(), reason=f"shared LIBOL folder {LIBOL} is "
                                 "absent (it lives next to the repository, never inside)")


def _random_svmlight(path, n=3000, d=40, density=0.2, labels=(-1, 1), seed=0, zero_based=False):
    rng = np.random.default_rng(seed)
    X = sp.random(n, d, density=density, format="csr", random_state=seed,
                  data_rvs=lambda k: np.round(rng.standard_normal(k), 6))
    y = rng.choice(labels, size=n)
    dump_svmlight_file(X, y, str(path), zero_based=zero_based)
    return X, y


# ------------------------------------------------------------------ chunked == whole file
@pytest.mark.parametrize("block_bytes", [300, 4000, 1 << 22])
@pytest.mark.parametrize("chunk_size", [1, 333, 10_000])
def test_chunked_reading_equals_whole_file_reading(tmp_path, monkeypatch, block_bytes, chunk_size):
    path = tmp_path / "data.svm"
    _random_svmlight(path, n=500 if chunk_size == 1 else 2000)
    monkeypatch.setattr(blocks, "BLOCK_BYTES", block_bytes)
    s = Svmlight(path=str(path))
    X_ref, y_ref = load_svmlight_file(str(path))
    chunks = list(s.chunks(chunk_size))
    assert all(len(y) == chunk_size for _, y in chunks[:-1]) and len(chunks[-1][1]) <= chunk_size
    X = sp.vstack([c[0] for c in chunks], format="csr")
    y = np.concatenate([c[1] for c in chunks])
    assert X.shape == X_ref.shape and (X != X_ref).nnz == 0
    np.testing.assert_array_equal(X.indptr, X_ref.indptr)
    np.testing.assert_array_equal(X.indices, X_ref.indices)
    np.testing.assert_array_equal(X.data, X_ref.data)
    np.testing.assert_array_equal(y, y_ref)
    assert all(isinstance(c[0], sp.csr_matrix) and c[0].has_sorted_indices
               and c[0].dtype == np.float64 for c in chunks)
    assert s.meta.fingerprint == fingerprint_chunks([(X_ref, y_ref.astype(float))])
    assert s.meta.radius == pytest.approx(row_norms(X_ref).max(), rel=1e-15)
    assert (s.meta.n, s.meta.d, s.meta.sparse) == (X_ref.shape[0], X_ref.shape[1], True)


def test_file_without_final_newline_comments_blank_lines_and_crlf(tmp_path):
    path = tmp_path / "f.svm"
    path.write_bytes(b"# header comment\n+1 1:0.5 3:2 # trailing\r\n\n-1 2:1\n+1 3:-1")
    X, y = Svmlight(path=str(path)).materialize()
    np.testing.assert_array_equal(X.toarray(), [[0.5, 0, 2], [0, 1, 0], [0, 0, -1]])
    np.testing.assert_array_equal(y, [1, -1, 1])


def test_n_features_and_zero_based(tmp_path):
    path = tmp_path / "f.svm"
    path.write_text("1 1:1 2:2\n-1 2:3\n")
    assert Svmlight(path=str(path)).meta.d == 2
    assert Svmlight(path=str(path), n_features=5).meta.d == 5
    X, _ = Svmlight(path=str(path), zero_based=True).materialize()
    np.testing.assert_array_equal(X.toarray(), [[0, 1, 2], [0, 0, 3]])
    path.write_text("1 0:1 2:2\n-1 2:3\n")
    assert Svmlight(path=str(path)).meta.extra["zero_based"] is True
    with pytest.raises(ValueError, match=r"f\.svm:1: feature index 0 .*zero_based=False"):
        Svmlight(path=str(path), zero_based=False).meta
    path.write_text("1 1:1\n1 2:1\n-1 9:1\n")
    with pytest.raises(ValueError, match=r"f\.svm:3: feature index 9 > n_features=4"):
        Svmlight(path=str(path), n_features=4).meta


# ------------------------------------------------------------------ labels
@pytest.mark.parametrize("coding,positive", [((-1, 1), 1), ((0, 1), 1), ((1, 2), 2),
                                             ((2, 4), 4)])
def test_known_binary_codings_map_to_plus_minus_one(tmp_path, coding, positive):
    path = tmp_path / "f.svm"
    _, raw = _random_svmlight(path, n=200, d=5, labels=coding)
    s = Svmlight(path=str(path))
    _, y = s.materialize()
    np.testing.assert_array_equal(y, np.where(raw == positive, 1.0, -1.0))
    assert s.meta.extra["positive_label"] == positive
    # an explicit positive_label overrides the default
    _, y2 = Svmlight(path=str(path), positive_label=coding[0]).materialize()
    np.testing.assert_array_equal(y2, -y)


def test_multiclass_needs_positive_label_and_supports_one_vs_rest_and_one_vs_one(tmp_path):
    path = tmp_path / "mc.svm"
    _, raw = _random_svmlight(path, n=300, d=5, labels=(1, 2, 3, 7))
    with pytest.raises(ValueError, match=r"mc\.svm: labels seen \{1, 2, 3, 7\} are not a known "
                                         r"binary coding.*positive_label"):
        Svmlight(path=str(path)).meta
    _, y = Svmlight(path=str(path), positive_label=3).materialize()
    np.testing.assert_array_equal(y, np.where(raw == 3, 1.0, -1.0))
    X, y = Svmlight(path=str(path), positive_label=3, negative_label=7).materialize()
    keep = (raw == 3) | (raw == 7)
    assert X.shape[0] == keep.sum()
    np.testing.assert_array_equal(y, np.where(raw[keep] == 3, 1.0, -1.0))
    with pytest.raises(ValueError, match=r"positive_label=5 is not among the labels seen "
                                         r"\{1, 2, 3, 7\}"):
        Svmlight(path=str(path), positive_label=5).meta


def test_regression_targets_are_kept(tmp_path):
    path = tmp_path / "r.svm"
    path.write_text("0.25 1:1\n-3.5 2:1\n17 1:2\n")
    _, y = Svmlight(path=str(path), task="regression").materialize()
    np.testing.assert_array_equal(y, [0.25, -3.5, 17.0])


# ------------------------------------------------------------------ errors
@pytest.mark.parametrize("bad,what", [
    (b"+1 3:abc", "not a number"),
    (b"+1 a:1", "feature index is not an integer"),
    (b"+1 3:1 2:1", "feature indices must be increasing and unique"),
    (b"+1 2", "expected 'index:value' pairs"),
    (b"x 1:2", "not a number"),
    (b"+1 1:nan", "feature value is not a finite number"),
])
def test_malformed_svmlight_line_names_file_line_and_problem(tmp_path, bad, what):
    lines = [b"+1 1:1 2:1", b"-1 2:0.5"] * 3000 + [b"-1 1:1"]
    lines.insert(4321, bad)
    path = tmp_path / "bad.svm"
    path.write_bytes(b"\n".join(lines) + b"\n")
    with pytest.raises(ValueError, match=rf"bad\.svm:4322: {what}") as info:
        Svmlight(path=str(path)).meta
    assert bad.decode()[:5] in str(info.value)


def test_missing_file_is_a_clear_error():
    with pytest.raises(FileNotFoundError, match=r"data file not found: 'no/such/file.svm' "
                                                r"\(nor relative to the repository root"):
        Svmlight(path="no/such/file.svm").meta


def test_construction_is_lazy_and_checks_parameters(tmp_path):
    Svmlight(path="not/read/yet.svm")          # nothing is read in __init__
    with pytest.raises(ValueError, match="order must be one of 'file', 'permuted'"):
        Svmlight(path="x", order="random")
    with pytest.raises(ValueError, match="zero_based must be one of"):
        Svmlight(path="x", zero_based="yes")


# ------------------------------------------------------------------ orderings and transforms
def test_permuted_order_is_a_seeded_permutation_of_the_file(tmp_path, monkeypatch):
    path = tmp_path / "p.svm"
    _random_svmlight(path, n=20_000, d=12)
    X_ref, y_ref = load_svmlight_file(str(path))
    s = Svmlight(path=str(path), order="permuted", seed=3)
    X, y = s.materialize()
    perm = permutation(20_000, 3)
    assert (X != X_ref[perm]).nnz == 0
    np.testing.assert_array_equal(y, y_ref[perm])
    again = Svmlight(path=str(path), order="permuted", seed=3)
    other = Svmlight(path=str(path), order="permuted", seed=4)
    assert again.meta.fingerprint == s.meta.fingerprint != other.meta.fingerprint
    assert s.meta.fingerprint != Svmlight(path=str(path)).meta.fingerprint


def test_normalize_standardize_bias_on_a_file(tmp_path):
    path = tmp_path / "t.svm"
    X_raw, _ = _random_svmlight(path, n=2000, d=8, density=0.7)
    X, _ = Svmlight(path=str(path), normalize=True, bias=True).materialize()
    norms = row_norms(X[:, :-1])
    np.testing.assert_allclose(norms[row_norms(X_raw) > 0], 1.0)
    assert np.all(X[:, -1].toarray() == 1.0)
    Xs, _ = Svmlight(path=str(path), standardize=True).materialize()
    dense = Xs.toarray()
    np.testing.assert_allclose(dense.std(axis=0), 1.0, rtol=1e-10)   # sparse: scaled, not centred
    np.testing.assert_allclose(dense.mean(axis=0) * X_raw.toarray().std(axis=0),
                               X_raw.toarray().mean(axis=0), rtol=1e-10, atol=1e-12)


# ------------------------------------------------------------------ CSV
def test_csv_stream(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("a,label,b\n1,M,2\n\n3.5,R,-4\n0,M,1e-3\n")
    s = Csv(path=str(path), label_column="label", positive_label="M")
    X, y = s.materialize()
    np.testing.assert_array_equal(X, [[1, 2], [3.5, -4], [0, 1e-3]])
    np.testing.assert_array_equal(y, [1, -1, 1])
    assert s.meta.extra["columns"] == ["a", "b"] and not s.meta.sparse
    with pytest.raises(ValueError, match=r"labels seen \{'M', 'R'\}"):
        Csv(path=str(path), label_column="label").meta
    Xb, _ = Csv(path=str(path), label_column="label", features=["b"], positive_label="R",
                standardize=True).materialize()
    np.testing.assert_allclose([Xb.mean(), Xb.std()], [0.0, 1.0], atol=1e-12)
    with pytest.raises(ValueError,
                       match=r"d\.csv:1: no column 'y'; columns: \['a', 'label', 'b'\]"):
        Csv(path=str(path), label_column="y").meta


@pytest.mark.parametrize("bad,what", [
    ("1,2,3,4", r"expected 3 fields \(a, b, label\), found 4"),
    ("1,x,1", "column 'b': not a number: 'x'"),
    ("1,,1", "column 'b': empty value"),
    ("1,2", "expected 3 fields"),
])
def test_malformed_csv_line_names_file_line_and_problem(tmp_path, bad, what):
    rows = ["1,2,1", "3,4,-1"] * 500
    rows.insert(700, bad)
    path = tmp_path / "bad.csv"
    path.write_text("a,b,label\n" + "\n".join(rows) + "\n")
    with pytest.raises(ValueError, match=rf"bad\.csv:702: {what}"):
        Csv(path=str(path), label_column="label").meta


def test_csv_and_svmlight_of_the_same_data_agree(tmp_path):
    X_raw, y_raw = _random_svmlight(tmp_path / "s.svm", n=500, d=6, density=1.0)
    dense = X_raw.toarray()
    lines = ["f0,f1,f2,f3,f4,f5,y"] + [",".join(repr(float(v)) for v in row) + f",{int(t)}"
                                       for row, t in zip(dense, y_raw)]
    (tmp_path / "s.csv").write_text("\n".join(lines) + "\n")
    for order in ("file", "permuted"):
        Xc, yc = Csv(path=str(tmp_path / "s.csv"), label_column="y", order=order,
                     seed=5).materialize()
        Xs, ys = Svmlight(path=str(tmp_path / "s.svm"), order=order, seed=5).materialize()
        np.testing.assert_array_equal(Xc, Xs.toarray())
        np.testing.assert_array_equal(yc, ys)


# ------------------------------------------------------------------ constant memory
def test_streaming_memory_is_far_below_the_in_memory_size(tmp_path, monkeypatch):
    """60k rows x 10 features, read in 64 KiB blocks: tracemalloc peak of one streaming pass
    vs. the CSR size of the whole data. The 1,000,000-row figure: benchmarks/stream_memory.py
    (tracemalloc slows scikit-learn's parser tenfold, hence the small size here)."""
    path = tmp_path / "big.svm"
    rng = np.random.default_rng(0)
    n, k = 60_000, 10
    distinct = [f"{rng.choice(['+1', '-1'])} " + " ".join(f"{j + 1}:{v:.4f}" for j, v in
                                                         enumerate(rng.standard_normal(k)))
                for _ in range(1000)]
    path.write_text("\n".join(distinct[i % 1000] for i in range(n)) + "\n")
    monkeypatch.setattr(blocks, "BLOCK_BYTES", 64 << 10)
    in_memory = n * k * (8 + 4) + (n + 1) * 4 + n * 8       # CSR data+indices+indptr, and y
    s = Svmlight(path=str(path))
    s._scan()                                                # the first pass, not measured
    tracemalloc.start()
    rows = 0
    for X, _ in s.chunks(2_000):
        rows += X.shape[0]
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert rows == n
    assert peak < in_memory / 6, (peak, in_memory)


# ------------------------------------------------------------------ shared benchmark files
@needs_libsvm
@pytest.mark.parametrize("name,kw", [("heart_scale", {}), ("a1a", {"n_features": 123}),
                                     ("breast-cancer_scale", {}), ("svmguide1", {})])
def test_shared_libsvm_files_match_manifest_and_sklearn(name, kw):
    manifest = {row.split("\t")[0]: row.split("\t") for row in
                (LIBSVM / "MANIFEST.tsv").read_text().splitlines()[1:]}
    s = Svmlight(path=f"../shared/data/libsvm/{name}", **kw)   # relative to the repo root
    assert s.meta.n == int(manifest[name][1]) and s.meta.d == int(manifest[name][2])
    X, y = s.materialize()
    X_ref, y_ref = load_svmlight_file(str(LIBSVM / name), n_features=s.meta.d)
    assert (X != X_ref).nnz == 0
    np.testing.assert_array_equal(y == 1, y_ref == max(y_ref))


@needs_libsvm
def test_shared_multiclass_file_one_vs_rest():
    s = Svmlight(path=str(LIBSVM / "vowel"), positive_label=0)
    assert s.meta.n == 528 and sorted(s.meta.extra["labels_seen"]) == list(range(11))
    assert np.sum(s.materialize()[1] == 1) == 48


@needs_libol
def test_libol_svmguide3_mat():
    s = MatFile(path=str(LIBOL / "svmguide3.mat"))
    X, y = s.materialize()
    assert X.shape == (1243, 21) and set(np.unique(y)) == {-1.0, 1.0}
    assert s.meta.extra["positive_label"] == 1.0
    with pytest.raises(ValueError, match="no variable 'X'; variables: \\['data'\\]"):
        MatFile(path=str(LIBOL / "svmguide3.mat"), variable="X").meta
