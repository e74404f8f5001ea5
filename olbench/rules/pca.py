"""Online PCA (task ``"pca"``): the learner plays a projection P_t = U_t' U_t on the span of
the k orthonormal rows of U_t, the row x_t arrives, and ``predict`` returns the compression
loss ||x_t - P_t x_t||^2 (recorded before the update, like a margin). Three rules:

* **Follow the leader** (``FTL_RULE``): U_{t+1} = the top-k eigenvectors of
  C_t = sum_{s <= t} x_s x_s' (Warmuth & Kuzmin, JMLR 9, 2008, Sec. 1, who show it can have
  linear regret). ``A[:d]`` = C_t, ``A[d]`` scratch.
* **Oja's subspace rule** (``OJA_RULE``): U <- U + eta_t (U x) x', then the rows
  orthonormalised again by Gram-Schmidt (Oja, J. Math. Biol. 15, 1982; Oja & Karhunen 1985;
  the orthonormalised form of Oja, "Principal components, minor components, and linear neural
  networks", Neural Networks 5, 1992, Eq. 6 with the QR step of Arora et al. 2012).
  ``A[0]`` scratch.
* **Brand's incremental SVD** (``BRAND_RULE``; Brand, "Incremental singular value
  decomposition of uncertain data with missing values", ECCV 2002, Sec. 2-3, and SDM 2003):
  the thin SVD U' diag(S) V' of the rows seen so far (as columns), V not kept. With
  m = U x and p = x - U' m (Gram-Schmidt twice: "twice is enough", against the slow loss of
  orthogonality Brand warns of), rho = ||p||: when rho > threshold and the rank r is below
  the ceiling, K = [[diag(S), m], [0, rho]] ((r + 1) x (r + 1)) is re-diagonalised, K = G
  diag(S') H', and U <- G' [U; p / rho], S <- S', r <- r + 1; otherwise the residual is
  dropped, K = [diag(S), m] (r x (r + 1)), U <- G' U, S <- S'. At the ceiling with a residual
  above the threshold, ``truncate=True`` grows to r + 1 and drops the smallest singular value
  (Brand's rank-truncation); ``False`` drops the residual. The projection played is the span of
  the top min(k, r) rows. ``w`` = U (R rows, R the ceiling, those past r zero), ``A[0]`` the
  new direction, ``A[1]`` scratch; ``s`` = [t, r, S_1..S_{R+1}, m_1..m_{R+1}].

* **Gradient descent on the capped spectrahedron** (``GD_RULE``; Warmuth & Kuzmin 2008,
  Sec. 3; Nie, Kotlowski & Warmuth 2016, Sec. 3): ``w`` = W in {0 <= W <= I, tr W = m},
  m = d - k, the relaxed complement of the projection; the loss x' W x (the expected
  compression loss of the mixture of projections W stands for); W <- the Frobenius projection
  of W - eta x x' on the set: eigenvalues lambda of W - eta x x', then
  lambda' = clip(lambda - tau, 0, 1) with the tau that makes them sum to m.

The first three keep the basis U in ``w`` (its rows, k x d for FTL and Oja), its rows orthonormal,
so P_t x = U' (U x); ``s`` starts with the round t, then the coefficients U x of the row.
"""

import math
from collections import namedtuple

import numpy as np

from olbench._jit import inline, inline_allocating
from olbench.rules.loop import make_rule
from olbench.rules.rows import axpy, dot, entry, n_entries


@inline
def compression(idx, val, U, rows, coefficients, projected):
    """||x - U[:rows]' U[:rows] x||^2 for orthonormal rows of U; ``coefficients`` receives
    U x (``rows`` values), ``projected`` (d values) U' U x."""
    for i in range(rows):
        coefficients[i] = dot(U[i], idx, val)
    for j in range(projected.shape[0]):
        projected[j] = 0.0
    for i in range(rows):
        c = coefficients[i]
        for j in range(projected.shape[0]):
            projected[j] += c * U[i, j]
    total = 0.0
    if idx is None:
        for j in range(projected.shape[0]):
            r = val[j] - projected[j]
            total += r * r
        return total
    for j in range(projected.shape[0]):
        total += projected[j] * projected[j]
    for e in range(n_entries(idx, val)):
        j, v = entry(idx, val, e)
        total += (v - projected[j]) * (v - projected[j]) - projected[j] * projected[j]
    return total


