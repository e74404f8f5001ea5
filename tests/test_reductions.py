"""Blocked reductions (olbench/kernels/rows.py) and the sparse front: sums are taken in eight
partial sums combined in one documented order, so a result is fixed by the input alone; a
CSR run passes its rows to the loop as views, never copies."""

from __future__ import annotations

import os
import tracemalloc

import numba
import numpy as np
import pytest
import scipy.sparse as sp

import olbench
from olbench.kernels import lanes, rows


def blocked_reference(terms: np.ndarray) -> float:
    """The documented order, in plain Python floats: partial sum i takes terms i, i+8, ...
    of the full blocks; the eight are combined pairwise, then the remainder is added."""
    full = terms.size - terms.size % 8
    parts = [0.0] * 8
    for k in range(0, full, 8):
        for i in range(8):
            parts[i] += float(terms[k + i])
    rest = 0.0
    for k in range(full, terms.size):
        rest += float(terms[k])
    s = parts
    return (((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]))) + rest


@numba.njit
def _dense(w, x, diag):
    return rows.dot(w, None, x), rows.sqnorm(x), rows.diag_quad(diag, None, x), \
        rows.dense_dot(w, x)


@numba.njit
def _sparse(w, idx, val, diag):
    return rows.dot(w, idx, val), rows.diag_quad(diag, idx, val)


@pytest.mark.parametrize("d", [1, 7, 8, 9, 64, 101])
def test_sums_follow_the_documented_order_bit_for_bit(d):
    rng = np.random.default_rng(d)
    # magnitudes spread over 12 orders, so that any other order rounds differently
    w, x, diag = (rng.standard_normal(d) * 10.0 ** rng.integers(-6, 6, d) for _ in range(3))
    dot, sq, quad, dense = _dense(w, x, diag)
    assert dot == blocked_reference(w * x) == dense
    assert sq == blocked_reference(x * x)
    assert quad == blocked_reference(diag * x * x)
    idx = np.sort(rng.choice(4 * d, d, replace=False)).astype(np.int32)
    w_big, diag_big = np.zeros(4 * d), np.ones(4 * d)
    w_big[idx], diag_big[idx] = w, diag
    assert _sparse(w_big, idx, x, diag_big) == (dot, quad)


def test_the_sums_above_ran_with_the_slp_vectoriser_on():
    """olbench turns on LLVM's SLP vectoriser (olbench/_jit.py), which may pack the sparse
    rows' eight scalar partial sums into vector registers; the bit-for-bit test above then
    pins that it changes no result. Were it off, that test would prove nothing about it."""
    assert numba.config.SLP_VECTORIZE or "NUMBA_SLP_VECTORIZE" in os.environ


@pytest.mark.skipif(numba.config.DISABLE_JIT, reason="inspects compiled code")
def test_contiguous_dense_rows_are_summed_in_vector_instructions():
    """The dense path is kernels/lanes.py's explicit vector form (so the bit-for-bit test
    above checks vector code), and a non-contiguous row falls back to the scalar sums with
    the same result rather than failing to compile."""
    rng = np.random.default_rng(3)
    w, x, diag = (rng.standard_normal(101) * 10.0 ** rng.integers(-6, 6, 101) for _ in range(3))
    expected = _dense(w, x, diag)
    ir = "".join(_dense.inspect_llvm().values())
    assert f"fmul <{lanes.WIDTH} x double>" in ir
    assert f"fadd <{lanes.WIDTH} x double>" in ir
    strided = [np.repeat(v, 2)[::2] for v in (w, x, diag)]
    assert not strided[1].flags.c_contiguous
    assert _dense(*strided) == expected


def test_a_different_order_would_be_seen():
    """The reference is sensitive to order: a one-at-a-time sum differs on these inputs."""
    rng = np.random.default_rng(0)
    terms = rng.standard_normal(101) * 10.0 ** rng.integers(-6, 6, 101)
    assert blocked_reference(terms) != float(np.cumsum(terms)[-1])


def test_a_csr_run_does_not_copy_its_rows():
    n, d, nnz = 20_000, 1_000, 20
    rng = np.random.default_rng(1)
    indices = np.sort(rng.random((n, d)).argsort(axis=1)[:, :nnz], axis=1).ravel()
    X = sp.csr_matrix((rng.standard_normal(n * nnz), indices.astype(np.int32),
                       np.arange(0, n * nnz + 1, nnz, dtype=np.int32)), shape=(n, d))
    y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    learner = olbench.make_learner("pa")
    olbench.run(learner, X[:10], y[:10])  # compile / load outside the measurement
    assert X.has_canonical_format
    tracemalloc.start()
    trace = olbench.run(learner, X, y)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    # the per-round outputs (margins, flags, labels: ~17 bytes a row) and the weights; a copy
    # of the rows would add their 12 bytes per non-zero (4.8 MB here)
    assert peak < 0.5 * (X.data.nbytes + X.indices.nbytes), peak
    assert trace.n == n


@pytest.mark.skipif(numba.config.DISABLE_JIT, reason="inspects compiled code")
def test_loops_of_rules_that_allocate_nothing_keep_no_reference_counts():
    """kernels/loop.py builds such loops without numba's runtime: no atomic reference count
    per round (OGD's loop had three increments a round with it). Rules that allocate or sort
    (kernel RLS, ONS, FTL, FTRL) keep the runtime; kernel RLS is run here."""
    from olbench.kernels import kernel_rls, ogd, perceptron

    rng = np.random.default_rng(4)
    X, y = rng.standard_normal((50, 6)), np.where(rng.random(50) < 0.5, -1.0, 1.0)
    for name, kwargs, kernel in [("perceptron", {}, perceptron.KERNEL),
                                 ("ogd", dict(loss="hinge"), ogd.KERNELS["hinge"])]:
        olbench.run(olbench.make_learner(name, **kwargs), X, y)
        loop = kernel.run_dense
        assert loop.targetoptions.get("_nrt") is False, name
        # the same loop compiled afresh (numba does not inspect code loaded from its cache)
        options = {k: v for k, v in loop.targetoptions.items() if k != "nopython"}
        fresh = numba.njit(**{**options, "cache": False})(loop.py_func)
        fresh.compile(loop.signatures[0])
        ir = fresh.inspect_llvm(loop.signatures[0])
        assert "NRT_incref" not in ir and "NRT_decref" not in ir, name
    assert kernel_rls.KERNEL.run_dense.targetoptions.get("_nrt", True) is not False
    trace = olbench.run(olbench.make_learner("kernel_rls"), X, X @ np.arange(6.0))
    assert trace.n == 50
