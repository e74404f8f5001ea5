"""Plain-numpy transcriptions of every published update rule: the oracle for the compiled rules
(olbench.rules).

Each function takes dense X (n x d) and labels/targets y, runs the rule row by row exactly as
written in its source, and returns (margins, updated, state) where state has the keys of the
compiled learner's state that carry meaning (``w``, and ``A`` for covariance learners).
Written for obviousness, not speed: matrix products, np.outer, no in-place tricks.

Each twin is registered with :func:`twin` under the registry key(s) of the learner(s) it
transcribes, with the hyper-parameter settings the exactness suite checks it under (they also
drive the registry-wide bound checks): a new learner's test material lives in this one file.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import numpy as np

#: registry key -> plain-numpy twin (tests fail for a registered learner missing here)
TWINS: dict[str, Callable] = {}
#: registry key -> hyper-parameter settings the compiled learner is checked under
SETTINGS: dict[str, list[dict]] = {}


def twin(**settings_by_key: list[dict]):
    """Register the decorated function as the twin of each key, with its settings."""
    def register(fn: Callable) -> Callable:
        for key, settings in settings_by_key.items():
            TWINS[key], SETTINGS[key] = fn, settings
        return fn
    return register


def _result(margins, updated, **state):
    return np.array(margins), np.array(updated, dtype=bool), state


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
    return _result(margins, updated, w=w)


def _pa_tau(loss, sq, C, variant):
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
            w = w + _pa_tau(loss, x @ x, C, variant) * label * x
        updated.append(loss > 0)
    return _result(margins, updated, w=w)


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
            w = w + np.sign(target - p) * _pa_tau(loss, x @ x, C, variant) * x
        updated.append(loss > 0)
    return _result(margins, updated, w=w)


@twin(ogd=[{"loss": "hinge"}, {"loss": "logistic", "eta": 0.5, "schedule": "constant"},
          {"loss": "squared", "eta": 0.05, "radius": 1.5},
          {"loss": "hinge", "eta": 2.0, "radius": 0.7},
          {"loss": "linear", "radius": 1.0}, {"loss": "quadratic", "eta": 0.5, "radius": 0.8}])
def ogd(X, y, *, loss="hinge", eta=1.0, schedule="sqrt", radius=None):
    """Zinkevich 2003: w_{t+1} = P(w_t - eta_t grad l_t(w_t)), eta_t = eta or eta/sqrt(t)."""
    w = np.zeros(X.shape[1])
    margins, updated = [], []
    for t, (x, label) in enumerate(zip(X, y), start=1):
        p = w @ x
        margins.append(oco_loss(loss, w, x) if loss in ("linear", "quadratic") else p)
        if loss in ("linear", "quadratic"):
            eta_t = eta / math.sqrt(t) if schedule == "sqrt" else eta
            w = project_onto(w - eta_t * oco_gradient(loss, w, x), "ball", radius or np.inf)
            updated.append(True)
            continue
        if loss == "hinge":
            g = -label if label * p < 1 else 0.0
        elif loss == "logistic":
            g = -label / (1.0 + math.exp(label * p))
        else:
            g = p - label
        eta_t = eta / math.sqrt(t) if schedule == "sqrt" else eta
        if g != 0:
            w = w - eta_t * g * x
            if radius is not None and np.linalg.norm(w) > radius:
                w = w * (radius / np.linalg.norm(w))
        updated.append(g != 0)
    return _result(margins, updated, w=w)


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
    return _result(margins, updated, w=mu, A=A)


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
    return _result(margins, [True] * len(margins), w=mu, A=A)


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
    return _result(margins, updated, w=w)


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
    return _result(margins, updated, w=w)


SQRT2 = math.sqrt(2)


@twin(alma=[{}, {"alpha": 0.7, "eta": 1.0}, {"libol": True}, {"alpha": 1.0, "B": 2.0}])
def alma(X, y, *, alpha=0.9, B=None, eta=SQRT2, libol=False):
    """Gentile 2001, ALMA_p with p = 2: with x^ = x/||x|| (LIBOL: x^ = x), k = 1, 2, ...:
    if y w.x^ <= (1 - alpha) B/sqrt(k) (LIBOL: <), w = (w + C/sqrt(k) y x^) / max(1, ||.||),
    the paper's C being eta."""
    B = 1.0 / alpha if B is None else B
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
    return _result(margins, updated, w=w, s=np.array([float(k)]))


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
    return _result(margins, updated, w=sigma @ v, A=sigma)

