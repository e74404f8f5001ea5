"""Second-order linear learners: AROW (and RLS), the second-order Perceptron, and the
confidence-weighted family (CW, SCW, NHERD, NAROW, IELLIP): a mean and a covariance."""

from __future__ import annotations

import math

import numpy as np

from naive.registry import result, twin


@twin(arow=[{"r": 1.0}, {"r": 0.1, "a": 2.0}, {"r": 0.5, "diagonal": True}])
def arow(X, y, *, r=1.0, a=1.0, diagonal=False):
    """Crammer, Kulesza, Dredze 2009, Fig. 1 (diagonal: keep diag of the full update)."""
    d = X.shape[1]
    mu, sigma = np.zeros(d), a * np.eye(d)
    margins, updated = [], []
    for x, label in zip(X, y):
        m = mu @ x
        margins.append(m)
        fired = label * m < 1
        if fired:
            v = x @ sigma @ x
            if v > 0:
                beta = 1.0 / (v + r)
                alpha = max(0.0, 1.0 - label * m) * beta
                mu = mu + alpha * label * (sigma @ x)
                sigma = sigma - beta * np.outer(sigma @ x, sigma @ x)
                if diagonal:
                    sigma = np.diag(np.diag(sigma))
        updated.append(fired)
    A = np.diag(sigma)[None, :] if diagonal else sigma
    return result(margins, updated, w=mu, A=A)


@twin(arow_regression=[{"r": 1.0}, {"r": 0.3, "diagonal": True}], rls=[{"r": 2.0, "a": 0.5}])
def arow_regression(X, y, *, r=1.0, a=1.0, diagonal=False):
    """Vaits & Crammer 2011 (AROWR) = RLS: mu += (y - m) Sigma x / (x'Sigma x + r), and
    Sigma -= Sigma x x' Sigma / (x'Sigma x + r)."""
    d = X.shape[1]
    mu, sigma = np.zeros(d), a * np.eye(d)
    margins = []
    for x, target in zip(X, y):
        m = mu @ x
        margins.append(m)
        beta = 1.0 / (x @ sigma @ x + r)
        mu = mu + (target - m) * beta * (sigma @ x)
        sigma = sigma - beta * np.outer(sigma @ x, sigma @ x)
        if diagonal:
            sigma = np.diag(np.diag(sigma))
    A = np.diag(sigma)[None, :] if diagonal else sigma
    return result(margins, [True] * len(margins), w=mu, A=A)


@twin(sop=[{}, {"ridge": 0.3}, {"libol": True}, {"ridge": 2.0, "libol": True}])
def sop(X, y, *, ridge=1.0, libol=False):
    """Cesa-Bianchi, Conconi, Gentile 2005, Fig. 1 (their a is ridge): predict with
    w_t = (a I + S S' + x x')^-1 v; on a mistake v += y x and x joins S (LIBOL: x always
    joins S, and sign(0) = +1). State: Sigma = (a I + S S')^-1 and w = Sigma v."""
    d = X.shape[1]
    G, v = ridge * np.eye(d), np.zeros(d)           # G = a I + S S'
    margins, updated = [], []
    for x, label in zip(X, y):
        p = np.linalg.solve(G + np.outer(x, x), v) @ x
        margins.append(p)
        mistake = (1.0 if p >= 0 else -1.0) != label if libol else label * p <= 0
        if mistake:
            v = v + label * x
        if mistake or libol:
            G = G + np.outer(x, x)
        updated.append(mistake)
    sigma = np.linalg.inv(G)
    return result(margins, updated, w=sigma @ v, A=sigma)


def _gaussian_start(d, a):
    return np.zeros(d), a * np.eye(d)


def _gaussian_result(margins, updated, mu, sigma, diagonal):
    return result(margins, updated, w=mu, A=np.diag(sigma)[None, :] if diagonal else sigma)


def _probit(eta):
    from scipy.stats import norm

    return float(norm.ppf(eta))


def _cw_alpha_stdev(m, v, phi):
    """Crammer, Dredze, Pereira 2008 (exact convex CW): alpha_i of the stdev constraint."""
    psi, xi = 1 + phi ** 2 / 2, 1 + phi ** 2
    return max(0.0, (-m * psi + math.sqrt(m ** 2 * phi ** 4 / 4 + v * phi ** 2 * xi)) / (v * xi))


