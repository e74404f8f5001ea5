"""The bound atlas's search (issue 30): for one theorem, one learner setting and one horizon
T, the legal stream with the largest observed / bound that a budgeted, seeded search finds.

Every candidate is scored by :func:`olbench.atlas.tightness.tightness`, the run's own bound
check, so the theorem's hypotheses are checked on each stream found (a candidate outside
them has no ratio and is never kept). Four stages, each generic (nothing here is written
for a particular theorem; a stream generator's search space is the generator's, in
:data:`SPACES`):

1. **starts**: the literature's constructions and olbench's generators of the learner's
   task, sized to T (:mod:`olbench.atlas.scan`);
2. **cross-entropy** over each generator's parameters (Rubinstein 1999): draws from a
   product of normals over the parameters (log scale where a parameter spans decades) and
   a uniform seed, the best quarter refits the normals, ``rounds`` x ``draws`` evaluations;
3. **greedy adversary**: from the rows of the best stream of stages 1-2 (its *pool*), each
   round shows the row that costs the learner most now, as the learner stands (a mistake
   first, then the larger loss; ``probes`` candidate rows a round, looked ahead on a copy
   of the learner: the protocol's state, no model of the learner);
4. **local search** over the order of the best stream so far: a swap of two rounds or the
   reversal of a stretch, kept when the ratio does not drop (``moves`` evaluations).

The stream of stages 3-4 is the chosen rows of a generator's stream
(:class:`~olbench.streams.transforms.Rows`): a witness keeps the generator, its seed and
the row indices, so it is small and re-runs anywhere.
"""

from __future__ import annotations

import copy
import hashlib
import warnings
from dataclasses import asdict, dataclass

import numpy as np

from olbench.atlas.scan import HORIZONS, candidates, generators
from olbench.atlas.tightness import tightness
from olbench.atlas.witness import Witness, build_stream

#: each generator's search space: parameter -> (low, high, scale); scale "log" or "linear",
#: "int" / "intlog" for integers. The rest of its parameters keep their defaults.
SPACES = {
    "separable": {"d": (2, 100, "intlog"), "gamma": (0.005, 0.5, "log")},
    "noisy": {"d": (2, 100, "intlog"), "gamma": (0.005, 0.5, "log"),
              "flip_rate": (0.0, 0.45, "linear")},
    "experts": {"N": (2, 100, "intlog"), "p_best": (0.0, 1.0, "linear"),
                "gap": (0.0, 0.5, "linear")},
    "linear_losses": {"d": (1, 50, "intlog"), "tilt": (0.0, 1.0, "linear")},
    "multiclass_separable": {"d": (2, 50, "intlog"), "k": (2, 10, "int"),
                             "gamma": (0.005, 0.3, "log")},
    "low_rank": {"d": (3, 30, "intlog"), "noise": (0.0, 1.0, "linear")},
}


@dataclass(frozen=True)
class Budget:
    """Evaluations per stage: cross-entropy ``rounds`` x ``draws`` per generator, greedy
    ``probes`` per round (and ``pools`` pools), local-search ``moves``."""

    rounds: int = 5
    draws: int = 12
    probes: int = 16
    pools: int = 3
    moves: int = 100


class NoLegalStream(ValueError):
    """No candidate stream met the theorem's hypotheses (every one got a skip reason)."""


@dataclass(frozen=True)
class Candidate:
    ratio: float | None
    spec: dict
    how: str
    source: str = ""


