"""Subprocess for test_python_checkpoint_restored_in_java: restores a V2 checkpoint with
tensorflow-java's ``Session.restore`` into a TF-Java graph holding the test Model's variables and
prints their values as JSON. Imports no Python TensorFlow (one TF runtime per process)."""

import json
import sys

import jpype
import jpype.imports


def main(prefix: str, size: int, classpath: str, cache: str) -> None:
    jpype.startJVM(f"-Dorg.bytedeco.javacpp.cachedir={cache}", classpath=classpath.split(":"), convertStrings=False)
    from org.tensorflow import Graph, Session
    from org.tensorflow.ndarray import Shape
    from org.tensorflow.op import Ops
    from org.tensorflow.types import TFloat32, TInt64

    with Graph() as g:
        tf = Ops.create(g)
        specs = {
            "w": (Shape.scalar(), TFloat32),
            "b": (Shape.scalar(), TFloat32),
            "big": (Shape.of(size), TFloat32),
            "count": (Shape.scalar(), TInt64),
            "global_step": (Shape.scalar(), TInt64),
        }
        for name, (shape, dtype) in specs.items():
            tf.withName(name).variable(shape, dtype.class_)
        with Session(g) as s:
            s.restore(prefix)
            out = {}
            for name in specs:
                with s.runner().fetch(name).run() as result:
                    t = result.get(0)
                    if name == "big":
                        out[name] = [float(t.getFloat(i)) for i in range(size)]
                    elif name in ("count", "global_step"):
                        out[name] = int(t.getLong())
                    else:
                        out[name] = float(t.getFloat())
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4])
