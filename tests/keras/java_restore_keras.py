"""Subprocess for test_keras_checkpoint_restored_in_java: restores a V2 checkpoint that a Keras
session view wrote with tensorflow-java's ``Session.restore``, into a TF-Java graph holding float32
variables of the given shapes (names with ``/`` made as sub-scopes) and an int64 ``global_step``;
prints their values as JSON. Imports no Python TensorFlow (one TF runtime per process)."""

import itertools
import json
import sys

import jpype
import jpype.imports


def main(prefix: str, shapes: dict, classpath: str, cache: str) -> None:
    jpype.startJVM(f"-Dorg.bytedeco.javacpp.cachedir={cache}", classpath=classpath.split(":"), convertStrings=False)
    from org.tensorflow import Graph, Session
    from org.tensorflow.ndarray import Shape
    from org.tensorflow.op import Ops
    from org.tensorflow.types import TFloat32, TInt64

    with Graph() as g:
        tf = Ops.create(g)
        scopes = {(): tf}  # one sub-scope per path: a second withSubScope("net") would make net_1
        for name, dims in shapes.items():
            *path, leaf = name.split("/")
            for depth in range(1, len(path) + 1):
                if tuple(path[:depth]) not in scopes:
                    scopes[tuple(path[:depth])] = scopes[tuple(path[: depth - 1])].withSubScope(path[depth - 1])
            scopes[tuple(path)].withName(leaf).variable(Shape.of(*dims), TFloat32.class_)
        tf.withName("global_step").variable(Shape.scalar(), TInt64.class_)
        with Session(g) as s:
            s.restore(prefix)
            out = {}
            for name, dims in shapes.items():
                with s.runner().fetch(name).run() as result:
                    t = result.get(0)
                    out[name] = [float(t.getFloat(*index)) for index in itertools.product(*map(range, dims))]
            with s.runner().fetch("global_step").run() as result:
                out["global_step"] = int(result.get(0).getLong())
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1], json.loads(sys.argv[2]), sys.argv[3], sys.argv[4])
