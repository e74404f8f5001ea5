"""What the literature knows of how tight each theorem olbench checks is: a lower-bound
construction, or a result saying how close any stream (or any learner) can come, with its
source, by theorem. The bound atlas's table prints it beside the best ratio found
(:mod:`olbench.atlas.study`); a construction olbench generates is also measured there (the
search's starting points, ``Witness.extra["search"]["starts"]``).

Only what the cited work states is written here; "none known" where we know of no
construction for that algorithm's bound.
"""

from __future__ import annotations

#: theorem -> (the known construction or lower bound, and what it gives; its source)
LOWER_BOUNDS: dict[str, tuple[str, str]] = {
    "novikoff": ("orthogonal rows x_t = R e_t, any labels: a mistake every round, "
                 "(R/gamma)^2 attained (ratio 1)", "Block (1962); Novikoff (1962)"),
    "freund_schapire": ("with D = 0 it is Novikoff's bound: the same rows attain it",
                        "Freund & Schapire (1999), Theorem 2"),
    "kernel_novikoff": ("Novikoff's rows in the feature space (the linear kernel: ratio 1)",
                        "Block (1962); Novikoff (1962)"),
    "romma_separable": ("the Perceptron's (R/gamma)^2; orthogonal rows attain it",
                        "Li & Long (2002)"),
    "pa_separable": ("none stated; orthogonal rows attain (R/gamma)^2 here",
                     "Crammer et al. (2006)"),
    "pa1_mistakes": ("none stated; orthogonal rows attain it here", "Crammer et al. (2006)"),
    "pa2_squared_loss": ("none stated; orthogonal rows attain it here",
                         "Crammer et al. (2006)"),
    "multiclass_perceptron": ("orthogonal rows, one class each: a mistake every round",
                              "Crammer & Singer (2003)"),
    "multiclass_pa_separable": ("none stated; orthogonal rows attain it here",
                                "Crammer et al. (2006)"),
    "multiclass_pa1_mistakes": ("none stated; orthogonal rows attain it here",
                                "Crammer et al. (2006)"),
    "sop_mistakes": ("none known", "Cesa-Bianchi, Conconi & Gentile (2005)"),
    "alma2_corrections": ("none known", "Gentile (2001)"),
    "arow_mistakes": ("none known", "Crammer, Kulesza & Dredze (2009)"),
    "forgetron_mistakes": ("none known", "Dekel, Shalev-Shwartz & Singer (2008)"),
    "ftl_linear": ("alternating linear losses: FTL's regret grows linearly",
                   "Shalev-Shwartz (2012), Example 2.2"),
    "ftl_quadratic": ("Omega(log T) for strongly convex losses (any algorithm)",
                      "Hazan & Kale (2014)"),
    "ftrl_regret": ("alternating linear losses; Omega(D G sqrt(T)) for any algorithm",
                    "Shalev-Shwartz (2012), Example 2.2; Hazan (2016), Theorem 3.2"),
    "hedge_fixed": ("random losses: any algorithm's regret >= (1 - o(1)) sqrt((T/2) ln N), "
                    "the tuned bound, as T and N grow (ratio -> 1 for the horizon-tuned rate)",
                    "Cesa-Bianchi & Lugosi (2006), Theorem 3.7"),
    "hedge_anytime": ("the same random losses: sqrt((T/2) ln N) for any algorithm",
                      "Cesa-Bianchi & Lugosi (2006), Theorem 3.7"),
    "hedge_doubling": ("the same random losses: sqrt((T/2) ln N) for any algorithm",
                       "Cesa-Bianchi & Lugosi (2006), Theorem 3.7"),
    "weighted_majority_mistakes": ("any deterministic algorithm can be forced to twice "
                                   "the best expert's mistakes", "Littlestone & Warmuth "
                                   "(1994); Cesa-Bianchi & Lugosi (2006), ch. 2"),
    "eg_regret": ("linear losses on the simplex: the experts' lower bound, "
                  "Omega(sqrt(T ln d))", "Cesa-Bianchi & Lugosi (2006), Theorem 3.7"),
    "ogd_regret": ("Omega(D G sqrt(T)) for any algorithm (random linear losses); "
                   "constant not matched to Zinkevich's 3/2", "Hazan (2016), Theorem 3.2"),
    "adagrad_regret": ("Omega(D G sqrt(T)) for any algorithm", "Hazan (2016), Theorem 3.2"),
    "fobos_regret": ("Omega(D G sqrt(T)) for any algorithm", "Hazan (2016), Theorem 3.2"),
    "rda_regret": ("Omega(D G sqrt(T)) for any algorithm", "Hazan (2016), Theorem 3.2"),
    "pegasos_regret": ("Omega(log T) for strongly convex losses", "Hazan & Kale (2014)"),
    "ons_regret": ("Omega(log T) for exp-concave losses", "Ordentlich & Cover (1998)"),
    "pca_gd_regret": ("Omega(sqrt(L* k log(d/k)) + k log(d/k)) for any algorithm",
                      "Nie, Kotlowski & Warmuth (2016)"),
    "pca_meg_regret": ("Omega(sqrt(L* k log(d/k)) + k log(d/k)) for any algorithm",
                       "Nie, Kotlowski & Warmuth (2016)"),
}


def lower_bound(theorem: str) -> tuple[str, str]:
    """(construction or lower bound, source) of ``theorem``; ("none known", "") if absent."""
    return LOWER_BOUNDS.get(theorem, ("none known", ""))
