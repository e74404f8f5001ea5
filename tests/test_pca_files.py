"""Online PCA from data files (``task="pca"``): svmlight (CSR, read in blocks), CSV (dense,
read in blocks) and LIBOL's .mat (in memory, dense or MATLAB-sparse). The rows are those the
file gives at its default task, every label is 0 whatever the file holds there, meta says
task pca with no classes, a binarisation beside it is refused, and a PCA learner's losses on
the stream are those on the same rows in memory; one cell per kind from the command line."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp
from sklearn.datasets import load_svmlight_file

import olbench.streams.files.blocks as blocks
from olbench import make_learner, run
from olbench.comparators import make_comparator
from olbench.paths import shared_data_dir
from olbench.streams import make_stream

KINDS = ["libsvm", "csv", "mat", "mat_sparse"]
N, D = 48, 5


def _data(seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Rows near a plane (two large directions of five), some entries exactly 0; labels +-1."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((N, D)) @ np.diag([3.0, 2.0, 0.5, 0.3, 0.1])
    X[rng.random((N, D)) < 0.2] = 0.0
    return X, np.where(rng.random(N) < 0.5, 1.0, -1.0)


def _write(kind: str, folder, X: np.ndarray, labels: list[str]) -> tuple[str, dict]:
    """``X`` with ``labels`` (as text) written as a file of ``kind``: (stream key, params)."""
    if kind == "libsvm":
        path = folder / "rows.svm"
        lines = [f"{label} " + " ".join(f"{j + 1}:{float(v)!r}" for j, v in enumerate(row) if v)
                 for label, row in zip(labels, X)]
        path.write_text("\n".join(lines) + "\n")
        return "libsvm", {"path": str(path), "n_features": X.shape[1]}
    if kind == "csv":   # the label column between the features, as a file may have it
        path = folder / "rows.csv"
        head = ["a", "b", "label", "c", "d", "e"]
        lines = [",".join([*map(repr, row[:2].tolist()), label, *map(repr, row[2:].tolist())])
                 for label, row in zip(labels, X)]
        path.write_text(",".join(head) + "\n" + "\n".join(lines) + "\n")
        return "csv", {"path": str(path), "label_column": "label"}
    path = folder / "rows.mat"
    data = np.column_stack([np.array(labels, dtype=np.float64), X])
    scipy.io.savemat(path, {"data": sp.csc_matrix(data) if kind == "mat_sparse" else data})
    return "mat", {"path": str(path)}


def _dense(X) -> np.ndarray:
    return X.toarray() if sp.issparse(X) else np.asarray(X)


@pytest.fixture
def small_blocks(monkeypatch):
    """Text files read in 512-byte blocks: a stream of several blocks, as a large file is."""
    monkeypatch.setattr(blocks, "BLOCK_BYTES", 512)


@pytest.mark.usefixtures("small_blocks")
@pytest.mark.parametrize("kind", KINDS)
def test_a_file_read_for_pca_gives_its_rows_with_the_labels_dropped(kind, tmp_path):
    X0, y0 = _data()
    key, params = _write(kind, tmp_path, X0, [f"{v:+.0f}" for v in y0])
    labelled = make_stream(key, **params)
    stream = make_stream(key, task="pca", **params)
    X_in, y_in = labelled.materialize()
    X, y = stream.materialize()
    assert sp.issparse(X) == sp.issparse(X_in) == (kind in ("libsvm", "mat_sparse"))
    np.testing.assert_array_equal(_dense(X), _dense(X_in))       # the same rows, bit for bit
    np.testing.assert_array_equal(_dense(X), X0)                  # ... and the rows written
    assert set(y_in.tolist()) == {-1.0, 1.0} and y.tolist() == [0.0] * N
    meta = stream.meta
    assert (meta.task, meta.n, meta.d, meta.classes) == ("pca", N, D, None)
    assert meta.radius == pytest.approx(float(np.linalg.norm(X0, axis=1).max()), rel=1e-15)
    assert "labels_seen" not in meta.extra and "positive_label" not in meta.extra
    assert labelled.meta.task == "classification" and meta.fingerprint != labelled.meta.fingerprint
    # chunk by chunk (text files: across blocks) the same rows and zeros
    pieces = list(stream.chunks(7))
    assert [p[0].shape[0] for p in pieces] == [7] * 6 + [6]
    np.testing.assert_array_equal(np.vstack([_dense(p[0]) for p in pieces]), X0)
    assert all((p[1] == 0).all() for p in pieces)
    # a PCA learner on the stream, in chunks, loses what it loses on the rows in memory
    trace = run(make_learner("brand_svd", k=2), stream, chunk_size=5)
    in_memory = run(make_learner("brand_svd", k=2), X_in, np.zeros(N))
    np.testing.assert_array_equal(trace.margins, in_memory.margins)
    assert trace.margins[0] == pytest.approx(float(X0[0] @ X0[0]), rel=1e-12)  # P_1 = 0
    best = make_comparator("best_subspace", k=2).fit(X, y, meta, cache=None).cum_loss
    assert 0 < best < trace.margins.sum()


@pytest.mark.parametrize("kind", KINDS)
def test_a_permuted_file_read_for_pca_visits_the_rows_in_the_same_order(kind, tmp_path):
    X0, y0 = _data(1)
    key, params = _write(kind, tmp_path, X0, [f"{v:+.0f}" for v in y0])
    stream = make_stream(key, task="pca", order="permuted", seed=3, standardize=True, **params)
    labelled = make_stream(key, order="permuted", seed=3, standardize=True, **params)
    X, y = stream.materialize()
    np.testing.assert_array_equal(_dense(X), _dense(labelled.materialize()[0]))
    assert not np.array_equal(_dense(X)[:, 0], X0[:, 0]) and (y == 0).all()


def test_labels_that_no_other_task_reads_do_not_matter_to_pca(tmp_path):
    """Labels a classification read refuses (NaN, 0.5, text, empty) are dropped unread."""
    X0, _ = _data(2)
    odd = ["nan", "0.5", "7", "-3.25"] * (N // 4)
    for kind, refused in [("libsvm", "not a finite number"), ("mat", "labels")]:
        folder = tmp_path / kind
        folder.mkdir()
        key, params = _write(kind, folder, X0, odd)
        with pytest.raises(ValueError, match=refused):
            make_stream(key, **params).materialize()
        X, y = make_stream(key, task="pca", **params).materialize()
        np.testing.assert_array_equal(_dense(X), X0)
        assert y.tolist() == [0.0] * N
    texts = ["M", "", "nan", "3.5", "B", " x y "] * (N // 6)
    key, params = _write("csv", tmp_path, X0, texts)
    with pytest.raises(ValueError, match="column 'label': empty value"):
        make_stream(key, **params).materialize()
    X, y = make_stream(key, task="pca", **params).materialize()
    np.testing.assert_array_equal(X, X0)
    assert y.tolist() == [0.0] * N


def test_an_svmlight_line_without_its_label_is_refused_saying_why(tmp_path):
    """The format's first field is the label: task=pca reads it (to drop it) and says so."""
    path = tmp_path / "unlabelled.svm"
    path.write_text("1 1:3 2:4\n2:1 3:1\n")
    with pytest.raises(ValueError, match=r"unlabelled.svm:2: the label '2:1' is not a number: "
                                         r"an svmlight line starts with its label, which "
                                         r"task=pca reads and then drops"):
        make_stream("libsvm", path=str(path), task="pca").materialize()
    path.write_text("1 1:3 2:4\n1 2:x\n")   # a bad value is not called a label
    with pytest.raises(ValueError, match=r"unlabelled.svm:2: not a number \(could not convert"):
        make_stream("libsvm", path=str(path), task="pca").materialize()


