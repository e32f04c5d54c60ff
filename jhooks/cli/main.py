"""``python -m jhooks``: the subcommands and their dispatch."""

from __future__ import annotations

import argparse
import sys
from typing import List, Optional

from jhooks.cli import conformance, demo, info, java


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m jhooks",
        description="TensorFlow training hooks that behave the same in Python and on the JVM.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    info.register(sub)
    java.register(sub)
    demo.register(sub)
    conformance.register(sub)
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
