"""``python -m jhooks conformance``: runs the shared conformance suite and prints a table.

Every scenario (jhooks/conformance/data/scenarios) under the chosen driver x hook-language
combinations; each case is passed, failed, xfailed (a failure listed with a reason in
data/xfail-python.json) or skipped (the combination does not apply). Exits 1 when a case failed.
``--hook-factory`` and ``--session-factory`` check your own code; see docs/conformance.md,
"Run the conformance suite against your own hooks".
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Dict, List

OUTCOMES = ("passed", "failed", "xfailed", "skipped")


def register(sub: "argparse._SubParsersAction") -> None:
    from jhooks.conformance import combos

    p = sub.add_parser("conformance", help="run the shared conformance suite (scenario x combination table)",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--combo", action="append", choices=[c.id for c in combos.ALL], metavar="COMBO",
                   help="a driver x hook-language combination, repeatable (default: all six; with a factory: "
                        "the Python driver's). One of: " + ", ".join(c.id for c in combos.ALL))
    p.add_argument("--scenario", action="append", metavar="NAME", help="only this scenario, repeatable")
    p.add_argument("--json", metavar="PATH", help="also write {\"results\": [{scenario, combo, outcome}]} here")
    p.add_argument("--hook-factory", metavar="MODULE:CALLABLE",
                   help="a callable returning a new jhooks Hook; it is added to every scenario (Python driver; "
                        "JVM-driver cases are skipped) and must raise nothing nor change the scenario's expected "
                        "traces and outcome")
    p.add_argument("--session-factory", metavar="MODULE:CALLABLE",
                   help="a callable (checkpointDir or None) -> tf.compat.v1.train.SessionCreator used by the "
                        "Python driver instead of ChiefSessionCreator")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from jhooks.conformance import combos, runner, scenarios
    from jhooks.conformance.user_hooks import UserHookCheck, load_callable

    factory = args.hook_factory or args.session_factory
    default = [c for c in combos.ALL if c.driver == "python"] if factory else list(combos.ALL)
    chosen = [combos.parse(c) for c in args.combo] if args.combo else default
    names = args.scenario or scenarios.names()
    unknown = sorted(set(names) - set(scenarios.names()))
    if unknown:
        print(f"unknown scenario(s): {', '.join(unknown)}", file=sys.stderr)
        return 2
    loaded = {}
    for flag, spec in (("--hook-factory", args.hook_factory), ("--session-factory", args.session_factory)):
        if spec:
            try:
                loaded[flag] = load_callable(spec)
            except (ImportError, AttributeError, ValueError) as e:
                print(f"jhooks conformance: {flag} {spec}: {type(e).__name__}: {e}", file=sys.stderr)
                return 2
    user = UserHookCheck(loaded["--hook-factory"]) if args.hook_factory else None
    session_factory = loaded.get("--session-factory")
    xfail = runner.expected_failures()
    cases = [(n, c) for n in names for c in chosen]
    results = []
    for name, combo in _progress(cases):
        results.append(runner.run_case(name, combo, xfail, sessionFactory=session_factory,
                                       extraHooks=user.extraHooks if user else None,
                                       check=user.check if user else None))
    _print_table(names, chosen, results)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"results": [{"scenario": r.scenario, "combo": r.combo, "outcome": r.outcome} for r in results]},
                      f, indent=1)
    return 1 if any(r.outcome == "failed" for r in results) else 0


def _progress(cases: List[Any]) -> Any:
    try:
        from tqdm import tqdm
    except ImportError:
        return cases
    return tqdm(cases, desc="conformance", unit="case", file=sys.stderr, disable=not sys.stderr.isatty())


def _print_table(names: List[str], chosen: List[Any], results: List[Any]) -> None:
    by_case: Dict[tuple, Any] = {(r.scenario, r.combo): r for r in results}
    width = max(len(n) for n in names)
    cols = [c.id for c in chosen]
    print(f"{'scenario':<{width}}  " + "  ".join(cols))
    for n in names:
        print(f"{n:<{width}}  " + "  ".join(f"{by_case[(n, c)].outcome:<{len(c)}}" for c in cols))
    for r in results:
        if r.outcome == "failed":
            print(f"\nFAILED {r.id}\n{r.detail}")
    counts = {o: sum(1 for r in results if r.outcome == o) for o in OUTCOMES}
    print()
    print(", ".join(f"{counts[o]} {o}" for o in OUTCOMES))
