"""Which data a test needs, and whether this machine has it: the one place tests decide to
skip for want of data.

Tests never download (``tests/conftest.py`` sets ``OLBENCH_OFFLINE=1`` for the session and
every process it starts). A dataset of the catalogue is on this machine when olbench's own
lookup finds it locally (``run.data_dir`` / ``$OLBENCH_DATA``, ``../shared/data``, the
download cache: :func:`olbench.datasets.find_local`); a data file when its path exists. A
fresh clone with no ``../shared`` beside it has none of them, and such tests skip naming what
is missing. Use :func:`skip_unless_local` with stream specs (``Task.stream``, a composed
``cfg.stream``), or the marker ``@pytest.mark.needs_datasets("svmguide3", ...)``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from omegaconf import DictConfig, ListConfig, OmegaConf

from olbench.datasets import DatasetNotFound, find_local, get_card, openml

#: the parts of a dataset each ``split`` of ``stream=dataset`` reads
SPLIT_PARTS = {"train": ("train",), "test": ("test",), "train+test": ("train", "test"),
               "train_then_test": ("train", "test")}


def missing_dataset(name: str, split: str = "train", data_dir: Any = None) -> str | None:
    """What of dataset ``name`` is not on this machine (None: all of it is, or the name is
    not a dataset at all, which the test itself should then report)."""
    if openml.parse(name) is not None:
        try:
            openml.load(name, data_dir)
        except DatasetNotFound:
            return f"OpenML dataset {name!r}"
        return None
    try:
        card = get_card(name)
    except KeyError:
        return None
    parts = [p for p in SPLIT_PARTS.get(split, ("train",)) if p in card.parts()]
    absent = [card.parts()[p].file for p in parts if find_local(card, p, data_dir) is None]
    return f"dataset {name!r} ({', '.join(absent)})" if absent else None


def _needs(spec: Any, files: bool = True) -> Iterator[str]:
    """What a stream spec (nested dicts, wrappers included) reads that is not here
    (``files=False``: its catalogue datasets only)."""
    if isinstance(spec, Mapping):
        target = str(spec.get("_target_", ""))
        if target.rsplit(".", 1)[-1] == "Dataset" and isinstance(spec.get("name"), str):
            why = missing_dataset(spec["name"], spec.get("split") or "train",
                                  spec.get("data_dir"))
            if why:
                yield why
        elif files and target and isinstance(spec.get("path"), str):
            from olbench.paths import resolve_path

            try:
                resolve_path(spec["path"])
            except FileNotFoundError:
                yield f"file {spec['path']}"
        for value in spec.values():
            yield from _needs(value, files)
    elif isinstance(spec, (list, tuple)):
        for value in spec:
            yield from _needs(value, files)


def missing(*streams: Any, files: bool = True) -> list[str]:
    """The datasets and files the stream specs read that are not on this machine."""
    plain = [OmegaConf.to_container(s, resolve=True) if isinstance(s, (DictConfig, ListConfig))
             else s for s in streams]
    return list(dict.fromkeys(why for spec in plain for why in _needs(spec, files)))


def skip_unless_local(*streams: Any, files: bool = True) -> None:
    """Skip the calling test, naming what is missing, unless every dataset and file the
    stream specs read is on this machine. ``files=False``: check the catalogue's datasets
    only, for a test that builds a stream without reading it (a file stream opens its file
    on first read; a dataset absent offline is refused as it is built)."""
    absent = missing(*streams, files=files)
    if absent:
        pytest.skip(f"needs data not on this machine (tests never download): "
                    f"{'; '.join(absent)}")


def skip_unless_datasets(*names: str) -> None:
    """:func:`skip_unless_local` for datasets of the catalogue given by name."""
    skip_unless_local(*({"_target_": "olbench.streams.Dataset", "name": n} for n in names))
