"""``python -m jhooks jvm-options``: what a JVM started by plain ``java`` needs to run jhooks with
Python hooks from this Python environment (the jep backend, docs/bridge.md, "Backends")."""

from __future__ import annotations

import argparse
import os
import sys

RECIPE = (
    "java $(python -m jhooks jvm-options) -cp app.jar:$(python -m jhooks jvm-options --classpath):"
    "$(python -m jhooks jvm-options --jep-jar) com.example.Train"
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "jvm-options",
        help="print the java options, classpath and jep jar that let a JVM started by plain java load Python "
        "hooks from this environment",
        description="Prints, on one line, the -D options that make tensorflow-java share this environment's "
        "TensorFlow runtime (nothing when it has no TensorFlow). With --classpath, the jhooks jars installed "
        "here (the wheel's, or a checkout's build) joined with ':'; with --jep-jar, the jar of this "
        f"environment's jep. Example: {RECIPE}",
    )
    what = p.add_mutually_exclusive_group()
    what.add_argument("--classpath", action="store_true", help="print the jhooks jars' classpath instead")
    what.add_argument("--jep-jar", action="store_true", help="print the jep jar of this environment instead")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Prints the options; exit status 1 (with a message on stderr) when jep is asked for but not
    installed; a missing or mismatched jhooks jar is a usage error (ClasspathError)."""
    from jhooks.bridge.backend.jep_backend import jep_jar
    from jhooks.bridge.process import runtime
    from jhooks.bridge.process.classpath import classpath

    if args.classpath:
        print(os.pathsep.join(classpath()))
        return 0
    if args.jep_jar:
        jar = jep_jar()
        if jar is None:
            print("python -m jhooks jvm-options: jep is not installed here: pip install 'jhooks[jep]'", file=sys.stderr)
            return 1
        print(jar)
        return 0
    tfdir = runtime.tensorflow_wheel_dir()
    print(" ".join(runtime.jvm_args(tfdir)) if tfdir is not None else "")
    return 0
