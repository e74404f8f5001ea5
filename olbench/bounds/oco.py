"""Regret bounds of online convex optimisation and prediction with expert advice.

Every bound here is against the best fixed point of the learner's feasible set K on each
prefix (the ``best_point`` comparator, exact), at every checkpoint T, and uses
R = max_t ||x_t||_2 (the stream's radius) as the bound G on the gradients of linear losses.

>>> hedge_fixed(T=100, N=10, eta=0.5) == math.log(10) / 0.5 + 0.5 * 100 / 8
True
>>> hedge_anytime(T=100, N=10) == 2 * math.sqrt(50 * math.log(10)) + math.sqrt(math.log(10) / 8)
True
"""

from __future__ import annotations

import math

import numpy as np

from olbench.bounds.core import RunRecord, Skip, most_regret, theorem


# --------------------------------------------------------------------------- the numbers
def regulariser_range(regularizer: str, domain: str, radius: float, d: int) -> float:
    """max_{u in K} psi(u) - min_{w in K} psi(w) for FTRL's regulariser psi on K.

    Quadratic psi = ||w||^2/2: D^2/2 (ball), d D^2/2 (box), (1 - 1/d)/2 (simplex, whose
    smallest norm is the uniform point's, 1/d); entropic psi = sum w ln w on the simplex: ln d.

    >>> regulariser_range("quadratic", "ball", 2.0, 5), regulariser_range("entropic",
    ...     "simplex", 1.0, 4) == math.log(4)
    (2.0, True)
    """
    if regularizer == "entropic":
        return math.log(d)
    if domain == "simplex":
        return 0.5 * (1.0 - 1.0 / d)
    if domain == "box":
        return 0.5 * d * radius ** 2
    return 0.5 * radius ** 2                # the ball, the l1 ball


def ftrl_regret(T: int, psi_range: float, G: float, eta: float, schedule: str) -> float:
    """FTRL with psi/a_t (a_t = eta or eta/sqrt(t), psi 1-strongly convex) on linear losses
    with ||g_t||_* <= G: regret(u) <= psi_range / a_T + (G^2/2) sum_{t<=T} a_t.

    Source: Orabona (2019), "A Modern Introduction to Online Learning", Corollary 7.9 (with
    his eta_{t-1} = our a_t, the weight of round t's regulariser). For the quadratic
    regulariser the dual norm is ||.||_2; the entropic one is 1-strongly convex w.r.t.
    ||.||_1 on the simplex, so G bounds ||g_t||_inf (R = max ||g_t||_2 is such a bound).
    With a_t = eta/sqrt(t): psi_range sqrt(T)/eta + (G^2 eta/2) sum 1/sqrt(t) <=
    (psi_range/eta + G^2 eta) sqrt(T), i.e. 2 G sqrt(psi_range T) = D G sqrt(2T) for the
    ball at eta = sqrt(psi_range)/G.

    >>> ftrl_regret(4, psi_range=0.5, G=1.0, eta=0.5, schedule="constant")   # 1 + 0.25 * 4
    2.0
    """
    if schedule == "constant":
        return psi_range / eta + 0.5 * G ** 2 * eta * T
    steps = eta / np.sqrt(np.arange(1, T + 1))
    return float(psi_range / steps[-1] + 0.5 * G ** 2 * steps.sum())


def ftl_quadratic(T: int, L: float, B: float) -> float:
    """FTL on f_t(w) = (1/2)||w - z_t||^2 over K, ||z_t|| <= L, max_{w in K} ||w|| <= B:
    regret <= 2 L (B + L) H_T, H_T = sum_{t<=T} 1/t <= 1 + ln T.

    Source: Shalev-Shwartz (2012), Lemma 2.1 (regret <= sum_t f_t(w_t) - f_t(w_{t+1})) and
    Example 2.1, where the unconstrained FTL point is the mean m_t and the bound 4 L^2 (1 +
    ln T) follows; on K, w_t = P_K(m_{t-1}) and projections do not expand distances, so
    ||w_t - w_{t+1}|| <= ||m_{t-1} - m_t|| <= 2L/t, while ||w_t - z_t|| <= B + L: each term
    (1/2)<w_t - w_{t+1}, w_t + w_{t+1} - 2 z_t> is at most (1/2)(2L/t) 2(B + L).

    >>> ftl_quadratic(2, L=1.0, B=1.0)     # 4 * (1 + 1/2)
    6.0
    """
    return 2 * L * (B + L) * float(np.sum(1.0 / np.arange(1, T + 1)))


