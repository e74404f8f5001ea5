"""One meaning per parameter: the one LIBOL switch, and the old spellings of renamed
parameters, still accepted for one release (olbench.renamed), mapped to the new parameter
with a DeprecationWarning that names it, and never another run. Found through the
registry: a learner that renames a parameter is checked by declaring it."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest
from hydra.utils import instantiate

from olbench import make_learner, run
from olbench.harness.listing import check_overrides, with_option_appends
from olbench.harness.tasks import component_specs
from olbench.learners import Learner

RENAMES = [(key, rename) for key, cls in Learner.registry.items()
           for rename in cls.renamed_params]


def _spellings(rename, cls):
    """(old params, new value) for every old spelling the rename maps."""
    if rename.values is None:
        value = cls.param_defaults()[rename.new]
        return [({rename.old[0]: value}, value)]
    return [(dict(zip(rename.old, old)), new) for old, new in rename.values.items()]


@pytest.mark.parametrize("key,rename", RENAMES, ids=[f"{k}-{r.new}" for k, r in RENAMES])
def test_an_old_spelling_is_the_new_parameter_with_a_warning_naming_it(key, rename):
    cls = Learner.registry.get(key)
    for old, value in _spellings(rename, cls):
        expected = make_learner(key, **{rename.new: value})
        with pytest.warns(DeprecationWarning,
                          match=rf"{cls.__name__}: .* is deprecated .*; write "
                                rf"{rename.new}={re.escape(repr(value))}$"):
            given = make_learner(key, **old)
        assert given.name == expected.name       # the name, hence the run, of the new one
        assert not set(old) & set(given.get_params())
        # as a grid entry writes it: over the config, which lists the new name at its default
        spec, = component_specs("learner", [{"key": key, "params": old}])
        with pytest.warns(DeprecationWarning):
            assert instantiate(spec, _convert_="all").name == expected.name


def _unsaid_combinations(rename):
    """Old values (one or more old names) that no new value says."""
    seen = [sorted({old[i] for old in rename.values}, key=repr) for i in range(len(rename.old))]
    return [c for c in itertools.product(*seen) if c not in rename.values]


@pytest.mark.parametrize("key,rename", [(k, r) for k, r in RENAMES if r.values is not None],
                         ids=[f"{k}-{r.new}" for k, r in RENAMES if r.values is not None])
def test_old_values_without_a_new_spelling_or_against_the_new_one_are_refused(key, rename):
    """ROMMA's variant='libol' with tie='novikoff' is no libol value: an error naming both,
    never a silent other run; nor may an old spelling contradict the new parameter."""
    for combination in _unsaid_combinations(rename) + [("nonsense",) * len(rename.old)]:
        spelled = ", ".join(f"{n}={v!r}" for n, v in zip(rename.old, combination))
        with pytest.raises(ValueError, match=rf"{re.escape(spelled)} has no equivalent in "
                                             rf"{rename.new}"):
            make_learner(key, **dict(zip(rename.old, combination)))
    default = Learner.registry.get(key).param_defaults()[rename.new]
    for old, value in rename.values.items():
        if value == default:     # (beside a new parameter at its default, the old one wins)
            other = next(v for v in rename.values.values() if v != value)
            with pytest.raises(ValueError, match=rf"contradicts {rename.new}={other!r}"):
                make_learner(key, **dict(zip(rename.old, old)), **{rename.new: other})


def test_the_command_line_takes_an_old_spelling_too():
    """``learner.tie=libol`` is appended (the config no longer lists tie) and not refused as
    a parameter the learner lacks; the learner then maps it and warns."""
    arguments = with_option_appends(["learner=perceptron", "learner.tie=libol"])
    assert arguments == ["learner=perceptron", "+learner.tie=libol"]
    assert check_overrides(arguments) is None
    assert check_overrides(["learner=perceptron", "learner.tee=libol"]) is not None


LIBOL_KEYS = [key for key, cls in Learner.registry.items() if "libol" in cls.param_names()]


@pytest.mark.parametrize("key", LIBOL_KEYS)
def test_the_libol_switch_counts_mistakes_as_its_rule_decides_them(key):
    """From w = 0 the first output is 0, with y = +1. Under Novikoff's rule that is a
    mistake; under LIBOL's, sign(0) = +1 is right. A learner whose ``libol=True`` takes
    LIBOL's tie rule (the trait ``libol_tie``) counts no mistake there, and its
    mistake-driven rule takes no step; every other learner counts one, whatever its switch.
    A multiclass learner's first scores are all 0, with y the first class: a tie, a mistake
    under Novikoff's rule, won by the lowest index (y) under LIBOL's."""
    for libol in (False, True):
        learner = make_learner(key, libol=libol)
        X = np.array([[1.0, 0.5], [0.5, -1.0]])
        y = np.array([1.0, 2.0] if learner.task == "multiclass" else [1.0, -1.0])
        trace = run(learner, X, y)
        assert trace.margins[0] == 0.0
        libol_tie = libol and learner.libol_tie
        assert learner.tie == ("libol" if libol_tie else "novikoff")
        assert trace.mistakes[0] == (not libol_tie)
        if learner.libol_tie:                   # mistake-driven: a step exactly on a mistake
            assert trace.updated[0] == (not libol_tie)


def test_the_switch_is_spelled_one_way():
    """No learner keeps a LIBOL option under another name (``variant="libol"``,
    ``tie="libol"``): 'libol' is a value of no parameter but the switch."""
    for key, cls in Learner.registry.items():
        for name, constraint in cls.constraints.items():
            assert "libol" not in getattr(constraint, "values", ()), f"{key}.{name}"
