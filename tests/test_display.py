"""Short display names: each class declares its own; the full name stays the key in the data."""

import pytest

from olbench.analysis.views import display_name
from olbench.comparators import Comparator
from olbench.component import parse_name
from olbench.learners import Learner, make_learner
from olbench.streams import Stream


@pytest.mark.parametrize("name, short", [
    ("PA[C=1.0,variant=pa1]", "PA-I (C=1)"),
    ("PA[C=0.01,variant=pa2]", "PA-II (C=0.01)"),
    ("PA[C=1.0,variant=pa]", "PA"),                      # C is unused by plain PA
    ("AROW[r=0.1,a=1.0,diagonal=False]", "AROW (r=0.1)"),
    ("AROW[r=0.1,a=1.0,diagonal=True]", "AROW (r=0.1, diagonal=True)"),
    ("Perceptron[eta=1.0,libol=False]", "Perceptron"),
    ("Perceptron[eta=0.1,libol=True]", "Perceptron (eta=0.1, libol=True)"),
    ("SCW2[C=1.0,confidence=0.9,a=1.0,diagonal=False,libol=False]", "SCW-II (C=1, confidence=0.9)"),
    # names of before a rename (older tables) show as the same learner's names do now
    ("Perceptron[eta=0.1,tie=libol]", "Perceptron (eta=0.1, libol=True)"),
    ("SCW2[C=1.0,eta=0.9,a=1.0,diagonal=False,libol=False]", "SCW-II (C=1, confidence=0.9)"),
    ("IELLIP[a=1.0,b=0.2,c=0.1,tie=libol]", "IELLIP (decay=0.2, libol=True)"),
    ("ROMMA[variant=libol,tie=novikoff]", "ROMMA (variant=libol, tie=novikoff)"),  # no new one
    ("OGD[loss=logistic,eta=0.5,schedule=sqrt,radius=None]", "OGD (loss=logistic, eta=0.5)"),
    ("Noisy[n=1000,d=10,gamma=0.1,R=1.0,flip_rate=0.2,sigma=0.0,distribution=ball,seed=3,"
     "bias=False]", "Noisy (gamma=0.1, flip_rate=0.2)"),   # the seed: a replicate, not shown
    ("Dataset[name=svmguide3,split=train,positive_label=None,negative_label=None,"
     "order=permuted,normalize=False,standardize=False,bias=False]", "svmguide3 (order=permuted)"),
    ("NovikoffTight[k=100,R=1.0,passes=1]", "NovikoffTight (k=100)"),
    ("Unknown[a=1]", "Unknown[a=1]"),
    ("?", "?"),
])
def test_display_name(name, short):
    assert display_name(name) == short


def test_every_default_component_has_a_display_name_that_round_trips_its_name():
    for family in (Learner, Stream, Comparator):
        for key, cls in family.registry.items():
            try:
                component = cls()
            except TypeError:     # needs a path or a dataset name
                continue
            assert parse_name(component.name) == (cls.__name__, component.get_params()), key
            assert display_name(component.name) == component.display_name
            assert "[" not in component.display_name, key


def test_display_names_tell_apart_the_settings_of_a_sweep():
    names = [make_learner("arow", r=r).name for r in (0.01, 0.1, 1.0, 10.0)]
    assert len({display_name(n) for n in names}) == 4
