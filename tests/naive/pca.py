"""Online PCA (task "pca"): follow the leader, Oja's subspace rule and Brand's incremental SVD
written from their sources with numpy's own linear algebra (eigh, QR, SVD). Each margin is the
compression loss ||x_t - P_t x_t||^2 of the projection played before x_t, computed from its
definition. The bases of FTL and Brand are not compared (an eigenvector's or a singular
vector's sign is the LAPACK build's choice; the losses do not depend on it); Oja's is."""

from __future__ import annotations

import numpy as np

from naive.registry import result, twin


def _loss(x, U):
    """||x - U'U x||^2 for orthonormal rows U, from the definition."""
    residual = x - U.T @ (U @ x)
    return float(residual @ residual)


def _orthonormal(U):
    """U's rows orthonormalised in order (Gram-Schmidt, written as QR with R's diagonal made
    positive)."""
    Q, R = np.linalg.qr(U.T)
    return (Q * np.sign(np.diag(R))).T


@twin(pca_ftl=[{"k": 1}, {"k": 3}])
def pca_ftl(X, y, *, k=1):
    """Warmuth & Kuzmin (2008), Sec. 1: play the top-k eigenvectors of sum_{s<t} x_s x_s'
    (the first k standard basis vectors before any row)."""
    d = X.shape[1]
    C, U, margins, updated = np.zeros((d, d)), np.eye(k, d), [], []
    for x in X:
        margins.append(_loss(x, U))
        updated.append(bool(x.any()))        # a zero row leaves C, hence the leader, as is
        if x.any():
            C = C + np.outer(x, x)
            _, vectors = np.linalg.eigh(C)
            U = vectors[:, ::-1][:, :k].T
    return result(margins, updated)


@twin(oja=[{"k": 2}, {"k": 1, "eta": 0.5, "schedule": "constant"},
           {"k": 3, "schedule": "sqrt", "seed": 4}])
def oja(X, y, *, k=1, eta=1.0, schedule="inverse", seed=0):
    """Oja (1992), Eq. 6, orthonormalised: U <- orth(U + eta_t (U x) x')."""
    d = X.shape[1]
    U = _orthonormal(np.random.default_rng(seed).standard_normal((k, d)))
    margins, updated = [], []
    for t, x in enumerate(X, start=1):
        margins.append(_loss(x, U))
        updated.append(bool((U @ x).any()))  # U x = 0: a zero step
        if updated[-1]:
            rate = {"constant": eta, "sqrt": eta / np.sqrt(t), "inverse": eta / t}[schedule]
            U = _orthonormal(U + rate * np.outer(U @ x, x))
    return result(margins, updated, w=U)


@twin(brand_svd=[{"k": 2}, {"k": 2, "max_rank": 3}, {"k": 1, "max_rank": 2, "truncate": False},
                 {"k": 2, "threshold": 1.0}])
def brand_svd(X, y, *, k=1, threshold=0.0, max_rank=None, truncate=True):
    """Brand (ECCV 2002), Sec. 2-3: append x to the thin SVD U' diag(S) V' by the SVD of
    the small core [[diag(S), m], [0, rho]], m = U x, rho = ||x - U'm|| (the residual taken
    twice, as the compiled rule does); grow while rho > threshold under the ceiling."""
    d = X.shape[1]
    ceiling = d if max_rank is None else min(max_rank, d)
    U, S, margins, updated = np.zeros((0, d)), np.zeros(0), [], []
    for x in X:
        r = S.size
        margins.append(_loss(x, U[:min(k, r)]))
        m = U @ x
        p = x - U.T @ m
        again = U @ p
        m, p = m + again, p - U.T @ again
        rho = float(np.linalg.norm(p))
        if not x.any():
            updated.append(False)
            continue
        grow = rho > threshold and r < d and (r < ceiling or truncate)
        if not grow and r == 0:
            updated.append(False)
            continue
        if grow:
            K = np.block([[np.diag(S), m[:, None]], [np.zeros((1, r)), np.array([[rho]])]])
            basis = np.vstack([U, p / rho])
        else:
            K = np.hstack([np.diag(S), m[:, None]])
            basis = U
        G, values, _ = np.linalg.svd(K)
        keep = min(values.size, ceiling)
        U, S = (G.T @ basis)[:keep], values[:keep]
        updated.append(True)
    return result(margins, updated)


