"""The README's learner table and parameter glossary, rendered from the registry.

Each learner declares its row (``summary``, ``source``: :mod:`olbench.learners.traits`);
:data:`GLOSSARY` gives each parameter name its one meaning. ``tests/test_learner_catalogue.py``
holds the README to :func:`learner_table` and :func:`parameter_glossary`, and every
parameter of every registered learner to an entry of the glossary, so neither can drift.

>>> print(learner_table().splitlines()[3])
| `alma` | ALMA_2: normalised margin test, step η/√k, projection on the unit ball | Gentile 2001 |
>>> print(parameter_glossary().splitlines()[2][:45])
| `a` | the initial covariance Σ₀ = a·I of a
"""

from __future__ import annotations

from olbench.learners.base import Learner

#: One meaning per parameter name, across every learner (the learners that take each one
#: come from their signatures). A name of two meanings is renamed, the old spelling kept
#: for one release (:mod:`olbench.renamed`).
GLOSSARY = {
    "B": "ALMA's margin scale: the margin it asks for at correction k is (1 − alpha) B/√k "
         "(None: B = 1/alpha)",
    "C": "aggressiveness: how far one step may go to remove the loss (PA-I and SCW-I cap "
         "the step at C; PA-II, SCW-II and NHERD add 1/(2C) or 1/C to its denominator); "
         "larger is bolder",
    "G": "a bound on the losses' gradients, ‖∇f_t‖ ≤ G",
    "U": "the radius of the l1 ball EG± plays in",
    "a": "the initial covariance Σ₀ = a·I of a Gaussian over weight vectors (kernel RLS: "
         "the prior scale of (aK + rI)⁻¹)",
    "alpha": "ALMA's approximation: it seeks a margin (1 − alpha) times the best",
    "b": "NAROW's threshold: r_t = χ/(bχ − 1) when bχ > 1 (χ = x'Σx), else no matrix update",
    "beta": "the weighted majority's penalty: a mistaken expert's weight is multiplied by beta",
    "budget": "the number of support vectors kept",
    "composite": "how AdaGrad takes its L1 term: mirror_descent (a proximal step from w_t) or "
                 "dual_averaging (w from the average gradient)",
    "c": "IELLIP's initial cut depth: c_t = c·decay^(t−1)",
    "confidence": "the probability with which a weight vector drawn from the Gaussian must "
                  "classify the example right (the papers' η); φ = Φ⁻¹(confidence)",
    "decay": "IELLIP's decay of the cut depth per round (LIBOL's b)",
    "degree": "the polynomial kernel's exponent: (x·x′ + offset)^degree",
    "delta": "the smoothing of an adaptive per-coordinate step η/(δ + √n_i) (FTRL-Proximal's "
             "β)",
    "diagonal": "keep the covariance's diagonal only (d numbers, not d × d)",
    "diagonal_rule": "NHERD's diagonal approximation: project, exact or drop",
    "domain": "the feasible set K of the point played: ball, simplex, box or l1 ball",
    "epsilon": "the width of the ε-insensitive loss (regression)",
    "enhancement": "the enhanced L1-RDA's ρ: the threshold on the average gradient is "
                   "l1 + ρ/(η√t)",
    "eta": "the step size (learning rate); with a decreasing schedule its scale, η/√t "
           "(ALMA: η/√k at correction k)",
    "exp_concavity": "α of α-exp-concave losses (ONS's step is set by it)",
    "form": "CW's constraint: stdev (exact convex CW) or variance",
    "gravity": "truncated gradient's g: every `period` rounds the weights within theta move "
               "η·period·g towards 0",
    "h": "the Gaussian kernel's width: exp(−‖x − x′‖²/(2h²))",
    "horizon": "the number of rounds Hedge is told to expect (schedule=horizon)",
    "init": "the starting w₀: zeros, randn (N(0, I)) or a given vector (an option of every "
            "learner)",
    "init_seed": "the seed of init=randn's draw (an option of every learner)",
    "k": "online PCA: the rank of the projection played (1 ≤ k < d)",
    "kernel_type": "the kernel: gaussian, polynomial or linear",
    "l1": "the weight λ₁ of the L1 penalty λ₁‖w‖₁: coordinates set to exactly 0",
    "l2": "the weight λ₂ of the L2 penalty (λ₂/2)‖w‖²",
    "lam": "NORMA's regularisation λ: f shrinks by (1 − ηλ) every round",
    "libol": "behave as LIBOL's MATLAB code; each learner's docstring lists what that changes "
             "(tie rule sign(0) = +1, first step, test, typos kept)",
    "loss": "the loss the steps descend; for online convex optimisation, the form of the "
            "losses f_t that the rows give (linear or quadratic)",
    "max_rank": "Brand's rank ceiling (None: d)",
    "offset": "the polynomial kernel's offset: (x·x′ + offset)^degree",
    "p": "ALMA's p as LIBOL's ALMA.m has it (libol=true): the margin × √(p − 1), the step "
         "÷ √(p − 1), Euclidean norms",
    "period": "truncated gradient's K: it truncates every `period` rounds",
    "project": "Pegasos's optional step: scale w back onto the ball of radius 1/√l2",
    "r": "AROW's and RLS's regularisation: the step divides by x'Σx + r (RLS: the noise "
         "variance)",
    "radius": "the size of the feasible set (radius of the ball, box or l1 ball; OGD: None, "
              "unconstrained)",
    "regularizer": "FTRL's regulariser: quadratic or entropic",
    "rho": "NORMA's margin: a step when y f(x) < rho",
    "ridge": "the weight of the identity in SOP's (ridge·I + Σ xx')⁻¹ (the paper's a)",
    "binary": "the registry key of the binary learner one-vs-rest runs a copy of per class",
    "binary_params": "that binary learner's hyper-parameters (null: its defaults)",
    "schedule": "how the step size changes over the rounds",
    "scheme": ("how the multiclass Perceptron shares x among the errorful classes: max (all "
               "to the runner-up), uniform, or proportional (to s_r − s_y)"),
    "seed": "the seed of the learner's own random draws (the budget perceptron's evictions, "
            "Oja's initial basis)",
    "threshold": "Brand's residual threshold: the rank grows when ‖x − UᵀUx‖ is above it",
    "theta": "truncated gradient's θ: only weights with |w_j| ≤ theta are truncated (None: "
             "all)",
    "tau": "NORMA's window: the terms of the last tau rounds are kept (its budget)",
    "truncate": "Brand at its rank ceiling: grow, then drop the smallest direction (false: "
                "drop the residual)",
    "truncation": "truncated gradient's step on small weights: gravity (pull towards 0) or "
                  "rounding (set to 0)",
    "variant": "which of PA's three updates: pa, pa1 (PA-I) or pa2 (PA-II)",
}