def ftl_linear(leader_losses: np.ndarray, next_leader_losses: np.ndarray) -> np.ndarray:
    """Follow the Leader's regret bound at every T: sum_{t<=T} f_t(w_t) - f_t(w_{t+1}).

    Source: Shalev-Shwartz (2012), Online Learning and Online Convex Optimization, Lemma 2.1
    (for FTL's iterates w_t and every u: Regret_T(u) <= sum_t f_t(w_t) - f_t(w_{t+1})), the
    "follow the leader, be the leader" lemma of Kalai & Vempala (2005), Efficient algorithms
    for online decision problems, JCSS 71, Sec. 3. ``leader_losses[t]`` = f_t(w_t),
    ``next_leader_losses[t]`` = f_t(w_{t+1}).

    >>> ftl_linear(np.array([0.0, 1.0, 1.0]), np.array([-0.5, -1.0, -1.0])).tolist()
    [0.5, 2.5, 4.5]
    """
    return np.cumsum(np.asarray(leader_losses) - np.asarray(next_leader_losses))


def weighted_majority_mistakes(N: int, m: float, beta: float) -> float:
    """The weighted majority algorithm's mistakes: at most (ln N + m ln(1/beta)) /
    ln(2/(1 + beta)), m the best expert's mistakes (initial weights 1).

    Source: Littlestone & Warmuth (1994), The weighted majority algorithm, Information and
    Computation 108(2), Sec. 2 (WM): a mistake leaves at most (1 + beta)/2 of the total
    weight, and the best expert keeps beta^m of its weight 1.

    >>> weighted_majority_mistakes(N=2, m=1, beta=0.5) == math.log(4) / math.log(4 / 3)
    True
    """
    return (math.log(N) + m * math.log(1.0 / beta)) / math.log(2.0 / (1.0 + beta))


def hedge_fixed(T: int, N: int, eta: float) -> float:
    """Hedge with a fixed eta on losses in [0, 1]: regret <= ln N / eta + eta T / 8.

    Source: Cesa-Bianchi & Lugosi (2006), "Prediction, Learning, and Games", Theorem 2.2 and
    its proof (Hoeffding's lemma); at eta = sqrt(8 ln N / T) it is sqrt((T/2) ln N).

    >>> hedge_fixed(T=8, N=math.e, eta=1.0)
    2.0
    """
    return math.log(N) / eta + eta * T / 8


def hedge_anytime(T: int, N: int) -> float:
    """Hedge with eta_t = sqrt(8 ln N / t) on losses in [0, 1]:
    regret <= 2 sqrt((T/2) ln N) + sqrt(ln N / 8).

    Source: Cesa-Bianchi & Lugosi (2006), Theorem 2.3.

    >>> hedge_anytime(T=2, N=math.e) == 2 + math.sqrt(1 / 8)
    True
    """
    return 2 * math.sqrt(T / 2 * math.log(N)) + math.sqrt(math.log(N) / 8)


def hedge_doubling(T: int, N: int) -> float:
    """Hedge restarted on rounds 2^m with eta = sqrt(8 ln N / 2^m):
    regret <= sum_{m=0}^{M} sqrt((2^m / 2) ln N), M = floor(log2 T) the epoch of round T.

    Source: Cesa-Bianchi & Lugosi (2006), Sec. 2.3 (the doubling trick): on each epoch
    Theorem 2.2 with horizon 2^m gives sqrt((2^m/2) ln N) (also for the unfinished last
    epoch), and the best expert overall is no better on an epoch than that epoch's best.
    Since 2^M <= T, the sum is at most sqrt(2)/(sqrt(2) - 1) sqrt((T/2) ln N).

    >>> hedge_doubling(T=3, N=math.e) == math.sqrt(0.5) + 1.0
    True
    """
    M = int(math.floor(math.log2(T)))
    return float(sum(math.sqrt(2 ** m / 2 * math.log(N)) for m in range(M + 1)))


