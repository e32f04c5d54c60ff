"""``python -m jhooks``: the subcommands and their dispatch. The library's own (``info``, ``java``,
``jvm-options``) are here; other distributions add theirs through the entry points of
:mod:`jhooks.cli.extensions` (jhooks-conformance: ``conformance``; jhooks-demo: ``demo``,
``cluster-demo``)."""

from __future__ import annotations

import argparse
import signal
import sys
import traceback

from jhooks.api.version import VERSION
from jhooks.cli import extensions, info, java, jvm_options


def build_parser() -> argparse.ArgumentParser:
    absent = sorted(f"{c} (pip install {d})" for c, d in extensions.ELSEWHERE.items() if extensions.missing(c))
    parser = argparse.ArgumentParser(
        prog="python -m jhooks",
        description="TensorFlow training hooks that behave the same in Python and on the JVM.",
        epilog="not installed here: " + ", ".join(absent) if absent else None,
    )
    parser.add_argument("--version", action="version", version=f"jhooks {VERSION}")
    parser.add_argument(
        "--verbose", "--debug", dest="verbose", action="store_true", help="show the traceback of a usage error"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    info.register(sub)
    java.register(sub)
    jvm_options.register(sub)
    for register in extensions.commands().values():
        register(sub)
    return parser


def _usage_errors() -> tuple[type[BaseException], ...]:
    """Errors that mean a wrong command line or set-up, not a bug: one line, exit status 2 (a
    ``--hook`` class whose callbacks have the wrong signature included: HookValidationError)."""
    from jhooks.api.validation import HookValidationError
    from jhooks.bridge.launcher.specs import LauncherError
    from jhooks.bridge.process.classpath import ClasspathError
    from jhooks.bridge.process.errors import JavaClassNotFoundError, JvmError

    return (LauncherError, JvmError, ClasspathError, JavaClassNotFoundError, HookValidationError)


def _command(argv: list[str]) -> str | None:
    """The subcommand named in ``argv``: its first argument that is not an option (the top-level
    options take no value)."""
    return next((a for a in argv if not a.startswith("-")), None)


def _signalled_sigint() -> bool:
    """Whether jhooks' SIGINT handler saw a Ctrl-C: what a run raises after one (a Java call's
    InterruptedException, a hook's error) is a consequence of it."""
    from jhooks.bridge.process.state import PROCESS

    return PROCESS.signals.signum == signal.SIGINT


def _interrupted(args: argparse.Namespace) -> int:
    """Ctrl-C: one line, exit status 130 (128 + SIGINT), as docs/bridge.md promises. Later Ctrl-Cs
    are ignored while TensorFlow and the JVM shut down (bounded by the signal watchdog), so none
    prints a traceback from an exit handler."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if getattr(args, "verbose", False):
        traceback.print_exc()
    print(f"python -m jhooks {args.command}: interrupted (Ctrl-C)", file=sys.stderr)
    return 130


def main(argv: list[str] | None = None) -> int:
    """Runs a subcommand. A usage error (a ``--hook`` that cannot be imported or built, a missing
    ``--classpath`` entry or class, a TensorFlow the JVM cannot share, ...) prints one line
    ``python -m jhooks COMMAND: <what and the fix>`` and returns 2; ``--verbose`` adds the traceback.
    Ctrl-C (``KeyboardInterrupt``, or any error raised after jhooks' SIGINT handler saw one) prints
    ``python -m jhooks COMMAND: interrupted (Ctrl-C)`` and returns 130.
    A command of a jhooks distribution that is not installed prints one line naming the pip install
    and returns 2."""
    command = _command(sys.argv[1:] if argv is None else argv)
    why = extensions.missing(command) if command is not None else None
    if why is not None:
        print(f"python -m jhooks {command}: {why}", file=sys.stderr)
        return 2
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        return _interrupted(args)
    except _usage_errors() as e:
        if _signalled_sigint():
            return _interrupted(args)
        if getattr(args, "verbose", False):
            traceback.print_exc()
        print(f"python -m jhooks {args.command}: {e}", file=sys.stderr)
        return 2
    except Exception:
        if _signalled_sigint():
            return _interrupted(args)
        raise


if __name__ == "__main__":
    status = main()  # first: see jhooks/__main__.py
    sys.exit(status)
