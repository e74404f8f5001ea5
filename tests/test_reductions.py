"""Blocked reductions (olbench/rules/reductions.py) and the sparse front: sums are taken in eight
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
from olbench.rules import covariance, lanes, rows


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
    """The dense path is rules/lanes.py's explicit vector form (so the bit-for-bit test
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
    """rules/loop.py builds such loops without numba's runtime: no atomic reference count
    per round (OGD's loop had three increments a round with it). Rules that allocate or sort
    (kernel RLS, ONS, FTL, FTRL) keep the runtime; kernel RLS is run here."""
    from olbench.rules import kernel_rls, ogd, perceptron

    rng = np.random.default_rng(4)
    X, y = rng.standard_normal((50, 6)), np.where(rng.random(50) < 0.5, -1.0, 1.0)
    for name, kwargs, compiled in [("perceptron", {}, perceptron.RULE),
                                 ("ogd", dict(loss="hinge"), ogd.RULES["hinge"])]:
        olbench.run(olbench.make_learner(name, **kwargs), X, y)
        loop = compiled.run_dense
        assert loop.targetoptions.get("_nrt") is False, name
        # the same loop compiled afresh (numba does not inspect code loaded from its cache)
        options = {k: v for k, v in loop.targetoptions.items() if k != "nopython"}
        fresh = numba.njit(**{**options, "cache": False})(loop.py_func)
        fresh.compile(loop.signatures[0])
        ir = fresh.inspect_llvm(loop.signatures[0])
        assert "NRT_incref" not in ir and "NRT_decref" not in ir, name
    assert kernel_rls.RULE.run_dense.targetoptions.get("_nrt", True) is not False
    trace = olbench.run(olbench.make_learner("kernel_rls"), X, X @ np.arange(6.0))
    assert trace.n == 50