# --------------------------------------------------------------------------- the theorems
def best_point(p) -> list[dict]:
    """``needs`` of every theorem here: the best point of the learner's own K and loss."""
    return [{"key": "best_point", "loss": p.get("loss", "linear"),
             "domain": p.get("domain", "simplex"), "radius": p.get("radius", 1.0)}]


def ons_point(p) -> list[dict]:
    """``needs`` of ONS's theorem: the best point of its set (ball or simplex)."""
    return [{"key": "best_point", "loss": p["loss"], "domain": p.get("domain", "ball"),
             "radius": p["radius"]}]


def point_fit(rec: RunRecord, want: dict | None = None):
    """The ``best_point`` fit ``want`` (default: of the learner's set and loss)."""
    want = want or best_point(rec.params)[0]
    for f in rec.fits.values():
        if getattr(f, "ok", False) and f.params == want:
            return f
    raise Skip("no best_point comparator of the learner's set and loss given")


def regret(rec: RunRecord, fit) -> np.ndarray:
    """Regret at the checkpoints: sum of the recorded losses - the prefix minimum."""
    ks = rec.checkpoints
    return np.cumsum(rec.margins)[ks - 1] - fit.cum_loss_at(ks)



def dimension(rec: RunRecord) -> int:
    if "w" not in rec.state:
        raise Skip("the final state (the dimension d) is unknown")
    return int(np.asarray(rec.state["w"]).shape[0])


def unit_losses(fit) -> None:
    """Hedge's theorems assume losses in [0, 1]."""
    low, high = fit.info["entry_min"], fit.info["entry_max"]
    if low < 0 or high > 1:
        raise Skip(f"losses outside [0, 1] (from {low:.3g} to {high:.3g}): the theorem "
                   f"assumes [0, 1]")


@theorem("ftrl_regret", "regret", needs=best_point,
         source="Orabona (2019), A Modern Introduction to Online Learning, Corollary 7.9; "
                "Shalev-Shwartz (2012), Theorem 2.11")
def FTRL_REGRET(rec: RunRecord):
    """psi_range/a_T + (R^2/2) sum a_t, against the best point of K, linear losses."""
    p = rec.params
    R, fit = rec.require_radius(), point_fit(rec)
    d = dimension(rec)
    psi = regulariser_range(p["regularizer"], p["domain"], float(p["radius"]), d)
    B = largest_norm(p["domain"], float(p["radius"]), d)
    return [(T, ftrl_regret(int(T), psi, R, float(p["eta"]), p["schedule"]), r,
             most_regret(int(T), R, 2 * B)) for T, r in zip(rec.checkpoints, regret(rec, fit))]


def largest_norm(domain: str, radius: float, d: int) -> float:
    """max_{w in K} ||w||_2: D (ball, l1 ball), D sqrt(d) (box), 1 (simplex)."""
    return {"ball": radius, "l1": radius, "box": radius * math.sqrt(d), "simplex": 1.0}[domain]


@theorem("ftl_quadratic", "regret", needs=best_point,
         source="Shalev-Shwartz (2012), Online Learning and Online Convex Optimization, "
                "Lemma 2.1 and Example 2.1")
def FTL_QUADRATIC(rec: RunRecord):
    """2 R (B + R) H_T for FTL on quadratic losses, B the largest norm in K."""
    p = rec.params
    R, fit = rec.require_radius(), point_fit(rec)
    B = largest_norm(p["domain"], float(p["radius"]), dimension(rec))
    # the gradient w - x_t of (1/2)||w - x_t||^2 has norm <= B + R on K
    return [(T, ftl_quadratic(int(T), R, B), r, most_regret(int(T), B + R, 2 * B))
            for T, r in zip(rec.checkpoints, regret(rec, fit))]