@inline
def orthonormalise(U, rows):
    """Modified Gram-Schmidt on the first ``rows`` rows of U, in place. A row that is
    (numerically) in the span of the earlier ones becomes 0 (its norm below 1e-300)."""
    for i in range(rows):
        for h in range(i):
            c = 0.0
            for j in range(U.shape[1]):
                c += U[h, j] * U[i, j]
            for j in range(U.shape[1]):
                U[i, j] -= c * U[h, j]
        norm = 0.0
        for j in range(U.shape[1]):
            norm += U[i, j] * U[i, j]
        norm = math.sqrt(norm)
        scale = 1.0 / norm if norm > 1e-300 else 0.0
        for j in range(U.shape[1]):
            U[i, j] *= scale


# ------------------------------------------------------------------ follow the leader
FTLParams = namedtuple("FTLParams", ["k"])


@inline
def ftl_predict(params, idx, val, w, A, s):
    return compression(idx, val, w, params.k, s[1:], A[A.shape[1]])


@inline
def left_float64(M):
    """Whether M holds an inf or a NaN; if so M becomes all NaN, so that the next loss is NaN
    and the run stops there, naming the cause (olbench.breakdown), where LAPACK would raise."""
    for a in range(M.shape[0]):
        for b in range(M.shape[1]):
            if not math.isfinite(M[a, b]):
                M[:, :] = math.nan
                return True
    return False


@inline
def is_zero_row(idx, val):
    for e in range(n_entries(idx, val)):
        if entry(idx, val, e)[1] != 0.0:
            return False
    return True


@inline_allocating
def ftl_update(params, idx, val, y, margin, w, A, s):
    s[0] += 1.0
    if is_zero_row(idx, val):                    # C unchanged: so is its leader
        return False
    d = A.shape[1]
    for e in range(n_entries(idx, val)):         # C += x x'
        j, v = entry(idx, val, e)
        axpy(A[j], v, idx, val)
    if left_float64(A[:d]):
        w[:, :] = math.nan
        return True
    _, vectors = np.linalg.eigh(A[:d])
    for i in range(params.k):                    # eigh ascends: the top k, largest first
        for j in range(d):
            w[i, j] = vectors[j, d - 1 - i]
    return True


FTL_RULE = make_rule("pca_ftl", ftl_predict, ftl_update, allocates=True)


# ------------------------------------------------------------------ Oja's subspace rule
OjaParams = namedtuple("OjaParams", ["k", "eta", "schedule"])
CONSTANT, SQRT, INVERSE = 0, 1, 2
SCHEDULES = {"constant": CONSTANT, "sqrt": SQRT, "inverse": INVERSE}


@inline
def step_size(eta, schedule, t):
    """eta, eta / sqrt(t) or eta / t at round t (from 1)."""
    if schedule == SQRT:
        return eta / math.sqrt(t)
    if schedule == INVERSE:
        return eta / t
    return eta


@inline
def oja_predict(params, idx, val, w, A, s):
    return compression(idx, val, w, params.k, s[1:], A[0])


@inline
def oja_update(params, idx, val, y, margin, w, A, s):
    s[0] += 1.0
    moved = False
    for i in range(params.k):
        moved = moved or s[1 + i] != 0.0
    if not moved:                                # U x = 0: the step is 0, U stays as it is
        return False
    rate = step_size(params.eta, params.schedule, s[0])
    for i in range(params.k):                    # U_i += eta (U_i . x) x (U x from predict)
        axpy(w[i], rate * s[1 + i], idx, val)
    orthonormalise(w, params.k)
    return True


OJA_RULE = make_rule("pca_oja", oja_predict, oja_update)


# ------------------------------------------------------------------ Brand's incremental SVD
BrandParams = namedtuple("BrandParams", ["k", "max_rank", "threshold", "truncate"])


