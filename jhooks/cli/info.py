"""``python -m jhooks info``: versions and the Java classpath jhooks would use."""

from __future__ import annotations

import argparse
import importlib.util
import sys


def register(sub: "argparse._SubParsersAction") -> None:
    p = sub.add_parser("info", help="print versions and the Java classpath jhooks uses")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import jhooks
    from jhooks.bridge.classpath import ClasspathError, classpath

    print(f"jhooks {jhooks.__version__}, Python {sys.version.split()[0]}")
    for module in ("tensorflow", "jpype"):
        print(f"{module}: {'installed' if importlib.util.find_spec(module) else 'not installed'}")
    try:
        for jar in classpath():
            print(f"classpath: {jar}")
    except ClasspathError as e:
        print(f"classpath: {e}")
        return 1
    return 0