def ratio_of(theorem: str, learner, spec: dict, T: int) -> float | None:
    """observed / bound on the stream of ``spec`` (None: outside the theorem's hypotheses,
    or a stream the generator refuses to draw, or not the learner's input)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return tightness(theorem, learner, build_stream(spec), T).ratio
    except ValueError:
        return None


def _rng(seed: int, *names) -> np.random.Generator:
    """A generator for one search, from ``seed`` and the problem's names (so two problems
    never share draws, and the order they run in changes nothing)."""
    digest = hashlib.sha256("\0".join(map(str, names)).encode()).digest()
    return np.random.default_rng([int(seed), int.from_bytes(digest[:8], "little")])


def cross_entropy(theorem: str, learner, base: dict, T: int, rng, budget: Budget,
                  ) -> list[Candidate]:
    """Every draw of the cross-entropy search over the parameters of the generator ``base``
    (``SPACES[base["key"]]``), sized to T."""
    space = SPACES.get(base["key"])
    if not space:
        return []
    names = sorted(space)
    low = np.array([_to(space[p][0], space[p][2]) for p in names])
    high = np.array([_to(space[p][1], space[p][2]) for p in names])
    mean, std = (low + high) / 2, (high - low) / 2
    found = []
    for _ in range(budget.rounds):
        draws = np.clip(rng.normal(mean, std, (budget.draws, len(names))), low, high)
        scored = []
        for z in draws:
            params = {**base["params"], **{p: _from(v, space[p][2]) for p, v in zip(names, z)},
                      "seed": int(rng.integers(2**31))}
            spec = {"key": base["key"], "params": params}
            ratio = ratio_of(theorem, learner, spec, T)
            scored.append(-np.inf if ratio is None else ratio)
            if ratio is not None:
                what = ", ".join(f"{p}={params[p]:.4g}" for p in names)
                found.append(Candidate(ratio, spec, f"cross-entropy over {base['key']}'s "
                                       f"{', '.join(names)}: {what}"))
        elite = draws[np.argsort(scored)[::-1][:max(2, budget.draws // 4)]]
        mean = 0.3 * mean + 0.7 * elite.mean(axis=0)
        std = np.maximum(0.3 * std + 0.7 * elite.std(axis=0), (high - low) / 50)
    return found


def _to(value: float, scale: str) -> float:
    return float(np.log(value)) if scale.endswith("log") else float(value)


def _from(z: float, scale: str):
    value = float(np.exp(z)) if scale.endswith("log") else float(z)
    return int(round(value)) if scale.startswith("int") else value


def greedy(learner, pool, T: int, rng, probes: int) -> list[int]:
    """T rows of the stream ``pool`` chosen one at a time against ``learner``: each round,
    of ``probes`` rows drawn from the pool (and the row chosen last round), the one that
    costs the learner most as it now stands (a counted mistake first, then the larger
    loss), looked ahead on a copy of it; the learner then plays that row."""
    X, y = pool.materialize()
    classes = pool.meta.classes
    learner = learner.clone()
    chosen: list[int] = []
    from olbench.protocol import run

    for _ in range(T):
        trial = set(rng.choice(len(y), size=min(probes, len(y)), replace=False).tolist())
        if chosen:
            trial.add(chosen[-1])
        best, best_cost = None, None
        for i in sorted(trial):
            probe = copy.deepcopy(learner)
            trace = run(probe, X[i:i + 1], y[i:i + 1], reset=not probe.is_initialised,
                        classes=classes)
            cost = (bool(trace.mistakes[0]) if trace.mistakes is not None else False,
                    float(trace.losses[0]))
            if best_cost is None or cost > best_cost:
                best, best_cost = i, cost
        run(learner, X[best:best + 1], y[best:best + 1], reset=not learner.is_initialised,
            classes=classes)
        chosen.append(best)
    return chosen


def local_search(theorem: str, learner, start: Candidate, T: int, rng, moves: int,
                 ) -> Candidate:
    """The best order found by ``moves`` swaps and reversals of ``start``'s rounds (a move
    is kept when the ratio does not drop); ``start`` itself when none raised it."""
    inner, rows = _as_rows(start.spec, T)
    best = start
    how = (f"{start.how}; then a local search over its order ({moves} swaps and reversals)")
    for _ in range(moves):
        new = list(rows)
        i, j = sorted(rng.choice(len(new), size=2, replace=False).tolist())
        if rng.random() < 0.5:
            new[i], new[j] = new[j], new[i]
        else:
            new[i:j + 1] = new[i:j + 1][::-1]
        spec = {"key": "rows", "params": {"stream": inner, "rows": new}}
        ratio = ratio_of(theorem, learner, spec, T)
        if ratio is not None and ratio >= best.ratio:   # plateaus walked on
            rows = new
            best = Candidate(ratio, spec, how, start.source)
    return best if best.ratio > start.ratio else start   # no gain: the start as it was


def _as_rows(spec: dict, T: int) -> tuple[dict, list[int]]:
    """(inner stream spec, row indices) of a stream: its own, for chosen rows; else every
    row of it in order."""
    if spec["key"] == "rows":
        return spec["params"]["stream"], list(spec["params"]["rows"])
    return spec, list(range(T))


def search(theorem: str, learner_spec: dict, T: int, *, seed: int = 0,
           budget: Budget = Budget()) -> tuple[Witness, list[Candidate]]:
    """The witness of the largest ratio found for ``theorem`` and the learner
    ``{"key": ..., "params": {...}}`` at horizon ``T`` (module docs), and every candidate
    scored (for the record: starts included)."""
    from olbench.learners import make_learner

    learner = make_learner(learner_spec["key"], **learner_spec.get("params", {}))
    rng = _rng(seed, theorem, learner.name, T)
    first = [Candidate(ratio_of(theorem, learner, spec, T), spec, how, source)
             for spec, how, source in candidates(learner.task, T)]
    starts = {_stream_label(c.spec): c.ratio for c in first}
    built = [_stream_label(c.spec) for c in first if c.source]    # the constructions
    scored = [c for c in first if c.ratio is not None]
    for base in generators(learner.task, T):
        scored += cross_entropy(theorem, learner, base, T, rng, budget)
    pools = sorted(scored, key=lambda c: -c.ratio)
    seen = []
    for pool in pools:
        if len(seen) == budget.pools:
            break
        if pool.spec["key"] == "rows" or pool.spec in seen:
            continue
        seen.append(pool.spec)
        rows = greedy(learner, build_stream(pool.spec), T, rng, budget.probes)
        spec = {"key": "rows", "params": {"stream": pool.spec, "rows": rows}}
        ratio = ratio_of(theorem, learner, spec, T)
        if ratio is not None:
            scored.append(Candidate(ratio, spec, f"greedy adversary on the rows of "
                                    f"{pool.how.split(':')[0]}", pool.source))
    if not scored:
        raise NoLegalStream(f"{theorem} for {learner.name} at T={T}: no legal stream found")
    best = max(scored, key=lambda c: c.ratio)
    best = local_search(theorem, learner, best, T, rng, budget.moves)
    scored.append(best)
    extra = {"search": {"seed": seed, "budget": asdict(budget), "evaluated": len(scored)
                        + budget.moves, "starts": starts, "constructions": built}}
    return Witness(theorem, learner_spec, best.spec, T, best.ratio, best.how, best.source,
                   build_stream(best.spec).meta.fingerprint, extra), scored


def _stream_label(spec: dict) -> str:
    params = ", ".join(f"{k}={v}" for k, v in sorted(spec.get("params", {}).items())
                       if k != "seed")
    return f"{spec['key']}({params})"


def search_all(folder, horizons=HORIZONS, *, seeds=(0, 1), budget: Budget = Budget(),
               n_jobs: int = 1, keys=None) -> list[Witness]:
    """:func:`search` for every problem (:func:`olbench.atlas.scan.problems`) at every
    horizon, once per seed, the best of the seeds kept (its witness records its seed and
    budget: :func:`search` with them gives it again) and written into ``folder`` (the files
    there before are replaced); a problem no legal stream of its task reaches is left out
    (its theorem then has no witness: the tests say so)."""
    from pathlib import Path

    from joblib import Parallel, delayed

    from olbench.atlas.scan import problems, witness_path

    jobs = [(theorem, spec, T, seed) for theorem, spec in problems(keys) for T in horizons
            for seed in seeds]
    found = Parallel(n_jobs=n_jobs)(delayed(_search_or_none)(theorem, spec, T, seed, budget)
                                    for theorem, spec, T, seed in jobs)
    folder = Path(folder)
    best: dict[Path, Witness] = {}
    for w in found:
        path = None if w is None else witness_path(folder, w)
        if w is not None and (path not in best or w.ratio > best[path].ratio):
            best[path] = w
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.json"):
        old.unlink()
    for path, w in best.items():
        w.save(path)
    return list(best.values())


def _search_or_none(theorem, spec, T, seed, budget):
    try:
        return search(theorem, spec, T, seed=seed, budget=budget)[0]
    except NoLegalStream:       # any other error is the search's own: raised
        return None


def main(argv: list[str] | None = None) -> None:
    """``python -m olbench.atlas.search <folder> [--horizons 30 100 300] [--seeds 0 1]
    [--jobs 2] [--config conf/experiment/bound_atlas.yaml]``: search every declared theorem
    for every learner setting at every horizon with every seed, write the best witnesses into
    ``folder`` (and the study's config), print each ratio."""
    import argparse
    from pathlib import Path

    from olbench.atlas.scan import witness_path

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("folder")
    parser.add_argument("--horizons", type=int, nargs="+", default=list(HORIZONS))
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1])
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--learners", nargs="*", default=None)
    parser.add_argument("--config", default=None,
                        help="also write the study's experiment config here (olbench.atlas.study)")
    args = parser.parse_args(argv)
    for w in search_all(args.folder, tuple(args.horizons), seeds=tuple(args.seeds),
                        n_jobs=args.jobs, keys=args.learners):
        print(f"{witness_path(Path(args.folder), w).stem:60s} {w.ratio:.6f}  {w.how}")
    if args.config:
        from olbench.atlas.study import experiment_config

        Path(args.config).write_text(experiment_config(args.folder, tuple(args.horizons)))


if __name__ == "__main__":
    main()
