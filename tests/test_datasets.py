"""Real data by name: the catalogue, offline-first resolution, downloads, the dataset stream.

No test reaches the internet: every test runs with ``OLBENCH_OFFLINE=1`` and a private cache,
except the download tests, which fetch from a file server on 127.0.0.1 (real pooch, real
HTTP) or through a fake fetcher injected at the one download function.
"""

from __future__ import annotations

import bz2
import collections
import hashlib
import http.server
import os
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_svmlight_file

from olbench import paths
from olbench.datasets import (
    CARDS,
    Card,
    ChecksumError,
    DataFile,
    DatasetNotFound,
    catalogue_table,
    download,
    locate,
)
from olbench.datasets.fetch import text_sha256
from olbench.streams import Dataset, Svmlight, make_stream

ROOT = Path(__file__).resolve().parents[1]
SHARED = paths.shared_data_dir()
needs_shared = pytest.mark.skipif(not (SHARED / "libsvm").is_dir(),
                                  reason=f"shared data folder {SHARED} is not present")

TRAIN = b"+1 1:1 3:2\n-1 2:1\n+1 1:0.5 2:0.5 3:0.5\n-1 3:4\n"
TEST = b"-1 1:2\n+1 2:3 3:1\n"


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture(autouse=True)
def no_network(monkeypatch, tmp_path):
    """Offline, with a private download cache and no data folder from the environment."""
    monkeypatch.setenv("OLBENCH_OFFLINE", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("OLBENCH_DATA", raising=False)


@pytest.fixture
def toy(monkeypatch, tmp_path):
    """A card 'toy' (train + test parts, checksums known) and three empty candidate folders."""
    card = Card("toy", "libsvm", "binary", 3,
                DataFile("toy.svm", 4, 7, sha(TRAIN), "http://127.0.0.1:9/toy.svm"),
                DataFile("toy.svm.t", 2, 3, sha(TEST), "http://127.0.0.1:9/toy.svm.t"))
    monkeypatch.setitem(CARDS, "toy", card)
    dirs = {name: tmp_path / name for name in ("mine", "shared", "xdg")}
    monkeypatch.setattr(paths, "shared_data_dir", lambda: dirs["shared"])
    dirs["cache"] = dirs["xdg"] / "olbench" / "data"
    return card, dirs


def put(folder: Path, name: str, data: bytes) -> Path:
    path = folder / "libsvm" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


# ------------------------------------------------------------------ the catalogue
def test_catalogue_cards_are_consistent():
    assert {"a9a", "w8a", "mushrooms", "svmguide3", "covtype.binary", "rcv1.binary",
            "news20.binary", "ijcnn1"} <= set(CARDS)
    for card in CARDS.values():
        assert card.task in ("binary", "multiclass", "regression"), card.name
        assert card.collection in ("libsvm", "libol") and card.features > 0
        assert (card.classes is None) == (card.task == "regression"), card.name
        assert card.task != "multiclass" or card.classes > 2, card.name
        assert card.source and card.citation, card.name
        for part in card.parts().values():
            assert part.url or card.verified, f"{card.name}: neither local nor downloadable"
            if not card.verified:   # stated numbers: no checksum is invented
                assert part.sha256 is None and part.nnz is None, card.name


@needs_shared
@pytest.mark.parametrize("name", [c.name for c in CARDS.values() if c.verified])
def test_cards_of_shared_files_match_the_files(name):
    """Rows, non-zeros, classes, features and checksum of each card, recomputed from the file
    (and, for LF files, the checksum equals MANIFEST.tsv's)."""
    card = CARDS[name]
    manifest = pd.read_csv(SHARED / "libsvm" / "MANIFEST.tsv", sep="\t", index_col="file")
    for part in card.parts().values():
        path = SHARED / card.collection / part.file
        if not path.exists():
            continue
        assert text_sha256(path) == part.sha256
        if card.format == "svmlight":
            X, y = load_svmlight_file(str(path), zero_based=False, n_features=card.features)
            labels = set(np.unique(y).tolist())
            assert (X.shape[0], X.nnz) == (part.rows, part.nnz)
            assert len(labels) == card.classes
            row = manifest.loc[part.file]
            assert (row["n"], row["d(official)"]) == (part.rows, card.features)
            if b"\r" not in path.read_bytes():
                assert row["sha256"] == part.sha256
        else:
            stream = make_stream("dataset", name=name, positive_label=None if
                                 card.task == "binary" else 1)
            assert (stream.meta.n, stream.meta.d) == (part.rows, card.features)
            assert len(stream.meta.extra["labels_seen"]) == card.classes


def test_unknown_name_suggests_close_names():
    with pytest.raises(KeyError, match="did you mean mushrooms.*olbench --datasets"):
        make_stream("dataset", name="mushroom")


# ------------------------------------------------------------------ resolution order
def test_resolution_order_data_dir_then_shared_then_cache(toy, monkeypatch):
    card, d = toy
    in_cache = put(d["cache"], "toy.svm", TRAIN)
    in_shared = put(d["shared"], "toy.svm", TRAIN)
    mine = put(d["mine"], "toy.svm", TRAIN)
    env = put(d["mine"] / "env", "toy.svm", TRAIN)
    assert locate(card, "train", d["mine"]) == mine                  # run.data_dir first
    monkeypatch.setenv("OLBENCH_DATA", str(d["mine"] / "env"))
    assert locate(card, "train") == env                              # else $OLBENCH_DATA
    assert locate(card, "train", d["mine"]) == mine                  # explicit beats env
    monkeypatch.delenv("OLBENCH_DATA")
    assert locate(card, "train") == in_shared                        # then ../shared/data
    in_shared.unlink()
    assert locate(card, "train", d["mine"] / "empty") == in_cache    # then the cache
    stream = make_stream("dataset", name="toy", data_dir=str(d["mine"]))
    assert stream.meta.n == 4 and stream.meta.extra["files"] == [str(mine)]
    assert "data_dir" not in stream.name     # a location, not part of the data's identity
    assert stream.name == make_stream("dataset", name="toy").name


def test_local_file_with_wrong_checksum_is_refused(toy):
    card, d = toy
    path = put(d["mine"], "toy.svm", TRAIN.replace(b"4", b"5"))
    with pytest.raises(ChecksumError, match=f"{path}: sha256 .* differs from the catalogue's "
                                            f"{sha(TRAIN)}.*stream=libsvm"):
        locate(card, "train", d["mine"])


def test_crlf_copy_has_the_same_checksum_as_the_lf_original(toy):
    card, d = toy
    path = put(d["mine"], "toy.svm", TRAIN.replace(b"\n", b"\r\n"))
    assert locate(card, "train", d["mine"]) == path
    assert Dataset(name="toy", data_dir=str(d["mine"])).meta.n == 4


def test_offline_miss_says_which_file_to_put_where(toy):
    card, d = toy
    with pytest.raises(DatasetNotFound) as info:   # offline: a sure miss fails up front
        make_stream("dataset", name="toy", data_dir=str(d["mine"]))
    text = str(info.value)
    assert "'toy' (train part) is not on this machine and OLBENCH_OFFLINE is set" in text
    assert f"Put the file toy.svm at {d['mine'] / 'libsvm' / 'toy.svm'}" in text
    assert "http://127.0.0.1:9/toy.svm" in text and "OLBENCH_DATA" in text
    local_only = replace(card, train=replace(card.train, url=None))
    with pytest.raises(DatasetNotFound, match="cannot be downloaded"):
        locate(local_only)


def test_unreachable_source_is_the_same_clear_error(toy, monkeypatch):
    card, d = toy
    monkeypatch.delenv("OLBENCH_OFFLINE")

    def no_network(url, path):
        raise ConnectionError(f"Failed to resolve host of {url}")

    with pytest.raises(DatasetNotFound, match="could not be downloaded .*ConnectionError.*"
                                              "Put the file toy.svm at"):
        locate(card, "train", d["mine"], fetch=no_network)
    assert leftovers(d["mine"]) == []


# ------------------------------------------------------------------ downloads
class _Files(http.server.BaseHTTPRequestHandler):
    routes: dict[str, bytes] = {}
    truncated: dict[str, bytes] = {}   # served with a Content-Length larger than the body
    hits: collections.Counter = collections.Counter()

    def do_GET(self):  # noqa: N802 (http.server's name)
        self.hits[self.path] += 1
        body = self.routes.get(self.path) or self.truncated.get(self.path)
        if body is None:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(body) * (2 if self.path in
                                                              self.truncated else 1)))
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()
        self.close_connection = True

    def log_message(self, *args):
        pass


