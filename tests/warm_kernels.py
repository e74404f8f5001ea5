"""Compile the loops of the given learners (all registered ones when none is named), dense
and CSR, run and predict, so that numba writes them to its on-disk cache.

``tests/conftest.py`` runs this in two processes at the start of a full test run: on a fresh
checkout compiling the loops of some fifty rules is most of the suite's time, and two
processes do it on two cores. Anything that fails here is left to the tests to report.

    python tests/warm_kernels.py [learner key ...]
"""

from __future__ import annotations

import sys

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


def warm(key: str, params: dict) -> None:
    import olbench
    from olbench.protocol import predict

    learner = olbench.make_learner(key, **params)
    rng = np.random.default_rng(0)
    X = rng.random((12, 3))
    y = {"classification": np.where(rng.random(12) < 0.5, -1.0, 1.0),
         "regression": rng.standard_normal(12)}.get(learner.task, np.zeros(12))
    for rows in (X, sp.csr_matrix(X)):
        olbench.run(learner, rows, y)
        predict(learner, rows)


def main(keys: list[str]) -> None:
    from olbench.learners import Learner

    for key in keys or sorted(Learner.registry.keys()):
        for params in settings(key):
            try:
                warm(key, params)
            except Exception:  # a warm-up only: the tests report real failures
                pass


if __name__ == "__main__":
    main(sys.argv[1:])
