"""Subprocess for the SIGKILL tests: trains forever with an asynchronous checkpoint saver
(saveSteps=1, keeps 3), resuming from the latest checkpoint, and prints each finished global step
(flushed). ``direction``: ``python`` (Python's AsyncCheckpointSaverHook in TensorFlow's
MonitoredSession, on hooks_support.Model), ``jvm-java`` (Java's AsyncCheckpointSaverHook in the JVM
driver) or ``jvm-python`` (Python's AsyncCheckpointSaverHook in the JVM driver, through
as_java_hook); both JVM directions train org.jhooks.testing.KillableTraining's graph in a JVM this
Python program started and drives."""

import sys


def python_driver(checkpointDir: str, size: int) -> None:
    import tensorflow as tf
    from hooks_support import Model, monitored

    from jhooks.hooks import AsyncCheckpointSaverHook

    with tf.Graph().as_default():
        m = Model(size=size)
        hook = AsyncCheckpointSaverHook(checkpointDir, saveSteps=1, maxToKeep=3)
        with monitored([hook], checkpointDir) as sess:
            while True:
                sess.run(m.train)
                print(int(sess.run(m.gs)), flush=True)


def jvm_driver(checkpointDir: str, size: int, saverLanguage: str) -> None:
    import jpype

    from jhooks.bridge import as_java_hook
    from jhooks.bridge.process import jvm
    from jhooks.hooks import AsyncCheckpointSaverHook

    jvm.start(natives=True)
    J = jpype.JClass
    if saverLanguage == "java":
        saver = J("org.jhooks.hooks.AsyncCheckpointSaverHook").builder(checkpointDir).saveSteps(1).maxToKeep(3).build()
    else:
        saver = as_java_hook(AsyncCheckpointSaverHook(checkpointDir, saveSteps=1, maxToKeep=3))
    creator = J("org.jhooks.tf.CheckpointRestoringSessionCreator")(J("java.nio.file.Path").of(checkpointDir, []))
    graph = J("org.jhooks.testing.KillableTraining").graph(size)
    session = J("org.jhooks.tf.MonitoredSession").builder(graph).sessionCreator(creator).hooks(saver).build()
    train = J("org.jhooks.tf.GlobalStep").TRAIN_STEP
    while True:
        session.run(train)
        print(int(session.session().globalStep()), flush=True)


if __name__ == "__main__":
    directory, floats = sys.argv[1], int(sys.argv[2])
    direction = sys.argv[3] if len(sys.argv) > 3 else "python"
    if direction == "python":
        python_driver(directory, floats)
    else:
        jvm_driver(directory, floats, direction.removeprefix("jvm-"))
