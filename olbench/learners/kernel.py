"""Kernel learners: the Perceptron, Passive-Aggressive and RLS in a reproducing kernel
Hilbert space, with support vectors as growing state (:mod:`olbench.rules.rkhs`).

Every kernel learner takes the kernel as hyper-parameters: ``kernel_type`` ("gaussian":
exp(-||x - x'||^2 / (2 h^2)), "polynomial": (x.x' + offset)^degree, "linear": x.x'), ``h``,
``degree`` and ``offset``. With ``kernel_type="linear"`` each equals its linear twin
(``perceptron``, ``pa``, ``pa_regression``, ``rls``) to round-off.

>>> import numpy as np
>>> from olbench import make_learner, run
>>> X = np.array([[0.0, 0.0], [1.0, 1.0], [0.1, 0.0]]); y = np.array([1, -1, 1])
>>> trace = run(make_learner("kernel_perceptron", h=0.5), X, y)
>>> trace.updated.tolist(), trace.state["w"].tolist()   # two mistakes: two support vectors
([True, True, False], [1.0, -1.0])
"""

from __future__ import annotations

from math import inf
from typing import ClassVar

import numpy as np

from olbench.bounds import KERNEL_NOVIKOFF
from olbench.component import Interval, InvalidParameterError, OneOf
from olbench.learners import support
from olbench.learners.base import Learner
from olbench.learners.initial import init_label, is_zeros
from olbench.learners.pa import _VARIANTS, PAVariants, step_size_params
from olbench.learners.state import State
from olbench.resources import Footprint, features, parameter, rows
from olbench.rules import kernel_pa as pa_rule
from olbench.rules import kernel_perceptron as perceptron_rule
from olbench.rules import kernel_rls as rls_rule
from olbench.rules.rkhs import CODES

#: The Gaussian kernel divides by 2 h^2, which float64 must hold as a positive normal
#: number: 2 h^2 lies in [2.2e-308, 1.8e308] for h in [1.05e-154, 9.48e153], whose powers of
#: ten inside are these ends (below, 2 h^2 was 0 and the rule divided by zero; above, 2 h^2
#: overflowed before the run).
H_LOW, H_HIGH = 1e-153, 1e153
#: The polynomial kernel's exponent is a 64-bit integer in the compiled rules.
DEGREE_HIGH = 2**63 - 1
KERNEL_CONSTRAINTS = {
    "kernel_type": OneOf(*CODES),
    "h": Interval(H_LOW, H_HIGH, reason="the Gaussian kernel divides by 2 h^2, which must be a "
                                        "positive, finite float64"),
    "degree": Interval(1, DEGREE_HIGH, integer=True,
                       reason="the exponent is a 64-bit integer"),
    "offset": Interval(0, inf)}
_KERNEL_PARAMS = {"gaussian": ("h",), "polynomial": ("degree", "offset"), "linear": ()}


