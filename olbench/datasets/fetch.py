"""Where a dataset's file is, offline first; and the one function that downloads.

Resolution of ``<collection>/<file>`` (e.g. ``libsvm/a9a``), first hit wins:

1. the data folder: ``run.data_dir`` / the stream's ``data_dir``, else ``$OLBENCH_DATA``;
2. ``../shared/data/`` next to the repository, when present;
3. the download cache, ``$XDG_CACHE_HOME/olbench/data`` (default ``~/.cache/olbench/data``);
4. a download (unless ``$OLBENCH_OFFLINE`` is set) into the data folder when one is set,
   else into the cache, through :func:`download`.

A file found locally is checked against the card's sha256 once per process; a mismatch is an
error, never silently used. With no local copy and no network, :class:`DatasetNotFound`
says which file to put where.
"""

from __future__ import annotations

import bz2
import hashlib
import os
import re
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from olbench import paths
from olbench.datasets.cards import CARDS, Card, DataFile

#: a fetcher writes the bytes at ``url`` to the file ``path`` (pooch's downloader interface)
Fetcher = Callable[[str, str], None]


class DatasetNotFound(FileNotFoundError):
    """No local copy of a dataset's file, and no download possible; says where to put it."""


class ChecksumError(ValueError):
    """A file whose sha256 differs from its card's."""


# ------------------------------------------------------------------------------ the cards
def get_card(name: str) -> Card:
    """The card of a dataset; unknown names list the close matches and how to list all."""
    try:
        return CARDS[name]
    except KeyError:
        import difflib

        # another case of a name is not accepted: the name is part of every run's identity
        # (one dataset, one spelling, one results folder), so it is suggested first
        same = [c for c in CARDS if isinstance(name, str) and c.lower() == name.lower()]
        close = same or difflib.get_close_matches(name, list(CARDS), n=4, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise KeyError(f"unknown dataset {name!r}{hint} (`olbench --datasets` lists the "
                       f"{len(CARDS)} known ones)") from None


# ------------------------------------------------------------------------------ folders
def data_dir(explicit: str | Path | None = None) -> Path | None:
    """The user's data folder: ``explicit`` (``run.data_dir``), else ``$OLBENCH_DATA``."""
    value = explicit if explicit not in (None, "") else os.environ.get("OLBENCH_DATA")
    return Path(value).expanduser() if value else None


def cache_dir() -> Path:
    """Where downloads go when no data folder is set."""
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "olbench" / "data"


def search_path(explicit: str | Path | None = None) -> list[tuple[str, Path]]:
    """(label, folder) in resolution order; folders that do not exist are kept (for messages)."""
    roots = [("data_dir", data_dir(explicit)), ("shared", paths.shared_data_dir()),
             ("cache", cache_dir())]
    return [(label, root) for label, root in roots if root is not None]


def find_local(card: Card, part: str = "train",
               explicit: str | Path | None = None) -> tuple[str, Path] | None:
    """(label, path) of the first local copy of a part, without checking it; or None."""
    file = card.parts()[part].file
    for label, root in search_path(explicit):
        path = root / card.collection / file
        if path.is_file():
            return label, path
    return None


def offline() -> bool:
    return os.environ.get("OLBENCH_OFFLINE", "").strip().lower() not in ("", "0", "false", "no")


# ------------------------------------------------------------------------------ checksums
def _blocks(path: str | Path, size: int = 1 << 20):
    """A file's bytes, streamed in blocks of ``size``."""
    with open(path, "rb") as f:
        yield from iter(lambda: f.read(size), b"")


def text_sha256(path: str | Path) -> str:
    """sha256 of a file's bytes with CRLF line endings read as LF (streamed)."""
    digest = hashlib.sha256()
    carry = b""
    for block in _blocks(path):
        block = carry + block
        carry = b"\r" if block.endswith(b"\r") else b""
        digest.update((block[:-1] if carry else block).replace(b"\r\n", b"\n"))
    digest.update(carry)
    return digest.hexdigest()


#: a data line of a text file: its first character that is not a space is not a comment
_DATA_LINE = re.compile(rb"^[ \t\r\f\v]*[^\s#]", re.MULTILINE)


def data_rows(path: str | Path) -> int:
    r"""The data lines of a text file (lines with something before any ``#`` comment), as
    the svmlight reader counts its rows; streamed.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("wb", delete=False) as f:
    ...     _ = f.write(b"# header\n+1 1:2\n\n  -1 3:1 # note\n+1 2:1")
    >>> data_rows(f.name); os.unlink(f.name)
    3
    """
    rows, carry = 0, b""
    for block in _blocks(path, 1 << 22):
        block = carry + block
        cut = block.rfind(b"\n") + 1       # whole lines only; the rest waits
        carry = block[cut:]
        rows += len(_DATA_LINE.findall(block, 0, cut))
    return rows + len(_DATA_LINE.findall(carry))


_VERIFIED: dict[tuple[str, int, int], Any] = {}


def verify(path: Path, expected: str | None, what: str, rows: int | None = None) -> None:
    """Check a local file against its card (once per process per file version): its
    sha256, or, where the card has none, its number of rows (``rows``, when known), so that
    a truncated copy is refused, not read as the dataset."""
    if expected is None and rows is None:
        return
    measure, want = (text_sha256, expected) if expected is not None else (data_rows, rows)
    stat = path.stat()
    key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns, measure.__name__)
    if key not in _VERIFIED:
        _VERIFIED[key] = measure(path)
    found = _VERIFIED[key]
    if found == want:
        return
    differs = (f"sha256 {found} differs from the catalogue's {expected} for {what}: the file "
               f"is another version or is damaged" if expected is not None else
               f"{found:,} data rows, but the catalogue's {what} has {rows:,} (its sha256 is "
               f"unknown, so the row count is checked): the file is truncated or another "
               f"version")
    raise ChecksumError(f"{path}: {differs}. Replace it (delete it to download it again), or "
                        f"read it as a plain file with stream=libsvm stream.path={path}")


