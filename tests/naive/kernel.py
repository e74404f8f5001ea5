"""Kernel learners: the kernel Perceptron, kernel PA, kernel RLS, NORMA and the budget
learners (budget Perceptron, Forgetron), each over an explicit support set."""

from __future__ import annotations

import math

import numpy as np

from naive.first_order import pa_tau
from naive.registry import result, twin


def _kernel(x, z, *, kernel_type="gaussian", h=1.0, degree=2, offset=1.0):
    """Gaussian exp(-||x - z||^2 / (2 h^2)), polynomial (x.z + offset)^degree, linear x.z."""
    if kernel_type == "gaussian":
        return math.exp(-float(np.sum((x - z) ** 2)) / (2.0 * h * h))
    if kernel_type == "polynomial":
        return float(x @ z + offset) ** degree
    return float(x @ z)


def _expansion(support, coefs, x, kernel):
    """f(x) = sum_i c_i k(x_i, x), in slot order (empty slots have c_i = 0)."""
    return sum((c * _kernel(sv, x, **kernel) for sv, c in zip(support, coefs) if c != 0),
               0.0)


def _kernel_result(margins, updated, support, coefs, d, **extra):
    return result(margins, updated, w=np.array(coefs, dtype=float),
                   A=np.array(support, dtype=float).reshape(len(support), d), **extra)


_KERNELS = [{}, {"h": 0.5}, {"kernel_type": "polynomial", "degree": 3, "offset": 0.5},
            {"kernel_type": "linear"}]


@twin(kernel_perceptron=_KERNELS)
def kernel_perceptron(X, y, **kernel):
    """Freund & Schapire 1999, Sec. 3: on y f(x) <= 0, x joins with coefficient y."""
    support, coefs, margins, updated = [], [], [], []
    for x, label in zip(X, y):
        p = _expansion(support, coefs, x, kernel)
        margins.append(p)
        mistake = label * p <= 0
        if mistake and _kernel(x, x, **kernel) > 0:
            support.append(x)
            coefs.append(label)
        updated.append(mistake)
    return _kernel_result(margins, updated, support, coefs, X.shape[1])


def _kernel_pa(X, y, *, C, variant, epsilon, regression, **kernel):
    """Crammer et al. 2006, Sec. 7: PA with f(x) and k(x, x) for w.x and ||x||^2."""
    support, coefs, margins, updated = [], [], [], []
    for x, target in zip(X, y):
        p = _expansion(support, coefs, x, kernel)
        margins.append(p)
        if regression:
            loss, direction = max(0.0, abs(p - target) - epsilon), np.sign(target - p)
        else:
            loss, direction = max(0.0, 1.0 - target * p), target
        kxx = _kernel(x, x, **kernel)
        if loss > 0 and kxx > 0:
            support.append(x)
            coefs.append(direction * pa_tau(loss, kxx, C, variant))
        updated.append(loss > 0)
    return _kernel_result(margins, updated, support, coefs, X.shape[1])


@twin(kernel_pa=[{"variant": "pa"}, {"variant": "pa1", "C": 0.05, "h": 0.5},
                 {"variant": "pa2", "C": 0.5, "kernel_type": "polynomial", "degree": 2},
                 {"variant": "pa1", "kernel_type": "linear"}])
def kernel_pa(X, y, *, C=1.0, variant="pa1", **kernel):
    return _kernel_pa(X, y, C=C, variant=variant, epsilon=0.0, regression=False, **kernel)


@twin(kernel_pa_regression=[{"variant": "pa", "epsilon": 0.0},
                            {"variant": "pa1", "C": 0.1, "h": 2.0},
                            {"variant": "pa2", "C": 2.0, "epsilon": 0.3,
                             "kernel_type": "polynomial", "degree": 2, "offset": 0.0}])
def kernel_pa_regression(X, y, *, C=1.0, variant="pa1", epsilon=0.1, **kernel):
    return _kernel_pa(X, y, C=C, variant=variant, epsilon=epsilon, regression=True, **kernel)


@twin(kernel_rls=[{}, {"kernel_type": "linear", "r": 2.0},
                  {"kernel_type": "polynomial", "degree": 2, "a": 0.05}])
def kernel_rls(X, y, *, r=1.0, a=1.0, **kernel):
    """Kernel ridge regression refitted every round, as a batch formula (not the recursion):
    f_t(x) = a k_t(x)' (a K_t + r I)^-1 y_t; coefficients a (a K + r I)^-1 y."""
    n = len(X)
    K = np.array([[_kernel(u, v, **kernel) for v in X] for u in X])
    margins = [a * K[t, :t] @ np.linalg.solve(a * K[:t, :t] + r * np.eye(t), y[:t]) if t
               else 0.0 for t in range(n)]
    Q = np.linalg.inv(a * K + r * np.eye(n))
    return _kernel_result(margins, [True] * n, list(X), a * Q @ y, X.shape[1], Q=Q)


@twin(norma=[{}, {"eta": 0.5, "lam": 0.1, "tau": 20, "h": 0.5},
             {"tau": 7, "rho": 0.5, "kernel_type": "polynomial", "degree": 2},
             {"eta": 1.0, "lam": 0.0, "tau": 1000, "kernel_type": "linear"}])
