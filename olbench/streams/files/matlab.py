"""MATLAB .mat files (LIBOL's data files), loaded whole."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from olbench.component import Interval, IsInstance, OneOf
from olbench.paths import resolve_path
from olbench.streams.orders import ORDERS
from olbench.streams.real import FILE_TASKS, REAL_DATA_CONSTRAINTS, RealFile, check_file_task

#: the variable of a .mat file's fixed permutations (LIBOL's glass.mat: 20 x 214)
IDS_VARIABLE = "ID_ALL"


class MatFile(RealFile, key="mat"):
    """A MATLAB .mat matrix with the label in one column (LIBOL's data files, e.g. svmguide3).

    ``variable``: the matrix's name (LIBOL: ``data``); ``label_column``: its label column
    (LIBOL: 0, the first). ``order="ids"`` visits the rows in the file's own fixed
    permutation number ``seed`` (1-based: a row of the matrix ``ID_ALL``, as glass.mat holds
    20 of them; no LIBOL code reads it -- LIBOL's runs use ``order="libol"``).
    ``task="multiclass"`` keeps the classes as the file codes them
    (LIBOL's glass and segment: 1..k); ``"regression"`` the targets; ``"pca"`` the rows
    alone, for online PCA (the label column read, then dropped: y = 0 every row). Loaded
    whole with ``scipy.io.loadmat`` (such files are small). A sparse matrix (MATLAB's
    ``sparse``) gives sparse features (``standardize`` then only scales, see
    :class:`~olbench.streams.preprocess.Standardizer`).

    >>> import tempfile, os, scipy.io
    >>> path = os.path.join(tempfile.mkdtemp(), "toy.mat")
    >>> scipy.io.savemat(path, {"data": [[1, 3.0, 4.0], [-1, 0.0, 1.0]]})
    >>> MatFile(path=path).meta.radius
    5.0
    """

    constraints = {**REAL_DATA_CONSTRAINTS, "path": IsInstance(str, Path),
                   "variable": IsInstance(str), "label_column": Interval(integer=True),
                   "order": OneOf(*ORDERS, "ids")}
    #: at its default the task is left out of names (every name made before it is unchanged)
    optional_params = {"task": ("classification", OneOf(*FILE_TASKS))}

    def __init__(self, *, path: str, variable: str = "data", label_column: int = 0,
                 positive_label: Any = None, negative_label: Any = None, order: str = "file",
                 seed: int = 0, normalize: bool = False, standardize: bool = False,
                 bias: bool = False, task: str = "classification"):
        self.path, self.variable, self.label_column = path, variable, label_column
        self.task = task
        self.positive_label, self.negative_label = positive_label, negative_label
        self.order, self.seed = order, seed
        self.normalize, self.standardize, self.bias = normalize, standardize, bias
        self.validate()

    def validate(self) -> None:
        super().validate()
        check_file_task(self)

    @classmethod
    def seed_in_run(cls, params, run_seed, child):
        # order="ids": run i of a grid reads the file's permutation i, as order="libol" does
        if params.get("order") == "ids":
            return int(run_seed)
        return super().seed_in_run(params, run_seed, child)

    def _rows_order(self, n, extra):
        if self.order != "ids":
            return super()._rows_order(n, extra)
        ids = extra.pop("ids", None)
        where = f"{extra['path']}: order='ids'"
        if ids is None:
            raise ValueError(f"{where} reads the file's fixed permutations (variable "
                             f"{IDS_VARIABLE}), which it does not hold")
        if not 1 <= self.seed <= ids.shape[0]:
            raise ValueError(f"{where}: seed={self.seed} picks a row of {IDS_VARIABLE}, "
                             f"which has {ids.shape[0]} (seeds 1..{ids.shape[0]})")
        order = np.asarray(ids[self.seed - 1], dtype=np.int64) - 1
        if not np.array_equal(np.sort(order), np.arange(n)):
            raise ValueError(f"{where}: row {self.seed} of {IDS_VARIABLE} is not a "
                             f"permutation of the {n} rows")
        return order

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
        extra = {"path": str(path)}
        if self.order == "ids" and IDS_VARIABLE in mat:
            extra["ids"] = _numeric_matrix(mat[IDS_VARIABLE], f"{path}: {IDS_VARIABLE}")
        if sp.issparse(data):  # MATLAB's sparse matrices arrive as CSC: features stay sparse
            data = data.tocsr()
            return data[:, others], data[:, [label]].toarray().ravel(), extra
        return data[:, others], data[:, label], extra


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


__all__ = ["MatFile"]
