"""StopAtStepHook: requests stop at a global step (twin of the Java class; TF semantics)."""

from __future__ import annotations

from typing import Any

from jhooks.api.hook import Hook
from jhooks.api.run_args import SessionRunArgs


class StopAtStepHook(Hook):
    """Requests stop once the global step reaches ``lastStep``.

    Mirrors ``tf.compat.v1.train.StopAtStepHook``: with ``numSteps`` the last step is the global
    step read at the first ``afterCreateSession`` plus ``numSteps`` (not recomputed when the
    session is re-created). Each run fetches the global step; when that value + 1 reaches the last
    step, the global step is re-read with a raw run and stop is requested if it reached it.

    Deliberate difference: a session created (restored from a checkpoint, or re-created by
    recovery) at or past the last step requests a stop through the coordinator in
    ``afterCreateSession``, so it trains no further step (TF's hook runs one more step; with a
    None coordinator this hook behaves as TF's).

    Args:
        numSteps: steps to run from the global step at session creation (int > 0).
        lastStep: the global step after which to stop (int).

    Raises:
        ValueError: both or neither given, or ``numSteps <= 0`` (TF's texts).
    """

    def __init__(self, numSteps: int | None = None, lastStep: int | None = None) -> None:
        if numSteps is None and lastStep is None:
            raise ValueError("One of num_steps or last_step must be specified.")
        if numSteps is not None and lastStep is not None:
            raise ValueError("Only one of num_steps or last_step can be specified.")
        if numSteps is not None and numSteps <= 0:
            raise ValueError("Number of steps must be positive.")
        self._numSteps = numSteps
        self._lastStep = lastStep

    def lastStep(self) -> int | None:
        """The global step to stop at; None until the first session exists when numSteps was given."""
        return self._lastStep

    def afterCreateSession(self, session: Any, coord: Any) -> None:
        step = session.globalStep()
        if self._lastStep is None:
            self._lastStep = step + self._numSteps
        elif step >= self._lastStep and coord is not None:
            # A finished run stays finished: TF's hook only checks after a run, so a session
            # restored at or past the last step would train one more step.
            coord.requestStop()

    def beforeSessionRun(self, runContext: Any) -> SessionRunArgs:
        return SessionRunArgs.of(runContext.session.globalStepTensorName())

    def afterSessionRun(self, runContext: Any, runValues: Any) -> None:
        lastStep = self._lastStep
        assert lastStep is not None, "afterCreateSession sets it"
        if int(runValues.results) + 1 >= lastStep:
            if runContext.session.globalStep() >= lastStep:
                runContext.requestStop()
