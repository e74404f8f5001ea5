from __future__ import annotations

import os

import numpy as np
import pytest
import scipy.sparse as sp

#: not collected for doctests: importing it registers a comparator for the tests that count
#: solves (tests/test_fits.py), which the registry-wide contract tests must not see
collect_ignore = ["counting.py"]

# Tests never download: olbench's data lookup stays offline in this process and in every
# olbench process a test starts (a test of downloads unsets it around a local server).
os.environ["OLBENCH_OFFLINE"] = "1"


def pytest_configure(config):
    # One BLAS thread per test worker: the workers own the cores, and two workers each
    # running LAPACK on small matrices with two threads spin against each other (an eigh of
    # 400 x 400 per row took 4 s alone and 97 s beside another worker)
    if os.environ.get("PYTEST_XDIST_WORKER"):
        from threadpoolctl import threadpool_limits

        config._olbench_blas_limit = threadpool_limits(1, user_api="blas")
    config.addinivalue_line("markers", "needs_datasets(*names): skip (naming what is missing) "
                            "unless these datasets of the catalogue are on this machine")
    config.addinivalue_line("markers", "starts_first: a test of a minute or more, run before the "
                            "others so that the suite's workers finish together")


def pytest_collection_modifyitems(items):
    """``@pytest.mark.starts_first`` tests go to the front: pytest-xdist's worksteal gives
    each worker its share in order and lets an idle worker take over the other's tail, so a
    long test started last would leave one core idle until it ends."""
    items.sort(key=lambda item: item.get_closest_marker("starts_first") is None)


def pytest_runtest_setup(item):
    """``@pytest.mark.needs_datasets(...)``: see tests/local_data.py."""
    from local_data import skip_unless_datasets

    for mark in item.iter_markers("needs_datasets"):
        skip_unless_datasets(*mark.args)


