"""A resumed Optuna study is the same study as an uninterrupted one (``courtsim tune`` and
``courtsim tune-bot``, issue 37).

Both store their study in SQLite (``DIR/study.db``) and resume it when the same command runs
again. What a sampler proposes must then depend only on what the storage holds, never on the
process that asks:

- **Randomness by position.** Every ask gets a fresh sampler seeded with (the study's seed, the
  trial's *position*: how many trials that count come before it, a failed trial not counted).
  A sampler seeded once per process would start its random stream again in a resumed session
  and propose the first session's candidates again. TPE, NSGA-II and CMA-ES keep nothing else
  between asks: TPE reads the finished trials and, as a constant liar (Optuna 5's default), the
  running ones; NSGA-II each trial's generation (a trial system attr) and each generation's
  parents (a study system attr); CMA-ES each trial's generation and its optimizer, pickled into
  the system attrs of the trial asked when a generation was complete (Optuna 5.1's
  ``samplers/_tpe/sampler.py``, ``samplers/_ga/_base.py`` and ``samplers/_cmaes.py``), all read
  back from the storage at every ask and all set by the ask that made the trial. CMA-ES also
  seeds each ask with its own random draw plus ``trial.number``, so it is shown the trial
  numbered by its position (:class:`AtPosition`; TPE is not: it tells the asked trial from the
  other running ones by its number).
- **A trial asked but never told** (RUNNING when Ctrl-C stopped the session) is evaluated and
  told in place by the resumed session (:func:`unfinished`): the same trial number, parameters
  and sampler attrs as in an uninterrupted study, which it then becomes. Marking it failed and
  asking anew would forget its candidate and give the resumed trial no generation (an enqueued
  trial is never shown to ``sample_relative``), so NSGA-II's and CMA-ES's generations would miss
  it. The caller asks the unfinished rest of an interrupted batch as the batch would have.
- **An ask is stored whole.** Optuna stores an asked trial's parameters one by one; a Ctrl-C
  during an ask is held until the ask returns (:func:`ctrl_c_held`; a second Ctrl-C stops at
  once). Only a trial whose ask was cut short otherwise (the process killed, a second Ctrl-C) is
  marked failed (:func:`fail_interrupted_asks`); the next ask takes its position again (its
  enqueued parameters again, if it had some), so it shifts neither positions nor sampler state,
  only the numbers of the trials after it. So a trial is named by its position wherever a
  table, a file or a message shows it (:func:`position_of`), never by its number: an
  interrupted study's cells, tables and records are then the uninterrupted study's.
"""
from __future__ import annotations

import copy
import signal
import threading
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator

import numpy as np

# trials that take a position: asked, and told or still being evaluated (a failed or waiting trial does not)
COUNTED = ("COMPLETE", "PRUNED", "RUNNING")


def open_stored(out_dir, name: str, plan: dict, sampler, first: dict | None, names: Iterable[str], **directions):
    """The SQLite study ``name`` of ``out_dir/study.db`` (created, or resumed), tune's and
    tune-bot's alike. A new study stores its ``plan`` (the user attr the directory's identity
    check of a study from before study.yaml reads: sim.studies.directory) and enqueues ``first``
    (the first candidate: the printed rules, the starting point); a resumed one fails every ask
    that was cut short (:func:`fail_interrupted_asks`; ``names``: the study's parameters) and
    plays the trials an interrupted session asked and never told (:func:`unfinished`). The
    directory's identity is checked before (sim.studies.directory.open_study)."""
    import optuna

    from sim.studies.directory import OPTUNA_FILE, OPTUNA_PLAN

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    out_dir.mkdir(parents=True, exist_ok=True)
    study = optuna.create_study(storage=f"sqlite:///{out_dir / OPTUNA_FILE}", study_name=name, sampler=sampler,
                                load_if_exists=True, **directions)
    if not study.trials:
        study.set_user_attr(OPTUNA_PLAN, plan)
        if first is not None:
            study.enqueue_trial(first)
    fail_interrupted_asks(study, names)
    return study


