"""The driver interface of the conformance suite, and the registry of drivers it checks.

A *driver* is whatever creates a TensorFlow session with jhooks hooks and runs a caller's loop in
it: the Python driver (TensorFlow's ``MonitoredSession``), a wrapper of your own, an adapter into
another training loop. For each scenario the suite makes the hooks (scripted and standard hooks
that record into one trace; a user's hook under test last), calls :meth:`ConformanceDriver.buildModel`
for the scenario's model recipe, then :meth:`ConformanceDriver.run` with a :class:`DriverSetup`
and the :class:`Caller`, and judges the :class:`DriverOutcome` together with the traces and the
checkpoint dir. Register a driver with :func:`register`, as jhooks registers its own Python driver
(``jhooks.conformance.python_driver``); its cases are ``<scenario>[<name>-driver-<hooks>-hooks]``.
Twin of ``org.jhooks.conformance.ConformanceDriver`` (and ``DriverSetup``, ``Caller``,
``RunWithoutHooks``, ``DriverOutcome``); see docs/conformance.md, "Check your own driver".
"""

from __future__ import annotations

import re
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

# the drivers of jhooks itself: "python" registered by jhooks.conformance.python_driver, "jvm" the
# JVM driver, which runs through org.jhooks.conformance.JvmScenarioRunner (not a ConformanceDriver)
BUILT_IN = ("python", "jvm")


@dataclass(frozen=True)
class DriverSetup:
    """What a driver gets for one scenario.

    ``graph`` and ``model`` are what :meth:`ConformanceDriver.buildModel` returned (``model`` has
    ``modelInstance`` for ``ModelDependentHook``s and ``trainOp``); ``isChief`` the scenario's
    role; ``chiefOnlyHooks`` and ``hooks`` jhooks hooks (Python ones, or ``jhooks.bridge.JavaHook``
    s) in registration order, a user's hook under test last; ``checkpointDir`` a fresh dir or
    None; ``sessionCreator`` a ``tf.compat.v1.train.SessionCreator`` that restores the latest
    checkpoint of ``checkpointDir`` (else initializes) and injects the scenario's recovery faults
    (an ``AbortedError`` from the n-th run of ``train``). A driver that creates its sessions
    another way cannot pass the recovery scenarios (see :attr:`ConformanceDriver.recovers`).
    """

    graph: Any
    model: Any
    isChief: bool
    chiefOnlyHooks: Sequence[Any]
    hooks: Sequence[Any]
    checkpointDir: str | None
    sessionCreator: Any

    @property
    def allHooks(self) -> list[Any]:
        """The hooks the session runs, in order: on the chief the chief-only hooks then the others
        (as ``MonitoredTrainingSession`` with its built-in hooks off), on a non-chief the others."""
        return (list(self.chiefOnlyHooks) if self.isChief else []) + list(self.hooks)


@dataclass(frozen=True)
class RunWithoutHooks:
    """One run without hooks the caller makes after its ``afterRun``-th hooked run (0: before the
    first): ``jhooks.tf.run_without_hooks(session, fetches, feeds)`` (``OnErrorSession.runWithoutHooks``).
    ``fetches`` are jhooks names (``"op:N"`` tensors, op names as targets, lists/tuples/dicts of
    them); ``feeds`` maps tensor names to numpy arrays (None: no feeds). Twin of
    ``org.jhooks.conformance.RunWithoutHooks``."""

    afterRun: int
    fetches: Any
    feeds: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class Caller:
    """The scenario's caller, the loop a driver runs::

        while True:
            for w in caller.withoutHooksAfter(runs):  # runs without hooks
                session.runWithoutHooks(w.fetches, w.feeds)
            if session.should_stop() or runs >= caller.maxRuns:
                break
            runs += 1
            session.run(caller.fetches, feed_dict=caller.feeds)

    A run (with or without hooks) that raises ``OutOfRangeError`` ends the loop at the end of input
    (a ``MonitoredSession``'s ``with`` block swallows it). ``fetches`` are graph elements (a tensor
    or operation, or a list/tuple/dict of them); ``feeds`` maps tensors to numpy arrays (None: no
    feeds); ``withoutHooks`` the scenario's runs without hooks, in order.
    """

    maxRuns: int
    fetches: Any
    feeds: Mapping[Any, Any] | None
    withoutHooks: Sequence[RunWithoutHooks] = ()

    def withoutHooksAfter(self, runs: int) -> list[RunWithoutHooks]:
        """The runs without hooks to make once ``runs`` hooked runs returned, in order."""
        return [w for w in self.withoutHooks if w.afterRun == runs]


@dataclass
class DriverOutcome:
    """How the caller's loop ended.

    ``callerRuns``: hooked runs the caller started (a run that hit the end of input counts);
    ``callerResults``: what each returning run gave, as ``MonitoredSession.run`` returns it;
    ``stopped``: the session's ``should_stop()`` after the loop; ``endOfInput``: a caller's run
    (with or without hooks) reached the end of input; ``error``: the exception creating, running or
    closing the session raised (the caller's view: a hook's error, TensorFlow's, a feed conflict),
    else None; ``withoutHooksRuns`` / ``withoutHooksResults``: the same as ``callerRuns`` /
    ``callerResults`` for the runs without hooks (results as ``run_without_hooks`` returns them).
    """

    callerRuns: int
    callerResults: list[Any] = field(default_factory=list)
    stopped: bool = False
    endOfInput: bool = False
    error: BaseException | None = None
    withoutHooksRuns: int = 0
    withoutHooksResults: list[Any] = field(default_factory=list)


