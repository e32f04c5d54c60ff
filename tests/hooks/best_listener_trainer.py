"""Subprocess for the best-listener SIGKILL test: trains forever with a checkpoint saver (saveSteps=1)
and a BestCheckpointsListener whose metric is the global step (mode max, keep 2), so every save is
copied into best/ and drops the oldest copy; resumes from the latest checkpoint and prints each
finished global step (flushed). ``language``: ``python`` (Python's listener on TensorFlow's
MonitoredSession with jhooks' CheckpointSaverHook), ``java`` (Java's listener there, through
JPype), ``jvm`` (the JVM driver: org.jhooks.testing.KillableTraining's graph, Java's saver and
listener; no Python TensorFlow in the process)."""

import sys


def python_driver(checkpointDir: str, size: int, language: str) -> None:
    import tensorflow as tf
    from hooks_support import Model, monitored

    from jhooks.hooks import BestCheckpointsListener, CheckpointSaverHook

    with tf.Graph().as_default():
        m = Model(size=size)
        tf.cast(m.gs, tf.float32, name="metric")
        if language == "python":
            best = BestCheckpointsListener(checkpointDir, "metric:0", mode="max", keep=2)
        else:
            import jpype

            from jhooks.bridge import JavaCheckpointSaverListener
            from jhooks.bridge.process import jvm

            jvm.start()
            cls = jpype.JClass("org.jhooks.hooks.BestCheckpointsListener")
            best = JavaCheckpointSaverListener(cls(checkpointDir, "metric:0", "max", 2))
        hook = CheckpointSaverHook(checkpointDir, saveSteps=1, maxToKeep=3, listeners=[best])
        with monitored([hook], checkpointDir) as sess:
            while True:
                sess.run(m.train)
                print(int(sess.run(m.gs)), flush=True)


def jvm_driver(checkpointDir: str, size: int) -> None:
    import jpype

    from jhooks.bridge.process import jvm

    jvm.start(natives=True)
    J = jpype.JClass
    best = J("org.jhooks.hooks.BestCheckpointsListener")(checkpointDir, "v:0", "max", 2)
    saver = J("org.jhooks.hooks.CheckpointSaverHook").builder(checkpointDir).saveSteps(1).maxToKeep(3)
    saver = saver.listeners(best).build()
    creator = J("org.jhooks.tf.CheckpointRestoringSessionCreator")(J("java.nio.file.Path").of(checkpointDir, []))
    graph = J("org.jhooks.testing.KillableTraining").graph(size)
    session = J("org.jhooks.tf.MonitoredSession").builder(graph).sessionCreator(creator).hooks(saver).build()
    train = J("org.jhooks.tf.GlobalStep").TRAIN_STEP
    while True:
        session.run(train)
        print(int(session.session().globalStep()), flush=True)


if __name__ == "__main__":
    directory, floats, language = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if language == "jvm":
        jvm_driver(directory, floats)
    else:
        python_driver(directory, floats, language)
