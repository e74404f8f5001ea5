"""A user's own study: the README's "Your own study" commands run as written (from an empty
folder, on small data), an experiment file of one's own is found through Hydra's search path,
and the report of a grid that overrides changed asks what ran, not what the experiment it
came from asks about its own grid."""

from __future__ import annotations

import re
import shlex
import time
from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir
from local_data import skip_unless_datasets
from olbench_command import olbench_here

import olbench
from olbench.harness.experiment import changed_grid
from olbench.harness.tasks import CONF_DIR

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
SECTION = README[README.index("## Your own study"):]
SECTION = SECTION[:SECTION.index("\n## ", 3)]
SHOWCASE_QUESTION = "on a separable stream with margin 0.1"   # conf/experiment/showcase.yaml


def _question(report: Path) -> str:
    text = report.read_text(encoding="utf-8")
    return text.split("## Question\n\n", 1)[1].split("\n\n## ", 1)[0]


def _compose(overrides: list[str]):
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base=None):
        return compose("config", overrides=overrides)


@pytest.mark.parametrize("overrides, expected", [
    (["experiment=showcase", "name=mine", "run.n_jobs=1"], None),
    (["experiment=novikoff", "grid.seeds=[0,1]", "run.figures=false"],
     ("novikoff", ["grid.seeds=[0,1]"])),
    (["grid.comparators=[]"], ("showcase", ["grid.comparators=[]"])),   # the default experiment
    (["learner=pa", "run.seeds=[0,1]"], None),                          # a single cell
])
def test_which_overrides_change_an_experiments_grid(overrides, expected):
    assert changed_grid(_compose(overrides), overrides) == expected


@pytest.fixture
def own_experiment(tmp_path):
    conf = tmp_path / "my_conf"
    (conf / "experiment").mkdir(parents=True)
    (conf / "experiment" / "tiny.yaml").write_text(
        "# @package _global_\n"
        "name: tiny\n"
        "question: Does AROW err less than the Perceptron on a noisy stream?\n"
        "grid:\n"
        "  seeds: [0, 1]\n"
        "  streams: [{key: noisy, params: {n: 300, d: 4, flip_rate: 0.1}}]\n"
        "  learners: [perceptron, arow]\n"
        "  comparators: []\n", encoding="utf-8")
    return conf


def test_a_changed_grids_report_asks_what_ran(own_experiment, tmp_path):
    """An experiment file of one's own (through hydra.searchpath, as --config-dir) keeps its
    question for its own grid; with its grid changed, the report says what ran and whence."""
    search = [f"hydra.searchpath=[{own_experiment.as_uri()}]"]
    common = dict(output_dir=tmp_path / "out", n_jobs=1, figures=False, quiet=True)
    own = olbench.run_experiment("tiny", overrides=search, **common)
    assert own.status == 0
    assert _question(own.report) == ("Does AROW err less than the Perceptron on a noisy "
                                     "stream?")
    learners = "grid.learners=[perceptron, {key: pa, params: {variant: pa1}}]"
    changed = olbench.run_experiment("tiny", seeds=[3], overrides=[*search, learners],
                                     **common)
    assert changed.status == 0 and changed.folder != own.folder
    question = _question(changed.report)
    assert "AROW" not in question
    assert question.startswith("How do PA-I (C=1) and Perceptron fare on Noisy (n=300, d=4, "
                               "gamma=0.1), with no comparator, over 1 seed?")
    assert "(2 learners, 1 stream, 1 seed: 2 runs.)" in question
    assert f"the experiment `tiny` changed by `{learners}`, `grid.seeds=[3]`" in question


def test_the_showcases_question_is_not_kept_for_another_grid(tmp_path):
    """The case of the issue: an a9a study's report described the showcase's stream."""
    res = olbench.run_experiment(
        "showcase", name="other", seeds=[0], output_dir=tmp_path, n_jobs=1, figures=False,
        quiet=True, overrides=["grid.streams=[{key: noisy, params: {n: 200, d: 3}}]",
                               "grid.learners=[perceptron]",
                               "grid.comparators=[{key: best_fixed, params: {loss: hinge}}]"])
    question = _question(res.report)
    assert SHOWCASE_QUESTION not in question
    assert question.startswith("How does Perceptron fare on Noisy (n=200, d=3, gamma=0.1), "
                               "against BestFixed (loss=hinge), over 1 seed?")
    assert "`showcase`" in question