class KernelLearner(Learner):
    """Base of the kernel learners: the kernel's hyper-parameters and the support-vector state.

    ``budget_slots()``: the fixed number of support-vector slots (budgeted learners), or None:
    the state grows, the front reserving room for each chunk (:meth:`_reserve`) and trimming
    it to the vectors in use after a run (:meth:`_finalize`). ``quadratic``: the learner also
    keeps an n x n matrix in ``A``'s columns after the support vectors (kernel RLS).
    """

    display_params = ("kernel_type",)
    quadratic: ClassVar[bool] = False
    #: the parameter that sets ``budget_slots()`` (budgeted learners)
    budget_param: ClassVar[str] = "budget"
    # f(x) can stay finite on an infinite row: a first row meets no support vector, and a
    # Gaussian kernel of an infinite distance is exp(-inf) = 0
    non_finite_rows_show_in_output = False

    @property
    def moves_on_zero_rows(self) -> bool:
        return self.kernel_type != "linear"   # k(0, 0) != 0: x = 0 is a point like any other

    def nonzero_weights(self) -> float:
        return float("nan")           # w holds the support vectors' coefficients

    @property
    def numeric_hint(self) -> str:
        """What must stay within float64 (olbench.breakdown): with the polynomial kernel,
        k(x, x) on every row (which bounds every kernel value)."""
        if self.kernel_type != "polynomial":
            return ""
        return ("with the polynomial kernel, k(x, x) = (||x||^2 + offset)^degree must be a "
                "finite, nonzero float64 on every row")

    def _init_kernel(self, kernel_type, h, degree, offset):
        self.kernel_type = kernel_type
        self.h = h
        self.degree = degree
        self.offset = offset

    def kernel_fields(self) -> tuple:
        """The leading fields of every kernel rule's Params (:data:`rkhs.KERNEL_FIELDS`)."""
        return (CODES[self.kernel_type], 2.0 * float(self.h) ** 2, int(self.degree),
                float(self.offset))

    @classmethod
    def display_shown(cls, params):
        """The kernel and its own parameters (h for the Gaussian, degree and offset for the
        polynomial kernel), never the other kernels' unused ones."""
        kind = params.get("kernel_type", "gaussian")
        unused = {"h", "degree", "offset"} - set(_KERNEL_PARAMS.get(kind, ()))
        shown = [k for k in super().display_shown(params) if k not in unused]
        return shown + [k for k in _KERNEL_PARAMS.get(kind, ()) if k not in shown]

    def validate(self):
        super().validate()
        if not is_zeros(getattr(self, "init", "zeros")):   # its w holds dual coefficients
            raise InvalidParameterError(
                f"{type(self).__name__}: invalid init={init_label(self.init)!r}; a kernel "
                f"learner starts "
                f"from f = 0 (its w holds the coefficients of its support vectors, not d "
                f"weights), so init must be 'zeros'")

    # -- state -----------------------------------------------------------------------------
    def budget_slots(self) -> int | None:
        return None

    def _n_scalars(self) -> int:
        return 3                     # s[0] slots in use, s[1] d, s[2] the layout m

    def init_state(self, d):
        # the slots get their layout and width from the first rows (_reserve): dense rows,
        # or the packed non-zeros of sparse ones (olbench.rules.rkhs)
        slots = self.budget_slots() or 0
        s = np.zeros(self._n_scalars())
        s[1] = d
        return State(np.zeros(slots), np.zeros((slots, 0)), s)

    @property
    def state_grows_with_rows(self) -> bool:
        return self.budget_slots() is None

    def footprint(self, n, d, nnz=None):
        m = 0 if nnz is None else support.packed_width(d, nnz)
        width = support.width(d, m)
        numbers = f"{width:,} numbers each" + (f", {features(d)} kept as the non-zeros"
                                               if m else "")
        budget = self.budget_slots()
        slots = n if budget is None else budget
        state = 8.0 * slots * (width + 1 + (n if self.quadratic else 0))
        # moved into larger or wider arrays (old and new at once), except kernel RLS's,
        # reserved at once (_reserve is told the rows to come) and full at the end
        moved = 0.0 if self.quadratic else state
        # exported: packed slots as a new sparse matrix, a budget's slots as copies (a
        # growing state is exported as views)
        exported = (support.PACKED_EXPORT_BYTES * slots * m if m else
                    8.0 * slots * (d + 1) if budget is not None else 0.0)
        nbytes = state + max(moved, exported)
        if budget is not None:
            value = getattr(self, self.budget_param)
            return Footprint(nbytes, f"{self.budget_param} support vectors ({numbers})",
                             f"{parameter(self.budget_param, value)} and {features(d)}",
                             f"use a smaller {self.budget_param}")
        advice = ("use norma, forgetron or budget_perceptron (a fixed budget of support "
                  "vectors), or fewer rows")
        if self.quadratic:
            return Footprint(nbytes, "an n x n matrix and n support vectors", rows(n), advice)
        return Footprint(nbytes, f"up to n support vectors, one per update ({numbers})",
                         rows(n), advice)

    def _layout(self) -> tuple[int, int, int, int]:
        """(slots in use, d, the layout m, the columns the support vectors take)."""
        s = self.state_.s
        used, d, m = int(s[0]), int(s[1]), int(s[2])
        return used, d, m, support.width(d, m)

    def _resize(self, slots: int, m: int) -> None:
        """New arrays of ``slots`` slots in layout ``m``, holding the support vectors in use
        (and kernel RLS's matrix of them)."""
        w, A, s = self.state_
        used, d, old_m, old_width = self._layout()
        new_width = support.width(d, m)
        new_w = np.zeros(slots)
        new_A = np.zeros((slots, new_width + (slots if self.quadratic else 0)))
        new_w[:min(slots, w.shape[0])] = w[:slots]
        if used and m == old_m:
            new_A[:used, :new_width] = A[:used, :new_width]
        elif used:
            support.write_vectors(new_A, support.vectors(A, used, d, old_m),
                                  A[:used, old_width - 1], d, m)
        if self.quadratic:
            new_A[:used, new_width:new_width + used] = A[:used, old_width:old_width + used]
        s[2] = m
        self.state_ = State(new_w, new_A, s)

    def _reserve(self, X, total=None):
        """Room for the rows of chunk X: one more support vector per row at most (doubling,
        so that a stream read in many chunks copies the state O(log n) times, and never past
        the stream's ``total`` rows when known), each slot wide enough for X's rows."""
        used, d, m, _ = self._layout()
        layout = support.layout_for(X, d, m, fresh=used == 0)
        slots = capacity = self.state_.w.shape[0]
        if self.budget_slots() is None and used + X.shape[0] > capacity:
            need = used + X.shape[0]
            # an n x n matrix is not doubled (up to 4x the memory needed): all at once
            slots = need if self.quadratic else max(need, 2 * capacity)
            if total is not None:
                slots = max(need, total) if self.quadratic else max(need, min(slots, total))
        if slots != capacity or layout != m or self.state_.A.shape[1] < support.width(d, layout):
            self._resize(slots, layout)

    def _finalize(self):
        used, _, m, _ = self._layout()
        if self.budget_slots() is None and used < self.state_.w.shape[0]:
            self._resize(used, m)

    def export_state(self):
        """``w``: the coefficients, ``A``: the support vectors (one per row; a CSR matrix
        when sparse rows were kept packed), ``s``: counters; kernel RLS's ``Q`` too. A
        growing state is exported as views, not copies (kernel RLS's n x n matrix would
        otherwise double the memory of its largest runs): after :meth:`_finalize` its
        arrays are never written again, since the next rows go to new, larger ones."""
        w, A, s = self.state_
        used, d, m, width = self._layout()
        slots = w.shape[0]
        if A.shape[1] < width:   # a state that has seen no rows yet
            A = np.zeros((slots, width))
        state = {"w": w, "A": support.vectors(A, slots, d, m), "s": s.copy()}
        if self.quadratic:
            state["Q"] = A[:, width:]
        if self.budget_slots() is not None:   # written in place by a later run
            state = {k: v.copy() if isinstance(v, np.ndarray) else v for k, v in state.items()}
        return state

    @property
    def support_vectors_(self) -> np.ndarray:
        return self.export_state()["A"]


