"""Peak memory and parsing speed of streaming a large svmlight file vs. loading it whole.

Writes a generated svmlight file (default 1,000,000 rows, 20 non-zeros per row out of 100
features, labels in {-1,+1}), then, each in a fresh Python process so the figures do not mix:

* ``stream``: ``olbench.streams.Svmlight(path=...)``: the scan pass, then one full pass over
  ``chunks(10_000)`` (what a run does), then ``meta`` (one more pass: R and fingerprint),
  then one more pass over ``chunks`` alone, timed as the parsing throughput;
* ``capped``: the same streaming passes under a hard address-space cap (``RLIMIT_AS`` set
  to the process's size after imports plus ``--cap`` MiB, default 24): a file several
  times larger than the cap passes in constant memory or fails with MemoryError;
* ``load``: ``sklearn.datasets.load_svmlight_file(path)`` (the whole file in memory);
* ``vw``: Vowpal Wabbit's text parser (``vowpalwabbit``, if installed) over the same file
  converted to VW's format beforehand (``-t``: predict only, so the pass is mostly parsing);
* ``run``: one whole olbench run as a grid worker makes it (``olbench.harness.grid.run_task``: the
  stream's scan and meta passes, the PA learner's pass, the metrics table at 25 checkpoints),
  without comparators, over the file as an *out-of-core* stream (``olbench.harness.streamed``: the
  in-memory threshold set to 0, so that a file under 256 MiB runs as a larger one does),
  after a warm-up run on a small file (JIT compilation out of the measure);
* ``fit``: the comparator ``best_fixed loss=squared_hinge ridge=1`` fitted chunk by chunk
  over the file (``Comparator.fit_stream``: Newton's method, one pass per step, certified by
  its duality gap; no solver time limit), after the scan and meta passes;
* ``cli``: the command of issue 31, ``olbench learner=pa stream=libsvm stream.path=FILE
  stream.n_features=D run.comparators=false``, as a process of its own: its peak resident
  set size, imports included (files up to 256 MiB are held in memory there, by design).

For each: the growth of the peak resident set size (Linux ``VmHWM``, reset after the imports)
over the process's resident size after imports, the wall time, and rows/s and MB/s of one
pass. Also printed: the size of the data held in memory as CSR (data + indices + indptr +
y). Usage::

    python benchmarks/stream_memory.py               # 1,000,000 rows in a temporary folder
    python benchmarks/stream_memory.py --rows 200000 --keep /tmp/big.svm
    python benchmarks/stream_memory.py --rows 5000000 --d 20 --nnz 20 --modes stream run cli
"""

from __future__ import annotations

import argparse
import importlib.util
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


def _one_pass(stream) -> int:
    rows = 0
    for X, _ in stream.chunks(10_000):
        rows += X.shape[0]
    return rows


def _run_task(path: str):
    from olbench.harness.grid import run_task
    from olbench.harness.tasks import expand

    stream = {"key": "libsvm", "params": {"path": path}}
    (task,) = expand({"streams": [stream], "learners": ["pa"], "comparators": []}, seeds=[0],
                     experiment="memory", checkpoints=25, cache_dir=None)
    rows = run_task(task)
    if not rows["status"].eq("ok").all():
        raise RuntimeError(rows["traceback"].iloc[0])
    return rows


