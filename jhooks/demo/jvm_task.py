"""``python -m jhooks.demo.jvm_task ARGS``: becomes (``exec``) the JVM worker of the tf-config
cluster, ``org.jhooks.demo.TfConfigTask``, in a plain ``java`` with this environment's jhooks jars,
jep jar and runtime options (``python -m jhooks jvm-options``), so a container's command needs no
classpath of its own (examples/kubernetes). TF_CONFIG passes through the environment unchanged."""

from __future__ import annotations

import os
import sys

from jhooks.demo.cluster import jvm_command


def main(argv: list[str]) -> None:
    command = jvm_command("org.jhooks.demo.TfConfigTask") + argv
    os.execvp(command[0], command)


if __name__ == "__main__":
    main(sys.argv[1:])
