"""The catalogue of real datasets: its cards are consistent (and, where the shared data is
present, equal to the files), a misspelt name gets close names, and the listing
(``olbench --datasets``, the README's table) and the command line say where each dataset is,
or which file to put where, before any run.

No test reaches the internet: every test runs with ``OLBENCH_OFFLINE=1`` and a private cache.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from olbench_command import olbench_here
from sklearn.datasets import load_svmlight_file
from toy_dataset import TRAIN, put

from olbench import paths
from olbench.datasets import CARDS, catalogue_table
from olbench.datasets.fetch import text_sha256
from olbench.streams import make_stream

pytestmark = pytest.mark.usefixtures("no_network")

ROOT = Path(__file__).resolve().parents[1]
SHARED = paths.shared_data_dir()
needs_shared = pytest.mark.skipif(not (SHARED / "libsvm").is_dir(),
                                  reason=f"shared data folder {SHARED} is not present")


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


def test_cli_lists_the_datasets():
    out = olbench_here("--datasets", cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "a9a" in out.stdout and "rcv1.binary" in out.stdout and "present locally" in out.stdout
    assert "olbench --datasets" in olbench_here("--help", cwd=ROOT).stdout


def test_cli_offline_miss_is_reported_before_any_run(tmp_path):
    out = olbench_here("stream=dataset", "stream.name=rcv1.binary",
                       f"run.output_dir={tmp_path}", cwd=ROOT,
                       env={"OLBENCH_OFFLINE": "1", "XDG_CACHE_HOME": str(tmp_path)})
    assert out.returncode == 2 and not (tmp_path / "single").exists()
    assert "olbench: stream dataset: dataset 'rcv1.binary' (train part) is not on this " \
           "machine" in out.stderr and "Put the file rcv1_train.binary at" in out.stderr


@needs_shared
def test_cli_runs_a_dataset_by_name(tmp_path):
    """`olbench stream=dataset stream.name=a9a` end to end (the generating comparator, which
    real data lack, keeps it cheap: no hindsight fit)."""
    out = olbench_here("stream=dataset", "stream.name=a9a", "learner=perceptron",
                       "comparator=generating", "run.seeds=[0]", "run.figures=false",
                       "run.n_jobs=1", f"run.output_dir={tmp_path}",
                       f"run.cache_dir={tmp_path / 'cache'}", cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    (folder,) = (tmp_path / "single").iterdir()
    table = pd.read_parquet(folder / "results.parquet")
    final = table[table["t"] == table["t"].max()].iloc[0]
    assert (final["t"], final["stream_d"], final["status"]) == (32561, 123, "ok")
    assert final["stream"].startswith("Dataset[name=a9a,")
    assert 0.1 < final["mistake_rate"] < 0.4
