"""First-order linear learners: the Perceptron, PA, ROMMA and ALMA, each as
published (LIBOL's variants where they differ)."""

from __future__ import annotations

import math

import numpy as np

from naive.registry import result, twin


@twin(perceptron=[{}, {"eta": 0.3}, {"libol": True}])
def perceptron(X, y, *, eta=1.0, libol=False):
    """Rosenblatt 1958: if y <w, x> <= 0 (or sign(0) = +1 is wrong, LIBOL): w += eta y x."""
    w = np.zeros(X.shape[1])
    margins, updated = [], []
    for x, label in zip(X, y):
        p = w @ x
        margins.append(p)
        if libol:
            mistake = (1.0 if p >= 0 else -1.0) != label
        else:
            mistake = label * p <= 0
        if mistake:
            w = w + eta * label * x
        updated.append(mistake)
    return result(margins, updated, w=w)


def pa_tau(loss, sq, C, variant):
    """Crammer et al. 2006, eqs. (6), (7), (8)."""
    if variant == "pa":
        return loss / sq
    if variant == "pa1":
        return min(C, loss / sq)
    return loss / (sq + 1.0 / (2.0 * C))


@twin(pa=[{"variant": "pa"}, {"variant": "pa1", "C": 0.05}, {"variant": "pa2", "C": 0.5}])
def pa(X, y, *, C=1.0, variant="pa1"):
    """Crammer et al. 2006, Fig. 1: loss = max(0, 1 - y w.x); w += tau y x."""
    w = np.zeros(X.shape[1])
    margins, updated = [], []
    for x, label in zip(X, y):
        p = w @ x
        margins.append(p)
        loss = max(0.0, 1.0 - label * p)
        if loss > 0 and (x @ x > 0 or variant == "pa2"):
            w = w + pa_tau(loss, x @ x, C, variant) * label * x
        updated.append(loss > 0)
    return result(margins, updated, w=w)


@twin(pa_regression=[{"variant": "pa", "epsilon": 0.0}, {"variant": "pa1", "C": 0.1},
                    {"variant": "pa2", "C": 2.0, "epsilon": 0.3}])
def pa_regression(X, y, *, C=1.0, variant="pa1", epsilon=0.1):
    """Crammer et al. 2006, Sec. 4: loss = max(0, |w.x - y| - eps); w += sign(y - w.x) tau x."""
    w = np.zeros(X.shape[1])
    margins, updated = [], []
    for x, target in zip(X, y):
        p = w @ x
        margins.append(p)
        loss = max(0.0, abs(p - target) - epsilon)
        if loss > 0 and (x @ x > 0 or variant == "pa2"):
            w = w + np.sign(target - p) * pa_tau(loss, x @ x, C, variant) * x
        updated.append(loss > 0)
    return result(margins, updated, w=w)


def _romma_step(w, x, label, libol):
    """Li & Long 2002: the shortest w' with w'.w >= ||w||^2 and y w'.x >= 1 (the new
    constraint alone when w = 0 or when it implies the first). LIBOL: w' = y x from w = 0, and
    always the two-constraint solution otherwise. Returns (w', stepped)."""
    X2, W2, p = x @ x, w @ w, w @ x
    if X2 == 0:
        return w, False
    if W2 == 0:
        return (label * x if libol else label * x / X2), True
    if label * p >= W2 * X2 and not libol:
        return label * x / X2, True
    D = W2 * X2 - p * p
    if D <= 0:
        return w, False
    return (W2 * X2 - label * p) / D * w + W2 * (label - p) / D * x, True


@twin(romma=[{}, {"libol": True}])
def romma(X, y, *, libol=False):
    """Li & Long 2002, ROMMA: the ROMMA step on a mistake (LIBOL: sign(0) = +1)."""
    w = np.zeros(X.shape[1])
    margins, updated = [], []
    for x, label in zip(X, y):
        p = w @ x
        margins.append(p)
        mistake = (1.0 if p >= 0 else -1.0) != label if libol else label * p <= 0
        stepped = False
        if mistake:
            w, stepped = _romma_step(w, x, label, libol)
        updated.append(stepped)
    return result(margins, updated, w=w)