# ----------------------------------------------------------------------- second order (issue 12)
def _gaussian_start(d, a):
    return np.zeros(d), a * np.eye(d)


def _gaussian_result(margins, updated, mu, sigma, diagonal):
    return _result(margins, updated, w=mu, A=np.diag(sigma)[None, :] if diagonal else sigma)


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




# ----------------------------------------------------------------------- textbook forms
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


# --------------------------------------------------------------------------- OCO
def project_onto(v, domain, radius):
    """Euclidean projections: the ball's rescaling, the box's clipping, and the simplex by
    Duchi et al. 2008, Fig. 1 (sort, find rho, subtract theta)."""
    if domain == "ball":
        norm = np.linalg.norm(v)
        return v * (radius / norm) if norm > radius else v.copy()
    if domain == "box":
        return np.clip(v, -radius, radius)
    if domain == "l1":               # Duchi et al. 2008, Sec. 4: the simplex of radius z on |v|
        if np.abs(v).sum() <= radius:
            return v.copy()
        mu = np.sort(np.abs(v))[::-1]
        cumulative = np.cumsum(mu)
        j = np.arange(1, len(v) + 1)
        rho = j[mu - (cumulative - radius) / j > 0][-1]
        return np.sign(v) * np.maximum(np.abs(v) - (cumulative[rho - 1] - radius) / rho, 0.0)
    mu = np.sort(v)[::-1]
    cumulative = np.cumsum(mu)
    j = np.arange(1, len(v) + 1)
    rho = j[mu - (cumulative - 1) / j > 0][-1]
    return np.maximum(v - (cumulative[rho - 1] - 1) / rho, 0.0)


def oco_loss(loss, w, x):
    """f_t(w) = <x, w> (linear) or (1/2)||w - x||^2 (quadratic)."""
    return w @ x if loss == "linear" else 0.5 * (w - x) @ (w - x)


def oco_gradient(loss, w, x):
    return x if loss == "linear" else w - x


@twin(ftl=[{}, {"domain": "simplex"}, {"domain": "box", "radius": 2.0},
           {"loss": "quadratic", "radius": 0.5}, {"loss": "quadratic", "domain": "simplex"},
           {"domain": "l1", "radius": 2.0}, {"loss": "quadratic", "domain": "l1", "radius": 0.3}])
def ftl(X, y, *, loss="linear", domain="ball", radius=1.0):
    """w_{t+1} = argmin_K sum_{s<=t} f_s: linear -> a minimiser of <S, w> (uniform over tied
    simplex vertices), quadratic -> P_K(mean of the rows)."""
    d = X.shape[1]
    w, S = project_onto(np.zeros(d), domain, radius), np.zeros(d)
    margins = []
    for t, x in enumerate(X, start=1):
        margins.append(oco_loss(loss, w, x))
        S = S + x
        if loss == "quadratic":
            w = project_onto(S / t, domain, radius)
        elif domain == "ball":
            w = -radius * S / np.linalg.norm(S) if np.linalg.norm(S) > 0 else np.zeros(d)
        elif domain == "box":
            w = -radius * np.sign(S)
        elif domain == "l1":
            leaders = (np.abs(S) == np.abs(S).max()) & (np.abs(S) > 0)
            w = -radius * np.sign(S) * leaders / max(leaders.sum(), 1)
        else:
            leaders = S == S.min()
            w = leaders / leaders.sum()
    return _result(margins, [True] * len(X), w=w, A=S[None, :])


@twin(ftrl=[{}, {"eta": 0.3, "schedule": "sqrt"}, {"domain": "simplex", "eta": 2.0},
            {"domain": "box", "radius": 0.5, "schedule": "sqrt"},
            {"regularizer": "entropic", "domain": "simplex", "schedule": "sqrt"},
            {"loss": "quadratic", "eta": 0.5}, {"domain": "l1", "radius": 0.4}])
