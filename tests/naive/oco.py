"""Online convex optimisation: projections, OGD (also on the classification and regression
losses), FTL, FTRL, Hedge, EG, ONS and the weighted majority, over losses given as the rows."""

from __future__ import annotations

import itertools
import math

import numpy as np

from naive.registry import result, twin


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
    return result(margins, updated, w=w)


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
    return result(margins, [True] * len(X), w=w, A=S[None, :])


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
    return result(margins, [True] * len(X), w=w, A=G[None, :])


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
    return result(margins, [True] * len(X), w=w, A=L[None, :])


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
    return result(margins, updated, w=w, A=G[None, :])


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
    return result(margins, [True] * len(X), w=w, A=M)


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
    return result(margins, [True] * len(X), w=w, A=L[None, :])