@theorem("ftl_linear", "regret", needs=best_point,
         source="Shalev-Shwartz (2012), Online Learning and Online Convex Optimization, "
                "Lemma 2.1; Kalai & Vempala (2005), JCSS 71, Sec. 3 (be the leader)")
def FTL_LINEAR(rec: RunRecord):
    """sum_{t<=T} f_t(w_t) - f_t(w_{t+1}) for FTL on linear losses, with FTL's iterates w_t
    computed from the losses by the comparator (``best_point``'s ``leader_losses``), not
    read from the run: the run's recorded regret must stay below the lemma's sum for FTL's
    points, so a run that is not FTL's (or misreports its losses) can exceed it."""
    fit = point_fit(rec)
    if "leader_losses" not in fit.info:
        raise Skip("the best_point fit has no leader terms (linear losses only)")
    bound = ftl_linear(fit.info["leader_losses"], fit.info["next_leader_losses"])
    return [(T, float(bound[T - 1]), r) for T, r in zip(rec.checkpoints, regret(rec, fit))]


@theorem("weighted_majority_mistakes", "mistakes", needs=best_point,
         source="Littlestone & Warmuth (1994), The weighted majority algorithm, Information "
                "and Computation 108(2), Sec. 2")
def WEIGHTED_MAJORITY_MISTAKES(rec: RunRecord):
    """(ln N + m_T ln(1/beta)) / ln(2/(1 + beta)) at every T, m_T the best expert's loss over
    the first T rounds (losses in [0, 1]); observed: WM's recorded mistakes."""
    fit = point_fit(rec)
    unit_losses(fit)
    N, beta = dimension(rec), float(rec.params["beta"])
    made = np.cumsum(rec.margins)[rec.checkpoints - 1]
    return [(T, weighted_majority_mistakes(N, float(m), beta), float(M))
            for T, m, M in zip(rec.checkpoints, fit.cum_loss_at(rec.checkpoints), made)]


def _hedge(rec: RunRecord, bound) -> list:
    fit = point_fit(rec)
    unit_losses(fit)
    N = dimension(rec)
    # on losses in [0, 1] the learner loses at most T and the best expert at least 0
    return [(T, bound(int(T), N), r, float(T)) for T, r in zip(rec.checkpoints,
                                                              regret(rec, fit))]


@theorem("hedge_fixed", "regret", needs=best_point, formula="ln N/η + η T/8",
         source="Cesa-Bianchi & Lugosi (2006), Prediction, Learning, and Games, Theorem 2.2; "
                "Freund & Schapire (1997), JCSS 55, Theorem 2")
def HEDGE_FIXED(rec: RunRecord):
    """ln N/eta + eta T/8 against the best expert (losses in [0, 1]); for the schedule
    "horizon", eta = sqrt(8 ln N / horizon), so the bound is sqrt((T/2) ln N) at T = horizon."""
    p = rec.params
    horizon = p.get("schedule") == "horizon"
    return _hedge(rec, lambda T, N: hedge_fixed(
        T, N, math.sqrt(8 * math.log(N) / p["horizon"]) if horizon else float(p["eta"])))


@theorem("hedge_anytime", "regret", needs=best_point,
         formula="2 √((T/2) ln N) + √(ln N/8)",
         source="Cesa-Bianchi & Lugosi (2006), Prediction, Learning, and Games, Theorem 2.3")
def HEDGE_ANYTIME(rec: RunRecord):
    """2 sqrt((T/2) ln N) + sqrt(ln N/8) against the best expert (losses in [0, 1])."""
    return _hedge(rec, hedge_anytime)


@theorem("hedge_doubling", "regret", needs=best_point,
         source="Cesa-Bianchi & Lugosi (2006), Prediction, Learning, and Games, Sec. 2.3 "
                "(the doubling trick) with Theorem 2.2 on each epoch")
