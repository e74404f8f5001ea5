"""The ``olbench`` command: a Hydra application over ``conf/``; the arguments only.

``olbench`` runs the showcase experiment; ``olbench experiment=<name>`` a study;
``olbench learner=pa stream=noisy stream.flip_rate=0.1`` a single cell (any override of the
stream, learner or comparator group selects the single cell); ``olbench --help`` lists it all.
What runs, and how, is :mod:`olbench.pipeline`'s (plan, execute, publish); this module reads
the command line, checks the overrides before Hydra composes them, and turns the outcome
into an exit status: 0 (every run ok, no bound violated), 1 (a run failed, a bound was
violated, the results folder could not be written), 2 (a configuration that cannot run:
every problem listed, nothing run), 130 / 143 (interrupted), 141 (the reader of the output
left: ``olbench ... | head``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import hydra
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig

from olbench import pipeline
from olbench import schema as col
from olbench.analysis.failures import ResultsNotWritten
from olbench.harness.grid import SchedulerUnreachable
from olbench.harness.tasks import CONF_DIR, GridError
from olbench.harness.validate import invalid_configuration


@hydra.main(config_path=str(CONF_DIR), config_name="config", version_base=None)
def _hydra_main(cfg: DictConfig) -> None:
    if not isinstance(sys.stdout, ReaderMayLeave):
        sys.stdout = ReaderMayLeave(sys.stdout)
    try:
        status = pipeline.run(cfg, HydraConfig.get().overrides.task).status
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
    arguments, problems = prepared(with_option_appends(sys.argv[1:]), pipeline.problems_of)
    unknown = check_overrides(arguments)   # before Hydra, whose hint would be to append it
    problems += [unknown] if unknown else []
    if problems:
        print(f"olbench: {invalid_configuration(problems)}", file=sys.stderr)
        sys.exit(2)
    sys.argv[1:] = arguments
    if not CONF_DIR.is_dir():  # pragma: no cover - a non-editable install
        sys.exit(f"olbench: config folder {CONF_DIR} not found; install with pip install -e .")
    _hydra_main()
