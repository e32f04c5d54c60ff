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


class EndMarker(jhooks.Hook):
    """Prints END when its ``end()`` runs: the signal tests check that the session's hooks ended."""

    def end(self, session):
        print("END", flush=True)


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
    hooks.add(as_java_hook(EndMarker()))
    training.busy(as_java_hook(Busy()), 2)
    graph = jpype.JClass("org.jhooks.testing.KillableTraining").graph(wSize)
    session = training.session(graph, jpype.JClass("java.nio.file.Path").of(checkpointDir, []), hooks)
    steps = 0
    try:
        while not session.shouldStop():
            call_java(session.run, "train_step")
            steps += 1
            if steps == 5:
                print("READY", flush=True)
    finally:
        call_java(session.close)


def drive_tf(checkpointDir: str, wSize: int) -> None:
    """A Python program driving TensorFlow's MonitoredSession with jhooks hooks: the Java async
    saver (JavaHook, so the JVM and jhooks' signal handlers are in the process) saving every step,
    and a Python hook that marks its ``end()``; the graph is KillableTraining's (v, w, global_step
    advanced together)."""
    import tensorflow as tf

    from jhooks.bridge import JavaHook
    from jhooks.tf import to_tf_hooks

    faulthandler.register(signal.SIGUSR1, all_threads=True)
    with tf.Graph().as_default():
        step = tf.compat.v1.train.get_or_create_global_step()
        v = tf.compat.v1.get_variable("v", initializer=0.0, use_resource=True)
        w = tf.compat.v1.get_variable("w", initializer=tf.zeros([wSize]), use_resource=True)
        train = tf.group(v.assign_add(1.0), w.assign_add(tf.ones([wSize])), step.assign_add(1), name="train_step")
        saver = JavaHook("org.jhooks.hooks.AsyncCheckpointSaverHook", checkpointDir=checkpointDir, saveSteps=1)
        steps = 0
        with tf.compat.v1.train.MonitoredSession(hooks=to_tf_hooks([saver, EndMarker()])) as session:
            while not session.should_stop():
                session.run(train)
                steps += 1
                if steps == 5:
                    print("READY", flush=True)


if __name__ == "__main__":
    (drive_tf if sys.argv[3:] == ["tf"] else drive)(sys.argv[1], int(sys.argv[2]))
