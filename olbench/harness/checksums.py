"""Parquet files that cannot be trusted by mistake: each is written atomically with the sha256
of its bytes in a sidecar (``<name>.sha256``, :func:`write_parquet_atomic`) and verified when
read (:func:`read_verified`): a file that fails (a flipped byte, a truncated copy, an edit) is
named, never used.

A sidecar rather than the parquet's key-value metadata, because a checksum inside the file
cannot cover the file's own bytes (footer, schema and pandas metadata included), and checking
a sidecar needs no parquet parsing, so a corrupt file cannot crash the check.

>>> import pandas as pd, tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "x.parquet"
>>> write_parquet_atomic(pd.DataFrame({"t": [1, 2]}), path)
>>> verify(path), read_verified(path)["t"].tolist()
(None, [1, 2])
>>> _ = path.write_bytes(path.read_bytes()[:-1])
>>> verify(path)
'its bytes no longer match the checksum written with it (the file was corrupted)'
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import pandas as pd


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def checksum_path(path: Path) -> Path:
    """The sidecar holding the sha256 of ``path``'s bytes (``x.parquet`` -> ``x.sha256``)."""
    return path.with_suffix(".sha256")


def _write_tmp(path: Path, write) -> str:
    """``write(tmp)`` a temporary file next to ``path`` (removed on failure); its name."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        write(tmp)
    except BaseException:
        os.unlink(tmp)
        raise
    return tmp


def write_parquet_file(df: pd.DataFrame, path: str) -> None:
    """The one call that writes a parquet file's bytes (run batches, results.parquet), so a
    test can make it fail as a full disk does."""
    df.to_parquet(path, index=False)


def write_parquet_atomic(df: pd.DataFrame, path: Path) -> None:
    """Write so that a reader (or a crash) never sees a half-written file, with the sha256 of
    its bytes in a sidecar (:func:`checksum_path`) renamed into place just before the file
    itself: a crash in between leaves a file that fails verification (and is recomputed),
    never one that passes it with other bytes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _write_tmp(path, lambda t: write_parquet_file(df, t))
    try:
        digest = _sha256(Path(tmp))
        side = checksum_path(path)
        os.replace(_write_tmp(side, lambda t: Path(t).write_text(digest + "\n")), side)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def verify(path: Path) -> str | None:
    """Why the file at ``path`` cannot be trusted (None if its bytes match its checksum)."""
    side = checksum_path(path)
    if not side.exists():
        return "no checksum file (written by an older olbench, or interrupted while written)"
    try:
        expected = side.read_text().strip()
        actual = _sha256(path)
    except OSError as error:
        return f"unreadable ({error})"
    if actual != expected:
        return "its bytes no longer match the checksum written with it (the file was corrupted)"
    return None


def read_verified(path: Path, columns: list[str] | None = None,
                  optional: tuple[str, ...] = ()) -> pd.DataFrame:
    """A parquet file whose checksum matches; ``CorruptResultError`` naming it otherwise.
    ``columns``: those to read; ``optional``: more, read where the file has them."""
    problem = verify(path)
    if problem is None:
        try:
            if optional:
                import pyarrow.parquet as pq

                names = set(pq.read_schema(path).names)
                columns = [*columns, *(c for c in optional if c in names)]
            return pd.read_parquet(path, columns=columns)
        except Exception as error:  # any reader error means "cannot trust it"
            problem = f"unreadable ({type(error).__name__}: {error})"
    raise CorruptResultError(f"{path}: {problem}")


class CorruptResultError(ValueError):
    """A results file that fails verification; the message names the file and why."""