def _capped_shift(values, m):
    """The tau with sum_i clip(values_i - tau, 0, 1) = m, exactly: the sum is piecewise
    linear and decreasing in tau, with breakpoints at the values and the values less 1."""
    points = np.sort(np.concatenate([values, values - 1.0]))
    total = lambda tau: float(np.clip(values - tau, 0.0, 1.0).sum())   # noqa: E731
    for a, b in zip(points[:-1], points[1:]):
        fa, fb = total(a), total(b)
        if fa >= m >= fb:
            return a if fa == fb else a + (fa - m) * (b - a) / (fa - fb)
    raise AssertionError("no shift")


@twin(pca_gd=[{"k": 1}, {"k": 2, "eta": 0.05}])
def pca_gd(X, y, *, k=1, eta=0.1):
    """Warmuth & Kuzmin (2008), Sec. 3; Nie, Kotlowski & Warmuth (2016), Sec. 3: the loss
    x' W x of W in {0 <= W <= I, tr W = d - k}, W_1 = ((d - k)/d) I, then W <- the Frobenius
    projection of W - eta x x' on that set (its eigenvalues shifted and clipped to [0, 1])."""
    d = X.shape[1]
    m = d - k
    W, margins, updated = np.eye(d) * (m / d), [], []
    for x in X:
        margins.append(float(x @ W @ x))
        updated.append(bool(x.any()))
        if x.any():
            values, vectors = np.linalg.eigh(W - eta * np.outer(x, x))
            clipped = np.clip(values - _capped_shift(values, m), 0.0, 1.0)
            W = vectors @ np.diag(clipped) @ vectors.T
    return result(margins, updated, w=W)


def _capped(weights, cap):
    """The relative-entropy projection of a probability vector on {w <= cap}: the largest
    entries set to cap, the rest rescaled to make up the mass, the fewest capped that keep
    every rescaled one at most cap (Warmuth & Kuzmin 2008, Sec. 3.2)."""
    order = np.argsort(weights)[::-1]
    for capped in range(weights.size):
        rest = order[capped:]
        scaled = weights[rest] * (1.0 - capped * cap) / weights[rest].sum()
        if scaled.max() <= cap * (1 + 1e-12):
            out = np.full(weights.size, cap)
            out[rest] = scaled
            return out
    raise AssertionError("no capping")


@twin(pca_meg=[{"k": 1, "eta": 0.2}, {"k": 2, "eta": 0.3}])
def pca_meg(X, y, *, k=1, eta=1.0):
    """Warmuth & Kuzmin (2008), Sec. 3-4: the density matrix D_1 = I/d; suffer
    m x' D x (m = d - k); D <- cap_{1/m}(exp(log D - eta x x') / tr), the matrix logarithm and
    exponential taken through numpy's eigh in the linear domain (the rule keeps log D)."""
    d = X.shape[1]
    m = d - k
    D, margins, updated = np.eye(d) / d, [], []
    for x in X:
        margins.append(float(m * (x @ D @ x)))
        updated.append(bool(x.any()))
        if x.any():
            values, vectors = np.linalg.eigh(D)
            log_D = vectors @ np.diag(np.log(values)) @ vectors.T
            values, vectors = np.linalg.eigh(log_D - eta * np.outer(x, x))
            weights = np.exp(values - values.max())
            D = vectors @ np.diag(_capped(weights / weights.sum(), 1.0 / m)) @ vectors.T
    return result(margins, updated, w=m * D)
