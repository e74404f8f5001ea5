"""Where a dataset's files come from: the offline-first resolution order (data folder,
$OLBENCH_DATA, the shared data, the cache), checksums, clear errors for a file that is
missing or cannot be downloaded, and downloads that keep no partial or wrong file.

No test reaches the internet: every test runs with ``OLBENCH_OFFLINE=1`` and a private cache,
except the download tests, which fetch from a file server on 127.0.0.1 (real pooch, real
HTTP) or through a fake fetcher injected at the one download function.
"""

from __future__ import annotations

import bz2
import collections
import http.server
import threading
from dataclasses import replace
from pathlib import Path

import pytest
from toy_dataset import TEST, TRAIN, leftovers, put, sha

from olbench.datasets import ChecksumError, DatasetNotFound, download, locate
from olbench.streams import Dataset, make_stream

pytestmark = pytest.mark.usefixtures("no_network")


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
