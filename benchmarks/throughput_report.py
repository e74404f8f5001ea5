"""What the throughput benchmark prints and draws: the Markdown tables with the targets'
verdicts, the machine it ran on (with the copy bandwidth, the floor of a pass over dense X),
and the figure of ns/example against d."""

from __future__ import annotations

import os
import platform
import time

import numba
import numpy as np
from throughput_cases import COLUMNS, FULL, LABEL, Row

import olbench

TARGET_HAND = 1.1     # olbench loop / hand loop <= 1.1
TARGET_RIVER = 300.0  # river / olbench run >= 300
TARGET_SKLEARN = 3.0  # sklearn / olbench run >= 3
TARGET_CHAIN = 0.6    # olbench run / 1-chain loop (olbench before blocked sums), d >= 100
TARGET_FLOOR = 1.5    # olbench run / memory-bandwidth floor <= 1.5 at d = 1000
TARGET_BLAS = 1.3     # full covariances: olbench run / BLAS-based numpy loop <= 1.3


def _fmt(value: float | None, digits: int = 1) -> str:
    if value is None:
        return "n/a"
    if value >= 1e5:
        return f"{value:,.0f}"
    return f"{value:,.{digits}f}"


def _verdict(value: float | None, target: float, at_most: bool) -> str:
    if value is None:
        return "n/a"
    ok = value <= target if at_most else value >= target
    return "PASS" if ok else "MISS"


def feasible(r: Row) -> str:
    """Whether the river and 1-chain targets can be met at all on this machine: each asks for a
    time below which no rule that reads its row and takes w.x can go (the dot pass)."""
    floor = r.ns.get("dot_pass")
    notes = []
    if r.ns.get("river") is not None and r.ns["river"] / TARGET_RIVER < floor:
        notes.append(f"river/{TARGET_RIVER:.0f} = {_fmt(r.ns['river'] / TARGET_RIVER)} < pass")
    if r.ns.get("chain") is not None and r.d >= 100 and TARGET_CHAIN * r.ns["chain"] < floor:
        notes.append(f"{TARGET_CHAIN}x 1-chain = {_fmt(TARGET_CHAIN * r.ns['chain'])} < pass")
    return "; ".join(notes) or "-"