@pytest.fixture
def server(monkeypatch):
    """A file server on 127.0.0.1 (an ephemeral port), stopped after the test."""
    monkeypatch.delenv("OLBENCH_OFFLINE")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    _Files.routes, _Files.truncated, _Files.hits = {}, {}, collections.Counter()
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Files)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", _Files
    httpd.shutdown()
    httpd.server_close()


def test_download_into_the_cache_once_with_checksum(toy, server):
    card, d = toy
    base, files_ = server
    files_.routes["/toy.svm.bz2"] = bz2.compress(TRAIN)
    card = replace(card, train=replace(card.train, url=f"{base}/toy.svm.bz2"))
    path = locate(card, "train")                       # no data folder: into the cache
    assert path == d["cache"] / "libsvm" / "toy.svm" and path.read_bytes() == TRAIN
    assert leftovers(d["cache"]) == ["toy.svm"]        # the .bz2 and temporaries are gone
    assert locate(card, "train") == path and files_.hits["/toy.svm.bz2"] == 1
    files_.routes["/toy.svm.t"] = TEST                 # with a data folder: into it
    card = replace(card, test=replace(card.test, url=f"{base}/toy.svm.t"))
    assert locate(card, "test", d["mine"]).read_bytes() == TEST
    assert leftovers(d["mine"]) == ["toy.svm.t"]