def _scw2_alpha(m, v, phi, C, libol):
    """Wang, Zhao, Hoi 2012, SCW-II; ``libol``: LIBOL's SCW2.m as typed (v*2, phi*2)."""
    n = v + 1 / (2 * C)
    if libol:
        gamma = math.sqrt(phi ** 4 * m ** 2 * v * 2 + 4 * n * v * phi ** 2 * (n + v * phi * 2))
    else:
        gamma = phi * math.sqrt(phi ** 2 * m ** 2 * v ** 2 + 4 * n * v * (n + v * phi ** 2))
    return max(0.0, (-(2 * m * n + phi ** 2 * m * v) + gamma) / (2 * (n ** 2 + n * v * phi ** 2)))


def _confidence_weighted(X, y, *, phi, a, diagonal, variance, alpha_of):
    """The CW family's step: on m < phi sqrt(v) (or phi v): mu += alpha y Sigma x and
    Sigma^-1 += c x x' (full), or Sigma_rr^-1 += c x_r^2 (diagonal approximation)."""
    mu, sigma = _gaussian_start(X.shape[1], a)
    margins, updated = [], []
    for x, label in zip(X, y):
        p = mu @ x
        margins.append(p)
        m, v = label * p, x @ sigma @ x
        fired = (phi * v - m > 0) if variance else (phi * math.sqrt(v) - m > 0)
        if fired:
            if variance:   # Dredze et al. 2008, Alg. 1: gamma_i, Sigma^-1 += 2 alpha phi x x'
                b = 1 + 2 * phi * m
                alpha = max(0.0, (-b + math.sqrt(b ** 2 - 8 * phi * (m - phi * v)))
                            / (4 * phi * v))
                c = 2 * alpha * phi
                beta = c / (1 + c * v)
            else:          # Crammer et al. 2008: u_i, beta_i
                alpha = alpha_of(m, v)
                u = 0.25 * (-alpha * v * phi + math.sqrt(alpha ** 2 * v ** 2 * phi ** 2
                                                         + 4 * v)) ** 2
                beta = alpha * phi / (math.sqrt(u) + v * alpha * phi)
                c = alpha * phi / math.sqrt(u)
            mu = mu + alpha * label * (sigma @ x)
            if diagonal:
                sigma = np.diag(1 / (1 / np.diag(sigma) + c * x ** 2))
            else:
                sigma = sigma - beta * np.outer(sigma @ x, sigma @ x)
        updated.append(fired)
    return _gaussian_result(margins, updated, mu, sigma, diagonal)


@twin(cw=[{}, {"confidence": 0.9, "a": 0.5}, {"form": "variance"}, {"diagonal": True},
          {"form": "variance", "diagonal": True, "confidence": 0.8}])
def cw(X, y, *, confidence=0.7, a=1.0, form="stdev", diagonal=False):
    phi = _probit(confidence)
    return _confidence_weighted(X, y, phi=phi, a=a, diagonal=diagonal,
                                variance=form == "variance",
                                alpha_of=lambda m, v: _cw_alpha_stdev(m, v, phi))


@twin(scw=[{}, {"C": 0.05, "confidence": 0.9}, {"C": 0.5, "diagonal": True}])
def scw(X, y, *, C=1.0, confidence=0.75, a=1.0, diagonal=False):
    """SCW-I: CW's alpha capped at C."""
    phi = _probit(confidence)
    return _confidence_weighted(X, y, phi=phi, a=a, diagonal=diagonal, variance=False,
                                alpha_of=lambda m, v: min(C, _cw_alpha_stdev(m, v, phi)))


@twin(scw2=[{}, {"C": 0.1, "confidence": 0.7}, {"libol": True}, {"C": 2.0, "diagonal": True}])
def scw2(X, y, *, C=1.0, confidence=0.9, a=1.0, diagonal=False, libol=False):
    phi = _probit(confidence)
    return _confidence_weighted(X, y, phi=phi, a=a, diagonal=diagonal, variance=False,
                                alpha_of=lambda m, v: _scw2_alpha(m, v, phi, C, libol))


@twin(nherd=[{}, {"C": 0.3, "a": 2.0}, {"diagonal": True}, {"diagonal": True, "C": 2.0,
                                                            "diagonal_rule": "exact"},
             {"diagonal": True, "diagonal_rule": "drop", "C": 0.5}])