def child(mode: str, path: str, cap_mib: int = 24) -> dict:
    sys.path.insert(0, str(ROOT))
    from sklearn.datasets import load_svmlight_file

    from olbench.streams import Svmlight

    if mode == "run":
        from olbench import streamed

        warm = Path(path).with_suffix(".warm.svm")
        write_file(warm, 1000, d=20, nnz=20)
        _run_task(str(warm))
        warm.unlink()
        streamed.CACHE_FILES_UP_TO = 0       # the file is out of core, whatever its size
    if mode == "capped":
        import resource

        limit = _status("VmSize") + cap_mib * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (limit, resource.getrlimit(resource.RLIMIT_AS)[1]))
    _reset_peak()
    base = _status("VmRSS")
    t0 = time.perf_counter()
    out: dict = {"mode": mode}
    if mode in ("stream", "capped"):
        s = Svmlight(path=path)
        try:
            rows = _one_pass(s)
            t1 = time.perf_counter()
            meta = s.meta
            t2 = time.perf_counter()
            _one_pass(s)
            out.update(rows=rows, d=meta.d, radius=meta.radius, fingerprint=meta.fingerprint,
                       scan_and_one_pass_s=t1 - t0, pass_s=time.perf_counter() - t2)
        except MemoryError:
            out.update(memory_error=True)
    elif mode == "fit":
        from olbench.comparators import BestFixed
        from olbench.comparators._duality import time_limit

        stream = Svmlight(path=path)
        meta = stream.meta                           # the scan and meta passes, measured
        with time_limit(1e9):
            fit = BestFixed(loss="squared_hinge", ridge=1.0).fit_stream(
                stream, meta, checkpoints=[1, meta.n], cache=None)
        if not fit.ok:
            raise RuntimeError(fit.skip_reason)
        out.update(rows=meta.n, d=meta.d, passes=fit.info["passes"],
                   steps=fit.info["steps"], relative_gap=fit.gap / max(1.0, fit.objective))
    elif mode == "run":
        rows = _run_task(path)
        out.update(rows=int(rows["stream_n"].iloc[0]), d=int(rows["stream_d"].iloc[0]),
                   final_mistake_rate=float(rows["mistake_rate"].iloc[-1]))
    elif mode == "vw":
        from vowpalwabbit import pyvw

        workspace = pyvw.Workspace(f"-d {path} --quiet -t --noconstant -b 18")
        workspace.finish()
        out.update(pass_s=time.perf_counter() - t0)
    else:
        X, y = load_svmlight_file(path)
        out.update(rows=X.shape[0], d=X.shape[1], pass_s=time.perf_counter() - t0,
                   csr_bytes=int(X.data.nbytes + X.indices.nbytes + X.indptr.nbytes + y.nbytes))
    out.update(seconds=time.perf_counter() - t0, peak_rss_growth=_status("VmHWM") - base,
               baseline_rss=base)
    return out


def run_child(mode: str, path: Path, cap_mib: int = 24) -> dict:
    res = subprocess.run([sys.executable, __file__, "--child", mode, str(path), str(cap_mib)],
                         capture_output=True, text=True, check=True)
    return json.loads(res.stdout.strip().splitlines()[-1])


def run_cli(path: Path, d: int) -> dict:
    """The issue's command in a process of its own: its peak RSS (imports included)."""
    with tempfile.TemporaryDirectory() as out, open(Path(out) / "stderr", "w+") as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(["olbench", "learner=pa", "stream=libsvm",
                                 f"stream.path={path}", f"stream.n_features={d}",
                                 "run.comparators=false", "run.n_jobs=1", "run.progress=false",
                                 "run.figures=false", f"run.output_dir={out}"],
                                stdout=subprocess.DEVNULL, stderr=err,
                                env={**os.environ, "PYTHONPATH": str(ROOT)})
        _, status, usage = os.wait4(proc.pid, 0)     # this process's own peak, not a sum
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode:
            err.seek(0)
            raise RuntimeError(err.read()[-2000:])
        return {"seconds": time.perf_counter() - t0, "max_rss": usage.ru_maxrss * 1024}


def write_vw(svm: Path, out: Path) -> None:
    """The svmlight file in VW's text format ('<label> | <index>:<value> ...')."""
    with open(svm) as src, open(out, "w") as dst:
        for line in src:
            label, _, features = line.strip().partition(" ")
            dst.write(f"{label} | {features}\n")


