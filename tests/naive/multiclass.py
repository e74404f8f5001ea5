"""Multiclass learners (task "multiclass"): transcriptions of Crammer & Singer's
ultraconservative updates, the max-score PA forms, OGD, ROMMA on Kesler's construction, and
LIBOL's multiclass AROW / CW / SCW-I / SCW-II, as their sources (and LIBOL's M_*.m) write
them. Labels are class codes; the classes are their distinct values, ascending, as
olbench.run takes them. The margins returned are the multiclass margins s_y - max_{r != y} s_r.

Scores are exact sums (math.fsum) row by row, so that two equal rows of W score exactly
alike whatever their place in memory: ties for the top score are exact and frequent, and
which class wins one is part of each rule (the lowest index).
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np

from naive.registry import result, twin


def _scores(W, x):
    return np.array([math.fsum(W[r] * x) for r in range(W.shape[0])])


def _runner_up(F, label):
    others = F.copy()
    others[label] = -np.inf
    return int(np.argmax(others))        # the first of the largest


def _rounds(X, y):
    """Yield (x, class index) with the classes of the codes y; collect the margins,
    the predicted classes and the updates of each round."""
    classes = np.unique(y)
    return zip(X, np.searchsorted(classes, y)), len(classes)


def _record(log, F, label):
    log["margins"].append(F[label] - F[_runner_up(F, label)])
    log["predicted"].append(int(np.argmax(F)))


def _new_log():
    return {"margins": [], "predicted": [], "updated": []}


def _done(log, **state):
    margins, updated, state = result(log["margins"], log["updated"], **state)
    state["predicted"] = np.array(log["predicted"])
    return margins, updated, state


@twin(multiclass_perceptron=[{}, {"scheme": "uniform"}, {"scheme": "proportional"},
                             {"libol": True}, {"scheme": "uniform", "libol": True},
                             {"scheme": "proportional", "libol": True}])
def multiclass_perceptron(X, y, *, scheme="max", libol=False):
    """Crammer & Singer 2003, Fig. 2 with the max / uniform / proportional tau of Sec. 4;
    libol: M_PerceptronM/U/S.m (update on argmax != y, errorful set s_r > s_y)."""
    rounds, k = _rounds(X, y)
    W = np.zeros((k, X.shape[1]))
    log = _new_log()
    for x, label in rounds:
        F = _scores(W, x)
        _record(log, F, label)
        if libol:
            fired = int(np.argmax(F)) != label
            E = [r for r in range(k) if F[r] > F[label]]
        else:
            E = [r for r in range(k) if r != label and F[r] >= F[label]]
            fired = bool(E)
        if fired:
            W[label] = W[label] + x
            if scheme == "max":
                W[_runner_up(F, label)] -= x
            elif E:
                excess = sum(F[r] - F[label] for r in E)
                for r in E:
                    share = 1.0 / len(E) if scheme == "uniform" or excess == 0 else \
                        (F[r] - F[label]) / excess
                    W[r] = W[r] - share * x
        log["updated"].append(fired)
    return _done(log, w=W)


def _pair_step(W, F, label, x, tau):
    rival = _runner_up(F, label)
    W[label] = W[label] + tau * x
    W[rival] = W[rival] - tau * x


@twin(multiclass_pa=[{"variant": "pa"}, {"variant": "pa1", "C": 0.05},
                     {"variant": "pa2", "C": 0.5}])
def multiclass_pa(X, y, *, C=1.0, variant="pa1"):
    """Crammer et al. 2006, Sec. 7 (max-score): tau = l / (2 ||x||^2) (PA), min(C, .)
    (PA-I), l / (2 ||x||^2 + 1/(2C)) (PA-II); LIBOL's M_PA*.m."""
    rounds, k = _rounds(X, y)
    W = np.zeros((k, X.shape[1]))
    log = _new_log()
    for x, label in rounds:
        F = _scores(W, x)
        _record(log, F, label)
        loss = max(0.0, 1.0 - log["margins"][-1])
        if loss > 0 and x @ x > 0:
            tau = {"pa": loss / (2 * (x @ x)), "pa1": min(C, loss / (2 * (x @ x))),
                   "pa2": loss / (2 * (x @ x) + 1 / (2 * C))}[variant]
            _pair_step(W, F, label, x, tau)
        log["updated"].append(loss > 0)
    return _done(log, w=W)


@twin(multiclass_ogd=[{}, {"eta": 0.3, "schedule": "constant"}])
def multiclass_ogd(X, y, *, eta=1.0, schedule="sqrt"):
    """M_OGD.m: on the multiclass hinge loss > 0, W_y += eta_t x, W_r -= eta_t x,
    eta_t = eta / sqrt(t)."""
    rounds, k = _rounds(X, y)
    W = np.zeros((k, X.shape[1]))
    log = _new_log()
    for t, (x, label) in enumerate(rounds, start=1):
        F = _scores(W, x)
        _record(log, F, label)
        fired = log["margins"][-1] < 1
        if fired:
            _pair_step(W, F, label, x, eta / math.sqrt(t) if schedule == "sqrt" else eta)
        log["updated"].append(fired)
    return _done(log, w=W, s=np.array([float(X.shape[0])]))


def _romma(X, y, *, aggressive, libol):
    rounds, k = _rounds(X, y)
    W = np.zeros((k, X.shape[1]))
    log = _new_log()
    for x, label in rounds:
        F = _scores(W, x)
        _record(log, F, label)
        m = log["margins"][-1]
        if aggressive:
            fired = m < 1
        else:
            fired = int(np.argmax(F)) != label if libol else m <= 0
        if fired:
            fired = _romma_step(W, F, label, x, m, libol)
        log["updated"].append(fired)
    return _done(log, w=W)