def nherd(X, y, *, C=1.0, a=1.0, diagonal=False, diagonal_rule="project"):
    """Crammer & Lee 2010: mu += max(0, 1 - m)/(v + 1/C) y Sigma x,
    Sigma = (I + C Sigma x x')^-1 Sigma (I + C x x' Sigma)^-1, or a diagonal form of it."""
    mu, sigma = _gaussian_start(X.shape[1], a)
    margins, updated = [], []
    for x, label in zip(X, y):
        p = mu @ x
        margins.append(p)
        fired = label * p < 1
        if fired:
            v = x @ sigma @ x
            mu = mu + max(0.0, 1 - label * p) / (v + 1 / C) * label * (sigma @ x)
            if not diagonal:
                left = np.linalg.inv(np.eye(len(x)) + C * sigma @ np.outer(x, x))
                sigma = left @ sigma @ left.T
            elif diagonal_rule == "exact":
                s = np.diag(sigma)
                sigma = np.diag(s / (1 + C * s * x ** 2) ** 2)
            elif diagonal_rule == "project":
                sigma = np.diag(1 / (1 / np.diag(sigma) + (C ** 2 * v + 2 * C) * x ** 2))
            else:
                full = sigma - (C ** 2 * v + 2 * C) / (1 + C * v) ** 2 * np.outer(sigma @ x,
                                                                                 sigma @ x)
                sigma = np.diag(np.diag(full))
        updated.append(fired)
    return _gaussian_result(margins, updated, mu, sigma, diagonal)


@twin(narow=[{}, {"b": 0.3, "a": 2.0}, {"b": 5.0}, {"libol": True}, {"libol": True, "b": 0.3}])
def narow(X, y, *, b=1.0, a=1.0, libol=False):
    """Orabona & Crammer 2010 as DOGMA's narow_train.m runs it: theta += y x,
    A^-1 -= A^-1 x x' A^-1 / (r + chi), w = A^-1 theta, predicting r/(chi + r) w.x.
    ``libol``: LIBOL's NAROW.m, AROW's step with r = r_t and the prediction w.x."""
    d = X.shape[1]
    theta, sigma = np.zeros(d), a * np.eye(d)
    w = np.zeros(d)
    margins, updated = [], []
    for x, label in zip(X, y):
        chi = x @ sigma @ x
        if libol:
            r = chi / (b * chi - 1) if chi > 1 / b else math.inf
            p = w @ x
        elif chi >= 1 / b:
            r = chi / (b * chi - 1)
            p = r * (w @ x) / (chi + r)
        else:
            r, p = math.inf, w @ x
        margins.append(p)
        fired = label * p < 1
        if fired and libol:
            beta = 1 / (chi + r)
            w = w + max(0.0, 1 - label * p) * beta * label * (sigma @ x)
            sigma = sigma - beta * np.outer(sigma @ x, sigma @ x)
        elif fired:
            theta = theta + label * x
            if r < math.inf:
                sigma = sigma - np.outer(sigma @ x, sigma @ x) / (r + chi)
            w = sigma @ theta
        updated.append(fired)
    return _gaussian_result(margins, updated, w, sigma, False)


@twin(iellip=[{}, {"decay": 0.9, "c": 0.5, "a": 2.0}, {"libol": True}])
def iellip(X, y, *, a=1.0, decay=0.3, c=0.1, libol=False):
    """Yang, Jin, Ye 2009 as LIBOL's IELLIP.m: on a mistake, g = y x / sqrt(v),
    w += (1 - m)/sqrt(v) Sigma g, Sigma = (Sigma - c_t Sigma g g' Sigma)/(1 - c_t);
    c_t *= decay (LIBOL's b)."""
    w, sigma = _gaussian_start(X.shape[1], a)
    c_t = c
    margins, updated = [], []
    for x, label in zip(X, y):
        p = w @ x
        margins.append(p)
        mistake = (1.0 if p >= 0 else -1.0) != label if libol else label * p <= 0
        v = x @ sigma @ x
        if mistake and v != 0:
            g = label * x / math.sqrt(v)
            w = w + (1 - label * p) / math.sqrt(v) * (sigma @ g)
            sigma = (sigma - c_t * np.outer(sigma @ g, sigma @ g)) / (1 - c_t)
        c_t = c_t * decay
        updated.append(mistake)
    return _gaussian_result(margins, updated, w, sigma, False)