def position_seed(seed: int, position: int) -> int:
    """The sampler seed of the ask at ``position`` in a study seeded ``seed`` (0 .. 2**32 - 1)."""
    return int(np.random.SeedSequence([int(seed), int(position)]).generate_state(1)[0])


def next_position(study) -> int:
    """The position of the trial the next ask makes: the trials that count so far."""
    import optuna

    states = tuple(getattr(optuna.trial.TrialState, name) for name in COUNTED)
    return len(study.get_trials(deepcopy=False, states=states))


def positions(study) -> dict[int, int]:
    """Each counted trial's position by its number: the counted trials numbered before it (a
    failed ask, whose position the next ask took, counts for neither)."""
    import optuna

    states = tuple(getattr(optuna.trial.TrialState, name) for name in COUNTED)
    numbers = sorted(trial.number for trial in study.get_trials(deepcopy=False, states=states))
    return {number: position for position, number in enumerate(numbers)}


def position_of(study, trial) -> int:
    """The position of a counted trial (asked, and told or being evaluated): its name in the
    study's cells, tables and messages, the same whether or not a session was interrupted."""
    return positions(study)[trial.number]


def ask(study, space: dict, sampler_of: Callable[[int], Any], seed: int):
    """``study.ask(space)`` with a fresh sampler made by ``sampler_of(seed of the position)``
    that sees the new trial numbered by its position."""
    position = next_position(study)
    study.sampler = AtPosition(sampler_of(position_seed(seed, position)), position)
    with ctrl_c_held():
        return study.ask(space)


@contextmanager
def ctrl_c_held() -> Iterator[None]:
    """Hold a Ctrl-C (SIGINT) until the block ends, then raise KeyboardInterrupt; a second one
    raises at once. Only in the main thread, and only over Python's own SIGINT handler."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield
        return
    received = []

    def hold(number, frame):
        if received:
            raise KeyboardInterrupt
        received.append(number)

    signal.signal(signal.SIGINT, hold)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if received:
        raise KeyboardInterrupt


def fail_interrupted_asks(study, names: Iterable[str]) -> None:
    """Mark failed every RUNNING trial whose ask was interrupted (one of ``names`` has no value
    yet); enqueue its fixed parameters again (the starting point), so the next ask takes them."""
    import optuna

    names = set(names)
    for trial in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.RUNNING,)):
        if names <= set(trial.params):
            continue
        study.tell(trial.number, state=optuna.trial.TrialState.FAIL)
        fixed = trial.system_attrs.get("fixed_params")
        if fixed:
            study.enqueue_trial(dict(fixed))


def unfinished(study) -> list:
    """The trials an interrupted session asked and never told, in the order it asked them, as
    :class:`optuna.trial.Trial` objects to evaluate and tell (their parameters are stored: nothing
    is sampled again)."""
    import optuna

    return [optuna.trial.Trial(study, trial._trial_id)
            for trial in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.RUNNING,))]


class AtPosition:
    """A sampler for one ask, at ``position``: ``sampler``, and a CMA-ES sampler shown the asked
    trial numbered by its position (equal to its number unless a failed trial comes before it)."""

    def __init__(self, sampler, position: int):
        import optuna

        self.sampler, self.position = sampler, position
        self.renumbering = isinstance(sampler, optuna.samplers.CmaEsSampler)

    def renumbered(self, trial):
        if not self.renumbering or trial.number == self.position:
            return trial
        shown = copy.copy(trial)
        shown.number = self.position
        return shown

    def infer_relative_search_space(self, study, trial):
        return self.sampler.infer_relative_search_space(study, self.renumbered(trial))

    def sample_relative(self, study, trial, search_space):
        return self.sampler.sample_relative(study, self.renumbered(trial), search_space)

    def sample_independent(self, study, trial, param_name, param_distribution):
        return self.sampler.sample_independent(study, self.renumbered(trial), param_name, param_distribution)

    def before_trial(self, study, trial) -> None:
        self.sampler.before_trial(study, self.renumbered(trial))

    def after_trial(self, study, trial, state, values) -> None:
        self.sampler.after_trial(study, trial, state, values)

    def reseed_rng(self) -> None:
        self.sampler.reseed_rng()