def test_downloaded_file_with_wrong_checksum_is_not_kept(toy, server):
    card, d = toy
    base, files_ = server
    files_.routes["/toy.svm"] = TRAIN + b"+1 1:9\n"
    card = replace(card, train=replace(card.train, url=f"{base}/toy.svm"))
    with pytest.raises(ChecksumError, match=f"sha256 .*expects {sha(TRAIN)}; not saved"):
        locate(card, "train", d["mine"])
    assert leftovers(d["mine"]) == []


def test_interrupted_transfer_leaves_no_partial_file(toy, server):
    card, d = toy
    base, files_ = server
    files_.truncated["/toy.svm"] = TRAIN      # the connection closes half-way through
    card = replace(card, train=replace(card.train, url=f"{base}/toy.svm"))
    with pytest.raises(DatasetNotFound, match="could not be downloaded.*IncompleteRead"):
        locate(card, "train", d["mine"])
    assert files_.hits["/toy.svm"] == 1 and leftovers(d["mine"]) == []


def test_ctrl_c_during_download_leaves_no_partial_file(tmp_path):
    def half_then_interrupt(url, path):
        Path(path).write_bytes(TRAIN[:10])
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        download("http://example.invalid/toy.svm.bz2", tmp_path / "toy.svm",
                 fetch=half_then_interrupt)
    assert leftovers(tmp_path) == []
    download("http://example.invalid/toy.svm", tmp_path / "toy.svm", sha256=sha(TRAIN),
             fetch=lambda url, path: Path(path).write_bytes(TRAIN))
    assert leftovers(tmp_path) == ["toy.svm"]


