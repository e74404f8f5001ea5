"""The machine's memory and cores, and what a run may take of them.

Every learner declares the memory its state takes at its largest as a function of the data,
(n rows, d features, the non-zeros of sparse rows) and of its parameters (a budget):
:meth:`olbench.learners.base.Learner.footprint`, a :class:`Footprint`. :func:`olbench.run`
compares it, before anything is allocated, with the memory this machine has free (or a
given ``memory_limit``) and refuses a run that would not fit, naming what grows, the size
and a way out, instead of swapping for minutes or being killed; the tests hold every
declaration to the arrays the learner really allocates.

>>> from olbench import make_learner
>>> print(memory_problem(make_learner("kernel_rls"), n=50_000, d=20, limit="16GiB"))
... # doctest: +NORMALIZE_WHITESPACE
kernel_rls keeps an n x n matrix and n support vectors: 18.6 GiB for 50,000 rows, but
memory_limit is 16 GiB; use norma, forgetron or budget_perceptron (a fixed budget of
support vectors), or fewer rows
"""

from __future__ import annotations

import math
import os
import re
import sys
from dataclasses import dataclass
from typing import Any

#: bytes of the per-round record of a run (margin, update flag, label, and their
#: concatenation over chunks): :func:`olbench.run` keeps them for the trace
RECORD_BYTES_PER_ROUND = 34
#: needs below this are not checked against the machine (a learn_one step reads no file)
UNCHECKED_BELOW = 64 * 2**20
_UNITS = {"": 1, "b": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40, "p": 2**50,
          "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40, "pib": 2**50,
          "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12, "pb": 10**15}


class NotEnoughMemory(ValueError):
    """A run refused before it allocated: its state would not fit in the memory available."""


@dataclass(frozen=True)
class Footprint:
    """The memory a learner's state takes at its largest during a run.

    ``nbytes``: the size (a float: a budget of 2^62 slots overflows no integer here);
    ``keeps``: what is kept, in words ("a d x d covariance matrix"); ``driver``: the sizes
    and parameters that set it, with their values ("20,000 features", "budget=1,000,000
    and 20 features");
    ``advice``: how to need less ("use diagonal=true, or fewer features").
    """

    nbytes: float
    keeps: str
    driver: str
    advice: str = ""


def features(d: int) -> str:
    return f"{d:,} feature" + "s" * (d != 1)


def rows(n: int) -> str:
    return f"{n:,} row" + "s" * (n != 1)


def parameter(name: str, value: Any) -> str:
    """``budget=1,000,000`` (integers grouped; others as given)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) \
            and math.isfinite(value) and float(value).is_integer() and abs(value) < 1e15:
        return f"{name}={int(value):,}"
    return f"{name}={value!r}"


def format_bytes(nbytes: float) -> str:
    """Bytes as people read them: ``18.6 GiB``.

    >>> format_bytes(20_010_400_000), format_bytes(512), format_bytes(2.0**70)
    ('18.6 GiB', '512 bytes', '1.05e+06 PiB')
    """
    if nbytes < 1024:
        return f"{nbytes:.0f} bytes"
    for unit, size in (("PiB", 2**50), ("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20),
                       ("KiB", 2**10)):
        if nbytes >= size:
            return f"{nbytes / size:.3g} {unit}"
    raise AssertionError("unreachable")


# ----------------------------------------------------------------------------- sizes given
def size_problem(value: Any) -> str | None:
    """What is wrong with a memory size (``memory_limit``), or None: bytes (a positive
    number), or a number with a unit: KiB, MiB, GiB, TiB, PiB (powers of 1024; K, M, G,
    T, P alone too) or KB, MB, GB, TB, PB (powers of 1000)."""
    try:
        parse_size(value)
    except ValueError as error:
        return str(error)
    return None


def parse_size(value: Any) -> float | None:
    """A memory size in bytes (None stays None).

    >>> parse_size("16GiB"), parse_size("1.5 g"), parse_size("500MB"), parse_size(4096)
    (17179869184, 1610612736.0, 500000000, 4096)
    """
    if value is None:
        return None
    expected = ("must be a positive number of bytes or a size with a unit, e.g. 8GiB, "
                "512MiB, 2GB")
    if isinstance(value, bool):
        raise ValueError(expected)
    if isinstance(value, (int, float)):
        if not (math.isfinite(value) and value > 0):
            raise ValueError(expected)
        return value
    found = re.fullmatch(r"\s*([0-9]*\.?[0-9]+(?:e[+-]?[0-9]+)?)\s*([a-z]*)\s*",
                         str(value).lower()) if isinstance(value, str) else None
    if found is None or found.group(2) not in _UNITS \
            or not 0 < float(found.group(1)) * _UNITS[found.group(2)] < math.inf:
        raise ValueError(expected)
    number, scale = found.group(1), _UNITS[found.group(2)]
    whole = re.fullmatch(r"[0-9]+", number)
    return int(number) * scale if whole else float(number) * scale


# ----------------------------------------------------------------------------- the machine
def machine_free() -> int | None:
    """Bytes this machine can still give without swapping: the kernel's MemAvailable
    (and, in a container, what its cgroup's ``memory.max`` leaves); None if unknown."""
    free = None
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    free = int(line.split()[1]) * 1024
                    break
    except OSError:
        try:
            import psutil
        except ImportError:
            return None
        return int(psutil.virtual_memory().available)
    try:
        with open("/sys/fs/cgroup/memory.max", encoding="ascii") as limit, \
                open("/sys/fs/cgroup/memory.current", encoding="ascii") as used:
            cap = limit.read().strip()
            if cap.isdigit():
                left = int(cap) - int(used.read().strip())
                free = left if free is None else min(free, left)
    except (OSError, ValueError):
        pass
    return free


def available_memory() -> int | None:
    """Bytes this process can still allocate: the machine's (:func:`machine_free`), or less
    under an address-space limit (:func:`_address_space_left`); None if unknown."""
    return _smaller(machine_free(), _address_space_left())


def _smaller(a: int | None, b: int | None) -> int | None:
    return a if b is None else b if a is None else min(a, b)


def _address_space_left() -> int | None:
    """What the process's address-space limit (``ulimit -v``, RLIMIT_AS) leaves of it, or
    None without a limit: past it an allocation fails however much memory the machine has
    free (an 18.6 GiB kernel RLS matrix under a 4 GiB limit was a MemoryError, not a
    refusal)."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft == resource.RLIM_INFINITY:
            return None
        with open("/proc/self/statm", encoding="ascii") as statm:
            used = int(statm.read().split()[0]) * resource.getpagesize()
    except (ImportError, OSError, ValueError):
        return None
    return max(0, soft - used)


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity, else the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def capped_jobs(n_jobs: int) -> int:
    """``n_jobs`` workers, at most one per usable core (more only share the cores, each with
    its own memory); -1 and other negative counts keep joblib's meaning (all cores but
    ``-n_jobs - 1``). A cap is said on stderr.

    >>> capped_jobs(-1), capped_jobs(1)
    (-1, 1)
    """
    cores = usable_cores()
    if n_jobs <= cores:
        return n_jobs
    print(f"olbench: run.n_jobs={n_jobs} is more than the {cores} cores this process may use; "
          f"running {cores} workers", file=sys.stderr)
    return cores


# ----------------------------------------------------------------------------- the check
def memory_problem(learner, *, n: int, d: int, nnz: int | None = None, limit: Any = None,
                   held: int = 0, records: int | None = None) -> str | None:
    """Why a run of ``learner`` over n rows of d features (sparse rows of at most ``nnz``
    non-zeros) does not fit in ``limit`` (bytes or a size; None: the memory this machine
    has free), counting the ``held`` bytes of state it has already as part of it and the
    per-round records of ``records`` rows still to come (default n); None if it fits."""
    footprint = learner.footprint(n, d, nnz)
    need = footprint.nbytes + RECORD_BYTES_PER_ROUND * (n if records is None else records) \
        - held
    limit_bytes = parse_size(limit)
    if limit_bytes is None:
        if need < UNCHECKED_BELOW:
            return None
        machine, left = machine_free(), _address_space_left()
        free = _smaller(machine, left)
        if free is None or need <= free:
            return None
        where = (f"this machine has {format_bytes(free)} free" if free == machine else
                 f"this process may allocate {format_bytes(free)} more (its address-space "
                 f"limit, ulimit -v)")
    elif need <= limit_bytes:
        return None
    else:
        where = f"memory_limit is {format_bytes(limit_bytes)}"
    advice = f"; {footprint.advice}" if footprint.advice else ""
    return (f"{learner.key} keeps {footprint.keeps}: {format_bytes(need)} for "
            f"{footprint.driver}, but {where}{advice}")


def check_memory(learner, **sizes: Any) -> None:
    """Raise :class:`NotEnoughMemory` with :func:`memory_problem`'s reason, if any."""
    problem = memory_problem(learner, **sizes)
    if problem:
        raise NotEnoughMemory(problem)
