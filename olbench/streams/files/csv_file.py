"""CSV files with a header line and a named label column, streamed as dense chunks."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from olbench.component import InvalidParameterError, IsInstance
from olbench.streams.files.text import Scan, TextFile, decode_line


class Csv(TextFile, key="csv"):
    """A CSV file with a header line and a named label column, streamed as dense chunks.

    ``label_column``: the header name of the labels (or regression targets); ``features``:
    the feature columns (default: every other column, in file order). Every feature value
    must be a finite number; labels may be numbers or strings (then give ``positive_label``,
    e.g. ``"M"``). ``task="pca"``: the feature columns alone, for online PCA (the label column
    is left out of the rows and its values, whatever they are, dropped: y = 0 every row).
    The file is UTF-8; quoted fields may not contain line breaks.
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
            first = decode_line(f.readline(), self._path(), 1)
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
        if self.task == "pca":      # the labels dropped: their values never read
            return X, np.zeros(len(df))
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

    def _explain(self, error: Exception, line: bytes = b"") -> str:
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

    def _finish_scan(self, scan: Scan) -> None:
        scan.d = len(self._feature_columns())
        scan.extra["columns"] = self._feature_columns()


__all__ = ["Csv"]
