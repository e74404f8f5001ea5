"""Mistake bounds of the kernel Perceptron family: Novikoff's in the RKHS, and the
self-tuned Forgetron's.

Both compare with a function of the kernel's RKHS: the kernel max-margin comparator
(:class:`~olbench.comparators.kernel_max_margin.KernelMaxMargin`, with the learner's kernel)
supplies the unit-norm f with the largest margin gamma_K and the radius
R_K = max_t sqrt(k(x_t, x_t)) (1 for the Gaussian kernel).

>>> forgetron_radius(100) > 1.1
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from olbench.bounds.core import RunRecord, Skip, theorem
from olbench.losses import mistakes as mistake_flags

KERNEL_KEYS = ("kernel_type", "h", "degree", "offset")


def kernel_max_margin(params: Mapping[str, Any]) -> list[dict]:
    """``needs``: the max-margin function in the RKHS of the learner's own kernel."""
    return [{"key": "kernel_max_margin", **{k: params[k] for k in KERNEL_KEYS if k in params}}]


def _kernel_fit(rec: RunRecord):
    wanted = {k: rec.params[k] for k in KERNEL_KEYS if k in rec.params}
    for fit in rec.fits.values():
        params = getattr(fit, "params", {})
        if params.get("key") == "kernel_max_margin" and all(
                params.get(k) == v for k, v in wanted.items()):
            if not fit.ok:
                raise Skip(fit.skip_reason)
            return fit
    raise Skip("no kernel_max_margin comparator fit with the learner's kernel given")


def forgetron_radius(budget: int) -> float:
    """U = (1/4) sqrt((B + 1) / ln(B + 1)): the largest ||g|| the Forgetron competes with.

    >>> round(forgetron_radius(83), 4)     # sqrt(84 / ln 84) / 4
    1.0885
    """
    return 0.25 * math.sqrt((budget + 1) / math.log(budget + 1))


def forgetron_mistakes(g_norm: float, hinge_on_mistakes: float) -> float:
    """M <= 2 ||g||^2 + 4 sum_{t in J} max(0, 1 - y_t g(x_t)).

    Source: Dekel, Shalev-Shwartz, Singer, SIAM J. Comput. 37(5), 2008, the mistake bound of
    the self-tuned Forgetron. Assumptions: k(x_t, x_t) <= 1 for all t, budget B >= 83, any g in
    the RKHS with ||g|| <= :func:`forgetron_radius` (B); J = the rounds with a mistake
    (y_t f_t(x_t) <= 0); f_0 = 0.

    >>> forgetron_mistakes(1.0, 2.5)
    12.0
    """
    return 2.0 * g_norm ** 2 + 4.0 * hinge_on_mistakes


def forgetron_tightest(unit_margins: np.ndarray, U: float) -> float:
    """min over s in (0, U] of :func:`forgetron_mistakes` for g = s f, ||f|| = 1, where
    ``unit_margins`` are y_t f(x_t) on the mistaken rounds. Any s gives a valid bound: the
    minimum is taken over a grid of (0, U] and the kinks 1/m_t.

    >>> forgetron_tightest(np.array([1.0, 1.0]), U=2.0)    # s = 1: both losses 0
    2.0
    """
    m = np.asarray(unit_margins, float)
    kinks = 1.0 / m[(m > 0) & (m * U >= 1.0)]
    s = np.concatenate([np.linspace(U / 1000, U, 1000), kinks])
    hinge = np.maximum(0.0, 1.0 - s[:, None] * m[None, :]).sum(axis=1)
    return float(np.min(forgetron_mistakes(s, hinge)))


@theorem("kernel_novikoff", "mistakes", needs=kernel_max_margin, formula="(R/γ)²",
         source="Novikoff (1962) in the RKHS; Freund & Schapire (1999), Machine Learning 37, "
                "Sec. 3 (kernel Perceptron)")
def KERNEL_NOVIKOFF(rec: RunRecord):
    """(R_K / gamma_K)^2 with gamma_K the kernel max-margin function's margin and
    R_K = max_t sqrt(k(x_t, x_t)), at every checkpoint (Novikoff's proof in the RKHS: f_0 = 0,
    f += y k(x, .) exactly on the counted mistakes)."""
    fit = _kernel_fit(rec)
    bound = (fit.info["radius"] / fit.info["kernel_gamma"]) ** 2
    mistakes = rec.cum_mistakes()
    return [(T, bound, mistakes[T - 1]) for T in rec.checkpoints]


@theorem("forgetron_mistakes", "mistakes", needs=kernel_max_margin,
         source="Dekel, Shalev-Shwartz, Singer (2008), The Forgetron: a kernel-based "
                "perceptron on a budget, SIAM J. Comput. 37(5): the self-tuned variant's "
                "mistake bound")
def FORGETRON_MISTAKES(rec: RunRecord):
    """The tightest 2 ||g||^2 + 4 sum_J hinge(g) over g = s f_K, s <= U(B), with f_K the unit
    kernel max-margin function; skipped when B < 83 or R_K > 1 (the theorem's assumptions)."""
    budget = int(rec.params["budget"])
    if budget < 83:
        raise Skip(f"budget={budget} < 83: the self-tuned Forgetron's mistake bound (Dekel "
                   f"et al. 2008) assumes B >= 83")
    fit = _kernel_fit(rec)
    if fit.info["radius"] > 1.0 + 1e-12:
        raise Skip(f"max k(x, x) = {fit.info['radius'] ** 2:.4g} > 1: the theorem assumes "
                   f"k(x_t, x_t) <= 1")
    unit = rec.y * np.asarray(fit.margins) * fit.info["kernel_gamma"]
    mistaken = mistake_flags(rec.margins, rec.y, "novikoff")
    mistakes = np.cumsum(mistaken)
    U = forgetron_radius(budget)
    return [(T, forgetron_tightest(unit[:T][mistaken[:T]], U), mistakes[T - 1])
            for T in rec.checkpoints]
