"""The results table's columns, named once: every module that writes or reads the table
uses these names (never a string literal of its own: tests/test_schema_literals.py), and
:data:`COLUMNS` documents each (:data:`VIEW_COLUMNS`, those the table views add).

One long table, one row per (run, checkpoint t, bound). Identification columns are prefixed
by concept: ``stream_<param>`` / ``learner_<param>`` (each hyper-parameter of the run's
stream and learner), ``stream_n``, ``stream_d``, ... (the stream's meta), and
``<library>_version``. Conventions (labels in {-1, +1}, per-example losses, regret = the
learner's cumulative loss - the comparator's) are stated in :mod:`olbench.losses`.

>>> COLUMNS[REGRET]
"cum_loss - comparator_loss: the learner's regret against the comparator at t"
>>> is_documented("learner_C"), is_documented("numpy_version"), is_documented("colour")
(True, True, False)
"""

from __future__ import annotations

# ----------------------------------------------------------------------- identification
EXPERIMENT = "experiment"
RUN_ID = "run_id"
STATUS = "status"
TRACEBACK = "traceback"
SEED = "seed"
STREAM = "stream"
LEARNER = "learner"
COMPARATOR = "comparator"
STREAM_KEY = "stream_key"
LEARNER_KEY = "learner_key"
STREAM_N = "stream_n"
STREAM_D = "stream_d"
STREAM_RADIUS = "stream_radius"
STREAM_MARGIN = "stream_margin"
STREAM_FINGERPRINT = "stream_fingerprint"
# ----------------------------------------------------------------------- per checkpoint
T = "t"
LOSS = "loss"
CUM_LOSS = "cum_loss"
AVG_LOSS = "avg_loss"
MISTAKES = "mistakes"
MISTAKE_RATE = "mistake_rate"
CLEAN_MISTAKES = "clean_mistakes"
CLEAN_MISTAKE_RATE = "clean_mistake_rate"
TEST_MISTAKES = "test_mistakes"
TEST_MISTAKE_RATE = "test_mistake_rate"
TEST_AVG_LOSS = "test_avg_loss"
INLIER_MISTAKES = "inlier_mistakes"
INLIER_MISTAKE_RATE = "inlier_mistake_rate"
UPDATES = "updates"
COMPARATOR_LOSS = "comparator_loss"
REGRET = "regret"
COMPARATOR_MISTAKES = "comparator_mistakes"
MISTAKE_REGRET = "mistake_regret"
COMPARATOR_SKIP = "comparator_skip_reason"
NONZERO_WEIGHTS = "nonzero_weights"
TIME_S = "time_s"
WALL_S = "wall_s"
# ----------------------------------------------------------------------- per bound
BOUND_NAME = "bound_name"
QUANTITY = "quantity"
BOUND = "bound"
OBSERVED = "observed"
RATIO = "ratio"
BOUND_HOLDS = "bound_holds"
SKIP_REASON = "skip_reason"
TRIVIAL_BOUND = "trivial_bound"
BOUND_VACUOUS = "bound_vacuous"

# ----------------------------------------------------------------------- views
# columns the table views add to the rows they return (olbench.analysis.views.per_checkpoint):
# never stored, named here so that the views, the report and the figures spell them once
STREAM_LABEL = "stream_label"
LEARNER_LABEL = "learner_label"
STREAM_NAME = "stream_name"
LEARNER_NAME = "learner_name"

#: the status of a run that finished; failures are ``"error: <type>: <message>"``
OK = "ok"
#: how a comparator's skip reason (and the reason of a bound that needed it) begins when the
#: solver time limit (``run.solver_time_limit``) ran out: a transient failure, so the run is
#: not reused as finished: the next run of the grid fits again and recomputes it
TIMED_OUT = "time-out"

#: the bound columns, in table order (one row per bound and checkpoint)
BOUND_COLUMNS = [T, BOUND_NAME, QUANTITY, BOUND, OBSERVED, RATIO, BOUND_HOLDS, SKIP_REASON,
                 TRIVIAL_BOUND, BOUND_VACUOUS]

