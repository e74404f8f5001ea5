"""A toy dataset of the catalogue, for the dataset tests (tests/test_dataset_*.py): its train
and test files' bytes and checksums, and where a test puts a file or finds what is left.

The fixtures that register it (``toy``) and keep each test offline with a private cache
(``no_network``) are in tests/conftest.py."""

from __future__ import annotations

import hashlib
from pathlib import Path

TRAIN = b"+1 1:1 3:2\n-1 2:1\n+1 1:0.5 2:0.5 3:0.5\n-1 3:4\n"
TEST = b"-1 1:2\n+1 2:3 3:1\n"


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def put(folder: Path, name: str, data: bytes) -> Path:
    path = folder / "libsvm" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*") if p.is_file()) if folder.exists() else []
