"""The sparse online learners (issue 27), eager: every coordinate's regularised step taken on
every round, over the whole vector, as the papers write them. The compiled rules apply the
same steps lazily (olbench.rules.lazy); equality to 1e-12 is what shows the laziness exact."""

from __future__ import annotations

import math

import numpy as np

from naive.registry import result, twin


def loss_gradient(loss, label, p):
    """dl/dp: hinge max(0, 1 - y p), logistic log(1 + exp(-y p)), squared (1/2)(p - y)^2."""
    if loss == "hinge":
        return -label if label * p < 1 else 0.0
    if loss == "logistic":
        return -label / (1.0 + math.exp(label * p))
    return p - label


def soft_threshold(v, amount):
    return np.sign(v) * np.maximum(0.0, np.abs(v) - amount)


@twin(truncated_gradient=[
    {}, {"eta": 0.3, "gravity": 0.05, "theta": 0.2, "period": 3},
    {"loss": "logistic", "eta": 0.5, "schedule": "sqrt", "gravity": 0.02, "period": 2},
    {"loss": "squared", "eta": 0.05, "gravity": 0.01, "theta": 0.5},
    {"eta": 0.3, "theta": 0.1, "period": 4, "truncation": "rounding"}])
def truncated_gradient(X, y, *, loss="hinge", eta=0.1, schedule="constant", gravity=0.01,
                       theta=None, period=1, truncation="gravity"):
    """Langford, Li & Zhang 2009, Sec. 3.3: w <- T1(w - eta_t g x, eta_t K gravity, theta)
    when K divides t, else the gradient step alone; rounding (Sec. 3.1): w_j <- 0 where
    |w_j| <= theta, every K rounds."""
    theta = math.inf if theta is None else theta
    w = np.zeros(X.shape[1])
    margins, updated = [], []
    for t, (x, label) in enumerate(zip(X, y), start=1):
        p = w @ x
        margins.append(p)
        step = eta / math.sqrt(t) if schedule == "sqrt" else eta
        gradient = loss_gradient(loss, label, p)
        w = w - step * gradient * x
        if t % period == 0:
            within = np.abs(w) <= theta
            if truncation == "rounding":
                w = np.where(within, 0.0, w)
            else:
                w = np.where(within, soft_threshold(w, step * period * gravity), w)
        updated.append(gradient != 0.0)
    return result(margins, updated, w=w)


@twin(fobos=[{}, {"loss": "logistic", "eta": 0.5, "schedule": "constant", "l1": 0.02},
             {"eta": 0.3, "l1": 0.0, "l2": 0.5}, {"eta": 0.4, "l1": 0.05, "l2": 0.2},
             {"loss": "squared", "eta": 0.05, "l1": 0.01, "l2": 0.1},
             # P = 11^t passes 1e100 at t = 97: the lazy rule rescales its potentials
             {"eta": 1.0, "schedule": "constant", "l1": 0.001, "l2": 10.0}])
def fobos(X, y, *, loss="hinge", eta=0.1, schedule="sqrt", l1=0.01, l2=0.0):
    """Duchi & Singer 2009, the forward-backward step with r = l1 ||w||_1 + (l2/2) ||w||^2:
    w <- sgn(v) max(0, |v| - eta_t l1) / (1 + eta_t l2), v = w - eta_t g x."""
    w = np.zeros(X.shape[1])
    margins, updated = [], []
    for t, (x, label) in enumerate(zip(X, y), start=1):
        p = w @ x
        margins.append(p)
        step = eta / math.sqrt(t) if schedule == "sqrt" else eta
        gradient = loss_gradient(loss, label, p)
        w = soft_threshold(w - step * gradient * x, step * l1) / (1.0 + step * l2)
        updated.append(gradient != 0.0)
    return result(margins, updated, w=w)


@twin(rda=[{}, {"loss": "logistic", "eta": 0.5, "l1": 0.05},
           {"eta": 0.2, "l1": 0.02, "enhancement": 0.5},
           {"loss": "squared", "eta": 0.05, "l1": 0.1}])