# ------------------------------------------------------------------ the stream
def test_splits_concatenation_and_online_then_evaluate(toy):
    card, d = toy
    put(d["mine"], "toy.svm", TRAIN)
    put(d["mine"], "toy.svm.t", TEST)
    kw = dict(name="toy", data_dir=str(d["mine"]))
    train = Dataset(**kw).materialize()
    test = Dataset(**kw, split="test").materialize()
    assert Dataset(**kw, split="test").meta.d == 3   # the test file's indices reach 3 only
    both = Dataset(**kw, split="train+test")
    X, y = both.materialize()
    np.testing.assert_array_equal(X.toarray(), np.vstack([train[0].toarray(),
                                                          test[0].toarray()]))
    np.testing.assert_array_equal(y, np.concatenate([train[1], test[1]]))
    then = Dataset(**kw, split="train_then_test")
    assert then.meta.extra["test_start"] == 4 and then.meta.n == 6
    assert then.meta.fingerprint == both.meta.fingerprint     # same rows, same order
    pooled = Dataset(**kw, split="train+test", order="permuted", seed=1)
    Xp, yp = pooled.materialize()
    assert sorted(map(tuple, Xp.toarray().tolist())) == sorted(map(tuple, X.toarray().tolist()))
    assert pooled.meta.n == 6 and pooled.meta.fingerprint != both.meta.fingerprint
    assert [len(c[1]) for c in both.chunks(4)] == [4, 2]
    with pytest.raises(ValueError, match="'mushrooms' has no test part"):
        Dataset(name="mushrooms", split="test")
    with pytest.raises(ValueError, match="standardize=True with split='train\\+test'"):
        Dataset(**kw, split="train+test", standardize=True)



def test_train_then_test_reports_the_test_part_on_its_own(toy, tmp_path):
    """A run over split=train_then_test has a checkpoint at the train/test boundary (t = 4)
    and the test part's mistake rate as its own column, in the table and the summary. The
    Perceptron on the toy rows by hand: w = 0 -> mistake on 1 (+1, w = x1 = (1, 0, 2)),
    2: w.x = 0 -> mistake (w = (1, -1, 2)), 3: 0.5 + -0.5 + 1 = 1 > 0, 4: w.x = 8 on y = -1
    -> mistake (w = (1, -1, -2)); test rows 5: (2, 0, 0) -> 2 on y = -1: mistake,
    6: (0, 3, 1) -> -5 on y = +1: mistake. Test part: 2 mistakes in 2 rounds."""
    import olbench

    card, d = toy
    put(d["mine"], "toy.svm", TRAIN)
    put(d["mine"], "toy.svm.t", TEST)
    res = olbench.run_experiment(
        learner="perceptron", comparator="generating", seeds=[0], output_dir=tmp_path,
        n_jobs=1, figures=False, quiet=True,
        stream={"key": "dataset", "name": "toy", "split": "train_then_test",
                "data_dir": str(d["mine"])})
    t = res.table.drop_duplicates("t").set_index("t")
    assert 4 in t.index and t.loc[4, "mistakes"] == 3 and np.isnan(t.loc[4, "test_mistakes"])
    assert (t.loc[6, "mistakes"], t.loc[6, "test_mistakes"], t.loc[6, "test_mistake_rate"]) \
        == (5, 2, 1.0)
    assert res.summary["test_mistake_rate_mean"].tolist() == [1.0]
    assert "test mistake rate" in res.summary_text

def test_same_bytes_as_the_file_stream(toy):
    card, d = toy
    path = put(d["mine"], "toy.svm", TRAIN)
    ours = Dataset(name="toy", data_dir=str(d["mine"]), order="permuted", seed=3, bias=True)
    plain = Svmlight(path=str(path), n_features=3, order="permuted", seed=3, bias=True)
    assert ours.meta.fingerprint == plain.meta.fingerprint
    assert ours.meta.extra["dataset"] == "toy" and ours.clone().name == ours.name


def test_multiclass_keeps_labels_and_needs_a_stated_binarisation(toy, monkeypatch):
    card, d = toy
    data = b"1 1:1\n2 2:1\n3 1:1 2:1\n2 1:2\n"
    multi = Card("toy3", "libsvm", "multiclass", 2, DataFile("toy3.svm", 4, 5, sha(data)),
                 classes=3, labels="1..3", verified=True)
    monkeypatch.setitem(CARDS, "toy3", multi)
    put(d["mine"], "toy3.svm", data)
    with pytest.raises(ValueError, match=r"multiclass \(3 classes, labels 1..3\).*"
                                         r"stream.positive_label=<class>.*"
                                         r"stream.negative_label=<class> for a pair"):
        Dataset(name="toy3", data_dir=str(d["mine"]))
    rest = Dataset(name="toy3", positive_label=2, data_dir=str(d["mine"]))
    np.testing.assert_array_equal(rest.materialize()[1], [-1, 1, -1, 1])
    assert rest.meta.extra["labels_seen"] == [1.0, 2.0, 3.0]
    pair = Dataset(name="toy3", positive_label=2, negative_label=3, data_dir=str(d["mine"]))
    np.testing.assert_array_equal(pair.materialize()[1], [1, -1, 1])


