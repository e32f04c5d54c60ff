"""Subprocess for the best-listener SIGKILL test: trains forever with CheckpointSaverHook(saveSteps=1)
and a BestCheckpointsListener (Python's, or Java's through JPype) whose metric is the global step
(mode max, keep 2), so every save is copied into best/ and drops the oldest copy; resumes from the
latest checkpoint and prints each finished global step (flushed)."""

import sys

import tensorflow as tf
from hooks_support import Model, monitored

from jhooks.hooks import BestCheckpointsListener, CheckpointSaverHook


def listener(language: str, checkpointDir: str):
    if language == "python":
        return BestCheckpointsListener(checkpointDir, "metric:0", mode="max", keep=2)
    import jpype

    from jhooks.bridge import JavaCheckpointSaverListener
    from jhooks.bridge.process import jvm

    jvm.start()
    return JavaCheckpointSaverListener(
        jpype.JClass("org.jhooks.hooks.BestCheckpointsListener")(checkpointDir, "metric:0", "max", 2)
    )


def main(checkpointDir: str, size: int, language: str) -> None:
    with tf.Graph().as_default():
        m = Model(size=size)
        tf.cast(m.gs, tf.float32, name="metric")
        best = listener(language, checkpointDir)
        hook = CheckpointSaverHook(checkpointDir, saveSteps=1, maxToKeep=3, listeners=[best])
        with monitored([hook], checkpointDir) as sess:
            while True:
                sess.run(m.train)
                print(int(sess.run(m.gs)), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3])
