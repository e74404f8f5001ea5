"""Witnesses of the bound atlas (issue 30): a stream, a learner and a horizon on which a
theorem's bound is nearly reached, kept as a small JSON file so that anyone can re-run it
and see the ratio (:func:`replay`).

A witness names its stream by generator and parameters (seed included), or as chosen rows of
such a stream (``{"key": "rows", "params": {"stream": <generator spec>, "rows": [...]}}``:
what a search builds), never by the numbers themselves: the generators are deterministic, so
the rows are the same on every machine (the stream's fingerprint, recorded beside, says so
when they are not). ``how`` says how it was found (a construction from the literature, or a
search); ``extra["search"]`` the search's seed, budget and starting points.

>>> w = Witness("novikoff", {"key": "perceptron"}, {"key": "novikoff_tight",
...             "params": {"k": 25}}, T=25, ratio=1.0, how="x_t = R e_t")
>>> round(replay(w).ratio, 12)
1.0
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from olbench.atlas.tightness import Tightness, tightness


@dataclass(frozen=True)
class Witness:
    """``theorem`` for ``learner`` (``{"key": ..., "params": {...}}``) on ``stream`` (the
    same form) after ``T`` rounds reached ``ratio`` = observed / bound; ``how``: how it was
    found; ``source``: the construction's reference, if it is one; ``fingerprint``: the
    stream's rows' hash when it was recorded."""

    theorem: str
    learner: dict
    stream: dict
    T: int
    ratio: float
    how: str
    source: str = ""
    fingerprint: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def built_learner(self):
        """The learner, fresh."""
        from olbench.learners import make_learner

        return make_learner(self.learner["key"], **self.learner.get("params", {}))

    def checked_stream(self):
        """The stream, fresh, after checking that its rows are the ones the witness was
        found on (its fingerprint; a mismatch is a ValueError naming both)."""
        stream = build_stream(self.stream)
        if self.fingerprint and stream.meta.fingerprint != self.fingerprint:
            raise ValueError(f"the stream {stream.name} no longer has the rows the witness "
                             f"was found on (fingerprint {stream.meta.fingerprint}, recorded "
                             f"{self.fingerprint})")
        return stream

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(asdict(self), indent=2, sort_keys=True)
        # a list of numbers (a search's rows) on one line, not one number a line
        text = re.sub(r"\[\s*(-?[\d.e+-]+(?:,\s*-?[\d.e+-]+)*)\s*\]",
                      lambda m: "[" + re.sub(r"\s+", " ", m.group(1)) + "]", text)
        path.write_text(text + "\n")
        return path


def build_stream(spec: dict):
    """The stream of a spec ``{"key": ..., "params": {...}}``, a parameter ``stream`` given as
    such a spec built first (a :class:`~olbench.streams.transforms.Rows` of a generator)."""
    from olbench.streams import make_stream

    params = dict(spec.get("params", {}))
    inner = params.get("stream")
    if isinstance(inner, dict) and "key" in inner:
        params["stream"] = build_stream(inner)
    return make_stream(spec["key"], **params)


def load(path: str | Path) -> Witness:
    """The witness saved at ``path`` (a field it does not know is an error naming the file)."""
    data = json.loads(Path(path).read_text())
    try:
        return Witness(**data)
    except TypeError as error:
        raise ValueError(f"{path}: not a witness ({error})") from None


def replay(witness: Witness) -> Tightness:
    """The witness's theorem, learner, stream and horizon evaluated again."""
    return tightness(witness.theorem, witness.built_learner(), witness.checked_stream(),
                     witness.T)