def test_regression_set_keeps_targets(toy, monkeypatch):
    card, d = toy
    data = b"1.5 1:1\n-0.25 2:1\n"
    reg = Card("toyr", "libsvm", "regression", 2, DataFile("toyr.svm", 2), classes=None,
               labels="real", verified=True)
    monkeypatch.setitem(CARDS, "toyr", reg)
    put(d["mine"], "toyr.svm", data)
    stream = Dataset(name="toyr", data_dir=str(d["mine"]))
    assert stream.task == "regression" and stream.meta.task == "regression"
    np.testing.assert_array_equal(stream.materialize()[1], [1.5, -0.25])
    with pytest.raises(ValueError, match="regression set"):
        Dataset(name="toyr", positive_label=1)


# ------------------------------------------------------------------ listing and the CLI
def test_listing_marks_where_each_dataset_is(toy):
    card, d = toy
    put(d["mine"], "toy.svm", TRAIN)
    rows = {line.split()[0]: line for line in catalogue_table(d["mine"]).splitlines()
            if line.strip()}
    assert rows["toy"].split()[-2] == "data_dir"      # the column before the source
    assert rows["rcv1.binary"].split()[-2] == "-"
    assert all(name in rows for name in CARDS)
    assert "present locally" in catalogue_table()
    markdown = catalogue_table(markdown=True)
    assert markdown.startswith("| name | task |") and "| a9a | binary |" in markdown


def test_readme_table_lists_the_catalogue():
    readme = (ROOT / "README.md").read_text()
    assert catalogue_table(markdown=True) in readme, \
        "README's dataset table is stale: paste catalogue_table(markdown=True)"


def _olbench(*args, **env):
    return subprocess.run([sys.executable, "-c", "from olbench.cli import main; main()", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, **env})


def test_cli_lists_the_datasets():
    out = _olbench("--datasets")
    assert out.returncode == 0, out.stderr
    assert "a9a" in out.stdout and "rcv1.binary" in out.stdout and "present locally" in out.stdout
    assert "olbench --datasets" in _olbench("--help").stdout


def test_cli_offline_miss_is_reported_before_any_run(tmp_path):
    out = _olbench("stream=dataset", "stream.name=rcv1.binary", f"run.output_dir={tmp_path}",
                   OLBENCH_OFFLINE="1", XDG_CACHE_HOME=str(tmp_path))
    assert out.returncode == 2 and not (tmp_path / "single").exists()
    assert "olbench: stream dataset: dataset 'rcv1.binary' (train part) is not on this " \
           "machine" in out.stderr and "Put the file rcv1_train.binary at" in out.stderr


@needs_shared
def test_cli_runs_a_dataset_by_name(tmp_path):
    """`olbench stream=dataset stream.name=a9a` end to end (the generating comparator, which
    real data lack, keeps it cheap: no hindsight fit)."""
    out = _olbench("stream=dataset", "stream.name=a9a", "learner=perceptron",
                   "comparator=generating", "run.seeds=[0]", "run.figures=false",
                   "run.n_jobs=1", f"run.output_dir={tmp_path}",
                   f"run.cache_dir={tmp_path / 'cache'}")
    assert out.returncode == 0, out.stderr[-2000:]
    (folder,) = (tmp_path / "single").iterdir()
    table = pd.read_parquet(folder / "results.parquet")
    final = table[table["t"] == table["t"].max()].iloc[0]
    assert (final["t"], final["stream_d"], final["status"]) == (32561, 123, "ok")
    assert final["stream"].startswith("Dataset[name=a9a,")
    assert 0.1 < final["mistake_rate"] < 0.4


# ------------------------------------------------------------------ OpenML
def _bunch(target):
    """What fetch_openml(as_frame=True) returns: a frame with a numeric and a categorical
    feature, the default target, and the dataset's details."""
    from sklearn.utils import Bunch

    data = pd.DataFrame({"age": [30.0, 45.0, 22.0, 60.0],
                         "housing": pd.Categorical(["own", "rent", "own", "free"],
                                                   categories=["free", "own", "rent"])})
    return Bunch(data=data, target=pd.Series(target, dtype="category"),
                 details={"id": 31, "name": "credit-g", "version": "1"})


