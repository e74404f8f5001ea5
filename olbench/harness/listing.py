"""What a user can choose, and what each choice takes: ``olbench --list``.

A choice is a config of a group under ``conf/`` (``learner=pa``); its parameters are the
keys of that config, with the config's values as defaults (the values a run uses) and the
allowed values from the class's ``constraints`` table. The same description answers an
override of a parameter the component does not have (:func:`check_overrides`), in place of
Hydra's hint to append it with ``+``.

>>> print(describe("learner", "pa"))          # doctest: +ELLIPSIS
learner=pa: Passive-Aggressive classifier: PA, PA-I, PA-II (Crammer et al., JMLR 7, 2006).
  C          1.0    a number in (0, inf)
  variant    pa1    one of 'pa', 'pa1', 'pa2'
  init       zeros  'zeros', 'randn', a list of d numbers, or a .npy or text file of them
  init_seed  0      an integer in [0, inf)
"""

from __future__ import annotations

import difflib
import functools
from dataclasses import dataclass
from typing import Any

from omegaconf import OmegaConf

from olbench.harness.tasks import CONF_DIR
from olbench.renamed import old_spellings

#: groups whose configs are components (a ``_target_`` class with constraints), then run options
GROUPS = ("learner", "stream", "comparator", "run")


@dataclass(frozen=True)
class Parameter:
    name: str
    default: Any
    allowed: str


def choices(group: str) -> list[str]:
    """The configs of a group (``conf/<group>/*.yaml``), sorted."""
    return sorted(p.stem for p in (CONF_DIR / group).glob("*.yaml"))


def _config(group: str, key: str) -> dict:
    return dict(_read_config(group, key))


@functools.cache
def _read_config(group: str, key: str) -> dict:
    return OmegaConf.to_container(OmegaConf.load(CONF_DIR / group / f"{key}.yaml"),
                                  resolve=False)


def _target(group: str, key: str) -> type | None:
    from hydra.utils import get_class

    target = _config(group, key).get("_target_")
    return get_class(target) if target else None


def parameters(group: str, key: str) -> list[Parameter]:
    """The parameters of ``group=key``: default (from its config) and allowed values."""
    cls = _target(group, key)
    constraints = getattr(cls, "constraints", {})
    listed = [Parameter(name, default, str(constraints[name]) if name in constraints else "")
              for name, default in _config(group, key).items() if not name.startswith("_")]
    # the family's options (a learner's init), which configs leave out at their default
    optional = getattr(cls, "optional_params", {})
    return listed + [Parameter(name, default, str(constraint))
                     for name, (default, constraint) in optional.items()
                     if name not in {p.name for p in listed}]


def _summary_line(group: str, key: str) -> str:
    cls = _target(group, key)
    doc = (cls.__doc__ or "").strip() if cls is not None else ""
    if not doc:   # configs without a class (run): the comment at the top of the file
        head = (CONF_DIR / group / f"{key}.yaml").read_text().splitlines()[:1]
        doc = head[0].lstrip("# ") if head and head[0].startswith("#") else ""
    return " ".join(doc.split("\n\n")[0].split())


def _value(v: Any) -> str:
    """As it is written on the command line; a nested component (a wrapped stream) by its
    class, whose parameters are set as ``stream.stream.<name>=...``."""
    if isinstance(v, dict) and "_target_" in v:
        return f"{str(v['_target_']).rsplit('.', 1)[-1]}(...)"
    return "null" if v is None else str(v).lower() if isinstance(v, bool) else str(v)


def describe(group: str, key: str) -> str:
    """``group=key``, the first sentence of its docstring, and its parameters (name,
    default, allowed values) in aligned columns."""
    params = parameters(group, key)
    name_w = max([len(p.name) for p in params] or [0])
    value_w = max([len(_value(p.default)) for p in params] or [0])
    lines = [f"{group}={key}: {_summary_line(group, key)}".rstrip()]
    lines += [f"  {p.name:<{name_w}}  {_value(p.default):<{value_w}}  {p.allowed}".rstrip()
              for p in params]
    return "\n".join(lines)


def _experiments() -> str:
    lines = ["experiments (olbench experiment=<name>):"]
    for key in choices("experiment"):
        question = _config("experiment", key).get("question") or ""
        lines.append(f"  {key}: {' '.join(str(question).split())}".rstrip(": "))
    return "\n".join(lines)


