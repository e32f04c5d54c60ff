"""Python hooks and the Python driving program of the signal tests (test_signals.py)."""

from __future__ import annotations

import faulthandler
import os
import signal
import sys
import time

import numpy as np

import jhooks
from jhooks.hooks import AsyncCheckpointSaverHook


def saver() -> AsyncCheckpointSaverHook:
    """The Python async saver, saving every step into $SIGNAL_CKPT (a factory the launcher accepts)."""
    return AsyncCheckpointSaverHook(os.environ["SIGNAL_CKPT"], saveSteps=1, maxToKeep=3)


class Busy(jhooks.Hook):
    """Called without pause from Java threads: a little numpy work and a short sleep each time."""

    def afterSessionRun(self, runContext, runValues):
        np.sort(np.random.default_rng().random(1000))
        time.sleep(0.001)


def drive(checkpointDir: str, wSize: int) -> None:
    """A Python program driving a JVM session: the Python loop runs train_step on the JVM
    MonitoredSession with the Python saver, while Java threads call Busy."""
    import jpype

    faulthandler.register(signal.SIGUSR1, all_threads=True)  # the test dumps the stacks of a hung run

    from jhooks.bridge import as_java_hook
    from jhooks.bridge.process import jvm
    from jhooks.bridge.process.calls import call_java

    os.environ["SIGNAL_CKPT"] = checkpointDir
    jvm.start(extra_classpath=[os.environ["SIGNAL_CLASSES"]])
    training = jpype.JClass("org.jhooks.bridgetest.SignalTraining")
    hooks = jpype.JClass("java.util.ArrayList")()
    hooks.add(as_java_hook(saver()))
    training.busy(as_java_hook(Busy()), 2)
    graph = jpype.JClass("org.jhooks.testing.KillableTraining").graph(wSize)
    session = training.session(graph, jpype.JClass("java.nio.file.Path").of(checkpointDir, []), hooks)
    steps = 0
    while not session.shouldStop():
        call_java(session.run, "train_step")
        steps += 1
        if steps == 5:
            print("READY", flush=True)


if __name__ == "__main__":
    drive(sys.argv[1], int(sys.argv[2]))