class KernelPerceptron(KernelLearner, key="kernel_perceptron"):
    """Kernel Perceptron: f(x) = sum_i w_i k(x_i, x); on a mistake (y f(x) <= 0), x joins the
    support vectors with w = y (Aizerman, Braverman, Rozonoer 1964; Freund & Schapire, Machine
    Learning 37, 1999, Sec. 3). Mistake bound: Novikoff's in the RKHS
    (:func:`olbench.bounds.kernel.kernel_novikoff`). Memory grows with the mistakes.

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.1]]); y = np.array([1, -1, 1])
    >>> trace = run(KernelPerceptron(kernel_type="polynomial", degree=2, offset=1.0), X, y)
    >>> trace.margins.tolist()     # p_3 = (1.0 + 1)^2 - (0.1 + 1)^2
    [0.0, 1.0, 2.79]
    """

    summary = "Perceptron in a kernel's RKHS: x joins the support vectors on a mistake"
    source = "Freund & Schapire 1999 (Sec. 3); Novikoff's bound in the RKHS"

    display_label = "Kernel Perceptron"
    constraints = dict(KERNEL_CONSTRAINTS)
    bounds = (KERNEL_NOVIKOFF,)

    def __init__(self, *, kernel_type: str = "gaussian", h: float = 1.0, degree: int = 2,
                 offset: float = 1.0):
        self._init_kernel(kernel_type, h, degree, offset)

    def rule(self):
        return perceptron_rule.RULE

    def rule_params(self):
        return perceptron_rule.Params(*self.kernel_fields())


