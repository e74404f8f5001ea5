"""The bound atlas's problems and starting points (issue 30): every declared theorem for
every learner setting that declares it (:func:`problems`), and the streams a search starts
from at a horizon T (:func:`candidates`): the literature's constructions and olbench's own
generators, each sized to T rounds. The search itself is :mod:`olbench.atlas.search`.
"""

from __future__ import annotations

from pathlib import Path

from olbench.atlas.witness import Witness

#: the horizons T the atlas is searched and drawn at
HORIZONS = (30, 100, 300)
#: the literature's constructions, by name: (stream spec, the parameter that sets its
#: rounds, what it is, its source)
CONSTRUCTIONS = {
    "novikoff_tight": ({"key": "novikoff_tight", "params": {}}, "k",
                       "orthogonal rows x_t = R e_t, random labels: every round a mistake",
                       "Novikoff (1962); Block (1962): the tightness of (R/gamma)^2"),
    "multiclass_tight": ({"key": "multiclass_tight", "params": {}}, "m",
                         "orthogonal rows, a class each: every round a mistake",
                         "Crammer & Singer (2003): the multiclass (R/gamma)^2 attained"),
    "alternating": ({"key": "alternating", "params": {}}, "n",
                    "alternating linear losses +-1/2, +1, -1, ...: the leader flips",
                    "Shalev-Shwartz (2012), Example 2.2: FTL's linear regret"),
    "punish_the_leader": ({"key": "experts", "params": {"N": 10, "mode": "adversarial"}}, "n",
                          "the experts' leader given loss 1 every round",
                          "Cesa-Bianchi & Lugosi (2006): follow the leader punished"),
    "pca_ftl_adversary": ({"key": "pca_ftl_adversary", "params": {}}, "n",
                          "alternating directions: FTL's subspace always the wrong one",
                          "Warmuth & Kuzmin (2008), Sec. 1"),
}
#: olbench's own generators, by task, at their stated parameters (sized by ``n``)
GENERATORS = {
    "classification": [{"key": "separable", "params": {"d": 10, "gamma": 0.1}},
                       {"key": "noisy", "params": {"d": 10}}],
    "oco": [{"key": "experts", "params": {"N": 10}},
            {"key": "linear_losses", "params": {"d": 5}}],
    "multiclass": [{"key": "multiclass_separable", "params": {"d": 5, "k": 3}}],
    "pca": [{"key": "low_rank", "params": {"d": 10}}],
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


def sized(spec: dict, param: str, T: int) -> dict:
    return {"key": spec["key"], "params": {**spec["params"], param: int(T)}}


def generators(task: str, T: int) -> list[dict]:
    """The generator specs of ``task``, each drawing T rounds."""
    return [sized(spec, "n", T) for spec in GENERATORS.get(task, [])]


def candidates(task: str, T: int) -> list[tuple[dict, str, str]]:
    """(stream spec, how, source) of every construction and generator of ``task``, T rounds
    each."""
    from olbench.streams import Stream

    out = [(sized(spec, size, T), how, source)
           for spec, size, how, source in CONSTRUCTIONS.values()
           if Stream.registry.get(spec["key"]).task == task]
    return out + [(spec, "olbench generator at its stated parameters", "")
                  for spec in generators(task, T)]


def problems(keys=None) -> list[tuple[str, dict]]:
    """(theorem, learner spec) of every declared theorem for every learner setting that
    declares it (:func:`settings`); ``keys``: the learners (default: every one declaring a
    theorem). A condition that is the learner's default counts once."""
    from olbench.bounds import declared
    from olbench.learners import Learner, make_learner

    keys = [k for k, cls in Learner.registry.items() if cls.bounds] if keys is None else keys
    out, seen = [], set()
    for key in keys:
        for params in settings(key):
            learner = make_learner(key, **params)
            if learner.name not in seen:
                seen.add(learner.name)
                out += [(t.name, {"key": key, "params": dict(params)})
                        for t in declared(learner)]
    return out


def witness_path(folder: Path, witness: Witness) -> Path:
    """``<folder>/<theorem>__<learner key>[__<param>-<value>...]__T<T>.json``."""
    params = "".join(f"__{k}-{v}" for k, v in sorted(witness.learner.get("params", {}).items()))
    return folder / f"{witness.theorem}__{witness.learner['key']}{params}__T{witness.T}.json"
