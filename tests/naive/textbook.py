"""The textbook's forms (Sugiyama 2015, *Introduction to Statistical Machine Learning*,
ch. 31): PA and AROW in their lambda form, as the book's listings write them."""

from __future__ import annotations

import numpy as np


def sugiyama_pa_classification(X, y, *, lam, hinge=False):
    """Sugiyama, *Introduction to Statistical Machine Learning* (2015), ch. 31 (passive-
    aggressive classification), in its lambda form:
    squared hinge: theta += y max(0, 1 - m) / (||x||^2 + lambda) x;
    hinge:         theta += y min(1/lambda, max(0, 1 - m) / ||x||^2) x."""
    theta = np.zeros(X.shape[1])
    for x, label in zip(X, y):
        m = label * (theta @ x)
        if hinge:
            theta = theta + label * min(1.0 / lam, max(0.0, 1.0 - m) / (x @ x)) * x
        else:
            theta = theta + label * max(0.0, 1.0 - m) / (x @ x + lam) * x
    return theta


def sugiyama_pa_regression(X, y, *, lam, l1=False, theta0=None):
    """Sugiyama ch. 31, passive-aggressive regression in lambda form:
    l2: theta += (y - theta.x) / (||x||^2 + lambda) x;
    l1: theta += sign(y - theta.x) min(1/lambda, |y - theta.x| / ||x||^2) x.
    ``theta0``: the start (the listing of Fig. 31.5 draws it with randn); default 0."""
    theta = np.zeros(X.shape[1]) if theta0 is None else np.array(theta0, dtype=float)
    for x, target in zip(X, y):
        r = target - theta @ x
        if l1:
            theta = theta + np.sign(r) * min(1.0 / lam, abs(r) / (x @ x)) * x
        else:
            theta = theta + r / (x @ x + lam) * x
    return theta


def sugiyama_arow_classification(X, y, *, lam):
    """Sugiyama ch. 31 (listing of Fig. 31.7), AROW classification with mu = 0, S = I:
    on y mu.x < 1, with z = S x and b = x.z + lambda:
    mu += y (1 - y mu.x) z / b;  S -= z z' / b."""
    mu, S = np.zeros(X.shape[1]), np.eye(X.shape[1])
    for x, label in zip(X, y):
        z = S @ x
        b = x @ z + lam
        m = label * (mu @ x)
        if m < 1:
            mu = mu + label * (1 - m) * z / b
            S = S - np.outer(z, z) / b
    return mu


def sugiyama_arow_regression(X, y, *, lam, mu0, passes=1):
    """Sugiyama ch. 31 (listing of Fig. 31.9), AROW regression from mean ``mu0`` (the listing
    draws it with randn) and S = I, ``passes`` times over the rows in their order: with
    Sk = S k and b = k.Sk + lambda:  mu += Sk (y - k.mu) / b;  S -= Sk Sk' / b."""
    mu, S = np.array(mu0, dtype=float), np.eye(X.shape[1])
    for _ in range(passes):
        for k, target in zip(X, y):
            Sk = S @ k
            b = k @ Sk + lam
            mu = mu + Sk * (target - k @ mu) / b
            S = S - np.outer(Sk, Sk) / b
    return mu