def ftrl(X, y, *, loss="linear", domain="ball", radius=1.0, eta=1.0, schedule="constant",
         regularizer="quadratic"):
    """w_{t+1} = argmin_K <G_t, w> + psi(w)/a_{t+1}: P_K(-a G) or softmax(-a G)."""
    d = X.shape[1]
    w, G = project_onto(np.zeros(d), domain, radius), np.zeros(d)
    margins = []
    for t, x in enumerate(X, start=1):
        margins.append(oco_loss(loss, w, x))
        G = G + oco_gradient(loss, w, x)
        a = eta / math.sqrt(t + 1) if schedule == "sqrt" else eta
        if regularizer == "entropic":
            e = np.exp(-a * (G - G.min()))
            w = e / e.sum()
        else:
            w = project_onto(-a * G, domain, radius)
    return _result(margins, [True] * len(X), w=w, A=G[None, :])


@twin(hedge=[{}, {"schedule": "fixed", "eta": 0.7}, {"schedule": "doubling"},
             {"schedule": "horizon", "horizon": 400}])
def hedge(X, y, *, eta=1.0, schedule="anytime", horizon=1000):
    """Freund & Schapire 1997 / Cesa-Bianchi & Lugosi 2006, Sec. 2.1-2.3: weights
    exp(-eta_t L_{t-1}) normalised; doubling restarts at rounds 1, 2, 4, 8, ..."""
    N = X.shape[1]
    L, w = np.zeros(N), np.full(N, 1.0 / N)
    margins = []
    for t, x in enumerate(X, start=1):
        margins.append(w @ x)
        L = L + x
        nxt = t + 1
        if schedule == "anytime":
            rate = math.sqrt(8 * math.log(N) / nxt)
        elif schedule == "doubling":
            epoch_start = 2 ** int(math.floor(math.log2(nxt)))
            if nxt == epoch_start:
                L = np.zeros(N)
            rate = math.sqrt(8 * math.log(N) / epoch_start)
        elif schedule == "horizon":
            rate = math.sqrt(8 * math.log(N) / horizon)
        else:
            rate = eta
        e = np.exp(-rate * (L - L.min()))
        w = e / e.sum()
    return _result(margins, [True] * len(X), w=w, A=L[None, :])


@twin(eg=[{}, {"eta": 0.3}, {"loss": "quadratic", "eta": 0.5}])
def eg(X, y, *, loss="linear", eta=1.0, U=None):
    """Kivinen & Warmuth 1997: EG w <- w r / (w . r), r = exp(-eta g); EG+- (U given):
    w+ <- U w+ r / Z, w- <- U w- / r / Z, r = exp(-eta U g), Z = sum(w+ r + w- / r).
    Kept in the log domain (log w += -eta g, then normalised with the largest log-weight
    shifted to 0), so that a weight below e^-745 is not rounded to 0 for good; the state
    compared is w and the sum of the gradients."""
    d = X.shape[1]
    if U is None:
        log_w = np.zeros(d)                                 # uniform
    else:
        log_plus, log_minus = np.zeros(d), np.zeros(d)      # U/(2d) each, w = 0
    w, G = (np.full(d, 1.0 / d) if U is None else np.zeros(d)), np.zeros(d)
    margins, updated = [], []
    for x in X:
        margins.append(oco_loss(loss, w, x))
        g = oco_gradient(loss, w, x)
        updated.append(bool(np.any(g != 0)))
        if not updated[-1]:
            continue
        G = G + g
        if U is None:
            log_w = log_w - eta * g
            e = np.exp(log_w - log_w.max())
            w = e / e.sum()
        else:
            log_plus, log_minus = log_plus - eta * U * g, log_minus + eta * U * g
            top = max(log_plus.max(), log_minus.max())
            plus, minus = np.exp(log_plus - top), np.exp(log_minus - top)
            Z = (plus + minus).sum()
            w = U * plus / Z - U * minus / Z
    return _result(margins, updated, w=w, A=G[None, :])


@twin(egpm=[{}, {"U": 2.0, "eta": 0.2}, {"loss": "quadratic", "U": 0.5}])
def egpm(X, y, *, loss="linear", eta=1.0, U=1.0):
    """EG+- with its default total weight U = 1 (see :func:`eg`)."""
    return eg(X, y, loss=loss, eta=eta, U=U)