@twin(aromma=[{}, {"libol": True}])
def aromma(X, y, *, libol=False):
    """Li & Long 2002, aggressive ROMMA: the ROMMA step whenever y w.x < 1."""
    w = np.zeros(X.shape[1])
    margins, updated = [], []
    for x, label in zip(X, y):
        p = w @ x
        margins.append(p)
        stepped = False
        if label * p < 1:
            w, stepped = _romma_step(w, x, label, libol)
        updated.append(stepped)
    return result(margins, updated, w=w)


SQRT2 = math.sqrt(2)


@twin(alma=[{}, {"alpha": 0.7, "eta": 1.0}, {"libol": True}, {"alpha": 1.0, "B": 2.0},
           {"libol": True, "p": 6.0, "alpha": 0.7, "eta": 0.5}])
def alma(X, y, *, alpha=0.9, B=None, eta=SQRT2, p=2.0, libol=False):
    """Gentile 2001, ALMA_p with p = 2: with x^ = x/||x|| (LIBOL: x^ = x), k = 1, 2, ...:
    if y w.x^ <= (1 - alpha) B/sqrt(k) (LIBOL: <), w = (w + C/sqrt(k) y x^) / max(1, ||.||),
    the paper's C being eta. LIBOL's ALMA.m with its p: gamma_k = B sqrt(p-1)/sqrt(k),
    eta_k = C/(sqrt(p-1) sqrt(k))."""
    B = (1.0 / alpha if B is None else B) * math.sqrt(p - 1)
    eta = eta / math.sqrt(p - 1)
    w, k = np.zeros(X.shape[1]), 1
    margins, updated = [], []
    for x, label in zip(X, y):
        margins.append(w @ x)
        gamma_k = B / math.sqrt(k)
        if libol:
            xh, fired = x, label * (w @ x) < (1 - alpha) * gamma_k
        elif np.linalg.norm(x) > 0:
            xh = x / np.linalg.norm(x)
            fired = label * (w @ xh) <= (1 - alpha) * gamma_k
        else:
            xh, fired = x, False
        if fired:
            w = w + eta / math.sqrt(k) * label * xh
            w = w / max(1.0, np.linalg.norm(w))
            k += 1
        updated.append(fired)
    return result(margins, updated, w=w, s=np.array([float(k)]))


@twin(ftrl_proximal=[{}, {"loss": "hinge", "eta": 0.5, "l1": 0.3, "l2": 0.0},
                     {"loss": "squared", "eta": 0.1, "delta": 0.5, "l1": 0.05, "l2": 2.0}])
def ftrl_proximal(X, y, *, loss="logistic", eta=0.05, delta=1.0, l1=0.0, l2=1.0):
    """McMahan et al. 2013, Algorithm 1, over all coordinates at once (a zero x_i leaves
    z_i, n_i and w_i as they were): sigma = (sqrt(n + g^2) - sqrt(n)) / eta,
    z += g - sigma w, n += g^2, w = 0 where |z| <= l1, else
    -(z - sgn(z) l1) / ((delta + sqrt(n)) / eta + l2)."""
    d = X.shape[1]
    z, n, w = np.zeros(d), np.zeros(d), np.zeros(d)
    margins, updated = [], []
    for x, label in zip(X, y):
        p = w @ x
        margins.append(p)
        gradient = {"hinge": -label if label * p < 1 else 0.0,
                    "logistic": -label / (1.0 + np.exp(label * p)),
                    "squared": p - label}[loss]
        if gradient != 0.0:
            g = gradient * x
            sigma = (np.sqrt(n + g * g) - np.sqrt(n)) / eta
            z = z + g - sigma * w
            n = n + g * g
            w = np.where(np.abs(z) <= l1, 0.0,
                         -(z - np.sign(z) * l1) / ((delta + np.sqrt(n)) / eta + l2))
        updated.append(gradient != 0.0)
    return result(margins, updated, w=w, A=np.vstack([z, n]))