@pytest.mark.parametrize("kind", ["libsvm", "csv", "mat"])
@pytest.mark.parametrize("given", [{"positive_label": 1}, {"negative_label": -1},
                                   {"positive_label": 1, "negative_label": -1}])
def test_a_binarisation_beside_pca_is_refused_naming_the_conflict(kind, given, tmp_path):
    X0, y0 = _data()
    key, params = _write(kind, tmp_path, X0, [f"{v:+.0f}" for v in y0])
    shown = f"positive_label={given.get('positive_label')!r}/negative_label=" \
            f"{given.get('negative_label')!r}"
    with pytest.raises(ValueError, match=rf"{key} file .*rows\.\w+: task=pca drops the labels "
                                         rf"\(online PCA reads the rows alone\), but "
                                         rf"{shown} binarise them: leave them null"):
        make_stream(key, task="pca", **given, **params)   # at construction, before any read
    if "positive_label" in given:   # (the same options read the labels without task=pca)
        assert make_stream(key, **given, **params).meta.task == "classification"


@pytest.mark.parametrize("kind", ["libsvm", "csv", "mat"])
def test_names_at_the_default_task_are_unchanged(kind, tmp_path):
    X0, y0 = _data()
    key, params = _write(kind, tmp_path, X0, [f"{v:+.0f}" for v in y0])
    path = params["path"]
    before = {  # the names these streams had before task=pca existed
        "libsvm": f"Svmlight[path={path},n_features=5,zero_based=auto,positive_label=None,"
                  f"negative_label=None,task=classification,order=file,seed=0,normalize=False,"
                  f"standardize=False,bias=False,hash_features=None]",
        "csv": f"Csv[path={path},label_column=label,features=None,delimiter=,,positive_label="
               f"None,negative_label=None,task=classification,order=file,seed=0,"
               f"normalize=False,standardize=False,bias=False]",
        "mat": f"MatFile[path={path},variable=data,label_column=0,positive_label=None,"
               f"negative_label=None,order=file,seed=0,normalize=False,standardize=False,"
               f"bias=False]"}[kind]
    assert make_stream(key, **params).name == before
    pca = make_stream(key, task="pca", **params).name
    assert pca == (before[:-1] + ",task=pca]" if kind == "mat" else
                   before.replace("task=classification", "task=pca"))


