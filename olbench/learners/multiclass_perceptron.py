"""The multiclass Perceptron: Crammer & Singer's ultraconservative additive updates."""

from olbench.bounds import MULTICLASS_PERCEPTRON
from olbench.component import OneOf
from olbench.learners.multiclass import MulticlassLearner
from olbench.rules import multiclass_perceptron as rule

_SCHEMES = {"max": rule.MAX, "uniform": rule.UNIFORM, "proportional": rule.PROPORTIONAL}
#: LIBOL's name of each scheme's code
LIBOL_NAMES = {"max": "M_PerceptronM", "uniform": "M_PerceptronU",
               "proportional": "M_PerceptronS"}


class MulticlassPerceptron(MulticlassLearner, key="multiclass_perceptron"):
    """Multiclass Perceptron (Crammer & Singer, "Ultraconservative online algorithms for
    multiclass problems", JMLR 3, 2003, Fig. 2 and Sec. 4): on a mistake, W_y += x and the
    rows of the errorful set E = {r != y : s_r >= s_y} lose x in shares tau_r summing to 1:
    all to the runner-up (``scheme="max"``, Crammer & Singer's max update; LIBOL's
    ``M_PerceptronM.m``), 1/|E| each (``"uniform"``; LIBOL's ``M_PerceptronU.m``), or in
    proportion to s_r - s_y (``"proportional"``; LIBOL's ``M_PerceptronS.m``).

    ``libol=True`` is LIBOL's code: an update when the class predicted (the lowest index
    among the top scores) is not y -- LIBOL's tie rule, with which its mistakes are counted
    too -- and an errorful set of the classes scoring strictly above y (when y only ties
    with a lower class, W_y alone moves). (LIBOL's manual names the three by their letters;
    its ``S`` is the proportional scheme and its ``U`` the uniform one.)

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0]]); y = np.array([1, 2])
    >>> run(MulticlassPerceptron(), X, y).state["w"].tolist()
    [[1.0, -1.0], [-1.0, 1.0]]
    """

    summary = ("multiclass Perceptron: W_y += x, the errorful classes -= x in shares (max, "
               "uniform, proportional)")
    source = "Crammer & Singer, JMLR 2003"
    libol_tie = True
    constraints = {"scheme": OneOf(*_SCHEMES), "libol": OneOf(False, True)}
    display_label = "multiclass Perceptron"
    display_params = ("scheme",)
    # LIBOL's uniform and proportional codes may move W_y alone (an empty errorful set):
    # not an ultraconservative update, so Crammer & Singer's bound is not theirs
    bounds = (MULTICLASS_PERCEPTRON.where(libol=False),
              MULTICLASS_PERCEPTRON.where(scheme="max", libol=True))

    def __init__(self, *, scheme: str = "max", libol: bool = False):
        self.scheme = scheme
        self.libol = libol

    def rule(self):
        return rule.RULE

    def rule_params(self):
        return rule.Params(_SCHEMES[self.scheme], bool(self.libol))
