"""The stream a bound-atlas witness names (:mod:`olbench.atlas.witness`), by the witness's
file: ``olbench stream=witness stream.file=experiments/bound_atlas/witnesses/<name>.json``
runs any learner on the rows that pushed a theorem closest to its bound.

The stream is the witness's own (its generator and parameters, or the chosen rows of one:
:class:`~olbench.streams.transforms.Rows`), built afresh; its fingerprint is checked against
the one the witness recorded (:meth:`~olbench.atlas.witness.Witness.checked_stream`), so
rows that changed since are an error, not a new number.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from olbench.component import IsInstance
from olbench.streams.base import Chunk, Stream, StreamMeta


class WitnessStream(Stream, key="witness"):
    """The stream of the witness saved at ``file`` (a path, else relative to the repository
    root). ``meta`` is that stream's, ``meta.extra["witness"]`` the witness's theorem,
    learner, horizon and ratio. ``witness_fingerprint``: the rows the caller means (the study
    config names it, so that a witness file replaced by another search is a new run, never a stale
    result resumed, and a config older than its files is refused by name).

    >>> from olbench.paths import REPO_ROOT
    >>> folder = REPO_ROOT / "experiments/bound_atlas/witnesses"
    >>> s = WitnessStream(file=str(next(iter(sorted(folder.glob("novikoff__*.json"))))))
    >>> s.task, s.meta.extra["witness"]["theorem"]
    ('classification', 'novikoff')
    """

    constraints = {"file": IsInstance(str), "witness_fingerprint": IsInstance(str, type(None))}

    def __init__(self, *, file: str = "experiments/bound_atlas/witnesses/"
                 "novikoff__perceptron__T100.json", witness_fingerprint: str | None = None):
        self.file, self.witness_fingerprint = file, witness_fingerprint
        self.validate()

    @property
    def witness(self):
        from olbench.atlas.witness import load
        from olbench.paths import resolve_path

        return self._cached("_witness_cache", lambda: load(resolve_path(self.file)))

    @property
    def stream(self) -> Stream:
        return self._cached("_stream_cache", self._checked_stream)

    def _checked_stream(self) -> Stream:
        recorded = self.witness.fingerprint
        if self.witness_fingerprint not in (None, recorded):
            raise ValueError(f"{self.file}: the witness was found on rows {recorded}, not on "
                             f"the rows {self.witness_fingerprint} asked for (the file was "
                             "replaced: write the study config again from the witnesses)")
        try:
            return self.witness.checked_stream()
        except ValueError as error:
            raise ValueError(f"{self.file}: {error}") from None

    @property
    def task(self) -> str:
        return self.stream.task

    def known_rounds(self) -> int | None:
        return self.stream.known_rounds()

    def value_range(self) -> tuple[float, float] | None:
        return self.stream.value_range()

    @classmethod
    def display(cls, params) -> str:
        from pathlib import Path

        return f"witness {Path(str(params.get('file', ''))).stem}"

    def chunks(self, chunk_size: int | None = None) -> Iterator[Chunk]:
        return self.stream.chunks(chunk_size)

    @property
    def meta(self) -> StreamMeta:
        return self._cached("_meta_cache", self._checked_meta)

    def _checked_meta(self) -> StreamMeta:
        from dataclasses import asdict, replace

        witness, inner = self.witness, self.stream.meta
        about: dict[str, Any] = {k: v for k, v in asdict(witness).items()
                                 if k in ("theorem", "learner", "T", "ratio", "how")}
        return replace(inner, name=self.name, extra={**inner.extra, "witness": about})
