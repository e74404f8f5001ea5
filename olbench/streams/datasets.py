"""A dataset of the catalogue, by name: ``make_stream("dataset", name="a9a")``.

The file is found offline first, or downloaded once (see :mod:`olbench.datasets.fetch`),
then read by the file streams of :mod:`olbench.streams.files` (svmlight in constant memory,
LIBOL's .mat whole) or, for ARFF, whole with scipy. ``olbench --datasets`` lists the names.
Files are read (or downloaded) on first use; only a sure miss (no local copy, and offline or
not downloadable) fails at construction, so a grid stops before its first run.

* ``split``: ``"train"`` (default), ``"test"`` (the test file, where the source ships one,
  e.g. a1a.t), ``"train+test"`` (the concatenation, as one dataset: with
  ``order="permuted"`` or ``"libol"`` one permutation over all rows, which holds both parts
  in memory), or
  ``"train_then_test"`` (the "online then evaluate" protocol: a pass over the training part,
  then the test part, each in ``order``, in constant memory; ``meta.extra["test_start"]``
  is the first round of the test part, so the test part's mistakes are the count at the end
  minus the count at ``test_start``).
* Labels: files keep their labels; binary codings map to {-1, +1} as for ``stream=libsvm``.
  Multiclass sets need a stated binarisation: ``positive_label`` (that class against the
  rest) and optionally ``negative_label`` (that pair only; other rows dropped).
* ``data_dir``: the first folder searched (``run.data_dir``; default ``$OLBENCH_DATA``). It
  is a location, not part of the data, so it is left out of the stream's name.
* ``order``, ``seed``, ``normalize``, ``standardize``, ``bias``: as for every real-data
  stream (:mod:`olbench.streams.bundled`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from olbench.component import InvalidParameterError, IsInstance, OneOf, UnknownNameError, _fmt
from olbench.datasets import Card, find_local, get_card, locate, openml
from olbench.datasets.fetch import offline
from olbench.labels import label_key, labels_dropped
from olbench.streams.base import (
    Chunk,
    Fingerprint,
    Stream,
    StreamMeta,
    _check_chunk_size,
    row_norms,
)
from olbench.streams.dataset_readers import ArffFile, OpenMLData, openml_card
from olbench.streams.files import MatFile, Svmlight, rechunk
from olbench.streams.orders import permutation
from olbench.streams.real import REAL_DATA_CONSTRAINTS

SPLITS = ("train", "test", "train+test", "train_then_test")
#: parameters that say where the data are, not what they are (left out of the name)
LOCATION_PARAMS = ("data_dir",)


class Dataset(Stream, key="dataset"):
    """A dataset of the catalogue by name (see the module docs for every option).

    >>> Dataset(name="letter.scale")
    Traceback (most recent call last):
    ...
    ValueError: dataset 'letter.scale' is multiclass (26 classes, labels 1..26); a binary \
