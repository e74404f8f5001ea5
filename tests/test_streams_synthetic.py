"""Synthetic and bundled streams: guarantees, determinism, noise bookkeeping, configs."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from local_data import skip_unless_local
from omegaconf import OmegaConf

from olbench.component import InvalidParameterError
from olbench.features import row_norms
from olbench.streams import Stream, make_stream
from olbench.streams.base import fingerprint_chunks
from olbench.streams.bundled import BreastCancer, Diabetes, Digits, Iris, Wine
from olbench.streams.real import permutation
from olbench.streams.synthetic import (
    Drift,
    LinearRegression,
    Noisy,
    NovikoffTight,
    Outliers,
    Separable,
    Sinc,
    SugiyamaClusters,
    SugiyamaOutliers,
    sinc_target,
)

CONF = Path(__file__).resolve().parents[1] / "conf" / "stream"
TOL = 1e-12


# ------------------------------------------------------------------ margin and radius
@pytest.mark.parametrize("distribution", ["ball", "gaussian"])
@pytest.mark.parametrize("gamma,R,d", [(0.1, 1.0, 5), (0.05, 3.0, 20), (0.0, 1.0, 2),
                                       (0.9, 1.0, 3), (2.0, 2.0, 4)])
def test_separable_guarantees_margin_and_radius_on_many_seeds(distribution, gamma, R, d):
    for seed in range(200):
        s = Separable(n=200, d=d, gamma=gamma, R=R, distribution=distribution, seed=seed)
        X, y = s.materialize()
        m = s.meta
        u = m.u / np.linalg.norm(m.u)
        assert np.min(y * (X @ u)) >= gamma - TOL * R
        assert np.max(row_norms(X)) <= R + TOL * R
        # the meta reports the realised values, computed from the data
        assert m.margin == pytest.approx(np.min(y * (X @ u)), abs=1e-15)
        assert m.radius == np.max(row_norms(X))
        assert m.margin >= gamma - TOL * R and m.radius <= R + TOL * R
        assert set(np.unique(y)) <= {-1.0, 1.0}


def test_separable_margin_is_attained_closely_not_just_bounded():
    # the construction maps [0, R] onto [gamma, R]: the realised margin is close to gamma
    m = Separable(n=5000, d=3, gamma=0.2, R=1.0, seed=0).meta
    assert 0.2 <= m.margin < 0.21
    assert 0.99 < m.radius <= 1.0


def test_separable_both_classes_present_and_balanced():
    _, y = Separable(n=4000, d=10, seed=3).materialize()
    assert 0.45 < np.mean(y == 1) < 0.55


def test_bias_appends_constant_and_pads_u():
    plain, biased = Separable(n=50, d=4, seed=2), Separable(n=50, d=4, seed=2, bias=True)
    Xp, _ = plain.materialize()
    Xb, _ = biased.materialize()
    assert Xb.shape == (50, 5) and np.all(Xb[:, -1] == 1.0)
    np.testing.assert_array_equal(Xb[:, :4], Xp)
    assert biased.meta.bias and not plain.meta.bias
    assert biased.meta.u[-1] == 0.0 and biased.meta.margin == plain.meta.margin
    assert biased.meta.radius <= math.sqrt(1.0 + 1.0) + TOL


@pytest.mark.parametrize("kwargs,match", [
    (dict(gamma=2.0, R=1.0), "gamma=2.0 > R=1.0"),
    (dict(R=0.0), "R must be"),
    (dict(n=0), "n must be"),
    (dict(d=2.5), "d must be an integer"),
    (dict(distribution="cube"), "distribution must be one of"),
])
def test_separable_rejects_impossible_parameters(kwargs, match):
    with pytest.raises(ValueError, match=match):
        Separable(**kwargs)


@pytest.mark.parametrize("rate", [0.5, -0.1, 0.7])
def test_noisy_rejects_flip_rate_outside_half_open_interval(rate):
    with pytest.raises(InvalidParameterError, match=r"flip_rate must be a number in \[0, 0.5\)"):
        Noisy(flip_rate=rate)


# ------------------------------------------------------------------ determinism
@pytest.mark.parametrize("key", ["separable", "noisy", "outliers", "drift", "novikoff_tight",
                                 "linear_regression", "sinc", "sugiyama_outliers"])
def test_same_seed_same_bytes_different_seed_different_bytes(key):
    a, b, c = make_stream(key, seed=1), make_stream(key, seed=1), make_stream(key, seed=2)
    assert a.meta.fingerprint == b.meta.fingerprint
    assert a.meta.fingerprint != c.meta.fingerprint
    Xa, ya = a.materialize()
    Xb, yb = b.materialize()
    assert Xa.tobytes() == Xb.tobytes() and ya.tobytes() == yb.tobytes()


def test_fingerprint_does_not_depend_on_chunk_size_and_detects_one_changed_value():
    s = Noisy(n=1000, d=5, seed=4, sigma=0.1)
    prints = {fingerprint_chunks(s.chunks(size)) for size in (1, 7, 999, 1000, 10_000)}
    assert prints == {s.meta.fingerprint}
    X, y = s.materialize()
    X2 = X.copy()
    X2[500, 2] = np.nextafter(X2[500, 2], 1.0)
    assert fingerprint_chunks([(X2, y)]) != s.meta.fingerprint


def test_chunks_cover_the_stream_in_order():
    s = Separable(n=1003, d=3, seed=0)
    chunks = list(s.chunks(100))
    assert [len(y) for _, y in chunks] == [100] * 10 + [3]
    X, y = s.materialize()
    np.testing.assert_array_equal(np.concatenate([c[0] for c in chunks]), X)
    assert all(c[0].flags.c_contiguous and c[0].dtype == np.float64 for c in chunks)
    with pytest.raises(ValueError, match="chunk_size must be a positive integer"):
        next(s.chunks(0))


def test_cached_data_are_read_only_and_clone_rebuilds_identically():
    s = Separable(n=20, d=2, seed=0)
    X, _ = s.materialize()
    with pytest.raises(ValueError):
        X[0, 0] = 1.0
    assert s.clone().meta.fingerprint == s.meta.fingerprint
    assert s.clone(seed=1).meta.fingerprint != s.meta.fingerprint


# ------------------------------------------------------------------ noisy, outliers
def test_noisy_records_flips_and_clean_labels():
    s = Noisy(n=20_000, d=5, gamma=0.1, flip_rate=0.2, sigma=0.0, seed=0)
    X, y = s.materialize()
    m = s.meta
    np.testing.assert_array_equal(y, np.where(m.flipped, -m.clean_y, m.clean_y))
    assert abs(m.flipped.mean() - 0.2) < 0.01
    assert m.extra["n_flipped"] == int(m.flipped.sum())
    # clean points and labels are those of Separable with the same seed
    Xs, ys = Separable(n=20_000, d=5, gamma=0.1, seed=0).materialize()
    np.testing.assert_array_equal(X, Xs)
    np.testing.assert_array_equal(m.clean_y, ys)
    assert m.extra["clean_margin"] >= 0.1 - TOL
    assert m.margin < 0   # flipped labels make the observed stream non-separable


def test_noisy_feature_noise_has_the_requested_deviation():
    s = Noisy(n=20_000, d=4, flip_rate=0.0, sigma=0.3, seed=1)
    X, _ = s.materialize()
    Xc, _ = Separable(n=20_000, d=4, seed=1).materialize()
    assert np.std(X - Xc) == pytest.approx(0.3, rel=0.02)
    assert not s.meta.flipped.any()


def test_outliers_moves_exactly_the_chosen_points():
    s = Outliers(n=500, d=3, n_outliers=7, outlier_class=-1, shift=10.0, axis=0, seed=2)
    X, y = s.materialize()
    Xc, yc = Separable(n=500, d=3, seed=2).materialize()
    mask = s.meta.extra["outliers"]
    assert mask.sum() == 7 and np.all(y[mask] == -1)
    np.testing.assert_array_equal(y, yc)
    np.testing.assert_allclose(X[mask, 0] - Xc[mask, 0], 10.0)
    np.testing.assert_array_equal(X[~mask], Xc[~mask])
    np.testing.assert_array_equal(X[mask, 1:], Xc[mask, 1:])


def test_outliers_along_u_lower_their_margin_by_shift():
    s = Outliers(n=400, d=5, outlier_fraction=0.05, shift=3.0, seed=0)
    X, y = s.materialize()
    Xc, _ = Separable(n=400, d=5, seed=0).materialize()
    mask, u = s.meta.extra["outliers"], s.meta.u
    assert mask.sum() == 20
    np.testing.assert_allclose(y[mask] * (X[mask] @ u), y[mask] * (Xc[mask] @ u) - 3.0)
    assert s.meta.margin < -2.0 and s.meta.extra["clean_margin"] >= 0.1 - TOL
    with pytest.raises(ValueError, match="only"):
        Outliers(n=10, d=2, n_outliers=10, seed=0).meta


def test_sugiyama_outliers_layout():
    """The listing of Fig. 31.7 (Sugiyama 2015): n = 50, class +1 at x1 = -15, class -1 at
    -5, unit spread, two points of class +1 moved by +10, a bias column."""
    s = SugiyamaOutliers(seed=0)
    X, y = s.materialize()
    mask = s.meta.extra["outliers"]
    assert X.shape == (50, 3) and np.all(X[:, 2] == 1.0) and s.meta.bias
    assert np.sum(y == 1) == 25 and mask.sum() == 2 and np.all(y[mask] == 1)
    inliers_pos = X[(y == 1) & ~mask, 0]
    assert abs(inliers_pos.mean() + 15) < 0.7 and abs(X[y == -1, 0].mean() + 5) < 0.7
    assert abs(X[mask, 0].mean() + 5) < 2.5      # moved by +10: into the other class
    assert abs(X[:, 1].std() - 1.0) < 0.3


def test_sugiyama_clusters_layout():
    """The listing of Fig. 31.3: n = 200, class +1 at x1 = -5, class -1 at +5, x2 spread 5."""
    X, y = SugiyamaClusters(seed=3).materialize()
    assert X.shape == (200, 3) and np.sum(y == 1) == 100
    assert abs(X[y == 1, 0].mean() + 5) < 0.4 and abs(X[y == -1, 0].mean() - 5) < 0.4
    assert abs(X[y == 1, 0].std() - 1) < 0.25 and abs(X[:, 1].std() - 5) < 0.8
    assert not np.array_equal(y[:100], np.ones(100))      # shuffled, not class by class
    with pytest.raises(ValueError, match="n_outliers=3 must be at most n/2 = 2"):
        SugiyamaClusters(n=4, n_outliers=3)


# ------------------------------------------------------------------ drift
def test_drift_switch_keeps_margin_per_segment():
    s = Drift(n=900, d=4, gamma=0.2, mode="switch", switch_at=[300, 600], seed=5)
    X, y = s.materialize()
    U = s.generating_vectors()
    assert np.min(y * np.einsum("ij,ij->i", X, U)) >= 0.2 - TOL
    assert s.meta.u is None and s.meta.margin >= 0.2 - TOL
    assert s.meta.extra["switch_times"] == [300, 600]
    for lo, hi in [(0, 300), (300, 600), (600, 900)]:
        assert np.all(U[lo:hi] == U[lo])
    assert not np.allclose(U[299], U[300]) and not np.allclose(U[599], U[600])
    # the old generating vector misclassifies part of the new segment
    assert np.mean(y[300:600] * (X[300:600] @ U[0]) <= 0) > 0.05


def test_drift_rotation_turns_by_the_requested_angle():
    s = Drift(n=500, d=6, mode="rotate", angle=60.0, seed=0)
    U = s.generating_vectors()
    np.testing.assert_allclose(row_norms(U), 1.0)
    assert np.degrees(np.arccos(U[0] @ U[-1])) == pytest.approx(60.0)
    steps = np.degrees(np.arccos(np.clip(np.einsum("ij,ij->i", U[1:], U[:-1]), -1, 1)))
    np.testing.assert_allclose(steps, 60.0 / 499, rtol=1e-5)
    X, y = s.materialize()
    assert np.min(y * np.einsum("ij,ij->i", X, U)) >= 0.1 - TOL
    assert s.meta.radius <= 1.0


@pytest.mark.parametrize("switch_at", [[0], [1000], [500, 400], [10, 10]])
def test_drift_rejects_bad_switch_times(switch_at):
    with pytest.raises(ValueError, match="switch_at"):
        Drift(n=1000, mode="switch", switch_at=switch_at)


# ------------------------------------------------------------------ bound-attaining stream
def _perceptron_mistakes(X, y):
    """Plain Perceptron from w = 0; a zero margin counts as a mistake (Novikoff's rule)."""
    w, mistakes = np.zeros(X.shape[1]), 0
    for x, label in zip(X, y):
        if label * (w @ x) <= 0:
            w += label * x
            mistakes += 1
    return mistakes


@pytest.mark.parametrize("k,R", [(1, 1.0), (10, 1.0), (50, 3.0), (200, 0.5)])
def test_novikoff_tight_has_bound_k_and_a_plain_perceptron_attains_it(k, R):
    s = NovikoffTight(k=k, R=R, passes=3, seed=k)
    m = s.meta
    assert m.margin == pytest.approx(R / math.sqrt(k))
    assert m.radius == pytest.approx(R)
    assert (m.radius / m.margin) ** 2 == pytest.approx(k)
    assert m.extra["novikoff_bound"] == k and m.n == 3 * k
    X, y = s.materialize()
    u = m.u / np.linalg.norm(m.u)
    np.testing.assert_allclose(y * (X @ u), R / math.sqrt(k))
    assert _perceptron_mistakes(X, y) == k


def test_engine_perceptron_makes_exactly_k_mistakes_on_the_tight_stream():
    olbench = pytest.importorskip("olbench")
    if not hasattr(olbench, "run") or not hasattr(olbench, "make_learner"):
        pytest.skip("olbench.run / olbench.make_learner (the engine) are not available yet")
    for k in (5, 64):
        s = NovikoffTight(k=k, R=2.0, passes=2, seed=0)
        trace = olbench.run(olbench.make_learner("perceptron"), s)
        assert trace.n_mistakes == k
        assert np.all(np.asarray(trace.mistakes)[:k]) and not np.any(np.asarray(trace.mistakes)[k:])


# ------------------------------------------------------------------ regression
def test_linear_regression_targets():
    s = LinearRegression(n=3000, d=4, noise=0.5, seed=0)
    X, y = s.materialize()
    np.testing.assert_allclose(s.meta.clean_y, X @ s.meta.u)
    assert np.std(y - s.meta.clean_y) == pytest.approx(0.5, rel=0.05)
    assert s.meta.task == "regression" and s.meta.margin is None


def test_sinc_curve_and_features():
    s = Sinc(n=61, design="grid", noise=0.0, features="raw", bias=False)
    X, y = s.materialize()
    np.testing.assert_allclose(X[:, 0], np.linspace(-3, 3, 61))
    np.testing.assert_allclose(y, np.sin(np.pi * X[:, 0]) / (np.pi * X[:, 0] + (X[:, 0] == 0))
                               * (X[:, 0] != 0) + (X[:, 0] == 0) + 0.1 * X[:, 0], atol=1e-12)
    assert y[30] == 1.0 and sinc_target(np.array([1.0]))[0] == pytest.approx(0.1)
    rbf = Sinc(n=200, n_centers=25, h=0.3, seed=1)
    Xr, yr = rbf.materialize()
    assert Xr.shape == (200, 26) and np.all(Xr[:, -1] == 1.0)
    assert np.std(yr - rbf.meta.clean_y) == pytest.approx(0.05, rel=0.2)
    # least squares on the RBF features fits the curve: a linear learner can learn it
    w = np.linalg.lstsq(Xr, yr, rcond=None)[0]
    assert np.sqrt(np.mean((Xr @ w - rbf.meta.clean_y) ** 2)) < 0.05


# ------------------------------------------------------------------ bundled
def test_bundled_binary_tasks():
    bc = BreastCancer()
    X, y = bc.materialize()
    assert X.shape == (569, 30) and np.sum(y == 1) == 212   # 212 malignant
    assert bc.meta.extra["positive_label"] == 0.0
    X, y = Digits(positive_label=3, negative_label=8).materialize()
    assert X.shape == (357, 64) and np.sum(y == 1) == 183
    assert np.sum(Iris().materialize()[1] == 1) == 50
    assert np.sum(Wine(positive_label="class_2").materialize()[1] == 1) == 48
    with pytest.raises(ValueError, match=r"positive_label=11 is not among the labels seen "
                                         r"\{0, 1, 2, 3, 4, 5, 6, 7, 8, 9\}"):
        Digits(positive_label=11).meta


def test_bundled_order_normalize_standardize():
    base = Diabetes().materialize()
    s = Diabetes(order="permuted", seed=7, standardize=True)
    X, y = s.materialize()
    perm = permutation(442, 7)
    np.testing.assert_array_equal(y, base[1][perm])
    np.testing.assert_allclose(X.mean(axis=0), 0, atol=1e-12)
    np.testing.assert_allclose(X.std(axis=0), 1, rtol=1e-12)
    Xn, _ = Iris(normalize=True, bias=True).materialize()
    np.testing.assert_allclose(row_norms(Xn[:, :-1]), 1.0)
    assert Diabetes(order="permuted", seed=8).meta.fingerprint != \
        Diabetes(order="permuted", seed=7).meta.fingerprint


# ------------------------------------------------------------------ configs
def _config_files():
    return sorted(CONF.glob("*.yaml"))


def test_every_registered_stream_has_a_config_named_by_its_key():
    assert {p.stem for p in _config_files()} == set(Stream.registry.keys())


@pytest.mark.parametrize("path", _config_files(), ids=lambda p: p.stem)
def test_every_stream_config_composes_and_instantiates(path, tmp_path):
    from hydra import compose, initialize_config_dir
    from hydra.utils import instantiate

    overrides = [f"+stream={path.stem}"]
    if path.stem == "csv":
        csv = tmp_path / "d.csv"
        csv.write_text("a,b,label\n1,2,1\n3,4,-1\n")
        overrides += [f"stream.path={csv}", "stream.label_column=label"]
    with initialize_config_dir(config_dir=str(CONF.parent), version_base=None):
        cfg = compose(config_name=None, overrides=overrides)
    skip_unless_local(cfg.stream)   # a default dataset or file of ../shared/data
    stream = instantiate(cfg.stream)
    assert isinstance(stream, Stream) and stream.key == path.stem
    params = {k: v for k, v in cfg.stream.items() if not k.startswith("_")}
    assert set(params) == set(stream.param_names())
    # defaults in the yaml = defaults in code (a wrapped stream, e.g. of passes: by its name)
    wrapped = {k: instantiate(v).name for k, v in params.items()
               if OmegaConf.is_dict(v) and "_target_" in v}
    # (an optional parameter at its default is left out of get_params: names made before it
    # was added are unchanged)
    hidden = {k: v for k, v in params.items() if k not in stream.get_params()}
    assert all(k in type(stream).optional_params and v == type(stream).optional_params[k][0]
               for k, v in hidden.items()), hidden
    assert {k: getattr(v, "name", v) for k, v in stream.get_params().items()} \
        == {k: v for k, v in {**params, **wrapped}.items() if k not in hidden}
    m = stream.meta
    assert m.n > 0 and m.d > 0 and m.radius > 0 and m.fingerprint
