"""A model of several float32 variables saved and restored across languages and drivers, run as
its own process by tests/hooks/test_large_model.py (so its memory is the process's own).

    python tests/hooks/large_model_chain.py DIR MB [MB ...] [--legs 1,2,4]

Each leg restores the latest checkpoint of DIR, trains one step and saves with an
AsyncCheckpointSaverHook at ``end``; legs alternate drivers and hook languages:
Python driver + Python hook, JVM driver + Java hook, Python driver + Java hook, JVM driver +
Python hook. After every leg every element of every variable in the new checkpoint must equal its
global step (the train step adds 1 to each), so each leg proves the previous one's checkpoint was
restored exactly by the other language. Prints one JSON line.
"""

from __future__ import annotations

import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, REPO)

from benchmarks import measure  # noqa: E402 - starts the JVM with TensorFlow's natives first

# isort: split

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

from jhooks.bridge import JavaHook, as_java_hook  # noqa: E402
from jhooks.hooks import AsyncCheckpointSaverHook  # noqa: E402
from jhooks.tf import to_tf_hooks  # noqa: E402

J = measure.J
NEVER = 10**9  # no timer save: only the final one in end()


def python_hook(directory: str):
    return AsyncCheckpointSaverHook(directory, saveSteps=NEVER, maxToKeep=2)


def java_hook(directory: str):
    import jpype

    cls = J("org.jhooks.hooks.AsyncCheckpointSaverHook")
    return cls.builder(directory).saveSteps(jpype.JInt(NEVER)).maxToKeep(jpype.JInt(2)).build()


def python_driver(sizes, directory: str, hook_language: str) -> None:
    graph, train_op, _ = measure._model_graph(sizes)
    hook = python_hook(directory) if hook_language == "python" else JavaHook(java_hook(directory))
    creator = tf.compat.v1.train.ChiefSessionCreator(checkpoint_dir=directory)
    with graph.as_default():
        with tf.compat.v1.train.MonitoredSession(session_creator=creator, hooks=to_tf_hooks([hook])) as session:
            session.run(train_op)


def jvm_driver(sizes, directory: str, hook_language: str) -> None:
    elements = [int(mb * 2**20 / 4) for mb in sizes]
    graph = J("org.jhooks.bench.SaveBench").model(measure._java_longs(elements))
    hook = java_hook(directory) if hook_language == "java" else as_java_hook(python_hook(directory))
    creator = J("org.jhooks.tf.CheckpointRestoringSessionCreator")(J("java.nio.file.Path").of(directory))
    try:
        session = J("org.jhooks.tf.MonitoredSession").builder(graph).sessionCreator(creator).hooks(hook).build()
        try:
            session.run("train_step")
        finally:
            session.close()
    finally:
        graph.close()


def check(directory: str, sizes) -> int:
    """The latest checkpoint's global step, after checking every element of every variable."""
    prefix = tf.train.latest_checkpoint(directory)
    reader = tf.train.load_checkpoint(prefix)
    step = int(reader.get_tensor("global_step"))
    if not prefix.endswith(f"-{step}"):
        raise AssertionError(f"{prefix} holds global step {step}")
    for i, mb in enumerate(sizes):
        value = reader.get_tensor(f"big{i}")
        if value.dtype != np.float32 or value.shape != (int(mb * 2**20 / 4),) or not np.all(value == step):
            raise AssertionError(f"{prefix}: big{i} is {value.dtype}{value.shape} {value[:3]}..., not {step}")
        del value
    return step


def main() -> None:
    directory, *rest = sys.argv[1:]
    chosen = [1, 2, 3, 4]
    if "--legs" in rest:
        at = rest.index("--legs")
        chosen = [int(x) for x in rest[at + 1].split(",")]
        del rest[at : at + 2]
    sizes = tuple(float(x) for x in rest)
    legs = [
        ("python", "python"),
        ("jvm", "java"),
        ("python", "java"),
        ("jvm", "python"),
    ]
    steps = []
    for driver, language in (legs[i - 1] for i in chosen):
        (python_driver if driver == "python" else jvm_driver)(sizes, directory, language)
        steps.append(check(directory, sizes))
    print(json.dumps({"steps": steps}), flush=True)


if __name__ == "__main__":
    main()