def project_in_norm(M, y, radius):
    """argmin_{||w|| <= r} (w - y)' M (w - y): y inside the ball; else the KKT point
    w = (M + lam I)^{-1} M y with ||w|| = r, lam found by Brent's method on linear solves."""
    from scipy.optimize import brentq

    if np.linalg.norm(y) <= radius:
        return y.copy()
    eye = np.eye(len(y))
    excess = lambda lam: np.linalg.norm(np.linalg.solve(M + lam * eye, M @ y)) - radius  # noqa: E731
    lam = brentq(excess, 0.0, np.linalg.norm(M @ y) / radius, xtol=1e-300, rtol=1e-15,
                 maxiter=500)
    return np.linalg.solve(M + lam * eye, M @ y)


def project_on_simplex_in_norm(M, y):
    """argmin_{w in simplex} (w - y)' M (w - y) by enumeration: for every support S, the
    minimiser on {sum w = 1, w = 0 off S} in closed form; the answer is the one that is
    feasible (w_S >= 0) with nonnegative multipliers off S (the unique KKT point)."""
    d = len(y)
    b = M @ y
    for size in range(1, d + 1):
        for support in itertools.combinations(range(d), size):
            S = list(support)
            z = np.linalg.solve(M[np.ix_(S, S)], np.column_stack([b[S], np.ones(size)]))
            nu = (z[:, 0].sum() - 1) / z[:, 1].sum()
            w = np.zeros(d)
            w[S] = z[:, 0] - nu * z[:, 1]
            mu = M @ w - b + nu
            if w.min() >= -1e-12 and np.delete(mu, S).min(initial=0.0) >= -1e-9 * (1 + abs(nu)):
                return w
    raise AssertionError("no KKT point found")


@twin(ons=[{}, {"loss": "linear", "radius": 2.0}, {"G": 3.25, "exp_concavity": 1 / 3.25 ** 2},
           {"domain": "simplex"}, {"domain": "simplex", "loss": "linear", "G": 5.0}])
def ons(X, y, *, loss="quadratic", radius=1.0, exp_concavity=0.25, G=2.0, domain="ball"):
    """Hazan, Agarwal & Kale 2007, Algorithm 2: A_t = eps I + sum g g', y = w - A_t^{-1} g /
    gamma, w = P^{A_t}(y); gamma = min(1/(4 G D), alpha)/2, eps = 1/(gamma D)^2, D = 2 r
    (ball) or sqrt 2 (simplex, w_1 uniform)."""
    d = X.shape[1]
    D = 2 * radius if domain == "ball" else math.sqrt(2)
    gamma = 0.5 * min(1 / (4 * G * D), exp_concavity)
    M = np.eye(d) / (gamma * D) ** 2
    w = np.zeros(d) if domain == "ball" else np.full(d, 1.0 / d)
    margins = []
    for x in X:
        margins.append(oco_loss(loss, w, x))
        g = oco_gradient(loss, w, x)
        M = M + np.outer(g, g)
        target = w - np.linalg.solve(M, g) / gamma
        w = (project_in_norm(M, target, radius) if domain == "ball" else
             project_on_simplex_in_norm(M, target))
    return _result(margins, [True] * len(X), w=w, A=M)


@twin(weighted_majority=[{}, {"beta": 0.1}, {"beta": 0.9}])
def weighted_majority(X, y, *, beta=0.5):
    """Littlestone & Warmuth 1994, WM: weights beta^(mistakes of each expert); the weighted
    majority errs when the wrong experts hold at least half the weight (ties within 1e-12
    count as mistakes); every wrong expert's weight is multiplied by beta."""
    L = np.zeros(X.shape[1])
    v = beta ** (L - L.min())
    w = v / v.sum()
    margins = []
    for x in X:
        margins.append(1.0 if w @ x >= 0.5 - 1e-12 else 0.0)
        L = L + x
        v = beta ** (L - L.min())
        w = v / v.sum()
    return _result(margins, [True] * len(X), w=w, A=L[None, :])


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


# ----------------------------------------------------------------------- kernel learners (issue 13)
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
    return _result(margins, updated, w=np.array(coefs, dtype=float),
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
            coefs.append(direction * _pa_tau(loss, kxx, C, variant))
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
