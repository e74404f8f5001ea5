"""Streams read from files: svmlight/LIBSVM, CSV, and LIBOL's MATLAB .mat files.

Text files are read in blocks of whole lines (a few MiB) and each block is parsed by a
compiled parser (scikit-learn's ``load_svmlight_file`` for svmlight, pandas' C parser for
CSV), so a file larger than memory streams in constant memory. A stream makes up to three
passes, each in constant memory, the first one on first use (never in ``__init__``):

1. a *scan*, which validates every line (errors name ``file:line`` and what is wrong), counts
   the rows, collects the labels seen, infers the number of features and, for
   ``order="permuted"``, records where each row starts (8 + 4 bytes per row);
2. for ``standardize=True`` only, a pass computing per-feature means and deviations;
3. the stream itself, as often as asked; ``meta`` streams it once to get R and the
   fingerprint, and caches the result.

Relative paths are tried against the working directory, then the repository root, so
``../shared/data/libsvm/a9a`` works from anywhere. Labels: see
:mod:`olbench.labels`; row transforms: :mod:`olbench.streams.preprocess`.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "toy.svm")
>>> _ = open(path, "w").write("+1 1:3 2:4\\n-1 2:1\\n")
>>> s = Svmlight(path=path)
>>> s.meta.n, s.meta.d, s.meta.radius
(2, 2, 5.0)
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp

from olbench.component import Interval, InvalidParameterError, IsInstance, OneOf
from olbench.features import as_features, row_norms
from olbench.labels import LabelMap, describe_labels, sorted_labels
from olbench.streams.base import (
    Chunk,
    Fingerprint,
    Stream,
    StreamMeta,
    _check_chunk_size,
    append_bias,
)
from olbench.streams.preprocess import ColumnStats, Standardizer, normalize_rows
from olbench.streams.real import REAL_DATA_CONSTRAINTS, RealArrays, permutation

#: the repository root (folder holding ``olbench/``); relative paths fall back to it
REPO_ROOT = Path(__file__).resolve().parents[2]
#: bytes read per block (whole lines); the unit of parsing
BLOCK_BYTES = 1 << 20
#: rows gathered per read in permuted order
GATHER_ROWS = 8192


def shared_data_dir() -> Path:
    """``../shared/data`` relative to the repository root (benchmark files; may be absent)."""
    return REPO_ROOT.parent / "shared" / "data"


def resolve_path(path: str | Path) -> Path:
    """An existing file: ``path`` as given, else relative to the repository root."""
    p = Path(path).expanduser()
    if p.is_file():
        return p
    if not p.is_absolute() and (REPO_ROOT / p).is_file():
        return REPO_ROOT / p
    where = "" if p.is_absolute() else f" (nor relative to the repository root {REPO_ROOT})"
    raise FileNotFoundError(f"data file not found: {str(path)!r}{where}")


def _decode(line: bytes, path: Path, lineno: int) -> str:
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"{path}:{lineno}: not UTF-8 text ({error}); convert the file, e.g. "
                         f"iconv -f latin1 -t utf-8") from None


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


@dataclass
class _Scan:
    """What the first pass learned about a file."""

    n_rows: int = 0                      # data rows in the file
    labels_seen: set = field(default_factory=set)
    n_columns: int = 0                   # svmlight: max raw index + 1; CSV: feature columns
    min_index: int | None = None         # svmlight: smallest raw index seen
    col_offset: int = 0                  # svmlight: 1 for one-based files
    d: int = 0
    positive: Any = None
    labels: LabelMap | None = None       # classification: the resolved label mapping
    starts: list = field(default_factory=list)   # permuted order: byte offset of each row
    lengths: list = field(default_factory=list)  # ... and its length in bytes
    standardizer: Standardizer | None = None
    extra: dict = field(default_factory=dict)


class TextFile(Stream):
    """Base of file streams read in blocks: subclasses parse one block of lines."""

    constraints = {**REAL_DATA_CONSTRAINTS, "path": IsInstance(str, Path),
                   "task": OneOf("classification", "regression")}
    comment = b"#"

    # ---------------------------------------------------------------- format hooks
    def _start(self, path: Path) -> tuple[int, int]:
        """(byte offset, line number) of the first data line."""
        return 0, 1

    def _parse(self, block: bytes) -> tuple[Any, np.ndarray]:
        """(raw X, raw labels) of a block; raise ValueError on bad input (any message)."""
        raise NotImplementedError

    def _locate(self, block: bytes, first_line: int, error: Exception) -> Exception:
        """The error naming file:line: bisect for the shortest failing prefix of the block."""
        lines = self._data_lines(block, first_line)
        lo, hi = 0, len(lines)          # invariant: lines[:lo] parse, lines[:hi] do not
        while hi - lo > 1:
            mid = (lo + hi) // 2
            try:
                self._parse(b"\n".join(ln for _, ln in lines[:mid]) + b"\n")
                lo = mid
            except (ValueError, IndexError, OverflowError):
                hi = mid
        if lines:
            lineno, line = lines[hi - 1]
            try:
                self._parse(line + b"\n")
            except (ValueError, IndexError, OverflowError) as e:
                error = e
            return self._error(lineno, f"{self._explain(error)}: {self._show(line)}")
        last = first_line + block.count(b"\n")
        return ValueError(f"{self._path()}:{first_line}-{last}: {self._explain(error)}")

    @staticmethod
    def _show(line: bytes) -> str:
        return "line " + repr(line.strip()[:120].decode("utf-8", "replace"))

    def _explain(self, error: Exception) -> str:
        return str(error)

    def _columns(self, scan: _Scan, X_raw) -> Any:
        return X_raw

    # ---------------------------------------------------------------- helpers
    def _path(self) -> Path:
        return resolve_path(self.path)

    def _error(self, lineno: int, what: str) -> ValueError:
        return ValueError(f"{self._path()}:{lineno}: {what}")

    def _is_data(self, line: bytes) -> bool:
        return bool(line.split(self.comment, 1)[0].strip()) if self.comment else bool(line.strip())

    def _data_lines(self, block: bytes, first_line: int) -> list[tuple[int, bytes]]:
        lines = block.split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        return [(first_line + i, ln) for i, ln in enumerate(lines) if self._is_data(ln)]

    def _parse_at(self, block: bytes, first_line: int) -> tuple[Any, np.ndarray]:
        try:
            return self._parse(block)
        except (ValueError, IndexError, OverflowError) as e:
            raise self._locate(block, first_line, e) from None

    def _row_error(self, block: bytes, first_line: int, row: int, what: str) -> ValueError:
        """The error for data row ``row`` of a block, naming its file:line and showing it."""
        lineno, line = self._data_lines(block, first_line)[row]
        return self._error(lineno, f"{what}: {self._show(line)}")

    # ---------------------------------------------------------------- pass 1: scan
    def _scan(self) -> _Scan:
        return self._cached("_scan_cache", self._do_scan)

    def _do_scan(self) -> _Scan:
        path = self._path()
        scan = _Scan()
        start, line0 = self._start(path)
        permuted = self.order == "permuted"
        for block, first_line, offset in read_blocks(path, start, line0):
            X_raw, raw = self._parse_at(block, first_line)
            self._check_block(scan, X_raw, raw, block, first_line)
            scan.n_rows += X_raw.shape[0]
            if self.task == "classification":
                scan.labels_seen.update(np.unique(raw).tolist())
            if permuted:
                self._record_offsets(scan, block, offset, X_raw.shape[0], first_line)
        if scan.n_rows == 0:
            raise ValueError(f"{path}: no data rows")
        self._finish_scan(scan)
        if self.task == "classification":
            scan.labels = LabelMap(self.positive_label, self.negative_label, source=str(path))
            scan.positive = scan.labels.resolve(scan.labels_seen)
            scan.extra["labels_seen"] = sorted_labels(scan.labels_seen)
            scan.extra["positive_label"] = scan.positive
        if self.standardize:
            stats = ColumnStats(scan.d)
            for X, _ in self._pieces(scan, transform=False, order="file"):
                stats.update(X)
            scan.standardizer = stats.standardizer()
        return scan

    def _check_block(self, scan, X_raw, raw, block, first_line) -> None:
        if raw.dtype == object:  # string class names (CSV)
            return
        what = "target" if self.task == "regression" else "label"
        if not np.all(np.isfinite(raw)):
            bad = int(np.flatnonzero(~np.isfinite(raw))[0])
            raise self._row_error(block, first_line, bad, f"{what} is not a finite number")
        fractional = raw != np.round(raw)
        if self.task == "classification" and self.positive_label is None and fractional.any():
            bad = int(np.flatnonzero(fractional)[0])
            raise self._row_error(block, first_line, bad,
                                  f"label {raw[bad].item()!r} is not a class code (for real-valued "
                                  f"targets pass task=regression)")

    def _finish_scan(self, scan: _Scan) -> None:
        scan.d = scan.n_columns

    def _record_offsets(self, scan, block, offset, n_parsed, first_line) -> None:
        lines = block.split(b"\n")
        pos = offset
        rows = 0
        for ln in lines:
            if self._is_data(ln):
                scan.starts.append(pos)
                scan.lengths.append(len(ln) + 1)
                rows += 1
            pos += len(ln) + 1
        if rows != n_parsed:
            raise ValueError(f"{self._path()}:{first_line}: order='permuted' needs exactly one "
                             f"row per line ({rows} data lines gave {n_parsed} rows)")

    # ---------------------------------------------------------------- pass 2+: stream
    def _raw_pieces(self, scan: _Scan, order: str) -> Iterator[tuple[Any, np.ndarray]]:
        path = self._path()
        if order == "file":
            start, line0 = self._start(path)
            for block, first_line, _ in read_blocks(path, start, line0):
                yield self._parse_at(block, first_line)
            return
        starts = np.asarray(scan.starts, dtype=np.int64)
        lengths = np.asarray(scan.lengths, dtype=np.int64)
        perm = permutation(len(starts), self.seed)
        with open(path, "rb") as f:
            for i in range(0, len(perm), GATHER_ROWS):
                parts = []
                for j in perm[i:i + GATHER_ROWS]:
                    f.seek(starts[j])
                    parts.append(f.read(lengths[j]).rstrip(b"\r\n") + b"\n")
                yield self._parse(b"".join(parts))

    def _pieces(self, scan: _Scan, transform: bool = True,
                order: str | None = None) -> Iterator[Chunk]:
        labels = scan.labels
        for X_raw, raw in self._raw_pieces(scan, order or self.order):
            X = self._columns(scan, X_raw)
            if labels is not None:
                y, keep = labels.apply(raw)
                if keep is not None:
                    X = X[keep]
            else:
                y = np.asarray(raw, dtype=np.float64)
            if transform:
                if scan.standardizer is not None:
                    X = scan.standardizer.apply(X)
                if self.normalize:
                    X = normalize_rows(X)
                if self.bias:
                    X = append_bias(X)
            yield as_features(X, check_finite=False), y  # run() names the bad row

    def chunks(self, chunk_size: int | None = None) -> Iterator[Chunk]:
        size = _check_chunk_size(chunk_size)
        yield from rechunk(self._pieces(self._scan()), size)

    @property
    def meta(self) -> StreamMeta:
        return self._cached("_meta_cache", self._compute_meta)

    def _compute_meta(self) -> StreamMeta:
        scan = self._scan()
        fp, n, radius, sparse = Fingerprint(), 0, 0.0, False
        for X, y in self.chunks():
            fp.update(X, y)
            n += X.shape[0]
            radius = max(radius, float(row_norms(X).max()))
            sparse = sp.issparse(X)
        extra = {"path": str(self._path()), "n_rows_in_file": scan.n_rows, **scan.extra}
        return StreamMeta(name=self.name, task=self.task, n=n, d=scan.d + bool(self.bias),
                          radius=radius, fingerprint=fp.hexdigest(), bias=bool(self.bias),
                          sparse=sparse, extra=extra)


_SVMLIGHT_HINTS = {
    "need more than 1 value to unpack": "expected 'index:value' pairs after the label",
    "should be sorted and unique": "feature indices must be increasing and unique",
    "invalid literal for int()": "feature index is not an integer",
    "could not convert string to float": "not a number",
    "Invalid index": "feature index out of range",
    "too large to convert": "feature index too large (at most 2^31 - 1)",
}


class Svmlight(TextFile, key="libsvm"):
    """An svmlight / LIBSVM text file, streamed as CSR chunks in constant memory.

    ``n_features``: the dimension (default: inferred from the largest index in the file; give
    it when a file does not use its last feature, e.g. a1a has 123). ``zero_based``: whether
    indices start at 0; ``"auto"`` decides from the whole file (zero-based iff an index 0
    occurs). Labels: {-1,+1}, {0,1}, {1,2}, {2,4} map to {-1,+1} (larger label positive)
    unless ``positive_label`` is given; multiclass files need ``positive_label``
    (one-vs-rest, or one-vs-one with ``negative_label``). ``task="regression"`` keeps the
    targets. ``meta.extra`` has ``labels_seen``, ``positive_label``, ``zero_based``, ``path``.
    """

    constraints = {**TextFile.constraints,
                   "n_features": Interval(1, math.inf, integer=True, none_ok=True),
                   "zero_based": OneOf("auto", True, False)}

    def __init__(self, *, path: str, n_features: int | None = None, zero_based: Any = "auto",
                 positive_label: Any = None, negative_label: Any = None,
                 task: str = "classification", order: str = "file", seed: int = 0,
                 normalize: bool = False, standardize: bool = False, bias: bool = False):
        self.path, self.n_features, self.zero_based = path, n_features, zero_based
        self.positive_label, self.negative_label, self.task = positive_label, negative_label, task
        self.order, self.seed = order, seed
        self.normalize, self.standardize, self.bias = normalize, standardize, bias
        self.validate()

    def _parse(self, block: bytes):
        from sklearn.datasets import load_svmlight_file
        X, y = load_svmlight_file(io.BytesIO(block), zero_based=True, dtype=np.float64)
        return X, y

    def _explain(self, error: Exception) -> str:
        text = str(error)
        for key, hint in _SVMLIGHT_HINTS.items():
            if key in text:
                return f"{hint} ({text})"
        return text

    def _check_block(self, scan, X_raw, raw, block, first_line) -> None:
        super()._check_block(scan, X_raw, raw, block, first_line)
        if X_raw.nnz:
            bad = ~np.isfinite(X_raw.data)
            if bad.any():
                row = int(np.searchsorted(X_raw.indptr, np.flatnonzero(bad)[0], side="right") - 1)
                raise self._row_error(block, first_line, row,
                                      "feature value is not a finite number")
            low = int(X_raw.indices.min())
            if low == 0 and self.zero_based is False:
                row = int(np.flatnonzero(X_raw[:, 0].toarray().ravel())[0])
                raise self._row_error(block, first_line, row,
                                      "feature index 0 in a file read with zero_based=False")
            scan.min_index = low if scan.min_index is None else min(scan.min_index, low)
        scan.n_columns = max(scan.n_columns, X_raw.shape[1])

    def _finish_scan(self, scan: _Scan) -> None:
        zero_based = (scan.min_index == 0) if self.zero_based == "auto" else self.zero_based
        scan.col_offset = 0 if zero_based else 1
        inferred = max(scan.n_columns - scan.col_offset, 0)
        if self.n_features is not None and inferred > self.n_features:
            raise self._locate_index(scan, int(self.n_features))
        scan.d = int(self.n_features) if self.n_features is not None else inferred
        if scan.d == 0:
            raise ValueError(f"{self._path()}: no feature in the file; pass n_features")
        scan.extra.update(zero_based=bool(zero_based), n_features_inferred=inferred)

    def _locate_index(self, scan: _Scan, n_features: int) -> ValueError:
        limit = n_features + scan.col_offset
        start, line0 = self._start(self._path())
        for block, first_line, _ in read_blocks(self._path(), start, line0):
            X_raw, _ = self._parse(block)
            if X_raw.shape[1] > limit:
                row = int(np.flatnonzero(X_raw[:, limit:].getnnz(axis=1))[0])
                return self._row_error(block, first_line, row,
                                       f"feature index {X_raw[row].indices.max()} > "
                                       f"n_features={n_features}")
        return ValueError(f"{self._path()}: an index exceeds n_features={n_features}")

    def _columns(self, scan: _Scan, X_raw):
        X = sp.csr_matrix((X_raw.data, X_raw.indices - scan.col_offset, X_raw.indptr),
                          shape=(X_raw.shape[0], scan.d))
        return X


class Csv(TextFile, key="csv"):
    """A CSV file with a header line and a named label column, streamed as dense chunks.

    ``label_column``: the header name of the labels (or regression targets); ``features``:
    the feature columns (default: every other column, in file order). Every feature value
    must be a finite number; labels may be numbers or strings (then give ``positive_label``,
    e.g. ``"M"``). The file is UTF-8; quoted fields may not contain line breaks.
    ``meta.extra["columns"]`` lists the feature columns.
    """

    comment = b""
    constraints = {**TextFile.constraints, "label_column": IsInstance(str),
                   "features": IsInstance(list, tuple, none_ok=True),
                   "delimiter": IsInstance(str)}

    def __init__(self, *, path: str, label_column: str, features: list[str] | None = None,
                 delimiter: str = ",", positive_label: Any = None, negative_label: Any = None,
                 task: str = "classification", order: str = "file", seed: int = 0,
                 normalize: bool = False, standardize: bool = False, bias: bool = False):
        self.path, self.label_column, self.features = path, label_column, features
        self.delimiter = delimiter
        self.positive_label, self.negative_label, self.task = positive_label, negative_label, task
        self.order, self.seed = order, seed
        self.normalize, self.standardize, self.bias = normalize, standardize, bias
        if features is not None and not isinstance(features, (list, tuple)):
            self.features = list(features)   # e.g. a Hydra ListConfig
        self.validate()

    def validate(self) -> None:
        super().validate()
        if len(self.delimiter) != 1:
            raise InvalidParameterError(f"Csv: invalid delimiter={self.delimiter!r}; delimiter "
                                        f"must be one character")
        if self.features is None:
            return
        problem = ("is empty" if not self.features else
                   f"includes the label column {self.label_column!r}"
                   if self.label_column in self.features else
                   f"names {sorted({c for c in self.features if self.features.count(c) > 1})} "
                   "twice" if len(set(self.features)) < len(self.features) else None)
        if problem:
            raise InvalidParameterError(f"Csv: invalid features={list(self.features)!r}; the "
                                        f"list of feature columns {problem}")

    def _header(self) -> list[str]:
        return self._cached("_header_cache", self._read_header)

    def _read_header(self) -> list[str]:
        with open(self._path(), "rb") as f:
            first = _decode(f.readline(), self._path(), 1)
        if not first.strip():
            raise ValueError(f"{self._path()}:1: expected a header line with column names")
        header = [c.strip() for c in next(csv.reader([first], delimiter=self.delimiter))]
        twice = sorted({c for c in header if header.count(c) > 1})
        if twice:
            raise ValueError(f"{self._path()}:1: the header names column(s) {twice} more than "
                             f"once; columns: {header}")
        if self.label_column not in header:
            raise ValueError(f"{self._path()}:1: no column {self.label_column!r}; "
                             f"columns: {header}")
        missing = [c for c in (self.features or []) if c not in header]
        if missing:
            raise ValueError(f"{self._path()}:1: feature columns {missing} not in the "
                             f"header; columns: {header}")
        return header

    def _feature_columns(self) -> list[str]:
        header = self._header()
        return list(self.features) if self.features is not None else \
            [c for c in header if c != self.label_column]

    def _start(self, path: Path) -> tuple[int, int]:
        self._header()
        with open(path, "rb") as f:
            f.readline()
            return f.tell(), 2

    def _parse(self, block: bytes):
        header = self._header()
        try:
            df = pd.read_csv(io.BytesIO(block), header=None, names=header, dtype=str,
                             keep_default_na=False, sep=self.delimiter, skip_blank_lines=True,
                             engine="c", index_col=False)
        except pd.errors.ParserError as e:
            raise ValueError(f"wrong number of fields ({e})") from None
        if df.isna().to_numpy().any():
            raise ValueError(f"expected {len(header)} fields, found fewer")
        X = np.empty((len(df), len(self._feature_columns())))
        for j, name in enumerate(self._feature_columns()):
            values = pd.to_numeric(df[name].str.strip(), errors="coerce")
            bad = values.isna().to_numpy()
            if bad.any():
                text = df[name].iloc[int(np.flatnonzero(bad)[0])]
                raise ValueError(f"column {name!r}: " + (f"not a number: {text!r}" if text.strip()
                                                         else "empty value"))
            X[:, j] = values.to_numpy(dtype=np.float64)
            infinite = ~np.isfinite(X[:, j])
            if infinite.any():  # "inf", or a number too large for float64 such as 1e400
                text = df[name].iloc[int(np.flatnonzero(infinite)[0])]
                raise ValueError(f"column {name!r}: not a finite number: {text!r}")
        raw = df[self.label_column].str.strip()
        if (raw == "").any():
            raise ValueError(f"column {self.label_column!r}: empty value")
        numeric = pd.to_numeric(raw, errors="coerce")
        if not (numeric.isna() & ~raw.str.lower().isin(["nan", "+nan", "-nan"])).any():
            return X, numeric.to_numpy(dtype=np.float64)
        if self.task == "regression":
            text = raw.iloc[int(np.flatnonzero(numeric.isna().to_numpy())[0])]
            raise ValueError(f"column {self.label_column!r}: target is not a number: {text!r}")
        return X, raw.to_numpy(dtype=object)

    def _explain(self, error: Exception) -> str:
        if isinstance(error, UnicodeDecodeError):
            return f"not UTF-8 text ({error})"
        return str(error)

    def _locate(self, block, first_line, error):
        for lineno, line in self._data_lines(block, first_line):
            fields = next(csv.reader([line.decode("utf-8", "replace")], delimiter=self.delimiter))
            if len(fields) != len(self._header()):
                return self._error(lineno, f"expected {len(self._header())} fields "
                                           f"({', '.join(self._header())}), found {len(fields)}: "
                                           f"{self._show(line)}")
        return super()._locate(block, first_line, error)

    def _finish_scan(self, scan: _Scan) -> None:
        scan.d = len(self._feature_columns())
        scan.extra["columns"] = self._feature_columns()


class MatFile(RealArrays, key="mat"):
    """A MATLAB .mat matrix with the label in one column (LIBOL's data files, e.g. svmguide3).

    ``variable``: the matrix's name (LIBOL: ``data``); ``label_column``: its label column
    (LIBOL: 0, the first). Loaded whole with ``scipy.io.loadmat`` (such files are small). A
    sparse matrix (MATLAB's ``sparse``) gives sparse features (``standardize`` then only
    scales, see :class:`~olbench.streams.preprocess.Standardizer`).

    >>> import tempfile, os, scipy.io
    >>> path = os.path.join(tempfile.mkdtemp(), "toy.mat")
    >>> scipy.io.savemat(path, {"data": [[1, 3.0, 4.0], [-1, 0.0, 1.0]]})
    >>> MatFile(path=path).meta.radius
    5.0
    """

    constraints = {**REAL_DATA_CONSTRAINTS, "path": IsInstance(str, Path),
                   "variable": IsInstance(str), "label_column": Interval(integer=True)}

    def __init__(self, *, path: str, variable: str = "data", label_column: int = 0,
                 positive_label: Any = None, negative_label: Any = None, order: str = "file",
                 seed: int = 0, normalize: bool = False, standardize: bool = False,
                 bias: bool = False):
        self.path, self.variable, self.label_column = path, variable, label_column
        self.positive_label, self.negative_label = positive_label, negative_label
        self.order, self.seed = order, seed
        self.normalize, self.standardize, self.bias = normalize, standardize, bias
        self.validate()

    def _source(self) -> str:
        return str(self.path)

    def _load(self):
        import scipy.io
        path = resolve_path(self.path)
        try:
            mat = scipy.io.loadmat(path)
        except Exception as e:   # scipy raises several types for a non-.mat file
            raise ValueError(f"{path}: not a readable MATLAB file ({e})") from None
        if self.variable not in mat:
            names = [k for k in mat if not k.startswith("__")]
            raise ValueError(f"{path}: no variable {self.variable!r}; variables: {names}")
        data = _numeric_matrix(mat[self.variable], f"{path}: variable {self.variable!r}")
        if data.ndim != 2 or not -data.shape[1] <= self.label_column < data.shape[1]:
            raise ValueError(f"{path}: {self.variable} has shape {data.shape}; "
                             f"label_column={self.label_column} is not one of its columns")
        label = self.label_column % data.shape[1]
        others = [j for j in range(data.shape[1]) if j != label]
        if sp.issparse(data):  # MATLAB's sparse matrices arrive as CSC: features stay sparse
            data = data.tocsr()
            return data[:, others], data[:, [label]].toarray().ravel(), {"path": str(path)}
        return data[:, others], data[:, label], {"path": str(path)}


def _numeric_matrix(value: Any, what: str):
    """A .mat variable as a float64 matrix (dense, or CSC when MATLAB stored it sparse)."""
    if sp.issparse(value):
        kind = value.dtype.kind
    else:
        value = np.asarray(value)
        kind = value.dtype.kind
    names = {"U": "a string (char array)", "S": "a string (char array)",
             "O": "a cell array", "V": "a struct", "c": "complex"}
    if kind not in "fiub":
        raise ValueError(f"{what} is {names.get(kind, f'of dtype {value.dtype}')}, not a "
                         f"real numeric matrix")
    return value.astype(np.float64)


__all__ = ["Svmlight", "Csv", "MatFile", "resolve_path", "shared_data_dir", "read_blocks",
           "rechunk", "describe_labels"]
