"""The tasks of a grid checked before anything runs: every problem at once, one line each.

Each distinct component (stream, learner, comparator) is built once (:func:`olbench.harness.
run_one.build`) and its parameters checked by its own ``validate``; then each setting of the
grid (stream x learner x comparators x checkpoints) is checked as a whole: the learner does
its stream's task, the checkpoints lie within the stream's rounds, the learner's state fits
in memory, a given initial vector has the stream's length, the stream's losses lie in the
range the learner learns from. The tasks of many seeds of one setting share their
components (a stream's seed is derived, valid by construction: :func:`_seedless`), so 20,000
seeds are checked as one.

What the checks build is not thrown away: each component goes to the run it was built for
(:func:`checked_components`: :class:`~olbench.harness.run_one.Prebuilt` by run id), which then
does not build it again.
"""

from __future__ import annotations

from typing import Any

from olbench.harness.run_one import Prebuilt, build, spec_key
from olbench.harness.tasks import GridError, Task, registry_key
from olbench.learning_task import learner_mismatch


def validate(tasks: list[Task]) -> None:
    """Raise :class:`~olbench.harness.tasks.GridError` naming every problem of
    :func:`task_problems`, if any."""
    problems = task_problems(tasks)
    if problems:
        raise GridError("\n".join(problems))


def task_problems(tasks: list[Task]) -> list[str]:
    """Every problem of the tasks, found before any run (module docs)."""
    return checked_components(tasks)[0]


def checked_components(tasks: list[Task]) -> tuple[list[str], dict[str, Prebuilt]]:
    """Every problem of the tasks (module docs), and the components the checks built, each
    for the run (by run id) whose spec it was built from."""
    problems: list[str] = []
    built: dict[tuple[str, str], Any] = {}
    prebuilt: dict[str, Prebuilt] = {}
    settings: set[tuple] = set()
    for task in tasks:
        # one JSON text per spec object: the tasks of many seeds share their learner spec
        setting = (spec_key(_seedless(task.stream)), spec_key(task.learner),
                   tuple(map(spec_key, task.comparators)), task.checkpoints)
        if setting in settings:
            continue
        settings.add(setting)
        components = [("stream", setting[0], task.stream), ("learner", setting[1], task.learner),
                      *[("comparator", k, c) for k, c in zip(setting[2], task.comparators)]]
        for role, key, spec in components:
            if (role, key) not in built:
                built[role, key] = _built(role, spec, problems)
                if built[role, key] is not None:   # the run of this task takes it
                    _hand_over(prebuilt.setdefault(task.run_id, Prebuilt()), role, key,
                               built[role, key])
        stream, learner = built["stream", setting[0]], built["learner", setting[1]]
        if stream is None or learner is None:
            continue
        problems += [p for p in [_same_task_problem(task, stream, learner),
                                  _rounds_problem(task, stream),
                                  _memory_problem(task, stream, learner),
                                  _init_problem(task, stream, learner),
                                  _range_problem(task, stream, learner),
                                  _tie_problem(task, learner)]
                     if p is not None and p not in problems]
    return problems, prebuilt


def _hand_over(prebuilt: Prebuilt, role: str, key: str, component: Any) -> None:
    if role == "comparator":
        prebuilt.comparators[key] = component
    else:
        setattr(prebuilt, role, component)


def _built(role: str, spec: dict, problems: list[str]) -> Any:
    """The component of a spec, its parameters checked; None (and a problem) if it fails."""
    try:
        component = build(spec)
        component.validate()
        return component
    except Exception as error:
        cause = error.__cause__ or error
        problems.append(f"{role} {registry_key(spec) or spec.get('_target_')}: {cause}")
        return None


def _same_task_problem(task: Task, stream: Any, learner: Any) -> str | None:
    """The learner does its stream's task: the rule :func:`olbench.run` applies
    (:func:`olbench.learning_task.learner_mismatch`), on the built components, so that a
    task decided by a parameter (OGD's loss, a dataset's card, a file's ``task``) counts."""
    return learner_mismatch(learner, stream)