def _commands() -> list[list[str]]:
    """Every `olbench ...` command of the README's section, as its shell would split it."""
    blocks = re.findall(r"```bash\n(.*?)```", SECTION, flags=re.S)
    lines = [line for block in blocks
             for line in block.replace("\\\n", " ").strip().split("\n")]
    inline = [" ".join(c.split()) for c in re.findall(r"`(olbench [^`]+)`", SECTION)]
    return [shlex.split(line)[1:] for line in lines + inline]


def _small(args: list[str], out: Path) -> list[str]:
    """The command with its outputs in ``out``, one job, no figures, and one seed where it
    runs one of olbench's own studies (up to 20 seeds) without choosing its seeds."""
    extra = [f"run.output_dir={out / 'results'}", f"run.cache_dir={out / 'cache'}",
             "run.n_jobs=1", "run.figures=false", "run.progress=false"]
    studies = {f"experiment={p.stem}" for p in (CONF_DIR / "experiment").glob("*.yaml")}
    if set(args) & studies and not any(a.startswith("grid.seeds=") for a in args):
        extra.append("grid.seeds=[0]")
    return args + extra if not args[0].startswith("--list") else args


def test_the_readmes_own_study_commands_run(tmp_path):
    commands = _commands()
    assert len(commands) >= 5 and any("--config-dir" in c for c in commands)
    text = " ".join(" ".join(c) for c in commands)
    skip_unless_datasets(*(name for name in ("heart_scale", "svmguide3") if name in text))
    yaml = re.findall(r"```yaml\n(.*?)```", SECTION, flags=re.S)
    path = re.search(r"`(my_conf/experiment/\w+\.yaml)`", SECTION).group(1)
    (tmp_path / path).parent.mkdir(parents=True)
    (tmp_path / path).write_text(yaml[0], encoding="utf-8")
    for args in commands:
        start = time.perf_counter()
        out = olbench_here(*_small(args, tmp_path), cwd=tmp_path, env={"OLBENCH_OFFLINE": "1"})
        assert out.returncode == 0, (args, out.stderr[-2000:])
        print(f"{time.perf_counter() - start:.1f} s: olbench {shlex.join(args)}")
    reports = {p.parts[-3]: p for p in (tmp_path / "results").glob("*/*/report.md")
               if p.parts[-3] != "latest"}
    assert set(reports) == {"heart", "single", "libol_table", "heart_study", "mine"}
    assert _question(reports["heart"]).startswith(
        "How do AROW (r=1), PA-I (C=1) and Perceptron fare on heart_scale (order=permuted), "
        "against BestFixed (loss=hinge), over 5 seeds?")
    assert "changed by" not in _question(reports["heart_study"])
    assert _question(reports["heart_study"]).startswith("Do PA-I and AROW make fewer")
    assert "How do " in _question(reports["libol_table"])
    assert "`libol_table`" in _question(reports["libol_table"])


def test_a_report_of_failed_runs_asks_no_other_grids_question(tmp_path):
    """Every run failed (a missing file): a single cell's report asks no question, and a
    changed grid's says what was run, as when the runs succeed."""
    missing = str(tmp_path / "missing.svm")
    cell = olbench.run_experiment(learner="perceptron", stream="libsvm", seeds=[0],
                                  output_dir=tmp_path, n_jobs=1, figures=False, quiet=True,
                                  **{"stream.path": missing})
    assert cell.status == 1
    assert "## Question" not in cell.report.read_text(encoding="utf-8")
    grid = olbench.run_experiment(
        "showcase", seeds=[0], output_dir=tmp_path, n_jobs=1, figures=False, quiet=True,
        overrides=[f"grid.streams=[{{key: libsvm, params: {{path: '{missing}'}}}}]",
                   "grid.learners=[perceptron]", "grid.comparators=[]"])
    assert grid.status == 1
    question = _question(grid.report)
    assert SHOWCASE_QUESTION not in question
    # a run that failed is named in the table by its config keys, as in the Grid section
    assert question.startswith("How does perceptron fare on libsvm, with no comparator")