learner needs a stated binarisation: stream.positive_label=<class> (that class vs the rest), \
plus stream.negative_label=<class> for a pair (the other rows are dropped); a multiclass \
learner takes it whole with stream.task=multiclass
    """

    constraints = {**REAL_DATA_CONSTRAINTS, "split": OneOf(*SPLITS),
                   "data_dir": IsInstance(str, Path, none_ok=True)}
    #: left out of names at None (the card's task): every name made before it is unchanged
    #: (checked in validate: ``task`` reads as the task itself, a property)
    optional_params = {"task": (None, OneOf(None, "classification", "regression",
                                            "multiclass", "pca"))}

    @classmethod
    def display_title(cls, params):
        """The dataset's own name: ``svmguide3 (order=permuted)``."""
        return str(params.get("name", cls.__name__))

    @classmethod
    def display_shown(cls, params):
        return [k for k in super().display_shown(params) if k != "name"]

    def __init__(self, *, name: str, split: str = "train", positive_label: Any = None,
                 negative_label: Any = None, order: str = "file", seed: int = 0,
                 normalize: bool = False, standardize: bool = False, bias: bool = False,
                 data_dir: str | None = None, task: str | None = None):
        self.dataset = name   # ``name`` is the component's deterministic name (below)
        self.task_option = task   # (``task`` is the property below)
        self.split = split
        self.positive_label, self.negative_label = positive_label, negative_label
        self.order, self.seed = order, seed
        self.normalize, self.standardize, self.bias = normalize, standardize, bias
        self.data_dir = None if data_dir in (None, "") else str(data_dir)
        self.validate()

    # ------------------------------------------------------------------ identity
    def get_params(self) -> dict[str, Any]:
        # task: left out at None (the card's task), so that no name made before it changes
        found = {p: self.dataset if p == "name" else self.task_option if p == "task"
                 else getattr(self, p) for p in self.param_names()}
        if found["task"] is None:
            del found["task"]
        return found

    @property
    def name(self) -> str:
        inner = ",".join(f"{k}={_fmt(v)}" for k, v in self.get_params().items()
                         if k not in LOCATION_PARAMS)
        return f"Dataset[{inner}]"

    @property
    def card(self) -> Card:
        if openml.parse(self.dataset) is not None:
            return openml_card(self.dataset, self.data_dir)
        try:
            return get_card(self.dataset)
        except KeyError as error:
            raise UnknownNameError(error.args[0]) from None

    @property
    def task(self) -> str:
        """The card's task (a binary or multiclass set read as binary classification, with
        ``positive_label`` for a multiclass one), or ``task="multiclass"``: the classes kept,
        or ``task="pca"``: the features alone, every label dropped (y = 0), for online PCA."""
        if self.task_option is not None:
            return self.task_option
        return "regression" if self.card.task == "regression" else "classification"

    def known_features(self) -> int | None:
        """The card's features, plus the bias column (a catalogue card states them)."""
        if self.dataset.startswith("openml:"):   # known only once the set is read
            return None
        try:
            return int(self.card.features) + int(bool(self.bias))
        except (UnknownNameError, TypeError, ValueError):
            return None

    def validate(self) -> None:
        if not isinstance(self.dataset, str):
            raise ValueError(f"Dataset: name must be a dataset name (a string), got "
                             f"{self.dataset!r}")
        super().validate()
        if self.task_option not in (None, "multiclass", "pca"):
            raise InvalidParameterError(
                f"Dataset: invalid task={self.task_option!r}; task must be null (the "
                f"dataset's own task), 'multiclass' (a multiclass set kept whole) or 'pca' "
                f"(the features alone, for online PCA)")
        card = self.card
        if self.split != "train" and card.test is None:
            raise ValueError(f"dataset {card.name!r} has no test part: split must be 'train' "
                             f"(got {self.split!r})")
        if card.task == "regression" and (self.positive_label, self.negative_label) != (None,
                                                                                      None):
            raise ValueError(f"dataset {card.name!r} is a regression set: positive_label and "
                             f"negative_label do not apply")
        if self.task_option == "pca":
            labels_dropped(self.positive_label, self.negative_label, f"dataset {card.name!r}")
        elif self.task_option == "multiclass":
            if card.task != "multiclass" or (self.positive_label, self.negative_label) != (
                    None, None):
                raise ValueError(
                    "task=multiclass keeps the classes of a multiclass dataset, but "
                    + (f"dataset {card.name!r} is a {card.task} set" if card.task != "multiclass"
                       else "positive_label/negative_label binarise it: leave them null"))
        elif card.task == "multiclass" and self.positive_label is None:
            raise ValueError(
                f"dataset {card.name!r} is multiclass ({card.classes} classes, labels "
                f"{card.labels}); a binary learner needs a stated binarisation: "
                f"stream.positive_label=<class> (that class vs the rest), plus "
                f"stream.negative_label=<class> for a pair (the other rows are dropped); "
                f"a multiclass learner takes it whole with stream.task=multiclass")
        if self.standardize and self.split in ("train+test", "train_then_test"):
            raise ValueError(f"standardize=True with split={self.split!r}: the two parts "
                             f"would be scaled with different statistics; use normalize")
        self._check_labels(card)
        if self.data_dir is not None and Path(self.data_dir).expanduser().exists() \
                and not Path(self.data_dir).expanduser().is_dir():
            raise ValueError(f"data_dir={self.data_dir!r} is a file, not a folder (the first "
                             f"place dataset {card.name!r} is looked for, and where it is "
                             f"downloaded)")
        if card.collection == "openml":    # already read (or a DatasetNotFound) by .card
            return
        for part in self._part_names():
            info = card.parts()[part]
            found = find_local(card, part, self.data_dir)
            # a local copy is checked now (its checksum, else its rows: once per process
            # per file version); a sure miss fails now: DatasetNotFound says what goes where
            if found is not None or info.url is None or offline():
                locate(card, part, self.data_dir)

    def _check_labels(self, card: Card) -> None:
        """``positive_label`` / ``negative_label`` among the labels the card lists (before
        the file is read: a class the file does not have would fail at the first run)."""
        listed = card.label_values()
        if listed is None:
            return
        keys = {label_key(v) for v in listed}
        for option, value in (("positive_label", self.positive_label),
                              ("negative_label", self.negative_label)):
            if value is not None and label_key(value) not in keys:
                raise ValueError(f"{option}={value!r} is not a label of dataset {card.name!r}: "
                                 f"its labels are {card.labels} (olbench --datasets)")

    def known_rounds(self) -> int | None:
        """The card's rows of the parts read (unknown for a pair of classes, which drops
        the rows of the others, and where the card does not say)."""
        rows = [self.card.parts()[part].rows for part in self._part_names()]
        if self.negative_label is not None or None in rows:
            return None
        return sum(rows)

    def _part_names(self) -> list[str]:
        return {"train": ["train"], "test": ["test"]}.get(self.split, ["train", "test"])

    @classmethod
    def file_stamp(cls, spec: dict) -> tuple:
        """(path, size, mtime) of each file a spec reads: the grid's parse-cache key."""
        stream = cls(**{k: v for k, v in spec.items() if not k.startswith("_")})
        if openml.parse(stream.dataset) is not None:     # OpenML data of an id do not change
            return (stream.dataset,)
        paths = [locate(stream.card, part, stream.data_dir) for part in stream._part_names()]
        return tuple((str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in paths)

    # ------------------------------------------------------------------ the parts
    def _part(self, part: str, order: str, seed: int) -> Stream:
        card = self.card
        common = dict(order=order, seed=seed, normalize=self.normalize,
                      standardize=self.standardize, bias=self.bias)
        labels = dict(positive_label=self.positive_label if self.positive_label is not None
                      else card.positive, negative_label=self.negative_label)
        task = self._reading_task()
        if card.format == "openml":
            return OpenMLData(name=self.dataset, data_dir=self.data_dir, task=task,
                              **labels, **common)
        path = str(locate(card, part, self.data_dir))
        if card.format == "svmlight":
            return Svmlight(path=path, n_features=card.features, zero_based=False,
                            task=task, **labels, **common)
        if card.format == "mat":
            return MatFile(path=path, task=task, **labels, **common)
        if card.format == "arff":
            return ArffFile(path=path, **labels, **common)
        raise ValueError(f"dataset {card.name!r}: unknown file format {card.format!r}")

    def _as_task(self, meta: StreamMeta) -> StreamMeta:
        """The files' meta as this stream's: for task=pca, labels (and classes) gone."""
        if self.task_option != "pca":
            return meta
        return dataclasses.replace(meta, task="pca", classes=None)

    def _reading_task(self) -> str:
        """The task the files are read with: the stream's, or for ``task="pca"`` the card's
        own (its labels are read as the card has them, then dropped)."""
        if self.task_option != "pca":
            return self.task
        return self.card.task if self.card.task in ("multiclass", "regression") \
            else "classification"

    def _parts(self) -> list[Stream]:
        return self._cached("_parts_cache", self._build_parts)

    def _build_parts(self) -> list[Stream]:
        if self.split in ("train", "test"):
            return [self._part(self.split, self.order, self.seed)]
        if self.split == "train+test":   # pooled: permuted below, over all rows
            return [self._part("train", "file", 0), self._part("test", "file", 0)]
        return [self._part("train", self.order, self.seed),
                self._part("test", self.order, (self.seed + 1) % 2**63)]

    def _pooled(self) -> Chunk:
        return self._cached("_pooled_cache", self._build_pooled)

    def _build_pooled(self) -> Chunk:
        Xs, ys = zip(*(part.materialize() for part in self._parts()))
        X = sp.vstack(Xs, format="csr") if sp.issparse(Xs[0]) else np.concatenate(Xs)
        y = np.concatenate(ys)
        perm = permutation(X.shape[0], self.seed, self.order)
        return X[perm], y[perm]

    # ------------------------------------------------------------------ the stream
    def chunks(self, chunk_size: int | None = None) -> Iterator[Chunk]:
        if self.task_option == "pca":               # the features alone: labels dropped
            for X, _ in self._labelled_chunks(chunk_size):
                yield X, np.zeros(X.shape[0])
            return
        yield from self._labelled_chunks(chunk_size)

    def _labelled_chunks(self, chunk_size: int | None = None) -> Iterator[Chunk]:
        size = _check_chunk_size(chunk_size)
        parts = self._parts()
        if len(parts) == 1:
            yield from parts[0].chunks(size)
        elif self.split == "train+test" and self.order != "file":
            X, y = self._pooled()
            for start in range(0, X.shape[0], size):
                yield X[start:start + size], y[start:start + size]
        else:
            yield from rechunk((c for part in parts for c in part.chunks(size)), size)

    @property
    def meta(self) -> StreamMeta:
        return self._cached("_meta_cache", self._compute_meta)

    def _compute_meta(self) -> StreamMeta:
        card, parts = self.card, self._parts()
        extra: dict[str, Any] = {
            "dataset": card.name, "collection": card.collection, "source": card.source,
            "citation": card.citation, "split": self.split,
            "files": [str(p.meta.extra.get("path", "")) for p in parts]}
        if len(parts) == 1:
            inner = parts[0].meta
            found = dataclasses.replace(inner, name=self.name, extra={**inner.extra, **extra})
            return self._as_task(found)
        metas = [p.meta for p in parts]
        if len({m.d for m in metas}) != 1:
            raise ValueError(f"dataset {card.name!r}: the training and test files have "
                             f"{metas[0].d} and {metas[1].d} features")
        if self.split == "train_then_test":
            extra["test_start"] = metas[0].n
        extra["labels_seen"] = sorted(set().union(*(m.extra.get("labels_seen", [])
                                                    for m in metas)))
        fp, n, radius = Fingerprint(), 0, 0.0
        for X, y in self.chunks():
            fp.update(X, y)
            n += X.shape[0]
            radius = max(radius, float(row_norms(X).max()))
        classes = None if self.task != "multiclass" else np.unique(np.concatenate(
            [m.classes for m in metas]))    # (a class of the test part only, included)
        return StreamMeta(name=self.name, task=self.task, n=n, d=metas[0].d, radius=radius,
                          fingerprint=fp.hexdigest(), bias=bool(self.bias),
                          sparse=metas[0].sparse, extra=extra, classes=classes)