MODES = ("stream", "load", "capped", "vw", "run", "fit", "cli")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--d", type=int, default=100, help="features of the generated file")
    ap.add_argument("--nnz", type=int, default=20, help="non-zeros per generated row")
    ap.add_argument("--keep", type=Path, default=None, help="write (or reuse) the file here")
    ap.add_argument("--cap", type=int, default=24, help="memory cap (MiB) of the capped pass")
    ap.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES))
    ap.add_argument("--child", nargs=3, metavar=("MODE", "PATH", "CAP"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        mode, path, cap = args.child
        print(json.dumps(child(mode, path, int(cap))))
        return
    res: dict[str, dict | None] = dict.fromkeys(MODES)
    with tempfile.TemporaryDirectory() as tmp:
        path = args.keep or Path(tmp) / "big.svm"
        if not path.exists():
            t0 = time.perf_counter()
            write_file(path, args.rows, d=args.d, nnz=args.nnz)
            print(f"wrote {path} ({path.stat().st_size / 2**20:.0f} MiB, {args.rows:,} rows) "
                  f"in {time.perf_counter() - t0:.0f} s")
        size = os.path.getsize(path)
        for mode in ("stream", "load", "run", "fit"):
            if mode in args.modes:
                res[mode] = run_child(mode, path)
        if "capped" in args.modes:
            res["capped"] = run_child("capped", path, args.cap)
        if "cli" in args.modes:
            res["cli"] = run_cli(path, args.d)
        if "vw" in args.modes and importlib.util.find_spec("vowpalwabbit") is not None:
            write_vw(path, Path(tmp) / "big.vw")
            res["vw"] = run_child("vw", Path(tmp) / "big.vw")
    report(res, args, size)


def report(res: dict, args, size: int) -> None:
    mib = 2 ** 20
    stream, load, capped, vw, run, fit, cli = (res[m] for m in MODES)
    print(f"rows {args.rows:,}, d {args.d}, {args.nnz} non-zeros a row, file "
          f"{size / mib:.0f} MiB")
    if load:
        print(f"in-memory CSR size (data+indices+indptr+y): {load['csr_bytes'] / mib:8.1f} MiB")
        print("load_svmlight_file, whole file: peak RSS growth "
              f"{load['peak_rss_growth'] / mib:8.1f} MiB in {load['seconds']:.1f} s")
    if stream:
        print("olbench Svmlight, streamed:     peak RSS growth "
              f"{stream['peak_rss_growth'] / mib:8.1f} MiB in {stream['seconds']:.1f} s (scan "
              f"+ 1 pass: {stream['scan_and_one_pass_s']:.1f} s, then meta pass)")
    if stream and load:
        ratio = load["csr_bytes"] / stream["peak_rss_growth"]
        print(f"ratio in-memory size / streaming peak: {ratio:.1f}x")
    if run:
        print("olbench run (PA, out of core):  peak RSS growth "
              f"{run['peak_rss_growth'] / mib:8.1f} MiB in {run['seconds']:.1f} s "
              f"(scan, meta, run passes; final mistake rate {run['final_mistake_rate']:.4f})")
    if fit:
        print("best_fixed squared hinge fit:   peak RSS growth "
              f"{fit['peak_rss_growth'] / mib:8.1f} MiB in {fit['seconds']:.1f} s (scan, meta "
              f"and {fit['passes']} passes: {fit['steps']} Newton steps, relative gap "
              f"{fit['relative_gap']:.1e})")
    if cli:
        print(f"olbench command (issue 31):     peak RSS         {cli['max_rss'] / mib:8.1f} MiB"
              f" in {cli['seconds']:.1f} s (the whole process, imports included)")
    if capped:
        print(f"under a {args.cap} MiB address-space cap ({size / mib / args.cap:.1f}x smaller "
              f"than the file): " + ("MemoryError" if capped.get("memory_error") else
                                    f"streamed all {capped['rows']:,} rows, peak RSS growth "
                                    f"{capped['peak_rss_growth'] / mib:.1f} MiB"))
    passes = [(name, r) for name, r in (("olbench Svmlight chunks", stream),
                                        ("sklearn load_svmlight_file", load),
                                        ("Vowpal Wabbit text parser (-t)", vw)) if r]
    if passes:
        print("one pass (rows/s, MB/s of text):")
    for name, r in passes:
        print(f"  {name:32s} {args.rows / r['pass_s']:12,.0f} rows/s "
              f"{size / 1e6 / r['pass_s']:8.1f} MB/s")


if __name__ == "__main__":
    main()
