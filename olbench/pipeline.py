"""The one path of a run: plan, execute, publish.

The command (:mod:`olbench.cli`) and the notebook API (:mod:`olbench.api`) both come here
with a composed configuration and its overrides, and :func:`run` takes them through three
steps:

* :func:`plan` -> :class:`Plan`: every check before anything runs, all problems at once as
  one :class:`~olbench.harness.tasks.GridError` (the options, the study's files, the
  figures, selection procedure and report sections asked for, every component and pairing
  of the tasks, a file no comparator can be
  fitted over, the results folder; a Dask scheduler that does not answer:
  :class:`~olbench.harness.grid.SchedulerUnreachable`); an experiment's parameter-selection
  stage (run once); the tasks and their results folder;
* :func:`execute` -> the results table: ``config.yaml``, then the runs (resumed where a
  previous invocation stopped, one lock per run; Ctrl-C or SIGTERM: :class:`Interrupted`,
  the finished runs kept);
* :func:`publish` -> :class:`Results`: ``summary.csv``, the figures, ``report.md``, the
  index of results folders, the summary on the terminal and the exit status.

The harness plans and executes (:mod:`olbench.harness`), the analysis publishes
(:mod:`olbench.analysis`); nothing here builds a component or computes a number.
"""

from __future__ import annotations

import functools
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
from omegaconf import DictConfig, OmegaConf

from olbench import schema as col
from olbench.analysis.failures import ResultsNotWritten, failure_lines
from olbench.harness.experiment import (
    build_tasks,
    changed_grid,
    command_line,
    described_grid,
    is_single_cell,
    needs_selection,
    results_folder,
    selection_stage,
)
from olbench.harness.grid import run_grid
from olbench.harness.interrupt import Terminated, terminate_as_interrupt
from olbench.harness.results import RunStore
from olbench.harness.run_one import Prebuilt
from olbench.harness.selection import Selection, selection_problems
from olbench.harness.streamed import refuse_unstreamable
from olbench.harness.task_checks import checked_components
from olbench.harness.tasks import GridError, Task
from olbench.harness.validate import config_problems, invalid_configuration, writable_folder_problem


class Interrupted(Exception):
    """The runs were stopped (Ctrl-C: exit status 130, SIGTERM: 143); the finished ones are
    saved, and the same command finishes the rest."""

    def __init__(self, status: int):
        super().__init__(status)
        self.status = status


@dataclass
class Plan:
    """What a configuration runs, checked: the experiment's ``name``, its ``tasks``, the
    results ``folder``; the selection stage's result
    (:class:`~olbench.harness.selection.Selection`, None without a ``select:`` block), and
    the components the checks built for the runs (``prebuilt``, by run id: each run builds
    the others once)."""

    cfg: DictConfig
    overrides: list[str]
    name: str
    tasks: list[Task]
    folder: Path
    selection: Selection | None = None
    prebuilt: dict[str, Prebuilt] = field(default_factory=dict, repr=False)
    #: when :func:`execute` started the runs (``time.perf_counter()``)
    started: float | None = None

    @property
    def command(self) -> str:
        return command_line(self.overrides)


def run(cfg: DictConfig, overrides: Sequence[str] = ()) -> Results:
    """Plan, execute and publish what the configuration describes (module docs).

    Raises :class:`GridError` for a configuration that cannot run (nothing run),
    :class:`~olbench.harness.grid.SchedulerUnreachable`, and :class:`ResultsNotWritten` when
    the results folder cannot be written (a full disk, a read-only folder: the finished runs
    are kept). An interrupted run returns its exit status (130 or 143) in its Results."""
    planned = plan(cfg, overrides)
    try:
        return publish(planned, execute(planned))
    except Interrupted as stop:
        return Results(planned.folder, status=stop.status, command=planned.command)
    except BrokenPipeError:   # the terminal's end, not the folder's
        raise
    except OSError as error:
        raise ResultsNotWritten(planned.folder, error, [t.run_id for t in planned.tasks]
                                ) from error


# ----------------------------------------------------------------------------- plan
def plan(cfg: DictConfig, overrides: Sequence[str] = ()) -> Plan:
    """The :class:`Plan` of a composed configuration, after checking all of it
    (:func:`problems_of`). An experiment with a ``select:`` block is checked at its
    configured values; its selection stage runs after (once), and the values it chose are
    checked too."""
    overrides = list(overrides)
    problems, name, tasks, prebuilt = _looked_over(cfg, overrides)
    if problems:
        raise GridError(invalid_configuration(problems))
    selection = None
    if needs_selection(cfg, overrides):
        selection = selection_stage(cfg)
        name, tasks = build_tasks(cfg, overrides, grids=selection.grids)
        problems, prebuilt = checked_components(tasks)
        if problems:
            raise GridError(invalid_configuration(problems))
    _scheduler_answers(cfg.run)
    folder = results_folder(cfg, name, tasks)
    problem = writable_folder_problem(folder)   # an existing folder made read-only
    if problem:
        raise GridError(f"results folder {folder}: {problem}")
    return Plan(cfg, overrides, name, tasks, folder, selection, prebuilt)


