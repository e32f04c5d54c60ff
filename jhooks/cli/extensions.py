"""What other installed distributions add to the command line and to a JVM's classpath, through
entry points (docs/build.md, "Artifacts"):

- ``jhooks.commands``: name -> ``register(subparsers)`` of a subcommand (jhooks-conformance:
  ``conformance``; jhooks-demo: ``demo``, ``cluster-demo``);
- ``jhooks.classpath``: name -> a callable returning the distribution's jars (absolute paths), for
  JVMs that run its classes, such as ``python -m jhooks java org.jhooks.examples.TrainLinearModel``.

The library never imports those distributions by name: only the entry points they declare.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from importlib import metadata

COMMANDS = "jhooks.commands"
CLASSPATH = "jhooks.classpath"

# The subcommands of jhooks's own other distributions, to say what to install when one is missing.
ELSEWHERE = {"conformance": "jhooks-conformance", "demo": "jhooks-demo", "cluster-demo": "jhooks-demo"}


def _entry_points(group: str) -> dict[str, metadata.EntryPoint]:
    """The group's entry points by name (the first of a name installed twice)."""
    found: dict[str, metadata.EntryPoint] = {}
    for point in metadata.entry_points(group=group):
        found.setdefault(point.name, point)
    return found


def commands() -> dict[str, Callable[[argparse._SubParsersAction], None]]:
    """The installed subcommands of other distributions: name -> their ``register``."""
    return {name: point.load() for name, point in sorted(_entry_points(COMMANDS).items())}


def missing(command: str) -> str | None:
    """The one-line reason ``command`` cannot run when it belongs to a jhooks distribution that is
    not installed, else None."""
    distribution = ELSEWHERE.get(command)
    if distribution is None or command in _entry_points(COMMANDS):
        return None
    return (
        f"the command {command!r} is in the distribution {distribution}, which is not installed here: "
        f"pip install {distribution}"
    )


def classpath() -> list[str]:
    """The jars the installed distributions add (``jhooks.classpath``), in name order, without repeats."""
    jars: list[str] = []
    for _, point in sorted(_entry_points(CLASSPATH).items()):
        jars += [j for j in point.load()() if j not in jars]
    return jars