def _romma_step(W, F, label, x, m, libol):
    """Li & Long's step on the Kesler vector z = (e_y - e_r) (x) x, ||z||^2 = 2 ||x||^2."""
    rival = _runner_up(F, label)
    z = np.zeros_like(W)
    z[label], z[rival] = x, -x
    X2, N = 2 * (x @ x), float(np.sum(W * W))
    if X2 == 0:
        return False
    if N == 0:
        W += z if libol else z / X2
        return True
    if m >= N * X2 and not libol:
        W[:] = z / X2
        return True
    D = N * X2 - m * m
    if D <= 0:
        return False
    c, d = (N * X2 - m) / D, N * (1 - m) / D
    if libol:           # M_ROMMA.m: W = W*c_t on a copy, rows y and r written back
        W[label] *= c
        W[rival] *= c
    else:
        W *= c
    W += d * z
    return True


@twin(multiclass_romma=[{}, {"libol": True}])
def multiclass_romma(X, y, *, libol=False):
    return _romma(X, y, aggressive=False, libol=libol)


@twin(multiclass_aromma=[{}, {"libol": True}])
def multiclass_aromma(X, y, *, libol=False):
    return _romma(X, y, aggressive=True, libol=libol)


def _covariance(X, y, *, kind, r=1.0, confidence=0.75, C=1.0, a=1.0, diagonal=False):
    """M_AROW.m, M_CW.m, M_SCW1.m, M_SCW2.m, line by line (Sigma shared by the classes;
    diagonal: the diagonal of the same downdate)."""
    rounds, k = _rounds(X, y)
    d = X.shape[1]
    W, sigma = np.zeros((k, d)), a * np.eye(d)
    phi = NormalDist().inv_cdf(confidence)
    psi = 1 + phi ** 2 / 2
    log = _new_log()
    for x, label in rounds:
        F = _scores(W, x)
        _record(log, F, label)
        m = log["margins"][-1]
        v = x @ sigma @ x
        if kind == "arow":
            fired = m < 1
            beta = 1 / (v + r)
            alpha = (1 - m) * beta
        else:
            fired = m < phi * math.sqrt(v)
            if fired and kind == "scw2":
                n = 2 * v + 1 / (2 * C)
                alpha = max(0.0, (-(2 * m * n + phi ** 2 * m * v) + math.sqrt(
                    phi ** 4 * m ** 2 * v ** 2 + 8 * n * v * phi ** 2 * (n + v * phi ** 2)))
                    / (2 * (n ** 2 + n * v * phi ** 2)))
            elif fired:
                alpha = max(0.0, (-m * psi + math.sqrt(m ** 2 * psi ** 2 - m ** 2 * psi
                                                       + 2 * v * phi ** 2 * psi))
                            / (2 * v * psi))
                if kind == "scw":
                    alpha = min(alpha, C)
            if fired:
                u = (-alpha * v * phi + math.sqrt(alpha ** 2 * v ** 2 * phi ** 2 + 8 * v)) ** 2 / 8
                beta = alpha * phi / (math.sqrt(2 * u) + alpha * phi * v)
        if fired:
            rival = _runner_up(F, label)
            W[label] = W[label] + alpha * (sigma @ x)
            W[rival] = W[rival] - alpha * (sigma @ x)
            sigma = sigma - beta * np.outer(sigma @ x, sigma @ x)
            if diagonal:
                sigma = np.diag(np.diag(sigma))
        log["updated"].append(fired)
    return _done(log, w=W, A=np.diag(sigma)[None, :] if diagonal else sigma)


@twin(multiclass_arow=[{}, {"r": 0.1, "a": 2.0}, {"r": 0.5, "diagonal": True}])
def multiclass_arow(X, y, **params):
    return _covariance(X, y, kind="arow", **params)


@twin(multiclass_cw=[{"confidence": 0.6}, {"confidence": 0.7, "diagonal": True}])
def multiclass_cw(X, y, **params):
    return _covariance(X, y, kind="cw", **params)


@twin(multiclass_scw=[{}, {"C": 0.1, "confidence": 0.9}, {"C": 0.5, "diagonal": True}])
def multiclass_scw(X, y, **params):
    return _covariance(X, y, kind="scw", **params)


@twin(multiclass_scw2=[{}, {"C": 0.1, "confidence": 0.9}, {"C": 0.5, "diagonal": True}])
def multiclass_scw2(X, y, **params):
    return _covariance(X, y, kind="scw2", **params)


@twin(one_vs_rest=[{}, {"binary": "pa", "binary_params": {"variant": "pa1", "C": 0.5}},
                   {"binary": "arow", "binary_params": {"r": 0.5}}])
def one_vs_rest(X, y, *, binary="perceptron", binary_params=None):
    """Rifkin & Klautau 2004: the binary twin of ``binary`` run once per class on the labels
    +1 (that class) and -1 (the others); the multiclass record from their margins."""
    from naive.registry import TWINS

    classes = np.unique(y)
    runs = [TWINS[binary](X, np.where(y == c, 1.0, -1.0), **(binary_params or {}))
            for c in classes]
    scores = np.column_stack([margins for margins, _, _ in runs])
    index = np.searchsorted(classes, y)
    log = _new_log()
    for F, label in zip(scores, index):
        _record(log, F, label)
    log["updated"] = np.any([updated for _, updated, _ in runs], axis=0)
    return _done(log, w=np.array([state["w"] for _, _, state in runs]))