def listing(spec: str | None = None) -> str:
    """The text of ``olbench --list [spec]``: ``None`` lists every group; ``"learner"`` every
    learner; ``"learner=pa"`` one; ``"experiment"`` the studies and their questions.

    >>> listing("learner=pa").splitlines()[1].split()
    ['C', '1.0', 'a', 'number', 'in', '(0,', 'inf)']
    """
    if spec in (None, "experiment", "experiments"):
        groups = GROUPS if spec is None else ()
        blocks = [f"== {g} ==\n" + "\n".join(describe(g, k) for k in choices(g)) for g in groups]
        return "\n\n".join(blocks + [_experiments()])
    group, _, key = spec.partition("=")
    group = group.rstrip("s") if group.rstrip("s") in GROUPS else group
    if group not in GROUPS:
        raise ValueError(f"unknown group {group!r}; groups: {', '.join(GROUPS)}, experiment")
    if key and key not in choices(group):
        raise ValueError(f"unknown {group} {key!r}; known: {', '.join(choices(group))}")
    return "\n".join(describe(group, k) for k in ([key] if key else choices(group)))


# --------------------------------------------------------------------------- overrides
@functools.cache  # each argument once (a list of 1,000 seeds takes Hydra's parser 0.15 s)
def _parse(argument: str):
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.errors import HydraException

    try:
        return OverridesParser.create().parse_override(argument)
    except HydraException:   # Hydra reports it in its own words
        return None


def _default_choice(group: str) -> str | None:
    for entry in OmegaConf.load(CONF_DIR / "config.yaml").get("defaults", []):
        if isinstance(entry, dict) or OmegaConf.is_dict(entry):
            if group in entry:
                return str(entry[group])
    return None


def unknown_parameter(group: str, key: str, name: str) -> str:
    """The message for ``group.name=...`` when ``group=key`` has no parameter ``name``."""
    known = [p.name for p in parameters(group, key)]
    close = difflib.get_close_matches(name, known, n=1)
    hint = f" (did you mean {close[0]}?)" if close else ""
    if group == "run":
        head, tail = f"run has no option {name!r}{hint}. The options:", ""
    else:
        head = f"{group} {key} has no parameter {name!r}{hint}. Its parameters:"
        tail = f"\n(olbench --list {group} lists every {group} with its parameters)"
    return head + "\n" + "\n".join(describe(group, key).splitlines()[1:]) + tail


def with_option_appends(arguments: list[str]) -> list[str]:
    """The overrides with ``group.<option>=v`` written ``+group.<option>=v`` where the option
    is one the chosen component's family accepts but its config leaves out (a learner's
    ``init``, or the old spelling of a renamed parameter, which the class maps and warns
    about), so ``learner.init=randn`` works as every other parameter does.

    >>> with_option_appends(["learner=pa", "learner.init=randn", "learner.C=2"])
    ['learner=pa', '+learner.init=randn', 'learner.C=2']
    """
    from hydra.core.override_parser.types import OverrideType

    parsed = {a: _parse(a) for a in arguments}
    chosen = {g: _default_choice(g) for g in GROUPS}
    for o in filter(None, parsed.values()):
        if o.key_or_group in GROUPS and o.type is OverrideType.CHANGE \
                and not o.is_sweep_override():
            chosen[o.key_or_group] = str(o.value())
    out = []
    for argument, o in parsed.items():
        group, dot, name = (o.key_or_group.partition(".") if o is not None else ("", "", ""))
        key = chosen.get(group)
        cls = _target(group, key) if dot and key in choices(group) else None
        option = (name in getattr(cls, "optional_params", {}) or name in old_spellings(cls)) \
            and name not in _config(group, key)
        out.append(f"+{argument}" if option and o.type is OverrideType.CHANGE else argument)
    return out


def check_overrides(arguments: list[str]) -> str | None:
    """The message for the first override of a parameter that the chosen component (or
    every choice of a multirun sweep) does not have; None if all exist. Appends (``+``) and
    deletions (``~``) are left to Hydra.

    >>> check_overrides(["learner=pa", "learner.C=2"]) is None
    True
    >>> print(check_overrides(["learner=pa", "learner.Cc=2"]).splitlines()[0])
    learner pa has no parameter 'Cc' (did you mean C?). Its parameters:
    """
    from hydra.core.override_parser.types import OverrideType

    parsed = [o for o in map(_parse, arguments) if o is not None]
    chosen = {g: [_default_choice(g) or "default"] for g in GROUPS}
    for o in parsed:
        if o.key_or_group in GROUPS and o.type is OverrideType.CHANGE:
            chosen[o.key_or_group] = (list(o.sweep_string_iterator()) if o.is_sweep_override()
                                      else [str(o.value())])
    for o in parsed:
        group, dot, name = o.key_or_group.partition(".")
        if not dot or group not in GROUPS or o.type is not OverrideType.CHANGE:
            continue
        for key in chosen[group]:
            if key in choices(group) and name.split(".")[0] not in _config(group, key):
                return unknown_parameter(group, key, name.split(".")[0])
    return None