def make_data(task: str, seed: int, n: int = 150, d: int = 6, density: float = 1.0,
              zero_rows: bool = False):
    """A small noisy linear problem; with density < 1 many features are exactly zero (for
    task "oco" the rows are the losses and y is 0; for "pca" the rows are data, y is 0)."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    if density < 1.0:
        X *= rng.random((n, d)) < density
    if zero_rows:
        X[rng.choice(n, size=max(1, n // 10), replace=False)] = 0.0
    u = rng.standard_normal(d)
    if task == "classification":
        y = np.sign(X @ u + 0.3 * rng.standard_normal(n))
        y[y == 0] = 1.0
    elif task == "multiclass":   # four classes, coded 1..4, noisy linear scores
        U = rng.standard_normal((4, d))
        y = 1.0 + np.argmax(X @ U.T + 0.3 * rng.standard_normal((n, 4)), axis=1)
    elif task in ("oco", "pca"):   # each row is a loss, or data to compress: y unused, 0
        y = np.zeros(n)
    else:
        y = X @ u + 0.1 * rng.standard_normal(n)
    return X, y


def learner_data(learner, seed: int, **kwargs):
    """:func:`make_data` for a learner's task, with the rows mapped into the range of losses
    it takes, if it declares one (Hedge, the weighted majority: [0, 1]) by
    x -> |x| / (1 + |x|), which keeps zero rows and sparse zeros zero."""
    X, y = make_data(learner.task, seed, **kwargs)
    if learner.loss_range is not None:
        low, high = learner.loss_range
        X = low + (high - low) * np.abs(X) / (1.0 + np.abs(X))
    return X, y


@pytest.fixture(params=["dense", "csr"])
def as_format(request):
    """Turns a dense array into the input format under test."""
    return (lambda X: X) if request.param == "dense" else sp.csr_matrix


@pytest.fixture(scope="module")
def table():
    """The synthetic results table (tests/synthetic_table.py), built once per test module: the
    table the figure, view and report tests read."""
    from synthetic_table import make_table

    return make_table()


@pytest.fixture
def no_network(monkeypatch, tmp_path):
    """Offline, with a private download cache and no data folder from the environment (every
    dataset test: ``pytestmark = pytest.mark.usefixtures("no_network")``)."""
    monkeypatch.setenv("OLBENCH_OFFLINE", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("OLBENCH_DATA", raising=False)


@pytest.fixture
def toy(monkeypatch, tmp_path):
    """A card 'toy' (train + test parts, checksums known) and three empty candidate folders
    (the files' bytes: tests/toy_dataset.py)."""
    from toy_dataset import TEST, TRAIN, sha

    from olbench import paths
    from olbench.datasets import CARDS, Card, DataFile

    card = Card("toy", "libsvm", "binary", 3,
                DataFile("toy.svm", 4, 7, sha(TRAIN), "http://127.0.0.1:9/toy.svm"),
                DataFile("toy.svm.t", 2, 3, sha(TEST), "http://127.0.0.1:9/toy.svm.t"))
    monkeypatch.setitem(CARDS, "toy", card)
    dirs = {name: tmp_path / name for name in ("mine", "shared", "xdg")}
    monkeypatch.setattr(paths, "shared_data_dir", lambda: dirs["shared"])
    dirs["cache"] = dirs["xdg"] / "olbench" / "data"
    return card, dirs


def whole_suite(config) -> bool:
    """Is this a run of the whole suite (plain ``pytest``: the configured test paths), with
    the loops compiled (not ``NUMBA_DISABLE_JIT=1``) and tests to run?"""
    return (config.args_source == pytest.Config.ArgsSource.TESTPATHS
            and not config.option.collectonly and os.environ.get("NUMBA_DISABLE_JIT") != "1")


def workers_for_the_whole_suite() -> int:
    """The cores this process may use (its CPU affinity), at most 4: beyond that each worker's
    start-up (numba, pandas, scikit-learn imports and the collection of every test) costs
    more than its share of the tests saves."""
    return max(1, min(4, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                      else os.cpu_count() or 1))


@pytest.hookimpl(optionalhook=True)   # `pytest -p no:xdist` has no such hook
def pytest_xdist_auto_num_workers(config):
    """``-n auto`` (pyproject's addopts): a run of the whole suite spreads its tests over
    :func:`workers_for_the_whole_suite` processes (pytest-xdist); a run of chosen tests
    (``pytest tests/test_x.py``) stays in this process (0: no workers), where a worker's
    start-up would cost more than it saves and ``--pdb`` works. An explicit ``-n N`` wins."""
    workers = workers_for_the_whole_suite() if whole_suite(config) else 0
    return 0 if workers < 2 else workers


def pytest_sessionstart(session):
    """On a run of the whole suite, compile every learner's loops first, shared by as many
    processes as the suite has workers (tests/warm_rules.py; at least two): on a fresh
    checkout numba's compilation is a good part of the suite's time. It runs once, started
    by the process that hands out the tests (pytest-xdist's workers find the loops in
    numba's on-disk cache); the workers start and collect the tests meanwhile, and the
    first test is handed out once it is done (:func:`pytest_xdist_node_collection_finished`;
    without workers, it is waited for here). A run of chosen tests skips this; with a warm
    cache it costs the processes' start-up."""
    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    config = session.config
    if hasattr(config, "workerinput") or not whole_suite(config):
        return
    script = str(Path(__file__).with_name("warm_rules.py"))
    claims = tempfile.TemporaryDirectory()
    warming = [subprocess.Popen([sys.executable, script, "--claims", claims.name],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
               for _ in range(max(2, workers_for_the_whole_suite()))]
    config.stash[WARMING] = (warming, claims)
    if not config.pluginmanager.hasplugin("dsession"):   # no workers: nothing to overlap
        _warmed(config)


WARMING = pytest.StashKey[tuple]()


def _warmed(config, stop: bool = False) -> None:
    """Wait for the warm-up processes (once; ``stop``: end them first) and remove their
    claims."""
    warming, claims = config.stash.get(WARMING, ([], None))
    for process in warming:
        if stop:
            process.terminate()
        process.wait()
    if claims is not None:
        claims.cleanup()
    config.stash[WARMING] = ([], None)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node, ids):
    """The warm-up is done before pytest-xdist schedules the first test (it does so right
    after this hook, once every worker has collected)."""
    _warmed(node.config)


def pytest_sessionfinish(session):
    """A session that ends before its first test (a collection error, ^C) ends the warm-up."""
    _warmed(session.config, stop=True)
