"""The initial-state options every learner accepts: ``init`` and ``init_seed``.

``init`` is

* ``"zeros"`` (the default): w_0 = 0;
* ``"randn"``: w_0 ~ N(0, I), d draws of ``default_rng(init_seed)`` (the ``t = randn(n,1)`` of
  Sugiyama's listings);
* a given vector: a list or array of d finite numbers, or the path of a ``.npy`` file or of a
  text file of d numbers (separated by white space or commas; ``#`` starts a comment), so
  that a listing can be rerun from its own w0. On the command line:
  ``learner.init=[0.1,0.2]`` or ``learner.init=path/w0.npy`` (a relative path is looked up
  in the working directory, then the repository root, as data files are).

A given vector is checked when a run starts: its numbers (finite, a flat list), then its
length against the stream's d; a file that cannot be read is named. Names show it by a
short hash of its values (``PA[C=1.0,variant=pa1,init=w0:3f2a9c1b5d]``), the same whether
it came as a list, an array or a file, so they stay short and deterministic.
"""

from __future__ import annotations

import hashlib
import math
import numbers
from pathlib import Path
from typing import Any

import numpy as np

from olbench.component import Constraint, Interval

DRAWN = ("zeros", "randn")
#: how names show a given vector: this prefix and the start of the hash of its float64 bytes
LABEL_PREFIX = "w0:"


class InitialVector(Constraint):
    """``"zeros"``, ``"randn"``, a flat sequence of numbers, or a file path (read at run
    start, where a missing or malformed file is reported with its name)."""

    def check(self, value: Any) -> bool:
        if isinstance(value, str):
            return bool(value.strip())
        if isinstance(value, np.ndarray):
            return value.ndim == 1 and value.dtype.kind in "fiu" and value.size > 0
        if isinstance(value, (list, tuple)):
            return len(value) > 0 and all(isinstance(v, numbers.Real)
                                          and not isinstance(v, bool) for v in value)
        return False

    def describe(self) -> str:
        return "'zeros', 'randn', a list of d numbers, or a .npy or text file of them"


INIT_OPTIONS = {"init": ("zeros", InitialVector()),
                "init_seed": (0, Interval(0, math.inf, integer=True))}


def is_given(init: Any) -> bool:
    """Is ``init`` a given vector (or file), rather than ``"zeros"`` or ``"randn"``?"""
    return not (isinstance(init, str) and init in DRAWN)


def is_zeros(init: Any) -> bool:
    return isinstance(init, str) and init == "zeros"


def given_vector(init: Any) -> np.ndarray:
    """The vector ``init`` gives (a copy), its numbers checked finite.

    >>> given_vector([0.5, -1]).tolist()
    [0.5, -1.0]
    >>> given_vector([1.0, float("nan")])
    Traceback (most recent call last):
    ...
    ValueError: init: entry 1 is nan; the initial weights must be finite numbers
    """
    if isinstance(init, (str, Path)):
        vector, where = _read_file(str(init)), f"init file {str(init)!r}"
    else:
        vector, where = np.array(init, dtype=np.float64).ravel(), "init"
    bad = np.flatnonzero(~np.isfinite(vector))
    if bad.size:
        raise ValueError(f"{where}: entry {bad[0]} is {vector[bad[0]]}; the initial weights "
                         f"must be finite numbers")
    return vector.copy()


def initial_weights(init: Any, seed: int, d: int) -> np.ndarray:
    """w_0 for ``init`` and d features: zeros, d standard normal draws of
    ``default_rng(seed)`` (which seeds its PCG64 through ``SeedSequence(seed)``, so nearby
    seeds draw unrelated w_0), or the given vector, whose length must be d.

    >>> initial_weights("randn", 0, 2).round(4).tolist()
    [0.1257, -0.1321]
    >>> initial_weights([0.1, 0.2, 0.3], 0, 2)
    Traceback (most recent call last):
    ...
    ValueError: init has 3 numbers but the stream has d = 2 features
    """
    if is_zeros(init):
        return np.zeros(d)
    if not is_given(init):
        return np.random.default_rng(int(seed)).standard_normal(d)
    vector = given_vector(init)
    if vector.shape[0] != d:
        source = f"init file {str(init)!r}" if isinstance(init, (str, Path)) else "init"
        raise ValueError(f"{source} has {vector.shape[0]} numbers but the stream has d = {d} "
                         f"features")
    return vector


def init_label(init: Any) -> Any:
    """How a name shows ``init``: ``"zeros"``/``"randn"`` as they are, a given vector by
    :data:`LABEL_PREFIX` and 10 hex digits of the SHA-256 of its float64 values; a file
    that cannot be read (the run will say why) by its path; a label by itself.

    >>> init_label([0.1, 0.2]) == init_label(np.array([0.1, 0.2])), init_label("randn")
    (True, 'randn')
    >>> init_label([0.1, 0.2])
    'w0:15d49616ee'
    """
    if not is_given(init) or (isinstance(init, str) and init.startswith(LABEL_PREFIX)):
        return init
    try:
        vector = given_vector(init)
    except (OSError, ValueError):
        return str(init) if isinstance(init, (str, Path)) else init
    digest = hashlib.sha256(np.ascontiguousarray(vector, dtype="<f8").tobytes()).hexdigest()
    return LABEL_PREFIX + digest[:10]


def _read_file(path: str) -> np.ndarray:
    """The numbers of a .npy or text file. Read afresh each time (no cache keyed on the
    file's time stamp, which two writes within a few milliseconds can share): a name or run
    id always reflects the file's present content."""
    from olbench.paths import resolve_path

    try:
        found = str(resolve_path(path))
    except FileNotFoundError:
        where = "" if Path(path).is_absolute() else " (nor relative to the repository root)"
        raise FileNotFoundError(f"init file {path!r} not found{where}; init is "
                                f"{InitialVector().describe()}") from None
    if found.endswith(".npy"):
        try:
            array = np.load(found, allow_pickle=False)
        except (OSError, ValueError) as error:
            raise ValueError(f"init file {path!r}: not a readable .npy file ({error})") from None
        if array.dtype.kind not in "fiu" or sum(n > 1 for n in array.shape) > 1:
            raise ValueError(f"init file {path!r} holds an array of {array.dtype} and shape "
                             f"{array.shape}; it must hold d numbers (one row or column)")
        return array.astype(np.float64).ravel()
    try:
        lines = Path(found).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"init file {path!r}: cannot read it as text ({error})") from None
    tokens = [line.split("#", 1)[0].replace(",", " ").split() for line in lines]
    try:
        vector = np.array([t for line in tokens for t in line], dtype=np.float64)
    except ValueError:   # say where
        lineno, token = next((n, t) for n, line in enumerate(tokens, start=1) for t in line
                             if not _is_number(t))
        raise ValueError(f"{path}:{lineno}: {token!r} is not a number; an init file holds d "
                         f"numbers") from None
    if not vector.size:
        raise ValueError(f"init file {path!r} holds no numbers")
    return vector


def _is_number(token: str) -> bool:
    try:
        float(token)
    except ValueError:
        return False
    return True