def problems_of(cfg: DictConfig, overrides: Sequence[str] = ()) -> list[str]:
    """Every problem of a composed config, found before anything runs: the options
    (:func:`~olbench.harness.validate.config_problems`), the study's files (``modules:``)
    and the figures, selection procedure and report sections asked for, every component and
    pairing (:mod:`olbench.harness.task_checks`), a comparator an out-of-core file cannot
    have. No selection stage is run."""
    return _looked_over(cfg, overrides)[0]


def _looked_over(cfg: DictConfig, overrides: Sequence[str]
                 ) -> tuple[list[str], str, list[Task], dict[str, Prebuilt]]:
    """:func:`problems_of`, with the name, the tasks (no selection stage run) and the
    components the checks built, where they could be made."""
    from olbench.analysis.figures import figure_problems
    from olbench.analysis.study_sections import section_problems

    problems = config_problems(cfg, overrides, is_single_cell(overrides))
    # the study's files first (figure_problems imports them): what they register is named
    # by run.figures, select.procedure and sections
    problems += figure_problems(cfg) + selection_problems(cfg.get("select"))
    problems += section_problems(cfg)
    name, tasks = "", []
    try:
        name, tasks = build_tasks(cfg, overrides)
    except GridError as error:
        problems.append(str(error))
    except (TypeError, ValueError):   # made by a bad option, named above
        if not problems:
            raise
    found, prebuilt = checked_components(tasks)
    problems += found
    if tasks and not problems:   # a comparator an out-of-core file cannot have
        try:
            refuse_unstreamable(tasks)
        except GridError as error:
            problems.append(str(error))
    return problems, name, tasks, prebuilt


def _scheduler_answers(run: DictConfig) -> None:
    """Raise :class:`SchedulerUnreachable` before the results folder is made when a Dask
    scheduler is asked for and does not answer (the folder of a run that never started was
    left behind)."""
    if run.get("backend") == "dask" and run.get("scheduler"):
        from olbench.harness.grid import dask_client

        dask_client(run.scheduler, float(run.get("scheduler_timeout", 5))).close()


# ----------------------------------------------------------------------------- execute
def execute(plan: Plan) -> pd.DataFrame:
    """Run the plan's tasks into its folder (``config.yaml`` first; runs finished before are
    reused) and return the results table of all of them. Raises :class:`Interrupted` on
    Ctrl-C or SIGTERM, after saying how many runs are saved."""
    cfg, folder = plan.cfg, plan.folder
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.yaml").write_text(OmegaConf.to_yaml(cfg, resolve=True))
    print(f"olbench: {plan.name}: {len(plan.tasks)} runs -> {folder}")
    prebuilt, plan.prebuilt = plan.prebuilt, {}   # each component goes to its run, once
    plan.started = time.perf_counter()
    try:
        with terminate_as_interrupt():
            return run_grid(plan.tasks, folder, n_jobs=cfg.run.n_jobs, backend=cfg.run.backend,
                            scheduler=cfg.run.scheduler, force=cfg.run.force,
                            progress=cfg.run.progress, batch_size=cfg.run.batch_size,
                            scheduler_timeout=cfg.run.get("scheduler_timeout", 5.0),
                            prebuilt=prebuilt)
    except (KeyboardInterrupt, Terminated) as stop:
        saved = len(RunStore(folder).finished() & {t.run_id for t in plan.tasks})
        print(f"\ninterrupted{' (SIGTERM)' if isinstance(stop, Terminated) else ''}: {saved} of "
              f"{len(plan.tasks)} runs are saved in {folder / 'runs'}; run the same command "
              "again to finish the rest", file=sys.stderr)
        raise Interrupted(143 if isinstance(stop, Terminated) else 130) from None