@inline
def brand_predict(params, idx, val, w, A, s):
    R = params.max_rank
    return compression(idx, val, w, min(params.k, int(s[1])), s[2 + R + 1:], A[1])


@inline_allocating
def brand_update(params, idx, val, y, margin, w, A, s):
    s[0] += 1.0
    if is_zero_row(idx, val):                    # nothing to learn from it
        return False
    R, d = params.max_rank, A.shape[1]
    r = int(s[1])
    S, m = s[2:2 + R + 1], s[2 + R + 1:]
    new = A[0]
    for j in range(d):                           # p = x - U' m, m = U x: Gram-Schmidt twice
        new[j] = 0.0
    axpy(new, 1.0, idx, val)
    for sweep in range(2):
        for i in range(r):
            c = 0.0
            for j in range(d):
                c += w[i, j] * new[j]
            m[i] = c if sweep == 0 else m[i] + c
            for j in range(d):
                new[j] -= c * w[i, j]
    rho = 0.0
    for j in range(d):
        rho += new[j] * new[j]
    rho = math.sqrt(rho)
    if not math.isfinite(rho):                   # the row's scale left float64: stop (NaN)
        w[:, :] = math.nan
        return True
    grow = rho > params.threshold and r < d and (r < R or params.truncate)
    size = r + 1 if grow else r
    if size == 0:
        return False
    K = np.zeros((size, r + 1))
    for i in range(r):
        K[i, i] = S[i]
        K[i, r] = m[i]
    if grow:
        K[r, r] = rho
        for j in range(d):
            new[j] /= rho
    G, values, _ = np.linalg.svd(K)
    basis = np.empty((size, d))
    basis[:r] = w[:r]
    if grow:
        basis[r] = new
    keep = min(size, R)
    for i in range(keep):                        # U <- G' [U; p / rho], the top `keep`
        S[i] = values[i]
        for j in range(d):
            total = 0.0
            for h in range(size):
                total += G[h, i] * basis[h, j]
            w[i, j] = total
    for i in range(keep, R + 1):
        S[i] = 0.0
    s[1] = keep
    return True


BRAND_RULE = make_rule("pca_brand", brand_predict, brand_update, allocates=True)


# ------------------------------------------------------------------ GD on the capped spectrahedron
GDParams = namedtuple("GDParams", ["m", "eta"])


@inline
def gd_predict(params, idx, val, w, A, s):
    total = 0.0                                  # x' W x
    for e in range(n_entries(idx, val)):
        j, v = entry(idx, val, e)
        total += v * dot(w[j], idx, val)
    return total


@inline
def capped_shift(values, m):
    """The tau with sum_i clip(values_i - tau, 0, 1) = m, by bisection to the last bit."""
    low, high = values[0] - 1.0, values[values.shape[0] - 1]   # (eigh: ascending)
    for _ in range(2000):
        mid = 0.5 * (low + high)
        if mid == low or mid == high:
            break
        total = 0.0
        for v in values:
            total += min(max(v - mid, 0.0), 1.0)
        if total > m:
            low = mid
        else:
            high = mid
    return 0.5 * (low + high)


@inline_allocating
def gd_update(params, idx, val, y, margin, w, A, s):
    s[0] += 1.0
    if is_zero_row(idx, val):                    # a zero gradient: W stays (no round-off)
        return False
    for e in range(n_entries(idx, val)):         # W -= eta x x'
        j, v = entry(idx, val, e)
        axpy(w[j], -params.eta * v, idx, val)
    if left_float64(w):
        return True
    values, vectors = np.linalg.eigh(w)
    tau = capped_shift(values, params.m)
    d = w.shape[0]
    for i in range(d):
        values[i] = min(max(values[i] - tau, 0.0), 1.0)
    w[:, :] = (vectors * values) @ np.ascontiguousarray(vectors.T)   # BLAS: d^3, the row's cost
    return True


GD_RULE = make_rule("pca_gd", gd_predict, gd_update, allocates=True)