def _tie_problem(task: Task, learner: Any) -> str | None:
    """``run.tie`` counts every learner's mistakes by one rule; a mistake-driven learner
    whose update tests the same sign (:attr:`~olbench.learners.traits.Traits.libol_tie`)
    must test it by that rule too, or on a zero margin it would update without a mistake
    counted, or count one without updating."""
    from olbench.losses import TIE_RULES

    if task.tie not in TIE_RULES or not getattr(learner, "libol_tie", False) \
            or learner.tie == task.tie:   # (an unknown rule: the configuration check names it)
        return None
    libol = task.tie == "libol"
    return (f"run.tie={task.tie}: learner {registry_key(task.learner)} decides its updates by "
            f"the {learner.tie} tie rule; run it with learner.libol={str(libol).lower()} "
            f"(its updates then follow the {task.tie} rule too)")


def _rounds_problem(task: Task, stream: Any) -> str | None:
    rounds = stream.known_rounds()
    if rounds is None or not isinstance(task.checkpoints, tuple) \
            or max(task.checkpoints) <= rounds:
        return None
    return (f"run.checkpoints={list(task.checkpoints)}: round {max(task.checkpoints)} is "
            f"beyond the {rounds} rounds of stream {registry_key(task.stream)}")


def _memory_problem(task: Task, stream: Any, learner: Any) -> str | None:
    """A run that could not fit whatever the data hold: the learner's footprint at the
    fewest rows and features the stream's parameters allow (1 where they do not say)
    already exceeds the memory free or ``run.memory_limit``. What only the data tell is
    checked again by :func:`olbench.run` before it allocates."""
    from olbench.resources import memory_problem

    try:
        problem = memory_problem(learner, n=stream.known_rounds() or 1,
                                 d=stream.known_features() or 1, limit=task.memory_limit)
    except (ValueError, TypeError):   # a bad memory_limit: the configuration check names it
        return None
    return None if problem is None else (f"learner {registry_key(task.learner)} on stream "
                                         f"{registry_key(task.stream)}: {problem}")


def _init_problem(task: Task, stream: Any, learner: Any) -> str | None:
    """A given initial vector (``learner.init=[...]`` or a file) of another length than the
    stream's rows, where the stream's parameters say how long they are."""
    from olbench.learners.initial import initial_weights, is_given

    init, d = getattr(learner, "init", "zeros"), stream.known_features()
    if d is None or not is_given(init):
        return None
    try:
        initial_weights(init, 0, d)
    except ValueError as error:
        return (f"learner {registry_key(task.learner)}: {error} (stream "
                f"{registry_key(task.stream)})")
    return None


def _range_problem(task: Task, stream: Any, learner: Any) -> str | None:
    """A learner of losses in a range (Hedge, the weighted majority: [0, 1]) on a stream
    whose parameters put its entries outside it (linear losses in [-G, G])."""
    from olbench.learning_task import learners_for, loss_range_fits

    if loss_range_fits(learner, stream):
        return None
    needed, given = learner.loss_range, stream.value_range()
    others = [k for k in learners_for("oco") if k.split(" ")[0] not in
              {registry_key(task.learner), "hedge", "weighted_majority"}]
    return (f"learner {registry_key(task.learner)} learns from losses in "
            f"[{needed[0]:g}, {needed[1]:g}] but stream {registry_key(task.stream)} has entries "
            f"in [{given[0]:g}, {given[1]:g}]; use stream=experts, or a learner of such "
            f"losses: {', '.join(others)}")


def _seedless(spec: dict) -> dict:
    """A stream spec without its seeds, which the tasks derived from the run seed (valid by
    construction: :func:`olbench.harness.tasks._with_seed`): the streams of 1,000 seeds of
    one setting are checked once.

    >>> _seedless({"n": 5, "seed": 7, "stream": {"seed": 8, "d": 2}})
    {'n': 5, 'stream': {'d': 2}}
    """
    return {k: _seedless(v) if isinstance(v, dict) else v for k, v in spec.items()
            if k != "seed"}
