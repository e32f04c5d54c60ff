"""The conformance suite's JVM-driver combinations on the jep backend: run by
``org.jhooks.conformance.EmbeddedConformance`` in a JVM started by plain ``java`` that embeds this
interpreter, so every scenario's Python hooks cross through jep instead of JPype
(docs/conformance.md, "Runners"; docs/bridge.md, "Backends")."""

from __future__ import annotations

from collections.abc import Sequence

from jhooks.conformance import combos, runner


def main(combo_ids: Sequence[str], scenario_names: Sequence[str] = ()) -> int:
    """Runs every scenario (or ``scenario_names``) under each JVM-driver combination of ``combo_ids``
    and prints one line per case, ``<outcome> <case id>`` followed by the mismatches of a failed
    case, then ``summary: ...``; returns the number of failed cases. Expected failures are those of
    ``data/xfail-python.json``, as for the JPype backend. Raises ValueError for a Python-driver
    combination (the JVM hosts this process: only its driver runs here)."""
    chosen = [combos.parse(str(c)) for c in combo_ids]
    for combo in chosen:
        if combo.driver != "jvm":
            raise ValueError(f"{combo.id}: only JVM-driver combinations run on the jep backend")
    names = [str(n) for n in scenario_names] or None
    xfail = runner.expected_failures()
    counts: dict[str, int] = {}
    for name, combo in runner.all_cases(chosen):
        if names is not None and name not in names:
            continue
        result = runner.run_case(name, combo, xfail)
        counts[result.outcome] = counts.get(result.outcome, 0) + 1
        print(f"{result.outcome} {result.id}", flush=True)
        if result.outcome == "failed":
            print("  " + result.detail.replace("\n", "\n  "), flush=True)
    print("summary: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())), flush=True)
    return counts.get("failed", 0)
