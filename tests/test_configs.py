"""Every config file composes and instantiates; every registered component has a config."""

from __future__ import annotations

from pathlib import Path

import pytest
from hydra.utils import instantiate
from local_data import skip_unless_local
from omegaconf import OmegaConf

from olbench.component import Component
from olbench.learners import Learner
from olbench.streams import Stream

CONF = Path(__file__).resolve().parents[1] / "conf"
REGISTRIES = {"learner": Learner.registry, "stream": Stream.registry}
try:
    from olbench.comparators.base import Comparator

    REGISTRIES["comparator"] = Comparator.registry
except ImportError:  # pragma: no cover - until the comparators package exists
    pass

COMPONENT_FILES = sorted((group, path) for group in REGISTRIES
                         for path in (CONF / group).glob("*.yaml"))


@pytest.mark.parametrize("group,path", COMPONENT_FILES,
                         ids=[f"{g}/{p.stem}" for g, p in COMPONENT_FILES])
def test_component_config_instantiates_to_its_registered_class(group, path):
    node = OmegaConf.load(path)
    assert "_target_" in node, f"{path} has no _target_"
    missing = OmegaConf.missing_keys(node)
    if missing:
        # file-backed streams need a user's file: their own tests instantiate them on
        # generated files; here only the file's location may be left open
        assert missing <= {"path", "label_column"}, f"{path}: mandatory {missing}"
        node = OmegaConf.merge(node, {k: "placeholder" for k in missing})
        assert instantiate(node, _partial_=True).func is REGISTRIES[group].get(path.stem)
        return
    skip_unless_local(node, files=False)   # stream=dataset's default set, built offline
    obj = instantiate(node)
    assert isinstance(obj, Component)
    cls = REGISTRIES[group].get(path.stem)  # the file name is the registry key
    assert type(obj) is cls, f"{path}: _target_ builds {type(obj).__name__}, key gives {cls}"
    obj.validate()
    # the file sets exactly the constructor's parameters (defaults stay visible to users)
    assert {k for k in node if not k.startswith("_")} <= set(cls.param_names())


@pytest.mark.parametrize("group", sorted(REGISTRIES))
def test_every_registered_component_has_a_config(group):
    missing = set(REGISTRIES[group].keys()) - {p.stem for p in (CONF / group).glob("*.yaml")}
    assert not missing, f"registered {group}s without conf/{group}/<key>.yaml: {sorted(missing)}"


EXPERIMENTS = sorted(p.stem for p in (CONF / "experiment").glob("*.yaml"))


@pytest.mark.parametrize("name", EXPERIMENTS)
def test_every_experiment_composes_and_its_grid_validates(name):
    """Compose the experiment as `olbench experiment=<name>` would, expand its grid and build
    every component it names (nothing runs)."""
    from hydra import compose, initialize_config_dir

    from olbench.harness.experiment import build_tasks
    from olbench.harness.task_checks import validate

    with initialize_config_dir(config_dir=str(CONF), version_base=None):
        cfg = compose(config_name="config", overrides=[f"experiment={name}"])
    assert cfg.name == name and cfg.question, f"{name}: needs a name and a question"
    experiment, tasks = build_tasks(cfg, [f"experiment={name}"])  # no search
    assert experiment == name and tasks
    skip_unless_local(*(t.stream for t in tasks))   # its datasets, by name or by path
    validate(tasks)
    assert (CONF.parent / "experiments" / name / "README.md").exists(), "document the study"
