"""``python -m jhooks java``: run a JVM app's main in this process with Python hooks (jhooks.bridge.launcher.app)."""

from __future__ import annotations

import argparse
import os


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "java",
        help="run a JVM app's main class with Python hooks available through org.jhooks.python.PythonHooks",
        description="Starts the JVM in this process (one TensorFlow runtime shared with Python) and runs "
        "MAIN_CLASS.main(APP_ARGS). The app gets the --hook instances with "
        "PythonHooks.fromCommandLine(). Example: python -m jhooks java --classpath app.jar "
        "com.example.Train --hook mypkg.hooks:LossPrinter -- --steps 100",
    )
    p.add_argument(
        "--classpath",
        "-cp",
        action="append",
        default=[],
        metavar="CP",
        help=f"jars or directories to append, separated by '{os.pathsep}'; may repeat",
    )
    p.add_argument(
        "--hook",
        action="append",
        default=[],
        metavar="MODULE:CLASS",
        help="a jhooks.Hook subclass (or a factory annotated to return one) to instantiate with no arguments; "
        "may repeat, order kept. The module is imported and run: use only trusted specs",
    )
    p.add_argument(
        "--verbose",
        "--debug",
        dest="verbose",
        action="store_true",
        default=argparse.SUPPRESS,
        help="show the traceback of a usage error",
    )
    # MAIN_CLASS, more options and '-- APP_ARGS' are split by _split: argparse cannot mix a '*'
    # positional with options that come after the first positional.
    p.add_argument("rest", nargs=argparse.REMAINDER, metavar="MAIN_CLASS [--hook MODULE:CLASS]... [-- APP_ARGS...]")
    p.set_defaults(run=run)


def _split(args: argparse.Namespace) -> argparse.Namespace:
    rest = list(args.rest)
    if "--" in rest:
        cut = rest.index("--")
        head, app_args = rest[:cut], rest[cut + 1 :]
    else:
        head, app_args = rest, []
    inner = argparse.ArgumentParser(prog="python -m jhooks java")
    inner.add_argument("--classpath", "-cp", action="append", default=list(args.classpath))
    inner.add_argument("--hook", action="append", default=list(args.hook))
    inner.add_argument(
        "--verbose", "--debug", dest="verbose", action="store_true", default=getattr(args, "verbose", False)
    )
    inner.add_argument("main_class", metavar="MAIN_CLASS")
    parsed = inner.parse_args(head)
    parsed.app_args = app_args
    return parsed


def run(args: argparse.Namespace) -> int:
    """Usage errors (LauncherError, JvmError: e.g. a Python TensorFlow the JVM cannot share) are
    raised for jhooks.cli.main to print as one line. They are found before TensorFlow is imported
    and the JVM started, so nothing of theirs is printed before it, in the order: a ``--classpath``
    entry not there, what the set-up lacks (a JDK, a TensorFlow runtime the JVM can load), a
    ``--hook`` spec that cannot be built, a main class on no classpath entry."""
    from jhooks.bridge.launcher.app import launch
    from jhooks.bridge.launcher.specs import LauncherError, check
    from jhooks.bridge.process.classpath import classpath
    from jhooks.bridge.process.jvm import check_start, class_not_found
    from jhooks.cli import extensions
    from jhooks.cli.class_files import class_file_present

    parsed = _split(args)
    args.verbose = parsed.verbose  # given after MAIN_CLASS: main reads it from the outer namespace
    extra = [p for cp in parsed.classpath for p in cp.split(os.pathsep) if p]
    for entry in extra:
        if not os.path.exists(entry):
            raise LauncherError(
                f"--classpath entry {entry!r} does not exist (relative to {os.getcwd()}); "
                "give the path of your app's jar or classes directory"
            )
    # the jars of the other installed jhooks distributions (the example apps of jhooks-demo, ...)
    extra += [j for j in extensions.classpath() if j not in extra]
    check_start(natives=True)  # what the set-up lacks (a JDK, a TensorFlow runtime) first, as before
    for spec in parsed.hook:
        check(spec)
    searched = classpath() + extra
    if class_file_present(parsed.main_class, searched) is False:
        raise LauncherError(f"main class: {class_not_found(parsed.main_class, searched)}")
    return launch(parsed.main_class, parsed.app_args, parsed.hook, extra)
