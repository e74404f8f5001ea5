"""Multiclass streams (synthetic with a guaranteed multiclass margin; LIBOL's .mat files and
LIBSVM files read with task=multiclass) and the multiclass mistake bounds checked on them."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from olbench import make_learner, run
from olbench.bounds import BoundViolation, bound_table
from olbench.paths import shared_data_dir
from olbench.streams import make_stream

LIBOL = shared_data_dir() / "libol"
LIBSVM = shared_data_dir() / "libsvm"


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("k,d,gamma", [(2, 4, 0.1), (3, 8, 0.05), (6, 10, 0.02)])
def test_the_margin_and_radius_hold_as_computed_here(seed, k, d, gamma):
    stream = make_stream("multiclass_separable", n=300, d=d, k=k, gamma=gamma, seed=seed)
    X, y = stream.materialize()
    W = stream.meta.u
    assert np.linalg.norm(W) == pytest.approx(1.0)
    scores = X @ W.T
    own = scores[np.arange(len(y)), y.astype(int) - 1]
    rival = np.where(np.arange(k) == (y.astype(int) - 1)[:, None], -np.inf, scores).max(1)
    assert (own - rival).min() >= gamma
    assert (own - rival).min() == pytest.approx(stream.meta.margin)
    assert np.linalg.norm(X, axis=1).max() <= 1.0
    assert set(np.unique(y)) == set(range(1, k + 1)) == set(stream.meta.classes)


def test_a_margin_too_wide_for_the_classes_is_refused():
    with pytest.raises(ValueError, match=r"needs a smaller gamma"):
        make_stream("multiclass_separable", n=50, d=2, k=8, gamma=0.9).meta


def _checks(learner, stream):
    trace = run(learner, stream)
    meta = stream.meta
    with warnings.catch_warnings():
        warnings.simplefilter("error", BoundViolation)
        return bound_table(learner, trace, checkpoints=[meta.n], R=meta.radius,
                           margin=meta.margin)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("key,params", [
    ("multiclass_perceptron", {"scheme": "max"}), ("multiclass_perceptron", {"scheme": "uniform"}),
    ("multiclass_perceptron", {"scheme": "proportional"}),
    ("multiclass_perceptron", {"scheme": "max", "libol": True}),
    ("multiclass_pa", {"variant": "pa"}), ("multiclass_pa", {"variant": "pa1", "C": 0.3})])
def test_the_multiclass_bounds_hold_on_separable_streams(key, params, seed):
    stream = make_stream("multiclass_separable", n=1500, d=6, k=1 + 2 * (seed + 1),
                         gamma=0.03, seed=seed)
    table = _checks(make_learner(key, **params), stream)
    assert len(table) == 1 and bool(table["bound_holds"].iloc[0])
    assert table["observed"].iloc[0] > 0


def test_libols_uniform_and_proportional_codes_declare_no_bound():
    stream = make_stream("multiclass_separable", n=100, d=4, k=3, gamma=0.05)
    for scheme in ("uniform", "proportional"):
        assert _checks(make_learner("multiclass_perceptron", scheme=scheme, libol=True),
                       stream).empty


@pytest.mark.parametrize("k", [2, 3, 5])
def test_orthogonal_rows_take_the_perceptron_to_its_bound_for_two_classes(k):
    stream = make_stream("multiclass_tight", m=40, k=k, R=3.0, seed=k)
    table = _checks(make_learner("multiclass_perceptron"), stream)
    assert table["observed"].iloc[0] == 40                # a mistake on every row
    assert table["bound"].iloc[0] == pytest.approx(2 * 40 * (k - 1) / k)
    assert table["ratio"].iloc[0] == pytest.approx(k / (2 * (k - 1)))


def test_a_stream_without_its_margin_skips_naming_why():
    stream = make_stream("multiclass_separable", n=100, d=4, k=3, gamma=0.05)
    trace = run(make_learner("multiclass_perceptron"), stream)
    table = bound_table(make_learner("multiclass_perceptron"), trace, checkpoints=[100],
                        R=1.0)
    assert table["skip_reason"].iloc[0].startswith("the multiclass margin gamma is unknown")


# ------------------------------------------------------------------------------ real data
@pytest.mark.skipif(not (LIBOL / "glass.mat").is_file(), reason=f"no {LIBOL / 'glass.mat'}")
def test_libols_glass_keeps_its_six_classes():
    stream = make_stream("mat", path=str(LIBOL / "glass.mat"), task="multiclass",
                         order="libol", seed=1)
    assert stream.meta.classes.tolist() == [1, 2, 3, 4, 5, 6] and stream.meta.n == 214
    trace = run(make_learner("multiclass_pa", variant="pa"), stream, tie="libol")
    assert 0 < trace.n_mistakes < 214


@pytest.mark.skipif(not (LIBSVM / "vowel").is_file(), reason=f"no {LIBSVM / 'vowel'}")
def test_a_libsvm_file_read_as_multiclass_keeps_its_codes_and_refuses_a_binarisation():
    stream = make_stream("libsvm", path=str(LIBSVM / "vowel"), task="multiclass")
    assert stream.meta.classes.tolist() == list(range(11))      # vowel codes its classes 0..10
    trace = run(make_learner("multiclass_arow"), stream)
    assert set(trace.predictions) <= set(range(11)) and trace.n == 528
    with pytest.raises(ValueError, match=r"task=multiclass keeps the file's classes"):
        make_stream("libsvm", path=str(LIBSVM / "vowel"), task="multiclass",
                    positive_label=1).meta


def test_a_binary_stream_and_a_multiclass_learner_are_refused_by_name():
    with pytest.raises(ValueError, match=r"learner multiclass_pa does multiclass classification "
                                         r"but stream separable is a classification stream"):
        run(make_learner("multiclass_pa"), make_stream("separable", n=10))
    with pytest.raises(ValueError, match=r"learner pa does classification but stream "
                                         r"multiclass_separable is a multiclass classification"):
        run(make_learner("pa"), make_stream("multiclass_separable", n=10))


# ------------------------------------------------------------------------------ the command
def test_a_multiclass_cell_runs_from_the_command_line(tmp_path):
    """``olbench learner=multiclass_... stream=...``: measured against the multiclass
    comparator (in place of the configured binary one), its bound checked."""
    import pandas as pd
    from olbench_command import QUIET, olbench_here

    out = olbench_here("learner=multiclass_perceptron", "stream=multiclass_separable",
                       "stream.n=300", "run.seeds=[0,1]", *QUIET,
                       f"run.output_dir={tmp_path / 'out'}", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    folder = next((tmp_path / "out").glob("*/*/results.parquet")).parent
    rows = pd.read_parquet(folder / "results.parquet")
    final = rows[rows["t"] == 300]
    assert (final["status"] == "ok").all() and len(final["seed"].unique()) == 2
    assert (final["mistakes"] > 0).all()
    checks = final[final["bound_name"] == "multiclass_perceptron"]
    assert len(checks) == 2 and checks["bound_holds"].all()
    assert set(final["comparator"]) == {"MulticlassBestFixed[loss=multiclass_hinge]"}
    np.testing.assert_allclose(final["regret"], final["cum_loss"] - final["comparator_loss"])


@pytest.mark.needs_datasets("vowel")
def test_a_catalogue_dataset_is_kept_multiclass_by_name():
    stream = make_stream("dataset", name="vowel", task="multiclass")
    assert stream.task == "multiclass" and "task=multiclass" in stream.name
    assert stream.meta.classes.tolist() == list(range(11))
    assert "task" not in make_stream("dataset", name="vowel", positive_label=1).name
    with pytest.raises(ValueError, match=r"a multiclass learner takes it whole with "
                                         r"stream.task=multiclass"):
        make_stream("dataset", name="vowel")
    with pytest.raises(ValueError, match=r"positive_label/negative_label binarise it"):
        make_stream("dataset", name="vowel", task="multiclass", positive_label=1)


def _mat_with_ids(tmp_path, n=6, k=3):
    import scipy.io

    rng = np.random.default_rng(0)
    data = np.column_stack([1 + np.arange(n) % k, rng.standard_normal((n, 2))])
    ids = np.array([rng.permutation(n) + 1 for _ in range(4)])
    path = tmp_path / "withids.mat"
    scipy.io.savemat(path, {"data": data, "ID_ALL": ids})
    return str(path), data, ids


def test_a_mat_files_own_permutations_are_an_order(tmp_path):
    path, data, ids = _mat_with_ids(tmp_path)
    for seed in (1, 4):
        X, y = make_stream("mat", path=path, task="multiclass", order="ids",
                           seed=seed).materialize()
        np.testing.assert_array_equal(X, data[ids[seed - 1] - 1, 1:])
        np.testing.assert_array_equal(y, data[ids[seed - 1] - 1, 0])
    from olbench.streams.files.matlab import MatFile
    assert MatFile.seed_in_run({"order": "ids"}, 3, 12345) == 3      # run 3 reads row 3
    with pytest.raises(ValueError, match=r"seed=5 picks a row of ID_ALL, which has 4"):
        make_stream("mat", path=path, order="ids", seed=5, task="multiclass").meta


def test_a_mat_file_read_as_multiclass_refuses_a_binarisation_as_text_files_do(tmp_path):
    path, _, _ = _mat_with_ids(tmp_path)
    with pytest.raises(ValueError, match=r"task=multiclass keeps the file's classes, but "
                                         r"positive_label/negative_label binarise them"):
        make_stream("mat", path=path, task="multiclass", positive_label=1).meta


@pytest.mark.needs_datasets("segment", "glass")
def test_libols_multiclass_files_are_catalogue_datasets():
    for name, n, k in (("glass", 214, 6), ("segment", 2310, 7)):
        meta = make_stream("dataset", name=name, task="multiclass").meta
        assert (meta.n, len(meta.classes)) == (n, k)
