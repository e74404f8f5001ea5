"""The bound atlas's starting points (issue 30): every declared theorem, for every learner
that declares it (at its default parameters and at the ones a construction needs), on the
literature's constructions and on olbench's own generators, keeping per (theorem, learner)
the stream with the largest observed / bound. The search proper (adversaries, orderings,
parameter search) starts from these.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from pathlib import Path

import pandas as pd

from olbench import schema as col
from olbench.atlas.tightness import tightness
from olbench.atlas.witness import Witness, record

#: the literature's constructions, by stream: (stream spec, what it is, its source)
CONSTRUCTIONS = {
    "novikoff_tight": ({"key": "novikoff_tight", "params": {"k": 100}},
                       "orthogonal rows x_t = R e_t, random labels: every round a mistake",
                       "Novikoff (1962); Block (1962); the tightness of (R/gamma)^2"),
    "multiclass_tight": ({"key": "multiclass_tight", "params": {}},
                         "orthogonal rows, a class each: every round a mistake",
                         "Crammer & Singer (2003): the multiclass (R/gamma)^2 attained"),
    "alternating": ({"key": "alternating", "params": {"n": 1000}},
                    "alternating linear losses +-1/2, +1, -1, ...: the leader flips",
                    "Shalev-Shwartz (2012), Example 2.2: FTL's linear regret"),
    "pca_ftl_adversary": ({"key": "pca_ftl_adversary", "params": {"n": 1000}},
                          "alternating directions: FTL's subspace always the wrong one",
                          "Warmuth & Kuzmin (2008), Sec. 1"),
}
#: olbench's own generators, by task (small: each is re-run by the witness tests)
GENERATORS = {
    "classification": [{"key": "separable", "params": {"n": 500, "d": 10, "gamma": 0.1}},
                       {"key": "noisy", "params": {"n": 500, "d": 10}}],
    "oco": [{"key": "experts", "params": {"n": 1000, "N": 10}},
            {"key": "linear_losses", "params": {"n": 1000, "d": 5}}],
    "multiclass": [{"key": "multiclass_separable", "params": {"n": 500, "d": 5, "k": 3}}],
    "pca": [{"key": "low_rank", "params": {"n": 500, "d": 10}}],
}
#: learner settings besides the defaults and those the theorems' own conditions name
#: (``Theorem.where``): the linear kernel, where the kernel Perceptron is the Perceptron;
#: OGD projected on a ball (its theorem needs a bounded set)
SETTINGS = {"kernel_perceptron": [{"kernel_type": "linear"}], "ogd": [{"radius": 1.0}]}


def settings(key: str) -> list[dict]:
    """The learner's parameter settings to scan: its defaults, each condition under which
    one of its theorems applies (a PA-I bound: ``variant="pa1"``), and :data:`SETTINGS`."""
    from olbench.learners import Learner

    out = [{}]
    for params in [dict(t.when) for t in Learner.registry.get(key).bounds] + \
            SETTINGS.get(key, []):
        if params not in out:
            out.append(params)
    return out


def candidates(task: str) -> list[tuple[dict, str, str]]:
    """(stream spec, how, source) of every construction and generator of ``task``."""
    from olbench.streams import make_stream

    out = [(spec, how, source) for spec, how, source in CONSTRUCTIONS.values()
           if make_stream(spec["key"], **spec["params"]).task == task]
    return out + [(spec, "olbench generator at its stated parameters", "")
                  for spec in GENERATORS.get(task, [])]


def scan(keys: Iterable[str] | None = None) -> tuple[pd.DataFrame, list[Witness]]:
    """Every (theorem, learner setting, stream) ratio, long form, and the best witness per
    (theorem, learner setting). ``keys``: the learners (default: every one declaring a
    theorem)."""
    from olbench.bounds import declared
    from olbench.learners import Learner, make_learner
    from olbench.streams import make_stream

    keys = [k for k, cls in Learner.registry.items() if cls.bounds] if keys is None else keys
    rows, best, seen = [], {}, set()
    for key in keys:
        for params in settings(key):
            learner = make_learner(key, **params)
            if learner.name in seen:          # a condition at the learner's default
                continue
            seen.add(learner.name)
            for theorem in declared(learner):
                for spec, how, source in candidates(learner.task):
                    stream = make_stream(spec["key"], **spec["params"])
                    try:
                        with warnings.catch_warnings():
                            warnings.simplefilter("ignore")
                            found = tightness(theorem.name, learner, stream)
                    except ValueError as refused:   # the stream is not the learner's input
                        rows.append({"theorem": theorem.name, "learner": learner.name,
                                     "stream": stream.name, "T": stream.meta.n, "ratio": None,
                                     col.SKIP_REASON: str(refused)})
                        continue
                    rows.append({"theorem": theorem.name, "learner": found.learner,
                                 "stream": found.stream, "T": found.T, "ratio": found.ratio,
                                 col.SKIP_REASON: found.skip_reason})
                    mark = (theorem.name, key, tuple(sorted(params.items())))
                    if found.ratio is not None and found.ratio > best.get(mark, (-1.0,))[0]:
                        best[mark] = (found.ratio, spec, how, source)
    witnesses = [record(theorem, {"key": key, "params": dict(params)}, spec, None, how, source)
                 for (theorem, key, params), (_, spec, how, source) in best.items()]
    return pd.DataFrame(rows), witnesses


def witness_path(folder: Path, witness: Witness) -> Path:
    """``<folder>/<theorem>__<learner key>[__<param>-<value>...].json``."""
    params = "".join(f"__{k}-{v}" for k, v in sorted(witness.learner.get("params", {}).items()))
    return folder / f"{witness.theorem}__{witness.learner['key']}{params}.json"


def main(argv: list[str] | None = None) -> None:
    """``python -m olbench.atlas.scan <folder>``: scan, write the best witness of each
    (theorem, learner setting) into ``folder`` (the files there before are replaced), and
    print them."""
    import argparse

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("folder", type=Path)
    folder = parser.parse_args(argv).folder
    _, witnesses = scan()
    for old in folder.glob("*.json"):
        old.unlink()
    for w in sorted(witnesses, key=lambda w: (w.theorem, w.learner["key"])):
        w.save(witness_path(folder, w))
        print(f"{w.theorem:27s} {witness_path(folder, w).stem.split('__', 1)[1]:40s} "
              f"{w.ratio:.6f}  {w.stream['key']}")


if __name__ == "__main__":
    main()
