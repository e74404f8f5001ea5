"""The bound atlas as an experiment (``olbench experiment=bound_atlas``): its configuration,
written from the committed witnesses by :func:`experiment_config` (``python -m
olbench.atlas.search`` writes it beside them, and a test checks the committed file is what
the witnesses give, so a witness is never left out of the study).

Two kinds of blocks: every witness, run once by the learner it was found for (a witness
draws nothing: ``seeds: [0]``), with the comparators its learner's theorems need; and, for
contrast, every learner setting on its task's generators at their stated parameters, drawn
T rows long for each horizon T (as a witness is), over ten seeds; the settings needing the
same comparators and taking the same generators share a block.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from olbench.atlas.scan import HORIZONS, generators, problems
from olbench.atlas.witness import load

HEADER = """\
# @package _global_
# The bound atlas (issue 30): for every theorem olbench checks and every learner setting that
# declares it, the stream found closest to the bound at each horizon (the witnesses, run once
# each: a witness draws nothing), beside the same learners on their task's generators at
# their stated parameters (10 seeds), checked at the same horizons. See
# experiments/bound_atlas/README.md.
#
# WRITTEN by `python -m olbench.atlas.search experiments/bound_atlas/witnesses --config
# conf/experiment/bound_atlas.yaml` from the witnesses (olbench.atlas.study): edit the search
# or olbench/atlas/study.py, not this file (tests/test_bound_atlas.py compares them).
"""


def _comparators(learner) -> list[dict]:
    """The comparators every theorem of the learner (as set) needs, each once."""
    from olbench.bounds import declared

    out = []
    for theorem in declared(learner):
        for need in theorem.needs(learner.get_params()):
            entry = {"key": need["key"], "params": {k: v for k, v in need.items() if k != "key"}}
            if entry not in out:
                out.append(entry)
    return out


def experiment_config(folder: str | Path, horizons: tuple[int, ...] = HORIZONS,
                      seeds: int = 10) -> str:
    """The YAML of ``conf/experiment/bound_atlas.yaml`` for the witnesses in ``folder`` (a
    path relative to the repository, as the config will name it)."""
    from olbench.learning_task import loss_range_fits
    from olbench.paths import REPO_ROOT
    from olbench.streams import make_stream

    folder = Path(folder)
    files = sorted((folder if folder.is_absolute() else REPO_ROOT / folder).glob("*.json"),
                   key=lambda f: (f.stem.rsplit("__T", 1)[0], int(f.stem.rsplit("__T", 1)[1])))
    by_learner: dict[str, tuple[dict, list[dict]]] = {}
    for file in files:
        witness = load(file)
        learner = {"key": witness.learner["key"], "params": witness.learner.get("params", {})}
        name = yaml.safe_dump(learner, sort_keys=True)
        by_learner.setdefault(name, (learner, []))[1].append(
            {"file": (folder / file.name).as_posix(), "witness_fingerprint": witness.fingerprint})
    blocks = [{"learners": [learner], "seeds": [0], "comparators": _comparators(_built(learner)),
               "streams": [{"key": "witness", "params": p} for p in params]}
              for learner, params in by_learner.values()]
    # the random contrast: the learner settings of a task that need the same comparators
    # share a block (a comparator meant for another setting's theorem would be fitted and
    # reported for nothing)
    groups: dict[str, tuple[list[dict], list[dict], list[dict]]] = {}
    for _, spec in problems():
        entry = {"key": spec["key"], "params": spec["params"]}
        learner = _built(entry)
        needs = _comparators(learner)
        streams = [g for T in horizons for g in generators(learner.task, T)
                   if loss_range_fits(learner, make_stream(g["key"], **g["params"]))]
        _, _, members = groups.setdefault(yaml.safe_dump([needs, streams]),
                                          (needs, streams, []))
        if entry not in members:
            members.append(entry)
    for _, (needs, streams, learners) in sorted(groups.items()):
        blocks.append({"learners": learners, "comparators": needs, "streams": streams})
    config = {
        "name": "bound_atlas",
        "question": "How close can a legal stream push each learner to each theorem olbench "
                    "checks, at a fixed horizon, and how far are random streams from it?",
        "modules": ["experiments/bound_atlas/atlas.py"],
        "sections": {"bound_atlas": {"witnesses": folder.as_posix()}},
        "grid": {"seeds": f"range({seeds})", "blocks": blocks},
        # every run is checked at its last round (its horizon: the random streams are drawn
        # T rows long for each T, as the witnesses are) and at the smallest horizon
        "run": {"checkpoints": [min(horizons)], "figures": ["bound_atlas", "bounds"]},
    }
    return HEADER + yaml.safe_dump(config, sort_keys=False, width=100,
                                   default_flow_style=None)


def _built(spec: dict):
    from olbench.learners import make_learner

    return make_learner(spec["key"], **spec["params"])
