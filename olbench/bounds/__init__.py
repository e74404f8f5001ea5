"""Theory: mistake and regret bounds, and the checks that hold runs to them.

Each bound is a small pure function of numbers (its docstring gives the source, the exact
assumptions and an example), and each *theorem* a function of a run's record
(:class:`RunRecord`: margins, labels, update flags, final state, stream radius, comparator
fits) registered by name (:func:`theorem`). Learners declare the theorems that apply to them
(``bounds = (NOVIKOFF, FREUND_SCHAPIRE)`` on the class); :func:`bound_table` evaluates the
declared ones at each checkpoint, and says why any was skipped. :func:`check` warns loudly
(:class:`BoundViolation`) when a bound whose assumptions hold is exceeded -- that means a bug,
in a learner, a comparator or a bound.

One module per family: :mod:`~olbench.bounds.perceptron` (Novikoff, Freund-Schapire),
:mod:`~olbench.bounds.pa` (Crammer et al. 2006, Theorems 2, 4, 5), :mod:`~olbench.bounds.arow`
(Crammer, Kulesza & Dredze 2009, Theorem 2), :mod:`~olbench.bounds.ogd` (Zinkevich 2003),
:mod:`~olbench.bounds.romma` (Li & Long 2002), :mod:`~olbench.bounds.alma` (Gentile 2001),
:mod:`~olbench.bounds.sop` (Cesa-Bianchi, Conconi & Gentile 2005, Theorem 1),
:mod:`~olbench.bounds.kernel` (Novikoff in the RKHS; the Forgetron, Dekel et al. 2008),
:mod:`~olbench.bounds.oco` (FTL, FTRL, Hedge, weighted majority: Shalev-Shwartz 2012,
Orabona 2019, Cesa-Bianchi & Lugosi 2006, Littlestone & Warmuth 1994),
:mod:`~olbench.bounds.multiclass` (Crammer & Singer 2003; the multiclass PA of Crammer et al.
2006), :mod:`~olbench.bounds.sparse` (L1-RDA, Xiao 2010; FOBOS, Duchi & Singer 2009; AdaGrad,
Duchi, Hazan & Singer 2011; Pegasos,
Shalev-Shwartz et al. 2007: composite regret against the best fixed predictor of the
learner's objective).

>>> round(novikoff(R=1.0, gamma=0.1), 6)
100.0
>>> {'novikoff', 'arow_mistakes'} <= set(THEOREMS)
True
"""

from olbench.bounds.alma import ALMA2_CORRECTIONS, alma2_corrections
from olbench.bounds.arow import AROW_MISTAKES, arow_mistakes
from olbench.bounds.core import (
                                 BOUND_COLUMNS,
                                 THEOREMS,
                                 BoundCheck,
                                 BoundViolation,
                                 RunRecord,
                                 Skip,
                                 Theorem,
                                 bound_table,
                                 check,
                                 declared,
                                 skipped,
                                 skipped_table,
                                 theorem,
)
from olbench.bounds.kernel import (
                                 FORGETRON_MISTAKES,
                                 KERNEL_NOVIKOFF,
                                 forgetron_mistakes,
)
from olbench.bounds.multiclass import (
                                 MULTICLASS_PA1_MISTAKES,
                                 MULTICLASS_PA_SEPARABLE,
                                 MULTICLASS_PERCEPTRON,
)
from olbench.bounds.oco import (
                                 EG_REGRET,
                                 FTL_LINEAR,
                                 FTL_QUADRATIC,
                                 FTRL_REGRET,
                                 HEDGE_ANYTIME,
                                 HEDGE_DOUBLING,
                                 HEDGE_FIXED,
                                 ONS_REGRET,
                                 WEIGHTED_MAJORITY_MISTAKES,
                                 ftl_linear,
                                 ftl_quadratic,
                                 ftrl_regret,
                                 hedge_anytime,
                                 hedge_doubling,
                                 hedge_fixed,
                                 ons_regret,
                                 weighted_majority_mistakes,
)
from olbench.bounds.ogd import OGD_REGRET, ogd_gradient_bound, ogd_regret
from olbench.bounds.pa import (
                                 PA1_MISTAKES,
                                 PA2_SQUARED_LOSS,
                                 PA_SEPARABLE,
                                 pa1_mistakes,
                                 pa2_squared_loss,
                                 pa_separable,
)
from olbench.bounds.pca import PCA_GD_REGRET, PCA_MEG_REGRET, pca_gd_regret, pca_meg_regret
from olbench.bounds.perceptron import (
                                 FREUND_SCHAPIRE,
                                 NOVIKOFF,
                                 deviation,
                                 freund_schapire,
                                 freund_schapire_tightest,
                                 novikoff,
)
from olbench.bounds.romma import ROMMA_SEPARABLE, romma_separable
from olbench.bounds.sop import SOP_MISTAKES, sop_mistakes
from olbench.bounds.sparse import (
                                 ADAGRAD_REGRET,
                                 FOBOS_REGRET,
                                 PEGASOS_REGRET,
                                 RDA_REGRET,
                                 adagrad_regret,
                                 rda_regret,
)

__all__ = [
    "MULTICLASS_PA1_MISTAKES", "MULTICLASS_PA_SEPARABLE", "MULTICLASS_PERCEPTRON",
    "EG_REGRET", "ONS_REGRET", "ons_regret", "FTL_LINEAR", "FTL_QUADRATIC",
    "WEIGHTED_MAJORITY_MISTAKES", "ftl_linear", "weighted_majority_mistakes", "FTRL_REGRET",
    "HEDGE_ANYTIME", "HEDGE_DOUBLING", "HEDGE_FIXED",
    "ftl_quadratic", "ftrl_regret", "hedge_anytime", "hedge_doubling", "hedge_fixed",
    "ALMA2_CORRECTIONS", "ROMMA_SEPARABLE", "SOP_MISTAKES", "alma2_corrections",
    "romma_separable", "sop_mistakes", "ADAGRAD_REGRET", "FOBOS_REGRET", "PEGASOS_REGRET",
    "RDA_REGRET", "adagrad_regret", "rda_regret", "PCA_GD_REGRET", "pca_gd_regret",
    "PCA_MEG_REGRET", "pca_meg_regret",
    "FORGETRON_MISTAKES", "KERNEL_NOVIKOFF", "forgetron_mistakes",
    "AROW_MISTAKES", "BOUND_COLUMNS", "BoundCheck", "BoundViolation", "FREUND_SCHAPIRE",
    "NOVIKOFF", "OGD_REGRET", "PA1_MISTAKES", "PA2_SQUARED_LOSS", "PA_SEPARABLE", "RunRecord",
    "Skip", "THEOREMS", "Theorem", "arow_mistakes", "bound_table", "check", "declared",
    "deviation", "freund_schapire", "freund_schapire_tightest", "novikoff", "ogd_gradient_bound",
    "ogd_regret", "pa1_mistakes", "pa2_squared_loss", "pa_separable", "skipped", "skipped_table",
    "theorem",
]
