"""Where the data of a run live: in memory, or read chunk by chunk from a file too large for it.

A file stream of more than :data:`CACHE_FILES_UP_TO` bytes is *out of core*: nothing of a
grid holds all of its rows. Its runs keep, in place of a
:class:`~olbench.protocol.Trace` (every round's margin, label and update flag: 17 bytes a
round), the cumulative sums the metrics need at the checkpoints (:class:`StreamSummary`,
:func:`run_streamed`), so a run's memory does not grow with n; its comparators are fitted
chunk by chunk from the file (:meth:`olbench.comparators.Comparator.fit_stream`), and a grid
asking for one that cannot be (a linear program with a column per round) is refused before
anything runs (:func:`unstreamable`), saying so with the file's size and the way out,
``run.comparators=false``. The theorems of :mod:`olbench.bounds` read every round's margin:
on such runs each is a row saying it was not checked and why.

Smaller file streams are parsed once per grid and cached whole on disk when several runs
read them (a table of 16 learners over 20 permutations of a dataset would otherwise parse
it 16 times per permutation; :func:`cache_only_shared`), and other streams are held in
memory anyway (synthetic ones are built there).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
from hydra.utils import get_class

from olbench.checkpoints import RunningSums
from olbench.losses import LABELLED_TASKS

#: file streams of at most this many bytes of files are parsed once per grid and cached
#: whole; larger ones are out of core: run and fitted chunk by chunk, in memory independent
#: of their length
CACHE_FILES_UP_TO = 256 * 2**20

#: the skip reason of every bound on a run over an out-of-core stream
BOUNDS_NOT_READ = ("the stream is a file too large for memory, run chunk by chunk: the run "
                   "keeps no per-round margins for the theorem to read")


# ----------------------------------------------------------------------------- which streams
def file_stamp(spec: dict) -> tuple | None:
    """(resolved path, size, mtime) of a file-backed stream: part of its cache key."""
    own = getattr(get_class(spec["_target_"]), "file_stamp", None)  # e.g. stream=dataset
    if own is not None:
        return own(spec)
    if "path" not in spec:
        return None
    from olbench.paths import resolve_path

    path = resolve_path(spec["path"])
    stat = path.stat()
    return str(path), stat.st_size, stat.st_mtime_ns


#: stream class (``_target_``) -> whether it has a ``file_stamp`` of its own
_STAMPED: dict[str, bool] = {}


def _file_backed(spec: dict) -> bool:
    """Can the stream of ``spec`` read a file (a ``path``, or a class with ``file_stamp``)?
    Cheap, so that a grid of 20,000 synthetic runs skips every file check."""
    target = spec["_target_"]
    if target not in _STAMPED:
        _STAMPED[target] = getattr(get_class(target), "file_stamp", None) is not None
    return "path" in spec or _STAMPED[target]


def file_bytes(stamp: tuple) -> int:
    """The size of the files in a :func:`file_stamp` ((path, size, mtime), one such tuple
    per file, or an OpenML name, held in memory anyway: 0)."""
    if len(stamp) == 3 and isinstance(stamp[1], int):
        return stamp[1]
    return sum(part[1] for part in stamp if isinstance(part, tuple))


def out_of_core_bytes(spec: dict) -> int | None:
    """The size of the files of a stream too large to be held in memory (None: it is not
    one). A file that cannot be read is left to the run, which says why."""
    try:
        stamp = file_stamp(spec)
    except Exception:
        return None
    size = None if stamp is None else file_bytes(stamp)
    return size if size is not None and size > CACHE_FILES_UP_TO else None


def _materialize(spec: dict, stamp: tuple | None, stream):
    """The rows and meta of ``stream``, which ``spec`` describes (with the files' ``stamp``,
    the key of the parse cache)."""
    X, y = stream.materialize()
    return X, y, stream.meta


def load_stream(spec: dict, cache_dir: str | None, whole: bool, stream=None):
    """The stream of a task: ``(stream, None)`` to run chunk by chunk, or
    ``(stream, (X, y, meta))`` held in memory: a file stream of at most
    :data:`CACHE_FILES_UP_TO` bytes with a cache (parsed once per grid: cached on disk with
    joblib.Memory, keyed by the spec and the files' size and mtime), or any other stream
    not out of core when ``whole`` (comparators need all the rows). An out-of-core stream
    is never loaded whole (:func:`out_of_core_bytes`). ``stream``: the stream of ``spec``
    if it is built already (else built here)."""
    from olbench.harness.run_one import build

    stream = build(spec) if stream is None else stream
    stamp = file_stamp(spec)
    size = None if stamp is None else file_bytes(stamp)
    if size is not None and size > CACHE_FILES_UP_TO:
        return stream, None
    if cache_dir and stamp is not None:
        from joblib import Memory

        cached = Memory(str(cache_dir), verbose=0).cache(_materialize, ignore=["stream"])
        return stream, cached(spec, stamp, stream)
    if not whole:
        return stream, None
    X, y = stream.materialize()
    return stream, (X, y, stream.meta)


def _where(spec: dict) -> str:
    stamp = file_stamp(spec)
    if len(stamp) == 3 and isinstance(stamp[1], int):
        return str(stamp[0])
    return ", ".join(str(part[0]) for part in stamp if isinstance(part, tuple))


def unstreamable(tasks) -> list[str]:
    """What the comparators of ``tasks`` on out-of-core streams cannot do: one line per
    (file, comparator) whose fit needs every row in memory (:meth:`streamed_problem`), with
    the file's size and the ways out. Comparators of another task than the learner's are
    not fitted, so not counted."""
    from olbench.harness.run_one import build, spec_key
    from olbench.harness.tasks import comparator_problem, learner_task

    sizes: dict[str, int | None] = {}
    found: dict[tuple, str] = {}
    for task in tasks:
        if not task.comparators or not _file_backed(task.stream):
            continue
        key = spec_key(task.stream)
        if key not in sizes:
            sizes[key] = out_of_core_bytes(task.stream)
        if sizes[key] is None:
            continue
        measured = learner_task(task.learner)
        for spec in task.comparators:
            if comparator_problem(spec, measured):   # not fitted, so not counted
                continue
            comparator = build(spec)
            problem = comparator.streamed_problem()
            where = _where(task.stream)
            if problem and (where, comparator.name) not in found:
                found[where, comparator.name] = (
                    f"{where} ({sizes[key] / 2**20:,.0f} MiB, over the "
                    f"{CACHE_FILES_UP_TO / 2**20:.0f} MiB that are held in memory) is read "
                    f"chunk by chunk, and comparator {comparator.name} cannot be fitted that "
                    f"way: {problem}")
    if not found:
        return []
    return [*found.values(), "use run.comparators=false (no regret), or a comparator that is "
            "fitted chunk by chunk: best_fixed with loss=squared, or loss=logistic or "
            "squared_hinge with ridge > 0, or generating"]


def refuse_unstreamable(tasks) -> None:
    """Raise a :class:`~olbench.harness.tasks.GridError` listing :func:`unstreamable`'s lines, if
    any: called before anything runs or is written."""
    from olbench.harness.tasks import GridError

    problems = unstreamable(tasks)
    if problems:
        raise GridError("a comparator cannot be fitted over a file read chunk by chunk:\n  "
                        + "\n  ".join(problems))


def cache_only_shared(tasks: list) -> list:
    """``tasks``, those without comparators whose stream is read by no other of them set to
    read it chunk by chunk (no ``cache_dir``) rather than parse it into the cache whole: no
    other run would read that copy, which held a 201 MiB file (10^6 rows) at 786 MiB."""
    from dataclasses import replace

    from olbench.harness.run_one import spec_key

    files = [t for t in tasks if not t.comparators and t.cache_dir and _file_backed(t.stream)]
    if not files:
        return tasks
    readers: dict[str, int] = {}
    for task in tasks:
        if _file_backed(task.stream):
            key = spec_key(task.stream)
            readers[key] = readers.get(key, 0) + 1
    alone = {id(t) for t in files if readers[spec_key(t.stream)] == 1}
    return [replace(t, cache_dir=None) if id(t) in alone else t for t in tasks]


def first_rows(stream, rows: int):
    """The first ``rows`` rows of ``stream`` as one (X, y), read chunk by chunk (all of them
    when it has fewer): what a picture of the points needs of a stream of any length."""
    import scipy.sparse as sp

    Xs, ys, have = [], [], 0
    for X, y in stream.chunks():
        Xs.append(X[:rows - have])
        ys.append(y[:rows - have])
        have += len(ys[-1])
        if have >= rows:
            break
    X = sp.vstack(Xs, format="csr") if sp.issparse(Xs[0]) else np.concatenate(Xs)
    return X, np.concatenate(ys)


# ----------------------------------------------------------------------------- the run
@dataclass(frozen=True)
class StreamSummary:
    """What a run over an out-of-core stream keeps in place of a Trace: the metrics'
    cumulative sums at the ``checkpoints`` (the run's loss, its mistakes under its tie rule
    for classification, its updates), the loop's cumulative time there, the final state."""

    learner: str
    task: str
    tie: str
    loss_name: str
    checkpoints: np.ndarray
    cum_loss: np.ndarray
    cum_mistakes: np.ndarray | None
    cum_updates: np.ndarray
    times: np.ndarray
    nonzero: np.ndarray
    state: dict[str, np.ndarray]
    n: int
    n_features: int
    bounds_skipped: str = BOUNDS_NOT_READ

    def time_at(self, t: Any) -> np.ndarray:
        """Cumulative loop time (s) after rounds ``t``, which must be checkpoints."""
        t = np.asarray(t)
        idx = np.searchsorted(self.checkpoints, t)
        if np.any(idx >= len(self.checkpoints)) or np.any(self.checkpoints[idx] != t):
            raise ValueError("a streamed run keeps its times at its checkpoints only")
        return self.times[idx]

    def nonzero_at(self, t: Any) -> np.ndarray:
        """The number of non-zero weights after rounds ``t``, which must be checkpoints."""
        self.time_at(t)                                  # the same check
        return self.nonzero[np.searchsorted(self.checkpoints, np.asarray(t))]


def run_streamed(learner, stream, *, loss: str | None = None, checkpoints,
                 chunk_size: int | None = None, tie: str | None = None,
                 memory_limit=None) -> StreamSummary:
    """Run ``learner`` over ``stream`` chunk by chunk (each chunk one call of
    :func:`olbench.run`, the learner's state carried from one to the next, so the rounds are
    those of one run over the whole stream) and keep only the sums at ``checkpoints``
    (:class:`~olbench.checkpoints.RunningSums`: bit for bit those of the whole run's
    arrays); each chunk's per-round arrays are dropped once summed. ``loss``, ``tie``,
    ``memory_limit``: as :func:`olbench.run`'s (each chunk is checked against the memory
    free before it runs, the state already held counted)."""
    from olbench.protocol import run

    ks = np.unique(np.asarray(checkpoints, dtype=np.int64))
    sums = RunningSums(ks)
    times, nonzero = np.zeros(len(ks)), np.zeros(len(ks))
    elapsed, trace = 0.0, None
    chunks = stream.chunks(chunk_size) if chunk_size else stream.chunks()
    for X, y in chunks:
        rows, before = X.shape[0], sums.rounds
        if rows == 0:
            continue
        inside = (ks > before) & (ks <= before + rows)
        try:
            with warnings.catch_warnings():   # one chunk of one class is no whole run's
                warnings.filterwarnings("ignore", message="every label is 0")
                trace = run(learner, X, y, loss=loss, tie=tie, reset=trace is None,
                            memory_limit=memory_limit,
                            checkpoints=ks[inside] - before if inside.any() else None)
        except ValueError as error:   # its row numbers count from the chunk's first round
            raise ValueError(f"rounds {before + 1}-{before + rows} (one chunk; rows counted "
                             f"from its first): {error}") from error
        times[inside] = elapsed + trace.time_at(ks[inside] - before)
        nonzero[inside] = trace.nonzero_at(ks[inside] - before)
        elapsed += trace.time_s
        counts = {"mistakes": trace.mistakes} if trace.task in LABELLED_TASKS else {}
        sums.add(loss=trace.losses, updates=trace.updated, **counts)
    if trace is None:
        raise ValueError("empty stream: there are no rows to learn from")
    if ks[-1] > sums.rounds:
        raise ValueError(f"checkpoint {ks[-1]} is past the last round ({sums.rounds})")
    return StreamSummary(learner=trace.learner, task=trace.task, tie=trace.tie,
                         loss_name=trace.loss_name, checkpoints=ks, cum_loss=sums.at["loss"],
                         cum_mistakes=sums.at.get("mistakes"), cum_updates=sums.at["updates"],
                         times=times, nonzero=nonzero, state=trace.state, n=sums.rounds,
                         n_features=trace.n_features)
