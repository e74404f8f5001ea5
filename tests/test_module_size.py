"""One concept per module: no Python file of the package, the tests, the benchmarks or the
studies is longer than :data:`LIMIT` lines, except the files listed in :data:`WAITING`, each
with the issue that splits it. The list only shrinks: an entry whose file is gone or back
under the limit fails too, so that it is removed with the split."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("olbench", "tests", "benchmarks", "experiments")
LIMIT = 400

#: file (relative to the repository root) -> the issue that splits it (empty since issue 25
#: split the last ones; a file that must wait for its split is named here, with its issue)
WAITING: dict[str, str] = {}


def line_counts(root: Path = ROOT) -> dict[str, int]:
    """Lines of every .py file under :data:`FOLDERS` (caches and hidden folders left out)."""
    counts = {}
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            parts = path.relative_to(root).parts
            if any(p == "__pycache__" or p.startswith(".") for p in parts):
                continue
            counts["/".join(parts)] = len(path.read_text(encoding="utf-8").splitlines())
    return counts


def test_no_module_is_longer_than_the_limit():
    long = {f: n for f, n in line_counts().items() if n > LIMIT and f not in WAITING}
    assert not long, (f"modules over {LIMIT} lines (split them by concept, as issue 25 asks): "
                      + ", ".join(f"{f} ({n})" for f, n in sorted(long.items())))


def test_the_waiting_list_only_names_files_still_too_long():
    counts = line_counts()
    stale = {f: counts.get(f) for f in WAITING if counts.get(f, 0) <= LIMIT}
    assert not stale, ("remove from WAITING (gone, or now within the limit): "
                       + ", ".join(f"{f} ({'gone' if n is None else n})"
                                   for f, n in sorted(stale.items())))
    assert all(reason.startswith("issue ") for reason in WAITING.values())


def test_the_count_is_the_number_of_lines(tmp_path):
    """A file of LIMIT lines passes, one more line fails (the count is not off by one)."""
    package = tmp_path / "olbench"
    package.mkdir()
    (package / "at_limit.py").write_text("x = 1\n" * LIMIT)
    (package / "over.py").write_text("x = 1\n" * (LIMIT + 1))
    assert line_counts(tmp_path) == {"olbench/at_limit.py": LIMIT, "olbench/over.py": LIMIT + 1}
