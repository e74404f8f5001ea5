"""A synthetic results table shaped like the grid's, built from formulas: the input of the
view, figure and report tests (known means, one violated bound, one failed and one skipped
run whose garbage metrics must never reach a figure or a statistic)."""

from __future__ import annotations

import numpy as np
import pandas as pd

STREAMS = {
    "separable": ("Separable[n={n},d=2,gamma=0.1,R=1.0,seed={seed}]", 0.1),
    "noisy": ("Noisy[n={n},d=5,gamma=0.1,R=1.0,flip_rate=0.05,seed={seed}]", 0.1),
}
LEARNERS = {
    "perceptron": "Perceptron[libol=False]",
    "pa": "PA[C=1.0,variant=pa1]",
    "ogd": "OGD[eta=0.5,radius=1.0,schedule=sqrt]",
}
COMPARATOR = "BestFixed[loss=hinge,radius=1.0]"
BOUND_COLS = ["bound_name", "quantity", "bound", "observed", "ratio", "bound_holds",
              "skip_reason"]


def _bounds(stream_key: str, learner_key: str, seed: int, ts, mistakes, regret) -> list[dict]:
    """The bound rows of one run at every checkpoint (a list per bound name)."""
    if learner_key == "perceptron" and stream_key == "separable":
        return [{"bound_name": "novikoff", "quantity": "mistakes", "bound": 100.0,
                 "observed": mistakes},
                {"bound_name": "freund_schapire", "quantity": "mistakes",
                 "bound": 100.0 + 0 * ts, "observed": mistakes}]
    if learner_key == "perceptron":
        return [{"bound_name": "novikoff", "quantity": "mistakes",
                 "skip_reason": "stream not linearly separable"}]
    if learner_key == "pa" and stream_key == "separable":
        return [{"bound_name": "pa1_mistakes", "quantity": "mistakes",
                 "bound": 2 * mistakes + 10.0, "observed": mistakes}]
    if learner_key == "ogd":
        # The regret bound 3 sqrt(t) holds, but on the noisy stream's seed 2 it is made
        # too small at the last checkpoint: exactly one violated (run, bound).
        bound = 3.0 * np.sqrt(ts)
        if stream_key == "noisy" and seed == 2:
            bound[-1] = 0.5 * regret[-1]
        return [{"bound_name": "ogd_regret", "quantity": "regret", "bound": bound,
                 "observed": regret}]
    return []                                      # PA on the noisy stream: no bound applies


def make_table(seeds=(0, 1, 2), n: int = 1000, n_checkpoints: int = 20, *, bounds: bool = True,
               failures: bool = True, rng_seed: int = 7) -> pd.DataFrame:
    """A results table shaped like the grid's, built from formulas.

    Regret of every run is c * t**0.5 (c > 0 random per run; PA's is shifted down so that it
    starts negative); mistakes are increasing and below 100 on the separable stream. With
    ``failures``, one error run and one skipped run (NaN metrics) are added."""
    rng = np.random.default_rng(rng_seed)
    ts = np.unique(np.round(np.geomspace(1, n, n_checkpoints)).astype(int)).astype(float)
    rows = []
    for s_key, (fmt, gamma) in STREAMS.items():
        for l_key, learner in LEARNERS.items():
            for seed in seeds:
                c = rng.uniform(0.9, 1.1)
                regret = 2 * c * ts ** 0.5 - (8.0 if l_key == "pa" else 0.0)
                mistakes = np.minimum(ts, np.ceil(1.5 * c * ts ** 0.5))
                updates = mistakes if l_key == "perceptron" else np.ceil(0.6 * ts)
                cum_loss = 1.2 * mistakes + 1.0
                base = {"run_id": f"{s_key}-{l_key}-{seed}", "experiment": "synthetic",
                        "seed": seed, "stream": fmt.format(n=n, seed=seed),
                        "stream_key": s_key, "stream_n": n, "stream_d": 2, "stream_radius": 1.0,
                        "stream_margin": gamma, "stream_gamma": gamma,
                        "stream_fingerprint": f"fp{seed}", "learner": learner,
                        "learner_key": l_key, "comparator": COMPARATOR, "status": "ok",
                        "olbench_version": "0.1.0"}
                metrics = pd.DataFrame({
                    "t": ts, "loss": "hinge", "cum_loss": cum_loss, "avg_loss": cum_loss / ts,
                    "mistakes": mistakes, "mistake_rate": mistakes / ts,
                    "clean_mistakes": mistakes, "clean_mistake_rate": mistakes / ts,
                    "updates": updates, "comparator_loss": cum_loss - regret,
                    "regret": regret, "time_s": 2e-6 * c * ts})
                run_bounds = _bounds(s_key, l_key, seed, ts, mistakes, regret) if bounds else []
                for b in run_bounds or [{}]:
                    part = metrics.assign(**base)
                    for col in BOUND_COLS:
                        part[col] = b.get(col, None)
                    if "bound" in b:
                        part["ratio"] = part["observed"] / part["bound"]
                        part["bound_holds"] = list(part["observed"] <= part["bound"])
                    rows.append(part)
    table = pd.concat(rows, ignore_index=True)
    if failures:
        bad = []
        for run_id, status, learner in (
                ("noisy-arow-0", "error: LinAlgError: singular matrix", "AROW[r=1.0]"),
                ("noisy-rls-0", "skipped: regression learner on a classification stream",
                 "RLS[lam=1.0]")):
            row = table[table["seed"] == 0].iloc[-1].copy()
            row[["run_id", "status", "learner", "seed"]] = [run_id, status, learner, 0]
            metric_cols = ["t", "cum_loss", "avg_loss", "mistakes", "mistake_rate", "updates",
                           "comparator_loss", "regret", "time_s"]
            row[metric_cols] = 1e9                 # garbage: a figure showing it is wrong
            row[BOUND_COLS] = None
            bad.append(row)
        table = pd.concat([table, pd.DataFrame(bad)], ignore_index=True)
    return table