def rda(X, y, *, loss="hinge", eta=0.1, l1=0.01, enhancement=0.0):
    """Xiao 2010, L1-RDA (gamma = 1/eta, rho = enhancement): w_{t+1} = 0 where
    |gbar_t| <= lambda_t = l1 + rho gamma / sqrt(t), else
    -(sqrt(t)/gamma)(gbar_t - lambda_t sgn(gbar_t)); w_1 = 0."""
    gamma = 1.0 / eta
    w, total = np.zeros(X.shape[1]), np.zeros(X.shape[1])
    margins, updated = [], []
    for t, (x, label) in enumerate(zip(X, y), start=1):
        p = w @ x
        margins.append(p)
        gradient = loss_gradient(loss, label, p)
        total = total + gradient * x
        average = total / t
        threshold = l1 + enhancement * gamma / math.sqrt(t)
        w = np.where(np.abs(average) <= threshold, 0.0,
                     -(math.sqrt(t) / gamma) * (average - threshold * np.sign(average)))
        updated.append(gradient != 0.0)
    return result(margins, updated, w=w)


@twin(adagrad=[{}, {"loss": "logistic", "eta": 0.5, "delta": 0.1, "l1": 0.01},
               {"eta": 0.3, "l1": 0.02, "composite": "dual_averaging"},
               {"loss": "squared", "eta": 0.2, "delta": 0.0, "l1": 0.05},
               {"loss": "logistic", "eta": 1.0, "delta": 0.0, "l1": 0.05,
                "composite": "dual_averaging"}])
def adagrad(X, y, *, loss="hinge", eta=0.1, delta=1.0, l1=0.0, composite="mirror_descent"):
    """Duchi, Hazan & Singer 2011, Sec. 5.1, diagonal, with H = delta + sqrt(sum g^2):
    mirror descent w <- sgn(v) [|v| - eta l1 / H]_+ with v = w - eta g / H; dual averaging
    w = -sgn(gbar) (eta t / H) [|gbar| - l1]_+. Where H = 0 (delta = 0, no gradient yet) the
    coordinate is 0."""
    d = X.shape[1]
    w, squares, total = np.zeros(d), np.zeros(d), np.zeros(d)
    margins, updated = [], []
    for t, (x, label) in enumerate(zip(X, y), start=1):
        p = w @ x
        margins.append(p)
        gradient = loss_gradient(loss, label, p)
        g = gradient * x
        squares = squares + g * g
        total = total + g
        H = delta + np.sqrt(squares)
        safe = np.where(H > 0, H, 1.0)
        if composite == "mirror_descent":
            v = w - eta * g / safe
            w = np.where(H > 0, soft_threshold(v, eta * l1 / safe), 0.0 if l1 > 0 else w)
        else:
            average = total / t
            w = np.where(H > 0, -np.sign(average) * (eta * t / safe)
                         * np.maximum(0.0, np.abs(average) - l1), 0.0)
        updated.append(gradient != 0.0)
    return result(margins, updated, w=w)


@twin(pegasos=[{}, {"l2": 0.1, "project": False}, {"loss": "logistic", "l2": 0.05},
               {"loss": "squared", "l2": 0.5}])
def pegasos(X, y, *, loss="hinge", l2=0.01, project=True):
    """Shalev-Shwartz, Singer & Srebro 2007, Fig. 1 with k = 1: eta_t = 1/(l2 t),
    w <- (1 - eta_t l2) w - eta_t g x, then w <- min(1, (1/sqrt(l2)) / ||w||) w."""
    w = np.zeros(X.shape[1])
    margins, updated = [], []
    for t, (x, label) in enumerate(zip(X, y), start=1):
        p = w @ x
        margins.append(p)
        step = 1.0 / (l2 * t)
        gradient = loss_gradient(loss, label, p)
        w = (1.0 - step * l2) * w - step * gradient * x
        if project:
            norm = np.linalg.norm(w)
            if norm > 1.0 / math.sqrt(l2):
                w = w * (1.0 / math.sqrt(l2)) / norm
        updated.append(gradient != 0.0)
    return result(margins, updated, w=w)