#: every fixed column, in table order, with what it holds
COLUMNS = {
    EXPERIMENT: "the experiment's name (single cells: single)",
    RUN_ID: "hash of the run's full specification: stream, learner, comparators, seed, ...",
    STATUS: "ok, or error: <type>: <message> for a run that failed (retried on re-run)",
    SEED: "the run seed (streams get a child seed of it)",
    STREAM: "the stream's deterministic name, e.g. Separable[n=1000,...]",
    LEARNER: "the learner's deterministic name, e.g. PA[C=1.0,variant=pa1]",
    COMPARATOR: "the comparator the regret columns of this row are measured against: every "
                "comparator of the grid has its own rows (none in the grid: empty)",
    T: "the checkpoint: rounds seen, 1-based",
    LOSS: "the per-example loss of cum_loss (hinge, squared, ...)",
    CUM_LOSS: "the learner's cumulative loss up to t",
    AVG_LOSS: "cum_loss / t",
    MISTAKES: "cumulative mistakes up to t (classification; tie rule of the learner)",
    MISTAKE_RATE: "mistakes / t",
    UPDATES: "cumulative rounds on which the update rule fired",
    COMPARATOR_LOSS: "the comparator's cumulative loss up to t (prefix comparators: the "
                     "prefix optimum)",
    REGRET: "cum_loss - comparator_loss: the learner's regret against the comparator at t",
    COMPARATOR_MISTAKES: "the comparator's fixed u: its cumulative mistakes up to t (same tie "
                         "rule; prefix comparators: empty)",
    MISTAKE_REGRET: "mistakes - comparator_mistakes: regret in the 0-1 sense, unchanged by a "
                    "rescaling of the learner's w (unlike cum_loss and regret)",
    COMPARATOR_SKIP: "why this row's comparator has no regret (not fitted, another loss, ...);"
                     " empty when it has one; 'time-out: ...' when the solver ran out of time "
                     "(the run is recomputed on re-run)",
    BOUND_NAME: "a theorem checked at t (olbench.bounds), or empty",
    QUANTITY: "what the theorem bounds: mistakes, sum_sq_hinge, regret",
    BOUND: "the bound's value at t",
    OBSERVED: "the bounded quantity's observed value at t",
    RATIO: "observed / bound",
    BOUND_HOLDS: "True, False (a violation: a bug), or empty when skipped",
    SKIP_REASON: "why a theorem could not be checked (e.g. which of its hypotheses fails)",
    TRIVIAL_BOUND: "the most the bounded quantity can be after t rounds whatever the learner "
                   "does (mistakes, updates: t; regret: where the theorem knows one, e.g. t "
                   "for Hedge on losses in [0, 1], G D t for OGD); empty when unknown",
    BOUND_VACUOUS: "True when bound >= trivial_bound: the bound cannot bind at t (it holds "
                   "whatever the learner does); empty when trivial_bound is",
    NONZERO_WEIGHTS: "how many of the d weights the learner predicts with after round t are "
                     "not 0 (its sparsity; kernel learners, whose w holds coefficients: "
                     "empty)",
    TIME_S: "cumulative wall time of the compiled loop up to t (s)",
    WALL_S: "wall time of the whole task: stream, run, comparators, metrics (s)",
    CLEAN_MISTAKES: "cumulative mistakes against the noise-free labels (noisy streams)",
    TEST_MISTAKES: "split=train_then_test: mistakes on the test part, rounds test_start+1..t "
                   "(empty up to the train/test boundary t = test_start, itself a checkpoint)",
    TEST_MISTAKE_RATE: "test_mistakes / (t - test_start): the test part's mistake rate",
    TEST_AVG_LOSS: "split=train_then_test: the mean loss over the test part's rounds up to t",
    CLEAN_MISTAKE_RATE: "clean_mistakes / t: the error rate against the true labels",
    INLIER_MISTAKES: "cumulative mistakes on the rounds that are not outliers (outlier "
                     "streams: meta.extra['outliers'])",
    INLIER_MISTAKE_RATE: "inlier_mistakes / the number of inlier rounds up to t",
    TRACEBACK: "the end of the traceback of a failed run",
    STREAM_KEY: "the stream's registry key (known even when the run failed early)",
    LEARNER_KEY: "the learner's registry key (known even when the run failed early)",
    STREAM_N: "the stream's length n",
    STREAM_D: "the stream's dimension d",
    STREAM_RADIUS: "R = max_t ||x_t||",
    STREAM_MARGIN: "gamma w.r.t. the generating vector (synthetic streams)",
    STREAM_FINGERPRINT: "sha256 of the stream's bytes (same seed, same fingerprint)",
}

