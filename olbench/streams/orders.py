"""The row orders of real-data streams (the option ``order`` of files, bundled sets and
datasets by name), one function for in-memory and file streams alike:

* ``"file"``: the rows as the file has them;
* ``"permuted"``: one permutation seeded by ``seed`` (numpy's default generator);
* ``"libol"``: LIBOL's own permutations. LIBOL's ``demo.m`` visits the rows of its run i
  (i = 1..20) in the order ``rand_c(1:n, i)``; ``rand_c`` is a MEX file whose shipped binary
  seeds the C runtime of Visual C++ 2010 with ``srand(i)`` and applies
  ``std::random_shuffle`` to 1..n. Both routines are documented:

  - MSVC ``rand()``: ``state = state * 214013 + 2531011 (mod 2^32)``, returns
    ``(state >> 16) & 0x7fff`` (15 bits);
  - VC++ 2010 ``std::random_shuffle``: for i = 1 .. n-1 (0-based) swap a[i] with a[j],
    j = r % (i + 1), where r is one ``rand()`` while i + 1 <= 0x7fff; for larger i + 1 it
    takes further ``rand()`` calls, 15 bits each, shifted in (in 32-bit unsigned
    arithmetic) until the range covers i + 1.

  ``seed`` is LIBOL's run index i, so a grid over seeds 1..20 runs LIBOL's 20 orders (the
  harness gives such a stream the run's seed itself, not a child of it:
  :meth:`olbench.streams.base.Stream.seed_in_run`). Verified against LIBOL's published output:
  with these orders the Perceptron on svmguide3 (n = 1,243) prints LIBOL's demo output,
  0.3318 ± 0.0118 mistake rate and 412.45 ± 14.66 updates (tests/test_libol_orders.py).
  The branch for n > 32,767 (several ``rand()`` per index) follows the same library
  source but is **not verified** against LIBOL's own runs.

>>> permutation(5, seed=0).tolist()
[2, 4, 3, 0, 1]
>>> permutation(5, seed=1, order="libol").tolist()   # rand(): 41, 18467, 6334, 26500
[4, 1, 3, 2, 0]
"""

from __future__ import annotations

import numpy as np

ORDERS = ("file", "permuted", "libol")
#: orders whose ``seed`` is the index of the run (LIBOL's i), not a seed to derive from
RUN_INDEXED_ORDERS = ("libol",)

_RAND_BITS = 15
_RAND_MAX = (1 << _RAND_BITS) - 1      # MSVC's RAND_MAX, 0x7fff
_U32 = 0xFFFFFFFF                      # MSVC's unsigned long is 32 bits wide


def permutation(n: int, seed: int, order: str = "permuted") -> np.ndarray:
    """The order in which a stream of ``n`` rows visits them (0-based row indices) under
    ``order`` ("permuted" or "libol"; "file" needs none)."""
    if order == "libol":
        return libol_permutation(n, seed)
    if order == "permuted":
        return np.random.default_rng(int(seed)).permutation(n)
    raise ValueError(f"order {order!r} has no permutation; orders: {', '.join(ORDERS)}")


def msvc_rand(seed: int):
    """The values of MSVC's ``rand()`` after ``srand(seed)``, endlessly.

    >>> from itertools import islice
    >>> list(islice(msvc_rand(1), 5))   # the C runtime's well-known first five
    [41, 18467, 6334, 26500, 19169]
    """
    state = int(seed) & _U32
    while True:
        state = (state * 214013 + 2531011) & _U32
        yield (state >> 16) & _RAND_MAX


def libol_permutation(n: int, run: int) -> np.ndarray:
    """LIBOL's order of run ``run`` over ``n`` rows: ``rand_c(1:n, run) - 1`` (the module's
    docstring gives the two library routines it follows)."""
    run = int(run)
    if not 0 <= run <= _U32:
        raise ValueError(f"order='libol': the seed is LIBOL's run index, passed to srand() as "
                         f"a 32-bit unsigned integer; got {run}")
    rand = msvc_rand(run)
    rows = list(range(n))
    for i in range(1, n):
        index = i + 1
        r, reach = next(rand), _RAND_MAX
        while reach < index and reach != _U32:          # n > 32,767 only: unverified
            reach = ((reach << _RAND_BITS) | _RAND_MAX) & _U32
            r = ((r << _RAND_BITS) | next(rand)) & _U32
        j = r % index
        rows[i], rows[j] = rows[j], rows[i]
    return np.asarray(rows, dtype=np.int64)
