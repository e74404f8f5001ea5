"""Peak memory of streaming a large svmlight file vs. loading it whole.

Writes a generated svmlight file (default 1,000,000 rows, 20 non-zeros per row out of 100
features, labels in {-1,+1}), then, each in a fresh Python process so the figures do not mix:

* ``stream``: ``olbench.streams.Svmlight(path=...)``: the scan pass, then one full pass over
  ``chunks(10_000)`` (what a run does), then ``meta`` (one more pass: R and fingerprint);
* ``load``: ``sklearn.datasets.load_svmlight_file(path)`` (the whole file in memory).

For each: the growth of the peak resident set size (Linux ``VmHWM``, reset after the imports)
over the process's resident size after imports, and the wall time. Also printed: the size of the
data held in memory
as CSR (data + indices + indptr + y). Usage::

    python benchmarks/stream_memory.py               # 1,000,000 rows in a temporary folder
    python benchmarks/stream_memory.py --rows 200000 --keep /tmp/big.svm
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def _status(field: str) -> int:
    """A field of /proc/self/status in bytes (Linux): VmRSS now, VmHWM the peak."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise KeyError(field)


def _reset_peak() -> None:
    """Reset the kernel's peak-RSS mark to the current RSS (Linux >= 4.0: clear_refs 5)."""
    Path("/proc/self/clear_refs").write_text("5")


def write_file(path: Path, rows: int, d: int = 100, nnz: int = 20, seed: int = 0) -> None:
    """A random svmlight file, written 50,000 rows at a time (constant memory)."""
    import scipy.sparse as sp
    from sklearn.datasets import dump_svmlight_file

    rng = np.random.default_rng(seed)
    with open(path, "wb") as f:
        for start in range(0, rows, 50_000):
            k = min(50_000, rows - start)
            cols = np.sort(np.argsort(rng.random((k, d)), axis=1)[:, :nnz], axis=1)
            data = np.round(rng.standard_normal(k * nnz), 4)
            data[data == 0] = 0.5
            X = sp.csr_matrix((data, cols.ravel(), np.arange(0, k * nnz + 1, nnz)), shape=(k, d))
            y = rng.choice([-1, 1], size=k)
            dump_svmlight_file(X, y, f, zero_based=False)


def child(mode: str, path: str) -> dict:
    sys.path.insert(0, str(ROOT))
    from sklearn.datasets import load_svmlight_file

    from olbench.streams import Svmlight

    _reset_peak()
    base = _status("VmRSS")
    t0 = time.perf_counter()
    out: dict = {"mode": mode}
    if mode == "stream":
        s = Svmlight(path=path)
        rows = 0
        for X, _ in s.chunks(10_000):
            rows += X.shape[0]
        t1 = time.perf_counter()
        meta = s.meta
        out.update(rows=rows, d=meta.d, radius=meta.radius, fingerprint=meta.fingerprint,
                   scan_and_one_pass_s=t1 - t0)
    else:
        X, y = load_svmlight_file(path)
        out.update(rows=X.shape[0], d=X.shape[1],
                   csr_bytes=int(X.data.nbytes + X.indices.nbytes + X.indptr.nbytes + y.nbytes))
    out.update(seconds=time.perf_counter() - t0, peak_rss_growth=_status("VmHWM") - base,
               baseline_rss=base)
    return out


def run_child(mode: str, path: Path) -> dict:
    res = subprocess.run([sys.executable, __file__, "--child", mode, str(path)],
                         capture_output=True, text=True, check=True)
    return json.loads(res.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--keep", type=Path, default=None, help="write (or reuse) the file here")
    ap.add_argument("--child", nargs=2, metavar=("MODE", "PATH"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(*args.child)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = args.keep or Path(tmp) / "big.svm"
        if not path.exists():
            t0 = time.perf_counter()
            write_file(path, args.rows)
            print(f"wrote {path} ({path.stat().st_size / 2**20:.0f} MiB, {args.rows:,} rows) "
                  f"in {time.perf_counter() - t0:.0f} s")
        stream, load = run_child("stream", path), run_child("load", path)
    mib = 2 ** 20
    print(f"rows {stream['rows']:,}, d {stream['d']}, file {os.path.getsize(path) / mib:.0f} MiB"
          if args.keep else f"rows {stream['rows']:,}, d {stream['d']}")
    print(f"in-memory CSR size (data+indices+indptr+y): {load['csr_bytes'] / mib:8.1f} MiB")
    print("load_svmlight_file, whole file: peak RSS growth "
          f"{load['peak_rss_growth'] / mib:8.1f} MiB"
          f" in {load['seconds']:.1f} s")
    print("olbench Svmlight, streamed:     peak RSS growth "
          f"{stream['peak_rss_growth'] / mib:8.1f} MiB"
          f" in {stream['seconds']:.1f} s (scan + 1 pass: {stream['scan_and_one_pass_s']:.1f} s,"
          f" then meta pass)")
    ratio = load["csr_bytes"] / stream["peak_rss_growth"]
    print(f"ratio in-memory size / streaming peak: {ratio:.1f}x")


if __name__ == "__main__":
    main()