# ----------------------------------------------------------------------------- full matrices
def matvec_reference(M: np.ndarray, x: np.ndarray) -> list[float]:
    """covariance.symmetric_matvec's documented order on a dense x, in plain Python floats. The
    whole square (d < TRIANGLE_FROM): out[j] = sum of x_i M[i, j] over i in order. The
    triangle: for each row i, x_i M[i, j] is added to out[j] for j < i, then out[i] is the
    blocked sum of M[i, k] x_k over k up to i + 1 rounded up to a multiple of eight."""
    d = x.size
    out = [0.0] * d
    for i in range(d):
        if d < covariance.TRIANGLE_FROM:
            for j in range(d):
                out[j] += float(x[i]) * float(M[i, j])
            continue
        for j in range(i):
            out[j] += float(x[i]) * float(M[i, j])
        end = min(d, (i + 8) // 8 * 8)
        out[i] = blocked_reference(M[i, :end] * x[:end])
    return out


def sparse_matvec_reference(M, idx, val) -> list[float]:
    """The sparse order: the sum of x_i M[i] over the stored entries; on the triangle, M[i]
    is read as M[i, :i + 1] and the column M[i + 1:, i]."""
    d = M.shape[1]
    out = [0.0] * d
    for i, a in zip(idx.tolist(), val.tolist()):
        for j in range(d):
            kept = d < covariance.TRIANGLE_FROM or j <= i
            out[j] += a * float(M[i, j] if kept else M[j, i])
    return out


@numba.njit
def _matvec(M, idx, val):
    out = M[M.shape[1]]
    covariance.symmetric_matvec(M, idx, val, out)
    return out.copy()


def _kept(d, rng):
    """A matrix as the rules keep it (symmetric square below TRIANGLE_FROM, else its lower
    triangle with zeros above), magnitudes over 12 orders (any other order rounds
    differently), and the scratch row below it, whose old values must not leak."""
    B = rng.standard_normal((d, d)) * 10.0 ** rng.integers(-6, 6, (d, d))
    M = B + B.T if d < covariance.TRIANGLE_FROM else np.tril(B)
    return np.vstack([M, np.full(d, np.nan)])


@pytest.mark.parametrize("d", [1, 7, 9, 33, 95, 96, 97, 101])
def test_symmetric_matvec_follows_the_documented_order_bit_for_bit(d):
    rng = np.random.default_rng(d)
    M = _kept(d, rng)
    x = rng.standard_normal(d) * 10.0 ** rng.integers(-6, 6, d)
    assert _matvec(M, None, x).tolist() == matvec_reference(M[:d], x)
    from olbench.learners.state import symmetric

    full = symmetric(M[:d])
    np.testing.assert_allclose(_matvec(M, None, x), full @ x,
                               rtol=1e-12, atol=1e-12 * np.abs(full).max() * np.abs(x).max())
    idx = np.sort(rng.choice(d, max(1, d // 3), replace=False)).astype(np.int32)
    assert (_matvec(M, idx, x[idx]).tolist()
            == sparse_matvec_reference(M[:d], idx, x[idx]))


@pytest.mark.skipif(numba.config.DISABLE_JIT, reason="inspects compiled code")
def test_symmetric_matvec_reads_each_row_once_in_vector_instructions():
    """Dense rows of a contiguous triangle take lanes.lane_dot_axpy (the dot and the axpy in
    one vector pass); a strided triangle falls back to scalar code with the same numbers."""
    rng = np.random.default_rng(5)
    d = covariance.TRIANGLE_FROM + 5
    M = _kept(d, rng)
    x = rng.standard_normal(d)
    expected = _matvec(M, None, x)
    ir = "".join(_matvec.inspect_llvm().values())
    assert f"fmul <{lanes.WIDTH} x double>" in ir and f"fadd <{lanes.WIDTH} x double>" in ir
    strided = np.repeat(M, 2, axis=1)[:, ::2]
    assert not strided[0].flags.c_contiguous
    assert np.array_equal(_matvec(strided, None, x), expected)


FULL_MATRIX = [("arow", {}), ("arow_regression", {}), ("cw", {}), ("scw", {}), ("scw2", {}),
               ("nherd", {}), ("narow", {}), ("iellip", {}), ("sop", {})]


@pytest.mark.parametrize("key,params", FULL_MATRIX, ids=[k for k, _ in FULL_MATRIX])
def test_full_matrices_as_a_triangle_equal_the_naive_twins(key, params, as_format):
    """From TRIANGLE_FROM features on, the rules keep one triangle (the exactness suite runs
    at d = 6, on the whole square): the same margins, flags and exported matrix as the
    plain-numpy twins; nothing is written right of the diagonal (it stays zero, which the
    padded dots rely on); the exported matrix is symmetric."""
    import naive
    from conftest import make_data

    learner = olbench.make_learner(key, **params)
    d = covariance.TRIANGLE_FROM + 3
    X, y = make_data(learner.task, 3, n=120, d=d)
    margins, updated, state = naive.TWINS[key](X, y, **params)
    trace = olbench.run(learner, as_format(X), y)
    assert trace.updated.sum() >= 5
    np.testing.assert_allclose(trace.margins, margins, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(trace.updated, updated)
    for name, value in state.items():
        np.testing.assert_allclose(trace.state[name], value, rtol=1e-12, atol=1e-12)
    kept = learner.state_.A[:d]
    assert not np.triu(kept, 1).any()
    assert np.array_equal(trace.state["A"], trace.state["A"].T)
    assert np.array_equal(np.tril(trace.state["A"]), kept)
    if hasattr(learner, "covariance_"):
        assert np.array_equal(learner.covariance_, trace.state["A"])


def test_below_triangle_from_the_whole_square_is_kept_and_exported():
    learner = olbench.make_learner("arow")
    X, y = np.random.default_rng(6).standard_normal((50, 5)), np.ones(50)
    trace = olbench.run(learner, X, y)
    assert np.triu(learner.state_.A[:5], 1).any()
    assert np.array_equal(trace.state["A"], learner.state_.A[:5])


@numba.njit
def _dot_and_quad(w, diag, idx, val):
    return rows.dot_and_diag_quad(w, diag, idx, val)


@pytest.mark.parametrize("d", [1, 7, 8, 9, 64, 101])
def test_dot_and_quad_in_one_pass_equal_the_two_sums_bit_for_bit(d):
    """AROW's diagonal predict reads a row once for w.x and x'Dx: each still in its own
    documented order, dense (vector form, and a strided row's fallback) and sparse."""
    rng = np.random.default_rng(d + 100)
    w, x, diag = (rng.standard_normal(d) * 10.0 ** rng.integers(-6, 6, d) for _ in range(3))
    expected = (blocked_reference(w * x), blocked_reference(diag * x * x))
    assert _dot_and_quad(w, diag, None, x) == expected
    strided = [np.repeat(v, 2)[::2] for v in (w, diag, x)]
    assert _dot_and_quad(strided[0], strided[1], None, strided[2]) == expected
    idx = np.arange(d, dtype=np.int32)
    assert _dot_and_quad(w, diag, idx, x) == expected
    if not numba.config.DISABLE_JIT:
        ir = _dot_and_quad.inspect_llvm(_dot_and_quad.signatures[0])
        assert f"fmul <{lanes.WIDTH} x double>" in ir