#: the columns the views add, with what they hold (not stored: :func:`is_documented` is about
#: the stored table)
VIEW_COLUMNS = {
    STREAM_LABEL: "the stream's display name: short, and distinct from every other stream's "
                  "in the same table (olbench.analysis.views.short_label)",
    LEARNER_LABEL: "the learner's display name, as stream_label",
    STREAM_NAME: "the stream's full name without seed= (the seeds are the replicates)",
    LEARNER_NAME: "the learner's full name without seed=",
}

#: the first columns of a stored table, in this order (the rest follow alphabetically)
LEADING_COLUMNS = [EXPERIMENT, RUN_ID, STATUS, SEED, STREAM, LEARNER, COMPARATOR, T, LOSS,
                   CUM_LOSS, AVG_LOSS, MISTAKES, MISTAKE_RATE, UPDATES, COMPARATOR_LOSS, REGRET,
                   COMPARATOR_MISTAKES, MISTAKE_REGRET, COMPARATOR_SKIP,
                   BOUND_NAME, QUANTITY, BOUND, OBSERVED, RATIO, BOUND_HOLDS, SKIP_REASON,
                   TRIVIAL_BOUND, BOUND_VACUOUS, NONZERO_WEIGHTS, TIME_S, WALL_S]

#: prefixes of the parameter columns (``stream_<param>``, ``learner_<param>``)
PARAM_PREFIXES = ("stream_", "learner_")


def is_documented(column: str) -> bool:
    """A fixed column, a parameter column or a library version column."""
    return (column in COLUMNS or column.startswith(PARAM_PREFIXES)
            or column.endswith("_version"))


# ----------------------------------------------------------------------- summary.csv
#: metrics that summary.csv, the terminal, report.md and summary.tex give as the median and
#: quartiles over seeds instead of mean ± std: a wall time, where one preempted seed (0.006 ±
#: 0.013 s beside four seeds of 0.0001 s) must not move the centre; the LIBOL panels draw
#: the same (olbench.analysis.figures.libol)
MEDIAN_METRICS = (TIME_S,)


def summary_stats(metric: str) -> tuple[str, ...]:
    """The statistics over seeds that summary.csv gives for ``metric``, each in a column
    ``<metric>_<statistic>``.

    >>> summary_stats(MISTAKE_RATE), summary_stats(TIME_S)
    (('mean', 'std'), ('median', 'q1', 'q3'))
    """
    return ("median", "q1", "q3") if metric in MEDIAN_METRICS else ("mean", "std")


#: the columns of summary.csv (olbench.analysis.summary.summary_table): one row per stream x learner
#: x comparator, statistics over the ok runs (seeds) at each run's final checkpoint; <metric>
#: stands for each metric of olbench.analysis.summary.METRICS
SUMMARY_COLUMNS = {
    STREAM: "the stream's full name without seed=",
    LEARNER: "the learner's full name without seed=",
    COMPARATOR: "the comparator of the regret columns (—: none)",
    "n": "the stream's length",
    "runs": "runs of this cell, all statuses",
    "ok": "runs that finished",
    "errors": "runs that failed (status error: ...)",
    "<metric>_mean": "mean over the ok runs (every metric but those of MEDIAN_METRICS)",
    "<metric>_std": "sample standard deviation (ddof = 1) over the ok runs; empty for one run",
    "<metric>_median": "median over the ok runs (MEDIAN_METRICS: time_s)",
    "<metric>_q1": "first quartile over the ok runs (linear interpolation; MEDIAN_METRICS)",
    "<metric>_q3": "third quartile over the ok runs (MEDIAN_METRICS)",
    "<metric>_runs": "the ok runs with a value of the metric, which its statistics cover: "
                     "fewer than runs where runs failed or a comparator gave no fit (a "
                     "time-out); shown as '(k of n runs)'",
    "bounds_hold": "y: every bound check held; n: some check was violated (a bug); vacuous: "
                   "every check held but no bound could bind at a run's final round (each was "
                   ">= trivial_bound); —: no bound was checked",
    COMPARATOR_SKIP: "why the comparator gave no regret on some ok run; empty when it did",
}