class ConformanceDriver(ABC):
    """A driver the conformance suite checks (module docstring).

    ``name`` (``[a-z0-9]+``) names its cases; ``recovers`` is False for a driver that does not
    recover from ``AbortedError`` (TensorFlow's ``SingularMonitoredSession``): the scenarios with
    ``recoveryFaults`` are skipped for it, with that reason.
    """

    name: str = ""
    recovers: bool = True

    def buildModel(self, recipe: Mapping[str, Any]) -> tuple[Any, Any]:
        """Builds the scenario's model recipe (docs/conformance.md, "Model recipe") in a new
        ``tf.Graph`` and returns ``(graph, model)``; ``model`` has ``modelInstance`` and
        ``trainOp``. The default is jhooks.conformance.model_python.build."""
        import tensorflow as tf

        from jhooks.conformance import model_python

        graph = tf.Graph()
        return graph, model_python.build(recipe, graph)

    @abstractmethod
    def run(self, setup: DriverSetup, caller: Caller) -> DriverOutcome:
        """Creates the session with ``setup.allHooks`` (adapted as the driver adapts jhooks hooks,
        for example ``jhooks.tf.to_tf_hooks(hooks, setup.model.modelInstance)``) from
        ``setup.sessionCreator``, in ``setup.graph``, runs the caller's loop and reports the
        outcome. Must not raise: an error of the session is ``DriverOutcome(error=...)``."""


def drive_monitored_session(create: Callable[[], Any], caller: Caller) -> DriverOutcome:
    """The caller's loop in a TensorFlow-style monitored session, for drivers built on one.

    ``create()`` returns a context manager giving a session with ``should_stop()``,
    ``run(fetches, feed_dict=...)`` and ``runWithoutHooks(fetches, feeds)`` (e.g.
    ``jhooks.tf.OnErrorSession.create(...)`` over ``tf.compat.v1.train.MonitoredSession``). Before
    each caller run (and once more at the end) it makes the runs without hooks due after that many
    caller runs, then the caller's run, until the session should stop or ``caller.maxRuns`` runs
    were made. Like TensorFlow's ``MonitoredSession``, leaving the ``with`` block swallows an
    ``OutOfRangeError``: a run that never returned is the end of input. Any other error is the
    outcome's ``error``."""
    out = DriverOutcome(callerRuns=0)
    try:
        with create() as session:
            while True:
                for w in caller.withoutHooksAfter(out.callerRuns):
                    out.withoutHooksRuns += 1
                    out.withoutHooksResults.append(session.runWithoutHooks(w.fetches, w.feeds))
                if session.should_stop() or out.callerRuns >= caller.maxRuns:
                    break
                out.callerRuns += 1
                out.callerResults.append(session.run(caller.fetches, feed_dict=caller.feeds))
            out.stopped = session.should_stop()
        out.endOfInput = len(out.callerResults) < out.callerRuns or len(out.withoutHooksResults) < out.withoutHooksRuns
    except Exception as e:  # noqa: BLE001 - every error is the observed outcome
        out.error = e
    return out


_lock = threading.Lock()
_drivers: dict[str, ConformanceDriver] = {}


def register(driver: ConformanceDriver) -> ConformanceDriver:
    """Adds ``driver`` to the drivers the suite knows (its combinations become
    ``<name>-driver-{python,java,mixed}-hooks``) and returns it. ValueError for a name that is not
    ``[a-z0-9]+``, the JVM driver's, or another driver's already registered."""
    if not isinstance(driver, ConformanceDriver):
        raise TypeError(f"expected a jhooks.conformance.driver.ConformanceDriver, got {type(driver).__name__}")
    name = driver.name
    if not isinstance(name, str) or not re.fullmatch(r"[a-z0-9]+", name):
        raise ValueError(f"a driver's name must match [a-z0-9]+, got {name!r} ({type(driver).__name__})")
    with _lock:
        if name == "jvm" or (name in _drivers and _drivers[name] is not driver):
            raise ValueError(f"a driver named {name!r} is already registered")
        _drivers[name] = driver
    return driver


def unregister(name: str) -> None:
    """Removes the registered driver ``name`` (nothing when there is none)."""
    with _lock:
        _drivers.pop(name, None)


def get(name: str) -> ConformanceDriver:
    """The registered driver ``name`` (``"python"``: jhooks' Python driver, registered when
    ``jhooks.conformance.python_driver`` is imported, as ``jhooks.conformance.runner`` does); KeyError."""
    with _lock:
        if name not in _drivers:
            raise KeyError(f"no conformance driver named {name!r}; registered: {sorted(_drivers) or 'none'}")
        return _drivers[name]


def registered() -> list[str]:
    """The names of the registered drivers other than jhooks' own (:data:`BUILT_IN`), in registration order."""
    with _lock:
        return [name for name in _drivers if name not in BUILT_IN]
