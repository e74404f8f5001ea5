"""Text read in blocks of whole lines, and pieces regrouped into chunks of a given size.

A block is the unit a file stream parses: a few MiB of whole lines, so that a file larger
than memory is read in constant memory and each block goes to a compiled parser at once.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "three.txt")
>>> _ = open(path, "wb").write(b"a\\nb\\nc")
>>> [(block, line) for block, line, _ in read_blocks(path, block_bytes=3)]
[(b'a\\n', 1), (b'b\\n', 2), (b'c', 3)]
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from olbench.streams.base import Chunk

#: bytes read per block (whole lines); the unit of parsing
BLOCK_BYTES = 1 << 20


def read_blocks(path: Path, start: int = 0, first_line: int = 1,
                block_bytes: int | None = None) -> Iterator[tuple[bytes, int, int]]:
    """(block of whole lines, number of its first line, its byte offset), in file order."""
    block_bytes = block_bytes or BLOCK_BYTES
    with open(path, "rb") as f:
        f.seek(start)
        carry, line, offset = b"", first_line, start
        while True:
            buf = f.read(block_bytes)
            data = carry + buf
            if not buf:
                if data:
                    yield data, line, offset
                return
            cut = data.rfind(b"\n")
            if cut < 0:
                carry = data
                continue
            block, carry = data[:cut + 1], data[cut + 1:]
            yield block, line, offset
            line += block.count(b"\n")
            offset += len(block)


def rechunk(pieces, size: int) -> Iterator[Chunk]:
    """Regroup (X, y) pieces of any sizes into chunks of exactly ``size`` rows (last: fewer).

    Only the rows that go into the next chunk are copied, so the memory held is about one
    piece plus one chunk."""
    buf: list[Chunk] = []
    rows = 0
    for X, y in pieces:
        start, total = 0, X.shape[0]
        while start < total:
            take = min(size - rows, total - start)
            whole = start == 0 and take == total
            buf.append((X, y) if whole else (X[start:start + take], y[start:start + take]))
            rows += take
            start += take
            if rows == size:
                yield _concat(buf)
                buf, rows = [], 0
    if rows:
        yield _concat(buf)


def _concat(pieces: list[Chunk]) -> Chunk:
    if len(pieces) == 1:
        return pieces[0]
    Xs = [p[0] for p in pieces]
    X = sp.vstack(Xs, format="csr") if sp.issparse(Xs[0]) else np.concatenate(Xs)
    return X, np.concatenate([p[1] for p in pieces])



__all__ = ["BLOCK_BYTES", "read_blocks", "rechunk"]
