"""Compile the loops of every learner rule (dense and CSR rows, run and predict) and the
comparators' compiled solvers, so that numba writes them to its on-disk cache.

``tests/conftest.py`` runs this in two processes at the start of a full test run (while
pytest-xdist's workers start): on a fresh checkout compiling the loops of some forty rules
takes about two CPU-minutes, and two processes do it on two cores. Both walk the same list
of rules, the longest to compile first, and each compiles the rules it claims first (a file
created in ``--claims DIR``), so neither waits while the other still has work, and no rule
is compiled twice (several learners and settings share a rule: RLS and AROW regression, the
three diagonal CW forms). Anything that fails here is left to the tests to report.

    python tests/warm_rules.py [--claims DIR] [learner key ...]
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import scipy.sparse as sp


def settings(key: str):
    """The learner's defaults, then each value of each of its choice parameters in turn
    (OGD's losses, PA's variants, ...: most choose another compiled rule)."""
    from olbench.component import OneOf
    from olbench.learners import Learner

    yield {}
    for name, constraint in Learner.registry.get(key).constraints.items():
        if isinstance(constraint, OneOf):
            for value in constraint.values:
                yield {name: value}


def rules(keys: list[str]) -> dict[str, tuple[str, dict]]:
    """Each compiled rule of these learners' settings and of the settings the exactness
    tests run (tests/naive.py: NHERD's diagonal rules need two parameters), by name: the
    first (key, settings) that runs it; the longest to compile first (:func:`compile_cost`)."""
    import naive

    import olbench

    found: dict[str, tuple[str, dict]] = {}
    cost: dict[str, int] = {}
    for key in keys:
        for params in [*settings(key), *naive.SETTINGS.get(key, [])]:
            try:
                rule = olbench.make_learner(key, **params).rule()
            except Exception:  # the tests report bad settings
                continue
            if rule.name not in found:
                found[rule.name], cost[rule.name] = (key, params), compile_cost(rule)
    return {name: found[name] for name in sorted(found, key=lambda name: -cost[name])}


def warm(key: str, params: dict) -> None:
    import olbench
    from olbench.protocol import predict

    learner = olbench.make_learner(key, **params)
    rng = np.random.default_rng(0)
    X = rng.random((12, 3))
    y = {"classification": np.where(rng.random(12) < 0.5, -1.0, 1.0),
         "regression": rng.standard_normal(12),
         "multiclass": 1.0 + np.arange(12) % 3}.get(learner.task, np.zeros(12))
    for rows in (X, sp.csr_matrix(X)):
        olbench.run(learner, rows, y)
        predict(learner, rows)


def compile_cost(rule) -> int:
    """A proxy for the time a rule's loops take to compile: the length of the module that
    defines its update (ONS, with its eigen-decomposition, is among the longest and takes
    the longest). The processes take the costly rules first, so that none is left with a
    long one while the other has finished."""
    import inspect

    return len(inspect.getsource(sys.modules[rule.update.__module__]))


def warm_solvers() -> dict:
    """The comparators' compiled solvers (numba, cached as the loops are), each by a small fit
    that reaches it: the hard-margin nearest point (max_margin) and the prefix solves
    (prefix_best). Without them each test process compiled them anew (6-7 s each)."""
    from olbench.checkpoints import log_checkpoints
    from olbench.comparators import make_comparator
    from olbench.streams import make_stream

    def max_margin():
        X, y = make_stream("separable", n=40, d=3, gamma=0.1, seed=0).materialize()
        make_comparator("max_margin").fit(X, y, cache=None)

    def prefix_best():
        X, y = make_stream("noisy", n=200, d=3, gamma=0.1, flip_rate=0.1, seed=0).materialize()
        make_comparator("prefix_best", loss="hinge").fit(X, y, checkpoints=log_checkpoints(200),
                                                         cache=None)

    return {"solver:max_margin": max_margin, "solver:prefix_best": prefix_best}


def claimed(claims: Path | None, name: str) -> bool:
    """True for the one process that claims rule ``name`` first (always, without claims)."""
    if claims is None:
        return True
    try:
        os.close(os.open(claims / name, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


def main(argv: list[str]) -> None:
    from olbench.learners import Learner

    claims = None
    if argv[:1] == ["--claims"]:
        claims, argv = Path(argv[1]), argv[2:]
    found = rules(argv or sorted(Learner.registry.keys()))
    jobs = warm_solvers() if not argv else {}        # among the longest: first
    jobs |= {name: (lambda key=key, params=params: warm(key, params))
             for name, (key, params) in found.items()}
    for name, job in jobs.items():
        if claimed(claims, name):
            try:
                job()
            except Exception:  # a warm-up only: the tests report real failures
                pass


if __name__ == "__main__":
    main(sys.argv[1:])