# ------------------------------------------------------------------------------ download
def _pooch_fetcher(progress: bool) -> Fetcher:
    import pooch

    downloader = pooch.HTTPDownloader(progressbar=progress, timeout=60)
    return lambda url, path: downloader(url, path, None)


def download(url: str, dest: str | Path, *, sha256: str | None = None,
             fetch: Fetcher | None = None, progress: bool = True) -> Path:
    """Download ``url`` to ``dest``: the only function in olbench that downloads.

    The bytes go to a hidden temporary file next to ``dest`` (through pooch's HTTP
    downloader, with a progress bar, unless ``fetch`` is given); a ``.bz2`` is decompressed
    to a second temporary file; the text's sha256 is checked against ``sha256`` (when
    known); only then is the file renamed to ``dest`` (atomic on one file system). Whatever
    happens before the rename (an error, a checksum mismatch, Ctrl-C), the temporary files
    are removed: there is never a partial ``dest``.
    """
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    fetch = fetch or _pooch_fetcher(progress)
    fd, raw = tempfile.mkstemp(dir=dest.parent, prefix=f".{dest.name}.", suffix=".part")
    os.close(fd)
    text = raw + ".txt" if url.endswith(".bz2") else raw
    try:
        fetch(url, raw)
        if text != raw:
            with bz2.open(raw, "rb") as src, open(text, "wb") as out:
                shutil.copyfileobj(src, out, 1 << 20)
        digest = text_sha256(text)
        if sha256 is not None and digest != sha256:
            raise ChecksumError(f"{url}: downloaded file has sha256 {digest}, the catalogue "
                                f"expects {sha256}; not saved (the source may have changed)")
        os.replace(text, dest)
    finally:
        for leftover in {raw, text}:
            Path(leftover).unlink(missing_ok=True)
    return dest


def _where_to_put(card: Card, part: DataFile, explicit) -> str:
    looked = ", ".join(str(root / card.collection / part.file) for _, root in
                       search_path(explicit))
    target = (data_dir(explicit) or cache_dir()) / card.collection / part.file
    how = (f"download {part.url}" + (" and decompress it" if part.url.endswith(".bz2") else "")
           if part.url else "copy it from the source named in the catalogue")
    return (f"Looked in: {looked}. Put the file {part.file} at {target} ({how}), or set "
            f"OLBENCH_DATA (or run.data_dir) to a folder holding "
            f"{card.collection}/{part.file}.")


def locate(card: Card, part: str = "train", explicit: str | Path | None = None, *,
           fetch: Fetcher | None = None, progress: bool = True) -> Path:
    """The path of a part (``"train"`` or ``"test"``) of a dataset, downloading if needed."""
    parts = card.parts()
    if part not in parts:
        raise ValueError(f"dataset {card.name!r} has no {part} part (parts: "
                         f"{', '.join(parts)})")
    info = parts[part]
    what = f"dataset {card.name!r} ({part} part)"
    found = find_local(card, part, explicit)
    if found is not None:
        verify(found[1], info.sha256, what, info.rows if card.format == "svmlight" else None)
        return found[1]
    if info.url is None or offline():
        why = "it cannot be downloaded" if info.url is None else "OLBENCH_OFFLINE is set"
        raise DatasetNotFound(f"{what} is not on this machine and {why}. "
                              + _where_to_put(card, info, explicit))
    target = (data_dir(explicit) or cache_dir()) / card.collection / info.file
    try:
        return download(info.url, target, sha256=info.sha256, fetch=fetch, progress=progress)
    except OSError as error:   # no network, HTTP error, interrupted transfer, disk full
        raise DatasetNotFound(f"{what} is not on this machine and could not be downloaded "
                              f"({type(error).__name__}: {error}). "
                              + _where_to_put(card, info, explicit)) from error