class KernelPA(PAVariants, KernelLearner, key="kernel_pa"):
    """Kernel Passive-Aggressive classifier, PA / PA-I / PA-II (Crammer et al., JMLR 7, 2006,
    Sec. 7 with Fig. 1's step sizes): when the hinge loss l = max(0, 1 - y f(x)) is positive,
    x joins the support vectors with coefficient y tau, tau = l / k(x, x) (PA),
    min(C, l / k(x, x)) (PA-I), l / (k(x, x) + 1/(2C)) (PA-II).

    >>> import numpy as np
    >>> from olbench import run
    >>> trace = run(KernelPA(variant="pa"), np.array([[3.0, 4.0], [3.0, 4.0]]), np.array([1, 1]))
    >>> trace.margins.tolist()       # the Gaussian k(x, x) = 1: one PA step gives f(x) = 1
    [0.0, 1.0]
    """

    summary = "PA, PA-I, PA-II with f(x) = Σ αᵢ k(xᵢ, x) and k(x, x) for ‖x‖²"
    source = "Crammer et al., JMLR 2006, Sec. 7"

    display_label = "Kernel PA"
    title_prefix = "Kernel "
    constraints = {"C": Interval(0, inf, low_open=True), "variant": OneOf(*_VARIANTS),
                   **KERNEL_CONSTRAINTS}

    def __init__(self, *, C: float = 1.0, variant: str = "pa1", kernel_type: str = "gaussian",
                 h: float = 1.0, degree: int = 2, offset: float = 1.0):
        self.C = C
        self.variant = variant
        self._init_kernel(kernel_type, h, degree, offset)

    def rule(self):
        return pa_rule.CLASSIFICATION

    def rule_params(self):
        return pa_rule.Params(*self.kernel_fields(), *step_size_params(self.C, self.variant), 0.0)


class KernelPARegressor(KernelPA, key="kernel_pa_regression"):
    """Kernel Passive-Aggressive regression (Crammer et al. 2006, Secs. 4 and 7): with
    l = max(0, |f(x) - y| - epsilon) > 0, x joins with coefficient sign(y - f(x)) tau, tau as
    for :class:`KernelPA`. Sugiyama's (2015, ch. 31) l2 PA regression with a Gaussian kernel
    model is ``variant="pa2", C=1/(2 lambda), epsilon=0``.

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[0.0], [0.0]]); y = np.array([2.0, 2.0])
    >>> run(KernelPARegressor(variant="pa", epsilon=0.5), X, y).margins.tolist()
    [0.0, 1.5]
    """

    task = "regression"
    constraints = {**KernelPA.constraints, "epsilon": Interval(0, inf)}

    def __init__(self, *, C: float = 1.0, variant: str = "pa1", epsilon: float = 0.1,
                 kernel_type: str = "gaussian", h: float = 1.0, degree: int = 2,
                 offset: float = 1.0):
        super().__init__(C=C, variant=variant, kernel_type=kernel_type, h=h, degree=degree,
                         offset=offset)
        self.epsilon = epsilon

    @classmethod
    def display_title(cls, params):
        return super().display_title(params) + " regression"

    def rule(self):
        return pa_rule.REGRESSION

    def rule_params(self):
        return pa_rule.Params(*self.kernel_fields(), *step_size_params(self.C, self.variant),
                              float(self.epsilon))


class KernelRLS(KernelLearner, key="kernel_rls"):
    """Kernel recursive least squares = kernel AROW regression: the dual of ``rls`` /
    ``arow_regression`` (prior Sigma_0 = a I, noise variance r), predicting
    f_t(x) = a k_t(x)' (a K_t + r I)^-1 y_t (Engel, Mannor, Meir, IEEE TSP 2004, KRLS without
    sparsification; Vaits & Crammer, ALT 2011, AROWR). Every example becomes a support vector
    and (a K + r I)^-1 is kept whole: O(n^2) memory and time per round after n rounds.

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[1.0], [1.0]]); y = np.array([2.0, 2.0])
    >>> run(KernelRLS(kernel_type="linear"), X, y).margins.tolist()   # 1 * 2 / (1 + 1)
    [0.0, 1.0]
    """

    summary = ("kernel RLS = kernel AROW regression: (aK + rI)⁻¹ grown by one row per round, no "
               "sparsification")
    source = "Engel, Mannor, Meir 2004; Vaits & Crammer 2011"

    display_label = "Kernel RLS"
    task = "regression"
    quadratic = True
    moves_on_zero_rows = True   # every row joins the support vectors, a zero one too
    constraints = {"r": Interval(0, inf, low_open=True), "a": Interval(0, inf, low_open=True),
                   **KERNEL_CONSTRAINTS}
    display_params = ("r", "kernel_type")

    def __init__(self, *, r: float = 1.0, a: float = 1.0, kernel_type: str = "gaussian",
                 h: float = 1.0, degree: int = 2, offset: float = 1.0):
        self.r = r
        self.a = a
        self._init_kernel(kernel_type, h, degree, offset)

    def rule(self):
        return rls_rule.RULE

    def rule_params(self):
        return rls_rule.Params(*self.kernel_fields(), float(self.a), float(self.r))

