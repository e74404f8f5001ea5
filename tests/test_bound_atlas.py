"""The bound atlas's first part (issue 30): observed / bound of a theorem on a stream, the
committed witnesses (each re-run: its ratio reproduced and at most 1), every declared theorem
witnessed, and the theorems' own hypotheses deciding when there is no ratio."""

from __future__ import annotations

from pathlib import Path

import pytest

from olbench import make_learner
from olbench.atlas import load, replay, tightness
from olbench.atlas.scan import scan, witness_path
from olbench.bounds import THEOREMS
from olbench.streams import make_stream

WITNESSES = Path(__file__).resolve().parents[1] / "experiments" / "bound_atlas" / "witnesses"
FILES = sorted(WITNESSES.glob("*.json"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_each_witness_reproduces_its_ratio_and_no_ratio_passes_one(path):
    witness = load(path)
    found = replay(witness)
    assert found.skip_reason is None
    assert found.ratio == pytest.approx(witness.ratio, rel=1e-12, abs=0.0)
    # at most 1 within the bound checks' own tolerance (olbench.bounds.check, 1e-9: the
    # comparators' u and gamma come from solvers); PA-II on orthogonal rows meets its bound
    # exactly, 1.5 * 100 * 2/3 = 100, and its ratio rounds to 1 + 7e-16
    assert found.ratio <= 1.0 + 1e-9, f"{path.name}: observed above the bound: a bug to find"


def test_every_declared_theorem_has_a_witness():
    """A new theorem joins the atlas by being declared: this fails until the scan is re-run
    (python -m olbench.atlas.scan experiments/bound_atlas/witnesses)."""
    assert {load(p).theorem for p in FILES} == set(THEOREMS)


def test_the_scan_writes_the_committed_witnesses():
    _, witnesses = scan(["perceptron", "pa", "hedge"])
    for witness in witnesses:
        assert load(witness_path(WITNESSES, witness)) == witness


@pytest.mark.parametrize("k", [4, 25])
def test_orthogonal_rows_reach_novikoffs_bound(k):
    """x_t = R e_t with random labels: the Perceptron errs on every round, (R/gamma)^2 = k."""
    found = tightness("novikoff", make_learner("perceptron"), make_stream("novikoff_tight", k=k))
    assert found.observed == k and found.bound == pytest.approx(k, rel=1e-12)


def test_a_stream_outside_the_theorems_hypotheses_gives_no_ratio():
    noisy = make_stream("noisy", n=200, d=5, flip_rate=0.2)
    found = tightness("novikoff", make_learner("perceptron"), noisy)
    assert found.ratio is None and "separable" in found.skip_reason


def test_bad_requests_are_named():
    stream = make_stream("novikoff_tight", k=4)
    with pytest.raises(ValueError, match="unknown theorem 'nvikoff'"):
        tightness("nvikoff", make_learner("perceptron"), stream)
    with pytest.raises(ValueError, match=r"does not declare 'pa_separable'.*pa1_mistakes"):
        tightness("pa_separable", make_learner("pa"), stream)
    with pytest.raises(ValueError, match="T=5: the stream has 4 rounds"):
        tightness("novikoff", make_learner("perceptron"), stream, T=5)