def HEDGE_DOUBLING(rec: RunRecord):
    """sum over the epochs so far of sqrt((2^m/2) ln N) (losses in [0, 1])."""
    return _hedge(rec, hedge_doubling)


def eg_point(p) -> list[dict]:
    """``needs`` of EG (the simplex) and EG+- (the l1 ball of radius U)."""
    return [{"key": "best_point", "loss": p["loss"], "domain": "l1" if "U" in p else "simplex",
             "radius": p.get("U", 1.0)}]


@theorem("eg_regret", "regret", needs=eg_point, formula="ln N/η + (η/2) G² T",
         source="Kivinen & Warmuth (1997), Information and Computation 132, Sec. 3; as "
                "entropic FTRL/mirror descent: Orabona (2019), Corollary 7.9")
def EG_REGRET(rec: RunRecord):
    """ln N/eta + (eta/2) G^2 T for EG on the simplex (N = d), and for EG+- with N = 2d and
    G = U R (it is EG on the 2d-simplex with gradients U (g, -g)); linear losses."""
    p = rec.params
    R, d = rec.require_radius(), dimension(rec)
    U = p.get("U")
    fit = point_fit(rec, eg_point(p)[0])
    N, G = (d, R) if U is None else (2 * d, U * R)
    # ||g||_inf <= R and the l1 diameter of the simplex is 2 (of the l1 ball, 2U): G D = 2 G
    return [(T, ftrl_regret(int(T), math.log(N), G, float(p["eta"]), "constant"), r,
             most_regret(int(T), G, 2.0)) for T, r in zip(rec.checkpoints, regret(rec, fit))]


def ons_regret(T: int, d: int, alpha: float, G: float, D: float) -> float:
    """ONS: regret <= 5 (1/alpha + G D) d ln T, for T > 4.

    Source: Hazan, Agarwal & Kale (2007), Machine Learning 69, Theorem 2 (ONS with
    gamma = (1/2) min(1/(4 G D), alpha), eps = 1/(gamma^2 D^2); D the diameter of K, G a
    bound on the gradients, the losses alpha-exp-concave).

    >>> ons_regret(T=math.e ** 2, d=3, alpha=0.5, G=1.0, D=2.0)   # 5 (2 + 2) 3 * 2
    120.0
    """
    return 5 * (1 / alpha + G * D) * d * math.log(T)


@theorem("ons_regret", "regret", needs=ons_point, formula="5 (1/α + G D) d ln T",
         source="Hazan, Agarwal & Kale (2007), Logarithmic regret algorithms for online convex "
                "optimization, Machine Learning 69, Theorem 2; Hazan (2016), Theorem 4.5")
def ONS_REGRET(rec: RunRecord):
    """5 (1/alpha + G D) d ln T at every checkpoint T > 4, quadratic losses on the ball
    (D = 2r) or the simplex (D = sqrt 2), when the declared G and alpha hold on this stream
    (G >= B + R, alpha <= 1/(B + R)^2, B = r on the ball, 1 on the simplex); alpha is the
    learner's exp_concavity."""
    p = rec.params
    R, fit = rec.require_radius(), point_fit(rec, ons_point(p)[0])
    r, G, alpha = float(p["radius"]), float(p["G"]), float(p["exp_concavity"])
    simplex = p.get("domain", "ball") == "simplex"
    B, D = (1.0, math.sqrt(2.0)) if simplex else (r, 2 * r)
    if G < B + R or alpha > 1 / (B + R) ** 2:
        raise Skip(f"G={G:g} and exp_concavity={alpha:g} must bound the gradients and the "
                   f"exp-concavity on this stream: G >= B + R = {B + R:.4g}, alpha <= "
                   f"1/(B + R)^2 = {1 / (B + R) ** 2:.4g} (B = max norm in K = {B:g})")
    d = dimension(rec)
    return [(T, ons_regret(int(T), d, alpha, G, D), reg, most_regret(int(T), G, D))
            for T, reg in zip(rec.checkpoints, regret(rec, fit)) if T > 4]
