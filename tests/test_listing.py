"""`olbench --list` and unknown parameters: every choice with its parameters, defaults and
allowed values, read from the configs and the classes' constraint tables."""

from __future__ import annotations

import re

import pytest
from omegaconf import OmegaConf

from olbench.harness.listing import GROUPS, _target, check_overrides, choices, listing, parameters
from olbench.harness.tasks import CONF_DIR
from olbench.learners import Learner


def test_every_config_of_every_group_is_listed_with_its_parameters_and_defaults():
    text = listing()
    for group in GROUPS:
        assert f"== {group} ==" in text
        for key in choices(group):
            assert f"\n{group}={key}: " in text
            config = OmegaConf.load(CONF_DIR / group / f"{key}.yaml")
            listed = OmegaConf.to_container(config, resolve=False)
            optional = getattr(_target(group, key), "optional_params", {})
            for p in parameters(group, key):   # the family's options: at their class default
                assert p.default == (listed[p.name] if p.name in listed
                                     else optional[p.name][0])
    assert "object at 0x" not in text and "<olbench" not in text
    assert "experiments (olbench experiment=<name>):\n  bound_atlas: " in text
    assert "\n  libol_multiclass: " in text and "\n  libol_svmguide3: " in text


def test_a_learners_parameters_carry_its_declared_constraints():
    lines = listing("learner=pa").splitlines()
    assert lines[0].startswith("learner=pa: Passive-Aggressive classifier")
    assert [line.split()[:2] for line in lines[1:]] == [["C", "1.0"], ["variant", "pa1"],
                                                       ["init", "zeros"], ["init_seed", "0"]]
    assert lines[1].endswith("a number in (0, inf)")
    assert lines[2].endswith("one of 'pa', 'pa1', 'pa2'")
    assert listing("learners") == listing("learner")
    assert listing("learner").count("\nlearner=") + 1 == len(Learner.registry.keys())


@pytest.mark.parametrize("spec, error", [
    ("lerner", "unknown group 'lerner'"),
    ("learner=pq", "unknown learner 'pq'; known: adagrad, alma")])
def test_listing_an_unknown_group_or_choice_says_what_exists(spec, error):
    with pytest.raises(ValueError, match=error):
        listing(spec)


def test_unknown_parameter_names_the_learners_parameters():
    message = check_overrides(["learner=pa", "learner.Cc=2"])
    assert message.splitlines()[0] == ("learner pa has no parameter 'Cc' (did you mean C?). "
                                       "Its parameters:")
    assert re.search(r"variant +pa1 +one of 'pa', 'pa1', 'pa2'", message)
    assert "+learner" not in message


def test_unknown_parameter_of_the_default_learner_and_of_any_choice_of_a_sweep():
    assert check_overrides(["learner.Cc=2"]).startswith(
        "learner perceptron has no parameter 'Cc'")
    assert check_overrides(["learner=pa,arow", "learner.C=2"]).startswith(
        "learner arow has no parameter 'C'")
    assert check_overrides(["stream=noisy", "stream.flip=0.2"]).startswith(
        "stream noisy has no parameter 'flip' (did you mean flip_rate?)")
    assert check_overrides(["run.seed=[0]"]).startswith("run has no option 'seed' (did you "
                                                       "mean seeds?)")


@pytest.mark.parametrize("arguments", [
    ["learner=pa", "learner.C=2", "stream=noisy", "stream.flip_rate=0.2", "run.seeds=[0,1]"],
    ["+learner.extra=1"],                 # an explicit append is the user's choice
    ["--cfg", "job", "learner=perceptrn", "learner.C=1"],   # an unknown learner: Hydra says
    ["experiment=novikoff", "grid.seeds=[0,1]", "hydra/launcher=basic"],
])
def test_known_parameters_and_other_overrides_pass(arguments):
    assert check_overrides(arguments) is None


def test_the_readmes_listing_is_what_the_command_prints():
    readme = (CONF_DIR.parent / "README.md").read_text(encoding="utf-8")
    assert "```text\n" + listing("learner=pa") + "\n```" in readme