@pytest.mark.parametrize("kind", ["libsvm", "csv", "mat"])
def test_a_pca_cell_on_a_file_runs_from_the_command_line_with_regret(kind, tmp_path):
    from olbench_command import QUIET, olbench_here
    from test_cli import _only_folder

    import olbench as ob

    X0, y0 = _data(3)
    key, params = _write(kind, tmp_path, X0, [f"{v:+.0f}" for v in y0])
    given = [f"stream.{k}={v}" for k, v in params.items() if k != "n_features"]
    out = olbench_here(f"stream={key}", *given, "stream.task=pca", "learner=oja",
                       "learner.k=2", *QUIET, "run.seeds=[0]", f"run.output_dir={tmp_path}",
                       cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    table = ob.load_results(_only_folder(tmp_path / "single")).table
    final = table[table["t"].eq(N)].iloc[0]
    assert final["comparator"].startswith("BestSubspace[k=2")
    stream = make_stream(key, task="pca", **{k: v for k, v in params.items()
                                             if k != "n_features"})
    assert (final["stream_task"], final["stream_fingerprint"]) == ("pca", stream.meta.fingerprint)
    X, y = stream.materialize()
    trace = run(make_learner("oja", k=2, seed=int(final["learner_seed"])), stream)
    best = make_comparator("best_subspace", k=2).fit(X, y, stream.meta, cache=None).cum_loss
    assert final["comparator_loss"] == pytest.approx(best, rel=1e-12)
    assert final["cum_loss"] == pytest.approx(trace.margins.sum(), rel=1e-12)
    assert final["regret"] == pytest.approx(trace.margins.sum() - best, rel=1e-9) and best > 0


LIBSVM, LIBOL = shared_data_dir() / "libsvm", shared_data_dir() / "libol"


@pytest.mark.skipif(not (LIBSVM / "vowel").is_file() or not (LIBOL / "glass.mat").is_file(),
                    reason=f"shared files {LIBSVM / 'vowel'} or {LIBOL / 'glass.mat'} absent "
                           "(they live next to the repository, never inside)")
def test_shared_multiclass_files_read_for_pca():
    """LIBSVM's vowel (11 classes) and LIBOL's glass.mat (6 classes): the rows of the
    multiclass read, without their classes."""
    vowel = make_stream("libsvm", path=str(LIBSVM / "vowel"), task="pca")
    X, y = vowel.materialize()
    X_ref, _ = load_svmlight_file(str(LIBSVM / "vowel"), n_features=vowel.meta.d)
    assert X.shape == (528, 10) and (X != X_ref).nnz == 0 and (y == 0).all()
    glass = make_stream("mat", path=str(LIBOL / "glass.mat"), task="pca")
    multiclass = make_stream("mat", path=str(LIBOL / "glass.mat"), task="multiclass")
    np.testing.assert_array_equal(glass.materialize()[0], multiclass.materialize()[0])
    assert len(multiclass.meta.classes) == 6 and glass.meta.classes is None
    assert glass.meta.task == "pca" and (glass.materialize()[1] == 0).all()
