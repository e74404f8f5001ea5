"""Where files are: the repository root, the shared data folder, and user-given paths.

Imported by both :mod:`olbench.datasets` (where a dataset's file is) and :mod:`olbench.streams`
(which reads it), so it imports nothing of olbench: neither package has to import the other
to find a file.

>>> resolve_path("olbench/paths.py").resolve() == Path(__file__).resolve()   # from anywhere
True
"""

from __future__ import annotations

from pathlib import Path

#: the repository root (folder holding ``olbench/``); relative paths fall back to it
REPO_ROOT = Path(__file__).resolve().parents[1]


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


__all__ = ["REPO_ROOT", "resolve_path", "shared_data_dir"]
