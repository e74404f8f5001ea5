"""Registry-wide contracts for streams and comparators, as test_learner_contract.py is for
learners: every registered component is found through its registry (no hand list), built
from its own config file, and held to the contract of its base module."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp
from hydra.utils import instantiate
from local_data import skip_unless_datasets
from omegaconf import OmegaConf

from olbench.comparators import Comparator
from olbench.features import row_norms
from olbench.learners import Learner
from olbench.losses import get_loss
from olbench.streams import Stream
from olbench.streams.base import fingerprint_chunks

CONF = Path(__file__).resolve().parents[1] / "conf"
SMALL = {"n": 240, "k": 30}            # keep synthetic streams small where they have a size
SMALL_DATASET = "heart_scale"         # streams of the dataset catalogue: a small local one


def _rows(n=60, d=4, seed=0):
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, d)), 3)
    return X, np.where(X @ np.arange(1, d + 1) > 0, 1, -1)


def _svmlight(path):
    X, y = _rows()
    path.write_text("".join(f"{label} " + " ".join(f"{j + 1}:{v}" for j, v in enumerate(x)
                                                   if v) + "\n" for x, label in zip(X, y)))
    return {"path": str(path)}


def _csv(path):
    X, y = _rows()
    lines = ["a,b,c,d,label"] + [",".join(map(str, [*x, label])) for x, label in zip(X, y)]
    path.write_text("\n".join(lines) + "\n")
    return {"path": str(path), "label_column": "label"}


def _mat(path):
    X, y = _rows()
    scipy.io.savemat(path, {"data": np.column_stack([y, X])})
    return {"path": str(path)}


#: file-backed streams: a writer of a small file in the stream's format (add one per format)
FILE_WRITERS = {"libsvm": _svmlight, "csv": _csv, "mat": _mat}


def _config(group: str, key: str) -> dict:
    return OmegaConf.to_container(OmegaConf.load(CONF / group / f"{key}.yaml"), resolve=True)


def make_from_config(key: str, tmp_path, **overrides) -> Stream:
    spec = _config("stream", key)
    cls = Stream.registry.get(key)
    if "path" in cls.param_names():
        assert key in FILE_WRITERS, f"file stream {key!r}: add a writer to FILE_WRITERS"
        spec.update(FILE_WRITERS[key](tmp_path / f"data.{key}"))
    if key == "dataset":
        skip_unless_datasets(SMALL_DATASET)
        spec["name"] = SMALL_DATASET
    spec.update({k: v for k, v in SMALL.items() if k in cls.param_names()}, **overrides)
    return instantiate(spec, _convert_="all")


STREAMS = Stream.registry.keys()


@pytest.mark.parametrize("key", STREAMS)
def test_stream_contract(key, tmp_path):
    stream = make_from_config(key, tmp_path)
    meta = stream.meta
    X, y = stream.materialize()
    # arrays: float64, dense C-contiguous or canonical CSR; labels in {-1, +1} or finite reals
    assert X.dtype == np.float64 and y.dtype == np.float64 and y.ndim == 1
    assert (X.has_canonical_format if sp.issparse(X) else X.flags.c_contiguous)
    if meta.task == "classification":
        assert set(np.unique(y)) <= {-1.0, 1.0}
    assert np.isfinite(y).all() and np.isfinite(X.data if sp.issparse(X) else X).all()
    # meta agrees with the data
    assert (meta.n, meta.d, meta.sparse) == (X.shape[0], X.shape[1], sp.issparse(X))
    assert meta.task == stream.task and meta.name == stream.name
    assert meta.radius == pytest.approx(float(row_norms(X).max()), rel=1e-12)
    assert meta.fingerprint == fingerprint_chunks([(X, y)])
    if meta.task == "multiclass":    # class codes, and the margin of W* (one row a class)
        assert set(np.unique(y)) <= set(meta.classes)
        if meta.u is not None:
            scores = X @ meta.u.T
            own = np.searchsorted(meta.classes, y)
            rows = np.arange(len(y))
            best_other = np.where(np.arange(len(meta.classes)) == own[:, None], -np.inf,
                                  scores).max(axis=1)
            assert meta.margin == pytest.approx(float(np.min(scores[rows, own] - best_other)),
                                                rel=1e-9, abs=1e-12)
    elif meta.u is not None and meta.margin is not None:
        assert meta.margin == pytest.approx(
            float(np.min(y * (X @ meta.u)) / np.linalg.norm(meta.u)), rel=1e-9, abs=1e-12)
    # the chunk size does not change the data
    for size in (1, 7, meta.n + 5):
        chunks = list(stream.clone().chunks(size))
        assert all(len(cy) <= size for _, cy in chunks)
        assert fingerprint_chunks(chunks) == meta.fingerprint


@pytest.mark.parametrize("key", [k for k in STREAMS
                                 if "seed" in Stream.registry.get(k).param_names()])
def test_stream_seed_contract(key, tmp_path):
    """Same seed -> same bytes; another seed -> other data (or, for file streams in file
    order, the seed is unused and the data are the same)."""
    a = make_from_config(key, tmp_path, seed=11)
    assert a.meta.fingerprint == make_from_config(key, tmp_path, seed=11).meta.fingerprint
    other = make_from_config(key, tmp_path, seed=12).meta.fingerprint
    if getattr(a, "order", "permuted") == "permuted":
        assert other != a.meta.fingerprint


# --------------------------------------------------------------------------- comparators
def _data():
    from olbench.streams import make_stream

    return {"classification": [make_stream("separable", n=150, d=4, gamma=0.1, seed=1),
                               make_stream("noisy", n=150, d=4, flip_rate=0.1, seed=2)],
            "regression": [make_stream("linear_regression", n=150, d=4, seed=3)],
            "oco": [make_stream("experts", n=150, N=4, seed=4),
                    make_stream("linear_losses", n=150, d=4, seed=5)],
            "multiclass": [make_stream("multiclass_separable", n=150, d=4, k=3, seed=6),
                           make_stream("mat", path=_multiclass_file(), task="multiclass")],
            "pca": [make_stream("low_rank", n=150, d=5, spectrum=[3.0, 2.0], seed=8),
                    make_stream("low_rank", n=150, d=5, spectrum=[1.0], noise=0.0, seed=9)]}


def _multiclass_file() -> str:
    """A small multiclass .mat file, overlapping classes (not separable)."""
    import tempfile

    import scipy.io

    rng = np.random.default_rng(7)
    X = rng.standard_normal((150, 4))
    y = 1 + np.argmax(X @ rng.standard_normal((4, 3)) + rng.standard_normal((150, 3)), 1)
    path = f"{tempfile.mkdtemp()}/multiclass.mat"
    scipy.io.savemat(path, {"data": np.column_stack([y, X])})
    return path


COMPARATORS = Comparator.registry.keys()


def _comparator_task(comparator) -> str:
    if isinstance(getattr(type(comparator), "task", None), str):   # declared (OCO)
        return type(comparator).task
    loss = getattr(comparator, "loss", None)
    return "classification" if loss is None else get_loss(loss).task


@pytest.mark.parametrize("key", COMPARATORS)
def test_comparator_contract(key, tmp_path):
    comparator = instantiate(_config("comparator", key), _convert_="all")
    if getattr(comparator, "k", 0) is None:        # online PCA: the rank a run's learner sets
        comparator = comparator.clone(k=2)
    check_comparator(comparator, key, tmp_path)


class AlwaysSkips(Comparator):
    """A comparator that never fits (unregistered: no key), to test the contract itself."""

    def _fit(self, X, y, meta, checkpoints):
        return self._skip("never fits, whatever the data", "hinge")


def test_a_comparator_that_always_skips_fails_the_contract(tmp_path):
    with pytest.raises(AssertionError, match="no certified fit"):
        check_comparator(AlwaysSkips(), None, tmp_path)


def check_comparator(comparator, key, tmp_path):
    """The contract of a comparator: on the problems of its task (``_data``) at least one
    certified fit (a comparator that only ever skips compares nothing), and every fit
    consistent, cached or not; every skip says why."""
    certified = 0
    for stream in _data()[_comparator_task(comparator)]:
        X, y = stream.materialize()
        ks = np.array([10, 75, 150])
        fresh = comparator.fit(X, y, stream.meta, checkpoints=ks, cache=None)
        if not fresh.ok:                           # every skip says why
            assert isinstance(fresh.skip_reason, str) and len(fresh.skip_reason) > 5
            continue
        certified += 1
        n = len(y)
        assert fresh.margins.shape == (n,)
        if not comparator.linear:                 # not a vector of the input space
            assert fresh.u is None
        elif fresh.loss == "multiclass_hinge":    # W, one row a class: multiclass margins
            assert fresh.u.shape == (len(stream.meta.classes), X.shape[1])
            scores = X @ fresh.u.T
            own = np.searchsorted(stream.meta.classes, y)
            rival = np.where(np.arange(scores.shape[1]) == own[:, None], -np.inf, scores)
            np.testing.assert_allclose(fresh.margins, scores[np.arange(n), own] - rival.max(1),
                                       rtol=1e-12, atol=1e-12)
        elif fresh.loss == "suffered":            # OCO: the outputs are the losses f_t(u)
            assert fresh.u.shape == (X.shape[1],)
            np.testing.assert_array_equal(fresh.margins, fresh.losses)
        elif fresh.loss == "compression":         # online PCA: orthonormal rows, the losses
            np.testing.assert_allclose(fresh.u @ fresh.u.T, np.eye(comparator.k), atol=1e-12)
            np.testing.assert_allclose(fresh.losses, ((X - X @ fresh.u.T @ fresh.u) ** 2).sum(1),
                                       rtol=1e-9, atol=1e-12)
            np.testing.assert_array_equal(fresh.margins, fresh.losses)
        else:
            assert fresh.u.shape == (X.shape[1],)
            np.testing.assert_allclose(fresh.margins, X @ fresh.u, rtol=1e-12, atol=1e-12)
        assert np.isfinite(fresh.losses).all() and fresh.losses.shape == (n,)
        if fresh.prefix_loss is None:
            np.testing.assert_allclose(fresh.cum_loss_at(ks), np.cumsum(fresh.losses)[ks - 1])
        if fresh.gap is not None:                   # the certificate holds and is tight
            assert -1e-9 <= fresh.gap <= 1e-6 * max(1.0, abs(fresh.objective))
        # a cached fit equals an uncached one, on the first call and on the cache hit
        for _ in range(2):
            cached = comparator.fit(X, y, stream.meta, checkpoints=ks, cache=tmp_path / "c")
            np.testing.assert_array_equal(cached.margins, fresh.margins)
            assert (cached.u is None) == (fresh.u is None)
            if fresh.u is not None:
                np.testing.assert_array_equal(cached.u, fresh.u)
            np.testing.assert_array_equal(cached.losses, fresh.losses)
            assert cached.params == fresh.params == {"key": key, **comparator.get_params()}
    assert certified >= 1, (f"{comparator.name}: no certified fit on any problem of its task "
                            f"({_comparator_task(comparator)})")


# --------------------------------------------------------------------------- configs
@pytest.mark.parametrize("group,registry", [("stream", Stream.registry),
                                            ("learner", Learner.registry),
                                            ("comparator", Comparator.registry)])
def test_config_sets_every_parameter_to_the_constructor_default(group, registry):
    """One rule for every group: the YAML lists every parameter, with the value the class
    itself defaults to, so what a user reads in conf/ is what runs."""
    import inspect

    for key, cls in registry.items():
        node = _config(group, key)
        values = {k: v for k, v in node.items() if not k.startswith("_")}
        own = set(cls.param_names()) - set(cls.optional_params)   # options: absent at default
        assert own <= set(values) <= set(cls.param_names()), f"{group}/{key}.yaml"
        signature = inspect.signature(cls.__init__).parameters
        for name, value in values.items():
            default = signature[name].default
            if default is inspect.Parameter.empty or value == "???":
                continue                            # required: the file names a placeholder
            if name == "path":
                continue                            # a default dataset, for file streams
            assert value == default or (isinstance(default, tuple) and list(default) == value), \
                f"{group}/{key}.yaml: {name}={value!r} but the class default is {default!r}"