# ----------------------------------------------------------------------------- publish
def publish(plan: Plan, table: pd.DataFrame) -> Results:
    """Write what a reader sees of the table into the plan's folder (``summary.csv``, the
    figures, ``report.md`` with the selection stage and the published numbers, the index
    entry), print the summary, and return the :class:`Results` with the exit status: 0 when
    every run succeeded and no bound was violated."""
    from olbench.analysis.figures import captions, make_figures
    from olbench.analysis.index import record
    from olbench.analysis.report import format_summary, reading_notes, summary_table, write_report
    from olbench.analysis.report_bounds import bound_checks, bound_lines
    from olbench.harness.side import read_side

    cfg, folder, name = plan.cfg, plan.folder, plan.name
    if table.empty or not table[col.STATUS].eq(col.OK).any():
        return Results(folder, status=_all_failed(plan, table), command=plan.command)
    summary = summary_table(table)
    summary.to_csv(folder / "summary.csv", index=False)
    only = None if cfg.run.figures is True else list(cfg.run.figures or [])
    figures = make_figures(table, folder / "figures", side=read_side(folder), only=only) \
        if cfg.run.figures else []
    question, config_text = described_grid(cfg, plan.overrides)
    report = write_report(table, folder, experiment=name, question=question,
                          config_text=config_text, figures=figures, captions=captions(),
                          sections=_study_sections(plan, summary),
                          derived_from=changed_grid(cfg, plan.overrides))
    record(folder, experiment=name, table=table, command=plan.command)
    print(format_summary(summary))
    for note in reading_notes(table):
        print(f"note: {note}")
    for line in bound_lines(bound_checks(table)):   # each bound's value and observed/bound
        print(line)
    seconds = 0.0 if plan.started is None else time.perf_counter() - plan.started
    print(one_line_summary(name, table, seconds))
    return Results(folder, status=closing_lines(table, folder, report), command=plan.command)


def _study_sections(plan: Plan, summary: pd.DataFrame) -> list[str]:
    """The selection stage's table (``selection.csv``, when one ran) and the report sections
    the experiment asks for (``sections:``, registered by its study's files, which may write
    files of their own: LIBOL's ``published.csv``)."""
    from olbench.analysis.study_sections import study_sections

    if plan.selection is not None:
        plan.selection.table.to_csv(plan.folder / "selection.csv", index=False)
    return study_sections(plan.cfg, summary, plan.folder, plan.selection)


def one_line_summary(name: str, table: pd.DataFrame, seconds: float) -> str:
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


def _all_failed(plan: Plan, table: pd.DataFrame) -> int:
    """No run succeeded: nothing to summarise or draw; say why, once per distinct error."""
    from olbench.analysis.report import write_report

    question, config_text = described_grid(plan.cfg, plan.overrides)
    report = write_report(table, plan.folder, experiment=plan.name, question=question,
                          config_text=config_text, figures=[],
                          derived_from=changed_grid(plan.cfg, plan.overrides))
    print("\n".join(["", "every run FAILED: no result to summarise.", *failure_lines(table),
                     f"details (tracebacks): {plan.folder / 'results.parquet'}, report: "
                     f"{report}"]), file=sys.stderr)
    return 1


def closing_lines(table: pd.DataFrame, folder: Path, report: Path) -> int:
    """The failures and violated bounds (on stderr), where the results are; the exit status
    (1 if a run failed or a bound was violated)."""
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


# ----------------------------------------------------------------------------- results
@dataclass
class Results:
    """The outputs of one results folder, read when first asked for.

    ``table``: the tidy results table (one row per run x checkpoint x bound); ``summary``:
    learner x stream x comparator at the final checkpoint (full names, mean and std columns;
    time: median and quartiles);
    ``figures``: the PNG paths (:meth:`draw` redraws them); ``latex``: the LaTeX tabular;
    ``report``: the path of report.md; ``status``: the command's exit status (0: every run
    ok, no bound violated; None when loaded from disk).
    """

    folder: Path
    status: int | None = None
    command: str | None = None

    def __post_init__(self):
        self.folder = Path(self.folder)

    @functools.cached_property
    def table(self) -> pd.DataFrame:
        from olbench.analysis.index import read_table

        return read_table(self.folder)

    @functools.cached_property
    def summary(self) -> pd.DataFrame:
        from olbench.analysis.index import read_summary

        return read_summary(self.folder)

    @property
    def summary_text(self) -> str:
        """The summary as the terminal shows it (short names, mean ± std, time as median
        [q1, q3])."""
        from olbench.analysis.report import format_summary

        return format_summary(self.summary)

    @property
    def figures(self) -> list[Path]:
        return sorted((self.folder / "figures").glob("*.png"))

    def draw(self, out_dir: str | Path | None = None) -> list[Path]:
        """Draw the figures of the table (into ``figures/`` by default); returns their paths."""
        from olbench.analysis.figures import draw_folder

        return draw_folder(self.folder, out_dir, table=self.table)

    @property
    def latex(self) -> str:
        from olbench.analysis.report import latex_table

        tex = self.folder / "summary.tex"
        return tex.read_text(encoding="utf-8").rstrip() if tex.exists() else latex_table(
            self.summary)

    @property
    def report(self) -> Path:
        return self.folder / "report.md"

    def __repr__(self) -> str:
        return f"Results({str(self.folder)!r}, status={self.status})"

    def _repr_html_(self) -> str:   # a notebook shows the summary
        from olbench.analysis.report import display_summary

        return f"<p><code>{self.folder}</code></p>" + display_summary(self.summary).to_html(
            index=False)
