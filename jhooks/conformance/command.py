"""``python -m jhooks conformance``: runs the shared conformance suite and prints a table.

Every scenario (jhooks/conformance/data/scenarios) under the chosen driver x hook-language
combinations; each case is passed, failed, xfailed (a failure listed with a reason in
data/xfail-python.json) or skipped (the combination does not apply). Exits 1 when a case failed.
The console shows the table, one line per failure and the counts; --verbose adds every mismatch,
runner stack traces and the cases' log records (stderr). --junit-xml writes a report CI systems
read. ``--hook-factory`` (Python), ``--java-hook-factory`` (Java, with ``--classpath``),
``--session-factory`` and ``--driver`` check your own code; see docs/conformance.md, "Check your
own hook, session creator or driver".
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

OUTCOMES = ("passed", "failed", "xfailed", "skipped")


def register(sub: argparse._SubParsersAction) -> None:
    from jhooks.conformance import combos

    p = sub.add_parser(
        "conformance",
        help="run the shared conformance suite (scenario x combination table)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--combo",
        action="append",
        metavar="COMBO",
        help="a driver x hook-language combination, repeatable (default: all six; with "
        "--session-factory the Python driver's, with --driver that driver's). One of: "
        + ", ".join(c.id for c in combos.ALL)
        + ", or <name>-driver-{python,java,mixed}-hooks of a --driver",
    )
    p.add_argument("--scenario", action="append", metavar="NAME", help="only this scenario, repeatable")
    p.add_argument("--json", metavar="PATH", help='also write {"results": [{scenario, combo, outcome}]} here')
    p.add_argument(
        "--junit-xml",
        metavar="PATH",
        help="also write JUnit XML here: a test case <scenario>[<combo>] per case, failures with every "
        "mismatch, skipped and xfailed cases as skipped, each case's log records as its system-err",
    )
    p.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="print every mismatch and stack trace of a failure, and the cases' log records (stderr) "
        "with their stack traces, and leave TensorFlow's C++ INFO lines on",
    )
    p.add_argument(
        "--hook-factory",
        metavar="MODULE:CALLABLE",
        help="a callable returning a new jhooks Hook; it is added last to every scenario under "
        "every driver (through the bridge on the JVM driver) and must raise nothing nor change the "
        "scenario's expected traces and outcome",
    )
    p.add_argument(
        "--java-hook-factory",
        metavar="CLASS[::METHOD]",
        help="a Java class implementing Supplier<Hook>, or with one public static no-argument method "
        "returning an org.jhooks.Hook (CLASS::METHOD names it); checked as --hook-factory, under "
        "every driver (through the bridge on the Python driver)",
    )
    p.add_argument(
        "--classpath",
        action="append",
        metavar="PATH",
        help=f"jars or class directories (separated by {os.pathsep}) added to the JVM's classpath, "
        "for --java-hook-factory; repeatable",
    )
    p.add_argument(
        "--driver",
        metavar="MODULE:CALLABLE",
        help="a jhooks.conformance.driver.ConformanceDriver (or a callable returning one) to check: "
        "registered under its name, its three combinations run by default",
    )
    p.add_argument(
        "--session-factory",
        metavar="MODULE:CALLABLE",
        help="a callable (checkpointDir or None) -> tf.compat.v1.train.SessionCreator used by the "
        "Python driver instead of ChiefSessionCreator",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from jhooks.conformance import driver

    before = set(driver.registered())
    try:
        return _run(args)
    finally:  # a --driver is registered for this run only
        for name in set(driver.registered()) - before:
            driver.unregister(name)


def _run(args: argparse.Namespace) -> int:
    from jhooks.conformance import combos, driver, report, runner, scenarios
    from jhooks.conformance.user_hooks import UserHookCheck, load_callable

    loaded = {}
    for flag, spec in (
        ("--hook-factory", args.hook_factory),
        ("--session-factory", args.session_factory),
        ("--driver", args.driver),
    ):
        if spec:
            try:
                loaded[flag] = load_callable(spec)
            except (ImportError, AttributeError, ValueError) as e:
                print(f"jhooks conformance: {flag} {spec}: {type(e).__name__}: {e}", file=sys.stderr)
                return 2
    default = list(combos.ALL)
    if args.driver:
        try:
            made = loaded["--driver"]
            the_driver = driver.register(made if isinstance(made, driver.ConformanceDriver) else made())
        except (TypeError, ValueError) as e:
            print(f"jhooks conformance: --driver {args.driver}: {type(e).__name__}: {e}", file=sys.stderr)
            return 2
        default = list(combos.for_driver(the_driver.name))
    elif args.session_factory:
        default = [c for c in combos.ALL if c.driver == "python"]
    try:
        chosen = [combos.parse(c) for c in args.combo] if args.combo else default
    except ValueError as e:
        print(f"jhooks conformance: --combo: {e}", file=sys.stderr)
        return 2
    names = args.scenario or scenarios.names()
    unknown = sorted(set(names) - set(scenarios.names()))
    if unknown:
        print(f"unknown scenario(s): {', '.join(unknown)}", file=sys.stderr)
        return 2
    user = None
    if args.hook_factory or args.java_hook_factory:
        user = UserHookCheck(loaded.get("--hook-factory"), args.java_hook_factory)
    if args.classpath or args.java_hook_factory:
        from jhooks.conformance.jars import start_jvm

        extra = [p for entry in args.classpath or [] for p in entry.split(os.pathsep) if p]
        try:
            # the JVM driver needs TensorFlow's natives; start it able to run them when any JVM case runs
            start_jvm(extra, natives=any(c.driver == "jvm" for c in chosen))
            if user is not None and args.java_hook_factory:
                user.javaFactory()
        except Exception as e:  # noqa: BLE001 - a factory that cannot load is the user's error, exit 2
            print(f"jhooks conformance: --java-hook-factory {args.java_hook_factory}: {e}", file=sys.stderr)
            return 2
    session_factory = loaded.get("--session-factory")
    xfail = runner.expected_failures()
    cases = [(n, c) for n in names for c in chosen]
    results = []
    durations: dict[str, float] = {}
    with _quiet_native_info(not args.verbose), report.captured_logs(args.verbose) as logs:
        for name, combo in _progress(cases):
            logs.start(runner.case_id(name, combo.id))
            started = time.perf_counter()
            result = runner.run_case(
                name,
                combo,
                xfail,
                sessionFactory=session_factory,
                extraHooks=user.extraHooks if user else None,
                check=user.check if user else None,
            )
            durations[result.id] = time.perf_counter() - started
            results.append(result)
    _print_table(names, chosen, results, args.verbose)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(
                {"results": [{"scenario": r.scenario, "combo": r.combo, "outcome": r.outcome} for r in results]},
                f,
                indent=1,
            )
    if args.junit_xml:
        report.write_junit_xml(args.junit_xml, results, durations, logs, _properties(args))
    return 1 if any(r.outcome == "failed" for r in results) else 0


def _properties(args: argparse.Namespace) -> dict[str, str]:
    from jhooks.api.version import VERSION

    out = {"jhooks.version": VERSION}
    for flag, spec in (
        ("hook-factory", args.hook_factory),
        ("java-hook-factory", args.java_hook_factory),
        ("session-factory", args.session_factory),
        ("driver", args.driver),
    ):
        if spec:
            out[flag] = spec
    return out


@contextmanager
def _quiet_native_info(quiet: bool) -> Iterator[None]:
    """TF_CPP_MIN_LOG_LEVEL=1 (TensorFlow's C++ runtime, shared by tensorflow-java, drops INFO lines
    such as "Local rendezvous is aborting") unless the user set it; read once, at the first C++ log."""
    if not quiet or "TF_CPP_MIN_LOG_LEVEL" in os.environ:
        yield
        return
    os.environ["TF_CPP_MIN_LOG_LEVEL"] = "1"
    try:
        yield
    finally:
        os.environ.pop("TF_CPP_MIN_LOG_LEVEL", None)


def _progress(cases: list[Any]) -> Any:
    try:
        from tqdm import tqdm
    except ImportError:
        return cases
    return tqdm(cases, desc="conformance", unit="case", file=sys.stderr, disable=not sys.stderr.isatty())


def _print_table(names: list[str], chosen: list[Any], results: list[Any], verbose: bool) -> None:
    from jhooks.conformance.report import failure_line

    by_case: dict[tuple, Any] = {(r.scenario, r.combo): r for r in results}
    width = max(len(n) for n in names)
    cols = [c.id for c in chosen]
    print(f"{'scenario':<{width}}  " + "  ".join(cols))
    for n in names:
        print(f"{n:<{width}}  " + "  ".join(f"{by_case[(n, c)].outcome:<{len(c)}}" for c in cols))
    failed = [r for r in results if r.outcome == "failed"]
    if failed and not verbose:
        print()
    for r in failed:
        print(f"\nFAILED {r.id}\n{r.detail}" if verbose else failure_line(r))
    counts = {o: sum(1 for r in results if r.outcome == o) for o in OUTCOMES}
    print()
    print(", ".join(f"{counts[o]} {o}" for o in OUTCOMES))
