"""What a learner declares about itself besides its parameters: its traits.

:class:`~olbench.learners.base.Learner` inherits :class:`Traits`, so every trait below is an
attribute of every learner, at the default stated here unless its class declares another
(a class attribute, or a property when it depends on the parameters). The protocol, the
reports and the registry-wide contract tests (``tests/test_learner_contract.py``) read them;
no test keeps a list of learner keys that are exceptions to a check. A learner that is an
exception declares the trait, and the README's "Add a learner" lists them.
"""

from __future__ import annotations

from typing import ClassVar

from olbench.bounds import Theorem
from olbench.renamed import Renamed


class Traits:
    """The declared traits of a learner (see the module docs)."""

    #: The learning task (:mod:`olbench.learning_task`): ``"classification"``,
    #: ``"regression"`` or ``"oco"`` (the row is the loss); learners that do several say so
    #: in :meth:`~olbench.learners.base.Learner.task_options`.
    task: ClassVar[str] = "classification"
    #: The theorems (olbench.bounds) that bound this learner's runs; ``Theorem.where(...)``
    #: restricts one to some hyper-parameter values. Subclasses inherit the declaration.
    bounds: ClassVar[tuple[Theorem, ...]] = ()
    #: The hyper-parameter that only rescales w (every prediction's sign stays the same), if
    #: any: then mistakes are scale-free but loss-based numbers (cumulative loss, regret)
    #: depend on it, and reports say so (``olbench.analysis.views.scale_dependent``).
    scale_param: ClassVar[str | None] = None
    #: What the rule needs to stay within float64, said when its arithmetic breaks down on
    #: finite data (olbench.breakdown), e.g. a kernel value; "" when the likely cause (the
    #: parameter furthest from its default) says enough.
    numeric_hint: ClassVar[str] = ""
    #: The range every row entry must lie in, when the rows are losses the learner's rule
    #: and theorems assume bounded (experts' losses in [0, 1]); checked on every chunk
    #: (:func:`olbench.learning_task.check_loss_range`). None: any finite value.
    loss_range: ClassVar[tuple[float, float] | None] = None
    #: True when a NaN/inf feature always makes the output NaN/inf (w.x does), which the
    #: compiled loop catches at no cost; False makes :func:`olbench.run` check every chunk's
    #: features first (a learner whose output can stay finite on such a row).
    non_finite_rows_show_in_output: ClassVar[bool] = True
    #: True when a round whose row is zero may still change w: the point played moves with
    #: the round index (anytime rates of online convex optimisation), a zero row is a loss
    #: whose gradient is not zero (quadratic losses pull w towards 0), every round shrinks
    #: the coefficients (NORMA's decay), or under a non-linear kernel x = 0 is a point like
    #: any other (k(0, 0) != 0). False (the default) is checked for every learner: a zero
    #: row predicts 0 and leaves w where it was.
    moves_on_zero_rows: bool = False
    #: Whether ``libol=True`` (the learner's LIBOL switch, :attr:`renamed_params`) also
    #: takes LIBOL's tie rule, sign(0) = +1, for its updates and the mistakes it counts
    #: (:attr:`tie`): the mistake-driven rules whose MATLAB code tests sign(w.x) != y.
    libol_tie: ClassVar[bool] = False
    #: Old spellings of renamed parameters, still accepted for one release with a
    #: DeprecationWarning naming the new one (:mod:`olbench.renamed`).
    renamed_params: ClassVar[tuple[Renamed, ...]] = ()
    #: The README's learner table (:func:`olbench.learners.catalogue.learner_table`): the
    #: rule in a line, and its source. Learners whose class inherits both share a row.
    summary: ClassVar[str] = ""
    source: ClassVar[str] = ""

    @property
    def tie(self) -> str:
        """The tie rule mistakes are counted with (:mod:`olbench.losses`): ``"novikoff"``, a
        mistake when y p <= 0, or ``"libol"``, sign(0) = +1, for a learner with
        :attr:`libol_tie` run with ``libol=True``."""
        return "libol" if self.libol_tie and getattr(self, "libol", False) else "novikoff"


# The old spellings of the LIBOL switch (``libol=True``: behave as LIBOL's MATLAB code),
# accepted for one release
TIE_SPELLING = Renamed("libol", ("tie",), {("novikoff",): False, ("libol",): True})
VARIANT_SPELLING = Renamed("libol", ("variant",), {("paper",): False, ("libol",): True})
VARIANT_AND_TIE_SPELLING = Renamed(
    "libol", ("variant", "tie"), {("paper", "novikoff"): False, ("libol", "libol"): True},
    old_defaults=("paper", "novikoff"))
