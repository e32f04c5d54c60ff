"""Trains the demo graph in a Python MonitoredSession with a progress bar and a Java
LoggingTensorHook plus a Python hook that log every LOG_EVERY runs (tests of the bars' output):
``bar_training.py STEPS LOG_EVERY python|java`` (the bar's language). Prints ``elapsed SECONDS``
of the training loop on stdout."""

import logging
import sys
import time

from jhooks.bridge import JavaHook
from jhooks.bridge.process import console, jvm

jvm.start()  # before TensorFlow

import jpype  # noqa: E402
import tensorflow as tf  # noqa: E402

import jhooks  # noqa: E402
from jhooks.demo import data, model  # noqa: E402
from jhooks.hooks import ProgressBarHook  # noqa: E402
from jhooks.tf import to_tf_hooks  # noqa: E402


class PythonLog(jhooks.Hook):
    def __init__(self, every):
        self.every, self.runs = every, 0

    def afterSessionRun(self, runContext, runValues):
        if self.runs % self.every == 0:
            logging.getLogger("bar_training").info("python record at run %d", self.runs)
        self.runs += 1


def main(steps, log_every, language):
    logging.basicConfig(level=logging.INFO, format=console.DEFAULT_FORMAT)
    if language == "java":
        bar = JavaHook(
            jpype.JClass("org.jhooks.hooks.ProgressBarHook")(
                jpype.JLong(steps), jpype.JClass("java.util.Map").of("loss", model.LOSS), None, None
            )
        )
    else:
        bar = ProgressBarHook(lastStep=steps, tensors={"loss": model.LOSS})
    java_log = jpype.JClass("org.jhooks.hooks.LoggingTensorHook")(
        jpype.JClass("java.util.Map").of("step", model.GLOBAL_STEP), jpype.JInt(log_every), None, False, None
    )
    demo = model.build(data.load(), 0.01)
    with demo.graph.as_default():
        hooks = to_tf_hooks([bar, JavaHook(java_log), PythonLog(log_every)])
        t0 = time.perf_counter()
        with tf.compat.v1.train.MonitoredSession(hooks=hooks) as session:
            for _ in range(steps):
                session.run(demo.trainOp)
    print(f"elapsed {time.perf_counter() - t0}", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3])
