"""Datasets of OpenML by name (``openml:<name or id>``): offline first, then a download into
the data folder; labels need a stated binarisation; the local lookup never reaches the
network.

No test reaches the internet: every test runs with ``OLBENCH_OFFLINE=1`` and a private cache,
and OpenML is read through a fake at the one function that reads it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from toy_dataset import leftovers

from olbench.datasets import DatasetNotFound
from olbench.streams import Dataset

pytestmark = pytest.mark.usefixtures("no_network")


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
    import olbench.streams.dataset_readers as sd

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
    import olbench.streams.dataset_readers as sd

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
    import olbench.streams.dataset_readers as sd

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
