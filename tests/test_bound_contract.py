"""Registry-wide: every theorem a learner declares is reachable (it is checked, not skipped,
when the comparators it needs are given), holds on a real run, and fails on a corrupted one
(so no check is vacuous). Settings come from tests/naive/; no learner is named here."""

from __future__ import annotations

import dataclasses
import warnings

import naive
import numpy as np
import pytest

import olbench
from olbench.bounds import THEOREMS, BoundViolation, RunRecord
from olbench.comparators import make_comparator
from olbench.learners import Learner
from olbench.streams import make_stream

DECLARING = [key for key, cls in Learner.registry.items() if cls.bounds]


def _stream(task):
    """A stream of the learner's task on which its theorems' assumptions hold: separable
    (classification), or expert losses in [0, 1] (online convex optimisation)."""
    if task == "oco":
        return make_stream("experts", n=400, N=5, seed=0)
    if task == "multiclass":
        return make_stream("multiclass_separable", n=400, d=5, k=3, gamma=0.3, R=1.0, seed=0)
    if task == "pca":
        return make_stream("low_rank", n=400, d=5, spectrum=[0.6, 0.3], noise=0.05, seed=0)
    return make_stream("separable", n=400, d=5, gamma=0.2, R=1.0, seed=0)


def _kind(learner):
    """Regression learners are checked on the separable stream too (real targets +-1)."""
    return learner.task if learner.task in ("oco", "multiclass", "pca") else "classification"


@pytest.fixture(scope="module")
def separable():
    return {task: (*_stream(task).materialize(), _stream(task).meta)
            for task in ("classification", "oco", "multiclass", "pca")}


def corrupt(record, task):
    """A learner that is always badly wrong, updating every round: in OCO one suffering 10
    more than it reported on every round."""
    if task in ("oco", "pca"):               # (the outputs are the losses suffered)
        return dataclasses.replace(record, margins=record.margins + 10.0)
    if task == "multiclass":    # (margins are the multiclass margins: below 0 is wrong)
        return dataclasses.replace(record, margins=np.full(record.n, -10.0),
                                   updated=np.ones(record.n, bool))
    return dataclasses.replace(record, margins=-10.0 * record.y, updated=np.ones(record.n, bool))


def _records(key, data):
    """(theorem, record) for every setting of ``key`` under which a declared theorem applies."""
    for params in naive.SETTINGS[key]:
        learner = olbench.make_learner(key, **params)
        X, y, meta = data[_kind(learner)]
        trace = olbench.run(learner, X, y)
        for theorem in olbench.bounds.declared(learner):
            fits = {}
            for spec in theorem.needs(learner.get_params()):
                comparator = make_comparator(spec["key"], **{k: v for k, v in spec.items()
                                                            if k != "key"})
                fits[comparator.name] = comparator.fit(X, y, meta, checkpoints=[100, 400],
                                                       cache=None)
            # (a multiclass theorem's gamma is the stream's own: its W*'s margin)
            yield theorem, trace, RunRecord.of(
                trace, learner, checkpoints=[100, 400], R=meta.radius, fits=fits,
                margin=meta.margin if learner.task == "multiclass" else None)


def test_every_theorem_is_declared_by_some_learner():
    declared = {t.name for _, cls in Learner.registry.items() for t in cls.bounds}
    assert declared == set(THEOREMS)


@pytest.mark.parametrize("key", DECLARING)
def test_declared_theorems_are_reachable_hold_and_can_fail(key, separable):
    reached = set()
    for theorem, trace, record in _records(key, separable):
        with warnings.catch_warnings():
            warnings.simplefilter("error", BoundViolation)
            checks = [c for _, c in theorem.checks(record)]
        made = [c for c in checks if c.holds is not None]
        if not made:
            continue                                   # skipped under this setting: say why
        assert all(c.skip_reason is None for c in checks)
        assert all(c.holds for c in made), (theorem.name, record.params)
        reached.add(theorem.name)
        # a learner that is always badly wrong, updating every round: the bound must object
        corrupted = corrupt(record, trace.task)
        with pytest.warns(BoundViolation, match=theorem.name):
            bad = [c for _, c in theorem.checks(corrupted)]
        assert any(c.holds is False for c in bad), (theorem.name, record.params)
    declared = {t.name for t in Learner.registry.get(key).bounds}
    assert reached == declared, f"{key}: never checked under its settings: {declared - reached}"


@pytest.mark.parametrize("key", DECLARING)
def test_skips_have_reasons(key, separable):
    for params in naive.SETTINGS[key]:
        learner = olbench.make_learner(key, **params)
        if not olbench.bounds.declared(learner):
            continue                                   # no theorem for these values
        X, y, _ = separable[_kind(learner)]
        trace = olbench.run(learner, X, y)
        rows = olbench.bounds.bound_table(learner, trace, checkpoints=[len(y)])  # no fits, no R
        assert len(rows) and rows["bound_holds"].isna().all()
        assert rows["skip_reason"].map(lambda r: isinstance(r, str) and len(r) > 5).all()