def norma(X, y, *, eta=0.1, lam=0.01, rho=1.0, tau=100, **kernel):
    """Kivinen, Smola, Williamson 2004, eq. 9 + truncation: f <- (1 - eta lam) f +
    [y f(x) < rho] eta y k(x, .), keeping the terms of the last tau rounds (a ring of tau
    slots: round t writes slot t mod tau)."""
    d = X.shape[1]
    support, coefs = [np.zeros(d) for _ in range(tau)], [0.0] * tau
    margins, updated = [], []
    for t, (x, label) in enumerate(zip(X, y)):
        p = _expansion(support[:min(t, tau)], coefs, x, kernel)
        margins.append(p)
        coefs = [(1.0 - eta * lam) * c for c in coefs]
        fired = label * p < rho
        if fired:
            support[t % tau], coefs[t % tau] = x, eta * label
        else:
            coefs[t % tau] = 0.0
        updated.append(fired)
    return _kernel_result(margins, updated, support, coefs, d)


class _Lehmer:
    """x <- 48271 x mod (2^31 - 1); uniform draws on {0..n-1} by rejection (as the kernel)."""

    M = 2**31 - 1

    def __init__(self, seed):
        # started from the seed's SeedSequence (its first 64-bit word), not the seed itself
        word = np.random.SeedSequence(seed).generate_state(1, np.uint64)[0]
        self.state = 1 + int(word) % (self.M - 1)

    def index(self, n):
        while True:
            self.state = self.state * 48271 % self.M
            if self.state - 1 < (self.M - 1) // n * n:
                return (self.state - 1) % n


@twin(budget_perceptron=[{"budget": 10}, {"budget": 25, "seed": 7, "h": 0.5},
                         {"budget": 5, "seed": 3, "kernel_type": "polynomial"},
                         {"budget": 1000, "kernel_type": "linear"}])
def budget_perceptron(X, y, *, budget=100, seed=0, **kernel):
    """Cavallanti, Cesa-Bianchi, Gentile 2007, Fig. 1: the kernel Perceptron; on a mistake
    with B vectors stored, a uniformly drawn one is replaced by x_t (coefficient y_t)."""
    d, rng = X.shape[1], _Lehmer(seed)
    support, coefs = [np.zeros(d) for _ in range(budget)], [0.0] * budget
    n, margins, updated = 0, [], []
    for x, label in zip(X, y):
        p = _expansion(support[:n], coefs, x, kernel)
        margins.append(p)
        mistake = label * p <= 0
        if mistake and _kernel(x, x, **kernel) > 0:
            slot = n if n < budget else rng.index(budget)
            n = max(n, slot + 1)
            support[slot], coefs[slot] = x, label
        updated.append(mistake)
    return _kernel_result(margins, updated, support, coefs, d)


def _forgetron_phi(sigma, mu, Q, M):
    """Dekel et al. 2008: the largest phi in (0, 1] with Psi(sigma phi, phi mu) + Q <= 15/32 M,
    Psi(l, m) = l^2 + 2 l - 2 l m: 1 if phi = 1 qualifies, else the root in (0, 1)."""
    def excess(phi):
        lam = sigma * phi
        return lam * lam + 2 * lam - 2 * lam * phi * mu + Q - 15 / 32 * M
    if excess(1.0) <= 0:
        return 1.0
    roots = np.roots([sigma ** 2 - 2 * sigma * mu, 2 * sigma, Q - 15 / 32 * M])
    return float(min(r.real for r in roots if abs(r.imag) < 1e-12 and 0 < r.real < 1))


@twin(forgetron=[{"budget": 10}, {"budget": 25, "h": 0.5},
                 {"budget": 8, "kernel_type": "polynomial", "degree": 2, "offset": 0.2},
                 {"budget": 5000, "kernel_type": "linear"}])
def forgetron(X, y, *, budget=100, **kernel):
    """The self-tuned Forgetron (Dekel, Shalev-Shwartz, Singer 2008): Perceptron step; with
    B + 1 vectors, f' <- phi f' and the oldest is removed, Q += Psi(sigma phi, y_r f''(x_r))."""
    d = X.shape[1]
    support, coefs = [], []
    Q = M = 0.0
    margins, updated = [], []
    for x, label in zip(X, y):
        p = _expansion(support, coefs, x, kernel)
        margins.append(p)
        mistake = label * p <= 0
        if mistake:
            M += 1
            if _kernel(x, x, **kernel) > 0:
                support.append(x)
                coefs.append(label)
            if len(support) > budget:
                sigma, y_r = abs(coefs[0]), np.sign(coefs[0])
                mu = y_r * _expansion(support, coefs, support[0], kernel)
                phi = _forgetron_phi(sigma, mu, Q, M)
                coefs = [phi * c for c in coefs]
                lam, mu2 = sigma * phi, y_r * _expansion(support, coefs, support[0], kernel)
                Q += lam * lam + 2 * lam - 2 * lam * mu2
                support, coefs = support[1:], coefs[1:]
        updated.append(mistake)
    pad = budget + 1 - len(support)
    return _kernel_result(margins, updated, support + [np.zeros(d)] * pad, coefs + [0.0] * pad, d)