@pytest.fixture
def fake_openml(monkeypatch):
    """A fake at the one function that reads OpenML: a folder 'has' the data when it holds a
    marker file (as scikit-learn's cache holds its files); a network fetch writes it."""
    import olbench.datasets.openml as om
    import olbench.streams.datasets as sd

    calls, target = [], ["good", "bad", "good", "good"]

    def fetch(key, data_home, network):
        calls.append((key, Path(data_home), network))
        marker = Path(data_home) / "credit-g.marker"
        if network:
            marker.parent.mkdir(parents=True, exist_ok=True)
            marker.write_text("cached")
        elif not marker.exists():
            raise om.NotCached()
        return _bunch(target)

    monkeypatch.setattr(om, "fetch", fetch)
    monkeypatch.setattr(sd, "_OPENML", {})
    return calls, target


def test_openml_offline_first_then_download(fake_openml, tmp_path, monkeypatch):
    calls, _ = fake_openml
    mine = tmp_path / "mine"
    with pytest.raises(DatasetNotFound) as err:          # offline, no copy anywhere
        Dataset(name="openml:credit-g", positive_label="good", data_dir=str(mine))
    message = str(err.value)
    assert "OpenML dataset 'openml:credit-g' is not on this machine and OLBENCH_OFFLINE" \
           " is set" in message
    assert f"fetch_openml(name='credit-g', data_home='{mine / 'openml'}')" in message
    assert [c[2] for c in calls] == [False, False, False]          # data_dir, shared, cache
    assert calls[0][1] == mine / "openml"
    monkeypatch.delenv("OLBENCH_OFFLINE")
    s = Dataset(name="openml:credit-g", positive_label="good", data_dir=str(mine))
    assert calls[-1] == ({"name": "credit-g"}, mine / "openml", True)   # into the data folder
    X, y = s.materialize()
    # age, then housing one-hot in OpenML's category order (free, own, rent)
    np.testing.assert_array_equal(X, [[30, 0, 1, 0], [45, 0, 0, 1], [22, 0, 1, 0],
                                      [60, 1, 0, 0]])
    np.testing.assert_array_equal(y, [1, -1, 1, 1])
    assert s.meta.extra["openml_id"] == 31 and s.meta.extra["source"].endswith("/d/31")
    monkeypatch.setenv("OLBENCH_OFFLINE", "1")
    import olbench.streams.datasets as sd

    sd._OPENML.clear()
    n_calls = len(calls)
    assert Dataset(name="openml:credit-g", positive_label="good",
                   data_dir=str(mine)).meta.n == 4               # offline: the local copy
    assert calls[n_calls:] == [({"name": "credit-g"}, mine / "openml", False)]


def test_openml_labels_need_a_stated_binarisation(fake_openml):
    calls, target = fake_openml
    import olbench.datasets.openml as om

    om.fetch(None, Path(om.cache_dir()) / "openml", True)       # cached in the cache folder
    with pytest.raises(ValueError, match="pass positive_label=<one of them>"):
        Dataset(name="openml:31").materialize()
    target[:] = ["a", "b", "c", "a"]                              # three classes
    import olbench.streams.datasets as sd

    sd._OPENML.clear()
    with pytest.raises(ValueError, match="'openml:31' is multiclass \\(3 classes"):
        Dataset(name="openml:31")
    X, y = Dataset(name="openml:31", positive_label="a", negative_label="c").materialize()
    np.testing.assert_array_equal(y, [1, -1, 1])                 # the pair only
    assert calls[1][0] == {"data_id": 31}


def test_openml_local_lookup_never_reaches_the_network(tmp_path):
    """The real scikit-learn client with the network refused, on an empty cache: NotCached."""
    from olbench.datasets.openml import NotCached, fetch

    with pytest.raises(NotCached):
        fetch({"data_id": 31}, tmp_path / "openml", network=False)
    assert leftovers(tmp_path) == []