def _family(cls: type) -> int:
    """Rows in four blocks: linear learners, kernel learners, online convex optimisation,
    online PCA."""
    if cls.task == "pca":
        return 3
    if cls.task == "oco":
        return 2
    return 1 if "kernel_type" in cls.param_names() else 0


def learner_table() -> str:
    """The README's learner table: one row per (summary, source) a learner declares, its
    learners' keys, in four blocks (linear, kernel, online convex optimisation, online PCA)."""
    rows: dict[tuple[str, str], list[tuple[str, type]]] = {}
    for key, cls in Learner.registry.items():
        rows.setdefault((cls.summary, cls.source), []).append((key, cls))
    ordered = sorted(rows.items(), key=lambda row: (_family(row[1][0][1]), row[1][0][0]))
    lines = ["| key | rule | source |", "|---|---|---|"]
    lines += ["| " + ", ".join(f"`{key}`" for key, _ in members) + f" | {summary} | {source} |"
              for (summary, source), members in ordered]
    return "\n".join(lines)


def parameter_users() -> dict[str, list[str]]:
    """Each parameter name -> the keys of the learners whose signature takes it (the
    options every learner accepts excluded)."""
    users: dict[str, list[str]] = {}
    for key, cls in Learner.registry.items():
        for name in cls.param_names():
            if name not in cls.optional_params:
                users.setdefault(name, []).append(key)
    return users


def parameter_glossary() -> str:
    """The README's parameter glossary: each name, its one meaning, the learners taking it."""
    users = parameter_users()
    lines = ["| parameter | meaning | learners |", "|---|---|---|"]
    for name in sorted(GLOSSARY, key=str.lower):
        takers = ("every learner (an option)" if name in Learner.optional_params
                  else ", ".join(f"`{key}`" for key in users.get(name, [])))
        lines.append(f"| `{name}` | {GLOSSARY[name]} | {takers} |")
    return "\n".join(lines)
