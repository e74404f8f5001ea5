"""The ``olbench`` command: a Hydra application over ``conf/``.

``olbench`` runs the showcase experiment; ``olbench experiment=<name>`` a study;
``olbench learner=pa stream=noisy stream.flip_rate=0.1`` a single cell (any override of the
stream, learner or comparator group selects the single cell); ``olbench --help`` lists it all.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import hydra
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig, ListConfig, OmegaConf, open_dict

from olbench import schema as col
from olbench.analysis.failures import ResultsNotWritten, failure_lines
from olbench.analysis.index import record
from olbench.harness.grid import SchedulerUnreachable, run_grid
from olbench.harness.interrupt import Terminated, terminate_as_interrupt
from olbench.harness.results import RunStore
from olbench.harness.streamed import refuse_unstreamable
from olbench.harness.tasks import (
    CONF_DIR,
    GridError,
    Task,
    cell_comparator,
    expand,
    single_cell,
    task_problems,
)
from olbench.harness.validate import (
    config_problems,
    invalid_configuration,
    seed_list,
    writable_folder_problem,
)

CELL_GROUPS = (col.STREAM, col.LEARNER, col.COMPARATOR)


def _override_keys(overrides: Sequence[str]) -> list[str]:
    """The keys the overrides set (``+learner.C=1`` -> ``learner.C``)."""
    return [o.split("=", 1)[0].lstrip("+~") for o in overrides]


def _is_single_cell(overrides: Sequence[str]) -> bool:
    keys = _override_keys(overrides)
    if any(k == col.EXPERIMENT for k in keys):
        return False
    return any(k.split(".", 1)[0] in CELL_GROUPS for k in keys)


def _runs_single_cell(cfg: DictConfig, overrides: Sequence[str]) -> bool:
    return _is_single_cell(overrides) or cfg.grid is None


def task_checkpoints(value) -> int | tuple[int, ...]:
    """``run.checkpoints`` as a task holds it: a count, or a sorted tuple of rounds."""
    if isinstance(value, (ListConfig, list, tuple)):
        return tuple(sorted({int(v) for v in value}))
    return int(value)


def solver_time_limit(value) -> float | None:
    """``run.solver_time_limit`` as seconds (a number, or the text of one from the
    environment variable its default reads; null: the solvers' default).

    >>> solver_time_limit(30), solver_time_limit("2.5"), solver_time_limit(None)
    (30.0, 2.5, None)
    """
    return None if value is None else float(value)


def selection_stage(cfg: DictConfig, overrides: Sequence[str] = ()):
    """An experiment's parameter-selection stage (its ``select:`` block, run as LIBOL's
    ``CV_algorithm.m``: :mod:`olbench.harness.selection`): per-stream grids with the chosen values,
    the selection table and ``{learner name: algorithm name}``; None without one."""
    if not selection_stage_needed(cfg, overrides):
        return None
    from olbench.harness.selection import select_grid

    return select_grid(cfg.grid, cfg.select, cache_dir=cfg.run.cache_dir)


def build_tasks(cfg: DictConfig, overrides: Sequence[str] = (), select: bool = True
                ) -> tuple[str, list[Task]]:
    """The experiment's name and its tasks, from a composed config. An experiment with a
    ``select:`` block first runs its selection stage (``select=False``: its learners at their
    configured values, nothing run)."""
    common = dict(checkpoints=task_checkpoints(cfg.run.checkpoints), loss=cfg.loss,
                  cache_dir=cfg.run.cache_dir, spacing=cfg.run.get("checkpoint_spacing", "log"),
                  comparators=cfg.run.get("comparators", True), bounds=cfg.run.get("bounds", True),
                  solver_time_limit=solver_time_limit(cfg.run.get("solver_time_limit")),
                  memory_limit=cfg.run.get("memory_limit"))
    if _runs_single_cell(cfg, overrides):
        chosen = any(k.split(".")[0] == col.COMPARATOR for k in _override_keys(overrides))
        comparator = cell_comparator(cfg.learner, cfg.get("comparator"), chosen=chosen)
        configured = cfg.get("comparator")
        if comparator is not None and comparator != OmegaConf.to_container(configured,
                                                                             resolve=True):
            with open_dict(cfg):   # what the report and config.yaml say ran
                cfg.comparator = comparator
        # name=... names a single cell's folder too (else "single", not the default
        # experiment's name, which the composed config carries)
        name = cfg.name if "name" in _override_keys(overrides) else "single"
        return name, single_cell(cfg.stream, cfg.learner, comparator, experiment=name,
                                 seeds=seed_list(cfg.run.seeds), **common)
    seeds = seed_list(cfg.grid.get("seeds") or cfg.run.seeds)  # an experiment's own seeds
    if cfg.get("select") is None:
        return cfg.name, expand(cfg.grid, experiment=cfg.name, seeds=seeds, **common)
    from olbench.harness.selection import without_selection

    grids = selection_stage(cfg, overrides)[0] if select else [without_selection(cfg.grid)]
    return cfg.name, [t for g in grids
                      for t in expand(g, experiment=cfg.name, seeds=seeds, **common)]


def changed_grid(cfg: DictConfig, overrides: Sequence[str] = ()
                 ) -> tuple[str, list[str]] | None:
    """The experiment whose grid ``overrides`` changed (``grid.*``) and those overrides;
    None when an experiment runs its own grid, and for a single cell."""
    from olbench.harness.listing import _default_choice

    if _runs_single_cell(cfg, overrides):
        return None
    keys = [o.split("=", 1)[0].lstrip("+~") for o in overrides]
    changes = [o for o, k in zip(overrides, keys) if k.split(".", 1)[0] == "grid"]
    chosen = [o.split("=", 1)[1] for o, k in zip(overrides, keys) if k == col.EXPERIMENT]
    experiment = chosen[-1] if chosen else _default_choice(col.EXPERIMENT) or str(cfg.name)
    return (experiment, changes) if changes else None


def described_grid(cfg: DictConfig, overrides: Sequence[str] = ()) -> tuple[str | None, str]:
    """The question and the configuration text of what runs: an experiment's own (no
    question when overrides changed its grid: :func:`changed_grid`), or for a single cell
    its stream, learner, comparator, seeds and loss (never the default experiment's question
    and grid, which did not run)."""
    if not _runs_single_cell(cfg, overrides):
        question = None if changed_grid(cfg, overrides) else cfg.question
        return question, OmegaConf.to_yaml(cfg.grid)
    cell = {g: cfg.get(g) for g in CELL_GROUPS} | {"seeds": cfg.run.seeds, "loss": cfg.loss}
    return None, OmegaConf.to_yaml(OmegaConf.create(cell))


def command_line(overrides: Sequence[str]) -> str:
    """The ``olbench`` command that reruns this grid (into the same folder)."""
    return " ".join(["olbench", *map(shlex.quote, overrides)])


def results_folder(cfg: DictConfig, name: str, tasks: list[Task]) -> Path:
    """Same grid, same folder (so a re-run resumes); ``run.name`` overrides the hash."""
    digest = hashlib.sha256("".join(sorted(t.run_id for t in tasks)).encode()).hexdigest()[:10]
    return Path(cfg.run.output_dir) / name / (cfg.run.name or digest)


def execute(cfg: DictConfig, overrides: Sequence[str] = ()) -> int:
    """Run what the config describes, write the results folder, print the summary.

    Returns the exit status: 0 when every run succeeded and no bound was violated. Raises
    :class:`GridError` for a configuration that cannot run (nothing run), and
    :class:`~olbench.analysis.failures.ResultsNotWritten` when the results folder cannot be written
    (a full disk, a read-only folder: the finished runs are kept).
    """
    return execute_into(cfg, overrides)[0]


def execute_into(cfg: DictConfig, overrides: Sequence[str] = ()) -> tuple[int, Path]:
    """:func:`execute`, returning the results folder too."""
    name, tasks, published = checked(cfg, overrides)
    _scheduler_answers(cfg.run)
    folder = results_folder(cfg, name, tasks)
    try:
        return _write_results(cfg, overrides, name, tasks, published, folder), folder
    except BrokenPipeError:   # the terminal's end, not the folder's
        raise
    except OSError as error:
        raise ResultsNotWritten(folder, error, [t.run_id for t in tasks]) from error


def _scheduler_answers(run: DictConfig) -> None:
    """Raise :class:`SchedulerUnreachable` before the results folder is made when a Dask
    scheduler is asked for and does not answer (the folder of a run that never started was
    left behind)."""
    if run.get("backend") == "dask" and run.get("scheduler"):
        from olbench.harness.grid import dask_client

        dask_client(run.scheduler, float(run.get("scheduler_timeout", 5))).close()


def checked(cfg: DictConfig, overrides: Sequence[str] = ()) -> tuple[str, list[Task], Any]:
    """The name, the tasks and the ``published`` table of what the config describes, after
    checking all of it (:func:`problems_of`): every problem at once, as one
    :class:`GridError`. An experiment with a ``select:`` block is checked at its configured
    values; its selection stage runs after, and the values it chose are checked too."""
    problems, name, tasks, published = problems_of(cfg, overrides)
    if problems:
        raise GridError(invalid_configuration(problems))
    if selection_stage_needed(cfg, overrides):
        name, tasks = build_tasks(cfg, overrides)
        problems = task_problems(tasks)
        if problems:
            raise GridError(invalid_configuration(problems))
    return name, tasks, published


def problems_of(cfg: DictConfig, overrides: Sequence[str] = ()
                ) -> tuple[list[str], str, list[Task], Any]:
    """Every problem of a composed config, found before anything runs: the options
    (:func:`config_problems`), the published file, every component and pairing
    (:func:`olbench.harness.tasks.task_problems`); and the name, the tasks (no selection stage run)
    and the published table, where they could be made."""
    from olbench.analysis.figures import figure_problems

    problems = config_problems(cfg, overrides, _is_single_cell(overrides)) + figure_problems(cfg)
    published, name, tasks = None, "", []
    try:
        published = _published(cfg)
    except GridError as error:
        problems.append(str(error))
    try:
        name, tasks = build_tasks(cfg, overrides, select=False)
    except GridError as error:
        problems.append(str(error))
    except (TypeError, ValueError):   # made by a bad option, named above
        if not problems:
            raise
    problems += task_problems(tasks)
    if tasks and not problems:   # a comparator an out-of-core file cannot have
        try:
            refuse_unstreamable(tasks)
        except GridError as error:
            problems.append(str(error))
    return problems, name, tasks, published


def config_problems_of(cfg: DictConfig, overrides: Sequence[str]) -> list[str]:
    """Only the problems of :func:`problems_of` (what the command line's checks ask)."""
    return problems_of(cfg, overrides)[0]


def selection_stage_needed(cfg: DictConfig, overrides: Sequence[str] = ()) -> bool:
    return not _runs_single_cell(cfg, overrides) and cfg.get("select") is not None


def _write_results(cfg: DictConfig, overrides: Sequence[str], name: str, tasks: list[Task],
                   published: Any, folder: Path) -> int:
    from olbench.analysis.figures import captions, make_figures
    from olbench.analysis.report import format_summary, reading_notes, summary_table, write_report
    from olbench.analysis.report_bounds import bound_checks, bound_lines
    from olbench.harness.side import read_side

    problem = writable_folder_problem(folder)   # an existing folder made read-only
    if problem:
        raise GridError(f"results folder {folder}: {problem}")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.yaml").write_text(OmegaConf.to_yaml(cfg, resolve=True))
    print(f"olbench: {name}: {len(tasks)} runs -> {folder}")
    start = time.perf_counter()
    try:
        with terminate_as_interrupt():
            table = run_grid(tasks, folder, n_jobs=cfg.run.n_jobs, backend=cfg.run.backend,
                             scheduler=cfg.run.scheduler, force=cfg.run.force,
                             progress=cfg.run.progress, batch_size=cfg.run.batch_size,
                             scheduler_timeout=cfg.run.get("scheduler_timeout", 5.0))
    except (KeyboardInterrupt, Terminated) as stop:
        saved = len(RunStore(folder).finished() & {t.run_id for t in tasks})
        print(f"\ninterrupted{' (SIGTERM)' if isinstance(stop, Terminated) else ''}: {saved} of "
              f"{len(tasks)} runs are saved in {folder / 'runs'}; run the same command again "
              "to finish the rest", file=sys.stderr)
        return 143 if isinstance(stop, Terminated) else 130
    if table.empty or not table[col.STATUS].eq(col.OK).any():
        return _all_failed(table, folder, name, cfg, overrides)
    summary = summary_table(table)
    summary.to_csv(folder / "summary.csv", index=False)
    only = None if cfg.run.figures is True else list(cfg.run.figures or [])
    figures = make_figures(table, folder / "figures", side=read_side(folder), only=only) \
        if cfg.run.figures else []
    question, config_text = described_grid(cfg, overrides)
    sections = selection_sections(cfg, overrides, summary, folder, published)
    report = write_report(table, folder, experiment=name, question=question,
                          config_text=config_text, figures=figures, captions=captions(),
                          sections=sections, derived_from=changed_grid(cfg, overrides))
    record(folder, experiment=name, table=table, command=command_line(overrides))
    print(format_summary(summary))
    for note in reading_notes(table):
        print(f"note: {note}")
    for line in bound_lines(bound_checks(table)):   # each bound's value and observed/bound
        print(line)
    print(one_line_summary(name, table, time.perf_counter() - start))
    return _closing_lines(table, folder, report)


def _published(cfg: DictConfig):
    """The experiment's ``published:`` table (a path relative to the repository, or
    absolute), read and checked; None without one."""
    if not cfg.get("published"):
        return None
    from olbench.analysis.published import read_published

    path = Path(cfg.published)
    try:
        return read_published(path if path.is_absolute() else CONF_DIR.parent / path)
    except (OSError, ValueError) as error:
        raise GridError(f"published={cfg.published}: {error}") from error


def selection_sections(cfg: DictConfig, overrides: Sequence[str], summary, folder: Path,
                       published=None) -> list[str]:
    """The report's sections of the selection stage (``selection.csv``) and, given the
    experiment's ``published`` table, of the published numbers beside ours
    (``published.csv``, ``published.tex``); none without a ``select:`` block."""
    from olbench.analysis.report import published_section, selection_section

    selection = selection_stage(cfg, overrides)
    if selection is None:
        return []
    _, chosen, algorithms = selection
    chosen.to_csv(folder / "selection.csv", index=False)
    parts = selection_section(chosen, algorithms)
    if published is not None:
        from olbench.analysis.published import beside_published

        beside = beside_published(summary, published, algorithms)
        beside.to_csv(folder / "published.csv", index=False)
        parts += published_section(beside, folder, source=str(cfg.published))
    return parts


def one_line_summary(name: str, table, seconds: float) -> str:
    """``showcase: 24 runs (24 ok, 0 failed); 96 bound checks: 96 held, 0 violated; 12.3 s``"""
    runs = table.drop_duplicates(col.RUN_ID)
    ok = int((runs[col.STATUS] == col.OK).sum())
    line = f"{name}: {len(runs)} runs ({ok} ok, {len(runs) - ok} failed)"
    if col.BOUND_HOLDS in table:
        checks = table.dropna(subset=[col.BOUND]).drop_duplicates(
            [col.RUN_ID, col.T, col.BOUND_NAME])
        held = int((checks[col.BOUND_HOLDS].astype("object") == True).sum())  # noqa: E712
        line += f"; {len(checks)} bound checks: {held} held, {len(checks) - held} violated"
    return line + f"; {seconds:.1f} s"


def _all_failed(table, folder: Path, name: str, cfg: DictConfig,
                overrides: Sequence[str] = ()) -> int:
    """No run succeeded: nothing to summarise or draw; say why, once per distinct error."""
    from olbench.analysis.report import write_report

    question, config_text = described_grid(cfg, overrides)
    report = write_report(table, folder, experiment=name, question=question,
                          config_text=config_text, figures=[],
                          derived_from=changed_grid(cfg, overrides))
    print("\n".join(["", "every run FAILED: no result to summarise.", *failure_lines(table),
                     f"details (tracebacks): {folder / 'results.parquet'}, report: {report}"]),
          file=sys.stderr)
    return 1


def _closing_lines(table, folder: Path, report: Path) -> int:
    status = 0
    failures = failure_lines(table)
    if failures:
        status = 1
        print("\n" + "\n".join(failures), file=sys.stderr)
    if col.BOUND_HOLDS in table:
        violated = table[table[col.BOUND_HOLDS].astype("object") == False]  # noqa: E712
        if len(violated):
            status = 1
            print(f"\nBOUND VIOLATED in {violated[col.RUN_ID].nunique()} run(s): a bound whose "
                  "assumptions hold was exceeded, which means a bug. See report.md.",
                  file=sys.stderr)
    print(f"\nresults: {folder / 'results.parquet'}\nreport:  {report}")
    return status


@hydra.main(config_path=str(CONF_DIR), config_name="config", version_base=None)
def _hydra_main(cfg: DictConfig) -> None:
    if not isinstance(sys.stdout, ReaderMayLeave):
        sys.stdout = ReaderMayLeave(sys.stdout)
    try:
        status = execute(cfg, HydraConfig.get().overrides.task)
    except GridError as error:
        print(f"olbench: {error}", file=sys.stderr)
        status = 2
    except ResultsNotWritten as error:
        print(f"olbench: {error}", file=sys.stderr)
        status = 1
    except SchedulerUnreachable as error:
        print(f"olbench: {error}", file=sys.stderr)
        status = 2
    if isinstance(sys.stdout, ReaderMayLeave) and sys.stdout.left:
        status = status or 141   # what a shell reports for a process ended by SIGPIPE
    if status:
        sys.exit(status)


class ReaderMayLeave:
    """The terminal's stream, which a reader may close (``olbench ... | head``): the first
    write that meets the closed pipe sends the rest to /dev/null, and the runs and the results
    folder are finished and written as they would be (a BrokenPipeError stopped olbench before
    its first run, with a traceback)."""

    def __init__(self, stream):
        self._stream = stream
        self.left = False

    def write(self, text: str) -> int:
        if not self.left:
            try:
                return self._stream.write(text)
            except BrokenPipeError:
                self._leave()
        return len(text)

    def flush(self) -> None:
        if not self.left:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._leave()

    def _leave(self) -> None:
        self.left = True
        os.dup2(os.open(os.devnull, os.O_WRONLY), self._stream.fileno())

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def list_datasets() -> int:
    """``olbench --datasets``: the dataset catalogue, marking the sets present locally."""
    from olbench.datasets import catalogue_table

    print(catalogue_table())
    return 0


def list_choices(args: Sequence[str]) -> int:
    """``olbench --list [group | group=key]``: the choices and their parameters."""
    from olbench.harness.listing import listing

    try:
        print(listing(args[0] if args else None))
    except ValueError as error:
        print(f"olbench --list: {error}", file=sys.stderr)
        return 2
    return 0


def compare_folders(args: Sequence[str]) -> int:
    """``olbench --compare A B [...] [--metric=regret] [--out=DIR] [run.output_dir=DIR]``:
    one table (printed, and compare.csv) and one figure of two or more results folders or
    experiments (:mod:`olbench.analysis.comparison`: where the files go by default)."""
    from olbench.analysis.comparison import compare

    options, sources, unknown = {}, [], []
    for arg in args:
        key, equals, value = arg.partition("=")
        if key in ("--metric", "--out", "--output-dir") and equals:
            options[key[2:]] = value
        elif key == "run.output_dir" and equals:   # as in every other olbench command
            options["output-dir"] = value
        elif arg.startswith("--") or (equals and not Path(arg).exists()):
            unknown.append(arg)
        else:
            sources.append(arg)
    try:
        if unknown:
            raise ValueError(f"unknown options {unknown}; use --metric=M, --out=DIR (the "
                             "comparison's folder), run.output_dir=DIR (where names are "
                             "looked up and comparisons go; or --output-dir=DIR)")
        result = compare(*sources, output_dir=options.get("output-dir"),
                         out_dir=options.get("out"),
                         metric=options.get("metric", col.MISTAKE_RATE))
    except (ValueError, OSError) as error:
        hint = "" if isinstance(error, FileNotFoundError) or not isinstance(error, OSError) \
            else " (choose the comparison's folder with --out=DIR)"
        print(f"olbench --compare: {error}{hint}", file=sys.stderr)
        return 2
    print(result.text)
    print(f"\ntable:  {result.csv}" + (f"\nfigure: {result.figure}" if result.figure else ""))
    return 0


def main() -> None:
    """Console entry point (``olbench``)."""
    from olbench.harness.listing import check_overrides, with_option_appends
    from olbench.harness.overrides import prepared

    if sys.argv[1:] == ["--datasets"]:
        sys.exit(list_datasets())
    if sys.argv[1:2] == ["--list"]:
        sys.exit(list_choices(sys.argv[2:]))
    if sys.argv[1:2] == ["--compare"]:
        sys.exit(compare_folders(sys.argv[2:]))
    arguments, problems = prepared(with_option_appends(sys.argv[1:]), config_problems_of)
    unknown = check_overrides(arguments)   # before Hydra, whose hint would be to append it
    problems += [unknown] if unknown else []
    if problems:
        print(f"olbench: {invalid_configuration(problems)}", file=sys.stderr)
        sys.exit(2)
    sys.argv[1:] = arguments
    if not CONF_DIR.is_dir():  # pragma: no cover - a non-editable install
        sys.exit(f"olbench: config folder {CONF_DIR} not found; install with pip install -e .")
    _hydra_main()
