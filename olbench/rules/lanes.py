"""The eight partial sums of a dense blocked reduction, written as vector instructions.

:func:`reductions._blocked_sum` defines the order of every sum over a row: partial sum i takes
terms i, i + 8, i + 16, ... of the full blocks of eight, the eight are combined pairwise,
then the remainder is added. Written as eight scalar accumulators, that order leaves it to
LLVM's SLP vectoriser whether the eight additions of a block become vector additions, and its
choice depends on the code around the sum: in a hand-written Perceptron loop it packs them
into one 8-lane register, inside olbench's generic loop (an early exit, an inlined rule that
returns a flag) into pairs of lanes with shuffles, 1.5x slower at d = 100 (benchmarks/README).

:func:`lane_sum` emits the vector form directly: the eight partial sums are the lanes of
vector accumulators (``WIDTH`` lanes each), every term is one ``fmul`` (two for three
factors, in the scalar order), every block one ``fadd`` per vector. Without fast-math flags
LLVM may neither re-associate nor contract these into FMAs, so each lane adds the same
rounded terms in the same order as the scalar code: the results are bit-identical
(tests/test_reductions.py); only the instructions differ. Where vectors are narrower than
``WIDTH`` (SSE only), LLVM splits them, which is the same arithmetic. The same loop serves
two fused forms that read a row once for two things: :func:`lane_dot_and_quad` (w.x and
x'Dx, AROW's diagonal predict) and :func:`lane_dot_axpy` (a dot and an axpy, each row of a
symmetric mat-vec on one triangle); each sum keeps its own lanes and order.

Only contiguous dense rows take this path (the ``C`` layout is known when a loop is compiled);
sparse rows gather through their indices and keep the scalar form.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

LANES = 8

#: Lanes per vector instruction: each block of eight is held in two 4-wide halves (the same
#: lanes, so the same sums). Measured on an AVX-512 Xeon (benchmarks/README): AROW diagonal
#: at d = 100 took 95-102 ns a round with halves, 107-111 ns with one 8-wide vector; the
#: Perceptron at d = 1000 took 624-633 ns with halves, 550-572 ns with 8-wide. Rows of tens
#: to hundreds of features are the common case, so halves it is; choosing per row length
#: in the loop made short rows slower (83 against 68 ns, Perceptron d = 100).
WIDTH = 4


def _is_contiguous_f8(ty) -> bool:
    return (isinstance(ty, types.Array) and ty.ndim == 1 and ty.layout == "C"
            and ty.dtype == types.float64)


def packable(a, val, b) -> bool:
    """Whether the typed arguments of a dense sum can take :func:`lane_sum` (compile time)."""
    return (_is_contiguous_f8(a) and _is_contiguous_f8(val)
            and (isinstance(b, types.NoneType) or _is_contiguous_f8(b)))


def _sum_lanes(builder, sums, n, axpy=None):
    """IR for the combined eight partial sums of each product in ``sums`` (a list of factor
    lists, each the factors' float64 pointers), all in one pass over the full blocks, each
    block of eight held in LANES / WIDTH vectors of WIDTH lanes; one value per product. With
    ``axpy`` = (pointer to out, scale), the same pass also does out[k] += scale * (the first
    product's first factor)[k]."""
    vector = ir.VectorType(ir.DoubleType(), WIDTH)
    full = builder.and_(n, ir.Constant(n.type, -LANES))
    parts = [[cgutils.alloca_once_value(builder, ir.Constant(vector, None))
              for _ in range(LANES // WIDTH)] for _ in sums]

    def address(pointer, k):
        return builder.bitcast(builder.gep(pointer, [k]), vector.as_pointer())

    def load(pointer, k):
        return builder.load(address(pointer, k), align=8)

    if axpy is not None:
        out, scalar = axpy
        scale = ir.Constant(vector, None)
        for i in range(WIDTH):
            scale = builder.insert_element(scale, scalar, ir.Constant(ir.IntType(32), i))

    zero, step = ir.Constant(n.type, 0), ir.Constant(n.type, LANES)
    with cgutils.for_range_slice(builder, zero, full, step) as (k, _):
        for i in range(LANES // WIDTH):
            at = builder.add(k, ir.Constant(n.type, i * WIDTH))
            for factors, part in zip(sums, parts):
                first = load(factors[0], at)
                term = builder.fmul(first, load(factors[1], at))
                for factor in factors[2:]:
                    term = builder.fmul(term, load(factor, at))
                builder.store(builder.fadd(builder.load(part[i]), term), part[i])
                if axpy is not None and factors is sums[0]:
                    target = address(out, at)
                    builder.store(builder.fadd(builder.load(target, align=8),
                                               builder.fmul(scale, first)), target, align=8)

    pair = builder.fadd
    results = []
    for part in parts:
        s = [builder.extract_element(builder.load(p), ir.Constant(ir.IntType(32), i))
             for p in part for i in range(WIDTH)]
        results.append(pair(pair(pair(s[0], s[1]), pair(s[2], s[3])),
                            pair(pair(s[4], s[5]), pair(s[6], s[7]))))
    return results


@intrinsic
def lane_sum(typingctx, a, val, b):
    """The combined partial sums ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7)) of
    a[k] * val[k] (* b[k]) over the first len(val) - len(val) % 8 entries; the caller adds
    the remainder. ``a``, ``val`` and ``b`` (or None) are contiguous float64 vectors, ``a``
    and ``b`` at least as long as ``val``."""
    if not packable(a, val, b):
        return None
    has_b = not isinstance(b, types.NoneType)

    def codegen(context, builder, signature, args):
        arrays = [context.make_array(ty)(context, builder, value)
                  for ty, value in zip(signature.args[:2 + has_b], args)]
        data = [array.data for array in arrays]
        n = builder.extract_value(arrays[1].shape, 0)
        return _sum_lanes(builder, [data], n)[0]

    return types.float64(a, val, b), codegen


@intrinsic
def lane_dot_axpy(typingctx, a, val, out, scale):
    """:func:`lane_sum` of a[k] * val[k], and in the same pass out[k] += scale * a[k] for the
    same k (the full blocks of eight of ``val``): one read of ``a`` for a dot and an axpy,
    as a symmetric mat-vec on one triangle needs of each row (covariance.symmetric_matvec)."""
    if not (packable(a, val, out) and isinstance(scale, types.Float)):
        return None

    def codegen(context, builder, signature, args):
        arrays = [context.make_array(ty)(context, builder, value)
                  for ty, value in zip(signature.args[:3], args[:3])]
        n = builder.extract_value(arrays[1].shape, 0)
        scale_value = context.cast(builder, args[3], signature.args[3], types.float64)
        return _sum_lanes(builder, [[arrays[0].data, arrays[1].data]], n,
                          axpy=(arrays[2].data, scale_value))[0]

    return types.float64(a, val, out, scale), codegen


@intrinsic
def lane_dot_and_quad(typingctx, a, val, b):
    """(:func:`lane_sum` (a, val, None), :func:`lane_sum` (b, val, val)) in one pass over
    ``val``: w.x and x'Dx of a row, as AROW's diagonal form needs both
    (reductions.dot_and_diag_quad)."""
    if not (packable(a, val, b) and not isinstance(b, types.NoneType)):
        return None

    def codegen(context, builder, signature, args):
        arrays = [context.make_array(ty)(context, builder, value)
                  for ty, value in zip(signature.args, args)]
        a_, val_, b_ = (array.data for array in arrays)
        n = builder.extract_value(arrays[1].shape, 0)
        sums = _sum_lanes(builder, [[a_, val_], [b_, val_, val_]], n)
        return context.make_tuple(builder, signature.return_type, sums)

    return types.UniTuple(types.float64, 2)(a, val, b), codegen
