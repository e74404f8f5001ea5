"""The base of file streams read as text in blocks: the passes, and errors naming file:line.

A subclass (one per format: :mod:`.svmlight`, :mod:`.csv_file`) says how to parse one block
of lines; this class makes the passes described in :mod:`olbench.streams.files` and turns a
parser's error into one naming the file, the line and what is wrong with it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from olbench.component import IsInstance, OneOf
from olbench.features import as_features, row_norms
from olbench.labels import LabelMap, file_classes, sorted_labels
from olbench.paths import resolve_path
from olbench.streams.base import (
    Chunk,
    Fingerprint,
    Stream,
    StreamMeta,
    _check_chunk_size,
    append_bias,
)
from olbench.streams.files.blocks import read_blocks, rechunk
from olbench.streams.orders import permutation
from olbench.streams.preprocess import ColumnStats, Standardizer, normalize_rows
from olbench.streams.real import (
    FILE_TASKS,
    REAL_DATA_CONSTRAINTS,
    check_file_task,
    unmapped_labels,
)

#: rows gathered per read in permuted order
GATHER_ROWS = 8192


def decode_line(line: bytes, path: Path, lineno: int) -> str:
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"{path}:{lineno}: not UTF-8 text ({error}); convert the file, e.g. "
                         f"iconv -f latin1 -t utf-8") from None


@dataclass
class Scan:
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
    classes: Any = None                  # multiclass: the class codes seen, ascending
    extra: dict = field(default_factory=dict)


class TextFile(Stream):
    """Base of file streams read in blocks: subclasses parse one block of lines."""

    constraints = {**REAL_DATA_CONSTRAINTS, "path": IsInstance(str, Path),
                   "task": OneOf(*FILE_TASKS)}
    comment = b"#"

    def validate(self) -> None:
        super().validate()
        check_file_task(self)

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
            return self._error(lineno, f"{self._explain(error, line)}: {self._show(line)}")
        last = first_line + block.count(b"\n")
        return ValueError(f"{self._path()}:{first_line}-{last}: {self._explain(error)}")

    @staticmethod
    def _show(line: bytes) -> str:
        return "line " + repr(line.strip()[:120].decode("utf-8", "replace"))

    def _explain(self, error: Exception, line: bytes = b"") -> str:
        """What is wrong, from the parser's ``error`` on ``line`` (empty: a whole block)."""
        return str(error)

    def _columns(self, scan: Scan, X_raw) -> Any:
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
    def _scan(self) -> Scan:
        return self._cached("_scan_cache", self._do_scan)

    def _do_scan(self) -> Scan:
        path = self._path()
        scan = Scan()
        start, line0 = self._start(path)
        permuted = self.order != "file"
        for block, first_line, offset in read_blocks(path, start, line0):
            X_raw, raw = self._parse_at(block, first_line)
            self._check_block(scan, X_raw, raw, block, first_line)
            scan.n_rows += X_raw.shape[0]
            if self.task in ("classification", "multiclass"):
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
        if self.task == "multiclass":   # the file's class codes kept
            scan.classes = file_classes(scan.labels_seen, self.positive_label,
                                        self.negative_label, str(path))
        if self.standardize:
            stats = ColumnStats(scan.d)
            for X, _ in self._pieces(scan, transform=False, order="file"):
                stats.update(X)
            scan.standardizer = stats.standardizer()
        return scan

    def _check_block(self, scan, X_raw, raw, block, first_line) -> None:
        if raw.dtype == object or self.task == "pca":  # string class names (CSV); dropped
            return
        what = "target" if self.task == "regression" else "label"
        if not np.all(np.isfinite(raw)):
            bad = int(np.flatnonzero(~np.isfinite(raw))[0])
            raise self._row_error(block, first_line, bad, f"{what} is not a finite number")
        fractional = raw != np.round(raw)
        if self.task in ("classification", "multiclass") and self.positive_label is None \
                and fractional.any():
            bad = int(np.flatnonzero(fractional)[0])
            raise self._row_error(block, first_line, bad,
                                  f"label {raw[bad].item()!r} is not a class code (for real-valued "
                                  f"targets pass task=regression)")

    def _finish_scan(self, scan: Scan) -> None:
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
            raise ValueError(f"{self._path()}:{first_line}: order={self.order!r} needs exactly one "
                             f"row per line ({rows} data lines gave {n_parsed} rows)")

    # ---------------------------------------------------------------- pass 2+: stream
    def _raw_pieces(self, scan: Scan, order: str) -> Iterator[tuple[Any, np.ndarray]]:
        path = self._path()
        if order == "file":
            start, line0 = self._start(path)
            for block, first_line, _ in read_blocks(path, start, line0):
                yield self._parse_at(block, first_line)
            return
        starts = np.asarray(scan.starts, dtype=np.int64)
        lengths = np.asarray(scan.lengths, dtype=np.int64)
        perm = permutation(len(starts), self.seed, self.order)
        with open(path, "rb") as f:
            for i in range(0, len(perm), GATHER_ROWS):
                parts = []
                for j in perm[i:i + GATHER_ROWS]:
                    f.seek(starts[j])
                    parts.append(f.read(lengths[j]).rstrip(b"\r\n") + b"\n")
                yield self._parse(b"".join(parts))

    def _pieces(self, scan: Scan, transform: bool = True,
                order: str | None = None) -> Iterator[Chunk]:
        labels = scan.labels
        for X_raw, raw in self._raw_pieces(scan, order or self.order):
            X = self._columns(scan, X_raw)
            if labels is not None:
                y, keep = labels.apply(raw)
                if keep is not None:
                    X = X[keep]
            else:
                y = unmapped_labels(self.task, raw)
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
                          sparse=sparse, extra=extra, classes=scan.classes)



__all__ = ["GATHER_ROWS", "Scan", "TextFile", "decode_line"]