def format_table(rows: list[Row]) -> str:
    """A Markdown table: ns/example, ratios, verdicts."""
    head = ("| learner | d | upd % | olbench run | olbench loop | hand loop | 1-chain loop |"
            " bandwidth floor | dot pass | numpy loop | river |"
            " sklearn | loop/hand | run/1-chain | run/floor | numpy/run | river/run | sklearn/run |"
            " river/loop | sklearn/loop | <=1.1x hand | <=0.6x 1-chain (d>=100) |"
            " <=1.5x floor (d=1000) | full: <=1.3x numpy+BLAS | >=300x river | >=3x sklearn |"
            " below the dot pass (unreachable) |")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for r in rows:
        loop_hand = r.ratio("olbench_loop", "hand")
        run_chain = r.ratio("olbench_run", "chain") if r.d >= 100 else None
        run_floor = r.ratio("olbench_run", "floor")
        numpy_run = r.ratio("numpy", "olbench_run")
        river_run = r.ratio("river", "olbench_run")
        sk_run = r.ratio("sklearn", "olbench_run")
        river_loop = r.ratio("river", "olbench_loop")
        sk_loop = r.ratio("sklearn", "olbench_loop")
        cells = [LABEL[r.rule], str(r.d), f"{100 * r.updates:.0f}",
                 *(_fmt(r.ns.get(c)) for c in COLUMNS),
                 _fmt(loop_hand, 2) + "x" if loop_hand else "n/a",
                 _fmt(run_chain, 2) + "x" if run_chain else "n/a",
                 _fmt(run_floor, 1) + "x" if run_floor else "n/a",
                 _fmt(numpy_run) + "x" if numpy_run else "n/a",
                 _fmt(river_run) + "x" if river_run else "n/a",
                 _fmt(sk_run, 2) + "x" if sk_run else "n/a",
                 _fmt(river_loop) + "x" if river_loop else "n/a",
                 _fmt(sk_loop, 2) + "x" if sk_loop else "n/a",
                 _verdict(loop_hand, TARGET_HAND, True),
                 _verdict(run_chain, TARGET_CHAIN, True),
                 _verdict(run_floor if r.d == 1000 else None, TARGET_FLOOR, True),
                 _verdict(1 / numpy_run if numpy_run and r.rule in FULL else None, TARGET_BLAS,
                          True),
                 _verdict(river_run, TARGET_RIVER, False),
                 _verdict(sk_run, TARGET_SKLEARN, False),
                 feasible(r)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def format_checks(rows: list[Row]) -> str:
    lines = ["| learner | d | hand = olbench | numpy = olbench | river = olbench |"
             " sklearn = olbench | numpy rows | river rows | sklearn rows |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {LABEL[r.rule]} | {r.d} | {r.match['hand']} | {r.match['numpy']} | "
                     f"{r.match['river']} | {r.match['sklearn']} | {r.rows.get('numpy', '-')} | "
                     f"{r.rows.get('river', '-')} | {r.rows.get('sklearn', '-')} |")
    return "\n".join(lines)


def environment() -> str:
    import river
    import sklearn

    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    env = {k: os.environ[k] for k in sorted(os.environ)
           if k.startswith(("OPENBLAS_", "OMP_", "MKL_", "NUMBA_"))}
    return (f"date {time.strftime('%Y-%m-%d %H:%M %Z')}; CPU {cpu}, nproc {os.cpu_count()}; "
            f"{platform.system()} {platform.release()}\n"
            f"python {platform.python_version()}, numpy {np.__version__}, numba "
            f"{numba.__version__}, river {river.__version__}, scikit-learn {sklearn.__version__}, "
            f"olbench {olbench.__version__}\n"
            f"env: {env if env else 'no OPENBLAS_/OMP_/MKL_/NUMBA_ variables set'}; "
            f"load average {loadavg()}")


def loadavg() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def copy_bandwidth(megabytes: int = 256, repeats: int = 5) -> float:
    """Bytes per second of a large array copy (read + write counted as the bytes read, as a
    pass over X reads them): the floor below which no pass over dense X can go."""
    src = np.ones(megabytes * 2**20 // 8)
    dst = np.empty_like(src)
    np.copyto(dst, src)
    best = min(_timed_copy(dst, src) for _ in range(repeats))
    return src.nbytes / best


def _timed_copy(dst, src) -> float:
    start = time.perf_counter()
    np.copyto(dst, src)
    return time.perf_counter() - start


def draw(rows: list[Row], path: str) -> None:
    """ns/example against d, log-log: one panel per learner (four to a row), one line per
    implementation in a colour and marker of its own, the memory-bandwidth floor dashed."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import LogLocator, NullFormatter, ScalarFormatter

    rules = list(dict.fromkeys(r.rule for r in rows))
    styles = {"olbench_run": ("olbench run", "o", "-", "#0072B2"),
              "hand": ("hand loop", "s", "--", "#E69F00"),
              "chain": ("1-chain loop", "^", ":", "#009E73"),
              "dot_pass": ("dot pass (no updates)", "x", ":", "#555555"),
              "numpy": ("numpy loop", "v", "-.", "#CC79A7"),
              "river": ("river", "D", "-", "#D55E00"),
              "sklearn": ("scikit-learn fit", "P", "--", "#56B4E9")}
    ncols = min(4, len(rules))
    nrows = -(-len(rules) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.3 * ncols, 2.9 * nrows + 0.8),
                             squeeze=False)
    for ax, rule in zip(axes.flat, rules):
        mine = sorted((r for r in rows if r.rule == rule), key=lambda r: r.d)
        dims = [r.d for r in mine]
        for key, (label, marker, line, colour) in styles.items():
            values = [r.ns.get(key) for r in mine]
            if any(v is not None for v in values):
                ax.plot(dims, [float("nan") if v is None else v for v in values], marker=marker,
                        linestyle=line, color=colour, label=label)
        ax.plot(dims, [r.ns["floor"] for r in mine], color="0.6", linestyle=(0, (1, 1)),
                label="bandwidth floor (copy)")
        ax.set(xscale="log", yscale="log", xlabel="d (features)", title=LABEL[rule])
        ax.set_xticks(dims)
        ax.xaxis.set_major_formatter(ScalarFormatter())
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.yaxis.set_major_locator(LogLocator(numticks=8))
        ax.title.set_fontsize(9)
    for ax in axes.flat[len(rules):]:
        ax.set_visible(False)
    for row in axes:
        row[0].set_ylabel("ns per example (median)")
    handles = {}
    for ax in axes.flat:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(lab, h)
    fig.legend(list(handles.values()), list(handles), loc="upper center", ncol=4, fontsize=8,
               frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.7 / (2.9 * nrows + 0.8)))
    fig.savefig(path, dpi=150)
    plt.close(fig)


__all__ = ["copy_bandwidth", "draw", "environment", "format_checks", "format_table",
           "loadavg"]
