"""Compiled kernels: numba code only, arrays in, arrays out.

The kernel contract
-------------------
A learner's state is three arrays, the same slots for every learner so that one generated
loop serves them all (tuples of arrays cost 2x in numba's hot loop; fixed slots cost nothing):

``w``  float64[d']     the primary vector: weights, mean, or dual coefficients;
``A``  float64[k, d']  auxiliary matrix: a covariance (AROW, CW, SCW, second-order
                       perceptron), its diagonal as one row, stored support vectors,
                       or per-coordinate rows (FTRL's z and n, last-touched rounds);
``s``  float64[m]      scalar counters and scratch (round index t, number of support vectors).

Parameters come in as a namedtuple of numbers (``params.C``), built once by the Python front;
the namedtuple class must be called ``Params`` and live at module level, so that it pickles
by reference and numba's on-disk cache hits across processes.
A rule is two inline functions, ``predict(params, idx, val, w, A, s)`` (linear learners share
``rows.linear_predict``) and
``update(params, idx, val, y, margin, w, A, s)``; :func:`olbench.rules.loop.make_rule`
generates the loops, which stop at the first NaN/inf output (how non-finite inputs are caught
without a pass of their own). Rows are (idx, val) pairs handled by :mod:`olbench.rules.rows`
(``idx is None`` for dense rows), so each rule is written once for both formats.

How the learners still to come plug in
--------------------------------------
* Matrix state (full AROW, CW, SCW, second-order perceptron): ``A`` is the d x d matrix, as in
  :mod:`olbench.rules.arow`, of which a symmetric one keeps only its lower triangle from
  ``covariance.TRIANGLE_FROM`` features on; rank-one updates use
  ``covariance.symmetric_matvec`` and ``covariance.rank_one_downdate``, and the learner exports
  the whole matrix (``learners.state.symmetric``).
* Growing state (kernel perceptron, kernel PA, budgeted variants): ``A`` holds the support
  vectors row by row, ``w`` their coefficients, ``s[0]`` their count. Numba cannot grow arrays
  in place, so the Python front reserves capacity before each chunk
  (:meth:`olbench.learners.base.Learner._reserve`, given the chunk); budgeted variants have
  a fixed number of slots (the budget), made wide enough for the chunk's rows. Implemented
  by :mod:`olbench.rules.rkhs` (the kernels and the support-vector slots: dense, or packed
  for sparse rows) and :class:`olbench.learners.kernel.KernelLearner` (reserve by doubling,
  trim after a run).
* Lazy sparse updates (truncated gradient, FOBOS, RDA, AdaGrad, Pegasos: :mod:`.lazy`): ``A``
  carries per-coordinate rows (anchors, accumulators, the round or running total each was
  set at), of which each coordinate's current value is a closed form; the *predict* rule
  first writes the row's coordinates into ``w`` (allowed: it does not see y), so the cost
  per example is O(nnz), and ``Learner._finalize`` (called by :func:`olbench.run` after the
  last chunk, and before a checkpoint's count of non-zero weights) writes them all. The
  trajectory never reads ``w``, so catching up changes nothing that follows. FTRL-Proximal
  needs none of this: its ``w`` is the closed form of (z, n) at every round.
* Online convex optimisation (FTL, FTRL, EG, Hedge): the learner plays a point ``w_t`` before
  seeing the loss; the row x_t *is* the loss (a loss vector over experts, a linear loss's
  gradient), and ``predict`` returns the loss suffered, <w_t, x_t>, which is recorded before
  the update, exactly like a margin. The expert-advice setting is the same protocol with
  x_t = the experts' predictions and y_t = the outcome.
"""
